"""The computer players, as the server calls them.

:func:`choose_action` asks :func:`rebelote.bots.make_bot` for the seat's
level and gives it only the seat's :class:`~rebelote.observation.PlayerView`
and legal actions.  Should the bots package be missing, a bot fail, or return
something that is not legal, it falls back to a uniformly random legal
action drawn from the same seed, so a table never stalls.

The expert searches with the solver, whose kernel numba compiles once per
process (:func:`rebelote.solver.warm_up`: about 7 s of one core and 200 MB).
:func:`warm_solver` says when a server process does it, in a background
thread, so that an expert's first move does not wait for it: ``off``
(tests: the first expert move compiles it), ``experts`` (``rebelote
serve``: once a table seating an expert is created or loaded, or an expert
takes a seat: :func:`seated`), ``start`` (``rebelote play``: at start).
"""

from __future__ import annotations

import importlib
import logging
import random
import threading
from collections.abc import Iterable
from types import ModuleType
from typing import Any, Literal, TypeAlias

from rebelote.actions import Action
from rebelote.observation import PlayerView

__all__ = ["BUDGET_MS", "WarmSolver", "choose_action", "seated", "warm_solver"]

BUDGET_MS = 2000.0
"""Milliseconds a computer player may think about one decision."""

log = logging.getLogger(__name__)


def _bots() -> ModuleType | None:
    try:
        return importlib.import_module("rebelote.bots")
    except ImportError:
        return None


def _match_legal(action: Any, legal: tuple[Action, ...]) -> Action | None:
    """The legal action ``action`` stands for (same text; the same belote
    flag when both flags are legal), or ``None``."""
    text = getattr(action, "text", None)
    same = [a for a in legal if a.text == text]
    if len(same) == 1:
        return same[0]
    return action if action in same else None


def choose_action(level: str, view: PlayerView, seed: int, budget_ms: float = BUDGET_MS) -> Action:
    """A computer player's decision for ``view.seat`` (which must be to act:
    ``view.legal`` non-empty): a pure function of the view, the level and
    the seed."""
    legal = view.legal
    if not legal:
        raise ValueError(f"{view.seat.letter} has nothing to decide")
    bots = _bots()
    if bots is not None:
        try:
            bot = bots.make_bot(level)
            chosen = bot.act(view, legal, seed=seed, budget=bots.Budget(time_ms=budget_ms))
            action = _match_legal(chosen, legal)
            if action is not None:
                return action
            log.warning("bot %s chose %r, which is not legal; playing at random", level, chosen)
        except Exception:
            log.exception("bot %s failed; playing at random", level)
    return random.Random(seed).choice(legal)


WarmSolver: TypeAlias = Literal["off", "experts", "start"]
"""When a server process warms the solver up (see the module docstring)."""

_warm_mode: WarmSolver = "off"
_warm_thread: threading.Thread | None = None
_warm_lock = threading.Lock()


def warm_solver(mode: WarmSolver) -> None:
    """Set when this process warms the solver up (process-wide, as the
    compiled kernel is): ``start`` starts it now, ``experts`` at the first
    :func:`seated` with an expert, ``off`` never (an expert's first move
    then compiles it)."""
    global _warm_mode
    _warm_mode = mode
    if mode == "start":
        _start_warm_up()


def seated(levels: Iterable[str | None]) -> None:
    """A table seats computer players of ``levels`` (created or loaded,
    or a seat given to one): in ``experts`` mode, an ``expert`` among them
    starts the solver's warm-up (once per process)."""
    if _warm_mode == "experts" and "expert" in levels:
        _start_warm_up()


def _start_warm_up() -> None:
    global _warm_thread
    with _warm_lock:
        if _warm_thread is None:
            _warm_thread = threading.Thread(target=_warm_up, name="solver-warm-up", daemon=True)
            _warm_thread.start()


def _warm_up() -> None:
    """Compile the solver's kernel; a failure only means the first expert
    move compiles it."""
    try:
        from rebelote.solver import warm_up

        warm_up()
    except Exception:  # pragma: no cover - numba missing or broken
        log.exception("solver warm-up failed")
