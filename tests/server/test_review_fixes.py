"""Fixes after a review of the multi-table server: presence at a rematch,
the close code of a leaver's sockets, mutes told and kept, guests' names,
validation errors, ratings in the history, the rules' description."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from .live import Client, LiveServer
from .net import Player, Seated, lobby_table, play_together

FAST = {"speed": "instant", "auto_next": True, "auto_play_forced": False}


def _seat(room: dict[str, Any], letter: str) -> dict[str, Any]:
    return next(s for s in room["seats"] if s["seat"] == letter)


def _rooms(s: Seated) -> list[dict[str, Any]]:
    return [m["d"] for m in s.client.received if m["t"] == "room"]


def _wait_room(s: Seated, pred: Any, since: int = 0, timeout: float = 15) -> dict[str, Any]:
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
    _wait_room(alice, lambda r: r["status"] == "finished")
    # Bob closes his socket while the match is over; nothing is held then
    seen = len(_rooms(alice))
    bob.client.close()
    room = _wait_room(alice, lambda r: not _seat(r, "N")["connected"], seen)
    assert room["status"] == "finished" and _seat(room, "N")["countdowns"] == []
    seen = len(_rooms(alice))
    alice.client.act("rematch")
    # a room message says the table plays again, Bob's seat held (hold and
    # leave countdowns), nobody standing in yet
    room = _wait_room(alice, lambda r: r["status"] == "playing", seen)
    n = _seat(room, "N")
    assert (n["kind"], n["connected"], n["away"], n["left"]) == ("human", False, False, False)
    assert sorted(c["reason"] for c in n["countdowns"]) == ["hold", "leave"]
    # then a computer player stands in for him, and at last he has left
    room = _wait_room(alice, lambda r: _seat(r, "N")["away"], seen)
    assert room["status"] == "playing" and not _seat(room, "N")["left"]
    assert [c["reason"] for c in _seat(room, "N")["countdowns"]] == ["leave"]
    room = _wait_room(alice, lambda r: _seat(r, "N")["left"], seen)
    n = _seat(room, "N")
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
    _wait_room(bob, lambda r: r["status"] == "finished")
    seen = len(_rooms(bob))
    alice.client.act("rematch")
    room = _wait_room(bob, lambda r: r["status"] == "playing", seen)
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
    room = _wait_room(alice, lambda r: _seat(r, "N")["left"])
    assert _seat(room, "N")["kind"] == "bot"
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
    assert _seat(room, "N")["kind"] == "open"
    # the seat is free for someone else: Bob's socket no longer listens to it
    assert _closed(socket) == (4000, "you left the table")
    host.close()
    bob.close()


# ------------------------------------------------------------------ validation


def test_validation_errors_have_the_error_shape_and_never_echo_the_input(
    server: LiveServer,
) -> None:
    p = Player(server)
    secret = "p" * (5 * 1024 * 1024)
    r = p.http.post("/api/auth/signup", json={"name": "Ada", "password": secret})
    assert r.status_code == 422
    assert r.json() == {
        "detail": {
            "code": "invalid",
            "message": "password: String should have at most 200 characters",
            "field": "password",
        }
    }
    assert "ppppp" not in r.text and len(r.content) < 500
    r = p.http.post("/api/auth/login", json={"name": 5, "password": "hunter2hunter2"})
    assert r.status_code == 422
    assert r.json()["detail"] == {
        "code": "invalid",
        "message": "name: Input should be a valid string",
        "field": "name",
    }
    assert "hunter2" not in r.text
    r = p.http.post("/api/auth/guest", json={"name": "Zed", "colour": "red" * 1000})
    assert r.json()["detail"] == {
        "code": "invalid",
        "message": "unknown field",
        "field": "body",
    }
    # nested fields, several problems, a query parameter, a solo table's body
    with server.http() as client:
        r = client.post("/api/tables", json={"target": 0, "options": {"speed": "warp"}})
    assert r.status_code == 422
    assert r.json()["detail"] == {
        "code": "invalid",
        "message": "target: Input should be greater than or equal to 1; "
        "options.speed: Input should be 'slow', 'normal', 'fast' or 'instant'",
        "field": "target",
    }
    r = p.http.get("/api/leaderboard", params={"limit": "many"})
    assert r.status_code == 422
    assert r.json()["detail"]["field"] == "query.limit"
    p.close()


# ------------------------------------------------------------------ rules


def test_a_tables_description_names_its_own_target(server: LiveServer) -> None:
    host = Player(server).guest("Host")
    table_id = host.open_table(preset="ffb", target=200)["table_id"]
    room = host.http.get(f"/api/lobby/tables/{table_id}").json()
    assert room["rules"]["target"] == 200
    assert room["rules"]["description"] == (
        "Belote classique, FFB rules: declarations, litige on a tie, 200 points."
    )
    table_id = host.open_table(preset="seed000-tout-atout")["table_id"]
    room = host.http.get(f"/api/lobby/tables/{table_id}").json()
    assert room["rules"]["description"] == (
        "Seed 000 with Tout Atout / Sans Atout overbids, 3000 points."
    )
    solo = server.create(preset="seed002", target=300)
    with server.http() as client:
        table = client.get(f"/api/tables/{solo['table_id']}").json()
    assert table["rules"]["description"] == (
        "Seed 002's online room: no declarations, dealer leads, 300 points."
    )
    # the preset list keeps the presets' own targets
    with server.http() as client:
        presets = {p["name"]: p for p in client.get("/api/presets").json()}
    assert presets["ffb"]["description"].endswith("litige on a tie, 1000 points.")
    host.close()


# ------------------------------------------------------------------ mutes


def _wait(client: Client, kind: str, pred: Any = None) -> dict[str, Any]:
    msg = client.recv_until(lambda m: m["t"] == kind and (pred is None or pred(m)))
    return msg


def _texts_until(client: Client, marker: str) -> list[str]:
    """The chat lines this client reads up to ``marker``'s (included)."""
    texts: list[str] = []
    while not texts or texts[-1] != marker:
        texts.append(_wait(client, "chat")["d"]["text"])
    return texts


def test_mutes_are_stored_told_on_connection_and_undone(db_url: str) -> None:
    live = LiveServer(db_url).start()
    try:
        ana = Player(live).guest("Ana")
        table_id = ana.open_table(name="chat")["table_id"]
        bob = Player(live).guest("Bob")
        bob.join(table_id, "N")
        a, b = ana.connect(table_id), bob.connect(table_id)
        _wait(a, "chat_history")
        _wait(b, "chat_history")
        a.send("mute", {"seat": "E"})
        assert _wait(a, "muted")["d"] == {"seats": ["E"]}
        a.send("mute", {"seat": "N", "muted": True})
        assert _wait(a, "muted")["d"] == {"seats": ["E", "N"]}
        a.send("mute", {"seat": "E", "muted": False})
        assert _wait(a, "muted")["d"] == {"seats": ["N"]}
        assert ana.user is not None
        assert live.app.state.store.mutes(table_id) == [(ana.user["id"], "N")]
        b.send("chat", {"text": "before the restart"})
        _wait(b, "chat", lambda m: m["d"]["text"] == "before the restart")
        a.close()
        b.close()
    finally:
        live.stop()
    live = LiveServer(db_url).start()
    try:
        # the server restarted: Ana still mutes Bob, and is told so
        a = live.connect(table_id, ana.token)
        assert _wait(a, "chat_history")["d"]["lines"] == []
        assert _wait(a, "muted")["d"] == {"seats": ["N"]}
        b = live.connect(table_id, bob.token)
        _wait(b, "chat_history")
        b.send("chat", {"text": "hidden"})
        _wait(b, "chat", lambda m: m["d"]["text"] == "hidden")
        a.send("chat", {"text": "marker"})
        assert _texts_until(a, "marker") == ["marker"]
        # she unmutes him: his next line reaches her, and the row is gone
        a.send("mute", {"seat": "N", "muted": False})
        assert _wait(a, "muted")["d"] == {"seats": []}
        assert live.app.state.store.mutes(table_id) == []
        b.send("chat", {"text": "visible"})
        assert _texts_until(a, "visible") == ["visible"]
        # refusals: oneself, a seat not at the table (three players: no N)
        a.send("mute", {"seat": "S"})
        assert a.error()["code"] == "bad_message"
        a.close()
        b.close()
        host = Player(live).guest("Tri")
        three = host.open_table(preset="three-players", seat="S")["table_id"]
        c = host.connect(three)
        _wait(c, "chat_history")
        c.send("mute", {"seat": "N"})
        err = c.error()
        assert (err["code"], err["message"]) == ("bad_message", "no seat N at this table")
        c.close()
        for p in (ana, bob, host):
            p.close()
    finally:
        live.stop()


def test_stored_mutes_go_when_a_seat_changes_hands(server: LiveServer) -> None:
    ana = Player(server).guest("Ana")
    table_id = ana.open_table(name="chat")["table_id"]
    bob, cy = Player(server).guest("Bob"), Player(server).guest("Cy")
    bob.join(table_id, "N")
    cy.join(table_id, "W")
    a, b = ana.connect(table_id), bob.connect(table_id)
    _wait(a, "chat_history")
    _wait(b, "chat_history")
    a.send("mute", {"seat": "N"})
    _wait(a, "muted")
    a.send("mute", {"seat": "W"})
    _wait(a, "muted")
    b.send("mute", {"seat": "S"})
    _wait(b, "muted")
    b.send("mute", {"seat": "W"})
    _wait(b, "muted")
    store = server.app.state.store
    assert ana.user is not None and bob.user is not None
    ids = {ana.user["id"]: "ana", bob.user["id"]: "bob"}
    assert sorted((ids[u], s) for u, s in store.mutes(table_id)) == [
        ("ana", "N"),
        ("ana", "W"),
        ("bob", "S"),
        ("bob", "W"),
    ]
    # Bob leaves: his mutes go, and nobody mutes his seat any longer
    bob.ok(f"/api/lobby/tables/{table_id}/leave")
    assert sorted((ids[u], s) for u, s in store.mutes(table_id)) == [("ana", "W")]
    a.close()
    b.close()
    for p in (ana, bob, cy):
        p.close()


# ------------------------------------------------------------------ guests


def test_a_guest_cannot_take_an_accounts_name_and_is_marked(server: LiveServer) -> None:
    alice = Player(server).signup("Alice Martin")
    for name in ("Alice Martin", "alice martin", "  ALICE   martin "):
        r = Player(server).http.post("/api/auth/guest", json={"name": name})
        assert r.status_code == 409
        assert r.json()["detail"] == {
            "code": "name_taken",
            "message": "'" + " ".join(name.split()) + "' is the name of an account: "
            "log in, or choose another name",
        }
    guest = Player(server).guest("Alice Martine")  # another name: fine
    assert guest.user is not None and guest.user["guest"] is True
    table_id = alice.open_table(name="marks")["table_id"]
    guest.join(table_id, "N")
    alice.ok(f"/api/lobby/tables/{table_id}/fill", {"level": "random"})
    room = alice.http.get(f"/api/lobby/tables/{table_id}").json()
    marks = {s["seat"]: (s["name"], s["guest"]) for s in room["seats"]}
    assert marks == {
        "N": ("Alice Martine", True),
        "W": ("West", False),
        "S": ("Alice Martin", False),
        "E": ("East", False),
    }
    lobby = alice.http.get("/api/lobby").json()
    assert {s["seat"]: s["guest"] for s in lobby[0]["seats"]}["N"] is True
    alice.ok(f"/api/lobby/tables/{table_id}/start")
    g = guest.connect(table_id)
    room_msg = _wait(g, "room")["d"]
    assert {s["seat"]: s["guest"] for s in room_msg["seats"]} == {
        "N": True,
        "W": False,
        "S": False,
        "E": False,
    }
    snapshot = g.sync()
    assert {s["seat"]: s["guest"] for s in snapshot["table"]["seats"]} == {
        "N": True,
        "W": False,
        "S": False,
        "E": False,
    }
    g.close()
    # the mark outlives a reload of the table from storage
    stored = server.app.state.store.load(table_id)
    assert {s.seat: s.guest for s in stored.seats} == {
        "N": True,
        "W": False,
        "S": False,
        "E": False,
    }
    for p in (alice, guest):
        p.close()


# ------------------------------------------------------------------ ratings


def test_the_history_shows_the_displayed_rating(server: LiveServer) -> None:
    table_id, players = lobby_table(
        server, ["Rosa"], bots="random", ranked=True, target=1, options=FAST
    )
    (rosa,) = players
    s = Seated("S", rosa.connect(table_id))
    play_together([s], random.Random(4), until=lambda: _match_ends(s) == 1)
    _wait_room(s, lambda r: r["status"] == "finished")
    me = rosa.http.get("/api/me").json()["user"]
    (result,) = rosa.http.get("/api/me/history").json()["results"]
    assert (result["mu_before"], result["sigma_before"]) == (25.0, 8.333)
    assert result["rating_before"] == 0.0  # mu - 3 sigma, as the account bar showed
    assert (result["mu_after"], result["sigma_after"]) == (me["mu"], me["sigma"])
    assert result["rating_after"] == me["rating"]
    s.client.close()
    rosa.close()


def test_migration_r0003_marks_the_seats_of_guests(db_url: str) -> None:
    from alembic import command
    from sqlalchemy import text

    from rebelote.server.storage import Store, alembic_config

    store = Store(db_url)
    config = alembic_config(store.url)
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "r0002")
    with store.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO users (id, name, name_key, guest, created, mu, sigma, rated,"
                " matches, xp) VALUES (1, 'Ann', 'ann', false, :at, 25, 8, 0, 0, 0),"
                " (2, 'Gus', NULL, true, :at, 25, 8, 0, 0, 0)"
            ),
            {"at": "2026-11-30 00:00:00+00:00"},
        )
    store.create_table(
        table_id="t1",
        rules="ffb",
        options={},
        seed=1,
        seats=[],
        events=[],
        status="open",
    )
    with store.engine.begin() as connection:
        connection.execute(
            text(
                'INSERT INTO seats (table_id, seat, kind, name, user_id, "left")'
                " VALUES ('t1', 'S', 'human', 'Ann', 1, false),"
                " ('t1', 'N', 'human', 'Gus', 2, false), ('t1', 'W', 'open', '', NULL, false)"
            )
        )
    store.migrate()
    loaded = store.load("t1")
    assert loaded is not None
    assert {s.seat: s.guest for s in loaded.seats} == {"S": False, "N": True, "W": False}
    store.close()
