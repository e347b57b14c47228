"""Storage of bot tokens (the bot API, ``docs/bot-api.md``): one table,
``bot_tokens`` (migration ``r0010``):

- ``id``, ``user_id`` (the account the token plays for), ``token_hash``
  (SHA-256 of the token, unique: the token itself is never stored),
  ``name`` (the account owner's label for it), ``created``.

:class:`BotTokenStore` is mixed into :class:`~rebelote.server.storage.tables.Store`;
every method is synchronous (called in a worker thread).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, delete, func, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from rebelote.server.storage.orm import Base
from rebelote.server.storage.orm import now as _now
from rebelote.server.storage.people import User, UserRow, user_of

__all__ = ["BotToken", "BotTokenRow", "BotTokenStore"]


class BotTokenRow(Base):
    """A bot token of an account (its SHA-256)."""

    __tablename__ = "bot_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(40))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


@dataclass(frozen=True, slots=True)
class BotToken:
    """A bot token as its account sees it: ``id``, ``name`` and when it was
    ``created`` (Unix seconds); never the token."""

    id: int
    name: str
    created: float


def _token(row: BotTokenRow) -> BotToken:
    return BotToken(row.id, row.name, row.created.timestamp())


class BotTokenStore:
    """The accounts' bot tokens (mixed into ``Store``)."""

    def _session(self) -> Session:  # pragma: no cover - provided by Store
        raise NotImplementedError

    def create_bot_token(
        self, user_id: int, name: str, token_hash: str, *, limit: int
    ) -> BotToken | None:
        """Store a new bot token of ``user_id`` (its hash); ``None`` when
        the account already has ``limit`` tokens."""
        with self._session() as session, session.begin():
            count = session.scalar(
                select(func.count()).select_from(BotTokenRow).where(BotTokenRow.user_id == user_id)
            )
            if (count or 0) >= limit:
                return None
            row = BotTokenRow(user_id=user_id, token_hash=token_hash, name=name)
            session.add(row)
            session.flush()
            return _token(row)

    def bot_tokens_of(self, user_id: int) -> list[BotToken]:
        """The bot tokens of ``user_id``, oldest first."""
        with self._session() as session:
            rows = session.scalars(
                select(BotTokenRow).where(BotTokenRow.user_id == user_id).order_by(BotTokenRow.id)
            ).all()
            return [_token(r) for r in rows]

    def delete_bot_token(self, user_id: int, token_id: int) -> bool:
        """Revoke token ``token_id`` of ``user_id``: whether there was one."""
        with self._session() as session, session.begin():
            result = session.execute(
                delete(BotTokenRow).where(
                    BotTokenRow.id == token_id, BotTokenRow.user_id == user_id
                )
            )
            return bool(getattr(result, "rowcount", 0))

    def bot_token_user(self, token_hash: str) -> User | None:
        """The account whose bot token has the hash ``token_hash``, or ``None``."""
        with self._session() as session:
            row = session.execute(
                select(UserRow)
                .join(BotTokenRow, BotTokenRow.user_id == UserRow.id)
                .where(BotTokenRow.token_hash == token_hash)
            ).scalar_one_or_none()
            return None if row is None else user_of(row)
