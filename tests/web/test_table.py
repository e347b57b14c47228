"""The browser table, driven in Debian's Chromium by Playwright: a whole
match through "Rematch" by clicking, a deal with the keyboard alone, at
360 x 740 and at 1280 x 800; the start page, the rules help, the
three-player layout, seed 000's cut and deal choices, the coinche auction,
reconnecting after a dropped connection, and the page's timings."""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from server.live import LiveServer

from .conftest import DESKTOP, PHONE
from .driver import Driver, is_card

SIZES = [pytest.param(PHONE, id="360x740"), pytest.param(DESKTOP, id="1280x800")]


def open_page(
    browser: Browser, web: LiveServer, size: dict[str, int], prefs: dict[str, Any] | None = None
) -> Page:
    """A page on the start page; ``prefs`` pre-fill the new-match dialog."""
    ctx = browser.new_context(viewport={"width": size["width"], "height": size["height"]})
    page = ctx.new_page()
    errors = ERRORS.setdefault(id(page), [])
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    if prefs is not None:
        page.add_init_script(
            f"localStorage.setItem('rebelote.prefs', {json.dumps(json.dumps(prefs))})"
        )
    page.goto(web.url + "/")
    page.wait_for_selector("body[data-ready='start']")
    return page


ERRORS: dict[int, list[str]] = {}


def no_errors(page: Page) -> None:
    """No script error and no console error on the page."""
    errors = ERRORS.pop(id(page), [])
    assert not errors, errors


def start_by_clicking(page: Page, *, preset: str, target: int, speed: str = "fast") -> None:
    page.click("[data-action='new']")
    page.wait_for_selector("#new-game[open]")
    page.check(f"input[data-preset='{preset}']")
    page.fill("input[name='target']", str(target))
    page.fill("input[name='name']", "Ada")
    page.select_option("select[name='speed']", speed)
    page.click("[data-action='start']")
    page.wait_for_selector("#table-page[data-ready='1']")


def create_table(web: LiveServer, page: Page, **body: Any) -> str:
    """A table made through the REST API; the page then opens it."""
    r = httpx.post(web.url + "/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    created = r.json()
    page.evaluate(
        "([id, token]) => localStorage.setItem('rebelote.tables', JSON.stringify({[id]: token}))",
        [created["table_id"], created["token"]],
    )
    page.goto(f"{web.url}/#/table/{created['table_id']}")
    page.wait_for_selector("#table-page[data-ready='1']")
    return str(created["table_id"])


def wait_deal_played(driver: Driver, steps: int = 200) -> list[str]:
    """Click through one deal (until its summary shows); returns the actions."""
    done: list[str] = []
    for _ in range(steps):
        if driver.wait_decision() == "dialog":
            return done
        done.append(driver.click_step())
    raise AssertionError("the deal did not end")


# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "target"),
    [pytest.param(PHONE, 100, id="360x740"), pytest.param(DESKTOP, 210, id="1280x800")],
)
def test_match_through_rematch_by_clicking(
    browser: Browser, web: LiveServer, shots: Path, size: dict[str, int], target: int
) -> None:
    """A short match (a low target: one or two deals) played by clicking,
    then "Rematch" starts a new one."""
    page = open_page(browser, web, size)
    tag = f"{size['width']}x{size['height']}"
    page.screenshot(path=str(shots / f"start-{tag}.png"))
    start_by_clicking(page, preset="ffb", target=target)
    driver = Driver(page)
    shot_taken = False
    ended = False
    for _ in range(600):
        s = driver.state() if page.locator("#deal-end[open]").count() == 0 else None
        if not shot_taken and s is not None and s["phase"] == "playing" and len(s["hand"]) <= 6:
            page.wait_for_timeout(300)
            page.screenshot(path=str(shots / f"table-{tag}.png"))
            shot_taken = True
        if page.locator("#deal-end[data-over='true'][open]").count():
            page.wait_for_selector("#deal-end [data-act='rematch']")
            if not ended:
                page.screenshot(path=str(shots / f"match-end-{tag}.png"))
                ended = True
                sheet = page.locator("#deal-end table.sheet tbody tr")
                assert sheet.count() >= 1
                winner = page.evaluate("() => window.rebelote.model.match.winner")
                assert winner in ("NS", "EW")
            page.click("#deal-end [data-act='rematch']")
            page.wait_for_selector("#table-page[data-match='2']")
            page.wait_for_function("() => window.rebelote.model.deal.hand.length > 0")
            assert not page.locator("#deal-end[open]").count()
            assert page.locator("[data-score='NS'] .points").inner_text() == "0"
            break
        driver.click_step()
    else:
        raise AssertionError("the match did not end")
    assert ended and shot_taken
    assert driver.clicks, "no card was played by clicking"
    no_errors(page)
    page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_one_deal_with_the_keyboard_only(
    browser: Browser, web: LiveServer, shots: Path, size: dict[str, int]
) -> None:
    prefs = {"preset": "ffb", "target": 2000, "speed": "fast", "auto_play_forced": False}
    page = open_page(browser, web, size, prefs)
    driver = Driver(page)
    # The start page's "New match" has the focus; the dialog opens on the
    # name field, and Enter submits it.
    driver.press("Enter")
    page.wait_for_selector("#new-game[open]")
    page.keyboard.type("Kim")
    driver.press("Enter")
    page.wait_for_selector("#table-page[data-ready='1']")
    cards = 0
    for _ in range(200):
        if driver.wait_decision() == "dialog":
            break
        act = driver.key_step()
        if is_card(act):
            cards += 1
    else:
        raise AssertionError("the deal did not end")
    page.wait_for_selector("#deal-end-buttons [data-act='next']")
    result = page.evaluate("() => window.rebelote.model.summary.result")
    if result not in ("passed", "cancelled"):
        assert cards == 8, "every card of the hand was played with the keyboard"
    page.screenshot(path=str(shots / f"deal-end-{size['width']}x{size['height']}.png"))
    driver.key_step()  # Enter on "Next deal"
    page.wait_for_selector("#table-page[data-deal='2']")
    assert page.evaluate("() => document.querySelector('#deal-end').open") is False
    no_errors(page)
    page.context.close()


PRESET_NAMES_FR = [
    "Belote classique (FFB)",
    "Belote sans annonces",
    "Belote avec tour d'annonces",
    "Tout atout / Sans atout",
    "Belote à annoncer",
    "Le donneur entame, en 501",
    "Annonces automatiques, en 501",
    "Coinche",
    "Belote à trois",
    "Belote à deux",
    "Coinche, règles FFB",
]
PRESET_NAMES_EN = [
    "Classic belote (FFB)",
    "Belote without declarations",
    "Belote with a declaration turn",
    "All trumps / No trump",
    "Belote must be said",
    "The dealer leads, to 501",
    "Automatic declarations, to 501",
    "Coinche",
    "Three-player belote",
    "Two-player belote",
    "Coinche, FFB rules",
]


def test_preset_names_in_the_page_language(browser: Browser, web: LiveServer) -> None:
    """The new-match dialog and the start page name each preset from the
    server's ``title`` (the name a player understands), in the page's
    language: never « règles 001 » nor a preset's key."""
    page = open_page(browser, web, DESKTOP)
    titles = [p["title"] for p in httpx.get(web.url + "/api/presets").json()]
    assert titles[4] == "belote-said"
    page.click("[data-action='new']")
    page.wait_for_selector("#new-game[open]")
    names = page.locator("#preset-choices .preset-text > b")
    assert names.all_inner_texts() == PRESET_NAMES_FR
    help_seed001 = page.locator("#preset-choices [data-help='seed001']")
    assert help_seed001.get_attribute("aria-label") == "Règles : Belote à annoncer"
    assert page.locator("#preset-list li b").all_inner_texts() == PRESET_NAMES_FR
    page.click("#new-game [data-action='cancel-new']")
    page.evaluate(
        "async () => { const i18n = await import('/js/i18n.js'); await i18n.setLang('en'); }"
    )
    page.click("[data-action='new']")
    page.wait_for_selector("#new-game[open]")
    assert page.locator("#preset-choices .preset-text > b").all_inner_texts() == PRESET_NAMES_EN
    # a table's rules as the server gives them (the lobby's and the history's
    # rooms), and older data that names the preset by its key alone
    names = page.evaluate(
        """async () => {
          const labels = await import('/js/labels.js');
          return [
            labels.presetName({preset: 'seed001', title: 'belote-said'}),
            labels.presetName({preset: 'seed003', title: 'auto-declarations-501'}),
            labels.presetName('seed002'),
            labels.presetName({name: 'seed000'}),
            labels.presetName({preset: 'house', title: 'house'}),
          ];
        }"""
    )
    assert names == [
        "Belote must be said",
        "Automatic declarations, to 501",
        "The dealer leads, to 501",
        "Belote with a declaration turn",
        "house",
    ]
    no_errors(page)
    page.context.close()


def test_start_page_continue_and_rules_help(browser: Browser, web: LiveServer, shots: Path) -> None:
    page = open_page(browser, web, PHONE)
    assert page.locator("[data-action='continue']").is_hidden()
    page.click("[data-action='new']")
    page.wait_for_selector("#new-game[open]")
    page.screenshot(path=str(shots / "new-game-360x740.png"))
    # each preset has its help page, from the dialog
    presets = page.locator("#preset-choices [data-help]")
    assert presets.count() == len(httpx.get(web.url + "/api/presets").json())
    page.click("#preset-choices [data-help='coinche']")
    page.wait_for_selector("#help[open][data-preset='coinche']")
    assert page.locator("#help-lines li").count() > 5
    assert "coinche" in page.locator("#help-lines").inner_text().lower()
    page.screenshot(path=str(shots / "help-360x740.png"))
    page.click("#help [data-action='close']")
    # the three-player preset offers two computer seats
    page.check("input[data-preset='three-players']")
    assert page.locator("#level-fields select").count() == 2
    assert page.input_value("input[name='target']") == "1000"
    page.check("input[data-preset='ffb']")
    assert page.locator("#level-fields select").count() == 3
    page.fill("input[name='target']", "300")
    page.select_option("select[data-level='N']", "intermediate")
    page.select_option("select[name='speed']", "fast")
    page.click("[data-action='start']")
    page.wait_for_selector("#table-page[data-ready='1']")
    page.wait_for_function("() => window.rebelote.model.deal.hand.length > 0")
    hand = page.evaluate("() => window.rebelote.model.deal.hand.slice().sort()")
    assert "intermediate" in json.dumps(page.evaluate("() => window.rebelote.model.table.seats"))
    # back to the start page: "Continue your match" brings the same table back
    page.goto(web.url + "/")
    page.wait_for_selector("[data-action='continue']:visible")
    page.click("[data-action='continue']")
    page.wait_for_selector("#table-page[data-ready='1']")
    again = page.evaluate("() => window.rebelote.model.deal.hand.slice().sort()")
    assert set(again) <= set(hand) or len(again) > len(hand)
    # English labels on demand
    page.click("[data-action='menu']")
    page.click("[data-action='lang-toggle']")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert "Us" in page.locator("[data-score='NS']").inner_text()
    no_errors(page)
    page.context.close()


def test_three_players_layout(browser: Browser, web: LiveServer, shots: Path) -> None:
    page = open_page(browser, web, PHONE)
    create_table(web, page, preset="three-players", target=100, options={"speed": "instant"})
    driver = Driver(page)
    page.wait_for_function("() => window.rebelote.model.deal.hand.length > 0")
    assert page.locator(".seat[data-pos='top']").is_hidden()
    assert page.locator(".seat[data-seat='W']").is_visible()
    assert page.locator(".seat[data-seat='E']").is_visible()
    assert page.locator("[data-score]").count() == 3
    shot = False
    for _ in range(200):
        if driver.wait_decision() == "dialog":
            break
        s = driver.state()
        if not shot and s["phase"] == "playing" and len(s["hand"]) <= 6:
            page.wait_for_timeout(400)  # the last card lands
            page.screenshot(path=str(shots / "three-players-360x740.png"))
            shot = True
        driver.click_step()
    page.wait_for_selector("#deal-end-buttons [data-act]")
    head = page.locator("#deal-end table.summary thead th").all_inner_texts()
    assert len(head) == 4, head  # the row labels and three players
    no_errors(page)
    page.context.close()


@pytest.mark.parametrize(
    "size", [pytest.param(PHONE, id="360x740"), pytest.param(DESKTOP, id="1280x800")]
)
def test_two_players_layout_and_a_whole_match(
    browser: Browser, web: LiveServer, shots: Path, size: dict[str, int]
) -> None:
    """RULES.md "Two players": the opponent (W) faces the player at the top,
    no side seats; a whole match to 100 played by clicking ends with a
    winner, W or S."""
    page = open_page(browser, web, size)
    create_table(web, page, preset="two-players", target=100, options={"speed": "instant"})
    driver = Driver(page)
    page.wait_for_function("() => window.rebelote.model.deal.hand.length > 0")
    assert page.locator(".seat[data-pos='top'][data-seat='W']").is_visible()
    assert page.locator(".seat[data-pos='left']").is_hidden()
    assert page.locator(".seat[data-pos='right']").is_hidden()
    assert page.locator("[data-score]").count() == 2
    assert page.locator("#table-page.two").count() == 1
    tag = f"{size['width']}x{size['height']}"
    shot = False
    for _ in range(800):
        if page.locator("#deal-end[data-over='true'][open]").count():
            break
        if page.locator("#deal-end[open]").count() == 0:
            s = driver.state()
            if not shot and s["phase"] == "playing" and len(s["hand"]) <= 6:
                page.wait_for_timeout(300)
                page.screenshot(path=str(shots / f"two-players-{tag}.png"))
                shot = True
        driver.click_step()
    else:
        raise AssertionError("the match did not end")
    winner = page.evaluate("() => window.rebelote.model.match.winner")
    assert winner in ("W", "S")
    no_errors(page)
    page.context.close()


def test_seed000_cut_pattern_and_declarations(browser: Browser, web: LiveServer) -> None:
    page = open_page(browser, web, DESKTOP)
    create_table(
        web,
        page,
        preset="seed000",
        target=3000,
        options={"speed": "instant", "player_cuts": True, "player_chooses_pattern": True},
    )
    driver = Driver(page)
    seen: set[str] = set()
    for _deal in range(8):
        for act in wait_deal_played(driver):
            seen.add(act.split(" ")[0])
        if {"cut", "deal"} <= seen:
            break
        page.click("#deal-end [data-act='next']")
    assert "cut" in seen and "deal" in seen, seen
    no_errors(page)
    page.context.close()


def test_coinche_auction(browser: Browser, web: LiveServer) -> None:
    page = open_page(browser, web, PHONE)
    create_table(web, page, preset="coinche", target=3000, options={"speed": "instant"})
    driver = Driver(page)
    driver.wait_decision()
    for _ in range(40):
        s = driver.state()
        if s["phase"] == "bidding" and any(
            a[0].isdigit() or a.startswith("capot") for a in s["acts"]
        ):
            break
        driver.click_step(prefer_take=False)
        driver.wait_decision()
    else:
        pytest.skip("no auction turn came in this deal")
    # the value stepper shows the bids of one value; "+" moves to the next one
    first = page.locator("#actions [data-bid].suit-bid").first.get_attribute("data-bid")
    assert first is not None
    if page.locator("#actions [data-step='up']:disabled").count():
        pytest.skip("only one contract value is left to bid")
    page.click("#actions [data-step='up']")
    second = page.locator("#actions [data-bid].suit-bid").first.get_attribute("data-bid")
    assert second is not None and second != first
    page.click(f"#actions [data-bid='{second}']")
    page.wait_for_function(
        "(bid) => window.rebelote.model.deal.bids.some((b) => b.seat === 'S' && b.bid === bid)",
        arg=second,
    )
    no_errors(page)
    page.context.close()


def test_reconnects_after_a_dropped_connection(browser: Browser, web: LiveServer) -> None:
    page = open_page(browser, web, DESKTOP)
    create_table(web, page, preset="ffb", target=1000, options={"speed": "instant"})
    driver = Driver(page)
    driver.click_step()
    before = page.evaluate("() => window.rebelote.conn.lastV")
    page.evaluate("() => window.rebelote.conn.ws.close()")
    page.wait_for_function(
        "(v) => window.rebelote.conn.ws && window.rebelote.conn.ws.readyState === 1"
        " && window.rebelote.conn.lastV >= v",
        arg=before,
    )
    for _ in range(6):
        driver.click_step()
    assert page.evaluate("() => window.rebelote.conn.lastV") > before
    # a reload resumes the same table from a snapshot
    page.reload()
    page.wait_for_selector("#table-page[data-ready='1']")
    driver.click_step()
    no_errors(page)
    page.context.close()


def test_timings(browser: Browser, web: LiveServer, shots: Path) -> None:
    """Page load (navigation to the table drawn) and click to card on the
    table, measured with the page's performance timeline; written to
    ``timings.json`` beside the screenshots."""
    page = open_page(browser, web, DESKTOP)
    table_id = create_table(web, page, preset="ffb", target=2000, options={"speed": "instant"})
    loads = []
    for _ in range(3):
        start = time.perf_counter()
        page.goto(f"{web.url}/#/table/{table_id}")
        page.reload()
        page.wait_for_selector("#table-page[data-ready='1']")
        outside = (time.perf_counter() - start) * 1000
        nav = page.evaluate(
            """() => {
              const n = performance.getEntriesByType('navigation')[0];
              const t = performance.getEntriesByName('rb:table-rendered')[0];
              return {
                dcl: n.domContentLoadedEventEnd,
                load: n.loadEventEnd,
                table: t ? t.startTime : null,
              };
            }"""
        )
        loads.append({**nav, "outside": outside})
    driver = Driver(page)
    for _ in range(200):
        if len(driver.clicks) >= 8 or driver.wait_decision() == "dialog":
            break
        driver.click_step()
    assert driver.clicks
    figures = {
        "page_load_ms": {
            "dom_content_loaded": round(statistics.median(x["dcl"] for x in loads), 1),
            "load_event": round(statistics.median(x["load"] for x in loads), 1),
            "table_rendered": round(statistics.median(x["table"] for x in loads), 1),
            "seen_by_test": round(statistics.median(x["outside"] for x in loads), 1),
        },
        "click_to_card_ms": {
            "cards": len(driver.clicks),
            "median_in_page": round(statistics.median(driver.clicks), 1),
            "max_in_page": round(max(driver.clicks), 1),
            "median_with_animation": round(statistics.median(driver.animations), 1)
            if driver.animations
            else None,
            "median_seen_by_test": round(statistics.median(driver.outside), 1),
        },
    }
    (shots / "timings.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(figures))
    assert figures["page_load_ms"]["table_rendered"] < 5000
    assert figures["click_to_card_ms"]["median_in_page"] < 1000
    no_errors(page)
    page.context.close()


def test_belote_choice_asks_the_player(browser: Browser, web: LiveServer) -> None:
    """Seed 001: a card of ``turn.belote_choice`` is played only after the
    player says whether he announces belote; each answer's button carries,
    and sends as it is, the core's one notation of the choice (``QH
    belote``, ``QH no-belote``: ``State.parse_action`` reads both).  The
    choice is given to the page by hand and what the page sends is caught
    before the server (which would refuse a belote word on a card that
    makes none); the rest is the real table."""
    page = open_page(browser, web, DESKTOP)
    create_table(web, page, preset="seed001", target=1000, options={"speed": "instant"})
    driver = Driver(page)
    for _ in range(60):
        driver.wait_decision()
        if driver.state()["enabled"]:
            break
        driver.click_step()
    else:
        raise AssertionError("no card to play came")
    card = page.evaluate(
        """() => {
          const app = window.rebelote;
          const card = app.model.turn.legal.find((a) => /^(10|[789JQKA])[SHDC]$/.test(a));
          app.model.turn = {...app.model.turn, belote_choice: [card]};
          app.sent = [];
          app.conn.send = (msg) => { app.sent.push(msg); return true; };
          app.view.render(app.model);
          return card;
        }"""
    )
    session, actions, version = page.evaluate(
        "() => [window.rebelote.session, window.rebelote.actions, window.rebelote.appliedV]"
    )
    for answer, text in (("no", f"{card} no-belote"), ("yes", f"{card} belote")):
        page.click(f'#hand [data-card="{card}"]')
        page.wait_for_selector('#actions [data-belote="yes"]')
        assert "Belote" in page.locator("#actions").inner_text()
        assert page.evaluate("() => window.rebelote.sent.length") == 0  # nothing sent yet
        yes = page.locator('#actions [data-belote="yes"]')
        no = page.locator('#actions [data-belote="no"]')
        assert (yes.get_attribute("data-act"), no.get_attribute("data-act")) == (
            f"{card} belote",
            f"{card} no-belote",
        )
        page.click(f'#actions [data-belote="{answer}"]')
        # the act: the text of the choice, its id (this page's next one) and
        # the version it was chosen at
        actions += 1
        act = {"action": text, "id": f"{session}-{actions}"}
        assert page.evaluate("() => window.rebelote.sent") == [{"t": "act", "d": act, "v": version}]
        page.evaluate(
            """() => {
              const app = window.rebelote;
              app.sent = [];
              app.model.pending = false;
              app.inflight = null;
              app.view.render(app.model);
            }"""
        )
    no_errors(page)
    page.context.close()
