"""Fixtures for the browser table's tests: the real app (static client
included) served by :class:`server.live.LiveServer` in a thread; the
browser (Debian's Chromium driven by Playwright) and the screenshots'
folder come from ``tests/conftest.py``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rebelote.server.app import WEB_DIR
from server.live import LiveServer

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def web(tmp_path: Path) -> Iterator[LiveServer]:
    """The whole app (REST, WebSocket, static client) on 127.0.0.1, a free
    port.  Computer players act at each table's own speed."""
    with LiveServer(
        f"sqlite:///{tmp_path / 'web.db'}", bot_delay=None, static_dir=WEB_DIR, seed=7
    ) as live:
        yield live
