"""The Redis broker: several server processes sharing one Redis.

Every key and channel starts with ``prefix`` (``rb:`` by default); the
layout, the message formats and the lease rules are in
``docs/scale-out.md``.  In short:

- fan-out: one Lua script per batch adds each message to its seat's capped
  stream ``{prefix}s:{table}:{seat}`` (``XADD ... MAXLEN ~ stream_max``,
  entry id ``{v}-0``) and publishes it on the table's channel
  ``{prefix}c:{table}``; a process subscribes to that channel while it has
  listeners at the table, and fills a gap in the versions it receives from
  the stream;
- leases: ``{prefix}lease:{table}`` = ``{process_id}:{fence}`` with a time to
  live, set by a Lua script (``SET NX PX``) with the fence from ``INCR
  {prefix}fence:{table}``, renewed by a check-and-renew script;
- commands on ``{prefix}p:{process_id}``, replies on ``{prefix}r:{process_id}``
  (pub/sub, matched by request id);
- presence in the hash ``{prefix}presence:{table}`` (field per connection,
  value its expiry in Redis's clock), the lobby in the hash ``{prefix}lobby``
  with changes on ``{prefix}lobby:changes``, the live tables in the set
  ``{prefix}live``.

Redis restarting: the subscriber reconnects with backoff, subscribes again
and calls every listener's ``resync``; meanwhile the methods raise
:class:`~.base.BrokerUnavailable`.  A lease whose key vanished (Redis
restarted empty) is set again by the heartbeat when no other process took
it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

import redis as sync_redis
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.connection import AbstractConnection, ConnectionPool
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry as SyncRetry

from rebelote.seats import Seat
from rebelote.server.broker.base import (
    BrokerUnavailable,
    CommandError,
    Handler,
    Lease,
    LeaseLost,
    LobbyChanged,
    LobbySubscription,
    LostLease,
    Message,
    NoOwner,
    OwnerGone,
    PresenceChanged,
    Resync,
    Subscription,
    new_process_id,
    parse_counts,
    run_handler,
    safely,
    stream_letter,
)
from rebelote.server.broker.hub import BUFFER_SIZE, Deliver, Direct, MemoryHub, StreamKey
from rebelote.server.broker.hub import Subscription as HubSubscription

__all__ = ["REDIS_TIMEOUT", "STREAM_LETTERS", "RedisBroker", "UnlockedPool"]

log = logging.getLogger(__name__)

STREAM_LETTERS = ("N", "W", "S", "E", "-")
"""Every stream of a table: the seats', and the spectators' (``-``)."""

REDIS_TIMEOUT = 5.0
"""Seconds to connect to Redis and to wait for a command's answer (every
client of a server process: the broker's, the shared counters', the
throttle's).  2 s gave spurious timeouts on a loaded machine."""

OWNER_POLL = 0.25
"""Seconds between two reads of a table's lease while a command waits for
its driver's reply (a driver that dies meanwhile loses the lease: the
command goes to the next one without waiting for its timeout)."""

OWNERS_KEPT = 100_000
"""The most tables whose driver (another process) one process keeps in
memory for its commands; past it, it forgets them all and reads them again."""

_DOWN = (RedisConnectionError, RedisTimeoutError, OSError)
"""What redis-py raises when Redis cannot be reached."""

LOOP_STALL_TTLS = 5
"""The lease heartbeat runs in a thread of its own, so that an event loop
slowed down by load (hundreds of tables) does not let its leases expire;
but an event loop that has not turned for this many ``lease_ttl`` (stuck:
it would never drive its tables again) gets no renewal, and its leases
expire for another process to take."""

# KEYS[1] the lease, KEYS[2..] each message's stream; ARGV: channel, origin,
# stream_max, stream time to live (ms), the lease's value ('' for none), then
# seat, v, text for each message.  Returns -1 (lease not held) or one flag per
# message: 1 added, 0 already kept (skipped).  The added messages go out in
# one PUBLISH: 'E|{origin}', then one line '{seat}|{v}|{text}' each.
_PUBLISH = """
if ARGV[5] ~= '' and redis.call('GET', KEYS[1]) ~= ARGV[5] then return -1 end
local flags = {}
local touched = {}
local lines = {'E|' .. ARGV[2]}
local n = (#ARGV - 5) / 3
for i = 1, n do
  local seat = ARGV[3 * i + 3]
  local v = ARGV[3 * i + 4]
  local text = ARGV[3 * i + 5]
  local added = redis.pcall('XADD', KEYS[i + 1], 'MAXLEN', '~', ARGV[3], v .. '-0', 't', text)
  if type(added) == 'table' and added.err then
    flags[i] = 0
  else
    touched[KEYS[i + 1]] = true
    lines[#lines + 1] = seat .. '|' .. v .. '|' .. text
    flags[i] = 1
  end
end
for key in pairs(touched) do redis.call('PEXPIRE', key, ARGV[4]) end
if #lines > 1 then redis.call('PUBLISH', ARGV[1], table.concat(lines, '\\n')) end
return flags
"""

# KEYS: the lease, the fence counter; ARGV: process id, ttl (ms).
# Returns {1, fence} (acquired) or {0, current value}.
_ACQUIRE = """
local current = redis.call('GET', KEYS[1])
if current then return {0, current} end
local fence = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. fence, 'NX', 'PX', ARGV[2])
return {1, fence}
"""

# KEYS: leases, then their fence counters; ARGV: ttl (ms), then each lease's
# value and fence.  Returns one flag per lease: 1 renewed, 2 set again (its key
# had vanished and nobody else holds it: the fence counter is raised to at
# least its fence), 0 lost (another value).
_RENEW = """
local n = #KEYS / 2
local flags = {}
for i = 1, n do
  local current = redis.call('GET', KEYS[i])
  if current == ARGV[2 * i] then
    redis.call('PEXPIRE', KEYS[i], ARGV[1])
    flags[i] = 1
  elseif not current then
    redis.call('SET', KEYS[i], ARGV[2 * i], 'PX', ARGV[1])
    local fence = tonumber(ARGV[2 * i + 1])
    if (tonumber(redis.call('GET', KEYS[n + i])) or 0) < fence then
      redis.call('SET', KEYS[n + i], fence)
    end
    flags[i] = 2
  else
    flags[i] = 0
  end
end
return flags
"""

# KEYS: the lease; ARGV: its value.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: the presence hash, the table's lease, the calling process's alive
# key; ARGV: op ('enter': add or refresh, 'leave', 'prune'), ttl (ms), the
# owners' channel prefix, the table id, the alive keys' prefix, the alive
# keys' ttl (ms), then fields ('{seat}|{process}|{connection}').  Expired
# fields are removed, and those of a process whose alive key is gone (it
# died: its heartbeat stopped); 'enter' sets the caller's alive key.
# Returns the counts as JSON ({"S": 2, "-": 1}); when they changed, also
# publishes 'p|{table}|{counts}' to the lease holder's process channel.
_PRESENCE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local ttl = tonumber(ARGV[2])
local changed = false
for i = 7, #ARGV do
  if ARGV[1] == 'enter' then
    if redis.call('HSET', KEYS[1], ARGV[i], now + ttl) == 1 then changed = true end
  elseif ARGV[1] == 'leave' then
    if redis.call('HDEL', KEYS[1], ARGV[i]) == 1 then changed = true end
  end
end
if ARGV[1] == 'enter' and #ARGV >= 7 then
  redis.call('PEXPIRE', KEYS[1], 2 * ttl)
  redis.call('SET', KEYS[3], '1', 'PX', ARGV[6])
end
local all = redis.call('HGETALL', KEYS[1])
local counts = {}
local alive = {}
for i = 1, #all, 2 do
  local process = string.match(all[i], '^[^|]*|(.*)|[^|]*$')
  if process and alive[process] == nil then
    alive[process] = redis.call('EXISTS', ARGV[5] .. process) == 1
  end
  if tonumber(all[i + 1]) <= now or (process and not alive[process]) then
    redis.call('HDEL', KEYS[1], all[i])
    changed = true
  else
    local seat = string.match(all[i], '^([^|]*)|')
    counts[seat] = (counts[seat] or 0) + 1
  end
end
local encoded = cjson.encode(counts)
if changed then
  local lease = redis.call('GET', KEYS[2])
  if lease then
    local owner = string.match(lease, '^(.*):%d+$')
    redis.call('PUBLISH', ARGV[3] .. owner, 'p|' .. ARGV[4] .. '|' .. encoded)
  end
end
return encoded
"""

# KEYS: the lobby hash; ARGV: table id, room JSON, changes channel, origin.
_LOBBY_PUT = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PUBLISH', ARGV[3], 'p|' .. ARGV[4] .. '|' .. ARGV[1] .. '|' .. ARGV[2])
return 1
"""

# KEYS: the lobby hash; ARGV: table id, changes channel, origin.
_LOBBY_REMOVE = """
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('PUBLISH', ARGV[2], 'd|' .. ARGV[3] .. '|' .. ARGV[1])
return 1
"""

# KEYS: the live set, its grace key; ARGV: the lease keys' prefix.
_ORPHANS = """
if redis.call('EXISTS', KEYS[2]) == 1 then return {} end
local found = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[1] .. id) == 0 then table.insert(found, id) end
end
return found
"""

# KEYS: the live set, its marker, its grace key; ARGV: the grace (ms), then
# the table ids.  Returns 1 (filled) or 0 (the marker was there).
_SEED_LIVE = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
for i = 2, #ARGV do redis.call('SADD', KEYS[1], ARGV[i]) end
redis.call('SET', KEYS[2], '1')
redis.call('SET', KEYS[3], '1', 'PX', ARGV[1])
return 1
"""


class UnlockedPool(ConnectionPool):
    """redis-py's asyncio pool, but a connection is checked out without the
    pool's lock: redis-py holds it while it makes sure the connection is
    ready (``connect``, then a read to see that nothing is left on the
    socket), so every command of the process waited for the one before to
    be checked out, at each event loop turn.  Taking a connection from the
    list is synchronous (no other task runs meanwhile): the lock protects
    nothing else.  Used by the broker's command client only (the login
    throttle and the shared counters keep redis-py's own pool)."""

    async def get_connection(self, *args: Any, **kwargs: Any) -> AbstractConnection:
        """A connection ready to send a command (made when none is free;
        ``redis.exceptions.ConnectionError`` past ``max_connections``, and
        what connecting raises)."""
        connection: AbstractConnection = self.get_available_connection()  # type: ignore[no-untyped-call]
        try:
            await self.ensure_connection(connection)
        except BaseException:
            await self.release(connection)
            raise
        return connection


@contextlib.contextmanager
def _reachable(what: str) -> Iterator[None]:
    """Raise :class:`BrokerUnavailable` for Redis being out of reach."""
    try:
        yield
    except _DOWN as exc:
        raise BrokerUnavailable(f"Redis cannot be reached ({what}): {exc}") from exc


def _seat(letter: str) -> StreamKey:
    return None if letter == "-" else Seat[letter]


class RedisBroker:
    """The :class:`~.base.Broker` of processes sharing the Redis at ``url``
    (``redis://host:port/db``).

    ``prefix``: of every key and channel (processes that share tables use
    the same); ``lease_ttl`` (seconds): a lease's time to live, renewed every
    third of it; ``presence_ttl`` (seconds): a connection's, refreshed every
    third of it; ``stream_max``: messages kept per stream (approximately:
    ``MAXLEN ~``, at least that many); ``stream_ttl`` (seconds): a stream
    nobody published to for that long is dropped; ``timeout`` (seconds): to
    connect, for a command's answer, and for a subscription's
    confirmation; ``process_id``:
    a fixed id (tests), else a new one."""

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "rb:",
        lease_ttl: float = 3.0,
        presence_ttl: float = 6.0,
        stream_max: int = BUFFER_SIZE,
        stream_ttl: float = 86400.0,
        timeout: float = REDIS_TIMEOUT,
        process_id: str | None = None,
    ) -> None:
        if lease_ttl <= 0 or presence_ttl <= 0 or stream_max < 1 or stream_ttl <= 0:
            raise ValueError("lease_ttl, presence_ttl, stream_ttl > 0 and stream_max >= 1")
        self.url = url
        self.prefix = prefix
        self.lease_ttl = lease_ttl
        self.presence_ttl = presence_ttl
        self.stream_max = stream_max
        self.stream_ttl = stream_ttl
        self.timeout = timeout
        self._id = process_id or new_process_id()
        # Commands: one quick retry (a pooled connection dead after a restart),
        # then BrokerUnavailable.  The subscriber: no retry, it reconnects itself.
        # Any, as from_url's client was: redis-py types its commands' results
        # as "Awaitable[T] | T" on the shared command classes
        self._redis: Any = Redis.from_pool(
            UnlockedPool.from_url(
                url,
                decode_responses=True,
                socket_connect_timeout=timeout,
                socket_timeout=timeout,
                retry=Retry(ExponentialBackoff(cap=0.1, base=0.02), 1),
            )
        )
        self._sub_redis = Redis.from_url(
            url,
            decode_responses=True,
            socket_connect_timeout=timeout,
            retry=Retry(NoBackoff(), 0),
            health_check_interval=5,
        )
        self._publish_script = self._script(_PUBLISH)
        self._acquire_script = self._script(_ACQUIRE)
        self._renew_script = self._script(_RENEW)
        self._release_script = self._script(_RELEASE)
        self._presence_script = self._script(_PRESENCE)
        self._lobby_put_script = self._script(_LOBBY_PUT)
        self._lobby_remove_script = self._script(_LOBBY_REMOVE)
        self._orphans_script = self._script(_ORPHANS)
        self._seed_live_script = self._script(_SEED_LIVE)
        # the subscriber
        self._pubsub: PubSub | None = None
        self._up = asyncio.Event()
        self._wanted: dict[str, int] = {}
        self._active: set[str] = set()
        self._confirming: dict[str, asyncio.Future[bool]] = {}
        self._sub_lock = asyncio.Lock()
        # local fan-out
        self._local = MemoryHub(buffer_size=1)
        self._streams: dict[tuple[str, StreamKey], dict[Subscription, HubSubscription]] = {}
        self._publishing: list[tuple[list[str], list[str | int], asyncio.Future[Any]]] = []
        self._last: dict[tuple[str, StreamKey], int] = {}
        self._lobby_listeners: list[LobbySubscription] = []
        # leases
        # (the heartbeat thread reads _held and writes _renewed under _lease_guard;
        # the event loop alone adds to and removes from _held)
        self._held: dict[str, Lease] = {}
        self._renewed: dict[str, float] = {}  # time.monotonic() of the last renewal
        self._on_lost: LostLease | None = None
        self._lease_guard = threading.Lock()
        self._loop_beat = time.monotonic()
        self._heart: threading.Thread | None = None
        self._heart_stop = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sync_redis: sync_redis.Redis | None = None
        # commands
        self._handler: Handler | None = None
        self._replies: dict[str, asyncio.Future[dict[str, Any] | None]] = {}
        self._owners: dict[str, str] = {}  # table -> its driver (another process)
        self._ids = itertools.count(1)
        # presence
        self._conns: dict[str, dict[str, StreamKey]] = {}
        self._on_presence: PresenceChanged | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self._closed = False

    def _script(self, source: str) -> AsyncScript:
        script: AsyncScript = self._redis.register_script(source)
        return script

    # ----------------------------------------------------------------- names

    @property
    def process_id(self) -> str:
        """See :attr:`.base.Broker.process_id`."""
        return self._id

    def _lease_key(self, table_id: str) -> str:
        return f"{self.prefix}lease:{table_id}"

    def _fence_key(self, table_id: str) -> str:
        return f"{self.prefix}fence:{table_id}"

    def _stream_key(self, table_id: str, letter: str) -> str:
        return f"{self.prefix}s:{table_id}:{letter}"

    def _table_channel(self, table_id: str) -> str:
        return f"{self.prefix}c:{table_id}"

    def _process_channel(self, process_id: str) -> str:
        return f"{self.prefix}p:{process_id}"

    def _alive_key(self, process_id: str) -> str:
        return f"{self.prefix}alive:{process_id}"

    def _reply_channel(self, process_id: str) -> str:
        return f"{self.prefix}r:{process_id}"

    def _presence_key(self, table_id: str) -> str:
        return f"{self.prefix}presence:{table_id}"

    @property
    def _lobby_key(self) -> str:
        return f"{self.prefix}lobby"

    @property
    def _lobby_channel(self) -> str:
        return f"{self.prefix}lobby:changes"

    @property
    def _live_key(self) -> str:
        return f"{self.prefix}live"

    def _lease_value(self, lease: Lease) -> str:
        return f"{lease.owner}:{lease.fence}"

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """See :meth:`.base.Broker.start`: subscribes to this process's
        command and reply channels, then starts the subscriber, the lease
        heartbeat (every ``lease_ttl / 3`` s) and the presence refresher
        (every ``presence_ttl / 3`` s)."""
        if self._loops:
            return
        await self._connect_subscriber(resync=False)
        with _reachable("alive"):
            await self._redis.set(self._alive_key(self._id), "1", px=round(self.lease_ttl * 1000))
        self._loop = asyncio.get_running_loop()
        self._loop_beat = time.monotonic()
        self._loops = [
            asyncio.create_task(self._read(), name="broker subscriber"),
            asyncio.create_task(self._watch_renewals(), name="broker lease watch"),
            asyncio.create_task(self._refresh_presence(), name="broker presence"),
        ]
        self._sync_redis = sync_redis.Redis.from_url(
            self.url,
            decode_responses=True,
            socket_connect_timeout=self.lease_ttl,
            socket_timeout=self.lease_ttl,
            retry=SyncRetry(NoBackoff(), 0),
        )
        self._heart_stop.clear()
        self._heart = threading.Thread(
            target=self._heartbeat, args=(self._sync_redis,), name="lease heartbeat", daemon=True
        )
        self._heart.start()

    async def _stop_tasks(self) -> None:
        heart, self._heart = self._heart, None
        if heart is not None:
            self._heart_stop.set()
            await asyncio.to_thread(heart.join)
        if self._sync_redis is not None:
            self._sync_redis.close()
            self._sync_redis = None
        tasks = [*self._loops, *self._tasks]
        self._loops = []
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        self._up.clear()
        await self._drop_subscriber()

    async def close(self) -> None:
        """See :meth:`.base.Broker.close`."""
        if self._closed:
            return
        self._closed = True
        await self._stop_tasks()
        with contextlib.suppress(BrokerUnavailable, *_DOWN):
            async with asyncio.timeout(self.timeout):
                for table_id, conns in list(self._conns.items()):
                    fields = [self._field(seat, conn) for conn, seat in conns.items()]
                    await self._presence_op("leave", table_id, fields)
                for lease in list(self._held.values()):
                    await self._release_script(
                        keys=[self._lease_key(lease.table_id)], args=[self._lease_value(lease)]
                    )
        self._conns.clear()
        self._held.clear()
        await self._redis.aclose()
        await self._sub_redis.aclose()

    async def abandon(self) -> None:
        """Stop as a killed process would (for tests): every task stops and
        the subscriber's connection closes, but no lease is released and no
        presence removed (they expire).  The method calls still reach Redis,
        as a process waking up from a long pause would."""
        await self._stop_tasks()

    # ----------------------------------------------------------- subscriber

    async def _connect_subscriber(self, *, resync: bool) -> None:
        """A new subscriber connection, subscribed to every channel wanted;
        raises :class:`BrokerUnavailable`."""
        pubsub = self._sub_redis.pubsub()
        channels = [
            self._process_channel(self._id),
            self._reply_channel(self._id),
            *self._wanted,
        ]
        early: list[dict[str, Any]] = []
        try:
            with _reachable("subscribe"):
                async with self._sub_lock:
                    await pubsub.subscribe(*channels)
                    pending = set(channels)
                    async with asyncio.timeout(self.timeout):
                        while pending:
                            message = await pubsub.get_message(timeout=self.timeout)
                            if message is None:
                                continue
                            if message["type"] == "subscribe":
                                pending.discard(message["channel"])
                            else:
                                early.append(message)
                    self._pubsub = pubsub
                    self._active = set(channels)
        except (BrokerUnavailable, TimeoutError) as exc:
            with contextlib.suppress(*_DOWN):
                await pubsub.aclose()
            raise BrokerUnavailable(f"Redis cannot be reached (subscribe): {exc}") from exc
        self._up.set()
        for message in early:
            await self._handle(message)
        if resync:
            for subscriptions in list(self._streams.values()):
                for subscription in list(subscriptions):
                    if subscription.resync is not None:
                        safely(subscription.resync)
            for listener in list(self._lobby_listeners):
                if listener.resync is not None:
                    safely(listener.resync)

    async def _drop_subscriber(self) -> None:
        """The subscriber's connection is lost (or closed): whatever waits
        for it fails."""
        self._up.clear()
        self._owners.clear()  # Redis may come back empty: read them again
        pubsub, self._pubsub = self._pubsub, None
        self._active.clear()
        for future in self._confirming.values():
            if not future.done():
                future.set_result(False)
        self._confirming.clear()
        for reply in self._replies.values():
            if not reply.done():
                reply.set_result(None)
        if pubsub is not None:
            with contextlib.suppress(*_DOWN, asyncio.TimeoutError):
                async with asyncio.timeout(self.timeout):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _read(self) -> None:
        """The subscriber: dispatches every message; on a lost connection,
        reconnects with backoff (0.05 s doubling up to 2 s) and resyncs."""
        delay = 0.05
        while True:
            try:
                if self._pubsub is None:
                    await self._connect_subscriber(resync=True)
                    log.info("broker %s: subscriber reconnected", self._id)
                    delay = 0.05
                pubsub = self._pubsub
                assert pubsub is not None
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None:
                        await self._handle(message)
            except asyncio.CancelledError:
                raise
            except (*_DOWN, BrokerUnavailable) as exc:
                log.warning("broker %s: subscriber lost Redis (%s)", self._id, exc)
                await self._drop_subscriber()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
            except Exception:
                log.exception("broker %s: subscriber failed", self._id)
                await self._drop_subscriber()
                await asyncio.sleep(delay)

    async def _handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        channel: str = message["channel"]
        if kind == "subscribe":
            future = self._confirming.pop(channel, None)
            if future is not None and not future.done():
                future.set_result(True)
            return
        if kind != "message":
            return
        data: str = message["data"]
        try:
            if channel.startswith(f"{self.prefix}c:"):
                await self._on_table(channel[len(self.prefix) + 2 :], data)
            elif channel == self._reply_channel(self._id):
                self._on_reply(data)
            elif channel == self._process_channel(self._id):
                self._on_process(data)
            elif channel == self._lobby_channel:
                self._on_lobby(data)
        except Exception:
            log.exception("broker %s: bad message on %s: %.200s", self._id, channel, data)

    async def _want(self, channel: str) -> None:
        """Count one more user of ``channel``; subscribe to it when it is
        the first, and wait for the confirmation.  Raises
        :class:`BrokerUnavailable` (nothing counted)."""
        self._wanted[channel] = self._wanted.get(channel, 0) + 1
        try:
            pubsub = self._pubsub
            if pubsub is None or not self._up.is_set():
                raise BrokerUnavailable("Redis cannot be reached (subscriber down)")
            async with self._sub_lock:
                if channel not in self._active:
                    self._active.add(channel)
                    self._confirming[channel] = asyncio.get_running_loop().create_future()
                    try:
                        with _reachable("subscribe"):
                            await pubsub.subscribe(channel)
                    except BrokerUnavailable:
                        self._active.discard(channel)
                        self._confirming.pop(channel).set_result(False)
                        raise
                future = self._confirming.get(channel)
            if future is not None:
                try:
                    async with asyncio.timeout(self.timeout):
                        confirmed = await asyncio.shield(future)
                except TimeoutError:
                    confirmed = False
                if not confirmed:
                    raise BrokerUnavailable("Redis cannot be reached (no subscription)")
        except BaseException:
            self._unwant(channel)
            raise

    def _unwant(self, channel: str) -> None:
        """Count one user of ``channel`` less; unsubscribe when none is
        left."""
        n = self._wanted.get(channel, 0) - 1
        if n > 0:
            self._wanted[channel] = n
            return
        self._wanted.pop(channel, None)
        if channel.startswith(f"{self.prefix}c:"):
            table_id = channel[len(self.prefix) + 2 :]
            for letter in STREAM_LETTERS:
                self._last.pop((table_id, _seat(letter)), None)
            self._local.forget(table_id)
        self._spawn(self._unsubscribe(channel))

    async def _unsubscribe(self, channel: str) -> None:
        async with self._sub_lock:
            if self._wanted.get(channel) or channel not in self._active:
                return
            self._active.discard(channel)
            pubsub = self._pubsub
            if pubsub is not None:
                with contextlib.suppress(*_DOWN):
                    await pubsub.unsubscribe(channel)

    def _spawn(self, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------- fan-out

    def _deliver_local(self, table_id: str, seat: StreamKey, v: int, text: str) -> None:
        """Deliver a message to this process's listeners (if any)."""
        if self._local.listeners(table_id, seat) == 0:
            return
        self._last[(table_id, seat)] = v
        self._local.publish(table_id, seat, v, text)

    async def publish(
        self, table_id: str, messages: Sequence[Message], *, lease: Lease | None = None
    ) -> None:
        """See :meth:`.base.Broker.publish`: one Lua script, which publishes
        the batch's messages in one payload; the scripts of every publish
        asked for during one turn of the event loop go to Redis together
        (one pipeline: one round trip); then this process's listeners get
        the messages added.  A text holding a line break raises
        ``ValueError`` (nothing sent: a JSON text has none)."""
        if not messages:
            return
        keys = [self._lease_key(table_id)]
        args: list[str | int] = [
            self._table_channel(table_id),
            self._id,
            self.stream_max,
            round(self.stream_ttl * 1000),
            "" if lease is None else self._lease_value(lease),
        ]
        for seat, v, text in messages:
            if "\n" in text:
                raise ValueError(f"message {v} of table {table_id} holds a line break")
            letter = stream_letter(seat)
            keys.append(self._stream_key(table_id, letter))
            args += [letter, v, text]
        try:
            with _reachable("publish"):
                flags = await self._publish_soon(keys, args)
        except BrokerUnavailable:
            for seat, v, text in messages:
                if v > self._last.get((table_id, seat), 0):
                    self._deliver_local(table_id, seat, v, text)
            raise
        if flags == -1:
            if lease is not None and self._held.get(table_id) == lease:
                self._lost(table_id)
            raise LeaseLost(table_id)
        for (seat, v, text), added in zip(messages, flags, strict=True):
            if added:
                self._deliver_local(table_id, seat, v, text)

    def _publish_soon(self, keys: list[str], args: list[str | int]) -> asyncio.Future[Any]:
        """The publish script's answer for ``keys`` and ``args``, run with
        every other publish of this turn of the event loop (see
        :meth:`_send_publishes`); the future raises what redis-py raised."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        if not self._publishing:
            loop.call_soon(self._start_publishes)
        self._publishing.append((keys, args, future))
        return future

    def _start_publishes(self) -> None:
        batch, self._publishing = self._publishing, []
        if batch:
            self._spawn(self._send_publishes(batch))

    async def _send_publishes(
        self, batch: list[tuple[list[str], list[str | int], asyncio.Future[Any]]]
    ) -> None:
        """Run the publish script once per entry of ``batch``, in order, in
        one pipeline (``EVALSHA``; a Redis that no longer knows the script,
        restarted or flushed, gets it again and the entries it refused are
        sent again, in order), and settle each entry's future."""
        script = self._publish_script
        try:
            results = await self._evalsha_all(script.sha, batch)
            if any(isinstance(r, NoScriptError) for r in results):
                await self._redis.script_load(script.script)
                again = [
                    e for e, r in zip(batch, results, strict=True) if isinstance(r, NoScriptError)
                ]
                retried = iter(await self._evalsha_all(script.sha, again))
                results = [next(retried) if isinstance(r, NoScriptError) else r for r in results]
        except BaseException as exc:
            for _, _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            if isinstance(exc, asyncio.CancelledError):
                raise
            return
        for (_, _, future), result in zip(batch, results, strict=True):
            if future.done():
                continue
            if isinstance(result, BaseException):
                future.set_exception(result)
            else:
                future.set_result(result)

    async def _evalsha_all(
        self, sha: str, batch: list[tuple[list[str], list[str | int], asyncio.Future[Any]]]
    ) -> list[Any]:
        """One ``EVALSHA`` per entry, in one pipeline; each answer or error."""
        async with self._redis.pipeline(transaction=False) as pipe:
            for keys, args, _ in batch:
                pipe.execute_command("EVALSHA", sha, len(keys), *keys, *args)
            results: list[Any] = await pipe.execute(raise_on_error=False)
        return results

    async def broadcast(self, table_id: str, text: str, sender: str | None = None) -> None:
        """See :meth:`.base.Broker.broadcast`."""
        try:
            with _reachable("broadcast"):
                await self._redis.publish(
                    self._table_channel(table_id), f"b|{self._id}|{sender or ''}|{text}"
                )
        finally:
            self._local.broadcast(table_id, text, sender)

    async def _on_table(self, table_id: str, data: str) -> None:
        if data.startswith("E|"):
            header, _, body = data.partition("\n")
            if header[2:] == self._id:
                return  # delivered when published
            for line in body.split("\n"):
                letter, raw_v, text = line.split("|", 2)
                await self._receive(table_id, _seat(letter), int(raw_v), text)
            return
        kind, origin, rest = data.split("|", 2)
        if origin == self._id:
            return  # delivered when published
        if kind == "e":  # one message (a process of an earlier version)
            letter, raw_v, text = rest.split("|", 2)
            await self._receive(table_id, _seat(letter), int(raw_v), text)
        elif kind == "b":
            sender, text = rest.split("|", 1)
            self._local.broadcast(table_id, text, sender or None)

    async def _receive(self, table_id: str, seat: StreamKey, v: int, text: str) -> None:
        """Deliver a message from another process, after the ones missed
        before it (read from the stream), or a resync when they are no
        longer kept."""
        key = (table_id, seat)
        last = self._last.get(key)
        if last is not None and v <= last:
            return
        if last is not None and v > last + 1 and self._local.listeners(table_id, seat):
            try:
                with _reachable("gap"):
                    entries = await self._redis.xrange(
                        self._stream_key(table_id, stream_letter(seat)),
                        f"{last + 1}-0",
                        f"{v - 1}-0",
                    )
                missed = [(int(entry_id.split("-")[0]), f["t"]) for entry_id, f in entries]
            except BrokerUnavailable:
                missed = []
            if [m for m, _ in missed] == list(range(last + 1, v)):
                for mv, mtext in missed:
                    self._deliver_local(table_id, seat, mv, mtext)
            else:
                for subscription in list(self._streams.get(key, {})):
                    if subscription.resync is not None:
                        safely(subscription.resync)
        self._last[key] = v
        self._deliver_local(table_id, seat, v, text)

    async def subscribe(
        self,
        table_id: str,
        seat: StreamKey,
        deliver: Deliver,
        direct: Direct | None = None,
        resync: Resync | None = None,
    ) -> Subscription:
        """See :meth:`.base.Broker.subscribe`: returns once the table's
        channel is subscribed."""
        await self._want(self._table_channel(table_id))
        subscription = Subscription(table_id, seat, deliver, direct, resync)
        inner = self._local.subscribe(table_id, seat, deliver, direct)
        self._streams.setdefault((table_id, seat), {})[subscription] = inner
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """See :meth:`.base.Broker.unsubscribe`."""
        key = (subscription.table_id, subscription.seat)
        subscriptions = self._streams.get(key)
        if subscriptions is None or subscription not in subscriptions:
            return
        self._local.unsubscribe(subscriptions.pop(subscription))
        if not subscriptions:
            del self._streams[key]
        self._unwant(self._table_channel(subscription.table_id))

    async def since(
        self, table_id: str, seat: StreamKey, last_v: int
    ) -> list[tuple[int, str]] | None:
        """See :meth:`.base.Broker.since`: read from the seat's stream (one
        round trip)."""
        if last_v < 0:
            return None
        key = self._stream_key(table_id, stream_letter(seat))
        with _reachable("since"):
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.xrevrange(key, "+", "-", count=1)
                pipe.xrange(key, f"{last_v + 1}-0", "+")
                top, entries = await pipe.execute()
        last = int(top[0][0].split("-")[0]) if top else 0
        if last_v > last:
            return None
        if last_v == last:
            return []
        found = [(int(entry_id.split("-")[0]), fields["t"]) for entry_id, fields in entries]
        if [v for v, _ in found] != list(range(last_v + 1, last + 1)):
            return None  # trimmed, or a message never reached Redis
        return found

    async def last_versions(self, table_id: str) -> dict[StreamKey, int]:
        """See :meth:`.base.Broker.last_versions` (one pipeline of five
        ``XREVRANGE ... COUNT 1``)."""
        with _reachable("last versions"):
            async with self._redis.pipeline(transaction=False) as pipe:
                for letter in STREAM_LETTERS:
                    pipe.xrevrange(self._stream_key(table_id, letter), "+", "-", count=1)
                tops = await pipe.execute()
        return {
            _seat(letter): int(top[0][0].split("-")[0])
            for letter, top in zip(STREAM_LETTERS, tops, strict=True)
            if top
        }

    async def forget(self, table_id: str) -> None:
        """See :meth:`.base.Broker.forget`."""
        with _reachable("forget"):
            await self._redis.delete(*(self._stream_key(table_id, s) for s in STREAM_LETTERS))
        for letter in STREAM_LETTERS:
            self._last.pop((table_id, _seat(letter)), None)
        self._local.forget(table_id)

    def listeners(self, table_id: str, seat: StreamKey) -> int:
        """See :meth:`.base.Broker.listeners`."""
        return self._local.listeners(table_id, seat)

    # -------------------------------------------------------------- leases

    async def acquire(self, table_id: str) -> Lease | None:
        """See :meth:`.base.Broker.acquire`."""
        ttl = round(self.lease_ttl * 1000)
        sent = time.monotonic()
        with _reachable("acquire"):
            acquired, value = await self._acquire_script(
                keys=[self._lease_key(table_id), self._fence_key(table_id)], args=[self._id, ttl]
            )
        self._owners.pop(table_id, None)
        if acquired:
            lease = Lease(table_id, self._id, int(value))
        else:
            owner, _, fence = str(value).rpartition(":")
            if owner != self._id:
                return None
            lease = Lease(table_id, owner, int(fence))
        if self._held.get(table_id) != lease:
            self._held[table_id] = lease
            self._renewed[table_id] = sent
        return lease

    async def renew(self, lease: Lease) -> bool:
        """See :meth:`.base.Broker.renew` (a lease whose key vanished and
        that nobody else took is set again; a lease this process released
        or lost is not renewed)."""
        async with self._guarded():
            if self._held.get(lease.table_id) != lease:
                return False
            sent = time.monotonic()
            keys, args = self._renew_request([lease])
            with _reachable("renew"):
                flags = await self._renew_script(keys=keys, args=args)
            lost = self._renewed_as(sent, [lease], flags)
        for gone in lost:
            self._lost_if_held(gone)
        return not lost

    @contextlib.asynccontextmanager
    async def _guarded(self) -> AsyncIterator[None]:
        """Hold ``_lease_guard`` from the event loop: not while the
        heartbeat thread renews (it holds the guard through its renewal, a
        few milliseconds), and without blocking the loop meanwhile."""
        while not self._lease_guard.acquire(blocking=False):
            await asyncio.sleep(0.001)
        try:
            yield
        finally:
            self._lease_guard.release()

    def _renew_request(self, leases: list[Lease]) -> tuple[list[str], list[str | int]]:
        """The keys and arguments of the renewal script for ``leases``."""
        keys = [self._lease_key(lease.table_id) for lease in leases]
        keys += [self._fence_key(lease.table_id) for lease in leases]
        args: list[str | int] = [round(self.lease_ttl * 1000)]
        for lease in leases:
            args += [self._lease_value(lease), lease.fence]
        return keys, args

    def _renewed_as(self, sent: float, leases: list[Lease], flags: list[int]) -> list[Lease]:
        """Record the renewal script's answer ``flags`` for ``leases`` (the
        script sent at ``sent``, ``time.monotonic()``), under
        ``_lease_guard``; returns the leases found lost (another value),
        for the event loop to drop."""
        lost = []
        for lease, flag in zip(leases, flags, strict=True):
            if flag:
                if self._held.get(lease.table_id) == lease:
                    self._renewed[lease.table_id] = sent
                if flag == 2:
                    log.warning("broker %s: lease of %s set again", self._id, lease.table_id)
            else:
                lost.append(lease)
        return lost

    def _lost_if_held(self, lease: Lease) -> None:
        """``lease`` was found lost: drop it if this process still holds it
        (it may have been released, or acquired again, meanwhile)."""
        if self._held.get(lease.table_id) == lease:
            self._lost(lease.table_id)

    def _lost(self, table_id: str) -> None:
        """This process lost ``table_id``'s lease: forget it, tell."""
        if self._held.pop(table_id, None) is None:
            return
        self._renewed.pop(table_id, None)
        log.warning("broker %s: lost the lease of %s", self._id, table_id)
        if self._on_lost is not None:
            safely(self._on_lost, table_id)

    async def release(self, lease: Lease) -> None:
        """See :meth:`.base.Broker.release`."""
        async with self._guarded():  # not while the heartbeat renews it
            if self._held.get(lease.table_id) == lease:
                del self._held[lease.table_id]
                self._renewed.pop(lease.table_id, None)
            with _reachable("release"):
                await self._release_script(
                    keys=[self._lease_key(lease.table_id)], args=[self._lease_value(lease)]
                )

    async def owner_of(self, table_id: str) -> str | None:
        """See :meth:`.base.Broker.owner_of` (read in Redis; what it reads
        is the holder :meth:`call` keeps for the table)."""
        with _reachable("owner"):
            value = await self._redis.get(self._lease_key(table_id))
        owner = None if value is None else str(value).rpartition(":")[0]
        if owner is None or owner == self._id:
            self._owners.pop(table_id, None)
        else:
            if table_id not in self._owners and len(self._owners) >= OWNERS_KEPT:
                self._owners.clear()
            self._owners[table_id] = owner
        return owner

    def held(self, table_id: str) -> Lease | None:
        """See :meth:`.base.Broker.held`: ``None`` too for a lease not
        renewed for ``lease_ttl`` (it may have expired: this process was
        paused, or Redis is out of reach) until a renewal succeeds."""
        lease = self._held.get(table_id)
        if lease is None:
            return None
        renewed = self._renewed.get(table_id)
        if renewed is None or time.monotonic() - renewed >= self.lease_ttl:
            return None
        return lease

    def watch_leases(self, on_lost: LostLease | None) -> None:
        """See :meth:`.base.Broker.watch_leases`."""
        self._on_lost = on_lost

    def _heartbeat(self, client: sync_redis.Redis) -> None:
        """The heartbeat thread: every ``lease_ttl / 3`` s, set this
        process's alive key and renew every lease held, in one script, on
        ``client`` (a blocking connection of its own), while the event loop
        turns (see :data:`LOOP_STALL_TTLS`).  A lease found taken by
        another process is dropped on the event loop; one not renewed for
        ``lease_ttl`` (Redis out of reach) is dropped by
        :meth:`_watch_renewals`.  Ends when ``_heart_stop`` is set."""
        renew = client.register_script(_RENEW)
        ttl_ms = round(self.lease_ttl * 1000)
        stalled = False
        while not self._heart_stop.wait(self.lease_ttl / 3):
            if time.monotonic() - self._loop_beat > LOOP_STALL_TTLS * self.lease_ttl:
                if not stalled:
                    log.warning("broker %s: the event loop is stuck; leases not renewed", self._id)
                stalled = True
                continue
            stalled = False
            lost: list[Lease] = []
            try:
                # before the leases: it expires first
                client.set(self._alive_key(self._id), "1", px=ttl_ms)
                with self._lease_guard:
                    leases = list(self._held.values())
                    if leases:
                        sent = time.monotonic()
                        keys, args = self._renew_request(leases)
                        lost = self._renewed_as(sent, leases, renew(keys=keys, args=args))
            except _DOWN:
                continue
            except Exception:
                log.exception("broker %s: heartbeat failed", self._id)
                continue
            if lost and self._loop is not None:
                for lease in lost:
                    with contextlib.suppress(RuntimeError):  # the loop closed
                        self._loop.call_soon_threadsafe(self._lost_if_held, lease)

    async def _watch_renewals(self) -> None:
        """On the event loop, every ``lease_ttl / 3`` s: tell the heartbeat
        thread that the loop turns, and drop every lease not renewed for
        ``lease_ttl`` (Redis out of reach, or the loop was stuck): it may
        have expired, and another process may drive the table."""
        while True:
            now = time.monotonic()
            self._loop_beat = now
            for table_id in list(self._held):
                renewed = self._renewed.get(table_id)
                if renewed is None or now - renewed >= self.lease_ttl:
                    self._lost(table_id)
            await asyncio.sleep(self.lease_ttl / 3)

    # ------------------------------------------------------------ commands

    def serve(self, handler: Handler | None) -> None:
        """See :meth:`.base.Broker.serve`."""
        self._handler = handler

    async def call(self, table_id: str, op: str, args: dict[str, Any], timeout: float = 2.0) -> Any:
        """See :meth:`.base.Broker.call`: the command goes to the lease
        holder's process channel (the local handler when it is this
        process), the reply comes on this process's reply channel.  The
        holder is read once and kept (:data:`OWNERS_KEPT` tables at most)
        until a call to it fails or is refused (it died, dropped the table,
        answered ``moved`` or an error), or :meth:`owner_of` reads another."""
        if not self._up.is_set():
            raise BrokerUnavailable("Redis cannot be reached (subscriber down)")
        owner = self._owners.get(table_id)
        if owner is None:
            owner = await self.owner_of(table_id)
        if owner is None:
            raise NoOwner(table_id)
        if owner == self._id:
            if table_id not in self._held:
                raise OwnerGone(table_id, owner, "this process no longer drives the table")
            if self._handler is None:
                raise OwnerGone(table_id, owner, "it serves no commands")
            return await run_handler(self._handler, table_id, op, args)
        try:
            return await self._call_remote(table_id, owner, op, args, timeout)
        except BaseException:
            if self._owners.get(table_id) == owner:
                del self._owners[table_id]
            raise

    async def _call_remote(
        self, table_id: str, owner: str, op: str, args: dict[str, Any], timeout: float
    ) -> Any:
        """Send a command to process ``owner`` and wait for its reply."""
        request_id = str(next(self._ids))
        request = {"id": request_id, "reply_to": self._id, "table": table_id, "op": op}
        payload = "c|" + json.dumps({**request, "args": args})
        future: asyncio.Future[dict[str, Any] | None] = asyncio.get_running_loop().create_future()
        self._replies[request_id] = future
        try:
            with _reachable("call"):
                receivers = await self._redis.publish(self._process_channel(owner), payload)
            if receivers == 0:
                raise OwnerGone(table_id, owner, "no process listens on its channel")
            reply = await self._await_reply(table_id, owner, future, timeout)
        finally:
            self._replies.pop(request_id, None)
        if reply is None:
            raise BrokerUnavailable("Redis cannot be reached (lost while waiting for a reply)")
        if "gone" in reply:
            raise OwnerGone(table_id, owner, str(reply["gone"]))
        if reply["ok"]:
            return reply["result"]
        error = reply["error"]
        raise CommandError(str(error["code"]), str(error["message"]), error.get("extra"))

    async def _await_reply(
        self,
        table_id: str,
        owner: str,
        future: asyncio.Future[dict[str, Any] | None],
        timeout: float,
    ) -> dict[str, Any] | None:
        """Wait for the reply of ``owner`` (the table's driver when the
        command was sent), reading the table's lease every
        :data:`OWNER_POLL` s meanwhile: a lease that expired or moved to
        another process (the driver died, its table was taken over) ends
        the wait at once with :class:`OwnerGone`, as does ``timeout`` s
        without a reply (the caller sends the command again: actions carry
        ids)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            left = deadline - loop.time()
            if left <= 0:
                raise OwnerGone(table_id, owner, f"no reply within {timeout} s")
            done, _ = await asyncio.wait({future}, timeout=min(left, OWNER_POLL))
            if done:
                return future.result()
            try:
                now = await self.owner_of(table_id)
            except BrokerUnavailable:
                continue
            if now != owner:
                held = "nobody" if now is None else now
                raise OwnerGone(table_id, owner, f"its lease moved (now {held}) before it replied")

    def _on_reply(self, data: str) -> None:
        reply = json.loads(data)
        future = self._replies.get(str(reply["id"]))
        if future is not None and not future.done():
            future.set_result(reply)

    def _on_process(self, data: str) -> None:
        kind, rest = data.split("|", 1)
        if kind == "c":
            self._spawn(self._answer(json.loads(rest)))
        elif kind == "p":
            table_id, counts = rest.split("|", 1)
            if table_id in self._held and self._on_presence is not None:
                safely(self._on_presence, table_id, parse_counts(json.loads(counts)))

    async def _answer(self, request: dict[str, Any]) -> None:
        """Run a command sent by another process and send the reply."""
        request_id, table_id = request["id"], request["table"]
        reply: dict[str, Any]
        if table_id not in self._held:
            reply = {"id": request_id, "ok": False, "gone": "it no longer drives the table"}
        elif self._handler is None:
            reply = {"id": request_id, "ok": False, "gone": "it serves no commands"}
        else:
            try:
                result = await run_handler(self._handler, table_id, request["op"], request["args"])
                reply = {"id": request_id, "ok": True, "result": result}
            except CommandError as exc:
                error: dict[str, Any] = {"code": exc.code, "message": exc.message}
                if exc.extra:
                    error["extra"] = exc.extra
                reply = {"id": request_id, "ok": False, "error": error}
        try:
            text = json.dumps(reply)
        except (TypeError, ValueError):
            log.exception("command %s on %s: the result is not JSON", request["op"], table_id)
            error = {"code": "internal", "message": "the result is not JSON"}
            text = json.dumps({"id": request_id, "ok": False, "error": error})
        try:
            with _reachable("reply"):
                await self._redis.publish(self._reply_channel(request["reply_to"]), text)
        except BrokerUnavailable:
            log.warning("broker %s: reply %s lost", self._id, request_id)

    # ------------------------------------------------------------ presence

    def _field(self, seat: StreamKey, conn_id: str) -> str:
        return f"{stream_letter(seat)}|{self._id}|{conn_id}"

    def _presence_keys(self, table_id: str) -> list[str]:
        return [self._presence_key(table_id), self._lease_key(table_id), self._alive_key(self._id)]

    def _presence_args(self, op: str, table_id: str) -> list[str | int]:
        return [
            op,
            round(self.presence_ttl * 1000),
            f"{self.prefix}p:",
            table_id,
            f"{self.prefix}alive:",
            round(self.lease_ttl * 1000),
        ]

    async def _presence_op(self, op: str, table_id: str, fields: list[str]) -> dict[str, int]:
        with _reachable("presence"):
            counts = await self._presence_script(
                keys=self._presence_keys(table_id),
                args=[*self._presence_args(op, table_id), *fields],
            )
        parsed: dict[str, int] = json.loads(counts)
        return parsed

    async def enter(self, table_id: str, seat: StreamKey, conn_id: str) -> None:
        """See :meth:`.base.Broker.enter`."""
        await self._presence_op("enter", table_id, [self._field(seat, conn_id)])
        self._conns.setdefault(table_id, {})[conn_id] = seat

    async def leave(self, table_id: str, seat: StreamKey, conn_id: str) -> None:
        """See :meth:`.base.Broker.leave`."""
        conns = self._conns.get(table_id)
        if conns is not None:
            conns.pop(conn_id, None)
            if not conns:
                del self._conns[table_id]
        await self._presence_op("leave", table_id, [self._field(seat, conn_id)])

    async def presence(self, table_id: str) -> dict[StreamKey, int]:
        """See :meth:`.base.Broker.presence` (expired entries are removed,
        and the driver told)."""
        return parse_counts(await self._presence_op("prune", table_id, []))

    def watch_presence(self, changed: PresenceChanged | None) -> None:
        """See :meth:`.base.Broker.watch_presence`."""
        self._on_presence = changed

    async def _refresh_presence(self) -> None:
        """Every ``presence_ttl / 3`` s: refresh this process's connections,
        and remove the expired ones of the tables it drives (their driver,
        this process, is told)."""
        while True:
            await asyncio.sleep(self.presence_ttl / 3)
            tables = set(self._conns) | set(self._held)
            if not tables:
                continue
            try:
                with _reachable("presence"):
                    async with self._redis.pipeline(transaction=False) as pipe:
                        for table_id in tables:
                            conns = self._conns.get(table_id, {})
                            fields = [self._field(seat, conn) for conn, seat in conns.items()]
                            op = "enter" if fields else "prune"
                            await self._presence_script(
                                keys=self._presence_keys(table_id),
                                args=[*self._presence_args(op, table_id), *fields],
                                client=pipe,
                            )
                        await pipe.execute()
            except BrokerUnavailable:
                pass
            except Exception:
                log.exception("broker %s: presence refresh failed", self._id)

    # --------------------------------------------------------------- lobby

    def _lobby_changed(self, table_id: str, room: str | None) -> None:
        for listener in list(self._lobby_listeners):
            safely(listener.changed, table_id, room)

    def _on_lobby(self, data: str) -> None:
        kind, origin, rest = data.split("|", 2)
        if origin == self._id:
            return
        if kind == "p":
            table_id, room = rest.split("|", 1)
            self._lobby_changed(table_id, room)
        elif kind == "d":
            self._lobby_changed(rest, None)

    async def lobby_put(self, table_id: str, room: str) -> None:
        """See :meth:`.base.Broker.lobby_put`."""
        with _reachable("lobby"):
            changed = await self._lobby_put_script(
                keys=[self._lobby_key], args=[table_id, room, self._lobby_channel, self._id]
            )
        if changed:
            self._lobby_changed(table_id, room)

    async def lobby_remove(self, table_id: str) -> None:
        """See :meth:`.base.Broker.lobby_remove`."""
        with _reachable("lobby"):
            changed = await self._lobby_remove_script(
                keys=[self._lobby_key], args=[table_id, self._lobby_channel, self._id]
            )
        if changed:
            self._lobby_changed(table_id, None)

    async def lobby(self) -> dict[str, str]:
        """See :meth:`.base.Broker.lobby`."""
        with _reachable("lobby"):
            rooms: dict[str, str] = await self._redis.hgetall(self._lobby_key)
        return rooms

    async def subscribe_lobby(
        self, changed: LobbyChanged, resync: Resync | None = None
    ) -> LobbySubscription:
        """See :meth:`.base.Broker.subscribe_lobby`."""
        await self._want(self._lobby_channel)
        subscription = LobbySubscription(changed, resync)
        self._lobby_listeners.append(subscription)
        return subscription

    def unsubscribe_lobby(self, subscription: LobbySubscription) -> None:
        """See :meth:`.base.Broker.unsubscribe_lobby`."""
        if subscription in self._lobby_listeners:
            self._lobby_listeners.remove(subscription)
            self._unwant(self._lobby_channel)

    # --------------------------------------------------------- live tables

    async def add_live(self, table_id: str) -> None:
        """See :meth:`.base.Broker.add_live`."""
        with _reachable("live"):
            await self._redis.sadd(self._live_key, table_id)

    async def remove_live(self, table_id: str) -> None:
        """See :meth:`.base.Broker.remove_live`."""
        with _reachable("live"):
            await self._redis.srem(self._live_key, table_id)

    async def live(self) -> set[str]:
        """See :meth:`.base.Broker.live`."""
        with _reachable("live"):
            members: set[str] = await self._redis.smembers(self._live_key)
        return set(members)

    async def orphans(self) -> list[str]:
        """See :meth:`.base.Broker.orphans`."""
        with _reachable("live"):
            found = await self._orphans_script(
                keys=[self._live_key, f"{self._live_key}:grace"], args=[f"{self.prefix}lease:"]
            )
        return sorted(str(t) for t in found)

    async def live_seeded(self) -> bool:
        """See :meth:`.base.Broker.live_seeded`: whether the marker
        ``{prefix}live:seeded`` exists."""
        with _reachable("live"):
            return bool(await self._redis.exists(f"{self._live_key}:seeded"))

    async def seed_live(self, table_ids: Sequence[str]) -> bool:
        """See :meth:`.base.Broker.seed_live`: one script adds the ids and
        sets the marker ``{prefix}live:seeded``, and ``{prefix}live:grace``
        for ``lease_ttl`` (:meth:`orphans` answers none meanwhile)."""
        key = self._live_key
        with _reachable("live"):
            filled = await self._seed_live_script(
                keys=[key, f"{key}:seeded", f"{key}:grace"],
                args=[round(self.lease_ttl * 1000), *table_ids],
            )
        return bool(filled)
