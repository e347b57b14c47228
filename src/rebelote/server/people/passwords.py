"""Passwords: which ones are refused, and argon2 work within bounds.

:func:`password_problem` says why a new password is too weak: shorter
than :data:`MIN_PASSWORD`, one of the 10,000 most common passwords
(``data/common-passwords.txt``, compared casefolded), the player's name
(or containing it, or a part of it of 4 characters or more), one
character or a short unit repeated (``aaaaaaaa``, ``abababab``), or a
run along the alphabet, the digits or a keyboard row (``12345678``,
``azertyui``, ``hgfedcba``).

:class:`PasswordWork` runs argon2id (64 MiB and tens of milliseconds
each) in worker threads, at most ``workers`` at once (the cores), with at
most ``queue`` more waiting (past that: :class:`Busy`); a login with an
unknown name verifies a dummy hash, so that it takes as long as one with
a known name.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
from collections.abc import Callable
from importlib.resources import files
from typing import TypeVar

from rebelote.server.people.accounts import hash_password, verify_password
from rebelote.server.people.names import name_key

__all__ = [
    "MIN_PASSWORD",
    "Busy",
    "PasswordWork",
    "common_passwords",
    "password_problem",
]

_T = TypeVar("_T")

MIN_PASSWORD = 8
"""The shortest password accepted at sign-up and change."""

_LINES = (
    "abcdefghijklmnopqrstuvwxyz",
    "0123456789",
    "qwertyuiop",
    "asdfghjkl",
    "zxcvbnm",
    "azertyuiop",
    "qsdfghjklm",
    "wxcvbn",
    "qwertzuiop",
    "yxcvbnm",
    "1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p",
    "1azerty2",
)

_REPEAT_UNIT = 4
"""A password made of a unit this long or shorter, repeated, is refused."""


@functools.cache
def common_passwords() -> frozenset[str]:
    """The common passwords (casefolded), read once from the package."""
    text = files("rebelote.server.people").joinpath("data/common-passwords.txt").read_text("utf-8")
    return frozenset(
        line.strip().casefold()
        for line in text.splitlines()
        if line.strip() and not line.startswith("#")
    )


def _runs(text: str) -> bool:
    """Whether ``text`` follows one of the lines (wrapping around),
    forwards or backwards."""
    for line in _LINES:
        around = line * (len(text) // len(line) + 2)
        if text in around or text[::-1] in around:
            return True
    return False


def _repeated(text: str) -> bool:
    for size in range(1, _REPEAT_UNIT + 1):
        if len(text) > size and text == (text[:size] * (len(text) // size + 1))[: len(text)]:
            return True
    return False


def password_problem(password: str, name: str) -> tuple[str, str] | None:
    """Why ``password`` may not be ``name``'s: ``(reason, message)`` with
    ``reason`` one of ``short``, ``common``, ``name``, ``repeated``,
    ``sequence``; ``None`` when it is accepted."""
    if len(password) < MIN_PASSWORD:
        return "short", f"a password has at least {MIN_PASSWORD} characters"
    folded = password.casefold()
    if folded in common_passwords():
        return "common", "that password is one of the most common ones: choose another"
    key = name_key(name)
    squeezed = folded.replace(" ", "")
    parts = {key, key.replace(" ", "")} | {p for p in key.split() if len(p) >= 4}
    if any(p and (p in folded or p in squeezed) for p in parts) or (
        squeezed and squeezed in key.replace(" ", "")
    ):
        return "name", "a password may not be, nor contain, your name"
    if _repeated(folded):
        return "repeated", "a password may not repeat one character or a short group"
    if _runs(folded):
        return "sequence", "a password may not be a run like 12345678 or azertyui"
    return None


class Busy(Exception):
    """Too many passwords waiting to be checked: try again in a moment."""


class PasswordWork:
    """argon2 within bounds (see the module docstring).  Create it inside
    the running event loop."""

    def __init__(self, workers: int, queue: int) -> None:
        self.workers = max(1, workers)
        self.queue = max(0, queue)
        self._slots = asyncio.Semaphore(self.workers)
        self._waiting = 0
        self._dummy: str | None = None

    async def _run(self, work: Callable[[], _T]) -> _T:
        if self._waiting >= self.workers + self.queue:
            raise Busy("the server is busy checking passwords: try again in a moment")
        self._waiting += 1
        try:
            async with self._slots:
                return await asyncio.to_thread(work)
        finally:
            self._waiting -= 1

    async def hash(self, password: str) -> str:
        """The argon2id hash of ``password``.  Raises :class:`Busy`."""
        return await self._run(functools.partial(hash_password, password))

    async def verify(self, stored: str | None, password: str) -> tuple[bool, str | None]:
        """:func:`~rebelote.server.people.accounts.verify_password` in a worker.
        Raises :class:`Busy`."""
        return await self._run(functools.partial(verify_password, stored, password))

    async def verify_nobody(self, password: str) -> None:
        """As long as :meth:`verify` of a wrong password, for a name with no
        account (the dummy hash is made once, with the current
        parameters)."""
        if self._dummy is None:
            self._dummy = await self.hash(secrets.token_urlsafe(16))
        await self.verify(self._dummy, password)
