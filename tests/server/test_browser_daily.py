"""The daily deal in a real browser (docs/daily.md): a person starts the
day's set from the daily page, lands at his table, and, once a deal is
over, sees its result and the day's standings there.

Debian's Chromium (``/usr/bin/chromium``) is driven by Playwright (never
``playwright install``); without it the test skips, except in CI."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from rebelote.server.app import WEB_DIR
from rebelote.server.tables.daily import deal_lines

from .live import LiveServer
from .test_daily import _play

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    """The whole app, pages included; computer players act at once."""
    with LiveServer(f"sqlite:///{tmp_path / 'daily.db'}", bot_delay=0.0, static_dir=WEB_DIR) as s:
        yield s


def test_a_person_starts_the_daily_deal_and_sees_a_result(
    live: LiveServer, browser: Browser
) -> None:
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        r = ctx.request.post(
            live.url + "/api/auth/signup", data={"name": "Ada", "password": "belote-pass"}
        )
        assert r.ok, r.text()
        # reachable from the lobby's top bar
        page.goto(live.url + "/lobby.html")
        page.locator('nav a[href="/daily.html"]').click()
        expect(page.locator("body")).to_have_attribute("data-ready", "daily")
        expect(page.locator("#daily h1")).to_have_text("Donne du jour")
        start = page.locator('[data-action="daily-start"]')
        expect(start).to_have_text("Jouer les donnes du jour")
        expect(page.locator("#daily-standings li")).to_have_count(0)
        expect(page.locator('#daily-results [data-deal="0"] .note')).to_have_text(
            "Jouez cette donne pour voir ses résultats "
            "(tout le monde les voit une fois la journée finie)."
        )
        start.click()
        # the table page, at the daily table, South's cards shown
        page.wait_for_url("**/#/table/*")
        table_id = page.url.rsplit("/", 1)[1]
        expect(page.locator("#table-page")).to_have_attribute("data-ready", "1", timeout=20000)
        expect(page.locator("#hand .card")).not_to_have_count(0)
        # the deal is played (by a scripted client holding the same seat)
        token = next(c["value"] for c in ctx.cookies() if c["name"] == "rebelote_token")
        with live.connect(table_id, token) as client:
            _play(client, lambda legal: legal[0], deals=1)
        page.goto(live.url + "/daily.html")
        expect(page.locator("body")).to_have_attribute("data-ready", "daily")
        expect(start).to_have_text("Reprendre les donnes du jour")
        expect(page.locator("#daily-info")).to_contain_text("1 donne(s) jouée(s) sur 8")
        row = page.locator('#daily-results [data-deal="0"] tbody tr')
        expect(row).to_have_count(1)
        expect(row.locator("td").first).to_have_text("Ada")
        contract = first_contract(live, table_id)
        expect(row.locator("td").nth(1)).to_have_text(
            "tous passent" if contract is None else re.compile(r".+ par (Nord|Sud|Est|Ouest)$")
        )
        expect(row.locator("td").nth(3)).to_have_text("0")
        expect(row.locator("td").nth(4)).to_have_text("50.00 %")
        standings = page.locator("#daily-standings li")
        expect(standings).to_have_count(1)
        expect(standings.locator(".name")).to_have_text("Ada")
        expect(standings.locator(".rank")).to_have_text("1.")
        # a deal Ada has not played stays hidden
        expect(page.locator('#daily-results [data-deal="1"]')).to_have_attribute(
            "data-hidden", "true"
        )
        # six more deals away from the table, then the last one with the
        # table page open again ("Reprendre"): it says the set is over and
        # leads to the day's results
        with live.connect(table_id, token) as client:
            _play(client, lambda legal: legal[0], deals=6)
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-ready", "daily")
        expect(page.locator("#daily-info")).to_contain_text("7 donne(s) jouée(s) sur 8")
        start.click()
        page.wait_for_url(f"**/#/table/{table_id}")
        expect(page.locator("#table-page")).to_have_attribute("data-ready", "1", timeout=20000)
        token = next(c["value"] for c in ctx.cookies() if c["name"] == "rebelote_token")
        with live.connect(table_id, token) as client:
            _play(client, lambda legal: legal[0], deals=1)
        expect(page.locator("#status")).to_have_text(
            "La série est finie : voyez les résultats du jour.", timeout=30000
        )
        expect(page.locator('#actions [data-action="daily-results"]')).to_have_attribute(
            "href", "/daily.html"
        )
        page.locator('#deal-end [data-action="daily-results"]').click()
        expect(page.locator("body")).to_have_attribute("data-ready", "daily")
        expect(start).to_have_text("Revoir mes donnes")
        expect(page.locator("#daily-info")).to_contain_text("8 donne(s) jouée(s) sur 8")
        expect(page.locator("#daily-results [data-deal] tbody tr")).to_have_count(8)
        # the day before: nobody played, a day over shows every deal's rows
        page.locator('[data-action="daily-previous"]').click()
        expect(page.locator("body")).to_have_attribute("data-ready", "daily")
        expect(page.locator("#daily-no-standings")).to_be_visible()
        expect(page.locator("#daily-results [data-deal] tbody tr")).to_have_count(0)
        expect(page.locator('#daily-results [data-deal="0"] .note')).to_have_text(
            "Personne n'a joué cette donne."
        )
        page.locator('[data-action="daily-today"]').click()
        expect(page.locator("body")).to_have_attribute("data-ready", "daily")
        start.click()
        page.wait_for_url(f"**/#/replay/{table_id}")
        assert errors == []
    finally:
        ctx.close()


def first_contract(live: LiveServer, table_id: str) -> str | None:
    """The contract of the table's first deal, as the results give it."""
    stored = live.manager.store.load(table_id)
    assert stored is not None
    return deal_lines(stored)[0].contract


def test_the_owner_opens_his_daily_table_from_a_direct_link(
    live: LiveServer, browser: Browser
) -> None:
    """Logged in on another browser (no seat cookie there), a direct link
    to his daily table seats him at it, as a lobby table would; someone
    else is not seated there."""
    from playwright.sync_api import expect

    first = browser.new_context(viewport={"width": 1280, "height": 800})
    other = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        r = first.request.post(
            live.url + "/api/auth/signup", data={"name": "Ada", "password": "belote-pass"}
        )
        assert r.ok, r.text()
        csrf = next(c["value"] for c in first.cookies() if c["name"] == "rebelote_csrf")
        r = first.request.post(live.url + "/api/daily/start", headers={"X-CSRF-Token": csrf})
        assert r.ok, r.text()
        table_id = r.json()["table"]
        r = other.request.post(
            live.url + "/api/auth/login", data={"name": "Ada", "password": "belote-pass"}
        )
        assert r.ok, r.text()
        assert not [c for c in other.cookies() if c["name"] == "rebelote_token"]
        page = other.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{live.url}/#/table/{table_id}")
        expect(page.locator("#table-page")).to_have_attribute("data-ready", "1", timeout=20000)
        expect(page.locator("#table-page")).to_have_attribute("data-mode", "play")
        expect(page.locator("#hand .card")).to_have_count(5)
        assert page.url == f"{live.url}/#/table/{table_id}"
        assert errors == []
    finally:
        first.close()
        other.close()


FIXED_RESULTS = {
    "deals": [
        {
            "deal": 0,
            "par": None,
            "hands": None,
            "rows": [
                {
                    "name": "Bob",
                    "contract": "H",
                    "taker": "N",
                    "score": 162,
                    "matchpoints": 2,
                    "percent": 100.0,
                },
                {
                    "name": "Carol",
                    "contract": "SA",
                    "taker": "S",
                    "score": 0,
                    "matchpoints": 0,
                    "percent": 0.0,
                },
            ],
        }
    ],
    "standings": [
        {"name": "Bob", "percent": 75.0, "rank": 1},
        {"name": "Carol", "percent": 25.0, "rank": 2},
    ],
}


def test_the_results_rows_are_one_line_high_and_standings_numbered_once(
    live: LiveServer, browser: Browser
) -> None:
    """At 1280 x 800, a row with a suit contract stays one line high (the
    suit drawn at the text's size) and the standings read "1. Bob 75.00 %"
    (the rank once, no list number)."""
    import json

    from playwright.sync_api import Route, expect

    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))

        def fixed(route: Route) -> None:
            day = route.request.url.rsplit("/", 2)[1]
            body = {"date": day, **FIXED_RESULTS}
            route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

        page.route("**/api/daily/*/results", fixed)
        page.goto(live.url + "/daily.html")
        expect(page.locator("body")).to_have_attribute("data-ready", "daily")
        rows = page.locator('#daily-results [data-deal="0"] tbody tr')
        expect(rows).to_have_count(2)
        expect(rows.first.locator("td").nth(1)).to_have_text("cœur par Nord")
        heights = rows.evaluate_all("(rs) => rs.map((r) => r.getBoundingClientRect().height)")
        assert len(heights) == 2 and max(heights) < 60, heights
        standings = page.locator("#daily-standings li")
        expect(standings).to_have_text(["1. Bob 75.00 %", "2. Carol 25.00 %"])
        assert standings.first.evaluate("(l) => getComputedStyle(l).listStyleType") == "none"
        assert errors == []
    finally:
        ctx.close()


def test_the_results_show_what_everyone_got_and_the_turned_card(
    live: LiveServer, browser: Browser
) -> None:
    """A deal's hands are the first distribution (5 cards each) and the
    turned card, said as such, in the page's language."""
    import json

    from playwright.sync_api import Route, expect

    deal = dict(FIXED_RESULTS["deals"][0])  # type: ignore[index]
    deal["hands"] = {
        "N": ["7S", "8S", "9S", "10S", "JS"],
        "W": ["7H", "8H", "9H", "10H", "JH"],
        "S": ["7D", "8D", "9D", "10D", "JD"],
        "E": ["7C", "8C", "9C", "10C", "JC"],
    }
    deal["turned"] = "AS"
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = ctx.new_page()

        def fixed(route: Route) -> None:
            day = route.request.url.rsplit("/", 2)[1]
            body = {"date": day, **FIXED_RESULTS, "deals": [deal]}
            route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

        page.route("**/api/daily/*/results", fixed)
        page.goto(live.url + "/daily.html")
        expect(page.locator("body")).to_have_attribute("data-ready", "daily")
        box = page.locator('#daily-results [data-deal="0"] .dealt')
        expect(box.locator(".note")).to_have_text(
            "Donné à tous, quel que soit le preneur (la suite du paquet dépend de qui prend) :"
        )
        expect(box.locator("li")).to_have_text(
            [
                "Nord : 7S 8S 9S 10S JS",
                "Ouest : 7H 8H 9H 10H JH",
                "Sud : 7D 8D 9D 10D JD",
                "Est : 7C 8C 9C 10C JC",
                "Retourne : AS",
            ]
        )
    finally:
        ctx.close()
