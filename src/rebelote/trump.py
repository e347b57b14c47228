"""The strain of a deal (a trump suit, Sans Atout or Tout Atout) and the card
order and card points it gives.

Common ground of all four source texts (RULES.md):

=========== =========================== ===================================
            order, strongest first      points
=========== =========================== ===================================
trump       J 9 A 10 K Q 8 7            J 20, 9 14, A 11, 10 10, K 4, Q 3
other suits A 10 K Q J 9 8 7            A 11, 10 10, K 4, Q 3, J 2
=========== =========================== ===================================

Tout Atout (seed 000: "les 4 couleurs sont considérées comme de l'atout"): every
suit ranks like trump; Sans Atout: no suit is trump.  Their card points are part
of the rule set (:attr:`Rules.ta_points`, :attr:`Rules.sa_points`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache

from .cards import SUIT_MASKS, CardMask, Rank

__all__ = [
    "PLAIN_POINTS",
    "PLAIN_STRENGTH",
    "TRUMP_POINTS",
    "TRUMP_STRENGTH",
    "Strain",
    "StrainTables",
    "strain_tables",
]


class Strain(IntEnum):
    """What is trump in a deal: one suit (S H D C), Sans Atout or Tout Atout.

    The values 0..3 equal :class:`~rebelote.cards.Suit`.  Text form: the suit
    letter, ``SA`` (sans atout, no trump) or ``TA`` (tout atout, all trump).
    """

    S = 0
    H = 1
    D = 2
    C = 3
    SA = 4
    TA = 5

    @property
    def text(self) -> str:
        """``S``, ``H``, ``D``, ``C``, ``SA`` or ``TA``."""
        return self.name

    @property
    def is_suit(self) -> bool:
        """True for a trump suit, False for Sans Atout and Tout Atout."""
        return self <= 3

    @classmethod
    def parse(cls, text: str) -> Strain:
        """Read ``S H D C SA TA`` (case-insensitive); ``ValueError`` otherwise."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown trump {text!r}: use S, H, D, C, SA or TA") from None


# Strength within a suit (higher wins), indexed by rank 7 8 9 10 J Q K A.
TRUMP_STRENGTH: tuple[int, ...] = (0, 1, 6, 4, 7, 2, 3, 5)
"""Trump order J 9 A 10 K Q 8 7 as strengths 7..0, indexed by natural rank."""
PLAIN_STRENGTH: tuple[int, ...] = (0, 1, 2, 6, 3, 4, 5, 7)
"""Plain order A 10 K Q J 9 8 7 as strengths 7..0, indexed by natural rank."""
TRUMP_POINTS: tuple[int, ...] = (0, 0, 14, 10, 20, 3, 4, 11)
"""Trump card points by rank 7 8 9 10 J Q K A (62 a suit)."""
PLAIN_POINTS: tuple[int, ...] = (0, 0, 0, 10, 2, 3, 4, 11)
"""Plain card points by rank 7 8 9 10 J Q K A (30 a suit)."""

assert sum(TRUMP_POINTS) + 3 * sum(PLAIN_POINTS) == 152


@dataclass(frozen=True, slots=True)
class StrainTables:
    """Per-card tables of one strain under one rule set.

    All tuples are indexed by card (0..31).

    - ``trumps``: mask of the trump cards (a suit, all 32 in TA, none in SA).
    - ``strength``: rank strength within the card's suit (0..7, higher wins).
    - ``higher``: mask of the cards of the same suit that beat the card.
    - ``points``: card points (a deal's cards total 152).
    """

    strain: Strain
    trumps: CardMask
    strength: tuple[int, ...]
    higher: tuple[CardMask, ...]
    points: tuple[int, ...]


@lru_cache(maxsize=64)
def strain_tables(
    strain: Strain, ta_points: tuple[int, ...], sa_points: tuple[int, ...]
) -> StrainTables:
    """The tables of ``strain``, with the rule set's Tout Atout and Sans Atout
    card points (``Rules.ta_points``, ``Rules.sa_points``, by natural rank)."""
    if strain == Strain.TA:
        trumps = (1 << 32) - 1
    elif strain == Strain.SA:
        trumps = 0
    else:
        trumps = SUIT_MASKS[strain]
    strength: list[int] = []
    points: list[int] = []
    for card in range(32):
        rank = card & 7
        is_trump = bool(trumps >> card & 1)
        strength.append(TRUMP_STRENGTH[rank] if is_trump else PLAIN_STRENGTH[rank])
        if strain == Strain.TA:
            points.append(ta_points[rank])
        elif strain == Strain.SA:
            points.append(sa_points[rank])
        else:
            points.append(TRUMP_POINTS[rank] if is_trump else PLAIN_POINTS[rank])
    higher: list[CardMask] = []
    for card in range(32):
        base = card & ~7
        mask = 0
        for other in range(base, base + 8):
            if strength[other] > strength[card]:
                mask |= 1 << other
        higher.append(mask)
    return StrainTables(strain, trumps, tuple(strength), tuple(higher), tuple(points))


def rank_by_strength(strength: int, trump: bool) -> Rank:
    """The rank that has ``strength`` in the trump or the plain order."""
    table = TRUMP_STRENGTH if trump else PLAIN_STRENGTH
    return Rank(table.index(strength))
