"""Fixtures for the browser tests: Debian's Chromium driven by Playwright,
and the real app (static client included) served by uvicorn in a thread.

The browser tests skip, with the reason, when ``/usr/bin/chromium`` is
missing on a developer's machine; in CI (``CI=true``) a missing Chromium is a
failure (``.ci/run`` installs it).  Screenshots go to
``$REBELOTE_SCREENSHOTS`` when set (``docs/screenshots`` for the note), else
to the test's temporary folder.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from rebelote.server.app import WEB_DIR, create_app
from rebelote.server.run import bind, url_of

CHROMIUM = os.environ.get("REBELOTE_CHROMIUM", "/usr/bin/chromium")
"""Debian's Chromium (``apt-get install chromium``); never ``playwright install``."""

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Without the background-networking flags, Chromium's own connections are
refused by a closed network and slow everything down."""

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


class WebServer:
    """The whole app (REST, WebSocket, static client) on 127.0.0.1, a free
    port, in a thread.  Computer players act at each table's own speed."""

    def __init__(self, database_url: str) -> None:
        self.app = create_app(database_url, static_dir=WEB_DIR, seed=7)
        self.sock = bind("127.0.0.1", None)
        self.url = url_of(self.sock)
        config = uvicorn.Config(self.app, log_level="warning", lifespan="on", ws_max_size=65536)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def start(self) -> WebServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
        self.sock.close()


def chromium_path() -> str:
    """The Chromium to drive; skips (fails in CI) when it is missing."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    if os.environ.get("CI") == "true":
        pytest.fail(
            f"CI must run the browser tests, but {CHROMIUM} is missing (apt-get install chromium)"
        )
    pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium to run the browser tests")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    path = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def web(tmp_path: Path) -> Iterator[WebServer]:
    live = WebServer(f"sqlite:///{tmp_path / 'web.db'}").start()
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go."""
    folder = Path(os.environ.get("REBELOTE_SCREENSHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
