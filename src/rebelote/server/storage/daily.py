"""The daily deal's storage (migration ``r0014``, ``docs/daily.md``).

- ``daily_days``: ``day`` (``YYYY-MM-DD``, UTC), ``seed`` (the day's table
  seed, from which every daily table of the day deals the same set),
  ``pars`` (JSON: the double-dummy par of each deal, a list, or null until
  computed);
- ``daily_plays``: ``day``, ``user_id`` (one set a day per account),
  ``table_id`` (the table he plays it at), ``name``, ``done`` (how many of
  the day's deals his table has finished, as last read from its log);
- ``daily_results``: ``day``, ``deal`` (0..7), ``user_id``, ``name``,
  ``contract`` (the contract's text, or null when all passed), ``taker``
  (seat letter or null), ``score`` (South-North's points of that deal).

A table's log is the truth; the results are read from it
(:mod:`rebelote.server.tables.daily`) and kept here once its deals are
over (a deal over never changes: no takeback at a daily table).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, Integer, String, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from rebelote.server.storage.orm import Base, now
from rebelote.server.storage.table_rows import EventRow

__all__ = [
    "DailyDayRow",
    "DailyPlay",
    "DailyPlayRow",
    "DailyResult",
    "DailyResultRow",
    "DailyStore",
]


class DailyDayRow(Base):
    """One day of the daily deal: its seed and its deals' pars."""

    __tablename__ = "daily_days"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    pars: Mapped[Any] = mapped_column(JSON, nullable=True)


class DailyPlayRow(Base):
    """One account's play of one day's set."""

    __tablename__ = "daily_plays"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    user_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    table_id: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(40))
    done: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    started: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class DailyResultRow(Base):
    """One deal of one account's daily set, over."""

    __tablename__ = "daily_results"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(String(40))
    contract: Mapped[str | None] = mapped_column(String(40), nullable=True)
    taker: Mapped[str | None] = mapped_column(String(1), nullable=True)
    score: Mapped[int] = mapped_column(Integer)


@dataclass(frozen=True, slots=True)
class DailyPlay:
    """An account's play of a day: ``table_id``, his ``name``, deals ``done``."""

    day: str
    user_id: int
    table_id: str
    name: str
    done: int


@dataclass(frozen=True, slots=True)
class DailyResult:
    """One finished deal (``deal`` from 0) of an account's daily set."""

    day: str
    deal: int
    user_id: int
    name: str
    contract: str | None
    taker: str | None
    score: int


def _play(row: DailyPlayRow) -> DailyPlay:
    return DailyPlay(row.day, row.user_id, row.table_id, row.name, row.done)


class DailyStore:
    """Reading and keeping the daily deal's days, plays and results
    (mixed into :class:`~rebelote.server.storage.tables.Store`)."""

    def _session(self) -> Session:  # pragma: no cover - provided by Store
        raise NotImplementedError

    def daily_seed(self, day: str, proposed: int) -> int:
        """The seed of ``day``: the one stored, else ``proposed`` stored
        now (two processes asking at once agree: the first one stored
        wins)."""
        with self._session() as session:
            seed = session.scalar(select(DailyDayRow.seed).where(DailyDayRow.day == day))
        if seed is not None:
            return int(seed)
        try:
            with self._session() as session, session.begin():
                session.add(DailyDayRow(day=day, seed=proposed, pars=None))
        except IntegrityError:
            pass
        with self._session() as session:
            seed = session.scalar(select(DailyDayRow.seed).where(DailyDayRow.day == day))
        assert seed is not None
        return int(seed)

    def daily_pars(self, day: str) -> list[int | None] | None:
        """The pars kept for ``day`` (one per deal), or ``None``."""
        with self._session() as session:
            pars = session.scalar(select(DailyDayRow.pars).where(DailyDayRow.day == day))
        return None if pars is None else list(pars)

    def save_daily_pars(self, day: str, pars: Sequence[int | None]) -> None:
        """Keep ``pars`` as ``day``'s (the day's row exists)."""
        with self._session() as session, session.begin():
            row = session.get(DailyDayRow, day)
            if row is not None:
                row.pars = list(pars)

    def daily_play(self, day: str, user_id: int) -> DailyPlay | None:
        """``user_id``'s play of ``day``, if he started it."""
        with self._session() as session:
            row = session.get(DailyPlayRow, (day, user_id))
            return None if row is None else _play(row)

    def add_daily_play(self, play: DailyPlay) -> DailyPlay:
        """Store ``play``; when the account already has one that day (two
        requests at once), that one is answered instead."""
        try:
            with self._session() as session, session.begin():
                session.add(
                    DailyPlayRow(
                        day=play.day,
                        user_id=play.user_id,
                        table_id=play.table_id,
                        name=play.name,
                        done=play.done,
                    )
                )
        except IntegrityError:
            kept = self.daily_play(play.day, play.user_id)
            assert kept is not None
            return kept
        return play

    def daily_plays(self, day: str) -> list[DailyPlay]:
        """Every play of ``day``."""
        with self._session() as session:
            rows = session.scalars(
                select(DailyPlayRow).where(DailyPlayRow.day == day).order_by(DailyPlayRow.user_id)
            ).all()
            return [_play(r) for r in rows]

    def save_daily_results(self, play: DailyPlay, results: Sequence[DailyResult]) -> None:
        """Keep ``results`` of ``play`` (those already kept are left as
        they are) and its count of deals done, in one transaction."""
        with self._session() as session, session.begin():
            for r in results:
                if session.get(DailyResultRow, (r.day, r.deal, r.user_id)) is None:
                    session.add(
                        DailyResultRow(
                            day=r.day,
                            deal=r.deal,
                            user_id=r.user_id,
                            name=r.name,
                            contract=r.contract,
                            taker=r.taker,
                            score=r.score,
                        )
                    )
            row = session.get(DailyPlayRow, (play.day, play.user_id))
            if row is not None:
                row.done = max(row.done, len(results))

    def entries_before(self, table_id: str, cutoff: datetime) -> int:
        """How many of ``table_id``'s log entries were stored before
        ``cutoff`` (the log's first ones: entries are stored in order)."""
        with self._session() as session:
            count = session.scalar(
                select(func.count())
                .select_from(EventRow)
                .where(EventRow.table_id == table_id, EventRow.created < cutoff)
            )
        return int(count or 0)

    def daily_results(self, day: str) -> list[DailyResult]:
        """Every result kept for ``day``, by deal then account."""
        with self._session() as session:
            rows = session.scalars(
                select(DailyResultRow)
                .where(DailyResultRow.day == day)
                .order_by(DailyResultRow.deal, DailyResultRow.user_id)
            ).all()
            return [
                DailyResult(r.day, r.deal, r.user_id, r.name, r.contract, r.taker, r.score)
                for r in rows
            ]
