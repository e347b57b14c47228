"""The double-dummy solver: exact card play with every hand visible.

- :class:`Position`: a card-play position (from a state or from sampled hands).
- :func:`solve_moves` / :func:`solve_value`: the exact values, by the compiled
  kernel when numba is installed (``pip install rebelote[fast]``), else by the
  pure-Python search; both give the same values (tested).
- :mod:`.search`: the pure-Python alpha-beta; :mod:`.kernel`: the numba one.

The rules come from the rules core (:func:`~rebelote.tricks.legal_play_mask`,
:func:`~rebelote.tricks.beats`, :func:`~rebelote.trump.strain_tables`).
"""

from __future__ import annotations

from .position import Position, PositionError, capot_bonus
from .search import SearchLimitError, SolveResult
from .solve import kernel_available, kernel_selected, solve_moves, solve_value, warm_up

__all__ = [
    "Position",
    "PositionError",
    "SearchLimitError",
    "SolveResult",
    "capot_bonus",
    "kernel_available",
    "kernel_selected",
    "solve_moves",
    "solve_value",
    "warm_up",
]
