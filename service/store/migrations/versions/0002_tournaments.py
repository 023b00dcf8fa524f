"""Tournaments and their append-only log; rooms name the tournament and game they belong to.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("tournament_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("system_players", sa.Integer, nullable=False),
        sa.Column("system_player", sa.String(32), nullable=False),
        sa.Column("think_seconds", sa.Double, nullable=True),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_log",
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.tournament_id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("nonce", sa.String(32), nullable=False),
        sa.Column("game_index", sa.Integer, nullable=False),
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
    )
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("tournament_id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("tournament_game", sa.Integer, nullable=True))
        batch.create_foreign_key("fk_rooms_tournament", "tournaments", ["tournament_id"], ["tournament_id"])
        batch.create_index("ix_rooms_tournament_id", ["tournament_id"])


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_index("ix_rooms_tournament_id")
        batch.drop_constraint("fk_rooms_tournament", type_="foreignkey")
        batch.drop_column("tournament_game")
        batch.drop_column("tournament_id")
    op.drop_table("tournament_log")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_table("tournaments")
