"""Help against the computer (issue 16): hints and takebacks.

The game alone: a takeback restores the exact table (hand, trick, scores,
the deal's actions) as every stream saw it before, the versions going on;
its log replays to the same streams; a deal over is taken out of the match.
Over the socket: a hint is the expert's (``rebelote hint``'s values from the
seat's own view), both are refused at a rated table with their own code,
a takeback is applied once (its id), a click sent before it is stale, the
table comes back the same after a restart, and the records leave out what
was taken back."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import httpx
import pytest

from rebelote.bots.hint import hint_view
from rebelote.record import replay
from rebelote.rules import preset
from rebelote.seats import SEATS_4, Seat
from rebelote.server.protocol.messages import HintData, ProtocolError, TableOptions
from rebelote.server.tables import assist
from rebelote.server.tables.game import Entry, SeatSpec, TableGame
from rebelote.server.tables.table import Table

from .live import Client, LiveServer, Message
from .net import decode, lobby_table

# ------------------------------------------------------------------ the game


def _game(seed: int = 3, *, target: int = 1000, humans: tuple[Seat, ...] = (Seat.S,)) -> TableGame:
    rules = preset("ffb").replace(target=target)
    specs = {
        s: SeatSpec(s, "human", "Ada") if s in humans else SeatSpec(s, "bot", s.name, "random")
        for s in SEATS_4
    }
    game = TableGame("t", rules, TableOptions(), seed, specs)
    return game


def _start(game: TableGame, log: list[Entry]) -> None:
    for entry in game.start_entries():
        game.apply(entry)
        log.append(entry)


def _run(game: TableGame, log: list[Entry], rng: random.Random, human: bool = False) -> None:
    """The server's steps (computer players at random) until a human must
    decide; with ``human``, S first makes one move at random."""
    if human:
        turn = game.turn(Seat.S)
        action = rng.choice(turn.legal)
        entry = game.request(Seat.S, action, False if action in turn.belote_choice else None)[0]
        game.apply(entry)
        log.append(entry)
    while (step := game.pending()) is not None and step.kind != "next":
        if step.kind == "bot":
            assert step.seat is not None
            entry = game.action_entry(step.seat, rng.choice(game.view(step.seat).legal), "bot")
            entries = [entry]
        else:
            entries = game.automatic_entry(step)
        for e in entries:
            game.apply(e)
            log.append(e)


def _views(game: TableGame) -> dict[Any, Any]:
    return {key: game.snapshot(key).model_dump(mode="json") for key in game.keys}


def _without_help(snap: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in snap.items() if k != "help"}


def test_a_takeback_restores_the_table_every_stream_saw() -> None:
    game = _game()
    log: list[Entry] = []
    rng = random.Random(1)
    _start(game, log)
    _run(game, log, rng)
    # a few of S's decisions, then the one whose table we keep
    for _ in range(6):
        _run(game, log, rng, human=True)
    assert game.state is not None and game.state.current == Seat.S
    before = _views(game)
    actions = game.actions_in_deal
    hand = game.state.hands[Seat.S]
    versions = dict(game.versions)
    _run(game, log, rng, human=True)  # S acts, the computers answer
    assert game.state.hands[Seat.S] != hand or game.actions_in_deal != actions
    seen = dict(game.versions)
    entry = game.takeback_entry(Seat.S)
    assert entry.payload == {"to": actions}
    outs = game.apply(entry)
    log.append(entry)
    assert game.actions_in_deal == actions and game.state.hands[Seat.S] == hand
    # one event per stream, numbered after what it saw: a takeback holding
    # that stream's table as it was before S acted
    (out,) = outs
    assert set(out.per_seat) == set(game.keys)
    for key, (v, data) in out.per_seat.items():
        assert v == seen[key] + 1 > versions[key]
        assert data.data["kind"] == "takeback" and data.data["seat"] == "S"
        assert (data.data["hints"], data.data["takebacks"]) == (0, 1)
        assert _without_help(data.data["snapshot"]) == _without_help(before[key])
        assert data.data["snapshot"]["help"] == {
            "allowed": True,
            "hints": 0,
            "takebacks": 1,
            "hints_by_seat": {},
        }
    assert {k: _without_help(v) for k, v in _views(game).items()} == {
        k: _without_help(v) for k, v in before.items()
    }
    # the versions a stale action is judged against: the takeback's
    assert game.turn_versions[Seat.S] == game.versions[Seat.S] == seen[Seat.S] + 1
    # the log replays to the same streams and table
    replica = _game()
    for e in log[:-1]:
        replica.apply(e)
    assert replica.apply(log[-1]) == outs
    assert _views(replica) == _views(game)


def test_a_deal_over_is_never_taken_back() -> None:
    """Once the deal is over (its whole result shown), its cards stay
    played: ``takeback_deal_over``, nothing changed, and the turn tells S
    that it may not take back (while it could on its last card)."""
    game = _game(seed=5)
    log: list[Entry] = []
    rng = random.Random(2)
    _start(game, log)
    _run(game, log, rng)
    while game.state is not None and not game.state.is_terminal:
        _run(game, log, rng, human=True)
        if not game.state.is_terminal:
            assert game.turn(Seat.S).takeback is True
    assert game.match is not None and game.waiting == "next"
    assert len(game.sheet) == 1 and game.summary is not None
    before = _views(game)
    sheet = list(game.sheet)
    assert game.turn(Seat.S).takeback is False
    assert game.may_take_back(Seat.S) is False
    with pytest.raises(ProtocolError) as exc:
        game.takeback_entry(Seat.S)
    assert exc.value.code == "takeback_deal_over"
    assert _views(game) == before and game.sheet == sheet


def test_the_turn_says_when_a_takeback_is_possible() -> None:
    """At the deal's start S has nothing to take back: the turn says
    ``takeback`` false (the page greys the button); after S's first
    decision, true; a computer seat and the spectators: false."""
    game = _game()
    log: list[Entry] = []
    rng = random.Random(1)
    _start(game, log)
    _run(game, log, rng)
    assert not any(s == Seat.S for s, _, _ in game.deal_actions)
    assert game.turn(Seat.S).takeback is False
    _run(game, log, rng, human=True)
    assert game.turn(Seat.S).takeback is True
    assert game.turn(Seat.N).takeback is False
    assert game.turn(None).takeback is False
    # another human seated: no takeback, whatever S did
    two = _game(humans=(Seat.S, Seat.N))
    two_log: list[Entry] = []
    _start(two, two_log)
    assert two.may_take_back(Seat.S) is False


def test_nothing_to_take_back() -> None:
    game = _game()
    log: list[Entry] = []
    _start(game, log)
    _run(game, log, random.Random(1))
    if game.actions_in_deal and any(s == Seat.S for s, _, _ in game.deal_actions):
        pytest.skip("S acted already")  # pragma: no cover - the seed says it did not
    with pytest.raises(ProtocolError) as exc:
        game.takeback_entry(Seat.S)
    assert exc.value.code == "takeback_none"


# ------------------------------------------------------------------ the socket


def _decision(client: Client, phase: str | None = None, hand: int | None = None) -> Message:
    """Read until S decides (in ``phase``, with at most ``hand`` cards);
    S's other decisions are made at random (the first legal action)."""
    while True:
        turn = client.my_decision("S")
        if turn["waiting"] == "next":
            client.act("next")
        elif (phase is None or turn["phase"] == phase) and (
            hand is None or client_hand(client) <= hand
        ):
            return turn
        else:
            client.act(
                turn["legal"][0], False if turn["legal"][0] in turn["belote_choice"] else None
            )
        client.turn = None


def client_hand(client: Client) -> int:
    snap = client.sync()
    return len(snap["view"]["hand"])


def _hint(client: Client) -> Message:
    client.send("hint", {"id": "h1"})
    msg = client.recv_until(lambda m: m["t"] in ("hint", "error"), timeout=60)
    return msg


def test_hints_and_takebacks_are_refused_at_a_rated_table(server: LiveServer) -> None:
    table_id, players = lobby_table(server, ["Ada"], bots="random", ranked=True)
    with players[0].connect(table_id) as client:
        client.my_decision("S")
        client.send("hint")
        error = client.error()
        assert error["code"] == "rated_table"
        assert decode({"t": "error", "d": error}).code == "rated_table"
        client.send("takeback", {"id": "t1"})
        assert client.error()["code"] == "rated_table"
        snap = client.sync()
        assert snap["help"] == {
            "allowed": False,
            "hints": 0,
            "takebacks": 0,
            "hints_by_seat": {},
        }


def test_a_takeback_needs_no_other_human(server: LiveServer) -> None:
    table_id, players = lobby_table(server, ["Ada", "Bob"], bots="random")
    with players[0].connect(table_id) as client:
        client.send("takeback")
        assert client.error()["code"] == "takeback_others"


def test_a_hint_is_the_experts_from_the_seats_view(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the safety net out of the way: a loaded machine must not cut the
    # server's worlds (the same seed then gives the same hint)
    monkeypatch.setattr(assist, "HINT_TIME_MS", 120_000.0)
    created = server.create(
        preset="ffb", target=1000, levels={"N": "random", "W": "random", "E": "random"}
    )
    table_id = created["table_id"]
    with server.connect(table_id, created["token"]) as client:
        turn = _decision(client, phase="playing", hand=6)
        table = server.manager.driven(table_id)
        assert isinstance(table, Table)
        view = table.game.view(Seat.S)
        expected = hint_view(
            view,
            view.legal,
            seed=table.game.decision_seed(Seat.S),
            after=table.game.actions_in_deal,
        )
        msg = _hint(client)
        assert msg["t"] == "hint", msg
        hint = HintData.model_validate(msg["d"]).model_dump()
        assert msg["d"]["id"] == "h1"
        assert {v["action"] for v in msg["d"]["values"]} == set(turn["legal"])
        assert all(v["value"] is not None for v in msg["d"]["values"])
        assert {k: v for k, v in hint.items() if k != "id"} == {
            **expected,
            "values": [{"action": v["action"], "value": v["value"]} for v in expected["values"]],
        }
        # the table's marker, to every stream, before the answer
        (help_event,) = [e for e in client.events if e["kind"] == "help"]
        assert (help_event["seat"], help_event["hints"], help_event["takebacks"]) == ("S", 1, 0)
        assert client.sync()["help"] == {
            "allowed": True,
            "hints": 1,
            "takebacks": 0,
            "hints_by_seat": {"S": 1},
        }
        # a second tab of the same seat asks the same decision's hint: the
        # same answer, counted once (no second help event)
        with server.connect(table_id, created["token"]) as other:
            other.recv_until(lambda m: m["t"] == "snapshot")
            other.send("hint", {"id": "h2"})
            again = other.recv_until(lambda m: m["t"] in ("hint", "error"), timeout=60)
            assert again["t"] == "hint" and again["d"]["expert"] == msg["d"]["expert"]
            assert other.sync()["help"]["hints"] == 1
            assert [e for e in other.events if e["kind"] == "help"] == []
        assert client.sync()["help"]["hints_by_seat"] == {"S": 1}
        # not S's decision: no hint
        client.act(turn["legal"][0], False if turn["legal"][0] in turn["belote_choice"] else None)
        client.recv_until(lambda m: m["t"] == "event" and m["d"]["kind"] == "card")
        client.send("hint")
        reply = client.recv_until(lambda m: m["t"] in ("hint", "error"))
        if reply["t"] == "error":  # else the computers were quick: S decides again
            assert reply["d"]["code"] == "not_your_turn"


def test_a_takeback_over_the_socket_once_and_after_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'help.db'}"
    with LiveServer(url) as live:
        created = live.create(preset="ffb", target=1000)
        table_id, token = created["table_id"], created["token"]
        with live.connect(table_id, token) as client:
            _decision(client, phase="playing", hand=6)
            before = client.sync()
            old_v = client.v
            turn = client.turn
            assert turn is not None
            card = turn["legal"][0]
            client.act(card, False if card in turn["belote_choice"] else None)
            client.recv_until(lambda m: m["t"] == "event" and m["d"]["kind"] == "card")
            client.send("takeback", {"id": "t1"})
            event = client.recv_until(lambda m: m["t"] == "event" and m["d"]["kind"] == "takeback")
            assert event["d"]["takebacks"] == 1
            ack = client.recv_until(lambda m: m["t"] == "ack")
            assert ack["d"] == {"id": "t1", "duplicate": False}
            assert _without_help(event["d"]["snapshot"]) == _without_help(before)
            assert card in event["d"]["snapshot"]["view"]["hand"]
            taken_v = event["v"]
            # the same id again: acknowledged, not applied twice
            client.send("takeback", {"id": "t1"})
            ack = client.recv_until(lambda m: m["t"] == "ack")
            assert ack["d"] == {"id": "t1", "duplicate": True}
            after = client.sync()
            assert client.v == taken_v
            assert after == event["d"]["snapshot"]
            # a click made before the takeback is stale; nothing changed
            client.ws.send(
                json.dumps({"t": "act", "d": {"action": card, "id": "late"}, "v": old_v})
            )
            assert client.error()["code"] == "stale"
            # a takeback asked before the last one was seen: stale too
            client.ws.send(json.dumps({"t": "takeback", "d": {"id": "t2"}, "v": taken_v - 1}))
            assert client.error()["code"] == "takeback_stale"
            assert client.sync() == after and client.v == taken_v
    # the log replays after a restart: the same table, the same version
    with LiveServer(url) as live, live.connect(table_id, token) as client:
        msg = client.recv_until(lambda m: m["t"] == "snapshot")
        assert msg["v"] == taken_v and msg["d"] == after
        # the deal played on to its end: its record leaves the undone card out
        while True:
            turn = client.my_decision("S")
            if turn["waiting"] == "next":
                break
            client.act(
                turn["legal"][0], False if turn["legal"][0] in turn["belote_choice"] else None
            )
            client.turn = None
        with httpx.Client(base_url=live.url, timeout=10) as http:
            record = http.get(
                f"/api/tables/{table_id}/record", params={"match": 1, "deal": 1, "token": token}
            )
            assert record.status_code == 200, record.text
            summary = replay(record.json())
            assert summary["result"] in ("made", "dedans", "capot", "litige")
            data = http.get(f"/api/tables/{table_id}/replay", params={"token": token}).json()
            assert data["deals"][0]["help"] == {"hints": 0, "takebacks": 1}


# ------------------------------------------------------------------ the pace


def test_the_computers_pace_changes_during_a_match_and_survives_a_restart(
    tmp_path: Path,
) -> None:
    """A player alone against the computer sets the computer players'
    speed during the match (``options``): every stream gets an ``options``
    event, the snapshot's ``table.options.speed`` says it, the table's
    pace is that speed's, and a restarted server keeps it (a log
    entry).  A bad speed changes nothing."""
    url = f"sqlite:///{tmp_path / 'pace.db'}"
    with LiveServer(url) as live:
        created = live.create(
            preset="ffb",
            target=1000,
            options={"speed": "slow"},
            levels={"N": "random", "W": "random", "E": "random"},
        )
        table_id, token = created["table_id"], created["token"]
        with live.connect(table_id, token) as client:
            client.recv_until(lambda m: m["t"] == "snapshot")
            assert client.sync()["table"]["options"]["speed"] == "slow"
            client.send("options", {"speed": "fast"})
            event = client.recv_until(lambda m: m["t"] == "event" and m["d"]["kind"] == "options")
            assert (event["d"]["seat"], event["d"]["speed"]) == ("S", "fast")
            assert client.sync()["table"]["options"]["speed"] == "fast"
            table = live.manager.driven(table_id)
            assert isinstance(table, Table) and table.game.options.speed == "fast"
            client.ws.send(json.dumps({"t": "options", "d": {"speed": "warp"}}))
            assert client.error()["code"] == "bad_message"
            assert client.sync()["table"]["options"]["speed"] == "fast"
    with LiveServer(url) as live, live.connect(table_id, token) as client:
        msg = client.recv_until(lambda m: m["t"] == "snapshot")
        assert msg["d"]["table"]["options"]["speed"] == "fast"


def test_the_pace_is_not_changed_where_other_people_play(server: LiveServer) -> None:
    table_id, players = lobby_table(server, ["Ada", "Bob"], bots="random")
    with players[0].connect(table_id) as client:
        client.recv_until(lambda m: m["t"] == "snapshot")
        before = client.sync()["table"]["options"]["speed"]
        client.send("options", {"speed": "instant"})
        assert client.error()["code"] == "options_others"
        assert client.sync()["table"]["options"]["speed"] == before
