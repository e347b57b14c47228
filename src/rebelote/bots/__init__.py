"""Computer players: the :class:`~rebelote.bots.base.Bot` protocol, the
levels (:mod:`.registry`: ``random``, ``beginner``, ``intermediate``,
``expert``, ``expert-bidder``), and the duplicate arena.

Bots see a deal only through :class:`~rebelote.observation.PlayerView` (what
:func:`~rebelote.observation.observe` gives their seat), never the
:class:`~rebelote.state.State`.  This package imports the rules core; the
rules core imports nothing of it.
"""

from __future__ import annotations

from .base import Bot, Budget, decision_seed
from .registry import BOT_LEVELS, UnknownBotError, make_bot

__all__ = ["BOT_LEVELS", "Bot", "Budget", "UnknownBotError", "decision_seed", "make_bot"]
