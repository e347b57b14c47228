"""Names and free text that others read: no invisible or direction-changing
characters, and no look-alike of an existing account.

- :func:`hidden_characters` finds what may not appear in a name or a
  table's name: control characters (NUL included), format characters
  (right-to-left and other bidirectional controls, zero-width spaces and
  joiners, the byte order mark), lone surrogates, line and paragraph
  separators, private-use and unassigned code points.
- :func:`skeleton` is a name's look-alike key: its comparison key
  (:func:`~rebelote.server.people.name_key`: NFKC, casefolded, spaces
  collapsed) with every character replaced by the representative of its
  class of confusable characters.  The classes are those of the Unicode
  confusables data (UTS #39) as the ``confusable_homoglyphs`` package
  ships it, one character for one character, joined transitively; the
  representative is the class's ASCII character when it has one.  So
  ``"Alice Smith"`` and ``"\u0410lice Smith"`` (a Cyrillic A) have the same
  skeleton, and an account name whose skeleton is another account's is
  taken.
"""

from __future__ import annotations

import functools
import unicodedata

from .people import name_key

__all__ = ["HIDDEN_CATEGORIES", "hidden_characters", "plain_text", "skeleton"]

HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode general categories refused in names and table names."""

_MARKS = str.maketrans("", "", "\u200e\u200f")


def hidden_characters(text: str) -> list[str]:
    """The code points of ``text`` (``U+202E``...) in
    :data:`HIDDEN_CATEGORIES`, each once, in order; tabs and line breaks
    count too."""
    found: list[str] = []
    for ch in text:
        if unicodedata.category(ch) in HIDDEN_CATEGORIES:
            code = f"U+{ord(ch):04X}"
            if code not in found:
                found.append(code)
    return found


def plain_text(text: str) -> str:
    """``text`` itself, or ``ValueError`` naming its
    :func:`hidden_characters` (a pydantic validator of names and table
    names: 422 ``invalid``)."""
    hidden = hidden_characters(text)
    if hidden:
        shown = ", ".join(hidden[:3])
        raise ValueError(f"invisible, control or direction characters are not allowed ({shown})")
    return text


@functools.cache
def _classes() -> dict[str, str]:
    """Each confusable character's representative (the data is read on
    the first call)."""
    from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        root = parent.setdefault(x, x)
        while root != parent[root]:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    for char, glyphs in data.items():
        if len(char) != 1:
            continue
        for glyph in glyphs:
            other = glyph["c"].translate(_MARKS)
            if len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    parent[a] = b
    members: dict[str, list[str]] = {}
    for char in parent:
        members.setdefault(find(char), []).append(char)
    chosen: dict[str, str] = {}
    for group in members.values():
        ascii_ = sorted(c for c in group if c.isascii())
        representative = ascii_[0] if ascii_ else min(group)
        for char in group:
            chosen[char] = representative
    return chosen


def skeleton(name: str) -> str:
    """The look-alike key of ``name`` (see the module docstring); two
    names that a reader may take for each other have the same one."""
    classes = _classes()
    return "".join(classes.get(ch, ch) for ch in name_key(name))
