"""Per-match summaries for the profiles: ``match_summaries``.

Revision ID: r0011
Revises: r0010
Create Date: 2026-12-07

One row per seat of a finished match (``table_id``, ``match``, ``seat``):
the ``version`` of the summary, the facts of the seat's deals (``deals``,
``taken``, ``made``, ``taker_points``, ``defended``, ``defender_points``,
``capots``), the match's final score for the seat's side and the best
other side (``score_us``, ``score_them``), the rules' ``preset``, the
``players`` by seat (JSON) and when it was ``created``
(:mod:`rebelote.server.storage.summaries`).  Deleted with its table.

Nothing is filled in here: a summary comes from replaying the match's
event log with the rules core, which a migration does not run; the
matches finished before this revision are summarized the first time a
profile needs them, and kept (:mod:`rebelote.server.people.profiles`).
The rating history needs no table of its own: ``results`` keeps the
rating after every rated match (``mu_after``, ``at``), written in the
transaction that changes the rating, since ``r0003``.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "r0011"
down_revision: str | None = "r0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``match_summaries``."""
    op.create_table(
        "match_summaries",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("match", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.String(1), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("taken", sa.Integer(), nullable=False),
        sa.Column("made", sa.Integer(), nullable=False),
        sa.Column("taker_points", sa.Integer(), nullable=False),
        sa.Column("defended", sa.Integer(), nullable=False),
        sa.Column("defender_points", sa.Integer(), nullable=False),
        sa.Column("capots", sa.Integer(), nullable=False),
        sa.Column("score_us", sa.Integer(), nullable=False),
        sa.Column("score_them", sa.Integer(), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop ``match_summaries``."""
    op.drop_table("match_summaries")
