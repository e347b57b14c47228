"""The network play pages in a real browser: two Playwright contexts (two
people) meet in the lobby, sit at one table with two computer players (at
the main table, ``/#/table/ID``; a spectator at ``/#/watch/ID``), chat
(HTML stays text) and play a deal by clicking.

Debian's Chromium (``/usr/bin/chromium``) is driven by Playwright (never
``playwright install``); without it the test skips, except in CI
(``CI=true``), where ``.ci/run`` installs it."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from rebelote.server.app import WEB_DIR

from .live import LiveServer

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext

CARD = re.compile(r"^(10|[789JQKA])[SHDC]$")
REMEMBER = "([id, t]) => localStorage.setItem('rebelote.tables', JSON.stringify({[id]: t}))"
"""Keep a seat's token where the table page looks for it."""
ENGLISH = "localStorage.setItem('rebelote.lang', 'en')"
"""An init script: the pages in English (French is the default)."""


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    """The whole app, pages included, on a fresh database; computer players
    act after 50 ms.  The browser is ``tests/conftest.py``'s."""
    with LiveServer(
        f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0.05, static_dir=WEB_DIR
    ) as server:
        yield server


def _context(
    browser: Browser, *, english: bool = False, width: int = 1280, height: int = 900
) -> BrowserContext:
    """A person's browser (cookies and storage of its own); the pages in
    English when ``english`` (French is the default)."""
    ctx = browser.new_context(viewport={"width": width, "height": height})
    if english:
        ctx.add_init_script(ENGLISH)
    return ctx


def _guest_login(page: Any, name: str) -> None:
    """Play as a guest named ``name``, from the lobby page open in ``page``."""
    form = page.locator('form[data-form="guest"]')
    form.locator('input[name="name"]').fill(name)
    form.locator("button").click()


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


def test_two_people_chat_and_play_a_deal_in_the_browser(
    browser: object, live: LiveServer, shots: Path
) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    # this test reads the English labels
    ana_ctx, bob_ctx = _context(browser, english=True), _context(browser, english=True)
    ana, bob = ana_ctx.new_page(), bob_ctx.new_page()
    for page, name in ((ana, "Ana"), (bob, "Bob")):
        page.goto(live.url + "/lobby.html")
        _guest_login(page, name)
        expect(page.locator(".topnav .who")).to_contain_text(name)
    # Ana opens a public table at S
    ana.locator('#create-form input[name="name"]').fill("Ana's friendly")
    ana.locator('#create-form select[name="preset"]').select_option("ffb")
    ana.locator('#create-form input[name="target"]').fill("300")
    ana.locator("#create-form button[type=submit]").click()
    expect(ana.locator("#room-view h2")).to_contain_text("Ana's friendly")
    # the preset's description gives the table's own target, not the preset's 1000
    expect(ana.locator("#room-view")).to_contain_text("litige on a tie, 300 points.")
    expect(ana.locator("#room-view")).not_to_contain_text("1000 points")
    # Bob finds it in the lobby and sits at N
    bob.reload()
    bob.locator("button[data-join$=':N']").first.click()
    # guests' names are marked (guest names are not reserved)
    expect(bob.locator('#room-view .seat[data-seat="N"] .name')).to_have_text("Bob (guest)")
    # Ana fills the other seats with computers and starts
    expect(ana.locator('#room-view .seat[data-seat="N"] .name')).to_have_text("Bob (guest)")
    ana.get_by_role("button", name="Fill empty seats with computers").click()
    expect(ana.locator('#room-view .seat[data-seat="W"]')).to_contain_text("computer")
    ana.locator("#start").click()
    table_id = ""
    for page in (ana, bob):
        page.wait_for_url(re.compile(r"/#/table/[\w-]+$"), timeout=15_000)
        expect(page.locator("#table-page")).to_have_attribute("data-mode", "play")
        expect(page.locator("#table-page")).to_have_attribute("data-ready", "1")
    expect(ana.locator('.seat[data-seat="S"] .plate .name')).to_have_text("Ana")
    expect(bob.locator('.seat[data-seat="S"] .plate .name')).to_have_text("Ana (guest)")
    expect(ana.locator('.seat[data-seat="N"] .plate .name')).to_have_text("Bob (guest)")
    # a third person, not logged in, finds the table in the lobby and watches
    eve_ctx = _context(browser, english=True, width=1000, height=800)
    eve = eve_ctx.new_page()
    eve.goto(live.url + "/lobby.html")
    row = eve.locator("#tables [data-table]", has_text="Ana's friendly")
    expect(row).to_contain_text("playing")
    row.get_by_role("link", name="watch").click()
    eve.wait_for_url(re.compile(r"/#/watch/[\w-]+$"))
    expect(eve.locator('[data-badge="spectator"]')).to_have_text("Spectator")
    expect(eve.locator("#table-chat input")).to_be_hidden()
    expect(ana.locator("[data-spectators]")).to_have_attribute("data-spectators", "1")
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
        done = [p.get_attribute("#table-page", "data-waiting") == "next" for p in (ana, bob)]
        if all(done):
            break
        assert time.monotonic() < deadline, "the deal did not end in time"
        acted = False
        for page in (ana, bob):
            acted = _play_step(page) or acted
        if not acted:
            ana.wait_for_timeout(100)
    expect(eve.locator("#table-page")).to_have_attribute("data-waiting", "next")
    assert eve.locator("#hand .card").count() == 0  # a spectator never holds a hand
    expect(eve.locator("rebelote-chat li .text").first).to_have_text("<b>salut</b> Bob")
    # the deal's summary, the same for both players
    for page in (ana, bob):
        expect(page.locator("#deal-end[open] table.summary")).to_be_visible()
    assert ana.evaluate("() => window.rebelote.model.deal.trickNumber") == 8
    ana.screenshot(path=str(shots / "net-table.png"))
    # the replay at the main table (an old history.html?table=ID link leads
    # there): the finished deal, every hand, card by card, its records
    table_id = ana.url.split("/#/table/")[1]
    ana.goto(f"{live.url}/history.html?table={table_id}")
    ana.wait_for_url(f"{live.url}/#/replay/{table_id}")
    replay = ana.locator("#replay")
    expect(replay).to_have_attribute("data-step", "0")
    expect(replay).to_have_attribute("data-steps", "32")
    expect(ana.locator("#hand button.card")).to_have_count(8)
    for seat in "NWE":
        expect(ana.locator(f'[data-open-hand="{seat}"] [data-card]')).to_have_count(8)
    ana.locator('[data-action="replay-next"]').click()
    expect(replay).to_have_attribute("data-step", "1")
    expect(ana.locator("#trick [data-trick-seat]")).to_have_count(1)
    token = _stored_token(ana, table_id)
    deal = replay.get_attribute("data-deal")  # the first deal may have been thrown in
    expect(replay).to_have_attribute("data-match", "1")
    record = f"/api/tables/{table_id}/record?match=1"
    expect(ana.locator("#export-match")).to_have_attribute("href", f"{record}&token={token}")
    expect(ana.locator("#export-deal")).to_have_attribute(
        "href", f"{record}&deal={deal}&token={token}"
    )
    expect(ana.locator("#export-deal")).to_have_attribute(
        "download", f"rebelote-{table_id}-m1-d{deal}.json"
    )
    exported = ana_ctx.request.get(f"{live.url}{record}&deal={deal}&token={token}")
    assert exported.ok and exported.headers["content-type"] == "application/json"
    ana.screenshot(path=str(shots / "net-replay.png"))
    bob.goto(live.url + "/lobby.html")
    bob.screenshot(path=str(shots / "net-lobby.png"))
    for ctx in (ana_ctx, bob_ctx, eve_ctx):
        ctx.close()


def _errors(page: object) -> list[str]:
    """Collect the page's script errors and console errors."""
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))

    def console(msg: Any) -> None:
        if msg.type in ("error", "warning"):
            errors.append(f"console: {msg.text}")

    page.on("console", console)
    return errors


def test_lobby_in_french_expert_level_and_the_chat_at_the_main_table(
    browser: object, live: LiveServer
) -> None:
    """The lobby in the table's language (French by default, English on
    demand), every computer level offered (expert included), and the chat
    at the main table page (index.html) of a network table; no chat at a
    solo table."""
    from playwright.sync_api import Browser, expect

    from rebelote.server.protocol.messages import BOT_LEVELS

    assert isinstance(browser, Browser)
    ctx = _context(browser)
    page = ctx.new_page()
    errors = _errors(page)
    page.goto(live.url + "/lobby.html")
    expect(page.locator("h1")).to_have_text("Salon")
    expect(page.locator("#account h2")).to_have_text("Qui êtes-vous ?")
    expect(page.locator('form[data-form="guest"] button')).to_have_text("Jouer en invité")
    _guest_login(page, "Ana")
    expect(page.locator(".topnav .who")).to_have_text("Ana (invité)")
    expect(page.locator(".topnav a").first).to_have_text("Salon")
    expect(page.locator("#create h2")).to_have_text("Ouvrir une table")
    expect(page.locator("#create-form button[type=submit]")).to_have_text("Ouvrir la table")
    expect(page.locator('#create-form option[value="private"]')).to_have_text(
        "privée (sur invitation)"
    )
    # a table with expert computer players
    page.locator('#create-form input[name="name"]').fill("Table d'Ana")
    page.locator("#create-form button[type=submit]").click()
    expect(page.locator("#room-view h2")).to_contain_text("Table d'Ana")
    expect(page.locator("#room-view h2")).to_contain_text("amicale")
    fill = page.locator("#fill-level")
    values = fill.locator("option").evaluate_all("(os) => os.map((o) => o.value)")
    assert tuple(values) == BOT_LEVELS
    assert "expert-bidder" not in values
    labels = fill.locator("option").all_inner_texts()
    assert labels == ["au hasard", "débutant", "confirmé", "expert"]
    fill.select_option("expert")
    page.locator("#fill").click()
    for seat in "NWE":
        expect(page.locator(f'#room-view .seat[data-seat="{seat}"] .level')).to_have_text(
            "ordinateur (expert)"
        )
    expect(page.locator("#start")).to_have_text("Commencer")
    # English on demand, kept for the next pages
    with page.expect_navigation():  # the toggle reloads the page
        page.locator(".topnav button[data-lang-toggle]").click()
    expect(page.locator("h1")).to_have_text("Lobby")
    expect(page.locator("#fill")).to_have_text("Fill empty seats with computers")
    assert page.evaluate("localStorage.getItem('rebelote.lang')") == "en"
    with page.expect_navigation():
        page.locator(".topnav button[data-lang-toggle]").click()
    expect(page.locator("h1")).to_have_text("Salon")
    # a second table, played at the main table page (index.html)
    csrf = next(c["value"] for c in ctx.cookies() if c["name"] == "rebelote_csrf")
    headers = {"X-CSRF-Token": csrf}
    created = ctx.request.post(
        live.url + "/api/lobby/tables",
        data={"name": "Chez Ana", "preset": "ffb", "options": {"speed": "instant"}},
        headers=headers,
    ).json()
    tid = created["table_id"]
    for path in (f"/api/lobby/tables/{tid}/fill", f"/api/lobby/tables/{tid}/start"):
        r = ctx.request.post(live.url + path, data={"level": "random"}, headers=headers)
        assert r.ok, r.text()
    page.evaluate(
        REMEMBER,
        [tid, created["token"]],
    )
    page.goto(f"{live.url}/#/table/{tid}")
    expect(page.locator("#table-page")).to_have_attribute("data-ready", "1")
    chat = page.locator("#table-chat")
    expect(chat).to_be_visible()
    expect(chat.locator(".head span")).to_have_text("Discussion")
    expect(chat.locator('button[type="submit"]')).to_have_text("Envoyer")
    expect(chat.locator("input")).to_have_attribute("placeholder", "Votre message…")
    chat.locator("input").fill("<img src=x onerror=alert(1)> salut")
    chat.locator("input").press("Enter")
    expect(chat.locator("li .text")).to_have_text("<img src=x onerror=alert(1)> salut")
    expect(chat.locator("li .who")).to_have_text("Ana (Sud)")
    assert chat.locator("li img").count() == 0
    # the table goes on: the hand is drawn, the French labels are there
    expect(page.locator("#hand [data-card]").first).to_be_visible()
    page.locator('[data-action="menu"]').click()
    expect(page.locator("#menu-title")).to_have_text("Menu")
    page.keyboard.press("Escape")
    # a reload: the chat's history comes back
    page.reload()
    expect(page.locator("#table-page")).to_have_attribute("data-ready", "1")
    expect(chat.locator("li .text")).to_have_text("<img src=x onerror=alert(1)> salut")
    # a solo table (POST /api/tables): no room, no chat
    solo = ctx.request.post(
        live.url + "/api/tables", data={"preset": "ffb", "options": {"speed": "instant"}}
    ).json()
    page.evaluate(
        REMEMBER,
        [solo["table_id"], solo["token"]],
    )
    page.goto(f"{live.url}/#/table/{solo['table_id']}")
    expect(page.locator("#table-page")).to_have_attribute("data-ready", "1")
    expect(page.locator("#hand [data-card]").first).to_be_visible()
    page.wait_for_timeout(300)  # let any room message come (none should)
    expect(chat).to_be_hidden()
    assert errors == [], errors
    ctx.close()


def _post(ctx: Any, url: str, data: dict[str, Any] | None = None) -> Any:
    """A POST with the context's session and CSRF token; its JSON answer."""
    csrf = next(c["value"] for c in ctx.cookies() if c["name"] == "rebelote_csrf")
    r = ctx.request.post(url, data=data or {}, headers={"X-CSRF-Token": csrf})
    assert r.ok, r.text()
    return r.json()


def _signup(ctx: Any, url: str, name: str) -> None:
    r = ctx.request.post(url + "/api/auth/signup", data={"name": name, "password": "belote-pass"})
    assert r.ok, r.text()


def _stored_token(page: Any, table_id: str) -> str | None:
    token = page.evaluate(
        "(id) => JSON.parse(localStorage.getItem('rebelote.tables') || '{}')[id] || null",
        table_id,
    )
    assert token is None or isinstance(token, str)
    return token


def test_a_player_takes_his_seat_back_from_another_browser(
    browser: object, live: LiveServer
) -> None:
    """Bob sits at a ranked table, then comes back from other browsers: the
    lobby room, "My games" (open) and the main table page fetch a new seat
    token and he plays; a refused (replaced) token is replaced once. On the
    way: the table page waits for the start, the score reads 0 - 0 from the
    start, the buttons and the bubbles say bids in words, the chat mutes and
    unmutes, leaving (from the menu, at the main table) shows the others the
    computer player in his seat, and the history shows the displayed
    rating."""
    from playwright.sync_api import Browser, Page, expect

    assert isinstance(browser, Browser)
    ana_ctx, bob1_ctx = _context(browser, english=True), _context(browser, english=True)
    _signup(ana_ctx, live.url, "Ana")
    _signup(bob1_ctx, live.url, "Bob")
    created = _post(
        ana_ctx,
        live.url + "/api/lobby/tables",
        {
            "name": "Ranked room",
            "preset": "ffb",
            "visibility": "public",
            "ranked": True,
            "seat": "S",
            "options": {"speed": "instant", "move_clock": None},
        },
    )
    tid = created["table_id"]
    first = _post(bob1_ctx, f"{live.url}/api/lobby/tables/{tid}/join", {"seat": "N"})
    bob1_ctx.close()  # Bob's first browser is gone
    # Ana's table page is open before the start
    ana = ana_ctx.new_page()
    ana_errors = _errors(ana)
    ana.goto(live.url + "/lobby.html")
    ana.evaluate(REMEMBER, [tid, created["token"]])
    ana.goto(f"{live.url}/#/table/{tid}")
    expect(ana.locator("#status")).to_have_text("The match has not started yet.")
    for path in (f"/api/lobby/tables/{tid}/fill", f"/api/lobby/tables/{tid}/start"):
        _post(ana_ctx, live.url + path, {"level": "random"})
    expect(ana.locator("#table-page")).to_have_attribute("data-ready", "1")
    assert ana.evaluate("() => window.rebelote.model.you") == "S"
    # the score from match_start on: both sides at 0, by name
    for side, name in (("NS", "Us"), ("EW", "Them")):
        expect(ana.locator(f'[data-score="{side}"] .side')).to_have_text(name)
        expect(ana.locator(f'[data-score="{side}"] .points')).to_have_text("0")

    # Bob logs in from another browser and opens the table's room in the lobby
    bob2_ctx = _context(browser, english=True)
    bob = bob2_ctx.new_page()
    bob_errors = _errors(bob)
    bob.goto(live.url + "/lobby.html")
    login = bob.locator('form[data-form="login"]')
    login.locator('input[name="name"]').fill("Bob")
    login.locator('input[name="password"]').fill("belote-pass")
    login.locator("button").click()
    expect(bob.locator(".topnav .who")).to_contain_text("Bob")
    assert _stored_token(bob, tid) is None
    bob.goto(f"{live.url}/lobby.html?table={tid}")
    bob.wait_for_url(re.compile(rf"/#/table/{tid}$"))  # a new token, then the main table
    expect(bob.locator("#table-page")).to_have_attribute("data-ready", "1")
    assert bob.evaluate("() => window.rebelote.model.you") == "N"
    expect(bob.locator("#hand [data-card]").first).to_be_visible()
    second = _stored_token(bob, tid)
    assert second and second != first["token"]
    expect(bob.locator('.seat[data-seat="N"] .plate .name')).to_have_text("Bob")
    expect(bob.locator('.seat[data-seat="S"] .plate .name')).to_have_text("Ana")
    expect(bob.locator('[data-score="NS"] .side')).to_have_text("Us")

    # the bidding buttons in words; the log says the bids in words
    pages = (ana, bob)
    labels: dict[str, str] = {}
    deadline = time.monotonic() + 60  # a safeguard, not a measure
    while not any(p.locator("#actions button[data-act]").count() for p in pages):
        assert time.monotonic() < deadline, "nobody was asked to bid"
        ana.wait_for_timeout(100)
    for p in pages:
        for button in p.locator("#actions button[data-act]").all():
            act = button.get_attribute("data-act")
            assert act is not None
            labels[act] = button.inner_text().strip()
    assert labels.get("pass") == "Pass", labels
    assert labels.get("take", "Take").startswith("Take"), labels
    for act, text in labels.items():
        assert text and text != act, labels
    bidder = next(p for p in pages if p.locator("#actions button[data-act]").count())
    bidder.locator('#actions button[data-act="pass"]').click()
    said = bidder.locator('.seat[data-pos="bottom"] .bubble')
    expect(said).to_have_text("Pass")
    expect(said).to_have_attribute("data-kind", "bid")

    # the chat: Ana mutes Bob, sees whom she muted, and unmutes him
    bob.locator("rebelote-chat input").fill("hello from Bob")
    bob.locator("rebelote-chat input").press("Enter")
    ana_chat = ana.locator("rebelote-chat")
    expect(ana_chat.locator('li[data-seat="N"] .text')).to_have_text("hello from Bob")
    ana_chat.locator('li[data-seat="N"] button.mute').click()
    expect(ana_chat.locator('li[data-seat="N"]')).to_have_count(0)
    expect(ana_chat.locator('.muted-seat[data-seat="N"]')).to_contain_text("Bob (North)")
    expect(ana_chat.locator('button[data-unmute="N"]')).to_have_text("unmute")
    ana.reload()  # the mute is told again on connection
    expect(ana_chat.locator('.muted-seat[data-seat="N"]')).to_contain_text("Bob (North)")
    expect(ana_chat.locator('li[data-seat="N"]')).to_have_count(0)
    ana_chat.locator('button[data-unmute="N"]').click()
    # his earlier line is back at once (a new connection's chat history)
    expect(ana_chat.locator('li[data-seat="N"] .text')).to_have_text("hello from Bob")
    expect(ana_chat.locator(".muted-seat")).to_have_count(0)
    expect(ana_chat.locator(".muted")).to_be_hidden()
    bob.locator("rebelote-chat input").fill("again")
    bob.locator("rebelote-chat input").press("Enter")
    expect(ana_chat.locator('li[data-seat="N"] .text').last).to_have_text("again")

    # a token that no longer works (replaced elsewhere) is replaced once
    bob.evaluate(REMEMBER, [tid, first["token"]])
    bob.reload()
    expect(bob.locator("#table-page")).to_have_attribute("data-ready", "1")
    expect(bob.locator("#hand [data-card]").first).to_be_visible()
    assert bob.evaluate("() => window.rebelote.model.you") == "N"
    third = _stored_token(bob, tid)
    assert third and third not in (first["token"], second)
    bob2_ctx.close()

    # a third browser: "My games", then "open"
    bob3_ctx = _context(browser, english=True)
    r = bob3_ctx.request.post(
        live.url + "/api/auth/login", data={"name": "Bob", "password": "belote-pass"}
    )
    assert r.ok, r.text()
    bob = bob3_ctx.new_page()
    bob_errors += _errors(bob)
    bob.goto(live.url + "/history.html")
    bob.locator("#running tbody tr", has_text="Ranked room").get_by_role(
        "link", name="open"
    ).click()
    bob.wait_for_url(re.compile(rf"/#/table/{tid}$"))
    expect(bob.locator("#table-page")).to_have_attribute("data-ready", "1")
    expect(bob.locator("#hand [data-card]").first).to_be_visible()
    assert bob.evaluate("() => window.rebelote.model.you") == "N"
    # the main table page too, with no token in this browser
    bob.evaluate("localStorage.removeItem('rebelote.tables')")
    bob.reload()
    expect(bob.locator("#table-page")).to_have_attribute("data-ready", "1")
    expect(bob.locator("#hand [data-card]").first).to_be_visible()
    assert _stored_token(bob, tid)

    # Bob leaves (the menu, then yes): his seat shows the computer player that took it
    bob.locator('[data-action="menu"]').click()
    bob.locator('#menu [data-action="leave"]').click()
    bob.locator('#leave-dialog [data-action="leave-confirm"]').click()
    expect(bob.locator("#table-missing")).to_have_attribute("data-reason", "left")
    expect(bob.locator("#table-missing-title")).to_have_text("You left the table")
    expect(bob.locator("#table-page")).to_be_hidden()
    north = ana.locator('.seat[data-seat="N"] .plate')
    expect(north.locator(".name")).to_have_text("Bob (computer)")
    expect(north.locator(".level")).to_have_text("intermediate")

    # the history: leaving made the match unrated for everyone, the leaver
    # included (seed 003); his rating is a new account's
    history = bob3_ctx.request.get(live.url + "/api/me/history").json()
    result = next(x for x in history["results"] if x["table_id"] == tid)
    assert result["left"] and result["unrated_reason"] == "left"
    assert (result["rating_before"], result["rating_after"], result["xp"]) == (1500, None, 0)
    me = bob3_ctx.request.get(live.url + "/api/me").json()["user"]
    assert (me["rating"], me["rated"], me["provisional"]) == (1500, 0, True)
    bob.goto(live.url + "/history.html")
    row = bob.locator(f'#results tbody tr[data-table="{tid}"]')
    expect(row.locator("td.rating")).to_have_text("not rated: a player left the match")
    expect(bob.locator(".topnav .who")).to_contain_text(f"rating {_whole(me['rating'])}")
    # the leaderboard: nobody has a rated match yet
    assert bob3_ctx.request.get(live.url + "/api/leaderboard").json() == []
    bob.goto(live.url + "/leaderboard.html")
    expect(bob.locator("#empty")).to_be_visible()
    assert all(isinstance(p, Page) for p in (ana, bob))
    assert ana_errors + bob_errors == [], ana_errors + bob_errors
    for ctx in (ana_ctx, bob3_ctx):
        ctx.close()


FRENCH_SEATS = {"N": "Nord", "W": "Ouest", "S": "Sud", "E": "Est"}


def _whole(rating: float) -> str:
    """A rating as the pages show it: rounded half up (JavaScript's
    ``Math.round``)."""
    return str(math.floor(rating + 0.5))


def test_french_names_replay_dates_chat_unmute_and_a_steady_waiting_room(
    browser: object, live: LiveServer
) -> None:
    """In French (the default): the waiting room keeps its controls between
    two fetches of the room; the main table page of a lobby table names the
    players (a guest marked, computers "(ordinateur)", a stand-in in
    French); unmuting brings a seat's earlier lines back at once; leaving
    is asked first, in French; the replay says bids, contract, seats and
    scores in words; the history's dates are French."""
    import random

    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    ana_ctx, bob_ctx = _context(browser), _context(browser)
    ana, bob = ana_ctx.new_page(), bob_ctx.new_page()
    errors = _errors(ana) + _errors(bob)
    ana.goto(live.url + "/lobby.html")
    _guest_login(ana, "Ana")
    expect(ana.locator(".topnav .who")).to_have_text("Ana (invité)")
    ana.locator('#create-form input[name="name"]').fill("Chez Ana")
    ana.locator("#create-form button[type=submit]").click()
    expect(ana.locator("#room-view h2")).to_contain_text("Chez Ana")
    tid = ana.url.split("table=")[1].split("&")[0]
    r = bob_ctx.request.post(live.url + "/api/auth/guest", data={"name": "Bobby"})
    assert r.ok, r.text()
    _post(bob_ctx, f"{live.url}/api/lobby/tables/{tid}/join", {"seat": "N"})
    expect(ana.locator('#room-view .seat[data-seat="N"] .name')).to_have_text("Bobby (invité)")

    # the waiting room is pushed at each change; its controls stay the same elements
    ana.locator("#fill").evaluate("(b) => { b.dataset.probe = 'kept'; }")
    ana.locator("#fill-level").select_option("random")
    _post(ana_ctx, f"{live.url}/api/lobby/tables/{tid}/bot", {"seat": "E", "level": "random"})
    expect(ana.locator('#room-view .seat[data-seat="E"] .name')).to_have_text("Est (ordinateur)")
    expect(ana.locator('#fill[data-probe="kept"]')).to_have_count(1)
    expect(ana.locator("#fill-level")).to_have_value("random")
    ana.locator("#fill").click()
    expect(ana.locator('#room-view .seat[data-seat="W"] .name')).to_have_text("Ouest (ordinateur)")
    expect(ana.locator('#room-view .seat[data-seat="W"] .level')).to_have_text(
        "ordinateur (au hasard)"
    )
    ana.locator("#start").click()
    ana.wait_for_url(re.compile(rf"/#/table/{tid}$"))

    # Bobby at his table (an old link) says hello
    bob.goto(f"{live.url}/net/table.html?table={tid}")
    bob.wait_for_url(re.compile(f"/#/table/{tid}$"))
    expect(bob.locator("#table-page")).to_have_attribute("data-ready", "1")
    assert bob.evaluate("() => window.rebelote.model.you") == "N"
    expect(bob.locator('.seat[data-seat="W"] .plate .name')).to_have_text("Ouest (ordinateur)")
    expect(bob.locator('.seat[data-seat="S"] .plate .name')).to_have_text("Ana (invité)")
    bob.locator("rebelote-chat input").fill("salut Ana")
    bob.locator("rebelote-chat input").press("Enter")

    # the main table page names the players, not the seats
    ana.goto(f"{live.url}/#/table/{tid}")
    expect(ana.locator("#table-page")).to_have_attribute("data-ready", "1")
    plate = '#table-page .seat[data-seat="{}"] .plate .name'
    expect(ana.locator(plate.format("N"))).to_have_text("Bobby (invité)")
    expect(ana.locator(plate.format("W"))).to_have_text("Ouest (ordinateur)")
    expect(ana.locator(plate.format("E"))).to_have_text("Est (ordinateur)")

    # mute Bobby, reload (the server leaves his lines out), unmute: his line is back at once
    chat = ana.locator("#table-chat")
    expect(chat.locator('li[data-seat="N"] .text')).to_have_text("salut Ana")
    chat.locator('li[data-seat="N"] button.mute').click()
    expect(chat.locator('li[data-seat="N"]')).to_have_count(0)
    ana.reload()
    expect(ana.locator("#table-page")).to_have_attribute("data-ready", "1")
    expect(chat.locator('.muted-seat[data-seat="N"]')).to_contain_text("Bobby (Nord)")
    expect(chat.locator('li[data-seat="N"]')).to_have_count(0)
    chat.locator('button[data-unmute="N"]').click()
    expect(chat.locator('li[data-seat="N"] .text')).to_have_text("salut Ana")
    expect(chat.locator(".muted-seat")).to_have_count(0)

    # Bobby leaves: the "left" page; the computer in his seat, in French
    bob.locator('[data-action="menu"]').click()
    bob.locator('#menu [data-action="leave"]').click()
    expect(bob.locator("#leave-text")).to_have_text(
        "Quitter la partie ? Elle compte comme perdue, et l'ordinateur prend votre place."
    )
    bob.locator('#leave-dialog [data-action="leave-confirm"]').click()
    expect(bob.locator("#table-missing-title")).to_have_text("Vous avez quitté la table")
    expect(ana.locator(plate.format("N"))).to_have_text("Bobby (ordinateur)")

    # Ana plays the deal to its end (a script on her seat), taking when she may
    token = _stored_token(ana, tid)
    rng = random.Random(5)
    with live.connect(tid, token) as client:
        while not any(e["kind"] == "deal_end" for e in client.events):
            turn = client.my_decision("S")
            if any(e["kind"] == "deal_end" for e in client.events):
                break
            legal = turn["legal"]
            action = "take" if "take" in legal else rng.choice(legal)
            client.act(action, False if action in turn["belote_choice"] else None)
            client.turn = None
    replay = ana_ctx.request.get(f"{live.url}/api/tables/{tid}/replay").json()
    deal = replay["deals"][0]

    # the replay in words, at the main table (the players by their names)
    ana.goto(f"{live.url}/#/replay/{tid}")
    replay_box = ana.locator("#replay")
    expect(replay_box).to_have_attribute("data-step", "0")
    names = {"N": "Bobby (ordinateur)", "W": "Ouest (ordinateur)", "S": "Ana (invité)"}
    names["E"] = "Est (ordinateur)"
    for seat, name in names.items():
        expect(ana.locator(f'.seat[data-seat="{seat}"] .plate .name')).to_have_text(name)
    expect(ana.locator("[data-dealer]")).to_have_attribute("data-dealer", deal["dealer"])
    auction = ana.locator("#replay-auction")
    expect(auction.locator(".replay-bid")).to_have_count(len(deal["bids"]))
    words = {"pass": "Passe", "take": "Prend"}
    for i, (seat, bid) in enumerate(deal["bids"]):
        said = auction.locator(".replay-bid").nth(i)
        expect(said).to_have_attribute("data-seat", seat)
        expect(said.locator(".who")).to_have_text(f"{names[seat]} :")
        if bid in words:
            expect(said).to_contain_text(words[bid])
    text = auction.inner_text()
    assert not re.search(r"\b(pass|take|by)\b", text), text
    if deal["contract"]:
        taker = deal["contract"].split(" by ")[1]
        expect(auction.locator(".replay-contract")).to_contain_text(f"par {names[taker]}")
    first = deal["tricks"][0]
    for _ in range(4):
        ana.locator('[data-action="replay-next"]').click()
    expect(ana.locator("#trick [data-trick-seat]")).to_have_count(4)
    seats = ana.locator("#trick [data-trick-seat]").evaluate_all(
        "(cs) => cs.map((c) => c.dataset.trickSeat)"
    )
    assert sorted(seats) == sorted(first["seats"])
    for seat, card in zip(first["seats"], first["cards"], strict=True):
        expect(ana.locator(f'#trick [data-trick-seat="{seat}"]')).to_have_attribute(
            "data-card", card
        )
    # one deal only: no next deal
    expect(ana.locator('[data-action="replay-next-deal"]')).to_be_disabled()
    expect(replay_box).to_have_attribute("data-index", "0")
    cards = sum(len(t["cards"]) for t in deal["tricks"])
    for _ in range(cards - 4):
        ana.locator('[data-action="replay-next"]').click()
    expect(replay_box).to_have_attribute("data-step", str(cards))
    summary = ana.locator("#replay-summary")
    expect(summary).to_contain_text("Nord\u2013Sud")
    expect(summary).to_contain_text("Est\u2013Ouest")

    # Bobby's history: the date in French
    history = bob_ctx.request.get(live.url + "/api/me/history").json()
    result = next(x for x in history["results"] if x["table_id"] == tid)
    bob.goto(live.url + "/history.html")
    when = bob.locator(f'#results tbody tr[data-table="{tid}"] td.when')
    expect(when).to_have_text(time.strftime("%d/%m/%Y %H:%M:%S", time.localtime(result["at"])))
    assert errors == [], errors
    for ctx in (ana_ctx, bob_ctx):
        ctx.close()
