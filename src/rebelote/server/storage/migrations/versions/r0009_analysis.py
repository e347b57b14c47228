"""The analyses of finished games: ``analyses``.

Revision ID: r0009
Revises: r0008
Create Date: 2027-01-10

One row per analysed match of a table (``table_id``, ``match``): the
``version`` of the analysis, when it was ``created`` and its ``data``
(JSON), so that a second opening of a game's analysis reads it back
(:mod:`rebelote.server.storage.analyses`).  Deleted with its table.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "r0009"
down_revision: str | None = "r0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``analyses``."""
    op.create_table(
        "analyses",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("match", sa.Integer(), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    """Drop ``analyses``."""
    op.drop_table("analyses")
