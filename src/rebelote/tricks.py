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
  Under the partner's winning trump, a lower trump only for a player who
  holds nothing but trumps (``lower_trump_under_partner``, FFB coinche 2015).
- Sans Atout: follow suit, else any card.

A trick is won by the highest trump, else the highest card of the suit led.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .cards import DECK_32, SUIT_MASKS, Card, CardMask, Suit
from .legality import FFB, FFB_COINCHE, SEED000, SEED003, Illegality, IllegalReason
from .rules import Rules
from .seats import Seat
from .trump import Strain, StrainTables, strain_tables

_SUIT_LETTERS: tuple[str, ...] = tuple(s.letter for s in Suit)
"""``_SUIT_LETTERS[card >> 3]``: the letter of the card's suit."""

__all__ = [
    "PlayTable",
    "Trick",
    "beats",
    "card_illegality",
    "legal_play_mask",
    "play_table",
    "trick_winner",
]


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
    if not trumps:
        return hand
    if partner_winning and rules.partner_winning_exemption:
        plain = hand & ~trumps_all
        if (
            rules.lower_trump_under_partner == "all_trumps_only"
            and trumps_all >> winning & 1
            and plain
        ):
            # FFB coinche 2015, 5.2: a lower trump under the partner's only
            # for a player who holds nothing but trumps.
            return plain | trumps & tables.higher[winning]
        return hand
    if trumps_all >> winning & 1:
        over = trumps & tables.higher[winning]
        if over:
            return over
        return trumps if rules.must_undertrump else hand
    return trumps


def card_illegality(
    card: Card,
    hand: CardMask,
    led: Card | None,
    winning: Card | None,
    partner_winning: bool,
    tables: StrainTables,
    rules: Rules,
) -> Illegality | None:
    """Why ``card`` of ``hand`` may not be played now, or ``None`` when
    :func:`legal_play_mask` allows it (same arguments).

    The reasons follow :func:`legal_play_mask` branch by branch: must follow
    suit (seed 000 "On est obligé de fournir à la couleur demandée"); trump
    led, must go higher (seed 000 "on doit, si possible, jouer un atout plus
    fort", option ``overtrump_partner_on_trump_lead`` when the partner wins);
    void, must trump, must overtrump, may not undertrump (seed 000 "on doit
    couper avec de l'atout", "si on surcoupe"), must undertrump
    (``Rules.must_undertrump``, FFB).  When the partner wins, these last four
    name ``partner_winning_exemption`` and seed 003, whose list has no
    exemption; a trump under the partner's winning trump while holding
    another card is ``may_not_undertrump_partner``
    (``Rules.lower_trump_under_partner``, FFB coinche 2015, 5.2).  A
    must-follow-suit reason names the suit led (``suit``); ``house_rule``
    says whether the option's value differs from the FFB's
    (:meth:`~rebelote.legality.Illegality.under`).  Raises ``ValueError``
    when ``card`` is not in ``hand``.
    """
    bit = 1 << card
    if not hand & bit:
        raise ValueError("the card is not in the hand")
    if legal_play_mask(hand, led, winning, partner_winning, tables, rules) & bit:
        return None
    assert led is not None and winning is not None
    return _card_reason(bit, hand, led, winning, partner_winning, tables, rules).under(rules)


def _card_reason(
    bit: CardMask,
    hand: CardMask,
    led: Card,
    winning: Card,
    partner_winning: bool,
    tables: StrainTables,
    rules: Rules,
) -> Illegality:
    """:func:`card_illegality`'s reason for the illegal card ``bit``."""
    follow = hand & SUIT_MASKS[led >> 3]
    trumps_all = tables.trumps
    led_suit = _SUIT_LETTERS[led >> 3]
    if trumps_all >> led & 1:
        if not follow & bit:
            return Illegality(IllegalReason.MUST_FOLLOW_SUIT, None, SEED000, led_suit)
        option = "overtrump_partner_on_trump_lead" if partner_winning else None
        return Illegality(IllegalReason.MUST_GO_HIGHER, option, SEED000)
    if follow:
        return Illegality(IllegalReason.MUST_FOLLOW_SUIT, None, SEED000, led_suit)
    if partner_winning and rules.partner_winning_exemption:
        return Illegality(
            IllegalReason.MAY_NOT_UNDERTRUMP_PARTNER, "lower_trump_under_partner", FFB_COINCHE
        )
    exemption = "partner_winning_exemption" if partner_winning else None
    source = SEED003 if partner_winning else SEED000
    if trumps_all >> winning & 1:
        if hand & trumps_all & tables.higher[winning]:
            if trumps_all & bit:
                return Illegality(IllegalReason.MAY_NOT_UNDERTRUMP, exemption, source)
            return Illegality(IllegalReason.MUST_OVERTRUMP, exemption, source)
        if partner_winning:
            return Illegality(IllegalReason.MUST_UNDERTRUMP, exemption, source)
        return Illegality(IllegalReason.MUST_UNDERTRUMP, "must_undertrump", FFB)
    return Illegality(IllegalReason.MUST_TRUMP, exemption, source)


@dataclass(frozen=True, slots=True)
class PlayTable:
    """:func:`legal_play_mask` and :func:`beats` precomputed for one strain
    under one rule set, for the engine's hot path (:class:`~rebelote.state.State`).

    ``rows[(led >> 3) * 64 + winning * 2 + partner_winning]`` is the row
    ``(follow, follow_higher, trumps, over, under)`` of masks (``led`` the
    first card of the trick, ``winning`` the card winning it,
    ``partner_winning`` 0 or 1), from which the legal cards of a ``hand``
    are::

        follow = hand & follow              # the cards of the suit led
        if follow:
            return follow & follow_higher or follow
        trumps = hand & trumps              # 0: void, free to play any card
        if not trumps:
            return hand
        return trumps & over or hand & under

    ``follow_higher`` is the suit led itself, or, when trump is led (every
    lead in Tout Atout) and going higher is due, the trumps above
    ``winning``; ``trumps`` is 0 when trump is led or the partner's winning
    trick exempts the player; ``over`` is the trumps above ``winning`` when
    a trump wins the trick, else every trump; ``under``, for a player who
    must trump and cannot overtrump, is the trumps where he must
    undertrump (``must_undertrump``), else every card.  One row reads these
    masks otherwise: the partner winning with a trump where a lower trump
    is allowed only to a player holding nothing but trumps
    (``lower_trump_under_partner``): ``trumps`` is then every card that is
    no trump (none in the hand: any card), ``over`` 0 and ``under`` the
    cards that are no trump and the trumps above ``winning``.  ``beaters[best]``:
    the mask of the cards that beat ``best`` when it wins a trick (the
    higher cards of its suit, and every trump when it is no trump).
    ``points``: the card points (:attr:`~rebelote.trump.StrainTables.points`).
    """

    rows: tuple[tuple[CardMask, CardMask, CardMask, CardMask, CardMask], ...]
    must_undertrump: bool
    beaters: tuple[CardMask, ...]
    points: tuple[int, ...]


@lru_cache(maxsize=256)
def play_table(
    strain: Strain,
    ta_points: tuple[int, ...],
    sa_points: tuple[int, ...],
    partner_winning_exemption: bool,
    must_undertrump: bool,
    overtrump_partner_on_trump_lead: bool,
    lower_trump_only_all_trumps: bool = False,
) -> PlayTable:
    """The :class:`PlayTable` of ``strain`` under the rule options that
    decide the legal cards (the :class:`~rebelote.rules.Rules` fields of
    the same names; ``lower_trump_only_all_trumps``:
    ``lower_trump_under_partner == "all_trumps_only"``; the card points only
    select the cached :func:`~rebelote.trump.strain_tables`)."""
    tables = strain_tables(strain, ta_points, sa_points)
    trumps_all, higher = tables.trumps, tables.higher
    rows: list[tuple[CardMask, CardMask, CardMask, CardMask, CardMask]] = []
    under = trumps_all if must_undertrump else DECK_32
    for led_suit in range(4):
        suit = SUIT_MASKS[led_suit]
        trump_led = bool(trumps_all & suit)
        for winning in range(32):
            for partner in (False, True):
                if trump_led:
                    exempt = partner and not overtrump_partner_on_trump_lead
                    rows.append((suit, suit if exempt else higher[winning], 0, 0, DECK_32))
                    continue
                win_trump = bool(trumps_all >> winning & 1)
                if partner and partner_winning_exemption:
                    if lower_trump_only_all_trumps and win_trump:
                        plain = DECK_32 & ~trumps_all
                        rows.append((suit, suit, plain, 0, plain | higher[winning]))
                        continue
                    trumps = 0
                else:
                    trumps = trumps_all
                over = higher[winning] if win_trump else trumps_all
                rows.append((suit, suit, trumps, over, under))
    beaters = tuple(
        higher[best] | (0 if trumps_all >> best & 1 else trumps_all) for best in range(32)
    )
    return PlayTable(tuple(rows), must_undertrump, beaters, tables.points)


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
