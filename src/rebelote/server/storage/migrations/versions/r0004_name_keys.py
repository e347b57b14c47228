"""Account names compared by their NFKC casefolded key.

Revision ID: r0004
Revises: r0003
Create Date: 2026-12-01

``users.name`` is rewritten in Unicode NFC (every user) and
``users.name_key`` (accounts) recomputed as
:func:`rebelote.server.people.names.name_key` computes it now: NFKC, casefolded,
NFKC again, spaces collapsed (it was only casefolded), so that look-alike
names (full-width or mathematical letters, combining accents) compare
equal.  Accounts are taken in id order; one whose new key is another
account's key (as stored, or as given to an account before it in that
order), or would be longer than the column, keeps its old key
(still unique; ``accounts_named`` finds it by its name at log in, after the
older account).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "r0004"
down_revision: str | None = "r0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KEY_LENGTH = 40


def _key(name: str) -> str:
    """The name key as of this revision (frozen here: the code may change)."""
    text = unicodedata.normalize("NFKC", name)
    text = unicodedata.normalize("NFKC", text.casefold())
    return " ".join(text.split())


def upgrade() -> None:
    """Rewrite the names in NFC and the accounts' keys."""
    users = sa.table(
        "users",
        sa.column("id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("name_key", sa.String()),
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(users.c.id, users.c.name, users.c.name_key).order_by(users.c.id)
    ).all()
    old_keys = {r.name_key for r in rows if r.name_key is not None}
    taken: set[str] = set()
    changes: dict[int, tuple[str, str | None]] = {}
    for r in rows:
        name = unicodedata.normalize("NFC", r.name)
        key = r.name_key
        if key is not None:
            new = _key(name)
            if new != key and (new in taken or new in old_keys or len(new) > KEY_LENGTH):
                new = key  # a clash (or too long): the old key stays
            key = new
            taken.add(key)
        if (name, key) != (r.name, r.name_key):
            changes[r.id] = (name, key)
    # two passes: no key is set while another row still holds it
    for user_id, (_, key) in changes.items():
        if key is not None:
            connection.execute(
                users.update().where(users.c.id == user_id).values(name_key=f"#r0004 {user_id}")
            )
    for user_id, (name, key) in changes.items():
        connection.execute(
            users.update().where(users.c.id == user_id).values(name=name, name_key=key)
        )


def downgrade() -> None:
    """Nothing to undo: the NFC names and the new keys are unique and valid
    under ``r0003`` too."""
