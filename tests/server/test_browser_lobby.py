"""The lobby, the waiting room, "My games" and the leaderboard in a real
browser, several people in several browser contexts: a friend who comes
by the invitation link, a server restart while two people wait (the
offline banner, then the room again without a reload, chat typed offline
delivered, both sent to the main table when the host starts), the list
pushed without polling, a guest who becomes an account and keeps his
history, ranked seats never offered to a guest, errors in French, and
every page at 360 x 740 without horizontal scroll.

Debian's Chromium (``/usr/bin/chromium``) is driven by Playwright (never
``playwright install``); without it the tests skip, except in CI."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from rebelote.server.app import WEB_DIR

from .live import LiveServer

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'lobby.db'}"


@pytest.fixture
def live(db: str) -> Iterator[LiveServer]:
    """The whole app, pages included; computer players act after 50 ms."""
    with LiveServer(db, bot_delay=0.05, static_dir=WEB_DIR) as server:
        yield server


def _context(browser: Browser, viewport: dict[str, int] = DESKTOP) -> BrowserContext:
    return browser.new_context(viewport=viewport)  # type: ignore[arg-type]


def _errors(page: Page) -> list[str]:
    """The page's script errors (console errors of failed connections while
    the server is down are the browser's, not the page's)."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    return errors


def _guest(page: Page, name: str) -> None:
    form = page.locator('form[data-form="guest"]')
    form.locator('input[name="name"]').fill(name)
    form.locator("button").click()


def _post(ctx: BrowserContext, url: str, data: dict[str, Any] | None = None) -> Any:
    csrf = next(c["value"] for c in ctx.cookies() if c["name"] == "rebelote_csrf")
    r = ctx.request.post(url, data=data or {}, headers={"X-CSRF-Token": csrf})
    assert r.ok, r.text()
    return r.json()


def _no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{page.url}: {width} px wide"


def test_a_friend_by_invitation_and_a_server_restart_in_the_waiting_room(
    browser: object, db: str, tmp_path: Path
) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    live = LiveServer(db, bot_delay=0.05, static_dir=WEB_DIR).start()
    port = live.port
    try:
        ana_ctx, bob_ctx = _context(browser), _context(browser, PHONE)
        ana_ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=live.url)
        ana, bob = ana_ctx.new_page(), bob_ctx.new_page()
        errors = _errors(ana) + _errors(bob)
        # Ana opens a private friendly table with a move clock
        ana.goto(live.url + "/lobby.html")
        _guest(ana, "Ana")
        expect(ana.locator(".topnav .who")).to_have_text("Ana (invité)")
        ana.locator('#create-form input[name="name"]').fill("Chez Ana")
        ana.locator('#create-form select[name="visibility"]').select_option("private")
        clock = ana.locator('#create-form select[name="move_clock"]')
        expect(clock.locator('option[value="30"]')).to_have_text("30 s par coup")
        clock.select_option("30")
        ana.locator("#create-form button[type=submit]").click()
        expect(ana.locator("#room-view h2")).to_contain_text("Chez Ana")
        tid = re.search(r"table=([\w-]+)", ana.url)[1]  # type: ignore[index]
        room = ana_ctx.request.get(f"{live.url}/api/lobby/tables/{tid}").json()
        assert room["options"]["move_clock"] == 30.0 and room["visibility"] == "private"
        # the invitation: copied, with a visible confirmation
        link = ana.locator("#invite-link").input_value()
        assert link == f"{live.url}/lobby.html?table={tid}&invite={room['invite']}"
        ana.locator('[data-action="copy-invite"]').click()
        expect(ana.locator(".copied")).to_have_text("Lien copié !")
        assert ana.evaluate("navigator.clipboard.readText()") == link
        # Bob opens the link on his phone, plays as a guest and sits at N
        bob.goto(link)
        expect(bob.locator("#room-view h2")).to_contain_text("Chez Ana")
        _guest(bob, "Bob")
        bob.locator('#room-view .seat[data-seat="N"] button[data-sit="N"]').click()
        expect(bob.locator('#room-view .seat[data-seat="N"] .name')).to_have_text("Bob (invité)")
        north = ana.locator('#room-view .seat[data-seat="N"]')
        expect(north.locator(".name")).to_have_text("Bob (invité)")
        expect(north.locator(".presence")).to_have_text("présent")
        # the waiting room's chat
        bob.locator("#room-chat rebelote-chat input").fill("salut Ana")
        bob.locator("#room-chat rebelote-chat input").press("Enter")
        ana_chat = ana.locator("#room-chat rebelote-chat")
        expect(ana_chat.locator('li[data-seat="N"] .text')).to_have_text("salut Ana")
        _no_horizontal_scroll(bob)

        # the server stops: both pages say so
        banner = "#offline-banner"
        expect(ana.locator(banner)).to_be_hidden()
        live.stop()
        for page in (ana, bob):
            expect(page.locator(banner)).to_be_visible()
            expect(page.locator(banner)).to_have_text("Connexion perdue — reconnexion…")
        # Bob types while it is down: kept, shown as not sent yet
        bob_chat = bob.locator("#room-chat rebelote-chat")
        bob_chat.locator("input").fill("pendant la coupure")
        bob_chat.locator("input").press("Enter")
        pending = bob_chat.locator('li.pending[data-pending="queued"]')
        expect(pending.locator(".text")).to_have_text("pendant la coupure")
        expect(pending.locator(".state")).to_have_text(
            "pas encore envoyé : en attente de connexion…"
        )
        # the server is back on the same database and port: no reload
        live = LiveServer(db, bot_delay=0.05, static_dir=WEB_DIR, port=port).start()
        for page in (ana, bob):
            expect(page.locator(banner)).to_be_hidden(timeout=20_000)
            expect(page.locator('#room-view .seat[data-seat="S"] .name')).to_have_text(
                "Ana (invité)"
            )
        expect(north.locator(".presence")).to_have_text("présent")
        expect(ana_chat.locator('li[data-seat="N"] .text').last).to_have_text("pendant la coupure")
        expect(bob_chat.locator("li.pending")).to_have_count(0)
        # Ana fills the seats and starts: both land at the main table
        ana.locator("#fill").click()
        expect(ana.locator('#room-view .seat[data-seat="W"] .level')).to_have_text(
            "ordinateur (confirmé)"
        )
        ana.locator("#start").click()
        for page in (ana, bob):
            page.wait_for_url(re.compile(rf"/#/table/{tid}$"), timeout=15_000)
            expect(page.locator("#table-page")).to_be_visible()
            expect(page.locator("#table-page")).to_have_attribute("data-ready", "1")
        assert errors == [], errors
        for ctx in (ana_ctx, bob_ctx):
            ctx.close()
    finally:
        live.stop()
