"""The rows of the stored tables: each table (``tables``), its seats
(``seats``) and its event log (``events``); the columns are described in
:mod:`rebelote.server.storage.tables`, whose
:class:`~rebelote.server.storage.tables.Store` reads and writes them, and
the mixed-in stores (daily deals, match summaries, tournaments) query
them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, ForeignKey, Integer, String, false
from sqlalchemy.orm import Mapped, mapped_column

from rebelote.server.storage.orm import Base
from rebelote.server.storage.orm import now as _now

__all__ = ["EventRow", "SeatRow", "TableRow"]


class TableRow(Base):
    """One table: its rules, options, seed and status."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    rules: Mapped[Any] = mapped_column(JSON)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    status: Mapped[str] = mapped_column(String(16), index=True)
    name: Mapped[str] = mapped_column(String(60), default="", server_default="")
    visibility: Mapped[str] = mapped_column(String(8), default="solo", server_default="solo")
    ranked: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    host: Mapped[str | None] = mapped_column(String(1), nullable=True)
    invite: Mapped[str | None] = mapped_column(String(32), nullable=True)


class SeatRow(Base):
    """One seat of a table: who sits there and the hash of its token."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[str] = mapped_column(String(1), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str] = mapped_column(String(40))
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    user_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    left: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    guest: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    outside_bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class EventRow(Base):
    """One entry of a table's event log."""

    __tablename__ = "events"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    seat: Mapped[str | None] = mapped_column(String(1), nullable=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
