"""What the expert sees in a position of a record (``rebelote hint``).

:func:`hint` replays the first ``after`` actions of a deal record (its bids,
then its cards, in order; the declarations a record gives are made where
they fall), looks from ``seat`` (whose turn it must be) and returns the
expert's value of each legal action: for a card, the mean over the sampled
worlds of the deal's score for the seat's side minus the other side's, each
world solved double-dummy; for a bid, the mean simulated score of the
candidates the expert tries (other bids get ``None``).  The basis of hints at
the table and of explaining the bots' moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..actions import Bid, Play
from ..cards import card_name
from ..observation import observe
from ..record import replay_deal
from ..seats import Seat
from ..state import Phase
from .base import Budget
from .expert import DEFAULT_WORLDS, ExpertBot

__all__ = ["HintError", "hint"]


class HintError(ValueError):
    """A position where no hint can be given: ``after`` out of range, or not
    the seat's turn.  ``payload`` is the JSON-ready error."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.payload: dict[str, Any] = {"error": "no hint", "message": message}


def _truncate(record: Mapping[str, Any], after: int) -> dict[str, Any]:
    data = dict(record)
    bids = list(data.get("bids", []) or [])
    play = list(data.get("play", []) or [])
    if after < 0 or after > len(bids) + len(play):
        raise HintError(
            f"--after {after} is out of range: the record has {len(bids)} bids "
            f"and {len(play)} cards"
        )
    data["bids"] = bids[:after]
    data["play"] = play[: max(0, after - len(bids))]
    return data


def hint(
    record: Mapping[str, Any],
    seat: Seat,
    after: int,
    *,
    worlds: int = DEFAULT_WORLDS,
    seed: int = 0,
) -> dict[str, Any]:
    """The expert's values of ``seat``'s legal actions after ``after``
    actions of the deal ``record``.

    Returns ``{"seat", "after", "phase", "trick", "worlds", "values":
    [{"action", "value"}...] (best first; ``value`` ``None`` when not
    valued), "best", "expert"}``.  Raises :class:`HintError`, or
    :class:`~rebelote.record.RecordError` for a bad record."""
    replayed = replay_deal(_truncate(record, after))
    state = replayed.state
    if state.current != seat:
        who = "nobody" if state.current is None else state.current.letter
        raise HintError(f"after {after} actions it is {who}'s turn, not {seat.letter}'s")
    view = observe(state, seat)
    legal = state.legal_actions()
    bot = ExpertBot()
    budget = Budget(worlds=worlds)
    values: dict[str, float | None] = {a.text: None for a in legal}
    solved = 0
    if state.phase is Phase.PLAYING and any(isinstance(a, Play) for a in legal):
        mask = 0
        for a in legal:
            if isinstance(a, Play):
                mask |= 1 << a.card
        count = max(worlds if bot.compiled else min(worlds, 4), 1)
        if view.hand.bit_count() <= 5:
            count = worlds
        card_values, solved = bot.card_values(view, mask, seed=seed, budget=budget, count=count)
        for c, v in card_values.items():
            values[card_name(c)] = round(v, 2)
    elif any(isinstance(a, Bid) for a in legal):
        for text, v in bot.bid_values(view, legal, seed=seed, budget=budget).items():
            values[text] = round(v, 2)
        solved = worlds
    choice = bot.act(view, legal, seed=seed, budget=budget)
    ranked = sorted(values.items(), key=lambda kv: (kv[1] is None, -(kv[1] or 0.0), kv[0]))
    best = ranked[0][0] if ranked and ranked[0][1] is not None else None
    return {
        "seat": seat.letter,
        "after": after,
        "phase": state.phase.value,
        "trick": state.trick_number if state.phase is Phase.PLAYING else None,
        "worlds": solved,
        "values": [{"action": a, "value": v} for a, v in ranked],
        "best": best,
        "expert": choice.text,
    }
