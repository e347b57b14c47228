"""Chat lines: cleaning, escaping, rate limiting (seed 000: "il est possible
de dialoguer avec les autres joueurs en saisissant le texte").

A line is cleaned at the edge (control and format characters removed,
spaces collapsed, at most :data:`~rebelote.server.protocol.messages.CHAT_MAX_CHARS`
characters), stored as typed, and sent with its HTML-escaped form beside
it; clients show it as text.  Each seat may say :data:`BURST` lines at once
and then one every :data:`REFILL_SECONDS` (a token bucket).
"""

from __future__ import annotations

import html
import unicodedata

from rebelote.server.protocol.messages import CHAT_MAX_CHARS, ChatData, ProtocolError

__all__ = ["BURST", "REFILL_SECONDS", "RateLimiter", "chat_data", "clean_chat"]

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


class RateLimiter:
    """A token bucket: :data:`BURST` lines, one more every
    :data:`REFILL_SECONDS`."""

    def __init__(self, burst: int = BURST, refill: float = REFILL_SECONDS) -> None:
        self.burst = burst
        self.refill = refill
        self._state: dict[str, tuple[float, float]] = {}

    def take(self, key: str, now: float) -> None:
        """Spend one line of ``key``'s bucket, or raise :class:`ProtocolError`
        ``rate_limited`` (nothing spent)."""
        tokens, last = self._state.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) / self.refill)
        if tokens < 1:
            wait = (1 - tokens) * self.refill
            raise ProtocolError("rate_limited", f"too many chat lines: wait {wait:.1f} s")
        self._state[key] = (tokens - 1, now)
