"""Help against the computer and the analysis after the game, in the browser
(issue 16, Debian's Chromium driven by Playwright): at a table against the
computer, the hint button shows a value for each legal card; a card played
comes back to the hand with the takeback button, and the table says how
much help was used; after a short match, the replay's analysis shows the
cost of every card, the biggest mistakes first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser

from server.live import LiveServer

from .conftest import DESKTOP, PHONE
from .driver import Driver
from .test_table import create_table, no_errors, open_page


def _to_my_card(driver: Driver, cards_left: int) -> dict[str, Any]:
    """Click through (bids, earlier cards) until S must play a card with
    at most ``cards_left`` cards in hand; returns the page's state."""
    for _ in range(200):
        kind = driver.wait_decision()
        s = driver.state()
        if (
            kind == "table"
            and s["phase"] == "playing"
            and s["enabled"]
            and len(s["hand"]) <= cards_left
        ):
            return s
        driver.click_step()
    raise AssertionError("S never had a card to play")


def test_hint_and_takeback_at_a_table_against_the_computer(
    browser: Browser, web: LiveServer, shots: Path
) -> None:
    page = open_page(browser, web, DESKTOP)
    create_table(web, page, preset="ffb", target=1000, options={"speed": "instant"})
    driver = Driver(page)
    s = _to_my_card(driver, 7)
    legal = sorted(str(c) for c in s["enabled"])
    assist = page.locator("#assist")
    assert assist.get_attribute("data-allowed") == "true"
    assert page.locator("#assist-used").is_hidden()
    page.click('[data-action="hint"]')
    page.wait_for_selector("#hint-panel li[data-hint-action]", timeout=60_000)
    items = page.locator("#hint-panel li[data-hint-action]")
    valued = sorted(
        items.nth(i).get_attribute("data-hint-action") or "" for i in range(items.count())
    )
    assert valued == legal
    for i in range(items.count()):
        value = items.nth(i).get_attribute("data-value")
        assert value not in (None, ""), valued[i]
        float(value)  # a number
    # each legal card of the hand shows its value
    badges = page.locator("#hand button.card[data-hint-value] .hint-value")
    assert badges.count() == len(legal)
    assert (
        sorted(
            page.locator("#hand button.card[data-hint-value]").nth(i).get_attribute("data-card")
            or ""
            for i in range(badges.count())
        )
        == legal
    )
    used = page.locator("#assist-used")
    used.wait_for(state="visible")
    assert (used.get_attribute("data-hints"), used.get_attribute("data-takebacks")) == ("1", "0")
    page.screenshot(path=str(shots / "hint-1280x800.png"))
    # play a card, then take it back: it is in the hand again
    card = str(s["enabled"][0])
    driver.play_card_by_click(card, list(s["beloteChoice"]), "S")
    assert page.locator(f'#hand [data-card="{card}"]').count() == 0
    page.click('[data-action="takeback"]')
    page.wait_for_selector(f'#hand [data-card="{card}"]', timeout=10_000)
    page.wait_for_selector('#assist-used[data-takebacks="1"][data-hints="1"]')
    assert page.locator(f'#trick [data-trick-seat="S"][data-card="{card}"]').count() == 0
    driver.wait_decision()
    after = driver.state()
    assert sorted(str(c) for c in after["enabled"]) == legal
    assert "1" in (page.locator("#assist-used").inner_text())
    no_errors(page)
    page.context.close()


def test_the_analysis_of_a_finished_match(browser: Browser, web: LiveServer, shots: Path) -> None:
    page = open_page(browser, web, PHONE)
    table_id = create_table(web, page, preset="ffb", target=1, options={"speed": "instant"})
    driver = Driver(page)
    for _ in range(300):
        if page.locator("#deal-end[data-over='true'][open]").count():
            break
        driver.click_step()
    else:
        raise AssertionError("the match did not end")
    page.goto(f"{web.url}/#/replay/{table_id}")
    page.wait_for_selector("#table-page[data-mode='replay'][data-ready='1']")
    page.click('[data-action="analysis"]')
    page.wait_for_selector("#analysis[open]")
    page.wait_for_selector("#analysis[data-status='done']", timeout=240_000)
    page.wait_for_selector("#analysis [data-analysis-deal]")
    rows = page.locator("#analysis tr[data-card]")
    assert rows.count() == 32  # every card of the deal, each with its cost
    costs = [int(rows.nth(i).get_attribute("data-cost") or "x") for i in range(rows.count())]
    mistakes = [c for c in costs if c > 0]
    assert costs[: len(mistakes)] == sorted(mistakes, reverse=True)  # the biggest first
    for i in range(rows.count()):
        row = rows.nth(i)
        before = int(row.get_attribute("data-before") or "x")
        after = int(row.get_attribute("data-after") or "x")
        assert before - after == costs[i]
    # the players are named; the bids are set beside the expert's
    assert page.locator("#analysis .analysis-players [data-seat]").count() == 4
    assert page.locator("#analysis tr[data-bid]").count() >= 1
    page.screenshot(path=str(shots / "analysis-360x740.png"))
    no_errors(page)
    page.context.close()
