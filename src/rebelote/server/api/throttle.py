"""Throttling: creations per client (sign-ups, guests, tables) and logins
with growing delays, on the `limits <https://limits.readthedocs.io>`_
library.

One :class:`Throttle` per app holds every counter in one ``limits``
storage (``settings.throttle_storage``: in memory by default; give a Redis
URI there when several processes serve the same tables, nothing else
changes).  A refusal raises :class:`RateLimited` with the seconds to wait;
the REST layer answers 429 ``{"detail": {"code": "rate_limited",
"message", "retry_after"}}`` with a ``Retry-After`` header.

Logins (:meth:`Throttle.login_claim`, then :meth:`LoginClaim.succeeded`
or :meth:`LoginClaim.release`): attempts are counted per (name, address)
pair, per address and per name, *before* the password is checked (as
failures, until the right password takes its back), so that attempts sent
at once cannot pass the limit together; past a number of free failures,
each further attempt takes its key's lock for a delay that doubles each
time, up to a cap, and the lock refuses every other attempt meanwhile (the
name alone has a small cap: someone trying passwords against an account
from elsewhere delays its owner a little, never locks him out).
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import time
from dataclasses import dataclass

from limits import RateLimitItem, parse_many
from limits.aio.storage import Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string
from starlette.requests import HTTPConnection

from rebelote.server.settings import ServerSettings

__all__ = ["LoginClaim", "RateLimited", "Throttle", "client_key"]


class RateLimited(Exception):
    """Refused for now: try again in ``retry_after`` seconds (an integer,
    at least 1)."""

    def __init__(self, retry_after: float, message: str) -> None:
        super().__init__(message)
        self.retry_after = max(1, math.ceil(retry_after))
        self.message = message


def client_key(conn: HTTPConnection) -> str:
    """The address a request comes from, as throttles count it: the IPv4
    address, or the /64 network of an IPv6 one (one machine holds a whole
    /64); ``unknown`` without one.  Behind a reverse proxy, uvicorn puts
    the real client's address there from ``X-Forwarded-For`` (proxies
    trusted: ``FORWARDED_ALLOW_IPS``, 127.0.0.1 by default)."""
    host = conn.client.host if conn.client is not None else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64] or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


@dataclass(frozen=True, slots=True)
class _Backoff:
    """One kind of login key: failures free before delays start, and the
    longest delay."""

    scope: str
    free: int
    cap: float


class Throttle:
    """Every counter of one app (see the module docstring).  Create it
    inside the running event loop (the memory storage starts a task)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        storage = storage_from_string(settings.throttle_storage)
        if not isinstance(storage, Storage):
            raise ValueError(
                f"throttle_storage {settings.throttle_storage!r} is not an async storage: "
                "use async+memory:// or async+redis://..."
            )
        self.storage: Storage = storage
        self.window = MovingWindowRateLimiter(storage)
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

    async def hit(self, what: str, rate: str, key: str) -> None:
        """Count one ``what`` (``signup``, ``guest``, ``table``) by ``key``
        under ``rate`` (``"5/hour"``; ``a;b``: each must hold).  Raises
        :class:`RateLimited` (and counts nothing) when one is spent."""
        await self.hit_all((what, rate, key))

    async def hit_all(self, *counts: tuple[str, str, str]) -> None:
        """Count one creation under several ``(what, rate, key)`` at once
        (e.g. per user and per address): all are checked before any is
        counted, so that a refusal (:class:`RateLimited`, the longest wait
        of the spent ones) counts nowhere."""
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

    def _login_keys(self, name_key: str, address: str) -> list[tuple[_Backoff, str]]:
        name = hashlib.sha256(name_key.encode("utf-8", "replace")).hexdigest()[:32]
        ids = {"pair": f"{name}|{address}", "address": address, "name": name}
        return [(b, f"login:{b.scope}:{ids[b.scope]}") for b in self._backoffs]

    def _delay(self, backoff: _Backoff, failures: int) -> int:
        """The lock (whole seconds, at least 1) earned by failure number
        ``failures`` of a key: ``login_delay`` doubled for each failure
        past the free ones, at most the key's cap."""
        beyond = failures - backoff.free
        delay = min(backoff.cap, self.settings.login_delay * 2.0 ** min(beyond - 1, 40))
        return max(1, math.ceil(delay))

    async def login_claim(self, name_key: str, address: str) -> LoginClaim:
        """Count a login attempt of ``name_key`` (the name's comparison
        key) from ``address`` *before* its password is checked, as a
        failure until :meth:`LoginClaim.succeeded` says otherwise.

        Each key (pair, address, name) counts the attempt with one atomic
        increment.  Within a key's free failures the attempt goes on; past
        them, it goes on only if it is the first to take the key's lock
        (also one atomic increment, expiring after the delay that failure
        earns): the lock then refuses every other attempt until it
        expires, however many arrive at once.  A refused attempt raises
        :class:`RateLimited` (with the longest wait of the locked keys)
        and counts nowhere: the claims it made on the other keys are
        given back."""
        expiry = max(1, math.ceil(self.settings.login_forget_after))
        claim = LoginClaim(self, name_key, address)
        keys = self._login_keys(name_key, address)
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
        await claim.release()
        wait, now = 0.0, time.time()
        for _, key in keys:
            if await self.storage.get(f"{key}:lock") > 0:
                wait = max(wait, await self.storage.get_expiry(f"{key}:lock") - now)
        raise RateLimited(wait, "too many wrong passwords: wait before trying again")

    async def _give_back(self, key: str) -> None:
        """Take back one counted failure of ``key`` (never below 0)."""
        if await self.storage.get(f"{key}:fails") > 0:
            expiry = max(1, math.ceil(self.settings.login_forget_after))
            await self.storage.incr(f"{key}:fails", expiry, amount=-1)


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
        failures are given back, the locks it took are lifted)."""
        taken, self.taken = self.taken, []
        for _, key, locked in taken:
            await self.throttle._give_back(key)
            if locked:
                await self.throttle.storage.clear(f"{key}:lock")

    async def succeeded(self) -> None:
        """The right password: the pair's and the name's counts start
        again (not the address's, which only takes back this attempt: one's
        own account must not wipe the failures against others)."""
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
