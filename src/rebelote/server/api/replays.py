"""Replays and records (``GET /api/tables/{id}/replay`` and ``/record``)
built off the request path: in a small thread pool of their own, once per
state of a table's log, within bounds.

Building a replay runs the table's whole log again (seconds for a long
table): done in the default thread pool, as before, forty requests at once
held every worker the database's writes wait for.  :class:`Replays` keeps
that work apart:

- the stored table is read, and the replay built and encoded to JSON, in
  ``settings.replay_workers`` threads of its own; at most
  ``settings.replay_queue`` more jobs wait for them, beyond which a
  request is refused with :class:`~rebelote.server.people.passwords.Busy`
  (503 ``busy``);
- requests for the same table at once share one read of it, and requests
  for the same answer at once share one build;
- the costly part, the log replayed
  (:class:`~rebelote.server.tables.history.ReplayBase`), is built once per
  state of a table (the length of its log, its status and its seats: a
  table that moved on is built again) for every answer of that state
  (replay or record, of any match or deal); the last ones are kept, up to
  ``settings.replay_cache_deals`` deals in all (about 16 KB each);
- the JSON of each answer is kept, least recently used out first, up to
  ``settings.replay_cache_bytes`` in all, under the table's state and what
  was asked (replay or record, match, deal).

The routes throttle each address first (``settings.replay_rate``).
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from rebelote.server.people.passwords import Busy
from rebelote.server.settings import ServerSettings
from rebelote.server.storage.tables import Store, StoredTable
from rebelote.server.tables.history import ReplayBase, replay_base

__all__ = ["Replays", "encode"]

_T = TypeVar("_T")


def encode(data: Any) -> bytes:
    """``data`` as the JSON body FastAPI would send (UTF-8, compact)."""
    return json.dumps(
        data, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")
    ).encode("utf-8")


class Replays:
    """The replays' thread pool and cache for one app (see the module
    docstring); create it inside the running event loop and :meth:`close`
    it at the end.  ``hits``, ``builds`` and ``bases_built`` count the
    answers taken from the cache, the answers built and the tables' logs
    replayed for them (tests, metrics)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.workers = max(1, settings.replay_workers)
        self.queue = max(0, settings.replay_queue)
        self.budget = settings.replay_cache_bytes
        self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="replay")
        self._jobs = 0
        self._cache: OrderedDict[Hashable, bytes] = OrderedDict()
        self._size = 0
        self._loading: dict[str, asyncio.Future[StoredTable | None]] = {}
        self._building: dict[Hashable, asyncio.Future[bytes | None]] = {}
        self.deals = settings.replay_cache_deals
        self._held = 0
        self._bases: OrderedDict[Hashable, ReplayBase] = OrderedDict()
        self._basing: dict[Hashable, asyncio.Future[ReplayBase]] = {}
        self._working: dict[Hashable, asyncio.Future[Any]] = {}
        self.hits = 0
        self.builds = 0
        self.bases_built = 0

    def close(self) -> None:
        """Stop the threads (a job under way ends first) and drop the cache."""
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._cache.clear()
        self._bases.clear()
        self._size = self._held = 0

    async def _run(self, work: Callable[[], _T]) -> _T:
        """``work()`` in the pool; :class:`Busy` when ``workers + queue``
        jobs are there already."""
        if self._jobs >= self.workers + self.queue:
            raise Busy("the server is busy building replays: try again in a moment")
        self._jobs += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, work)
        finally:
            self._jobs -= 1

    def _once(
        self, table: dict[Any, asyncio.Future[_T]], key: Any, make: Callable[[], Awaitable[_T]]
    ) -> Awaitable[_T]:
        """``make()`` in a task of its own (a caller that goes away does
        not stop it), shared by the callers asking ``key`` meanwhile."""
        task = table.get(key)
        if task is None:
            task = asyncio.ensure_future(make())
            table[key] = task

            def done(finished: asyncio.Future[_T]) -> None:
                del table[key]
                if not finished.cancelled():
                    finished.exception()  # retrieved: no warning if nobody waits

            task.add_done_callback(done)
        return asyncio.shield(task)

    async def work(self, key: Hashable, work: Callable[[], _T]) -> _T:
        """``work()`` in the pool, one run for the callers asking ``key``
        meanwhile: other work that replays tables' logs (a profile's
        summaries, :mod:`rebelote.server.people.profiles`), kept off the
        default thread pool as the replays are.  Raises :class:`Busy`."""
        done: _T = await self._once(self._working, key, lambda: self._run(work))
        return done

    async def load(self, store: Store, table_id: str) -> StoredTable | None:
        """The stored table (``None``: no such table), read in the pool;
        one read for the requests that ask meanwhile.  Raises
        :class:`Busy`, and what the store raises."""
        return await self._once(
            self._loading, table_id, lambda: self._run(lambda: store.load(table_id))
        )

    async def answer(
        self, stored: StoredTable, what: Hashable, build: Callable[[ReplayBase], Any]
    ) -> bytes | None:
        """The JSON of ``build(base)`` (``None`` when it returns ``None``),
        ``base`` being the :class:`~rebelote.server.tables.history.ReplayBase`
        of ``stored``: from the cache when ``what`` was built for this
        state of the table, else built and encoded in the pool (one build
        for the requests that ask meanwhile) and kept.  The base itself,
        the costly part, is built once per state for every ``what`` (the
        last ones kept, ``settings.replay_cache_deals`` deals in all).
        Raises :class:`Busy`."""
        state = (stored.id, len(stored.events), stored.status, stored.seats)
        key = (state, what)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            self.hits += 1
            return cached

        async def make() -> bytes | None:
            base = await self._base(state, stored)

            def work() -> bytes | None:
                data = build(base)
                return None if data is None else encode(data)

            body = await self._run(work)
            self.builds += 1
            if body is not None:
                self._keep(key, body)
            return body

        return await self._once(self._building, key, make)

    async def _base(self, state: Hashable, stored: StoredTable) -> ReplayBase:
        base = self._bases.get(state)
        if base is not None:
            self._bases.move_to_end(state)
            return base

        async def make() -> ReplayBase:
            made = await self._run(lambda: replay_base(stored))
            self.bases_built += 1
            if len(made.deals) <= self.deals:
                self._bases[state] = made
                self._held += len(made.deals)
                while self._held > self.deals:
                    _, dropped = self._bases.popitem(last=False)
                    self._held -= len(dropped.deals)
            return made

        return await self._once(self._basing, state, make)

    def _keep(self, key: Hashable, body: bytes) -> None:
        if len(body) > self.budget:
            return
        old = self._cache.pop(key, None)
        if old is not None:
            self._size -= len(old)
        self._cache[key] = body
        self._size += len(body)
        while self._size > self.budget:
            _, dropped = self._cache.popitem(last=False)
            self._size -= len(dropped)

    @property
    def cached_bytes(self) -> int:
        """The bytes of JSON kept."""
        return self._size
