"""The table page shows the deal's commitment (``#commitment``) while the
deal is played, and once it is over a "vérifier" button
(``[data-action="verify"]``) whose dialog shows the revealed seed and salt,
checks in the browser that they give the commitment, and links the deal's
record (issue 18, point 5)."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser

from rebelote.fairness import verify
from server.live import LiveServer

from .conftest import DESKTOP
from .driver import Driver
from .test_table import ERRORS, create_table, no_errors


def test_commitment_then_verify(browser: Browser, web: LiveServer) -> None:
    ctx = browser.new_context(viewport={"width": DESKTOP["width"], "height": DESKTOP["height"]})
    page = ctx.new_page()
    errors = ERRORS.setdefault(id(page), [])
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(web.url + "/")
    page.wait_for_selector("body[data-ready='start']")
    table_id = create_table(
        web,
        page,
        preset="ffb",
        target=1000,
        levels={"N": "random", "W": "random", "E": "random"},
        options={"speed": "instant"},
    )
    driver = Driver(page)
    for _ in range(6):  # until a deal played out (one all passed shows no seed)
        stored = web.app.state.store.load(table_id)
        assert stored is not None
        deal = [e for e in stored.events if e.kind == "deal"][-1].payload
        fair = deal["fair"]
        page.wait_for_selector("#fair:not([hidden])")
        page.wait_for_function(
            "(c) => document.querySelector('#commitment').dataset.commitment === c",
            arg=fair["commitment"],
        )
        assert page.locator("#commitment").inner_text() == fair["commitment"][:12] + "…"
        assert page.locator("#fair [data-action='verify']").is_hidden()
        for _ in range(200):
            if driver.wait_decision() == "dialog":
                break
            driver.click_step()
        if page.evaluate("() => window.rebelote.model.fair.seed") is not None:
            break
        page.click("#deal-end [data-act='next']")
        page.wait_for_function("() => window.rebelote.model.fair.seed === null")
    else:
        raise AssertionError("no deal played out in six")
    page.click("#deal-end [data-action='close']")
    page.click("#fair [data-action='verify']")
    page.wait_for_selector("#fair-dialog[open] #fair-check[data-result='ok']")
    assert page.locator("#fair-commitment").inner_text() == fair["commitment"]
    assert page.locator("#fair-seed").inner_text() == fair["seed"]
    assert page.locator("#fair-salt").inner_text() == fair["salt"]
    number = page.evaluate("() => window.rebelote.model.match.deal")
    href = page.locator("#fair-record").get_attribute("href")
    token = page.evaluate("(id) => JSON.parse(localStorage['rebelote.tables'])[id]", table_id)
    assert href == f"/api/tables/{table_id}/record?match=1&deal={number}&token={token}"
    assert page.locator("#fair-command").inner_text() == (
        f"rebelote verify rebelote-{table_id}-m1-d{number}.json"
    )
    record = httpx.get(web.url + href, timeout=10).json()
    assert record["fair"] == {**fair, "cut": "server", "pattern": "server"}  # no person cut
    assert [d.deal for d in verify(record)] == [1]
    # a seed that does not give the commitment is said so
    page.evaluate("() => { window.rebelote.model.fair.salt = '00'.repeat(32); }")
    page.click("#fair-dialog [data-action='close']")
    page.click("#fair [data-action='verify']")
    page.wait_for_selector("#fair-dialog[open] #fair-check[data-result='mismatch']")
    assert "PAS" in page.locator("#fair-check").inner_text()
    no_errors(page)
    ctx.close()
