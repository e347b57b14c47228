"""Challenges, trophies, coins and cosmetics (``docs/progression.md``).

Revision ID: r0013
Revises: r0012
Create Date: 2026-12-07

- ``feat_counts``: what each rated match counted per account and counter
  (its key makes a match count once);
- ``challenge_awards``, ``trophies``: what each account earned, once;
- ``coin_ledger``: every coin earned or spent (the balance is its sum;
  ``ref`` unique per account makes each award and purchase happen once);
- ``owned_items``, ``cosmetics``: the cosmetics bought and the one used
  per slot.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "r0013"
down_revision: str | None = "r0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _user() -> sa.Column[int]:
    return sa.Column(
        "user_id",
        sa.Integer(),
        sa.ForeignKey("users.id", ondelete="CASCADE"),
        primary_key=True,
        nullable=False,
    )


def upgrade() -> None:
    """Create the six tables."""
    op.create_table(
        "feat_counts",
        _user(),
        sa.Column("table_id", sa.String(32), primary_key=True, nullable=False),
        sa.Column("match", sa.Integer(), primary_key=True, nullable=False),
        sa.Column("counter", sa.String(24), primary_key=True, nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_feat_counts_user_at", "feat_counts", ["user_id", "at"])
    op.create_table(
        "challenge_awards",
        _user(),
        sa.Column("challenge_id", sa.String(40), primary_key=True, nullable=False),
        sa.Column("period", sa.String(10), primary_key=True, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("xp", sa.Integer(), nullable=False),
    )
    op.create_table(
        "trophies",
        _user(),
        sa.Column("trophy_id", sa.String(40), primary_key=True, nullable=False),
        sa.Column("earned_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("match", sa.Integer(), nullable=True),
        sa.Column("xp", sa.Integer(), nullable=False),
    )
    op.create_table(
        "coin_ledger",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("delta", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("ref", sa.String(120), nullable=False),
        sa.Column("item", sa.String(40), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("user_id", "ref", name="uq_coin_ledger_user_ref"),
    )
    op.create_index("ix_coin_ledger_user_id", "coin_ledger", ["user_id"])
    op.create_table(
        "owned_items",
        _user(),
        sa.Column("item", sa.String(40), primary_key=True, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "cosmetics",
        _user(),
        sa.Column("slot", sa.String(8), primary_key=True, nullable=False),
        sa.Column("item", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    """Drop them again."""
    op.drop_table("cosmetics")
    op.drop_table("owned_items")
    op.drop_index("ix_coin_ledger_user_id", table_name="coin_ledger")
    op.drop_table("coin_ledger")
    op.drop_table("trophies")
    op.drop_table("challenge_awards")
    op.drop_index("ix_feat_counts_user_at", table_name="feat_counts")
    op.drop_table("feat_counts")
