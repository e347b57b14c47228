"""The log writer: the live tables' log entries, written off the event loop
in batches.

A table stores each change's log entries before it applies them
(:meth:`rebelote.server.tables.table.Table._commit`), holding its lock
while it waits, so that one table has at most one write pending.  Instead
of a worker thread and a transaction per action, :class:`LogWriter` keeps
one thread per *shard* of tables (one for SQLite, whose single writer
would otherwise make the threads wait on each other; a few for a database
that writes in parallel) that takes every write pending in its shard and
stores them together: one :meth:`~rebelote.server.storage.tables.Store.append`
when only one is pending, else one
:meth:`~rebelote.server.storage.tables.Store.append_many` transaction for
all, and hands the outcomes back to the event loop in one call.

Outcomes are each table's own: a batch refused because of one table's rows
(a ``seq`` already taken, a row locked past the lock timeout) is written
again table by table, so that only that table is refused; a batch refused
by the database as a whole (down, read-only, full, locked, past a timeout)
refuses every write in it, and each table then reads its log again, as
after any write whose outcome is unknown.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy.exc import IntegrityError, OperationalError

from rebelote.server.storage.log_entries import LogWrite, StoredEvent

__all__ = ["MAX_BATCH", "LogStore", "LogWriter"]

MAX_BATCH = 256
"""The most writes one transaction takes."""

_LOCK_NOT_AVAILABLE = "55P03"
"""PostgreSQL's SQLSTATE for a lock not obtained within ``lock_timeout``."""


@dataclass(slots=True)
class _Job:
    table_id: str
    events: tuple[StoredEvent, ...]
    status: str
    future: asyncio.Future[None]


class _Shard:
    """One writer thread and the jobs waiting for it.  The thread is woken
    only when it sleeps: while it writes, jobs handed over meanwhile wait
    for its next batch (no system call on the event loop's side)."""

    def __init__(self, writer: LogWriter, index: int) -> None:
        self.writer = writer
        self.index = index
        self.jobs: list[_Job] = []
        self.stopping = False
        self.sleeping = False
        self.ready = threading.Condition(threading.Lock())
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        if self.thread is None:
            self.stopping = False
            self.thread = threading.Thread(
                target=self.run, name=f"rebelote-log-writer-{self.index}", daemon=True
            )
            self.thread.start()

    def put(self, jobs: list[_Job]) -> None:
        """Queue ``jobs`` (from an event loop's thread)."""
        with self.ready:
            self.jobs += jobs
            if self.sleeping:
                self.ready.notify()

    def stop(self) -> None:
        """Ask the thread to end once the queued jobs are written."""
        with self.ready:
            self.stopping = True
            self.ready.notify()

    def run(self) -> None:
        ready = self.ready
        while True:
            with ready:
                while not self.jobs and not self.stopping:
                    self.sleeping = True
                    ready.wait()
                    self.sleeping = False
                jobs, self.jobs = self.jobs, []
                stop = self.stopping and not jobs
            if stop:
                return
            for first in range(0, len(jobs), MAX_BATCH):
                batch = jobs[first : first + MAX_BATCH]
                try:
                    outcomes = self.writer.write_batch(batch)
                except BaseException as exc:  # pragma: no cover - write_batch catches Exception
                    outcomes = [exc] * len(batch)
                _settle(batch, outcomes)


class LogStore(Protocol):
    """What :class:`LogWriter` needs of its store
    (:class:`~rebelote.server.storage.tables.Store`): its database URL
    (SQLite gets one writer thread) and its two ways to append log
    entries."""

    @property
    def url(self) -> str:
        """The store's SQLAlchemy URL."""
        ...

    def append(self, table_id: str, events: Sequence[StoredEvent], status: str) -> None:
        """Append one table's ``events`` and set its ``status``, in one
        transaction."""
        ...

    def append_many(self, writes: Sequence[LogWrite]) -> None:
        """Append several tables' entries and set their status, all in one
        transaction."""
        ...


class LogWriter:
    """Writes the log entries of live tables for their event loop (see the
    module docstring).  ``store``: whose :meth:`append` and
    :meth:`append_many` it calls (looked up at each call); ``shards``: the
    writer threads (default: 1 for SQLite, else 4), a table always going
    to the same one.  Threads start at the first write.  The writes asked
    for during one turn of an event loop are handed to the threads together
    at its next turn (waking a thread costs the loop two context switches:
    once per turn, not once per write); those that come while a thread
    writes wait for its next batch."""

    def __init__(self, store: LogStore, shards: int | None = None) -> None:
        self.store = store
        count = shards if shards is not None else (1 if store.url.startswith("sqlite") else 4)
        self._shards = [_Shard(self, i) for i in range(max(1, count))]
        self._lock = threading.Lock()
        self._held: dict[asyncio.AbstractEventLoop, list[_Job]] = {}

    async def write(self, table_id: str, events: Sequence[StoredEvent], status: str) -> None:
        """Append ``events`` to table ``table_id``'s log and set its row's
        ``status``, as :meth:`Store.append` does; returns once stored.
        Raises what the store raised (``IntegrityError``: a ``seq`` already
        taken; :func:`~rebelote.server.storage.tables.storage_failure`'s
        errors: the outcome is unknown)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        held = self._held.get(loop)
        if held is None:
            held = self._held[loop] = []
            loop.call_soon(self._hand_over, loop)
        held.append(_Job(table_id, tuple(events), status, future))
        await future

    def _hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        """Give the writes held for ``loop`` to their shards' threads."""
        jobs = self._held.pop(loop, [])
        shards = self._shards
        by_shard: dict[int, list[_Job]]
        if len(shards) == 1:
            by_shard = {0: jobs}
        else:
            by_shard = {}
            for job in jobs:
                index = zlib.crc32(job.table_id.encode()) % len(shards)
                by_shard.setdefault(index, []).append(job)
        for index, some in by_shard.items():
            shard = shards[index]
            if shard.thread is None:
                with self._lock:
                    shard.start()
            shard.put(some)

    def write_batch(self, batch: Sequence[_Job]) -> list[BaseException | None]:
        """Store ``batch`` (in a writer thread); each job's outcome: ``None``
        when stored, else the exception."""
        store = self.store
        if len(batch) == 1:
            job = batch[0]
            try:
                store.append(job.table_id, job.events, job.status)
            except Exception as exc:
                return [exc]
            return [None]
        try:
            store.append_many([LogWrite(j.table_id, j.events, j.status) for j in batch])
        except Exception as exc:
            if not _of_some_rows(exc):
                return [exc] * len(batch)
        else:
            return [None] * len(batch)
        outcomes: list[BaseException | None] = []
        for job in batch:  # one table's rows refused the batch: each alone
            try:
                store.append(job.table_id, job.events, job.status)
            except Exception as exc:
                outcomes.append(exc)
            else:
                outcomes.append(None)
        return outcomes

    def close(self, timeout: float = 10.0) -> None:
        """Stop the threads once the writes queued before are done (waits
        at most ``timeout`` seconds each).  A later :meth:`write` starts
        them again."""
        with self._lock:
            for shard in self._shards:
                thread = shard.thread
                if thread is not None and thread.is_alive():
                    shard.stop()
                    thread.join(timeout)
                shard.thread = None


def _of_some_rows(exc: BaseException) -> bool:
    """Whether a batch was refused because of some tables' rows only (a
    constraint, a row lock past the timeout), not by the database as a
    whole."""
    if isinstance(exc, IntegrityError):
        return True
    orig: Any = getattr(exc, "orig", None)
    return isinstance(exc, OperationalError) and (
        getattr(orig, "sqlstate", None) == _LOCK_NOT_AVAILABLE
    )


def _settle(batch: Sequence[_Job], outcomes: Sequence[BaseException | None]) -> None:
    """Hand the outcomes to each job's event loop, in one call per loop."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[_Job, BaseException | None]]] = {}
    for job, outcome in zip(batch, outcomes, strict=True):
        by_loop.setdefault(job.future.get_loop(), []).append((job, outcome))
    for loop, items in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
            loop.call_soon_threadsafe(_resolve, items)


def _resolve(items: Sequence[tuple[_Job, BaseException | None]]) -> None:
    for job, outcome in items:
        future = job.future
        if future.done():  # the waiting task was cancelled
            continue
        if outcome is None:
            future.set_result(None)
        else:
            future.set_exception(outcome)
