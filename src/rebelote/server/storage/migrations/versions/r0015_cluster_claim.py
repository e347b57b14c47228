"""The claim of the cluster that drives the database's live tables.

Revision ID: r0015
Revises: r0014
Create Date: 2026-12-07

- ``cluster_claim``: ``id`` (always 1), ``redis``, ``prefix``,
  ``seen_at``, ``version`` (:mod:`rebelote.server.storage.claims`,
  ``docs/scale-out.md``).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "r0015"
down_revision: str | None = "r0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the claim's table (empty: the first process to start claims)."""
    op.create_table(
        "cluster_claim",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("redis", sa.String(300), nullable=False),
        sa.Column("prefix", sa.String(100), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    """Drop it again."""
    op.drop_table("cluster_claim")
