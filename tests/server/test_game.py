"""The table's game without a server: requests, automation, belote said or
not, declarations, the score sheet, replay determinism."""

from __future__ import annotations

import random

import pytest

from rebelote.rules import preset
from rebelote.seats import SEATS_4, Seat, seats_of
from rebelote.server.protocol.messages import ProtocolError, TableOptions
from rebelote.server.tables.game import AutoStep, Entry, SeatSpec, TableGame


def _game(
    name: str = "ffb",
    *,
    seed: int = 1,
    humans: tuple[Seat, ...] = (Seat.S,),
    target: int | None = None,
    **options: object,
) -> TableGame:
    rules = preset(name) if target is None else preset(name).replace(target=target)
    seats = seats_of(rules.players)
    specs = {
        s: SeatSpec(s, "human", s.name) if s in humans else SeatSpec(s, "bot", s.name, "random")
        for s in seats
    }
    game = TableGame("t", rules, TableOptions.model_validate(options), seed, specs)
    for entry in game.start_entries():
        game.apply(entry)
    return game


def _step(game: TableGame, rng: random.Random) -> list[Entry]:
    """One move by whoever must move, at random."""
    step = game.pending()
    if step is not None and step.kind != "bot":
        return game.automatic_entry(step)
    if step is not None:
        assert step.seat is not None
        view = game.view(step.seat)
        return [game.action_entry(step.seat, rng.choice(view.legal), "bot")]
    for seat in game.humans:
        turn = game.turn(seat)
        if turn.legal:
            action = rng.choice(turn.legal)
            belote = rng.random() < 0.5 if action in turn.belote_choice else None
            return game.request(seat, action, belote)
    raise AssertionError("nobody can move")


def test_requests_out_of_turn_and_table_actions() -> None:
    game = _game(humans=tuple(SEATS_4), player_cuts=True, player_chooses_pattern=True)
    state = game.state
    assert state is not None and state.current is not None
    cutter = state.current
    other = next(s for s in SEATS_4 if s != cutter)
    with pytest.raises(ProtocolError) as exc:
        game.request(other, "cut 5", None)
    assert exc.value.code == "not_your_turn"
    with pytest.raises(ProtocolError) as exc:
        game.request(cutter, "next", None)
    assert exc.value.code == "illegal" and "the deal is over" in exc.value.message
    with pytest.raises(ProtocolError) as exc:
        game.request(cutter, "cut 40", None)
    assert exc.value.code == "illegal" and "cut 5" in (exc.value.extra["legal"] or [])
    with pytest.raises(ProtocolError) as exc:
        game.request(cutter, "hello there", None)
    assert exc.value.code == "bad_action"
    version = game.version
    (entry,) = game.request(cutter, "  CUT   7 ", None)  # spaces and case do not matter
    assert entry.payload == {"action": "cut 7", "by": "human"}
    assert game.version == version  # a request changes nothing
    game.apply(entry)
    assert game.state is not None and game.state.phase.value == "pattern"


def test_automatic_steps() -> None:
    game = _game(humans=tuple(SEATS_4))  # everyone human, cut and pattern automatic
    phases = []
    while (step := game.pending()) is not None:
        assert game.state is not None
        assert step == AutoStep("auto", game.state.current)
        phases.append(game.state.phase.value)
        for entry in game.automatic_entry(step):
            game.apply(entry)
    assert phases == ["cut", "pattern"]  # the cutter cuts, the dealer deals
    assert game.state is not None and game.state.phase.value == "bidding"
    assert game.pending() is None  # a human bids himself


def test_forced_card_is_played_for_the_player() -> None:
    rng = random.Random(2)
    game = _game(humans=tuple(SEATS_4), auto_play_forced=True)
    forced = 0
    while game.status == "playing" and forced == 0:
        step = game.pending()
        if step is not None and step.kind == "forced":
            assert step.seat is not None
            state = game.state
            assert state is not None and len(state.legal_actions()) == 1
            assert game.turn(step.seat).auto
            forced += 1
        for entry in _step(game, rng):
            game.apply(entry)
    assert forced


def test_belote_said_or_not_seed001() -> None:
    """Seed 001: belote counts only if said; the player must say which."""
    for seed in range(200):
        game = _game("seed001", seed=seed, humans=tuple(SEATS_4), target=1)
        rng = random.Random(seed)
        while game.status == "playing" and game.deal_number == 1:
            state = game.state
            assert state is not None
            seat = state.current
            if seat is not None:
                turn = game.turn(seat)
                if turn.belote_choice:
                    card = turn.belote_choice[0]
                    with pytest.raises(ProtocolError) as exc:
                        game.request(seat, card, None)
                    assert exc.value.code == "belote_choice_required"
                    (entry,) = game.request(seat, card, True)
                    assert entry.payload["action"] == f"{card} belote"
                    outs = game.apply(entry)
                    kinds = [o.per_seat[seat][1].data["kind"] for o in outs]
                    assert kinds[0] == "belote" and kinds[1] == "card"
                    return
            for entry in _step(game, rng):
                game.apply(entry)
    raise AssertionError("no deal with a belote to say in 200 seeds")


def test_declarations_offered_to_the_player() -> None:
    for seed in range(200):
        game = _game("ffb", seed=seed, humans=tuple(SEATS_4), target=1)
        rng = random.Random(seed)
        while game.status == "playing" and game.deal_number == 1:
            state = game.state
            assert state is not None
            seat = state.current
            if seat is not None and state.phase.value == "playing":
                legal = game.turn(seat).legal
                if legal and legal[0].startswith("declare"):
                    assert "declare none" in legal
                    choice = next(t for t in legal if t != "declare none")
                    (entry,) = game.request(seat, choice, None)
                    outs = game.apply(entry)
                    # the declarer gets its texts and cards; the others the
                    # natures alone (FFB coinche 2015, 8.2)
                    data = outs[0].per_seat[seat][1].data
                    assert data["kind"] == "declared" and data["seat"] == seat.letter
                    assert data["declarations"] == choice.split()[1:]
                    assert data["cards"]
                    other = next(s for s in SEATS_4 if s != seat)
                    seen = outs[0].per_seat[other][1].data
                    assert seen["declarations"] == [t.split("-")[0] for t in choice.split()[1:]]
                    assert seen["cards"] == []
                    return
            for entry in _step(game, rng):
                game.apply(entry)
    raise AssertionError("no declaration in 200 seeds")


def test_auto_next_and_tables_without_humans() -> None:
    game = _game(humans=(), target=200)
    rng = random.Random(3)
    while game.status == "playing":
        if game.waiting == "next":
            assert game.pending() == AutoStep("next")
        for entry in _step(game, rng) if game.pending() else []:
            game.apply(entry)
    assert game.pending() is None and game.waiting == "rematch"
    waiting = _game(target=200)
    assert waiting.options.auto_next is False
    auto = _game(target=200, auto_next=True)
    assert auto.options.auto_next is True


def test_sheet_totals_and_replay_determinism() -> None:
    game = _game("three-players", target=300, player_cuts=True)
    rng = random.Random(9)
    log: list[Entry] = []
    for entry in game.start_entries()[:0]:
        log.append(entry)
    replica = _game("three-players", target=300, player_cuts=True)
    while game.status == "playing":
        for entry in _step(game, rng):
            outs = game.apply(entry)
            assert replica.apply(entry) == outs
            log.append(entry)
    assert game.match is not None and game.match.winner is not None
    sheet = game.match_info().sheet
    assert sheet and sheet[-1].totals == game.match_info().totals
    running = {"W": 0, "S": 0, "E": 0}
    for line in sheet:
        for side, points in line.score.items():
            running[side] += points
        assert line.totals == running
    with pytest.raises(ProtocolError) as exc:
        game.request(Seat.S, "AS", None)
    assert exc.value.code == "illegal" and exc.value.extra["legal"] == ["rematch"]


def test_declining_is_told_to_nobody_else() -> None:
    """A seat that declares nothing must not let the others learn that it
    held a declaration: they get no message at all (not even a turn)."""
    for seed in range(200):
        game = _game("ffb", seed=seed, humans=tuple(SEATS_4), target=1)
        rng = random.Random(seed)
        while game.status == "playing" and game.deal_number == 1:
            state = game.state
            assert state is not None
            seat = state.current
            if seat is not None and "declare none" in game.turn(seat).legal:
                outs = game.apply(game.request(seat, "declare none", None)[0])
                mine = [o.per_seat[seat][1].data["kind"] for o in outs]
                if "declined" not in mine:  # an engine that makes declining public
                    assert "declared" in mine
                    return
                assert all(set(o.per_seat) == {seat} for o in outs)
                return
            for entry in _step(game, rng):
                game.apply(entry)
    raise AssertionError("no declaration in 200 seeds")
