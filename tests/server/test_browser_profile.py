"""The profile page in a real browser: reached from the leaderboard, the
rating chart with one point per rated match, the statistics as the API
gives them, no trophies while the server keeps none, the last games each
opening its replay (by the keyboard too), in French and English, at 360 x
740 and 1280 x 800.

Debian's Chromium (``/usr/bin/chromium``) is driven by Playwright (never
``playwright install``); without it the tests skip, except in CI."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from rebelote.server.app import WEB_DIR

from .live import LiveServer
from .test_profiles import Bidder, play_rated_matches

if TYPE_CHECKING:
    from playwright.sync_api import Page

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    """The whole app, pages included."""
    with LiveServer(f"sqlite:///{tmp_path / 'profile.db'}", static_dir=WEB_DIR) as server:
        yield server


def _errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    return errors


def _no_horizontal_scroll(page: Page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{page.url}: {scroll} px wide"


def test_a_profile_with_its_chart_and_a_last_game_opening_its_replay(
    browser: object, live: LiveServer, shots: Path
) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    table_id, ana, _ends = play_rated_matches(live, "Ana", 3, Bidder(7), target=150)
    profile = ana.http.get("/api/profiles/Ana").json()
    assert len(profile["rating_history"]) == 3 and len(profile["last_games"]) == 3
    trophies = ana.http.get("/api/profiles/Ana/trophies?lang=fr").json()
    ana.close()

    ctx = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    page = ctx.new_page()
    errors = _errors(page)
    # from the leaderboard, by the player's name
    page.goto(live.url + "/leaderboard.html")
    link = page.locator("#board a.profile-link", has_text="Ana")
    expect(link).to_have_attribute("href", "/profile.html?name=Ana")
    link.click()
    expect(page).to_have_url(live.url + "/profile.html?name=Ana")
    root = page.locator("#profile")
    expect(root).to_be_visible()
    expect(root.locator('[data-stat="name"]')).to_have_text("Ana")
    expect(root.locator('[data-stat="level"]')).to_have_text(str(profile["level"]))
    expect(root.locator('[data-stat="xp"]')).to_have_text(str(profile["xp"]))
    expect(root.locator('[data-stat="rating"]')).to_have_text(str(profile["rating"]))
    expect(root.locator('[data-stat="games_played"]')).to_have_text("3")
    expect(root.locator('[data-stat="games_won"]')).to_have_text(str(profile["games_won"]))
    expect(root.locator('[data-stat="capots"]')).to_have_text(str(profile["capots"]))
    taken = profile["contracts_taken"]
    expect(root.locator('[data-stat="contracts_taken"]')).to_have_text(str(taken))
    pct = profile["contracts_made_pct"]
    french = "—" if pct is None else f"{pct:g} %".replace(".", ",")
    expect(root.locator('[data-stat="contracts_made_pct"]')).to_have_text(french)
    # the chart: one point per rated match, the ratings in order
    points = page.locator("#rating-chart svg circle.point")
    expect(points).to_have_count(3)
    assert points.evaluate_all("(cs) => cs.map((c) => Number(c.dataset.rating))") == [
        p["rating"] for p in profile["rating_history"]
    ]
    expect(page.locator("#rating-chart svg polyline.line")).to_have_count(1)
    # the trophies and coins the server keeps for this account, as its API gives them
    assert trophies["trophies"], "three rated matches earn at least the first-match trophy"
    expect(page.locator("#trophies-panel")).to_be_visible()
    expect(page.locator("#trophies li[data-trophy]")).to_have_count(len(trophies["trophies"]))
    assert page.locator("#trophies li[data-trophy]").evaluate_all(
        "(ls) => ls.map((l) => l.dataset.trophy)"
    ) == [t["id"] for t in trophies["trophies"]]
    expect(page.locator("#trophies")).to_contain_text(f"{trophies['coins']} pièces")
    # the last games: names, score, a link to the replay
    games = page.locator("#last-games li")
    expect(games).to_have_count(3)
    first = profile["last_games"][0]
    expect(games.first.locator(".players")).to_have_text(
        "Nord (ordinateur) · Ouest (ordinateur) · Ana · Est (ordinateur)"
    )
    # the match's own target (150), not the preset's
    assert first["target"] == 150
    expect(games.first.locator(".rules")).to_have_text("Belote classique (FFB), en 150")
    expect(games.first.locator(".score")).to_have_text(f"{first['score'][0]} à {first['score'][1]}")
    _no_horizontal_scroll(page, PHONE["width"])
    page.screenshot(path=str(shots / "profile-phone.png"), full_page=True)
    # keyboard: Tab reaches the first game's replay link, Enter opens it
    replay = games.first.locator("a.replay")
    expect(replay).to_have_attribute("href", f"/#/replay/{table_id}/3")
    for _ in range(60):
        page.keyboard.press("Tab")
        if replay.evaluate("(a) => a === document.activeElement"):
            break
    else:
        raise AssertionError("the replay link is not reached by the keyboard")
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{live.url}/#/replay/{table_id}/3")
    expect(page.locator("#replay")).to_be_visible()
    expect(page.locator("#replay-where")).not_to_be_empty()

    # in English, on a wide screen
    wide = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    en = wide.new_page()
    errors += _errors(en)
    en.goto(live.url + "/profile.html?name=ana")
    expect(en.locator('[data-stat="name"]')).to_have_text("Ana")
    with en.expect_navigation():
        en.locator("[data-lang-toggle]").click()
    expect(en.locator('[data-i18n="profile.lastGames"]')).to_have_text("Last matches")
    expect(en.locator("#last-games li").first.locator(".score")).to_have_text(
        f"{first['score'][0]} to {first['score'][1]}"
    )
    expect(en.locator("#rating-chart svg circle.point")).to_have_count(3)
    expect(en.locator("#last-games li").first.locator(".players")).to_have_text(
        "North (computer) · West (computer) · Ana · East (computer)"
    )
    expect(en.locator("#last-games li").first.locator(".rules")).to_have_text(
        "Classic belote (FFB), to 150"
    )
    _no_horizontal_scroll(en, DESKTOP["width"])
    en.screenshot(path=str(shots / "profile-desktop.png"), full_page=True)
    # an unknown name: said in the page's language
    en.goto(live.url + "/profile.html?name=Nobody")
    expect(en.locator("#error")).to_have_text("No account has this name.")
    expect(en.locator("#profile")).to_be_hidden()
    assert errors == []
    ctx.close()
    wide.close()
