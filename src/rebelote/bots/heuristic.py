"""The heuristic player: ``intermediate``, and ``beginner`` as the same player
with defined weaknesses.

What it does, decision by decision (all from the seat's
:class:`~rebelote.observation.PlayerView` through :mod:`.knowledge`):

- Taking (classic and Tout Atout / Sans Atout): it estimates the tricks its
  hand would take with each possible trump (the turned card included, since
  the taker gets it), trumps held and their masters first, then aces and
  tens, belote, voids to ruff with, declarations; it takes the best strain
  when the estimate reaches its threshold.  The intermediate's threshold
  depends on the position (leading the first trick helps the taker) and the
  round; the beginner's is fixed.
- Coinche auction: it bids from its estimate of the points its side makes
  (its own tricks plus a share for its partner), raises a partner's contract
  by its support (aces, the jack and nine of the partner's trump, belote),
  coinches a contract its defence should beat, surcoinches a contract it
  expects to make comfortably.
- Declarations: declares all it holds; says belote.
- Card play: the taker draws the opponents' trumps with master trumps (a low
  one when long); a seat cashes its master cards in suits the opponents
  cannot ruff; a defender leads a suit its partner ruffs; otherwise it leads
  low, keeping the guard of a ten.  Following, it charges points (a ten
  first) on a trick its partner is sure to win, does not trump or overtrump
  a partner who is winning when it may discard, wins with the cheapest card
  that is sure to hold, else plays its cheapest card; the last trick counts
  its dix de der, and a master trump is kept for it.

Weaknesses of the beginner (:data:`BEGINNER`): no card counting (it forgets
the turned-over tricks, so it never knows that a ten became master), no void
tracking, a fixed taking threshold that ignores position and declarations and
takes a little too easily, coinche bids at its raw estimate (no margin of
prudence), no charging of a winning partner (it plays its cheapest card), and
as taker it draws trumps with its masters only.

Three players: each for himself (no partner); everything else is the same.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import CAPOT_VALUE, Action, Bid, ChoosePattern, Cut, Declare, Play
from ..cards import SUIT_MASKS, Card, CardMask, Rank, bit, cards_of, make_card
from ..declarations import find_declarations
from ..observation import PlayerView
from ..seats import Seat, next_seat
from ..tricks import beats
from ..trump import Strain
from .base import Budget
from .knowledge import Knowledge, infer, seats_after

__all__ = ["HeuristicBot", "Style", "strain_tricks"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Style:
    """The settings that make a level.

    - ``counting``: remember the cards of the finished tricks.
    - ``voids``: infer who is void (or lacks trumps) from the play.
    - ``adaptive_taking``: adjust the taking threshold to the position and
      count declarations; off: a fixed threshold.
    - ``take_threshold``: estimated tricks (of 8) needed to take.
    - ``coinche_margin``: points added to the estimate before bidding in
      coinche (negative: more prudent).
    - ``charges``: give points to a partner sure to win the trick (off: play
      the cheapest card).
    - ``draws_trumps``: the taker long in trumps leads a low one to draw the
      opponents' (off: it leads master trumps only).
    """

    counting: bool = True
    voids: bool = True
    adaptive_taking: bool = True
    take_threshold: float = 2.8
    coinche_margin: int = -20
    charges: bool = True
    draws_trumps: bool = True


INTERMEDIATE = Style()
"""The intermediate level."""

BEGINNER = Style(
    counting=False,
    voids=False,
    adaptive_taking=False,
    take_threshold=2.2,
    coinche_margin=0,
    charges=False,
    draws_trumps=False,
)
"""The beginner level: no counting, no void tracking, a fixed threshold that
takes a little too easily, coinche bids at its raw estimate with no margin of
prudence, no charging of a winning partner, trumps drawn with masters only."""

_J, _9, _A, _10, _K, _Q = Rank.JACK, Rank.NINE, Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN


def _has(hand: CardMask, suit: int, rank: int) -> bool:
    return bool(hand >> (suit * 8 + rank) & 1)


def _trump_suit_tricks(hand: CardMask, suit: int) -> float:
    """Estimated tricks of the trumps of ``suit`` in ``hand`` (trump order)."""
    trumps = hand & SUIT_MASKS[suit]
    n = trumps.bit_count()
    if n == 0:
        return 0.0
    jack, nine, ace, ten = (_has(hand, suit, r) for r in (_J, _9, _A, _10))
    tricks = 0.0
    if jack:
        tricks += 1.0
    if nine:
        tricks += 1.0 if jack else (0.7 if n >= 3 else 0.45 if n >= 2 else 0.15)
    if ace:
        tricks += 1.0 if jack and nine else (0.7 if jack or nine else 0.5 if n >= 3 else 0.3)
    if ten:
        tricks += 0.6 if jack and nine and ace else (0.4 if n >= 3 else 0.2)
    small = n - int(jack) - int(nine) - int(ace) - int(ten)
    tricks += 0.25 * small
    if n >= 4:
        tricks += 0.3 * (n - 3)
    if _has(hand, suit, _K) and _has(hand, suit, _Q):
        tricks += 0.5
    return tricks


def _plain_suit_tricks(hand: CardMask, suit: int, trumps_held: int) -> float:
    """Estimated tricks of a plain suit (plain order), ruffing value included."""
    cards = hand & SUIT_MASKS[suit]
    m = cards.bit_count()
    ace, ten, king = (_has(hand, suit, r) for r in (_A, _10, _K))
    tricks = 0.0
    if ace:
        tricks += 0.9
    if ten:
        tricks += 0.6 if ace else (0.3 if m >= 2 else 0.1)
    if king and ace and ten:
        tricks += 0.3
    if m == 0 and trumps_held >= 2:
        tricks += 0.35
    elif m == 1 and not ace and trumps_held >= 3:
        tricks += 0.15
    return tricks


def strain_tricks(hand: CardMask, strain: Strain) -> float:
    """Estimated tricks (of 8) that ``hand`` takes as taker with ``strain``
    trump, belote counted as half a trick.  A heuristic, not a forecast."""
    if strain == Strain.SA:
        total = 0.0
        for s in range(4):
            cards = hand & SUIT_MASKS[s]
            ace, ten, king = (_has(hand, s, r) for r in (_A, _10, _K))
            if ace:
                total += 1.0
                if ten:
                    total += 0.9
                    if king:
                        total += 0.6
                total += 0.3 * max(0, cards.bit_count() - 3)
            elif ten and cards.bit_count() >= 2:
                total += 0.3
        return total
    if strain == Strain.TA:
        total = 0.0
        for s in range(4):
            jack, nine = _has(hand, s, _J), _has(hand, s, _9)
            n = (hand & SUIT_MASKS[s]).bit_count()
            if jack:
                total += 1.0
                if nine:
                    total += 0.9
            elif nine and n >= 2:
                total += 0.4
            if _has(hand, s, _K) and _has(hand, s, _Q):
                total += 0.2
        return total
    suit = int(strain)
    trumps_held = (hand & SUIT_MASKS[suit]).bit_count()
    total = _trump_suit_tricks(hand, suit)
    for s in range(4):
        if s != suit:
            total += _plain_suit_tricks(hand, s, trumps_held)
    return total


def _defence_tricks(hand: CardMask, strain: Strain) -> float:
    """Estimated tricks ``hand`` takes in defence against ``strain``."""
    if not strain.is_suit:
        return 0.7 * strain_tricks(hand, strain)
    suit = int(strain)
    n = (hand & SUIT_MASKS[suit]).bit_count()
    total = 0.0
    if _has(hand, suit, _J):
        total += 1.0
    if _has(hand, suit, _9) and n >= 2:
        total += 0.8 if _has(hand, suit, _J) else 0.6
    if _has(hand, suit, _A) and n >= 3:
        total += 0.4
    for s in range(4):
        if s == suit:
            continue
        if _has(hand, s, _A):
            total += 0.8
            if _has(hand, s, _10):
                total += 0.5
    return total


def _floor10(points: float) -> int:
    return int(points // 10) * 10


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
        style = self.style
        threshold = style.take_threshold
        if not style.adaptive_taking:
            return threshold
        players = view.rules.players
        first = next_seat(view.dealer, players)
        leader = view.dealer if view.rules.first_lead == "dealer" else first
        if leader == view.seat:
            threshold -= 0.2
        elif players == 4 and leader == view.seat.partner:
            threshold -= 0.1
        if players == 3:
            threshold += 0.6
        return threshold

    def _declaration_bonus(self, view: PlayerView, hand: CardMask, strain: Strain) -> float:
        if not self.style.adaptive_taking or view.rules.declarations == "off":
            return 0.0
        return sum(d.points for d in find_declarations(hand, strain)) / 50.0

    def _classic_bid(self, view: PlayerView, bids: list[Bid]) -> Bid:
        hand = view.hand
        if view.turned is not None:
            hand |= bit(view.turned)
        high_seat: Seat | None = None
        for seat, bid in view.bids:
            if bid.kind in ("take", "strain"):
                high_seat = seat
        if high_seat is not None and view.rules.players == 4 and high_seat == view.seat.partner:
            return bids[0]
        threshold = self._threshold(view)
        best: Bid = bids[0]
        best_margin = 0.0
        for bid in bids:
            if bid.kind == "take":
                assert view.turned is not None
                strain = Strain(view.turned >> 3)
            elif bid.kind == "strain" and bid.strain is not None:
                strain = bid.strain
            else:
                continue
            tricks = strain_tricks(hand, strain) + self._declaration_bonus(view, hand, strain)
            need = threshold
            if strain == Strain.SA:
                need = threshold + 2.4
            elif strain == Strain.TA:
                need = threshold + 2.6
            margin = tricks - need
            if margin >= best_margin:
                best, best_margin = bid, margin + 1e-9
        return best

    def _coinche_bid(self, view: PlayerView, bids: list[Bid]) -> Bid:
        seat = view.seat
        partner = seat.partner
        high: Bid | None = None
        high_seat: Seat | None = None
        partner_bid: Bid | None = None
        my_bids = 0
        multiplier = 1
        for s, bid in view.bids:
            if bid.kind == "contract":
                high, high_seat = bid, s
                multiplier = 1
                if s == partner:
                    partner_bid = bid
                if s == seat:
                    my_bids += 1
            elif bid.kind == "coinche":
                multiplier = 2
        by_text = {b.text: b for b in bids}
        pass_bid = bids[0]
        hand = view.hand
        margin = self.style.coinche_margin

        if multiplier > 1:
            # Coinched: surcoinche a contract of ours we expect to make well.
            assert high is not None and high.value is not None and high.strain is not None
            if high_seat in (seat, partner) and "surcoinche" in by_text:
                own = self._coinche_estimate(hand, high.strain, partner_bid, seat, high_seat)
                if own >= high.value + 30:
                    return by_text["surcoinche"]
            return pass_bid

        if high is not None and high_seat not in (seat, partner) and "coinche" in by_text:
            assert high.value is not None and high.strain is not None
            defence = 20 * _defence_tricks(hand, high.strain) + 22
            if high.value >= 90 and 162 - defence < high.value - 15:
                return by_text["coinche"]

        low = high.value if high is not None and high.value is not None else 0
        best: Bid = pass_bid
        best_value = low
        strains = [Strain(s) for s in range(4)]
        if any(b.kind == "contract" and b.strain == Strain.TA for b in bids):
            strains += [Strain.SA, Strain.TA]
        for strain in strains:
            estimate = self._coinche_estimate(hand, strain, partner_bid, seat, None) + margin
            if not strain.is_suit:
                estimate -= 30
            if strain.is_suit and partner_bid is not None and partner_bid.strain != strain:
                # Bidding over a partner's suit needs a clearly better hand.
                estimate -= 20
            value = min(_floor10(estimate), 160)
            if estimate >= 250 - 20:
                value = CAPOT_VALUE
            if value >= 80 and value > best_value:
                text = Bid("contract", strain, value).text
                if text in by_text:
                    best, best_value = by_text[text], value
        if high_seat == partner and best is not pass_bid and my_bids >= 2:
            return pass_bid
        return best

    def _coinche_estimate(
        self,
        hand: CardMask,
        strain: Strain,
        partner_bid: Bid | None,
        seat: Seat,
        holder: Seat | None,
    ) -> float:
        """Points the side should make with ``strain`` trump: our own tricks,
        plus the partner's bid (or an average partner)."""
        if partner_bid is not None and partner_bid.strain == strain and partner_bid.value:
            suit = int(strain) if strain.is_suit else -1
            support = 0.0
            for s in range(4):
                if s != suit and _has(hand, s, _A):
                    support += 10
            if suit >= 0:
                if _has(hand, suit, _J):
                    support += 20
                if _has(hand, suit, _9):
                    support += 10
                if (hand & SUIT_MASKS[suit]).bit_count() >= 3:
                    support += 10
                if _has(hand, suit, _K) and _has(hand, suit, _Q):
                    support += 20
            return partner_bid.value + support
        return 20 * strain_tricks(hand, strain) + 25

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
                    return self._charge(k, cards, last)
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

    def _charge(self, k: Knowledge, cards: list[Card], last: bool) -> Card:
        """The card to give to a partner who is sure to win the trick."""
        assert k.tables is not None
        tables = k.tables

        def value(c: Card) -> float:
            if k.trumps >> c & 1 and k.trumps != (1 << 32) - 1:
                return -100.0 - tables.strength[c]
            points = float(tables.points[c])
            if not last and k.tables is not None and k.is_master(c) and points >= 10:
                points -= 12
            return points - 0.01 * tables.strength[c]

        return max(cards, key=value)

    def _discard(self, k: Knowledge, cards: list[Card]) -> Card:
        """The cheapest card to give away (or to lose the trick with)."""
        assert k.tables is not None
        tables = k.tables
        trumps = k.trumps
        all_trump = trumps == (1 << 32) - 1
        hand = k.hand

        def cost(c: Card) -> float:
            value = float(tables.points[c]) + 0.05 * tables.strength[c]
            suit_cards = hand & SUIT_MASKS[c >> 3]
            if trumps >> c & 1 and not all_trump:
                value += 10 + 2 * tables.strength[c]
                return value
            if k.is_master(c):
                value += 8
            ten = make_card(c >> 3, _10)
            if (
                c != ten
                and suit_cards >> ten & 1
                and suit_cards.bit_count() == 2
                and not k.is_master(ten)
            ):
                value += 6
            if hand & trumps and not all_trump and suit_cards.bit_count() == 1:
                value -= 1
            return value

        return min(cards, key=cost)
