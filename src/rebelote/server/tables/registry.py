"""The registry of live tables: creates tables, finds them by id or token,
and rebuilds them from storage.

A server holds many tables (ids from ``secrets.token_urlsafe``, one secret
token per human seat); ``rebelote play`` simply opens one (a ``solo`` table:
the player at South, computer players elsewhere); the lobby opens tables that
wait for their players (:meth:`TableManager.open_table`).

Tables are loaded on first use (:meth:`TableManager.get`) by replaying
their event log (which refills each seat's stream buffer, so that clients
resume with their last version).  At start,
:meth:`TableManager.restore_unfinished` rebuilds only the lobby's tables
whose match is on (their clocks and stand-ins must run with nobody
connected); a single player's table waits until its player comes back.  A
table nobody used for ``settings.idle_table_seconds``, with no connection
and nothing running (computer player, clock), leaves memory
(:meth:`TableManager.evict_idle`, every ``settings.sweep_seconds``): it is
stored, and loaded again when asked for.

Several processes (``docs/scale-out.md``): each table is driven by the
process holding its lease (:class:`~rebelote.server.broker.base.Lease`).
:meth:`TableManager.get` answers the local :class:`Room` of a table this
process drives; a table nobody drives is taken (lease, then rebuilt from
the log); a table another process drives is answered as a
:class:`~rebelote.server.tables.relay.RemoteRoom`.  Changes go through
:meth:`TableManager.command`, run here or on the driver
(:mod:`rebelote.server.tables.commands`).  The tables in memory are the
broker's *live* tables; a sweeper (every ``settings.takeover_seconds``)
takes the live tables whose driver died (their lease expired) and rebuilds
them: computer players and clocks go on, and the listeners of every
process get what follows.  A process that loses a lease drops the table at
once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import time
from collections.abc import AsyncIterator, Coroutine
from typing import Any

from rebelote.rules import PRESETS, Rules
from rebelote.seats import Seat, seats_of
from rebelote.server.broker.base import (
    Broker,
    BrokerUnavailable,
    CommandError,
    Lease,
    NoOwner,
    OwnerGone,
)
from rebelote.server.broker.hub import BUFFER_SIZE, MemoryHub, StreamKey
from rebelote.server.broker.memory import MemoryBroker
from rebelote.server.people.chat import ChatLimiter
from rebelote.server.protocol.messages import CreatedTable, CreateTable, ProtocolError, TableOptions
from rebelote.server.settings import ServerSettings
from rebelote.server.storage.tables import Store, StoredSeat, StoredTable, TableMeta, hash_token
from rebelote.server.tables.commands import run_command
from rebelote.server.tables.game import SeatSpec, TableGame, derive_seed
from rebelote.server.tables.lobby import LobbyHub
from rebelote.server.tables.relay import RemoteRoom
from rebelote.server.tables.room import Room
from rebelote.server.tables.table import MOVED, game_from_stored, stored_event

__all__ = ["COMMAND_PATIENCE", "HUMAN_SEAT", "AnyRoom", "TableManager", "ws_path"]

AnyRoom = Room | RemoteRoom
"""A table as :meth:`TableManager.get` answers it: driven here, or by
another process."""

COMMAND_PATIENCE = 12.0
"""Seconds a command waits, at most, for a table whose driver died to be
taken over (its lease expires, then a process rebuilds it) before it is
refused ``unavailable``."""

TAKEOVER_BATCH = 8
"""Orphaned tables one process rebuilds at once (their logs read in
threads meanwhile)."""

CALL_TIMEOUT = 5.0
"""Seconds a command waits for the answer of a driver in another process
(a live one: a dead one is known at once, nobody listening on its
channel, and one that dies meanwhile as soon as its lease expires or
moves) before it is sent again (an action's id makes that safe)."""

PRESENCE_RECHECK = 0.5
"""Seconds after a table is rebuilt before its presence is read again."""

LIVE_CHECK_SWEEPS = 5
"""Every so many takeover sweeps, a process puts back in the live set the
tables it drives that are missing there (:meth:`TableManager.mark_live`)."""

GONE_LOG_SECONDS = 5.0
"""A table's unanswering driver is logged at most once in so many seconds
(its requests are tried again every :data:`_RETRY_PAUSE` s)."""

_RETRY_PAUSE = 0.1
"""Seconds between two tries to reach a table's driver."""


class _Missing(Exception):
    """No such table (nothing stored under that id)."""


log = logging.getLogger(__name__)

HUMAN_SEAT = Seat.S
"""Where the player sits: South (the bottom of the screen)."""

SEAT_NAMES = {Seat.N: "North", Seat.W: "West", Seat.S: "South", Seat.E: "East"}

_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def ws_path(table_id: str) -> str:
    """The WebSocket path of a table (add ``?token=...``)."""
    return f"/ws/{table_id}"


class TableManager:
    """Every table this server process drives.  ``broker``: how the
    processes share the tables (a :class:`MemoryHub` is wrapped in a
    :class:`MemoryBroker`: one process); ``bot_delay`` (seconds)
    overrides each table's speed when given; ``seed``, when given, makes the
    tables' seeds (shuffles, computer decisions) reproducible: the n-th table
    created gets the same deals on every run (for tests); ``settings``:
    idle tables' eviction, spectators' batching, the takeover sweep.

    The manager serves the broker's commands, and is told of lost leases
    and of presence changes."""

    def __init__(
        self,
        store: Store,
        broker: Broker | MemoryHub,
        *,
        bot_delay: float | None = None,
        seed: int | None = None,
        settings: ServerSettings | None = None,
    ) -> None:
        self.store = store
        self.broker: Broker = MemoryBroker(broker) if isinstance(broker, MemoryHub) else broker
        self.shared = not isinstance(self.broker, MemoryBroker)
        """Whether other processes may drive tables (a Redis broker)."""
        self.broker.serve(self._handle)
        self.broker.watch_leases(self._lease_lost)
        self.broker.watch_presence(self._presence_changed)
        self.bot_delay = bot_delay
        self.seed = seed
        self.settings = settings or ServerSettings()
        self._created = 0
        self._tables: dict[str, Room] = {}
        self._used: dict[str, float] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        """One lock per table being taken (a load, or a takeover)."""
        self.lobby_hub = LobbyHub(
            self.broker,
            load_listed=None if self.shared else self.lobby,
            load_table=None if self.shared else self._get_here,
        )
        """The lobby (:mod:`rebelote.server.tables.lobby`), told of every
        change of a room.  One process (the in-process broker) holds every
        table: the lobby loads the stored ones it needs; several processes
        drive every open or playing table somewhere, whose entries are in
        the broker."""
        self.chat_limiter: ChatLimiter | None = None
        """The chat's rate limit every table shares (Redis), else each
        room's own."""
        self._sweeper: asyncio.Task[None] | None = None
        self._taker: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._gone_logged: dict[str, float] = {}
        """When each table's unanswering driver was last logged (monotonic)."""
        self.evicted = 0
        """Tables that left memory since the start (for tests and metrics)."""
        self.takeovers: list[tuple[str, float]] = []
        """The tables this process took over (driven before by another
        process, or by this one before it let them go), with the time
        (``time.time()``) each was ready (for tests and metrics; with
        several processes only)."""

    def _table(
        self,
        game: TableGame,
        seats: tuple[StoredSeat, ...],
        meta: TableMeta | None = None,
        *,
        closed: bool = False,
        lease: Lease | None = None,
    ) -> Room:
        room = Room(
            game,
            store=self.store,
            broker=self.broker,
            seats={Seat[s.seat]: s for s in seats},
            meta=meta,
            bot_delay=self.bot_delay,
            closed=closed,
            lease=lease,
        )
        room.on_lost = self._lease_lost
        room.on_room = self.lobby_hub.room_changed
        if self.chat_limiter is not None:
            room.limiter = self.chat_limiter
        room.presence_interval = self.settings.presence_interval
        room.deserted_after = self.settings.deserted_table_seconds
        return room

    def _keep(self, table: Room) -> None:
        self._tables[table.id] = table
        self._used[table.id] = time.monotonic()

    async def _lease(self, table_id: str) -> Lease:
        """The lease of a new table (nobody else can hold it)."""
        lease = await self.broker.acquire(table_id)
        if lease is None:  # pragma: no cover - ids are random
            raise ProtocolError("internal", "a new table's id is taken")
        return lease

    async def _mark_live(self, table_id: str, live: bool) -> None:
        """Add or remove a table in the broker's live set (best effort: the
        sweeper only needs it when a driver dies)."""
        try:
            if live:
                await self.broker.add_live(table_id)
            else:
                await self.broker.remove_live(table_id)
        except BrokerUnavailable as exc:
            log.warning("table %s: live set not updated: %s", table_id, exc)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in a task of the manager's (cancelled at close;
        failures logged)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self._tasks.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.warning("a table task failed: %s", t.exception())

        task.add_done_callback(done)

    def _seed(self) -> int:
        self._created += 1
        if self.seed is None:
            return secrets.randbits(62)
        return derive_seed(self.seed, "table", self._created)

    @staticmethod
    def _rules(preset: str, target: int | None) -> Rules:
        base = PRESETS.get(preset)
        if base is None:
            known = ", ".join(PRESETS)
            raise ProtocolError("bad_request", f"unknown preset {preset!r}: use {known}")
        return base if target is None else base.replace(target=target)

    @classmethod
    def check_open(cls, preset: str, target: int | None, seat: str) -> Rules:
        """The rules of a lobby table :meth:`open_table` would make with
        ``preset``, ``target`` and its host at ``seat``, checked without
        touching anything (no storage, no state), so that a request can be
        refused before it is counted against any limit.  Raises
        :class:`ProtocolError` ``bad_request`` (an unknown preset, a seat
        the table does not have)."""
        rules = cls._rules(preset, target)
        order = seats_of(rules.players)
        if seat not in {s.letter for s in order}:
            raise ProtocolError("bad_request", f"no seat {seat} at a {rules.players}-player table")
        return rules

    @classmethod
    def check_create(cls, request: CreateTable) -> Rules:
        """The rules of the solo table :meth:`create` would make for
        ``request``, checked without touching anything (as
        :meth:`check_open`).  Raises :class:`ProtocolError` ``bad_request``
        (an unknown preset, a level for a seat the table does not have)."""
        rules = cls._rules(request.preset, request.target)
        order = seats_of(rules.players)
        others = {s.letter for s in order if s != HUMAN_SEAT}
        extra = set(request.levels) - others
        if extra:
            raise ProtocolError(
                "bad_request",
                f"no computer seat {', '.join(sorted(extra))} at a {rules.players}-player table",
            )
        return rules

    async def open_table(
        self,
        *,
        name: str,
        preset: str,
        target: int | None,
        visibility: str,
        ranked: bool,
        seat: str,
        options: TableOptions,
        user_id: int,
        user_name: str,
        user_guest: bool = False,
        outside_bot: bool = False,
    ) -> tuple[Room, str]:
        """A lobby table waiting for its players, with its creator (the
        host) at ``seat`` (``outside_bot``: an outside program, with a bot
        token); returns the table and the host's token.  Raises
        :class:`ProtocolError` ``bad_request`` (:meth:`check_open`)."""
        rules = self.check_open(preset, target, seat)
        order = seats_of(rules.players)
        token = secrets.token_urlsafe(24)
        table_id = secrets.token_urlsafe(9)
        meta = TableMeta(
            name=name,
            visibility=visibility,
            ranked=ranked,
            host=seat,
            invite=secrets.token_urlsafe(12) if visibility == "private" else None,
        )
        seats = tuple(
            StoredSeat(
                s.letter,
                "human",
                user_name,
                None,
                hash_token(token),
                user_id,
                guest=user_guest,
                outside_bot=outside_bot,
            )
            if s.letter == seat
            else StoredSeat(s.letter, "open", "", None, None)
            for s in order
        )
        specs = {
            Seat[r.seat]: SeatSpec(
                Seat[r.seat],
                "human" if r.kind == "human" else "open",
                r.name,
                guest=r.guest,
                outside_bot=r.outside_bot,
            )
            for r in seats
        }
        game = TableGame(table_id, rules, options, self._seed(), specs, timed=True)
        game.fresh_secrets = self.seed is None
        lease = await self._lease(table_id)
        await asyncio.to_thread(
            self.store.create_table,
            table_id=table_id,
            rules=rules.to_record(),
            options=options.model_dump(mode="json"),
            seed=game.seed,
            seats=seats,
            events=[],
            status="open",
            meta=meta,
        )
        table = self._table(game, seats, meta, lease=lease)
        table.deserted_clock()  # until its host's page connects
        self._keep(table)
        await self._mark_live(table_id, True)
        self.lobby_hub.room_changed(table)
        return table, token

    async def lobby(self) -> list[AnyRoom]:
        """The public tables not finished: open ones first."""
        ids = await asyncio.to_thread(self.store.lobby)
        tables = []
        for table_id in ids:
            table = await self.get(table_id)
            if table is not None:
                tables.append(table)
        return tables

    def live_tables(self) -> list[Room]:
        """The tables this process holds now (loaded or created)."""
        return list(self._tables.values())

    async def create(
        self, request: CreateTable, *, user_id: int | None = None, seed: int | None = None
    ) -> CreatedTable:
        """A new table with the player at South and computers elsewhere.

        Raises :class:`ProtocolError` (``bad_request``) for an unknown preset
        or a level for a seat that is not at the table.  ``user_id``: the
        logged-in player, if any (for his history).  ``seed``: the table's
        seed, every deal's seed and salt derived from it (the daily deal:
        every table of the day deals the same packs,
        :mod:`rebelote.server.tables.daily`); default: a new one."""
        rules = self.check_create(request)
        order = seats_of(rules.players)
        others = [s for s in order if s != HUMAN_SEAT]
        token = secrets.token_urlsafe(24)
        table_id = secrets.token_urlsafe(9)
        given = seed is not None
        seed = seed if seed is not None else self._seed()
        specs = {HUMAN_SEAT: SeatSpec(HUMAN_SEAT, "human", request.name.strip() or "You")}
        for s in others:
            specs[s] = SeatSpec(s, "bot", SEAT_NAMES[s], request.levels.get(s.letter, "beginner"))
        game = TableGame(table_id, rules, request.options, seed, specs)
        game.fresh_secrets = self.seed is None and not given
        lease = await self._lease(table_id)
        entries = game.start_entries()
        outs = []
        stored = []
        for i, entry in enumerate(entries):
            outs += game.apply(entry)
            stored.append(stored_event(entry, i, game.deal_number))
        seats = tuple(
            StoredSeat(
                s.letter,
                specs[s].kind,
                specs[s].name,
                specs[s].level,
                hash_token(token) if s == HUMAN_SEAT else None,
                user_id if s == HUMAN_SEAT else None,
            )
            for s in order
        )
        await asyncio.to_thread(
            self.store.create_table,
            table_id=table_id,
            rules=rules.to_record(),
            options=request.options.model_dump(mode="json"),
            seed=seed,
            seats=seats,
            events=stored,
            status=game.status,
        )
        table = self._table(game, seats, lease=lease)
        self._keep(table)
        await self._mark_live(table_id, True)
        async with table.lock:
            await table.publish(outs)
            table.kick()
        return CreatedTable(
            table_id=table_id,
            seat=HUMAN_SEAT.letter,
            token=token,
            ws_url=f"{ws_path(table_id)}?token={token}",
        )

    async def get(self, table_id: str) -> AnyRoom | None:
        """The table ``table_id``: the local :class:`Room` when this process
        drives it (taking it, rebuilt from storage, when nobody does), a
        :class:`RemoteRoom` when another process does, or ``None`` when
        there is no such table (an id that no table can have, not 1 to 32
        of ``A-Z a-z 0-9 _ -``, is not looked up).  Raises
        :class:`ProtocolError` ``unavailable`` when the table's driver
        cannot be reached (Redis down, or a dead driver not yet replaced
        after :data:`COMMAND_PATIENCE` seconds)."""
        table = self._tables.get(table_id)
        if table is not None:
            self._used[table_id] = time.monotonic()
            return table
        if not _TABLE_ID.fullmatch(table_id):
            return None
        try:
            view = await self.command(table_id, "view", {})
        except _Missing:
            return None
        table = self._tables.get(table_id)
        if table is not None:
            self._used[table_id] = time.monotonic()
            return table
        return RemoteRoom(self, table_id, view)

    def driven(self, table_id: str) -> Room | None:
        """The table ``table_id`` if this process drives it now (no round
        trip), else ``None``."""
        table = self._tables.get(table_id)
        if table is None or not table.driving():
            return None
        return table

    async def command(self, table_id: str, op: str, args: dict[str, Any]) -> Any:
        """Run command ``op`` (:mod:`rebelote.server.tables.commands`) on
        ``table_id``'s driver: here when this process drives it, else
        through the broker; a table nobody drives is taken first (lease,
        rebuilt from the log); while a dead driver's lease runs out, tried
        again every :data:`_RETRY_PAUSE` s.  Raises :class:`ProtocolError`
        (the driver's refusal, same code and message; ``unavailable`` when
        no driver answers within :data:`COMMAND_PATIENCE` s or Redis is out
        of reach) and ``_Missing`` (no such table)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + COMMAND_PATIENCE
        while True:
            try:
                table = self.driven(table_id)
                if table is not None:
                    self._used[table_id] = time.monotonic()
                    return await run_command(table, op, args)
                if table_id not in self._tables:
                    return await self.broker.call(table_id, op, args, timeout=CALL_TIMEOUT)
            except ProtocolError as exc:
                if exc.code != MOVED:
                    raise
            except CommandError as exc:
                if exc.code != MOVED:
                    raise ProtocolError(exc.code, exc.message, **exc.extra) from None
            except NoOwner:
                if await self._take(table_id) is None:
                    raise _Missing(table_id) from None
                continue
            except OwnerGone as exc:
                self._log_gone(table_id, exc)
                # the driver may have applied it: the next try says so
                args = {**args, "retried": True}
            except BrokerUnavailable as exc:
                log.warning("table %s: %s", table_id, exc)
                raise ProtocolError(
                    "unavailable", "the server cannot reach the table; try again"
                ) from None
            if loop.time() > deadline:
                raise ProtocolError("unavailable", "the table's server does not answer; try again")
            await asyncio.sleep(_RETRY_PAUSE)

    def _log_gone(self, table_id: str, exc: OwnerGone) -> None:
        """Log that ``table_id``'s driver did not answer: a call left
        unanswered for its whole timeout as a warning; the rest (a dead
        driver not yet replaced, tried again every :data:`_RETRY_PAUSE` s)
        once per table every :data:`GONE_LOG_SECONDS` s."""
        if exc.reason.startswith("no reply within"):
            log.warning("table %s: %s", table_id, exc)
            return
        now = time.monotonic()
        if now - self._gone_logged.get(table_id, -GONE_LOG_SECONDS) < GONE_LOG_SECONDS:
            return
        if len(self._gone_logged) > 1000:
            self._gone_logged = {
                t: at for t, at in self._gone_logged.items() if now - at < GONE_LOG_SECONDS
            }
        self._gone_logged[table_id] = now
        log.info("table %s: %s (retrying)", table_id, exc)

    async def _handle(self, table_id: str, op: str, args: dict[str, Any]) -> Any:
        """The broker's handler: run a command of another process on a
        table this process drives (``moved`` when it no longer does)."""
        table = self.driven(table_id)
        if table is None:
            async with self._load_lock(table_id):  # a takeover under way
                table = self.driven(table_id)
        if table is None:
            raise CommandError(MOVED, f"this process does not drive table {table_id}")
        self._used[table_id] = time.monotonic()
        try:
            return await run_command(table, op, args)
        except ProtocolError as exc:
            raise CommandError(exc.code, exc.message, exc.extra) from None

    @contextlib.asynccontextmanager
    async def _load_lock(self, table_id: str) -> AsyncIterator[None]:
        """Hold ``table_id``'s loading lock (one load of a table at a time;
        other tables load meanwhile)."""
        lock = self._loading.get(table_id)
        if lock is None:
            lock = self._loading[table_id] = asyncio.Lock()
        try:
            async with lock:
                yield
        finally:
            if not lock.locked() and self._loading.get(table_id) is lock:
                del self._loading[table_id]

    async def _take(self, table_id: str) -> Room | bool | None:
        """Drive ``table_id``: acquire its lease and rebuild it from the
        log.  Returns the table, ``None`` when nothing is stored under
        that id (the lease given back), ``False`` when another process
        holds the lease."""
        async with self._load_lock(table_id):
            table = self._tables.get(table_id)
            if table is not None:
                return table
            lease = await self.broker.acquire(table_id)
            if lease is None:
                return False
            try:
                table = await self._load(table_id, lease)
            except BaseException:
                with contextlib.suppress(BrokerUnavailable):
                    await self.broker.release(lease)
                raise
            if table is None:
                with contextlib.suppress(BrokerUnavailable):
                    await self.broker.release(lease)
            elif self.shared and lease.fence > 1:
                # driven before: by a process that died, stopped or let it go
                self.takeovers.append((table_id, time.time()))
                log.warning("table %s taken over (lease fence %d)", table_id, lease.fence)
            return table

    async def _load(self, table_id: str, lease: Lease) -> Room | None:
        """Rebuild ``table_id`` from its log and drive it under ``lease``
        (call under its :meth:`_load_lock`): the messages its streams do not keep yet
        are published (a dead driver's last ones), the presence of every
        process's sockets is read, the computer players and clocks start.
        ``None`` when nothing is stored under that id."""
        stored: StoredTable | None = await asyncio.to_thread(self.store.load, table_id)
        if stored is None:
            return None
        # in a thread: a long log's replay must not hold the event loop (the
        # lease heartbeat, the other tables)
        game, outs = await asyncio.to_thread(game_from_stored, stored)
        # a set of deals fixed by the table's seed (the daily deal) stays so
        game.fresh_secrets = self.seed is None and game.options.deals is None
        meta = stored.meta
        if meta.host == "":
            meta = TableMeta(meta.name, meta.visibility, meta.ranked, None, meta.invite)
        closed = stored.status == "closed"
        table = self._table(game, stored.seats, meta, closed=closed, lease=lease)
        # nobody was connected for long (evicted when idle, or a restart)
        table.deserted_clock(already=True)
        table.remember_actions(stored.events)
        if table.networked:
            table.load_mutes(await asyncio.to_thread(self.store.mutes, table_id))
        kept: dict[StreamKey, int] = {}
        counts: dict[StreamKey, int] = {}
        if self.shared:
            with contextlib.suppress(BrokerUnavailable):
                kept = await self.broker.last_versions(table_id)
            with contextlib.suppress(BrokerUnavailable):
                counts = await self.broker.presence(table_id)
        else:
            await self.broker.forget(table_id)
        self._keep(table)
        async with table.lock:
            await table.publish(outs[-BUFFER_SIZE:], above=kept)
            table.set_presence(counts)
            table.stand_in_again()
            table.kick()
            # every human's seat with nobody connected is held
            table.hold_absent()
        if not closed:
            await self._mark_live(table_id, True)
        if self.shared:
            # a presence change told while the table was loading was lost:
            # read it once more a moment later
            self.spawn(self._presence_again(table_id))
        self.lobby_hub.room_changed(table)
        return table

    async def _get_here(self, table_id: str) -> Room | None:
        """:meth:`get` for one process (where every table is a :class:`Room`)."""
        table = await self.get(table_id)
        return table if isinstance(table, Room) else None

    async def _presence_again(self, table_id: str) -> None:
        await asyncio.sleep(PRESENCE_RECHECK)
        table = self.driven(table_id)
        if table is not None:
            with contextlib.suppress(BrokerUnavailable):
                table.set_presence(await self.broker.presence(table_id))

    async def restore_unfinished(self) -> list[str]:
        """Rebuild the lobby's tables whose match is on (public or private,
        status ``playing``) and that no process drives, from their logs,
        and restart their computer players and clocks; returns their ids.
        Other tables are loaded when asked for (:meth:`get`).  A table whose
        log cannot be replayed is logged and skipped."""
        ids = await asyncio.to_thread(self.store.unfinished, networked=True)
        restored = []
        for table_id in ids:
            try:
                if await self.broker.owner_of(table_id) is not None:
                    continue  # driven by another process
                if isinstance(await self._take(table_id), Room):
                    restored.append(table_id)
            except Exception:
                log.exception("table %s cannot be restored", table_id)
        return restored

    async def current(self, token: str) -> CreatedTable | None:
        """The unfinished table where ``token`` holds a seat, or ``None``."""
        found = await asyncio.to_thread(self.store.seat_of_token, hash_token(token))
        if found is None or found[2] != "playing":
            return None
        table_id, seat, _ = found
        return CreatedTable(
            table_id=table_id, seat=seat, token=token, ws_url=f"{ws_path(table_id)}?token={token}"
        )

    async def guest_upgraded(self, user_id: int, name: str) -> None:
        """The guest ``user_id`` now has an account named ``name`` (the
        store already says so): the live tables where he sits show his
        new name, unmarked, and tell their listeners (those driven by
        other processes too)."""
        for table in list(self._tables.values()):
            await table.guest_upgraded(user_id, name)
        if not self.shared:
            return
        rows = await asyncio.to_thread(self.store.tables_of_user, user_id)
        for table_id, _seat, status in rows:
            if table_id in self._tables or status == "closed":
                continue
            try:
                if await self.broker.owner_of(table_id) is not None:
                    await self.command(
                        table_id, "guest_upgraded", {"user_id": user_id, "name": name}
                    )
            except (ProtocolError, _Missing, BrokerUnavailable) as exc:
                log.warning("table %s: guest's new name not told: %s", table_id, exc)

    def live(self) -> int:
        """How many tables are in memory."""
        return len(self._tables)

    @staticmethod
    def _idle(table: Room) -> bool:
        """Whether ``table`` may leave memory: nobody connected, no driver,
        clock or task running, not locked."""
        return not any(table.connections.values()) and not table.busy() and not table.lock.locked()

    async def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop from memory every table unused for
        ``settings.idle_table_seconds`` (as of ``now``, monotonic seconds)
        and idle; returns their ids.  They stay stored; :meth:`get` loads
        them again."""
        now = time.monotonic() if now is None else now
        limit = self.settings.idle_table_seconds
        gone = [
            table
            for table_id, table in self._tables.items()
            if now - self._used.get(table_id, now) >= limit and self._idle(table)
        ]
        for table in gone:  # out of reach first: nobody gets a closing table
            del self._tables[table.id]
            self._used.pop(table.id, None)
            if not self.shared:  # the streams stay for the next driver's listeners
                await self.broker.forget(table.id)
        for table in gone:
            await table.close()
            self.lobby_hub.forget(table.id)
        if gone:
            await self.lobby_hub.settled()  # removed before another may drive them
        for table in gone:
            await self._mark_live(table.id, False)
            if table.lease is not None:
                with contextlib.suppress(BrokerUnavailable):
                    await self.broker.release(table.lease)
        self.evicted += len(gone)
        return [t.id for t in gone]

    def start_sweeping(self) -> None:
        """Run :meth:`evict_idle` every ``settings.sweep_seconds``, and with
        several processes :meth:`take_orphans` every
        ``settings.takeover_seconds``, until :meth:`close`."""
        if self._sweeper is None and self.settings.sweep_seconds > 0:
            self._sweeper = asyncio.create_task(self._sweep(), name="table sweeper")
        if self._taker is None and self.shared and self.settings.takeover_seconds > 0:
            self._taker = asyncio.create_task(self._take_over(), name="table takeover")

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            try:
                await self.evict_idle()
            except Exception:
                log.exception("evicting idle tables failed")

    async def take_orphans(self) -> list[str]:
        """Take over every live table whose driver is gone (no lease: the
        process died, or gave it up at its shutdown) and that no other
        process takes first, :data:`TAKEOVER_BATCH` at a time; returns
        their ids."""
        taken: list[str] = []
        room = asyncio.Semaphore(TAKEOVER_BATCH)

        async def take(table_id: str) -> None:
            async with room:
                try:
                    table = await self._take(table_id)
                except Exception:
                    log.exception("table %s cannot be taken over", table_id)
                    return
            if isinstance(table, Room):
                taken.append(table_id)
            elif table is None:  # nothing stored (a defect, or another database)
                await self._mark_live(table_id, False)

        await asyncio.gather(*(take(t) for t in await self.broker.orphans()))
        return taken

    async def mark_live(self) -> list[str]:
        """Put back in the broker's live set every table this process
        drives and that is missing there (Redis restarted empty: without
        it, a table whose driver dies later would have nobody to take it
        over); returns their ids."""
        live = await self.broker.live()
        missing = [
            table.id
            for table in list(self._tables.values())
            if table.id not in live and table.driving() and table.status != "closed"
        ]
        for table_id in missing:
            await self.broker.add_live(table_id)
        return missing

    async def seed_live(self) -> bool:
        """When the broker's live set is not filled (Redis started, or
        restarted empty), fill it from the database: every lobby table
        open or playing (the tables whose driver lost them meanwhile are
        then taken over, their clocks running again, and listed in the
        lobby again).  Returns whether this process filled it."""
        if await self.broker.live_seeded():
            return False
        ids = await asyncio.to_thread(self.store.unfinished, networked=True, waiting=True)
        filled = await self.broker.seed_live(ids)
        if filled:
            log.warning("the live set was empty: %d tables put back from the database", len(ids))
        return filled

    async def _take_over(self) -> None:
        sweeps = 0
        while True:
            await asyncio.sleep(self.settings.takeover_seconds)
            sweeps += 1
            try:
                await self.seed_live()
                if sweeps % LIVE_CHECK_SWEEPS == 0:
                    await self.mark_live()
                await self.take_orphans()
            except BrokerUnavailable as exc:
                log.warning("takeover sweep: %s", exc)
            except Exception:
                log.exception("takeover sweep failed")

    def _lease_lost(self, table_id: str) -> None:
        """This process no longer drives ``table_id`` (the broker could not
        renew its lease, or a publish found it taken): the table leaves
        memory at once; its next driver rebuilds it from the log."""
        table = self._tables.pop(table_id, None)
        self._used.pop(table_id, None)
        if table is None:
            return
        log.warning("table %s: lease lost; dropped here", table_id)
        table.stop_driving()
        self.lobby_hub.forget(table_id, remove=False)  # its new driver writes the entry
        self.spawn(table.close())
        self.spawn(self._wake_driver(table_id))

    async def _wake_driver(self, table_id: str) -> None:
        """Tell the table's new driver, if any, to read the log again: this
        process may have stored entries it could not publish (its lease
        was lost meanwhile)."""
        await asyncio.sleep(_RETRY_PAUSE)
        try:
            owner = await self.broker.owner_of(table_id)
            if owner is not None and owner != self.broker.process_id:
                await self.broker.call(table_id, "resync", {}, timeout=CALL_TIMEOUT)
        except (BrokerUnavailable, NoOwner, OwnerGone, CommandError) as exc:
            log.info("table %s: the new driver not told to resync: %s", table_id, exc)

    def _presence_changed(self, table_id: str, counts: dict[StreamKey, int]) -> None:
        """The broker's presence count of a table this process drives
        changed."""
        table = self._tables.get(table_id)
        if table is not None:
            table.set_presence(counts)

    async def close(self) -> None:
        """Stop the sweepers and every table's driver, and give the tables'
        leases back (another process takes them over at once; they stay
        live)."""
        for task in (self._sweeper, self._taker, *self._tasks):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._sweeper = self._taker = None
        self._tasks.clear()
        for table in list(self._tables.values()):
            await table.close()
            if table.lease is not None:
                with contextlib.suppress(BrokerUnavailable):
                    await self.broker.release(table.lease)
        self._tables.clear()
        self._used.clear()
        await self.lobby_hub.close()
