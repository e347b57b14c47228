"""Issue 16 as a fresh reviewer tried it (Debian's Chromium driven by
Playwright): after a match against the computer, its replay with the
expert's analysis opens from the end-of-match dialog and from the start
page's list; while a finished trick is still on the table, the status
describes that trick (never someone "thinking" who already played in it),
and it is never blank once the deal goes on; during the cut it says who
cuts; the takeback button is greyed when the server says there is nothing
to take back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser

from server.live import LiveServer

from .conftest import DESKTOP, PHONE
from .driver import Driver
from .test_during_the_deal import new_page, play_deal_first_cards, summary_rows, wait_my_turn
from .test_table import create_table, no_errors, open_page

_RECORD = """() => {
  window.__states = [];
  const note = () => {
    const m = window.rebelote.model;
    window.__states.push({
      status: document.querySelector('#status').textContent,
      cards: document.querySelectorAll('#trick [data-trick-seat]').length,
      winner: m && m.deal ? m.deal.trickWinner : null,
      phase: m && m.turn ? m.turn.phase : null,
      waiting: m && m.turn ? m.turn.waiting : null,
    });
  };
  const obs = new MutationObserver(note);
  for (const sel of ['#status', '#trick']) {
    obs.observe(document.querySelector(sel),
      { childList: true, subtree: true, characterData: true, attributes: true });
  }
  note();
}"""


def test_the_end_of_the_match_opens_its_analysis(
    browser: Browser, web: LiveServer, shots: Path
) -> None:
    """A one-deal match (ffb-no-declarations, target 1): the end-of-match
    dialog's ``[data-action="analysis"]`` opens the replay with the
    analysis; the start page then lists the match, its link opening the
    same."""
    page = open_page(browser, web, PHONE)
    table_id = create_table(
        web, page, preset="ffb-no-declarations", target=1, options={"speed": "instant"}
    )
    driver = Driver(page)
    for _ in range(300):
        if page.locator("#deal-end[data-over='true'][open]").count():
            break
        driver.click_step()
    else:
        raise AssertionError("the match did not end")
    button = page.locator('#deal-end [data-action="analysis"]')
    assert button.inner_text() == "Revoir la partie / analyse de l'expert"
    button.click()
    page.wait_for_selector("#table-page[data-mode='replay'][data-ready='1']")
    page.wait_for_selector("#analysis[open]")
    assert page.evaluate("location.hash") == f"#/replay/{table_id}/1/analysis"
    page.wait_for_selector("#analysis:is([data-status='running'], [data-status='done'])")
    # made, it fits the phone's width: no table wider than its box, the
    # values before and after and the best cards on screen
    page.wait_for_selector("#analysis[data-status='done']", timeout=240_000)
    page.wait_for_selector("#analysis tr[data-card]")
    widths = page.eval_on_selector_all(
        "#analysis .table-wrap, #analysis",
        "els => els.map((e) => [e.scrollWidth, e.clientWidth])",
    )
    assert widths and all(scroll <= client for scroll, client in widths), widths
    head = page.locator("#analysis table.analysis-cards th.narrow")
    box = head.bounding_box()
    assert head.inner_text() == "Avant → après" and box is not None
    assert box["x"] + box["width"] <= 360
    assert page.locator("#analysis table.analysis-cards th.wide").first.is_hidden()
    # one minus sign: U+2212 in every cost and value, never a hyphen
    texts = page.eval_on_selector_all(
        "#analysis table.analysis-cards td.num", "tds => tds.map((td) => td.innerText)"
    )
    assert not [x for x in texts if "-" in x], texts
    rounds = page.eval_on_selector_all(
        "#analysis tr[data-bid]", "trs => trs.map((tr) => tr.children[0].innerText)"
    )
    assert rounds and set(rounds) <= {"1", "2"}, rounds
    page.screenshot(path=str(shots / "review16-analysis-from-dialog-360x740.png"))
    # the start page lists it, and its link opens the same
    page.goto(web.url + "/")
    page.wait_for_selector("#recent-matches:not([hidden])")
    link = page.locator(f'#recent-list a[data-recent="{table_id}"]')
    assert link.count() == 1
    assert link.get_attribute("href") == f"#/replay/{table_id}/1/analysis"
    link.click()
    page.wait_for_selector("#analysis[open]")
    no_errors(page)
    page.context.close()


def test_a_held_trick_is_what_the_status_says(browser: Browser, web: LiveServer) -> None:
    """The computer players at ``normal`` speed (0.9 s) and the trick held
    0.4 s (pace ``fast``): the trick used to stay on the table after the
    hold while the status said its winner was "thinking".  Every state the
    page shows over a whole deal: four cards on the table go with "Pli
    remporté par <winner>", and the status is never blank while the deal
    is played."""
    page = open_page(browser, web, DESKTOP)
    page.evaluate("localStorage.setItem('rebelote.settings', JSON.stringify({pace: 'fast'}))")
    create_table(web, page, preset="ffb-no-declarations", target=1000, options={"speed": "normal"})
    page.evaluate(_RECORD)
    driver = Driver(page)
    for _ in range(100):
        if driver.wait_decision() == "dialog":
            break
        driver.click_step()
    else:
        raise AssertionError("the deal did not end")
    states = page.evaluate("window.__states")
    names = {"N": "Nord", "E": "Est", "W": "Ouest", "S": "Vous"}
    # (the fourth card is drawn a moment before the server's trick event:
    # then the status says who played it)
    full = [s for s in states if s["cards"] == 4 and s["phase"] == "playing" and s["winner"]]
    assert len(full) >= 7  # at least the first seven tricks were seen held
    for s in full:
        assert s["status"] == f"Pli remporté par {names[s['winner']]}", s
    blank = [s for s in states if s["phase"] in ("bidding", "playing") and not s["status"]]
    assert blank == []
    assert not [s for s in states if "réfléchit" in s["status"] and s["cards"] == 4]
    no_errors(page)
    page.context.close()


def test_the_cut_and_the_takeback_button(browser: Browser, web: LiveServer) -> None:
    """At the deal's start S has nothing to take back: the button is greyed
    (the server's ``turn.takeback``); during the cut the status says who
    cuts, never "Carte forcée"."""
    page = open_page(browser, web, DESKTOP)
    page.add_init_script(
        "localStorage.setItem('rebelote.settings', JSON.stringify({pace: 'slow'}))"
    )
    create_table(web, page, preset="ffb", target=1000, options={"speed": "slow"})
    page.wait_for_selector("#table-page[data-phase='cut']", timeout=10_000)
    status = page.locator("#status").inner_text()
    assert status.endswith("coupe le jeu…") or status == "Vous coupez le jeu…", status
    assert "forcée" not in status
    page.wait_for_selector('[data-action="takeback"]')
    assert page.locator('[data-action="takeback"]').is_disabled()
    driver = Driver(page)
    assert driver.wait_decision() == "table"
    assert page.locator('[data-action="takeback"]').is_disabled()
    no_errors(page)
    page.context.close()


def test_the_takers_declarations_are_not_the_defences(
    browser: Browser, web: LiveServer, script_table: Any
) -> None:
    """``ffb-coinche``, we bid 80 hearts and East coinches (the coinche
    multiplies the whole deal): our tierce scores on our side under the
    label "Annonces", never "Annonces de la défense" (the same deal as
    test_during_the_deal's rounding test, NS making 121 to 81)."""
    script_table(dealer="S", bids={"E": ["pass", "coinche"]})
    page = new_page(browser, web, DESKTOP)
    create_table(web, page, preset="ffb-coinche", target=2000, options={"speed": "instant"})
    wait_my_turn(page)
    page.click("#actions [data-bid='80H']")
    play_deal_first_cards(page)
    page.wait_for_selector("#deal-end[open] table.summary")
    rows = summary_rows(page)
    scored = page.eval_on_selector_all(
        "#deal-end tr[data-scored='declarations']",
        "trs => trs.map((tr) => [...tr.children].map((c) => c.innerText.trim()))",
    )
    assert scored == [["Annonces", "20", ""]], rows
    assert not [r for r in rows if "défense" in r[0]], rows
    no_errors(page)
    page.context.close()


def test_the_computers_speed_from_the_settings(browser: Browser, web: LiveServer) -> None:
    """During a match against the computer the settings change the
    computer players' speed (the server stores it: a reload still shows
    it)."""
    page = open_page(browser, web, DESKTOP)
    create_table(web, page, preset="ffb", target=1000, options={"speed": "slow"})
    page.click('[data-action="settings"]')
    page.wait_for_selector("#settings[open]")
    select = page.locator('#settings [data-table-setting="speed"]')
    assert select.is_visible() and select.input_value() == "slow"
    assert page.locator("#settings-speed").is_hidden()
    select.select_option("fast")
    page.wait_for_function("() => window.rebelote.model.table.options.speed === 'fast'")
    page.reload()
    page.wait_for_selector("#table-page[data-ready='1']")
    page.click('[data-action="settings"]')
    page.wait_for_selector("#settings[open]")
    assert page.locator('#settings [data-table-setting="speed"]').input_value() == "fast"
    no_errors(page)
    page.context.close()
