"""The expert's analysis of a finished game, made on demand in the
background and kept with the game (``GET /api/tables/{id}/analysis``).

The analysis of a match is :func:`rebelote.bots.analysis.analyse_deal` of
each of its deals (the records ``GET /api/tables/{id}/record`` gives, the
bids of deal ``i`` of the match seeded ``1000 * i``: what ``rebelote
analyse`` gives for the match's record), with who sat where and the help
used in each deal.  Only a match that is over (or whose table closed) is
analysed: every hand is known then, and nobody plays it any more.

- **One job per game** (table and match): the first request starts it and
  answers at once with its progress; the next ones (the page polls) get
  the progress, deal by deal, then the analysis.  Requests meanwhile share
  the job.
- **Off the event loop**: the solver and the expert run in a pool of
  ``settings.analysis_workers`` processes of their own (spawned: a clean
  interpreter, the solver's compiled kernel loaded from its disk cache),
  one deal at a time per job, so that neither the event loop nor the
  server's threads wait for them (nor for the GIL); at most
  ``settings.analysis_jobs`` jobs at once (one more: ``busy``).  The log
  is read and the records sliced in a thread of this module's own.
- **Kept**: a finished analysis is stored with the game
  (:class:`~rebelote.server.storage.analyses.AnalysisStore`, migration
  ``r0009``) and read back from there, instantly, at the next opening (by
  anyone who may see the game), as long as the analysis's version
  (:data:`~rebelote.bots.analysis.ANALYSIS_VERSION`) is the same.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from rebelote.bots.analysis import ANALYSIS_VERSION, analyse_deal
from rebelote.server.people.passwords import Busy
from rebelote.server.settings import ServerSettings
from rebelote.server.storage.tables import Store, StoredTable
from rebelote.server.tables.history import match_record, replay_base
from rebelote.server.tables.table import game_from_stored

__all__ = ["Analyses", "NotFinished", "Prepared", "prepare"]

log = logging.getLogger(__name__)

KEPT_JOBS = 32
"""Finished jobs kept in memory (their analysis is stored anyway)."""


class NotFinished(LookupError):
    """The match is not over (or has no deal played out): nothing to
    analyse yet."""


@dataclass(frozen=True, slots=True)
class Prepared:
    """What a job analyses: the match's ``deals`` (per deal: its number,
    record, who sat there, the help used) and the table's ``seats``."""

    match: int
    deals: list[dict[str, Any]]
    seats: list[dict[str, Any]]


def prepare(stored: StoredTable, match: int) -> Prepared:
    """The deals of match ``match`` of ``stored`` to analyse, with their
    records (:func:`~rebelote.server.tables.history.match_record`), names
    and help.  Raises :class:`NotFinished` when that match is not over and
    its table not closed, or has no deal played out."""
    game, _ = game_from_stored(stored)
    going_on = match == game.match_number and game.status == "playing"
    if match > game.match_number or (going_on and stored.status != "closed"):
        raise NotFinished(f"match {match} is not over")
    base = replay_base(stored)
    record = match_record(stored, match, base)
    if record is None:
        raise NotFinished(f"match {match} has no deal played out")
    numbers = [d for m, d, _ in base.deals if m == match]
    deals = []
    for number, deal in zip(numbers, record["deals"], strict=True):
        deals.append(
            {
                "deal": number,
                "record": {**deal, "format": record["format"], "rules": record["rules"]},
                "seats": base.seats.get((match, number)),
                "help": base.help.get((match, number), {"hints": 0, "takebacks": 0}),
            }
        )
    seats = [{"seat": s.seat, "kind": s.kind, "name": s.name} for s in stored.seats]
    return Prepared(match, deals, seats)


@dataclass(slots=True)
class _Job:
    total: int
    done: int = 0
    deals: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    failed: bool = False
    task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self.result is None and not self.failed


def _answer(
    table_id: str, match: int, status: str, done: int, total: int, data: Any = None
) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "match": match,
        "status": status,
        "done": done,
        "total": total,
        "analysis": data,
    }


class Analyses:
    """The analyses of one app (see the module): create it in the running
    event loop, :meth:`close` it at the end.  ``made``: the analyses
    computed; ``kept``: those read back from the database (tests)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.workers = max(1, settings.analysis_workers)
        self.max_jobs = max(1, settings.analysis_jobs)
        self._threads = ThreadPoolExecutor(1, thread_name_prefix="analysis")
        self._processes: ProcessPoolExecutor | None = None
        self._jobs: OrderedDict[tuple[str, int], _Job] = OrderedDict()
        self._start = asyncio.Lock()
        self.made = 0
        self.kept = 0

    def _pool(self) -> ProcessPoolExecutor:
        if self._processes is None:
            self._processes = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._processes

    def close(self) -> None:
        """Stop the jobs and the workers (nothing half-made is stored)."""
        for job in self._jobs.values():
            if job.task is not None:
                job.task.cancel()
        self._jobs.clear()
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
        self._threads.shutdown(wait=False, cancel_futures=True)

    def progress(self, table_id: str, match: int) -> dict[str, Any] | None:
        """The answer of a job running for ``(table_id, match)`` (its
        progress), else ``None``; reads nothing."""
        job = self._jobs.get((table_id, match))
        if job is None or not job.running:
            return None
        return _answer(table_id, match, "running", job.done, job.total)

    async def status(self, store: Store, stored: StoredTable, match: int) -> dict[str, Any]:
        """The analysis of match ``match`` of ``stored``: ``{"table_id",
        "match", "status", "done", "total", "analysis"}``, ``status``
        ``done`` (``analysis`` the data), ``running`` (``done`` of
        ``total`` deals analysed: ask again) or ``failed`` (the job broke:
        asking again starts it again).  Starts the job when the analysis
        is neither kept nor under way.  Raises :class:`NotFinished`,
        :class:`~rebelote.server.people.passwords.Busy` (too many jobs)."""
        key = (stored.id, match)
        loop = asyncio.get_running_loop()
        async with self._start:
            job = self._jobs.get(key)
            if job is not None and job.result is not None:
                self._jobs.move_to_end(key)
                return _answer(stored.id, match, "done", job.done, job.total, job.result)
            if job is not None and job.failed:
                del self._jobs[key]
                return _answer(stored.id, match, "failed", job.done, job.total)
            if job is not None:
                return _answer(stored.id, match, "running", job.done, job.total)
            data = await loop.run_in_executor(
                self._threads, store.load_analysis, stored.id, match, ANALYSIS_VERSION
            )
            if data is not None:
                self.kept += 1
                total = len(data.get("deals", []))
                return _answer(stored.id, match, "done", total, total, data)
            if sum(1 for j in self._jobs.values() if j.running) >= self.max_jobs:
                raise Busy("the server is busy analysing games: try again in a moment")
            prepared = await loop.run_in_executor(self._threads, prepare, stored, match)
            job = _Job(total=len(prepared.deals))
            self._jobs[key] = job
            job.task = asyncio.create_task(
                self._run(job, store, stored.id, prepared), name=f"analysis {stored.id}/{match}"
            )
            return _answer(stored.id, match, "running", 0, job.total)

    async def _run(self, job: _Job, store: Store, table_id: str, prepared: Prepared) -> None:
        loop = asyncio.get_running_loop()
        try:
            for i, deal in enumerate(prepared.deals):
                # by reference to the core's function: the worker imports
                # the rules core and the expert, not the server
                work = functools.partial(analyse_deal, deal["record"], seed=1000 * i)
                found = await loop.run_in_executor(self._pool(), work)
                job.deals.append(
                    {
                        "match": prepared.match,
                        "deal": deal["deal"],
                        "seats": deal["seats"],
                        "help": deal["help"],
                        **found,
                    }
                )
                job.done = i + 1
            data = {
                "version": ANALYSIS_VERSION,
                "table_id": table_id,
                "match": prepared.match,
                "seats": prepared.seats,
                "deals": job.deals,
            }
            await loop.run_in_executor(
                self._threads, store.save_analysis, table_id, prepared.match, ANALYSIS_VERSION, data
            )
            self.made += 1
            job.result = data
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the analysis of match %d failed", table_id, prepared.match)
            job.failed = True
        finally:
            finished = [k for k, j in self._jobs.items() if not j.running]
            for k in finished[: max(0, len(finished) - KEPT_JOBS)]:
                del self._jobs[k]
