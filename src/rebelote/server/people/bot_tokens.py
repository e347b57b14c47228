"""Bot tokens: an account's key for an outside program that plays its seats
(the bot API, ``docs/bot-api.md``; the lichess Bot API is the model).

A bot token is :data:`BOT_TOKEN_PREFIX` and 43 random URL-safe characters
(32 bytes); the database keeps its SHA-256 alone
(:class:`~rebelote.server.storage.bot_tokens.BotTokenStore`), so it is
shown once, when it is made.  A program sends it as ``Authorization: Bearer
<token>`` to the lobby's endpoints (to open, join and start tables) and to
a table's WebSocket (or as the ``token`` of its ``hello``): the seats its
account takes that way are marked ``outside_bot``.
"""

from __future__ import annotations

import hashlib
import secrets

__all__ = [
    "BOT_TOKEN_PREFIX",
    "MAX_BOT_TOKENS",
    "bearer_token",
    "bot_token_hash",
    "is_bot_token",
    "new_bot_token",
]

BOT_TOKEN_PREFIX = "rbb_"
"""The first characters of every bot token (a seat's token never has them)."""

MAX_BOT_TOKENS = 10
"""The most bot tokens one account may hold at once."""


def new_bot_token() -> tuple[str, str]:
    """A new bot token and its hash (what the database keeps)."""
    token = BOT_TOKEN_PREFIX + secrets.token_urlsafe(32)
    return token, bot_token_hash(token)


def bot_token_hash(token: str) -> str:
    """The SHA-256 hex digest of a bot token."""
    return hashlib.sha256(token.encode()).hexdigest()


def is_bot_token(text: str) -> bool:
    """Whether ``text`` has the shape of a bot token (its prefix, at most
    128 characters): a seat token never has."""
    return text.startswith(BOT_TOKEN_PREFIX) and len(text) <= 128


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (the
    scheme's case does not matter), or ``None``."""
    if not header:
        return None
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()
