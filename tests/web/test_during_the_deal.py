"""Issue 16, at the table against the computer (Playwright on Debian's
Chromium): the auction drawn as it goes (``#auction``), a status line that
is always true, cards that move to the trick (and do not under
``prefers-reduced-motion``), sounds and the settings panel, the last trick
drawn as a trick, a deal's score explained line by line, and what a screen
reader and a keyboard get.  The computer players follow a script
(``scripted.py``) and the first dealer is South, so East speaks first."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from server.live import LiveServer

from .conftest import DESKTOP, PHONE
from .driver import Driver
from .test_table import ERRORS, create_table, no_errors

ROUND1 = ["E", "N", "W", "S"]
"""Speaking order when South deals (from the dealer's right)."""


def new_page(
    browser: Browser,
    web: LiveServer,
    size: dict[str, int] = DESKTOP,
    *,
    storage: dict[str, Any] | None = None,
    reduced_motion: bool = False,
) -> Page:
    """A page on the start page, with ``storage`` put in its localStorage."""
    ctx = browser.new_context(
        viewport={"width": size["width"], "height": size["height"]},
        reduced_motion="reduce" if reduced_motion else "no-preference",
    )
    page = ctx.new_page()
    errors = ERRORS.setdefault(id(page), [])
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    for key, value in (storage or {}).items():
        page.add_init_script(f"localStorage.setItem({json.dumps(key)}, {json.dumps(value)})")
    page.goto(web.url + "/")
    page.wait_for_selector("body[data-ready='start']")
    return page


def auction_bids(page: Page, round_: int | None = None) -> list[list[str]]:
    """The bids ``#auction`` shows, ``[seat, bid]`` in order (of one round)."""
    sel = (
        "#auction .auction-bid"
        if round_ is None
        else (f"#auction .auction-round[data-round='{round_}'] .auction-bid")
    )
    bids: list[list[str]] = page.eval_on_selector_all(
        sel, "els => els.map((e) => [e.dataset.seat, e.dataset.bid])"
    )
    return bids


def wait_my_turn(page: Page) -> None:
    page.wait_for_selector("#table-page[data-my-turn='true'][data-pending='false']")


# ------------------------------------------------------------------ auction


def test_auction_two_rounds_classic(
    browser: Browser, web: LiveServer, script_table: Any, shots: Path
) -> None:
    """Everyone passes round one; in round two East, North and West pass and
    South names a suit: ``#auction`` shows each round's bids in order, then
    the contract taken in round two, which stays in view during the play."""
    script_table(dealer="S")
    page = new_page(browser, web)
    create_table(web, page, preset="ffb", target=1000, options={"speed": "instant"})
    wait_my_turn(page)
    auction = page.locator("#auction")
    expect(auction).to_have_attribute("data-state", "bidding")
    assert auction_bids(page) == [["E", "pass"], ["N", "pass"], ["W", "pass"]]
    expect(auction.locator(".auction-round[data-round='1'] .round-label")).to_have_text("1er tour")
    expect(auction.locator(".auction-bid[data-seat='N']")).to_have_attribute(
        "aria-label", "Nord : Passe"
    )
    page.click("#actions [data-bid='pass']")
    page.wait_for_function(
        "() => document.querySelectorAll("
        "'#auction .auction-round[data-round=\"2\"] .auction-bid').length === 3"
    )
    page.wait_for_selector("#table-page[data-my-turn='true'][data-pending='false']")
    assert auction_bids(page, 1) == [["E", "pass"], ["N", "pass"], ["W", "pass"], ["S", "pass"]]
    assert auction_bids(page, 2) == [["E", "pass"], ["N", "pass"], ["W", "pass"]]
    expect(auction.locator(".auction-round[data-round='2'] .round-label")).to_have_text("2e tour")
    page.screenshot(path=str(shots / "auction-1280x800.png"))
    suit = page.locator("#actions [data-bid]:not([data-bid='pass'])").first.get_attribute(
        "data-bid"
    )
    assert suit in ("S", "H", "D", "C")
    page.click(f"#actions [data-bid='{suit}']")
    expect(auction).to_have_attribute("data-state", "contract")
    assert auction_bids(page, 2) == [["E", "pass"], ["N", "pass"], ["W", "pass"], ["S", suit]]
    contract = auction.locator(".auction-contract")
    expect(contract).to_have_attribute("data-contract", f"{suit} by S")
    names = {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"}
    expect(contract).to_have_text(f"Contrat : {names[suit]} par Vous (pris au 2e tour)")
    # the play goes on: the contract stays in view
    page.wait_for_function("() => document.querySelectorAll('#trick [data-trick-seat]').length > 0")
    expect(contract).to_be_visible()
    no_errors(page)
    page.context.close()


def test_auction_coinche_and_surcoinche(
    browser: Browser, web: LiveServer, script_table: Any, shots: Path
) -> None:
    """A coinche auction: East bids 80 hearts, North coinches, West
    surcoinches (South never speaks): the bids in order, coinche and
    surcoinche marked, then the contract with its multiplier."""
    script_table(dealer="S", bids={"E": ["80H"], "N": ["coinche"], "W": ["surcoinche"]})
    page = new_page(browser, web, PHONE)
    create_table(web, page, preset="coinche", target=3000, options={"speed": "instant"})
    auction = page.locator("#auction")
    expect(auction).to_have_attribute("data-state", "contract")
    assert auction_bids(page) == [["E", "80H"], ["N", "coinche"], ["W", "surcoinche"]]
    doubles = page.eval_on_selector_all(
        "#auction .auction-bid.double", "els => els.map((e) => e.dataset.bid)"
    )
    assert doubles == ["coinche", "surcoinche"]
    expect(auction.locator(".auction-round .round-label")).to_have_text("Enchères")
    expect(auction.locator(".auction-contract")).to_have_attribute(
        "data-contract", "80H by E surcoinche"
    )
    expect(auction.locator(".auction-contract")).to_have_text("Contrat : 80 par Est Surcoinche !")
    # on a phone, the bids give way to the contract line during the play
    expect(auction.locator(".auction-rounds")).to_be_hidden()
    wait_my_turn(page)
    page.screenshot(path=str(shots / "auction-coinche-360x740.png"))
    no_errors(page)
    page.context.close()


# -------------------------------------------------------------- status line


def test_status_says_who_won_the_trick_while_it_is_held(
    browser: Browser, web: LiveServer, script_table: Any
) -> None:
    """While a finished trick stays on the table, the status names its
    winner, never a player who has already played "thinking"; then whose
    turn it is."""
    script_table(dealer="S", bids={"E": ["take"]})
    # a long hold (the settings' "slow" pace), so that the test reads it
    page = new_page(browser, web, storage={"rebelote.settings": json.dumps({"pace": "slow"})})
    create_table(web, page, preset="ffb", target=1000, options={"speed": "instant"})
    driver = Driver(page)
    seen: list[str] = []
    for _ in range(12):
        driver.wait_decision()
        s = driver.state()
        if s["enabled"]:
            card = str(s["enabled"][0])
            page.click(f'#hand [data-card="{card}"]')
            # wait until the trick is full, then read the status at once
            handle = page.wait_for_function(
                """() => {
                  const m = window.rebelote.model;
                  return m.deal.trickDone && m.deal.trickWinner ? m.deal.trickWinner : false;
                }""",
                polling=20,
            )
            winner = str(handle.json_value())
            status = page.locator("#status").inner_text()
            name = {"N": "Nord", "W": "Ouest", "E": "Est", "S": "Vous"}[winner]
            assert status == f"Pli remporté par {name}", status
            assert not page.locator(".seat.active").count()
            seen.append(status)
            break
        driver.click_step()
    assert seen
    no_errors(page)
    page.context.close()


# ---------------------------------------------------------- score explained


def summary_rows(page: Page) -> list[list[str]]:
    """The deal summary's table, row by row: the label, then each cell."""
    rows: list[list[str]] = page.eval_on_selector_all(
        "#deal-end table.summary tr",
        "trs => trs.map((tr) => [...tr.children]"
        ".map((c) => c.innerText.replace(/\\s+/g, ' ').trim()))",
    )
    return rows


def play_deal_first_cards(page: Page) -> None:
    """Play every card of the deal: the first playable card each time."""
    driver = Driver(page)
    for _ in range(40):
        if driver.wait_decision() == "dialog":
            return
        s = driver.state()
        if s["enabled"]:
            page.click(f'#hand [data-card="{s["enabled"][0]}"]')
            if s["enabled"][0] in s["beloteChoice"]:
                page.click('#actions [data-belote="yes"]')  # "Belote !" said
            page.wait_for_function(
                "(card) => !window.rebelote.model.deal.hand.includes(card)", arg=s["enabled"][0]
            )
        else:
            driver.click_step()
    raise AssertionError("the deal did not end")


def test_score_explained_line_by_line(
    browser: Browser, web: LiveServer, script_table: Any, shots: Path
) -> None:
    """A known deal (the test server's seeded pack, East takes, everyone
    plays his first playable card): the summary's sentence and every line
    of its table, exactly."""
    script_table(dealer="S", bids={"E": ["take"]})
    page = new_page(browser, web, PHONE)
    create_table(web, page, preset="ffb", target=1000, options={"speed": "instant"})
    play_deal_first_cards(page)
    page.wait_for_selector("#deal-end[open] table.summary")
    # diamonds trump; the tricks (E N W S from East's lead), counted by hand:
    # AS 9S KS 10S E 25; 9H 8D 7H AH N 11; JS 9D QS 10H W 29; 10D 8S JD AD
    # E 41; JH 9C QD 8H W 5; KD 7S 7D 10C W 14; JC 8C QH KC N 9; AC QC 7C
    # KH N 18 and the dix de der: NS 38 + 10, EW 114 + belote (W: K Q of
    # diamonds) 20 = 134 > 48, the contract is made
    expect(page.locator("#deal-end .summary-sentence")).to_have_text(
        "Contrat réussi : le preneur (Eux) fait 134 points contre 48,"
        " et chaque camp marque ses points."
    )
    expect(page.locator("#deal-end .summary-sentence")).to_have_attribute("data-verdict", "made")
    assert summary_rows(page) == [
        ["", "Nous", "Eux"],
        ["Points des plis", "38", "114"],
        ["Dix de der", "10", ""],
        ["Belote", "", "20"],
        ["Points faits", "48", "134"],
        ["Contrat", "carreau par Est — réussi"],
        ["Points faits, hors belote", "48", "114"],
        ["Belote", "", "20"],
        ["Points marqués", "+48", "+134"],
        ["Total", "48", "134"],
    ]
    page.screenshot(path=str(shots / "deal-end-explained-360x740.png"))
    no_errors(page)
    page.context.close()


def test_score_explained_coinche_contract_line(
    browser: Browser, web: LiveServer, script_table: Any, shots: Path
) -> None:
    """A coinched contract made with every trick (issue 16: "a coinche
    capot showed +420 with no contract line"): the table's contract lines
    (the verdict, the contract times two) and its total, exactly."""
    script_table(dealer="S", bids={"E": ["80H", "pass"], "N": ["coinche"], "W": ["pass"]})
    page = new_page(browser, web, DESKTOP)
    create_table(web, page, preset="coinche", target=3000, options={"speed": "instant"})
    play_deal_first_cards(page)
    page.wait_for_selector("#deal-end[open] table.summary")
    # hearts trump, East takes every trick alone (issue 16's coinche capot):
    # 152 + 10 + 88 (the capot counts 250) + belote 20 = 270 made; scored:
    # the contract 80 x 2 = 160, the points 250, the belote 20: 430
    expect(page.locator("#deal-end .summary-sentence")).to_have_text(
        "Capot et contrat de 80 réussis : le preneur (Eux) fait tous les plis, 270 points,"
        " et le contrat lui rapporte 160 de plus."
    )
    assert summary_rows(page) == [
        ["", "Nous", "Eux"],
        ["Points des plis", "0", "152"],
        ["Dix de der", "", "10"],
        ["Capot seul", "", "88"],
        ["Belote", "", "20"],
        ["Points faits", "0", "270"],
        ["Contrat", "80 par Est coinché \u00d7 2 — réussi"],
        ["Contrat de 80 \u00d7 2", "", "160"],
        ["Points faits, hors belote", "", "250"],
        ["Belote", "", "20"],
        ["Points marqués", "+0", "+430"],
        ["Total", "0", "430"],
    ]
    expect(page.locator("#deal-end tr[data-scored='contract'] td[data-side='EW']")).to_have_text(
        "160"
    )
    page.screenshot(path=str(shots / "deal-end-coinche-1280x800.png"))
    no_errors(page)
    page.context.close()


# ------------------------------------------------------------ sound, motion


def test_sound_is_off_by_default_and_its_switch_is_remembered(
    browser: Browser, web: LiveServer, script_table: Any
) -> None:
    """The settings panel, opened during the match, has the sound switch
    off; turned on it is kept in this browser (after a reload too), and a
    trick won then makes its sound (Web Audio, js/sound.js)."""
    script_table(dealer="S", bids={"E": ["take"]})
    page = new_page(browser, web)
    create_table(web, page, preset="ffb", target=1000, options={"speed": "instant"})
    wait_my_turn(page)
    page.click("[data-action='settings']")
    switch = page.locator("#settings [data-setting='sound']")
    expect(switch).not_to_be_checked()
    switch.check()
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('rebelote.settings'))")
    assert saved == {"sound": True}
    page.keyboard.press("Escape")
    page.reload()
    page.wait_for_selector("#table-page[data-ready='1']")
    page.click("[data-action='settings']")
    expect(page.locator("#settings [data-setting='sound']")).to_be_checked()
    page.click("#settings [data-action='close']")
    # our turn to play the trick's last card: the trick won sounds
    wait_my_turn(page)
    card = page.locator("#hand button.card:not(:disabled)").first.get_attribute("data-card")
    page.click(f"#hand [data-card='{card}']")
    page.wait_for_function(
        "async () => (await import('/js/sound.js')).played.includes('trick')", polling=50
    )
    # off again: no more sounds
    page.click("[data-action='settings']")
    page.locator("#settings [data-setting='sound']").uncheck()
    assert page.evaluate("async () => (await import('/js/sound.js')).playSound('belote')") is False
    no_errors(page)
    page.context.close()


ANIMATIONS = """() => {
  window.landings = [];
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (n.nodeType !== 1 || !n.matches('[data-trick-seat]')) continue;
      window.landings.push({card: n.dataset.card, name: getComputedStyle(n).animationName,
                            running: n.getAnimations().length});
    }
  }).observe(document.querySelector('#trick'), {childList: true});
}"""


def first_landings(page: Page) -> list[dict[str, Any]]:
    """How the first trick's cards arrived (their animation)."""
    page.wait_for_function("() => window.landings && window.landings.length >= 4")
    landings: list[dict[str, Any]] = page.evaluate("() => window.landings.slice(0, 4)")
    return landings


def test_cards_move_to_the_trick_but_not_under_reduced_motion(
    browser: Browser, web: LiveServer, script_table: Any
) -> None:
    """Each card played moves to the trick (the CSS animation ``land``);
    with ``prefers-reduced-motion: reduce`` none moves."""
    script_table(dealer="S", bids={"E": ["take"]})
    for reduced, name, running in ((False, "land", 1), (True, "none", 0)):
        page = new_page(browser, web, reduced_motion=reduced)
        r = web.create(preset="ffb", target=1000, options={"speed": "instant"})
        page.evaluate(
            "([id, t]) => localStorage.setItem('rebelote.tables', JSON.stringify({[id]: t}))",
            [r["table_id"], r["token"]],
        )
        page.goto(f"{web.url}/#/table/{r['table_id']}")
        page.wait_for_selector("#table-page[data-ready='1']")
        page.evaluate(ANIMATIONS)
        wait_my_turn(page)
        card = page.locator("#hand button.card:not(:disabled)").first.get_attribute("data-card")
        page.click(f"#hand [data-card='{card}']")
        landings = first_landings(page)
        assert [x["name"] for x in landings] == [name] * 4, landings
        assert [x["running"] for x in landings] == [running] * 4, landings
        no_errors(page)
        page.context.close()
        script_table(dealer="S", bids={"E": ["take"]})


# ---------------------------------------------------------- accessibility


def test_cards_and_tricks_are_announced_in_a_live_region(
    browser: Browser, web: LiveServer, script_table: Any
) -> None:
    """``#announcer`` (a polite live log) gets each card played and each
    trick won, in words: in the scripted deal, our 10S ends the first trick,
    won by East (25 points); East, North and West play 9H, 8D, 7H."""
    script_table(dealer="S", bids={"E": ["take"]})
    page = new_page(browser, web)
    create_table(web, page, preset="ffb", target=1000, options={"speed": "instant"})
    log = page.locator("#announcer")
    expect(log).to_have_attribute("aria-live", "polite")
    expect(log).to_have_attribute("role", "log")
    wait_my_turn(page)
    # the page may have come after the first cards (a snapshot says none):
    # our card, the trick, then the second trick's first three cards
    page.click("#hand [data-card='10S']")
    page.wait_for_selector("#trick [data-trick-seat='S'][data-card='10S']")
    wait_my_turn(page)
    lines = page.eval_on_selector_all("#announcer p", "ps => ps.map((p) => p.textContent)")
    assert lines[-5:] == [
        "Vous : Dix de pique",
        "Pli 1 remporté par Est (25 points)",
        "Est : Neuf de cœur",
        "Nord : Huit de carreau",
        "Ouest : Sept de cœur",
    ]
    no_errors(page)
    page.context.close()


def test_the_keyboard_reaches_every_control_and_the_hand(
    browser: Browser, web: LiveServer, script_table: Any
) -> None:
    """With Tab alone: the toolbar's buttons (last trick, score sheet,
    settings, menu), then our playable cards; the focus is drawn
    (``:focus-visible``); Enter plays the card, Space opens the settings."""
    script_table(dealer="S", bids={"E": ["take"]})
    page = new_page(browser, web)
    create_table(web, page, preset="ffb", target=1000, options={"speed": "instant"})
    wait_my_turn(page)
    page.evaluate("() => document.activeElement?.blur()")
    reached: list[str] = []
    for _ in range(20):
        page.keyboard.press("Tab")
        info = page.evaluate(
            """() => {
              const a = document.activeElement;
              return {what: a.dataset.card || a.dataset.action || a.dataset.act || a.tagName,
                      card: !!a.closest('#hand'),
                      outline: getComputedStyle(a).outlineStyle,
                      visible: a.matches(':focus-visible')};
            }"""
        )
        reached.append(str(info["what"]))
        assert info["visible"] and info["outline"] != "none", info
        if info["card"]:
            break
    assert reached[:4] == ["last-trick", "sheet", "settings", "menu"], reached
    card = reached[-1]
    assert card == page.locator("#hand button.card:not(:disabled)").first.get_attribute(
        "data-card"
    ), reached
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#trick [data-trick-seat='S'][data-card='{card}']")
    page.focus("[data-action='settings']")
    page.keyboard.press(" ")
    expect(page.locator("#settings")).to_have_attribute("open", "")
    no_errors(page)
    page.context.close()


CONTRAST = "\n".join(
    line
    for line in (Path(__file__).parent / "contrast.js").read_text(encoding="utf-8").splitlines()
    if not line.startswith("//")
)


def low_contrast(page: Page) -> list[dict[str, Any]]:
    """The text shown below WCAG AA's contrast (contrast.js)."""
    found: list[dict[str, Any]] = page.evaluate(CONTRAST)
    return found


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["360x740", "1280x800"])
def test_small_text_has_normal_contrast(
    browser: Browser, web: LiveServer, script_table: Any, size: dict[str, int]
) -> None:
    """Every text shown (small and secondary text included) has a contrast
    of 4.5:1 at least against what is under it (3:1 for large text), on the
    felt's lightest colour: the start page, the table while bidding and
    playing (belote tags, the auction, the status), the settings panel and
    the deal's summary."""
    script_table(dealer="S", bids={"E": ["80H", "pass"], "N": ["coinche"], "W": ["pass"]})
    page = new_page(browser, web, size)
    assert low_contrast(page) == []
    create_table(web, page, preset="coinche", target=3000, options={"speed": "instant"})
    wait_my_turn(page)
    assert low_contrast(page) == []
    page.click("[data-action='settings']")
    assert low_contrast(page) == []
    page.keyboard.press("Escape")
    for _ in range(6):  # past East's belote (trick 5) and rebelote (trick 6)
        wait_my_turn(page)
        page.locator("#hand button.card:not(:disabled)").first.click()
        page.wait_for_function("() => !window.rebelote.model.pending")
    page.wait_for_selector(".tag.belote")
    assert low_contrast(page) == []
    play_deal_first_cards(page)
    page.wait_for_selector("#deal-end[open] table.summary")
    assert low_contrast(page) == []
    no_errors(page)
    page.context.close()


# ----------------------------------------------------------------- settings


def test_settings_reachable_during_a_match(
    browser: Browser, web: LiveServer, script_table: Any, shots: Path
) -> None:
    """The settings panel, from the toolbar and from the menu during the
    match: the card order re-sorts the hand at once, the hint switch marks
    the page (``body[data-hint]``), the trick's time is kept, the language
    switches the table; each is kept in this browser."""
    script_table(dealer="S", bids={"E": ["take"]})
    page = new_page(browser, web, PHONE)
    create_table(web, page, preset="ffb", target=1000, options={"speed": "fast"})
    wait_my_turn(page)
    hand = page.eval_on_selector_all("#hand button.card", "bs => bs.map((b) => b.dataset.card)")
    page.click("[data-action='menu']")
    page.click("#menu [data-action='settings']")
    dialog = page.locator("#settings")
    expect(dialog).to_have_attribute("open", "")
    expect(page.locator("#settings-speed")).to_have_text(
        "Les joueurs de l'ordinateur jouent à la vitesse choisie avec la partie : Rapide."
    )
    expect(dialog.locator("[data-setting='pace']")).to_have_value("normal")
    expect(dialog.locator("[data-setting='cardOrder']")).to_have_value("trump")
    expect(dialog.locator("[data-setting='hint']")).to_be_checked()
    expect(page.locator("body")).to_have_attribute("data-hint", "on")
    # on a phone the panel fits: nothing wider than the dialog
    assert page.evaluate(
        "() => { const d = document.querySelector('#settings');"
        " return d.scrollWidth <= d.clientWidth; }"
    )
    page.screenshot(path=str(shots / "settings-360x740.png"))
    # the hand, weakest first
    dialog.locator("[data-setting='cardOrder']").select_option("ascending")
    again = page.eval_on_selector_all("#hand button.card", "bs => bs.map((b) => b.dataset.card)")
    suits = [c[-1] for c in hand]
    order = list(dict.fromkeys(suits))
    by_suit = [[c for c in hand if c[-1] == s][::-1] for s in order]
    assert again == [c for group in by_suit for c in group], (hand, again)
    dialog.locator("[data-setting='hint']").uncheck()
    expect(page.locator("body")).to_have_attribute("data-hint", "off")
    dialog.locator("[data-setting='pace']").select_option("slow")
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('rebelote.settings'))")
    assert saved == {"cardOrder": "ascending", "hint": False, "pace": "slow"}
    assert page.evaluate("async () => (await import('/js/settings.js')).trickHold()") == 1600
    dialog.locator("[data-setting='lang']").select_option("en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    expect(page.locator("[data-score='NS'] .side")).to_have_text("Us")
    expect(dialog.locator("#settings-title")).to_have_text("Settings")
    page.click("#settings [data-action='close']")
    expect(dialog).not_to_have_attribute("open", "")
    no_errors(page)
    page.context.close()


def test_last_trick_button_is_a_trick(browser: Browser, web: LiveServer, script_table: Any) -> None:
    """The last-trick button is drawn as three cards (no reload arrow); it
    shows the last trick."""
    script_table(dealer="S", bids={"E": ["take"]})
    page = new_page(browser, web)
    create_table(web, page, preset="ffb", target=1000, options={"speed": "instant"})
    button = page.locator(".tools [data-action='last-trick']")
    expect(button).to_have_attribute("aria-label", "Dernier pli")
    assert button.locator("svg.trick-icon rect").count() == 3
    wait_my_turn(page)
    page.click("#hand [data-card='10S']")
    page.wait_for_function("() => window.rebelote.model.lastTrick")
    button.click()
    cards = page.eval_on_selector_all(
        "#last-trick [data-last-seat]",
        "els => els.map((e) => [e.dataset.lastSeat, e.dataset.card])",
    )
    assert cards == [["E", "AS"], ["N", "9S"], ["W", "KS"], ["S", "10S"]]
    no_errors(page)
    page.context.close()


def test_score_explained_ffb_coinche_rounding(
    browser: Browser, web: LiveServer, script_table: Any, shots: Path
) -> None:
    """The FFB's coinche (``ffb-coinche``): we bid 80 hearts (the others
    pass), declare our tierce and say belote; the score of the deal with
    its rounding line (FFB coinche 2015, 10.2), exactly."""
    script_table(dealer="S")
    page = new_page(browser, web, DESKTOP)
    create_table(web, page, preset="ffb-coinche", target=2000, options={"speed": "instant"})
    wait_my_turn(page)
    page.click("#actions [data-bid='80H']")
    play_deal_first_cards(page)
    page.wait_for_selector("#deal-end[open] table.summary")
    # hearts trump; S holds A K Q of hearts (a tierce, 20, and the belote);
    # the tricks (the same with East taking, counted by hand): 9S 8D 7S 10S
    # S 10; AH 9H 9D 7H E 25; JS QD 8S QS S 8; KH 10H AD KS E 29; AS 9C 10D
    # QH S 24; 8H JH QC KD E 27; 7D KC 8C JD S 6; 7C 10C AC JC N 23 and the
    # dix de der: NS 71 + 10 + 20 + 20 = 121 against 81, the contract is
    # made: NS 80 + 101 + 20 = 201, EW 81, each rounded to 200 and 80
    expect(page.locator("#deal-end .summary-sentence")).to_have_text(
        "Contrat de 80 réussi : le preneur (Nous) fait 121 points contre 81, et le contrat"
        " lui rapporte 80 de plus. Chaque score est arrondi à la dizaine."
    )
    assert summary_rows(page) == [
        ["", "Nous", "Eux"],
        ["Points des plis", "71", "81"],
        ["Dix de der", "10", ""],
        ["Annonces", "20 Tierce A", ""],
        ["Belote", "20", ""],
        ["Points faits", "121", "81"],
        ["Contrat", "80 par Vous — réussi"],
        ["Contrat de 80", "80", ""],
        ["Points faits, hors belote", "101", "81"],
        ["Belote", "20", ""],
        ["Arrondi à la dizaine", "\u22121", "\u22121"],
        ["Points marqués", "+200", "+80"],
        ["Total", "200", "80"],
    ]
    page.screenshot(path=str(shots / "deal-end-ffb-coinche-1280x800.png"))
    no_errors(page)
    page.context.close()
