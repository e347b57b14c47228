"""Network play: lobby columns on tables and seats; users, sessions, chat,
results.

Revision ID: r0002
Revises: r0001
Create Date: 2026-11-30

Columns are added with plain ``ADD COLUMN`` (and a server default), never by
rebuilding a table: on SQLite a rebuild of ``tables`` would cascade-delete its
seats and events.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "r0002"
down_revision: str | None = "r0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the lobby columns and the people tables."""
    op.add_column("tables", sa.Column("name", sa.String(60), nullable=False, server_default=""))
    op.add_column(
        "tables", sa.Column("visibility", sa.String(8), nullable=False, server_default="solo")
    )
    op.add_column(
        "tables", sa.Column("ranked", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column("tables", sa.Column("host", sa.String(1), nullable=True))
    op.add_column("tables", sa.Column("invite", sa.String(32), nullable=True))
    op.add_column("seats", sa.Column("user_id", sa.Integer(), nullable=True))
    op.add_column(
        "seats", sa.Column("left", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_index("ix_seats_user_id", "seats", ["user_id"])
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("guest", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rated", sa.Integer(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("xp", sa.Integer(), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
    )
    op.create_index("ix_sessions_user_id", "sessions", ["user_id"])
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.String(1), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_chat_table_id", "chat", ["table_id"])
    op.create_table(
        "results",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("match", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.String(1), primary_key=True),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("side", sa.String(2), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("left", sa.Boolean(), nullable=False),
        sa.Column("ranked", sa.Boolean(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=True),
        sa.Column("mu_after", sa.Float(), nullable=True),
        sa.Column("sigma_after", sa.Float(), nullable=True),
        sa.Column("xp", sa.Integer(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_results_user_id", "results", ["user_id"])


def downgrade() -> None:
    """Drop the people tables and the lobby columns."""
    op.drop_index("ix_results_user_id", "results")
    op.drop_table("results")
    op.drop_index("ix_chat_table_id", "chat")
    op.drop_table("chat")
    op.drop_index("ix_sessions_user_id", "sessions")
    op.drop_table("sessions")
    op.drop_table("users")
    op.drop_index("ix_seats_user_id", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("left")
        batch.drop_column("user_id")
    for column in ("invite", "host", "ranked", "visibility", "name"):
        op.drop_column("tables", column)
