"""Account names' look-alike keys, as written and in lower case.

Revision ID: r0008
Revises: r0007
Create Date: 2026-12-16

:func:`rebelote.server.people.names.skeleton` now reads a name as it is
written, capitals by their shape, and casefolds only then (``"AIice"``, a
capital I, reads as ``"Alice"``; ``"\u041dugo"``, a Cyrillic capital En, as
``"Hugo"``; ``"0livia"`` as ``"Olivia"``; ``"B\ua74fker"`` as ``"Booker"``),
and :func:`~rebelote.server.people.names.lower_skeleton` keeps the reading
of the name in lower case (casefolded first: ``"\u0406van"``, a Cyrillic
capital I, reads as ``"ivan"``).  ``users.name_lower_skeleton`` (unique) is
added, and both keys are computed again for every account, in id order.

Two accounts opened before this rule may now read alike (``"Alice"`` and
``"AIice"``): both are kept as they are (names, passwords, ratings, logins
by name unchanged); the later one keeps no key in the column where the
older one has the same (null: the older account's key already refuses
every new look-alike of both), and a warning names the two.  A key that an
older account holds in one column does not take the later account's other
key away.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "r0008"
down_revision: str | None = "r0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SKELETON_LENGTH = 40

log = logging.getLogger(__name__)


def upgrade() -> None:
    """Add ``users.name_lower_skeleton`` (unique) and fill both skeletons
    again for every account."""
    from rebelote.server.people.names import skeletons

    op.add_column(
        "users", sa.Column("name_lower_skeleton", sa.String(SKELETON_LENGTH), nullable=True)
    )
    users = sa.table(
        "users",
        sa.column("id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("guest", sa.Boolean()),
        sa.column("name_skeleton", sa.String()),
        sa.column("name_lower_skeleton", sa.String()),
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(users.c.id, users.c.name).where(users.c.guest == sa.false()).order_by(users.c.id)
    ).all()
    # all emptied first: a new key may be the old one of a later account
    connection.execute(users.update().values(name_skeleton=None))
    holders: tuple[dict[str, tuple[int, str]], dict[str, tuple[int, str]]] = ({}, {})
    for r in rows:
        kept: list[str | None] = []
        for key, holder in zip(skeletons(r.name), holders, strict=True):
            older = holder.get(key)
            if older is not None:
                log.warning(
                    "r0008: account %d %r reads like the older account %d %r: "
                    "both kept, the later without that key",
                    r.id,
                    r.name,
                    *older,
                )
                kept.append(None)
                continue
            holder[key] = (r.id, r.name)
            kept.append(key)
        connection.execute(
            users.update()
            .where(users.c.id == r.id)
            .values(name_skeleton=kept[0], name_lower_skeleton=kept[1])
        )
    op.create_index("ix_users_name_lower_skeleton", "users", ["name_lower_skeleton"], unique=True)


def downgrade() -> None:
    """Drop ``users.name_lower_skeleton`` (``users.name_skeleton`` stays as
    computed)."""
    op.drop_index("ix_users_name_lower_skeleton", table_name="users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("name_lower_skeleton")
