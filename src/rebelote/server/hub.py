"""Fan-out: each seat's numbered event stream, its recent past and its
listeners.

:class:`Fanout` is the small interface the tables publish through, so that a
Redis implementation (pub/sub for live events, a capped stream per seat for
the recent past) can replace :class:`MemoryHub` when several server
processes share the tables.  A message is published once per seat, already
redacted for it, as ``(v, text)``: ``v`` its version in the stream, ``text``
the JSON envelope.

A reconnecting client asks for what came after its last version
(:meth:`Fanout.since`): the hub answers with the missed messages while its
bounded buffer still holds them, else ``None`` and the client gets a snapshot.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..seats import Seat

__all__ = ["BUFFER_SIZE", "Deliver", "Fanout", "MemoryHub", "Subscription"]

BUFFER_SIZE = 1024
"""Messages kept per seat for resuming (a whole match of four players is
about 100 messages a deal)."""


Deliver = Callable[[int, str], None]
"""A listener's callback: ``deliver(v, text)`` for each new message.  It must
not block (it runs inside :meth:`Fanout.publish`)."""


@dataclass(eq=False, frozen=True)
class Subscription:
    """One listener (a socket) of ``seat``'s stream at ``table_id``."""

    table_id: str
    seat: Seat
    deliver: Deliver


class Fanout(Protocol):
    """What the tables and sockets need from the fan-out."""

    def publish(self, table_id: str, seat: Seat, v: int, text: str) -> None:
        """Send message ``v`` of ``seat``'s stream to its listeners and keep it
        for resuming."""
        ...

    def since(self, table_id: str, seat: Seat, last_v: int) -> list[tuple[int, str]] | None:
        """The messages after ``last_v``, or ``None`` when some are no longer
        kept (or ``last_v`` is ahead of the stream)."""
        ...

    def subscribe(self, table_id: str, seat: Seat, deliver: Deliver) -> Subscription:
        """A new listener of ``seat``'s stream: ``deliver`` gets every message
        published from now on."""
        ...

    def unsubscribe(self, subscription: Subscription) -> None:
        """Remove a listener."""
        ...

    def forget(self, table_id: str) -> None:
        """Drop a table's buffers (its listeners stay until they leave)."""
        ...


class _Stream:
    __slots__ = ("buffer", "last", "listeners")

    def __init__(self, size: int) -> None:
        self.buffer: deque[tuple[int, str]] = deque(maxlen=size)
        self.listeners: set[Subscription] = set()
        self.last = 0


class MemoryHub:
    """The in-process :class:`Fanout`: a bounded buffer of ``buffer_size``
    messages per seat, and callbacks for listeners.  Call it from the
    event loop's thread only."""

    def __init__(self, buffer_size: int = BUFFER_SIZE) -> None:
        self.buffer_size = buffer_size
        self._streams: dict[tuple[str, Seat], _Stream] = {}

    def _stream(self, table_id: str, seat: Seat) -> _Stream:
        key = (table_id, seat)
        stream = self._streams.get(key)
        if stream is None:
            stream = self._streams[key] = _Stream(self.buffer_size)
        return stream

    def publish(self, table_id: str, seat: Seat, v: int, text: str) -> None:
        """See :meth:`Fanout.publish`."""
        stream = self._stream(table_id, seat)
        stream.buffer.append((v, text))
        stream.last = v
        for listener in list(stream.listeners):
            listener.deliver(v, text)

    def since(self, table_id: str, seat: Seat, last_v: int) -> list[tuple[int, str]] | None:
        """See :meth:`Fanout.since`."""
        stream = self._stream(table_id, seat)
        if last_v > stream.last:
            return None
        if last_v == stream.last:
            return []
        if not stream.buffer or stream.buffer[0][0] > last_v + 1:
            return None
        return [(v, text) for v, text in stream.buffer if v > last_v]

    def subscribe(self, table_id: str, seat: Seat, deliver: Deliver) -> Subscription:
        """See :meth:`Fanout.subscribe`."""
        subscription = Subscription(table_id, seat, deliver)
        self._stream(table_id, seat).listeners.add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """See :meth:`Fanout.unsubscribe`."""
        stream = self._streams.get((subscription.table_id, subscription.seat))
        if stream is not None:
            stream.listeners.discard(subscription)

    def forget(self, table_id: str) -> None:
        """See :meth:`Fanout.forget`."""
        for key in [k for k in self._streams if k[0] == table_id]:
            stream = self._streams[key]
            stream.buffer.clear()
            if not stream.listeners:
                del self._streams[key]

    def listeners(self, table_id: str, seat: Seat) -> int:
        """How many listeners ``seat``'s stream has (for tests and metrics)."""
        stream = self._streams.get((table_id, seat))
        return 0 if stream is None else len(stream.listeners)
