"""The ``expert``: sampled worlds solved exactly, and bids chosen by simulation.

Card play (perfect-information Monte Carlo): the seat samples worlds that
agree with its view (:mod:`.sampling`: its hand, the cards played, the voids
shown, the turned card, declarations, belote, weighted by the bids), solves
each world exactly with the double-dummy solver (:mod:`rebelote.solver`),
turns each legal card's exact value into the deal's score for its side in
that world (the contract made or failed, belote held in the world,
declarations made), averages over the worlds and plays the best card.  Ties
go to the intermediate's choice.

Early in the deal a full solve costs too much for many worlds, so the number
of worlds follows the tricks left (:func:`plan_worlds`); where even one
world is too costly (the first trick without the compiled kernel) the card
is the intermediate's.

Bidding (the ``expert`` and ``expert-bidder``, which has the
intermediate's card play):

- coinche (four players): by double-dummy evaluation of sampled deals
  (:mod:`.ddbid`): each candidate bid is followed by the intermediate's
  auction at all seats on each deal, and the contract reached is scored
  from the deal's double-dummy points, calibrated on the intermediate's
  real play.  The bid with the best mean score for the seat's side is made
  if it beats the intermediate's bid by a margin and by more than the noise
  of the few deals (a paired comparison on the same deals), else the
  intermediate's bid.
- coinche without the compiled kernel: the intermediate's bids (the
  pure-Python solver would take seconds a bid).
- classic games: the intermediate's take values
  (:meth:`~.heuristic.HeuristicBot.classic_bid_values`) with thresholds by
  round and position (:data:`CLASSIC_TAKE_OFFSETS`) and, in round one, a
  pass to name a suit worth :data:`CLASSIC_SWITCH_MARGIN` points more in
  round two.  They were chosen by simulation: 529,671 bidding decisions of
  the intermediate's self-play on ``ffb`` where every candidate bid was
  played out on the true deal by the intermediate
  (``benchmarks/classic_bid_fit.py``); on fresh boards they beat the
  intermediate's bids by +0.47 [+0.07, +0.86] a board over 40,000 boards
  (``benchmarks/EXPERT.md``).  The four-player games only: with three
  players the expert makes the intermediate's bids.  A double-dummy
  evaluation on packs that agree with the seat's view
  (:func:`.ddbid.dd_classic_scores`) is kept behind ``solve_classic_bids``:
  it measured +4.0 [+0.2, +7.8] a board in ``ffb`` on the boards its
  settings were chosen on (seed 1) but -6.2 [-10.6, -1.8] on fresh ones
  (seed 2, 541 boards).

:meth:`ExpertBot.decide` returns the choice with the values it was made on
(``rebelote hint``).

Budget (:class:`~.base.Budget`): ``worlds`` fixes the number of worlds of a
card decision at the end of the deal (fewer earlier, see
:func:`plan_worlds`) and of bidding deals per candidate (default 6
solved deals in coinche, 10 for ``solve_classic_bids``); ``nodes``
caps the solver's nodes per world (a world over the cap is dropped; by
default a cap applies early in the deal, :func:`default_node_cap`);
``time_ms`` is only a safety net: once spent, no more worlds are started.
With the same budget and seed the choice is the same (unless the safety net
triggers).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..actions import CAPOT_VALUE, Action, Bid, ChoosePattern, Cut, Declare, Play
from ..cards import DECK_24, DECK_32, Card, CardMask, Rank, bit, card_name, cards_of
from ..declarations import best_declaration
from ..observation import PlayerView
from ..seats import SEATS_3, SEATS_4, Seat, next_seat
from ..solver import Position, SearchLimitError, kernel_selected, solve_moves, warm_up
from ..trump import Strain, strain_tables
from .base import Budget
from .ddbid import (
    CLASSIC_MARGIN,
    CLASSIC_T,
    CLASSIC_WORLDS,
    DD_NODE_CAP,
    DEFAULT_DD_WORLDS,
    classic_near,
    dd_bid_scores,
    dd_choose,
    dd_classic_scores,
)
from .ddbid import MARGIN as DD_MARGIN
from .ddbid import T_MIN as DD_T
from .evaluation import INTERMEDIATE, TakeOffsets
from .heuristic import HeuristicBot
from .sampling import (
    NoWorldError,
    World,
    bid_likelihood,
    deal_hidden,
    played_by,
    sample_worlds,
)

__all__ = ["Decision", "ExpertBot", "default_node_cap", "plan_worlds"]

DEFAULT_WORLDS = 20
"""Worlds of a card decision from the fourth trick on."""

SAFETY_MS = 3000.0
"""Default time cap of one decision (a safety net, not a budget)."""


def plan_worlds(worlds: int, tricks_left: int, compiled: bool) -> int:
    """How many worlds to solve with ``tricks_left`` tricks to play (the
    current one included), for a budget of ``worlds``; 0: use the
    intermediate's card.  With the compiled kernel: all from the second
    trick and half at the first (a first-trick world costs about 25 ms,
    a second-trick one 5 ms, see ``benchmarks/EXPERT.md``); pure Python:
    all over the last four tricks, a third with five and none earlier."""
    if compiled:
        if tricks_left <= 7:
            return worlds
        return max(1, worlds // 2)
    if tricks_left <= 4:
        return worlds
    if tricks_left == 5:
        return max(1, worlds // 3)
    return 0


def default_node_cap(tricks_left: int, compiled: bool) -> int | None:
    """The solver's node cap per world when the budget gives none: early in
    the deal a few worlds cost far more than the others; a world over the
    cap is dropped rather than let one decision take seconds."""
    if compiled:
        return {8: 1_500_000, 7: 1_000_000}.get(tricks_left)
    return 150_000 if tricks_left >= 5 else None


CLASSIC_TAKE_OFFSETS: TakeOffsets = ((0.0, 0.0, 0.0, -20.0), (0.0, 0.0, -15.0, -5.0))
"""Classic four-player games: points added to the intermediate's taking
threshold (0 points of :func:`~.evaluation.take_value`), by round and by the
number of seats that passed before in the round (see the module)."""

CLASSIC_SWITCH_MARGIN = 40.0
"""Classic four-player games: a first-round take is passed when another
suit's :func:`~.evaluation.take_value` is this many points higher (see the
module)."""

EXPERT_CLASSIC = replace(
    INTERMEDIATE, take_offsets=CLASSIC_TAKE_OFFSETS, switch_margin=CLASSIC_SWITCH_MARGIN
)
"""The expert's style for the classic auction."""


def _side(players: int, seat: Seat) -> int:
    return int(seat) & 1 if players == 4 else int(seat) - 1


@dataclass(frozen=True, slots=True)
class Decision:
    """An expert decision with what it was made on.

    - ``action``: the action chosen.
    - ``values``: by action text (a card's name, a bid's text), the value
      the choice was made on, in points (the seat's side's score minus the
      other side's; three players: minus the best other seat's); actions
      not valued are left out.
    - ``worlds``: the worlds (cards) or deals (coinche bids) behind the
      values; 0 when none were sampled.
    - ``basis``: ``"worlds"`` (card values: sampled worlds solved double
      dummy), ``"take values"`` (classic bids:
      :meth:`~.heuristic.HeuristicBot.classic_bid_values`), ``"deals"``
      (coinche bids: sampled deals solved double dummy), ``"intermediate"``
      (nothing valued: the intermediate's choice) or ``"only"`` (a single
      legal action).
    - ``rule``: how the values turn into the choice when it is not simply
      the best value (coinche bids: the margin over the intermediate's bid);
      else ``None``.
    """

    action: Action
    values: dict[str, float] = field(default_factory=dict)
    worlds: int = 0
    basis: str = "intermediate"
    rule: str | None = None


class ExpertBot:
    """The ``expert`` level (see the module).  Stateless."""

    __slots__ = (
        "_classic",
        "_heuristic",
        "card_play",
        "compiled",
        "simulate_bids",
        "solve_classic_bids",
    )

    def __init__(
        self,
        *,
        compiled: bool | None = None,
        card_play: bool = True,
        simulate_bids: bool | None = None,
        solve_classic_bids: bool | None = None,
    ) -> None:
        """``compiled``: use the numba kernel's plan of worlds (default:
        when the kernel is available).  ``card_play=False``: play the cards
        as the intermediate (the ``expert-bidder`` level).
        ``simulate_bids`` (default on): the expert's bids (coinche: by
        double-dummy evaluation, :mod:`.ddbid`, with the compiled kernel
        only, since the pure-Python solver takes seconds a bid; classic:
        the thresholds by position); off: the intermediate's bids.
        ``solve_classic_bids`` (default off, see the module): on, the
        classic four-player games bid by double-dummy evaluation too."""
        self._heuristic = HeuristicBot.intermediate()
        self._classic = HeuristicBot(level="expert", style=EXPERT_CLASSIC)
        self.compiled = kernel_selected() if compiled is None else compiled
        self.card_play = card_play
        self.simulate_bids = True if simulate_bids is None else simulate_bids
        self.solve_classic_bids = bool(solve_classic_bids)

    @property
    def level(self) -> str:
        """``expert`` (``expert-bidder`` without its card play)."""
        return "expert" if self.card_play else "expert-bidder"

    def act(
        self, view: PlayerView, legal: Sequence[Action], *, seed: int, budget: Budget
    ) -> Action:
        """Choose one of ``legal``.  Raises ``ValueError`` when it is empty."""
        return self.decide(view, legal, seed=seed, budget=budget).action

    def decide(
        self, view: PlayerView, legal: Sequence[Action], *, seed: int, budget: Budget
    ) -> Decision:
        """The action to take with the values it was chosen on (see
        :class:`Decision`).  Raises ``ValueError`` when ``legal`` is empty."""
        if not legal:
            raise ValueError(f"no legal action for seat {view.seat.letter}")
        first = legal[0]
        if len(legal) == 1:
            return Decision(first, {}, 0, "only")
        if isinstance(first, Play):
            return self._card_decision(view, legal, seed=seed, budget=budget)
        if isinstance(first, Bid):
            return self._bid_decision(view, legal, seed=seed, budget=budget)
        if isinstance(first, Declare):
            return Decision(first, {}, 0, "intermediate")
        if isinstance(first, Cut):
            return Decision(legal[random.Random(seed).randrange(len(legal))], {}, 0, "intermediate")
        assert isinstance(first, ChoosePattern)
        return Decision(first, {}, 0, "intermediate")

    # ------------------------------------------------------------- card play

    def card_values(
        self,
        view: PlayerView,
        legal_cards: CardMask,
        *,
        seed: int,
        budget: Budget,
        count: int | None = None,
    ) -> tuple[dict[Card, float], int]:
        """The mean score for the seat's side of each legal card over the
        sampled worlds, and the number of worlds solved (0: none, the plan
        gives no world here).  Values are the deal's score for the seat's
        side minus the other side's (see :class:`_Utility`).  ``count``
        overrides the plan of worlds."""
        worlds_budget = budget.worlds if budget.worlds is not None else DEFAULT_WORLDS
        tricks_left = view.hand.bit_count()
        if count is None:
            count = plan_worlds(worlds_budget, tricks_left, self.compiled)
        if count == 0:
            return {}, 0
        try:
            worlds = sample_worlds(view, count, seed)
        except NoWorldError:
            return {}, 0
        warm_up()
        deadline = time.perf_counter() + (budget.time_ms or SAFETY_MS) / 1000.0
        contract = view.contract
        assert contract is not None
        players = view.rules.players
        nsides = 3 if players == 3 else 2
        side_tricks = [0] * nsides
        side_points = [0] * nsides
        for t in view.tricks:
            s = _side(players, t.winner)
            side_tricks[s] += 1
            side_points[s] += t.points
        totals: dict[Card, float] = {c: 0.0 for c in cards_of(legal_cards)}
        solved = 0
        cache: dict[tuple[CardMask, ...], dict[Card, int]] = {}
        for world in worlds:
            if time.perf_counter() > deadline and solved:
                break
            key = world.hands
            values = cache.get(key)
            if values is None:
                pos = Position.from_hands(
                    view.rules,
                    contract.strain,
                    world.hands,
                    trick=view.trick,
                    turn=view.seat,
                    side_tricks=side_tricks,
                    side_points=side_points,
                )
                cap = budget.nodes
                if cap is None:
                    cap = default_node_cap(tricks_left, self.compiled)
                try:
                    values = solve_moves(pos, max_nodes=cap).values
                except SearchLimitError:
                    continue
                cache[key] = values
            util = _Utility(view, world, side_points, pos_points(view))
            for c in totals:
                totals[c] += util(values[c])
            solved += 1
        if not solved:
            return {}, 0
        return {c: v / solved for c, v in totals.items()}, solved

    def choose_card(
        self, view: PlayerView, legal: Sequence[Action], *, seed: int, budget: Budget
    ) -> Card:
        """The card to play (see the module)."""
        action = self._card_decision(view, legal, seed=seed, budget=budget).action
        assert isinstance(action, Play)
        return action.card

    def _card_decision(
        self, view: PlayerView, legal: Sequence[Action], *, seed: int, budget: Budget
    ) -> Decision:
        mask = 0
        for a in legal:
            if isinstance(a, Play):
                mask |= bit(a.card)
        fallback = self._heuristic.choose_card(view, legal)
        card = fallback
        values: dict[Card, float] = {}
        solved = 0
        if mask.bit_count() > 1 and self.card_play:
            values, solved = self.card_values(view, mask, seed=seed, budget=budget)
        if solved:
            best = max(values.values())
            if values[fallback] < best - 1e-9:
                card = max(values, key=lambda c: (values[c], -c))
        plays = [a for a in legal if isinstance(a, Play) and a.card == card]
        action = next((a for a in plays if a.belote), plays[0])
        texts = {card_name(c): v for c, v in values.items()}
        return Decision(action, texts, solved, "worlds" if solved else "intermediate")

    # --------------------------------------------------------------- bidding

    def choose_bid(
        self, view: PlayerView, legal: Sequence[Action], *, seed: int, budget: Budget
    ) -> Action:
        """The bid to make (see the module)."""
        return self._bid_decision(view, legal, seed=seed, budget=budget).action

    def bid_values(
        self, view: PlayerView, legal: Sequence[Action], *, seed: int, budget: Budget
    ) -> dict[str, float]:
        """The values the bid is chosen on, by bid text (see
        :meth:`decide`); bids that are not valued are left out."""
        return self._bid_decision(view, legal, seed=seed, budget=budget).values

    def _bid_decision(
        self, view: PlayerView, legal: Sequence[Action], *, seed: int, budget: Budget
    ) -> Decision:
        bids = [a for a in legal if isinstance(a, Bid)]
        rules = view.rules
        solve_classic = self.solve_classic_bids and rules.players == 4
        if self.simulate_bids and rules.bidding != "coinche" and not solve_classic:
            values = self._classic.classic_bid_values(view, bids)
            return Decision(self._classic.pick_classic_bid(bids, values), values, 0, "take values")
        default = self._heuristic.choose_bid(view, legal)
        if not self.simulate_bids:
            return Decision(default, {}, 0, "intermediate")
        if rules.bidding == "coinche" and not (_solves_bids(view) and self.compiled):
            return Decision(default, {}, 0, "intermediate")
        scores = self._bid_scores(view, legal, seed=seed, budget=budget)
        values = {text: sum(v) / len(v) for text, v in scores.items() if v}
        deals = max((len(v) for v in scores.values()), default=0)
        margin, t = (DD_MARGIN, DD_T) if _solves_bids(view) else (CLASSIC_MARGIN, CLASSIC_T)
        text = dd_choose(scores, default, margin, t)
        choice: Action = default
        if text is not None:
            choice = next(a for a in legal if isinstance(a, Bid) and a.text == text)
        rule = None
        if values:
            rule = (
                f"the intermediate's bid {default.text} stands unless another bid's mean "
                f"beats it by {margin:g} points and {t:g} standard errors on the same deals"
            )
        return Decision(choice, values, deals, "deals" if values else "intermediate", rule)

    def _bid_scores(
        self, view: PlayerView, legal: Sequence[Action], *, seed: int, budget: Budget
    ) -> dict[str, list[float]]:
        """Each candidate bid's simulated scores, one per deal (the same
        deals for every candidate); in coinche, by double-dummy evaluation
        (:mod:`.ddbid`)."""
        bids = [a for a in legal if isinstance(a, Bid)]
        default = self._heuristic.choose_bid(view, legal)
        if _solves_bids(view):
            count = budget.worlds if budget.worlds is not None else DEFAULT_DD_WORLDS
            count = max(2, min(count, DEFAULT_DD_WORLDS * 4))
            return dd_bid_scores(
                view,
                bids,
                default,
                seed=seed,
                worlds=count,
                node_cap=budget.nodes if budget.nodes is not None else DD_NODE_CAP,
                time_ms=budget.time_ms or SAFETY_MS,
            )
        if not (self.solve_classic_bids and view.rules.players == 4):
            return {}
        if not classic_near(view, bids, default):
            return {}
        per_bid = CLASSIC_WORLDS
        count = budget.worlds if budget.worlds is not None else per_bid
        count = max(2, min(count, per_bid * 4))
        rng = random.Random(seed)
        try:
            deals = [_bidding_deal(view, rng) for _ in range(count * 3)]
        except NoWorldError:
            return {}
        # Keep deals in proportion to how well they explain the others' bids
        # (systematic resampling: the most likely alone would be a biased
        # sample, weaker opponents than the bids say).
        weights = [bid_likelihood(view, d[1]) for d in deals]
        step = sum(weights) / count
        u = rng.random() * step
        chosen: list[tuple[list[Card], list[CardMask]]] = []
        acc, i = 0.0, 0
        for j in range(count):
            target = u + j * step
            while i < len(deals) - 1 and acc + weights[i] < target:
                acc += weights[i]
                i += 1
            chosen.append(deals[i])
        return dd_classic_scores(
            view,
            bids,
            default,
            [pack for pack, _ in chosen],
            node_cap=budget.nodes if budget.nodes is not None else DD_NODE_CAP,
            time_ms=budget.time_ms or SAFETY_MS,
        )


def _solves_bids(view: PlayerView) -> bool:
    """Whether the bids are chosen by double-dummy evaluation
    (:mod:`.ddbid`: the four-player coinche auction) rather than by
    simulated deals."""
    return view.rules.bidding == "coinche" and view.rules.players == 4


def pos_points(view: PlayerView) -> int:
    """Card points still to win (hands and the trick) plus the dix de der."""
    contract = view.contract
    assert contract is not None
    t = strain_tables(contract.strain, view.rules.ta_points, view.rules.sa_points)
    deck = DECK_24 if view.rules.players == 3 else DECK_32
    gone = 0
    for trick in view.tricks:
        for c in trick.cards:
            gone |= 1 << c
    return sum(t.points[c] for c in cards_of(deck & ~gone)) + 10


class _Utility:
    """Turns a solver value (points difference over the rest of the deal,
    for the seat's side) into the deal's score difference for that side in
    one world: card points, belote held in the world, the declarations that
    count, the contract made or failed (classic: the takers must beat the
    defenders; coinche: reach the contract too; a coinched deal scores to
    one side where ``Rules.coinche_multiplies`` is ``deal``).  Multipliers,
    litige and capot variants are approximated: in the classic four-player
    games a defenders' capot scores ``capot_against_takers`` and a tie under
    ``tie="litige"`` gives the defenders their points and the takers their
    belote (the held-over points go to a later deal); elsewhere a tie counts
    as failed; rounding is left out.  Sans Atout and Tout Atout scores
    count the rule set's multipliers.  Three players:
    the solver searches the seat against the two others together, so their
    future points are split evenly between them."""

    __slots__ = (
        "bel",
        "capot_against",
        "capot_bid",
        "coinche",
        "contract",
        "deal_mult",
        "decl",
        "litige",
        "mine",
        "mult",
        "players",
        "rest",
        "strain_mult",
        "taker",
        "won",
    )

    def __init__(self, view: PlayerView, world: World, side_points: list[int], rest: int) -> None:
        contract = view.contract
        assert contract is not None
        players = view.rules.players
        self.players = players
        self.mine = _side(players, view.seat)
        self.taker = _side(players, contract.taker)
        self.coinche = view.rules.bidding == "coinche"
        self.contract = contract.value or 0
        self.mult = contract.multiplier
        rules = view.rules
        # Rules.coinche_multiplies "deal" (FFB coinche 2015, 10.1.1 and
        # 10.1.2): a coinched deal scores to one side.
        self.deal_mult = self.coinche and self.mult > 1 and rules.coinche_multiplies == "deal"
        self.capot_against = float(rules.capot_against_takers)
        self.litige = rules.tie == "litige"
        self.strain_mult = {Strain.SA: rules.sa_multiplier, Strain.TA: rules.ta_multiplier}.get(
            contract.strain, 1
        )
        self.capot_bid = contract.value == CAPOT_VALUE
        self.won = side_points
        self.rest = rest
        nsides = 3 if players == 3 else 2
        bel = [0] * nsides
        strain = contract.strain
        suits: tuple[int, ...] = (
            (int(strain),) if strain.is_suit else (0, 1, 2, 3) if strain == Strain.TA else ()
        )
        full = [h | p for h, p in zip(world.hands, played_by(view), strict=True)]
        for suit in suits:
            pair = bit(suit * 8 + Rank.KING) | bit(suit * 8 + Rank.QUEEN)
            for seat in range(4):
                if full[seat] & pair == pair:
                    bel[_side(players, Seat(seat))] += 20
        self.bel = bel
        decl = [0] * nsides
        if view.declarations:
            by_side = [(_side(players, s), d) for s, d in view.declarations]
            best = best_declaration(by_side, strain, view.rules.declaration_tie == "first")
            if best is not None:
                for side, ds in by_side:
                    if side == best:
                        decl[side] += sum(d.points for d in ds)
        self.decl = decl

    def __call__(self, value: int) -> float:
        mine = self.mine
        rest = self.rest
        # value = mine_future - others_future; mine_future + others_future = rest
        # (a capot adds its bonus to value only).
        future_mine = (rest + value) / 2
        pts = [float(p) for p in self.won]
        pts[mine] += future_mine
        if self.players == 4:
            pts[1 - mine] += rest - future_mine
        else:
            others = [s for s in range(3) if s != mine]
            for s in others:
                pts[s] += (rest - future_mine) / 2
        tk = self.taker
        classic4 = self.players == 4 and not self.coinche
        # The capot bonus rides on the value: the takers' side then shows
        # negative points when the defenders take every trick.
        defenders_capot = classic4 and pts[tk] < 0
        if defenders_capot:
            pts[tk] = 0.0
        total = [pts[s] + self.decl[s] + self.bel[s] for s in range(len(pts))]
        best_other = max(total[s] for s in range(len(total)) if s != tk)
        made = total[tk] > best_other
        if classic4 and self.litige and total[tk] == best_other:
            # Litige: the defenders score their points, the takers' are held
            # over to the next deal's winner (not counted here); belote stays.
            score = [0.0, 0.0]
            score[tk] = self.bel[tk]
            score[1 - tk] = total[1 - tk]
            k = self.strain_mult
            return k * (score[mine] - score[1 - mine])
        if self.coinche:
            if self.capot_bid:
                made = pts[tk] >= self.rest + sum(self.won) + 1
            else:
                made = made and total[tk] >= self.contract
        score = [0.0] * len(total)
        if made and self.deal_mult:
            base = 250.0 if pts[tk] > 162 else 160.0
            all_decl = sum(self.decl)
            score = [float(b) for b in self.bel]
            score[tk] = (base + all_decl + self.bel[tk] + self.contract) * self.mult
        elif made:
            score = list(total)
            if self.coinche:
                score[tk] = self.contract * self.mult + pts[tk] + self.decl[tk] + self.bel[tk]
        elif self.deal_mult:
            score[tk] = self.bel[tk]
            other = 1 - tk
            base = 160.0 + self.contract + sum(self.decl) + self.bel[other]
            score[other] = base * self.mult
        else:
            score[tk] = self.bel[tk]
            for s in range(len(total)):
                if s != tk:
                    base = (160.0 + self.contract * self.mult) if self.coinche else 162.0
                    if defenders_capot:
                        base = self.capot_against
                    if self.players == 3:
                        base = 81.0
                    score[s] = base + self.decl[s] + self.bel[s]
            if self.players == 4:
                score[1 - tk] += self.decl[tk]
        k = self.strain_mult
        if self.players == 4:
            return k * (score[mine] - score[1 - mine])
        return k * (score[mine] - max(score[s] for s in range(3) if s != mine))


# ------------------------------------------------------------------ bidding


def _bidding_deal(view: PlayerView, rng: random.Random) -> tuple[list[Card], list[CardMask]]:
    """A pack (top card first, as :meth:`State.from_deck` deals it with the
    rules' first pattern) that gives the seat its hand and the turned card,
    with the other cards drawn at random (voids: none are known yet); and
    each seat's cards at the time of the bids."""
    rules = view.rules
    players = rules.players
    seats = SEATS_3 if players == 3 else SEATS_4
    deck = DECK_24 if players == 3 else DECK_32
    pattern = rules.patterns[0]
    counts = [int(x) for x in pattern.split("-")]
    if len(counts) == 2 and not rules.turned_card:
        counts.append(3)  # 3-2-3, 2-3-3; "3-3-2" deals every card already
    size = sum(counts)
    known = [0, 0, 0, 0]
    possible = [0, 0, 0, 0]
    sizes = [0, 0, 0, 0]
    pool = deck & ~view.hand
    if view.turned is not None:
        pool &= ~bit(view.turned)
    for s in seats:
        if s != view.seat:
            sizes[s] = size
            possible[s] = pool
    # The cards still to come (classic games) go to the seat's own slot
    # first: every card of the pool must be dealt.
    sizes[view.seat] = pool.bit_count() - sum(sizes)
    possible[view.seat] = pool
    hands = deal_hidden(pool, known, possible, sizes, rng)
    hands[view.seat] = view.hand
    order: list[Seat] = []
    seat = next_seat(view.dealer, players)
    for _ in seats:
        order.append(seat)
        seat = next_seat(seat, players)
    lists = {s: list(cards_of(hands[s])) for s in seats}
    for s in seats:
        rng.shuffle(lists[s])
    pack: list[Card] = []
    for count in counts:
        for s in order:
            pack.extend(lists[s][:count])
            lists[s] = lists[s][count:]
    if view.turned is not None:
        pack.append(view.turned)
    used = 0
    for c in pack:
        used |= 1 << c
    rest = list(cards_of(deck & ~used))
    rng.shuffle(rest)
    pack.extend(rest)
    return pack, hands
