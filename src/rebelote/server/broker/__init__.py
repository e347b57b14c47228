"""The broker: how the server processes share tables (fan-out, leases,
commands to a table's driver, presence, the lobby, the live tables).

:class:`MemoryBroker` for one process (the embedded default), and
:class:`RedisBroker` for several processes sharing Redis; both implement
:class:`Broker`.  See :mod:`.base` for the interface and
``docs/scale-out.md`` for the Redis layout.
"""

from rebelote.server.broker.base import (
    Broker,
    BrokerError,
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
)
from rebelote.server.broker.memory import MemoryBroker
from rebelote.server.broker.redis import RedisBroker

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
    "MemoryBroker",
    "Message",
    "NoOwner",
    "OwnerGone",
    "PresenceChanged",
    "RedisBroker",
    "Resync",
    "Subscription",
    "new_process_id",
]
