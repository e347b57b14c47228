"""The declarative base shared by every stored table of the server, and the
clock of its time stamps."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.orm import DeclarativeBase

__all__ = ["Base", "now"]


class Base(DeclarativeBase):
    """The declarative base of the server's tables."""


def now() -> datetime:
    """The current time, timezone-aware (UTC)."""
    return datetime.now(UTC)
