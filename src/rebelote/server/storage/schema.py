"""The whole stored schema: every module that declares rows on
:class:`~rebelote.server.storage.orm.Base`, imported, so that
:data:`metadata` holds every table (what Alembic's environment compares
the migrations with, :mod:`rebelote.server.storage.migrations`)."""

from __future__ import annotations

from sqlalchemy import MetaData

from rebelote.server.storage import (
    analyses,
    bot_tokens,
    claims,
    daily,
    people,
    progress,
    summaries,
    table_rows,
    tournaments,
)
from rebelote.server.storage.orm import Base

__all__ = ["ROW_MODULES", "metadata"]

ROW_MODULES = (
    analyses,
    bot_tokens,
    claims,
    daily,
    people,
    progress,
    summaries,
    table_rows,
    tournaments,
)
"""The modules whose rows make the schema."""

metadata: MetaData = Base.metadata
"""Every stored table's definition."""
