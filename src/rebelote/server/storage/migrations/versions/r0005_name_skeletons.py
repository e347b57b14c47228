"""Account names' look-alike keys.

Revision ID: r0005
Revises: r0004
Create Date: 2026-12-10

``users.name_skeleton``: :func:`rebelote.server.people.names.skeleton` of an
account's name (null for a guest), unique, so that no account can be
opened under a name that reads like another's (``"\u0410lice"`` with a
Cyrillic A, U+0410, beside ``"Alice"``).  Existing accounts are filled in id
order; one whose skeleton an older account already has keeps none (it
stays as it is; only new names are refused).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "r0005"
down_revision: str | None = "r0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SKELETON_LENGTH = 40


def upgrade() -> None:
    """Add ``users.name_skeleton`` (unique) and fill it for accounts."""
    from rebelote.server.people.names import skeleton

    op.add_column("users", sa.Column("name_skeleton", sa.String(SKELETON_LENGTH), nullable=True))
    users = sa.table(
        "users",
        sa.column("id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("guest", sa.Boolean()),
        sa.column("name_skeleton", sa.String()),
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(users.c.id, users.c.name).where(users.c.guest == sa.false()).order_by(users.c.id)
    ).all()
    taken: set[str] = set()
    for r in rows:
        key = skeleton(r.name)
        if key in taken or len(key) > SKELETON_LENGTH:
            continue
        taken.add(key)
        connection.execute(users.update().where(users.c.id == r.id).values(name_skeleton=key))
    op.create_index("ix_users_name_skeleton", "users", ["name_skeleton"], unique=True)


def downgrade() -> None:
    """Drop the column."""
    op.drop_index("ix_users_name_skeleton", table_name="users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("name_skeleton")
