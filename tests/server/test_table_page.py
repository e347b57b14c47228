"""Every table at the main table page (``index.html``): lobby tables of four
people, a whole match through the lobby with a friend at the table,
spectators (``#/watch/ID``), private and missing tables, the replay of a
finished game (``#/replay/ID``), old ``net/table.html`` links, the phone
layout (360 x 740) and the wide one (1280 x 800: the chat covers no seat's
name), the agreement to the next deal and the "time is up" banner.

Several Playwright contexts on Debian's Chromium are several people
(``tests/conftest.py``'s browser); the server is ``server.live.LiveServer``
with the client's files; computer players act after 20 ms."""

from __future__ import annotations

import contextlib
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from rebelote.server.app import WEB_DIR
from web.driver import Driver, is_card

from .live import LiveServer, play_match
from .net import lobby_table

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
FRENCH_SEATS = {"N": "Nord", "W": "Ouest", "S": "Sud", "E": "Est"}


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    """The whole app, pages included, on a fresh database; computer players
    act after 20 ms."""
    with LiveServer(
        f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0.02, static_dir=WEB_DIR
    ) as server:
        yield server


def _context(browser: Any, size: dict[str, int] | None = None) -> BrowserContext:
    """A person's browser (cookies and storage of its own), in French."""
    ctx: BrowserContext = browser.new_context(viewport=size or DESKTOP)
    return ctx


def _errors(page: Page) -> list[str]:
    """The page's script errors and console errors, as they come."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    return errors


def _guest(ctx: BrowserContext, url: str, name: str) -> str:
    """Log the context in as a guest; its CSRF token."""
    r = ctx.request.post(url + "/api/auth/guest", data={"name": name})
    assert r.ok, r.text()
    csrf: str = r.json()["csrf"]
    return csrf


def _post(ctx: BrowserContext, url: str, csrf: str, data: dict[str, Any] | None = None) -> Any:
    r = ctx.request.post(url, data=data or {}, headers={"X-CSRF-Token": csrf})
    assert r.ok, r.text()
    return r.json()


def _keep_token(ctx: BrowserContext, table_id: str, token: str) -> None:
    """The seat's token where the table page looks for it (as the lobby
    keeps it)."""
    ctx.add_init_script(
        f"localStorage.setItem('rebelote.tables', JSON.stringify({{{table_id!r}: {token!r}}}))"
    )


def _hand(page: Page) -> list[str]:
    cards: list[str] = page.locator("#hand button.card").evaluate_all(
        "(bs) => bs.map((b) => b.dataset.card)"
    )
    return cards


def _no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width


def _box(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return {"x": box["x"], "y": box["y"], "width": box["width"], "height": box["height"]}


def _intersect(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_four_people_at_one_lobby_table_and_a_spectator(
    browser: Browser, live: LiveServer, shots: Path
) -> None:
    """Four guests sit at one lobby table (made through the lobby API) and
    open it at the main table: each sees his own eight cards and the same
    trick; a spectator at #/watch/ID sees no hand, no action and no chat
    input, the players see that one person watches; a player who closes his
    browser is shown disconnected with the hold countdown; one who leaves
    from the menu gets the "left" page, and a computer takes his seat."""
    from playwright.sync_api import expect

    names = {"S": "Sam", "N": "Nora", "W": "Walt", "E": "Emma"}
    ctxs = {seat: _context(browser) for seat in names}
    csrf = {seat: _guest(ctx, live.url, names[seat]) for seat, ctx in ctxs.items()}
    created = _post(
        ctxs["S"],
        live.url + "/api/lobby/tables",
        csrf["S"],
        {"name": "Quatre amis", "preset": "ffb", "seat": "S", "options": {"speed": "instant"}},
    )
    tid = created["table_id"]
    tokens = {"S": created["token"]}
    for seat in "NWE":
        joined = _post(
            ctxs[seat], f"{live.url}/api/lobby/tables/{tid}/join", csrf[seat], {"seat": seat}
        )
        tokens[seat] = joined["token"]
    _post(ctxs["S"], f"{live.url}/api/lobby/tables/{tid}/start", csrf["S"])
    # Emma's browser has no token: the page gets one for the seat she holds
    for seat in "SNW":
        _keep_token(ctxs[seat], tid, tokens[seat])
    pages = {seat: ctx.new_page() for seat, ctx in ctxs.items()}
    errors = {seat: _errors(page) for seat, page in pages.items()}
    for page in pages.values():
        page.goto(f"{live.url}/#/table/{tid}")
    for seat, page in pages.items():
        expect(page.locator("#table-page")).to_be_visible()
        expect(page.locator("#table-page")).to_have_attribute("data-ready", "1")
        expect(page.locator("#table-page")).to_have_attribute("data-mode", "play")
        assert page.evaluate("() => window.rebelote.model.you") == seat
    # the players by their names, as each sees them
    partner = {"S": "N", "N": "S", "W": "E", "E": "W"}
    for seat, page in pages.items():
        expect(page.locator('.seat[data-pos="bottom"] .plate .name')).to_have_text(names[seat])
        expect(page.locator('.seat[data-pos="top"] .plate .name')).to_have_text(
            f"{names[partner[seat]]} (invité)"
        )
        expect(page.locator("#table-chat")).to_be_visible()
        expect(page.locator("[data-presence]")).to_have_count(0)  # everyone connected

    # a spectator: the players see him counted
    eve_ctx = _context(browser)
    eve = eve_ctx.new_page()
    eve_errors = _errors(eve)
    eve.goto(f"{live.url}/#/watch/{tid}")
    expect(eve.locator("#table-page")).to_have_attribute("data-mode", "watch")
    expect(eve.locator("#table-page")).to_have_attribute("data-ready", "1")
    expect(eve.locator('[data-badge="spectator"]')).to_have_text("Spectateur")
    for page in pages.values():
        expect(page.locator("#contract [data-spectators]")).to_have_attribute(
            "data-spectators", "1"
        )
    for seat in "NWSE":
        expect(eve.locator(f'.seat[data-seat="{seat}"] .plate .name')).to_have_text(
            f"{names[seat]} (invité)"
        )
    expect(eve.locator('[data-score="NS"] .side')).to_have_text("Nord\u2013Sud")

    # the auction, by clicking on each page; then everyone holds 8 cards
    drivers = {seat: Driver(page) for seat, page in pages.items()}
    deadline = time.monotonic() + 60  # a safeguard, not a measure
    while not all(
        p.get_attribute("#table-page", "data-phase") == "playing" for p in pages.values()
    ):
        assert time.monotonic() < deadline, "the auction did not end"
        acted = False
        for seat, driver in drivers.items():
            if (
                pages[seat].get_attribute("#table-page", "data-phase") != "playing"
                and driver.ready()
            ):
                driver.click_step()
                acted = True
        if not acted:
            pages["S"].wait_for_timeout(50)
    hands = {}
    for seat, page in pages.items():
        expect(page.locator("#hand button.card")).to_have_count(8)
        hands[seat] = _hand(page)
    assert len(set().union(*map(set, hands.values()))) == 32  # each his own hand
    expect(eve.locator("#hand button.card")).to_have_count(0)
    expect(eve.locator("#actions [data-act]")).to_have_count(0)
    expect(eve.locator("rebelote-chat input")).to_be_hidden()
    expect(eve.locator("rebelote-chat .head")).to_be_visible()

    # the first card: the same trick everywhere, the spectator's included
    played, leader = "", "S"
    while not is_card(played):  # declarations come first
        assert time.monotonic() < deadline, "nobody played a card"
        ready = [seat for seat, d in drivers.items() if d.ready()]
        if not ready:
            pages["S"].wait_for_timeout(50)
            continue
        leader = ready[0]
        played = drivers[leader].click_step()
    assert played in hands[leader]
    for page in (*pages.values(), eve):
        expect(
            page.locator(f'#trick [data-trick-seat="{leader}"][data-card="{played}"]')
        ).to_be_visible()
    expect(eve.locator("#trick [data-card]")).to_have_count(
        pages["S"].locator("#trick [data-card]").count()
    )

    # the chat: players write, the spectator reads
    chat = pages["N"].locator("#table-chat input")
    chat.fill("bien joué")
    chat.press("Enter")
    expect(eve.locator('#table-chat li[data-seat="N"] .text')).to_have_text("bien joué")
    pages["S"].screenshot(path=str(shots / "lobby-table-1280x800.png"))
    eve.screenshot(path=str(shots / "watch-1280x800.png"))

    # Emma closes her browser: disconnected, her seat held (a countdown)
    ctxs["E"].close()
    east = pages["S"].locator('.seat[data-seat="E"]')
    expect(east.locator('[data-presence="disconnected"]')).to_have_text("déconnecté")
    expect(east.locator('.countdown[data-reason="hold"]')).to_contain_text(
        "s avant que l'ordinateur joue pour lui"
    )

    # Walt leaves from the menu: asked first, then the "left" page
    walt = pages["W"]
    walt.locator('[data-action="menu"]').click()
    walt.locator('#menu [data-action="leave"]').click()
    expect(walt.locator("#leave-dialog")).to_be_visible()
    expect(walt.locator("#leave-text")).to_contain_text("compte comme perdue")
    walt.locator('#leave-dialog [data-action="leave-confirm"]').click()
    missing = walt.locator("#table-missing")
    expect(missing).to_be_visible()
    expect(missing).to_have_attribute("data-reason", "left")
    expect(walt.locator("#table-missing-title")).to_have_text("Vous avez quitté la table")
    expect(missing.locator('a[href="lobby.html"]')).to_have_text("Aller au salon")
    expect(pages["S"].locator('.seat[data-seat="W"] .plate .name')).to_have_text(
        "Walt (ordinateur)"
    )
    expect(eve.locator('.seat[data-seat="W"] .plate .name')).to_have_text("Walt (ordinateur)")
    for seat in "SNW":
        assert errors[seat] == [], errors[seat]
    assert eve_errors == [], eve_errors
    for seat in "SNW":
        ctxs[seat].close()
    eve_ctx.close()


def test_a_guest_plays_a_match_through_the_lobby_with_a_friend_at_the_table(
    browser: Browser, live: LiveServer
) -> None:
    """A guest opens a private table in the lobby (to 1 point: one deal),
    a friend takes a seat with the invitation, the guest fills the other
    seats with computers and starts: both land on the main table through
    the lobby, play the whole match by clicking and see the same trick; no
    console error. At the end: the summary with the score sheet, "Revanche"
    and "Ne pas rejouer", who is awaited; refusing leaves the table."""
    from playwright.sync_api import expect

    host_ctx, friend_ctx = _context(browser), _context(browser)
    host, friend = host_ctx.new_page(), friend_ctx.new_page()
    errors = _errors(host) + _errors(friend)
    host.goto(live.url + "/lobby.html")
    form = host.locator('form[data-form="guest"]')
    form.locator('input[name="name"]').fill("Ana")
    form.locator("button").click()
    expect(host.locator(".topnav .who")).to_contain_text("Ana")
    host.locator('#create-form input[name="name"]').fill("Entre amis")
    host.locator('#create-form input[name="target"]').fill("1")
    host.locator('#create-form select[name="visibility"]').select_option("private")
    host.locator("#create-form button[type=submit]").click()
    expect(host.locator("#room-view h2")).to_contain_text("Entre amis")
    tid = host.url.split("table=")[1].split("&")[0]
    invite = host_ctx.request.get(f"{live.url}/api/lobby/tables/{tid}").json()["invite"]
    assert invite
    # the friend takes North with the invitation
    friend_csrf = _guest(friend_ctx, live.url, "Bruno")
    _post(
        friend_ctx,
        f"{live.url}/api/lobby/tables/{tid}/join",
        friend_csrf,
        {"seat": "N", "invite": invite},
    )
    expect(host.locator('#room-view .seat[data-seat="N"] .name')).to_have_text("Bruno (invité)")
    host.locator("#fill").click()
    expect(host.locator('#room-view .seat[data-seat="E"] .name')).to_contain_text("ordinateur")
    host.locator("#start").click()
    host.wait_for_url(re.compile(r"/#/table/" + tid + "$"), timeout=15_000)
    expect(host.locator("#table-page")).to_be_visible()
    # the friend opens the invitation link: he is sent to his seat
    friend.goto(f"{live.url}/lobby.html?table={tid}&invite={invite}")
    friend.wait_for_url(re.compile(r"/#/table/" + tid + "$"), timeout=15_000)
    expect(friend.locator("#table-page")).to_have_attribute("data-ready", "1")
    assert friend.evaluate("() => window.rebelote.model.you") == "N"
    expect(friend.locator('.seat[data-pos="top"] .plate .name')).to_have_text("Ana (invité)")

    drivers = {"host": Driver(host), "friend": Driver(friend)}
    seen = 0
    over = False
    deadline = time.monotonic() + 180  # a safeguard, not a measure
    while not over:
        assert time.monotonic() < deadline, "the match did not end"
        acted = False
        for who, driver in drivers.items():
            if not driver.ready():
                continue
            done = driver.click_step()
            acted = True
            if done == "over":
                over = True
                break
            if who == "host" and is_card(done):
                # the friend sees the host's card in the same trick
                expect(
                    friend.locator(f'#trick [data-trick-seat="S"][data-card="{done}"]')
                ).to_be_visible()
                seen += 1
        if not acted:
            host.wait_for_timeout(50)
    assert seen >= 1
    for page in (host, friend):
        dialog = page.locator("#deal-end[open]")
        expect(dialog).to_have_attribute("data-over", "true")
        expect(dialog.locator("table.sheet")).to_be_visible()
        expect(dialog.locator('[data-act="rematch"]')).to_have_text("Revanche")
        expect(dialog.locator('[data-action="leave-table"]')).to_have_text("Ne pas rejouer")
        expect(dialog.locator(".agreement")).to_have_attribute("data-awaited", "N S")
    expect(host.locator("#deal-end .agreement .awaited")).to_have_text(
        "En attente de Bruno (invité), Vous…"
    )
    winner = host.evaluate("() => window.rebelote.model.match.winner")
    title = "Vous gagnez la partie !" if winner == "NS" else "Vainqueur de la partie : Eux"
    expect(host.locator("#deal-end-title")).to_have_text(title)
    # the host does not want a rematch: he leaves the table
    host.locator('#deal-end [data-action="leave-table"]').click()
    expect(host.locator("#table-missing")).to_have_attribute("data-reason", "left")
    assert errors == [], errors
    host_ctx.close()
    friend_ctx.close()


def test_private_and_missing_tables_and_old_links(browser: Browser, live: LiveServer) -> None:
    """A visitor to a private table (to watch it, or at its table link) and
    to a table that does not exist gets a clear page with a link to the
    lobby, never a blank one; old net/table.html links lead to the main
    table."""
    from playwright.sync_api import expect

    tid, players = lobby_table(live, ["Ana"], bots="random", visibility="private")
    public, _ = lobby_table(live, ["Bob"], bots="random")
    ctx = _context(browser, PHONE)
    page = ctx.new_page()
    errors = _errors(page)
    page.goto(f"{live.url}/#/watch/{tid}")
    missing = page.locator("#table-missing")
    expect(missing).to_have_attribute("data-reason", "private")
    expect(page.locator("#table-missing-title")).to_have_text("Cette table est privée")
    expect(missing.locator('a[href="lobby.html"]')).to_be_visible()
    expect(page.locator("#table-page")).to_be_hidden()
    # the table's link, with no seat here: watched, so private too
    page.goto(f"{live.url}/#/table/{tid}")
    expect(missing).to_have_attribute("data-reason", "private")
    expect(page).to_have_url(re.compile(f"#/watch/{tid}$"))
    page.goto(f"{live.url}/#/watch/nosuchtable1")
    expect(missing).to_have_attribute("data-reason", "not_found")
    expect(page.locator("#table-missing-title")).to_have_text("Cette table n'existe pas")
    page.goto(f"{live.url}/#/replay/nosuchtable1")
    expect(missing).to_have_attribute("data-reason", "not_found")
    # old links: a seat's and a spectator's
    page.goto(f"{live.url}/net/table.html?table={public}&watch=1")
    page.wait_for_url(re.compile(f"/#/watch/{public}$"))
    expect(page.locator("#table-page")).to_have_attribute("data-mode", "watch")
    expect(page.locator("#table-page")).to_have_attribute("data-ready", "1")
    expect(page.locator('[data-badge="spectator"]')).to_be_visible()
    _no_horizontal_scroll(page)
    _keep_token(ctx, tid, str(players[0].token))
    page.goto(f"{live.url}/net/table.html?table={tid}")
    page.wait_for_url(re.compile(f"/#/table/{tid}$"))
    expect(page.locator("#table-page")).to_have_attribute("data-mode", "play")
    expect(page.locator("#table-page")).to_have_attribute("data-ready", "1")
    # the browser may say the replay's 404 answers (the replay, the table): nothing else
    not_found = "the server responded with a status of 404 (Not Found)"
    others = [e for e in errors if not_found not in e]
    assert others == [], errors
    ctx.close()


def test_replay_of_a_finished_game_at_the_table(
    browser: Browser, live: LiveServer, shots: Path
) -> None:
    """A finished game drawn at the table: every hand face up, the players'
    names, the auction, card by card and deal by deal, the summary at the
    end of each deal; read only."""
    from playwright.sync_api import expect

    tid, players = lobby_table(live, ["Ana"], bots="random", target=1, name="Revoir")
    with players[0].connect(tid) as client:
        play_match(client, random.Random(3))
    data = players[0].http.get(f"/api/tables/{tid}/replay").json()
    deals = data["deals"]
    first = next(i for i, d in enumerate(deals) if d["tricks"])
    deal = deals[first]
    ctx = _context(browser, PHONE)
    page = ctx.new_page()
    errors = _errors(page)
    page.goto(f"{live.url}/#/replay/{tid}/1")
    replay = page.locator("#replay")
    expect(replay).to_be_visible()
    expect(page.locator("#table-page")).to_have_attribute("data-mode", "replay")
    expect(replay).to_have_attribute("data-step", "0")
    expect(page.locator('[data-badge="replay"]')).to_have_text("Revoir")
    expect(page.locator('.seat[data-seat="S"] .plate .name')).to_have_text("Ana (invité)")
    expect(page.locator('.seat[data-seat="W"] .plate .name')).to_have_text("Ouest (ordinateur)")
    for _ in range(first):
        page.locator('[data-action="replay-next-deal"]').click()
    expect(replay).to_have_attribute("data-index", str(first))
    # every hand: ours below (read only), the others face up
    expect(page.locator("#hand button.card")).to_have_count(8)
    expect(page.locator("#hand button.card:not(:disabled)")).to_have_count(0)
    for seat in "NWE":
        expect(page.locator(f'[data-open-hand="{seat}"] [data-card]')).to_have_count(8)
    expect(page.locator("#replay-auction .replay-bid")).to_have_count(len(deal["bids"]))
    expect(page.locator("#actions [data-act]")).to_have_count(0)
    _no_horizontal_scroll(page)
    # card by card
    trick = deal["tricks"][0]
    page.locator('[data-action="replay-next"]').click()
    expect(replay).to_have_attribute("data-step", "1")
    first_seat, first_card = trick["seats"][0], trick["cards"][0]
    expect(
        page.locator(f'#trick [data-trick-seat="{first_seat}"][data-card="{first_card}"]')
    ).to_be_visible()
    where = page.locator(f'.seat[data-seat="{first_seat}"] [data-card="{first_card}"]')
    if first_seat == "S":
        where = page.locator(f'#hand [data-card="{first_card}"]')
    expect(where).to_have_count(0)
    for _ in range(3):
        page.locator('[data-action="replay-next"]').click()
    expect(page.locator("#trick [data-trick-seat]")).to_have_count(4)
    page.wait_for_timeout(250)  # the landing animation
    page.screenshot(path=str(shots / "replay-360x740.png"))
    expect(page.locator(f'#trick .winner[data-trick-seat="{trick["winner"]}"]')).to_have_count(1)
    page.locator('[data-action="replay-prev"]').click()
    expect(page.locator("#trick [data-trick-seat]")).to_have_count(3)
    # the keyboard steps too; to the end of the deal: its summary
    cards = sum(len(t["cards"]) for t in deal["tricks"])
    page.locator('[data-action="replay-next"]').focus()
    for _ in range(cards - 3):
        page.keyboard.press("ArrowRight")
    expect(replay).to_have_attribute("data-step", str(cards))
    expect(page.locator("#replay-where")).to_contain_text(f"carte {cards}/{cards}")
    summary = page.locator("#replay-summary")
    expect(summary).to_be_visible()
    expect(summary.locator("table.summary")).to_be_visible()
    score = deal["summary"]["score"]
    expect(summary.locator("tr.added td").first).to_have_text(f"+{score['NS']}")
    expect(page.locator("#hand button.card")).to_have_count(0)
    _no_horizontal_scroll(page)
    page.screenshot(path=str(shots / "replay-end-360x740.png"))
    # a match with no finished deal
    page.goto(f"{live.url}/#/replay/{tid}/2")
    expect(page.locator("#replay-where")).to_have_text("Aucune donne terminée à revoir.")
    assert errors == [], errors
    ctx.close()


def test_phone_coinche_auction_and_play_at_a_lobby_table(
    browser: Browser, live: LiveServer, shots: Path
) -> None:
    """At 360 x 740 a coinche lobby table has the value stepper and suit
    buttons (no wall of bids), all in view, and no horizontal scroll while
    bidding and playing."""
    from playwright.sync_api import expect

    tid, players = lobby_table(
        live, ["Ana"], bots="random", preset="coinche", options={"speed": "instant"}
    )
    ctx = _context(browser, PHONE)
    _keep_token(ctx, tid, str(players[0].token))
    page = ctx.new_page()
    errors = _errors(page)
    page.goto(f"{live.url}/#/table/{tid}")
    expect(page.locator("#table-page")).to_have_attribute("data-ready", "1")
    expect(page.locator("#table-chat")).to_be_visible()
    driver = Driver(page)
    checked_bidding = checked_playing = False
    deadline = time.monotonic() + 60  # a safeguard, not a measure
    while not (checked_bidding and checked_playing):
        assert time.monotonic() < deadline, "no bidding and playing turns came"
        kind = driver.wait_decision()
        s = driver.state()
        if kind == "table" and s["phase"] == "bidding" and not checked_bidding:
            values = [a for a in s["legal"] if a[0].isdigit() or a.startswith("capot")]
            if values:
                expect(page.locator('#actions [data-step="up"]')).to_be_visible()
                assert page.locator("#actions button").count() <= 12
                actions = _box(page, "#actions")
                assert actions["y"] + actions["height"] <= PHONE["height"], actions
                _no_horizontal_scroll(page)
                page.screenshot(path=str(shots / "lobby-coinche-360x740.png"))
                checked_bidding = True
        if kind == "table" and s["phase"] == "playing" and s["enabled"]:
            _no_horizontal_scroll(page)
            hand = _box(page, "#hand")
            assert hand["y"] + hand["height"] <= PHONE["height"], hand
            checked_playing = True
        driver.click_step(prefer_take=not checked_bidding)
    assert errors == [], errors
    ctx.close()


def test_wide_table_chat_covers_no_seat(browser: Browser, live: LiveServer) -> None:
    """At 1280 x 800 the chat of a lobby table is beside the felt: its box
    meets no seat's name."""
    from playwright.sync_api import expect

    tid, players = lobby_table(live, ["Ana"], bots="random", options={"speed": "instant"})
    ctx = _context(browser, DESKTOP)
    _keep_token(ctx, tid, str(players[0].token))
    page = ctx.new_page()
    page.goto(f"{live.url}/#/table/{tid}")
    expect(page.locator("#table-chat")).to_be_visible()
    expect(page.locator('.seat[data-pos="right"] .plate .name')).to_have_text("Est (ordinateur)")
    chat = _box(page, "#table-chat")
    for pos in ("right", "top", "left", "bottom"):
        name = _box(page, f'.seat[data-pos="{pos}"] .plate .name')
        assert not _intersect(chat, name), (pos, chat, name)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= DESKTOP["width"]
    ctx.close()


def test_agreement_to_the_next_deal_and_the_time_is_up_banner(
    browser: Browser, live: LiveServer
) -> None:
    """Between two deals of a lobby table the summary says who agreed and who
    is awaited, and the countdown when the table goes on by itself; after
    agreeing, the player's own button waits. A player whose time ran out is
    told, with "I'm back"."""
    from playwright.sync_api import expect

    tid, players = lobby_table(live, ["Ana", "Bruno"], bots="random", options={"speed": "instant"})
    ana, bruno = players
    with ana.connect(tid) as a, bruno.connect(tid) as b:
        rng = random.Random(1)
        while not (a.turn and a.turn["waiting"] == "next"):
            for client, seat in ((a, "S"), (b, "N")):
                with contextlib.suppress(TimeoutError):
                    client.recv(timeout=0.05)
                turn = client.turn
                if turn and turn["seat"] == seat and turn["legal"] and not turn["auto"]:
                    action = rng.choice(turn["legal"])
                    client.act(action, False if action in turn["belote_choice"] else None)
                    client.turn = None
    ctx = _context(browser, PHONE)
    _keep_token(ctx, tid, str(ana.token))
    page = ctx.new_page()
    errors = _errors(page)
    page.goto(f"{live.url}/#/table/{tid}")
    dialog = page.locator("#deal-end[open]")
    expect(dialog).to_have_attribute("data-over", "false")
    agreement = dialog.locator(".agreement")
    expect(agreement).to_have_attribute("data-awaited", "N S")
    expect(agreement.locator(".awaited")).to_have_text("En attente de Bruno (invité), Vous…")
    expect(dialog.locator('[data-act="next"]')).to_be_enabled()
    _no_horizontal_scroll(page)
    # Ana agrees: the summary stays open, saying who agreed and who is awaited
    dialog.locator('[data-act="next"]').click()
    expect(agreement).to_have_attribute("data-agreed", "S")
    expect(agreement).to_have_attribute("data-awaited", "N")
    expect(dialog.locator('[data-action="waiting"]')).to_be_disabled()
    # the server says: S agreed, the next deal starts by itself in 30 s
    page.evaluate(
        """() => {
          const c = window.rebelote.conn;
          c.receive({t: 'event', v: c.lastV + 1, d: {kind: 'turn', match: 1, deal: 1, seat: null,
            phase: 'done', waiting: 'next', legal: [], belote_choice: [], auto: false,
            agreed: ['S'], deadline: Date.now() / 1000 + 30}});
        }"""
    )
    expect(agreement).to_have_attribute("data-agreed", "S")
    expect(agreement).to_have_attribute("data-awaited", "N")
    expect(agreement.locator(".agreed")).to_have_text("D'accord : Vous")
    expect(agreement.locator(".awaited")).to_have_text("En attente de Bruno (invité)…")
    expect(agreement.locator('.countdown[data-reason="start"]')).to_have_text(
        re.compile(r"^Suite automatique dans (30|29|28|27|26|25) s$")
    )
    expect(dialog.locator('[data-action="waiting"]')).to_be_disabled()
    expect(dialog.locator("[data-act]")).to_have_count(0)
    expect(page.locator("#status")).to_have_text("En attente des autres joueurs…")
    dialog.locator('[data-action="close"]').click()
    # the server says: your time ran out
    page.evaluate(
        "() => window.rebelote.conn.receive({t: 'notice', d: {code: 'timed_out'}, v: null})"
    )
    banner = page.locator("#away-banner")
    expect(banner).to_be_visible()
    expect(page.locator("#away-text")).to_have_text("Temps écoulé : l'ordinateur joue pour vous")
    _no_horizontal_scroll(page)
    banner.locator('[data-action="back"]').click()
    expect(banner).to_be_hidden()
    # a server error, in the page's language
    page.evaluate(
        """() => window.rebelote.conn.receive(
          {t: 'error', d: {code: 'not_your_turn', message: 'not your turn'}, v: null})"""
    )
    expect(page.locator("#toast")).to_have_text("Ce n'est pas à vous de jouer.")
    # a computer plays for Ana and for Bruno, each about to have left: Ana
    # is spoken to ("vous"), Bruno spoken of
    page.evaluate(
        """() => {
          const room = structuredClone(window.rebelote.model.room);
          const end = Date.now() / 1000 + 600;
          for (const s of room.seats) {
            s.countdowns = [];
            if (s.kind === 'human') Object.assign(s, {away: true, away_reason: 'hold',
              countdowns: [{reason: 'leave', seconds: 600, deadline: end}]});
          }
          window.rebelote.conn.receive({t: 'room', d: room, v: null});
        }"""
    )
    me = page.locator('.seat[data-pos="bottom"] .presence')
    expect(me.locator('[data-presence="away"]')).to_have_text("l'ordinateur joue pour vous")
    expect(me.locator('.countdown[data-reason="leave"]')).to_have_text(
        re.compile(r"^(600|599|598|597|596|595) s avant que vous ayez quitté la partie$")
    )
    him = page.locator('.seat[data-pos="top"] .presence')
    expect(him.locator('[data-presence="away"]')).to_have_text("l'ordinateur joue pour lui")
    expect(him.locator('.countdown[data-reason="leave"]')).to_have_text(
        re.compile(r"^(600|599|598|597|596|595) s avant qu'il ait quitté la partie$")
    )
    assert errors == [], errors
    ctx.close()


def _play_until(clients: list[tuple[Any, str]], waiting: str, seed: int) -> None:
    """Play the seats of ``clients`` ((client, seat) pairs) at random until
    the table waits for ``waiting`` (``next`` or ``rematch``); nobody agrees
    to that."""
    rng = random.Random(seed)
    deadline = time.monotonic() + 120  # a safeguard, not a measure
    while not any(c.turn and c.turn["waiting"] == waiting for c, _ in clients):
        assert time.monotonic() < deadline, f"the table never waited for {waiting}"
        for client, seat in clients:
            with contextlib.suppress(TimeoutError):
                client.recv(timeout=0.05)
            turn = client.turn
            if not turn or turn["waiting"] == waiting or not turn["legal"] or turn["auto"]:
                continue
            if turn["waiting"] == "action" and turn["seat"] != seat:
                continue
            action = rng.choice(turn["legal"])
            client.act(action, False if action in turn["belote_choice"] else None)
            client.turn = None


def test_a_refused_rematch_is_said_to_who_agreed_and_the_replay_names_the_players(
    browser: Browser, live: LiveServer
) -> None:
    """Two guests and two computers at a lobby table to 1 point. At the end
    Ana agrees to the rematch: her summary stays open, waiting, saying who
    agreed and who is awaited; Bruno refuses (he leaves): Ana is told that
    Bruno left and there is no rematch, with "Retour au salon", and no
    "plays in North from now on" toast. The replay of that match names
    Bruno, who played it all, not the computer that took his seat."""
    from playwright.sync_api import expect

    tid, players = lobby_table(
        live, ["Ana", "Bruno"], bots="random", target=1, options={"speed": "instant"}
    )
    ana, bruno = players
    with ana.connect(tid) as a, bruno.connect(tid) as b:
        _play_until([(a, "S"), (b, "N")], "rematch", 5)
    pages = {}
    errors: list[str] = []
    for name, player in (("ana", ana), ("bruno", bruno)):
        ctx = _context(browser, PHONE)
        _keep_token(ctx, tid, str(player.token))
        page = ctx.new_page()
        errors += _errors(page)
        page.goto(f"{live.url}/#/table/{tid}")
        dialog = page.locator("#deal-end[open]")
        expect(dialog).to_have_attribute("data-over", "true")
        expect(dialog.locator(".agreement")).to_have_attribute("data-awaited", "N S")
        pages[name] = page
    page = pages["ana"]
    dialog = page.locator("#deal-end[open]")
    dialog.locator('[data-act="rematch"]').click()
    # the summary stays open, waiting for Bruno
    agreement = dialog.locator(".agreement")
    expect(agreement).to_have_attribute("data-agreed", "S")
    expect(agreement).to_have_attribute("data-awaited", "N")
    expect(agreement.locator(".agreed")).to_have_text("D'accord : Vous")
    expect(agreement.locator(".awaited")).to_have_text("En attente de Bruno (invité)…")
    expect(dialog.locator('[data-action="waiting"]')).to_be_disabled()
    # Bruno does not want a rematch: he leaves
    pages["bruno"].locator('#deal-end [data-action="leave-table"]').click()
    expect(pages["bruno"].locator("#table-missing")).to_have_attribute("data-reason", "left")
    closed = dialog.locator(".agreement[data-closed]")
    expect(closed).to_have_text("Bruno a quitté la table : pas de revanche")
    to_lobby = dialog.locator('[data-action="to-lobby"]')
    expect(to_lobby).to_have_text("Retour au salon")
    expect(to_lobby).to_have_attribute("href", "./lobby.html")
    expect(dialog.locator("[data-act]")).to_have_count(0)
    expect(dialog.locator('[data-action="waiting"]')).to_have_count(0)
    expect(page.locator("#status")).to_have_text("Pas de revanche : la table est fermée.")
    expect(page.locator("#toast")).not_to_contain_text("désormais")
    # closed, the note comes back whatever was open (here: nothing)
    page.reload()
    expect(page.locator("#deal-end[open] .agreement[data-closed]")).to_have_text(
        "Bruno a quitté la table : pas de revanche"
    )
    _no_horizontal_scroll(page)
    # the replay of that match: Bruno played it, not the computer
    page.goto(f"{live.url}/#/replay/{tid}/1")
    expect(page.locator("#replay")).to_be_visible()
    expect(page.locator('.seat[data-seat="N"] .plate .name')).to_have_text("Bruno (invité)")
    expect(page.locator('.seat[data-seat="S"] .plate .name')).to_have_text("Ana (invité)")
    expect(page.locator('.seat[data-seat="W"] .plate .name')).to_have_text("Ouest (ordinateur)")
    data = ana.http.get(f"/api/tables/{tid}/replay").json()
    north = {s["seat"]: s for s in data["deals"][0]["seats"]}["N"]
    assert north == {
        "seat": "N",
        "kind": "human",
        "name": "Bruno",
        "level": None,
        "guest": True,
        "left": False,
    }
    assert errors == [], errors


def test_the_banner_of_a_match_against_the_computer(browser: Browser, live: LiveServer) -> None:
    """Someone with a solo match going on is told so on the other pages:
    "Partie en cours contre l'ordinateur", with a link back to it."""
    from playwright.sync_api import expect

    ctx = _context(browser)
    created = ctx.request.post(live.url + "/api/tables", data={"preset": "ffb"}).json()
    page = ctx.new_page()
    page.goto(f"{live.url}/lobby.html")
    banner = page.locator("#current-game")
    expect(banner.locator(".current-text")).to_have_text("Partie en cours contre l'ordinateur")
    expect(banner.locator("a")).to_have_attribute("href", f"/#/table/{created['table_id']}")
    ctx.close()
