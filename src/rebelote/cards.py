"""Cards as bits of one int.

A card is an ``int`` from 0 to 31: ``suit * 8 + rank``, with suits in the order
S H D C (spades, hearts, diamonds, clubs) and ranks in the *natural* order
7 8 9 10 J Q K A (the order of sequences for declarations).  A set of cards is a
:data:`CardMask`: bit ``c`` is set when card ``c`` is in the set, so following
suit is ``hand & SUIT_MASKS[led]``.  :class:`CardSet` is an immutable, set-like
wrapper around a mask with the text form ``7S 8S 9S 10S JS QS KS AS``.

The 32-card pack is common to all four source texts (``seeds/000`` to ``003``);
the three-player game of seeds 000 and 003 uses the 24 cards without 7s and 8s
(:data:`DECK_24`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import TypeAlias

__all__ = [
    "DECK_24",
    "DECK_32",
    "RANK_MASKS",
    "SUIT_MASKS",
    "Card",
    "CardMask",
    "CardParseError",
    "CardSet",
    "Rank",
    "Suit",
    "bit",
    "card_name",
    "cards_of",
    "make_card",
    "mask_of",
    "parse_card",
    "parse_cards",
    "rank_of",
    "suit_of",
]

Card: TypeAlias = int
"""A card, 0..31: ``suit * 8 + rank``."""

CardMask: TypeAlias = int
"""A set of cards as a 32-bit mask: bit ``c`` set when card ``c`` is present."""


class Suit(IntEnum):
    """The four suits, in the order used for masks and printing: S H D C."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def letter(self) -> str:
        """The one-letter text form: ``S``, ``H``, ``D`` or ``C``."""
        return self.name

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``S``, ``H``, ``D`` or ``C`` (case-insensitive).

        Raises :class:`CardParseError` for anything else.
        """
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise CardParseError(f"unknown suit {text!r}: use S, H, D or C") from None


class Rank(IntEnum):
    """The eight ranks in natural (sequence) order: 7 8 9 10 J Q K A."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @property
    def symbol(self) -> str:
        """Text form of the rank: ``7 8 9 10 J Q K A``."""
        return RANK_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse ``7 8 9 10 J Q K A`` (case-insensitive).

        Raises :class:`CardParseError` for anything else.
        """
        try:
            return cls(RANK_SYMBOLS.index(text.strip().upper()))
        except ValueError:
            raise CardParseError(f"unknown rank {text!r}: use 7 8 9 10 J Q K A") from None


RANK_SYMBOLS: tuple[str, ...] = ("7", "8", "9", "10", "J", "Q", "K", "A")
"""Rank symbols indexed by :class:`Rank`."""


class CardParseError(ValueError):
    """A card or a list of cards could not be read from text."""


def make_card(suit: int, rank: int) -> Card:
    """The card of ``suit`` (0..3) and ``rank`` (0..7)."""
    return suit * 8 + rank


def suit_of(card: Card) -> Suit:
    """The suit of a card."""
    return Suit(card >> 3)


def rank_of(card: Card) -> Rank:
    """The rank of a card."""
    return Rank(card & 7)


def bit(card: Card) -> CardMask:
    """The mask holding only ``card``."""
    return 1 << card


SUIT_MASKS: tuple[CardMask, ...] = tuple(0xFF << (8 * s) for s in range(4))
"""``SUIT_MASKS[suit]``: the 8 cards of a suit."""

RANK_MASKS: tuple[CardMask, ...] = tuple(sum(1 << (s * 8 + r) for s in range(4)) for r in range(8))
"""``RANK_MASKS[rank]``: the 4 cards of a rank."""

DECK_32: CardMask = (1 << 32) - 1
"""The full 32-card pack."""

DECK_24: CardMask = DECK_32 & ~RANK_MASKS[Rank.SEVEN] & ~RANK_MASKS[Rank.EIGHT]
"""The 24-card pack of the three-player game (seeds 000 and 003): no 7s or 8s."""

_NAMES: tuple[str, ...] = tuple(RANK_SYMBOLS[c & 7] + Suit(c >> 3).letter for c in range(32))
_BY_NAME: dict[str, Card] = {name: c for c, name in enumerate(_NAMES)}


def card_name(card: Card) -> str:
    """Text form of a card: rank symbol then suit letter, e.g. ``10H``, ``JS``."""
    return _NAMES[card]


def parse_card(text: str) -> Card:
    """Read one card such as ``10H``, ``js`` or ``AC``.

    Raises :class:`CardParseError` when the text is not one card.
    """
    key = text.strip().upper()
    card = _BY_NAME.get(key)
    if card is None:
        raise CardParseError(f"not a card: {text!r} (write rank then suit, e.g. 10H, JS)")
    return card


def cards_of(mask: CardMask) -> Iterator[Card]:
    """The cards of a mask, lowest index first (S then H D C; 7 up to A)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[Card]) -> CardMask:
    """The mask of some cards.  Raises ``ValueError`` if a card appears twice."""
    mask = 0
    for card in cards:
        b = 1 << card
        if mask & b:
            raise ValueError(f"card {card_name(card)} appears twice")
        mask |= b
    return mask


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards from ``"7S 8S 10H"`` (spaces or commas) or a list of names.

    The order is kept.  Raises :class:`CardParseError` on an unknown card.
    """
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(item) for item in items]


class CardSet:
    """An immutable set of cards backed by a :data:`CardMask`.

    Iterates in card order (S H D C, 7 up to A); ``str()`` gives the text form
    ``"7S 8S 9S"`` that :meth:`parse` reads back.  Supports ``in``, ``len``,
    ``|``, ``&``, ``-``, ``^``, comparison and hashing like ``frozenset``.
    """

    __slots__ = ("mask",)

    mask: CardMask

    def __init__(self, cards: Iterable[Card] | CardMask = 0) -> None:
        """Build from a mask (``int``) or from an iterable of cards."""
        if isinstance(cards, int):
            if cards < 0 or cards > DECK_32:
                raise ValueError(f"not a 32-bit card mask: {cards:#x}")
            self.mask = cards
        else:
            self.mask = mask_of(cards)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Read ``"7S 8S 10H"``.  Raises :class:`CardParseError`; a card twice
        raises ``ValueError``."""
        return cls(mask_of(parse_cards(text)))

    def __iter__(self) -> Iterator[Card]:
        return cards_of(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 32 and bool(self.mask >> card & 1)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask ^ other.mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def __hash__(self) -> int:
        return hash(self.mask)

    def __str__(self) -> str:
        return " ".join(_NAMES[c] for c in cards_of(self.mask))

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"
