"""Chat lines: cleaning, escaping, rate limiting (seed 000: "il est possible
de dialoguer avec les autres joueurs en saisissant le texte").

A line is cleaned at the edge (control and format characters removed,
spaces collapsed, at most :data:`~rebelote.server.protocol.messages.CHAT_MAX_CHARS`
characters), stored as typed, and sent with its HTML-escaped form beside
it; clients show it as text.  Each seat may say :data:`BURST` lines at once
and then one every :data:`REFILL_SECONDS` (a token bucket): in memory for one
process (:class:`RateLimiter`), in Redis when several share the tables
(:class:`RedisRateLimiter`, the same rule in one Lua script, so that a seat's
lines count together whichever process receives them).
"""

from __future__ import annotations

import html
import logging
import unicodedata
from typing import Protocol

from redis.asyncio import Redis
from redis.exceptions import RedisError

from rebelote.server.protocol.messages import CHAT_MAX_CHARS, ChatData, ProtocolError

__all__ = [
    "BURST",
    "REFILL_SECONDS",
    "ChatLimiter",
    "RateLimiter",
    "RedisRateLimiter",
    "chat_data",
    "clean_chat",
]

log = logging.getLogger(__name__)

BURST = 5
"""Lines a seat may say in a row."""

REFILL_SECONDS = 2.0
"""Seconds to earn one more line after a burst."""


def clean_chat(text: str) -> str:
    """The line to keep: without control or format characters (``Cc``,
    ``Cf``, ``Cs``, ``Co``), spaces collapsed.  Raises :class:`ProtocolError`
    ``bad_message`` when nothing is left or it is too long."""
    kept = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in text)
    line = " ".join(kept.split())
    if not line:
        raise ProtocolError("bad_message", "an empty chat line")
    if len(line) > CHAT_MAX_CHARS:
        raise ProtocolError("bad_message", f"a chat line holds at most {CHAT_MAX_CHARS} characters")
    return line


def chat_data(line_id: int, seat: str, name: str, text: str, at: float) -> ChatData:
    """The ``chat`` message of a stored line (``html``: ``text`` escaped)."""
    return ChatData(
        id=line_id, seat=seat, name=name, text=text, html=html.escape(text, quote=True), at=at
    )


class ChatLimiter(Protocol):
    """The chat's rate limit: :data:`BURST` lines, one more every
    :data:`REFILL_SECONDS`, per key (a table's seat)."""

    async def take(self, key: str, now: float) -> None:
        """Spend one line of ``key``'s bucket at ``now`` (Unix seconds), or
        raise :class:`ProtocolError` ``rate_limited`` (nothing spent)."""
        ...


def _refused(wait: float) -> ProtocolError:
    return ProtocolError("rate_limited", f"too many chat lines: wait {wait:.1f} s")


class RateLimiter:
    """A token bucket in memory: :data:`BURST` lines, one more every
    :data:`REFILL_SECONDS`."""

    def __init__(self, burst: int = BURST, refill: float = REFILL_SECONDS) -> None:
        self.burst = burst
        self.refill = refill
        self._state: dict[str, tuple[float, float]] = {}

    async def take(self, key: str, now: float) -> None:
        """See :meth:`ChatLimiter.take`."""
        tokens, last = self._state.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) / self.refill)
        if tokens < 1:
            raise _refused((1 - tokens) * self.refill)
        self._state[key] = (tokens - 1, now)


# The same bucket as a "generic cell rate": KEYS[1] holds the time (ms, Redis's
# clock) at which the bucket is full again; ARGV: refill (ms), burst.  A line
# is let through while that time is at most (burst - 1) refills ahead.
# Returns 0 (spent) or the milliseconds to wait.
_TAKE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local refill = tonumber(ARGV[1])
local full = math.max(tonumber(redis.call('GET', KEYS[1]) or 0), now)
local ahead = full - now - (tonumber(ARGV[2]) - 1) * refill
if ahead > 0 then return ahead end
redis.call('SET', KEYS[1], full + refill, 'PX', full + refill - now)
return 0
"""


class RedisRateLimiter:
    """The token bucket of :class:`RateLimiter` in Redis (key
    ``{prefix}chat:{key}``, expiring once the bucket is full again), on
    Redis's clock: ``now`` is not used, so that processes on machines whose
    clocks differ count alike.  Redis out of reach: :class:`ProtocolError`
    ``unavailable`` (nothing said)."""

    def __init__(
        self, redis: Redis, *, prefix: str, burst: int = BURST, refill: float = REFILL_SECONDS
    ) -> None:
        self.redis = redis
        self.prefix = prefix
        self.burst = burst
        self.refill = refill
        self._script = redis.register_script(_TAKE)

    async def take(self, key: str, now: float) -> None:
        """See :meth:`ChatLimiter.take`."""
        try:
            ahead = await self._script(
                keys=[f"{self.prefix}chat:{key}"], args=[round(self.refill * 1000), self.burst]
            )
        except (RedisError, OSError) as exc:
            log.warning("chat rate limit out of reach: %s", exc)
            raise ProtocolError("unavailable", "the chat is out of reach: try again") from exc
        if int(ahead) > 0:
            raise _refused(int(ahead) / 1000)
