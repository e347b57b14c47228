"""A greyed card says why it may not be played: the reason the server sent
in ``turn.illegal`` (the rules core's ``why_illegal``), as ``data-reason``,
as the card's accessible description in the page's language, and in the
status line when the player clicks it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from rebelote.legality import IllegalReason
from rebelote.server.app import WEB_DIR
from server.live import LiveServer

from .conftest import DESKTOP
from .driver import Driver
from .test_table import SIZES, create_table, no_errors, open_page

FOLLOW = "#hand button.card[data-reason='must_follow_suit']"
PAGE_REASON_KEYS = {
    "partner",
    "partnerRule",
    "unknown",
    "followLed",
    "takeOtherSuit",
    "turnedSuitOut",
}
"""The page's own reason keys beside one per code: the partner clause (as
the FFB's rule, and as the table's own), the fallback, and the reasons'
words with or without their suit."""
FR_SUITS = {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"}
EN_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

_POSITION = """() => {
  const m = window.rebelote.model;
  const trick = m.deal.trickDone ? [] : m.deal.trick;
  return {
    led: trick.length ? trick[0].card : null,
    played: trick.length,
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
        assert keys == codes | PAGE_REASON_KEYS, lang
    for code in codes:
        assert f"  {code}: 'reason.{code}',\n" in script, code
    fr = json.loads((WEB_DIR / "i18n" / "fr.json").read_text(encoding="utf-8"))
    assert fr["reason.must_follow_suit"] == "Vous devez fournir à {suit}"
    assert [fr[f"suit.{s}"] for s in "SHDC"] == ["pique", "cœur", "carreau", "trèfle"]
    en = json.loads((WEB_DIR / "i18n" / "en.json").read_text(encoding="utf-8"))
    assert en["reason.must_follow_suit"] == "You must follow suit in {suit}"


def _to_must_follow(page: Page, driver: Driver, *, last: bool = False) -> dict[str, Any]:
    """Click through the match until the player must follow a plain suit
    led (not trump) while holding cards of other suits (``last``: and his
    card ends the trick): the position."""
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
                and (not last or pos["played"] == 3)
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
    word = FR_SUITS[led_suit]
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
    expect(card).to_have_accessible_description(f"Vous devez fournir à {word}")
    expect(card).to_have_attribute("title", f"Vous devez fournir à {word}")
    legal = page.locator(f"#hand button.card[data-card='{s['enabled'][0]}']")
    expect(legal).to_be_enabled()
    assert legal.get_attribute("data-reason") is None
    assert legal.get_attribute("aria-describedby") is None

    # a click on the greyed card (its left edge: the next card covers the
    # rest) says why in the status line, and plays nothing
    status = page.locator("#status")
    expect(status).to_have_text("À vous de jouer")
    card.click(force=True, position={"x": 6, "y": 30})
    expect(status).to_have_text(f"Vous devez fournir à {word}")
    expect(status).to_have_attribute("data-reason", "must_follow_suit")
    assert page.evaluate("() => window.rebelote.model.pending") is False
    expect(page.locator("#hand button.card")).to_have_count(len(s["hand"]))

    # in English: the menu's language switch redraws the table in place
    page.click("[data-action='menu']")
    page.click("[data-action='lang-toggle']")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    card = page.locator(f"#hand button.card[data-card='{off_suit[0]}']")
    expect(card).to_have_accessible_description(f"You must follow suit in {EN_SUITS[led_suit]}")
    expect(card).to_have_attribute("data-reason", "must_follow_suit")
    expect(status).to_have_text(f"You must follow suit in {EN_SUITS[led_suit]}")

    # a legal card is played as before; the status line says the next turn
    driver.play_card_by_click(s["enabled"][0], s["beloteChoice"], str(s["you"]))
    expect(status).not_to_have_attribute("data-reason", "must_follow_suit")
    no_errors(page)
    page.context.close()


# Every greyed card's reason, sampled at each frame (its code, its tooltip,
# its accessible description, whether the trick on the table is over and
# whether the turn is still the one before the click) until
# window.__stopSampling is set.
_SAMPLE = """() => {
  window.__samples = [];
  window.__frames = [];
  window.__stopSampling = false;
  const first = window.rebelote.model.turn;
  const step = () => {
    const m = window.rebelote.model;
    const spent = !!m.turn && m.turn === first && !!m.turn.played;
    let reasons = 0;
    for (const b of document.querySelectorAll('#hand button.card[data-reason]')) {
      const note = b.querySelector(':scope > .why');
      reasons += 1;
      window.__samples.push({
        card: b.dataset.card, reason: b.dataset.reason, title: b.title,
        desc: note ? note.textContent : null, done: m.deal.trickDone, spent,
      });
    }
    window.__frames.push({ done: m.deal.trickDone, spent, reasons,
      enabled: document.querySelectorAll('#hand button.card:not([disabled])').length });
    if (!window.__stopSampling) requestAnimationFrame(step);
  };
  step();
}"""


def test_the_reasons_stay_whole_when_the_own_card_ends_the_trick(
    browser: Browser, web: LiveServer
) -> None:
    """The player's card ends the trick: while the finished trick stays on
    the table (the page's hold), his turn is over and the server's next one
    not shown yet: no card is playable and none carries a reason (the old
    turn's reasons are no longer true: REVIEW15b saw « fournir à pique »
    with no spade left); afterwards the reasons are whole: the suit comes
    with the server's reason (``suit``), never from the trick on the table."""
    page = open_page(browser, web, DESKTOP)
    create_table(web, page, preset="ffb", target=1000, options={"speed": "instant"})
    driver = Driver(page)
    s = _to_must_follow(page, driver, last=True)
    led_suit = s["led"][-1]
    off_suit = [c for c in s["hand"] if c[-1] != led_suit]
    expect(page.locator(FOLLOW)).to_have_count(len(off_suit))
    page.evaluate(_SAMPLE)
    driver.play_card_by_click(s["enabled"][0], s["beloteChoice"], str(s["you"]))
    page.wait_for_timeout(1500)  # the trick's hold (800 ms) and the next turn
    samples: list[dict[str, Any]] = page.evaluate(
        "() => { window.__stopSampling = true; return window.__samples; }"
    )
    frames: list[dict[str, Any]] = page.evaluate("() => window.__frames")
    # the window of the bug: the own card ended the trick, still on the
    # table, the turn the card was played in spent
    during = [f for f in frames if f["done"] and f["spent"]]
    assert during, frames[:5]
    assert {(f["reasons"], f["enabled"]) for f in during} == {(0, 0)}
    assert not [x for x in samples if x["spent"]]
    # then: the next turns' reasons, whole as well
    whole = {f"Vous devez fournir à {w}" for w in FR_SUITS.values()}
    whole.add("Ce n'est pas à vous de jouer")
    for x in samples:
        assert x["title"] == x["desc"], x
        if x["reason"] in ("must_follow_suit", "not_your_turn"):
            assert x["title"] in whole, x
    no_errors(page)
    page.context.close()


# The page's words for reasons, from its own modules (the ones the table
# loads), in both languages.
_WORDS = """async ([code, whys]) => {
  const i18n = await import('/js/i18n.js');
  const labels = await import('/js/labels.js');
  await i18n.setLang(code);
  return whys.map((why) => labels.reasonText(why));
}"""


def _why(
    reason: str, suit: str | None = None, option: str | None = None, house_rule: bool = False
) -> dict[str, Any]:
    return {
        "reason": reason,
        "option": option,
        "source": "FFB",
        "suit": suit,
        "house_rule": house_rule,
    }


PARTNER = "partner_winning_exemption"


WORDS_CASES = [
    _why("must_follow_suit", "S"),
    _why("must_follow_suit", "H"),
    _why("must_follow_suit", "D"),
    _why("must_follow_suit", "C"),
    _why("must_follow_suit"),
    _why("take_only_in_round_one", "H"),
    _why("take_only_in_round_one"),
    _why("turned_suit_in_round_two", "D"),
    _why("must_undertrump", None, PARTNER, True),
    _why("must_trump", None, PARTNER, True),
    _why("must_go_higher", None, "overtrump_partner_on_trump_lead", False),
    _why("must_undertrump", None, "must_undertrump", False),
]
WORDS_FR = [
    "Vous devez fournir à pique",
    "Vous devez fournir à cœur",
    "Vous devez fournir à carreau",
    "Vous devez fournir à trèfle",
    "Vous devez fournir à la couleur demandée",
    "Au second tour, on ne prend plus à cœur : nommez une autre couleur d'atout",
    "Au second tour, on ne dit plus « je prends » : nommez l'atout, "
    "la couleur de la retourne comprise",
    "Au second tour, on ne peut plus prendre à carreau, la couleur de la retourne",
    "Vous devez jouer atout, même plus petit, bien que votre partenaire soit maître "
    "(règle de cette table)",
    "Vous devez couper, bien que votre partenaire soit maître (règle de cette table)",
    "Vous devez monter à l'atout, bien que votre partenaire soit maître",
    "Vous devez jouer atout, même plus petit",
]
WORDS_EN = [
    "You must follow suit in spades",
    "You must follow suit in hearts",
    "You must follow suit in diamonds",
    "You must follow suit in clubs",
    "You must follow the suit led",
    "In the second round hearts can no longer be taken: name another trump suit",
    "In the second round you do not take: name the trump suit, the turned card's suit included",
    "In the second round diamonds, the turned card's suit, cannot be named",
    "You must play a trump, even a lower one, though your partner is winning (this table's rule)",
    "You must trump, though your partner is winning (this table's rule)",
    "You must play a higher trump, though your partner is winning",
    "You must play a trump, even a lower one",
]


def test_the_words_of_the_reasons(browser: Browser, web: LiveServer) -> None:
    """``reasonText`` from the server's reason alone: the suit in words
    with its preposition (« fournir à pique », "follow suit in spades");
    round two's refused ``take``: the turned suit named where it is out,
    else the choice of any suit (seed 001, where the turned suit may be
    named: taking is refused, not the turned card); the partner clause
    said once, without a second « même », and "this table's rule" only where
    the server says the option's value is not the FFB's (``house_rule``:
    seed 003's partner with no exemption, not the FFB's going higher on a
    trump lead)."""
    page = open_page(browser, web, DESKTOP)
    assert page.evaluate(_WORDS, ["fr", WORDS_CASES]) == WORDS_FR
    assert page.evaluate(_WORDS, ["en", WORDS_CASES]) == WORDS_EN
    no_errors(page)
    page.context.close()


def _to_lead(page: Page, driver: Driver) -> dict[str, Any]:
    """Click through the match until the player leads a trick of the card
    play with at least three cards in hand: the position."""
    for _ in range(400):
        if driver.wait_decision() == "table":
            s = driver.state()
            pos: dict[str, Any] = page.evaluate(_POSITION)
            playable = [c for c in s["enabled"] if c not in s["beloteChoice"]]
            if (
                s["phase"] == "playing"
                and pos["played"] == 0
                and pos["turn"] == pos["you"]
                and playable
                and len(s["hand"]) >= 3
            ):
                return {**s, "playable": playable}
        driver.click_step()
    raise AssertionError("the player led no trick in 400 decisions")


NOT_YOURS = "#hand button.card[data-reason='not_your_turn']"


def test_a_clicked_reason_stays_while_it_is_true(browser: Browser, web: LiveServer) -> None:
    """The reason a click on a greyed card writes in the status line stays
    through the computer players' moves (their turns give the card the same
    reason), follows another card clicked, and ends when it is no longer
    the card's reason (the player's turn: the status line prompts him) or
    when the player acts."""
    page = open_page(browser, web, DESKTOP)
    create_table(web, page, preset="ffb", target=1000, options={"speed": "normal"})
    driver = Driver(page)
    s = _to_lead(page, driver)
    driver.play_card_by_click(s["playable"][0], s["beloteChoice"], str(s["you"]))
    left = len(s["hand"]) - 1
    expect(page.locator(NOT_YOURS)).to_have_count(left)  # East is to play
    first, second = page.locator(NOT_YOURS).evaluate_all("(bs) => bs.map((b) => b.dataset.card)")[
        :2
    ]
    status = page.locator("#status")
    page.evaluate("() => { window.__turn0 = window.rebelote.model.turn; }")
    page.locator(f"#hand button.card[data-card='{first}']").click(
        force=True, position={"x": 6, "y": 30}
    )
    expect(status).to_have_text("Ce n'est pas à vous de jouer")
    expect(status).to_have_attribute("data-reason", "not_your_turn")
    # a computer player's card lands, with the next turn: the reason stays
    page.wait_for_function(
        "() => window.rebelote.model.turn !== window.__turn0"
        " && document.querySelectorAll('#trick [data-trick-seat]').length >= 2"
    )
    expect(status).to_have_text("Ce n'est pas à vous de jouer")
    expect(status).to_have_attribute("data-reason", "not_your_turn")
    # another greyed card clicked: its reason (the same words here)
    page.locator(f"#hand button.card[data-card='{second}']").click(
        force=True, position={"x": 6, "y": 30}
    )
    assert page.evaluate("() => window.rebelote.view.ui.refused.card") == second
    expect(status).to_have_attribute("data-reason", "not_your_turn")
    # the player's turn: no longer the card's reason, the status line prompts
    assert driver.wait_decision() == "table"
    expect(status).to_have_text("À vous de jouer")
    assert status.get_attribute("data-reason") is None
    assert page.evaluate("() => window.rebelote.view.ui.refused") is None
    # a greyed card clicked, then a legal card played: the reason ends
    s = driver.state()
    greyed = [c for c in s["hand"] if c not in s["enabled"]]
    if greyed:
        page.locator(f"#hand button.card[data-card='{greyed[0]}']").click(
            force=True, position={"x": 6, "y": 30}
        )
        expect(status).to_have_attribute("data-reason", re.compile(r"^must_|^may_not"))
    driver.play_card_by_click(s["enabled"][0], s["beloteChoice"], str(s["you"]))
    assert status.get_attribute("data-reason") is None
    assert page.evaluate("() => window.rebelote.view.ui.refused") is None
    no_errors(page)
    page.context.close()
