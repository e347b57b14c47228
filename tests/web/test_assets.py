"""The client ships whole in the package and fetches nothing from elsewhere:
every file the page names exists and is served with its type; no script,
style or page names another host (the card faces are the project's SVG)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from rebelote.server.app import WEB_DIR
from server.live import LiveServer

TEXT_SUFFIXES = {".html", ".js", ".css", ".json", ".svg"}
SVG_NAMESPACE = "http://www.w3.org/2000/svg"


def web_files() -> list[Path]:
    return sorted(p for p in WEB_DIR.rglob("*") if p.is_file() and p.suffix in TEXT_SUFFIXES)


def test_nothing_is_fetched_from_another_host() -> None:
    for path in web_files():
        text = path.read_text(encoding="utf-8").replace(SVG_NAMESPACE, "")
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.I), path
        assert "@import" not in text and "url(http" not in text, path


def test_every_file_the_page_names_exists() -> None:
    html = (WEB_DIR / "index.html").read_text(encoding="utf-8")
    refs = re.findall(r'(?:href|src)="([^"#:]+)"', html)
    assert "js/app.js" in refs and "css/style.css" in refs
    for ref in refs:
        assert (WEB_DIR / ref).is_file(), ref
    for path in (WEB_DIR / "js").glob("*.js"):
        for module in re.findall(r"from '\./([\w.-]+)'", path.read_text(encoding="utf-8")):
            assert (WEB_DIR / "js" / module).is_file(), (path.name, module)


def test_the_client_is_served_with_its_types(web: LiveServer) -> None:
    client = httpx.Client(base_url=web.url, timeout=10)
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert 'id="table-page"' in page.text
    for path, kind in (
        ("/js/app.js", "javascript"),
        ("/css/style.css", "text/css"),
        ("/chat/chat.css", "text/css"),
        ("/i18n/fr.json", "application/json"),
        ("/favicon.svg", "image/svg+xml"),
    ):
        r = client.get(path)
        assert r.status_code == 200, path
        assert kind in r.headers["content-type"], (path, r.headers["content-type"])
    client.close()
