"""The in-process broker: one server process, nothing to install.

Fan-out is a :class:`~rebelote.server.broker.hub.MemoryHub` (by composition: the
same buffers and callbacks); leases are always granted to this process
(there is no other); :meth:`MemoryBroker.call` runs the local handler
directly; presence, the lobby and the live-table set are dictionaries.  No
method ever raises :class:`~.base.BrokerUnavailable`, and no listener ever
needs to resync.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rebelote.seats import Seat
from rebelote.server.broker.base import (
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
    run_handler,
    safely,
)
from rebelote.server.broker.hub import BUFFER_SIZE, Deliver, Direct, MemoryHub, StreamKey
from rebelote.server.broker.hub import Subscription as HubSubscription

__all__ = ["MemoryBroker"]


class MemoryBroker:
    """The :class:`~.base.Broker` of a single process.  ``hub``: the
    fan-out to use (a new :class:`MemoryHub` of ``buffer_size`` messages
    per stream when not given); ``process_id``: a fixed id (tests), else a
    new one."""

    def __init__(
        self,
        hub: MemoryHub | None = None,
        *,
        buffer_size: int = BUFFER_SIZE,
        process_id: str | None = None,
    ) -> None:
        self.hub = hub if hub is not None else MemoryHub(buffer_size)
        self._id = process_id or new_process_id()
        self._subscriptions: dict[Subscription, HubSubscription] = {}
        self._leases: dict[str, Lease] = {}
        self._fences: dict[str, int] = {}
        self._on_lost: LostLease | None = None
        self._handler: Handler | None = None
        self._present: dict[str, dict[str, StreamKey]] = {}
        self._on_presence: PresenceChanged | None = None
        self._lobby: dict[str, str] = {}
        self._lobby_listeners: list[LobbySubscription] = []
        self._live: set[str] = set()

    @property
    def process_id(self) -> str:
        """See :attr:`.base.Broker.process_id`."""
        return self._id

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """See :meth:`.base.Broker.start` (nothing to connect)."""

    async def close(self) -> None:
        """See :meth:`.base.Broker.close`."""
        self._leases.clear()
        self._present.clear()

    # ------------------------------------------------------------- fan-out

    async def publish(
        self, table_id: str, messages: Sequence[Message], *, lease: Lease | None = None
    ) -> None:
        """See :meth:`.base.Broker.publish`."""
        if lease is not None and self._leases.get(table_id) != lease:
            raise LeaseLost(table_id)
        for seat, v, text in messages:
            if v > self.hub.last(table_id, seat):
                self.hub.publish(table_id, seat, v, text)

    async def broadcast(self, table_id: str, text: str, sender: str | None = None) -> None:
        """See :meth:`.base.Broker.broadcast`."""
        self.hub.broadcast(table_id, text, sender)

    async def subscribe(
        self,
        table_id: str,
        seat: StreamKey,
        deliver: Deliver,
        direct: Direct | None = None,
        resync: Resync | None = None,
    ) -> Subscription:
        """See :meth:`.base.Broker.subscribe` (``resync`` is never called:
        nothing is ever missed)."""
        subscription = Subscription(table_id, seat, deliver, direct, resync)
        self._subscriptions[subscription] = self.hub.subscribe(table_id, seat, deliver, direct)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """See :meth:`.base.Broker.unsubscribe`."""
        inner = self._subscriptions.pop(subscription, None)
        if inner is not None:
            self.hub.unsubscribe(inner)

    async def since(
        self, table_id: str, seat: StreamKey, last_v: int
    ) -> list[tuple[int, str]] | None:
        """See :meth:`.base.Broker.since` (answered from the hub's buffer)."""
        return self.hub.since(table_id, seat, last_v)

    async def last_versions(self, table_id: str) -> dict[StreamKey, int]:
        """See :meth:`.base.Broker.last_versions`."""
        found: dict[StreamKey, int] = {}
        for seat in (*Seat, None):
            last = self.hub.last(table_id, seat)
            if last:
                found[seat] = last
        return found

    async def forget(self, table_id: str) -> None:
        """See :meth:`.base.Broker.forget`."""
        self.hub.forget(table_id)

    def listeners(self, table_id: str, seat: StreamKey) -> int:
        """See :meth:`.base.Broker.listeners`."""
        return self.hub.listeners(table_id, seat)

    # -------------------------------------------------------------- leases

    async def acquire(self, table_id: str) -> Lease:
        """See :meth:`.base.Broker.acquire`: always granted (the one this
        process holds, else a new one)."""
        lease = self._leases.get(table_id)
        if lease is None:
            fence = self._fences[table_id] = self._fences.get(table_id, 0) + 1
            lease = self._leases[table_id] = Lease(table_id, self._id, fence)
        return lease

    async def renew(self, lease: Lease) -> bool:
        """See :meth:`.base.Broker.renew`: ``True`` until released (a lease
        of this process is never lost)."""
        return self._leases.get(lease.table_id) == lease

    async def release(self, lease: Lease) -> None:
        """See :meth:`.base.Broker.release`."""
        if self._leases.get(lease.table_id) == lease:
            del self._leases[lease.table_id]

    async def owner_of(self, table_id: str) -> str | None:
        """See :meth:`.base.Broker.owner_of`."""
        return self._id if table_id in self._leases else None

    def held(self, table_id: str) -> Lease | None:
        """See :meth:`.base.Broker.held`."""
        return self._leases.get(table_id)

    def watch_leases(self, on_lost: LostLease | None) -> None:
        """See :meth:`.base.Broker.watch_leases` (never called here)."""
        self._on_lost = on_lost

    # ------------------------------------------------------------ commands

    def serve(self, handler: Handler | None) -> None:
        """See :meth:`.base.Broker.serve`."""
        self._handler = handler

    async def call(self, table_id: str, op: str, args: dict[str, Any], timeout: float = 2.0) -> Any:
        """See :meth:`.base.Broker.call`: the handler runs here, at once
        (``timeout`` does not apply: the driver cannot be gone)."""
        if table_id not in self._leases:
            raise NoOwner(table_id)
        if self._handler is None:
            raise OwnerGone(table_id, self._id, "it serves no commands")
        return await run_handler(self._handler, table_id, op, args)

    # ------------------------------------------------------------ presence

    def _counts(self, table_id: str) -> dict[StreamKey, int]:
        counts: dict[StreamKey, int] = {}
        for seat in self._present.get(table_id, {}).values():
            counts[seat] = counts.get(seat, 0) + 1
        return counts

    def _presence_changed(self, table_id: str) -> None:
        if self._on_presence is not None and table_id in self._leases:
            safely(self._on_presence, table_id, self._counts(table_id))

    async def enter(self, table_id: str, seat: StreamKey, conn_id: str) -> None:
        """See :meth:`.base.Broker.enter` (present until :meth:`leave`; the
        driver's callback runs before this returns)."""
        conns = self._present.setdefault(table_id, {})
        if conn_id in conns and conns[conn_id] == seat:
            return
        conns[conn_id] = seat
        self._presence_changed(table_id)

    async def leave(self, table_id: str, seat: StreamKey, conn_id: str) -> None:
        """See :meth:`.base.Broker.leave`."""
        conns = self._present.get(table_id)
        if conns is None or conn_id not in conns:
            return
        del conns[conn_id]
        if not conns:
            del self._present[table_id]
        self._presence_changed(table_id)

    async def presence(self, table_id: str) -> dict[StreamKey, int]:
        """See :meth:`.base.Broker.presence`."""
        return self._counts(table_id)

    def watch_presence(self, changed: PresenceChanged | None) -> None:
        """See :meth:`.base.Broker.watch_presence`."""
        self._on_presence = changed

    # --------------------------------------------------------------- lobby

    def _lobby_changed(self, table_id: str, room: str | None) -> None:
        for listener in list(self._lobby_listeners):
            safely(listener.changed, table_id, room)

    async def lobby_put(self, table_id: str, room: str) -> None:
        """See :meth:`.base.Broker.lobby_put`."""
        if self._lobby.get(table_id) != room:
            self._lobby[table_id] = room
            self._lobby_changed(table_id, room)

    async def lobby_remove(self, table_id: str) -> None:
        """See :meth:`.base.Broker.lobby_remove`."""
        if self._lobby.pop(table_id, None) is not None:
            self._lobby_changed(table_id, None)

    async def lobby(self) -> dict[str, str]:
        """See :meth:`.base.Broker.lobby`."""
        return dict(self._lobby)

    async def subscribe_lobby(
        self, changed: LobbyChanged, resync: Resync | None = None
    ) -> LobbySubscription:
        """See :meth:`.base.Broker.subscribe_lobby`."""
        subscription = LobbySubscription(changed, resync)
        self._lobby_listeners.append(subscription)
        return subscription

    def unsubscribe_lobby(self, subscription: LobbySubscription) -> None:
        """See :meth:`.base.Broker.unsubscribe_lobby`."""
        if subscription in self._lobby_listeners:
            self._lobby_listeners.remove(subscription)

    # --------------------------------------------------------- live tables

    async def add_live(self, table_id: str) -> None:
        """See :meth:`.base.Broker.add_live`."""
        self._live.add(table_id)

    async def remove_live(self, table_id: str) -> None:
        """See :meth:`.base.Broker.remove_live`."""
        self._live.discard(table_id)

    async def live(self) -> set[str]:
        """See :meth:`.base.Broker.live`."""
        return set(self._live)

    async def orphans(self) -> list[str]:
        """See :meth:`.base.Broker.orphans`."""
        return sorted(self._live - self._leases.keys())

    async def live_seeded(self) -> bool:
        """See :meth:`.base.Broker.live_seeded`: one process's live set
        lives as long as the process (always filled)."""
        return True

    async def seed_live(self, table_ids: Sequence[str]) -> bool:
        """See :meth:`.base.Broker.seed_live` (nothing to do: always
        filled)."""
        return False
