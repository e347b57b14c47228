"""Bids by double-dummy evaluation of sampled deals (the expert's bidding).

For one bid of a coinche auction the seat samples deals that agree with its
hand and the bids so far (:func:`~.sampling.sample_worlds`, weighted by the
intermediate's own reading of the auction,
:func:`~.evaluation.coinche_bid_weight`), and solves each deal double dummy
(:mod:`rebelote.solver`, the root value only) in the strains that matter:
the strain it would bid, and the standing contract's strain.  A deal's
double-dummy points are optimistic for the takers (every hand is seen); they
are turned into the points the intermediate actually makes as taker by a fit
(:data:`CAL_BASE`, :data:`CAL_SLOPE`, :data:`CAL_SD`, see the comment above
them), with its spread.  Each candidate bid then gets the expected score
difference for the seat's side under the real scoring (contract reached and
beaten the defenders or failed, the multiplier of a coinche, belote held in
the deal) as if the bid ended the auction:

- a contract of the seat's side in the strain for every value from the
  lowest legal one to 160;
- pass: the standing contract played as it is (0 when there is none);
- coinche of the opponents' contract.

After the seat's candidate bid, the rest of the auction on each deal is the
intermediate's at every seat (the partner included), and the contract it
ends in is the one scored; a pass of the intermediate over the partner's
contract stands (a raise the partner would read as the intermediate's).

The bid with the best expectation is made when it beats the intermediate's
by more than :data:`MARGIN` points and :data:`T_MIN` standard errors
(paired on the deals), else the intermediate's.  Deals are only sampled and
solved when the hand is close to another bid than the intermediate's (a
clear pass costs nothing).  Deterministic for a seed.

Classic games (:func:`dd_classic_scores`, four players): the same on packs
drawn by the expert (the seat's five cards and the turned card, the others
weighted by their passes); each candidate (pass, take, a strain in the
second round) is followed by the intermediate's auction, the deal is
completed as the pack says (the taker gets the turned card), solved double
dummy, calibrated (:data:`CL_BASE`...) and scored with the declarations
held, belote, litige and the Sans Atout / Tout Atout multipliers.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from ..actions import CAPOT_VALUE, Action, Bid
from ..auction import Contract
from ..cards import Card, CardMask, Rank, bit, cards_of
from ..declarations import best_declaration
from ..observation import PlayerView, observe
from ..seats import SEATS_4, next_seat
from ..solver import Position, SearchLimitError, solve_value, warm_up
from ..state import Phase, State
from ..trump import Strain
from .evaluation import (
    CO_SIDE,
    COINCHE_BASE,
    COINCHE_SLOPE,
    INTERMEDIATE,
    defence_points,
    hand_points,
    read_auction,
    side_estimate,
    side_estimate_shown,
    take_value,
)
from .heuristic import HeuristicBot
from .sampling import NoWorldError, sample_worlds

__all__ = [
    "CLASSIC_MARGIN",
    "CLASSIC_T",
    "CLASSIC_WORLDS",
    "DD_NODE_CAP",
    "DEFAULT_DD_WORLDS",
    "MARGIN",
    "T_MIN",
    "classic_near",
    "dd_bid_scores",
    "dd_bid_values",
    "dd_choose",
    "dd_classic_scores",
]

DEFAULT_DD_WORLDS = 6
"""Deals sampled and solved per strain for one bid."""

DD_NODE_CAP = 250_000
"""Solver nodes per deal; a deal over the cap is left out."""

MARGIN = 10.0
"""Points of expected score a bid must gain over the intermediate's."""

T_MIN = 2.0
"""And the gain must exceed this many standard errors (paired on the deals)."""

VALUES = 4
"""Contract values tried per strain from the lowest legal one (and the two
above the intermediate's)."""

NEAR = 10.0
"""A strain is evaluated when the side's estimate (without the
intermediate's margin) reaches within this many points of the lowest
contract."""

# Calibration: the intermediate's actual card points as taker against the
# double-dummy points of the same deal.  Fitted on 1,368 coinche deals of the
# intermediate's self-play (``board_setup(coinche, seed 7, boards 0..1499)``,
# the contracts it reached; the deals all passed are left out): the solver
# gave the takers 138.5 points on average, they made 122.6.  Without a
# double-dummy capot the takers make ``25.2 + 0.741 * dd`` (residual sd
# 16.8; by band of dd: 60-80 +3.5 over dd, 100-120 -4.0, 140-160 -10.2).
# Of 217 double-dummy capots, 33% were made; the others made 137 points
# (sd 15.6).
CAL_BASE, CAL_SLOPE, CAL_SD = 25.2, 0.741, 16.8
CAPOT_KEPT, CAPOT_MISSED_POINTS = 0.33, 137.0

_GH = ((0.0, 0.5333), (1.3556, 0.2221), (-1.3556, 0.2221), (2.8570, 0.01126), (-2.8570, 0.01126))
"""Gauss-Hermite nodes and weights (standard normal, 5 points)."""


def _belote(hands: Sequence[CardMask], strain: Strain) -> tuple[int, int]:
    """Belote points by side (NS, EW) held in ``hands`` with ``strain`` trump."""
    out = [0, 0]
    if not strain.is_suit:
        return 0, 0
    suit = int(strain)
    pair = bit(suit * 8 + Rank.KING) | bit(suit * 8 + Rank.QUEEN)
    for s in range(4):
        if hands[s] & pair == pair:
            out[s & 1] += 20
    return out[0], out[1]


def _outcomes(dd_points: int) -> list[tuple[float, float]]:
    """The taker side's actual card points (dix de der included; 250 for a
    capot) as a few weighted outcomes, from its double-dummy points."""
    if dd_points > 162:
        out = [(250.0, CAPOT_KEPT)]
        mean, kept = CAPOT_MISSED_POINTS, 1.0 - CAPOT_KEPT
    else:
        out = []
        mean, kept = CAL_BASE + CAL_SLOPE * dd_points, 1.0
    for z, w in _GH:
        p = min(162.0, max(0.0, mean + CAL_SD * z))
        out.append((p, w * kept))
    return out


def _normal(mean: float, sd: float) -> list[tuple[float, float]]:
    return [(min(162.0, max(0.0, mean + sd * z)), w) for z, w in _GH]


def _contract_diff(
    outcomes: list[tuple[float, float]], bel_t: int, bel_d: int, value: int, mult: int
) -> float:
    """The takers' expected score minus the defenders' (coinche scoring) for
    a contract of ``value`` at ``mult``."""
    total = 0.0
    for p, w in outcomes:
        theirs = 0.0 if p >= 250 else 162.0 - p
        made = p + bel_t >= value and p + bel_t > theirs + bel_d
        if value == CAPOT_VALUE:
            made = p >= 250
        if made:
            diff = value * mult + p + bel_t - theirs - bel_d
        else:
            diff = bel_t - (160.0 + value * mult + bel_d)
        total += w * diff
    return total


class _Deals:
    """Sampled deals and their double-dummy points, solved on demand."""

    def __init__(self, view: PlayerView, worlds: int, seed: int, node_cap: int | None) -> None:
        self.view = view
        self.worlds = sample_worlds(view, worlds, seed)
        self.node_cap = node_cap
        rules = view.rules
        self.leader = view.dealer if rules.first_lead == "dealer" else next_seat(view.dealer, 4)
        self._solved: dict[tuple[tuple[CardMask, ...], Strain, int], Outcomes] = {}

    def outcomes(self, hands: tuple[CardMask, ...], strain: Strain, side: int) -> Outcomes:
        """The outcomes of ``side`` taking in ``strain`` in the deal
        ``hands``, with the belote of the takers and of the defenders (past
        the solver's node cap: from the intermediate's estimate)."""
        key = (hands, strain, side)
        if key in self._solved:
            return self._solved[key]
        warm_up()
        pos = Position.from_hands(self.view.rules, strain, hands, turn=self.leader)
        bel = _belote(hands, strain)
        try:
            v = solve_value(pos, side, max_nodes=self.node_cap)
        except SearchLimitError:
            # Too costly: the intermediate's own estimate of the side's
            # points from both hands (the fit of ``hand_points``, sd 21).
            a, b = (s for s in SEATS_4 if int(s) & 1 == side)
            est = hand_points(hands[a], strain) + hand_points(hands[b], strain) + CO_SIDE
            est -= bel[side]
            got: Outcomes = (_normal(est, 21.0), bel[side], bel[1 - side])
        else:
            points = 250 if v > 162 else 0 if v < -162 else (162 + v) // 2
            got = (_outcomes(points), bel[side], bel[1 - side])
        self._solved[key] = got
        return got


Outcomes = tuple[list[tuple[float, float]], int, int]


def _auction_end(view: PlayerView, hands: Sequence[CardMask], bid: Bid) -> Contract | None:
    """The contract the auction ends in when the seat makes ``bid`` now and
    every later bid is the intermediate's (``None``: all passed)."""
    rules = view.rules
    state = State.from_hands(rules, view.dealer, {s: list(cards_of(hands[s])) for s in SEATS_4})
    return _finish_auction(state, view, bid).contract


def _finish_auction(state: State, view: PlayerView, bid: Bid) -> State:
    """``state`` (a fresh deal) after the bids of ``view``, the seat's
    ``bid`` and the intermediate's bids at every seat until the auction
    ends; returns ``state``."""
    for s, b in view.bids:
        state.apply(b, s)
    state.apply(bid, view.seat)
    while state.phase is Phase.BIDDING:
        seat = state.current
        assert seat is not None
        legal = state.legal_actions()
        action = legal[0] if len(legal) == 1 else _BOT.choose_bid(observe(state, seat), legal)
        state.apply(action, seat)
    return state


_BOT = HeuristicBot.intermediate()


def dd_bid_values(
    view: PlayerView,
    bids: Sequence[Bid],
    default: Action,
    *,
    seed: int,
    worlds: int = DEFAULT_DD_WORLDS,
    node_cap: int | None = DD_NODE_CAP,
) -> dict[str, float]:
    """The expected score difference for the seat's side of each candidate
    bid (by text, see the module); empty when nothing needs solving (the
    intermediate's bid stands) or no deal could be sampled."""
    scores = dd_bid_scores(view, bids, default, seed=seed, worlds=worlds, node_cap=node_cap)
    return {t: sum(v) / len(v) for t, v in scores.items()}


def dd_bid_scores(
    view: PlayerView,
    bids: Sequence[Bid],
    default: Action,
    *,
    seed: int,
    worlds: int = DEFAULT_DD_WORLDS,
    node_cap: int | None = DD_NODE_CAP,
    time_ms: float | None = None,
) -> dict[str, list[float]]:
    """:func:`dd_bid_values` deal by deal: each candidate's expected score
    in each sampled deal (the same deals for every candidate)."""
    if view.rules.bidding != "coinche" or view.rules.players != 4 or not bids:
        return {}
    if not isinstance(default, Bid):
        return {}
    read = read_auction(view, INTERMEDIATE)
    if read.multiplier > 1:
        return {}
    seat = view.seat
    mine = int(seat) & 1
    partner = seat.partner
    by_text = {b.text: b for b in bids}
    high, high_seat = read.high, read.high_seat
    if high is not None and high.value == CAPOT_VALUE:
        return {}
    if default.kind == "contract" and default.value == CAPOT_VALUE:
        return {}
    low = high.value if high is not None and high.value is not None else 0
    lowest = max(80, low + 10)
    shown = read.shown.get(partner)

    cands: list[Bid] = [bids[0]]
    if default.text != bids[0].text:
        cands.append(default)
    strains: list[Strain] = []
    if default.kind == "contract" and default.strain is not None:
        strains.append(default.strain)
    # Over the partner's contract, a pass of the intermediate stands (its
    # raises are read by the partner as the intermediate reads them).
    partners = high_seat is not None and high_seat == partner
    if lowest <= 160 and not (partners and default.kind == "pass"):
        best = max((Strain(s) for s in range(4)), key=lambda s: side_estimate(view.hand, s, shown))
        if best not in strains and side_estimate(view.hand, best, shown) + NEAR >= lowest:
            strains.append(best)
    for strain in strains:
        for value in range(lowest, min(lowest + 10 * VALUES, 161), 10):
            b = by_text.get(Bid("contract", strain, value).text)
            if b is not None and b not in cands:
                cands.append(b)
        if default.kind == "contract" and default.strain == strain and default.value is not None:
            for value in (default.value + 10, default.value + 20):
                b = by_text.get(Bid("contract", strain, value).text)
                if b is not None and b not in cands:
                    cands.append(b)
    if "coinche" in by_text and high is not None and high_seat is not None:
        assert high.strain is not None and high.value is not None
        own = side_estimate_shown(read, high_seat, high.strain)
        expected = COINCHE_SLOPE * own + COINCHE_BASE - defence_points(view.hand, high.strain)
        if expected <= high.value + 25 and by_text["coinche"] not in cands:
            cands.append(by_text["coinche"])
    if len(cands) < 2:
        return {}
    try:
        deals = _Deals(view, worlds, seed, node_cap)
    except NoWorldError:
        return {}

    totals: dict[str, list[float]] = {b.text: [] for b in cands}
    warm_up()  # the kernel's compilation is not the decision's time
    deadline = None if time_ms is None else time.perf_counter() + time_ms / 1000.0
    for i, world in enumerate(deals.worlds):
        if deadline is not None and i >= 2 and time.perf_counter() > deadline:
            break
        scores: list[float] = []
        for b in cands:
            contract = _auction_end(view, world.hands, b)
            if contract is None:
                scores.append(0.0)
                continue
            tk = int(contract.taker) & 1
            got = deals.outcomes(world.hands, contract.strain, tk)
            assert contract.value is not None
            diff = _contract_diff(got[0], got[1], got[2], contract.value, contract.multiplier)
            scores.append(diff if tk == mine else -diff)
        for b, sc in zip(cands, scores, strict=True):
            totals[b.text].append(sc)
    return totals


def dd_choose(
    scores: dict[str, list[float]],
    default: Action,
    margin: float = MARGIN,
    t_min: float = T_MIN,
) -> str | None:
    """The text of the bid to make instead of ``default`` (the candidate
    with the best mean gain over it, when the gain exceeds ``margin`` and
    ``t_min`` standard errors, paired on the deals), or ``None``."""
    if not isinstance(default, Bid) or default.text not in scores:
        return None
    base = scores[default.text]
    n = len(base)
    if n < 2:
        return None
    best, best_gain = None, 0.0
    for text, values in scores.items():
        diffs = [a - b for a, b in zip(values, base, strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean > max(margin, t_min * (var / n) ** 0.5) and mean > best_gain:
            best, best_gain = text, mean
    return best


# ------------------------------------------------------------ classic games

CLASSIC_WORLDS = 10
"""Classic games: packs solved per candidate bid."""

CLASSIC_MARGIN, CLASSIC_T = 3.0, 0.5
"""Classic games: the margin and standard errors a bid must gain over the
intermediate's.  Chosen in ``ffb`` (expert-bidder vs intermediate, 1000
boards, seed 1): 6 packs, 10 points, 2 standard errors: -0.5 [-2.3, +1.4];
10 packs, 5 points, 1.5: +1.5 [-0.7, +3.8]; 10, 5, 1.0: +2.5 [-0.7, +5.7];
10, 3, 0.5: +4.0 [+0.2, +7.8] (four settings tried on the same boards: the
last one's interval is optimistic)."""

CLASSIC_NEAR = 40.0
"""Classic games: the deals are solved only when some take's
:func:`~.evaluation.take_value` lies within this many points of the
intermediate's threshold (0)."""

# Calibration of the classic games, as for coinche: fitted on 582 ``ffb``
# deals of the intermediate's self-play (``board_setup(ffb, seed 7, boards
# 0..699)``, the contracts it took, all in a suit; deals all passed left
# out).  The solver gave the takers 127.8 card points on average, they made
# 112.8.  Without a double-dummy capot they make ``28.6 + 0.697 * dd``
# (residual sd 18.3); of 76 double-dummy capots 26% were made, the others
# made 133 points.
CL_BASE, CL_SLOPE, CL_SD = 28.6, 0.697, 18.3
CL_CAPOT_KEPT, CL_CAPOT_MISSED_POINTS = 0.26, 133.0


def _classic_outcomes(dd_points: int) -> list[tuple[float, float]]:
    if dd_points > 162:
        out = [(252.0, CL_CAPOT_KEPT)]
        mean, kept = CL_CAPOT_MISSED_POINTS, 1.0 - CL_CAPOT_KEPT
    else:
        out = []
        mean, kept = CL_BASE + CL_SLOPE * dd_points, 1.0
    for z, w in _GH:
        out.append((min(162.0, max(0.0, mean + CL_SD * z)), w * kept))
    return out


def _classic_diff(
    outcomes: list[tuple[float, float]], decl: tuple[int, int], bel: tuple[int, int], mult: int
) -> float:
    """The takers' expected score minus the defenders' in a classic game
    (made: both score their points; tie: a litige, the takers' points held
    over and ignored; failed: the defenders score 162 and all the
    declarations), from the takers' card points; ``decl`` and ``bel`` by
    (takers, defenders)."""
    total = 0.0
    for p, w in outcomes:
        theirs = 0.0 if p >= 252 else 162.0 - p
        mine_total = p + decl[0] + bel[0]
        theirs_total = theirs + decl[1] + bel[1]
        if mine_total > theirs_total:
            diff = mine_total - theirs_total
        elif mine_total == theirs_total:
            diff = bel[0] - theirs_total
        else:
            diff = bel[0] - (162.0 + decl[1] + bel[1] + decl[0])
        total += w * diff * mult
    return total


def _classic_end(view: PlayerView, pack: list[Card], bid: Bid) -> State:
    """The deal ``pack`` after the seat makes ``bid`` now and every later bid
    is the intermediate's (the cards dealt after the auction included)."""
    rules = view.rules
    state = State.from_deck(rules, view.dealer, pack, rules.patterns[0])
    return _finish_auction(state, view, bid)


def _classic_score(state: State, mine: int, node_cap: int | None) -> float:
    """The expected score difference for side ``mine`` of a classic deal
    whose auction is over (0 when all passed)."""
    contract = state.contract
    if contract is None or state.phase is not Phase.PLAYING:
        return 0.0
    rules = state.rules
    tk = int(contract.taker) & 1
    strain = contract.strain
    found = [(int(s) & 1, d) for s, d in state.found.items()]
    decl = [0, 0]
    best = best_declaration(found, strain, rules.declaration_tie == "first") if found else None
    if best is not None:
        decl[best] = sum(sum(x.points for x in d) for side, d in found if side == best)
    bel = [0, 0]
    for seat in state.belote_owners().values():
        bel[int(seat) & 1] += 20
    mult = {Strain.SA: rules.sa_multiplier, Strain.TA: rules.ta_multiplier}.get(strain, 1)
    pos = Position.from_state(state)
    try:
        v = solve_value(pos, tk, max_nodes=node_cap)
    except SearchLimitError:
        hand = state.hands[contract.taker]
        est = take_value(hand, strain, multiplier=mult) / mult / 2 + 81.0
        outcomes = _normal(est, 30.0)
    else:
        points = 252 if v > 162 else 0 if v < -162 else (162 + v) // 2
        outcomes = _classic_outcomes(points)
    diff = _classic_diff(outcomes, (decl[tk], decl[1 - tk]), (bel[tk], bel[1 - tk]), mult)
    return diff if tk == mine else -diff


def dd_classic_scores(
    view: PlayerView,
    bids: Sequence[Bid],
    default: Action,
    deals: Sequence[list[Card]],
    *,
    node_cap: int | None = DD_NODE_CAP,
    time_ms: float | None = None,
) -> dict[str, list[float]]:
    """Classic games (four players): each candidate bid's expected score
    for the seat's side on each of ``deals`` (packs that agree with the
    seat's view, see :func:`~.expert._bidding_deal`): the auction played
    on by the intermediate, the deal completed, solved double dummy and
    scored.  Empty when no take is near the intermediate's threshold."""
    if not classic_near(view, bids, default):
        return {}
    warm_up()
    mine = int(view.seat) & 1
    out: dict[str, list[float]] = {b.text: [] for b in bids}
    deadline = None if time_ms is None else time.perf_counter() + time_ms / 1000.0
    for i, pack in enumerate(deals):
        if deadline is not None and i >= 2 and time.perf_counter() > deadline:
            break
        for b in bids:
            out[b.text].append(_classic_score(_classic_end(view, pack, b), mine, node_cap))
    return out


def classic_near(view: PlayerView, bids: Sequence[Bid], default: Action) -> bool:
    """Whether a classic bid is worth solving: four players, and some take's
    :func:`~.evaluation.take_value` within :data:`CLASSIC_NEAR` points of
    the intermediate's threshold."""
    rules = view.rules
    if rules.bidding == "coinche" or rules.players != 4 or len(bids) < 2:
        return False
    if not isinstance(default, Bid):
        return False
    hand = view.hand | (bit(view.turned) if view.turned is not None else 0)
    turned_suit = None if view.turned is None else Strain(view.turned >> 3)
    near = False
    for b in bids[1:]:
        strain = turned_suit if b.kind == "take" else b.strain
        if strain is None:
            continue
        mult = {Strain.SA: rules.sa_multiplier, Strain.TA: rules.ta_multiplier}.get(strain)
        if abs(take_value(hand, strain, multiplier=mult)) <= CLASSIC_NEAR:
            near = True
    return near
