"""Frozen actions a player takes, with their text forms.

- :class:`Cut`: the cutter lifts ``packet`` cards (0: declines, where allowed).
- :class:`ChoosePattern`: the dealer deals ``3-2`` or ``2-3``.
- :class:`Bid`: every bid of every auction, in the notation of RULES.md:
  ``pass``, ``take`` (round one), ``S H D C`` (round two), ``TA`` ``SA``
  (seed 000's Tout Atout / Sans Atout), ``80H`` .. ``160S``, ``capotD``,
  ``90TA`` (coinche), ``coinche``, ``surcoinche``.
- :class:`Declare`: the declarations a player makes (possibly none).
- :class:`Play`: a card, and whether its holder says belote with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from .cards import Card, card_name, parse_card
from .declarations import Declaration
from .trump import Strain

__all__ = [
    "CAPOT_VALUE",
    "Action",
    "Bid",
    "BidKind",
    "ChoosePattern",
    "Cut",
    "Declare",
    "Play",
    "parse_bid",
]

CAPOT_VALUE = 250
"""The value of a capot contract in coinche (above 160)."""

BidKind = Literal["pass", "take", "strain", "contract", "coinche", "surcoinche"]


@dataclass(frozen=True, slots=True)
class Cut:
    """Cut the pack: the top ``packet`` cards go under the rest (0 = no cut)."""

    packet: int

    @property
    def text(self) -> str:
        """``cut 12`` or ``cut 0``."""
        return f"cut {self.packet}"


@dataclass(frozen=True, slots=True)
class ChoosePattern:
    """The dealer's first distribution: ``3-2`` or ``2-3``."""

    pattern: str

    @property
    def text(self) -> str:
        """``deal 3-2``."""
        return f"deal {self.pattern}"


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid.  ``kind`` is one of:

    - ``pass``; ``take`` (the turned card's suit, round one);
    - ``strain``: a suit named in round two, or ``TA`` / ``SA`` (seed 000);
    - ``contract``: coinche, ``value`` 80..160 by tens or 250 (capot) with a
      ``strain``;
    - ``coinche`` (double) and ``surcoinche`` (redouble).
    """

    kind: BidKind
    strain: Strain | None = None
    value: int | None = None

    @property
    def text(self) -> str:
        """The bid in record notation: ``pass``, ``take``, ``H``, ``TA``,
        ``80H``, ``capotD``, ``coinche``, ``surcoinche``."""
        if self.kind == "strain":
            assert self.strain is not None
            return self.strain.text
        if self.kind == "contract":
            assert self.strain is not None and self.value is not None
            amount = "capot" if self.value == CAPOT_VALUE else str(self.value)
            return f"{amount}{self.strain.text}"
        return self.kind

    def __str__(self) -> str:
        return self.text


PASS = Bid("pass")
TAKE = Bid("take")


def parse_bid(text: str) -> Bid:
    """Read a bid in record notation (case-insensitive).

    Raises ``ValueError`` when the text is no bid of any auction.
    """
    t = text.strip()
    low = t.lower()
    if low in ("pass", "take", "coinche", "surcoinche"):
        return Bid(low)  # type: ignore[arg-type]
    up = t.upper()
    if up in ("S", "H", "D", "C", "TA", "SA"):
        return Bid("strain", Strain[up])
    for amount_text, value in (("CAPOT", CAPOT_VALUE),):
        if up.startswith(amount_text) and up[len(amount_text) :] in Strain.__members__:
            return Bid("contract", Strain[up[len(amount_text) :]], value)
    digits = ""
    for ch in up:
        if ch.isdigit():
            digits += ch
        else:
            break
    rest = up[len(digits) :]
    if digits and rest in Strain.__members__:
        value = int(digits)
        if 80 <= value <= 160 and value % 10 == 0:
            return Bid("contract", Strain[rest], value)
    raise ValueError(
        f"not a bid: {text!r} (pass, take, S/H/D/C, TA, SA, 80H..160H, capotH, coinche, surcoinche)"
    )


@dataclass(frozen=True, slots=True)
class Declare:
    """The declarations a player makes (an empty tuple: declares nothing)."""

    declarations: tuple[Declaration, ...]

    @property
    def text(self) -> str:
        """``declare tierce-KH carre-J`` or ``declare none``."""
        body = " ".join(d.text for d in self.declarations) or "none"
        return f"declare {body}"


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card``.  ``belote`` matters only for the king or queen of trump
    of a player holding both where belote must be said (seed 001): whether he
    says "Belote" (or "Rebelote") with it."""

    card: Card
    belote: bool = True

    @property
    def text(self) -> str:
        """The card's name (``JS``), followed by ``belote`` when said."""
        return card_name(self.card)

    @classmethod
    def parse(cls, text: str) -> Play:
        """Read ``JS``.  Raises :class:`~rebelote.cards.CardParseError`."""
        return cls(parse_card(text))


Action: TypeAlias = Cut | ChoosePattern | Bid | Declare | Play
"""Any action of a deal."""
