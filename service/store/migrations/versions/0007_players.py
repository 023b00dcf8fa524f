"""Players: who they are (players, the identity providers' accounts linked to them), their sessions and refresh
tokens, their ratings per game and every change of one; the player holding each seat (seats, and the join lines of
both logs), and each finished room's outcome and each seat's place in it (history and leaderboards read them).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("device_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("deleted_at", sa.Double, nullable=True),
    )
    op.create_table(
        "identities",
        sa.Column("issuer", sa.String(255), primary_key=True),
        sa.Column("subject", sa.String(255), primary_key=True),
        sa.Column("player_id", sa.String(40), sa.ForeignKey("players.player_id"), nullable=False, index=True),
        sa.Column("linked_at", sa.Double, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("session_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(40), sa.ForeignKey("players.player_id"), nullable=False, index=True),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("expires_at", sa.Double, nullable=False),
        sa.Column("revoked_at", sa.Double, nullable=True),
        sa.Column("revoked_why", sa.String(32), nullable=False, server_default=""),
    )
    op.create_table(
        "refresh_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("session_id", sa.String(32), sa.ForeignKey("sessions.session_id"), nullable=False, index=True),
        sa.Column("issued_at", sa.Double, nullable=False),
        sa.Column("expires_at", sa.Double, nullable=False),
        sa.Column("used_at", sa.Double, nullable=True),
    )
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("display", sa.Double, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Double, nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["game", "display", "player_id", "games", "kind"])
    op.create_table(
        "rating_changes",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Double, nullable=False),
        sa.Column("sigma_before", sa.Double, nullable=False),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("time", sa.Double, nullable=False),
    )
    op.create_index("ix_rating_changes_player", "rating_changes", ["player_id", "game", "time"])
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=True))
        batch.add_column(sa.Column("ended_at", sa.Double, nullable=True))
        batch.add_column(sa.Column("outcome", sa.JSON, nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("player_id", sa.String(40), nullable=True))
        batch.add_column(sa.Column("place", sa.Integer, nullable=True))
        batch.add_column(sa.Column("won", sa.Boolean, nullable=True))
        batch.create_index("ix_seats_player_id", ["player_id"])
    with op.batch_alter_table("room_log") as batch:
        batch.add_column(sa.Column("player_id", sa.String(40), nullable=False, server_default=""))
    with op.batch_alter_table("tournament_log") as batch:
        batch.add_column(sa.Column("player_id", sa.String(40), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("tournament_log") as batch:
        batch.drop_column("player_id")
    with op.batch_alter_table("room_log") as batch:
        batch.drop_column("player_id")
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_player_id")
        batch.drop_column("won")
        batch.drop_column("place")
        batch.drop_column("player_id")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("outcome")
        batch.drop_column("ended_at")
        batch.drop_column("rated")
    for table in ("rating_changes", "ratings", "refresh_tokens", "sessions", "identities", "players"):
        op.drop_table(table)
