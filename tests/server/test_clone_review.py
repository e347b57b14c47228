"""Fixes after a fresh-clone review of the multi-table server: a guest who
signs up keeps his seats, private tables hidden from ``/api/tables/{id}``,
one status for a closed table, names compared by their Unicode key, the
description's "1 point", strict request fields, the stand-in of a leaver."""

from __future__ import annotations

from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from rebelote.seats import Seat
from rebelote.server.table import game_from_stored

from .live import LiveServer
from .net import Player, lobby_table

FAST = {"speed": "instant", "auto_next": True, "auto_play_forced": False}


def _seat(seats: list[dict[str, Any]], letter: str) -> dict[str, Any]:
    return next(s for s in seats if s["seat"] == letter)


# ------------------------------------------------------------------ guest -> account


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
    n = _seat(room["seats"], "N")
    assert (n["kind"], n["name"], n["guest"], n["left"]) == ("human", "Hank Upgraded", False, False)
    stored = server.app.state.store.load(table_id)
    row = next(s for s in stored.seats if s.seat == "N")
    assert (row.user_id, row.name, row.guest, row.left) == (guest_id, "Hank Upgraded", False, False)
    # his seat token still works, and a fresh one is his
    with hank.connect(table_id) as client:
        snap = client.sync()
        assert _seat(snap["table"]["seats"], "N")["name"] == "Hank Upgraded"
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


# ------------------------------------------------------------------ private tables


def test_a_private_table_is_hidden_from_the_table_endpoint(server: LiveServer) -> None:
    host = Player(server).guest("Priv Host")
    made = host.open_table(name="secret", visibility="private")
    table_id, invite = made["table_id"], made["invite"]
    missing = {"detail": {"code": "table_not_found", "message": f"no table {table_id!r}"}}
    with server.http() as anon:
        r = anon.get(f"/api/tables/{table_id}")
        assert (r.status_code, r.json()) == (404, missing)
        r = anon.get(f"/api/tables/{table_id}", params={"invite": "wrong"})
        assert (r.status_code, r.json()) == (404, missing)
        r = anon.get(f"/api/tables/{table_id}", params={"invite": invite})
        assert r.status_code == 200 and r.json()["id"] == table_id
        r = anon.get(f"/api/tables/{table_id}", params={"token": host.token})
        assert r.status_code == 200
        assert _seat(r.json()["seats"], "S")["name"] == "Priv Host"
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


# ------------------------------------------------------------------ status


def test_a_table_everyone_left_is_closed_on_both_endpoints(server: LiveServer) -> None:
    table_id, (alice,) = lobby_table(server, ["Alice"], bots="random", options=FAST)
    room = alice.ok(f"/api/lobby/tables/{table_id}/leave")
    assert room["status"] == "closed"
    with server.http() as anon:
        assert anon.get(f"/api/lobby/tables/{table_id}").json()["status"] == "closed"
        assert anon.get(f"/api/tables/{table_id}").json()["status"] == "closed"
    alice.close()


# ------------------------------------------------------------------ names


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


def test_migration_r0004_recomputes_the_name_keys(db_url: str) -> None:
    from alembic import command
    from sqlalchemy import text

    from rebelote.server.accounts import hash_password
    from rebelote.server.storage import Store, alembic_config

    store = Store(db_url)
    config = alembic_config(store.url)
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "r0003")
    digest = hash_password("long enough")
    with store.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO users (id, name, name_key, password_hash, guest, created, mu,"
                " sigma, rated, matches, xp) VALUES"
                " (1, :wide, :wide_key, :pw, false, :at, 25, 8, 0, 0, 0),"
                " (2, 'Bob', 'bob', :pw, false, :at, 25, 8, 0, 0, 0),"
                " (3, 'alice', 'alice', :pw, false, :at, 25, 8, 0, 0, 0),"
                " (4, :zoe, :zoe_key, :pw, false, :at, 25, 8, 0, 0, 0),"
                " (5, :gus, NULL, NULL, true, :at, 25, 8, 0, 0, 0)"
            ),
            {
                "at": "2026-12-01 00:00:00+00:00",
                "pw": digest,
                "wide": "\uff21lice",
                "wide_key": "\uff41lice",
                "zoe": "Zoe\u0301",
                "zoe_key": "zoe\u0301",
                "gus": "Gu\u0301s",
            },
        )
    store.migrate()
    with store.engine.begin() as connection:
        rows = connection.execute(text("SELECT id, name, name_key FROM users ORDER BY id")).all()
    assert [tuple(r) for r in rows] == [
        (1, "\uff21lice", "\uff41lice"),  # "alice" is account 3's: the old key stays
        (2, "Bob", "bob"),
        (3, "alice", "alice"),
        (4, "Zo\u00e9", "zo\u00e9"),
        (5, "G\u00fas", None),
    ]
    assert store.user_by_name("ZO\u00c9") is not None
    assert [u.id for u in store.accounts_named("\uff21lice")] == [3, 1]
    store.close()


# ------------------------------------------------------------------ descriptions


def test_a_target_of_one_is_one_point(server: LiveServer) -> None:
    host = Player(server).guest("One Point")
    table_id = host.open_table(preset="ffb", target=1)["table_id"]
    expected = "Belote classique, FFB rules: declarations, litige on a tie, 1 point."
    room = host.http.get(f"/api/lobby/tables/{table_id}").json()
    assert (room["rules"]["target"], room["rules"]["description"]) == (1, expected)
    (listed,) = [t for t in host.http.get("/api/lobby").json() if t["id"] == table_id]
    assert listed["rules"]["description"] == expected
    table = host.http.get(f"/api/tables/{table_id}").json()
    assert table["rules"]["description"] == expected
    host.close()


# ------------------------------------------------------------------ requests


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


# ------------------------------------------------------------------ stand-in


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
    n = _seat(room["seats"], "N")
    assert {k: n[k] for k in ("kind", "name", "level", "left", "guest")} == {
        "kind": "bot",
        "name": "Bobby",
        "level": "intermediate",
        "left": True,
        "guest": False,
    }
    table = alice.http.get(f"/api/tables/{table_id}").json()
    assert _seat(table["seats"], "N") == {
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
