"""Matchmaking: tickets (a player or a party waiting for a table), the players queued (one ticket per player and
game), the party members invited who have not joined yet, the tables made of tickets (matches), each game's queue
row (what a matchmaker locks), and a matched room's people, seated as it is made.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("people", sa.JSON, nullable=True))
    op.create_table(
        "tickets",
        sa.Column("ticket_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("leader", sa.String(40), nullable=False, index=True),
        sa.Column("members", sa.JSON, nullable=False),
        sa.Column("joined", sa.JSON, nullable=False),
        sa.Column("names", sa.JSON, nullable=False),
        sa.Column("counts", sa.JSON, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("options_key", sa.String(64), nullable=False),
        sa.Column("rating", sa.Double, nullable=False),
        sa.Column("place", sa.Double, nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("expires_at", sa.Double, nullable=False),
        sa.Column("match_id", sa.String(32), nullable=True, index=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("reason", sa.String(32), nullable=False, server_default=""),
        sa.Column("returned", sa.Integer, nullable=False, server_default="0"),
        sa.Column("caller", sa.String(64), nullable=False, server_default=""),
        sa.Column("trace", sa.String(64), nullable=False, server_default=""),
        sa.Column("ended_at", sa.Double, nullable=True),
    )
    op.create_index("ix_tickets_queue", "tickets", ["game", "status", "place"])
    op.create_index("ix_tickets_caller", "tickets", ["caller", "status"])
    op.create_table(
        "queued_players",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("ticket_id", sa.String(32), nullable=False, index=True),
    )
    op.create_table(
        "ticket_invites",
        sa.Column("ticket_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(40), primary_key=True, index=True),
        sa.Column("game", sa.String(32), nullable=False),
    )
    op.create_table(
        "matches",
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("options_key", sa.String(64), nullable=False),
        sa.Column("system_player", sa.String(32), nullable=False, server_default=""),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("place", sa.Double, nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("started_at", sa.Double, nullable=True),
        sa.Column("spread", sa.Double, nullable=False, server_default="0"),
    )
    op.create_index("ix_matches_queue", "matches", ["game", "status"])
    op.create_table(
        "match_queues",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("ticks", sa.Integer, nullable=False, server_default="0"),
        sa.Column("ticked_at", sa.Double, nullable=False, server_default="0"),
    )


def downgrade() -> None:
    op.drop_table("match_queues")
    op.drop_index("ix_matches_queue", "matches")
    op.drop_table("matches")
    op.drop_table("ticket_invites")
    op.drop_table("queued_players")
    op.drop_index("ix_tickets_caller", "tickets")
    op.drop_index("ix_tickets_queue", "tickets")
    op.drop_table("tickets")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("people")
