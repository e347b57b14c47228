"""Fixtures: a live server on a fresh database, SQLite and PostgreSQL.

Every server test runs against SQLite, and against PostgreSQL when
``TEST_DATABASE_URL`` names a server where the test user may create
databases (``.ci/run`` starts one): each test gets a database of its own,
dropped afterwards.  Without it the PostgreSQL runs are skipped, except in
CI (``CI=true``), where they fail."""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .live import LiveServer

PG_ENV = "TEST_DATABASE_URL"


def _postgres_database() -> Iterator[str]:
    base = os.environ.get(PG_ENV)
    if not base:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the PostgreSQL tests: set {PG_ENV}")
        pytest.skip(f"no PostgreSQL: set {PG_ENV} (e.g. postgresql://user:pw@127.0.0.1/db)")
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(base.replace("postgresql://", "postgresql+psycopg://", 1))
    name = f"rebelote_test_{secrets.token_hex(6)}"
    admin = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        # FORCE may meet a backend it may not end (autovacuum working on the
        # fresh database): wait and try again; a test database left behind
        # on the test cluster is harmless, so the last failure is ignored.
        for _ in range(20):
            try:
                with psycopg.connect(admin, autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                break
            except psycopg.Error:
                time.sleep(0.5)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database URL: SQLite in a temporary folder, or a new
    PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'rebelote.db'}"
    else:
        yield from _postgres_database()


@pytest.fixture
def server(db_url: str) -> Iterator[LiveServer]:
    with LiveServer(db_url) as live:
        yield live
