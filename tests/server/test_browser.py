"""The network play pages in a real browser: two Playwright contexts (two
people) meet in the lobby, sit at one table with two computer players,
chat (HTML stays text) and play a deal by clicking.

Debian's Chromium (``/usr/bin/chromium``) is driven by Playwright (never
``playwright install``); without it the test skips, except in CI
(``CI=true``), where ``.ci/run`` installs it."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rebelote.server.app import WEB_DIR

from .live import LiveServer

CHROMIUM = os.environ.get("REBELOTE_CHROMIUM", "/usr/bin/chromium")
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
CARD = re.compile(r"^(10|[789JQKA])[SHDC]$")


@pytest.fixture
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the browser tests, but {CHROMIUM} is missing")
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def _play_step(page: object) -> bool:
    """Click one thing the page offers this player now (a belote answer, an
    enabled card, an action button); whether it did."""
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    for selector in (
        '#actions [data-belote="no"]',
        '#actions button[data-act="take"]',
        "#hand button.card:not([disabled])",
        "#actions button[data-act]",
    ):
        buttons = page.locator(selector)
        if buttons.count():
            try:
                buttons.first.click(timeout=1000)
                return True
            except Exception:
                return False
    return False


def test_two_people_chat_and_play_a_deal_in_the_browser(tmp_path: Path, browser: object) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    live = LiveServer(
        f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0.05, static_dir=WEB_DIR
    ).start()
    try:
        ana_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        bob_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        ana, bob = ana_ctx.new_page(), bob_ctx.new_page()
        for page, name in ((ana, "Ana"), (bob, "Bob")):
            page.goto(live.url + "/lobby.html")
            form = page.locator('form[aria-label="Play as a guest"]')
            form.locator('input[name="name"]').fill(name)
            form.locator("button").click()
            expect(page.locator(".topnav .who")).to_contain_text(name)
        # Ana opens a public table at S
        ana.locator('#create-form input[name="name"]').fill("Ana's friendly")
        ana.locator('#create-form select[name="preset"]').select_option("ffb")
        ana.locator('#create-form input[name="target"]').fill("300")
        ana.locator("#create-form button[type=submit]").click()
        expect(ana.locator("#room-view h2")).to_contain_text("Ana's friendly")
        # Bob finds it in the lobby and sits at N
        bob.reload()
        bob.locator("button[data-join$=':N']").first.click()
        expect(bob.locator('#room-view .seat[data-seat="N"] .name')).to_have_text("Bob")
        # Ana fills the other seats with computers and starts
        expect(ana.locator('#room-view .seat[data-seat="N"] .name')).to_have_text("Bob")
        ana.get_by_role("button", name="Fill empty seats with computers").click()
        expect(ana.locator('#room-view .seat[data-seat="W"]')).to_contain_text("computer")
        ana.locator("#start").click()
        for page in (ana, bob):
            page.wait_for_url(re.compile(r"/net/table\.html\?table="), timeout=15_000)
            expect(page.locator("#head")).to_contain_text("You are")
        # a third person, not logged in, finds the table in the lobby and watches
        eve_ctx = browser.new_context(viewport={"width": 1000, "height": 800})
        eve = eve_ctx.new_page()
        eve.goto(live.url + "/lobby.html")
        row = eve.locator("#tables tbody tr", has_text="Ana's friendly")
        expect(row).to_contain_text("playing")
        row.get_by_role("link", name="watch").click()
        eve.wait_for_url(re.compile(r"watch=1"))
        expect(eve.locator("#head")).to_contain_text("You are watching")
        expect(eve.locator("#you-panel")).to_be_hidden()
        # the chat: HTML typed is shown as text
        chat_input = ana.locator("rebelote-chat input")
        chat_input.fill("<b>salut</b> Bob")
        chat_input.press("Enter")
        expect(bob.locator("rebelote-chat li .text")).to_have_text("<b>salut</b> Bob")
        assert bob.locator("rebelote-chat li b").count() == 0
        bob.locator("rebelote-chat input").fill("bonne partie !")
        bob.locator("rebelote-chat input").press("Enter")
        expect(ana.locator("rebelote-chat li .text").last).to_have_text("bonne partie !")
        # play one whole deal by clicking what each page offers
        deadline = time.monotonic() + 150
        while True:
            done = [p.locator("#log div", has_text="Deal over").count() > 0 for p in (ana, bob)]
            if all(done):
                break
            assert time.monotonic() < deadline, "the deal did not end in time"
            acted = False
            for page in (ana, bob):
                acted = _play_step(page) or acted
            if not acted:
                ana.wait_for_timeout(100)
        expect(eve.locator("#log")).to_contain_text("Deal over")
        assert eve.locator("#hand .card").count() == 0  # a spectator never holds a hand
        expect(eve.locator("rebelote-chat li .text").first).to_have_text("<b>salut</b> Bob")
        log = ana.locator("#log").inner_text()
        assert "Contract:" in log and "Trick 8" in log
        assert "Deal over" in bob.locator("#log").inner_text()
        shots = Path(os.environ.get("REBELOTE_SCREENSHOTS") or tmp_path)
        ana.screenshot(path=str(shots / "net-table.png"))
        # the replay viewer: the finished deal, every hand, trick by trick
        table_id = ana.url.split("table=")[1].split("&")[0]
        ana.goto(f"{live.url}/history.html?table={table_id}")
        expect(ana.locator("#where")).to_contain_text("trick 0/8")
        assert ana.locator("#hands [data-hand]").count() == 4
        assert ana.locator("#hands .card").count() == 32
        ana.locator("#next").click()
        expect(ana.locator("#where")).to_contain_text("trick 1/8")
        assert ana.locator("#hands .card").count() == 28
        expect(ana.locator("#export-match")).to_have_attribute("href", re.compile("record"))
        ana.screenshot(path=str(shots / "net-replay.png"))
        bob.goto(live.url + "/lobby.html")
        bob.screenshot(path=str(shots / "net-lobby.png"))
        for ctx in (ana_ctx, bob_ctx, eve_ctx):
            ctx.close()
    finally:
        live.stop()
