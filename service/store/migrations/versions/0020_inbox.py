"""The players' inboxes (issue 48): one row an item, written in the transaction of the change that caused it, keyed
for a player's items newest first and for the items after an id.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "inbox_items",
        sa.Column("item_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
        sa.Column("player_id", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("read", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_inbox_items_player", "inbox_items", ["player_id", "item_id"])
    op.create_index("ix_inbox_items_created", "inbox_items", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_inbox_items_created", table_name="inbox_items")
    op.drop_index("ix_inbox_items_player", table_name="inbox_items")
    op.drop_table("inbox_items")
