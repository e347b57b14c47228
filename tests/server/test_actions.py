"""The table reads each action once with the rules core: the core's refusals
map to the protocol's error codes (with the core's reason), a legal action
is read, checked and applied once, and each seat's ``turn`` says why each
card of its own hand may not be played now."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from rebelote.actions import Action, Play
from rebelote.cards import card_name, cards_of, parse_card
from rebelote.legality import RULES_DIGEST, SEED000, SEED001, SEED003
from rebelote.seats import SEATS_4, Seat
from rebelote.server.protocol.messages import (
    IllegalCards,
    ProtocolError,
    TurnEvent,
    envelope,
)
from rebelote.server.tables.game import SPECTATORS, Entry, TableGame
from rebelote.state import State

from .test_game import _game, _step


def _must_follow(max_seeds: int = 100) -> Iterator[tuple[TableGame, str, list[str], list[str]]]:
    """Games where S, to play, must follow a plain suit led (not trump) and
    holds cards of another suit: ``(game, led card, follow, off_suit)``,
    the cards named in the order of the hand's mask."""
    for seed in range(max_seeds):
        game = _game("ffb", seed=seed, target=1)
        rng = random.Random(seed)
        while game.status == "playing" and game.deal_number == 1:
            state = game.state
            assert state is not None
            if state.current == Seat.S and state.phase.value == "playing" and state.trick_cards:
                view = game.view(Seat.S)
                led = card_name(view.trick[0][1])
                assert view.contract is not None
                hand = [card_name(c) for c in cards_of(view.hand)]
                follow = [c for c in hand if c[-1] == led[-1]]
                off = [c for c in hand if c[-1] != led[-1]]
                legal = game.turn(Seat.S).legal
                plain = led[-1] != view.contract.strain.text
                if plain and follow and off and not legal[0].startswith("declare"):
                    yield game, led, follow, off
                    break
            for entry in _step(game, rng):
                game.apply(entry)


def _position() -> tuple[TableGame, str, list[str], list[str]]:
    for found in _must_follow():
        return found
    raise AssertionError("no position where S must follow suit in 100 seeds")


def _refusal(game: TableGame, seat: Seat, text: str, belote: bool | None = None) -> ProtocolError:
    version, entries = game.version, game.entries
    with pytest.raises(ProtocolError) as exc:
        game.request(seat, text, belote)
    assert (game.version, game.entries) == (version, entries)  # nothing changed
    return exc.value


def _wire(err: ProtocolError) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(envelope("error", err.data()))["d"]
    return data


def test_each_core_refusal_has_its_code() -> None:
    game, led, follow, off = _position()
    state = game.state
    assert state is not None
    legal = game.turn(Seat.S).legal
    assert sorted(legal) == sorted(follow)  # a plain suit led: any card of it

    # InvalidActionError: no action at all
    err = _refusal(game, Seat.S, "  hello   there ")
    assert _wire(err) == {
        "code": "bad_action",
        "message": f"'hello   there' is not an action; legal now: {' '.join(legal)}",
        "legal": legal,
    }

    # IllegalActionError, must follow suit: illegal, with the core's reason
    err = _refusal(game, Seat.S, off[0].lower())
    assert _wire(err) == {
        "code": "illegal",
        "message": f"{off[0].lower()} is not allowed at trick {state.trick_number} (playing): "
        f"must follow suit; legal now: {' '.join(legal)}",
        "legal": legal,
        "why": {
            "reason": "must_follow_suit",
            "option": None,
            "source": SEED000,
            "suit": led[-1],
            "house_rule": False,
        },
    }

    # IllegalActionError, another seat's turn: not_your_turn, nothing of S's hand
    err = _refusal(game, Seat.N, follow[0])
    assert _wire(err) == {
        "code": "not_your_turn",
        "message": "it is S's turn, not N's",
        "legal": [],
        "why": {
            "reason": "not_your_turn",
            "option": None,
            "source": SEED000,
            "suit": None,
            "house_rule": False,
        },
    }

    # IllegalActionError, an action of another phase
    err = _refusal(game, Seat.S, "take")
    assert err.code == "illegal"
    assert err.extra["why"] == {
        "reason": "wrong_phase",
        "option": None,
        "source": RULES_DIGEST,
        "suit": None,
        "house_rule": False,
    }

    # the table's own requests are read apart: no deal action
    err = _refusal(game, Seat.S, " NEXT ")
    assert _wire(err) == {
        "code": "illegal",
        "message": "next is allowed only when the deal is over",
        "legal": legal,
    }


def test_belote_choice_seed001() -> None:
    """AmbiguousActionError (seed 001: belote must be said): without
    ``belote`` it is ``belote_choice_required``; ``belote`` or the text form
    settles it; a text and a flag that disagree are refused."""
    for seed in range(200):
        game = _game("seed001", seed=seed, humans=tuple(SEATS_4), target=1)
        rng = random.Random(seed)
        while game.status == "playing" and game.deal_number == 1:
            state = game.state
            assert state is not None
            seat = state.current
            turn = game.turn(seat) if seat is not None else None
            if seat is not None and turn is not None and turn.belote_choice:
                card = turn.belote_choice[0]
                err = _refusal(game, seat, card)
                assert _wire(err) == {
                    "code": "belote_choice_required",
                    "message": f"say whether you announce belote with {card}: "
                    f"send '{card} belote' or '{card} no-belote' (or belote true or false)",
                    "legal": turn.legal,
                }
                err = _refusal(game, seat, f"{card} no-belote", True)
                assert (err.code, err.message) == (
                    "bad_action",
                    f"{card} no-belote says no belote, belote says true",
                )
                said = {"action": f"{card} belote", "by": "human"}
                quiet = {"action": f"{card} no-belote", "by": "human"}
                assert game.request(seat, card, True)[0].payload == said
                assert game.request(seat, card, False)[0].payload == quiet
                assert game.request(seat, f"{card} BELOTE", None)[0].payload == said
                assert game.request(seat, f"{card} no-belote", False)[0].payload == quiet
                # the page's buttons send the text alone
                assert game.request(seat, f"{card} no-belote", None)[0].payload == quiet
                assert game.request(seat, f"{card} belote", None)[0].payload == said
                outs = game.apply(game.request(seat, card, False)[0])
                kinds = [o.per_seat[seat][1].data["kind"] for o in outs]
                assert kinds[0] == "card"  # no belote said
                return
            for entry in _step(game, rng):
                game.apply(entry)
    raise AssertionError("no belote to say in 200 seeds")


def test_belote_word_where_there_is_no_choice_is_illegal() -> None:
    """``JS belote`` is no action where the card makes no belote: illegal,
    reason ``belote_not_held``; the ``belote`` flag beside a card without a
    belote choice is ignored."""
    game, _, follow, _ = _position()
    err = _refusal(game, Seat.S, f"{follow[0]} belote")
    assert err.code == "illegal"  # a card of the suit led, no trump: no belote
    assert err.extra["why"] == {
        "reason": "belote_not_held",
        "option": None,
        "source": SEED001,
        "suit": None,
        "house_rule": False,
    }
    (entry,) = game.request(Seat.S, follow[0], False)
    assert entry.payload == {"action": follow[0], "by": "human"}


def test_the_deal_over_refuses_cards() -> None:
    game = _game("ffb", seed=3, target=2000)
    rng = random.Random(3)
    while game.waiting != "next":
        for entry in _step(game, rng):
            game.apply(entry)
    err = _refusal(game, Seat.S, "AS")
    assert _wire(err) == {
        "code": "illegal",
        "message": "AS: the deal is over: send next",
        "legal": ["next"],
        "why": {
            "reason": "deal_over",
            "option": None,
            "source": RULES_DIGEST,
            "suit": None,
            "house_rule": False,
        },
    }
    err = _refusal(game, Seat.S, "fold")
    assert (err.code, err.extra["legal"]) == ("bad_action", ["next"])


def test_a_legal_action_is_read_checked_and_applied_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player's action: read once (``parse_action``, which checks it:
    one ``is_legal``), then applied once through ``apply_parsed``, which
    trusts it (no second check: the checked ``apply`` is never called).  A
    computer player's action, never read, is checked once, by ``apply``."""
    game, _, follow, _ = _position()
    played = Play(parse_card(follow[0]))
    calls: dict[str, list[Any]] = {"parse": [], "apply_parsed": [], "apply": [], "is_legal": []}
    real_parse, real_apply, real_is_legal = State.parse_action, State.apply, State.is_legal
    real_parsed = State.apply_parsed

    def parse_action(self: State, text: str, seat: Seat | None = None) -> Action:
        calls["parse"].append(text)
        return real_parse(self, text, seat)

    def apply_parsed(self: State, action: Action, seat: Seat | None = None, **kw: Any) -> Any:
        calls["apply_parsed"].append(action)
        return real_parsed(self, action, seat, **kw)

    def apply(self: State, action: Action, seat: Seat | None = None, **kw: Any) -> Any:
        calls["apply"].append(action)
        return real_apply(self, action, seat, **kw)

    def is_legal(self: State, action: Action, seat: Seat | None = None) -> bool:
        if action == played:
            calls["is_legal"].append(action)
        return real_is_legal(self, action, seat)

    monkeypatch.setattr(State, "parse_action", parse_action)
    monkeypatch.setattr(State, "apply_parsed", apply_parsed)
    monkeypatch.setattr(State, "apply", apply)
    monkeypatch.setattr(State, "is_legal", is_legal)
    entries = game.request(Seat.S, follow[0], None)
    assert calls == {"parse": [follow[0]], "apply_parsed": [], "apply": [], "is_legal": [played]}
    outs = game.apply(entries[0])
    # the legality check: once, inside parse_action; apply (checked) never
    assert calls == {
        "parse": [follow[0]],
        "apply_parsed": [played],
        "apply": [],
        "is_legal": [played],
    }
    kinds = [o.per_seat[Seat.S][1].data["kind"] for o in outs]
    assert kinds[0] == "card"
    # a computer player's action: built from the action itself, never read,
    # checked once by apply
    state = game.state
    assert state is not None and state.current is not None
    bot = state.current
    action = state.legal_actions()[0]
    for key in calls:
        calls[key].clear()
    game.apply(game.action_entry(bot, action, "bot"))
    assert (calls["parse"], calls["apply_parsed"], calls["apply"]) == ([], [action], [action])


def test_a_stored_action_is_read_once_on_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replaying a log (no action at hand): each ``act`` entry is read once
    by the core, then applied."""
    game = _game("ffb", seed=5, humans=tuple(SEATS_4), target=1)
    log: list[Entry] = []
    rng = random.Random(5)
    while game.waiting == "action":
        for entry in _step(game, rng):
            game.apply(entry)
            log.append(entry)
    acts = [e for e in log if e.kind == "act"]
    assert acts
    replica = _game("ffb", seed=5, humans=tuple(SEATS_4), target=1)
    read: list[str] = []
    real = State.parse_action

    def parse_action(self: State, text: str, seat: Seat | None = None) -> Action:
        read.append(text)
        return real(self, text, seat)

    monkeypatch.setattr(State, "parse_action", parse_action)
    for entry in log:
        replica.apply(Entry(entry.kind, entry.seat, dict(entry.payload)))
    assert read == [str(e.payload["action"]) for e in acts]
    assert replica.snapshot(Seat.S) == game.snapshot(Seat.S)


def test_turn_says_why_each_card_of_the_own_hand_is_illegal() -> None:
    """Each seat's own greyed cards, grouped by reason: S must follow the
    suit led, which the reason names; the others wait for their turn."""
    game, led, _, off = _position()
    turn = game.turn(Seat.S)
    assert turn.illegal == [
        IllegalCards(
            reason="must_follow_suit", option=None, source=SEED000, suit=led[-1], cards=off
        )
    ]
    for seat in (Seat.N, Seat.W, Seat.E):
        view = game.view(seat)
        hand = [card_name(c) for c in cards_of(view.hand)]
        assert game.turn(seat).illegal == [
            IllegalCards(reason="not_your_turn", option=None, source=SEED000, cards=hand)
        ]
    assert game.turn(SPECTATORS).illegal == []
    # the wire form, in the turn event and the snapshot
    event = TurnEvent(match=1, deal=1, **turn.model_dump())
    assert json.loads(envelope("event", event, 9))["d"]["illegal"] == [
        {
            "reason": "must_follow_suit",
            "option": None,
            "source": SEED000,
            "suit": led[-1],
            "house_rule": False,
            "cards": off,
        }
    ]
    assert game.snapshot(Seat.S).turn.illegal == turn.illegal


def test_turn_reasons_name_the_rule_option() -> None:
    """Seed 003 grants no partner exemption: a card refused while the
    partner wins the trick names the option ``partner_winning_exemption``
    and seed 003 as its source, a house rule (the FFB exempts him)."""
    seen: set[tuple[str, str | None, str, bool]] = set()
    for seed in range(60):
        game = _game("seed003", seed=seed, humans=tuple(SEATS_4), target=1)
        rng = random.Random(seed)
        while game.status == "playing" and game.deal_number == 1:
            state = game.state
            assert state is not None
            seat = state.current
            if seat is not None and state.phase.value == "playing":
                for group in game.turn(seat).illegal:
                    if group.option is not None:
                        seen.add((group.reason, group.option, group.source, group.house_rule))
            for entry in _step(game, rng):
                game.apply(entry)
    options = {option for _, option, _, _ in seen}
    assert "partner_winning_exemption" in options, seen
    for reason, option, source, house_rule in seen:
        if option == "partner_winning_exemption":
            assert (source, house_rule) == (SEED003, True)  # not the FFB's rule
            assert reason in (
                "must_trump",
                "must_overtrump",
                "may_not_undertrump",
                "must_undertrump",
            )


@pytest.mark.parametrize(
    "preset", ["ffb", "seed001", "seed003", "coinche", "three-players", "two-players"]
)
def test_every_card_of_the_hand_is_legal_or_has_a_reason(preset: str) -> None:
    """At every step of a match, for every seat: the cards of ``legal`` and
    those of the ``illegal`` groups are the seat's hand, each once; the
    reasons are the core's ``why_illegal`` of each card; a spectator gets
    none."""
    game = _game(preset, seed=11, humans=(), target=300)
    rng = random.Random(11)
    steps = 0
    while game.status == "playing":
        state = game.state
        assert state is not None
        for seat in game.order:
            turn = game.turn(seat)
            hand = [card_name(c) for c in cards_of(game.view(seat).hand)]
            cards = [c for c in turn.legal if c in hand]
            grouped = [c for g in turn.illegal for c in g.cards]
            assert sorted(cards + grouped) == sorted(hand)
            for group in turn.illegal:
                for card in group.cards:
                    why = state.why_illegal(Play(parse_card(card)), seat)
                    assert why is not None
                    assert (group.reason, group.option, group.source) == (
                        why.code,
                        why.option,
                        why.source,
                    )
        assert game.turn(SPECTATORS).illegal == []
        for entry in _step(game, rng) if game.pending() else []:
            game.apply(entry)
        steps += 1
    assert steps > 40


def test_a_table_names_its_preset_as_a_player_understands_it() -> None:
    """A table's rules carry the preset's key (as records write it) and its
    ``title``, the name a player understands, which pages word."""
    info = _game("seed001", seed=1, target=1).rules_info()
    assert (info.preset, info.title) == ("seed001", "belote-said")
    info = _game("ffb", seed=1, target=1).rules_info()
    assert (info.preset, info.title) == ("ffb", "ffb")
