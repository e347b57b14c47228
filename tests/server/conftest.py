"""Fixtures: a live server on a fresh SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .live import LiveServer


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'rebelote.db'}"


@pytest.fixture
def server(db_url: str) -> Iterator[LiveServer]:
    live = LiveServer(db_url).start()
    try:
        yield live
    finally:
        live.stop()
