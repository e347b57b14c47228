"""Protocol tests against a live server (uvicorn on 127.0.0.1, the
``websockets`` client): whole matches by a scripted client, refused
messages, reconnection, restart, and what the player's stream reveals."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from .live import Client, LiveServer, Message, play_match

FAST = {"speed": "instant", "auto_play_forced": False}


def _side_of(seat: str, players: int) -> str:
    if players != 4:
        return seat
    return "NS" if seat in "NS" else "EW"


@pytest.mark.parametrize(
    ("preset", "target", "options"),
    [
        ("ffb", 400, FAST),
        ("seed000", 300, {**FAST, "player_cuts": True, "player_chooses_pattern": True}),
        ("seed000-tout-atout", 300, FAST),
        ("seed001", 300, {**FAST, "auto_play_forced": True}),
        ("seed003", 300, FAST),
        ("coinche", 300, FAST),
        ("three-players", 300, {**FAST, "player_cuts": True}),
        ("two-players", 300, {**FAST, "player_cuts": True}),
    ],
)
def test_whole_match_by_a_scripted_client(
    server: LiveServer, preset: str, target: int, options: dict[str, Any]
) -> None:
    created = server.create(preset=preset, target=target, name="Ada", options=options)
    assert created["seat"] == "S"
    with server.connect(created["table_id"], created["token"]) as client:
        first = client.recv()
        assert first["t"] == "snapshot"
        snap = first["d"]
        assert snap["table"]["you"] == "S"
        players = snap["table"]["rules"]["players"]
        assert [s["seat"] for s in snap["table"]["seats"]] == (
            {2: ["W", "S"], 3: ["W", "S", "E"], 4: ["N", "W", "S", "E"]}[players]
        )
        assert snap["match"]["target"] == target
        end = play_match(client, random.Random(7))
        kinds = {e["kind"] for e in client.events}
        assert {"turn", "card", "trick", "deal_end", "match_end"} <= kinds
        deal_ends = [e for e in client.events if e["kind"] == "deal_end"]
        assert end["sheet"] == [e["line"] for e in deal_ends]
        assert max(end["totals"].values()) >= target
        assert end["totals"][end["winner"]] == max(end["totals"].values())
        assert end["totals"] == deal_ends[-1]["totals"]
        for e in deal_ends:
            summary = e["summary"]
            if summary["result"] not in ("passed", "cancelled"):
                assert len(summary["tricks"]) == 8
                points = sum(summary["card_points"].values()) + 10
                # Two players: 16 cards played, 16 set aside (RULES.md "Two players").
                assert points == 162 if players != 2 else 10 <= points <= 162
        # the match is over: the seat may ask for a rematch, nothing else
        assert client.turn is not None and client.turn["legal"] == ["rematch"]
        client.act("rematch")
        start = client.recv_until(lambda m: m["t"] == "event" and m["d"]["kind"] == "match_start")
        assert start["d"]["match"] == 2
        snap2 = client.sync()
        assert snap2["match"]["number"] == 2 and snap2["match"]["sheet"] == []
        assert snap2["table"]["status"] == "playing"
        assert _side_of("S", players) in snap2["match"]["totals"]


def _decision(client: Client, phase: str | None = None) -> Message:
    """Play on (S acts at random) until S has a decision in ``phase``."""
    rng = random.Random(3)
    while True:
        client.my_decision()
        turn = client.turn
        assert turn is not None
        if turn["waiting"] == "action" and (phase is None or turn["phase"] == phase):
            return turn
        if turn["waiting"] == "next":
            client.act("next")
        else:
            client.act(rng.choice(turn["legal"]))
        client.turn = None


def test_illegal_action_refused_and_nothing_changes(server: LiveServer) -> None:
    created = server.create(preset="ffb", options=FAST)
    with server.connect(created["table_id"], created["token"]) as client:
        client.recv()
        turn = _decision(client, "playing")
        before = client.sync()
        hand = before["view"]["hand"]
        illegal = [c for c in hand if c not in turn["legal"]]
        others = [c for c in ("7S", "AS", "JH", "10D", "KC") if c not in hand]
        # a card not in the hand, a card of the hand that may not be played, a bid now
        for text in [others[0], *illegal[:1], "take"]:
            client.act(text)
            err = client.error()
            assert err["code"] == "illegal", err
            assert text in err["message"] and "legal now" in err["message"]
            assert sorted(err["legal"]) == sorted(turn["legal"])
        client.act("fold the cards")
        assert client.error()["code"] == "bad_action"
        client.act("next")
        assert client.error()["code"] == "illegal"
        after = client.sync()
        assert after == before
        # nothing was published meanwhile: the stream did not move
        assert [m for m in client.received if m["t"] == "event"][-1]["v"] == client.v


def test_not_your_turn_and_not_your_seat(db_url: str) -> None:
    live = LiveServer(db_url, bot_delay=30.0).start()
    try:
        created = live.create(preset="ffb", options={"player_cuts": True})
        with live.connect(created["table_id"], created["token"]) as client:
            snap = client.recv()["d"]
            if snap["turn"]["seat"] == "S":  # S cuts first: then the dealer (a bot) waits
                client.act("cut 10")
                client.recv_until(
                    lambda m: (
                        m["t"] == "event" and m["d"]["kind"] == "turn" and m["d"]["seat"] != "S"
                    )
                )
            assert client.turn is not None
            bot = client.turn["seat"]
            assert bot != "S" and client.turn["legal"] == []
            before = client.sync()
            client.act("pass")
            err = client.error()
            assert err["code"] == "not_your_turn" and bot in err["message"]
            client.act("pass", seat=bot)
            err = client.error()
            assert err["code"] == "not_your_seat"
            assert client.sync() == before
    finally:
        live.stop()


def test_wrong_tokens_refused(server: LiveServer) -> None:
    a = server.create(preset="ffb", options=FAST)
    b = server.create(preset="ffb", options=FAST)
    for table_id, token in [
        (a["table_id"], "not-a-token"),
        (a["table_id"], b["token"]),  # a seat at another table
    ]:
        with server.connect(table_id, token) as client:
            err = client.recv()
            assert err["t"] == "error" and err["d"]["code"] == "bad_token"
            with pytest.raises(ConnectionClosed) as closed:
                client.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    with server.connect("no-such-table", a["token"]) as client:
        assert client.recv()["d"]["code"] == "table_not_found"
    # authenticating by hello: anything before it is refused
    with server.connect(a["table_id"], None) as client:
        client.act("pass")
        assert client.recv()["d"]["code"] == "not_authenticated"
        client.send("hello", {"token": a["token"]})
        assert client.recv()["t"] == "snapshot"
        client.send("hello", {"token": b["token"]})
        assert client.error()["code"] == "bad_token"


def test_malformed_messages_refused(server: LiveServer) -> None:
    created = server.create(preset="ffb", options=FAST)
    with server.connect(created["table_id"], created["token"]) as client:
        client.recv()
        _decision(client)
        before = client.sync()
        cases: list[tuple[str | bytes, str]] = [
            ("{not json", "bad_json"),
            (b"\xff\xfe", "bad_json"),
            ("[1, 2]", "bad_json"),
            ('{"t": "shout", "d": {}}', "unknown_type"),
            ('{"d": {}}', "unknown_type"),
            ('{"t": "act", "d": {}}', "bad_message"),
            ('{"t": "act", "d": {"action": 12}}', "bad_message"),
            ('{"t": "act", "d": {"action": "pass", "extra": 1}}', "bad_message"),
            ('{"t": "act", "d": {"action": "pass", "seat": "X"}}', "bad_message"),
            ('{"t": "hello", "d": {"token": ""}}', "bad_message"),
            (json.dumps({"t": "act", "d": {"action": "x" * 5000}}), "too_large"),
        ]
        for raw, code in cases:
            client.send_raw(raw)
            err = client.error()
            assert err["code"] == code, (raw[:40], err)
        client.send("ping")
        assert client.recv_until(lambda m: m["t"] in ("pong", "error"))["t"] == "pong"
        assert client.sync() == before


def test_reconnection_resumes_with_missed_events(server: LiveServer) -> None:
    created = server.create(preset="ffb", options=FAST)
    table_id, token = created["table_id"], created["token"]
    first = server.connect(table_id, token)
    first.recv()
    _decision(first)
    last_v = first.v
    first.close()
    # meanwhile, the same seat plays on from another tab
    with server.connect(table_id, token) as other:
        other.recv()
        assert other.v == last_v
        rng = random.Random(5)
        for _ in range(6):
            turn = _decision(other)
            other.act(rng.choice(turn["legal"]))
            other.turn = None
        _decision(other)  # the table waits for S again: the stream stands still
        missed = [m for m in other.received if m["t"] == "event"]
        assert missed and missed[0]["v"] == last_v + 1
        # resume from the URL's last_v: the missed events, in order, no snapshot
        with server.connect(table_id, token, last_v=last_v) as back:
            back.v = last_v
            got = [back.recv() for _ in missed]
            assert got == missed
        # resume with hello: the same
        with server.connect(table_id, None) as back:
            back.send("hello", {"token": token, "last_v": last_v})
            back.v = last_v
            assert [back.recv() for _ in missed] == missed
        # a version the server does not know: a snapshot
        with server.connect(table_id, token, last_v=10**9) as back:
            snap = back.recv()
            assert snap["t"] == "snapshot" and snap["v"] == other.v


def test_restart_resumes_mid_trick(db_url: str) -> None:
    live = LiveServer(db_url).start()
    try:
        created = live.create(preset="ffb", options=FAST)
        table_id, token = created["table_id"], created["token"]
        with live.connect(table_id, token) as client:
            client.recv()
            rng = random.Random(11)
            while True:
                turn = _decision(client, "playing")
                snap = client.sync()
                if snap["view"]["trick"] and snap["view"]["tricks"]:
                    break  # S to play into a trick already started, after a trick
                client.act(rng.choice(turn["legal"]))
                client.turn = None
            before, v = snap, client.v
            tail = [m for m in client.received if m["t"] == "event"][-5:]
    finally:
        live.stop()
    live = LiveServer(db_url).start()
    try:
        # a single player's table is not rebuilt at start: his connection loads it
        assert table_id not in live.manager._tables
        with live.connect(table_id, token, last_v=v) as client:
            client.v = v
            client.send("sync")
            after = client.recv()
            assert after["t"] == "snapshot", "nothing was missed: only the snapshot asked for"
            assert after["v"] == v and after["d"] == before
        # the stream was rebuilt from the log: the same messages, the same numbers
        since = tail[0]["v"] - 1
        with live.connect(table_id, token, last_v=since) as client:
            client.v = since
            assert [client.recv() for _ in tail] == tail
        with live.connect(table_id, token) as client:
            client.recv()
            end = None
            rng = random.Random(12)
            while end is None:
                client.my_decision()
                assert client.turn is not None
                if client.turn["waiting"] != "action":
                    break
                client.act(rng.choice(client.turn["legal"]))
                client.turn = None
            deal_end = [e for e in client.events if e["kind"] == "deal_end"]
            assert deal_end and len(deal_end[0]["summary"]["tricks"]) == 8
            played = [c for t in deal_end[0]["summary"]["tricks"] for c in t["cards"]]
            assert len(set(played)) == 32
    finally:
        live.stop()
