"""Resting solo tournaments: a tournament's row says until when it need not be in memory (``wake_at``: its game's time
to end as abandoned, written as the tournament goes to rest, cleared by its next line), so that a start leaves a
resting solo tournament in the store as it leaves its resting game (service/tournaments/directory.py).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("wake_at", sa.Double, nullable=True))
        batch.create_index("ix_tournaments_wake_at", ["wake_at"])


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_index("ix_tournaments_wake_at")
        batch.drop_column("wake_at")
