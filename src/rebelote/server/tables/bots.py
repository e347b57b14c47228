"""The computer players, as the server calls them.

:func:`choose_action` asks :func:`rebelote.bots.make_bot` for the seat's
level and gives it only the seat's :class:`~rebelote.observation.PlayerView`
and legal actions.  Should the bots package be missing, a bot fail, or return
something that is not legal, it falls back to a uniformly random legal
action drawn from the same seed, so a table never stalls.
"""

from __future__ import annotations

import importlib
import logging
import random
from types import ModuleType
from typing import Any

from rebelote.actions import Action
from rebelote.observation import PlayerView

__all__ = ["BUDGET_MS", "choose_action"]

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
