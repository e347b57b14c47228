"""Names and free text that others read: no invisible or direction-changing
characters, and no look-alike of an existing account.

- :func:`hidden_characters` finds what may not appear in a name or a
  table's name: control characters (NUL included), format characters
  (right-to-left and other bidirectional controls, zero-width spaces and
  joiners, the byte order mark), lone surrogates, line and paragraph
  separators, private-use and unassigned code points, and every other
  character that shows nothing (:data:`INVISIBLE`: Unicode's
  default-ignorable code points, such as the Hangul fillers U+3164,
  U+115F, U+1160, U+FFA0, the combining grapheme joiner, the variation
  selectors, and the blank Braille pattern U+2800); a variation selector
  right after a symbol (an emoji's presentation) is let through.
- :func:`loose_marks` finds the combining marks left over once a text is
  in NFC: marks that did not join their letter into one precomposed
  letter (``"Ali\u0323\u0301ce"``); player names may not hold any.
- :func:`skeleton` is a name's look-alike key: its comparison key
  (:func:`~rebelote.server.storage.people.name_key`: NFKC, casefolded, spaces
  collapsed) without the small marks under a letter
  (:data:`FAINT_MARKS`: ``"Al\u1ecbce"``, an i with a dot below, reads as
  ``"Alice"``), with every character replaced by the representative of its
  class of confusable characters, then with the well-known look-alike
  letter pairs folded (:data:`LETTER_PAIRS`: ``rn`` reads as ``m``, ``vv``
  as ``w``).  The classes are those of the Unicode confusables data (UTS
  #39) as the ``confusable_homoglyphs`` package ships it, one character
  for one character, joined transitively; the representative is the
  class's ASCII character when it has one.  So ``"Alice Smith"``,
  ``"\u0410lice Smith"`` (a Cyrillic A) and ``"Alice Srnith"`` have the
  same skeleton, and an account name whose skeleton is another account's
  is taken.  Accents that show stay apart: ``"Zo\u00e9"`` is not
  ``"Zoe"``.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from rebelote.server.storage.people import name_key

__all__ = [
    "FAINT_MARKS",
    "HIDDEN_CATEGORIES",
    "INVISIBLE",
    "LETTER_PAIRS",
    "hidden_characters",
    "loose_marks",
    "plain_text",
    "skeleton",
]

HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode general categories refused in names and table names."""

INVISIBLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Code point ranges (first, last) that show nothing whatever their
category: Unicode's default-ignorable code points (``DerivedCoreProperties``)
and the blank Braille pattern U+2800."""

_SELECTORS = ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF))

FAINT_MARKS = frozenset("\u0323\u0324\u0325\u0326\u0329\u032d\u032e\u0330\u0331\u0332")
"""Combining marks under a letter too small to tell it apart at a glance
(dot, diaeresis, ring, comma, line, circumflex, breve, tilde, macron
below; low line): :func:`skeleton` leaves them out.  The cedilla and the
ogonek show, and count."""

LETTER_PAIRS: tuple[tuple[str, str], ...] = (("rn", "m"), ("vv", "w"))
"""Two letters that read as one (:func:`skeleton` folds them)."""

_MARKS = str.maketrans("", "", "\u200e\u200f")


def _within(code: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(first <= code <= last for first, last in ranges)


def hidden_characters(text: str) -> list[str]:
    """The code points of ``text`` (``U+202E``...) in
    :data:`HIDDEN_CATEGORIES` or :data:`INVISIBLE`, each once, in order;
    tabs and line breaks count too, a variation selector right after a
    symbol (``"\u2665\ufe0f"``, an emoji) does not."""
    found: list[str] = []
    before = ""
    for ch in text:
        code = ord(ch)
        hidden = unicodedata.category(ch) in HIDDEN_CATEGORIES or _within(code, INVISIBLE)
        if hidden and _within(code, _SELECTORS) and unicodedata.category(before)[:1] == "S":
            hidden = False
        if hidden:
            shown = f"U+{code:04X}"
            if shown not in found:
                found.append(shown)
        before = ch
    return found


def loose_marks(text: str) -> list[str]:
    """The combining marks (categories ``Mn``, ``Mc``, ``Me``) of ``text``
    once in NFC, as ``U+0323``..., each once, in order: the marks that do
    not join their letter into one precomposed letter."""
    found: list[str] = []
    for ch in unicodedata.normalize("NFC", text):
        if unicodedata.category(ch).startswith("M"):
            shown = f"U+{ord(ch):04X}"
            if shown not in found:
                found.append(shown)
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


@functools.cache
def _pairs() -> tuple[re.Pattern[str], dict[str, str]]:
    """:data:`LETTER_PAIRS` as they read once mapped to their classes'
    representatives: a pattern finding them and what each becomes."""
    classes = _classes()

    def mapped(text: str) -> str:
        return "".join(classes.get(ch, ch) for ch in text)

    folds = {mapped(pair): mapped(letter) for pair, letter in LETTER_PAIRS}
    return re.compile("|".join(re.escape(pair) for pair in folds)), folds


def skeleton(name: str) -> str:
    """The look-alike key of ``name`` (see the module docstring); two
    names that a reader may take for each other have the same one."""
    classes = _classes()
    decomposed = unicodedata.normalize("NFD", name_key(name))
    plain = unicodedata.normalize("NFC", "".join(c for c in decomposed if c not in FAINT_MARKS))
    mapped = "".join(classes.get(ch, ch) for ch in plain)
    pattern, folds = _pairs()
    return pattern.sub(lambda m: folds[m.group(0)], mapped)
