"""Stored tournaments (migration ``r0012``; ``docs/tournaments.md``):

- ``tournaments``: ``id``, ``name``, ``kind`` (``swiss`` | ``arena``),
  ``status`` (``open`` -> ``running`` -> ``finished``, or ``cancelled``),
  ``preset``, ``target`` (null: the preset's), ``level`` (the computers'),
  ``rounds`` (Swiss) or ``minutes`` (arena), ``starts_at`` (Unix seconds),
  ``round`` (the Swiss round, or the arena's pairing wave, started last;
  0 before the start), ``entrants`` (how many), ``created``, ``ended``;
- ``tournament_entrants``: ``(tournament_id, user_id)``, the name at
  entry, ``joined`` (Unix seconds);
- ``tournament_tables``: one row per table (or bye) of each round:
  ``round``, ``number`` (1, 2, ... in the round), ``seats`` (JSON: seat
  letter -> account id, null for a computer), ``bye``, ``table_id`` (the
  lobby table, once made), ``made`` (Unix seconds), ``done``, ``winner``
  (0: N-S, 1: W-E, null: no result), ``left`` (JSON list of the entrants
  who left the match).

Every change that must happen once whichever server process tries it is
a compare-and-set on the ``tournaments`` row (an ``UPDATE ... WHERE`` on
the status and round read before): the first process's statement wins,
the row lock makes the others wait for it and then match no row.  A join
or a leave touches the same row first, so that it is either before the
start (and counted in the first round) or refused.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, Text, delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from rebelote.server.storage.orm import Base
from rebelote.server.storage.table_rows import TableRow

__all__ = [
    "EntrantRow",
    "PairingRow",
    "StoredEntrant",
    "StoredPairing",
    "StoredTournament",
    "TournamentDatabase",
    "TournamentError",
    "TournamentRow",
    "TournamentStore",
]


class TournamentRow(Base):
    """One tournament."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(60))
    kind: Mapped[str] = mapped_column(String(8))
    status: Mapped[str] = mapped_column(String(12), index=True)
    preset: Mapped[str] = mapped_column(String(40))
    target: Mapped[int | None] = mapped_column(Integer, nullable=True)
    level: Mapped[str] = mapped_column(String(16))
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    starts_at: Mapped[float] = mapped_column(Float)
    round: Mapped[int] = mapped_column(Integer, default=0)
    entrants: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[float] = mapped_column(Float)
    ended: Mapped[float | None] = mapped_column(Float, nullable=True)


class EntrantRow(Base):
    """One entrant of a tournament."""

    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(Integer, primary_key=True, index=True)
    name: Mapped[str] = mapped_column(String(40))
    joined: Mapped[float] = mapped_column(Float)


class PairingRow(Base):
    """One table (or bye) of a tournament's round."""

    __tablename__ = "tournament_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    seats: Mapped[str] = mapped_column(Text)
    bye: Mapped[bool] = mapped_column(Boolean, default=False)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    made: Mapped[float] = mapped_column(Float)
    done: Mapped[bool] = mapped_column(Boolean, default=False)
    done_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    left: Mapped[str] = mapped_column(Text, default="[]")


class TournamentError(Exception):
    """A refused change: ``code`` (``tournament_not_found``,
    ``tournament_started``, ``not_entered``) and an English ``message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """A tournament as stored (see the module's docstring)."""

    id: int
    name: str
    kind: str
    status: str
    preset: str
    target: int | None
    level: str
    rounds: int | None
    minutes: int | None
    starts_at: float
    round: int
    entrants: int
    created: float
    ended: float | None

    @property
    def ends_at(self) -> float | None:
        """When an arena stops pairing (Unix seconds); ``None`` for Swiss."""
        return None if self.minutes is None else self.starts_at + 60 * self.minutes


@dataclass(frozen=True, slots=True)
class StoredEntrant:
    """An entrant: account id, name, when he joined."""

    user_id: int
    name: str
    joined: float


@dataclass(frozen=True, slots=True)
class StoredPairing:
    """A table (or bye) of a round (see the module's docstring)."""

    id: int
    round: int
    number: int
    seats: dict[str, int | None]
    bye: bool
    table_id: str | None
    made: float
    done: bool
    done_at: float | None
    winner: int | None
    left: frozenset[int]


def _tournament(row: TournamentRow) -> StoredTournament:
    return StoredTournament(
        id=row.id,
        name=row.name,
        kind=row.kind,
        status=row.status,
        preset=row.preset,
        target=row.target,
        level=row.level,
        rounds=row.rounds,
        minutes=row.minutes,
        starts_at=row.starts_at,
        round=row.round,
        entrants=row.entrants,
        created=row.created,
        ended=row.ended,
    )


def _pairing(row: PairingRow) -> StoredPairing:
    return StoredPairing(
        id=row.id,
        round=row.round,
        number=row.number,
        seats=dict(json.loads(row.seats)),
        bye=row.bye,
        table_id=row.table_id,
        made=row.made,
        done=row.done,
        done_at=row.done_at,
        winner=row.winner,
        left=frozenset(json.loads(row.left)),
    )


class TournamentDatabase(Protocol):
    """What :class:`TournamentStore` needs of the server's store
    (:class:`~rebelote.server.storage.tables.Store`): its engine, whose
    database and connections the tournaments share."""

    @property
    def engine(self) -> Engine:
        """The store's SQLAlchemy engine."""
        ...


class TournamentStore:
    """The tournaments of ``store``'s database (its engine; every method is
    synchronous: call it in a thread from the event loop)."""

    def __init__(self, store: TournamentDatabase) -> None:
        self.store = store
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def _session(self) -> Session:
        return self._sessions()

    # ------------------------------------------------------------ tournaments

    def create(
        self,
        *,
        name: str,
        kind: str,
        preset: str,
        target: int | None,
        level: str,
        rounds: int | None,
        minutes: int | None,
        starts_at: float,
        now: float,
    ) -> int:
        """A new tournament open for registration; returns its id."""
        with self._session() as session, session.begin():
            row = TournamentRow(
                name=name,
                kind=kind,
                status="open",
                preset=preset,
                target=target,
                level=level,
                rounds=rounds,
                minutes=minutes,
                starts_at=starts_at,
                round=0,
                entrants=0,
                created=now,
            )
            session.add(row)
            session.flush()
            return row.id

    def get(self, tournament_id: int) -> StoredTournament | None:
        """The tournament, or ``None``."""
        with self._session() as session:
            row = session.get(TournamentRow, tournament_id)
            return None if row is None else _tournament(row)

    def all(self, statuses: Sequence[str] | None = None) -> list[StoredTournament]:
        """Every tournament (with one of ``statuses`` when given), by start
        time, then id."""
        query = select(TournamentRow).order_by(TournamentRow.starts_at, TournamentRow.id)
        if statuses is not None:
            query = query.where(TournamentRow.status.in_(list(statuses)))
        with self._session() as session:
            return [_tournament(r) for r in session.scalars(query)]

    def set_status(
        self, tournament_id: int, *, was: Sequence[str], status: str, now: float
    ) -> bool:
        """Compare-and-set the status (``was``: the statuses it may have);
        ``finished`` and ``cancelled`` set ``ended``.  Whether this call
        changed it."""
        values: dict[str, Any] = {"status": status}
        if status in ("finished", "cancelled"):
            values["ended"] = now
        with self._session() as session, session.begin():
            result = session.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tournament_id, TournamentRow.status.in_(list(was)))
                .values(**values)
            )
            return bool(getattr(result, "rowcount", 0))

    # --------------------------------------------------------------- entrants

    def _touch_open(self, session: Session, tournament_id: int, delta: int) -> None:
        """Lock the tournament's row while it is open (else refuse)."""
        result = session.execute(
            update(TournamentRow)
            .where(TournamentRow.id == tournament_id, TournamentRow.status == "open")
            .values(entrants=TournamentRow.entrants + delta)
        )
        if getattr(result, "rowcount", 0):
            return
        if session.get(TournamentRow, tournament_id) is None:
            raise TournamentError("tournament_not_found", "no such tournament")
        raise TournamentError(
            "tournament_started", "registration is closed: the tournament has started or ended"
        )

    def join(self, tournament_id: int, user_id: int, name: str, *, now: float) -> bool:
        """Enter ``user_id`` (``False``: he already was).  Raises
        :class:`TournamentError` (``tournament_not_found``,
        ``tournament_started``)."""
        with self._session() as session, session.begin():
            there = session.get(EntrantRow, (tournament_id, user_id)) is not None
            self._touch_open(session, tournament_id, 0 if there else 1)
            if not there:
                session.add(
                    EntrantRow(tournament_id=tournament_id, user_id=user_id, name=name, joined=now)
                )
            return not there

    def leave(self, tournament_id: int, user_id: int) -> None:
        """Withdraw ``user_id`` before the start.  Raises
        :class:`TournamentError` (``tournament_not_found``,
        ``tournament_started``, ``not_entered``)."""
        with self._session() as session, session.begin():
            there = session.get(EntrantRow, (tournament_id, user_id)) is not None
            self._touch_open(session, tournament_id, -1 if there else 0)
            if not there:
                raise TournamentError("not_entered", "you are not entered in this tournament")
            session.execute(
                delete(EntrantRow).where(
                    EntrantRow.tournament_id == tournament_id, EntrantRow.user_id == user_id
                )
            )

    def entrants(self, tournament_id: int) -> list[StoredEntrant]:
        """The entrants, in the order they joined."""
        with self._session() as session:
            rows = session.scalars(
                select(EntrantRow)
                .where(EntrantRow.tournament_id == tournament_id)
                .order_by(EntrantRow.joined, EntrantRow.user_id)
            )
            return [StoredEntrant(r.user_id, r.name, r.joined) for r in rows]

    def tournaments_of(self, user_id: int) -> list[int]:
        """The ids of the tournaments ``user_id`` entered (for profiles)."""
        with self._session() as session:
            return list(
                session.scalars(
                    select(EntrantRow.tournament_id)
                    .where(EntrantRow.user_id == user_id)
                    .order_by(EntrantRow.tournament_id)
                )
            )

    # --------------------------------------------------------------- rounds

    def start_round(
        self,
        tournament_id: int,
        *,
        was_round: int,
        was_status: str,
        tables: Sequence[tuple[dict[str, int | None], bool]],
        now: float,
    ) -> list[StoredPairing] | None:
        """Start round ``was_round + 1`` with ``tables`` (each ``(seats,
        bye)``), status ``running``, if the tournament is still at
        ``was_round`` with ``was_status``: the new rows, or ``None`` when
        another process did it first (or the tournament moved on)."""
        with self._session() as session, session.begin():
            result = session.execute(
                update(TournamentRow)
                .where(
                    TournamentRow.id == tournament_id,
                    TournamentRow.round == was_round,
                    TournamentRow.status == was_status,
                )
                .values(round=was_round + 1, status="running")
            )
            if not getattr(result, "rowcount", 0):
                return None
            rows = [
                PairingRow(
                    tournament_id=tournament_id,
                    round=was_round + 1,
                    number=i + 1,
                    seats=json.dumps(seats, sort_keys=True),
                    bye=bye,
                    made=now,
                    done=bye,
                    done_at=now if bye else None,
                    left="[]",
                )
                for i, (seats, bye) in enumerate(tables)
            ]
            session.add_all(rows)
            session.flush()
            return [_pairing(r) for r in rows]

    def pairings(self, tournament_id: int) -> list[StoredPairing]:
        """Every table and bye of the tournament, by round and number."""
        with self._session() as session:
            rows = session.scalars(
                select(PairingRow)
                .where(PairingRow.tournament_id == tournament_id)
                .order_by(PairingRow.round, PairingRow.number)
            )
            return [_pairing(r) for r in rows]

    def set_table(self, pairing_id: int, table_id: str) -> None:
        """The lobby table made for a pairing."""
        with self._session() as session, session.begin():
            session.execute(
                update(PairingRow).where(PairingRow.id == pairing_id).values(table_id=table_id)
            )

    def finish_table(
        self, pairing_id: int, *, winner: int | None, left: Sequence[int], now: float
    ) -> bool:
        """Record a table's result once: whether this call did."""
        with self._session() as session, session.begin():
            result = session.execute(
                update(PairingRow)
                .where(PairingRow.id == pairing_id, PairingRow.done.is_(False))
                .values(done=True, done_at=now, winner=winner, left=json.dumps(sorted(left)))
            )
            return bool(getattr(result, "rowcount", 0))

    def table_statuses(self, table_ids: Sequence[str]) -> dict[str, str]:
        """The status of each stored table of ``table_ids``."""
        if not table_ids:
            return {}
        with self._session() as session:
            rows = session.execute(
                select(TableRow.id, TableRow.status).where(TableRow.id.in_(list(table_ids)))
            )
            return {table_id: status for table_id, status in rows}
