"""Storage: the migrations build exactly the models' schema, and the data
migrations fix old rows (r0003 marks guests' seats, r0004 recomputes the
name keys); a table is stored as its event log (the pack at each deal's
start, every action by text), from which it replays to the same state."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Sequence

import psycopg
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from rebelote.seats import Seat
from rebelote.server.settings import ServerSettings
from rebelote.server.storage.log_entries import LogWrite, StoredEvent
from rebelote.server.storage.schema import metadata
from rebelote.server.storage.table_rows import EventRow, SeatRow
from rebelote.server.storage.tables import Store
from rebelote.server.storage.writer import LogWriter
from rebelote.server.tables.table import game_from_stored

from .conftest import _postgres_database
from .live import LiveServer, play_match


def test_migrations_match_the_models(db_url: str) -> None:
    store = Store(db_url)
    store.migrate()
    store.migrate()  # idempotent
    with store.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []
        names = set(inspect(connection).get_table_names())
    assert {"tables", "seats", "events", "users", "sessions", "chat", "results"} <= names
    assert "alembic_version" in names
    store.close()


def test_migrations_go_down_and_up_again(db_url: str) -> None:
    from alembic import command

    from rebelote.server.storage.tables import alembic_config

    store = Store(db_url)
    store.migrate()
    created = {"table_id": "t1"}
    store.create_table(
        table_id=created["table_id"],
        rules="ffb",
        options={},
        seed=1,
        seats=[],
        events=[],
        status="playing",
    )
    config = alembic_config(store.url)
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "r0001")
    with store.engine.connect() as connection:
        names = set(inspect(connection).get_table_names())
    assert "users" not in names and "tables" in names
    store.migrate()
    loaded = store.load("t1")
    assert loaded is not None and loaded.meta.visibility == "solo"  # the row survived
    store.close()


def test_migration_r0003_marks_the_seats_of_guests(db_url: str) -> None:
    from alembic import command
    from sqlalchemy import text

    from rebelote.server.storage.tables import Store, alembic_config

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


def test_migration_r0004_recomputes_the_name_keys(db_url: str) -> None:
    from alembic import command
    from sqlalchemy import text

    from rebelote.server.people.accounts import hash_password
    from rebelote.server.storage.tables import Store, alembic_config

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


def test_migration_r0006_fills_in_the_unrated_reasons(db_url: str) -> None:
    from alembic import command
    from sqlalchemy import text

    from rebelote.server.storage.tables import Store, alembic_config

    store = Store(db_url)
    config = alembic_config(store.url)
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "r0005")
    for table_id in ("left", "friendly", "rated"):
        store.create_table(
            table_id=table_id,
            rules="ffb",
            options={},
            seed=1,
            seats=[],
            events=[],
            status="finished",
        )
    rows = [
        # a ranked match someone left: his line rated (as then), the others not
        ("left", "W", True, True),
        ("left", "S", False, False),
        ("left", "N", False, False),
        # a friendly match
        ("friendly", "S", False, False),
        # a ranked match everyone played
        ("rated", "S", False, True),
    ]
    with store.engine.begin() as connection:
        for table_id, seat, left, ranked in rows:
            connection.execute(
                text(
                    'INSERT INTO results (table_id, "match", seat, user_id, name, side, won,'
                    ' "left", ranked, mu_before, mu_after, sigma_after, xp, deals, "at")'
                    " VALUES (:t, 1, :seat, NULL, 'x', 'NS', false, :left, :ranked,"
                    " NULL, NULL, NULL, 0, 1, 0)"
                ),
                {"t": table_id, "seat": seat, "left": left, "ranked": ranked},
            )
    store.migrate()
    found = {
        (r.table_id, r.seat): r.unrated_reason
        for t in ("left", "friendly", "rated")
        for r in store.results_of_match(t, 1)
    }
    assert found == {
        ("left", "W"): None,
        ("left", "S"): "left",
        ("left", "N"): "left",
        ("friendly", "S"): "friendly",
        ("rated", "S"): None,
    }
    store.close()


def test_in_memory_database() -> None:
    store = Store("sqlite://")
    store.migrate()
    assert store.unfinished() == []
    store.close()


def test_table_stored_as_its_event_log(server: LiveServer) -> None:
    created = server.create(preset="ffb", target=300, options={"speed": "instant"})
    table_id = created["table_id"]
    with server.connect(table_id, created["token"]) as client:
        client.recv()
        play_match(client, random.Random(4))
    store = Store(server.database_url)
    with store.engine.connect() as connection:
        seats = connection.execute(select(SeatRow).where(SeatRow.table_id == table_id)).all()
        events = connection.execute(
            select(EventRow).where(EventRow.table_id == table_id).order_by(EventRow.seq)
        ).all()
    assert created["token"] not in str(seats)  # only its hash
    assert [e.seq for e in events] == list(range(len(events)))
    assert events[0].kind == "match" and events[1].kind == "deal"
    deals = [e for e in events if e.kind == "deal"]
    assert all(len(e.payload["pack"]) == 32 for e in deals)
    assert [e.deal for e in deals] == list(range(1, len(deals) + 1))
    acts = [e for e in events if e.kind == "act"]
    assert {e.payload["by"] for e in acts} <= {"human", "bot", "auto"}
    assert any(e.seat == "S" and e.payload["by"] == "human" for e in acts)
    assert all(isinstance(e.payload["action"], str) for e in acts)
    stored = store.load(table_id)
    assert stored is not None and stored.status == "finished"
    assert store.unfinished() == [] or table_id not in store.unfinished()
    replayed, _ = game_from_stored(stored)
    live = server.manager._tables[table_id].game
    assert replayed.versions == live.versions
    for seat in (Seat.N, Seat.S):
        assert replayed.snapshot(seat) == live.snapshot(seat)
    store.close()


# ------------------------------------------------------------ the log writer


def _store_with_tables(db_url: str, *ids: str) -> Store:
    """A store whose log writer has one thread (every table's writes
    pending together), with the tables ``ids``."""
    store = Store(db_url)
    store.writer = LogWriter(store, shards=1)
    store.migrate()
    for table_id in ids:
        store.create_table(
            table_id=table_id,
            rules="ffb",
            options={},
            seed=1,
            seats=[],
            events=[],
            status="open",
        )
    return store


def _act(seq: int, action: str) -> StoredEvent:
    return StoredEvent(seq, 1, "act", "S", {"action": action, "belote": None, "by": "human"})


class _Held:
    """Holds the writer thread inside its first ``append`` until released,
    so that the writes queued meanwhile are pending together; counts the
    calls of ``append`` and ``append_many``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.append = store.append
        self.append_many = store.append_many
        self.entered = threading.Event()
        self.release = threading.Event()
        self.calls: list[tuple[str, list[str]]] = []
        store.append = self._append  # type: ignore[method-assign]
        store.append_many = self._append_many  # type: ignore[method-assign]

    def _append(self, table_id: str, events: Sequence[StoredEvent], status: str) -> None:
        self.calls.append(("append", [table_id]))
        if not self.entered.is_set():
            self.entered.set()
            self.release.wait(10)
        self.append(table_id, events, status)

    def _append_many(self, writes: Sequence[LogWrite]) -> None:
        self.calls.append(("append_many", [w.table_id for w in writes]))
        self.append_many(writes)


async def _outcomes(store: Store, held: _Held, writes: list[LogWrite]) -> list[str]:
    """Write ``writes[0]`` alone, the others while it is held; each
    outcome: ``ok`` or the exception's class name."""

    async def one(w: LogWrite) -> str:
        try:
            await store.writer.write(w.table_id, w.events, w.status)
        except Exception as exc:
            return type(exc).__name__
        return "ok"

    first = asyncio.create_task(one(writes[0]))
    await asyncio.to_thread(held.entered.wait, 10)
    rest = [asyncio.create_task(one(w)) for w in writes[1:]]
    await asyncio.sleep(0.05)  # every write queued behind the held one
    held.release.set()
    return [await first, *[await t for t in rest]]


def test_pending_writes_of_several_tables_are_one_transaction(db_url: str) -> None:
    store = _store_with_tables(db_url, "a", "b", "c", "d")
    held = _Held(store)
    writes = [
        LogWrite("a", (_act(0, "pass"),), "playing"),
        LogWrite("b", (_act(0, "take"), _act(1, "JS")), "playing"),
        LogWrite("c", (_act(0, "pass"),), "finished"),
        LogWrite("d", (), "playing"),
    ]
    assert asyncio.run(_outcomes(store, held, writes)) == ["ok"] * 4
    assert held.calls == [("append", ["a"]), ("append_many", ["b", "c", "d"])]
    tables = {t: store.load(t) for t in "abcd"}
    assert {
        t: (s.status, [e.payload["action"] for e in s.events]) for t, s in tables.items() if s
    } == {
        "a": ("playing", ["pass"]),
        "b": ("playing", ["take", "JS"]),
        "c": ("finished", ["pass"]),
        "d": ("playing", []),
    }
    store.close()


def test_a_batch_refused_by_one_table_fails_that_table_alone(db_url: str) -> None:
    """Entry 0 of table ``b`` is already stored (two writers on one table):
    the batch is written again table by table, only ``b`` is refused."""
    store = _store_with_tables(db_url, "a", "b", "c")
    store.append("b", [_act(0, "take")], "playing")
    held = _Held(store)
    writes = [
        LogWrite("a", (_act(0, "pass"),), "playing"),
        LogWrite("b", (_act(0, "pass"),), "playing"),
        LogWrite("c", (_act(0, "pass"),), "playing"),
    ]
    outcomes = asyncio.run(_outcomes(store, held, writes))
    assert outcomes == ["ok", "IntegrityError", "ok"]
    assert held.calls == [
        ("append", ["a"]),
        ("append_many", ["b", "c"]),
        ("append", ["b"]),
        ("append", ["c"]),
    ]
    stored_b = store.load("b")
    stored_c = store.load("c")
    assert stored_b is not None and [e.payload["action"] for e in stored_b.events] == ["take"]
    assert stored_c is not None and [e.payload["action"] for e in stored_c.events] == ["pass"]
    store.close()


def test_a_batch_the_database_refuses_fails_every_table_in_it(db_url: str) -> None:
    """A fault of the database (here: the batch's transaction raises
    ``OperationalError``) refuses every write of the batch, none stored."""
    store = _store_with_tables(db_url, "a", "b", "c")
    held = _Held(store)

    def refuse(writes: Sequence[LogWrite]) -> None:
        held.calls.append(("append_many", [w.table_id for w in writes]))
        raise OperationalError("COMMIT", {}, ConnectionError("the database went away"))

    store.append_many = refuse  # type: ignore[method-assign]
    writes = [
        LogWrite("a", (_act(0, "pass"),), "playing"),
        LogWrite("b", (_act(0, "pass"),), "playing"),
        LogWrite("c", (_act(0, "pass"),), "playing"),
    ]
    outcomes = asyncio.run(_outcomes(store, held, writes))
    assert outcomes == ["ok", "OperationalError", "OperationalError"]
    assert held.calls == [("append", ["a"]), ("append_many", ["b", "c"])]
    for table_id in "bc":
        stored = store.load(table_id)
        assert stored is not None and stored.events == ()
    store.close()


def test_a_table_row_locked_past_the_timeout_fails_that_table_alone() -> None:
    """PostgreSQL: another session holds table ``b``'s row; the batch waits
    the lock timeout, then each table is written alone: ``b`` is refused
    (``lock_not_available``), ``c`` is stored."""
    for url in _postgres_database():
        store = _store_with_tables(url, "a", "b", "c")
        store.close()
        store = Store(url, settings=ServerSettings(db_lock_timeout_ms=200))
        store.writer = LogWriter(store, shards=1)
        held = _Held(store)
        locker = psycopg.connect(
            make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        )
        try:
            locker.execute("SELECT id FROM tables WHERE id = 'b' FOR UPDATE")
            writes = [
                LogWrite("a", (_act(0, "pass"),), "playing"),
                LogWrite("b", (_act(0, "pass"),), "playing"),
                LogWrite("c", (_act(0, "pass"),), "playing"),
            ]
            outcomes = asyncio.run(_outcomes(store, held, writes))
        finally:
            locker.rollback()
            locker.close()
        assert outcomes == ["ok", "OperationalError", "ok"]
        assert held.calls == [
            ("append", ["a"]),
            ("append_many", ["b", "c"]),
            ("append", ["b"]),
            ("append", ["c"]),
        ]
        stored = store.load("b")
        assert stored is not None and stored.events == ()
        store.close()
