"""The tournament page in a real browser: a person joins, the first round's
pairing and then the standings arrive pushed (no reload), each table a
link (her own to play, the others to watch).  Debian's Chromium
(``/usr/bin/chromium``) driven by Playwright, as ``test_browser_lobby.py``."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy import update

from rebelote.server.app import WEB_DIR
from rebelote.server.storage.tables import Store
from rebelote.server.storage.tournaments import TournamentRow, TournamentStore
from rebelote.server.tournaments.pairing import SEATS

from .live import LiveServer
from .net import Player, Seated, play_together

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(f"sqlite:///{tmp_path / 't.db'}", bot_delay=0.0, static_dir=WEB_DIR) as s:
        yield s


def _post(ctx: BrowserContext, url: str, data: dict[str, Any] | None = None) -> Any:
    csrf = next(c["value"] for c in ctx.cookies() if c["name"] == "rebelote_csrf")
    r = ctx.request.post(url, data=data or {}, headers={"X-CSRF-Token": csrf})
    assert r.ok, r.text()
    return r.json()


def test_the_tournament_page_shows_pairings_and_standings_as_they_change(
    browser: object, live: LiveServer, shots: Path
) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    store: Store = live.app.state.store
    tid = TournamentStore(store).create(
        name="Coupe du jeudi",
        kind="swiss",
        preset="seed002",
        target=1,
        level="random",
        rounds=1,
        minutes=None,
        starts_at=time.time() + 3600,
        now=time.time(),
    )
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    r = ctx.request.post(
        f"{live.url}/api/auth/signup", data={"name": "Ada", "password": "correct horse"}
    )
    assert r.status == 201, r.text()
    page.goto(f"{live.url}/tournament.html?id={tid}")
    expect(page.locator("#t-name")).to_have_text("Coupe du jeudi")
    join = page.locator('[data-action="join"]')
    expect(join).to_have_text("S'inscrire")
    join.click()
    expect(page.locator('#standings li[data-name="Ada"]')).to_have_count(1)
    expect(page.locator('[data-action="leave"]')).to_be_visible()
    page.evaluate("window.__sameDocument = true")
    others = {}
    for name in ("Bea", "Cid", "Dan"):
        p = Player(live).signup(name)
        p.ok(f"/api/tournaments/{tid}/join")
        others[name] = p
    # the others' entries arrive pushed
    expect(page.locator("#standings li[data-name]")).to_have_count(4)
    with store.engine.begin() as connection:
        connection.execute(
            update(TournamentRow).where(TournamentRow.id == tid).values(starts_at=time.time() - 1)
        )
    link = page.locator("#pairings [data-table]")
    expect(link).to_have_count(1, timeout=30000)
    expect(page.locator('[data-action="join"]')).to_be_hidden()
    view = ctx.request.get(f"{live.url}/api/tournaments/{tid}").json()
    table = view["tables"][0]
    assert table["seats"] == ["Ada", "Bea", "Dan", "Cid"]
    assert link.get_attribute("data-table") == table["table"]
    assert link.get_attribute("href") == f"/#/table/{table['table']}"  # hers: to play
    page.screenshot(path=str(shots / "tournament-round.png"))

    seated = []
    for letter, name in zip(SEATS, table["seats"], strict=True):
        if name == "Ada":
            token = _post(ctx, f"{live.url}/api/lobby/tables/{table['table']}/token")["token"]
            seated.append(Seated(letter, live.connect(table["table"], token)))
        else:
            p = others[name]
            p.token = p.ok(f"/api/lobby/tables/{table['table']}/token")["token"]
            seated.append(Seated(letter, p.connect(table["table"])))
    play_together(
        seated,
        random.Random(5),
        until=lambda: any(e["kind"] == "match_end" for e in seated[0].client.events),
        timeout=120,
    )
    for s in seated:
        s.client.close()
    expect(page.locator('#tournament[data-status="finished"]')).to_have_count(1, timeout=30000)
    final = ctx.request.get(f"{live.url}/api/tournaments/{tid}").json()
    ranks = page.locator("#standings li[data-name]")
    expect(ranks).to_have_count(4)
    shown = ranks.evaluate_all(
        "(ls) => ls.map((l) => [l.dataset.name, Number(l.dataset.rank), Number(l.dataset.points)])"
    )
    assert shown == [[s["name"], s["rank"], s["points"]] for s in final["standings"]]
    assert sorted(s["points"] for s in final["standings"]) == [0, 0, 1, 1]
    # "1 pt" and "0 pt" in French, never "1 pts"
    assert ranks.all_inner_texts() == [
        f"{s['rank']}. {s['name']} : {s['points']} pt, 1 jouées, départage {s['tiebreak']}"
        for s in final["standings"]
    ]
    # the finished table: a link to watch it now
    assert link.get_attribute("href") == f"/#/watch/{table['table']}"
    assert page.evaluate("window.__sameDocument") is True  # pushed, never reloaded
    page.screenshot(path=str(shots / "tournament-finished.png"))
    # the list: under "Terminés", a link to the page
    page.goto(f"{live.url}/tournaments.html")
    item = page.locator(f'#finished li[data-tournament="{tid}"]')
    expect(item.locator("a")).to_have_text("Coupe du jeudi")
    assert item.locator("a").get_attribute("href") == f"/tournament.html?id={tid}"
    expect(page.locator("#running-empty")).to_be_visible()
    # her profile lists the tournament with her standing, linking to its page
    ada = next(s for s in final["standings"] if s["name"] == "Ada")
    page.goto(f"{live.url}/profile.html?name=Ada")
    row = page.locator("#tournaments li[data-tournament]")
    expect(row).to_have_count(1)
    assert row.get_attribute("data-tournament") == str(tid)
    expect(row.locator("a")).to_have_text("Coupe du jeudi")
    assert row.locator("a").get_attribute("href") == f"/tournament.html?id={tid}"
    expect(row.locator(".status")).to_have_text("terminé")
    expect(row.locator(".score")).to_have_text(
        f"rang {ada['rank']} sur 4 · {ada['points']} pt · parties jouées : 1"
    )
    # its match in her last games: seed002 played to the tournament's target (1)
    game = page.locator("#last-games li")
    expect(game).to_have_count(1)
    expect(game.locator(".rules")).to_have_text("Le donneur entame, en 1")
    ctx.close()
    assert errors == []
