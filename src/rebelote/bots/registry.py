"""The registry of bot levels: :data:`BOT_LEVELS` and :func:`make_bot`.

Each level's module is imported when a bot of that level is first made, so
that naming the levels (``rebelote arena --help``) imports no bot; the
protocol the bots implement is in :mod:`.base`, which imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot

__all__ = ["BOT_LEVELS", "UnknownBotError", "make_bot"]


class UnknownBotError(ValueError):
    """A bot level that the registry does not know."""


def _random() -> Bot:
    from .random_bot import RandomBot

    return RandomBot()


def _beginner() -> Bot:
    from .heuristic import HeuristicBot

    return HeuristicBot.beginner()


def _intermediate() -> Bot:
    from .heuristic import HeuristicBot

    return HeuristicBot.intermediate()


def _expert() -> Bot:
    from .expert import ExpertBot

    return ExpertBot()


def _expert_bidder() -> Bot:
    from .expert import ExpertBot

    return ExpertBot(card_play=False)


_REGISTRY: dict[str, Callable[[], Bot]] = {
    "random": _random,
    "beginner": _beginner,
    "intermediate": _intermediate,
    "expert": _expert,
    "expert-bidder": _expert_bidder,
}

BOT_LEVELS: tuple[str, ...] = tuple(_REGISTRY)
"""The levels :func:`make_bot` knows, weakest first (``expert-bidder``: the
expert's bidding with the intermediate's card play, for measuring the
bidding alone)."""


def make_bot(level: str) -> Bot:
    """A bot of the named level (``random``, ``beginner``, ``intermediate``,
    ``expert``, ``expert-bidder``).

    Raises :class:`UnknownBotError` (a ``ValueError``) for any other name.
    """
    try:
        factory = _REGISTRY[level]
    except KeyError:
        known = ", ".join(BOT_LEVELS)
        raise UnknownBotError(f"unknown bot level {level!r}: use one of {known}") from None
    return factory()
