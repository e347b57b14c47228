"""The ``random`` level: a uniformly random legal action, the baseline."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action
from ..observation import PlayerView
from .base import Budget

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses uniformly among the legal actions, with ``random.Random(seed)``."""

    @property
    def level(self) -> str:
        """``random``."""
        return "random"

    def act(
        self, view: PlayerView, legal: Sequence[Action], *, seed: int, budget: Budget
    ) -> Action:
        """A uniformly random element of ``legal``.  Raises ``ValueError``
        when ``legal`` is empty."""
        if not legal:
            raise ValueError(f"no legal action for seat {view.seat.letter}")
        return legal[random.Random(seed).randrange(len(legal))]
