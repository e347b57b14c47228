"""The analyses of finished games, kept with them (migration ``r0009``).

``analyses``: ``table_id`` (the table's, deleted with it), ``match`` (its
number at the table), ``version`` (:data:`rebelote.bots.analysis.ANALYSIS_VERSION`
when it was made: an analysis of another version is made again),
``created`` and ``data`` (the JSON the replay's analysis view reads,
:mod:`rebelote.server.tables.analysis`).  A match over never changes, so
its analysis, made once, is read back from here.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from rebelote.server.storage.orm import Base, now

__all__ = ["AnalysisRow", "AnalysisStore"]


class AnalysisRow(Base):
    """The analysis of one match of a table."""

    __tablename__ = "analyses"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    match: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    data: Mapped[Any] = mapped_column(JSON)


class AnalysisStore:
    """Reading and keeping analyses (mixed into
    :class:`~rebelote.server.storage.tables.Store`)."""

    def _session(self) -> Session:  # pragma: no cover - provided by Store
        raise NotImplementedError

    def load_analysis(self, table_id: str, match: int, version: int) -> Any | None:
        """The analysis kept for match ``match`` of ``table_id`` when it was
        made by ``version``, else ``None``."""
        with self._session() as session:
            row = session.execute(
                select(AnalysisRow.data).where(
                    AnalysisRow.table_id == table_id,
                    AnalysisRow.match == match,
                    AnalysisRow.version == version,
                )
            ).first()
        return None if row is None else row[0]

    def save_analysis(self, table_id: str, match: int, version: int, data: Any) -> None:
        """Keep ``data`` as the analysis of match ``match`` of
        ``table_id`` (in place of one kept before)."""
        with self._session() as session, session.begin():
            session.merge(
                AnalysisRow(
                    table_id=table_id, match=match, version=version, data=data, created=now()
                )
            )
