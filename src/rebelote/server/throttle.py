"""Throttling: creations per client (sign-ups, guests, tables) and logins
with growing delays, on the `limits <https://limits.readthedocs.io>`_
library.

One :class:`Throttle` per app holds every counter in one ``limits``
storage (``settings.throttle_storage``: in memory by default; give a Redis
URI there when several processes serve the same tables, nothing else
changes).  A refusal raises :class:`RateLimited` with the seconds to wait;
the REST layer answers 429 ``{"detail": {"code": "rate_limited",
"message", "retry_after"}}`` with a ``Retry-After`` header.

Logins (:meth:`Throttle.login_allowed`, :meth:`Throttle.login_failed`,
:meth:`Throttle.login_succeeded`): failures are counted per (name,
address) pair, per address and per name; past a number of free failures,
each further failure locks its key for a delay that doubles each time, up
to a cap (the name alone has a small cap: someone trying passwords against
an account from elsewhere delays its owner a little, never locks him out).
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

from .settings import ServerSettings

__all__ = ["RateLimited", "Throttle", "client_key"]


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
        items = self._items(rate)
        for item in items:
            if not await self.window.test(item, what, key):
                stats = await self.window.get_window_stats(item, what, key)
                raise RateLimited(
                    stats.reset_time - time.time(), f"too many (at most {item}): try again later"
                )
        for item in items:
            await self.window.hit(item, what, key)

    # ------------------------------------------------------------ logins

    def _login_keys(self, name_key: str, address: str) -> list[tuple[_Backoff, str]]:
        name = hashlib.sha256(name_key.encode("utf-8", "replace")).hexdigest()[:32]
        ids = {"pair": f"{name}|{address}", "address": address, "name": name}
        return [(b, f"login:{b.scope}:{ids[b.scope]}") for b in self._backoffs]

    async def login_allowed(self, name_key: str, address: str) -> None:
        """Raise :class:`RateLimited` while a login of ``name_key`` (the
        name's comparison key) from ``address`` must wait."""
        wait = 0.0
        now = time.time()
        for _, key in self._login_keys(name_key, address):
            if await self.storage.get(f"{key}:lock") > 0:
                wait = max(wait, await self.storage.get_expiry(f"{key}:lock") - now)
        if wait > 0:
            raise RateLimited(wait, "too many wrong passwords: wait before trying again")

    async def login_failed(self, name_key: str, address: str) -> float:
        """Count a wrong password; returns the seconds the next try must
        wait (0: none)."""
        settings = self.settings
        wait = 0.0
        for backoff, key in self._login_keys(name_key, address):
            failures = await self.storage.incr(
                f"{key}:fails", max(1, math.ceil(settings.login_forget_after))
            )
            beyond = failures - backoff.free
            if beyond > 0:
                delay = max(
                    1, math.ceil(min(backoff.cap, settings.login_delay * 2 ** min(beyond - 1, 40)))
                )
                await self.storage.clear(f"{key}:lock")
                await self.storage.incr(f"{key}:lock", delay)
                wait = max(wait, delay)
        return wait

    async def login_succeeded(self, name_key: str, address: str) -> None:
        """The right password: the pair's and the name's counts start
        again (not the address's: one's own account must not wipe the
        failures against others)."""
        for backoff, key in self._login_keys(name_key, address):
            if backoff.scope != "address":
                await self.storage.clear(f"{key}:fails")
                await self.storage.clear(f"{key}:lock")
