"""Any game on the service: which seats system players take, a clock deadline per acting seat in the log, and indexes
for listing rooms and tournaments newest first from the store (finished ones are no longer all in memory).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Rooms stored before keep NULL: their system players took the last seats.
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("system_seats", sa.JSON, nullable=True))
    # Lines stored before keep NULL: their one deadline (``deadline``) was the one acting seat's.
    with op.batch_alter_table("room_log") as batch:
        batch.add_column(sa.Column("deadlines", sa.JSON, nullable=True))
    op.create_index("ix_rooms_created_at", "rooms", ["created_at"])
    op.create_index("ix_tournaments_created_at", "tournaments", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_tournaments_created_at", "tournaments")
    op.drop_index("ix_rooms_created_at", "rooms")
    with op.batch_alter_table("room_log") as batch:
        batch.drop_column("deadlines")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("system_seats")
