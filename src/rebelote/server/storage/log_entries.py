"""A table's event log as plain values: an entry as stored
(:class:`StoredEvent`) and one table's entries to append with the status
its row takes (:class:`LogWrite`), as
:class:`~rebelote.server.storage.tables.Store` and its
:class:`~rebelote.server.storage.writer.LogWriter` take them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["LogWrite", "StoredEvent"]


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """A log entry as stored."""

    seq: int
    deal: int
    kind: str
    seat: str | None
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class LogWrite:
    """One table's log entries to append (``events``, in ``seq`` order) and
    the ``status`` its row takes with them (:meth:`Store.append_many
    <rebelote.server.storage.tables.Store.append_many>`)."""

    table_id: str
    events: tuple[StoredEvent, ...]
    status: str
