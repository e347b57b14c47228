"""The client's labels: French and English catalogs with the same keys and
placeholders; every key the page uses exists in both; the rules' help lines
and every preset, level and speed have their labels."""

from __future__ import annotations

import json
import re
from pathlib import Path

from rebelote.rules import PRESETS, preset_name
from rebelote.server.api.help import preset_infos
from rebelote.server.app import WEB_DIR
from rebelote.server.protocol.messages import BOT_LEVELS, SPEED_DELAYS

I18N = WEB_DIR / "i18n"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalog(lang: str) -> dict[str, str]:
    data = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return {str(k): str(v) for k, v in data.items()}


FR = catalog("fr")
EN = catalog("en")


PAGES = (
    "index.html",
    "lobby.html",
    "history.html",
    "leaderboard.html",
    "tournaments.html",
    "tournament.html",
    "profile.html",
    "shop.html",
    "daily.html",
)
"""The table and the network play pages: all of them take their labels from
the same catalogs."""


def scripts() -> list[Path]:
    """The table's scripts, the network pages' and the chat's."""
    return [
        *sorted((WEB_DIR / "js").glob("*.js")),
        *sorted((WEB_DIR / "net").glob("*.js")),
        WEB_DIR / "chat" / "chat.js",
    ]


def used_keys() -> set[str]:
    """Every label key written in the HTML (data-i18n, data-i18n-title ...)
    and in the scripts (t('...') calls, and string literals "ns.name" whose
    namespace is one of the catalogs', e.g. in tables of keys)."""
    namespaces = {k.split(".")[0] for k in FR}
    keys: set[str] = set()
    for page in PAGES:
        html = (WEB_DIR / page).read_text(encoding="utf-8")
        keys |= set(re.findall(r'data-i18n(?:-[a-z-]+)?="([^"]+)"', html))
    for path in scripts():
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r"\bt\(\s*'([^']+)'", text))
        for literal in re.findall(r"'([A-Za-z]+\.[A-Za-z0-9_.-]+)'", text):
            if literal.split(".")[0] in namespaces:
                keys.add(literal)
    return keys


def test_both_catalogs_have_the_same_keys() -> None:
    assert set(FR) == set(EN), sorted(set(FR) ^ set(EN))


def test_labels_are_filled_and_keep_their_placeholders() -> None:
    for key, fr in FR.items():
        en = EN[key]
        assert fr.strip() and en.strip(), key
        assert set(PLACEHOLDER.findall(fr)) == set(PLACEHOLDER.findall(en)), key


def test_every_key_used_exists_in_both_catalogs() -> None:
    used = used_keys()
    assert len(used) > 100  # the scan does find the page's labels
    missing = sorted(k for k in used if k not in FR or k not in EN)
    assert not missing, missing


def test_no_label_is_left_unused() -> None:
    unused = sorted(set(FR) - used_keys())
    assert not unused, unused


def test_presets_levels_and_speeds_have_labels() -> None:
    for name in PRESETS:  # keyed by the name a player understands (the server's title)
        title = preset_name(name)
        assert f"preset.{title}" in FR and f"presetdesc.{title}" in FR, name
    for level in BOT_LEVELS:
        assert f"level.{level}" in FR, level
    for speed in SPEED_DELAYS:
        assert f"speed.{speed}" in FR, speed


def test_every_help_line_has_a_french_translation() -> None:
    help_fr = json.loads((I18N / "help-fr.json").read_text(encoding="utf-8"))
    lines = {h.text for p in preset_infos() for h in p.help}
    missing = sorted(lines - set(help_fr))
    assert not missing, missing


def test_the_catalog_files_are_the_ones_the_page_loads() -> None:
    script = (WEB_DIR / "js" / "i18n.js").read_text(encoding="utf-8")
    assert "i18n/${code}.json" in script and "i18n/help-fr.json" in script
    assert {p.name for p in I18N.iterdir()} == {"fr.json", "en.json", "help-fr.json"}
    assert Path(I18N / "fr.json").read_text(encoding="utf-8").endswith("\n")


def test_the_network_pages_are_translated() -> None:
    """No English words left as text in the lobby pages' HTML: every
    visible label carries data-i18n (the catalogs fill it), and each page
    loads the labels through js/i18n.js (common.js's initPage)."""
    for page in PAGES[1:]:
        html = (WEB_DIR / page).read_text(encoding="utf-8")
        assert '<html lang="fr">' in html, page
        body = html.split("<body>", 1)[1]
        text = re.sub(r"<[^>]+>", " ", body)
        words = [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in {"XP"}]
        assert not words, (page, words)
    common = (WEB_DIR / "net" / "common.js").read_text(encoding="utf-8")
    assert "from '../js/i18n.js'" in common and "setLang(preferredLang())" in common
    for script in ("lobby.js", "history.js", "leaderboard.js", "daily.js"):
        text = (WEB_DIR / "net" / script).read_text(encoding="utf-8")
        assert "await initPage();" in text, script
    chat = (WEB_DIR / "chat" / "chat.js").read_text(encoding="utf-8")
    assert "from '../js/i18n.js'" in chat and "innerHTML" not in chat.replace("never innerHTML", "")
