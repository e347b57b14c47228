"""Choosing the solver's implementation: the numba kernel when it can be
loaded, else the pure-Python search.

``kernel`` arguments: ``"auto"`` (the kernel if available), ``"python"``,
``"numba"`` (raises :class:`KernelUnavailableError` when numba is missing).
The environment variable ``REBELOTE_SOLVER=python`` makes ``auto`` choose the
pure path.
"""

from __future__ import annotations

import os
from typing import Literal

from . import search
from .position import Position
from .search import SolveResult

__all__ = [
    "Kernel",
    "KernelUnavailableError",
    "kernel_available",
    "kernel_selected",
    "solve_moves",
    "solve_value",
    "warm_up",
]

Kernel = Literal["auto", "python", "numba"]


class KernelUnavailableError(RuntimeError):
    """The numba kernel was asked for but numba cannot be imported."""


def kernel_available() -> bool:
    """Whether the compiled kernel can be used (numba importable)."""
    from . import kernel

    return kernel.AVAILABLE


def kernel_selected() -> bool:
    """Whether solves with ``kernel="auto"`` use the compiled kernel: numba
    importable and ``REBELOTE_SOLVER`` not set to ``python``."""
    return _use_kernel("auto")


def _use_kernel(kernel: Kernel) -> bool:
    if kernel == "python":
        return False
    if kernel == "numba":
        if not kernel_available():
            raise KernelUnavailableError("numba is not installed: pip install rebelote[fast]")
        return True
    if os.environ.get("REBELOTE_SOLVER", "").lower() == "python":
        return False
    return kernel_available()


def solve_moves(
    pos: Position, *, kernel: Kernel = "auto", max_nodes: int | None = None
) -> SolveResult:
    """The exact value of each legal card of the seat to play, for its side
    (a points difference over the rest of the deal, see :mod:`.search`).

    Raises :class:`~.search.SearchLimitError` past ``max_nodes`` nodes."""
    if _use_kernel(kernel):
        from . import kernel as k

        return k.solve_moves(pos, max_nodes=max_nodes)
    return search.solve_moves(pos, max_nodes=max_nodes)


def solve_value(
    pos: Position,
    side: int | None = None,
    *,
    kernel: Kernel = "auto",
    max_nodes: int | None = None,
) -> int:
    """The exact value of ``pos`` for ``side`` (default: the side to play)."""
    if _use_kernel(kernel):
        from . import kernel as k

        return k.solve_value(pos, side, max_nodes=max_nodes)
    return search.solve_value(pos, side, max_nodes=max_nodes)


_WARM = False


def warm_up() -> None:
    """Load the kernel now by solving a one-trick position, so that later
    solves are timed without it: from numba's disk cache (a few tenths of a
    second), or compiled where there is none yet (about 7 seconds; the
    cache is written then, see :func:`rebelote.solver.kernel._jit`).  Does
    nothing without numba or after the first call."""
    global _WARM
    if _WARM or not _use_kernel("auto"):
        return
    from ..rules import preset
    from ..seats import Seat
    from ..trump import Strain

    hands = [1 << 0, 1 << 8, 1 << 16, 1 << 24]
    pos = Position.from_hands(preset("ffb"), Strain.S, hands, turn=Seat.N)
    solve_moves(pos)
    _WARM = True
