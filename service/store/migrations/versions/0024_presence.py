"""Presence (issue 48): who sees a player's presence (a column of players: friends, nobody) and each player's presence
as each node knows it, one row a player and node, written only when it changes (service/presence).

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("presence_visibility", sa.String(8), nullable=False, server_default="friends"))
    op.create_table(
        "presence",
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("node_id", sa.String(64), primary_key=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("room_id", sa.String(32), nullable=False, server_default=""),
        sa.Column("unlisted", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("since", sa.Double, nullable=False),
        sa.Column("version", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_presence_node", "presence", ["node_id"])


def downgrade() -> None:
    op.drop_index("ix_presence_node", table_name="presence")
    op.drop_table("presence")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("presence_visibility")
