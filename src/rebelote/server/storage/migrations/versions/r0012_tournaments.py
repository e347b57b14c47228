"""Tournaments: ``tournaments``, ``tournament_entrants``, ``tournament_tables``
(:mod:`rebelote.server.storage.tournaments`, ``docs/tournaments.md``).

Revision ID: r0012
Revises: r0011
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "r0012"
down_revision: str | None = "r0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the three tables."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("target", sa.Integer(), nullable=True),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("minutes", sa.Integer(), nullable=True),
        sa.Column("starts_at", sa.Float(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("entrants", sa.Integer(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("ended", sa.Float(), nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_entrants",
        sa.Column(
            "tournament_id",
            sa.Integer(),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("user_id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("joined", sa.Float(), nullable=False),
    )
    op.create_index("ix_tournament_entrants_user_id", "tournament_entrants", ["user_id"])
    op.create_table(
        "tournament_tables",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id",
            sa.Integer(),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seats", sa.Text(), nullable=False),
        sa.Column("bye", sa.Boolean(), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("made", sa.Float(), nullable=False),
        sa.Column("done", sa.Boolean(), nullable=False),
        sa.Column("done_at", sa.Float(), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("left", sa.Text(), nullable=False),
    )
    op.create_index("ix_tournament_tables_tournament_id", "tournament_tables", ["tournament_id"])
    op.create_index("ix_tournament_tables_table_id", "tournament_tables", ["table_id"])


def downgrade() -> None:
    """Drop them again."""
    op.drop_index("ix_tournament_tables_table_id", table_name="tournament_tables")
    op.drop_index("ix_tournament_tables_tournament_id", table_name="tournament_tables")
    op.drop_table("tournament_tables")
    op.drop_index("ix_tournament_entrants_user_id", table_name="tournament_entrants")
    op.drop_table("tournament_entrants")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
