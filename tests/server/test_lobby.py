"""Accounts, sessions and CSRF (guests: marked, never under an account's
name, keeping their seats when they sign up; names compared by their
Unicode key); the lobby's rules (private tables hidden from the table
endpoint and from spectators); refusals at the edge (each a clear error to
that client alone, nothing changed; validation errors' shape, strict
request fields); replays and exports of finished games."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from rebelote.record import replay as replay_record
from rebelote.seats import Seat
from rebelote.server.people.ratings import (
    Rated,
    bot_rating,
    level_of,
    level_threshold,
    match_xp,
    rate,
)

from .live import LiveServer
from .net import Player, Seated, lobby_table, play_together, seat_of

FAST = {"speed": "instant", "auto_next": True, "auto_play_forced": False}


def _code(r: Any) -> str:
    code: str = r.json()["detail"]["code"]
    return code


# ------------------------------------------------------------------ accounts


def test_accounts_sessions_and_csrf(server: LiveServer) -> None:
    ada = Player(server).signup("Ada Lovelace")
    assert ada.user is not None and ada.user["name"] == "Ada Lovelace" and not ada.user["guest"]
    assert ada.user["level"] == 1 and ada.user["rating"] == 1500  # a new account
    assert ada.user["provisional"] is True and ada.user["rated"] == 0
    assert ada.http.cookies.get("rebelote_session") and ada.csrf
    me = ada.http.get("/api/me").json()
    assert me["user"]["id"] == ada.user["id"] and me["csrf"] == ada.csrf
    other = Player(server)
    r = other.http.post("/api/auth/signup", json={"name": "ada lovelace", "password": "x" * 9})
    assert r.status_code == 409 and _code(r) == "name_taken"
    r = other.http.post("/api/auth/signup", json={"name": "<script>", "password": "x" * 9})
    assert r.status_code == 400 and _code(r) == "bad_name"
    r = other.http.post("/api/auth/signup", json={"name": "Bob", "password": "short"})
    assert r.status_code == 400 and _code(r) == "weak_password"
    r = other.http.post("/api/auth/signup", json={"name": "Bob", "password": "x" * 9, "x": 1})
    assert r.status_code == 422
    r = other.http.post("/api/auth/login", json={"name": "Ada Lovelace", "password": "wrong!!!"})
    assert r.status_code == 401 and _code(r) == "bad_credentials"
    # CSRF: a change without the header is refused, and changes nothing
    r = ada.post("/api/lobby/tables", {"preset": "ffb"}, csrf=False)
    assert r.status_code == 403 and _code(r) == "csrf"
    r = ada.http.post("/api/lobby/tables", json={}, headers={"X-CSRF-Token": "forged"})
    assert r.status_code == 403
    assert ada.http.get("/api/lobby").json() == []
    r = other.post("/api/lobby/tables", {})
    assert r.status_code == 401 and _code(r) == "not_logged_in"
    # password change: the old one is asked; other sessions end
    second = Player(server).login("Ada Lovelace")
    r = ada.post("/api/auth/password", {"old": "nope", "new": "a new passphrase"})
    assert r.status_code == 401
    ada.ok("/api/auth/password", {"old": "correct horse", "new": "a new passphrase"})
    assert second.http.get("/api/me").json()["user"] is None
    assert ada.http.get("/api/me").json()["user"]["name"] == "Ada Lovelace"
    Player(server).login("Ada Lovelace", "a new passphrase")
    r = Player(server).http.post(
        "/api/auth/login", json={"name": "Ada Lovelace", "password": "correct horse"}
    )
    assert r.status_code == 401
    ada.ok("/api/auth/logout")
    assert ada.http.get("/api/me").json() == {"user": None, "csrf": None}
    # guests: a name, no password, never ranked
    guest = Player(server).guest("Zoe")
    assert guest.user is not None and guest.user["guest"]
    r = guest.post("/api/lobby/tables", {"ranked": True})
    assert r.status_code == 403 and _code(r) == "account_required"
    for p in (ada, other, second, guest):
        p.close()


def test_password_is_stored_hashed(server: LiveServer) -> None:
    Player(server).signup("Hashy", "my secret words")
    user = server.app.state.store.user_by_name("hashy")
    assert user.password_hash.startswith("$argon2id$")
    assert "my secret words" not in user.password_hash


def test_a_guest_who_signs_up_keeps_his_seat_history_and_id(server: LiveServer) -> None:
    host = Player(server).guest("Host")
    table_id = host.open_table(name="upgrade", options=FAST)["table_id"]
    hank = Player(server).guest("Hank Guest")
    assert hank.user is not None
    guest_id = hank.user["id"]
    hank.join(table_id, "N")
    host.ok(f"/api/lobby/tables/{table_id}/fill", {"level": "random"})
    host.ok(f"/api/lobby/tables/{table_id}/start")
    old_csrf = hank.csrf
    hank.signup("Hank Upgraded")
    assert hank.user is not None
    assert (hank.user["id"], hank.user["name"], hank.user["guest"]) == (
        guest_id,
        "Hank Upgraded",
        False,
    )
    assert hank.csrf != old_csrf  # a new session
    me = hank.http.get("/api/me").json()["user"]
    assert (me["id"], me["guest"]) == (guest_id, False)
    history = hank.http.get("/api/me/history").json()
    assert [(t["table_id"], t["seat"], t["status"]) for t in history["running"]] == [
        (table_id, "N", "playing")
    ]
    # the seat: his new name, no guest mark, in the room and in storage
    room = hank.http.get(f"/api/lobby/tables/{table_id}").json()
    n = seat_of(room, "N")
    assert (n["kind"], n["name"], n["guest"], n["left"]) == ("human", "Hank Upgraded", False, False)
    stored = server.app.state.store.load(table_id)
    row = next(s for s in stored.seats if s.seat == "N")
    assert (row.user_id, row.name, row.guest, row.left) == (guest_id, "Hank Upgraded", False, False)
    # his seat token still works, and a fresh one is his
    with hank.connect(table_id) as client:
        snap = client.sync()
        assert seat_of(snap["table"], "N")["name"] == "Hank Upgraded"
    fresh = hank.ok(f"/api/lobby/tables/{table_id}/token")
    assert fresh["seat"] == "N"
    # an account logs in with the new name and password
    again = Player(server).login("Hank Upgraded")
    assert again.user is not None and again.user["id"] == guest_id
    for p in (host, hank, again):
        p.close()


def test_a_guest_cannot_sign_up_under_a_taken_name(server: LiveServer) -> None:
    Player(server).signup("Taken Name").close()
    gus = Player(server).guest("Gus")
    r = gus.http.post("/api/auth/signup", json={"name": "taken name", "password": "long enough"})
    assert r.status_code == 409
    assert r.json()["detail"]["code"] == "name_taken"
    me = gus.http.get("/api/me").json()["user"]
    assert (me["name"], me["guest"]) == ("Gus", True)
    gus.close()


def test_names_are_nfc_and_compared_by_their_nfkc_casefolded_key(server: LiveServer) -> None:
    Player(server).signup("Alice Smith").close()
    taken = {
        "code": "name_taken",
        "message": "'{}' is the name of an account: log in, or choose another name",
    }
    fraktur = "\U0001d504\U0001d529\U0001d526\U0001d520\U0001d522"
    for look_alike in ("\uff21lice Smith", f"{fraktur} Smith"):
        r = Player(server).http.post("/api/auth/guest", json={"name": look_alike})
        assert r.status_code == 409
        assert r.json()["detail"] == {
            "code": taken["code"],
            "message": taken["message"].format(look_alike),
        }
        r = Player(server).http.post(
            "/api/auth/signup", json={"name": look_alike, "password": "long enough"}
        )
        assert r.status_code == 409 and r.json()["detail"]["code"] == "name_taken"
    # a combining accent joins its letter (NFC) when stored and shown
    zoe = Player(server).guest("Zoe\u0301")
    assert zoe.user is not None and zoe.user["name"] == "Zo\u00e9"
    rene = Player(server).signup("Rene\u0301 Dupont")
    assert rene.user is not None and rene.user["name"] == "Ren\u00e9 Dupont"
    # the precomposed spelling logs in to it, and cannot sign up again
    back = Player(server).login("REN\u00c9 dupont")
    assert back.user is not None and back.user["id"] == rene.user["id"]
    r = Player(server).http.post(
        "/api/auth/signup", json={"name": "Ren\u00e9 Dupont", "password": "long enough"}
    )
    assert r.status_code == 409
    for p in (zoe, rene, back):
        p.close()


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
    room_msg = g.recv_until(lambda m: m["t"] == "room")["d"]
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


# ------------------------------------------------------------------ lobby


def test_lobby_rules(server: LiveServer) -> None:
    host = Player(server).guest("Host")
    guest = Player(server).guest("Guest")
    third = Player(server).guest("Third")
    private = host.open_table(visibility="private", preset="ffb", name="friends")
    assert private["invite"]
    public = guest.open_table(preset="coinche", target=1000, seat="N")
    lobby = third.http.get("/api/lobby").json()
    assert [t["id"] for t in lobby] == [public["table_id"]]  # private tables are not listed
    assert lobby[0]["rules"]["preset"] == "coinche" and lobby[0]["invite"] is None
    tid = private["table_id"]
    r = third.http.get(f"/api/lobby/tables/{tid}")
    assert r.status_code == 404  # a private table needs its invitation
    r = third.post(f"/api/lobby/tables/{tid}/join", {"seat": "N"})
    assert r.status_code == 404
    room = third.http.get(f"/api/lobby/tables/{tid}", params={"invite": private["invite"]}).json()
    assert room["status"] == "open" and room["host"] == "S"
    third.join(tid, "N", private["invite"])
    r = guest.post(f"/api/lobby/tables/{tid}/join", {"seat": "N", "invite": private["invite"]})
    assert r.status_code == 409 and _code(r) == "seat_taken"
    r = third.post(f"/api/lobby/tables/{tid}/join", {"seat": "W", "invite": private["invite"]})
    assert r.status_code == 409 and _code(r) == "already_seated"  # one seat each
    r = third.post(f"/api/lobby/tables/{tid}/start")
    assert r.status_code == 403 and _code(r) == "not_host"
    r = host.post(f"/api/lobby/tables/{tid}/start")
    assert r.status_code == 409 and _code(r) == "seats_empty"
    assert r.json()["detail"]["message"] == "seats W E are empty: fill them first"
    r = host.post(f"/api/lobby/tables/{tid}/bot", {"seat": "N", "level": "beginner"})
    assert r.status_code == 409  # a player sits there
    host.ok(f"/api/lobby/tables/{tid}/bot", {"seat": "W", "level": "beginner"})
    host.ok(f"/api/lobby/tables/{tid}/bot", {"seat": "W", "level": None})
    r = host.post(f"/api/lobby/tables/{tid}/bot", {"seat": "W", "level": "grandmaster"})
    assert r.status_code == 422
    # the host leaves before the start: the table passes to the other human
    room = host.ok(f"/api/lobby/tables/{tid}/leave")
    assert room["host"] == "N" and {s["seat"]: s["kind"] for s in room["seats"]}["S"] == "open"
    r = host.post(f"/api/lobby/tables/{tid}/fill", {"level": "random"})
    assert r.status_code == 403  # no longer the host
    third.ok(f"/api/lobby/tables/{tid}/fill", {"level": "random"})
    room = third.ok(f"/api/lobby/tables/{tid}/start")
    assert room["status"] == "playing"
    r = third.post(f"/api/lobby/tables/{tid}/bot", {"seat": "W", "level": None})
    assert r.status_code == 409 and _code(r) == "not_open"  # seats are settled
    # the last human leaves an open table: it closes
    guest.ok(f"/api/lobby/tables/{public['table_id']}/leave")
    assert third.http.get("/api/lobby").json() == []
    # spectators may not watch a private table
    ws = server.connect(tid, None, watch=1)
    err = ws.recv()
    assert err["t"] == "error" and err["d"]["code"] == "private"
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv()
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4403, "private")
    for p in (host, guest, third):
        p.close()


def test_new_token_for_the_same_seat(server: LiveServer) -> None:
    table_id, players = lobby_table(server, ["Tom"], bots="random", options=FAST)
    tom = players[0]
    old = tom.token
    fresh = tom.ok(f"/api/lobby/tables/{table_id}/token")
    assert fresh["seat"] == "S" and fresh["token"] != old
    ws = server.connect(table_id, old)
    assert ws.recv()["d"]["code"] == "bad_token"
    ws.close()
    with server.connect(table_id, fresh["token"]) as client:
        assert client.recv()["t"] == "snapshot"


def test_a_private_table_is_hidden_from_the_table_endpoint(server: LiveServer) -> None:
    host = Player(server).guest("Priv Host")
    made = host.open_table(name="secret", visibility="private")
    table_id, invite = made["table_id"], made["invite"]
    missing = {"detail": {"code": "table_not_found", "message": "no such table"}}
    with server.http() as anon:
        r = anon.get(f"/api/tables/{table_id}")
        assert (r.status_code, r.json()) == (404, missing)
        r = anon.get(f"/api/tables/{table_id}", params={"invite": "wrong"})
        assert (r.status_code, r.json()) == (404, missing)
        r = anon.get(f"/api/tables/{table_id}", params={"invite": invite})
        assert r.status_code == 200 and r.json()["id"] == table_id
        r = anon.get(f"/api/tables/{table_id}", params={"token": host.token})
        assert r.status_code == 200
        assert seat_of(r.json(), "S")["name"] == "Priv Host"
    stranger = Player(server).guest("Stranger")
    r = stranger.http.get(f"/api/tables/{table_id}")
    assert (r.status_code, r.json()) == (404, missing)
    r = host.http.get(f"/api/tables/{table_id}")
    assert r.status_code == 200 and r.json()["status"] == "open"
    # a public table and a solo one: to anyone
    public = host.open_table(name="open")["table_id"]
    solo = server.create()["table_id"]
    with server.http() as anon:
        assert anon.get(f"/api/tables/{public}").status_code == 200
        assert anon.get(f"/api/tables/{solo}").status_code == 200
    for p in (host, stranger):
        p.close()


def test_watching_a_private_table_is_refused_as_private(server: LiveServer) -> None:
    host = Player(server).guest("Watched")
    table_id = host.open_table(visibility="private")["table_id"]
    ws = server.connect(table_id, None, watch=1)
    err = ws.recv()
    assert (err["t"], err["d"]["code"]) == ("error", "private")
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv()
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4403, "private")
    host.close()


# ------------------------------------------------------------------ refusals


def test_refusals_change_nothing(server: LiveServer) -> None:
    table_id, players = lobby_table(
        server, ["Ana", "Bob"], bots="random", options={**FAST, "speed": "slow"}
    )
    room = server.manager._tables[table_id]
    game = room.game
    s = Seated("S", players[0].connect(table_id))
    n = Seated("N", players[1].connect(table_id))
    spectator = Seated(None, server.connect(table_id, None, watch=1))
    # the computer players start once a human is there: wait until both
    # are (their presence goes through the broker), then for a human's turn
    deadline = time.monotonic() + 20
    while not (room._present(Seat.S) and room._present(Seat.N)):
        assert time.monotonic() < deadline, "the players' sockets never counted"
        time.sleep(0.02)
    while room.pending() is not None or room._driver is not None:
        assert time.monotonic() < deadline, "the computer players never stopped"
        time.sleep(0.02)
    for x in (s, n, spectator):
        x.drain(timeout=0.5)
    # every socket has read its stream to the end (an act without v counts
    # as made at the last version its socket was sent)
    for x, key in ((s, Seat.S), (n, Seat.N), (spectator, None)):
        while x.client.v < game.versions[key]:
            assert time.monotonic() < deadline + 10, "a socket never caught up"
            x.drain(timeout=0.2)
    before = (game.entries, dict(game.versions))

    def refused(x: Seated, raw: Any, code: str) -> None:
        if isinstance(raw, (str, bytes)):
            x.client.send_raw(raw)
        else:
            x.client.send(*raw)
        err = x.client.error()
        assert err["code"] == code, err
        assert (game.entries, dict(game.versions)) == before

    refused(s, "{not json", "bad_json")
    refused(s, json.dumps({"t": "act", "d": {"action": "x" * 5000}}), "too_large")
    refused(s, json.dumps({"t": "fly"}), "unknown_type")
    refused(s, json.dumps({"t": "act", "d": {"action": "JS", "extra": 1}}), "bad_message")
    refused(s, ("act", {"action": "JS", "seat": "N"}), "not_your_seat")
    turn = s.client.turn or {}
    who = turn.get("seat")
    out_of_turn = n if who != "N" else s
    refused(out_of_turn, ("act", {"action": "pass"}), "not_your_turn")
    refused(spectator, ("act", {"action": "pass"}), "spectator")
    refused(spectator, ("chat", {"text": "hi"}), "spectator")
    refused(s, ("chat", {"text": "x" * 301}), "bad_message")
    refused(s, ("chat", {"text": "   \u0000\u200b  "}), "bad_message")
    refused(s, ("mute", {"seat": "S"}), "bad_message")
    # a seat's token used for another table, a made-up token
    other_table, others = lobby_table(server, ["Cat"], bots="random", options=FAST)
    ws = server.connect(other_table, players[0].token)
    assert ws.recv()["d"]["code"] == "bad_token"
    ws.close()
    ws = server.connect(table_id, "forged-token")
    assert ws.recv()["d"]["code"] == "bad_token"
    ws.close()
    # chat: rate-limited, and HTML arrives as text with its escaped form
    s.client.send("chat", {"text": "<img src=x onerror=alert(1)>"})
    for _ in range(5):
        s.client.send("chat", {"text": "spam"})
    err = s.client.error()
    assert err["code"] == "rate_limited"
    n.drain(timeout=0.5)
    line = next(c for c in n.chat if c["text"].startswith("<img"))
    assert line["html"] == "&lt;img src=x onerror=alert(1)&gt;"
    assert (game.entries, dict(game.versions)) == before
    for x in (s, n, spectator):
        x.client.close()
    for p in (*players, *others):
        p.close()


def test_validation_errors_have_the_error_shape_and_never_echo_the_input(
    server: LiveServer,
) -> None:
    p = Player(server)
    secret = "p" * (50 * 1024)  # under the body limit (a larger body: 413, test_limits.py)
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


def test_requests_take_strict_numbers_and_name_no_unknown_field(server: LiveServer) -> None:
    p = Player(server).guest("Strict")
    r = p.post("/api/lobby/tables", {"target": True})
    assert r.status_code == 422
    assert r.json()["detail"] == {
        "code": "invalid",
        "message": "target: Input should be a valid integer",
        "field": "target",
    }
    r = p.post("/api/lobby/tables", {"target": "200"})
    assert r.status_code == 422 and r.json()["detail"]["field"] == "target"
    r = p.post("/api/lobby/tables", {"options": {"hold": True}})
    assert r.status_code == 422
    assert r.json()["detail"]["message"] == "options.hold: Input should be a valid number"
    with server.http() as anon:
        r = anon.post("/api/tables", json={"target": True})
        assert r.status_code == 422 and r.json()["detail"]["field"] == "target"
    r = p.post("/api/lobby/tables", {"extra_field_SECRET": 1})
    assert r.status_code == 422
    assert r.json()["detail"] == {"code": "invalid", "message": "unknown field", "field": "body"}
    r = p.post("/api/lobby/tables", {"options": {"extra_field_SECRET": 1}})
    assert r.json()["detail"] == {
        "code": "invalid",
        "message": "options: unknown field",
        "field": "options",
    }
    assert "SECRET" not in r.text
    r = p.http.post(
        "/api/auth/guest",
        content=b"{not json",
        headers={"Content-Type": "application/json"},
    )
    assert (r.status_code, r.json()) == (
        422,
        {"detail": {"code": "invalid", "message": "the body is not valid JSON"}},
    )
    # numbers still go through as numbers
    made = p.post("/api/lobby/tables", {"target": 200, "options": {"hold": 5}})
    assert made.status_code == 201
    p.close()


# ------------------------------------------------------------------ history


def test_replay_and_export_of_a_finished_match(server: LiveServer, tmp_path: Path) -> None:
    table_id, players = lobby_table(server, ["Rex"], bots="random", target=200, options=FAST)
    rex = players[0]
    s = Seated("S", rex.connect(table_id))
    play_together(
        [s],
        random.Random(4),
        until=lambda: any(e["kind"] == "match_end" for e in s.client.events),
        timeout=240,
    )
    end = next(e for e in s.client.events if e["kind"] == "match_end")
    data = rex.http.get(f"/api/tables/{table_id}/replay").json()
    deals = data["deals"]
    assert len(deals) == len(end["sheet"])
    for deal in deals:
        if deal["result"] not in ("passed", "cancelled"):
            assert all(len(h) == 8 for h in deal["hands"].values())
            assert len(deal["tricks"]) == 8
    record = rex.http.get(f"/api/tables/{table_id}/record", params={"match": 1}).json()
    summary = replay_record(record)
    assert summary["totals"] == end["totals"] and summary["winner"] == end["winner"]
    one = rex.http.get(f"/api/tables/{table_id}/record", params={"match": 1, "deal": 1}).json()
    assert replay_record(one)["result"] == end["sheet"][0]["result"]
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    out = subprocess.run(
        [sys.executable, "-m", "rebelote", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout)["totals"] == end["totals"]
    r = rex.http.get(f"/api/tables/{table_id}/record", params={"match": 2})
    assert r.status_code == 404 and _code(r) == "not_finished"
    history = rex.http.get("/api/me/history").json()
    assert history["results"][0]["table_id"] == table_id
    s.client.close()


def test_a_running_private_game_is_not_exported_to_others(server: LiveServer) -> None:
    host = Player(server).guest("Pia")
    created = host.open_table(visibility="private")
    host.ok(f"/api/lobby/tables/{created['table_id']}/fill", {"level": "random"})
    host.ok(f"/api/lobby/tables/{created['table_id']}/start")
    stranger = Player(server).guest("Stranger")
    r = stranger.http.get(f"/api/tables/{created['table_id']}/replay")
    assert r.status_code == 404
    data = host.http.get(f"/api/tables/{created['table_id']}/replay").json()
    assert data["deals"] == []  # the deal in progress is never given


# ------------------------------------------------------------------ ratings


def test_experience_and_levels_formula() -> None:
    assert [level_threshold(n) for n in (1, 2, 3, 4, 5)] == [0, 100, 300, 600, 1000]
    assert [level_of(x) for x in (0, 99, 100, 299, 300, 599, 600, 1000)] == [1, 1, 2, 2, 3, 3, 4, 5]
    assert match_xp(deals=6, won=False) == 50
    assert match_xp(deals=6, won=True) == 80


def test_openskill_ratings_with_computer_players() -> None:
    me = Rated(1, 25.0, 25 / 3)
    partner = bot_rating("beginner")
    foes = [bot_rating("intermediate"), bot_rating("intermediate")]
    won = rate([[me, partner], foes], [1, 2])
    lost = rate([[me, partner], foes], [2, 1])
    assert set(won) == {1}  # computer players never change
    assert won[1][0] > 25 > lost[1][0]
    assert won[1][1] < 25 / 3 and lost[1][1] < 25 / 3  # surer either way
    # beating stronger players is worth more
    weak = rate([[me, partner], [bot_rating("random"), bot_rating("random")]], [1, 2])
    assert won[1][0] > weak[1][0]


def test_lobby_offers_two_player_tables(server: LiveServer) -> None:
    """RULES.md "Two players": a lobby table of the preset ``two-players``
    seats W and S only; a second person sits at W and the host starts it."""
    host = Player(server).guest("Host")
    guest = Player(server).guest("Guest")
    table = host.open_table(preset="two-players", target=300, seat="S")
    tid = table["table_id"]
    lobby = guest.http.get("/api/lobby").json()
    listed = [t for t in lobby if t["id"] == tid]
    assert listed and listed[0]["rules"]["preset"] == "two-players"
    room = guest.http.get(f"/api/lobby/tables/{tid}").json()
    assert [s["seat"] for s in room["seats"]] == ["W", "S"]
    r = guest.post(f"/api/lobby/tables/{tid}/join", {"seat": "N"})
    assert r.status_code == 400 and _code(r) == "bad_request"
    r = host.post(f"/api/lobby/tables/{tid}/bot", {"seat": "E", "level": "beginner"})
    assert r.status_code == 400 and _code(r) == "bad_request"
    guest.join(tid, "W")
    room = host.ok(f"/api/lobby/tables/{tid}/start")
    assert room["status"] == "playing"
    host.close()
    guest.close()
