"""A greyed card says why it may not be played: the reason the server sent
in ``turn.illegal`` (the rules core's ``why_illegal``), as ``data-reason``,
as the card's accessible description in the page's language, and in the
status line when the player clicks it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from rebelote.legality import IllegalReason
from rebelote.server.app import WEB_DIR
from server.live import LiveServer

from .driver import Driver
from .test_table import SIZES, create_table, no_errors, open_page

FOLLOW = "#hand button.card[data-reason='must_follow_suit']"

_POSITION = """() => {
  const m = window.rebelote.model;
  return {
    led: m.ledCard,
    strain: m.deal.contract ? m.deal.contract.strain : null,
    turn: m.turn ? m.turn.seat : null,
    you: m.you,
  };
}"""


def test_every_reason_has_its_words_in_both_catalogs() -> None:
    """One ``reason.<code>`` per code of the core, in French and in English
    (plus the partner rule's words and the fallback), and the page's table
    of keys lists them all."""
    codes = {r.value for r in IllegalReason}
    script = (WEB_DIR / "js" / "labels.js").read_text(encoding="utf-8")
    for lang in ("fr", "en"):
        catalog = json.loads((WEB_DIR / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        keys = {k.removeprefix("reason.") for k in catalog if k.startswith("reason.")}
        assert keys == codes | {"partnerRule", "unknown"}, lang
    for code in codes:
        assert f"  {code}: 'reason.{code}',\n" in script, code
    fr = json.loads((WEB_DIR / "i18n" / "fr.json").read_text(encoding="utf-8"))
    assert fr["reason.must_follow_suit"] == "Vous devez fournir à {suit}"


def _to_must_follow(page: Page, driver: Driver) -> dict[str, Any]:
    """Click through the match until the player must follow a plain suit
    led (not trump) while holding cards of other suits: the position."""
    for _ in range(400):
        kind = driver.wait_decision()
        if kind == "table":
            s = driver.state()
            pos: dict[str, Any] = page.evaluate(_POSITION)
            led = pos["led"]
            if (
                s["phase"] == "playing"
                and led is not None
                and led[-1] != pos["strain"]
                and pos["turn"] == pos["you"]
                and s["enabled"]
                and all(c[-1] == led[-1] for c in s["enabled"])
                and any(c[-1] != led[-1] for c in s["hand"])
            ):
                return {**s, "led": led}
        driver.click_step()
    raise AssertionError("no card to refuse for following suit in 400 decisions")


@pytest.mark.parametrize("size", SIZES)
def test_a_greyed_card_says_why(browser: Browser, web: LiveServer, size: dict[str, int]) -> None:
    page = open_page(browser, web, size)
    create_table(web, page, preset="ffb", target=1000, options={"speed": "instant"})
    driver = Driver(page)
    s = _to_must_follow(page, driver)
    led_suit = s["led"][-1]
    symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[led_suit]
    off_suit = [c for c in s["hand"] if c[-1] != led_suit]
    # exactly the cards of the other suits are greyed, each for following suit
    greyed = page.locator(FOLLOW)
    expect(greyed).to_have_count(len(off_suit))
    assert greyed.evaluate_all("(bs) => bs.map((b) => b.dataset.card)") == off_suit
    assert page.locator("#hand button.card[data-reason]").count() == len(off_suit)
    assert set(s["enabled"]) == {c for c in s["hand"] if c[-1] == led_suit}
    card = page.locator(f"#hand button.card[data-card='{off_suit[0]}']")
    expect(card).to_be_disabled()
    expect(card).to_have_attribute("data-reason", "must_follow_suit")
    expect(card).to_have_accessible_description(f"Vous devez fournir à {symbol}")
    expect(card).to_have_attribute("title", f"Vous devez fournir à {symbol}")
    legal = page.locator(f"#hand button.card[data-card='{s['enabled'][0]}']")
    expect(legal).to_be_enabled()
    assert legal.get_attribute("data-reason") is None
    assert legal.get_attribute("aria-describedby") is None

    # a click on the greyed card (its left edge: the next card covers the
    # rest) says why in the status line, and plays nothing
    status = page.locator("#status")
    expect(status).to_have_text("À vous de jouer")
    card.click(force=True, position={"x": 6, "y": 30})
    expect(status).to_have_text(f"Vous devez fournir à {symbol}")
    expect(status).to_have_attribute("data-reason", "must_follow_suit")
    assert page.evaluate("() => window.rebelote.model.pending") is False
    expect(page.locator("#hand button.card")).to_have_count(len(s["hand"]))

    # in English: the menu's language switch redraws the table in place
    page.click("[data-action='menu']")
    page.click("[data-action='lang-toggle']")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    card = page.locator(f"#hand button.card[data-card='{off_suit[0]}']")
    expect(card).to_have_accessible_description(f"You must follow suit: {symbol}")
    expect(card).to_have_attribute("data-reason", "must_follow_suit")
    expect(status).to_have_text(f"You must follow suit: {symbol}")

    # a legal card is played as before; the status line says the next turn
    driver.play_card_by_click(s["enabled"][0], s["beloteChoice"], str(s["you"]))
    expect(status).not_to_have_attribute("data-reason", "must_follow_suit")
    no_errors(page)
    page.context.close()
