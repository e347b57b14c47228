"""Guests marked on seats, chat mutes stored, the rating's uncertainty
before a match.

Revision ID: r0003
Revises: r0002
Create Date: 2026-11-30

- ``seats.guest``: the seat's player is a guest (filled in for the seats
  already taken by a guest);
- ``mutes``: one row per table, muting player (``user_id``) and muted seat
  (``seat``): a player's mutes outlive a restart of the server;
- ``results.sigma_before``: with ``mu_before``, the displayed rating before
  the match (``mu - 3 sigma``); null for the results stored before it.

Columns are added with plain ``ADD COLUMN`` (see ``r0002``).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "r0003"
down_revision: str | None = "r0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add ``seats.guest``, ``results.sigma_before`` and the ``mutes`` table."""
    op.add_column(
        "seats", sa.Column("guest", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    seats = sa.table("seats", sa.column("user_id", sa.Integer()), sa.column("guest", sa.Boolean()))
    users = sa.table("users", sa.column("id", sa.Integer()), sa.column("guest", sa.Boolean()))
    op.execute(
        seats.update()
        .where(seats.c.user_id.in_(sa.select(users.c.id).where(users.c.guest == sa.true())))
        .values(guest=sa.true())
    )
    op.add_column("results", sa.Column("sigma_before", sa.Float(), nullable=True))
    op.create_table(
        "mutes",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("user_id", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.String(1), primary_key=True),
    )


def downgrade() -> None:
    """Drop them again."""
    op.drop_table("mutes")
    with op.batch_alter_table("results") as batch:
        batch.drop_column("sigma_before")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("guest")
