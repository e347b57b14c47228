"""Storage faults on real databases, and one action applied once (issue 13).

A table's log entries are stored before they are applied: when the
database refuses a write (PostgreSQL down or restarted, a read-only
database, SQLite locked by another writer), the action is refused with
``unavailable`` and the table is unchanged; once the database is back, the
next action is stored in order and the table still loads after a restart.
A computer player's turn that could not be stored is tried again until
storage is back.  An action carries a client ``id`` (a retry is
acknowledged, not applied again) and the version it was made against (a
second click made against an older turn is ``stale``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from websockets.exceptions import ConnectionClosed

from rebelote.server.api import table_socket
from rebelote.server.settings import ServerSettings
from rebelote.server.storage.tables import Store, StoredTable
from rebelote.server.tables.table import game_from_stored, request_id

from .conftest import _postgres_database
from .live import TEST_SETTINGS, Client, LiveServer
from .net import Player


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database (skipped without one, failed in CI)."""
    yield from _postgres_database()


def _admin(url: str) -> str:
    """A libpq URL of the server's maintenance database, as the test user."""
    return (
        make_url(url)
        .set(drivername="postgresql", database="postgres")
        .render_as_string(hide_password=False)
    )


def _pg(url: str, *statements: str) -> None:
    """Run ``statements`` on the server of ``url`` from outside the app, then
    end the app's sessions on that database (as a restart of the server
    would): a new setting applies to the next sessions only."""
    name = make_url(url).database
    with psycopg.connect(_admin(url), autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement.format(db=f'"{name}"'))
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        )


def _play_state(client: Client) -> tuple[list[str], list[Any], int]:
    snap = client.sync()
    return snap["view"]["hand"], snap["view"]["trick"], client.v


CARD = re.compile(r"^(7|8|9|10|J|Q|K|A)[SHDC]$")


def _decide_card(client: Client) -> dict[str, Any]:
    """Read until this seat (S) must play a card; returns that turn (bids:
    pass or the first legal; declarations: none)."""
    while True:
        turn = client.my_decision()
        legal = turn["legal"]
        if all(CARD.match(a) for a in legal):
            return turn
        for choice in ("pass", "declare none", "next", legal[0]):
            if choice in legal:
                client.act(choice)
                break
        client.turn = None


def _cards_played(client: Client, seat: str) -> list[str]:
    return [e["card"] for e in client.events if e["kind"] == "card" and e["seat"] == seat]


def test_postgresql_down_refuses_the_action_and_changes_nothing(pg_url: str) -> None:
    with LiveServer(pg_url) as live:
        created = live.create(preset="ffb", options={"speed": "instant"})
        with live.connect(created["table_id"], created["token"]) as client:
            turn = _decide_card(client)
            hand, trick, v = _play_state(client)
            card = turn["legal"][0]
            _pg(pg_url, "ALTER DATABASE {db} ALLOW_CONNECTIONS false")
            try:
                client.act(card)
                error = client.error()
                assert error["code"] == "unavailable"
                # nothing changed: the same hand, trick and version; no event came
                assert _play_state(client) == (hand, trick, v)
            finally:
                _pg(pg_url, "ALTER DATABASE {db} ALLOW_CONNECTIONS true")
            # storage is back: the same card goes through, once
            client.act(card)
            msg = client.recv_until(
                lambda m: m["t"] == "error" or (m["t"] == "event" and m["d"]["kind"] == "card"),
                timeout=60,
            )
            assert msg["t"] == "event", msg
            assert _cards_played(client, "S") == [card]
    # a new server loads the table from its log: the card is there once, in order
    with LiveServer(pg_url) as live, live.http() as http:
        r = http.get(f"/api/tables/{created['table_id']}")
        assert r.status_code == 200, r.text
        with live.connect(created["table_id"], created["token"]) as client:
            snap = client.recv_until(lambda m: m["t"] == "snapshot")["d"]
            hand = snap["view"]["hand"]
            assert card not in hand and len(hand) == 7


def test_a_restarted_postgresql_does_not_fail_the_next_action(pg_url: str) -> None:
    """Every pooled connection dies (a restart): the next action is stored
    on a new connection (the pool checks connections before use)."""
    with LiveServer(pg_url) as live:
        created = live.create(preset="ffb", options={"speed": "instant"})
        with live.connect(created["table_id"], created["token"]) as client:
            turn = _decide_card(client)
            _pg(pg_url)  # end every session of the app, as a restart does
            client.act(turn["legal"][0])
            msg = client.recv_until(
                lambda m: (
                    m["t"] == "error"
                    or (m["t"] == "event" and m["d"]["kind"] == "card" and m["d"]["seat"] == "S")
                )
            )
            assert msg["t"] == "event", msg


def test_computer_players_resume_when_a_read_only_database_is_writable_again(
    pg_url: str,
) -> None:
    """The computer players' moves are refused while the database is
    read-only; they are tried again and the table goes on by itself once it
    is writable (no reconnection, no ``back``)."""
    with LiveServer(pg_url, bot_delay=1.0) as live:
        created = live.create(preset="ffb", options={"speed": "instant"})
        with live.connect(created["table_id"], created["token"]) as client:
            turn = _decide_card(client)
            client.act(turn["legal"][0])
            client.recv_until(
                lambda m: m["t"] == "event" and m["d"]["kind"] == "card" and m["d"]["seat"] == "S"
            )
            # the next computer move waits 1 s: make the database read-only now
            _pg(pg_url, "ALTER DATABASE {db} SET default_transaction_read_only = on")
            try:
                time.sleep(3.0)
                before = client.v
                while True:
                    try:
                        client.recv(timeout=0.2)
                    except TimeoutError:
                        break
                stuck = client.v
            finally:
                _pg(pg_url, "ALTER DATABASE {db} RESET default_transaction_read_only")
            # read-only for 3 s: at most the moves stored before it took effect came
            assert stuck - before <= 4
            # writable again: the computer players go on until it is S's turn
            turn = client.my_decision()
            assert turn["seat"] == "S" or turn["waiting"] == "next"


def test_sqlite_locked_by_another_writer(tmp_path: Path) -> None:
    """SQLite held by another writer past the busy timeout
    (``db_lock_timeout_ms``, 3 s): the action is refused with
    ``unavailable``, nothing changed; released, it goes through."""
    db = tmp_path / "rebelote.db"
    with LiveServer(f"sqlite:///{db}") as live:
        created = live.create(preset="ffb", options={"speed": "instant"})
        with live.connect(created["table_id"], created["token"]) as client:
            turn = _decide_card(client)
            hand, trick, v = _play_state(client)
            card = turn["legal"][0]
            other = sqlite3.connect(db, timeout=0, isolation_level=None)
            other.execute("BEGIN EXCLUSIVE")
            try:
                client.act(card)
                assert client.error(timeout=30)["code"] == "unavailable"
            finally:
                other.execute("ROLLBACK")
                other.close()
            assert _play_state(client) == (hand, trick, v)
            client.act(card)
            client.recv_until(lambda m: m["t"] == "event" and m["d"]["kind"] == "card")
            assert _cards_played(client, "S") == [card]


def _act(client: Client, action: str, *, action_id: str | None, v: int | None) -> None:
    d: dict[str, Any] = {"action": action}
    if action_id is not None:
        d["id"] = action_id
    client.ws.send(json.dumps({"t": "act", "d": d, "v": v}))


def test_a_second_click_is_stale_and_a_retry_is_applied_once(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'r.db'}", bot_delay=0.3) as live:
        created = live.create(preset="ffb", options={"speed": "instant"})
        with live.connect(created["table_id"], created["token"]) as client:
            for trial in range(3):
                turn = _decide_card(client)
                if len(turn["legal"]) < 2:
                    client.act(turn["legal"][0])
                    client.turn = None
                    continue
                first, second = turn["legal"][:2]
                made_at = client.v
                before = _cards_played(client, "S")
                # two clicks made against the same turn, sent at once
                _act(client, first, action_id=f"c{trial}a", v=made_at)
                _act(client, second, action_id=f"c{trial}b", v=made_at)
                # and the first one again (a retry after a lost answer)
                _act(client, first, action_id=f"c{trial}a", v=made_at)
                acks: list[dict[str, Any]] = []
                errors: list[dict[str, Any]] = []
                while len(acks) + len(errors) < 3:
                    msg = client.recv()
                    if msg["t"] == "ack":
                        acks.append(msg["d"])
                    elif msg["t"] == "error":
                        errors.append(msg["d"])
                assert acks == [
                    {"id": f"c{trial}a", "duplicate": False},
                    {"id": f"c{trial}a", "duplicate": True},
                ]
                assert [e["code"] for e in errors] == ["stale"]
                client.turn = None
                # only the first card was played, once
                assert _cards_played(client, "S") == [*before, first]


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs of its own (root only: CI runs as root), unmounted
    afterwards."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs for the disk-full test needs root")
    mount = tmp_path / "disk"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_sqlite_on_a_full_disk(tiny_disk: Path) -> None:
    """The disk holding the SQLite database fills up: the action is refused
    with ``unavailable`` and nothing changed; with room again it goes
    through."""
    db = tiny_disk / "rebelote.db"
    with LiveServer(f"sqlite:///{db}") as live:
        created = live.create(preset="ffb", options={"speed": "instant"})
        with live.connect(created["table_id"], created["token"]) as client:
            turn = _decide_card(client)
            hand, trick, v = _play_state(client)
            card = turn["legal"][0]
            filler = tiny_disk / "filler"
            fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
            with contextlib.suppress(OSError):  # every free byte of the disk
                while os.write(fd, b"\0" * 4096):
                    pass
            os.close(fd)
            try:
                client.act(card)
                assert client.error(timeout=30)["code"] == "unavailable"
                assert _play_state(client) == (hand, trick, v)
            finally:
                filler.unlink()
            client.act(card)
            msg = client.recv_until(
                lambda m: m["t"] == "error" or (m["t"] == "event" and m["d"]["kind"] == "card")
            )
            assert msg["t"] == "event", msg
            assert _cards_played(client, "S") == [card]


# ------------------------------------------------- faults injected in-process


class Fault:
    """Makes ``store.method`` fail with a database error, for the
    tests of writes whose outcome is unknown.  ``after_commit``: the write
    is done, then the error is raised (a COMMIT whose answer was lost);
    else it is raised before anything is written.  ``times``: how many
    calls fail (``None``: every one until :meth:`clear`); ``when``: only
    the calls whose arguments it accepts fail.  ``fired`` counts the
    failures; ``event`` is set at the first one."""

    def __init__(
        self,
        store: Store,
        method: str,
        *,
        after_commit: bool = False,
        times: int | None = 1,
        when: Callable[..., bool] | None = None,
    ) -> None:
        self.store = store
        self.method = method
        self.original = getattr(store, method)
        self.after_commit = after_commit
        self.times = times
        self.when = when
        self.fired = 0
        self.event = threading.Event()
        self._lock = threading.Lock()
        setattr(store, method, self._call)

    def _due(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
        with self._lock:
            if self.times is not None and self.fired >= self.times:
                return False
            if self.when is not None and not self.when(*args, **kwargs):
                return False
            self.fired += 1
            return True

    def _call(self, *args: Any, **kwargs: Any) -> Any:
        if not self._due(args, kwargs):
            return self.original(*args, **kwargs)
        if self.after_commit:
            self.original(*args, **kwargs)
        self.event.set()
        raise OperationalError("COMMIT", {}, ConnectionError("the answer was lost"))

    def clear(self) -> None:
        """Stop failing (the method is the store's own again)."""
        setattr(self.store, self.method, self.original)


def _log_of(url: str, table_id: str) -> StoredTable:
    """The table as stored, read by a store of its own; checks that its
    log is whole: entries 0, 1, 2, ... with no gap or repeat, each client
    request id (actions, agreements) once per seat, and that it replays."""
    store = Store(url)
    try:
        stored = store.load(table_id)
    finally:
        store.close()
    assert stored is not None
    assert [e.seq for e in stored.events] == list(range(len(stored.events)))
    ids = [found for e in stored.events if (found := request_id(e)) is not None]
    assert len(ids) == len(set(ids)), ids
    game_from_stored(stored)  # raises when an entry does not apply
    return stored


def _acts_of(stored: StoredTable, seat: str) -> list[str]:
    return [e.payload["action"] for e in stored.events if e.kind == "act" and e.seat == seat]


def test_a_retry_after_a_lost_commit_answer_is_acknowledged_as_duplicate(db_url: str) -> None:
    """The database stored the action but its answer was lost: the player
    is told ``unavailable``, his retry (same id) is acknowledged
    ``duplicate`` and not applied again; the log is whole and loads."""
    with LiveServer(db_url) as live:
        created = live.create(preset="ffb", options={"speed": "instant"})
        table_id = created["table_id"]
        with live.connect(table_id, created["token"]) as client:
            turn = _decide_card(client)
            card = turn["legal"][0]
            made_at = client.v
            before = _acts_of(_log_of(db_url, table_id), "S")
            fault = Fault(live.app.state.store, "append", after_commit=True)
            _act(client, card, action_id="lost-1", v=made_at)
            assert client.error()["code"] == "unavailable"
            assert fault.fired == 1
            _act(client, card, action_id="lost-1", v=made_at)
            answer = client.recv_until(lambda m: m["t"] in ("ack", "error"))
            assert answer == {"t": "ack", "d": {"id": "lost-1", "duplicate": True}, "v": None}
            assert _cards_played(client, "S") == [card]
            # the computer players go on to S's next decision
            client.turn = None
            client.my_decision()
        assert _acts_of(_log_of(db_url, table_id), "S") == [*before, card]
    with LiveServer(db_url) as live, live.http() as http:
        assert http.get(f"/api/tables/{table_id}").status_code == 200
        with live.connect(table_id, created["token"]) as client:
            hand = client.recv_until(lambda m: m["t"] == "snapshot")["d"]["view"]["hand"]
            assert card not in hand and len(hand) == 7


def test_a_lost_commit_answer_of_a_computer_player_is_not_played_twice(db_url: str) -> None:
    """A computer player's move is stored but its answer lost: the table
    reads its log again and goes on from there; the move is in the log
    once and the log replays."""
    with LiveServer(db_url, bot_delay=0.05) as live:
        created = live.create(preset="ffb", options={"speed": "instant"})
        table_id = created["table_id"]
        with live.connect(table_id, created["token"]) as client:
            turn = _decide_card(client)
            fault = Fault(
                live.app.state.store,
                "append",
                after_commit=True,
                when=lambda _id, events, _status: any(
                    e.kind == "act" and e.payload.get("by") == "bot" for e in events
                ),
            )
            client.act(turn["legal"][0])
            client.turn = None
            while not fault.event.is_set():  # S may lead the next trick first
                turn = _decide_card(client)
                client.act(turn["legal"][0])
                client.turn = None
            # the computer players go on by themselves, to S's next decision
            client.my_decision()
            assert fault.fired == 1
        stored = _log_of(db_url, table_id)
        assert stored.status == "playing"


def _pg_keep(url: str, *statements: str) -> None:
    """Run ``statements`` on the server of ``url`` from outside the app,
    leaving its sessions alone (a setting changed back while the app's
    pooled sessions keep the old one)."""
    with psycopg.connect(_admin(url), autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement.format(db=f'"{make_url(url).database}"'))


def test_sessions_opened_while_read_only_are_not_used_once_writable(pg_url: str) -> None:
    """The database is read-only for a while: the sessions opened meanwhile
    are read-only for good; once it is writable again, the pool finds such
    a session read-only when it is taken and opens a new one, so that the
    player's first try goes through."""
    with LiveServer(pg_url) as live:
        created = live.create(preset="ffb", options={"speed": "instant"})
        with live.connect(created["table_id"], created["token"]) as client:
            turn = _decide_card(client)
            card = turn["legal"][0]
            _pg(pg_url, "ALTER DATABASE {db} SET default_transaction_read_only = on")
            try:
                client.act(card)
                assert client.error()["code"] == "unavailable"
                # a session opened now is read-only
                stored = live.app.state.store.load(created["table_id"])
                assert stored is not None
            finally:
                _pg_keep(pg_url, "ALTER DATABASE {db} RESET default_transaction_read_only")
            codes = []
            for _ in range(4):
                client.act(card)
                msg = client.recv_until(
                    lambda m: m["t"] == "error" or (m["t"] == "event" and m["d"]["kind"] == "card")
                )
                if msg["t"] == "event":
                    break
                codes.append(msg["d"]["code"])
            assert (_cards_played(client, "S"), codes) == ([card], [])


def _room_seats(player: Player, table_id: str) -> dict[str, str]:
    r = player.http.get(f"/api/lobby/tables/{table_id}")
    assert r.status_code == 200, r.text
    return {s["seat"]: s["kind"] for s in r.json()["seats"]}


def _stored_seats(live: LiveServer, table_id: str) -> dict[str, str]:
    stored = live.app.state.store.load(table_id)
    assert stored is not None
    return {s.seat: s.kind for s in stored.seats}


def test_a_seat_change_that_cannot_be_stored_changes_nothing(db_url: str) -> None:
    """Joining, filling with computer players and adding one while the
    database refuses the write: 503 ``unavailable``, and the seats are as
    before in memory and in the database; a write whose answer was lost
    stands as stored (memory and database agree)."""
    with LiveServer(db_url) as live:
        host, joiner = Player(live).guest("Host"), Player(live).guest("Joiner")
        table_id = host.open_table(seat="S", preset="ffb", options={"speed": "instant"})["table_id"]
        empty = {"N": "open", "W": "open", "S": "human", "E": "open"}
        fault = Fault(live.app.state.store, "update_table", times=None)
        try:
            r = joiner.post(f"/api/lobby/tables/{table_id}/join", {"seat": "N"})
            assert (r.status_code, r.json()["detail"]["code"]) == (503, "unavailable")
            r = host.post(f"/api/lobby/tables/{table_id}/fill", {"level": "random"})
            assert (r.status_code, r.json()["detail"]["code"]) == (503, "unavailable")
            r = host.post(f"/api/lobby/tables/{table_id}/bot", {"seat": "W", "level": "random"})
            assert (r.status_code, r.json()["detail"]["code"]) == (503, "unavailable")
            assert fault.fired == 3
            assert _room_seats(host, table_id) == empty
            assert _stored_seats(live, table_id) == empty
        finally:
            fault.clear()
        # storage is back: the joiner takes N
        joiner.join(table_id, "N")
        assert _room_seats(host, table_id) == {**empty, "N": "human"}
        # a computer player at W is stored but the answer is lost: the
        # table reads its seats again at once and the change stands
        fault = Fault(live.app.state.store, "update_table", after_commit=True)
        host.ok(f"/api/lobby/tables/{table_id}/bot", {"seat": "W", "level": "random"})
        assert fault.fired == 1
        host.ok(f"/api/lobby/tables/{table_id}/bot", {"seat": "E", "level": "random"})
        expected = {"N": "human", "W": "bot", "S": "human", "E": "bot"}
        assert _room_seats(host, table_id) == expected
        assert _stored_seats(live, table_id) == expected
        host.ok(f"/api/lobby/tables/{table_id}/fill", {"level": "random"})
        host.ok(f"/api/lobby/tables/{table_id}/start")
        full = {"N": "human", "W": "bot", "S": "human", "E": "bot"}
        assert _stored_seats(live, table_id) == full
    with LiveServer(db_url) as live, live.http() as http:
        r = http.get(f"/api/tables/{table_id}")
        assert r.status_code == 200
        assert {s["seat"]: s["kind"] for s in r.json()["seats"]} == full


def test_store_sessions_have_the_settings_timeouts(db_url: str) -> None:
    """The database sessions wait at most ``db_lock_timeout_ms`` for a lock
    (PostgreSQL ``lock_timeout``, SQLite's busy timeout) and run a
    statement at most ``db_statement_timeout_ms`` (PostgreSQL)."""
    settings = ServerSettings(db_statement_timeout_ms=4000, db_lock_timeout_ms=1500)
    store = Store(db_url, settings=settings)
    try:
        with store.engine.connect() as conn:
            if db_url.startswith("sqlite"):
                assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 1500
            else:
                assert conn.exec_driver_sql("SHOW statement_timeout").scalar() == "4s"
                assert conn.exec_driver_sql("SHOW lock_timeout").scalar() == "1500ms"
    finally:
        store.close()


def test_a_locked_table_fails_fast_and_other_tables_go_on(pg_url: str) -> None:
    """Another session holds a lock on one table's row (a stuck
    transaction): that table's action is refused with ``unavailable`` after
    the lock timeout instead of waiting for the lock, the other table's
    action goes through meanwhile, and the first goes through once the
    lock is released."""
    settings = TEST_SETTINGS.but(db_lock_timeout_ms=500)
    with LiveServer(pg_url, settings=settings) as live:
        first = live.create(preset="ffb", options={"speed": "instant"})
        second = live.create(preset="ffb", options={"speed": "instant"})
        with (
            live.connect(first["table_id"], first["token"]) as one,
            live.connect(second["table_id"], second["token"]) as two,
        ):
            card_one = _decide_card(one)["legal"][0]
            card_two = _decide_card(two)["legal"][0]
            admin = make_url(pg_url).set(drivername="postgresql")
            locker = psycopg.connect(admin.render_as_string(hide_password=False))
            try:
                locker.execute(
                    "SELECT id FROM tables WHERE id = %s FOR UPDATE", (first["table_id"],)
                )
                one.act(card_one)
                # the lock is held until the end of this block: only the
                # lock timeout can answer
                assert one.error(timeout=60)["code"] == "unavailable"
                two.act(card_two)
                msg = two.recv_until(
                    lambda m: m["t"] == "error" or (m["t"] == "event" and m["d"]["kind"] == "card")
                )
                assert msg["t"] == "event", msg
                with live.http() as http:
                    assert http.get(f"/api/tables/{second['table_id']}").status_code == 200
            finally:
                locker.rollback()
                locker.close()
            one.act(card_one)
            one.recv_until(lambda m: m["t"] == "event" and m["d"]["kind"] == "card")
            assert _cards_played(one, "S") == [card_one]


def _choose(legal: list[str]) -> str:
    """A decision of S's that moves the deal on: pass, declare nothing,
    else the first legal action."""
    return next((a for a in ("pass", "declare none") if a in legal), legal[0])


def test_the_next_deal_starts_by_itself_once_storage_is_back(db_url: str) -> None:
    """With the per-move clock, the next deal starts by itself at the
    deadline; when the database refuses it then, it is tried again and
    starts once the database is back."""
    with LiveServer(db_url) as live:
        host = Player(live).guest("Host")
        table_id = host.open_table(
            seat="S", preset="ffb", options={"speed": "instant", "move_clock": 2}
        )["table_id"]
        host.ok(f"/api/lobby/tables/{table_id}/fill", {"level": "random"})
        host.ok(f"/api/lobby/tables/{table_id}/start")
        with host.connect(table_id) as client:
            while True:  # S plays until the deal is over
                turn = client.my_decision()
                if turn["waiting"] == "next":
                    break
                client.act(_choose(turn["legal"]))
                client.turn = None
            deals = sum(1 for e in client.events if e["kind"] == "deal_start")
            fault = Fault(live.app.state.store, "append", times=None)
            try:
                # the deadline comes (2 s): the next deal cannot be stored
                assert fault.event.wait(timeout=60)
            finally:
                fault.clear()
            client.recv_until(
                lambda m: m["t"] == "event" and m["d"]["kind"] == "deal_start", timeout=60
            )
            assert sum(1 for e in client.events if e["kind"] == "deal_start") == deals + 1
        _log_of(db_url, table_id)


def _storage_fault(url: str, tmp_path: Path) -> contextlib.AbstractContextManager[None]:
    """Writes fail while in the block: SQLite locked by another writer (past
    the lock timeout), PostgreSQL read-only."""

    @contextlib.contextmanager
    def sqlite_locked() -> Iterator[None]:
        other = sqlite3.connect(make_url(url).database or "", timeout=0, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            other.execute("ROLLBACK")
            other.close()

    @contextlib.contextmanager
    def postgresql_read_only() -> Iterator[None]:
        _pg(url, "ALTER DATABASE {db} SET default_transaction_read_only = on")
        try:
            yield
        finally:
            _pg(url, "ALTER DATABASE {db} RESET default_transaction_read_only")

    return sqlite_locked() if url.startswith("sqlite") else postgresql_read_only()


def test_rest_answers_503_unavailable_during_a_storage_fault(
    db_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Sign-up, guest and table creation while the database refuses writes:
    503 ``unavailable`` (not 500), and no log line holds a password hash
    (the SQL parameters are never logged); once it is back they work."""
    settings = TEST_SETTINGS.but(db_lock_timeout_ms=300)
    with LiveServer(db_url, settings=settings) as live:
        caplog.set_level(logging.INFO)
        with _storage_fault(db_url, tmp_path), live.http() as http:
            answers = [
                http.post(
                    "/api/auth/signup", json={"name": "Newcomer", "password": "correct horse 7"}
                ),
                http.post("/api/auth/guest", json={"name": "Visitor"}),
                http.post("/api/tables", json={}),
            ]
            assert [(r.status_code, r.json()["detail"]["code"]) for r in answers] == [
                (503, "unavailable")
            ] * 3
        assert "$argon2" not in caplog.text
        assert "Newcomer" not in caplog.text
        Player(live).signup("Newcomer", "correct horse 7")
        live.create()


def test_an_action_without_v_counts_as_made_at_the_version_its_socket_had(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An ``act`` without ``v`` is judged against the last version its
    socket was sent: cards sent right behind a declaration, before the
    card turn it opens was sent, are ``stale`` (not played).  The socket's
    first message after the declaration is held back 2 s, so that the
    cards are read before the card turn goes out whatever the load."""
    hold = {"seconds": 0.0}
    run = table_socket._Outbox.run

    async def held_run(self: Any, ws: Any) -> None:
        send_text = ws.send_text

        async def held_send(text: str) -> None:
            seconds, hold["seconds"] = hold["seconds"], 0.0
            if seconds:
                await asyncio.sleep(seconds)
            await send_text(text)

        ws.send_text = held_send
        await run(self, ws)

    monkeypatch.setattr(table_socket._Outbox, "run", held_run)
    with LiveServer(f"sqlite:///{tmp_path / 'v.db'}") as live:
        created = live.create(preset="ffb", options={"speed": "instant"})
        with live.connect(created["table_id"], created["token"]) as client:
            for _ in range(200):  # up to a turn where S declares before his card
                turn = client.my_decision()
                if any(a.startswith("declare") for a in turn["legal"]):
                    break
                client.act(
                    next((a for a in ("take", "next") if a in turn["legal"]), turn["legal"][0])
                )
                client.turn = None
            else:
                pytest.fail("S never had anything to declare")
            hand = client.sync()["view"]["hand"]
            before = _cards_played(client, "S")  # in the deals before this one
            hold["seconds"] = 2.0
            client.act("declare none")
            for card in hand:  # no v: made at the declaration's turn
                client.act(card)
            errors = [client.error()["code"] for _ in hand]
            assert errors == ["stale"] * len(hand)
            assert _cards_played(client, "S") == before
            # looking again (the card turn came): a card without v is played
            turn = client.my_decision()
            assert all(CARD.match(a) for a in turn["legal"])
            client.act(turn["legal"][0])
            client.recv_until(
                lambda m: m["t"] == "event" and m["d"]["kind"] == "card" and m["d"]["seat"] == "S"
            )
            assert _cards_played(client, "S") == [*before, turn["legal"][0]]


def test_a_socket_whose_table_cannot_be_loaded_is_told_to_come_back(tmp_path: Path) -> None:
    """A table not in memory while its database cannot be read: the socket
    gets ``unavailable`` and is closed with 1013 (try again later); once
    the database answers, the same socket URL gets the table."""
    url = f"sqlite:///{tmp_path / 'load.db'}"
    with LiveServer(url) as live:
        created = live.create(preset="ffb", options={"speed": "instant"})
    with LiveServer(url) as live:  # a restart: solo tables load when asked for
        fault = Fault(live.app.state.store, "load", times=None)
        try:
            with live.connect(created["table_id"], created["token"]) as client:
                assert client.error()["code"] == "unavailable"
                with pytest.raises(ConnectionClosed) as closed:
                    client.recv()
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        finally:
            fault.clear()
        with live.connect(created["table_id"], created["token"]) as client:
            snap = client.recv_until(lambda m: m["t"] == "snapshot")["d"]
            assert (snap["table"]["id"], snap["table"]["you"]) == (created["table_id"], "S")


# ------------------------------- seat changes and agreements whose answer is lost


def _log_length(url: str, table_id: str) -> int:
    return len(_log_of(url, table_id).events)


def test_a_leave_whose_answer_is_lost_leaves_the_seat_free_for_the_start(db_url: str) -> None:
    """A joiner's leave is stored but its answer lost, and the database
    cannot be read at once to settle it: he is told ``unavailable``; the
    host's start then reads the seats again first and finds N free
    (``seats_empty``), never a match with a seat that nobody holds."""
    with LiveServer(db_url) as live:
        host, joiner = Player(live).guest("Host"), Player(live).guest("Joiner")
        table_id = host.open_table(seat="S", preset="ffb", options={"speed": "instant"})["table_id"]
        joiner.join(table_id, "N")
        host.ok(f"/api/lobby/tables/{table_id}/bot", {"seat": "W", "level": "random"})
        host.ok(f"/api/lobby/tables/{table_id}/bot", {"seat": "E", "level": "random"})
        store = live.app.state.store
        lost = Fault(store, "update_table", after_commit=True)
        unread = Fault(store, "load")  # the read that would settle it at once fails
        try:
            r = joiner.post(f"/api/lobby/tables/{table_id}/leave")
            assert (r.status_code, r.json()["detail"]["code"]) == (503, "unavailable")
            assert (lost.fired, unread.fired) == (1, 1)
        finally:
            lost.clear()
            unread.clear()
        free = {"N": "open", "W": "bot", "S": "human", "E": "bot"}
        assert _stored_seats(live, table_id) == free
        r = host.post(f"/api/lobby/tables/{table_id}/start")
        assert (r.status_code, r.json()["detail"]["code"]) == (409, "seats_empty")
        assert _room_seats(host, table_id) == free
        assert _log_length(db_url, table_id) == 0
        # the seat is N's again for whoever takes it
        joiner.join(table_id, "N")
        host.ok(f"/api/lobby/tables/{table_id}/start")
        assert _stored_seats(live, table_id) == {**free, "N": "human"}
        assert _log_length(db_url, table_id) == 2


def test_a_seat_change_after_a_start_whose_answer_was_lost_reads_the_log_first(
    db_url: str,
) -> None:
    """The start is stored but its answer lost, and the database cannot be
    read for a while: the host's next seat change is refused
    (``unavailable``) instead of emptying a seat of a started match; once
    the database answers, it is ``not_open`` and the match has every
    seat."""
    with LiveServer(db_url, bot_delay=0.05) as live:
        host = Player(live).guest("Host")
        table_id = host.open_table(seat="S", preset="ffb", options={"speed": "instant"})["table_id"]
        host.ok(f"/api/lobby/tables/{table_id}/fill", {"level": "random"})
        store = live.app.state.store
        lost = Fault(store, "append", after_commit=True)
        down = Fault(store, "load", times=None)
        try:
            r = host.post(f"/api/lobby/tables/{table_id}/start")
            assert (r.status_code, r.json()["detail"]["code"]) == (503, "unavailable")
            assert lost.fired == 1
            r = host.post(f"/api/lobby/tables/{table_id}/bot", {"seat": "N", "level": None})
            assert (r.status_code, r.json()["detail"]["code"]) == (503, "unavailable")
            r = host.post(f"/api/lobby/tables/{table_id}/fill", {"level": "expert"})
            assert (r.status_code, r.json()["detail"]["code"]) == (503, "unavailable")
        finally:
            lost.clear()
            down.clear()
        r = host.post(f"/api/lobby/tables/{table_id}/bot", {"seat": "N", "level": None})
        assert (r.status_code, r.json()["detail"]["code"]) == (409, "not_open")
        full = {"N": "bot", "W": "bot", "S": "human", "E": "bot"}
        assert _stored_seats(live, table_id) == full
        assert _room_seats(host, table_id) == full
        assert host.http.get(f"/api/lobby/tables/{table_id}").json()["status"] == "playing"
        assert [e.kind for e in _log_of(db_url, table_id).events] == ["match", "deal"]
        # the match goes on: the host's socket gets his hand and plays
        with host.connect(table_id) as client:
            turn = client.my_decision()
            assert turn["seat"] == "S"


def test_seat_changes_whose_answer_is_lost_stand_as_stored(db_url: str) -> None:
    """A join, a fill and a leave are each stored but their answer lost:
    the table reads its seats again at once, finds the change stored and
    answers it as done (the join's token works); memory and database hold
    the same seats after each; a retry is judged against them."""
    with LiveServer(db_url) as live:
        host, joiner = Player(live).guest("Host"), Player(live).guest("Joiner")
        table_id = host.open_table(seat="S", preset="ffb", options={"speed": "instant"})["table_id"]
        store = live.app.state.store
        seen = []

        def lost_once() -> Fault:
            return Fault(store, "update_table", after_commit=True)

        fault = lost_once()
        joined = joiner.join(table_id, "N")
        seen.append((fault.fired, _room_seats(host, table_id), _stored_seats(live, table_id)))
        r = joiner.post(f"/api/lobby/tables/{table_id}/join", {"seat": "N"})
        assert (r.status_code, r.json()["detail"]["code"]) == (409, "already_seated")
        with live.connect(table_id, joined["token"]) as client:
            room = client.recv_until(lambda m: m["t"] == "room")["d"]
            assert [s["name"] for s in room["seats"] if s["seat"] == "N"] == ["Joiner"]
        fault = lost_once()
        host.ok(f"/api/lobby/tables/{table_id}/fill", {"level": "random"})
        seen.append((fault.fired, _room_seats(host, table_id), _stored_seats(live, table_id)))
        fault = lost_once()
        joiner.ok(f"/api/lobby/tables/{table_id}/leave")
        seen.append((fault.fired, _room_seats(host, table_id), _stored_seats(live, table_id)))
        r = joiner.post(f"/api/lobby/tables/{table_id}/leave")
        assert (r.status_code, r.json()["detail"]["code"]) == (403, "no_seat")
        joined_seats = {"N": "human", "W": "open", "S": "human", "E": "open"}
        filled = {"N": "human", "W": "bot", "S": "human", "E": "bot"}
        left = {**filled, "N": "open"}
        assert seen == [
            (1, joined_seats, joined_seats),
            (1, filled, filled),
            (1, left, left),
        ]


@pytest.mark.parametrize("waiting", ["next", "rematch"])
def test_next_and_rematch_retried_after_a_lost_answer_are_duplicates(
    db_url: str, waiting: str
) -> None:
    """``next`` (or ``rematch``) is stored with the deal (or match) it
    starts, but its answer is lost: the retry with the same id is
    acknowledged ``duplicate``, the deal is started once, and the id is in
    the log once (a restart keeps it)."""
    target = 1 if waiting == "rematch" else 1000
    with LiveServer(db_url) as live:
        created = live.create(preset="ffb", target=target, options={"speed": "instant"})
        table_id = created["table_id"]
        with live.connect(table_id, created["token"]) as client:
            while True:
                turn = client.my_decision()
                if turn["waiting"] == waiting and turn["legal"] == [waiting]:
                    break
                client.act(_choose(turn["legal"]))
                client.turn = None
            before = _log_of(db_url, table_id).events
            fault = Fault(live.app.state.store, "append", after_commit=True)
            _act(client, waiting, action_id="agree-1", v=client.v)
            assert client.error()["code"] == "unavailable"
            assert fault.fired == 1
            _act(client, waiting, action_id="agree-1", v=client.v)
            answer = client.recv_until(lambda m: m["t"] in ("ack", "error"))
            assert answer == {"t": "ack", "d": {"id": "agree-1", "duplicate": True}, "v": None}
        after = _log_of(db_url, table_id).events
        # what came after (the computer players went on): one deal started
        added = [e.kind for e in after[len(before) :] if e.kind in ("match", "deal")]
        assert added == (["deal"] if waiting == "next" else ["match", "deal"])
        tagged = [e for e in after if e.payload.get("id") == "agree-1"]
        assert [(e.seq, e.kind, e.payload["agreed"]) for e in tagged] == [
            (len(before), added[0], "S")
        ]
    with LiveServer(db_url) as live, live.connect(table_id, created["token"]) as client:
        client.recv_until(lambda m: m["t"] == "snapshot")
        _act(client, waiting, action_id="agree-1", v=client.v)
        answer = client.recv_until(lambda m: m["t"] in ("ack", "error"))
        assert answer == {"t": "ack", "d": {"id": "agree-1", "duplicate": True}, "v": None}


def test_the_first_write_after_a_read_only_period_goes_through(pg_url: str) -> None:
    """PostgreSQL read-only for a while, read meanwhile (the pool keeps
    sessions opened read-only), then writable again: the pooled sessions
    are checked before use, so the first write goes through (no
    ``unavailable`` once)."""
    with LiveServer(pg_url) as live, live.http() as http:
        _pg(pg_url, "ALTER DATABASE {db} SET default_transaction_read_only = on")
        try:
            # reads only (a failed write would drop the pool)
            reads = [http.get("/api/leaderboard").status_code for _ in range(4)]
        finally:
            _pg_keep(pg_url, "ALTER DATABASE {db} RESET default_transaction_read_only")
        writes = []
        for name in ("After One", "After Two", "After Three"):
            with live.http() as fresh:
                writes.append(fresh.post("/api/auth/guest", json={"name": name}).status_code)
        assert (reads, writes) == ([200] * 4, [200] * 3)
