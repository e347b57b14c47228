"""The broker's interface: what a server process needs from the others.

One server process (the embedded default) uses :class:`~.memory.MemoryBroker`;
several processes sharing Redis use :class:`~.redis.RedisBroker`.  Both do
the same six things (see ``docs/scale-out.md`` for the keys, channels and
message formats):

- **Fan-out.**  A table's driver publishes each event once per seat, already
  redacted for it, as ``(seat, v, text)``: ``seat`` the stream (a
  :class:`~rebelote.seats.Seat`, or ``None`` for the spectators' stream),
  ``v`` the message's version in that stream (1, 2, 3, ... per seat), ``text``
  the JSON envelope.  Every process delivers the messages to its own
  listeners (sockets), in order, through the callbacks of
  :mod:`rebelote.server.broker.hub` (:data:`~rebelote.server.broker.hub.Deliver`,
  :data:`~rebelote.server.broker.hub.Direct`), and keeps the recent past so that a
  reconnecting client resumes by version (:meth:`Broker.since`).  Broadcasts
  (chat lines, the room) go to every listener of a table, outside the
  streams.  After a gap the broker could not fill (the connection to Redis
  was lost), a listener's :data:`Resync` callback tells it to resume by
  version.
- **Leases.**  Exactly one process drives a live table: the holder of its
  :class:`Lease`, renewed by the broker's heartbeat.  A lease that could not
  be renewed in time is *lost*: the callback given to
  :meth:`Broker.watch_leases` is told, and the process must stop driving the
  table at once.  Each acquisition carries a *fence*, strictly greater than
  every earlier one of the table.
- **Commands.**  Any process asks a table's driver to do something
  (:meth:`Broker.call`); the driver's handler (:meth:`Broker.serve`) answers
  with a JSON value or refuses with :class:`CommandError`.
- **Presence.**  Every open connection of a seat (or a spectator) is
  *present* while its process lives (:meth:`Broker.enter`,
  :meth:`Broker.leave`); the table's driver is told when the counts change
  (:meth:`Broker.watch_presence`), connections of a dead process included.
- **Lobby.**  Each listed table's room, as JSON, shared by every process,
  with change notifications.
- **Live tables.**  The ids of the tables that must be driven even with
  nobody connected (a match on, or a table open): a process that finds one
  without a lease takes it over (:meth:`Broker.orphans`).

Errors: every method that needs Redis raises :class:`BrokerUnavailable`
while Redis cannot be reached; nothing is changed then.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rebelote.seats import Seat
from rebelote.server.broker.hub import Deliver, Direct, StreamKey

__all__ = [
    "Broker",
    "BrokerError",
    "BrokerUnavailable",
    "CommandError",
    "Handler",
    "Lease",
    "LeaseLost",
    "LobbyChanged",
    "LobbySubscription",
    "LostLease",
    "Message",
    "NoOwner",
    "OwnerGone",
    "PresenceChanged",
    "Resync",
    "Subscription",
    "new_process_id",
    "parse_counts",
    "run_handler",
    "safely",
    "stream_letter",
]

log = logging.getLogger(__name__)

Message = tuple[StreamKey, int, str]
"""One message of a seat's stream: ``(seat, v, text)`` (``seat`` ``None``:
the spectators' stream; ``v`` >= 1, its version in that stream; ``text`` the
JSON envelope, already redacted for that seat)."""

Resync = Callable[[], None]
"""A listener's callback when messages may have been missed (the broker lost
Redis and got it back, or found a gap it could not fill): the listener asks
:meth:`Broker.since` for what came after the last version it has, or a
snapshot when that answers ``None``.  It must not block."""

Handler = Callable[[str, str, dict[str, Any]], Awaitable[Any]]
"""The driver's side of :meth:`Broker.call`: ``await handler(table_id, op,
args)`` -> a JSON value (``None``, bool, int, float, str, lists, dicts with
string keys), or raises :class:`CommandError` to refuse."""

LostLease = Callable[[str], None]
"""``on_lost(table_id)``: this process lost the lease of ``table_id`` (it
could not be renewed in time, or another process holds it): stop driving the
table at once.  It must not block."""

PresenceChanged = Callable[[str, dict[StreamKey, int]], None]
"""``changed(table_id, counts)``: the present connections of a table this
process drives changed; ``counts`` maps each seat with at least one present
connection (``None``: spectators) to their number.  It must not block."""

LobbyChanged = Callable[[str, str | None], None]
"""``changed(table_id, room)``: a table's lobby entry was put (``room``: its
JSON) or removed (``None``).  It must not block."""


class BrokerError(Exception):
    """Base of the broker's errors."""


class BrokerUnavailable(BrokerError):
    """Redis cannot be reached now (down, restarting, unreachable); nothing
    was changed, or, for :meth:`Broker.publish` and :meth:`Broker.broadcast`,
    only this process's listeners got the messages."""


class NoOwner(BrokerError):
    """No process holds the lease of ``table_id``."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"no process drives table {table_id}")
        self.table_id = table_id


class OwnerGone(BrokerError):
    """The process named by ``table_id``'s lease (``owner``) did not answer:
    it is dead, no longer drives the table, or gave no reply within the
    timeout (``reason`` says which).  The command may or may not have run:
    retry it once a process holds the lease (commands carry ids, so a
    retry is idempotent)."""

    def __init__(self, table_id: str, owner: str, reason: str) -> None:
        super().__init__(f"the driver {owner} of table {table_id} did not answer: {reason}")
        self.table_id = table_id
        self.owner = owner
        self.reason = reason


class CommandError(BrokerError):
    """A refusal by a table's driver: the same ``code`` (a protocol error
    code, e.g. ``not_your_turn``), ``message`` and ``extra`` (JSON-ready
    details, e.g. ``{"legal": [...]}``) reach the caller.  An unexpected
    exception of the handler arrives as code ``internal``."""

    def __init__(self, code: str, message: str, extra: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.extra: dict[str, Any] = dict(extra or {})


class LeaseLost(BrokerError):
    """A publish under a lease this process no longer holds: nothing was
    published."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"this process no longer holds the lease of table {table_id}")
        self.table_id = table_id


@dataclass(frozen=True)
class Lease:
    """The right to drive ``table_id``, held by process ``owner`` (a
    :attr:`Broker.process_id`); ``fence`` is strictly greater than the fence
    of every earlier lease of the table."""

    table_id: str
    owner: str
    fence: int


@dataclass(eq=False, frozen=True)
class Subscription:
    """One listener (a socket) of ``seat``'s stream at ``table_id``
    (``seat`` ``None``: the spectators' stream): ``deliver(v, text)`` for
    each message of the stream, ``direct(sender, text)`` for each broadcast,
    ``resync()`` after messages may have been missed."""

    table_id: str
    seat: StreamKey
    deliver: Deliver
    direct: Direct | None = None
    resync: Resync | None = None


@dataclass(eq=False, frozen=True)
class LobbySubscription:
    """One listener of the lobby: ``changed(table_id, room | None)`` for each
    change, ``resync()`` after changes may have been missed (list again)."""

    changed: LobbyChanged
    resync: Resync | None = None


class Broker(Protocol):
    """What a server process needs from the others (see the module's
    docstring).  Call it from the event loop's thread only.  Callbacks run on
    the event loop and must not block."""

    @property
    def process_id(self) -> str:
        """This process's id, ``{hostname}:{pid}:{random}``, unique among
        the processes sharing the broker."""
        ...

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Connect and start the background tasks (the heartbeat, the
        subscriber).  Raises :class:`BrokerUnavailable`."""
        ...

    async def close(self) -> None:
        """Release every lease this process holds and remove its
        connections' presence (so that other processes take over at once),
        then stop.  Never raises for an unreachable Redis."""
        ...

    # ------------------------------------------------------------- fan-out

    async def publish(
        self, table_id: str, messages: Sequence[Message], *, lease: Lease | None = None
    ) -> None:
        """Send a batch of messages of ``table_id`` (in order; each seat's
        versions increasing) to the listeners of every process, and keep
        them for :meth:`since`, in one round trip.  A message whose version
        is not above the last one kept for its stream was already published:
        it is skipped.

        With ``lease``: only while that lease is still this process's, else
        :class:`LeaseLost` and nothing is sent.  Await each publish of a
        table before the next (the table's lock does): the order of the
        batches is the order of the awaits.  Raises
        :class:`BrokerUnavailable` (this process's listeners still got the
        messages; the others resync)."""
        ...

    async def broadcast(self, table_id: str, text: str, sender: str | None = None) -> None:
        """Send ``text`` (outside the streams, not kept) to every listener of
        ``table_id`` in every process, with ``sender`` (the seat letter of a
        chat line, so that a listener can mute it; else ``None``).  Raises
        :class:`BrokerUnavailable` (as :meth:`publish`)."""
        ...

    async def subscribe(
        self,
        table_id: str,
        seat: StreamKey,
        deliver: Deliver,
        direct: Direct | None = None,
        resync: Resync | None = None,
    ) -> Subscription:
        """A new listener of ``seat``'s stream at ``table_id``: once this
        returns, ``deliver`` gets every message published from then on, in
        order, ``direct`` every broadcast, ``resync`` a call after a gap.
        Then ask :meth:`since` for what came before: the two may overlap
        (drop versions already delivered).  Raises :class:`BrokerUnavailable`
        (nothing subscribed)."""
        ...

    def unsubscribe(self, subscription: Subscription) -> None:
        """Remove a listener (at once; it gets nothing more)."""
        ...

    async def since(
        self, table_id: str, seat: StreamKey, last_v: int
    ) -> list[tuple[int, str]] | None:
        """The messages of ``seat``'s stream after version ``last_v``, as
        ``(v, text)`` in order (as :meth:`MemoryHub.since
        <rebelote.server.broker.hub.MemoryHub.since>`), ``[]`` when ``last_v`` is the last; or
        ``None`` when some of them are no longer kept, or ``last_v`` is ahead
        of the stream: the client needs a snapshot.  Async because it may
        need a round trip to Redis (the in-process broker answers at once).
        Raises :class:`BrokerUnavailable`."""
        ...

    async def last_versions(self, table_id: str) -> dict[StreamKey, int]:
        """The version of the last message kept for each stream of
        ``table_id`` (streams with none left out), in one round trip: a
        driver that loads a table publishes only what came after.  Raises
        :class:`BrokerUnavailable`."""
        ...

    async def forget(self, table_id: str) -> None:
        """Drop ``table_id``'s kept messages (its listeners stay until they
        leave); :meth:`since` then answers ``None`` for any ``last_v`` > 0.
        Raises :class:`BrokerUnavailable`."""
        ...

    def listeners(self, table_id: str, seat: StreamKey) -> int:
        """How many listeners of ``seat``'s stream this process has."""
        ...

    # -------------------------------------------------------------- leases

    async def acquire(self, table_id: str) -> Lease | None:
        """The lease of ``table_id`` for this process: a new one with a new
        fence when nobody held it, the one it holds already, or ``None``
        when another process holds it.  The heartbeat renews it until
        :meth:`release` or until it is lost.  Raises
        :class:`BrokerUnavailable`."""
        ...

    async def renew(self, lease: Lease) -> bool:
        """Extend ``lease`` by the lease's time to live now; ``False`` when
        it is no longer this process's (then the :meth:`watch_leases`
        callback is told, once).  Raises :class:`BrokerUnavailable`."""
        ...

    async def release(self, lease: Lease) -> None:
        """Give ``lease`` up (when it is still this process's), so that
        another process may take the table at once.  Raises
        :class:`BrokerUnavailable`."""
        ...

    async def owner_of(self, table_id: str) -> str | None:
        """The id of the process holding ``table_id``'s lease, or ``None``.
        Raises :class:`BrokerUnavailable`."""
        ...

    def held(self, table_id: str) -> Lease | None:
        """The lease of ``table_id`` this process holds, as far as it knows
        (no round trip): ``None`` once released or lost, and while it was
        not renewed for its time to live (it may have expired)."""
        ...

    def watch_leases(self, on_lost: LostLease | None) -> None:
        """Tell ``on_lost(table_id)`` of each lease of this process that is
        lost (``None``: nobody)."""
        ...

    # ------------------------------------------------------------ commands

    def serve(self, handler: Handler | None) -> None:
        """Run ``handler`` for the commands sent to the tables this process
        drives (``None``: none served)."""
        ...

    async def call(self, table_id: str, op: str, args: dict[str, Any], timeout: float = 2.0) -> Any:
        """Run command ``op`` with ``args`` (JSON values) on ``table_id``'s
        driver, wherever it is, and return its handler's result (a JSON
        value; when the driver is this process, the handler's very object).
        ``timeout``: seconds to wait for another process's reply.

        Raises :class:`NoOwner` (no lease holder), :class:`OwnerGone` (the
        holder is dead, no longer holds the table, serves no commands, or
        did not reply within ``timeout``), :class:`CommandError` (the
        handler refused: its code and message), :class:`BrokerUnavailable`.
        """
        ...

    # ------------------------------------------------------------ presence

    async def enter(self, table_id: str, seat: StreamKey, conn_id: str) -> None:
        """Connection ``conn_id`` (unique in this process) of ``seat``
        (``None``: a spectator) is open at ``table_id``; the broker keeps it
        present (refreshed by the heartbeat) until :meth:`leave`, or until
        this process dies (then it expires after the presence time to live).
        Raises :class:`BrokerUnavailable`."""
        ...

    async def leave(self, table_id: str, seat: StreamKey, conn_id: str) -> None:
        """Connection ``conn_id`` closed.  Raises :class:`BrokerUnavailable`
        (the entry then expires by itself)."""
        ...

    async def presence(self, table_id: str) -> dict[StreamKey, int]:
        """The present connections of ``table_id``, every process's: seat
        (``None``: spectators) -> how many (seats with none left out).
        Raises :class:`BrokerUnavailable`."""
        ...

    def watch_presence(self, changed: PresenceChanged | None) -> None:
        """Tell ``changed(table_id, counts)`` each time the presence of a
        table this process drives changes (``None``: nobody)."""
        ...

    # --------------------------------------------------------------- lobby

    async def lobby_put(self, table_id: str, room: str) -> None:
        """List ``table_id`` in the lobby with ``room`` (its JSON); the
        lobby's listeners are told when it differs from what was listed.
        Raises :class:`BrokerUnavailable`."""
        ...

    async def lobby_remove(self, table_id: str) -> None:
        """Remove ``table_id`` from the lobby (the listeners are told when it
        was listed).  Raises :class:`BrokerUnavailable`."""
        ...

    async def lobby(self) -> dict[str, str]:
        """Every listed table: id -> room JSON.  Raises
        :class:`BrokerUnavailable`."""
        ...

    async def subscribe_lobby(
        self, changed: LobbyChanged, resync: Resync | None = None
    ) -> LobbySubscription:
        """A new listener of the lobby's changes (every process's), from
        when this returns.  Raises :class:`BrokerUnavailable`."""
        ...

    def unsubscribe_lobby(self, subscription: LobbySubscription) -> None:
        """Remove a lobby listener."""
        ...

    # --------------------------------------------------------- live tables

    async def add_live(self, table_id: str) -> None:
        """Mark ``table_id`` as one that must always be driven.  Raises
        :class:`BrokerUnavailable`."""
        ...

    async def remove_live(self, table_id: str) -> None:
        """Unmark ``table_id`` (finished, closed).  Raises
        :class:`BrokerUnavailable`."""
        ...

    async def live(self) -> set[str]:
        """The ids of the tables that must be driven.  Raises
        :class:`BrokerUnavailable`."""
        ...

    async def orphans(self) -> list[str]:
        """The live tables no process holds a lease of (sorted): the ones to
        take over; none for ``lease_ttl`` after :meth:`seed_live` filled
        the set (the drivers set their leases again first).  Raises
        :class:`BrokerUnavailable`."""
        ...

    async def live_seeded(self) -> bool:
        """Whether the live set was filled since the broker's storage
        started (``False``: Redis started, or restarted empty, and the live
        tables must be read from the database and given to
        :meth:`seed_live`).  Raises :class:`BrokerUnavailable`."""
        ...

    async def seed_live(self, table_ids: Sequence[str]) -> bool:
        """Add ``table_ids`` (the unfinished tables, as stored) to the live
        set unless it was filled since the storage started (another process
        did it first), and mark it filled; returns whether this call filled
        it.  Raises :class:`BrokerUnavailable`."""
        ...


def parse_counts(raw: Mapping[str, int]) -> dict[StreamKey, int]:
    """Presence counts keyed by stream letter (``N``... or ``-``) ->
    keyed by :data:`~rebelote.server.broker.hub.StreamKey`."""
    return {None if key == "-" else Seat[key]: n for key, n in raw.items() if n > 0}


def stream_letter(seat: StreamKey) -> str:
    """A stream's one-letter name: the seat's letter, ``-`` for the
    spectators."""
    return "-" if seat is None else seat.letter


def new_process_id() -> str:
    """A new process id: ``{hostname}:{pid}:{8 hex digits}`` (the random
    part tells apart two processes that reuse a pid)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


async def run_handler(handler: Handler, table_id: str, op: str, args: dict[str, Any]) -> Any:
    """``await handler(table_id, op, args)``; an exception other than
    :class:`CommandError` is logged and raised as :class:`CommandError`
    ``internal`` (so that a caller sees the same error, whichever process
    runs the handler)."""
    try:
        return await handler(table_id, op, args)
    except CommandError:
        raise
    except Exception as exc:
        log.exception("command %s on table %s failed", op, table_id)
        raise CommandError("internal", f"the table's driver failed to run {op}") from exc


def safely(callback: Callable[..., None], *args: Any) -> None:
    """Call ``callback(*args)``, logging (not raising) what it raises: one
    faulty listener must not stop the others."""
    try:
        callback(*args)
    except Exception:
        log.exception("a broker callback failed")
