"""Fan-out: each seat's numbered event stream, its recent past and its
listeners.

:class:`Fanout` is the small interface the tables publish through, so that a
Redis implementation (pub/sub for live events, a capped stream per seat for
the recent past) can replace :class:`MemoryHub` when several server
processes share the tables.  A message is published once per seat, already
redacted for it, as ``(v, text)``: ``v`` its version in the stream, ``text``
the JSON envelope.

Beside the numbered streams, :meth:`Fanout.broadcast` sends a message that
is not part of any stream (chat, the room's state) to every listener of a
table, spectators included.

A reconnecting client asks for what came after its last version
(:meth:`Fanout.since`): the hub answers with the missed messages while its
bounded buffer still holds them, else ``None`` and the client gets a snapshot.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from rebelote.seats import Seat

__all__ = [
    "BUFFER_SIZE",
    "Deliver",
    "Direct",
    "Fanout",
    "MemoryHub",
    "StreamKey",
    "Subscription",
]

BUFFER_SIZE = 1024
"""Messages kept per seat for resuming (a whole match of four players is
about 100 messages a deal)."""


StreamKey = Seat | None
"""A stream: a seat's, or the spectators' (``None``)."""

Deliver = Callable[[int, str], None]
"""A listener's callback: ``deliver(v, text)`` for each new message.  It must
not block (it runs inside :meth:`Fanout.publish`)."""

Direct = Callable[[str | None, str], None]
"""A listener's callback for broadcasts: ``direct(sender, text)``
(``sender``: the seat letter a chat line comes from, so that a listener can
mute it; else ``None``).  It must not block."""


@dataclass(eq=False, frozen=True)
class Subscription:
    """One listener (a socket) of ``seat``'s stream at ``table_id``
    (``seat`` ``None``: the spectators' stream)."""

    table_id: str
    seat: StreamKey
    deliver: Deliver
    direct: Direct | None = None


class Fanout(Protocol):
    """What the tables and sockets need from the fan-out."""

    def publish(self, table_id: str, seat: StreamKey, v: int, text: str) -> None:
        """Send message ``v`` of ``seat``'s stream to its listeners and keep it
        for resuming."""
        ...

    def since(self, table_id: str, seat: StreamKey, last_v: int) -> list[tuple[int, str]] | None:
        """The messages after ``last_v``, or ``None`` when some are no longer
        kept (or ``last_v`` is ahead of the stream)."""
        ...

    def subscribe(
        self, table_id: str, seat: StreamKey, deliver: Deliver, direct: Direct | None = None
    ) -> Subscription:
        """A new listener of ``seat``'s stream: ``deliver`` gets every message
        published from now on, ``direct`` every broadcast."""
        ...

    def broadcast(self, table_id: str, text: str, sender: str | None = None) -> None:
        """Send ``text`` (outside the streams) to every listener of the table."""
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
        self._streams: dict[tuple[str, StreamKey], _Stream] = {}
        self._keys: dict[str, set[StreamKey]] = {}

    def _stream(self, table_id: str, seat: StreamKey) -> _Stream:
        key = (table_id, seat)
        stream = self._streams.get(key)
        if stream is None:
            stream = self._streams[key] = _Stream(self.buffer_size)
            self._keys.setdefault(table_id, set()).add(seat)
        return stream

    def publish(self, table_id: str, seat: StreamKey, v: int, text: str) -> None:
        """See :meth:`Fanout.publish`."""
        stream = self._stream(table_id, seat)
        stream.buffer.append((v, text))
        stream.last = v
        for listener in list(stream.listeners):
            listener.deliver(v, text)

    def since(self, table_id: str, seat: StreamKey, last_v: int) -> list[tuple[int, str]] | None:
        """See :meth:`Fanout.since`."""
        stream = self._stream(table_id, seat)
        if last_v > stream.last:
            return None
        if last_v == stream.last:
            return []
        if not stream.buffer or stream.buffer[0][0] > last_v + 1:
            return None
        return [(v, text) for v, text in stream.buffer if v > last_v]

    def subscribe(
        self, table_id: str, seat: StreamKey, deliver: Deliver, direct: Direct | None = None
    ) -> Subscription:
        """See :meth:`Fanout.subscribe`."""
        subscription = Subscription(table_id, seat, deliver, direct)
        self._stream(table_id, seat).listeners.add(subscription)
        return subscription

    def broadcast(self, table_id: str, text: str, sender: str | None = None) -> None:
        """See :meth:`Fanout.broadcast`."""
        for seat in list(self._keys.get(table_id, ())):
            stream = self._streams.get((table_id, seat))
            if stream is None:
                continue
            for listener in list(stream.listeners):
                if listener.direct is not None:
                    listener.direct(sender, text)

    def unsubscribe(self, subscription: Subscription) -> None:
        """See :meth:`Fanout.unsubscribe`."""
        stream = self._streams.get((subscription.table_id, subscription.seat))
        if stream is not None:
            stream.listeners.discard(subscription)

    def forget(self, table_id: str) -> None:
        """See :meth:`Fanout.forget`."""
        for seat in list(self._keys.get(table_id, ())):
            key = (table_id, seat)
            stream = self._streams[key]
            stream.buffer.clear()
            stream.last = 0
            if not stream.listeners:
                del self._streams[key]
                self._keys[table_id].discard(seat)
        if not self._keys.get(table_id):
            self._keys.pop(table_id, None)

    def last(self, table_id: str, seat: StreamKey) -> int:
        """The version of the last message kept for ``seat``'s stream (0:
        none since the start or :meth:`forget`)."""
        stream = self._streams.get((table_id, seat))
        return 0 if stream is None else stream.last

    def listeners(self, table_id: str, seat: StreamKey) -> int:
        """How many listeners ``seat``'s stream has (for tests and metrics)."""
        stream = self._streams.get((table_id, seat))
        return 0 if stream is None else len(stream.listeners)
