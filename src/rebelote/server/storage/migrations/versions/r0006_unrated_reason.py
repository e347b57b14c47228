"""Why a match changed no rating: ``results.unrated_reason``.

Revision ID: r0006
Revises: r0005
Create Date: 2026-12-08

``results.unrated_reason`` (``friendly``, ``left``, ``standins`` or null
for a rated match).  The rows stored before it are filled in as well as
they can be: ``left`` for every unrated line of a match that someone left
(his line says ``left``), ``friendly`` for the other unrated lines (the
server did not count stand-ins' cards then).  A leaver's line of a ranked
match stays rated as it was (the leaver was rated a loss then).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "r0006"
down_revision: str | None = "r0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add ``results.unrated_reason`` and fill it in for the rows stored."""
    op.add_column("results", sa.Column("unrated_reason", sa.String(16), nullable=True))
    results = sa.table(
        "results",
        sa.column("table_id", sa.String()),
        sa.column("match", sa.Integer()),
        sa.column("left", sa.Boolean()),
        sa.column("ranked", sa.Boolean()),
        sa.column("unrated_reason", sa.String()),
    )
    other = results.alias("other")
    someone_left = sa.exists().where(
        other.c.table_id == results.c.table_id,
        other.c.match == results.c.match,
        other.c.left == sa.true(),
    )
    op.execute(
        results.update()
        .where(results.c.ranked == sa.false(), someone_left)
        .values(unrated_reason="left")
    )
    op.execute(
        results.update()
        .where(results.c.ranked == sa.false(), results.c.unrated_reason.is_(None))
        .values(unrated_reason="friendly")
    )


def downgrade() -> None:
    """Drop the column again."""
    with op.batch_alter_table("results") as batch:
        batch.drop_column("unrated_reason")
