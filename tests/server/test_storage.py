"""Storage: the migrations build exactly the models' schema, and a table is
stored as its event log (the pack at each deal's start, every action by
text), from which it replays to the same state."""

from __future__ import annotations

import random

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, select

from rebelote.seats import Seat
from rebelote.server.storage import Base, EventRow, SeatRow, Store
from rebelote.server.table import game_from_stored

from .live import LiveServer, play_match


def test_migrations_match_the_models(db_url: str) -> None:
    store = Store(db_url)
    store.migrate()
    store.migrate()  # idempotent
    with store.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
        names = set(inspect(connection).get_table_names())
    assert {"tables", "seats", "events", "users", "sessions", "chat", "results"} <= names
    assert "alembic_version" in names
    store.close()


def test_migrations_go_down_and_up_again(db_url: str) -> None:
    from alembic import command

    from rebelote.server.storage import alembic_config

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
