"""Account names' look-alike keys, computed again.

Revision ID: r0007
Revises: r0006
Create Date: 2026-12-14

:func:`rebelote.server.people.names.skeleton` now leaves out the small marks
under a letter (``"Al\u1ecbce"`` reads as ``"Alice"``) and folds the letter
pairs that read as one (``rn`` as ``m``, ``vv`` as ``w``): every account's
``users.name_skeleton`` is computed again, in id order; one whose
skeleton an older account already has keeps none (it stays as it is;
only new names are refused), as in ``r0005``.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "r0007"
down_revision: str | None = "r0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SKELETON_LENGTH = 40


def upgrade() -> None:
    """Fill ``users.name_skeleton`` again for every account."""
    from rebelote.server.people.names import skeleton

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
    # all emptied first: a new skeleton may be an old one of a later account
    connection.execute(users.update().values(name_skeleton=None))
    taken: set[str] = set()
    for r in rows:
        key = skeleton(r.name)
        if key in taken or len(key) > SKELETON_LENGTH:
            continue
        taken.add(key)
        connection.execute(users.update().where(users.c.id == r.id).values(name_skeleton=key))


def downgrade() -> None:
    """Nothing to undo: the skeletons stay as computed."""
