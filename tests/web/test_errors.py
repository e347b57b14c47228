"""Errors people can read: every error code the server sends (REST
``{"detail": {"code"}}`` and WebSocket ``error`` messages) has its words in
both catalogs (``error.<code>``), through js/api.js's one ``errorText``;
no page keeps an error table of its own or shows the server's English
message."""

from __future__ import annotations

import json
import re

from rebelote.server.app import WEB_DIR

SERVER = WEB_DIR.parent / "server"
API_JS = (WEB_DIR / "js" / "api.js").read_text(encoding="utf-8")
FR = json.loads((WEB_DIR / "i18n" / "fr.json").read_text(encoding="utf-8"))
EN = json.loads((WEB_DIR / "i18n" / "en.json").read_text(encoding="utf-8"))


def server_codes() -> set[str]:
    """Every code the server's sources raise or send."""
    codes: set[str] = set()
    patterns = (
        r'ProtocolError\(\s*"(\w+)"',
        r'_err\(\s*\d+,\s*"(\w+)"',
        r'"code":\s*"(\w+)"',
        r'_error_body\(\s*"(\w+)"',
    )
    for path in SERVER.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for pattern in patterns:
            codes |= set(re.findall(pattern, text))
        # game.py: code = "illegal" if ... else "bad_action"
        for pair in re.findall(r'code = "(\w+)" if .* else "(\w+)"', text):
            codes |= set(pair)
    return codes


def worded_codes() -> dict[str, str]:
    """js/api.js's table: code -> catalog key."""
    table = API_JS.split("const ERROR_KEYS = {", 1)[1].split("};", 1)[0]
    return dict(re.findall(r"(\w+): '([\w.]+)'", table))


def test_the_scan_finds_the_server_codes() -> None:
    codes = server_codes()
    assert {"seat_taken", "illegal", "not_your_turn", "bad_action", "seats_empty"} <= codes
    assert {"invalid", "csrf", "table_not_found", "rate_limited", "too_large"} <= codes
    assert {"too_long", "timeout", "too_many_connections"} <= codes  # the edge's (guard.py)


def test_every_server_code_is_worded_in_both_languages() -> None:
    worded = worded_codes()
    missing = sorted(server_codes() - set(worded))
    assert not missing, missing
    for code, key in worded.items():
        assert key == f"error.{code}", (code, key)
        assert FR.get(key) and EN.get(key), key
        assert FR[key] != EN[key], key  # translated, not copied
    assert "{code}" in FR["error.unknown"] and "{code}" in EN["error.unknown"]


def test_one_error_helper_for_every_page() -> None:
    """The pages import js/api.js's api() and errorText(); none has its own
    fetch wrapper or error table, none shows `message`."""
    for path in (*(WEB_DIR / "net").glob("*.js"), WEB_DIR / "js" / "app.js"):
        text = path.read_text(encoding="utf-8")
        if path.name == "table.js":  # the old table page, on its way out
            continue
        assert "async function api(" not in text, path
        assert "ERROR_KEYS" not in text, path
        assert "err.message" not in text and "d.message" not in text, path
    common = (WEB_DIR / "net" / "common.js").read_text(encoding="utf-8")
    assert "from '../js/api.js'" in common
    app = (WEB_DIR / "js" / "app.js").read_text(encoding="utf-8")
    assert "from './api.js'" in app
