"""Presence read by what changed (issue 48): each presence row says when the store took it (``changed_at``), and each
player when their friendships, name or visibility last changed (``presence_changed_at``), both in the store's clock
and indexed, so that a node's rounds read only what changed since their last look (service/presence).

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("presence") as batch:
        batch.add_column(sa.Column("changed_at", sa.Double, nullable=False, server_default="0"))
    op.create_index("ix_presence_changed_at", "presence", ["changed_at"])
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("presence_changed_at", sa.Double, nullable=False, server_default="0"))
    op.create_index("ix_players_presence_changed_at", "players", ["presence_changed_at"])


def downgrade() -> None:
    op.drop_index("ix_players_presence_changed_at", table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("presence_changed_at")
    op.drop_index("ix_presence_changed_at", table_name="presence")
    with op.batch_alter_table("presence") as batch:
        batch.drop_column("changed_at")
