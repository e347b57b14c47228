"""Bot tokens, and the seats their bots hold.

Revision ID: r0010
Revises: r0009
Create Date: 2027-01-10

- ``bot_tokens``: ``id``, ``user_id`` (the account, deleted with it),
  ``token_hash`` (SHA-256 of the token, unique), ``name``, ``created``
  (``docs/bot-api.md``);
- ``seats.outside_bot``: the seat was taken with a bot token (an outside
  program plays it); false for every seat stored before.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "r0010"
down_revision: str | None = "r0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the ``bot_tokens`` table and ``seats.outside_bot``."""
    op.create_table(
        "bot_tokens",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_bot_tokens_user_id", "bot_tokens", ["user_id"])
    op.add_column(
        "seats", sa.Column("outside_bot", sa.Boolean(), nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("outside_bot")
    op.drop_index("ix_bot_tokens_user_id", table_name="bot_tokens")
    op.drop_table("bot_tokens")
