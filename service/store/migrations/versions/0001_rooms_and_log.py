"""Rooms, their seats, their append-only log, and server settings.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("system_players", sa.Integer, nullable=False),
        sa.Column("system_player", sa.String(32), nullable=False),
        sa.Column("think_seconds", sa.Double, nullable=True),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
    )
    op.create_index("ix_rooms_status", "rooms", ["status"])
    op.create_table(
        "seats",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.room_id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("taken", sa.Boolean, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
    )
    op.create_table(
        "room_log",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.room_id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("move", sa.Text, nullable=True),
        sa.Column("request_id", sa.String(128), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("nonce", sa.String(32), nullable=False),
        sa.Column("deadline", sa.Double, nullable=True),
        sa.Column("created_at", sa.Double, nullable=False),
    )
    op.create_table(
        "server_settings",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_settings")
    op.drop_table("room_log")
    op.drop_table("seats")
    op.drop_index("ix_rooms_status", "rooms")
    op.drop_table("rooms")
