"""The expert's analysis of a finished deal or match (``rebelote analyse``,
and the server's analysis of a finished game, issue 16).

Every hand is known once a deal is over, so each card is judged double
dummy: before each card, the position is solved exactly by the solver
(:func:`rebelote.solver.solve_moves`, every hand visible) and the card is
compared with best play:

- ``before``: the value of the position for the side of the seat to play,
  under best play by everyone; ``after``: its value once that card is
  played (the others then playing best);
- both are the deal's card points of that side minus the other side's (in
  the three-player game: minus the two others' together, the solver's
  "paranoid" search), dix de der and capot included, over the whole deal:
  the points already won in the tricks before plus the solver's value of
  the rest (:mod:`rebelote.solver.search`); belote and declarations, fixed
  once the cards are dealt, are left out;
- ``cost`` = ``before - after`` (0 for a best card): what the card cost its
  side against best play, in that difference of points (a card that hands
  10 card points to the other side costs 20);
- ``best``: the cards of best value there.

For the bidding, each bid is set beside the expert's own choice there,
from the bidder's view alone as it was then (its hand and the bids before:
:meth:`~rebelote.bots.expert.ExpertBot.decide`, seeded by ``seed`` and the
bid's place in the deal, so that an analysis is the same each time).

Everything is computed from the record: no I/O here (the server caches the
results, :mod:`rebelote.server.tables.analysis`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..actions import Bid, Play
from ..cards import card_name, cards_of
from ..observation import observe
from ..record import RecordError, record_format, replay, replay_deal
from ..seats import Seat
from ..solver import Position, solve_moves
from ..state import Phase, State
from .base import Budget
from .expert import ExpertBot
from .hint import HINT_TIME_MS

__all__ = [
    "ANALYSIS_VERSION",
    "analyse_deal",
    "analyse_match",
    "deal_records",
    "side_letters",
]

ANALYSIS_VERSION = 1
"""The version of the analysis's shape and method: a cached analysis of
another version is made again."""

Progress = Callable[[int, int], None]
"""Told ``(deals done, deals in all)`` after each deal of a match."""


def side_letters(state: State, seat: Seat) -> str:
    """The name of ``seat``'s side: ``NS`` / ``EW``, or the seat's letter
    with three players."""
    return state.side_name(state.side_of[seat])


def _points_so_far(state: State, side: int) -> int:
    """The card points ``side`` won in the finished tricks minus those of
    the other side(s) (the solver's point of view)."""
    won = [0] * (3 if state.players == 3 else 2)
    for trick in state.tricks:
        won[state.side_of[trick.winner]] += trick.points
    return won[side] - (sum(won) - won[side])


def _start(record: Mapping[str, Any]) -> State:
    """The state of ``record``'s deal before its first action."""
    data = dict(record)
    if record_format(record) == 2:
        data["actions"] = []
    else:
        data["bids"] = []
        data["play"] = []
    return replay_deal(data).state


def _names(cards: Iterable[int]) -> list[str]:
    """The names of ``cards``, in the order of the cards."""
    return [card_name(c) for c in cards_of(sum(1 << c for c in cards))]


def _card_line(state: State, seat: Seat, action: Play, index: int) -> dict[str, Any]:
    """The double-dummy judgement of ``seat`` playing ``action`` now."""
    values = solve_moves(Position.from_state(state)).values
    side = state.side_of[seat]
    so_far = _points_so_far(state, side)
    best = max(values.values())
    value = values[action.card]
    return {
        "index": index,
        "trick": state.trick_number,
        "seat": seat.letter,
        "side": side_letters(state, seat),
        "card": card_name(action.card),
        "action": action.text,
        "points": so_far,
        "before": so_far + best,
        "after": so_far + value,
        "cost": best - value,
        "best": _names(c for c, v in values.items() if v == best),
    }


def _bid_line(
    state: State, seat: Seat, action: Bid, index: int, seed: int, expert: ExpertBot
) -> dict[str, Any]:
    """The expert's bid where ``seat`` bid ``action``, from ``seat``'s view."""
    legal = state.legal_actions()
    decision = expert.decide(
        observe(state, seat), legal, seed=seed + index, budget=Budget(time_ms=HINT_TIME_MS)
    )
    return {
        "index": index,
        "seat": seat.letter,
        "bid": action.text,
        "expert": decision.action.text,
        "same": decision.action.text == action.text,
        "basis": decision.basis,
    }


def analyse_deal(record: Mapping[str, Any], *, seed: int = 0, bids: bool = True) -> dict[str, Any]:
    """The analysis of one deal record (format 1 or 2; an unfinished deal
    is analysed as far as it goes).  ``seed``: the expert's, for the bids;
    ``bids``: analyse the bidding too (the costly part in coinche).

    Returns ``{"version", "dealer", "contract", "result", "cards": [{"index"
    (the action's place in the deal, from 0), "trick", "seat", "side",
    "card", "action", "points" (the side's points minus the others' in the
    tricks before), "before", "after", "cost", "best"}...] (in play order),
    "mistakes": [indexes into "cards" of the cards that cost something,
    the costliest first, ties in play order], "cost": {side: the sum of
    its cards' costs}, "bids": [{"index", "seat", "bid", "expert", "same",
    "basis"}...] or ``None`` (not analysed: ``bids`` false, or a classic
    record given by ``hands``, whose cards dealt before the auction are
    not known)}`` (see the module for the values).  Raises
    :class:`~rebelote.record.RecordError` for a bad record."""
    replayed = replay_deal(record)
    state = _start(record)
    sides = [state.side_name(i) for i in range(3 if state.players == 3 else 2)]
    judge_bids = bids and not ("hands" in record and state.rules.turned_card)
    expert = ExpertBot()
    cards: list[dict[str, Any]] = []
    bid_lines: list[dict[str, Any]] = []
    for index, done in enumerate(replayed.actions):
        seat, action = done.seat, done.action
        if isinstance(action, Play) and state.phase is Phase.PLAYING:
            cards.append(_card_line(state, seat, action, index))
        elif judge_bids and isinstance(action, Bid) and state.phase is Phase.BIDDING:
            bid_lines.append(_bid_line(state, seat, action, index, seed, expert))
        state.apply(action, seat)
    final = replayed.state
    mistakes = sorted(
        (i for i, c in enumerate(cards) if c["cost"] > 0), key=lambda i: (-cards[i]["cost"], i)
    )
    cost = dict.fromkeys(sides, 0)
    for c in cards:
        cost[c["side"]] += c["cost"]
    return {
        "version": ANALYSIS_VERSION,
        "dealer": final.dealer.letter,
        "contract": None if final.contract is None else final.contract.text,
        "result": None if final.result is None else final.result.result,
        "cards": cards,
        "mistakes": mistakes,
        "cost": cost,
        "bids": bid_lines if judge_bids else None,
    }


def deal_records(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The deal records of a match record, each complete (the match's
    ``rules`` and ``format`` given to a deal that leaves them out); a deal
    record alone as a list of one.  The whole record is checked first
    (:func:`~rebelote.record.replay`).  Raises
    :class:`~rebelote.record.RecordError`."""
    if not isinstance(record, Mapping):
        raise RecordError("a record must be a JSON object")
    replay(record)
    if "deals" not in record:
        return [dict(record)]
    out = []
    for deal in record["deals"]:
        full = dict(deal)
        full.setdefault("rules", record["rules"])
        if "format" in record:
            full.setdefault("format", record["format"])
        out.append(full)
    return out


def analyse_match(
    record: Mapping[str, Any],
    *,
    seed: int = 0,
    bids: bool = True,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The analysis of a match record (or of a deal record, as a match of
    one deal): ``{"version", "deals": [analyse_deal of each deal]}``, the
    bids of deal ``i`` (from 0) seeded by ``seed + 1000 * i``.
    ``progress`` is told ``(done, total)`` after each deal.  Raises
    :class:`~rebelote.record.RecordError`."""
    deals = deal_records(record)
    out = []
    for i, deal in enumerate(deals):
        out.append(analyse_deal(deal, seed=seed + 1000 * i, bids=bids))
        if progress is not None:
            progress(i + 1, len(deals))
    return {"version": ANALYSIS_VERSION, "deals": out}
