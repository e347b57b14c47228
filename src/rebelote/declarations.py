"""Declarations (*annonces*: combinations in hand that score) and belote.

Rules (seed 000, seed 001, RULES.md "Declarations"):

- Sequences in the natural order A K Q J 10 9 8 7 (not the trick order):
  *tierce* (3 cards) 20, *quarte* or *cinquante* (4) 50, *quinte* or *cent*
  (5 or more) 100.  A longer run is one quinte; it is not split.
- Carrés (four of a rank): J 200, 9 150, A 10 K Q 100.  A carré of 8 scores
  nothing; a carré of 7 scores nothing and may cancel the deal (seed 001,
  ``Rules.carre_of_seven_cancels``).
- A card belongs to one declaration only (seed 000); the belote cards may also
  sit in a sequence ("tierce belotée", 20 + 20).
- Comparison: any carré beats any sequence ("même à égalité de points", seed
  000); then the higher value; then the higher top card; then the trump
  sequence; then, by option, the first declared (seed 000) or none.
- Only the side holding the best declaration scores, all of its declarations.

*Belote* / *rebelote*: the king and queen of trump in one hand, 20 points to
their holder's side, said as each is played (the king or queen first played is
"belote", the other "rebelote").  Tout Atout has up to four; Sans Atout none.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from .cards import RANK_MASKS, RANK_SYMBOLS, SUIT_MASKS, Card, CardMask, Rank, card_name
from .trump import PLAIN_STRENGTH, Strain

__all__ = [
    "CARRE_POINTS",
    "CARRE_POINTS_SA_FFB",
    "SEQUENCE_POINTS",
    "Declaration",
    "DeclarationError",
    "best_declaration",
    "carre_points",
    "declaration_subsets",
    "find_declarations",
    "has_carre_of_sevens",
    "match_declarations",
]

SEQUENCE_POINTS: dict[int, int] = {3: 20, 4: 50, 5: 100}
"""Points of a sequence by length (5 and more: 100)."""

CARRE_POINTS: dict[Rank, int] = {
    Rank.JACK: 200,
    Rank.NINE: 150,
    Rank.ACE: 100,
    Rank.TEN: 100,
    Rank.KING: 100,
    Rank.QUEEN: 100,
}
"""Points of a carré by rank (seed 000: "Valet 200, Neuf 150, As, 10, Rois,
Dames 100"); 8s and 7s score nothing (seed 001)."""

CARRE_POINTS_SA_FFB: dict[Rank, int] = {
    Rank.JACK: 100,
    Rank.NINE: 100,
    Rank.ACE: 200,
    Rank.TEN: 150,
    Rank.KING: 100,
    Rank.QUEEN: 100,
}
"""Points of a carré in a Sans Atout deal by the FFB's coinche rules (2015,
11.2: "4 As 200 points, 4 Dix 150 points, 4 Roi 100, 4 Dame 100, 4 Valet
100, 4 Neuf 100"); same ranks as :data:`CARRE_POINTS` (11.3: at Tout
Atout "L'ordre et la valeur des carrés demeurent inchangés")."""


def carre_points(strain: Strain, sa_carres: str = "usual") -> dict[Rank, int]:
    """The carré table of a deal played in ``strain``: :data:`CARRE_POINTS`,
    or :data:`CARRE_POINTS_SA_FFB` in Sans Atout when ``sa_carres`` is
    ``"ffb"`` (``Rules.sa_carres``)."""
    return CARRE_POINTS_SA_FFB if sa_carres == "ffb" and strain == Strain.SA else CARRE_POINTS


KIND_NAMES: dict[str, str] = {
    "tierce": "tierce",
    "quarte": "quarte",
    "cinquante": "quarte",
    "quatrieme": "quarte",
    "quinte": "quinte",
    "cent": "quinte",
    "carre": "carre",
    "carré": "carre",
}


class DeclarationError(ValueError):
    """A declaration that the hand does not hold, or unreadable text."""


@dataclass(frozen=True, slots=True)
class Declaration:
    """One declaration held in a hand.

    ``kind`` is ``tierce``, ``quarte``, ``quinte`` or ``carre``; ``cards`` the
    mask of its cards; ``top`` its highest card in natural order (for a carré,
    the card of spades); ``points`` its value in points.
    """

    kind: str
    cards: CardMask
    top: Card
    points: int

    @property
    def is_carre(self) -> bool:
        """True for a carré (four of a rank)."""
        return self.kind == "carre"

    @property
    def text(self) -> str:
        """``tierce-KH`` (kind and top card) or ``carre-J`` (kind and rank)."""
        if self.is_carre:
            return f"carre-{RANK_SYMBOLS[self.top & 7]}"
        return f"{self.kind}-{card_name(self.top)}"

    def key(self, strain: Strain) -> tuple[int, int, int, int]:
        """Comparison key, larger is stronger: carré over sequence, value, top
        card (plain order A 10 K Q for carrés, natural order for sequences),
        then a sequence in trump."""
        if self.is_carre:
            return (1, self.points, PLAIN_STRENGTH[self.top & 7], 0)
        suit = self.top >> 3
        in_trump = strain == Strain.TA or (strain.is_suit and suit == strain)
        return (0, self.points, self.top & 7, int(in_trump))

    def __str__(self) -> str:
        return self.text


def _runs(bits: int) -> tuple[tuple[int, int], ...]:
    """The runs of 3 or more consecutive ranks in the ranks ``bits`` of one
    suit, lowest first, as ``(start rank, length)``."""
    runs: list[tuple[int, int]] = []
    rank = 0
    while rank < 8:
        if bits >> rank & 1:
            start = rank
            while rank < 8 and bits >> rank & 1:
                rank += 1
            if rank - start >= 3:
                runs.append((start, rank - start))
        else:
            rank += 1
    return tuple(runs)


_RUNS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_runs(bits) for bits in range(256))
"""``_RUNS[bits]``: :func:`_runs` of every byte of ranks."""

_SEQUENCE_STARTS: CardMask = 0x3F3F3F3F
"""The cards from which a run of three may start in their suit (7 up to Q)."""

_CARRE_RANKS: CardMask = sum(1 << rank for rank in CARRE_POINTS)
"""The ranks whose carré scores, as bits 0..7 (spades' cards)."""


def _sequences(hand: CardMask) -> list[Declaration]:
    found: list[Declaration] = []
    for suit in range(4):
        for start, length in _RUNS[(hand >> (8 * suit)) & 0xFF]:
            cards = ((1 << length) - 1) << (8 * suit + start)
            kind = {3: "tierce", 4: "quarte"}.get(length, "quinte")
            top = 8 * suit + start + length - 1
            found.append(Declaration(kind, cards, top, SEQUENCE_POINTS[min(length, 5)]))
    return found


def find_declarations(
    hand: CardMask, strain: Strain = Strain.S, table: dict[Rank, int] | None = None
) -> tuple[Declaration, ...]:
    """The declarations a hand (normally 8 cards) can make together.

    ``table``: the carré table (:func:`carre_points`; default
    :data:`CARRE_POINTS`).

    Where a card could serve a carré or a sequence, the choice that scores the
    most points wins, then the one with the strongest declaration.  Returns
    the declarations strongest first (empty when there is none).
    """
    no_carre = not hand & hand >> 8 & hand >> 16 & hand >> 24 & _CARRE_RANKS
    if no_carre:
        if not hand & hand >> 1 & hand >> 2 & _SEQUENCE_STARTS:
            return ()  # most hands: no run of three, no carré
        # Only sequences: one choice, the search below would keep them all.
        return tuple(sorted(_sequences(hand), key=lambda d: d.key(strain), reverse=True))
    carres = [
        Declaration("carre", RANK_MASKS[rank], 8 * 0 + rank, points)
        for rank, points in (CARRE_POINTS if table is None else table).items()
        if hand & RANK_MASKS[rank] == RANK_MASKS[rank]
    ]
    best: tuple[Declaration, ...] = ()
    best_score: tuple[int, tuple[int, int, int, int]] = (-1, (0, 0, 0, 0))
    for n in range(len(carres) + 1):
        for chosen in combinations(carres, n):
            rest = hand
            for c in chosen:
                rest &= ~c.cards
            decls = (*chosen, *_sequences(rest))
            total = sum(d.points for d in decls)
            top = max((d.key(strain) for d in decls), default=(0, 0, 0, 0))
            if (total, top) > best_score:
                best_score = (total, top)
                best = decls
    return tuple(sorted(best, key=lambda d: d.key(strain), reverse=True))


def has_carre_of_sevens(hand: CardMask) -> bool:
    """Whether the hand holds the four 7s (seed 001: "Un carré de 7 annule la partie")."""
    return hand & RANK_MASKS[Rank.SEVEN] == RANK_MASKS[Rank.SEVEN]


def declaration_subsets(found: Sequence[Declaration]) -> list[tuple[Declaration, ...]]:
    """Every choice a player may make from his declarations: all of them first,
    then each smaller subset, the empty choice (declare nothing) last."""
    out: list[tuple[Declaration, ...]] = []
    for n in range(len(found), -1, -1):
        out.extend(combinations(found, n))
    return out


def match_declarations(
    found: Sequence[Declaration], texts: Iterable[str]
) -> tuple[Declaration, ...]:
    """Map a record's declaration texts (``"tierce"``, ``"quarte"``, ``"carre"``,
    or with a top card / rank: ``"tierce-KH"``, ``"carre-J"``) to the hand's
    declarations ``found``; each text takes the strongest unused one that fits.

    Raises :class:`DeclarationError` when a text is unreadable or the hand
    holds no such declaration.
    """
    left = list(found)  # strongest first
    chosen: list[Declaration] = []
    for text in texts:
        if not isinstance(text, str):
            raise DeclarationError(f"a declaration must be text, not {text!r}")
        kind_text, _, detail = text.strip().lower().partition("-")
        kind = KIND_NAMES.get(kind_text)
        if kind is None:
            raise DeclarationError(
                f"unknown declaration {text!r}: use tierce, quarte, quinte or carre"
            )
        for decl in left:
            if decl.kind != kind:
                continue
            if detail:
                if kind == "carre" and RANK_SYMBOLS[decl.top & 7] != detail.upper():
                    continue
                if kind != "carre" and card_name(decl.top) != detail.upper():
                    continue
            chosen.append(decl)
            left.remove(decl)
            break
        else:
            have = ", ".join(d.text for d in found) or "none"
            raise DeclarationError(f"no {text!r} in this hand (its declarations: {have})")
    return tuple(chosen)


def best_declaration(
    declared: Sequence[tuple[int, Sequence[Declaration]]],
    strain: Strain,
    first_declared_wins: bool,
) -> int | None:
    """The side whose declarations score, or ``None``.

    ``declared`` lists ``(side, declarations)`` in the order they were made.
    The side holding the strongest declaration wins; equal strongest
    declarations of two sides: the first declared if ``first_declared_wins``
    (seed 000), else no side scores (FFB).
    """
    best_key: tuple[int, int, int, int] | None = None
    best_side: int | None = None
    tied = False
    for side, decls in declared:
        for decl in decls:
            key = decl.key(strain)
            if best_key is None or key > best_key:
                best_key, best_side, tied = key, side, False
            elif key == best_key and side != best_side:
                tied = True
    if tied and not first_declared_wins:
        return None
    return best_side


def _suit_of_strain_for_belote(strain: Strain) -> Iterable[int]:
    if strain == Strain.TA:
        return range(4)
    if strain == Strain.SA:
        return ()
    return (int(strain),)


def belote_pairs(hand: CardMask, strain: Strain) -> list[CardMask]:
    """The king-queen pairs of trump held in ``hand`` (one per trump suit;
    up to four in Tout Atout, none in Sans Atout), each as a mask."""
    pairs = []
    for suit in _suit_of_strain_for_belote(strain):
        pair = SUIT_MASKS[suit] & (RANK_MASKS[Rank.KING] | RANK_MASKS[Rank.QUEEN])
        if hand & pair == pair:
            pairs.append(pair)
    return pairs
