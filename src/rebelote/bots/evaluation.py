"""The evaluation of hands and auctions behind the heuristic levels, and the
settings that make a level (:class:`Style`).

The intermediate player (:mod:`.heuristic`) decides with these values; the
expert's sampler (:mod:`.sampling`: how well a world explains the bids) and
its double-dummy bidder (:mod:`.ddbid`) read the auction with them too, so
they live apart from the player.

- Taking (classic and Tout Atout / Sans Atout): :func:`take_value`, the
  expected score difference of taking a strain with a hand and the turned
  card, fitted on forced contracts played out by the intermediate (see the
  comment above the weights); :func:`strain_tricks`, the same on the scale
  of the taking thresholds.
- The coinche auction: :func:`hand_points`, a hand's share of its side's
  points with a trump suit; :func:`alone_points`, what a side expects from
  one hand; :func:`defence_points`, what a defender's hand takes from the
  takers; :func:`side_estimate` and :func:`side_estimate_shown`, a side's
  expectation from its hand and what the partner showed.
- Reading an auction: :func:`auction_steps` and :func:`read_auction` (what
  each bid showed, with a level's margins); :func:`coinche_bid_weight`, how
  well whole hands explain the bids of a coinche auction.
- :class:`Style`, :data:`INTERMEDIATE`, :data:`BEGINNER`: the settings of a
  level (its margins, thresholds and habits of play).

Everything here is a pure function of its arguments.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..actions import CAPOT_VALUE, Bid
from ..cards import SUIT_MASKS, CardMask, Rank
from ..observation import PlayerView
from ..seats import Seat
from ..trump import Strain

__all__ = [
    "BEGINNER",
    "BREAK_EVEN",
    "COINCHE_BASE",
    "COINCHE_SHORTFALL",
    "COINCHE_SLOPE",
    "CO_ALONE",
    "CO_ALONE_SLOPE",
    "CO_SIDE",
    "INTERMEDIATE",
    "SEED000_MULTIPLIERS",
    "TRICK_POINTS",
    "TWO_PLAYER_ODDS",
    "AuctionRead",
    "AuctionStep",
    "Style",
    "TakeOffsets",
    "alone_points",
    "auction_steps",
    "coinche_bid_weight",
    "defence_points",
    "hand_points",
    "read_auction",
    "side_estimate",
    "side_estimate_shown",
    "sigmoid",
    "soft_below",
    "strain_tricks",
    "take_value",
    "two_player_take_value",
]


TakeOffsets = tuple[tuple[float, float, float, float], tuple[float, float, float, float]]
"""Points added to the classic taking threshold, by round then by the number
of seats that passed before in the round."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Style:
    """The settings that make a level.

    - ``counting``: remember the cards of the finished tricks.
    - ``voids``: infer who is void (or lacks trumps) from the play.
    - ``adaptive_taking``: count the declarations held when taking, and
      take less in the three-player game; off: a fixed threshold.
    - ``take_threshold``: the :func:`strain_tricks` needed to take (2.8: an
      expected score equal to the defenders').
    - ``coinche_margin``: points added to the side's estimate before raising
      the partner's contract in coinche (negative: prudence; 0: the raw
      estimate); ``opening_margin``: the same for a bid made on the seat's
      hand alone, which stands mostly when the partner cannot raise it.
      The intermediate's -20 and -40 were chosen in duplicate self-play
      (openings at -10 to -40 and raises at -15 to -60 against each other).
    - ``coinches``: coinche the opponents' contracts and surcoinche.
    - ``charges``: give points to a partner sure to win the trick (off: play
      the cheapest card).
    - ``draws_trumps``: the taker long in trumps leads a low one to draw the
      opponents' (off: it leads master trumps only).
    - ``take_offsets``: classic four-player games, points of
      :func:`take_value` added to the taking threshold by round (first,
      second) and by the number of seats that passed before in that round
      (0..3); ``None``: the same threshold everywhere.  Used only while
      every bid so far is a pass.
    - ``switch_margin``: classic four-player games whose second round
      excludes the turned suit: pass a first-round take when another suit's
      :func:`take_value` is higher by at least this many points, to take it
      in the second round; ``None``: never.
    - ``two_player_odds``: the two-player game (RULES.md "Two players"),
      where half the unseen cards are the stock that is never played: lead
      a card that is not sure to win its trick (a ten whose ace is unseen)
      as the master cards are cashed when the opponent holds none of the
      cards that beat it with at least this probability
      (:meth:`.knowledge.Knowledge.chance_holds_none`); ``None``: sure
      masters only.  With ``adaptive_taking`` the two-player game also takes
      by :func:`two_player_take_value`.
    """

    counting: bool = True
    voids: bool = True
    adaptive_taking: bool = True
    take_threshold: float = 2.8
    coinche_margin: int = -40
    opening_margin: int = -20
    coinches: bool = True
    charges: bool = True
    draws_trumps: bool = True
    take_offsets: TakeOffsets | None = None
    switch_margin: float | None = None
    two_player_odds: float | None = None


TWO_PLAYER_ODDS = 0.65
"""The intermediate's ``two_player_odds``: chosen in duplicate play of the
two-player game against the beginner and the intermediate without it
(0.5 to 0.8 tried; benchmarks/BOTS.md, two players)."""

INTERMEDIATE = Style(two_player_odds=TWO_PLAYER_ODDS)
"""The intermediate level."""

BEGINNER = Style(
    counting=False,
    voids=False,
    adaptive_taking=False,
    take_threshold=2.2,
    coinche_margin=-15,
    opening_margin=-10,
    coinches=False,
    charges=False,
    draws_trumps=False,
)
"""The beginner level: no counting, no void tracking, a fixed threshold that
takes a little too easily and ignores declarations, coinche bids with half
the intermediate's prudence or less (its raw estimate, with no prudence at
all, failed 59% of its contracts in self-play: not a plausible player),
never coinches nor surcoinches, no charging of a winning partner, trumps
drawn with masters only."""

_J, _9, _A, _10, _K, _Q = Rank.JACK, Rank.NINE, Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN


def _has(hand: CardMask, suit: int, rank: int) -> bool:
    return bool(hand >> (suit * 8 + rank) & 1)


def _count(hand: CardMask, suit: int) -> int:
    return (hand & SUIT_MASKS[suit]).bit_count()


# Taking in the classic games.  The weights below are least-squares fits of
# the score difference (takers minus defenders, in points, declarations and
# belote included) over forced contracts played out by the intermediate: for
# 10,000 packs (seed 0..9999, the ``ffb`` and ``seed000-tout-atout`` presets),
# each seat took each strain in turn, holding its five cards and the turned
# card (the taker gets it in both rounds); the three cards still to come are
# in the averages.  Predicted and measured differences agree within a few
# points over the whole range (e.g. a prediction of 0 to 20 points: 9 points
# measured, contract made 74% of the time; 60 to 80: 73 points, made 90%).

_SUIT_LENGTH: tuple[float, ...] = (-134.0, -120.0, -101.0, -68.0, -28.0, -4.0, 20.0, 44.0, 68.0)
"""Suit contract: the base by number of trumps held (0..8), the turned card
included: trump length dominates (a third trump is worth more than a side
ace)."""
_TRUMP_JACK, _TRUMP_NINE, _JACK_AND_NINE = 53.0, 33.0, 17.0
_TRUMP_ACE, _TRUMP_ACE_WITH_HONOUR, _TRUMP_TEN, _BELOTE = 14.5, 7.0, 9.0, 42.0
_SIDE_ACE, _SIDE_ACE_TEN, _SIDE_GUARDED_TEN, _VOID = 31.0, 9.5, 9.0, 8.5
_SIDE_ACE_SHORT_TRUMPS = (-8.0, -8.0, -5.0)
"""What a side ace loses with 0, 1 or 2 trumps: the opponents' trumps get it."""
_SUIT_DECLARATION = 1.34
"""Per point of declarations held."""
_NO_TRUMP_CAP, _SHORT_TRUMP_CAP = -60.0, -15.0
"""Caps on the value: at most one trump (the hand cannot take whatever its side
cards), two trumps without the jack (the intermediate does not take them; the
beginner's lower threshold may)."""

_TA_BASE = -349.0 / 3
_TA_JACKS: tuple[float, ...] = (0.0, 103.0 / 3, 207.0 / 3, 370.0 / 3, 370.0 / 3)
"""Tout Atout (per unit of the multiplier): by number of jacks (the masters)."""
_TA_NINE_WITH_JACK, _TA_GUARDED_NINE, _TA_LENGTH, _TA_BELOTE = 77.0 / 3, 58.0 / 3, 4.0, 43.0
_TA_DECLARATION = 4.26 / 3

_SA_BASE = -234.0 / 2
_SA_ACES: tuple[float, ...] = (0.0, 83.0 / 2, 183.0 / 2, 294.0 / 2, 380.0 / 2)
"""Sans Atout (per unit of the multiplier): by number of aces (the masters)."""
_SA_TEN_WITH_ACE, _SA_GUARDED_TEN, _SA_LENGTH = 60.0 / 2, 51.0 / 2, 18.5 / 2
_SA_DECLARATION = 2.97 / 2

SEED000_MULTIPLIERS = {Strain.SA: 2, Strain.TA: 3}
"""The multipliers the Sans Atout / Tout Atout weights were fitted with (seed 000)."""

TRICK_POINTS = 40.0
"""Points of expected score difference per "trick" of :func:`strain_tricks`."""
BREAK_EVEN = 2.8
""":func:`strain_tricks` of a hand whose expected difference is 0."""


def _suit_value(hand: CardMask, suit: int, declarations: int) -> float:
    n = _count(hand, suit)
    jack, nine, ace, ten = (_has(hand, suit, r) for r in (_J, _9, _A, _10))
    value = _SUIT_LENGTH[n]
    value += _TRUMP_JACK * jack + _TRUMP_NINE * nine + _JACK_AND_NINE * (jack and nine)
    value += _TRUMP_ACE * ace + _TRUMP_ACE_WITH_HONOUR * (ace and (jack or nine))
    value += _TRUMP_TEN * ten
    value += _BELOTE * (_has(hand, suit, _K) and _has(hand, suit, _Q))
    for s in range(4):
        if s == suit:
            continue
        m = _count(hand, s)
        if _has(hand, s, _A):
            value += _SIDE_ACE + (_SIDE_ACE_SHORT_TRUMPS[n] if n <= 2 else 0.0)
            if _has(hand, s, _10):
                value += _SIDE_ACE_TEN
        elif _has(hand, s, _10) and m >= 2:
            value += _SIDE_GUARDED_TEN
        if m == 0 and n >= 2:
            value += _VOID
    value += _SUIT_DECLARATION * declarations
    if n <= 1:
        value = min(value, _NO_TRUMP_CAP)
    elif n == 2 and not jack:
        value = min(value, _SHORT_TRUMP_CAP)
    return value


def _ta_value(hand: CardMask) -> float:
    value = _TA_BASE
    jacks = 0
    for s in range(4):
        n = _count(hand, s)
        jack, nine = _has(hand, s, _J), _has(hand, s, _9)
        jacks += jack
        if nine:
            value += _TA_NINE_WITH_JACK if jack else (_TA_GUARDED_NINE if n >= 2 else 0.0)
        value += _TA_LENGTH * max(0, n - 2)
        value += _TA_BELOTE * (_has(hand, s, _K) and _has(hand, s, _Q))
    return value + _TA_JACKS[jacks]


def _sa_value(hand: CardMask) -> float:
    value = _SA_BASE
    aces = 0
    for s in range(4):
        n = _count(hand, s)
        ace, ten = _has(hand, s, _A), _has(hand, s, _10)
        aces += ace
        if ten:
            value += _SA_TEN_WITH_ACE if ace else (_SA_GUARDED_TEN if n >= 2 else 0.0)
        if ace:
            value += _SA_LENGTH * max(0, n - 3)
    return value + _SA_ACES[aces]


def take_value(
    hand: CardMask, strain: Strain, *, multiplier: int | None = None, declarations: int = 0
) -> float:
    """The expected score difference (takers minus defenders, in points) of
    taking with ``strain`` holding ``hand``: five cards and the turned card
    in the classic games (see the weights' comment in the module), and
    ``declarations`` points of declarations.

    Suit: trump length and the jack and nine first, then side aces (worth
    less with two trumps or fewer), tens, voids, belote and declarations;
    at most one trump, or two without the jack, cap the value below any take
    of the intermediate, whatever the side cards.  Tout Atout: the jacks, the
    nines beside them and guarded nines; Sans Atout: the aces, the tens
    beside them and guarded tens.  Their values are scaled by
    ``multiplier`` (default: seed 000's x3 and x2)."""
    if strain.is_suit:
        return _suit_value(hand, int(strain), declarations)
    mult = SEED000_MULTIPLIERS[strain] if multiplier is None else multiplier
    if strain == Strain.TA:
        return mult * (_ta_value(hand) + _TA_DECLARATION * declarations)
    return mult * (_sa_value(hand) + _SA_DECLARATION * declarations)


# Taking in the two-player game (RULES.md "Two players"): no partner, and a
# failed contract gives the opponent the fixed 162 while a made one scores
# only the cards actually played (16 of 32), so the four-player weights above
# misprice the hands.  Least-squares fit of the score difference (taker minus
# opponent, declarations and belote included) over 48,000 forced contracts
# of the ``two-players`` preset played out by the intermediate (packs of
# ``board_setup(two-players, seed 100, 0..11999)``; on each pack the first
# speaker and the dealer took the turned suit in round one, then each named
# a random other suit in round two), holding the five cards and the turned
# card: ``benchmarks/two_player_take_fit.py``.  On the half of the contracts
# not fitted, taking when the fit is above 0 gains 5.8 points a contract,
# against 5.3 with :func:`take_value` at its best threshold; in duplicate
# play it added about 1 point a board against the beginner (5,000 boards).

_TWO_LENGTH: tuple[float, ...] = (-171.2, -141.9, -108.0, -75.6, -52.2, -52.9, -55.4)
"""Two players: the base by number of trumps held (0..6; more counts as 6)."""
_TWO_JACK, _TWO_NINE, _TWO_ACE, _TWO_TEN, _TWO_BELOTE = 60.9, 37.0, 20.2, 17.8, 49.5
_TWO_SIDE_ACE, _TWO_SIDE_ACE_TEN, _TWO_SIDE_GUARDED_TEN, _TWO_VOID = 27.4, 19.3, 20.3, 4.4
_TWO_DECLARATION = 1.5
"""Two players: per point of declarations held."""


def two_player_take_value(hand: CardMask, strain: Strain, *, declarations: int = 0) -> float:
    """The expected score difference (taker minus opponent, in points) of
    taking a suit ``strain`` in the two-player game holding ``hand`` (five
    cards and the turned card) and ``declarations`` points of declarations;
    weights fitted on two-player contracts (see the comment above).  Sans
    Atout and Tout Atout are valued by :func:`take_value`.

    Exact values: the jack, nine and ace of hearts with the turned seven of
    hearts, and the spade and club aces (``JH 9H AH 7H AS AC``, diamonds
    void): -52.2 (four trumps) + 60.9 + 37.0 + 20.2 + 2 x 27.4 + 4.4 =
    125.1."""
    if not strain.is_suit:
        return take_value(hand, strain, declarations=declarations)
    suit = int(strain)
    n = _count(hand, suit)
    value = _TWO_LENGTH[min(n, len(_TWO_LENGTH) - 1)]
    value += _TWO_JACK * _has(hand, suit, _J) + _TWO_NINE * _has(hand, suit, _9)
    value += _TWO_ACE * _has(hand, suit, _A) + _TWO_TEN * _has(hand, suit, _10)
    value += _TWO_BELOTE * (_has(hand, suit, _K) and _has(hand, suit, _Q))
    for s in range(4):
        if s == suit:
            continue
        m = _count(hand, s)
        if _has(hand, s, _A):
            value += _TWO_SIDE_ACE + _TWO_SIDE_ACE_TEN * _has(hand, s, _10)
        elif _has(hand, s, _10) and m >= 2:
            value += _TWO_SIDE_GUARDED_TEN
        if m == 0:
            value += _TWO_VOID
    return value + _TWO_DECLARATION * declarations


def strain_tricks(hand: CardMask, strain: Strain) -> float:
    """:func:`take_value` on the scale of tricks of the taking thresholds:
    ``BREAK_EVEN + take_value / TRICK_POINTS`` (2.8 when taking is expected
    to score as much as the defenders, one more per 40 points).  A
    heuristic, not a forecast."""
    return BREAK_EVEN + take_value(hand, strain) / TRICK_POINTS


# The coinche auction.  ``hand_points`` is a hand's share of the points its
# side makes with a trump suit (cards, dix de der and belote), all 8 cards
# known.  Fitted on 160,000 contracts of 80 played out by the intermediate
# (seeds 0..9999, every seat and suit): the side makes
# ``hand_points(taker) + hand_points(partner) - 26.3`` (residual sd 21),
# with the same weights for both hands; from the bidder's hand alone it
# expects ``46.5 + 0.687 * hand_points`` (residual sd 34; the partner's
# average share falls as the bidder's hand grows).

_CO_LENGTH: tuple[float, ...] = (0.0, 9.3, 19.6, 33.8, 51.9, 70.4, 92.7, 115.0, 140.0)
_CO_JACK, _CO_NINE, _CO_JACK_AND_NINE, _CO_ACE, _CO_TEN, _CO_BELOTE = 30, 19.5, 5, 12, 6.5, 21
_CO_SIDE_ACE, _CO_SIDE_ACE_TEN, _CO_SIDE_GUARDED_TEN, _CO_VOID = 16.0, 4.0, 4.3, 7.0
CO_SIDE = -26.3
"""The constant of the side's points: ``hand_points(a) + hand_points(b) + CO_SIDE``."""
CO_ALONE, CO_ALONE_SLOPE = 46.5, 0.687
"""The side's expected points from one hand: ``CO_ALONE + CO_ALONE_SLOPE * hand_points``."""


def hand_points(hand: CardMask, strain: Strain) -> float:
    """A hand's share (of 8 cards) of the points its side makes with
    ``strain`` trump (coinche; see the fit's comment in the module).  Sans
    Atout and Tout Atout: from :func:`take_value`, as one hand alone."""
    if not strain.is_suit:
        alone = 81.0 + take_value(hand, strain, multiplier=1) / 2 - 10.0
        return (alone - CO_ALONE) / CO_ALONE_SLOPE
    suit = int(strain)
    n = _count(hand, suit)
    jack, nine = _has(hand, suit, _J), _has(hand, suit, _9)
    value = _CO_LENGTH[n] + _CO_JACK * jack + _CO_NINE * nine + _CO_JACK_AND_NINE * (jack and nine)
    value += _CO_ACE * _has(hand, suit, _A) + _CO_TEN * _has(hand, suit, _10)
    value += _CO_BELOTE * (_has(hand, suit, _K) and _has(hand, suit, _Q))
    for s in range(4):
        if s == suit:
            continue
        if _has(hand, s, _A):
            value += _CO_SIDE_ACE + _CO_SIDE_ACE_TEN * _has(hand, s, _10)
        elif _has(hand, s, _10) and _count(hand, s) >= 2:
            value += _CO_SIDE_GUARDED_TEN
        if n >= 2 and _count(hand, s) == 0:
            value += _CO_VOID
    return value


def alone_points(hand: CardMask, strain: Strain) -> float:
    """The points the side of ``hand`` expects with ``strain`` trump, its
    partner's hand unknown."""
    return CO_ALONE + CO_ALONE_SLOPE * hand_points(hand, strain)


# Coinching.  Fitted on the contracts of 20,000 coinche deals of the
# intermediate's self-play (seeds 0..19999): the takers made about
# ``1.12 * shown - 8`` points less what the defender's hand takes
# (``defence_points``), where ``shown`` is what their bids showed (residual
# sd 29).  A coinche wins the contract's value again when the contract fails
# and loses it when it is made, so it pays from 50%: the intermediate
# coinches when that expectation is at or below the contract (in 4,000
# self-play deals: 249 coinches, 60% of the contracts failed; coinching 10
# points earlier or later gained less in duplicate play).
COINCHE_SLOPE, COINCHE_BASE = 1.12, -8.0
COINCHE_SHORTFALL = 0
"""Points by which the takers' expected score must fall short of their
contract for a coinche."""


def defence_points(hand: CardMask, strain: Strain) -> float:
    """The points a defender's hand takes from what the takers' bids let them
    expect with ``strain`` trump: trump length (three, four), the jack, a
    guarded nine, side aces.  Tout Atout: the jacks; Sans Atout: the aces."""
    if strain == Strain.TA:
        return 12.0 * sum(_has(hand, s, _J) for s in range(4))
    if strain == Strain.SA:
        return 12.0 * sum(_has(hand, s, _A) for s in range(4))
    suit = int(strain)
    n = _count(hand, suit)
    value = 13.0 * (n >= 3) + 15.0 * (n >= 4)
    value += 12.0 * _has(hand, suit, _J) + 12.0 * (_has(hand, suit, _9) and n >= 2)
    value += 7.0 * sum(_has(hand, s, _A) for s in range(4) if s != suit)
    return value


@dataclass(frozen=True, slots=True)
class AuctionRead:
    """A coinche auction as read by one seat: the standing contract, its
    multiplier, and the hand each bidder showed (``shown[seat]``: the strain
    and :func:`hand_points` of its last contract bid)."""

    high: Bid | None
    high_seat: Seat | None
    multiplier: int
    shown: dict[Seat, tuple[Strain, float]]


@dataclass(frozen=True, slots=True)
class AuctionStep:
    """One bid of a coinche auction as the intermediate reads it.

    ``partner``: the strain and :func:`hand_points` the bidder's partner had
    shown before this bid (``None``: no contract bid yet, or only a capot
    bid, which shows no range); ``points``: the :func:`hand_points` this bid
    shows (contract bids only, capot included; ``None`` otherwise)."""

    seat: Seat
    bid: Bid
    partner: tuple[Strain, float] | None
    points: float | None


def _shown_points(
    value: int, style: Style, partner_shown: tuple[Strain, float] | None, strain: Strain
) -> float:
    """The :func:`hand_points` a bid of ``value`` in ``strain`` shows, made
    with the margins of ``style`` after the partner showed ``partner_shown``:
    the middle of the range of hands that bid it."""
    if partner_shown is not None and partner_shown[0] == strain and strain.is_suit:
        return value + 5 - style.coinche_margin - CO_SIDE - partner_shown[1]
    return (value + 5 - style.opening_margin - CO_ALONE) / CO_ALONE_SLOPE


def auction_steps(view: PlayerView, style: Style) -> Iterator[AuctionStep]:
    """The bids of ``view`` (coinche), each with what the bidder's partner
    had shown and what the bid shows (:func:`_shown_points`, the margins of
    ``style``).  A capot bid shows its points but is not a range later bids
    are read against (no contract can follow it)."""
    shown: dict[Seat, tuple[Strain, float]] = {}
    for s, bid in view.bids:
        partner = shown.get(s.partner)
        points = None
        if bid.kind == "contract":
            assert bid.strain is not None and bid.value is not None
            points = _shown_points(bid.value, style, partner, bid.strain)
            if bid.value < CAPOT_VALUE:
                shown[s] = (bid.strain, points)
        yield AuctionStep(s, bid, partner, points)


def read_auction(view: PlayerView, style: Style) -> AuctionRead:
    """The standing contract, its multiplier and each bidder's shown hand
    (:class:`AuctionRead`) of the coinche auction of ``view``, read with the
    margins of ``style``."""
    high: Bid | None = None
    high_seat: Seat | None = None
    multiplier = 1
    shown: dict[Seat, tuple[Strain, float]] = {}
    for step in auction_steps(view, style):
        bid = step.bid
        if bid.kind == "contract":
            assert bid.strain is not None and step.points is not None
            high, high_seat, multiplier = bid, step.seat, 1
            shown[step.seat] = (bid.strain, step.points)
        elif bid.kind == "coinche":
            multiplier = 2
        elif bid.kind == "surcoinche":
            multiplier = 4
    return AuctionRead(high, high_seat, multiplier, shown)


def sigmoid(x: float) -> float:
    """The logistic function ``1 / (1 + e^-x)``, 0 below ``x = -30``."""
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def soft_below(x: float, limit: float, scale: float) -> float:
    """About 1 well below ``limit``, 1/2 at it, about 0 well above:
    ``sigmoid((limit - x) / scale)``."""
    return sigmoid((limit - x) / scale)


def coinche_bid_weight(view: PlayerView, hands: Sequence[CardMask]) -> float:
    """How well whole ``hands`` (8 cards by seat) explain the other seats'
    bids of a coinche auction, if they bid as the intermediate does: a
    weight in (0, 1], a product of soft bounds.

    - A contract bid (the last of each seat) shows the middle of a range of
      :func:`hand_points` (:func:`auction_steps`): 10 points of contract
      wide, i.e. ``10 / CO_ALONE_SLOPE`` hand points for a bid on the hand
      alone and 10 for a raise of the partner's strain.
    - A pass before any contract of the seat says that no strain reached a
      bid above the standing contract (or 80), with the partner's shown hand
      counted as the bot counts it.
    - Capot bids, coinches and surcoinches are not read, nor the passes of
      the coincher's side after its coinche (where ``Rules.after_coinche``
      lets its partner speak, he may only pass).

    Soft edges (scale 5 hand points, 8 contract points) keep worlds of
    players who bid otherwise possible."""
    style = INTERMEDIATE
    last: dict[Seat, tuple[Strain, float, float]] = {}
    passed_first: dict[Seat, float] = {}
    high = 0
    coincher: Seat | None = None
    for step in auction_steps(view, style):
        s, bid, partner = step.seat, step.bid, step.partner
        if bid.kind == "coinche":
            coincher = s
        if coincher is not None and (s ^ coincher) & 1 == 0:
            continue  # after its coinche, the coincher's side may only pass
        if bid.kind == "contract":
            assert bid.strain is not None and bid.value is not None
            if bid.value < CAPOT_VALUE:
                assert step.points is not None
                raising = partner is not None and partner[0] == bid.strain and bid.strain.is_suit
                half = 5.0 if raising else 5.0 / CO_ALONE_SLOPE
                last[s] = (bid.strain, step.points, half)
            high = bid.value
        elif bid.kind == "pass" and s not in last and s not in passed_first and s != view.seat:
            hand = hands[s]
            if hand == 0:
                continue
            best = max(
                side_estimate(hand, Strain(k), partner)
                + (
                    style.coinche_margin
                    if partner is not None and partner[0] == Strain(k)
                    else style.opening_margin
                )
                for k in range(4)
            )
            passed_first[s] = soft_below(best, max(high, 70) + 10, 8.0)
    weight = 1.0
    for s, (strain, mid, half) in last.items():
        if s == view.seat or hands[s] == 0:
            continue
        hp = hand_points(hands[s], strain)
        weight *= soft_below(hp, mid + half, 5.0) * soft_below(-hp, -(mid - half), 5.0)
    for w in passed_first.values():
        weight *= w
    return max(weight, 1e-9)


def side_estimate(
    hand: CardMask, strain: Strain, partner_shown: tuple[Strain, float] | None
) -> float:
    """The card points (with belote and dix de der, coinche's scale of
    contracts) a side expects with ``strain`` trump: this hand (a
    :data:`CardMask` of 8 cards) plus the :func:`hand_points` the partner
    showed in that strain (``partner_shown``: strain and points, or
    ``None``); else this hand alone (less 10 when the partner bid another
    strain)."""
    if partner_shown is not None and partner_shown[0] == strain and strain.is_suit:
        return hand_points(hand, strain) + partner_shown[1] + CO_SIDE
    alone = alone_points(hand, strain)
    return alone - 10 if partner_shown is not None else alone


def side_estimate_shown(read: AuctionRead, seat: Seat, strain: Strain) -> float:
    """The card points the side of ``seat`` expects with ``strain`` trump
    from what its bids showed in ``read`` (both hands when both bid the
    strain).  Raises ``KeyError`` when ``seat`` made no contract bid."""
    mine = read.shown[seat]
    theirs = read.shown.get(seat.partner)
    if theirs is not None and theirs[0] == strain and strain.is_suit:
        return mine[1] + theirs[1] + CO_SIDE
    return CO_ALONE + CO_ALONE_SLOPE * mine[1]
