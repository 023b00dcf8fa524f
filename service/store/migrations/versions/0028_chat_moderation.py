"""Chat moderation (issue 49): players' reports of chat messages, each with the message and the ten around it as they
were; mutes; and the operators' actions on the chat (a message deleted, a player muted or unmuted, a report closed),
each with the operator key's id (service/chat/reports.py).

Revision ID: 0028
Revises: 0026
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")  # (SQLite numbers only an INTEGER primary key by itself)


def upgrade() -> None:
    op.create_table(
        "chat_reports",
        sa.Column("report_id", sa.String(32), primary_key=True),
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.BigInteger, nullable=False),
        sa.Column("reporter_id", sa.String(40), nullable=False),
        sa.Column("reported_id", sa.String(40), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False, server_default=""),
        sa.Column("snapshot", sa.JSON, nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("is_open", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("closed_at", sa.Double, nullable=True),
        sa.Column("closed_by", sa.String(32), nullable=False, server_default=""),
        sa.Column("note", sa.String(200), nullable=False, server_default=""),
        sa.UniqueConstraint("reporter_id", "room_id", "seq", name="uq_chat_reports_reporter_message"),
    )
    op.create_index("ix_chat_reports_list", "chat_reports", ["is_open", "created_at", "report_id"])
    op.create_table(
        "chat_mutes",
        sa.Column("mute_id", _ID, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(40), nullable=False),
        sa.Column("until", sa.Double, nullable=True),
        sa.Column("reason", sa.String(200), nullable=False, server_default=""),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("created_by", sa.String(32), nullable=False),
        sa.Column("ended_at", sa.Double, nullable=True),
        sa.Column("ended_by", sa.String(32), nullable=False, server_default=""),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_chat_mutes_player", "chat_mutes", ["player_id", "ended_at"])
    op.create_table(
        "chat_actions",
        sa.Column("action_id", _ID, primary_key=True, autoincrement=True),
        sa.Column("action", sa.String(24), nullable=False),
        sa.Column("key_id", sa.String(32), nullable=False),
        sa.Column("room_id", sa.String(32), nullable=False, server_default=""),
        sa.Column("seq", sa.BigInteger, nullable=True),
        sa.Column("player_id", sa.String(40), nullable=False, server_default=""),
        sa.Column("report_id", sa.String(32), nullable=False, server_default=""),
        sa.Column("until", sa.Double, nullable=True),
        sa.Column("reason", sa.String(200), nullable=False, server_default=""),
        sa.Column("created_at", sa.Double, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_chat_actions_message", "chat_actions", ["room_id", "seq"])
    op.create_index("ix_chat_actions_created", "chat_actions", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_chat_actions_created", table_name="chat_actions")
    op.drop_index("ix_chat_actions_message", table_name="chat_actions")
    op.drop_table("chat_actions")
    op.drop_index("ix_chat_mutes_player", table_name="chat_mutes")
    op.drop_table("chat_mutes")
    op.drop_index("ix_chat_reports_list", table_name="chat_reports")
    op.drop_table("chat_reports")
