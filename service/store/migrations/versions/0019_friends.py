"""Friends (issue 48): each player's friend code, friend requests (kept after their answer, for the requests-a-day
bound, until pruned), friendships (two rows each, one per player) and blocks.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "friend_codes",
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("code", sa.String(10), nullable=False, unique=True),
        sa.Column("created_at", sa.Double(), nullable=False),
    )
    op.create_table(
        "friend_requests",
        sa.Column("request_id", sa.String(32), primary_key=True),
        sa.Column("sender", sa.String(40), nullable=False),
        sa.Column("recipient", sa.String(40), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("delivered", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("ended_at", sa.Double(), nullable=True),
    )
    pending = sa.text("status = 'pending'")
    op.create_index(
        "uq_friend_requests_pending",
        "friend_requests",
        ["sender", "recipient"],
        unique=True,
        sqlite_where=pending,
        postgresql_where=pending,
    )
    op.create_index("ix_friend_requests_sender", "friend_requests", ["sender", "created_at"])
    op.create_index("ix_friend_requests_recipient", "friend_requests", ["recipient", "status"])
    op.create_table(
        "friendships",
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("friend_id", sa.String(40), primary_key=True),
        sa.Column("since", sa.Double(), nullable=False),
    )
    op.create_table(
        "blocks",
        sa.Column("blocker", sa.String(40), primary_key=True),
        sa.Column("blocked", sa.String(40), primary_key=True),
        sa.Column("created_at", sa.Double(), nullable=False),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked"])


def downgrade() -> None:
    op.drop_index("ix_blocks_blocked", table_name="blocks")
    op.drop_table("blocks")
    op.drop_table("friendships")
    op.drop_index("ix_friend_requests_recipient", table_name="friend_requests")
    op.drop_index("ix_friend_requests_sender", table_name="friend_requests")
    op.drop_index("uq_friend_requests_pending", table_name="friend_requests")
    op.drop_table("friend_requests")
    op.drop_table("friend_codes")
