"""What the expert sees in a position of a record (``rebelote hint``).

:func:`hint` checks the whole deal record (as ``rebelote replay`` does),
replays its first ``after`` actions (of its ``actions``, format 2; of a
format 1 record, its bids, then its cards, in order, the declarations it
gives made where they fall), looks from ``seat``
(whose turn it must be) and returns the values the expert chooses on
(:meth:`~.expert.ExpertBot.decide`), with the same budget and seed as its
own decision, so that its choice is the best value (coinche bids: unless
the margin over the intermediate's bid says otherwise, given as ``rule``):

- a card: the mean over the sampled worlds, each solved double dummy, of
  the deal's score for the seat's side minus the other side's (three
  players: minus the best other seat's; the two others' future points are
  split evenly, the solver searching the seat against both together);
- a classic bid: the take value against passing
  (:meth:`~.heuristic.HeuristicBot.classic_bid_values`);
- a coinche bid: the mean score over the sampled deals solved double dummy,
  for the candidates tried (other bids get ``None``).

The basis of hints at the table and of explaining the bots' moves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..actions import Action, Play
from ..cards import card_name
from ..observation import PlayerView, observe
from ..record import record_format, replay_deal
from ..seats import Seat
from ..state import Phase
from .base import Budget
from .expert import ExpertBot

__all__ = ["MAX_WORLDS", "HintError", "hint", "hint_view"]

MAX_WORLDS = 200
"""The largest ``worlds`` budget :func:`hint` accepts."""

HINT_TIME_MS = 120_000.0
"""The safety cap of one hint (ms): high, so that a loaded machine does not
cut the worlds and the hint is the same for the same seed."""


class HintError(ValueError):
    """A position where no hint can be given: ``after`` out of range, not
    the seat's turn, a bidding position of a classic record given by
    ``hands``, or ``worlds`` out of range.  ``payload`` is the JSON-ready
    error."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.payload: dict[str, Any] = {"error": "no hint", "message": message}


def _truncate(record: Mapping[str, Any], after: int) -> dict[str, Any]:
    """The record's first ``after`` actions: of its ``actions`` (format 2),
    or of its bids then its cards (format 1)."""
    data = dict(record)
    if record_format(record) == 2:
        actions = data.get("actions", [])
        count = len(actions) if isinstance(actions, list) else 0
        if after < 0 or after > count:
            raise HintError(f"--after {after} is out of range: the record has {count} actions")
        data["actions"] = actions[:after]
        return data
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
    worlds: int | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """The expert's values of ``seat``'s legal actions after ``after``
    actions of the deal ``record`` (see the module).  ``worlds``: the
    expert's budget of worlds (:class:`~.base.Budget`, 1 to
    :data:`MAX_WORLDS`; ``None``: its default, the one it plays with).

    Returns ``{"seat", "after", "phase", "trick", "worlds", "basis",
    "values": [{"action", "value"}...] (best first, then the actions not
    valued, ``value`` ``None``, in legal order), "best", "expert",
    "rule"}``: ``worlds`` the worlds or deals behind the values (0: none),
    ``basis`` as :class:`~.expert.Decision`'s (``"only"``: a single legal
    bid, not valued; a single legal card is valued, basis ``"worlds"``),
    ``best`` the action of
    highest value (the expert's on ties; ``None`` when nothing is valued),
    ``expert`` the expert's choice, ``rule`` ``None`` unless the choice is
    not simply the best value.  Raises :class:`HintError`, or
    :class:`~rebelote.record.RecordError` for a bad record (anywhere in
    it, not only in its first ``after`` actions)."""
    if worlds is not None and not 1 <= worlds <= MAX_WORLDS:
        raise HintError(f"--worlds must be between 1 and {MAX_WORLDS}, not {worlds}")
    replay_deal(record)  # the whole record must be valid
    replayed = replay_deal(_truncate(record, after))
    state = replayed.state
    if state.current != seat:
        who = "nobody" if state.current is None else state.current.letter
        raise HintError(f"after {after} actions it is {who}'s turn, not {seat.letter}'s")
    if state.phase is Phase.BIDDING and "hands" in record and state.rules.turned_card:
        raise HintError(
            "a classic record given by 'hands' does not say which cards were dealt "
            "before the auction: bidding hints need a record with a 'deck'"
        )
    return hint_view(
        observe(state, seat), state.legal_actions(), worlds=worlds, seed=seed, after=after
    )


def hint_view(
    view: PlayerView,
    legal: Sequence[Action],
    *,
    worlds: int | None = None,
    seed: int = 0,
    after: int | None = None,
    time_ms: float = HINT_TIME_MS,
) -> dict[str, Any]:
    """The expert's values of the legal actions ``legal`` of the seat whose
    view is ``view`` (its own hand and the public history only: nothing
    else is read; the expert samples the hidden hands itself), as
    :func:`hint` gives them (the same keys; ``after`` is echoed as given).
    A table's hint (``rebelote serve``) calls it with the seat's
    :func:`~rebelote.observation.observe` view.  ``time_ms``: the expert's
    safety cap (ms): once spent, no more worlds are started (the hint is
    then made of fewer worlds).  Raises :class:`HintError` when ``legal``
    is empty (not the seat's turn) or ``worlds`` is out of range."""
    if worlds is not None and not 1 <= worlds <= MAX_WORLDS:
        raise HintError(f"--worlds must be between 1 and {MAX_WORLDS}, not {worlds}")
    if not legal:
        raise HintError(f"{view.seat.letter} has nothing to decide now")
    phase = view.phase
    bot = ExpertBot()
    # The time cap is the expert's safety net, not a budget: a hint waits
    # for all its worlds, so that it is the same for the same seed.
    budget = Budget(worlds=worlds, time_ms=time_ms)
    decision = bot.decide(view, legal, seed=seed, budget=budget)
    texts = [a.text for a in legal]
    # The expert values cards by name; a card with a belote choice ("QH
    # belote", "QH no-belote") has its card's value under both texts.
    keys = {a.text: card_name(a.card) if isinstance(a, Play) else a.text for a in legal}
    values = {t: round(decision.values[k], 2) for t, k in keys.items() if k in decision.values}
    solved, basis = decision.worlds, decision.basis
    if decision.basis == "only" and isinstance(decision.action, Play):
        # A forced card: its value is the deal's expected score.
        card = decision.action.card
        found, solved = bot.card_values(view, 1 << card, seed=seed, budget=budget)
        if solved:
            values[decision.action.text] = round(found[card], 2)
            basis = "worlds"
    choice = decision.action.text
    valued = sorted(values, key=lambda t: (-values[t], t != choice, texts.index(t)))
    unvalued = [t for t in dict.fromkeys(texts) if t not in values]
    return {
        "seat": view.seat.letter,
        "after": after,
        "phase": phase.value,
        "trick": min(len(view.tricks) + 1, 8) if phase is Phase.PLAYING else None,
        "worlds": solved,
        "basis": basis,
        "values": [{"action": t, "value": values[t]} for t in valued]
        + [{"action": t, "value": None} for t in unvalued],
        "best": valued[0] if valued else None,
        "expert": choice,
        "rule": decision.rule,
    }
