"""The daily deal: its days, plays and results.

Revision ID: r0014
Revises: r0013
Create Date: 2026-12-07

- ``daily_days``: ``day``, ``seed``, ``pars``;
- ``daily_plays``: ``day``, ``user_id``, ``table_id``, ``name``, ``done``,
  ``started``;
- ``daily_results``: ``day``, ``deal``, ``user_id``, ``name``,
  ``contract``, ``taker``, ``score`` (:mod:`rebelote.server.storage.daily`,
  ``docs/daily.md``).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "r0014"
down_revision: str | None = "r0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the three tables of the daily deal."""
    op.create_table(
        "daily_days",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("pars", sa.JSON(), nullable=True),
    )
    op.create_table(
        "daily_plays",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("started", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "daily_results",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("deal", sa.Integer(), primary_key=True),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("contract", sa.String(40), nullable=True),
        sa.Column("taker", sa.String(1), nullable=True),
        sa.Column("score", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    """Drop them again."""
    op.drop_table("daily_results")
    op.drop_table("daily_plays")
    op.drop_table("daily_days")
