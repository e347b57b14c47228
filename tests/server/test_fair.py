"""Fair play and fair ratings (issue 12, point 3), over real WebSockets on
SQLite and PostgreSQL: the next deal and a rematch start once every human
agreed (``turn.agreed``), a human stood in for does not hold up the next
deal, the per-move clock starts it at the turn's ``deadline``, refusing a
rematch closes the table and records nothing, a match someone left or that
stand-ins played rates nobody, the displayed rating's scale, and a player
whose clock ran out is told (``notice`` ``timed_out``, ``away_reason``)."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from rebelote.server.people.ratings import (
    BOT_RATINGS,
    STANDIN_SHARE_LIMIT,
    bot_display_rating,
    display_rating,
    is_provisional,
    match_xp,
    unrated_reason,
)

from .live import Client, LiveServer, Message
from .net import Player, Seated, lobby_table, play_together, seat_of

OPTS = {"speed": "instant", "auto_next": False, "auto_play_forced": False}
"""No automatic next deal: the table waits for the players' ``next``."""

CARD = re.compile(r"(10|[789JQKA])[SHDC]( belote| no-belote)?")

NOTICE = '{"t":"notice","d":{"code":"timed_out"},"v":null}'
"""The exact text of the notice a player whose clock ran out receives."""


# ------------------------------------------------------------------ helpers


def _until(seated: list[Seated], pred: Callable[[], bool], timeout: float = 20) -> None:
    """Read every client's messages until ``pred()``."""
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "never got there"
        for s in seated:
            s.drain(timeout=0.02)


def _pong(s: Seated) -> None:
    """Read until the answer to a ``ping``: every message the server queued
    for this socket before it has arrived."""
    count = sum(m["t"] == "pong" for m in s.client.received)
    s.client.send("ping")
    _until([s], lambda: sum(m["t"] == "pong" for m in s.client.received) > count)


def _waiting(s: Seated, what: str | None) -> bool:
    turn = s.client.turn
    return turn is not None and turn["waiting"] == what


def _started(s: Seated, *, match: int, deal: int) -> bool:
    return any(
        e["kind"] == "deal_start" and e["match"] == match and e["deal"] == deal
        for e in s.client.events
    )


def _agreed(seated: list[Seated], agreed: list[str]) -> Callable[[], bool]:
    def check() -> bool:
        return all(s.client.turn is not None and s.client.turn["agreed"] == agreed for s in seated)

    return check


def _errors(s: Seated) -> list[Message]:
    return [m for m in s.client.received if m["t"] == "error"]


def _me(p: Player) -> dict[str, Any]:
    user: dict[str, Any] = p.http.get("/api/me").json()["user"]
    return user


def _rating_parts(p: Player) -> tuple[float, float, int, int]:
    u = _me(p)
    return (u["mu"], u["sigma"], u["rated"], u["xp"])


def _closed(client: Client) -> tuple[int | None, str | None]:
    """Read until the server closes the socket; its close code and reason."""
    with pytest.raises(ConnectionClosed):
        while True:
            client.ws.recv(timeout=10)
    return client.ws.close_code, client.ws.close_reason


def _rooms(s: Seated) -> list[dict[str, Any]]:
    return [m["d"] for m in s.client.received if m["t"] == "room"]


def _room_after(
    s: Seated, pred: Callable[[dict[str, Any]], bool], since: int = 0
) -> dict[str, Any]:
    """The first ``room`` message from the ``since``-th on that matches."""
    found: list[dict[str, Any]] = []

    def check() -> bool:
        found[:] = [r for r in _rooms(s)[since:] if pred(r)][:1]
        return bool(found)

    _until([s], check)
    return found[0]


def _seated(table_id: str, players: list[Player]) -> list[Seated]:
    return [Seated(p.seat, p.connect(table_id)) for p in players]


# ------------------------------------------------------------------ the next deal


def test_the_next_deal_waits_for_every_human(server: LiveServer) -> None:
    table_id, players = lobby_table(
        server, ["Ana", "Ben"], bots="random", target=1000, options=OPTS
    )
    s, n = _seated(table_id, players)  # Ana at S, Ben at N
    spectator = Seated(None, server.connect(table_id, None, watch=1))
    everyone = [s, n, spectator]
    play_together(
        [s, n], random.Random(3), until=lambda: _waiting(s, "next") or _waiting(n, "next")
    )
    _until(everyone, lambda: all(_waiting(x, "next") for x in everyone))
    for x in (s, n):
        assert x.client.turn is not None
        assert (x.client.turn["legal"], x.client.turn["agreed"]) == (["next"], [])
        assert x.client.turn["deadline"] is None  # no clock at this table
    assert spectator.client.turn is not None and spectator.client.turn["legal"] == []
    # Ana agrees: everyone is told, the deal does not start
    s.client.act("next")
    _until(everyone, _agreed(everyone, ["S"]))
    assert s.client.turn is not None and n.client.turn is not None
    assert (s.client.turn["waiting"], s.client.turn["legal"]) == ("next", [])
    assert (n.client.turn["waiting"], n.client.turn["legal"]) == ("next", ["next"])
    assert spectator.client.turn is not None and spectator.client.turn["legal"] == []
    # again: harmless, nothing more happens
    events = len(s.client.events), len(n.client.events)
    s.client.act("next")
    _pong(s)
    _pong(n)
    assert (len(s.client.events), len(n.client.events)) == events
    assert _errors(s) == [] and _errors(n) == []
    assert not any(_started(x, match=1, deal=2) for x in everyone)
    room = s.room
    assert room is not None and all(c == [] for c in (x["countdowns"] for x in room["seats"]))
    # Ben agrees: the next deal starts for everyone
    n.client.act("next")
    _until(everyone, lambda: all(_started(x, match=1, deal=2) for x in everyone))
    _until(everyone, _agreed(everyone, []))
    stored = server.app.state.store.load(table_id)
    agreements = [(e.seat, e.payload) for e in stored.events if e.kind == "agree"]
    assert agreements == [("S", {"action": "next"})]  # Ben's completed it: a deal entry
    for x in (s, n):
        x.client.close()
    spectator.client.close()


def test_a_human_stood_in_for_does_not_hold_up_the_next_deal(server: LiveServer) -> None:
    options = {**OPTS, "hold": 0.3, "leave_after": 600}
    table_id, players = lobby_table(
        server, ["Ana", "Ben"], bots="random", target=1000, options=options
    )
    s, n = _seated(table_id, players)
    rng = random.Random(5)
    play_together([s, n], rng, until=lambda: _waiting(s, "next") or _waiting(n, "next"))
    _until([s], lambda: _waiting(s, "next"))
    s.client.act("next")
    _until([s], _agreed([s], ["S"]))
    # Ben goes: held for 0.3 s, then a computer player stands in for him, and
    # the deal that waited for him starts
    n.client.close()
    _until([s], lambda: _started(s, match=1, deal=2))
    room = _room_after(s, lambda r: seat_of(r, "N")["away"])
    assert seat_of(room, "N")["away_reason"] == "hold"
    # the next time, Ana's word alone starts the next deal
    play_together(
        [s],
        rng,
        until=lambda: _waiting(s, "next") and s.client.turn["deal"] == 2,  # type: ignore[index]
    )
    assert s.client.turn is not None
    assert (s.client.turn["legal"], s.client.turn["agreed"]) == (["next"], [])
    s.client.act("next")
    _until([s], lambda: _started(s, match=1, deal=3))
    s.client.close()


def test_the_clock_starts_the_next_deal_at_the_deadline(server: LiveServer) -> None:
    """A friendly table may have a per-move clock: the turn's deadline, a
    ``next`` countdown on each seat that has not agreed, then the next deal
    by itself."""
    options = {**OPTS, "move_clock": 1.5}
    table_id, players = lobby_table(
        server, ["Ana", "Ben"], bots="random", target=1000, options=options
    )
    room = players[0].http.get(f"/api/lobby/tables/{table_id}").json()
    assert (room["ranked"], room["options"]["move_clock"]) == (False, 1.5)
    s, n = _seated(table_id, players)
    play_together(
        [s, n], random.Random(7), until=lambda: _waiting(s, "next") or _waiting(n, "next")
    )
    _until([s, n], lambda: _waiting(s, "next") and _waiting(n, "next"))
    assert s.client.turn is not None and n.client.turn is not None
    deadline = s.client.turn["deadline"]
    assert isinstance(deadline, float) and n.client.turn["deadline"] == deadline
    room = _room_after(
        s, lambda r: any(c["reason"] == "next" for c in seat_of(r, "S")["countdowns"])
    )
    for letter in ("S", "N"):
        assert [(c["reason"], c["deadline"]) for c in seat_of(room, letter)["countdowns"]] == [
            ("next", deadline)
        ]
    for letter in ("W", "E"):
        assert seat_of(room, letter)["countdowns"] == []
    seen = len(_rooms(s))
    s.client.act("next")
    # Ana's countdown goes, Ben's stays, the deadline does not move
    room = _room_after(
        s, lambda r: not seat_of(r, "S")["countdowns"] and bool(seat_of(r, "N")["countdowns"]), seen
    )
    assert [(c["reason"], c["deadline"]) for c in seat_of(room, "N")["countdowns"]] == [
        ("next", deadline)
    ]
    _until([s, n], _agreed([s, n], ["S"]))
    assert s.client.turn is not None and s.client.turn["deadline"] == deadline
    # Ben says nothing: the next deal starts by itself
    _until([s, n], lambda: _started(s, match=1, deal=2) and _started(n, match=1, deal=2))
    assert time.time() >= deadline - 0.05
    for x in (s, n):
        x.client.close()


def test_an_agreement_survives_a_restart(db_url: str) -> None:
    live = LiveServer(db_url).start()
    try:
        table_id, players = lobby_table(
            live, ["Ana", "Ben"], bots="random", target=1000, options=OPTS
        )
        s, n = _seated(table_id, players)
        play_together(
            [s, n], random.Random(9), until=lambda: _waiting(s, "next") or _waiting(n, "next")
        )
        _until([s, n], lambda: _waiting(s, "next") and _waiting(n, "next"))
        s.client.act("next")
        _until([s, n], _agreed([s, n], ["S"]))
        for x in (s, n):
            x.client.close()
    finally:
        live.stop()
    live = LiveServer(db_url).start()
    try:
        s, n = (Seated(p.seat, live.connect(table_id, p.token)) for p in players)
        _until([s, n], lambda: s.client.snapshot is not None and n.client.snapshot is not None)
        assert s.client.turn is not None and n.client.turn is not None
        assert (s.client.turn["agreed"], s.client.turn["legal"]) == (["S"], [])
        assert (n.client.turn["agreed"], n.client.turn["legal"]) == (["S"], ["next"])
        n.client.act("next")
        _until([s, n], lambda: _started(s, match=1, deal=2) and _started(n, match=1, deal=2))
        for x in (s, n):
            x.client.close()
    finally:
        live.stop()


# ------------------------------------------------------------------ the rematch


def test_a_rematch_needs_everyone_and_refusing_it_closes_the_table(server: LiveServer) -> None:
    table_id, players = lobby_table(
        server,
        ["Ana", "Ben"],
        bots="random",
        ranked=True,
        target=1,
        options={**OPTS, "move_clock": None},
    )
    ana, ben = players
    s, n = _seated(table_id, players)
    play_together(
        [s, n], random.Random(2), until=lambda: _waiting(s, "rematch") and _waiting(n, "rematch")
    )
    _room_after(s, lambda r: r["status"] == "finished")
    after = {p.user["name"]: _rating_parts(p) for p in players if p.user}
    assert after["Ana"][2] == after["Ben"][2] == 1  # the match was rated
    # Ana alone asks for a rematch: it does not start
    s.client.act("rematch")
    _until([s, n], _agreed([s, n], ["S"]))
    _pong(s)
    _pong(n)
    assert s.client.turn is not None and n.client.turn is not None
    assert (s.client.turn["legal"], n.client.turn["legal"]) == ([], ["rematch"])
    assert not any(e["kind"] == "match_start" and e["match"] == 2 for e in s.client.events)
    # Ben refuses: he leaves the table
    seen = len(_rooms(s))
    n.client.send("leave")
    assert _closed(n.client) == (4000, "you left the table")
    room = _room_after(s, lambda r: r["status"] == "closed", seen)
    assert (seat_of(room, "N")["left"], seat_of(room, "N")["kind"]) == (True, "bot")
    _until([s], lambda: _waiting(s, None))
    assert s.client.turn is not None
    assert (s.client.turn["legal"], s.client.turn["agreed"]) == ([], [])
    # nothing was recorded: no loss, no rating, no experience
    assert {p.user["name"]: _rating_parts(p) for p in players if p.user} == after
    store = server.app.state.store
    assert store.results_of_match(table_id, 2) == []
    (line,) = [r for r in store.results_of_match(table_id, 1) if r.seat == "N"]
    assert (line.left, line.ranked) == (False, True)
    # no rematch any more; Ana may go too
    s.client.act("rematch")
    _until([s], lambda: bool(_errors(s)))
    assert _errors(s)[0]["d"]["code"] == "illegal"
    snapshot = s.client.sync()
    assert snapshot["table"]["status"] == "closed" and snapshot["turn"]["waiting"] is None
    s.client.send("leave")
    assert _closed(s.client) == (4000, "you left the table")
    assert {p.user["name"]: _rating_parts(p) for p in players if p.user} == after
    with server.http() as anon:
        assert anon.get(f"/api/lobby/tables/{table_id}").json()["status"] == "closed"
        assert anon.get(f"/api/tables/{table_id}").json()["status"] == "closed"
    assert ben.http.get("/api/me/history").json()["running"] == []
    for p in (ana, ben):
        p.close()


# ------------------------------------------------------------------ fair ratings


def test_a_match_a_human_left_rates_nobody(server: LiveServer) -> None:
    table_id, players = lobby_table(
        server,
        ["Ana", "Ben", "Cy"],
        bots="random",
        ranked=True,
        target=1,
        options={**OPTS, "move_clock": None},
    )
    cy = players[2]  # Ana at S, Ben at N, Cy at W
    seated = _seated(table_id, players)
    rng = random.Random(4)
    play_together(seated, rng, until=lambda: all(_waiting(x, "rematch") for x in seated))
    _room_after(seated[0], lambda r: r["status"] == "finished")
    after = [_rating_parts(p) for p in players]
    assert [a[2] for a in after] == [1, 1, 1]  # match 1 was rated for everyone
    assert after[0][:2] != (25.0, 8.333)
    for x in seated:
        x.client.act("rematch")
    _until(seated, lambda: all(_started(x, match=2, deal=1) for x in seated))
    play_together(
        seated,
        rng,
        until=lambda: any(e["kind"] == "card" and e["match"] == 2 for e in seated[0].client.events),
    )
    rest = seated[:2]
    seen = len(_rooms(rest[0]))
    cy.ok(f"/api/lobby/tables/{table_id}/leave")
    play_together(
        rest,
        rng,
        until=lambda: any(
            e["kind"] == "match_end" and e["match"] == 2 for e in rest[0].client.events
        ),
    )
    _room_after(rest[0], lambda r: r["status"] == "finished", seen)
    # exactly as after match 1, the leaver included
    assert [_rating_parts(p) for p in players] == after
    results = {r.seat: r for r in server.app.state.store.results_of_match(table_id, 2)}
    assert sorted(results) == ["E", "N", "S", "W"]  # E: a computer player
    for seat, r in results.items():
        assert (r.left, r.ranked, r.unrated_reason, r.xp) == (seat == "W", False, "left", 0)
        assert (r.mu_after, r.sigma_after, r.rating_after) == (None, None, None)
    (line,) = [r for r in cy.http.get("/api/me/history").json()["results"] if r["match"] == 2]
    assert (line["left"], line["ranked"], line["unrated_reason"], line["xp"]) == (
        True,
        False,
        "left",
        0,
    )
    assert line["rating_before"] == display_rating(after[2][0]) and line["rating_after"] is None
    for x in rest:
        x.client.close()


def _play_with_timeouts(live: LiveServer, timeouts: int) -> tuple[str, list[Player], int]:
    """A ranked one-deal match of Ana (S) and Ben (N) with two random
    computer players, a 2.5 s clock: Ben lets his clock run out on
    ``timeouts`` of his card plays; each time he is told (a notice, the
    room's ``away_reason``), waits for the stand-in's card, then says he is
    back.  Returns the table, the players and how many notices Ana got."""
    options = {**OPTS, "move_clock": 2.5, "hold": 30, "leave_after": 600}
    table_id, players = lobby_table(
        live, ["Ana", "Ben"], bots="random", ranked=True, target=1, options=options
    )
    s, n = _seated(table_id, players)
    rng = random.Random(timeouts)
    card_turns = 0
    waiting_for_standin: int | None = None  # Ben's card events when his clock ran out
    standins = 0

    def n_cards() -> int:
        return sum(e["kind"] == "card" and e["seat"] == "N" for e in n.client.events)

    def act(x: Seated) -> None:
        turn = x.client.turn
        assert turn is not None
        legal = turn["legal"]
        action = "take" if "take" in legal else rng.choice(legal)
        x.client.act(action, False if action in turn["belote_choice"] else None)
        x.client.turn = None

    deadline = time.monotonic() + 120
    while not (_waiting(s, "rematch") and _waiting(n, "rematch")):
        assert time.monotonic() < deadline, "the match did not end"
        s.drain(timeout=0.01)
        n.drain(timeout=0.01)
        if waiting_for_standin is not None:
            told = sum(text == NOTICE for text in n.raw)
            if told == standins + 1 and n_cards() > waiting_for_standin:
                standins += 1
                room = _room_after(s, lambda r: seat_of(r, "N")["away"])
                assert seat_of(room, "N")["away_reason"] == "move"
                seen = len(_rooms(s))
                n.client.send("back")
                room = _room_after(s, lambda r: not seat_of(r, "N")["away"], seen)
                assert seat_of(room, "N")["away_reason"] is None
                waiting_for_standin = None
            continue
        if s.decides() and not _waiting(s, "rematch"):
            act(s)
        if n.decides() and not _waiting(n, "rematch"):
            turn = n.client.turn
            assert turn is not None
            if turn["phase"] == "playing" and card_turns % 3 == 0 and standins < timeouts:
                waiting_for_standin = n_cards()  # Ben lets his clock run out
                n.client.turn = None
            else:
                act(n)
            if turn["phase"] == "playing":
                card_turns += 1
    _room_after(s, lambda r: r["status"] == "finished")
    assert sum(text == NOTICE for text in n.raw) == timeouts
    notices = sum(m["t"] == "notice" for m in s.client.received)
    for x in (s, n):
        x.client.close()
    return table_id, players, notices


def _ben_s_cards(live: LiveServer, table_id: str) -> tuple[int, int]:
    """Ben's cards of the match: ``(played by a stand-in, all)``, from the log."""
    stored = live.app.state.store.load(table_id)
    assert stored is not None
    cards = [
        e
        for e in stored.events
        if e.kind == "act" and e.seat == "N" and CARD.fullmatch(e.payload["action"])
    ]
    return sum(e.payload["by"] == "standin" for e in cards), len(cards)


@pytest.mark.parametrize(("timeouts", "reason"), [(2, None), (3, "standins")])
def test_stand_ins_over_a_quarter_of_a_seat_s_cards_unrate_the_match(
    db_url: str, timeouts: int, reason: str | None
) -> None:
    """Two of Ben's eight cards played by a stand-in (25 %) still count;
    three (37.5 %) and the match rates nobody, gives nobody experience."""
    with LiveServer(db_url, bot_delay=0.4) as live:
        table_id, players, notices = _play_with_timeouts(live, timeouts)
        assert notices == 0  # the notice is Ben's alone
        assert _ben_s_cards(live, table_id) == (timeouts, 8)
        results = {r.seat: r for r in live.app.state.store.results_of_match(table_id, 1)}
        ana, ben = players
        for p, seat in ((ana, "S"), (ben, "N")):
            r = results[seat]
            user = _me(p)
            if reason is None:
                assert (r.ranked, r.unrated_reason) == (True, None)
                assert (user["mu"], user["sigma"]) == (
                    round(r.mu_after, 3),
                    round(r.sigma_after, 3),
                )
                assert user["mu"] != 25.0 and user["rated"] == 1
                assert r.xp == match_xp(deals=1, won=r.won)
                # plus the challenges and trophies the match completed
                assert user["xp"] == r.xp + live.app.state.store.award_xp(user["id"])
            else:
                assert (r.ranked, r.unrated_reason, r.xp) == (False, "standins", 0)
                assert (user["mu"], user["sigma"], user["rated"], user["xp"]) == (25.0, 8.333, 0, 0)
                # no challenge, trophy or coin either (docs/progression.md)
                store = live.app.state.store
                assert (store.counter_sums(user["id"]), store.coins(user["id"])) == ({}, 0)
                assert (r.mu_after, r.sigma_after) == (None, None)
            (line,) = p.http.get("/api/me/history").json()["results"]
            assert (line["ranked"], line["unrated_reason"]) == (reason is None, reason)
            assert line["rating_before"] == 1500
            assert line["rating_after"] == (user["rating"] if reason is None else None)
        for p in players:
            p.close()


def test_a_player_whose_clock_runs_out_is_told(server: LiveServer) -> None:
    """At a friendly table with a clock: Ben's clock runs out, he alone gets
    the notice, the room says why he is away; back, the stand-in stops;
    disconnected past ``hold``, he is away for that reason."""
    options = {**OPTS, "move_clock": 3.0, "hold": 0.3, "leave_after": 600}
    table_id, players = lobby_table(
        server, ["Ana", "Ben"], bots="random", target=1000, options=options
    )
    s, n = _seated(table_id, players)

    def ben_to_act() -> bool:
        t = n.client.turn
        return bool(
            t and t["waiting"] == "action" and t["seat"] == "N" and t["legal"] and not t["auto"]
        )

    play_together([s, n], random.Random(1), until=ben_to_act)
    _until([n], lambda: NOTICE in n.raw)
    assert json.loads(NOTICE) == {"t": "notice", "d": {"code": "timed_out"}, "v": None}
    room = _room_after(s, lambda r: seat_of(r, "N")["away"])
    assert (seat_of(room, "N")["away_reason"], seat_of(room, "N")["connected"]) == ("move", True)
    assert seat_of(room, "S")["away_reason"] is None
    assert not any(m["t"] == "notice" for m in s.client.received)
    seen = len(_rooms(s))
    n.client.send("back")
    room = _room_after(s, lambda r: not seat_of(r, "N")["away"], seen)
    assert seat_of(room, "N")["away_reason"] is None
    seen = len(_rooms(s))
    n.client.close()
    room = _room_after(s, lambda r: seat_of(r, "N")["away"], seen)
    assert (seat_of(room, "N")["away_reason"], seat_of(room, "N")["connected"]) == ("hold", False)
    s.client.close()


# ------------------------------------------------------------------ the scale


def test_the_displayed_rating() -> None:
    assert display_rating(25.0) == 1500  # a new account
    assert display_rating(26.0) == 1550 and display_rating(24.0) == 1450
    assert display_rating(25.3) == 1515 and display_rating(25.01) == 1501  # halves up
    assert display_rating(-5.0) == 0 and display_rating(-12.0) == 0  # never below 0
    assert {level: bot_display_rating(level) for level in BOT_RATINGS} == {
        "random": 1025,
        "beginner": 1415,
        "intermediate": 1500,
        "expert": 1590,
    }
    assert bot_display_rating(None) == 1500  # a stand-in: intermediate
    assert is_provisional(0, 25 / 3) and is_provisional(4, 6.0)
    assert not is_provisional(5, 8.0) and not is_provisional(4, 5.99)


def test_why_a_match_is_unrated() -> None:
    assert STANDIN_SHARE_LIMIT == 0.25
    fine = {"S": 0.25, "N": 0.0}
    assert unrated_reason(ranked=True, someone_left=False, standin_shares=fine) is None
    assert unrated_reason(ranked=False, someone_left=False, standin_shares=fine) == "friendly"
    over = {"S": 0.0, "N": 0.26}
    assert unrated_reason(ranked=True, someone_left=False, standin_shares=over) == "standins"
    assert unrated_reason(ranked=False, someone_left=False, standin_shares=over) == "standins"
    assert unrated_reason(ranked=True, someone_left=True, standin_shares=over) == "left"
    assert unrated_reason(ranked=False, someone_left=True, standin_shares=fine) == "left"


def test_the_leaderboard_puts_provisional_ratings_after_established_ones(
    server: LiveServer,
) -> None:
    from sqlalchemy import update

    from rebelote.server.storage.people import UserRow

    store = server.app.state.store
    ids: dict[str, int] = {}
    for name in ("Old", "Young", "Best", "Sure", "None"):
        user = Player(server).signup(name).user
        assert user is not None
        ids[name] = user["id"]
    values = {
        "Old": (20.0, 4.0, 30),  # established, 1250
        "Young": (30.0, 7.0, 1),  # provisional, 1750
        "Best": (27.0, 6.5, 6),  # established by its matches, 1600
        "Sure": (-8.0, 5.5, 2),  # established by its sigma, 0
        "None": (25.0, 25 / 3, 0),  # no rated match: not listed
    }
    with store.engine.begin() as connection:
        for name, (mu, sigma, rated) in values.items():
            connection.execute(
                update(UserRow)
                .where(UserRow.id == ids[name])
                .values(mu=mu, sigma=sigma, rated=rated)
            )
    with server.http() as anon:
        board = anon.get("/api/leaderboard").json()
    assert [(u["name"], u["rating"], u["provisional"]) for u in board] == [
        ("Best", 1600, False),
        ("Old", 1250, False),
        ("Sure", 0, False),
        ("Young", 1750, True),
    ]
