"""Rematches: a room keeps its creator's choice of what fills a seat whose person declines a rematch, and a finished
room's rematch is kept in a table of its own (who accepted, declined or is still asked, the deadline, the new room),
so that a proposal survives a restart or a failover of the finished room (service/rooms/rematches.py).

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("rematch_fill", sa.String(16), nullable=False, server_default=""))
    op.create_table(
        "rematches",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("proposed_by", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("deadline", sa.Double, nullable=False),
        sa.Column("answers", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("new_room_id", sa.String(32), nullable=False, server_default=""),
        sa.Column("reason", sa.String(32), nullable=False, server_default=""),
    )
    op.create_index("ix_rematches_status", "rematches", ["status"])


def downgrade() -> None:
    op.drop_index("ix_rematches_status", table_name="rematches")
    op.drop_table("rematches")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("rematch_fill")
