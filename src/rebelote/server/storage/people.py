"""Storage of people: accounts and guests, sessions, chat lines, match
results (ratings, experience).

Five tables beside :mod:`rebelote.server.storage.tables`'s (schema: migrations
``r0002``, ``r0003``):

- ``users``: ``id``, ``name`` (NFC), ``name_key``
  (:func:`~rebelote.server.people.names.name_key` of an account's name,
  unique; null for a guest), ``name_skeleton`` and
  ``name_lower_skeleton`` (:func:`~rebelote.server.people.names.skeleton` and
  :func:`~rebelote.server.people.names.lower_skeleton` of an account's name,
  each unique: no two accounts' names read alike; null for a guest, and for
  an account whose key an older account already had when migration
  ``r0008`` computed them), ``password_hash`` (argon2id; null for a
  guest), ``guest``, ``created``, the rating ``mu`` / ``sigma`` (OpenSkill),
  ``rated`` (ranked matches counted), ``matches`` and ``xp``;
- ``sessions``: ``id`` (SHA-256 of the session cookie; the cookie itself is
  never stored), ``user_id``, ``csrf`` (the token a browser sends back in the
  ``X-CSRF-Token`` header), ``created``, ``expires`` (epoch seconds);
- ``chat``: one line said at a table (``seat``, ``name``, raw ``text``);
- ``mutes``: ``table_id``, ``user_id`` (the muting player), ``seat`` (the
  seat whose chat he does not read);
- ``results``: one row per seat and finished (or left) match: the side, won,
  left, ranked (rated), why not (``unrated_reason``, migration ``r0006``),
  the rating (``mu``, ``sigma``) before and after, the experience gained.

:class:`PeopleStore` is mixed into :class:`~rebelote.server.storage.tables.Store`;
every method is synchronous (called in a worker thread).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    ColumnElement,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    and_,
    case,
    delete,
    false,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from rebelote.server.people.names import name_key, skeletons
from rebelote.server.people.ratings import (
    PROVISIONAL_MATCHES,
    PROVISIONAL_SIGMA,
    display_rating,
    is_provisional,
)
from rebelote.server.storage.orm import Base
from rebelote.server.storage.orm import now as _now

__all__ = [
    "NAME_KEY_LENGTH",
    "ChatLine",
    "ChatRow",
    "MuteRow",
    "NameTakenError",
    "PeopleStore",
    "ResultLine",
    "ResultRow",
    "SessionRow",
    "User",
    "UserRow",
    "user_of",
]

DEFAULT_MU = 25.0
"""OpenSkill's default mean rating."""

DEFAULT_SIGMA = 25.0 / 3
"""OpenSkill's default uncertainty."""


class UserRow(Base):
    """An account or a guest."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str | None] = mapped_column(String(40), nullable=True, unique=True)
    name_skeleton: Mapped[str | None] = mapped_column(
        String(40), nullable=True, unique=True, index=True
    )
    name_lower_skeleton: Mapped[str | None] = mapped_column(
        String(40), nullable=True, unique=True, index=True
    )
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    guest: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    mu: Mapped[float] = mapped_column(Float, default=DEFAULT_MU)
    sigma: Mapped[float] = mapped_column(Float, default=DEFAULT_SIGMA)
    rated: Mapped[int] = mapped_column(Integer, default=0)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    xp: Mapped[int] = mapped_column(Integer, default=0)


class SessionRow(Base):
    """A browser session (the cookie's SHA-256)."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    expires: Mapped[float] = mapped_column(Float)


class ChatRow(Base):
    """One chat line at a table."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[str] = mapped_column(String(1))
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(500))
    at: Mapped[float] = mapped_column(Float)


class MuteRow(Base):
    """A player (``user_id``) mutes the chat of ``seat`` at a table."""

    __tablename__ = "mutes"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(1), primary_key=True)


class ResultRow(Base):
    """One seat's result in one match."""

    __tablename__ = "results"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    match: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(1), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    name: Mapped[str] = mapped_column(String(40))
    side: Mapped[str] = mapped_column(String(2))
    won: Mapped[bool] = mapped_column(Boolean)
    left: Mapped[bool] = mapped_column(Boolean)
    ranked: Mapped[bool] = mapped_column(Boolean)
    mu_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    mu_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    xp: Mapped[int] = mapped_column(Integer, default=0)
    deals: Mapped[int] = mapped_column(Integer, default=0)
    at: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    unrated_reason: Mapped[str | None] = mapped_column(String(16), nullable=True)


class NameTakenError(ValueError):
    """An account name already in use (names compare casefolded), or one
    that reads like an account's (:func:`~rebelote.server.people.names.skeletons`)."""


@dataclass(frozen=True, slots=True)
class User:
    """An account or a guest, as the server uses it."""

    id: int
    name: str
    guest: bool
    mu: float
    sigma: float
    rated: int
    matches: int
    xp: int
    password_hash: str | None = None

    @property
    def rating(self) -> int:
        """The displayed rating (:func:`~rebelote.server.people.ratings.display_rating`
        of ``mu``): 1500 for a new account, never below 0."""
        return display_rating(self.mu)

    @property
    def provisional(self) -> bool:
        """Whether the rating is still provisional
        (:func:`~rebelote.server.people.ratings.is_provisional`)."""
        return is_provisional(self.rated, self.sigma)


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One chat line as stored."""

    id: int
    seat: str
    name: str
    text: str
    at: float


@dataclass(frozen=True, slots=True)
class ResultLine:
    """One seat's result in one match (see :class:`ResultRow`)."""

    table_id: str
    match: int
    seat: str
    user_id: int | None
    name: str
    side: str
    won: bool
    left: bool
    ranked: bool
    mu_before: float | None
    mu_after: float | None
    sigma_after: float | None
    xp: int
    deals: int
    at: float
    sigma_before: float | None = None
    unrated_reason: str | None = None

    @property
    def rating_before(self) -> int | None:
        """The displayed rating before the match
        (:func:`~rebelote.server.people.ratings.display_rating` of ``mu_before``),
        when known (an account's seat)."""
        return None if self.mu_before is None else display_rating(self.mu_before)

    @property
    def rating_after(self) -> int | None:
        """The displayed rating after the match (rated matches only)."""
        return None if self.mu_after is None else display_rating(self.mu_after)


def user_of(row: UserRow) -> User:
    """The :class:`User` of a row."""
    return User(
        id=row.id,
        name=row.name,
        guest=bool(row.guest),
        mu=row.mu,
        sigma=row.sigma,
        rated=row.rated,
        matches=row.matches,
        xp=row.xp,
        password_hash=row.password_hash,
    )


NAME_KEY_LENGTH = 40
"""The longest name key stored (``users.name_key``)."""


class PeopleStore:
    """Accounts, sessions, chat and results (mixed into ``Store``)."""

    def _session(self) -> Session:  # pragma: no cover - provided by Store
        raise NotImplementedError

    # ------------------------------------------------------------ users

    def create_user(self, name: str, password_hash: str | None, *, guest: bool) -> User:
        """A new account (``guest`` false: the name must be free, else
        :class:`NameTakenError`) or guest."""
        key = None if guest else name_key(name)
        shape, lower = (None, None) if guest else skeletons(name)
        try:
            with self._session() as session, session.begin():
                if (
                    shape is not None
                    and lower is not None
                    and self._skeleton_taken(session, (shape, lower))
                ):
                    raise NameTakenError(f"the name {name!r} reads like an account's")
                row = UserRow(
                    name=name,
                    name_key=key,
                    name_skeleton=shape,
                    name_lower_skeleton=lower,
                    password_hash=password_hash,
                    guest=guest,
                    mu=DEFAULT_MU,
                    sigma=DEFAULT_SIGMA,
                    rated=0,
                    matches=0,
                    xp=0,
                )
                session.add(row)
                session.flush()
                return user_of(row)
        except IntegrityError:
            raise NameTakenError(f"the name {name!r} is taken") from None

    def user(self, user_id: int) -> User | None:
        """The user ``user_id``, or ``None``."""
        with self._session() as session:
            row = session.get(UserRow, user_id)
            return None if row is None else user_of(row)

    def user_by_name(self, name: str) -> User | None:
        """The account named ``name`` (casefolded), or ``None``."""
        with self._session() as session:
            row = session.scalars(select(UserRow).where(UserRow.name_key == name_key(name))).first()
            return None if row is None else user_of(row)

    @staticmethod
    def _looks_like(looks: tuple[str, str]) -> ColumnElement[bool]:
        """Rows whose name reads like one of skeletons ``looks``
        (:func:`~rebelote.server.people.names.skeletons`: as written, in
        lower case), each compared with its own column."""
        shape, lower = looks
        return or_(UserRow.name_skeleton == shape, UserRow.name_lower_skeleton == lower)

    @classmethod
    def _skeleton_taken(
        cls, session: Session, looks: tuple[str, str], but: int | None = None
    ) -> bool:
        query = select(UserRow.id).where(cls._looks_like(looks))
        if but is not None:
            query = query.where(UserRow.id != but)
        return session.scalars(query.limit(1)).first() is not None

    def account_like(self, name: str) -> User | None:
        """The account named ``name`` (casefolded), else the oldest one
        whose name reads like it (the same
        :func:`~rebelote.server.people.names.skeleton` or the same
        :func:`~rebelote.server.people.names.lower_skeleton`), or ``None``."""
        found = self.user_by_name(name)
        if found is not None:
            return found
        with self._session() as session:
            row = session.scalars(
                select(UserRow).where(self._looks_like(skeletons(name))).order_by(UserRow.id)
            ).first()
            return None if row is None else user_of(row)

    def accounts_named(self, name: str) -> list[User]:
        """The account named ``name``
        (:func:`~rebelote.server.people.names.name_key`), then any whose
        stored key is ``name``'s key under the rule before ``r0004``
        (casefolded only): an account that a look-alike older account kept
        from the new key (see that migration)."""
        first = name_key(name)
        keys = {first, " ".join(name.split()).casefold()}
        with self._session() as session:
            rows = session.scalars(select(UserRow).where(UserRow.name_key.in_(sorted(keys)))).all()
            ordered = sorted(rows, key=lambda r: (r.name_key != first, r.id))
            return [user_of(r) for r in ordered]

    def set_password(self, user_id: int, password_hash: str) -> None:
        """Replace a user's password hash."""
        with self._session() as session, session.begin():
            session.execute(
                update(UserRow).where(UserRow.id == user_id).values(password_hash=password_hash)
            )

    def leaderboard(self, limit: int = 100) -> list[User]:
        """Accounts with at least one rated match: established ratings
        first, then provisional ones (:func:`~rebelote.server.people.ratings.is_provisional`),
        each best displayed rating (``mu``) first, then oldest account."""
        provisional = case(
            (
                and_(UserRow.rated < PROVISIONAL_MATCHES, UserRow.sigma >= PROVISIONAL_SIGMA),
                1,
            ),
            else_=0,
        )
        with self._session() as session:
            rows = session.scalars(
                select(UserRow)
                .where(UserRow.rated > 0)
                .where(UserRow.guest == false())
                .order_by(provisional, UserRow.mu.desc(), UserRow.id)
                .limit(limit)
            ).all()
            return [user_of(r) for r in rows]

    # ------------------------------------------------------------ sessions

    def create_session(self, session_hash: str, user_id: int, csrf: str, lifetime: float) -> None:
        """A new session for ``user_id``, valid ``lifetime`` seconds."""
        with self._session() as session, session.begin():
            session.add(
                SessionRow(
                    id=session_hash, user_id=user_id, csrf=csrf, expires=time.time() + lifetime
                )
            )

    def session_user(self, session_hash: str) -> tuple[User, str] | None:
        """The user and CSRF token of a live session, or ``None`` (unknown
        or expired)."""
        with self._session() as session:
            row = session.get(SessionRow, session_hash)
            if row is None or row.expires < time.time():
                return None
            user = session.get(UserRow, row.user_id)
            return None if user is None else (user_of(user), row.csrf)

    def delete_session(self, session_hash: str) -> None:
        """Log out one session."""
        with self._session() as session, session.begin():
            session.execute(delete(SessionRow).where(SessionRow.id == session_hash))

    def delete_sessions_of(self, user_id: int, keep: str | None = None) -> None:
        """Log out every session of ``user_id`` but ``keep``."""
        with self._session() as session, session.begin():
            query = delete(SessionRow).where(SessionRow.user_id == user_id)
            if keep is not None:
                query = query.where(SessionRow.id != keep)
            session.execute(query)

    # ------------------------------------------------------------ chat

    def add_chat(self, table_id: str, seat: str, name: str, text: str, at: float) -> int:
        """Store a chat line; returns its id."""
        with self._session() as session, session.begin():
            row = ChatRow(table_id=table_id, seat=seat, name=name, text=text, at=at)
            session.add(row)
            session.flush()
            return row.id

    def chat(self, table_id: str, limit: int = 50) -> list[ChatLine]:
        """The last ``limit`` chat lines of a table, oldest first."""
        with self._session() as session:
            rows = session.scalars(
                select(ChatRow)
                .where(ChatRow.table_id == table_id)
                .order_by(ChatRow.id.desc())
                .limit(limit)
            ).all()
            return [ChatLine(r.id, r.seat, r.name, r.text, r.at) for r in reversed(rows)]

    # ------------------------------------------------------------ mutes

    def mutes(self, table_id: str) -> list[tuple[int, str]]:
        """``(user_id, seat)`` of each mute stored at a table."""
        with self._session() as session:
            rows = session.execute(
                select(MuteRow.user_id, MuteRow.seat)
                .where(MuteRow.table_id == table_id)
                .order_by(MuteRow.user_id, MuteRow.seat)
            ).all()
            return [(r[0], r[1]) for r in rows]

    def set_mute(self, table_id: str, user_id: int, seat: str, muted: bool) -> None:
        """``user_id`` mutes (or unmutes) ``seat`` at a table."""
        with self._session() as session, session.begin():
            if muted:
                session.merge(MuteRow(table_id=table_id, user_id=user_id, seat=seat))
            else:
                session.execute(
                    delete(MuteRow).where(
                        MuteRow.table_id == table_id,
                        MuteRow.user_id == user_id,
                        MuteRow.seat == seat,
                    )
                )

    def drop_mutes(self, table_id: str, user_id: int | None, seat: str) -> None:
        """``seat`` changed hands (its former player: ``user_id``): delete
        his mutes at the table and everyone's mutes of ``seat``."""
        with self._session() as session, session.begin():
            self._drop_mutes(session, table_id, user_id, seat)

    @staticmethod
    def _drop_mutes(session: Session, table_id: str, user_id: int | None, seat: str) -> None:
        which: ColumnElement[bool] = MuteRow.seat == seat
        if user_id is not None:
            which = which | (MuteRow.user_id == user_id)
        session.execute(delete(MuteRow).where(MuteRow.table_id == table_id, which))

    # ------------------------------------------------------------ results

    def has_results(self, table_id: str, match: int) -> bool:
        """Whether match ``match`` of the table has its results stored."""
        with self._session() as session:
            n = session.scalar(
                select(func.count())
                .select_from(ResultRow)
                .where(ResultRow.table_id == table_id, ResultRow.match == match)
            )
            return bool(n)

    def results_of_match(self, table_id: str, match: int) -> list[ResultLine]:
        """The stored results of one match of a table (a leaver's is stored
        when he leaves)."""
        with self._session() as session:
            rows = session.scalars(
                select(ResultRow).where(ResultRow.table_id == table_id, ResultRow.match == match)
            ).all()
            return [_result(r) for r in rows]

    def result_of(self, table_id: str, match: int, seat: str) -> ResultLine | None:
        """One seat's stored result, or ``None``."""
        with self._session() as session:
            row = session.get(ResultRow, (table_id, match, seat))
            return None if row is None else _result(row)

    def record_results(
        self,
        lines: Sequence[ResultLine],
        ratings: Sequence[tuple[int, float, float, bool]],
    ) -> bool:
        """Store result lines and apply, per user, ``(user_id, mu, sigma,
        rated)`` plus each line's experience, in one transaction.  Returns
        ``False`` (and changes nothing) when a line is already stored: results
        are recorded once."""
        try:
            with self._session() as session, session.begin():
                for line in lines:
                    session.add(ResultRow(**_fields(line)))
                session.flush()
                for user_id, mu, sigma, rated in ratings:
                    values: dict[str, Any] = {"mu": mu, "sigma": sigma}
                    if rated:
                        values["rated"] = UserRow.rated + 1
                    session.execute(update(UserRow).where(UserRow.id == user_id).values(**values))
                for line in lines:
                    if line.user_id is not None and not line.left:
                        session.execute(
                            update(UserRow)
                            .where(UserRow.id == line.user_id)
                            .values(xp=UserRow.xp + line.xp, matches=UserRow.matches + 1)
                        )
            return True
        except IntegrityError:
            return False

    def results_of_user(self, user_id: int, limit: int = 100) -> list[ResultLine]:
        """A user's results, newest first."""
        with self._session() as session:
            rows = session.scalars(
                select(ResultRow)
                .where(ResultRow.user_id == user_id)
                .order_by(ResultRow.at.desc())
                .limit(limit)
            ).all()
            return [_result(r) for r in rows]


def _fields(line: ResultLine) -> dict[str, Any]:
    return {name: getattr(line, name) for name in ResultLine.__slots__}


def _result(row: ResultRow) -> ResultLine:
    return ResultLine(**{name: getattr(row, name) for name in ResultLine.__slots__})
