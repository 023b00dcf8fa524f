"""Rooms' chat (issue 49): the room options ``chat`` and ``team_chat``, and one row a message, keyed by the room's
one sequence, indexed for a channel's messages after a seq and for a retry's request id; a message an operator
deleted is blanked and marked ``withdrawn``, and the withdrawal is a row of its own naming it (``withdraws_seq``).

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("chat", sa.String(12), nullable=False, server_default=""))
        batch.add_column(sa.Column("team_chat", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "chat_messages",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("team", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("player_id", sa.String(40), nullable=False, server_default=""),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("text", sa.String(1000), nullable=False, server_default=""),
        sa.Column("reaction", sa.String(16), nullable=False, server_default=""),
        sa.Column("request_key", sa.String(64), nullable=True),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("withdraws_seq", sa.BigInteger(), nullable=True),
    )
    op.create_index("ix_chat_messages_channel", "chat_messages", ["room_id", "channel", "team", "seq"])
    op.create_index("ix_chat_messages_request", "chat_messages", ["room_id", "request_key"], unique=True)
    op.create_index("ix_chat_messages_player", "chat_messages", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_chat_messages_player", table_name="chat_messages")
    op.drop_index("ix_chat_messages_request", table_name="chat_messages")
    op.drop_index("ix_chat_messages_channel", table_name="chat_messages")
    op.drop_table("chat_messages")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("team_chat")
        batch.drop_column("chat")
