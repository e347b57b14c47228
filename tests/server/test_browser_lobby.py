"""The lobby, the waiting room, "My games" and the leaderboard in a real
browser, several people in several browser contexts: a friend who comes
by the invitation link, a server restart while two people wait (the
offline banner, then the room again without a reload, chat typed offline
delivered, both sent to the main table when the host starts), the list
pushed without polling, a guest who becomes an account and keeps his
history, ranked seats never offered to a guest, errors in French, and
every page at 360 x 740 without horizontal scroll.

Debian's Chromium (``/usr/bin/chromium``) is driven by Playwright (never
``playwright install``); without it the tests skip, except in CI."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from rebelote.server.app import WEB_DIR

from .live import LiveServer, play_match

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
CARDS = "(cs) => cs.map((c) => c.dataset.card)"
"""The cards of a locator's elements (``data-card``)."""


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'lobby.db'}"


@pytest.fixture
def live(db: str) -> Iterator[LiveServer]:
    """The whole app, pages included; computer players act after 50 ms."""
    with LiveServer(db, bot_delay=0.05, static_dir=WEB_DIR) as server:
        yield server


def _context(browser: Browser, viewport: dict[str, int] = DESKTOP) -> BrowserContext:
    return browser.new_context(viewport=viewport)  # type: ignore[arg-type]


def _errors(page: Page) -> list[str]:
    """The page's script errors (console errors of failed connections while
    the server is down are the browser's, not the page's)."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    return errors


def _guest(page: Page, name: str) -> None:
    form = page.locator('form[data-form="guest"]')
    form.locator('input[name="name"]').fill(name)
    form.locator("button").click()


def _post(ctx: BrowserContext, url: str, data: dict[str, Any] | None = None) -> Any:
    csrf = next(c["value"] for c in ctx.cookies() if c["name"] == "rebelote_csrf")
    r = ctx.request.post(url, data=data or {}, headers={"X-CSRF-Token": csrf})
    assert r.ok, r.text()
    return r.json()


def _no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{page.url}: {width} px wide"


def test_a_friend_by_invitation_and_a_server_restart_in_the_waiting_room(
    browser: object, db: str, shots: Path
) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    live = LiveServer(db, bot_delay=0.05, static_dir=WEB_DIR).start()
    port = live.port
    try:
        ana_ctx, bob_ctx = _context(browser), _context(browser, PHONE)
        ana_ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=live.url)
        ana, bob = ana_ctx.new_page(), bob_ctx.new_page()
        errors = _errors(ana) + _errors(bob)
        # Ana opens a private friendly table with a move clock
        ana.goto(live.url + "/lobby.html")
        _guest(ana, "Ana")
        expect(ana.locator(".topnav .who")).to_have_text("Ana (invité)")
        ana.locator('#create-form input[name="name"]').fill("Chez Ana")
        ana.locator('#create-form select[name="visibility"]').select_option("private")
        clock = ana.locator('#create-form select[name="move_clock"]')
        expect(clock.locator('option[value="30"]')).to_have_text("30 s par coup")
        clock.select_option("30")
        ana.locator("#create-form button[type=submit]").click()
        expect(ana.locator("#room-view h2")).to_contain_text("Chez Ana")
        tid = re.search(r"table=([\w-]+)", ana.url)[1]  # type: ignore[index]
        room = ana_ctx.request.get(f"{live.url}/api/lobby/tables/{tid}").json()
        assert room["options"]["move_clock"] == 30.0 and room["visibility"] == "private"
        # the invitation: copied, with a visible confirmation
        link = ana.locator("#invite-link").input_value()
        assert link == f"{live.url}/lobby.html?table={tid}&invite={room['invite']}"
        ana.locator('[data-action="copy-invite"]').click()
        expect(ana.locator(".copied")).to_have_text("Lien copié !")
        assert ana.evaluate("navigator.clipboard.readText()") == link
        # Bob opens the link on his phone, plays as a guest and sits at N
        bob.goto(link)
        expect(bob.locator("#room-view h2")).to_contain_text("Chez Ana")
        _guest(bob, "Bob")
        bob.locator('#room-view .seat[data-seat="N"] button[data-sit="N"]').click()
        expect(bob.locator('#room-view .seat[data-seat="N"] .name')).to_have_text("Bob (invité)")
        north = ana.locator('#room-view .seat[data-seat="N"]')
        expect(north.locator(".name")).to_have_text("Bob (invité)")
        expect(north.locator(".presence")).to_have_text("présent")
        # the waiting room's chat
        bob.locator("#room-chat rebelote-chat input").fill("salut Ana")
        bob.locator("#room-chat rebelote-chat input").press("Enter")
        ana_chat = ana.locator("#room-chat rebelote-chat")
        expect(ana_chat.locator('li[data-seat="N"] .text')).to_have_text("salut Ana")
        _no_horizontal_scroll(bob)

        # the server stops: both pages say so
        banner = "#offline-banner"
        expect(ana.locator(banner)).to_be_hidden()
        live.stop()
        for page in (ana, bob):
            expect(page.locator(banner)).to_be_visible()
            expect(page.locator(banner)).to_have_text("Connexion perdue — reconnexion…")
        # Bob types while it is down: kept, shown as not sent yet
        bob_chat = bob.locator("#room-chat rebelote-chat")
        bob_chat.locator("input").fill("pendant la coupure")
        bob_chat.locator("input").press("Enter")
        pending = bob_chat.locator('li.pending[data-pending="queued"]')
        expect(pending.locator(".text")).to_have_text("pendant la coupure")
        expect(pending.locator(".state")).to_have_text(
            "pas encore envoyé : en attente de connexion…"
        )
        # the server is back on the same database and port: no reload
        down = time.monotonic()
        live = LiveServer(db, bot_delay=0.05, static_dir=WEB_DIR, port=port).start()
        up = time.monotonic()
        for page in (ana, bob):
            expect(page.locator(banner)).to_be_hidden(timeout=20_000)
        back = time.monotonic()  # a figure for the notes, never asserted
        for page in (ana, bob):
            expect(page.locator('#room-view .seat[data-seat="S"] .name')).to_have_text(
                "Ana (invité)"
            )
        expect(north.locator(".presence")).to_have_text("présent")
        expect(ana_chat.locator('li[data-seat="N"] .text').last).to_have_text("pendant la coupure")
        expect(bob_chat.locator("li.pending")).to_have_count(0)
        # Ana fills the seats and starts: both land at the main table
        ana.locator("#fill").click()
        expect(ana.locator('#room-view .seat[data-seat="W"] .level')).to_have_text(
            "ordinateur (confirmé)"
        )
        ana.locator("#start").click()
        for page in (ana, bob):
            page.wait_for_url(re.compile(rf"/#/table/{tid}$"), timeout=15_000)
            expect(page.locator("#table-page")).to_be_visible()
            expect(page.locator("#table-page")).to_have_attribute("data-ready", "1")
        # a match running: every page says so, the start page too
        for path in ("/history.html", "/"):
            bob.goto(live.url + path)
            current = bob.locator("#current-game")
            expect(current).to_contain_text("Partie en cours : Chez Ana")
            expect(current.locator("a")).to_have_text("Reprendre")
            expect(current.locator("a")).to_have_attribute("href", f"/#/table/{tid}")
        bob.locator("#current-game a").click()
        expect(bob.locator("#table-page")).to_have_attribute("data-ready", "1")
        (shots / "lobby-restart.json").write_text(
            json.dumps(
                {
                    "server start (s)": round(up - down, 2),
                    "server start to both pages back (s)": round(back - down, 2),
                }
            )
        )
        assert errors == [], errors
        for ctx in (ana_ctx, bob_ctx):
            ctx.close()
    finally:
        live.stop()


def test_the_list_is_pushed_a_guest_becomes_an_account_errors_in_french_on_a_phone(
    browser: object, live: LiveServer
) -> None:
    from urllib.parse import urlparse

    from playwright.sync_api import Browser, WebSocketRoute, expect

    assert isinstance(browser, Browser)
    eve_ctx, ana_ctx, carla_ctx = (
        _context(browser, PHONE),
        _context(browser),
        _context(browser),
    )
    eve = eve_ctx.new_page()
    errors = _errors(eve)
    polled: list[str] = []

    def request(req: Any) -> None:
        path = urlparse(req.url).path
        if req.method == "GET" and (path == "/api/lobby" or path.startswith("/api/lobby/")):
            polled.append(path)

    eve.on("request", request)
    # Eve's lobby socket passes through here: frozen, its pushes are dropped
    frozen = [False]

    def lobby_socket(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        server.on_message(lambda m: None if frozen[0] else ws.send(m))

    eve.route_web_socket(re.compile(r"/ws/lobby$"), lobby_socket)
    eve.goto(live.url + "/lobby.html")
    expect(eve.locator("#no-tables")).to_have_text(
        "Aucune table publique pour l'instant : ouvrez-en une."
    )
    _no_horizontal_scroll(eve)
    # a ranked table appears without a reload; nobody logged in may sit
    r = carla_ctx.request.post(
        live.url + "/api/auth/signup", data={"name": "Carla", "password": "belote-pass"}
    )
    assert r.ok, r.text()
    ranked = _post(carla_ctx, live.url + "/api/lobby/tables", {"name": "Classée", "ranked": True})
    rid = ranked["table_id"]
    card = eve.locator(f'#tables [data-table="{rid}"]')
    expect(card.locator("h3")).to_have_text("Classée")
    expect(card.locator(".rules")).to_have_text("Belote classique (FFB) en 1000 · classée")
    expect(card.locator(".note")).to_have_text(
        "Jouez en invité ou connectez-vous pour vous asseoir."
    )
    # a guest is never offered a ranked seat: an explanation instead
    _guest(eve, "Eve")
    expect(eve.locator(".topnav .who")).to_have_text("Eve (invité)")
    expect(card.locator(f'[data-ranked-guest="{rid}"]')).to_have_text(
        "Table classée : créez un compte pour vous y asseoir."
    )
    expect(card.locator("[data-join]")).to_have_count(0)
    ranked_option = eve.locator('#create-form select[name="ranked"] option[value="true"]')
    expect(ranked_option).to_be_disabled()
    expect(eve.locator("#ranked-note")).to_have_text("Les tables classées demandent un compte.")
    # Ana's friendly table: pushed, seats offered
    r = ana_ctx.request.post(live.url + "/api/auth/guest", data={"name": "Ana"})
    assert r.ok, r.text()
    aid = _post(ana_ctx, live.url + "/api/lobby/tables", {"name": "Chez Ana"})["table_id"]
    friendly = eve.locator(f'#tables [data-table="{aid}"]')
    expect(friendly.locator(f'[data-join="{aid}:N"]')).to_have_text("S'asseoir en Nord")
    _no_horizontal_scroll(eve)
    # Bob takes N while Eve's page hears nothing: her click is refused, in French
    frozen[0] = True
    bob_ctx = _context(browser)
    r = bob_ctx.request.post(live.url + "/api/auth/guest", data={"name": "Bob"})
    assert r.ok, r.text()
    _post(bob_ctx, f"{live.url}/api/lobby/tables/{aid}/join", {"seat": "N"})
    friendly.locator(f'[data-join="{aid}:N"]').click()
    expect(eve.locator("#lobby-error")).to_have_text(
        "Cette place vient d'être prise : choisissez-en une autre."
    )
    frozen[0] = False
    eve.reload()
    expect(friendly.locator(f'[data-join="{aid}:N"]')).to_have_count(0)
    friendly.locator(f'[data-join="{aid}:W"]').click()
    expect(eve.locator('#room-view .seat[data-seat="W"] .name')).to_have_text("Eve (invité)")
    expect(eve.locator('#room-view .seat[data-seat="W"] .presence')).to_have_text("présent")
    _no_horizontal_scroll(eve)

    # a match Eve plays as a guest (target 1: one deal), by a script on her seat
    made = _post(
        eve_ctx,
        live.url + "/api/lobby/tables",
        {"name": "Une donne", "target": 1, "options": {"speed": "instant"}},
    )
    mid = made["table_id"]
    _post(eve_ctx, f"{live.url}/api/lobby/tables/{mid}/fill", {"level": "random"})
    _post(eve_ctx, f"{live.url}/api/lobby/tables/{mid}/start")
    with live.connect(mid, made["token"]) as client:
        play_match(client, random.Random(3))
    eve.goto(live.url + "/history.html")
    row = eve.locator(f'#results tbody tr[data-table="{mid}"]')
    expect(row).to_have_count(1)
    expect(row.locator("[data-replay]")).to_have_attribute("href", f"/#/replay/{mid}")
    _no_horizontal_scroll(eve)
    # the waiting room where she sits: the banner leads back to it
    banner = eve.locator("#current-game")
    expect(banner).to_contain_text("Une table vous attend : Chez Ana")
    expect(banner.locator("a")).to_have_attribute("href", f"/lobby.html?table={aid}")

    # Eve becomes an account from her guest session: same player, same history
    eve.goto(live.url + "/lobby.html")
    upgrade = eve.locator('form[data-form="upgrade"]')
    expect(upgrade.locator('input[name="name"]')).to_have_value("Eve")
    upgrade.locator('input[name="password"]').fill("court")
    upgrade.locator("button").click()
    expect(eve.locator('#account .error[role="alert"]')).to_have_text(
        "Mot de passe trop court : 8 caractères au moins."
    )
    upgrade.locator('input[name="password"]').fill("belote-pass")
    upgrade.locator("button").click()
    expect(eve.locator(".topnav .who")).to_contain_text("Eve · niveau")
    expect(eve.locator("form[data-form='upgrade']")).to_have_count(0)
    # now she may sit at the ranked table; her seat at Ana's lost its mark
    expect(card.locator(f'[data-join="{rid}:N"]')).to_be_visible()
    expect(friendly.locator('[data-seat="W"] .name')).to_have_text("Eve")
    eve.goto(live.url + "/history.html")
    expect(eve.locator(f'#results tbody tr[data-table="{mid}"]')).to_have_count(1)
    expect(eve.locator(f'#running tbody tr[data-table="{aid}"]')).to_have_count(1)
    eve.goto(live.url + "/leaderboard.html")
    expect(eve.locator("#empty")).to_have_text("Aucune partie classée pour l'instant.")
    _no_horizontal_scroll(eve)

    # a private table that has started: no "Regarder" for a visitor
    private = _post(
        carla_ctx, live.url + "/api/lobby/tables", {"name": "Entre nous", "visibility": "private"}
    )
    pid = private["table_id"]
    _post(carla_ctx, f"{live.url}/api/lobby/tables/{pid}/fill", {"level": "random"})
    _post(carla_ctx, f"{live.url}/api/lobby/tables/{pid}/start")
    eve.goto(f"{live.url}/lobby.html?table={pid}&invite={private['invite']}")
    expect(eve.locator("#room-view .room-note")).to_have_text("La partie a commencé.")
    expect(eve.locator("#room-view [data-watch]")).to_have_count(0)
    expect(eve.locator(f'#tables [data-table="{pid}"]')).to_have_count(0)
    # nothing was polled: the list and the rooms came over the socket
    assert polled == [], polled
    assert errors == [], errors
    for ctx in (eve_ctx, ana_ctx, carla_ctx, bob_ctx):
        ctx.close()


def test_the_seat_token_stays_out_of_websocket_urls_and_a_restart_resumes(
    browser: object, db: str
) -> None:
    """The main table opens ``/ws/ID`` and says its seat's token in its first
    message (``hello``, with ``last_v``), never in a URL; after a server
    restart the page comes back by itself with the version it holds and the
    same hand, and plays on."""
    from playwright.sync_api import Browser, WebSocket, expect

    assert isinstance(browser, Browser)
    live = LiveServer(db, bot_delay=0.05, static_dir=WEB_DIR).start()
    port = live.port
    try:
        ctx = _context(browser)
        r = ctx.request.post(live.url + "/api/auth/guest", data={"name": "Ana"})
        assert r.ok, r.text()
        made = _post(
            ctx,
            live.url + "/api/lobby/tables",
            {"name": "Sans jeton", "seat": "S", "options": {"speed": "instant"}},
        )
        tid, token = made["table_id"], made["token"]
        _post(ctx, f"{live.url}/api/lobby/tables/{tid}/fill", {"level": "random"})
        _post(ctx, f"{live.url}/api/lobby/tables/{tid}/start")
        ctx.add_init_script(
            f"localStorage.setItem('rebelote.tables', JSON.stringify({{{tid!r}: {token!r}}}))"
        )
        page = ctx.new_page()
        errors = _errors(page)
        sockets: list[tuple[str, list[Any]]] = []  # every socket: its URL, what it sent

        def opened(ws: WebSocket) -> None:
            sent: list[Any] = []
            sockets.append((ws.url, sent))
            ws.on("framesent", lambda payload: sent.append(json.loads(payload)))

        page.on("websocket", opened)
        page.goto(f"{live.url}/#/table/{tid}")
        table_page = page.locator("#table-page")
        expect(table_page).to_have_attribute("data-my-turn", "true")
        hand = page.locator("#hand [data-card]").evaluate_all(CARDS)
        before = page.evaluate("window.rebelote.conn.lastV")
        assert isinstance(before, int) and before > 0

        # the server stops, and comes back on the same database and port
        live.stop()
        expect(page.locator("#offline-banner")).to_be_visible()
        live = LiveServer(db, bot_delay=0.05, static_dir=WEB_DIR, port=port).start()
        expect(page.locator("#offline-banner")).to_be_hidden(timeout=20_000)
        expect(table_page).to_have_attribute("data-my-turn", "true")
        expect(page.locator("#hand [data-card]")).to_have_count(len(hand))
        after = page.locator("#hand [data-card]").evaluate_all(CARDS)
        assert after == hand

        table_url = f"ws://127.0.0.1:{port}/ws/{tid}"
        table_sockets = [(url, sent) for url, sent in sockets if "/ws/lobby" not in url]
        assert [url for url, _ in table_sockets] == [table_url] * len(table_sockets)
        assert len(table_sockets) >= 2
        assert not [url for url, _ in sockets if "token=" in url]
        hellos = [sent[0] for _, sent in table_sockets if sent]  # those that opened
        assert hellos[0] == {"t": "hello", "d": {"token": token, "last_v": None}}
        # the first socket after the restart resumes from the version held
        assert hellos[1] == {"t": "hello", "d": {"token": token, "last_v": before}}
        assert all(h == {"t": "hello", "d": {"token": token, "last_v": before}} for h in hellos[1:])

        # and the table plays on: the page's choice goes on the new socket
        # and is taken (the stream moves past the version it resumed from)
        choice = page.locator("#actions button[data-act]").first
        action = choice.get_attribute("data-act")
        choice.click()
        page.wait_for_function("(v) => window.rebelote.conn.lastV > v", arg=before)
        acts = [m["d"]["action"] for m in table_sockets[-1][1] if m["t"] == "act"]
        assert acts == [action]

        # the seat's token is replaced elsewhere (another device): the next
        # connection's hello is refused (bad_token), and the page asks for a
        # token of its own, once, and is back at its seat
        elsewhere = _post(ctx, f"{live.url}/api/lobby/tables/{tid}/token")["token"]
        count = len(sockets)
        page.evaluate("window.rebelote.conn.reconnectNow()")
        page.wait_for_function(
            "(old) => window.rebelote.conn && !old.includes(window.rebelote.conn.token)",
            arg=[token, elsewhere],
        )
        expect(table_page).to_have_attribute("data-ready", "1")
        expect(table_page).to_have_attribute("data-mode", "play")
        expect(page.locator("#hand [data-card]").first).to_be_visible()
        fresh = page.evaluate("window.rebelote.conn.token")
        stored = page.evaluate("JSON.parse(localStorage.getItem('rebelote.tables'))")
        assert stored == {tid: fresh}
        later = [(url, sent) for url, sent in sockets[count:] if sent]
        assert [url for url, _ in later] == [table_url, table_url]
        refused, welcome = (sent[0] for _, sent in later)
        assert (refused["t"], refused["d"]["token"]) == ("hello", token)
        assert refused["d"]["last_v"] > before
        assert welcome == {"t": "hello", "d": {"token": fresh, "last_v": None}}
        assert errors == [], errors
        ctx.close()
    finally:
        live.stop()


def test_a_line_said_before_the_chat_history_arrives_is_said_once(
    browser: object, live: LiveServer
) -> None:
    """A line typed on a connection whose ``chat_history`` has not come yet
    is not sent again when that history (made before the server read the
    line) arrives without it: it is said once."""
    from playwright.sync_api import Browser, WebSocketRoute, expect

    assert isinstance(browser, Browser)
    ctx = _context(browser)
    r = ctx.request.post(live.url + "/api/auth/guest", data={"name": "Ana"})
    assert r.ok, r.text()
    made = _post(
        ctx,
        live.url + "/api/lobby/tables",
        {"name": "Une fois", "seat": "S", "options": {"speed": "instant"}},
    )
    tid, token = made["table_id"], made["token"]
    _post(ctx, f"{live.url}/api/lobby/tables/{tid}/fill", {"level": "random"})
    _post(ctx, f"{live.url}/api/lobby/tables/{tid}/start")
    ctx.add_init_script(
        f"localStorage.setItem('rebelote.tables', JSON.stringify({{{tid!r}: {token!r}}}))"
    )
    page = ctx.new_page()
    errors = _errors(page)
    # the first socket's messages from its chat_history on are held (in
    # order) until the line is typed: the server sent the history first
    held: list[str | bytes] = []
    holding = [True]
    routes: list[WebSocketRoute] = []

    def table_socket(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        routes.append(ws)
        first = len(routes) == 1

        def to_page(message: str | bytes) -> None:
            if first and holding[0] and (held or '"t":"chat_history"' in str(message)):
                held.append(message)
            else:
                ws.send(message)

        server.on_message(to_page)

    page.route_web_socket(re.compile(rf"/ws/{tid}$"), table_socket)
    page.goto(f"{live.url}/#/table/{tid}")
    expect(page.locator("#table-page")).to_have_attribute("data-ready", "1")
    chat = page.locator("#table-chat")
    chat.locator("input").fill("une seule fois")
    chat.locator("input").press("Enter")
    expect(chat.locator('li.pending[data-pending="sent"] .text')).to_have_text("une seule fois")
    # its echo comes after the history, which does not have the line

    def echoed() -> bool:
        return any('"t":"chat"' in str(m) and "une seule fois" in str(m) for m in held)

    for _ in range(200):
        if echoed():
            break
        page.wait_for_timeout(50)
    assert echoed()
    holding[0] = False
    for message in held:
        routes[0].send(message)
    expect(chat.locator('li[data-seat="S"] .text')).to_have_text("une seule fois")
    expect(chat.locator("li.pending")).to_have_count(0)
    expect(chat.locator('li[data-seat="S"]')).to_have_count(1)
    # the server has it once: a new page's history
    other = ctx.new_page()
    other.goto(f"{live.url}/#/table/{tid}")
    expect(other.locator('#table-chat li[data-seat="S"] .text')).to_have_text("une seule fois")
    page.wait_for_timeout(500)  # a second line would have come back by now
    expect(other.locator('#table-chat li[data-seat="S"]')).to_have_count(1)
    expect(chat.locator('li[data-seat="S"]')).to_have_count(1)
    assert errors == [], errors
    ctx.close()


def test_a_player_on_the_lobby_list_goes_to_his_table_when_it_starts(
    browser: object, live: LiveServer
) -> None:
    """Ana waits on the lobby's list (no room open) for her private table,
    Bob for Carla's public one, each having sat down in this browser: each
    is sent to the main table the moment it starts (the lobby socket's
    ``seated``); Eve, who sits at neither, stays, and when her own table,
    opened on another device, starts, she is not taken from it: the banner
    says so; back on the list while his match goes on, Bob stays too."""
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    ctxs = {name: _context(browser, PHONE) for name in ("ana", "bob", "carla", "eve")}
    for name, ctx in ctxs.items():
        r = ctx.request.post(live.url + "/api/auth/guest", data={"name": name.title()})
        assert r.ok, r.text()
    private = _post(
        ctxs["ana"],
        live.url + "/api/lobby/tables",
        {"name": "Chez Ana", "visibility": "private", "options": {"speed": "instant"}},
    )
    aid = private["table_id"]
    public = _post(
        ctxs["carla"],
        live.url + "/api/lobby/tables",
        {"name": "Chez Carla", "options": {"speed": "instant"}},
    )
    cid = public["table_id"]
    joined = _post(ctxs["bob"], f"{live.url}/api/lobby/tables/{cid}/join", {"seat": "N"})
    # Eve's own table, opened on another device: her seat's token is not here
    eid = _post(
        ctxs["eve"],
        live.url + "/api/lobby/tables",
        {"name": "Chez Eve", "visibility": "private", "options": {"speed": "instant"}},
    )["table_id"]
    # Ana and Bob sat down in these browsers: their seats' tokens are kept
    # there, as the lobby keeps them
    for name, table_id, token in (("ana", aid, private["token"]), ("bob", cid, joined["token"])):
        ctxs[name].add_init_script(
            f"localStorage.setItem('rebelote.tables', JSON.stringify({{{table_id!r}: {token!r}}}))"
        )
    pages = {name: ctxs[name].new_page() for name in ("ana", "bob", "eve")}
    errors = [e for page in pages.values() for e in _errors(page)]
    for page in pages.values():
        page.goto(live.url + "/lobby.html")
    card = f'#tables [data-table="{cid}"]'
    expect(pages["bob"].locator(card)).to_contain_text("Vous avez une place à cette table.")
    expect(pages["eve"].locator(card)).to_be_visible()
    for page in pages.values():
        expect(page.locator("#room")).to_be_hidden()
    # Ana's private table starts (from her other device): she goes to it
    for path in ("fill", "start"):
        _post(ctxs["ana"], f"{live.url}/api/lobby/tables/{aid}/{path}", {"level": "random"})
    pages["ana"].wait_for_url(f"{live.url}/#/table/{aid}")
    expect(pages["ana"].locator("#table-page")).to_have_attribute("data-ready", "1")
    assert pages["ana"].evaluate("window.rebelote.model.you") == "S"
    # Carla's public table starts: Bob goes to it, Eve sees it playing and stays
    for path in ("fill", "start"):
        _post(ctxs["carla"], f"{live.url}/api/lobby/tables/{cid}/{path}", {"level": "random"})
    pages["bob"].wait_for_url(f"{live.url}/#/table/{cid}")
    expect(pages["bob"].locator("#table-page")).to_have_attribute("data-ready", "1")
    assert pages["bob"].evaluate("window.rebelote.model.you") == "N"
    expect(pages["eve"].locator(card)).to_have_attribute("data-status", "playing")
    # Eve's table starts: her seat is played elsewhere, the banner says so
    for path in ("fill", "start"):
        _post(ctxs["eve"], f"{live.url}/api/lobby/tables/{eid}/{path}", {"level": "random"})
    expect(pages["eve"].locator("#current-game")).to_contain_text("Partie en cours : Chez Eve")
    # back on the list while his match goes on: Bob stays, the banner says so
    pages["bob"].goto(live.url + "/lobby.html")
    expect(pages["bob"].locator(card)).to_have_attribute("data-status", "playing")
    expect(pages["bob"].locator("#current-game")).to_contain_text("Partie en cours : Chez Carla")
    pages["bob"].wait_for_timeout(500)  # time for a wrong move to the table
    for name in ("bob", "eve"):
        expect(pages[name]).to_have_url(f"{live.url}/lobby.html")
    assert errors == [], errors
    for ctx in ctxs.values():
        ctx.close()


def test_the_create_form_waits_for_its_script_fields_named_errors_cleared_one_click_at_a_time(
    browser: object, live: LiveServer
) -> None:
    """The create form cannot be sent before its script is ready; a table
    opened without a name is worded "Table de NAME"; an invalid field is
    named; a form's error goes when another form is sent or when it is
    typed in; a double click sends one request; the last one out of a
    waiting room is back on /lobby.html."""
    from playwright.sync_api import Browser, Route, expect

    assert isinstance(browser, Browser)
    ctx = _context(browser)
    page = ctx.new_page()
    errors = _errors(page)
    held: list[Route] = []
    page.route("**/api/presets", lambda route: held.append(route))
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.goto(live.url + "/lobby.html")

    # one form's error goes when another is sent, and when it is typed in
    signup = page.locator('form[data-form="signup"]')
    signup.locator('input[name="name"]').fill("Ana")
    signup.locator('input[name="password"]').fill("court")
    signup.locator("button").click()
    signup_error = page.locator('[data-form-error="signup"]')
    expect(signup_error).to_have_text("Mot de passe trop court : 8 caractères au moins.")
    login = page.locator('form[data-form="login"]')
    login.locator('input[name="name"]').fill("Personne")
    login.locator('input[name="password"]').fill("belote-pass")
    login.locator("button").click()
    login_error = page.locator('[data-form-error="login"]')
    expect(login_error).to_have_text("Nom ou mot de passe incorrect.")
    expect(signup_error).to_have_text("")
    login.locator('input[name="name"]').press_sequentially("x")
    expect(login_error).to_have_text("")

    # the create form shows before the rules arrive: it cannot be sent yet
    _guest(page, "Ana")
    create = page.locator("#create-form")
    submit = create.locator('button[type="submit"]')
    expect(create).to_be_visible()
    expect(submit).to_be_disabled()
    create.locator('input[name="name"]').press("Enter")
    assert len(held) == 1
    held[0].continue_()
    expect(submit).to_be_enabled()
    assert page.url == live.url + "/lobby.html"
    assert not any("/api/lobby/tables" in u for u in posts)

    # a name the server refuses: the field is named
    create.locator('input[name="name"]').fill("Chez\u200bAna")
    submit.click()
    create_error = page.locator("#create-error")
    expect(create_error).to_have_text(
        "Le champ « Nom » n'est pas valable : vérifiez ce que vous avez saisi."
    )
    create.locator('input[name="name"]').fill("")
    expect(create_error).to_have_text("")

    # no name: the table is "Table de Ana" (stored empty)
    submit.click()
    expect(page.locator("#room-view h2")).to_contain_text("Table de Ana · ")
    tid = re.search(r"table=([\w-]+)", page.url)[1]  # type: ignore[index]
    assert ctx.request.get(f"{live.url}/api/lobby/tables/{tid}").json()["name"] == ""
    expect(page.locator(f'#tables li[data-table="{tid}"] h3')).to_have_text("Table de Ana")

    # a double click on "Compléter": one request
    def sent(path: str) -> int:
        return sum(1 for u in posts if u.endswith(f"/api/lobby/tables/{tid}/{path}"))

    page.locator("#fill").evaluate("(b) => { b.click(); b.click(); }")
    expect(page.locator('#room-view .seat[data-kind="open"]')).to_have_count(0)
    expect(page.locator("#fill")).to_be_enabled()
    assert sent("fill") == 1
    # the last one out: back on the list, the address without the table
    # (replaced in place: the page is not loaded again)
    page.evaluate("window.sameDocument = true")
    page.locator("#leave-room").evaluate("(b) => { b.click(); b.click(); }")
    expect(page).to_have_url(live.url + "/lobby.html")
    assert page.evaluate("window.sameDocument") is True
    expect(page.locator("#room")).to_be_hidden()
    expect(page.locator(f'#tables li[data-table="{tid}"]')).to_have_count(0)
    assert sent("leave") == 1

    # a double click on "Commencer": one request, then the table
    submit.click()
    expect(page.locator("#room-view h2")).to_contain_text("Table de Ana · ")
    tid = re.search(r"table=([\w-]+)", page.url)[1]  # type: ignore[index]
    page.locator("#fill").click()
    expect(page.locator('#room-view .seat[data-kind="open"]')).to_have_count(0)
    page.locator("#start").evaluate("(b) => { b.click(); b.click(); }")
    expect(page).to_have_url(f"{live.url}/#/table/{tid}")
    assert sent("start") == 1
    assert errors == []
    ctx.close()


def test_my_games_say_why_a_match_did_not_count_and_the_leaderboard_says_how_it_counts(
    browser: object, live: LiveServer
) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    ctx = _context(browser, PHONE)
    r = ctx.request.post(live.url + "/api/auth/guest", data={"name": "Léa"})
    assert r.ok, r.text()
    # a waiting room without a name, and a match Léa left
    waiting = _post(ctx, live.url + "/api/lobby/tables", {})["table_id"]
    made = _post(ctx, live.url + "/api/lobby/tables", {"name": "Partie quittée"})["table_id"]
    _post(ctx, f"{live.url}/api/lobby/tables/{made}/fill", {"level": "random"})
    _post(ctx, f"{live.url}/api/lobby/tables/{made}/start")
    _post(ctx, f"{live.url}/api/lobby/tables/{made}/leave")
    page = ctx.new_page()
    page.goto(live.url + "/history.html")
    row = page.locator(f'#results tbody tr[data-table="{made}"]')
    expect(row.locator(".rating")).to_have_text("non classée : un joueur a quitté la partie")
    expect(row.locator(".rating")).to_have_attribute("data-unrated", "left")
    running = page.locator(f'#running tbody tr[data-table="{waiting}"] td').first
    expect(running).to_have_text("Table de Léa")
    _no_horizontal_scroll(page)
    page.goto(live.url + "/leaderboard.html")
    about = page.locator('[data-i18n="board.about"]')
    expect(about).to_contain_text("Le classement part de 1500")
    expect(about).to_contain_text("un joueur l'a quittée")
    expect(about).not_to_contain_text("docs/")
    expect(about).not_to_contain_text("sigma")
    # in English too (the toggle reloads the page)
    with page.expect_navigation():
        page.locator("[data-lang-toggle]").click()
    expect(about).to_contain_text("Ratings start at 1500")
    page.goto(live.url + "/history.html")
    expect(row.locator(".rating")).to_have_text("not rated: a player left the match")
    expect(running).to_have_text("Léa's table")
    ctx.close()
