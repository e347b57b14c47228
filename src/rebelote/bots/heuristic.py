"""The heuristic player: ``intermediate``, and ``beginner`` as the same player
with defined weaknesses.

What it does, decision by decision (all from the seat's
:class:`~rebelote.observation.PlayerView` through :mod:`.knowledge`):

- Taking (classic and Tout Atout / Sans Atout): :func:`take_value` gives the
  expected score difference of taking each strain with the hand and the
  turned card (the taker gets it), from weights fitted on forced contracts
  played out by the intermediate (see the comment above the weights).  With
  a trump suit, trump length and the jack and nine dominate: at most one
  trump, or two without the jack, never make a take; side aces, tens,
  voids, belote and declarations come after.  Tout Atout counts the jacks
  and the nines beside them, Sans Atout the aces and the tens beside them,
  at the rule set's multipliers, so that they compete with the suits on
  the same scale.  It takes the best strain when it reaches the threshold.
- Coinche auction: each bid shows a hand (:func:`hand_points`): an opening
  the hand whose expectation alone (:func:`alone_points`) reaches the bid
  with the opening margin, a raise of the partner's strain what the
  raiser's hand adds to what the partner had shown.  A seat bids what its
  own hand plus the partner's shown hand reach, so that a raise never
  counts again the cards that made an earlier bid.  It coinches when the
  opponents' shown points, less what its defence takes
  (:func:`defence_points`), fall at or below their contract, and
  surcoinches a contract of its side expected 40 points above its value.
- Declarations: declares all it holds; says belote.
- Card play: the taker draws the opponents' trumps with master trumps (a low
  one when long); a seat cashes its master cards in suits the opponents
  cannot ruff; a defender leads a suit its partner ruffs; otherwise it leads
  low, keeping the guard of a ten.  Following, it charges points (a ten
  first) on a trick its partner is sure to win, a master ten or ace too when
  keeping it cannot win a later trick (an opponent may ruff its suit, no
  opponent holds the suit any more, or at most one trick is left); it does
  not trump or overtrump a partner who is winning when it may discard, wins
  with the cheapest card that is sure to hold, else discards its cheapest
  card that is not the best of its suit (a king under its own ten is not),
  never a ten while a lower card is available; the last trick counts its
  dix de der, and a master trump is kept for it.

Weaknesses of the beginner (:data:`BEGINNER`): no card counting (it forgets
the turned-over tricks, so it never knows that a ten became master), no void
tracking, a fixed taking threshold that ignores declarations and takes a
little too easily (two trumps without the jack, with side aces), coinche
bids with little prudence (it opens about 10 points higher than the
intermediate and raises 25 higher, and fails about a third of its
contracts in self-play where the intermediate fails one in six), never
coinches nor surcoinches, no charging of a winning partner (it plays its
cheapest card), and as taker it draws trumps with its masters only.

Three players: each for himself (no partner); everything else is the same.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from ..actions import CAPOT_VALUE, Action, Bid, ChoosePattern, Cut, Declare, Play
from ..cards import SUIT_MASKS, Card, CardMask, Rank, bit, cards_of, make_card
from ..declarations import find_declarations
from ..observation import PlayerView
from ..seats import Seat
from ..tricks import beats
from ..trump import Strain
from .base import Budget
from .knowledge import Knowledge, infer, seats_after

__all__ = [
    "AuctionRead",
    "AuctionStep",
    "HeuristicBot",
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


INTERMEDIATE = Style()
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


def _floor10(points: float) -> int:
    return int(points // 10) * 10


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
    - Capot bids, coinches and surcoinches are not read.

    Soft edges (scale 5 hand points, 8 contract points) keep worlds of
    players who bid otherwise possible."""
    style = INTERMEDIATE
    last: dict[Seat, tuple[Strain, float, float]] = {}
    passed_first: dict[Seat, float] = {}
    high = 0
    for step in auction_steps(view, style):
        s, bid, partner = step.seat, step.bid, step.partner
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


class HeuristicBot:
    """The heuristic player; :meth:`intermediate` and :meth:`beginner` build
    the two levels.  Stateless: every decision is computed from the view."""

    __slots__ = ("_level", "style")

    def __init__(self, *, level: str, style: Style) -> None:
        self._level = level
        self.style = style

    @classmethod
    def intermediate(cls) -> HeuristicBot:
        """The ``intermediate`` level."""
        return cls(level="intermediate", style=INTERMEDIATE)

    @classmethod
    def beginner(cls) -> HeuristicBot:
        """The ``beginner`` level (see the module's docstring)."""
        return cls(level="beginner", style=BEGINNER)

    @property
    def level(self) -> str:
        """The level's name."""
        return self._level

    # ------------------------------------------------------------------ entry

    def act(
        self, view: PlayerView, legal: Sequence[Action], *, seed: int, budget: Budget
    ) -> Action:
        """Choose one of ``legal`` for ``view.seat``.  ``seed`` breaks ties in
        the cut only; ``budget`` is not needed (decisions take about a
        millisecond).  Raises ``ValueError`` when ``legal`` is empty."""
        if not legal:
            raise ValueError(f"no legal action for seat {view.seat.letter}")
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        if isinstance(first, Play):
            card = self.choose_card(view, legal)
            for action in legal:
                if isinstance(action, Play) and action.card == card and action.belote:
                    return action
            return next(a for a in legal if isinstance(a, Play) and a.card == card)
        if isinstance(first, Bid):
            return self.choose_bid(view, legal)
        if isinstance(first, Declare):
            # Declaration subsets come all-first: declare everything held.
            return first
        if isinstance(first, Cut):
            return legal[random.Random(seed).randrange(len(legal))]
        assert isinstance(first, ChoosePattern)
        return first

    # ---------------------------------------------------------------- bidding

    def choose_bid(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The bid to make; ``legal`` holds :class:`Bid` actions, pass first."""
        bids = [a for a in legal if isinstance(a, Bid)]
        if view.rules.bidding == "coinche":
            return self._coinche_bid(view, bids)
        return self._classic_bid(view, bids)

    def _threshold(self, view: PlayerView) -> float:
        """The taking threshold on the scale of :func:`strain_tricks`.  The
        position at the table is not counted: in the fitted contracts the
        seat leading the first trick scored no better than the others."""
        threshold = self.style.take_threshold
        if self.style.adaptive_taking and view.rules.players == 3:
            threshold += 0.6
        offsets = self.style.take_offsets
        players = view.rules.players
        if (
            offsets is not None
            and players == 4
            and len(view.bids) < 2 * players
            and all(b.kind == "pass" for _, b in view.bids)
        ):
            n = len(view.bids)
            threshold += offsets[n // players][n % players] / TRICK_POINTS
        return threshold

    def _classic_bid(self, view: PlayerView, bids: list[Bid]) -> Bid:
        return self.pick_classic_bid(bids, self.classic_bid_values(view, bids))

    @staticmethod
    def pick_classic_bid(bids: Sequence[Bid], values: Mapping[str, float]) -> Bid:
        """The bid of highest value in ``values`` (:meth:`classic_bid_values`
        of ``bids``, pass first): a take on a tie with passing; between
        takes, the first listed on ties."""
        best: Bid = bids[0]
        best_value = values[best.text]
        for bid in bids[1:]:
            value = values.get(bid.text)
            if value is not None and value >= best_value:
                best, best_value = bid, value + 1e-9
        return best

    def classic_bid_values(self, view: PlayerView, bids: Sequence[Bid]) -> dict[str, float]:
        """What each legal bid of a classic auction is worth to this bot
        against passing, in points of :func:`take_value` (the expected score
        difference, takers minus defenders), by the bid's text; ``bids``
        holds the legal bids, pass first.

        - A take, or a strain named in round two: its :func:`take_value`
          (Sans Atout and Tout Atout at the rule set's multipliers;
          declarations held counted with ``adaptive_taking``) less the
          taking threshold (:meth:`_threshold`, 0 points for the
          intermediate).
        - Pass: 0; with ``switch_margin``, in round one, the best other
          suit's :func:`take_value` less the margin and the threshold when
          that is more (the value of naming it in round two).
        - Over a partner's take (four players) only the pass is valued.

        The bot makes the bid of highest value (:meth:`choose_bid`)."""
        pass_bid = bids[0]
        values: dict[str, float] = {pass_bid.text: 0.0}
        hand = view.hand
        if view.turned is not None:
            hand |= bit(view.turned)
        high_seat: Seat | None = None
        for seat, bid in view.bids:
            if bid.kind in ("take", "strain"):
                high_seat = seat
        rules = view.rules
        if high_seat is not None and rules.players == 4 and high_seat == view.seat.partner:
            return values
        threshold = (self._threshold(view) - BREAK_EVEN) * TRICK_POINTS
        for bid in bids[1:]:
            if bid.kind == "take":
                assert view.turned is not None
                strain = Strain(view.turned >> 3)
            elif bid.kind == "strain" and bid.strain is not None:
                strain = bid.strain
            else:
                continue
            mult = {Strain.SA: rules.sa_multiplier, Strain.TA: rules.ta_multiplier}.get(strain)
            points = 0
            if self.style.adaptive_taking and rules.declarations != "off":
                points = sum(d.points for d in find_declarations(hand, strain))
            value = take_value(hand, strain, multiplier=mult, declarations=points)
            values[bid.text] = value - threshold
        if any(b.kind == "take" for b in bids):
            later = self._round_two_value(view, hand)
            if later is not None:
                values[pass_bid.text] = max(0.0, later - threshold)
        return values

    def _round_two_value(self, view: PlayerView, hand: CardMask) -> float | None:
        """With ``switch_margin`` (four players, a second round without the
        turned suit): the best other suit's :func:`take_value` less the
        margin (``hand``: with the turned card, which the taker gets in
        either round); else ``None``."""
        margin = self.style.switch_margin
        rules = view.rules
        if margin is None or rules.players != 4 or rules.round_two_turned_suit:
            return None
        assert view.turned is not None
        turned_suit = view.turned >> 3
        best: float | None = None
        for suit in range(4):
            if suit == turned_suit:
                continue
            strain = Strain(suit)
            points = 0
            if rules.declarations != "off":
                points = sum(d.points for d in find_declarations(hand, strain))
            value = take_value(hand, strain, declarations=points)
            if best is None or value > best:
                best = value
        assert best is not None
        return best - margin

    def _coinche_bid(self, view: PlayerView, bids: list[Bid]) -> Bid:
        """The coinche auction.

        Every contract bid is read as showing a hand (:func:`hand_points`):
        an opening (or a bid in a strain the partner has not bid) shows the
        hand whose :func:`alone_points` plus the margin is the bid; a raise
        of the partner's strain shows what the raiser's hand adds to what the
        partner had shown.  The seat bids the highest contract its side's
        estimate (its own hand plus what the partner showed in the strain, or
        :func:`alone_points`) reaches with its margin, so that a raise never
        counts again the cards that made an earlier bid."""
        seat = view.seat
        partner = seat.partner
        style = self.style
        read = read_auction(view, style)
        by_text = {b.text: b for b in bids}
        pass_bid = bids[0]
        hand = view.hand
        high, high_seat = read.high, read.high_seat

        if read.multiplier > 1:
            # Coinched: surcoinche a contract of ours we expect to make well.
            assert high is not None and high.value is not None and high.strain is not None
            if style.coinches and high_seat in (seat, partner) and "surcoinche" in by_text:
                own = side_estimate(hand, high.strain, read.shown.get(partner))
                if own >= high.value + 40:
                    return by_text["surcoinche"]
            return pass_bid

        if (
            style.coinches
            and high is not None
            and high_seat not in (seat, partner)
            and "coinche" in by_text
            and self._should_coinche(view, read)
        ):
            return by_text["coinche"]

        low = high.value if high is not None and high.value is not None else 0
        best: Bid = pass_bid
        best_value = low
        strains = [Strain(s) for s in range(4)]
        if any(b.kind == "contract" and b.strain == Strain.TA for b in bids):
            strains += [Strain.SA, Strain.TA]
        shown = read.shown.get(partner)
        for strain in strains:
            estimate = side_estimate(hand, strain, shown)
            raising = shown is not None and shown[0] == strain and strain.is_suit
            estimate += style.coinche_margin if raising else style.opening_margin
            value = min(_floor10(estimate), 160)
            if estimate >= 230:
                value = CAPOT_VALUE
            if value >= 80 and value > best_value:
                text = Bid("contract", strain, value).text
                if text in by_text:
                    best, best_value = by_text[text], value
        return best

    def _should_coinche(self, view: PlayerView, read: AuctionRead) -> bool:
        """Whether the opponents' contract should fail, from what their bids
        showed and this seat's defence (see :func:`defence_points`)."""
        high = read.high
        assert high is not None and high.value is not None and high.strain is not None
        assert read.high_seat is not None
        if high.value == CAPOT_VALUE:
            return False
        shown = side_estimate_shown(read, read.high_seat, high.strain)
        expected = COINCHE_SLOPE * shown + COINCHE_BASE - defence_points(view.hand, high.strain)
        return expected <= high.value - COINCHE_SHORTFALL

    # ------------------------------------------------------------------- play

    def choose_card(self, view: PlayerView, legal: Sequence[Action]) -> Card:
        """The card to play; ``legal`` holds :class:`Play` actions."""
        mask = 0
        for a in legal:
            if isinstance(a, Play):
                mask |= bit(a.card)
        k = infer(view, counting=self.style.counting, voids=self.style.voids)
        if not view.trick:
            return self._lead(view, k, mask)
        return self._follow(view, k, mask)

    def _side_takes(self, view: PlayerView, k: Knowledge) -> bool:
        contract = view.contract
        assert contract is not None
        return contract.taker == view.seat or k.is_partner(contract.taker)

    def _lead(self, view: PlayerView, k: Knowledge, mask: CardMask) -> Card:
        assert k.tables is not None and view.contract is not None
        tables = k.tables
        trumps = k.trumps
        opps = k.opponents()
        opp_cards = k.outstanding(opps)
        my_trumps = mask & trumps
        taker = view.contract.taker
        side_takes = self._side_takes(view, k)
        cards = list(cards_of(mask))

        # The last two tricks: keep a master trump for the dix de der.
        if len(cards) == 2 and my_trumps.bit_count() == 1:
            trump = my_trumps.bit_length() - 1
            other = cards[0] if cards[1] == trump else cards[1]
            if k.is_master(trump) and not k.is_master(other) and not trumps >> other & 1:
                return other

        # Draw the opponents' trumps.
        if trumps and my_trumps and opp_cards & trumps and trumps != (1 << 32) - 1:
            masters = [c for c in cards_of(my_trumps) if k.is_master(c)]
            if (
                side_takes
                and masters
                and (view.seat == taker or not k.unseen & trumps & ~opp_cards)
            ):
                return max(masters, key=lambda c: tables.strength[c])
            if self.style.draws_trumps and view.seat == taker and my_trumps.bit_count() >= 3:
                return min(cards_of(my_trumps), key=lambda c: tables.strength[c])

        # Cash masters the opponents cannot ruff.
        best_master: Card | None = None
        for c in cards:
            if trumps >> c & 1 and trumps != (1 << 32) - 1:
                continue
            if not k.is_master(c):
                continue
            suit = c >> 3
            if any(k.void(o, suit) and k.possible[o] & trumps for o in opps):
                continue
            if best_master is None or tables.points[c] > tables.points[best_master]:
                best_master = c
        if best_master is not None:
            return best_master

        # A defender leads a suit its partner ruffs.
        partner = k.partner
        if partner is not None and not side_takes and trumps and trumps != (1 << 32) - 1:
            for c in sorted(cards, key=lambda c: tables.points[c]):
                suit = c >> 3
                if trumps >> c & 1 or tables.points[c] >= 10:
                    continue
                if k.void(partner, suit) and k.possible[partner] & trumps:
                    return c

        return min(cards, key=lambda c: self._lead_cost(view, k, c, side_takes))

    def _lead_cost(self, view: PlayerView, k: Knowledge, card: Card, side_takes: bool) -> float:
        assert k.tables is not None
        tables = k.tables
        trumps = k.trumps
        suit_cards = k.hand & SUIT_MASKS[card >> 3]
        cost = float(tables.points[card]) + 0.05 * tables.strength[card]
        is_trump = bool(trumps >> card & 1) and trumps != (1 << 32) - 1
        if is_trump:
            cost += 6 if side_takes else 25
            cost += 3 * tables.strength[card]
        else:
            # Keep the guard of a ten that is not master.
            ten = make_card(card >> 3, _10)
            if (
                card != ten
                and suit_cards >> ten & 1
                and not k.is_master(ten)
                and suit_cards.bit_count() == 2
            ):
                cost += 8
            # A suit an opponent ruffs.
            for o in k.opponents():
                if k.void(o, card >> 3) and k.possible[o] & trumps:
                    cost += 12
                    break
            # Short suits make voids for ruffing.
            if k.hand & trumps and trumps != (1 << 32) - 1:
                cost += 0.4 * suit_cards.bit_count()
        return cost

    def _threat(self, k: Knowledge, seat: Seat, card: Card, led: Card) -> bool:
        """Whether ``seat``, still to play, could beat ``card`` (the card now
        winning the trick, or one this seat would play)."""
        assert k.tables is not None
        tables = k.tables
        possible = k.possible[seat]
        trumps = k.trumps
        led_suit = SUIT_MASKS[led >> 3]
        if possible & tables.higher[card]:
            if card & ~7 == led & ~7:
                return True
            # A higher trump over a ruff: only if the seat can be void in the suit led.
            return not k.known[seat] & led_suit
        if not trumps >> card & 1 and trumps and card & ~7 == led & ~7:
            return bool(possible & trumps) and not possible & led_suit
        return False

    def _follow(self, view: PlayerView, k: Knowledge, mask: CardMask) -> Card:
        assert k.tables is not None
        tables = k.tables
        trick = view.trick
        led = trick[0][1]
        win = 0
        for i in range(1, len(trick)):
            if beats(trick[i][1], trick[win][1], tables):
                win = i
        win_seat, win_card = trick[win]
        after = seats_after(view)
        opp_after = [s for s in after if not k.is_partner(s)]
        last = k.tricks_done == 7
        trick_points = sum(tables.points[c] for _, c in trick) + (10 if last else 0)
        cards = list(cards_of(mask))

        if k.is_partner(win_seat):
            if not any(self._threat(k, o, win_card, led) for o in opp_after):
                if self.style.charges:
                    return self._charge(k, cards)
                return self._discard(k, cards)
            overs = [
                c
                for c in cards
                if beats(c, win_card, tables)
                and not k.trumps >> c & 1
                and not any(self._threat(k, o, c, led) for o in opp_after)
            ]
            if overs:
                return max(overs, key=lambda c: tables.points[c])
            return self._discard(k, cards)

        winners = [c for c in cards if beats(c, win_card, tables)]
        if winners:
            safe = [c for c in winners if not any(self._threat(k, o, c, led) for o in opp_after)]
            if safe:
                if all(k.trumps >> c & 1 for c in safe):
                    return min(safe, key=lambda c: tables.strength[c])
                plain = [c for c in safe if not k.trumps >> c & 1]
                return max(plain, key=lambda c: (not k.is_master(c), tables.points[c]))
            if trick_points >= 10 or last:
                # No sure winner: try the strongest, following suit before ruffing.
                return max(winners, key=lambda c: (c & ~7 == led & ~7, tables.strength[c]))
        return self._discard(k, cards)

    def _charge(self, k: Knowledge, cards: list[Card]) -> Card:
        """The card to give to a partner who is sure to win the trick: the
        most points, trumps last.  A master ten or ace is kept back only
        while it can still win a trick of its own (:meth:`_can_cash`)."""
        assert k.tables is not None
        tables = k.tables

        def value(c: Card) -> float:
            if k.trumps >> c & 1 and k.trumps != (1 << 32) - 1:
                return -100.0 - tables.strength[c]
            points = float(tables.points[c])
            if points >= 10 and k.is_master(c) and self._can_cash(k, c):
                points -= 12
            return points - 0.01 * tables.strength[c]

        return max(cards, key=value)

    @staticmethod
    def _can_cash(k: Knowledge, card: Card) -> bool:
        """Whether a master ``card`` kept now can still win a later trick: not
        when at most one trick is left after this one (the last card goes
        wherever the last trick goes), nor when an opponent may ruff its suit
        (void in it, trumps possible), nor when no opponent may hold its
        suit any more (led, it would be ruffed or take only discards)."""
        if k.tricks_done >= 6:
            return False
        suit = SUIT_MASKS[card >> 3]
        trumps = k.trumps if k.trumps != (1 << 32) - 1 else 0
        opps = k.opponents()
        if trumps and any(k.void(o, card >> 3) and k.possible[o] & trumps for o in opps):
            return False
        return bool(k.outstanding(opps) & suit)

    @staticmethod
    def _top(k: Knowledge, card: Card) -> bool:
        """Whether ``card`` is the best card of its suit still in play, the
        seat's own cards included (a king under the seat's own ten is not)."""
        assert k.tables is not None
        return k.tables.higher[card] & (k.unseen | k.hand) == 0

    def _discard(self, k: Knowledge, cards: list[Card]) -> Card:
        """The cheapest card to give away (or to lose the trick with): the
        lowest-value card that is not the best of its suit, keeping the guard
        of a ten; never a ten (or any card of 10 points or more) that is not
        the best of its suit while a card of fewer points is available."""
        assert k.tables is not None
        tables = k.tables
        trumps = k.trumps
        all_trump = trumps == (1 << 32) - 1
        hand = k.hand
        low_available = any(
            tables.points[c] < 10 and (all_trump or not trumps >> c & 1) for c in cards
        )

        def cost(c: Card) -> float:
            value = float(tables.points[c]) + 0.05 * tables.strength[c]
            suit_cards = hand & SUIT_MASKS[c >> 3]
            if trumps >> c & 1 and not all_trump:
                value += 10 + 2 * tables.strength[c]
                return value
            top = self._top(k, c)
            if top:
                value += 8
            elif tables.points[c] >= 10 and low_available:
                value += 10
            ten = make_card(c >> 3, _10)
            if (
                c != ten
                and suit_cards >> ten & 1
                and suit_cards.bit_count() == 2
                and not self._top(k, ten)
            ):
                value += 6
            if hand & trumps and not all_trump and suit_cards.bit_count() == 1:
                value -= 1
            return value

        return min(cards, key=cost)
