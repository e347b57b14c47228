"""The lobby socket, ``/ws/lobby``: the public tables and one waiting room,
pushed as they change (no polling), with presence.

On connection the server sends ``lobby`` (:class:`~rebelote.server.protocol.messages.LobbyList`:
every public table not finished, each as its room without countdowns); then
``table`` (:class:`~rebelote.server.protocol.messages.RoomData`) when a public table appears or
changes, and ``table_gone`` (:class:`~rebelote.server.protocol.messages.TableGone`) when one leaves
the list (finished, closed, or open and deserted: none of its humans
connected for ``deserted_table_seconds``; it comes back with the first
of them).  A reconnecting page gets the whole list again:
it replaces its own.

A page follows one table's waiting room with ``watch_room`` ``{"table",
"invite"}`` (a private table: with its invitation code, or to its players);
the server answers ``waiting`` (:class:`~rebelote.server.protocol.messages.WaitingRoom`: the room
and ``you``, the seat the socket's player holds there) at once and at each
change of the room, or ``error`` ``table_not_found`` (a private table
without its code looks like no table).  ``unwatch_room`` stops it.  The
player is known by his session cookie (sent with the WebSocket's opening
request); a page that logs in or out opens a new socket.

Every table where the socket's player holds a seat, public or private,
is told to him alone: ``seated`` (:class:`~rebelote.server.protocol.messages.SeatedRoom`: the room
without invitation code nor countdowns, and ``you``) on connection for
those open or playing, then whenever its status or his seat changes (``you``
null once he holds none there), so that a page on the list sends him to
his table the moment it starts.

Presence: while a player has a lobby socket open (any lobby page), his
seat at every table that has not started counts as connected (as a table
socket would), so that the room shows who waits and a host who closed his
pages passes the table on (:mod:`rebelote.server.tables.room`).  From the start on, only his
table socket counts.

Refused messages get an ``error`` (``too_large``, ``bad_json``,
``unknown_type``, ``bad_message``, ``table_not_found``) to that socket
alone; ``ping`` gets ``pong``.  A socket too slow to read is closed with
4408.  Each socket reads at most its budget of messages, as a table's
socket does (:class:`~rebelote.server.api.throttle.MessageBudget`, the
settings' ``socket_message_*``): beyond it a message is not read (the
first of a run gets ``error`` ``rate_limited``), and a socket that goes on
is closed with 1008 ``rate_limited``.  A ``watch_room`` of a table the
lobby does not know has the table looked up in the database at most once
per ``lobby_lookup_seconds`` (2 s) per socket: a further one waits its
turn (made-up ids cost the database little).

Several processes: the lobby lives in the broker
(:mod:`rebelote.server.broker`), not in one process's memory.  The process
that drives a lobby table writes its :class:`LobbyEntry` (the room as its
followers see it, whether the public list shows it, who sits where) with
``lobby_put`` at each change of the room (``lobby_remove``
:data:`FINAL_SECONDS` after it finished or closed); every process's
:class:`LobbyHub` keeps every entry (``lobby()`` once, then
``subscribe_lobby``; every entry read again after Redis came back) and
tells its own sockets.  A lobby socket keeps its player's seats connected
through the broker's presence (``enter`` / ``leave``), which the table's
driver counts wherever it runs.  With the in-process broker (one process)
it all happens in that process, in the same order.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import itertools
import json
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from rebelote.seats import Seat
from rebelote.server.api.guard import settle_socket
from rebelote.server.api.throttle import MessageBudget
from rebelote.server.broker.base import Broker, BrokerUnavailable, LobbySubscription
from rebelote.server.broker.memory import MemoryBroker
from rebelote.server.people.accounts import SESSION_COOKIE, session_hash
from rebelote.server.protocol.messages import (
    PingMessage,
    ProtocolError,
    RoomData,
    TableGone,
    UnwatchRoomMessage,
    WatchRoomMessage,
    envelope,
    parse_lobby_message,
)
from rebelote.server.settings import ServerSettings
from rebelote.server.storage.people import User

if TYPE_CHECKING:
    from rebelote.server.tables.room import Room

__all__ = [
    "FINAL_SECONDS",
    "LOBBY_QUEUE_LIMIT",
    "LobbyEntry",
    "LobbyHub",
    "LobbyServer",
    "SessionReader",
    "entry_of",
    "serve_lobby",
]

log = logging.getLogger(__name__)

LOBBY_QUEUE_LIMIT = 1024
"""Messages waiting for a slow lobby socket before it is closed (4408)."""

LISTED = ("open", "playing")
"""The statuses of a public table the lobby lists."""

FINAL_SECONDS = 60.0
"""A finished or closed table stays in the broker's lobby that long (its
followers and players get its last room; a rematch puts it back), then its
entry is removed."""

FLOOD_CODE = 1008
"""The close code (policy violation, reason ``rate_limited``) of a lobby
socket that kept sending over its message budget."""

CLOSE_WAIT = 10.0
"""Seconds a closing lobby socket waits for its queued messages and the
close frame to go out."""

SETTLE_SECONDS = 2.0
"""The longest a lobby socket waits for its presence to be written before
its first messages go (Redis slow or out of reach: they go anyway)."""


@dataclass(frozen=True, slots=True)
class LobbyEntry:
    """One lobby table as every process knows it (the broker's lobby holds
    its JSON, :meth:`to_json`).

    ``room``: the :class:`~rebelote.server.protocol.messages.RoomData` JSON
    its followers see (invitation code included; each countdown's
    ``seconds`` is worked out from its ``deadline`` when sent); ``listed``:
    whether the public list shows it (public, open or playing, not
    deserted); ``users``: the account id of each human holding a seat (not
    left) -> the seat's letter; ``updated``: when the room last changed
    (Unix seconds, the list's order)."""

    id: str
    room: dict[str, Any]
    listed: bool
    users: dict[int, str]
    updated: float

    @property
    def status(self) -> str:
        """The table's status (``open``, ``playing``, ``finished``, ``closed``)."""
        status: str = self.room["status"]
        return status

    def to_json(self) -> str:
        """The text the broker keeps: ``{"room", "listed", "users", "updated"}``
        (``users`` keyed by the id's decimal text)."""
        return json.dumps(
            {
                "room": self.room,
                "listed": self.listed,
                "users": {str(k): v for k, v in self.users.items()},
                "updated": self.updated,
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, table_id: str, text: str) -> LobbyEntry:
        """The entry of :meth:`to_json`'s ``text``.  Raises ``ValueError``
        (``KeyError``, ``TypeError``) for a text that is not one."""
        data = json.loads(text)
        return cls(
            id=table_id,
            room=dict(data["room"]),
            listed=bool(data["listed"]),
            users={int(k): str(v) for k, v in data["users"].items()},
            updated=float(data["updated"]),
        )

    def bare(self) -> dict[str, Any]:
        """The room without invitation code nor countdowns (the list's
        entry, and ``seated``'s room)."""
        seats = [{**seat, "countdowns": []} for seat in self.room["seats"]]
        return {**self.room, "invite": None, "seats": seats}

    def fresh(self) -> dict[str, Any]:
        """The room with each countdown's ``seconds`` left as of now."""
        now = time.time()
        seats = [
            {
                **seat,
                "countdowns": [
                    {**c, "seconds": round(max(0.0, c["deadline"] - now), 1)}
                    for c in seat["countdowns"]
                ],
            }
            for seat in self.room["seats"]
        ]
        return {**self.room, "seats": seats}

    def may_follow(self, user_id: int | None, invite: str | None) -> bool:
        """Whether a socket may follow the room: a public table; a private
        one with its invitation code or to a player seated there."""
        if self.room["visibility"] == "public":
            return True
        if user_id is not None and user_id in self.users:
            return True
        code = self.room["invite"]
        return bool(invite and code and hmac.compare_digest(invite, code))


def entry_of(table: Room) -> LobbyEntry | None:
    """``table``'s lobby entry now, ``None`` for a single player's table
    (the lobby never shows it).  Countdowns' ``seconds`` are left at 0
    (worked out when sent), so that the entry changes only when the room
    does."""
    if not table.networked:
        return None
    room = table.room_data()
    seats = [
        s.model_copy(
            update={"countdowns": [c.model_copy(update={"seconds": 0.0}) for c in s.countdowns]}
        )
        for s in room.seats
    ]
    data = room.model_copy(update={"seats": seats}).model_dump(mode="json")
    users = {
        row.user_id: seat.letter
        for seat, row in table.seat_rows.items()
        if row.user_id is not None and row.kind == "human" and not row.left
    }
    listed = table.meta.visibility == "public" and table.status in LISTED and not table.deserted()
    return LobbyEntry(table.id, data, listed, users, time.time())


class LobbySocket:
    """One lobby socket: its outgoing queue, its player (``user_id``, or
    ``None`` when not logged in), its presence id (``conn_id``, unique in
    the process), the room it follows, the seats it keeps connected
    (``present``: table id -> seat letter), and what it was told of its
    player's tables (``seated``: table id -> the status and the seat last
    sent)."""

    def __init__(
        self,
        hub: LobbyHub,
        user_id: int | None,
        conn_id: str,
        *,
        budget: MessageBudget | None = None,
        lookup_seconds: float = 0.0,
    ) -> None:
        self.hub = hub
        self.user_id = user_id
        self.conn_id = conn_id
        self.queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()
        self.cut_off = False
        self.budget = budget
        """The messages it may send (``None``: no limit)."""
        self.lookup_seconds = lookup_seconds
        self._next_lookup = 0.0
        self.watching: str | None = None
        self.invite: str | None = None
        self.present: dict[str, str] = {}
        self.seated: dict[str, tuple[str, str]] = {}
        self.last_room: str | None = None

    def put(self, text: str) -> None:
        """Queue one message (closes a socket too slow to read)."""
        if self.cut_off:
            return
        if self.queue.qsize() >= LOBBY_QUEUE_LIMIT:
            self.close(4408, "too slow")
            return
        self.queue.put_nowait(text)

    def close(self, code: int, reason: str) -> None:
        """Close the socket with ``code`` and ``reason`` once what is
        queued went out; nothing more is queued."""
        if not self.cut_off:
            self.cut_off = True
            self.queue.put_nowait((code, reason))

    def within_budget(self) -> bool:
        """Count a message against the budget: whether to read it (else an
        ``error`` ``rate_limited`` for the first of a run, or the socket's
        close with 1008 ``rate_limited`` when it keeps going)."""
        if self.budget is None:
            return True
        verdict = self.budget.take()
        if verdict == "warn":
            self.put(_error(ProtocolError("rate_limited", "too many messages: slow down")))
        elif verdict == "close":
            self.close(FLOOD_CODE, "rate_limited")
        return verdict == "ok"

    async def lookup_turn(self) -> None:
        """Wait until this socket may have the database looked up again
        (at most once per ``lookup_seconds``), and take that turn."""
        loop = asyncio.get_running_loop()
        wait = self._next_lookup - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        self._next_lookup = loop.time() + self.lookup_seconds

    def watch(self, table_id: str, invite: str | None) -> None:
        """Follow ``table_id``'s room (replacing the one followed)."""
        self.unwatch()
        self.watching, self.invite, self.last_room = table_id, invite, None
        self.hub.follow(self, table_id)
        self.refresh()

    def unwatch(self) -> None:
        """Stop following the room."""
        table_id = self.watching
        if table_id is not None:
            self.watching = None
            self.hub.unfollow(self, table_id)

    def sync_presence(self, table_id: str, entry: LobbyEntry | None) -> None:
        """Keep the player's seat at ``table_id`` connected while the table
        has not started (and only then: once it plays, the player is there
        when his table page is)."""
        if self.user_id is None:
            return
        you = (
            entry.users.get(self.user_id) if entry is not None and entry.status == "open" else None
        )
        held = self.present.get(table_id)
        if held is not None and held != you:
            del self.present[table_id]
            self.hub.mark(self, table_id, False)
            self.hub.presence(table_id, held, self.conn_id, False)
        if you is not None and table_id not in self.present:
            self.present[table_id] = you
            self.hub.mark(self, table_id, True)
            self.hub.presence(table_id, you, self.conn_id, True)

    def sync_seated(self, table_id: str, entry: LobbyEntry | None) -> None:
        """Tell the player of his seat at ``table_id`` (``seated``) when its
        status or his seat changed since he was last told; ``you`` null,
        once, when he no longer holds one there.  An entry gone (``None``:
        finished long ago) is forgotten without a word."""
        if self.user_id is None:
            return
        if entry is None:
            self.seated.pop(table_id, None)
            return
        you = entry.users.get(self.user_id)
        told = self.seated.get(table_id)
        if you is None:
            if told is None:
                return
            del self.seated[table_id]
        else:
            now = (entry.status, you)
            if told == now:
                return
            self.seated[table_id] = now
        self.put(envelope("seated", {"room": entry.bare(), "you": you}))

    def release(self) -> None:
        """The socket closed: its seats are no longer kept connected."""
        self.unwatch()
        present, self.present = self.present, {}
        for table_id, seat in present.items():
            self.hub.mark(self, table_id, False)
            self.hub.presence(table_id, seat, self.conn_id, False)

    def refresh(self) -> None:
        """The room followed changed: send it (``you``: the player's seat)."""
        table_id = self.watching
        if table_id is None:
            return
        entry = self.hub.entry(table_id)
        if entry is None:  # finished long ago: nothing more will change
            return
        if not entry.may_follow(self.user_id, self.invite):
            self.unwatch()
            self.put(_error(ProtocolError("table_not_found", "no such lobby table")))
            return
        you = entry.users.get(self.user_id) if self.user_id is not None else None
        room = entry.fresh()
        if room["visibility"] != "private":
            room["invite"] = None
        text = envelope("waiting", {"room": room, "you": you})
        if text != self.last_room:
            self.last_room = text
            self.put(text)


class LobbyHub:
    """The lobby of one server process: every lobby table's
    :class:`LobbyEntry` as the broker has it, this process's lobby sockets
    (by player too), the public list as last sent, who follows which room;
    and the writes to the broker (the entries of the tables this process
    drives, its sockets' presence), made in order by one task, each kept
    until it went through (Redis out of reach: tried again, with backoff).
    Runs on the event loop's thread.

    ``broker``: the processes' broker (default: an in-process one);
    ``load_listed``: awaited before a list is made, to load the tables
    stored but not driven (the in-process broker: every public table from
    the database, as one process holds them all); ``load_table``: the
    table (loaded when need be) of a room asked for that the lobby does not
    know (the same: a table finished long ago is followed again);
    ``final_seconds``: :data:`FINAL_SECONDS`."""

    def __init__(
        self,
        broker: Broker | None = None,
        *,
        load_listed: Callable[[], Awaitable[object]] | None = None,
        load_table: Callable[[str], Awaitable[Room | None]] | None = None,
        final_seconds: float = FINAL_SECONDS,
    ) -> None:
        self.broker: Broker = broker if broker is not None else MemoryBroker()
        self.load_listed = load_listed
        self.load_table = load_table
        self.final_seconds = final_seconds
        self.sockets: set[LobbySocket] = set()
        self._by_user: dict[int, set[LobbySocket]] = {}
        self._present: dict[str, set[LobbySocket]] = {}
        self._followers: dict[str, set[LobbySocket]] = {}
        self._entries: dict[str, LobbyEntry] = {}
        self._listed: dict[str, str] = {}
        self._conn_ids = itertools.count(1)
        # the writes: what to put (entry text) or remove (None) per table,
        # and the presence wanted per (table, seat, socket); each value is a
        # 1-tuple, new at each change, so that the writer knows whether the
        # one it wrote is still the last
        self._writes: dict[str, tuple[str | None]] = {}
        self._moves: dict[tuple[str, str, str], tuple[bool]] = {}
        self._written: dict[str, str] = {}
        self._local: weakref.WeakValueDictionary[str, Room] = weakref.WeakValueDictionary()
        self._final: dict[str, asyncio.TimerHandle] = {}
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._writer: asyncio.Task[None] | None = None
        self._subscription: LobbySubscription | None = None
        self._starting = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Listen to the broker's lobby and read every entry (once; later
        calls return at once).  Raises
        :class:`~rebelote.server.broker.BrokerUnavailable`."""
        async with self._starting:
            if self._subscription is not None:
                return
            self._ensure_writer()
            subscription = await self.broker.subscribe_lobby(self._changed, self._resync)
            try:
                entries = await self.broker.lobby()
            except BrokerUnavailable:
                self.broker.unsubscribe_lobby(subscription)
                raise
            self._subscription = subscription
            self._replace(entries)

    async def close(self) -> None:
        """Write what waits (for at most :data:`SETTLE_SECONDS`), then stop
        listening and writing."""
        await self.settled()
        if self._subscription is not None:
            self.broker.unsubscribe_lobby(self._subscription)
            self._subscription = None
        for timer in self._final.values():
            timer.cancel()
        self._final.clear()
        tasks = [t for t in (self._writer, *self._tasks) if t is not None]
        self._writer = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def settled(self, timeout: float = SETTLE_SECONDS) -> None:
        """Wait until every write made so far went through (at most
        ``timeout`` seconds)."""
        if self._writer is None:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._idle.wait()

    # -------------------------------------------------------------- entries

    def entry(self, table_id: str) -> LobbyEntry | None:
        """The lobby's entry of ``table_id``, if it has one."""
        return self._entries.get(table_id)

    def entries(self) -> list[LobbyEntry]:
        """Every entry the lobby holds (tests, metrics)."""
        return list(self._entries.values())

    def _listed_entries(self) -> list[LobbyEntry]:
        """The public list: open tables first, then by latest change."""
        listed = [e for e in self._entries.values() if e.listed]
        return sorted(listed, key=lambda e: (e.status != "open", -e.updated))

    def snapshot(self) -> str:
        """The ``lobby`` message: every public table not finished (open
        ones first, the latest changed first), without countdowns."""
        return envelope("lobby", {"tables": [e.bare() for e in self._listed_entries()]})

    async def public_rooms(self) -> list[RoomData]:
        """The public list as ``GET /api/lobby`` answers it: each room with
        its countdowns, without invitation code."""
        await self.refresh_list()
        return [
            RoomData.model_validate({**e.fresh(), "invite": None}) for e in self._listed_entries()
        ]

    async def refresh_list(self) -> None:
        """Have ``load_listed`` load the stored tables (when given) and wait
        for their entries."""
        if self.load_listed is not None:
            await self.load_listed()
        await self.settled()

    async def find(self, table_id: str) -> LobbyEntry | None:
        """The entry of ``table_id``; one the lobby does not know is loaded
        by ``load_table`` (when given) first."""
        entry = self._entries.get(table_id)
        if entry is None and self.load_table is not None:
            table = await self.load_table(table_id)
            if table is not None:
                self.room_changed(table)  # an entry removed since its end
            await self.settled()
            entry = self._entries.get(table_id)
        return entry

    # ------------------------------------------------- the driver's side

    def room_changed(self, table: Room) -> None:
        """``table``'s room changed (:attr:`Room.on_room`, on the process
        that drives it): its entry is written to the broker (when it
        changed), whence every process's sockets hear of it."""
        entry = entry_of(table)
        if entry is None:
            return
        self._local[table.id] = table
        text = entry.to_json()
        same = _without_time(text)
        if self._written.get(table.id) == same:
            return
        self._written[table.id] = same
        timer = self._final.pop(table.id, None)
        if timer is not None:
            timer.cancel()
        if entry.status not in LISTED:
            loop = asyncio.get_running_loop()
            self._final[table.id] = loop.call_later(
                self.final_seconds, self._expire, table.id, same
            )
        self._write(table.id, text)

    def _expire(self, table_id: str, same: str) -> None:
        """The finished or closed table's entry leaves the lobby (unless it
        changed since)."""
        self._final.pop(table_id, None)
        if self._written.get(table_id) == same:
            del self._written[table_id]
            self._local.pop(table_id, None)
            self._write(table_id, None)

    def forget(self, table_id: str, *, remove: bool = True) -> None:
        """``table_id`` left this process's memory: idle (``remove``: its
        entry leaves the lobby until the table is loaded again; an idle
        table is not listed, being deserted or over), or driven by another
        process now (not ``remove``: that one writes the entry)."""
        timer = self._final.pop(table_id, None)
        if timer is not None:
            timer.cancel()
        self._local.pop(table_id, None)
        if self._written.pop(table_id, None) is not None and remove:
            self._write(table_id, None)

    def _write(self, table_id: str, text: str | None) -> None:
        self._writes[table_id] = (text,)
        self._kick()

    def presence(self, table_id: str, seat: str, conn_id: str, present: bool) -> None:
        """Socket ``conn_id`` keeps (or no longer keeps) ``seat`` connected
        at ``table_id``: written to the broker's presence in order."""
        self._moves[(table_id, seat, conn_id)] = (present,)
        self._kick()

    def _kick(self) -> None:
        self._idle.clear()
        self._wake.set()
        self._ensure_writer()

    def _ensure_writer(self) -> None:
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(
                self._write_all(), name="lobby writer"
            )

    async def _write_all(self) -> None:
        """The writer: each change in turn (tables' entries first), tried
        again with backoff while the broker is out of reach."""
        delay = 0.05
        while True:
            if not self._writes and not self._moves:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            try:
                if self._writes:
                    table_id, wanted = next(iter(self._writes.items()))
                    (text,) = wanted
                    if text is None:
                        await self.broker.lobby_remove(table_id)
                    else:
                        await self.broker.lobby_put(table_id, text)
                    if self._writes.get(table_id) is wanted:
                        del self._writes[table_id]
                else:
                    key, wanted_move = next(iter(self._moves.items()))
                    table_id, letter, conn_id = key
                    if wanted_move[0]:
                        await self.broker.enter(table_id, Seat[letter], conn_id)
                    else:
                        await self.broker.leave(table_id, Seat[letter], conn_id)
                    if self._moves.get(key) is wanted_move:
                        del self._moves[key]
                delay = 0.05
            except asyncio.CancelledError:
                raise
            except BrokerUnavailable as exc:
                log.warning("lobby: the broker is out of reach (%s); trying again", exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
            except Exception:
                log.exception("lobby: a write failed; dropped")
                if self._writes:
                    self._writes.pop(next(iter(self._writes)))
                elif self._moves:
                    self._moves.pop(next(iter(self._moves)))

    # ------------------------------------------------- every process's side

    def _changed(self, table_id: str, text: str | None) -> None:
        """The broker's news of an entry (any process's)."""
        old = self._entries.get(table_id)
        new: LobbyEntry | None = None
        if text is not None:
            try:
                new = LobbyEntry.from_json(table_id, text)
            except (ValueError, KeyError, TypeError):
                log.warning("lobby: entry of %s unreadable", table_id)
                return
            self._entries[table_id] = new
        else:
            self._entries.pop(table_id, None)
        self._apply(table_id, old, new)

    def _replace(self, texts: dict[str, str]) -> None:
        """Every entry read again (at the start, after a gap): each one
        that differs is told as a change."""
        for table_id in set(self._entries) - set(texts):
            self._changed(table_id, None)
        for table_id, text in texts.items():
            old = self._entries.get(table_id)
            if old is None or old.to_json() != text:
                self._changed(table_id, text)

    def _resync(self) -> None:
        """The broker may have missed changes (Redis came back, perhaps
        empty): this process's tables are written again, then every entry
        read again."""
        self._written.clear()
        for table in list(self._local.values()):
            self.room_changed(table)
        for socket in list(self.sockets):
            for table_id, seat in socket.present.items():
                self.presence(table_id, seat, socket.conn_id, True)

        async def read_again() -> None:
            delay = 0.05
            while True:
                try:
                    self._replace(await self.broker.lobby())
                    return
                except BrokerUnavailable:
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 2.0)

        task = asyncio.get_running_loop().create_task(read_again(), name="lobby resync")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _apply(self, table_id: str, old: LobbyEntry | None, new: LobbyEntry | None) -> None:
        """An entry changed: its players' presence and ``seated``, the
        list's entry (``table`` or ``table_gone``, only when it changed) to
        every socket, the room to its followers."""
        if self._by_user:
            # the sockets of the players seated here, and of those who were
            # (one who leaves an open table was kept present there)
            sockets = set(self._present.get(table_id, ()))
            for entry in (old, new):
                if entry is not None:
                    for user_id in entry.users:
                        sockets |= self._by_user.get(user_id, set())
            for socket in sockets:
                socket.sync_presence(table_id, new)
                socket.sync_seated(table_id, new)
        text: str | None = None
        if new is not None and new.listed:
            line = envelope("table", new.bare())
            if self._listed.get(table_id) != line:
                self._listed[table_id] = text = line
        elif self._listed.pop(table_id, None) is not None:
            text = envelope("table_gone", TableGone(id=table_id))
        if text is not None:
            for socket in list(self.sockets):
                socket.put(text)
        for socket in list(self._followers.get(table_id, ())):
            socket.refresh()

    # -------------------------------------------------------------- sockets

    def new_socket(
        self,
        user_id: int | None,
        *,
        budget: MessageBudget | None = None,
        lookup_seconds: float = 0.0,
    ) -> LobbySocket:
        """A socket of ``user_id`` (not yet added), with its message
        ``budget`` (``None``: no limit) and at most one database lookup per
        ``lookup_seconds`` (:meth:`LobbySocket.lookup_turn`)."""
        return LobbySocket(
            self,
            user_id,
            f"lobby{next(self._conn_ids)}",
            budget=budget,
            lookup_seconds=lookup_seconds,
        )

    def add(self, socket: LobbySocket) -> None:
        """A socket opened: it gets the changes from now on, keeps its
        player's seats connected at the tables not started, and is told of
        his seats at those open or playing."""
        self.sockets.add(socket)
        if socket.user_id is not None:
            self._by_user.setdefault(socket.user_id, set()).add(socket)
            for entry in list(self._entries.values()):
                if socket.user_id not in entry.users:
                    continue
                if entry.status == "open":
                    socket.sync_presence(entry.id, entry)
                if entry.status in LISTED:
                    socket.sync_seated(entry.id, entry)

    def remove(self, socket: LobbySocket) -> None:
        """A socket closed."""
        self.sockets.discard(socket)
        if socket.user_id is not None:
            mine = self._by_user.get(socket.user_id)
            if mine is not None:
                mine.discard(socket)
                if not mine:
                    del self._by_user[socket.user_id]
        socket.release()

    def mark(self, socket: LobbySocket, table_id: str, present: bool) -> None:
        """``socket`` keeps (or no longer keeps) a seat connected at
        ``table_id``."""
        sockets = self._present.setdefault(table_id, set())
        if present:
            sockets.add(socket)
        else:
            sockets.discard(socket)
        if not sockets:
            del self._present[table_id]

    def follow(self, socket: LobbySocket, table_id: str) -> None:
        """``socket`` follows ``table_id``'s room."""
        self._followers.setdefault(table_id, set()).add(socket)

    def unfollow(self, socket: LobbySocket, table_id: str) -> None:
        """``socket`` stops following ``table_id``'s room."""
        followers = self._followers.get(table_id)
        if followers is not None:
            followers.discard(socket)
            if not followers:
                del self._followers[table_id]

    def followers(self, table_id: str) -> int:
        """How many sockets follow ``table_id``'s room (tests, metrics)."""
        return len(self._followers.get(table_id, ()))


def _without_time(text: str) -> str:
    """An entry's text without its ``updated`` time (to tell whether the
    room really changed)."""
    return text[: text.rindex(',"updated":')]


class SessionReader(Protocol):
    """The sessions of the store
    (:meth:`~rebelote.server.storage.people.PeopleStore.session_user`)."""

    def session_user(self, session_hash: str) -> tuple[User, str] | None:
        """The user and CSRF token of a live session, or ``None``."""
        ...


class LobbyServer(Protocol):
    """What :func:`serve_lobby` needs of the process's table manager
    (:class:`~rebelote.server.tables.registry.TableManager`): its lobby
    hub, its settings (the socket's message budget, the lookups' pace) and
    the store that knows the sessions (who the socket's player is)."""

    @property
    def lobby_hub(self) -> LobbyHub:
        """The process's lobby."""
        ...

    @property
    def settings(self) -> ServerSettings:
        """The server's settings."""
        ...

    @property
    def store(self) -> SessionReader:
        """The store, for its sessions."""
        ...


def _error(exc: ProtocolError) -> str:
    return envelope("error", exc.data())


async def _user_id(ws: WebSocket, manager: LobbyServer) -> int | None:
    cookie = ws.cookies.get(SESSION_COOKIE)
    if not cookie or len(cookie) > 128:
        return None
    found = await asyncio.to_thread(manager.store.session_user, session_hash(cookie))
    return None if found is None else found[0].id


async def _send_all(ws: WebSocket, socket: LobbySocket) -> None:
    while True:
        item = await socket.queue.get()
        if isinstance(item, tuple):
            code, reason = item
            await ws.close(code=code, reason=reason)
            return
        await ws.send_text(item)


async def _receive(ws: WebSocket) -> str | bytes | None:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is not None:
        return str(text)
    data = message.get("bytes")
    return bytes(data) if data is not None else b""


async def _handle(raw: str | bytes, socket: LobbySocket, hub: LobbyHub) -> None:
    msg = parse_lobby_message(raw)
    if isinstance(msg, PingMessage):
        socket.put(envelope("pong", {}))
    elif isinstance(msg, UnwatchRoomMessage):
        socket.unwatch()
    elif isinstance(msg, WatchRoomMessage):
        entry = hub.entry(msg.d.table)
        if entry is None and hub.load_table is not None:
            await socket.lookup_turn()  # made-up ids: one lookup per turn
            entry = await hub.find(msg.d.table)
        if entry is None or not entry.may_follow(socket.user_id, msg.d.invite):
            socket.unwatch()
            raise ProtocolError("table_not_found", "no such lobby table")
        socket.watch(entry.id, msg.d.invite)


async def serve_lobby(ws: WebSocket, manager: LobbyServer) -> None:
    """Serve one lobby socket until it closes (see the module docstring);
    ``manager``: the process's
    :class:`~rebelote.server.tables.registry.TableManager`."""
    await ws.accept()
    hub = manager.lobby_hub
    socket: LobbySocket | None = None
    sender: asyncio.Task[None] | None = None
    try:
        user_id = await _user_id(ws, manager)
        settle_socket(ws.scope, "anonymous" if user_id is None else f"user {user_id}")
        await hub.start()
        await hub.refresh_list()
        limits = manager.settings
        socket = hub.new_socket(
            user_id,
            budget=MessageBudget(
                limits.socket_message_burst,
                limits.socket_message_rate,
                limits.socket_message_excess,
            ),
            lookup_seconds=limits.lobby_lookup_seconds,
        )
        # the list and the registration with no pause between them: every
        # change after the list is pushed, none before it is lost
        socket.put(hub.snapshot())
        hub.add(socket)
        # the player's seats are present before his page hears anything
        await hub.settled()
        sender = asyncio.create_task(_send_all(ws, socket))
        while not sender.done():
            try:
                raw = await _receive(ws)
            except (WebSocketDisconnect, RuntimeError):
                return
            if raw is None:
                return
            if not socket.within_budget():
                if socket.cut_off:  # closing: let the sender get there
                    await asyncio.wait({sender}, timeout=CLOSE_WAIT)
                    return
                continue
            try:
                await _handle(raw, socket, hub)
            except ProtocolError as exc:
                socket.put(_error(exc))
            except Exception:
                log.exception("lobby socket: a message failed")
                socket.put(_error(ProtocolError("internal", "the server failed on that")))
    except WebSocketDisconnect:
        pass
    except BrokerUnavailable:
        log.warning("lobby socket: the broker is out of reach")
        with contextlib.suppress(Exception):
            await ws.close(code=1013, reason="try again later")
    finally:
        if socket is not None:
            hub.remove(socket)
        if sender is not None:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
        if ws.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()
