"""Which card may be played, and who wins a trick.

One function decides the legal cards for every rule set; the obligations come
from the common ground of the four texts and the options of :class:`Rules`:

- Follow the suit led if possible (all texts).
- Trump led (and every suit in Tout Atout): play a higher trump than the best
  on the trick if possible ("monter", seeds 000, 001, 002, 003); seed 002
  exempts a player whose partner is winning
  (``Rules.overtrump_partner_on_trump_lead``).
- Void in a plain suit led: trump, over the best trump on the trick if possible
  ("surcouper"), unless the partner is winning (``partner_winning_exemption``,
  seeds 000, 001, 002; not seed 003).  Unable to overtrump: a lower trump
  (``must_undertrump``, FFB) or any card (seed 003).  No trump: any card.
- Sans Atout: follow suit, else any card.

A trick is won by the highest trump, else the highest card of the suit led.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import SUIT_MASKS, Card, CardMask
from .rules import Rules
from .seats import Seat
from .trump import StrainTables

__all__ = ["Trick", "beats", "legal_play_mask", "trick_winner"]


def legal_play_mask(
    hand: CardMask,
    led: Card | None,
    winning: Card | None,
    partner_winning: bool,
    tables: StrainTables,
    rules: Rules,
) -> CardMask:
    """The cards of ``hand`` that may be played now.

    ``led`` is the first card of the trick (``None`` when leading), ``winning``
    the card now winning the trick, ``partner_winning`` whether the player's
    partner played it (always False in the three-player game).  Returns a
    non-empty mask when ``hand`` is not empty.
    """
    if led is None or winning is None:
        return hand
    follow = hand & SUIT_MASKS[led >> 3]
    trumps_all = tables.trumps
    if trumps_all >> led & 1:
        # Trump led (or any lead in Tout Atout): follow, going higher if possible.
        if not follow:
            return hand
        if partner_winning and not rules.overtrump_partner_on_trump_lead:
            return follow
        return follow & tables.higher[winning] or follow
    if follow:
        return follow
    trumps = hand & trumps_all
    if not trumps or (partner_winning and rules.partner_winning_exemption):
        return hand
    if trumps_all >> winning & 1:
        over = trumps & tables.higher[winning]
        if over:
            return over
        return trumps if rules.must_undertrump else hand
    return trumps


def beats(card: Card, best: Card, tables: StrainTables) -> bool:
    """Whether ``card``, played now, beats ``best``, the card winning the trick."""
    if card >> 3 == best >> 3:
        return tables.strength[card] > tables.strength[best]
    return bool(tables.trumps >> card & 1) and not tables.trumps >> best & 1


def trick_winner(cards: list[Card], tables: StrainTables) -> int:
    """The position (0-based, in play order) of the card that wins a trick."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], tables):
            best = i
    return best


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: its ``leader``, the ``cards`` in play order from the
    leader, the ``seats`` that played them, its ``winner`` and its card
    ``points`` (without the dix de der)."""

    leader: Seat
    cards: tuple[Card, ...]
    seats: tuple[Seat, ...]
    winner: Seat
    points: int
