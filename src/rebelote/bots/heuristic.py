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

Two players (RULES.md "Two players": 8 cards each, the other 16 set aside
unseen and never played): the card counting is the same, the unseen cards
being the opponent's hand or the stock.  The intermediate takes by
:func:`two_player_take_value` (weights fitted on two-player contracts) and,
beside the sure masters, also cashes a card the opponent beats only with
cards it holds with a probability below ``1 - two_player_odds``
(:meth:`.knowledge.Knowledge.chance_holds_none`: a ten whose ace is unseen
is safe with probability 16/24 at the first trick, 16/19 at the sixth).
The beginner plays the two-player game as the four-player one.

The values it decides with (:func:`take_value`, :func:`hand_points`, the
reading of an auction, ...) and the levels' settings (:class:`Style`) are in
:mod:`.evaluation`, which the expert's sampler and double-dummy bidder use
too; they stay importable from here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ..actions import CAPOT_VALUE, Action, Bid, ChoosePattern, Cut, Declare, Play
from ..cards import SUIT_MASKS, Card, CardMask, Rank, bit, cards_of, make_card
from ..declarations import find_declarations
from ..observation import PlayerView
from ..seats import Seat
from ..tricks import beats
from ..trump import Strain
from .base import Budget
from .evaluation import BEGINNER as BEGINNER
from .evaluation import BREAK_EVEN as BREAK_EVEN
from .evaluation import CO_ALONE as CO_ALONE
from .evaluation import CO_ALONE_SLOPE as CO_ALONE_SLOPE
from .evaluation import CO_SIDE as CO_SIDE
from .evaluation import COINCHE_BASE as COINCHE_BASE
from .evaluation import COINCHE_SHORTFALL as COINCHE_SHORTFALL
from .evaluation import COINCHE_SLOPE as COINCHE_SLOPE
from .evaluation import INTERMEDIATE as INTERMEDIATE
from .evaluation import SEED000_MULTIPLIERS as SEED000_MULTIPLIERS
from .evaluation import TRICK_POINTS as TRICK_POINTS
from .evaluation import (
    AuctionRead,
    AuctionStep,
    Style,
    TakeOffsets,
    alone_points,
    auction_steps,
    coinche_bid_weight,
    defence_points,
    hand_points,
    read_auction,
    side_estimate,
    side_estimate_shown,
    sigmoid,
    soft_below,
    strain_tricks,
    take_value,
    two_player_take_value,
)
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

_10 = Rank.TEN


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
            if rules.players == 2 and self.style.adaptive_taking:
                value = two_player_take_value(hand, strain, declarations=points)
            else:
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
            if not k.is_master(c) and not self._likely_master(k, c):
                continue
            suit = c >> 3
            if any(k.void(o, suit) and k.possible[o] & trumps for o in opps):
                continue
            if best_master is None or (k.is_master(c), tables.points[c]) > (
                k.is_master(best_master),
                tables.points[best_master],
            ):
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

    def _likely_master(self, k: Knowledge, card: Card) -> bool:
        """Two players with ``two_player_odds``: whether the opponent holds
        none of the cards that beat ``card`` in its suit with at least that
        probability (the unseen cards are its hand or the stock, RULES.md
        "Two players").  Always false in the three- and four-player games."""
        odds = self.style.two_player_odds
        if odds is None or k.players != 2:
            return False
        assert k.tables is not None
        (opponent,) = k.opponents()
        return k.chance_holds_none(opponent, k.tables.higher[card]) >= odds

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
