"""Per-match summaries kept for the profiles (migration ``r0011``), and the
queries that read a profile from them and from ``results``.

``match_summaries``: one row per seat of a finished match, ``table_id``
(deleted with its table), ``match``, ``seat`` (the key), ``version``
(:data:`~rebelote.server.tables.summaries.SUMMARY_VERSION` when it was
made: a row of another version is made again), the facts of the seat's
deals that the rules core gave (:class:`~rebelote.server.tables.summaries.SeatTally`:
``deals``, ``taken``, ``made``, ``taker_points``, ``defended``,
``defender_points``, ``capots``), the match's final score for the seat's
side and the best other side (``score_us``, ``score_them``), the rules'
``preset`` and ``players`` (the names by seat, the table's order).  A match
over never changes, so its summary, made once from the event log, is read
back from here: a profile is a few queries, not a replay of every match.

Which matches count (:meth:`SummaryStore.counted`, ``docs/profiles.md``):
the account's own result line of a finished match that it did not leave,
where nobody left and stand-ins did not play more than their share
(``unrated_reason`` neither ``left`` nor ``standins``): the matches that
earn experience.  Friendly (unranked) matches count; rated or not, a
match someone left never does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    ColumnElement,
    DateTime,
    ForeignKey,
    Integer,
    String,
    and_,
    case,
    false,
    func,
    or_,
    select,
    true,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from rebelote.server.storage.orm import Base, now
from rebelote.server.storage.people import ResultRow
from rebelote.server.storage.table_rows import TableRow

__all__ = [
    "NOT_COUNTED",
    "GameLine",
    "MatchSummaryRow",
    "ProfileTotals",
    "RatingPoint",
    "SummaryLine",
    "SummaryStore",
]

NOT_COUNTED = ("left", "standins")
"""The ``unrated_reason`` of a match that no profile counts: a human left
it, or stand-ins played more than their share of a human seat's cards
(the matches that earn no experience either)."""


class MatchSummaryRow(Base):
    """One seat's summary of one finished match."""

    __tablename__ = "match_summaries"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    match: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(1), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    deals: Mapped[int] = mapped_column(Integer)
    taken: Mapped[int] = mapped_column(Integer)
    made: Mapped[int] = mapped_column(Integer)
    taker_points: Mapped[int] = mapped_column(Integer)
    defended: Mapped[int] = mapped_column(Integer)
    defender_points: Mapped[int] = mapped_column(Integer)
    capots: Mapped[int] = mapped_column(Integer)
    score_us: Mapped[int] = mapped_column(Integer)
    score_them: Mapped[int] = mapped_column(Integer)
    preset: Mapped[str] = mapped_column(String(40))
    players: Mapped[Any] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


@dataclass(frozen=True, slots=True)
class SummaryLine:
    """A summary to keep: one seat of one finished match (the fields of
    :class:`MatchSummaryRow` but ``created``)."""

    table_id: str
    match: int
    seat: str
    version: int
    deals: int
    taken: int
    made: int
    taker_points: int
    defended: int
    defender_points: int
    capots: int
    score_us: int
    score_them: int
    preset: str
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ProfileTotals:
    """Sums over an account's counted matches: ``games`` and ``won``; over
    their deals, ``taken`` / ``made`` contracts, ``taker_points`` over
    ``taken`` deals, ``defender_points`` over ``defended`` deals,
    ``capots``."""

    games: int
    won: int
    taken: int
    made: int
    taker_points: int
    defended: int
    defender_points: int
    capots: int


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """The displayed rating's parts after one rated match: ``mu_after``,
    when (``at``, Unix seconds) and where (``table_id``, ``match``)."""

    at: float
    mu_after: float
    table_id: str
    match: int


@dataclass(frozen=True, slots=True)
class GameLine:
    """One counted match of an account with its summary (newest first in
    :meth:`SummaryStore.last_games`)."""

    table_id: str
    match: int
    seat: str
    at: float
    won: bool
    preset: str
    players: tuple[str, ...]
    score_us: int
    score_them: int
    target: int | None = None
    """The match's target score (the table's rules; ``None`` when its
    rules cannot be read)."""


def _target(rules: object) -> int | None:
    from rebelote.rules import Rules, RulesError

    try:
        return Rules.from_record(rules).target
    except (RulesError, TypeError, ValueError):
        return None


class SummaryStore:
    """Keeping per-match summaries and reading profiles (mixed into
    :class:`~rebelote.server.storage.tables.Store`)."""

    def _session(self) -> Session:  # pragma: no cover - provided by Store
        raise NotImplementedError

    @staticmethod
    def counted(user_id: int) -> ColumnElement[bool]:
        """The result lines of ``user_id``'s counted matches (see the module
        docstring): his own, not left, the match not left by anyone nor
        played by stand-ins past their share."""
        return and_(
            ResultRow.user_id == user_id,
            ResultRow.left == false(),
            or_(ResultRow.unrated_reason.is_(None), ResultRow.unrated_reason.not_in(NOT_COUNTED)),
        )

    @staticmethod
    def _joined(version: int) -> ColumnElement[bool]:
        return and_(
            MatchSummaryRow.table_id == ResultRow.table_id,
            MatchSummaryRow.match == ResultRow.match,
            MatchSummaryRow.seat == ResultRow.seat,
            MatchSummaryRow.version == version,
        )

    def unsummarized(self, user_id: int, version: int) -> list[str]:
        """The tables where ``user_id`` has a counted match without a
        summary of ``version``, oldest first."""
        with self._session() as session:
            rows = session.execute(
                select(ResultRow.table_id, func.min(ResultRow.at))
                .outerjoin(MatchSummaryRow, self._joined(version))
                .where(self.counted(user_id), MatchSummaryRow.table_id.is_(None))
                .group_by(ResultRow.table_id)
                .order_by(func.min(ResultRow.at))
            ).all()
        return [r[0] for r in rows]

    def result_names(self, table_id: str) -> dict[tuple[int, str], str]:
        """The name each seat's result line of the table gives, by
        ``(match, seat)``."""
        with self._session() as session:
            rows = session.execute(
                select(ResultRow.match, ResultRow.seat, ResultRow.name).where(
                    ResultRow.table_id == table_id
                )
            ).all()
        return {(r[0], r[1]): r[2] for r in rows}

    def save_summaries(self, lines: Sequence[SummaryLine]) -> None:
        """Keep ``lines`` (in place of the rows kept before for the same
        seats), in one transaction; when another request kept them at the
        same moment, its rows stay."""
        try:
            with self._session() as session, session.begin():
                for line in lines:
                    fields = {k: getattr(line, k) for k in SummaryLine.__slots__}
                    fields["players"] = list(line.players)
                    session.merge(MatchSummaryRow(**fields, created=now()))
        except IntegrityError:
            pass

    def profile_totals(self, user_id: int, version: int) -> ProfileTotals:
        """The sums of :class:`ProfileTotals` over ``user_id``'s counted
        matches (those without a summary of ``version`` count as games but
        add no deals: summarize them first)."""
        s = MatchSummaryRow

        def total(column: Any) -> Any:
            return func.coalesce(func.sum(column), 0)

        with self._session() as session:
            row = session.execute(
                select(
                    func.count(),
                    total(case((ResultRow.won == true(), 1), else_=0)),
                    total(s.taken),
                    total(s.made),
                    total(s.taker_points),
                    total(s.defended),
                    total(s.defender_points),
                    total(s.capots),
                )
                .select_from(ResultRow)
                .outerjoin(s, self._joined(version))
                .where(self.counted(user_id))
            ).one()
        return ProfileTotals(*(int(v) for v in row))

    def last_games(
        self, user_id: int, version: int, limit: int, *, public_only: bool
    ) -> list[GameLine]:
        """``user_id``'s last ``limit`` counted matches with a summary of
        ``version``, newest first; ``public_only``: at public tables only
        (whose replay anyone may open)."""
        s = MatchSummaryRow
        query = (
            select(
                ResultRow.table_id,
                ResultRow.match,
                ResultRow.seat,
                ResultRow.at,
                ResultRow.won,
                s.preset,
                s.players,
                s.score_us,
                s.score_them,
                TableRow.rules,
            )
            .join(s, self._joined(version))
            .join(TableRow, TableRow.id == ResultRow.table_id)
            .where(self.counted(user_id))
        )
        if public_only:
            query = query.where(TableRow.visibility == "public")
        with self._session() as session:
            rows = session.execute(
                query.order_by(
                    ResultRow.at.desc(), ResultRow.table_id, ResultRow.match.desc()
                ).limit(limit)
            ).all()
        return [
            GameLine(
                table_id=r[0],
                match=r[1],
                seat=r[2],
                at=r[3],
                won=bool(r[4]),
                preset=r[5],
                players=tuple(str(n) for n in r[6]),
                score_us=r[7],
                score_them=r[8],
                target=_target(r[9]),
            )
            for r in rows
        ]

    def rating_history(self, user_id: int) -> list[RatingPoint]:
        """``user_id``'s rating after each rated match, oldest first: the
        ``results`` lines that changed his rating (``ranked``, with
        ``mu_after``), written in the transaction that changed it
        (:meth:`~rebelote.server.storage.people.PeopleStore.record_results`)."""
        with self._session() as session:
            rows = session.execute(
                select(ResultRow.at, ResultRow.mu_after, ResultRow.table_id, ResultRow.match)
                .where(
                    ResultRow.user_id == user_id,
                    ResultRow.ranked == true(),
                    ResultRow.mu_after.is_not(None),
                )
                .order_by(ResultRow.at, ResultRow.table_id, ResultRow.match)
            ).all()
        return [RatingPoint(r[0], float(r[1] or 0.0), r[2], r[3]) for r in rows]
