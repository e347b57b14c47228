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

import contextlib
import json
import os
import re
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy.engine import make_url

from .conftest import _postgres_database
from .live import Client, LiveServer


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
    """SQLite held by another writer past the busy timeout (5 s): the action
    is refused with ``unavailable``, nothing changed; released, it goes
    through."""
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
