"""Network play over real WebSockets: four players and a spectator at one
table, the chat, what each stream reveals, rematch (with everyone there, or
an absent player's seat held), reconnection, stand-ins, leaving (the seat's
sockets closed, a leaver's stand-in, a table everyone left closed),
restart; the ratings of a ranked match and the history's displayed
rating."""

from __future__ import annotations

import json
import random
import re
import time
from functools import partial
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from rebelote.seats import Seat
from rebelote.server.people.ratings import display_rating
from rebelote.server.tables.table import game_from_stored

from .live import Client, LiveServer, Message
from .net import Player, Seated, lobby_table, play_together, seat_of

FAST = {"speed": "instant", "auto_next": True, "auto_play_forced": False}
CARD = re.compile(r"(?<![0-9A-Za-z])(10|[789JQKA])[SHDC](?![0-9A-Za-z])")


def _cards(value: Any) -> set[str]:
    return {m.group(0) for m in CARD.finditer(json.dumps(value))}


class Watcher:
    """Checks one receiver's messages as they come: every card named was
    shown to it before (its own cards, cards played, the turned card,
    declarations, belote), another seat's legal moves never reach it, and
    the table's seed never appears."""

    def __init__(self, seat: str | None, seed: int) -> None:
        self.seat = seat
        self.seed = str(seed)
        self.known: set[str] = set()
        self.deal: tuple[int, int] | None = None
        self.checked = 0

    def see(self, text: str, msg: Message) -> None:
        assert self.seed not in text, f"the seed reached {self.seat}"
        t, d = msg["t"], msg["d"]
        if t not in ("event", "snapshot"):
            return
        key = (
            (d["match"]["number"], d["match"]["deal"])
            if t == "snapshot"
            else (
                d["match"],
                d["deal"],
            )
        )
        if key != self.deal:
            self.deal, self.known = key, set()
        if t == "snapshot":
            view = d["view"]
            assert self.seat is not None or view["hand"] == [], "a spectator got a hand"
            self.known |= set(view["hand"]) | {c for t_ in view["tricks"] for c in t_["cards"]}
            self.known |= {c for _, c in view["trick"]} | {c for _, c, _ in view["belotes"]}
            self.known |= _cards(view["declarations"])  # shown by the rules
            if view["turned"]:
                self.known.add(view["turned"])
            body = {k: v for k, v in d.items() if k != "table"}
        else:
            kind = d["kind"]
            if kind in ("dealt", "completed"):
                if d["cards"] is not None:
                    assert d["seat"] == self.seat, f"{d['seat']}'s cards reached {self.seat}"
                    self.known |= set(d["cards"])
            elif kind in ("card", "belote", "turned"):
                self.known.add(d["card"])
            elif kind == "declared":
                self.known |= set(d["cards"])
            elif kind == "shown":  # the scoring side's declarations, shown by the rules
                self.known |= _cards(d["declarations"])
            elif kind == "turn":
                if d["legal"] and d["waiting"] == "action":
                    assert d["seat"] == self.seat, f"{d['seat']}'s legal moves reached {self.seat}"
                if self.seat is None:
                    assert d["legal"] == [] and not d["auto"]
            body = {k: v for k, v in d.items() if k != "name"}
        named = _cards(body)
        assert named <= self.known, f"{sorted(named - self.known)} reached {self.seat}: {msg}"
        self.checked += 1


def _all_agreed(everyone: list[Seated], agreed: list[str]) -> bool:
    """Whether every client's last turn says that ``agreed`` agreed."""
    return all(x.client.turn is not None and x.client.turn["agreed"] == agreed for x in everyone)


def _seated(live: LiveServer, table_id: str, players: list[Player]) -> list[Seated]:
    return [Seated(p.seat, p.connect(table_id)) for p in players]


def test_four_players_a_spectator_and_the_chat(server: LiveServer) -> None:
    table_id, players = lobby_table(
        server, ["Ana", "Bob", "Cy", "Di"], preset="seed000", target=300, options=FAST
    )
    seed = server.manager._tables[table_id].game.seed
    seated = _seated(server, table_id, players)
    spectator = Seated(None, server.connect(table_id, None, watch=1))
    everyone = [*seated, spectator]
    watchers = {id(s): Watcher(s.seat, seed) for s in everyone}

    def check(s: Seated, msg: Message) -> None:
        watchers[id(s)].see(s.raw_of[id(msg)], msg)

    def match_over() -> bool:
        return all(any(e["kind"] == "match_end" for e in s.client.events) for s in everyone)

    rng = random.Random(5)
    seated[1].client.send("chat", {"text": "<b>bonjour</b> & <script>alert(1)</script>"})
    play_together(everyone, rng, until=lambda: all(x.chat for x in everyone), on_message=check)
    seated[2].client.send("mute", {"seat": "N"})  # W mutes N (Bob)
    play_together(
        everyone,
        rng,
        until=lambda: any(m["t"] == "muted" for m in seated[2].client.received),
        on_message=check,
    )
    seated[0].client.send("chat", {"text": "bonne chance"})  # S: everyone sees it
    seated[1].client.send("chat", {"text": "W does not see this"})
    play_together(everyone, rng, until=match_over, on_message=check, timeout=240)
    for s in everyone:
        s.drain(timeout=0.3)
        texts = [c["text"] for c in s.chat]
        assert "<b>bonjour</b> & <script>alert(1)</script>" in texts
        line = next(c for c in s.chat if c["text"].startswith("<b>"))
        assert line["html"] == (
            "&lt;b&gt;bonjour&lt;/b&gt; &amp; &lt;script&gt;alert(1)&lt;/script&gt;"
        )
        assert line["seat"] == "N" and line["name"] == "Bob"
        assert "bonne chance" in texts
        assert ("W does not see this" in texts) == (s.seat != "W")
    assert all(w.checked > 50 for w in watchers.values())
    ends = [next(e for e in s.client.events if e["kind"] == "match_end") for s in everyone]
    assert all(e == ends[0] for e in ends)
    # the spectator never held a hand and saw every card played
    plays = [e for e in spectator.client.events if e["kind"] == "card"]
    assert plays and all(e["card"] for e in plays)
    # experience for each guest
    history = players[0].http.get("/api/me/history").json()
    assert history["results"][0]["xp"] > 0 and history["results"][0]["left"] is False
    # rematch at the same table: once all four agreed (E, N, S, then W)
    for s, agreed in ((seated[3], ["E"]), (seated[1], ["N", "E"]), (seated[0], ["N", "S", "E"])):
        s.client.act("rematch")
        play_together(everyone, rng, until=partial(_all_agreed, everyone, agreed))
        assert not any(e["kind"] == "match_start" and e["match"] == 2 for e in s.client.events)
        for x in seated:  # the seats that agreed are offered nothing more
            assert x.client.turn is not None
            assert x.client.turn["legal"] == ([] if x.seat in agreed else ["rematch"])
    seated[2].client.act("rematch")
    play_together(
        everyone,
        rng,
        until=lambda: any(
            e["kind"] == "match_start" and e["match"] == 2 for e in spectator.client.events
        ),
    )
    for s in everyone:
        s.client.close()


def test_ranked_match_changes_ratings_and_the_leaderboard(server: LiveServer) -> None:
    table_id, players = lobby_table(
        server, ["Alice", "Bruno"], bots="beginner", ranked=True, target=200, options=FAST
    )
    host, _other = players
    room = host.http.get(f"/api/lobby/tables/{table_id}").json()
    assert room["ranked"] and room["options"]["move_clock"] == 60  # a ranked default
    seated = _seated(server, table_id, players)
    play_together(
        seated,
        random.Random(3),
        until=lambda: any(e["kind"] == "match_end" for e in seated[0].client.events),
        timeout=240,
    )
    end = next(e for e in seated[0].client.events if e["kind"] == "match_end")
    time.sleep(0.3)
    me = {p.user["name"]: p.http.get("/api/me").json()["user"] for p in players if p.user}
    s_won = end["winner"] == "NS"
    alice, bruno = me["Alice"], me["Bruno"]  # Alice at S (NS), Bruno at N (NS)
    assert alice["rated"] == 1 and bruno["rated"] == 1
    assert (alice["mu"] > 25) == s_won and (bruno["mu"] > 25) == s_won
    deals = len(end["sheet"])
    awards = server.app.state.store.award_xp(alice["id"])  # challenges and trophies
    assert alice["xp"] == 20 + 5 * deals + (30 if s_won else 0) + awards
    board = host.http.get("/api/leaderboard").json()
    assert {u["name"] for u in board} == {"Alice", "Bruno"}
    assert board[0]["rating"] >= board[1]["rating"]
    for s in seated:
        s.client.close()


def test_the_history_shows_the_displayed_rating(server: LiveServer) -> None:
    table_id, players = lobby_table(
        server, ["Rosa"], bots="random", ranked=True, target=1, options=FAST
    )
    (rosa,) = players
    s = Seated("S", rosa.connect(table_id))
    play_together([s], random.Random(4), until=lambda: _match_ends(s) == 1)
    _wait_room_message(s, lambda r: r["status"] == "finished")
    me = rosa.http.get("/api/me").json()["user"]
    (result,) = rosa.http.get("/api/me/history").json()["results"]
    assert (result["mu_before"], result["sigma_before"]) == (25.0, 8.333)
    assert result["rating_before"] == 1500  # a new account, as the account bar showed
    assert (result["mu_after"], result["sigma_after"]) == (me["mu"], me["sigma"])
    assert result["rating_after"] == me["rating"] == display_rating(me["mu"])
    assert result["ranked"] is True and result["unrated_reason"] is None
    s.client.close()
    rosa.close()


def test_leaving_a_ranked_match(server: LiveServer) -> None:
    table_id, players = lobby_table(
        server, ["Sam", "Nina", "Will"], bots="intermediate", ranked=True, target=150, options=FAST
    )
    sam, nina, will = players  # S, N, W
    seated = _seated(server, table_id, players)
    rng = random.Random(8)
    play_together(
        seated, rng, until=lambda: any(e["kind"] == "card" for e in seated[0].client.events)
    )
    room = will.ok(f"/api/lobby/tables/{table_id}/leave")
    w = next(s for s in room["seats"] if s["seat"] == "W")
    assert w["left"] and w["kind"] == "bot" and w["level"] == "intermediate"
    # the leaver is not rated either (seed 003: nobody gets anything)
    will_user = will.http.get("/api/me").json()["user"]
    assert (will_user["mu"], will_user["sigma"]) == (25.0, 8.333)
    assert (will_user["rated"], will_user["xp"], will_user["rating"]) == (0, 0, 1500)
    (left,) = will.http.get("/api/me/history").json()["results"]
    assert (left["left"], left["ranked"], left["unrated_reason"]) == (True, False, "left")
    assert (left["rating_before"], left["rating_after"], left["xp"]) == (1500, None, 0)
    # Will's token is refused from now on
    try:
        refused = will.connect(table_id)
        err = refused.recv()
        assert err["t"] == "error" and err["d"]["code"] == "left"
    finally:
        refused.close()
    rest = seated[:2]
    seated[2].client.close()
    play_together(
        rest,
        rng,
        until=lambda: any(e["kind"] == "match_end" for e in rest[0].client.events),
        timeout=240,
    )
    assert any(e["kind"] == "seat" and e["seat"] == "W" for e in rest[0].client.events)
    time.sleep(0.3)
    for p in (sam, nina):
        user = p.http.get("/api/me").json()["user"]
        assert user["mu"] == 25 and user["rated"] == 0 and user["xp"] == 0
        results = p.http.get("/api/me/history").json()["results"]
        assert results[0]["ranked"] is False and results[0]["xp"] == 0
        assert results[0]["unrated_reason"] == "left" and results[0]["rating_after"] is None
    for s in rest:
        s.client.close()


def _wait_room(s: Seated, pred: Any, timeout: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        if s.room is not None and pred(s.room):
            return s.room
        assert time.monotonic() < deadline, f"room never matched: {s.room}"
        s.drain(timeout=0.05)


def _rooms(s: Seated) -> list[dict[str, Any]]:
    return [m["d"] for m in s.client.received if m["t"] == "room"]


def _wait_room_message(s: Seated, pred: Any, since: int = 0, timeout: float = 15) -> dict[str, Any]:
    """Read until a ``room`` message matches ``pred``: the first one that
    does among those received from the ``since``-th on."""
    seen = since
    deadline = time.monotonic() + timeout
    while True:
        rooms = _rooms(s)
        for room in rooms[seen:]:
            if pred(room):
                return room
        seen = len(rooms)
        assert time.monotonic() < deadline, f"no room matched; the last: {s.room}"
        s.drain(timeout=0.05)


def _closed(client: Client) -> tuple[int | None, str | None]:
    """Read until the server closes the socket; its close code and reason."""
    with pytest.raises(ConnectionClosed):
        while True:
            client.ws.recv(timeout=10)
    return client.ws.close_code, client.ws.close_reason


def _match_ends(s: Seated) -> int:
    return sum(e["kind"] == "match_end" for e in s.client.events)


def test_reconnect_mid_trick(server: LiveServer) -> None:
    table_id, players = lobby_table(server, ["Ann", "Ben"], bots="random", target=300, options=FAST)
    seated = _seated(server, table_id, players)
    rng = random.Random(2)

    def mid_trick() -> bool:
        t = seated[0].client.turn
        if not (t and t["phase"] == "playing" and t["seat"] == "S"):
            return False
        return any(CARD.fullmatch(a) for a in t["legal"])

    play_together(seated, rng, until=mid_trick)
    ben = seated[1]
    v = ben.client.v
    ben.client.close()
    s = seated[0]
    turn = s.client.turn
    assert turn is not None
    card = next(a for a in turn["legal"] if CARD.fullmatch(a))
    s.client.act(card, False if card in turn["belote_choice"] else None)
    s.client.turn = None
    s.drain(timeout=0.3)
    again = Seated("N", players[1].connect(table_id, last_v=v))
    again.client.v = v
    got = again.drain(timeout=1.0)

    def s_card_seen() -> bool:
        return any(
            m["t"] == "event" and m["d"]["kind"] == "card" and m["d"]["seat"] == "S" for m in got
        )

    deadline = time.monotonic() + 20
    while not s_card_seen():  # what was missed may come in several reads under load
        assert time.monotonic() < deadline, "S's card never reached N"
        got += again.drain(timeout=0.5)
    events = [m for m in got if m["t"] == "event"]
    assert events and events[0]["v"] == v + 1  # what was missed, in order, no snapshot
    assert not any(m["t"] == "snapshot" for m in got)
    assert any(e["d"]["kind"] == "card" and e["d"]["seat"] == "S" for e in events)
    seated[1] = again
    deals = len([e for e in s.client.events if e["kind"] == "deal_end"])
    play_together(
        seated,
        rng,
        until=lambda: len([e for e in s.client.events if e["kind"] == "deal_end"]) > deals,
    )
    for x in seated:
        x.client.close()


def test_idle_player_stood_in_for_and_back(server: LiveServer) -> None:
    options = {**FAST, "move_clock": 0.6, "hold": 0.4, "leave_after": 600}
    table_id, players = lobby_table(
        server, ["Ida", "Ned"], bots="random", target=500, options=options
    )
    seated = _seated(server, table_id, players)
    s, n = seated
    rng = random.Random(11)

    def s_to_play() -> bool:
        t = s.client.turn
        return bool(t and t["waiting"] == "action" and t["seat"] == "S" and not t["auto"])

    play_together(seated, rng, until=s_to_play)
    # S lets the clock run: N sees the countdown, then S is stood in for
    room = _wait_room(
        n, lambda r: any(c["reason"] == "move" for c in seat_of(r, "S")["countdowns"])
    )
    room = _wait_room(n, lambda r: seat_of(r, "S")["away"], timeout=5)
    assert seat_of(room, "S")["connected"]

    def s_acted() -> int:
        return sum(e.get("seat") == "S" and e["kind"] in ("bid", "card") for e in n.client.events)

    before = s_acted()
    play_together([n], rng, until=lambda: s_acted() > before, timeout=15)  # the stand-in acts
    stored = server.manager._tables[table_id].store.load(table_id)
    assert stored is not None
    assert any(e.payload.get("by") == "standin" and e.seat == "S" for e in stored.events)
    # S is back
    s.client.send("back")
    _wait_room(n, lambda r: not seat_of(r, "S")["away"])
    # N drops: its seat is held (a countdown), then stood in for, then it returns
    n.client.close()
    room = _wait_room(s, lambda r: not seat_of(r, "N")["connected"])
    assert any(c["reason"] in ("hold", "leave") for c in seat_of(room, "N")["countdowns"])
    _wait_room(s, lambda r: seat_of(r, "N")["away"], timeout=5)
    back = Seated("N", players[1].connect(table_id))
    room = _wait_room(s, lambda r: seat_of(r, "N")["connected"] and not seat_of(r, "N")["away"])
    assert seat_of(room, "N")["countdowns"] == []
    s.client.close()
    back.client.close()


def test_away_past_the_limit_is_leaving(server: LiveServer) -> None:
    options = {**FAST, "hold": 0.2, "leave_after": 1.0}
    table_id, players = lobby_table(
        server, ["Lea", "Max"], bots="random", target=500, options=options, start=False
    )
    # both connected before the start: a seat nobody connects to within
    # hold + leave_after of the start is left (on a slow run, Lea's too)
    seated = _seated(server, table_id, players)
    players[0].ok(f"/api/lobby/tables/{table_id}/start")
    _wait_room(seated[0], lambda r: r["status"] == "playing")
    seated[1].client.close()
    room = _wait_room(seated[0], lambda r: seat_of(r, "N")["left"], timeout=10)
    assert seat_of(room, "N")["kind"] == "bot"
    assert room["host"] == "S"
    history = players[1].http.get("/api/me/history").json()
    assert history["results"][0]["left"] is True and history["running"] == []
    seated[0].client.close()


def test_restart_mid_deal_resumes_the_lobby_table(db_url: str) -> None:
    live = LiveServer(db_url).start()
    try:
        table_id, players = lobby_table(
            live, ["Rita", "Ravi"], bots="beginner", target=400, options=FAST
        )
        seated = _seated(live, table_id, players)
        rng = random.Random(6)
        play_together(
            seated,
            rng,
            until=lambda: sum(e["kind"] == "card" for e in seated[0].client.events) >= 5,
        )
        for s in seated:
            s.drain(timeout=0.2)
        before = seated[0].client.sync()
        versions = [s.client.v for s in seated]
        game = live.manager._tables[table_id].game
        entries = game.entries
        for s in seated:
            s.client.close()
    finally:
        live.stop()
    live = LiveServer(db_url).start()
    try:
        game = live.manager._tables[table_id].game
        assert game.entries == entries  # nothing lost
        resumed = []
        for p, v in zip(players, versions, strict=True):
            s = Seated(p.seat, live.connect(table_id, p.token, last_v=v))
            s.client.v = v
            resumed.append(s)
        for s in resumed:
            got = s.drain(timeout=0.5)
            assert not any(m["t"] == "snapshot" for m in got)  # the stream went on, numbered
        assert resumed[0].client.sync() == before
        resumed[1].client.sync()
        deals = sum(e["kind"] == "deal_end" for e in resumed[0].client.events)
        play_together(
            resumed,
            rng,
            until=lambda: sum(e["kind"] == "deal_end" for e in resumed[0].client.events) > deals,
        )
        for s in resumed:
            s.client.close()
    finally:
        live.stop()


def test_seat_order_of_a_lobby_table(server: LiveServer) -> None:
    table_id, players = lobby_table(server, ["Una", "Vic"], bots="random", options=FAST)
    room = players[0].http.get(f"/api/lobby/tables/{table_id}").json()
    assert [s["seat"] for s in room["seats"]] == [s.letter for s in Seat]
    assert seat_of(room, "S")["name"] == "Una" and seat_of(room, "N")["name"] == "Vic"


def test_the_last_human_leaving_closes_the_table(server: LiveServer) -> None:
    table_id, players = lobby_table(server, ["Solo"], bots="random", target=500, options=FAST)
    room = players[0].ok(f"/api/lobby/tables/{table_id}/leave")
    assert room["status"] == "closed"
    entries = server.manager._tables[table_id].game.entries
    time.sleep(0.3)
    assert server.manager._tables[table_id].game.entries == entries  # the computers stopped
    assert players[0].http.get("/api/lobby").json() == []
    assert server.app.state.store.unfinished() == []


# ------------------------------------------------------------------ rematch


def test_a_rematch_holds_the_absent_players_seat_and_says_the_table_plays(
    server: LiveServer,
) -> None:
    options = {**FAST, "hold": 0.3, "leave_after": 1.5}
    table_id, players = lobby_table(
        server, ["Alice", "Bob"], bots="random", target=1, options=options
    )
    alice, bob = (Seated(p.seat, p.connect(table_id)) for p in players)
    play_together([alice, bob], random.Random(5), until=lambda: _match_ends(alice) == 1)
    _wait_room_message(alice, lambda r: r["status"] == "finished")
    # Bob agrees to a rematch, then closes his socket while the match is
    # over; nothing is held then
    bob.client.act("rematch")
    alice.client.recv_until(lambda m: m["t"] == "event" and m["d"].get("agreed") == ["N"])
    seen = len(_rooms(alice))
    bob.client.close()
    room = _wait_room_message(alice, lambda r: not seat_of(r, "N")["connected"], seen)
    assert room["status"] == "finished" and seat_of(room, "N")["countdowns"] == []
    seen = len(_rooms(alice))
    alice.client.act("rematch")
    # a room message says the table plays again, Bob's seat held (hold and
    # leave countdowns), nobody standing in yet
    room = _wait_room_message(alice, lambda r: r["status"] == "playing", seen)
    n = seat_of(room, "N")
    assert (n["kind"], n["connected"], n["away"], n["left"]) == ("human", False, False, False)
    assert sorted(c["reason"] for c in n["countdowns"]) == ["hold", "leave"]
    # then a computer player stands in for him, and at last he has left
    room = _wait_room_message(alice, lambda r: seat_of(r, "N")["away"], seen)
    assert room["status"] == "playing" and not seat_of(room, "N")["left"]
    assert [c["reason"] for c in seat_of(room, "N")["countdowns"]] == ["leave"]
    room = _wait_room_message(alice, lambda r: seat_of(r, "N")["left"], seen)
    n = seat_of(room, "N")
    assert (n["kind"], n["level"], n["countdowns"]) == ("bot", "intermediate", [])
    stored = server.app.state.store.results_of_match(table_id, 2)
    assert [(r.seat, r.left, r.won) for r in stored] == [("N", True, False)]
    alice.client.close()
    for p in players:
        p.close()


def test_a_rematch_with_everyone_here_sends_the_room(server: LiveServer) -> None:
    table_id, players = lobby_table(server, ["Alice", "Bob"], bots="random", target=1, options=FAST)
    alice, bob = (Seated(p.seat, p.connect(table_id)) for p in players)
    play_together([alice, bob], random.Random(9), until=lambda: _match_ends(alice) == 1)
    _wait_room_message(bob, lambda r: r["status"] == "finished")
    seen = len(_rooms(bob))
    alice.client.act("rematch")
    bob.client.act("rematch")
    room = _wait_room_message(bob, lambda r: r["status"] == "playing", seen)
    assert all(s["countdowns"] == [] and not s["away"] for s in room["seats"])
    alice.client.close()
    bob.client.close()
    for p in players:
        p.close()


# ------------------------------------------------------------------ leaving


def test_leave_closes_every_socket_of_the_seat_with_4000(server: LiveServer) -> None:
    table_id, players = lobby_table(
        server, ["Alice", "Bob"], bots="random", target=1000, options=FAST
    )
    alice = Seated("S", players[0].connect(table_id))
    first, second = players[1].connect(table_id), players[1].connect(table_id)
    first.recv_until(lambda m: m["t"] == "chat_history")
    second.recv_until(lambda m: m["t"] == "chat_history")
    first.send("leave")
    assert _closed(first) == (4000, "you left the table")
    assert _closed(second) == (4000, "you left the table")
    room = _wait_room_message(alice, lambda r: seat_of(r, "N")["left"])
    assert seat_of(room, "N")["kind"] == "bot"
    # the token is refused from now on (4403 left), as before
    again = players[1].connect(table_id)
    assert again.error()["code"] == "left"
    assert _closed(again) == (4403, "left")
    alice.client.close()
    for p in players:
        p.close()


def test_leaving_before_the_start_closes_the_seats_sockets(server: LiveServer) -> None:
    host = Player(server).guest("Host")
    table_id = host.open_table(name="wait")["table_id"]
    bob = Player(server).guest("Bob")
    bob.join(table_id, "N")
    socket = bob.connect(table_id)
    socket.recv_until(lambda m: m["t"] == "chat_history")
    room = bob.ok(f"/api/lobby/tables/{table_id}/leave")
    assert seat_of(room, "N")["kind"] == "open"
    # the seat is free for someone else: Bob's socket no longer listens to it
    assert _closed(socket) == (4000, "you left the table")
    host.close()
    bob.close()


def test_a_table_everyone_left_is_closed_on_both_endpoints(server: LiveServer) -> None:
    table_id, (alice,) = lobby_table(server, ["Alice"], bots="random", options=FAST)
    room = alice.ok(f"/api/lobby/tables/{table_id}/leave")
    assert room["status"] == "closed"
    with server.http() as anon:
        assert anon.get(f"/api/lobby/tables/{table_id}").json()["status"] == "closed"
        assert anon.get(f"/api/tables/{table_id}").json()["status"] == "closed"
    alice.close()


def test_a_leavers_stand_in_keeps_his_name_and_says_left(server: LiveServer) -> None:
    table_id, (alice, bobby) = lobby_table(server, ["Alice", "Bobby"], bots="random", options=FAST)
    with alice.connect(table_id) as client:
        client.sync()
        bobby.ok(f"/api/lobby/tables/{table_id}/leave")
        seat_event = client.recv_until(lambda m: m["t"] == "event" and m["d"]["kind"] == "seat")[
            "d"
        ]
        assert {k: seat_event[k] for k in ("seat", "player", "name", "level", "left")} == {
            "seat": "N",
            "player": "bot",
            "name": "Bobby",
            "level": "intermediate",
            "left": True,
        }
    room = alice.http.get(f"/api/lobby/tables/{table_id}").json()
    n = seat_of(room, "N")
    assert {k: n[k] for k in ("kind", "name", "level", "left", "guest")} == {
        "kind": "bot",
        "name": "Bobby",
        "level": "intermediate",
        "left": True,
        "guest": False,
    }
    table = alice.http.get(f"/api/tables/{table_id}").json()
    assert seat_of(table, "N") == {
        "seat": "N",
        "kind": "bot",
        "name": "Bobby",
        "level": "intermediate",
        "guest": False,
        "left": True,
    }
    # the same when the table is rebuilt from its log
    game, _ = game_from_stored(server.app.state.store.load(table_id))
    spec = game.seats[Seat.N]
    assert (spec.kind, spec.name, spec.level, spec.left) == ("bot", "Bobby", "intermediate", True)
    for p in (alice, bobby):
        p.close()
