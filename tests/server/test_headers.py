"""Safe defaults and small holes (issue 13, item 6): security headers and
a Content-Security-Policy the pages pass, ``Secure`` cookies behind HTTPS,
tokens out of logs, logging on by default, and bad inputs that once gave
500 or leaked."""

from __future__ import annotations

import io
import json
import logging
import logging.config
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from rebelote.server.app import WEB_DIR
from rebelote.server.logs import log_config, redact
from rebelote.server.settings import DEFAULT_CSP

from .live import LiveServer
from .net import Player, Seated, lobby_table
from .test_browser import REMEMBER

HEADERS = {
    "content-security-policy": DEFAULT_CSP,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


@pytest.fixture
def pages(tmp_path: Path) -> Iterator[LiveServer]:
    """The whole app with its pages (SQLite)."""
    with LiveServer(
        f"sqlite:///{tmp_path / 'pages.db'}", static_dir=WEB_DIR, bot_delay=0.05
    ) as live:
        yield live


def _detail(r: httpx.Response) -> dict[str, Any]:
    detail: dict[str, Any] = r.json()["detail"]
    return detail


# ------------------------------------------------------------------ headers


def test_every_response_has_the_security_headers(pages: LiveServer) -> None:
    with pages.http() as http:
        answers = [
            http.get("/"),
            http.get("/lobby.html"),
            http.get("/js/app.js"),
            http.get("/api/presets"),
            http.get("/api/tables/nope"),
            http.post("/api/tables", json={"bad": 1}),
            http.get("/" + "a" * 9000),
        ]
    assert [r.status_code for r in answers] == [200, 200, 200, 200, 404, 422, 414]
    for r in answers:
        assert {k: r.headers.get(k) for k in HEADERS} == HEADERS, r.url


SPY = """
document.addEventListener('securitypolicyviolation', (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  (window.__csp = window.__csp || []).push(`${e.violatedDirective} ${where}`);
}, true);
"""


CHAT_STYLED = """(sel) => {
  const host = document.querySelector(sel);
  const list = host.shadowRoot.querySelector('ol');
  return [getComputedStyle(host).display, getComputedStyle(list).listStyleType];
}"""
"""What the chat's style sheet (``chat/chat.css``) does to the element:
refused by the policy, the host would be ``inline`` and its list numbered."""


def _csp(page: Any) -> list[str]:
    violations: list[str] = page.evaluate("window.__csp || []")
    return violations


def test_the_pages_pass_the_content_security_policy(browser: Any, pages: LiveServer) -> None:
    """Every page, a solo table being played, a lobby table's waiting room
    and the same table at the main table, both with their chat shown and
    styled, without a single violation (a violation is also a console
    error, which the other browser tests refuse); a ``<style>`` element
    made by a script is refused (the spy sees it)."""
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    ctx = browser.new_context()
    ctx.add_init_script(SPY)
    page = ctx.new_page()
    for path in ("/lobby.html", "/history.html", "/leaderboard.html", "/profile.html?name=Nobody"):
        page.goto(pages.url + path)
        page.wait_for_load_state("networkidle")
        assert _csp(page) == [], path
    created = pages.create()
    page.goto(f"{pages.url}/")
    page.evaluate(REMEMBER, [created["table_id"], created["token"]])
    page.goto(f"{pages.url}/#/table/{created['table_id']}")
    expect(page.locator("#table-page")).to_have_attribute("data-ready", "1")
    expect(page.locator("#hand [data-card]").first).to_be_visible()
    assert _csp(page) == []
    # a lobby table: this browser's guest hosts it, another guest sits at N
    guest = ctx.request.post(pages.url + "/api/auth/guest", data={"name": "Csp Host"})
    csrf = {"X-CSRF-Token": guest.json()["csrf"]}
    table = ctx.request.post(
        pages.url + "/api/lobby/tables",
        data={"name": "Csp", "preset": "ffb", "seat": "S", "options": {"speed": "instant"}},
        headers=csrf,
    ).json()
    table_id = table["table_id"]
    friend = Player(pages).guest("Csp Friend")
    friend.join(table_id, "N")
    # the waiting room and its chat (the seat's token kept, as the lobby keeps it)
    page.evaluate(REMEMBER, [table_id, table["token"]])
    page.goto(f"{pages.url}/lobby.html?table={table_id}")
    chat = page.locator("#room-chat rebelote-chat")
    chat.locator("input").fill("la salle")
    chat.locator("input").press("Enter")
    expect(chat.locator('li[data-seat="S"] .text')).to_have_text("la salle")
    assert page.evaluate(CHAT_STYLED, "#room-chat rebelote-chat") == ["flex", "none"]
    assert _csp(page) == []
    # the host starts: the waiting room sends him to the main table, its
    # chat beside the felt
    ctx.request.post(f"{pages.url}/api/lobby/tables/{table_id}/fill", data={}, headers=csrf)
    ctx.request.post(f"{pages.url}/api/lobby/tables/{table_id}/start", data={}, headers=csrf)
    page.wait_for_url(f"{pages.url}/#/table/{table_id}")
    expect(page.locator("#table-page")).to_have_attribute("data-ready", "1")
    chat = page.locator("#table-chat")
    expect(chat).to_be_visible()
    expect(chat.locator('li[data-seat="S"] .text')).to_have_text("la salle")
    assert page.evaluate(CHAT_STYLED, "#table-chat") == ["flex", "none"]
    assert _csp(page) == []
    # the spy sees what the policy refuses: a <style> made by a script
    page.evaluate(
        "() => { const s = document.createElement('style');"
        " s.textContent = 'body { color: red }'; document.head.append(s); }"
    )
    page.wait_for_function("() => (window.__csp || []).length > 0")
    assert [v.split(" ")[0] for v in _csp(page)] == ["style-src-elem"]
    friend.close()
    ctx.close()


# ------------------------------------------------------------------ cookies


def test_cookies_are_secure_behind_https(server: LiveServer) -> None:
    https = {"X-Forwarded-Proto": "https"}  # from a proxy on 127.0.0.1 (trusted)
    with server.http() as http:
        plain = http.post("/api/tables", json={})
        secure = http.post("/api/tables", json={}, headers=https)
        guest = http.post("/api/auth/guest", json={"name": "Cookie Guest"}, headers=https)
    assert "secure" not in plain.headers["set-cookie"].lower()
    assert "rebelote_token=" in secure.headers["set-cookie"]
    assert "; secure" in secure.headers["set-cookie"].lower()
    cookies = guest.headers.get_list("set-cookie")
    assert sorted(c.split("=")[0] for c in cookies) == ["rebelote_csrf", "rebelote_session"]
    assert all("; secure" in c.lower() for c in cookies)
    # an account's sign-up and login also set the browser's device token
    account = {"name": "Cookie Owner", "password": "a fine passphrase"}
    with server.http() as http:
        signup = http.post("/api/auth/signup", json=account, headers=https)
    with server.http() as http:
        login = http.post("/api/auth/login", json=account, headers=https)
        plain_login = http.post("/api/auth/login", json=account)
    for answer in (signup, login):
        cookies = answer.headers.get_list("set-cookie")
        assert sorted(c.split("=")[0] for c in cookies) == [
            "rebelote_csrf",
            "rebelote_device",
            "rebelote_session",
        ]
        assert all("; secure" in c.lower() for c in cookies)
    assert all("secure" not in c.lower() for c in plain_login.headers.get_list("set-cookie"))


# ------------------------------------------------------------------ logs


def test_tokens_never_reach_the_logs() -> None:
    line = '127.0.0.1:5 - "GET /ws/abc?token=s3cr3t-T0k&last_v=3 HTTP/1.1" 101'
    assert redact(line) == '127.0.0.1:5 - "GET /ws/abc?token=REDACTED&last_v=3 HTTP/1.1" 101'
    assert redact("/api/lobby/tables/x?invite=abc&token=def") == (
        "/api/lobby/tables/x?invite=REDACTED&token=REDACTED"
    )
    assert redact("tokens=1&mytoken=2") == "tokens=1&mytoken=2"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "GET /api/me/current?%74oken=S3CR3T HTTP/1.1",
            "GET /api/me/current?%74oken=REDACTED HTTP/1.1",
        ),
        (
            "/api/tables/x/replay?t%6fken=S3CR3T&match=1",
            "/api/tables/x/replay?t%6fken=REDACTED&match=1",
        ),
        ("/lobby.html?table=x&%69nvite=S3CR3T", "/lobby.html?table=x&%69nvite=REDACTED"),
        ("/ws/x?TOKEN=S3CR3T", "/ws/x?TOKEN=REDACTED"),
        ("/ws/x?tok%65n=S3CR3T", "/ws/x?tok%65n=REDACTED"),
        ("/x?%2574oken=S3CR3T", "/x?%2574oken=REDACTED"),
        ("/x?a=1%26token%3DS3CR3T&b=2", "/x?a=1%26token%3DREDACTED&b=2"),
        ('"GET /x?%49NVITE=S3CR3T HTTP/1.1" 200', '"GET /x?%49NVITE=REDACTED HTTP/1.1" 200'),
    ],
)
def test_percent_encoded_secret_names_are_redacted(line: str, expected: str) -> None:
    assert redact(line) == expected


@pytest.mark.parametrize("as_json", [False, True])
def test_the_access_log_is_redacted_in_both_formats(as_json: bool) -> None:
    config = log_config("info", as_json=as_json)
    config["handlers"]["main"]["stream"] = "ext://sys.stdout"
    out = io.StringIO()
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    access = logging.getLogger("uvicorn.access")
    saved_access = (access.handlers[:], access.level, access.propagate)
    try:
        logging.config.dictConfig(config)
        handler = logging.getLogger("uvicorn.access").handlers[0]
        assert isinstance(handler, logging.StreamHandler)
        handler.setStream(out)
        logging.getLogger("uvicorn.access").info(
            '%s - "%s %s HTTP/%s" %d', "127.0.0.1:9", "GET", "/api/me/current?token=abc", "1.1", 200
        )
    finally:
        root.handlers[:], root.level = saved
        access.handlers[:], access.level, access.propagate = saved_access
    text = out.getvalue().strip()
    assert "abc" not in text
    expected = '127.0.0.1:9 - "GET /api/me/current?token=REDACTED HTTP/1.1" 200'
    if as_json:
        record = json.loads(text)
        assert (record["level"], record["logger"], record["message"]) == (
            "info",
            "uvicorn.access",
            expected,
        )
    else:
        assert text.endswith("INFO uvicorn.access: " + expected)


def test_serve_refuses_an_unknown_log_level() -> None:
    from typer.testing import CliRunner

    from rebelote.cli import app

    result = CliRunner().invoke(app, ["serve", "--log-level", "loud"])
    assert result.exit_code == 2
    assert "unknown log level 'loud'" in result.output


# ------------------------------------------------------------------ small holes


def test_a_user_id_out_of_range_is_not_found(server: LiveServer) -> None:
    with server.http() as http:
        ada = http.post("/api/auth/guest", json={"name": "Ada"}).json()["user"]["id"]
        for user_id in (
            "9223372036854775808",
            "2147483648",
            "0",
            "-1",
            "abc",
            "1.0",
            "\u0661",  # an Arabic-Indic digit one
            "7" * 4000,
            f"{ada}{'0' * 20}",
            str(ada + 1000),
        ):
            r = http.get(f"/api/users/{user_id}")
            assert r.status_code == 404, user_id
            assert _detail(r) == {"code": "user_not_found", "message": "no such user"}
        assert http.get(f"/api/users/{ada}").json()["name"] == "Ada"


def test_nul_bytes_and_odd_ids_get_clean_answers(server: LiveServer) -> None:
    with server.http() as http:
        r = http.post("/api/tables", json={"name": "a\x00b"})
        assert r.status_code == 422 and _detail(r)["field"] == "name"
        r = http.post("/api/auth/login", json={"name": "a\x00b", "password": "whatever1"})
        assert r.status_code == 401
        for table_id in ("a%00b", "%C3%A9t%C3%A9", "x" * 33):
            for path in (f"/api/tables/{table_id}", f"/api/tables/{table_id}/replay"):
                r = http.get(path)
                assert r.status_code == 404 and _detail(r) == {
                    "code": "table_not_found",
                    "message": "no such table",
                }
        big = "z" * 5000
        r = http.get(f"/api/tables/{big}")
        assert r.status_code == 404 and big not in r.text and len(r.content) < 200


def test_websocket_booleans_are_strict(server: LiveServer) -> None:
    created = server.create()
    with server.connect(created["table_id"], created["token"]) as client:
        client.recv()
        client.send("act", {"action": "pass", "belote": "yes"})
        error = client.error()
        assert error["code"] == "bad_message" and "belote" in error["message"]
        client.send("mute", {"seat": "N", "muted": "yes"})
        error = client.error()
        assert error["code"] == "bad_message" and "muted" in error["message"]
        client.send("act", {"action": "pass", "belote": 1})
        assert client.error()["code"] == "bad_message"


def test_a_thrown_in_deal_stays_hidden_while_its_match_is_on(server: LiveServer) -> None:
    table_id, players = lobby_table(server, ["Pia", "Noa", "Wes", "Eli"])
    seated = [Seated(p.seat, p.connect(table_id)) for p in players]
    passed = False
    for _ in range(2000):
        for s in seated:
            s.drain(timeout=0.01)
            turn = s.client.turn
            if s.decides() and turn is not None and turn["waiting"] == "action":
                s.client.act("pass" if "pass" in turn["legal"] else turn["legal"][0])
                s.client.turn = None
        passed = any(e["kind"] == "all_passed" for e in seated[0].client.events)
        if passed:
            break
    assert passed
    for s in seated:
        s.drain(timeout=0.3)
    with server.http() as http:
        replay = http.get(f"/api/tables/{table_id}/replay")
        assert replay.status_code == 200 and replay.json()["deals"] == []
        record = http.get(f"/api/tables/{table_id}/record", params={"match": 1, "deal": 1})
        assert record.status_code == 404 and _detail(record)["code"] == "not_finished"
        assert http.get(f"/api/tables/{table_id}/record").status_code == 404
    for s in seated:
        s.client.close()
    # everyone leaves: the match is over for good, its deals may be read
    for p in players:
        p.ok(f"/api/lobby/tables/{table_id}/leave")
    with server.http() as http:
        deals = http.get(f"/api/tables/{table_id}/replay").json()["deals"]
        assert [(d["deal"], d["result"]) for d in deals] == [(1, "passed")]
        assert len(deals[0]["hands"]) == 4
    for p in players:
        p.close()


def test_a_played_deal_is_readable_while_the_match_goes_on(server: LiveServer) -> None:
    created = server.create()
    table_id, token = created["table_id"], created["token"]
    with server.connect(table_id, token) as client:
        while not any(e["kind"] == "deal_end" for e in client.events):
            turn = client.my_decision()
            if turn["waiting"] != "action":
                break
            takes = [a for a in turn["legal"] if a != "pass"]  # South takes: the deal is played
            action = takes[0] if takes else "pass"
            client.act(action, False if action in turn["belote_choice"] else None)
            client.turn = None
        ends = [e for e in client.events if e["kind"] == "deal_end"]
    assert ends and ends[0]["summary"]["result"] not in ("passed", "cancelled")
    with server.http() as http:
        deals = http.get(f"/api/tables/{table_id}/replay", params={"token": token}).json()["deals"]
        record = http.get(
            f"/api/tables/{table_id}/record", params={"token": token, "match": 1, "deal": 1}
        )
    assert [d["result"] for d in deals] == [ends[0]["summary"]["result"]]
    assert record.status_code == 200
