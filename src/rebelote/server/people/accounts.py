"""Accounts, guests and browser sessions.

- Passwords are hashed with argon2id (``argon2-cffi``'s defaults), verified
  in constant time, and rehashed when the parameters change.
- A session is a random cookie (``rebelote_session``: HttpOnly,
  SameSite=Lax) whose SHA-256 the database keeps, with a CSRF token.  The
  CSRF token is also given in a cookie the page can read
  (``rebelote_csrf``) and in the answers of ``/api/auth/*`` and
  ``GET /api/me``; every request that changes something on the strength of
  the session cookie must send it back in the ``X-CSRF-Token`` header
  (a page on another site can make the browser send the cookie, but cannot
  read the token).
- A guest is a user row without a password (``guest`` true): a name to sit
  with at unranked tables; it is never on the leaderboard.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import unicodedata

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from rebelote.server.people.names import hidden_characters, loose_marks, name_key
from rebelote.server.storage.people import NAME_KEY_LENGTH, PeopleStore, User

__all__ = [
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "NAME_PATTERN",
    "SESSION_COOKIE",
    "SESSION_LIFETIME",
    "Session",
    "check_csrf",
    "clean_name",
    "hash_password",
    "new_session",
    "session_hash",
    "verify_password",
]

SESSION_COOKIE = "rebelote_session"
"""The session cookie (HttpOnly)."""

CSRF_COOKIE = "rebelote_csrf"
"""The cookie holding the session's CSRF token (readable by the page)."""

CSRF_HEADER = "X-CSRF-Token"
"""The header a state-changing request sends the CSRF token in."""

SESSION_LIFETIME = 30 * 24 * 3600.0
"""Seconds a session lasts."""

NAME_PATTERN = r"^[\w][\w .'-]{0,38}[\w.]$|^[\w]$"
"""Player names: 1 to 40 letters, digits, spaces and ``.'-_``, starting
with a letter or digit."""

_NAME = re.compile(NAME_PATTERN)
_HASHER = PasswordHasher()


def clean_name(name: str) -> str:
    """``name`` in Unicode NFC (an accent typed as a combining mark joins
    its letter: ``"Zoe\u0301"`` is ``"Zo\u00e9"``) with its spaces
    collapsed; ``ValueError`` if it holds a character that cannot be seen
    or that changes the direction of text
    (:func:`~rebelote.server.people.names.hidden_characters`: NUL, right-to-left
    override, zero-width space, Hangul filler...), a combining mark that
    does not join its letter into one precomposed letter
    (:func:`~rebelote.server.people.names.loose_marks`: ``"Ali\u0323\u0301ce"``),
    if it is not a valid player name
    (:data:`NAME_PATTERN`), or if its comparison key
    (:func:`~rebelote.server.people.names.name_key`) is longer than
    :data:`~rebelote.server.storage.people.NAME_KEY_LENGTH` characters."""
    text = " ".join(unicodedata.normalize("NFC", name).split())
    hidden = hidden_characters(text)
    if hidden:
        raise ValueError(
            "a name may not hold invisible, control or direction characters "
            f"({', '.join(hidden[:3])})"
        )
    loose = loose_marks(text)
    if loose:
        raise ValueError(
            "a name may not hold an accent or mark that does not join its letter "
            f"({', '.join(loose[:3])})"
        )
    if not _NAME.match(text):
        raise ValueError(
            "a name is 1 to 40 letters, digits, spaces or . ' - _, starting with a letter or digit"
        )
    if len(name_key(text)) > NAME_KEY_LENGTH:
        raise ValueError("that name is too long once its characters are spelt out")
    return text


def hash_password(password: str) -> str:
    """The argon2id hash of ``password``."""
    return _HASHER.hash(password)


def verify_password(stored: str | None, password: str) -> tuple[bool, str | None]:
    """Whether ``password`` matches the ``stored`` hash, and a new hash when
    the stored one should be upgraded (else ``None``)."""
    if not stored:
        return False, None
    try:
        _HASHER.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False, None
    return True, _HASHER.hash(password) if _HASHER.check_needs_rehash(stored) else None


def session_hash(cookie: str) -> str:
    """What the database keeps of a session cookie."""
    return hashlib.sha256(cookie.encode()).hexdigest()


class Session:
    """A logged-in browser: the ``user``, the session ``cookie`` (only when
    just created) and the ``csrf`` token; or, with ``bot`` true, an outside
    program that sent the account's bot token (no cookie, no CSRF token:
    :mod:`rebelote.server.people.bot_tokens`)."""

    def __init__(
        self, user: User, csrf: str, cookie: str | None = None, *, bot: bool = False
    ) -> None:
        self.user = user
        self.csrf = csrf
        self.cookie = cookie
        self.bot = bot


def new_session(store: PeopleStore, user: User) -> Session:
    """Open a session for ``user`` (synchronous: call it in a thread)."""
    cookie = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(24)
    store.create_session(session_hash(cookie), user.id, csrf, SESSION_LIFETIME)
    return Session(user, csrf, cookie)


def check_csrf(session: Session, header: str | None) -> bool:
    """Whether ``header`` carries the session's CSRF token."""
    return bool(header) and hmac.compare_digest(session.csrf, header or "")
