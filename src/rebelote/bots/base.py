"""The bot protocol, the decision budget and the decisions' seeds.

A bot is called once per decision with the :class:`PlayerView` of its seat,
the legal actions and a :class:`Budget`, and returns one of the legal
actions.  Its choice is a pure function of ``(view, legal, level, seed)``: a
bot keeps no memory between calls, so a restarted server, or a bot taking
over a seat in the middle of a deal, plays exactly as the original would.

Seeds: :func:`decision_seed` derives each decision's seed from the deal's
seed, the seat and the index of the action in the deal, so that a deal
replays action for action.

The levels (``BOT_LEVELS``, ``make_bot``, ``UnknownBotError``) are in
:mod:`.registry`, which imports the bots (and, as ever, the package
:mod:`rebelote.bots`); this module imports none of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ..actions import Action
from ..observation import PlayerView

__all__ = ["Bot", "Budget", "decision_seed"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Budget:
    """What a bot may spend on one decision.

    ``time_ms``: wall-clock milliseconds (``None``: no limit).  The heuristic
    levels decide in well under a millisecond or two and ignore it; searching
    bots must return within it (the expert treats it as a safety net).

    ``worlds``: for the sampling levels (``expert``), the number of sampled
    worlds of a decision (``None``: the level's default); ``nodes``: a cap on
    the solver's nodes per world (``None``: none).  Both keep a decision
    deterministic for its seed, unlike a time limit.
    """

    time_ms: float | None = None
    worlds: int | None = None
    nodes: int | None = None


DEFAULT_BUDGET = Budget()
"""No limit."""


@runtime_checkable
class Bot(Protocol):
    """A computer player.

    ``level`` names it (``random``, ``beginner``, ``intermediate``, ``expert``,
    ``expert-bidder``).
    :meth:`act` returns one element of ``legal`` (the seat's legal actions,
    as ``view.legal``); it must not keep state between calls, and must
    depend only on its arguments.
    """

    @property
    def level(self) -> str:
        """The level's name, as given to :func:`make_bot`."""
        ...

    def act(
        self, view: PlayerView, legal: Sequence[Action], *, seed: int, budget: Budget
    ) -> Action:
        """Choose one of ``legal`` (non-empty) for the seat ``view.seat``."""
        ...


_MASK64 = (1 << 64) - 1


def _mix(x: int) -> int:
    """SplitMix64's finalizer: a 64-bit avalanche of ``x``."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def decision_seed(deal_seed: int, seat: int, index: int) -> int:
    """The seed of one decision: a 63-bit int mixed from the deal's seed, the
    seat (0..3) and the index of the action in the deal (0-based)."""
    h = _mix(deal_seed & _MASK64)
    h = _mix(h ^ (seat & 0xFF))
    h = _mix(h ^ (index & 0xFFFFFFFF))
    return h >> 1
