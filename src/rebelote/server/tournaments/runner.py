"""The tournaments' lifecycle, run by every server process
(``docs/tournaments.md`` "Lifecycle").

Each process's :class:`TournamentRunner` looks at the open and running
tournaments every :data:`TICK_SECONDS`:

- **open**, its ``starts_at`` reached: with fewer than :data:`MIN_ENTRANTS`
  entrants it is ``cancelled``; else its first round is paired and it is
  ``running``;
- **running**: every table of the current round whose match is over is
  scored (each entrant's result line of the table's first match, stored by
  the table's room: won, lost, or left); a Swiss round whose tables are
  all scored is followed by the next one, or by ``finished`` after the
  last; an arena pairs the entrants waiting (none of their tables
  unscored) until ``starts_at + minutes``, then finishes once every table
  is scored.

Pairing a round and moving the tournament on are compare-and-sets on the
tournament's row (:class:`~rebelote.server.storage.tournaments.TournamentStore`):
with several processes exactly one of them pairs each round, and it opens
the round's tables (ordinary lobby tables, unrated, public so that anyone
may watch; the entrants seated, computers of the tournament's level in
the empty seats, the match started).  A table whose process died before
making it, or which never started, counts for nobody after
:data:`LOST_TABLE_SECONDS`.

Every change is pushed to the tournament's pages as ``{"t": "tournament",
"d": view}`` through the broker (a broadcast on :func:`channel`), so that
the pages of every process get it (:mod:`rebelote.server.api.tournaments`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from rebelote.seats import Seat
from rebelote.server.broker.base import Broker, BrokerUnavailable
from rebelote.server.protocol.messages import ProtocolError, TableOptions
from rebelote.server.storage.people import ResultLine
from rebelote.server.storage.tables import Store
from rebelote.server.storage.tournaments import (
    StoredEntrant,
    StoredPairing,
    StoredTournament,
    TournamentStore,
)
from rebelote.server.tables.registry import TableManager
from rebelote.server.tournaments.pairing import (
    SEATS,
    Entrant,
    History,
    TablePairing,
    arena_wave,
    swiss_round,
)
from rebelote.server.tournaments.standings import Bye, Game, Kind, Standing, standings

__all__ = [
    "LONELY_SECONDS",
    "LOST_TABLE_SECONDS",
    "MIN_ENTRANTS",
    "TABLE_OPTIONS",
    "TICK_SECONDS",
    "TournamentRunner",
    "channel",
    "iso",
    "outcome",
]

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0
"""How often each process looks at the tournaments."""

MIN_ENTRANTS = 2
"""A tournament starts with that many entrants at least, else it is
cancelled at its start time."""

LONELY_SECONDS = 20.0
"""An arena entrant left waiting alone that long plays with three computers."""

LOST_TABLE_SECONDS = 120.0
"""A round's table not made (its process died) or not started after that
long counts for nobody."""

TABLE_OPTIONS = TableOptions(move_clock=60.0, leave_after=300.0)
"""The options of a tournament's tables: a minute per decision (then a
computer stands in), and away five minutes a player has left (a loss)."""

FAILURE_LOG_SECONDS = 60.0
"""A database out of reach is logged at most once in so many seconds."""

ACTIVE = ("open", "running")


def channel(tournament_id: int) -> str:
    """The broker's channel of a tournament's live pages (a name no table
    id can take: ids have 12 characters)."""
    return f"tournament-{tournament_id}"


def heading(t: Any) -> dict[str, Any]:
    """What every answer about tournament ``t`` starts with: ``id``,
    ``name``, ``kind``, ``status``, ``starts_at``, ``ends_at`` (ISO 8601 or
    ``None``), ``round``, ``rounds``, ``minutes``."""
    return {
        "id": t.id,
        "name": t.name,
        "kind": t.kind,
        "status": t.status,
        "starts_at": iso(t.starts_at),
        "ends_at": iso(t.ends_at),
        "round": t.round,
        "rounds": t.rounds,
        "minutes": t.minutes,
    }


def iso(at: float | None) -> str | None:
    """Unix seconds as an ISO 8601 UTC text (``2026-12-07T20:00:00Z``)."""
    if at is None:
        return None
    return datetime.fromtimestamp(at, UTC).isoformat().replace("+00:00", "Z")


def _table(pairing: StoredPairing) -> TablePairing:
    return TablePairing({s: pairing.seats.get(s) for s in SEATS})


def outcome(pairing: StoredPairing, lines: Sequence[ResultLine]) -> tuple[int, list[Entrant]]:
    """The winning partnership (0: N-S, 1: W-E) and the entrants who left,
    from the result lines of a table's match (an entrant without a line at
    a closed table left it)."""
    table = _table(pairing)
    side = {e: i for i, team in enumerate(table.teams) for e in team}
    mine = {line.user_id: line for line in lines if line.user_id in side}
    left = sorted(e for e in side if e not in mine or mine[e].left)
    stayed = [(e, line) for e, line in mine.items() if not line.left]
    winner = next((side[e] for e, line in stayed if line.won), None)
    if winner is None and stayed:
        winner = 1 - side[stayed[0][0]]
    if winner is None:
        winner = 1 - side[table.entrants[0]]
    return winner, left


def results(
    pairings: Sequence[StoredPairing],
) -> tuple[list[Game], list[Bye], History]:
    """The scored games, the byes and the meetings of a tournament's rows."""
    games = []
    byes = []
    tables = []
    for p in pairings:
        if p.bye:
            entrant = next(e for e in p.seats.values() if e is not None)
            byes.append(Bye(p.round, entrant))
            continue
        table = _table(p)
        tables.append(table)
        if p.done:
            games.append(Game(p.round, table.teams, p.winner, p.left))
    return games, byes, History.of(tables, [b.entrant for b in byes])


class TournamentRunner:
    """Runs every tournament of ``store`` (see the module's docstring),
    opening the tables with ``manager`` and pushing changes through
    ``broker``.  ``clock``: Unix seconds (tests)."""

    def __init__(
        self,
        store: Store,
        manager: TableManager,
        broker: Broker,
        *,
        tick: float = TICK_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.db = TournamentStore(store)
        self.manager = manager
        self.broker = broker
        self.tick_seconds = tick
        self.clock = clock
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start looking every ``tick`` seconds."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        """Stop looking."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        logged = -FAILURE_LOG_SECONDS
        while True:
            try:
                await self.tick()
            except SQLAlchemyError as exc:  # the database is down: said once a minute
                if time.monotonic() - logged >= FAILURE_LOG_SECONDS:
                    logged = time.monotonic()
                    log.warning("tournaments: the database failed: %s", type(exc).__name__)
            except Exception:
                log.exception("tournaments: a look failed")
            await asyncio.sleep(self.tick_seconds)

    async def tick(self) -> None:
        """Move every open or running tournament on, once."""
        for tournament in await asyncio.to_thread(self.db.all, ACTIVE):
            try:
                await self._advance(tournament)
            except SQLAlchemyError:
                raise
            except Exception:
                log.exception("tournament %s: could not move on", tournament.id)

    # ------------------------------------------------------------ lifecycle

    async def _advance(self, t: StoredTournament) -> None:
        now = self.clock()
        if t.status == "open":
            if now < t.starts_at:
                return
            entrants = await asyncio.to_thread(self.db.entrants, t.id)
            if len(entrants) < MIN_ENTRANTS:
                done = await asyncio.to_thread(
                    self.db.set_status, t.id, was=["open"], status="cancelled", now=now
                )
                if done:
                    await self.publish(t.id)
                return
            await self._pair(t, entrants, [], now)
            return
        pairings = await asyncio.to_thread(self.db.pairings, t.id)
        changed = await self._score(pairings, now)
        if changed:
            pairings = await asyncio.to_thread(self.db.pairings, t.id)
        entrants = await asyncio.to_thread(self.db.entrants, t.id)
        if t.kind == "swiss":
            if all(p.done for p in pairings if p.round == t.round):
                if t.round >= (t.rounds or 1):
                    changed = await self._finish(t, now) or changed
                elif await self._pair(t, entrants, pairings, now):
                    return
        else:
            pending = [p for p in pairings if not p.done]
            ends = t.ends_at or t.starts_at
            if now < ends:
                if await self._pair(t, entrants, pairings, now):
                    return
            elif not pending:
                changed = await self._finish(t, now) or changed
        if changed:
            await self.publish(t.id)

    async def _finish(self, t: StoredTournament, now: float) -> bool:
        return await asyncio.to_thread(
            self.db.set_status, t.id, was=["running"], status="finished", now=now
        )

    async def _score(self, pairings: Sequence[StoredPairing], now: float) -> bool:
        """Score the tables whose match is over; whether any was."""
        pending = [p for p in pairings if not p.done]
        if not pending:
            return False
        ids = [p.table_id for p in pending if p.table_id is not None]
        statuses = await asyncio.to_thread(self.db.table_statuses, ids)
        changed = False
        for p in pending:
            status = statuses.get(p.table_id or "")
            if status is None or status == "open":
                if now - p.made > LOST_TABLE_SECONDS:
                    changed |= await asyncio.to_thread(
                        self.db.finish_table, p.id, winner=None, left=[], now=now
                    )
                continue
            assert p.table_id is not None
            lines = await asyncio.to_thread(self.store.results_of_match, p.table_id, 1)
            entrants = set(_table(p).entrants)
            seen = {line.user_id for line in lines if line.user_id in entrants}
            if seen != entrants and status != "closed":
                continue
            winner, left = outcome(p, lines)
            changed |= await asyncio.to_thread(
                self.db.finish_table, p.id, winner=winner, left=left, now=now
            )
        return changed

    def _ranked(
        self,
        t: StoredTournament,
        entrants: Sequence[StoredEntrant],
        pairings: Sequence[StoredPairing],
    ) -> tuple[list[Entrant], History]:
        """The entrants best first (points, tie-break, then rating, then
        who joined first) and who met whom."""
        games, byes, history = results(pairings)
        names = {e.user_id: e.name for e in entrants}
        lines = {s.entrant: s for s in standings(_kind(t), names, games, byes)}
        joined = {e.user_id: i for i, e in enumerate(entrants)}
        rating = {}
        for e in entrants:
            user = self.store.user(e.user_id)
            rating[e.user_id] = 0.0 if user is None else user.mu
        order = sorted(
            names,
            key=lambda e: (-lines[e].points, -lines[e].tiebreak, -rating[e], joined[e]),
        )
        return order, history

    async def _pair(
        self,
        t: StoredTournament,
        entrants: Sequence[StoredEntrant],
        pairings: Sequence[StoredPairing],
        now: float,
    ) -> bool:
        """Pair the next round (Swiss) or the entrants waiting (arena) and
        open their tables; whether this process did."""
        busy = {e for p in pairings if not p.done for e in _table(p).entrants}
        if t.kind == "arena" and all(e.user_id in busy for e in entrants):
            return False  # nobody waiting
        ranked, history = await asyncio.to_thread(self._ranked, t, entrants, pairings)
        rows: list[tuple[dict[str, int | None], bool]]
        if t.kind == "swiss":
            paired = swiss_round(ranked, history)
            rows = [(dict(table.seats), False) for table in paired.tables]
            rows += [({"N": b, "W": None, "S": None, "E": None}, True) for b in paired.byes]
        else:
            waiting = [e for e in ranked if e not in busy]
            if not waiting:
                return False
            last_done: dict[Entrant, float] = {}
            for p in pairings:
                for e in _table(p).entrants:
                    last_done[e] = max(last_done.get(e, 0.0), p.done_at or 0.0)
            lonely = any(
                now - max(t.starts_at, last_done.get(e, 0.0)) >= LONELY_SECONDS for e in waiting
            )
            paired = arena_wave(waiting, history, lonely=lonely)
            if not paired.tables:
                return False
            rows = [(dict(table.seats), False) for table in paired.tables]
        made = await asyncio.to_thread(
            self.db.start_round, t.id, was_round=t.round, was_status=t.status, tables=rows, now=now
        )
        if made is None:
            return False
        names = {e.user_id: e.name for e in entrants}
        for p in made:
            if not p.bye:
                try:
                    await self._open(t, p, names)
                except (ProtocolError, BrokerUnavailable) as exc:
                    log.warning("tournament %s: table %s not opened: %s", t.id, p.number, exc)
        await self.publish(t.id)
        return True

    async def _open(self, t: StoredTournament, p: StoredPairing, names: dict[int, str]) -> None:
        """Open, seat and start the lobby table of ``p``."""
        letters = [s for s in SEATS if p.seats.get(s) is not None]
        host = letters[0]
        host_id = p.seats[host]
        assert host_id is not None
        label = f"{t.name} · {p.round}.{p.number}" if t.kind == "swiss" else t.name
        room, _ = await self.manager.open_table(
            name=label[:60],
            preset=t.preset,
            target=t.target,
            visibility="public",
            ranked=False,
            seat=host,
            options=TABLE_OPTIONS,
            user_id=host_id,
            user_name=names.get(host_id, "?"),
        )
        await asyncio.to_thread(self.db.set_table, p.id, room.id)
        for letter in letters[1:]:
            user_id = p.seats[letter]
            assert user_id is not None
            await room.join(letter, user_id=user_id, name=names.get(user_id, "?"), guest=False)
        for letter in SEATS:
            if p.seats.get(letter) is None:
                await room.set_bot(Seat[host], letter, t.level)
        await room.start(Seat[host])

    # ----------------------------------------------------------------- views

    def view(self, tournament_id: int) -> dict[str, Any] | None:
        """The tournament as ``GET /api/tournaments/{id}`` answers it, or
        ``None`` (synchronous: call it in a thread)."""
        t = self.db.get(tournament_id)
        if t is None:
            return None
        entrants = self.db.entrants(t.id)
        pairings = self.db.pairings(t.id)
        names = {e.user_id: e.name for e in entrants}
        games, byes, _ = results(pairings)
        lines = standings(_kind(t), names, games, byes)
        return {
            **heading(t),
            "preset": t.preset,
            "target": t.target,
            "level": t.level,
            "entrants": [e.name for e in entrants],
            "standings": [_standing(s) for s in lines],
            "tables": [
                {
                    "round": p.round,
                    "number": p.number,
                    "table": p.table_id,
                    "seats": [_name(names, p.seats.get(s)) for s in SEATS],
                    "done": p.done,
                    "winner": p.winner,
                }
                for p in pairings
                if not p.bye
            ],
            "byes": [{"round": b.order, "name": names.get(b.entrant, "?")} for b in byes],
        }

    async def publish(self, tournament_id: int) -> None:
        """Push the tournament's view to its pages in every process (best
        effort: a page that missed it reads it again when it reconnects)."""
        view = await asyncio.to_thread(self.view, tournament_id)
        if view is None:
            return
        text = json.dumps({"t": "tournament", "d": view}, ensure_ascii=False)
        try:
            await self.broker.broadcast(channel(tournament_id), text)
        except BrokerUnavailable as exc:
            log.warning("tournament %s: not pushed: %s", tournament_id, exc)


def _kind(t: StoredTournament) -> Kind:
    return "arena" if t.kind == "arena" else "swiss"


def _name(names: dict[int, str], entrant: int | None) -> str | None:
    return None if entrant is None else names.get(entrant, "?")


def _standing(s: Standing) -> dict[str, Any]:
    return {
        "rank": s.rank,
        "name": s.name,
        "points": s.points,
        "played": s.played,
        "tiebreak": s.tiebreak,
    }
