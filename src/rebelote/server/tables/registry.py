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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import time

from rebelote.rules import PRESETS, Rules
from rebelote.seats import SEATS_3, SEATS_4, Seat
from rebelote.server.broker.base import Broker, BrokerUnavailable
from rebelote.server.broker.hub import BUFFER_SIZE, Fanout, MemoryHub, StreamKey
from rebelote.server.broker.memory import MemoryBroker
from rebelote.server.people.chat import ChatLimiter
from rebelote.server.protocol.messages import CreatedTable, CreateTable, ProtocolError, TableOptions
from rebelote.server.settings import ServerSettings
from rebelote.server.storage.tables import Store, StoredSeat, StoredTable, TableMeta, hash_token
from rebelote.server.tables.game import SeatSpec, TableGame, derive_seed
from rebelote.server.tables.lobby import LobbyHub
from rebelote.server.tables.room import Room
from rebelote.server.tables.table import game_from_stored, stored_event

__all__ = ["HUMAN_SEAT", "TableManager", "ws_path"]

log = logging.getLogger(__name__)

HUMAN_SEAT = Seat.S
"""Where the player sits: South (the bottom of the screen)."""

SEAT_NAMES = {Seat.N: "North", Seat.W: "West", Seat.S: "South", Seat.E: "East"}

_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def ws_path(table_id: str) -> str:
    """The WebSocket path of a table (add ``?token=...``)."""
    return f"/ws/{table_id}"


class TableManager:
    """Every table this server process holds.  ``bot_delay`` (seconds)
    overrides each table's speed when given; ``seed``, when given, makes the
    tables' seeds (shuffles, computer decisions) reproducible: the n-th table
    created gets the same deals on every run (for tests); ``settings``:
    idle tables' eviction and spectators' batching.  ``broker``: how the
    processes share the lobby and presence (a :class:`MemoryHub` is
    wrapped in a :class:`MemoryBroker`: one process, its tables publishing
    through that hub)."""

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
        alone = isinstance(self.broker, MemoryBroker)
        self.hub: Fanout = self.broker.hub if isinstance(self.broker, MemoryBroker) else MemoryHub()
        self.bot_delay = bot_delay
        self.seed = seed
        self.settings = settings or ServerSettings()
        self._created = 0
        self._tables: dict[str, Room] = {}
        self._used: dict[str, float] = {}
        self._loading = asyncio.Lock()
        self.lobby_hub = LobbyHub(
            self.broker,
            load_listed=self.lobby if alone else None,
            load_table=self.get if alone else None,
        )
        """The lobby (:mod:`rebelote.server.tables.lobby`), told of every
        change of a room.  One process (the in-process broker) holds every
        table: the lobby loads the stored ones it needs; several processes
        drive every open or playing table somewhere, whose entries are in
        the broker."""
        self.chat_limiter: ChatLimiter | None = None
        """The chat's rate limit every table shares (Redis), else each
        room's own."""
        self._counts: dict[str, dict[StreamKey, int]] = {}
        self.broker.watch_presence(self._presence_changed)
        self._sweeper: asyncio.Task[None] | None = None
        self.evicted = 0
        """Tables that left memory since the start (for tests and metrics)."""

    def _table(
        self,
        game: TableGame,
        seats: tuple[StoredSeat, ...],
        meta: TableMeta | None = None,
        *,
        closed: bool = False,
    ) -> Room:
        room = Room(
            game,
            store=self.store,
            hub=self.hub,
            seats={Seat[s.seat]: s for s in seats},
            meta=meta,
            bot_delay=self.bot_delay,
            closed=closed,
        )
        room.on_room = self.lobby_hub.room_changed
        if self.chat_limiter is not None:
            room.limiter = self.chat_limiter
        room.presence_interval = self.settings.presence_interval
        room.deserted_after = self.settings.deserted_table_seconds
        return room

    async def _keep(self, table: Room) -> None:
        self._tables[table.id] = table
        self._used[table.id] = time.monotonic()
        await self._drive(table)

    # ------------------------------------ broker: the lease, the presence

    async def _drive(self, table: Room) -> None:
        """Take ``table``'s lease and count the presence the broker holds
        for it (lobby pages' connections, any process's)."""
        try:
            if await self.broker.acquire(table.id) is None:
                log.warning("table %s: another process holds its lease", table.id)
            counts = await self.broker.presence(table.id)
        except BrokerUnavailable as exc:
            log.warning("table %s: the broker is out of reach (%s)", table.id, exc)
            return
        self._presence_changed(table.id, counts)

    def _presence_changed(self, table_id: str, counts: dict[StreamKey, int]) -> None:
        """The broker's presence of a table this process drives changed:
        each connection more is attached to the table, each less detached."""
        table = self._tables.get(table_id)
        if table is None:
            return
        before = self._counts.get(table_id, {})
        if counts:
            self._counts[table_id] = dict(counts)
        else:
            self._counts.pop(table_id, None)
        for key in [*before, *(k for k in counts if k not in before)]:
            change = counts.get(key, 0) - before.get(key, 0)
            for _ in range(max(0, -change)):
                table.detach(key)
            for _ in range(max(0, change)):
                table.attach(key)

    async def _undrive(self, table_id: str) -> None:
        """Give ``table_id``'s lease up (it left memory)."""
        self._counts.pop(table_id, None)
        lease = self.broker.held(table_id)
        if lease is not None:
            try:
                await self.broker.release(lease)
            except BrokerUnavailable as exc:
                log.warning("table %s: lease not released (%s)", table_id, exc)

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
    ) -> tuple[Room, str]:
        """A lobby table waiting for its players, with its creator (the
        host) at ``seat``; returns the table and the host's token.  Raises
        :class:`ProtocolError` ``bad_request``."""
        rules = self._rules(preset, target)
        order = SEATS_3 if rules.players == 3 else SEATS_4
        if seat not in {s.letter for s in order}:
            raise ProtocolError("bad_request", f"no seat {seat} at a {rules.players}-player table")
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
                s.letter, "human", user_name, None, hash_token(token), user_id, guest=user_guest
            )
            if s.letter == seat
            else StoredSeat(s.letter, "open", "", None, None)
            for s in order
        )
        specs = {
            Seat[r.seat]: SeatSpec(
                Seat[r.seat], "human" if r.kind == "human" else "open", r.name, guest=r.guest
            )
            for r in seats
        }
        game = TableGame(table_id, rules, options, self._seed(), specs, timed=True)
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
        table = self._table(game, seats, meta)
        table.deserted_clock()  # until its host's page connects
        await self._keep(table)
        self.lobby_hub.room_changed(table)
        return table, token

    async def lobby(self) -> list[Room]:
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

    async def create(self, request: CreateTable, *, user_id: int | None = None) -> CreatedTable:
        """A new table with the player at South and computers elsewhere.

        Raises :class:`ProtocolError` (``bad_request``) for an unknown preset
        or a level for a seat that is not at the table.  ``user_id``: the
        logged-in player, if any (for his history)."""
        rules = self._rules(request.preset, request.target)
        order = SEATS_3 if rules.players == 3 else SEATS_4
        others = [s for s in order if s != HUMAN_SEAT]
        extra = set(request.levels) - {s.letter for s in others}
        if extra:
            raise ProtocolError(
                "bad_request",
                f"no computer seat {', '.join(sorted(extra))} at a {rules.players}-player table",
            )
        token = secrets.token_urlsafe(24)
        table_id = secrets.token_urlsafe(9)
        seed = self._seed()
        specs = {HUMAN_SEAT: SeatSpec(HUMAN_SEAT, "human", request.name.strip() or "You")}
        for s in others:
            specs[s] = SeatSpec(s, "bot", SEAT_NAMES[s], request.levels.get(s.letter, "beginner"))
        game = TableGame(table_id, rules, request.options, seed, specs)
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
        table = self._table(game, seats)
        await self._keep(table)
        table.publish(outs)
        async with table.lock:
            table.kick()
        return CreatedTable(
            table_id=table_id,
            seat=HUMAN_SEAT.letter,
            token=token,
            ws_url=f"{ws_path(table_id)}?token={token}",
        )

    async def get(self, table_id: str) -> Room | None:
        """The live table ``table_id``, loaded from storage if need be, or
        ``None`` when there is no such table (an id that no table can have,
        not 1 to 32 of ``A-Z a-z 0-9 _ -``, is not looked up)."""
        table = self._tables.get(table_id)
        if table is not None:
            self._used[table_id] = time.monotonic()
            return table
        if not _TABLE_ID.fullmatch(table_id):
            return None
        async with self._loading:
            table = self._tables.get(table_id)
            if table is None:
                table = await self._load(table_id)
        if table is not None:
            self._used[table_id] = time.monotonic()
        return table

    async def _load(self, table_id: str) -> Room | None:
        stored: StoredTable | None = await asyncio.to_thread(self.store.load, table_id)
        if stored is None:
            return None
        game, outs = game_from_stored(stored)
        meta = stored.meta
        if meta.host == "":
            meta = TableMeta(meta.name, meta.visibility, meta.ranked, None, meta.invite)
        table = self._table(game, stored.seats, meta, closed=stored.status == "closed")
        # nobody was connected for long (evicted when idle, or a restart)
        table.deserted_clock(already=True)
        table.remember_actions(stored.events)
        if table.networked:
            table.load_mutes(await asyncio.to_thread(self.store.mutes, table_id))
        self.hub.forget(table_id)
        table.publish(outs[-BUFFER_SIZE:])
        self._tables[table_id] = table
        self._used[table_id] = time.monotonic()
        async with table.lock:
            table.kick()
            # nobody is connected yet: every human's seat is held
            table.hold_absent()
        await self._drive(table)  # the lobby pages keeping a seat connected
        self.lobby_hub.room_changed(table)
        return table

    async def restore_unfinished(self) -> list[str]:
        """Rebuild the lobby's tables whose match is on (public or private,
        status ``playing``) from their logs and restart their computer
        players and clocks; returns their ids.  Other tables are loaded when
        asked for (:meth:`get`).  A table whose log cannot be replayed is
        logged and skipped."""
        ids = await asyncio.to_thread(self.store.unfinished, networked=True)
        restored = []
        for table_id in ids:
            try:
                if await self.get(table_id) is not None:
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
        new name, unmarked, and tell their listeners."""
        for table in list(self._tables.values()):
            await table.guest_upgraded(user_id, name)

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
            self.hub.forget(table.id)
        for table in gone:
            await table.close()
            self.lobby_hub.forget(table.id)
        if gone:
            await self.lobby_hub.settled()  # removed before another may drive them
        for table in gone:
            await self._undrive(table.id)
        self.evicted += len(gone)
        return [t.id for t in gone]

    def start_sweeping(self) -> None:
        """Run :meth:`evict_idle` every ``settings.sweep_seconds`` until
        :meth:`close`."""
        if self._sweeper is None and self.settings.sweep_seconds > 0:
            self._sweeper = asyncio.create_task(self._sweep(), name="table sweeper")

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            try:
                await self.evict_idle()
            except Exception:
                log.exception("evicting idle tables failed")

    async def close(self) -> None:
        """Stop the sweeper and every table's driver."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        for table in list(self._tables.values()):
            await table.close()
        self._tables.clear()
        self._used.clear()
        self._counts.clear()
        await self.lobby_hub.close()
