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
- :func:`skeleton` is a name's look-alike key as it is written, in the
  manner of the UTS #39 skeleton: the name in NFKC, spaces collapsed,
  decomposed (NFD) without the small marks under a letter
  (:data:`FAINT_MARKS`: ``"Al\u1ecbce"``, an i with a dot below, reads as
  ``"Alice"``), every character replaced by what it reads as, decomposed
  again, and only *then* casefolded, so that a capital is read by its
  shape: ``"AIice"`` (a capital I) is ``"Alice"``, ``"\u041dugo"`` (a
  Cyrillic capital En) is ``"Hugo"``, ``"\u0397elen"`` (a Greek capital
  Eta) is ``"Helen"``; last, the well-known look-alike letter pairs are
  folded (:data:`LETTER_PAIRS`: ``rn`` reads as ``m``, ``vv`` as ``w``).
  What a character reads as is the representative of its class of
  confusable characters, the classes being those of the Unicode
  confusables data (UTS #39) as the ``confusable_homoglyphs`` package
  ships it, one character for one character, joined transitively: the
  class's ASCII letter when it has one (``O`` for ``0``, ``O``, the Greek
  and Cyrillic capital O: ``"0livia"`` is ``"Olivia"``), ``1`` for the
  class of ``1``, ``I``, ``l`` and ``|`` (``"lvan"`` is ``"Ivan"``; ``L``
  and ``i``, their cases, stay apart: ``"Lan"`` is not ``"Ian"``); a
  character in no class that the data reads as several is those
  (``"B\ua74fker"`` is ``"Booker"``, ``"\u00e6"`` is ``"ae"``).
- :func:`name_key` is how names compare (stored as ``users.name_key``):
  NFKC, casefolded, NFKC again, spaces collapsed.
- :func:`lower_skeleton` is the same key of the name casefolded first (its
  :func:`name_key`): it keeps what a capital
  hides, ``"\u0406van"`` (a Cyrillic capital I, shaped like ``l``) beside
  the account ``"ivan"``, whose name is ``"Ivan"`` too.  An account name
  whose skeleton is another account's skeleton, or whose lower skeleton
  is another's lower skeleton, is taken (:func:`skeletons`).  Accents
  that show stay apart: ``"Zo\u00e9"`` is not ``"Zoe"``, ``"L\u00e9a"``
  not ``"Lea"``; a letter more is another name: ``"Anna"`` is not
  ``"Ana"``.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata

__all__ = [
    "FAINT_MARKS",
    "HIDDEN_CATEGORIES",
    "INVISIBLE",
    "LETTER_PAIRS",
    "SKELETON_LENGTH",
    "hidden_characters",
    "loose_marks",
    "lower_skeleton",
    "name_key",
    "plain_text",
    "skeleton",
    "skeletons",
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


SKELETON_LENGTH = 40
"""The longest skeleton stored (``users.name_skeleton``,
``users.name_lower_skeleton``); a longer one is stored as ``~`` and 39
hex digits of its SHA-256 (:func:`skeleton`)."""


def _representative(group: list[str]) -> str:
    """The character a class of confusable characters reads as: its ASCII
    letter when it has exactly one (``O`` for ``0``, ``O``, the Greek
    capital Omicron...), else its lowest ASCII character (``1`` for ``1``,
    ``I``, ``l``, ``|``: two letters, neither of which may stand for the
    other's case), else its lowest code point."""
    ascii_ = sorted(c for c in group if c.isascii())
    letters = [c for c in ascii_ if c.isalpha()]
    if len(letters) == 1:
        return letters[0]
    return ascii_[0] if ascii_ else min(group)


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
        representative = _representative(group)
        for char in group:
            chosen[char] = representative
    return chosen


@functools.cache
def _prototypes() -> dict[int, str]:
    """What each character reads as, for ``str.translate``: its class's
    representative (:func:`_classes`), or, for a non-ASCII character in no
    class that the confusables data reads as several (``\ua74f`` as ``oo``,
    ``\u00e6`` as ``ae``), those characters' representatives.  ASCII
    letters keep their own (``m`` is not ``rn`` here:
    :data:`LETTER_PAIRS` folds the other way)."""
    from confusable_homoglyphs import confusables

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    classes = _classes()
    table = {ord(char): shown for char, shown in classes.items() if char != shown}
    for char, glyphs in data.items():
        if len(char) != 1 or char in classes or char.isascii():
            continue
        for glyph in glyphs:
            sequence = glyph["c"].translate(_MARKS)
            if len(sequence) > 1:
                table[ord(char)] = "".join(classes.get(c, c) for c in sequence)
                break
    return table


@functools.cache
def _beyond_ascii() -> dict[int, str]:
    """:func:`_prototypes` of the non-ASCII characters only."""
    return {code: shown for code, shown in _prototypes().items() if code > 0x7F}


@functools.cache
def _pairs() -> tuple[re.Pattern[str], dict[str, str]]:
    """:data:`LETTER_PAIRS` as they read once mapped to their classes'
    representatives: a pattern finding them and what each becomes."""
    table = _prototypes()
    folds = {pair.translate(table): letter.translate(table) for pair, letter in LETTER_PAIRS}
    return re.compile("|".join(re.escape(pair) for pair in folds)), folds


def _fit(key: str) -> str:
    """``key``, or, past :data:`SKELETON_LENGTH` characters, ``~`` and the
    first 39 hex digits of its SHA-256 (equal keys stay equal)."""
    if len(key) <= SKELETON_LENGTH:
        return key
    return "~" + hashlib.sha256(key.encode("utf-8")).hexdigest()[: SKELETON_LENGTH - 1]


def name_key(name: str) -> str:
    """How names compare (accounts, and guests against accounts): NFKC,
    casefolded, NFKC again, spaces collapsed, so that look-alikes compare
    equal: full-width letters (U+FF21...), mathematical letters
    (U+1D504...) and a letter followed by a combining accent compare as the
    plain (or precomposed) letter, lower case.  Stored as ``users.name_key``
    (:mod:`rebelote.server.storage.people`)."""
    text = unicodedata.normalize("NFKC", name)
    text = unicodedata.normalize("NFKC", text.casefold())
    return " ".join(text.split())


def skeleton(name: str) -> str:
    """The look-alike key of ``name`` as it is written (see the module
    docstring): NFKC, spaces collapsed; NFD without :data:`FAINT_MARKS`;
    every character replaced by what it reads as (its class's
    representative, or a sequence: the UTS #39 skeleton, taken on the
    precomposed and on the decomposed text); NFD again; *then* casefolded
    (so that a capital is read by its shape: ``"AIice"``, a capital I, is
    ``"Alice"``, ``"\u041dugo"``, a Cyrillic capital En, is ``"Hugo"``), the
    characters beyond ASCII that casefolding made mapped once more, and
    :data:`LETTER_PAIRS` folded; in NFC, at most :data:`SKELETON_LENGTH`
    characters (:func:`_fit`).  Two names that a reader may take for each
    other have the same one."""
    table = _prototypes()
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    text = "".join(c for c in unicodedata.normalize("NFD", text) if c not in FAINT_MARKS)
    text = unicodedata.normalize("NFC", text).translate(table)
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).translate(table))
    text = unicodedata.normalize("NFKC", text.casefold())
    text = unicodedata.normalize("NFD", text).translate(_beyond_ascii())
    pattern, folds = _pairs()
    text = pattern.sub(lambda m: folds[m.group(0)], unicodedata.normalize("NFC", text))
    return _fit(text)


def lower_skeleton(name: str) -> str:
    """The look-alike key of ``name`` in lower case: :func:`skeleton` of
    its comparison key (:func:`name_key`:
    casefolded first).  It joins what the shape of the written name hides
    behind a capital: ``"\u0406van"`` (a Cyrillic capital I) reads as
    ``"Ivan"``, the same name as an account's ``"ivan"``."""
    return skeleton(name_key(name))


def skeletons(name: str) -> tuple[str, str]:
    """``(skeleton(name), lower_skeleton(name))``: an account name is taken
    when either is another account's (same column)."""
    return skeleton(name), lower_skeleton(name)
