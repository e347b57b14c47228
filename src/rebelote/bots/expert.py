"""The ``expert``: sampled worlds solved exactly, and bids by double-dummy evaluation.

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
- classic games: the intermediate's bids.  The same evaluation on packs
  that agree with the seat's view (:func:`.ddbid.dd_classic_scores`, with
  a smaller margin, :data:`.ddbid.CLASSIC_MARGIN`) is kept behind
  ``solve_classic_bids``: it measured +4.0 [+0.2, +7.8] a board in ``ffb``
  on the boards its settings were chosen on (seed 1) but -6.2
  [-10.6, -1.8] on fresh ones (seed 2, 541 boards), see
  ``benchmarks/EXPERT.md``.  In the classic games
  :meth:`ExpertBot.bid_values` (``rebelote hint``) values the bids by
  simulation: each candidate is tried on the same sampled deals,
  the rest of each deal, auction and card play, played out by the
  intermediate at all seats.

Budget (:class:`~.base.Budget`): ``worlds`` fixes the number of worlds of a
card decision at the end of the deal (fewer earlier, see
:func:`plan_worlds`) and of bidding deals per candidate (default 6
solved deals in coinche, 10 in the classic games, 8 simulated ones for
``hint`` with three players); ``nodes``
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
from dataclasses import replace

from ..actions import CAPOT_VALUE, Action, Bid, ChoosePattern, Cut, Declare, Play
from ..cards import DECK_24, DECK_32, Card, CardMask, Rank, bit, cards_of
from ..declarations import best_declaration
from ..observation import PlayerView, observe
from ..seats import SEATS_3, SEATS_4, Seat, next_seat
from ..solver import Position, SearchLimitError, kernel_available, solve_moves, warm_up
from ..state import State
from ..trump import Strain, strain_tables
from .base import Budget, decision_seed
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
from .heuristic import INTERMEDIATE, HeuristicBot, TakeOffsets
from .sampling import NoWorldError, World, bid_likelihood, deal_hidden, sample_worlds

__all__ = ["ExpertBot", "default_node_cap", "plan_worlds"]

DEFAULT_WORLDS = 20
"""Worlds of a card decision from the fourth trick on."""

DEFAULT_BID_WORLDS = 8
"""Simulated deals per candidate bid."""

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
threshold (0 points of :func:`~.heuristic.take_value`), by round and by the
number of seats that passed before in the round (see the module)."""

CLASSIC_SWITCH_MARGIN = 40.0
"""Classic four-player games: a first-round take is passed when another
suit's :func:`~.heuristic.take_value` is this many points higher (see the
module)."""

EXPERT_CLASSIC = replace(
    INTERMEDIATE, take_offsets=CLASSIC_TAKE_OFFSETS, switch_margin=CLASSIC_SWITCH_MARGIN
)
"""The expert's style for the classic auction."""


def _side(players: int, seat: Seat) -> int:
    return int(seat) & 1 if players == 4 else int(seat) - 1


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
        ``simulate_bids`` (default on): choose the bids by double-dummy
        evaluation (:mod:`.ddbid`); off: the intermediate's bids.
        ``solve_classic_bids`` (default off, see the module): on, the
        classic four-player games bid by double-dummy evaluation too."""
        self._heuristic = HeuristicBot.intermediate()
        self._classic = HeuristicBot(level="expert", style=EXPERT_CLASSIC)
        self.compiled = kernel_available() if compiled is None else compiled
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
        if not legal:
            raise ValueError(f"no legal action for seat {view.seat.letter}")
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        if isinstance(first, Play):
            card = self.choose_card(view, legal, seed=seed, budget=budget)
            for action in legal:
                if isinstance(action, Play) and action.card == card and action.belote:
                    return action
            return next(a for a in legal if isinstance(a, Play) and a.card == card)
        if isinstance(first, Bid):
            return self.choose_bid(view, legal, seed=seed, budget=budget)
        if isinstance(first, Declare):
            return first
        if isinstance(first, Cut):
            return legal[random.Random(seed).randrange(len(legal))]
        assert isinstance(first, ChoosePattern)
        return first

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
        mask = 0
        for a in legal:
            if isinstance(a, Play):
                mask |= bit(a.card)
        fallback = self._heuristic.choose_card(view, legal)
        if mask.bit_count() == 1 or not self.card_play:
            return fallback
        values, solved = self.card_values(view, mask, seed=seed, budget=budget)
        if not solved:
            return fallback
        best = max(values.values())
        if values[fallback] >= best - 1e-9:
            return fallback
        return max(values, key=lambda c: (values[c], -c))

    # --------------------------------------------------------------- bidding

    def choose_bid(
        self, view: PlayerView, legal: Sequence[Action], *, seed: int, budget: Budget
    ) -> Action:
        """The bid with the best mean score, when it beats the
        intermediate's bid clearly on the same deals (see the module).
        Classic games: the intermediate's bid, unless
        ``solve_classic_bids``."""
        default = self._heuristic.choose_bid(view, legal)
        if not self.simulate_bids:
            return default
        if not (_solves_bids(view) or (self.solve_classic_bids and view.rules.players == 4)):
            if view.rules.bidding != "coinche":
                return self._classic.choose_bid(view, legal)
            return default
        scores = self._bid_scores(view, legal, seed=seed, budget=budget)
        if _solves_bids(view):
            text = dd_choose(scores, default)
        else:
            text = dd_choose(scores, default, CLASSIC_MARGIN, CLASSIC_T)
        if text is None:
            return default
        return next(a for a in legal if isinstance(a, Bid) and a.text == text)

    def bid_values(
        self, view: PlayerView, legal: Sequence[Action], *, seed: int, budget: Budget
    ) -> dict[str, float]:
        """The simulated mean score (the seat's side minus the other side)
        of each candidate bid, by its text; empty when no deal could be
        sampled.  Bids that are not candidates are not valued."""
        scores = self._bid_scores(view, legal, seed=seed, budget=budget)
        return {text: sum(v) / len(v) for text, v in scores.items()}

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
        candidates = _candidates(view, bids, default)
        solve = self.solve_classic_bids and view.rules.players == 4
        if solve and not classic_near(view, bids, default):
            return {}
        per_bid = CLASSIC_WORLDS if solve else DEFAULT_BID_WORLDS
        count = budget.worlds if budget.worlds is not None else per_bid
        count = max(2, min(count, per_bid * 4))
        deadline = time.perf_counter() + (budget.time_ms or SAFETY_MS) / 1000.0
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
        deals = chosen
        if solve:
            return dd_classic_scores(
                view,
                bids,
                default,
                [pack for pack, _ in deals],
                node_cap=budget.nodes if budget.nodes is not None else DD_NODE_CAP,
                time_ms=budget.time_ms or SAFETY_MS,
            )
        scores: dict[str, list[float]] = {c.text: [] for c in candidates}
        for i, (pack, _) in enumerate(deals):
            if time.perf_counter() > deadline and i >= 2:
                break
            for cand in candidates:
                scores[cand.text].append(_simulate(view, pack, cand, decision_seed(seed, 7, i)))
        return scores


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
    defenders; coinche: reach the contract too).  Multipliers, litige and
    capot variants are approximated (a tie counts as failed)."""

    __slots__ = (
        "bel",
        "capot_bid",
        "coinche",
        "contract",
        "decl",
        "mine",
        "mult",
        "players",
        "rest",
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
        self.capot_bid = contract.value == CAPOT_VALUE
        self.won = side_points
        self.rest = rest
        nsides = 3 if players == 3 else 2
        bel = [0] * nsides
        strain = contract.strain
        suits: tuple[int, ...] = (
            (int(strain),) if strain.is_suit else (0, 1, 2, 3) if strain == Strain.TA else ()
        )
        full = list(world.hands)
        for t in view.tricks:
            for s, c in zip(t.seats, t.cards, strict=True):
                full[s] |= 1 << c
        for s, c in view.trick:
            full[s] |= 1 << c
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
        total = [pts[s] + self.decl[s] + self.bel[s] for s in range(len(pts))]
        tk = self.taker
        best_other = max(total[s] for s in range(len(total)) if s != tk)
        made = total[tk] > best_other
        if self.coinche:
            if self.capot_bid:
                made = pts[tk] >= self.rest + sum(self.won) + 1
            else:
                made = made and total[tk] >= self.contract
        score = [0.0] * len(total)
        if made:
            score = list(total)
            if self.coinche:
                score[tk] = self.contract * self.mult + pts[tk] + self.decl[tk] + self.bel[tk]
        else:
            score[tk] = self.bel[tk]
            for s in range(len(total)):
                if s != tk:
                    base = (160.0 + self.contract * self.mult) if self.coinche else 162.0
                    if self.players == 3:
                        base = 81.0
                    score[s] = base + self.decl[s] + self.bel[s]
            if self.players == 4:
                score[1 - tk] += self.decl[tk]
        if self.players == 4:
            return score[mine] - score[1 - mine]
        return score[mine] - max(score[s] for s in range(3) if s != mine)


# ------------------------------------------------------------------ bidding


def _candidates(view: PlayerView, bids: list[Bid], default: Action) -> list[Bid]:
    """The bids worth simulating: pass, the intermediate's, every take in
    classic games; in coinche contracts near the hand's estimate."""
    out: list[Bid] = []
    seen: set[str] = set()

    def add(b: Bid) -> None:
        if b.text not in seen:
            seen.add(b.text)
            out.append(b)

    add(bids[0])
    if isinstance(default, Bid):
        add(default)
    if view.rules.bidding != "coinche":
        for b in bids[1:]:
            add(b)
        return out
    from .heuristic import strain_tricks

    by_text = {b.text: b for b in bids}
    low = 0
    for _, b in view.bids:
        if b.kind == "contract" and b.value is not None:
            low = b.value
    estimates = sorted(
        ((20 * strain_tricks(view.hand, Strain(s)) + 25, Strain(s)) for s in range(4)),
        reverse=True,
    )
    for est, strain in estimates[:2]:
        base = int(est // 10) * 10
        for value in (base - 20, base - 10, base, base + 10):
            value = max(value, 80, low + 10)
            if value > 160:
                continue
            text = Bid("contract", strain, value).text
            if text in by_text:
                add(by_text[text])
    for text in ("coinche", "surcoinche"):
        if text in by_text:
            add(by_text[text])
    return out


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
    if not rules.turned_card:
        counts.append(3)
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


def _simulate(view: PlayerView, pack: list[Card], bid: Bid, seed: int) -> float:
    """The seat's side's score minus the other side's (the best other seat
    with three players) when it makes ``bid`` now and the intermediate plays
    everything else, on the deal ``pack``."""
    rules = view.rules
    state = State.from_deck(rules, view.dealer, pack, rules.patterns[0])
    for _, b in view.bids:
        state.apply(b)
    state.apply(bid, view.seat)
    bot = HeuristicBot.intermediate()
    index = 0
    budget = Budget()
    while not state.is_terminal:
        seat = state.current
        assert seat is not None
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            action = bot.act(
                observe(state, seat), legal, seed=decision_seed(seed, seat, index), budget=budget
            )
        state.apply(action, seat)
        index += 1
    result = state.result
    assert result is not None
    mine = _side(rules.players, view.seat)
    score = result.score
    if rules.players == 4:
        return float(score[mine] - score[1 - mine])
    return float(score[mine] - max(score[s] for s in range(3) if s != mine))
