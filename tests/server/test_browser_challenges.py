"""Challenges, coins, trophies and the shop in a real browser (issue 18,
item 1): a person with an account sees today's challenges at 0, finishes
a rated match (one deal: target 1, played by a script on her seat as the
lobby's browser tests do), and finds on the lobby page the challenge
"play a rated match" done, her coins and her first trophy; in the shop a
card back too dear is refused in French, a cloth she can afford is bought
and used, and the table page wears it.

Debian's Chromium (``/usr/bin/chromium``) is driven by Playwright (never
``playwright install``); without it the test skips, except in CI."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from rebelote.server.app import WEB_DIR
from rebelote.server.people.catalogue import catalogue

from .live import LiveServer, play_match

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext


@pytest.fixture
def live(db_url: str) -> Iterator[LiveServer]:
    """The whole app, pages included; computer players act after 20 ms."""
    with LiveServer(db_url, bot_delay=0.02, static_dir=WEB_DIR) as server:
        yield server


def _post(ctx: BrowserContext, url: str, data: dict[str, Any] | None = None) -> Any:
    csrf = next(c["value"] for c in ctx.cookies() if c["name"] == "rebelote_csrf")
    r = ctx.request.post(url, data=data or {}, headers={"X-CSRF-Token": csrf})
    assert r.ok, r.text()
    return r.json()


def test_a_rated_match_shows_its_challenge_coins_and_trophy_and_buys_a_cloth(
    browser: object, live: LiveServer, shots: Path
) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    r = ctx.request.post(
        live.url + "/api/auth/signup", data={"name": "Zoé", "password": "belote-pass"}
    )
    assert r.ok, r.text()
    page = ctx.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live.url + "/lobby.html")
    play = page.locator('#challenges li[data-challenge="daily_play"]')
    expect(play).to_have_attribute("data-progress", "0")
    expect(play).to_have_attribute("data-goal", "1")
    expect(play.locator(".title")).to_have_text("Jouer une partie classée")
    expect(page.locator("#coins")).to_have_text("0")
    expect(page.locator("#trophies-empty")).to_be_visible()

    # a rated match of one deal, with three computer players
    made = _post(
        ctx,
        live.url + "/api/lobby/tables",
        {"name": "Une donne", "ranked": True, "target": 1, "options": {"speed": "instant"}},
    )
    tid = made["table_id"]
    _post(ctx, f"{live.url}/api/lobby/tables/{tid}/fill", {"level": "random"})
    _post(ctx, f"{live.url}/api/lobby/tables/{tid}/start")
    with live.connect(tid, made["token"]) as client:
        play_match(client, random.Random(5))

    # what the server awarded once it recorded the match (the match's end
    # reaches the seat before the results are stored): at least the
    # challenge and the first trophy
    deadline = time.monotonic() + 30
    while not ctx.request.get(live.url + "/api/profiles/Zoé/trophies").json()["trophies"]:
        assert time.monotonic() < deadline, "no trophy came"
        time.sleep(0.05)
    shown = ctx.request.get(live.url + "/api/challenges").json()
    mine = ctx.request.get(live.url + "/api/profiles/Zoé/trophies").json()
    done = [c for c in shown if c["done"]]
    assert "daily_play" in [c["id"] for c in done]
    assert "first_match" in [t["id"] for t in mine["trophies"]]
    trophy_coins = sum(
        t.coins for t in catalogue().trophies if t.id in {x["id"] for x in mine["trophies"]}
    )
    coins = sum(c["reward"]["coins"] for c in done) + trophy_coins
    assert mine["coins"] == coins and coins >= 15

    page.reload()
    expect(play).to_have_attribute("data-progress", "1")
    expect(play).to_have_attribute("data-done", "true")
    expect(play.locator(".count")).to_have_text("Réussi !")
    expect(page.locator("#coins")).to_have_text(str(coins))
    first = page.locator('#trophies li[data-trophy="first_match"]')
    expect(first).to_have_text("Première partie classée")
    expect(page.locator("#trophies-empty")).to_be_hidden()

    # the shop: too dear, refused in French; a cloth bought and used
    page.locator('a[href="/shop.html"]').click()
    expect(page.locator("#shop #coins")).to_have_text(str(coins))
    gold = page.locator('#shop [data-item="back_gold"]')
    gold.locator('[data-action="buy"]').click()
    expect(page.locator("#shop-error")).to_have_text(
        "Pas assez de pièces pour cet article : relevez des défis pour en gagner."
    )
    expect(page.locator("#coins")).to_have_text(str(coins))
    blue = page.locator('#shop [data-item="cloth_blue"]')
    blue.locator('[data-action="buy"]').click()
    expect(page.locator("#coins")).to_have_text(str(coins - 10))
    expect(blue).to_have_attribute("data-owned", "true")
    expect(page.locator("#shop-error")).to_have_text("")
    blue.locator('[data-action="use"]').click()
    expect(blue).to_have_attribute("data-active", "true")
    expect(page.locator('#shop [data-item="cloth_green"]')).to_have_attribute(
        "data-active", "false"
    )

    # the table page wears her cloth
    page.goto(f"{live.url}/#/table/{tid}")
    expect(page.locator("body")).to_have_attribute("data-cloth", "cloth_blue")
    expect(page.locator("body")).to_have_attribute("data-card-back", "back_classic")
    felt = page.evaluate("getComputedStyle(document.body).getPropertyValue('--felt-1').trim()")
    assert felt == "#2b6fa8"

    # in English too
    page.goto(live.url + "/shop.html")
    with page.expect_navigation():
        page.locator("[data-lang-toggle]").click()
    expect(blue.locator(".title")).to_have_text("Blue cloth")
    page.goto(live.url + "/lobby.html")
    expect(play.locator(".title")).to_have_text("Play a rated match")
    expect(page.locator('#trophies li[data-trophy="first_match"]')).to_have_text(
        "First rated match"
    )
    # on a phone: no horizontal scroll
    page.set_viewport_size({"width": 360, "height": 740})
    for path in ("/lobby.html", "/shop.html"):
        page.goto(live.url + path)
        expect(page.locator("#coins")).to_have_text(str(coins - 10))
        page.screenshot(path=str(shots / f"progression{path.replace('/', '-')}.png"))
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{path}: {width} px wide"
    assert errors == []
    ctx.close()


def test_signing_up_in_the_lobby_hides_the_account_note_at_once(
    browser: object, live: LiveServer
) -> None:
    """A visitor sees "an account is needed" by the coins; once he signs up
    from the lobby's form, the panel is drawn again (no reload): the note
    hidden, his coins shown."""
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page = ctx.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live.url + "/lobby.html")
    expect(page.locator("body")).to_have_attribute("data-ready", "lobby")
    expect(page.locator("#coins-note")).to_be_visible()
    page.evaluate("window.__sameDocument = true")
    form = page.locator('form[data-form="signup"]')
    form.locator('input[name="name"]').fill("Yann")
    form.locator('input[name="password"]').fill("belote-pass")
    form.locator('button[type="submit"]').click()
    expect(page.locator("#coins-note")).to_be_hidden()
    expect(page.locator("#coins")).to_have_text("0")
    assert page.evaluate("window.__sameDocument") is True
    assert errors == []
    ctx.close()
