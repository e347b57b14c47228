"""Two browsers, each connected to a different ``rebelote serve`` process
(one Redis, one PostgreSQL), play at one table: Ana at S talks to the first
process (which drives the table), Bob at N to the second (which relays);
both play a whole deal by clicking, and both pages end it on the same
score, the stored log holding every card of it.

Debian's Chromium (``/usr/bin/chromium``) is driven by Playwright; the test
skips without it, or without ``TEST_REDIS_URL`` / ``TEST_DATABASE_URL``
(except in CI)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from web.driver import Driver, is_card

from .cluster import Cluster
from .conftest import _postgres_database

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}


@pytest.fixture
def cluster(redis_url: str, tmp_path: Path) -> Iterator[Cluster]:
    for pg_url in _postgres_database():
        made = Cluster(pg_url, redis_url, tmp_path)
        try:
            yield made
        finally:
            made.close()


def _errors(page: Page) -> list[str]:
    """The page's script errors."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    return errors


def _post(ctx: BrowserContext, url: str, data: dict[str, Any] | None = None) -> Any:
    csrf = next(c["value"] for c in ctx.cookies() if c["name"] == "rebelote_csrf")
    r = ctx.request.post(url, data=data or {}, headers={"X-CSRF-Token": csrf})
    assert r.ok, r.text()
    return r.json()


def test_two_browsers_on_two_processes_play_one_table(browser: object, cluster: Cluster) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    a, b = cluster.add(), cluster.add()
    ana_ctx = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    bob_ctx = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    try:
        assert ana_ctx.request.post(a.url + "/api/auth/guest", data={"name": "Ana"}).ok
        assert bob_ctx.request.post(b.url + "/api/auth/guest", data={"name": "Bob"}).ok
        made = _post(
            ana_ctx,
            a.url + "/api/lobby/tables",
            {"name": "Deux serveurs", "seat": "S", "options": {"speed": "fast"}},
        )
        tid = made["table_id"]
        joined = _post(bob_ctx, f"{b.url}/api/lobby/tables/{tid}/join", {"seat": "N"})
        _post(ana_ctx, f"{a.url}/api/lobby/tables/{tid}/fill", {"level": "random"})
        room = _post(ana_ctx, f"{a.url}/api/lobby/tables/{tid}/start")
        assert room["status"] == "playing"
        assert cluster.owner(tid) == a.pid  # the host's process drives it
        pages = []
        for ctx, proc, token in ((ana_ctx, a, made["token"]), (bob_ctx, b, joined["token"])):
            ctx.add_init_script(
                f"localStorage.setItem('rebelote.tables', JSON.stringify({{{tid!r}: {token!r}}}))"
            )
            page = ctx.new_page()
            errors = _errors(page)
            page.goto(f"{proc.url}/#/table/{tid}")
            expect(page.locator("#table-page")).to_have_attribute("data-ready", "1")
            pages.append((page, errors))
        (ana, ana_errors), (bob, bob_errors) = pages
        assert ana.evaluate("window.rebelote.model.you") == "S"
        assert bob.evaluate("window.rebelote.model.you") == "N"
        # the sockets go to each page's own process
        drivers = [Driver(ana), Driver(bob)]
        deadline = time.monotonic() + 180
        done = [False, False]
        while not all(done):
            assert time.monotonic() < deadline, "the deal did not end in time"
            for k, d in enumerate(drivers):
                if done[k] or not d.ready():
                    continue
                if d.page.locator("#deal-end[open]").count():
                    done[k] = True
                    continue
                d.click_step()
            time.sleep(0.05)
        # both pages end the deal on the same score, and the same version
        for page in (ana, bob):
            expect(page.locator("#deal-end[open]")).to_be_visible()
        scores = [p.evaluate("JSON.stringify(window.rebelote.model.match)") for p in (ana, bob)]
        assert scores[0] == scores[1]
        assert re.search(r'"deal":\s*1', scores[0])
        versions = [p.evaluate("window.rebelote.conn.lastV") for p in (ana, bob)]
        assert all(isinstance(v, int) and v > 40 for v in versions)
        store = cluster.store()
        try:
            stored = store.load(tid)
        finally:
            store.close()
        assert stored is not None
        acts = [e for e in stored.events if e.kind == "act"]
        assert [e.seq for e in stored.events] == list(range(len(stored.events)))
        clicked = {e.seat for e in acts if e.payload["by"] == "human"}
        assert clicked == {"S", "N"}  # both browsers' clicks were stored
        played = [e for e in acts if is_card(e.payload["action"])]
        assert len(played) in (0, 32)  # a whole deal (none when all passed)
        assert ana_errors == [] and bob_errors == []
    finally:
        ana_ctx.close()
        bob_ctx.close()
