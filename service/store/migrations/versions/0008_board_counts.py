"""The leaderboards' band counts: how many players of each game's board have a rating in each band of a quarter
point, kept with every rating change, so that a player's rank is a sum of bands and one count inside a band instead
of a count of the board (the server counts them afresh from the ratings when it starts).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "board_counts",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("band", sa.Integer, primary_key=True),
        sa.Column("players", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("board_counts")
