"""Hints at the table, computed off the event loop.

A hint is the expert's decision with its values
(:func:`rebelote.bots.hint.hint_view`, what ``rebelote hint`` computes),
from the asking seat's own :class:`~rebelote.observation.PlayerView`: its
hand and the public history, nothing else (the expert samples the hidden
hands itself).  It runs in a small thread pool of its own
(:data:`HINT_WORKERS` threads; the solver's compiled kernel releases the
GIL while it searches), so that the event loop and the default pool (the
database's writes, the computer players) never wait for it; at most
:data:`HINT_QUEUE` more wait for a thread, beyond which a hint is refused
``busy``.  The time cap (:data:`HINT_TIME_MS`) is the expert's safety net:
a hint is the same for the same seed unless the machine is so loaded that
it triggers.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from rebelote.observation import PlayerView
from rebelote.server.protocol.messages import ProtocolError

__all__ = ["HINT_QUEUE", "HINT_TIME_MS", "HINT_WORKERS", "table_hint"]

HINT_WORKERS = 2
"""Threads computing hints (per server process)."""

HINT_QUEUE = 8
"""Hints that may wait for a thread; one more is refused ``busy``."""

HINT_TIME_MS = 3000.0
"""The expert's safety cap of a table's hint (ms): under a driver's
command timeout in another process (``registry.CALL_TIMEOUT``)."""

_pool: ThreadPoolExecutor | None = None
_jobs = 0
_lock = threading.Lock()


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(HINT_WORKERS, thread_name_prefix="hint")
        return _pool


def _compute(view: PlayerView, seed: int, after: int) -> dict[str, Any]:
    from rebelote.bots.hint import hint_view

    return hint_view(view, view.legal, seed=seed, after=after, time_ms=HINT_TIME_MS)


async def table_hint(view: PlayerView, *, seed: int, after: int) -> dict[str, Any]:
    """The hint of ``view``'s seat (which must be to act: ``view.legal``
    not empty), seeded by ``seed``, ``after`` actions of the deal: the
    dictionary of :func:`~rebelote.bots.hint.hint_view`.  Raises
    :class:`ProtocolError` ``busy`` when :data:`HINT_WORKERS` +
    :data:`HINT_QUEUE` hints are under way, ``not_your_turn`` when the
    seat has nothing to decide."""
    global _jobs
    if not view.legal:
        raise ProtocolError("not_your_turn", "a hint is for your own decision", legal=[])
    with _lock:
        if _jobs >= HINT_WORKERS + HINT_QUEUE:
            raise ProtocolError("busy", "the server is busy with hints: try again in a moment")
        _jobs += 1
    try:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(_executor(), _compute, view, seed, after)
    finally:
        with _lock:
            _jobs -= 1
