"""Storage: each table, its seats and its event log, through SQLAlchemy.

Three tables (rows: :mod:`rebelote.server.storage.table_rows`; schema managed
by Alembic, :mod:`rebelote.server.storage.migrations`, and gathered in
:mod:`rebelote.server.storage.schema`):

- ``tables``: ``id``, ``rules`` (the rules record, JSON), ``options``
  (:class:`~rebelote.server.protocol.messages.TableOptions`, JSON), ``seed``,
  ``created``, ``updated``, ``status`` (``playing`` / ``finished``);
- ``seats``: ``table_id``, ``seat`` (``N W S E``), ``kind`` (``human`` /
  ``bot``), ``name``, ``level``, ``token_hash`` (SHA-256 of the seat's token;
  the token itself is never stored), ``user_id``, ``left``, ``guest``,
  ``outside_bot`` (taken with a bot token, migration ``r0010``);
- ``events``: ``table_id``, ``seq`` (0, 1, 2, ...), ``deal`` (the deal
  number in its match, 0 before the first deal), ``kind`` (``match``,
  ``deal``, ``act``), ``seat``, ``payload`` (JSON: the action text, or the
  shuffled pack at a deal's start), ``created``.

The event log is the truth: :mod:`rebelote.server.tables.game` rebuilds a table by
replaying it.  Any SQLAlchemy database URL works; the default is SQLite in the
user's data folder (:func:`default_database_url`).  All methods are
synchronous (the table actors call them in a worker thread); the log's
writes of live tables go through the store's
:class:`~rebelote.server.storage.writer.LogWriter` (:attr:`Store.writer`),
one thread that writes what every table has pending in one transaction,
with SQLAlchemy Core statements built once (no ORM on that path); the log
entries it takes are :mod:`rebelote.server.storage.log_entries`'s values.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    bindparam,
    create_engine,
    event,
    false,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine, ExceptionContext, make_url
from sqlalchemy.exc import (
    ArgumentError,
    DataError,
    IntegrityError,
    InternalError,
    InvalidatePoolError,
    NoSuchModuleError,
    OperationalError,
    ProgrammingError,
    SQLAlchemyError,
)
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from rebelote.server.people.names import name_key, skeletons
from rebelote.server.settings import ServerSettings
from rebelote.server.storage.analyses import AnalysisStore
from rebelote.server.storage.bot_tokens import BotTokenStore
from rebelote.server.storage.claims import ClaimStore
from rebelote.server.storage.daily import DailyStore
from rebelote.server.storage.log_entries import LogWrite, StoredEvent
from rebelote.server.storage.orm import now
from rebelote.server.storage.people import (
    NameTakenError,
    PeopleStore,
    User,
    UserRow,
    user_of,
)
from rebelote.server.storage.progress import ProgressStore
from rebelote.server.storage.summaries import SummaryStore
from rebelote.server.storage.table_rows import EventRow, SeatRow, TableRow
from rebelote.server.storage.writer import LogWriter

__all__ = [
    "Store",
    "StoredSeat",
    "StoredTable",
    "TableMeta",
    "alembic_config",
    "default_database_url",
    "engine_url",
    "hash_token",
    "storage_failure",
]

MIGRATIONS = Path(__file__).with_name("migrations")
"""The Alembic scripts folder inside the package."""


def default_database_url() -> str:
    """``DATABASE_URL`` from the environment, else SQLite at
    ``platformdirs.user_data_dir("rebelote")/rebelote.db`` (the folder is
    created)."""
    url = os.environ.get("DATABASE_URL")
    if url:
        return url
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("rebelote", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'rebelote.db'}"


def engine_url(url: str) -> str:
    """``url`` with PostgreSQL's plain scheme (``postgresql://``,
    ``postgres://``) pointed at the psycopg 3 driver the project ships."""
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url.removeprefix(plain)
    return url


def hash_token(token: str) -> str:
    """The SHA-256 hex digest of a seat token (what the database keeps)."""
    return hashlib.sha256(token.encode()).hexdigest()


_now = now


@dataclass(frozen=True, slots=True)
class StoredSeat:
    """A seat as stored: ``kind`` is ``human``, ``bot`` or ``open`` (a free
    seat of a table not started yet); ``user_id`` the player's account (or
    guest) when known; ``left`` once its player left the match; ``guest``
    when its player is a guest (no account)."""

    seat: str
    kind: str
    name: str
    level: str | None
    token_hash: str | None
    user_id: int | None = None
    left: bool = False
    guest: bool = False
    outside_bot: bool = False


@dataclass(frozen=True, slots=True)
class TableMeta:
    """What the lobby knows of a table: its ``name``, ``visibility``
    (``solo``: a single player's table from ``POST /api/tables``; ``public``;
    ``private``: reached by its invitation), ``ranked``, the ``host`` seat and
    the ``invite`` code of a private table."""

    name: str = ""
    visibility: str = "solo"
    ranked: bool = False
    host: str | None = None
    invite: str | None = None


_INSERT_EVENTS = insert(EventRow.__table__)  # type: ignore[arg-type]
"""The log's insert, built once (executed with one parameter set per entry)."""

_SET_STATUS = (
    update(TableRow.__table__)  # type: ignore[arg-type]
    .where(TableRow.__table__.c.id.in_(bindparam("b_ids", expanding=True)))
    .values(status=bindparam("b_status"), updated=bindparam("b_updated"))
)
"""The status and time of change of table rows, built once (bound
parameters: the list ``b_ids``, ``b_status``, ``b_updated``): one statement
for all the tables of a batch that take the same status."""

_WRITE_LOG_PG = text(
    """
    WITH added AS (
        INSERT INTO events (table_id, seq, deal, kind, seat, payload, created)
        SELECT e.table_id, e.seq, e.deal, e.kind, e.seat, CAST(e.payload AS json), :at
        FROM unnest(
            CAST(:table_ids AS varchar[]), CAST(:seqs AS integer[]), CAST(:deals AS integer[]),
            CAST(:kinds AS varchar[]), CAST(:seats AS varchar[]), CAST(:payloads AS text[])
        ) AS e(table_id, seq, deal, kind, seat, payload)
    )
    UPDATE tables SET status = s.status, updated = :at
    FROM unnest(CAST(:ids AS varchar[]), CAST(:statuses AS varchar[])) AS s(id, status)
    WHERE tables.id = s.id
    """
)
"""PostgreSQL: a batch of log entries and the status of their tables in
one statement (arrays, one per column, expanded by ``unnest``; run in
autocommit mode, the statement is its own transaction: all or nothing)."""


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as stored: its row's values, seats and whole event log."""

    id: str
    rules: Any
    options: dict[str, Any]
    seed: int
    status: str
    seats: tuple[StoredSeat, ...]
    events: tuple[StoredEvent, ...]
    meta: TableMeta = TableMeta()


def alembic_config(url: str) -> Any:
    """An Alembic ``Config`` for ``url`` using the package's migrations (no
    ``alembic.ini``).  For a new revision::

        from alembic import command
        command.revision(alembic_config(url), message="...", autogenerate=True)
    """
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


class Store(
    AnalysisStore,
    PeopleStore,
    BotTokenStore,
    SummaryStore,
    ProgressStore,
    DailyStore,
    ClaimStore,
):
    """The server's database (tables here; people, chat and results from
    :class:`~rebelote.server.storage.people.PeopleStore`; the analyses of
    finished games from
    :class:`~rebelote.server.storage.analyses.AnalysisStore`; the
    per-match summaries of the profiles from
    :class:`~rebelote.server.storage.summaries.SummaryStore`; the claim of
    the cluster driving the live tables from
    :class:`~rebelote.server.storage.claims.ClaimStore`).  ``url``:
    any SQLAlchemy URL.  Call :meth:`migrate` before use (``rebelote
    play`` does it on start).  ``settings``: the statement, lock and connection timeouts
    (``db_*`` of :class:`~rebelote.server.settings.ServerSettings`).

    Errors never show the values of a statement (``hide_parameters``).
    After a statement the database failed (:func:`storage_failure`: down,
    read-only, full, locked, past a timeout) every pooled session is
    dropped, so that the next use opens a new one."""

    def __init__(self, url: str, *, settings: ServerSettings | None = None) -> None:
        url = engine_url(url)
        self.url = url
        limits = settings or ServerSettings()
        kwargs: dict[str, Any] = {}
        memory = url in ("sqlite://", "sqlite:///:memory:")
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
            if memory:
                kwargs["poolclass"] = StaticPool
        elif url.startswith("postgresql"):
            kwargs["connect_args"] = _postgresql_limits(url, limits)
        # a pooled connection is checked before use, so the first write
        # after a database restart does not fail on a dead one (a server's
        # database: pool_pre_ping, or for PostgreSQL a check that the
        # session is writable too, _check_out; SQLite is a file, with no
        # connection to lose: no check, a statement saved at each use);
        # hide_parameters: an error (logged) never shows the values
        # written (a password's hash, a token's)
        postgresql = url.startswith("postgresql")
        self.engine: Engine = create_engine(
            url,
            pool_pre_ping=not (url.startswith("sqlite") or postgresql),
            hide_parameters=True,
            **kwargs,
        )
        if postgresql:
            event.listen(self.engine, "connect", _fresh)
            event.listen(self.engine, "checkout", _check_out)
        if url.startswith("sqlite"):
            busy = max(0, limits.db_lock_timeout_ms)
            event.listen(
                self.engine,
                "connect",
                lambda connection, record: _sqlite_pragmas(connection, record, busy),
            )
        if not memory:
            event.listen(self.engine, "handle_error", _drop_sessions_on_failure)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        # PostgreSQL: the log's writes as one statement each, in autocommit
        # mode (no BEGIN and COMMIT round trips), on a pool of their own (a
        # session checked out in autocommit mode from the start: its check
        # opens no transaction)
        self._autocommit: Engine | None = None
        if postgresql:
            self._autocommit = create_engine(
                url, isolation_level="AUTOCOMMIT", hide_parameters=True, **kwargs
            )
            event.listen(self._autocommit, "connect", _fresh)
            event.listen(self._autocommit, "checkout", _check_out)
            event.listen(self._autocommit, "handle_error", _drop_sessions_on_failure)
        self.writer = LogWriter(self)
        """The live tables' log writer (started at its first write,
        stopped by :meth:`close`)."""

    def migrate(self) -> None:
        """Upgrade the schema to the latest migration (creates it on a new
        database)."""
        from alembic import command

        config = alembic_config(self.url)
        with self.engine.begin() as connection:
            if self.url.startswith("postgresql"):
                # a migration may run long: no statement timeout (this
                # transaction only); processes starting together migrate
                # one after the other (the next finds the schema current)
                connection.exec_driver_sql("SET LOCAL statement_timeout = 0")
                connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7271914)")
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def close(self) -> None:
        """Stop the log writer (once what it holds is written) and release
        the connections."""
        self.writer.close()
        self.engine.dispose()
        if self._autocommit is not None:
            self._autocommit.dispose()

    def _session(self) -> Session:
        return self._sessions()

    def create_table(
        self,
        *,
        table_id: str,
        rules: Any,
        options: dict[str, Any],
        seed: int,
        seats: Sequence[StoredSeat],
        events: Sequence[StoredEvent],
        status: str,
        meta: TableMeta | None = None,
    ) -> None:
        """Store a new table with its seats and first log entries, in one
        transaction."""
        m = meta or TableMeta()
        with self._session() as session, session.begin():
            session.add(
                TableRow(
                    id=table_id,
                    rules=rules,
                    options=options,
                    seed=seed,
                    status=status,
                    name=m.name,
                    visibility=m.visibility,
                    ranked=m.ranked,
                    host=m.host,
                    invite=m.invite,
                )
            )
            session.flush()
            self._put_seats(session, table_id, seats)
            self._add_events(session, table_id, events)

    @staticmethod
    def _put_seats(session: Session, table_id: str, seats: Sequence[StoredSeat]) -> None:
        for s in seats:
            session.merge(
                SeatRow(
                    table_id=table_id,
                    seat=s.seat,
                    kind=s.kind,
                    name=s.name,
                    level=s.level,
                    token_hash=s.token_hash,
                    user_id=s.user_id,
                    left=s.left,
                    guest=s.guest,
                    outside_bot=s.outside_bot,
                )
            )

    def update_table(
        self,
        table_id: str,
        *,
        seats: Sequence[StoredSeat] = (),
        host: str | None = None,
        set_host: bool = False,
        status: str | None = None,
        events: Sequence[StoredEvent] = (),
        drop_mutes: Sequence[tuple[int | None, str]] = (),
    ) -> None:
        """Change seats (each given seat replaces its row), the host seat
        (when ``set_host``), the status, and append log entries, in one
        transaction.  ``drop_mutes``: ``(user_id, seat)`` of each seat that
        changed hands, with its former player: his mutes, and everyone's
        mutes of that seat, are deleted (:meth:`drop_mutes`)."""
        with self._session() as session, session.begin():
            self._put_seats(session, table_id, seats)
            for user_id, seat in drop_mutes:
                self._drop_mutes(session, table_id, user_id, seat)
            values: dict[str, Any] = {"updated": _now()}
            if set_host:
                values["host"] = host
            if status is not None:
                values["status"] = status
            self._add_events(session, table_id, events)
            session.execute(update(TableRow).where(TableRow.id == table_id).values(**values))

    def upgrade_guest(self, user_id: int, name: str, password_hash: str) -> User:
        """Turn the guest ``user_id`` into an account named ``name`` (same
        id: his seats, results and history stay his), in one transaction:
        the name and its key, the password, ``guest`` false, and on his
        seats ``guest`` false and, where he still sits (not left), the new
        name.  :class:`~rebelote.server.storage.people.NameTakenError` when an
        account has that name; ``ValueError`` when ``user_id`` is not a
        guest."""
        try:
            with self._session() as session, session.begin():
                row = session.get(UserRow, user_id)
                if row is None or not row.guest:
                    raise ValueError(f"user {user_id} is not a guest")
                looks = skeletons(name)
                if self._skeleton_taken(session, looks, but=user_id):
                    raise NameTakenError(f"the name {name!r} reads like an account's")
                row.name = name
                row.name_key = name_key(name)
                row.name_skeleton, row.name_lower_skeleton = looks
                row.password_hash = password_hash
                row.guest = False
                session.flush()
                session.execute(
                    update(SeatRow).where(SeatRow.user_id == user_id).values(guest=False)
                )
                session.execute(
                    update(SeatRow)
                    .where(
                        SeatRow.user_id == user_id,
                        SeatRow.kind == "human",
                        SeatRow.left == false(),
                    )
                    .values(name=name)
                )
                return user_of(row)
        except IntegrityError:
            raise NameTakenError(f"the name {name!r} is taken") from None

    def lobby(self, limit: int = 200) -> list[str]:
        """The ids of the public tables not finished (open first, newest
        first)."""
        with self._session() as session:
            rows = session.execute(
                select(TableRow.id, TableRow.status)
                .where(TableRow.visibility == "public")
                .where(TableRow.status.in_(("open", "playing")))
                .order_by(TableRow.updated.desc())
                .limit(limit)
            ).all()
        return [r[0] for r in sorted(rows, key=lambda r: r[1] != "open")]

    def tables_of_user(self, user_id: int, limit: int = 100) -> list[tuple[str, str, str]]:
        """``(table_id, seat, status)`` of the tables where ``user_id`` holds
        or held a seat, newest first."""
        with self._session() as session:
            rows = session.execute(
                select(SeatRow.table_id, SeatRow.seat, TableRow.status)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.user_id == user_id)
                .order_by(TableRow.updated.desc())
                .limit(limit)
            ).all()
        return [(r[0], r[1], r[2]) for r in rows]

    @staticmethod
    def _add_events(session: Session, table_id: str, events: Sequence[StoredEvent]) -> None:
        for e in events:
            session.add(
                EventRow(
                    table_id=table_id,
                    seq=e.seq,
                    deal=e.deal,
                    kind=e.kind,
                    seat=e.seat,
                    payload=e.payload,
                )
            )

    def append(self, table_id: str, events: Sequence[StoredEvent], status: str) -> None:
        """Append log entries and set the table's status, in one transaction
        (a ``seq`` already taken raises ``IntegrityError``: two writers on
        one table).  PostgreSQL: one statement in autocommit mode
        (:data:`_WRITE_LOG_PG`); SQLite: a Core insert and update."""
        self._write_log([LogWrite(table_id, tuple(events), status)])

    def append_many(self, writes: Sequence[LogWrite]) -> None:
        """Append several tables' log entries and set their status, all in
        one transaction (PostgreSQL: one statement, :data:`_WRITE_LOG_PG`,
        in autocommit mode; SQLite: SQLAlchemy Core, one insert of every
        entry, one update per status, with statements built once): all or
        nothing.
        A ``seq`` already taken raises ``IntegrityError``; a database fault,
        :func:`storage_failure`'s errors."""
        self._write_log(writes)

    def _write_log(self, writes: Sequence[LogWrite]) -> None:
        if not writes:
            return
        at = _now()
        if self._autocommit is not None:
            events = [e for w in writes for e in w.events]
            params = {
                "at": at,
                "table_ids": [w.table_id for w in writes for _ in w.events],
                "seqs": [e.seq for e in events],
                "deals": [e.deal for e in events],
                "kinds": [e.kind for e in events],
                "seats": [e.seat for e in events],
                "payloads": [json.dumps(e.payload) for e in events],
                "ids": [w.table_id for w in writes],
                "statuses": [w.status for w in writes],
            }
            with self._autocommit.connect() as connection:
                connection.execute(_WRITE_LOG_PG, params)
            return
        rows = [
            {
                "table_id": w.table_id,
                "seq": e.seq,
                "deal": e.deal,
                "kind": e.kind,
                "seat": e.seat,
                "payload": e.payload,
                "created": at,
            }
            for w in writes
            for e in w.events
        ]
        by_status: dict[str, list[str]] = {}
        for w in writes:
            by_status.setdefault(w.status, []).append(w.table_id)
        with self.engine.begin() as connection:
            if rows:
                connection.execute(_INSERT_EVENTS, rows)
            for status, ids in by_status.items():
                connection.execute(_SET_STATUS, {"b_ids": ids, "b_status": status, "b_updated": at})

    def load(self, table_id: str) -> StoredTable | None:
        """The table ``table_id`` with its seats and log, or ``None``."""
        with self._session() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            seats = session.scalars(
                select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
            ).all()
            events = session.scalars(
                select(EventRow).where(EventRow.table_id == table_id).order_by(EventRow.seq)
            ).all()
            return StoredTable(
                id=row.id,
                rules=row.rules,
                options=dict(row.options),
                seed=row.seed,
                status=row.status,
                seats=tuple(
                    StoredSeat(
                        s.seat,
                        s.kind,
                        s.name,
                        s.level,
                        s.token_hash,
                        s.user_id,
                        bool(s.left),
                        bool(s.guest),
                        bool(s.outside_bot),
                    )
                    for s in seats
                ),
                events=tuple(
                    StoredEvent(e.seq, e.deal, e.kind, e.seat, dict(e.payload)) for e in events
                ),
                meta=TableMeta(
                    name=row.name,
                    visibility=row.visibility,
                    ranked=bool(row.ranked),
                    host=row.host,
                    invite=row.invite,
                ),
            )

    def unfinished(self, *, networked: bool = False, waiting: bool = False) -> list[str]:
        """The ids of the tables whose match is not over (or not started),
        oldest first; ``networked``: only the lobby's (not ``solo``) whose
        match is on (``playing``), and those waiting for their players
        (``open``) too with ``waiting``."""
        query = select(TableRow.id).where(TableRow.status.in_(("playing", "open")))
        if networked:
            query = query.where(TableRow.visibility != "solo")
            if not waiting:
                query = query.where(TableRow.status == "playing")
        with self._session() as session:
            return list(session.scalars(query.order_by(TableRow.created)).all())

    def seat_of_token(self, token_hash: str) -> tuple[str, str, str] | None:
        """``(table_id, seat, status)`` of the seat holding the token whose
        hash is ``token_hash``, or ``None``."""
        with self._session() as session:
            row = session.execute(
                select(SeatRow.table_id, SeatRow.seat, TableRow.status)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.token_hash == token_hash)
            ).first()
            return None if row is None else (row[0], row[1], row[2])


def storage_failure(exc: BaseException) -> bool:
    """Whether ``exc`` is the database refusing or failing a statement
    (down, read-only, full, locked, past a timeout, a connection lost or
    not made): the request may be tried again once the database is back.
    A constraint violation or a malformed statement (a defect) is not."""
    return isinstance(exc, SQLAlchemyError) and not isinstance(
        exc, (IntegrityError, ProgrammingError, DataError, ArgumentError, NoSuchModuleError)
    )


def _postgresql_limits(url: str, limits: ServerSettings) -> dict[str, Any]:
    """psycopg's connection arguments for the settings' timeouts (kept
    beside any ``options`` of the URL)."""
    options = [
        make_url(url).query.get("options", ""),
        f"-c statement_timeout={max(0, limits.db_statement_timeout_ms)}",
        f"-c lock_timeout={max(0, limits.db_lock_timeout_ms)}",
    ]
    return {
        "connect_timeout": max(1, limits.db_connect_timeout_s),
        "options": " ".join(str(o) for o in options if o),
    }


_FRESH = "rebelote_fresh"
"""The mark of a pooled connection not used yet (in its record's ``info``)."""


def _fresh(_dbapi_connection: Any, record: Any) -> None:
    """A new connection: its first checkout needs no check."""
    record.info[_FRESH] = True


def _check_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
    """PostgreSQL, as a pooled connection is taken (not a new one): one
    round trip checks that its session is alive and writable (the
    ``pool_pre_ping`` it replaces only checks the first).  A session opened
    while the database was read-only (``default_transaction_read_only``,
    read when a session starts) stays read-only after the database is
    writable again; such a session, or a dead one, makes the pool drop
    every connection opened before and open a new one for this use (a
    database still read-only gives a read-only one: reads work, writes are
    refused as during the fault), so that the first write after a fault
    does not fail on a session opened during it."""
    if record.info.pop(_FRESH, False):
        return
    try:
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("SELECT current_setting('transaction_read_only')")
            row = cursor.fetchone()
        finally:
            cursor.close()
    except Exception as exc:  # the connection is dead (a restart, a network fault)
        raise InvalidatePoolError(f"a pooled connection failed its check: {exc}") from exc
    if row is not None and row[0] == "on":
        raise InvalidatePoolError("a pooled session is read-only")


def _drop_sessions_on_failure(context: ExceptionContext) -> None:
    """A statement failed on the database's side: every pooled session is
    dropped (as a disconnection does), so that no session opened during a
    fault (e.g. a read-only period, whose sessions stay read-only) serves
    again; the next use opens a new one."""
    if isinstance(context.sqlalchemy_exception, (OperationalError, InternalError)):
        context.is_disconnect = True


def _sqlite_pragmas(dbapi_connection: Any, _record: Any, busy_ms: int = 5000) -> None:
    """SQLite: enforce foreign keys; WAL lets readers run beside the writer;
    ``synchronous=NORMAL`` (safe in WAL: a crash or restart of the server
    loses nothing; only a power cut may lose the last moves) spares an fsync
    per move; wait up to ``busy_ms`` milliseconds for another writer
    (``db_lock_timeout_ms``)."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
    with contextlib.suppress(Exception):  # e.g. a read-only database
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
