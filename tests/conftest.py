"""Fixtures shared by the browser tests of ``tests/web`` (the solo table)
and ``tests/server`` (the network pages): Debian's Chromium driven by
Playwright, and where screenshots go.

The browser tests skip, with the reason, when ``/usr/bin/chromium`` is
missing on a developer's machine; in CI (``CI=true``) a missing Chromium is a
failure (``.ci/run`` installs it).  Screenshots go to
``$REBELOTE_SCREENSHOTS`` when set (``docs/screenshots`` for the note), else
to the test's temporary folder.

The live server the pages talk to is :class:`server.live.LiveServer`, for
the network tests and the browser tests alike.

``redis_url`` is the Redis server of ``$TEST_REDIS_URL`` (``.ci/run`` starts
Debian's redis-server on 127.0.0.1:6379 and sets it): tests that need Redis
skip, with the reason, when it is unset on a developer's machine; in CI a
missing or silent Redis is a failure.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

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


def chromium_path() -> str:
    """The Chromium to drive; skips (fails in CI) when it is missing."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    if os.environ.get("CI") == "true":
        pytest.fail(
            f"CI must run the browser tests, but {CHROMIUM} is missing (apt-get install chromium)"
        )
    pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium to run the browser tests")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for a test module; each test opens its own
    contexts (cookies and storage of their own) and closes them.

    Not for the whole run: while it is open, Playwright's sync API keeps an
    event loop running in this thread, and the later modules' own
    ``asyncio.run`` (``test_rest.py``) would fail."""
    path = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go."""
    folder = Path(os.environ.get("REBELOTE_SCREENSHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


REDIS_ENV = "TEST_REDIS_URL"


def redis_answers(url: str, timeout: float = 2.0) -> bool:
    """Whether the Redis server at ``url`` (``redis://host:port/db``)
    answers ``PING`` with ``+PONG`` (a raw RESP exchange, no client library)."""
    parts = urlsplit(url)
    try:
        with socket.create_connection(
            (parts.hostname or "127.0.0.1", parts.port or 6379), timeout=timeout
        ) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(64).startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The URL of a running Redis server (``$TEST_REDIS_URL``), checked with
    a ``PING``.  The server is shared with other test runs on the machine:
    use keys of the test's own (a random prefix), never ``FLUSHDB``."""
    url = os.environ.get(REDIS_ENV)
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the Redis tests: set {REDIS_ENV}")
        pytest.skip(f"no Redis: set {REDIS_ENV} (e.g. redis://127.0.0.1:6379/0)")
    if not redis_answers(url):
        pytest.fail(f"{REDIS_ENV}={url}: Redis does not answer PING")
    return url
