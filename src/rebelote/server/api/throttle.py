"""Throttling: creations per client (sign-ups, guests, tables) and logins
with growing delays, on the `limits <https://limits.readthedocs.io>`_
library.

One :class:`Throttle` per app holds every counter in one ``limits``
storage (:attr:`~rebelote.server.settings.ServerSettings.throttle_uri`: in
memory by default; in Redis, through redis-py, when the processes share
one (``settings.redis_url``), so that every process counts the same
attempts; nothing else changes).  A refusal raises :class:`RateLimited`
with the seconds to wait; the REST layer answers 429 ``{"detail":
{"code": "rate_limited", "message", "retry_after"}}`` with a
``Retry-After`` header.  A storage that cannot be reached (Redis down)
raises :class:`ThrottleUnavailable`: 503 ``unavailable``, nothing counted
nor allowed.

The WebSockets one address holds open are counted by a
:class:`SocketCount` (:func:`socket_count`): in memory, or in Redis (a
sorted set per address, one member per open socket, refreshed by its
process and expiring ``settings.socket_ttl`` seconds after a killed
process stopped refreshing it).

Logins (:meth:`Throttle.login_claim`, then :meth:`LoginClaim.succeeded`
or :meth:`LoginClaim.release`): attempts are counted per (name, address)
pair, per address and per name, *before* the password is checked (as
failures, until the right password takes its back), so that attempts sent
at once cannot pass the limit together; past a number of free failures,
each further attempt takes its key's lock for a delay that doubles each
time, up to a cap, and the lock refuses every other attempt meanwhile (the
name alone has a small cap: someone trying passwords against an account
from elsewhere delays its owner a little, never locks him out).

Known devices (:meth:`Throttle.known_device`, :meth:`Throttle.remember_device`):
a browser that logged in to an account gets a random device token (a
cookie); the storage keeps, for ``settings.login_device_ttl`` seconds after
each success, that the token's SHA-256 logged in to that name.  An attempt
from a device known for the name it tries is neither counted nor refused
by the address's key (someone behind the same address, a NAT, sending
wrong passwords for other names does not lock its owner out); the pair's
and the name's keys count and lock it as any other.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ipaddress
import itertools
import logging
import math
import re
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from fastapi.responses import JSONResponse
from limits import RateLimitItem, parse_many
from limits.aio.storage import Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from limits.storage import storage_from_string
from redis.asyncio import ConnectionPool, Redis
from redis.commands.core import AsyncScript
from redis.exceptions import RedisError
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from rebelote.server.broker.redis import REDIS_TIMEOUT
from rebelote.server.settings import ServerSettings

__all__ = [
    "DEVICE_COOKIE",
    "LoginClaim",
    "MemorySocketCount",
    "MessageBudget",
    "RateLimited",
    "RedisSocketCount",
    "SocketCount",
    "Throttle",
    "ThrottleUnavailable",
    "address_key",
    "client_key",
    "device_token",
    "network_keys",
    "scaled_rate",
    "socket_count",
    "throttle_unavailable",
    "valid_device",
]

log = logging.getLogger(__name__)

_DOWN = (StorageError, RedisError, OSError)
"""What a storage out of reach raises (``limits``, redis-py)."""


class RateLimited(Exception):
    """Refused for now: try again in ``retry_after`` seconds (an integer,
    at least 1)."""

    def __init__(self, retry_after: float, message: str) -> None:
        super().__init__(message)
        self.retry_after = max(1, math.ceil(retry_after))
        self.message = message


class ThrottleUnavailable(Exception):
    """The throttles' storage cannot be reached (Redis down): nothing was
    allowed; REST answers 503 ``unavailable`` (:func:`throttle_unavailable`)."""


async def throttle_unavailable(request: Request, exc: Exception) -> Response:
    """503 ``{"detail": {"code": "unavailable", "message", "retry_after":
    1}}`` with ``Retry-After: 1``, for :class:`ThrottleUnavailable`."""
    assert isinstance(exc, ThrottleUnavailable)
    return JSONResponse(
        status_code=503,
        content={
            "detail": {
                "code": "unavailable",
                "message": "the server cannot count requests now: try again shortly",
                "retry_after": 1,
            }
        },
        headers={"Retry-After": "1"},
    )


@contextlib.asynccontextmanager
async def _reachable() -> AsyncIterator[None]:
    try:
        yield
    except _DOWN as exc:
        log.warning("throttle storage out of reach: %s", exc)
        raise ThrottleUnavailable(str(exc)) from exc


def client_key(conn: HTTPConnection) -> str:
    """The address a request comes from, as throttles count it: the IPv4
    address, or the /64 network of an IPv6 one (one machine holds a whole
    /64); ``unknown`` without one.  Behind a reverse proxy, uvicorn puts
    the real client's address there from ``X-Forwarded-For`` (proxies
    trusted: ``FORWARDED_ALLOW_IPS``, 127.0.0.1 by default)."""
    return address_key(conn.client.host if conn.client is not None else "")


def address_key(host: str) -> str:
    """:func:`client_key` of the address ``host`` (text)."""
    return network_keys(host)[0]


def network_keys(host: str) -> list[str]:
    """The keys the address ``host`` is counted under: an IPv4 address
    alone (``["192.0.2.7"]``); an IPv6 one by its /64, its /56 and its /48
    networks (``["2001:db8:1:200::/64", "2001:db8:1:200::/56",
    "2001:db8:1::/48"]``), an IPv4-mapped one as its IPv4 address;
    ``["unknown"]`` without one (anything else: its first 64 characters)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return [host[:64] or "unknown"]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return [str(address.ipv4_mapped)]
        return [
            str(ipaddress.ip_network(f"{address}/{bits}", strict=False)) for bits in (64, 56, 48)
        ]
    return [str(address)]


def scaled_rate(rate: str, factor: int) -> str:
    """``rate`` (a ``limits`` string, ``a;b``) with each amount times
    ``factor``: ``scaled_rate("10/minute;60/hour", 4)`` is ``"40 per 1
    minute;240 per 1 hour"``."""
    if factor == 1:
        return rate
    return ";".join(
        f"{item.amount * factor} per {item.multiples} {item.GRANULARITY.name}"
        for item in parse_many(rate)
    )


DEVICE_COOKIE = "rebelote_device"
"""The cookie holding a browser's device token (:func:`device_token`)."""

_DEVICE = re.compile(r"^[A-Za-z0-9_-]{43}$")


def device_token() -> str:
    """A new device token: 32 random bytes, URL-safe base64 (43
    characters)."""
    return secrets.token_urlsafe(32)


def valid_device(device: str | None) -> bool:
    """Whether ``device`` has the shape of a :func:`device_token` (any
    other cookie value is ignored)."""
    return device is not None and _DEVICE.match(device) is not None


def _digest(text: str) -> str:
    """32 hex digits of the SHA-256 of ``text`` (what the storage keeps of
    a name or a device token)."""
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class _Backoff:
    """One kind of login key: failures free before delays start, and the
    longest delay."""

    scope: str
    free: int
    cap: float


class Throttle:
    """Every counter of one app (see the module docstring).  Create it
    inside the running event loop (the memory storage starts a task);
    :meth:`close` it at the end.  A Redis storage's keys start with
    ``{settings.redis_prefix}limits:``."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        uri = settings.throttle_uri
        self._pool: ConnectionPool | None = None
        if uri.startswith(("async+redis://", "async+rediss://")):
            # redis-py (limits' default client, coredis, is not installed), on a
            # pool of ours so that close() ends its connections
            self._pool = ConnectionPool.from_url(
                uri.removeprefix("async+"),
                socket_connect_timeout=REDIS_TIMEOUT,
                socket_timeout=REDIS_TIMEOUT,
            )
            options: dict[str, Any] = {
                "implementation": "redispy",
                "key_prefix": f"{settings.redis_prefix}limits",
                "wrap_exceptions": True,
                "connection_pool": self._pool,
            }
            storage = storage_from_string(uri, **options)
        else:
            storage = storage_from_string(uri)
        if not isinstance(storage, Storage):
            raise ValueError(
                f"throttle_storage {uri!r} is not an async storage: "
                "use async+memory:// or async+redis://..."
            )
        self.storage: Storage = storage
        self.window = MovingWindowRateLimiter(storage)
        self._claim_script: AsyncScript | None = None
        if self._pool is not None:
            self._claim_script = Redis(connection_pool=self._pool).register_script(_CLAIM_LUA)
        self._claims = asyncio.Lock()  # one claim at a time on a memory storage
        self._rates: dict[str, list[RateLimitItem]] = {}
        self._backoffs = (
            _Backoff("pair", settings.login_pair_free, settings.login_pair_cap),
            _Backoff("address", settings.login_address_free, settings.login_address_cap),
            _Backoff("name", settings.login_name_free, settings.login_name_cap),
        )

    def _items(self, rate: str) -> list[RateLimitItem]:
        items = self._rates.get(rate)
        if items is None:
            items = self._rates[rate] = parse_many(rate)
        return items

    async def close(self) -> None:
        """End the storage's connections (a Redis one's)."""
        if self._pool is not None:
            with contextlib.suppress(*_DOWN):
                await self._pool.disconnect()

    def by_address(self, what: str, rate: str, conn: HTTPConnection) -> list[tuple[str, str, str]]:
        """The counts (for :meth:`hit_all`) of one ``what`` from the client
        of ``conn``, under ``rate``: by its address (:func:`client_key`),
        and for IPv6 also by its /56 and /48 networks under ``rate`` times
        ``settings.ipv6_56_factor`` and ``settings.ipv6_48_factor``."""
        keys = network_keys(conn.client.host if conn.client is not None else "")
        factors = (1, self.settings.ipv6_56_factor, self.settings.ipv6_48_factor)
        return [
            (what if i == 0 else f"{what}/{64 - 8 * i}", scaled_rate(rate, factor), key)
            for i, (key, factor) in enumerate(zip(keys, factors, strict=False))
        ]

    def creation(
        self, what: str, rate: str, global_rate: str, conn: HTTPConnection
    ) -> list[tuple[str, str, str]]:
        """The counts of one creation with a ceiling over every address
        (``signup``) from the client of ``conn``: :meth:`by_address` under
        ``rate``, and one count over every address together (the key
        ``all``) under ``global_rate``."""
        return [*self.by_address(what, rate, conn), (f"{what}/all", global_rate, "all")]

    async def hit(self, what: str, rate: str, key: str) -> None:
        """Count one ``what`` (``signup``, ``guest``, ``table``) by ``key``
        under ``rate`` (``"5/hour"``; ``a;b``: each must hold).  Raises
        :class:`RateLimited` (and counts nothing) when one is spent,
        :class:`ThrottleUnavailable` when the storage is out of reach."""
        await self.hit_all((what, rate, key))

    async def hit_all(self, *counts: tuple[str, str, str]) -> None:
        """Count one creation under several ``(what, rate, key)`` at once
        (e.g. per user and per address): all are checked before any is
        counted, so that a refusal (:class:`RateLimited`, the longest wait
        of the spent ones) counts nowhere.  Raises
        :class:`ThrottleUnavailable` when the storage is out of reach."""
        async with _reachable():
            await self._hit_all(counts)

    async def _hit_all(self, counts: tuple[tuple[str, str, str], ...]) -> None:
        wait = 0.0
        spent: RateLimitItem | None = None
        for what, rate, key in counts:
            for item in self._items(rate):
                if not await self.window.test(item, what, key):
                    stats = await self.window.get_window_stats(item, what, key)
                    if spent is None or stats.reset_time - time.time() > wait:
                        wait, spent = stats.reset_time - time.time(), item
        if spent is not None:
            raise RateLimited(wait, f"too many (at most {spent}): try again later")
        for what, rate, key in counts:
            for item in self._items(rate):
                await self.window.hit(item, what, key)

    # ------------------------------------------------------------ logins

    def _login_keys(
        self, name_key: str, address: str, *, known_device: bool = False
    ) -> list[tuple[_Backoff, str]]:
        name = _digest(name_key)
        ids = {"pair": f"{name}|{address}", "address": address, "name": name}
        return [
            (b, f"login:{b.scope}:{ids[b.scope]}")
            for b in self._backoffs
            if not (known_device and b.scope == "address")
        ]

    @staticmethod
    def _device_key(device: str, name_key: str) -> str:
        return f"login:device:{_digest(device)}|{_digest(name_key)}"

    async def known_device(self, device: str | None, name_key: str) -> bool:
        """Whether the device token ``device`` (the cookie's value; ``None``:
        none) logged in to the account ``name_key`` within
        ``settings.login_device_ttl`` seconds of its last success there.
        Raises :class:`ThrottleUnavailable`."""
        if not device:
            return False
        async with _reachable():
            return await self.storage.get(self._device_key(device, name_key)) > 0

    async def remember_device(self, device: str | None, name_key: str) -> str:
        """The device ``device`` (``None`` or not a token
        :func:`device_token` would make: a new one) logged in to the
        account ``name_key``: it is known there for
        ``settings.login_device_ttl`` seconds from now.  Returns the token
        (for the cookie).  Raises :class:`ThrottleUnavailable`."""
        if not valid_device(device):
            device = device_token()
        assert device is not None
        key = self._device_key(device, name_key)
        async with _reachable():
            await self.storage.clear(key)  # the expiry starts again
            await self.storage.incr(key, max(1, math.ceil(self.settings.login_device_ttl)))
        return device

    def _delay(self, backoff: _Backoff, failures: int) -> int:
        """The lock (whole seconds, at least 1) earned by failure number
        ``failures`` of a key: ``login_delay`` doubled for each failure
        past the free ones, at most the key's cap."""
        beyond = failures - backoff.free
        delay = min(backoff.cap, self.settings.login_delay * 2.0 ** min(beyond - 1, 40))
        return max(1, math.ceil(delay))

    async def login_claim(
        self, name_key: str, address: str, *, known_device: bool = False
    ) -> LoginClaim:
        """Count a login attempt of ``name_key`` (the name's comparison
        key) from ``address`` *before* its password is checked, as a
        failure until :meth:`LoginClaim.succeeded` says otherwise.
        ``known_device``: the attempt comes from a device known for that
        name (:meth:`known_device`): the address's key neither counts nor
        refuses it.

        Each key (pair, address, name) counts the attempt.  Within a
        key's free failures the attempt goes on; past them, it goes on
        only if the key's lock is free: it takes it, for the delay that
        failure earns, and the lock refuses every other attempt until it
        expires, however many arrive at once.  A refused attempt raises
        :class:`RateLimited` (with the longest wait of the locked keys)
        and counts nowhere: the claims it made on the other keys are
        given back.

        A claim is one step: with a Redis storage one Lua script
        (:data:`_CLAIM_LUA`), atomic across processes; with the memory
        storage, under a lock of this process.  Attempts sent at once thus
        count as if sent one after the other (the first lock past the free
        failures is ``settings.login_delay``, never a doubling earned by
        attempts that were then given back), whichever process each
        reaches.  Raises :class:`ThrottleUnavailable` when the storage is
        out of reach."""
        async with _reachable():
            return await self._login_claim(name_key, address, known_device)

    async def _login_claim(self, name_key: str, address: str, known_device: bool) -> LoginClaim:
        keys = self._login_keys(name_key, address, known_device=known_device)
        if self._claim_script is not None:
            return await self._redis_claim(name_key, address, keys)
        async with self._claims:
            return await self._memory_claim(name_key, address, keys)

    async def _redis_claim(
        self, name_key: str, address: str, keys: list[tuple[_Backoff, str]]
    ) -> LoginClaim:
        """:meth:`login_claim` in one Lua script (:data:`_CLAIM_LUA`): no
        other attempt, in any process, runs between its steps."""
        assert self._claim_script is not None
        prefix = f"{self.settings.redis_prefix}limits:"
        names = [f"{prefix}{key}:{part}" for _, key in keys for part in ("fails", "lock")]
        args: list[float] = [
            max(1, math.ceil(self.settings.login_forget_after)),
            self.settings.login_delay,
        ]
        for backoff, _ in keys:
            args += [backoff.free, backoff.cap]
        answer = [int(x) for x in await self._claim_script(keys=names, args=args)]
        if answer[0] < 0:
            raise RateLimited(answer[1] / 1000, _TOO_MANY_WRONG)
        claim = LoginClaim(self, name_key, address)
        claim.taken = [(b, key, delay) for (b, key), delay in zip(keys, answer[1:], strict=True)]
        return claim

    async def _memory_claim(
        self, name_key: str, address: str, keys: list[tuple[_Backoff, str]]
    ) -> LoginClaim:
        """:meth:`login_claim` on a memory storage, under the throttle's
        lock (one claim at a time in this process, the storage's only
        one)."""
        expiry = max(1, math.ceil(self.settings.login_forget_after))
        claim = LoginClaim(self, name_key, address)
        for backoff, key in keys:
            failures = await self.storage.incr(f"{key}:fails", expiry)
            if failures <= backoff.free:
                claim.taken.append((backoff, key, 0))
                continue
            delay = self._delay(backoff, failures)
            if await self.storage.incr(f"{key}:lock", delay) == 1:
                claim.taken.append((backoff, key, delay))
                continue
            await self._give_back(key)
            break
        else:
            return claim
        await claim._release()
        wait = 0.0
        for _, key in keys:
            if await self.storage.get(f"{key}:lock") > 0:
                # the clock read after the expiry (a Redis storage answers in
                # whole seconds: the wait must not round up past them)
                ends = await self.storage.get_expiry(f"{key}:lock")
                wait = max(wait, ends - time.time())
        raise RateLimited(wait, _TOO_MANY_WRONG)

    async def _give_back(self, key: str) -> None:
        """Take back one counted failure of ``key`` (never below 0)."""
        if await self.storage.get(f"{key}:fails") > 0:
            expiry = max(1, math.ceil(self.settings.login_forget_after))
            await self.storage.incr(f"{key}:fails", expiry, amount=-1)


_TOO_MANY_WRONG = "too many wrong passwords: wait before trying again"

_CLAIM_LUA = """
-- KEYS: fails, lock of each login key in turn; ARGV: forget-after (s),
-- login delay (s), then free failures and cap (s) of each key.
-- Returns {1, lock seconds taken per key (0: a free failure)} or
-- {-1, milliseconds until the longest lock ends}: refused, nothing counted.
local forget, base = tonumber(ARGV[1]), tonumber(ARGV[2])
local n = #KEYS / 2
local taken = {}
for i = 1, n do
  local fails_key, lock_key = KEYS[2 * i - 1], KEYS[2 * i]
  local free, cap = tonumber(ARGV[1 + 2 * i]), tonumber(ARGV[2 + 2 * i])
  local failures = redis.call('INCRBY', fails_key, 1)
  if failures == 1 then redis.call('EXPIRE', fails_key, forget) end
  if failures <= free then
    taken[i] = 0
  else
    local doubled = base * 2 ^ math.min(failures - free - 1, 40)
    local delay = math.max(1, math.ceil(math.min(cap, doubled)))
    if redis.call('SET', lock_key, 1, 'NX', 'EX', delay) then
      taken[i] = delay
    else
      for j = 1, i do
        local back = KEYS[2 * j - 1]
        if tonumber(redis.call('GET', back) or '0') > 0 then redis.call('DECRBY', back, 1) end
        if j < i and taken[j] > 0 then redis.call('DEL', KEYS[2 * j]) end
      end
      local wait = 0
      for j = 1, n do
        wait = math.max(wait, redis.call('PTTL', KEYS[2 * j]))
      end
      return {-1, wait}
    end
  end
end
local answer = {1}
for i = 1, n do answer[i + 1] = taken[i] end
return answer
"""
"""The Redis form of :meth:`Throttle.login_claim`, atomic: the steps of
the memory form (count each key's failure, past the free ones take its
lock for the delay that failure earns, or give everything back and tell
the longest wait), run as one script."""


class LoginClaim:
    """One login attempt counted by :meth:`Throttle.login_claim`: a
    failure unless :meth:`succeeded` is called, or :meth:`release` when
    the password could not be checked at all (``busy``, storage down).
    ``taken``: for each key, the seconds of the lock this attempt took
    there (0: none, a free failure)."""

    def __init__(self, throttle: Throttle, name_key: str, address: str) -> None:
        self.throttle = throttle
        self.name_key = name_key
        self.address = address
        self.taken: list[tuple[_Backoff, str, int]] = []

    @property
    def delay(self) -> int:
        """The seconds the next attempt waits if this one fails (the
        longest lock it took; 0: none)."""
        return max((seconds for _, _, seconds in self.taken), default=0)

    async def release(self) -> None:
        """The password was not checked: the attempt counts nowhere (its
        failures are given back, the locks it took are lifted).  Raises
        :class:`ThrottleUnavailable`."""
        async with _reachable():
            await self._release()

    async def _release(self) -> None:
        taken, self.taken = self.taken, []
        for _, key, locked in taken:
            await self.throttle._give_back(key)
            if locked:
                await self.throttle.storage.clear(f"{key}:lock")

    async def succeeded(self) -> None:
        """The right password: the pair's and the name's counts start
        again (not the address's, which only takes back this attempt: one's
        own account must not wipe the failures against others).  Raises
        :class:`ThrottleUnavailable`."""
        async with _reachable():
            await self._succeeded()

    async def _succeeded(self) -> None:
        taken, self.taken = self.taken, []
        storage = self.throttle.storage
        for backoff, key, locked in taken:
            if backoff.scope != "address":
                await storage.clear(f"{key}:fails")
                await storage.clear(f"{key}:lock")
                continue
            await self.throttle._give_back(key)
            if locked:
                await storage.clear(f"{key}:lock")


# ------------------------------------------------------------------ messages

Verdict = Literal["ok", "refused", "warn", "close"]


class MessageBudget:
    """The messages one WebSocket may send: a token bucket of ``burst``
    messages, refilled by ``rate`` a second (in one process: a socket lives
    in one).  :meth:`take` says what to do with each message:

    - ``ok``: read it (one token spent);
    - ``warn``: the first message of a run over the budget: not read, the
      client told once (``error`` ``rate_limited``);
    - ``refused``: not read, nothing said;
    - ``close``: ``excess`` messages were refused before the bucket could
      refill (the refused ones are owed: each takes a token when it
      comes back): the socket is closed.

    ``clock``: seconds (tests give their own)."""

    def __init__(
        self,
        burst: int,
        rate: float,
        excess: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.burst = max(1, burst)
        self.rate = rate
        self.excess = max(1, excess)
        self.clock = clock
        self.tokens = float(self.burst)
        self.at = clock()
        self.warned = False

    def take(self) -> Verdict:
        """Count one message (see the class docstring)."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.warned = False
            return "ok"
        self.tokens -= 1
        if self.tokens < 1 - self.excess:  # the excess-th owed (a partial token aside)
            return "close"
        if not self.warned:
            self.warned = True
            return "warn"
        return "refused"

    def refund(self) -> None:
        """Give back the token of a message read (an action applied: the
        game's pace bounds those, so playing never spends the budget)."""
        self.tokens = min(float(self.burst), self.tokens + 1)


# ------------------------------------------------------------------ sockets


class SocketCount(Protocol):
    """The WebSockets each client address holds open, counted against a
    cap (:class:`~rebelote.server.api.guard.Guard`)."""

    async def open(self, address: str, cap: int) -> str | None:
        """Count one more socket of ``address`` and return its ticket (give
        it to :meth:`close`), or ``None`` when ``address`` holds ``cap``
        open already (nothing counted)."""
        ...

    async def close(self, ticket: str) -> None:
        """The socket of ``ticket`` closed."""
        ...

    async def aclose(self) -> None:
        """Stop (the app ends): the counts of this process's open sockets
        are dropped."""
        ...


class MemorySocketCount:
    """:class:`SocketCount` of one process: a count per address."""

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}
        self._tickets: dict[str, str] = {}
        self._ids = itertools.count(1)

    async def open(self, address: str, cap: int) -> str | None:
        """See :meth:`SocketCount.open`."""
        held = self._counts.get(address, 0)
        if held >= cap:
            return None
        self._counts[address] = held + 1
        ticket = str(next(self._ids))
        self._tickets[ticket] = address
        return ticket

    async def close(self, ticket: str) -> None:
        """See :meth:`SocketCount.close`."""
        address = self._tickets.pop(ticket, None)
        if address is None:
            return
        left = self._counts[address] - 1
        if left > 0:
            self._counts[address] = left
        else:
            del self._counts[address]

    async def aclose(self) -> None:
        """See :meth:`SocketCount.aclose`."""
        self._counts.clear()
        self._tickets.clear()

    def held(self, address: str) -> int:
        """The sockets ``address`` holds open (tests)."""
        return self._counts.get(address, 0)


# KEYS: the address's sorted set; ARGV: cap, ttl (ms), member.  Members
# scored by their expiry (Redis's clock); the expired ones are removed first.
_SOCKET_OPEN = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""

# KEYS: the address's sorted set; ARGV: ttl (ms), then members to keep.
_SOCKET_REFRESH = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
"""


class RedisSocketCount:
    """:class:`SocketCount` shared by the processes of one Redis: the
    sorted set ``{prefix}sockets:{address}`` holds one member
    ``{process_id}:{n}`` per open socket, scored by its expiry (Redis's
    clock, ``ttl`` seconds ahead); each process refreshes its members every
    ``ttl / 3`` seconds, so that a killed process's sockets stop counting
    ``ttl`` seconds later.  Redis out of reach: a socket is let in
    uncounted (a warning is logged), never refused for it."""

    def __init__(self, redis: Redis, *, prefix: str, process_id: str, ttl: float = 30.0) -> None:
        self.redis = redis
        self.prefix = prefix
        self.process_id = process_id
        self.ttl = ttl
        self._open_script = redis.register_script(_SOCKET_OPEN)
        self._refresh_script = redis.register_script(_SOCKET_REFRESH)
        self._tickets: dict[str, str] = {}
        self._ids = itertools.count(1)
        self._refresher: asyncio.Task[None] | None = None

    def _key(self, address: str) -> str:
        return f"{self.prefix}sockets:{address}"

    async def open(self, address: str, cap: int) -> str | None:
        """See :meth:`SocketCount.open`."""
        member = f"{self.process_id}:{next(self._ids)}"
        try:
            counted = await self._open_script(
                keys=[self._key(address)], args=[cap, round(self.ttl * 1000), member]
            )
        except (RedisError, OSError) as exc:
            log.warning("sockets of %s not counted: Redis out of reach (%s)", address, exc)
            return member
        if not counted:
            return None
        self._tickets[member] = address
        if self._refresher is None:
            self._refresher = asyncio.create_task(self._refresh(), name="socket counts")
        return member

    async def close(self, ticket: str) -> None:
        """See :meth:`SocketCount.close`."""
        address = self._tickets.pop(ticket, None)
        if address is None:
            return
        try:
            await self.redis.zrem(self._key(address), ticket)
        except (RedisError, OSError) as exc:  # it expires by itself
            log.warning("socket count of %s not lowered: Redis out of reach (%s)", address, exc)

    async def _refresh(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            by_address: dict[str, list[str]] = {}
            for member, address in list(self._tickets.items()):
                by_address.setdefault(address, []).append(member)
            if not by_address:
                continue
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for address, members in by_address.items():
                        await self._refresh_script(
                            keys=[self._key(address)],
                            args=[round(self.ttl * 1000), *members],
                            client=pipe,
                        )
                    await pipe.execute()
            except (RedisError, OSError) as exc:
                log.warning("socket counts not refreshed: Redis out of reach (%s)", exc)

    async def aclose(self) -> None:
        """See :meth:`SocketCount.aclose` (this process's members are
        removed)."""
        if self._refresher is not None:
            self._refresher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._refresher
            self._refresher = None
        tickets, self._tickets = self._tickets, {}
        with contextlib.suppress(RedisError, OSError):
            for member, address in tickets.items():
                await self.redis.zrem(self._key(address), member)

    async def held(self, address: str) -> int:
        """The sockets ``address`` holds open in every process (tests)."""
        count: int = await self.redis.zcard(self._key(address))
        return count


def socket_count(settings: ServerSettings, redis: Redis | None, process_id: str) -> SocketCount:
    """The app's :class:`SocketCount`: in Redis when ``redis`` is given
    (``settings.redis_prefix``, ``settings.socket_ttl``), else in memory."""
    if redis is None:
        return MemorySocketCount()
    return RedisSocketCount(
        redis, prefix=settings.redis_prefix, process_id=process_id, ttl=settings.socket_ttl
    )
