"""Room invitations: a player seated in a room invites a friend to it; the invitation is kept, so that it holds on
every node and across restarts (service/rooms/invitations.py).

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "room_invitations",
        sa.Column("invitation_id", sa.String(32), primary_key=True),
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("inviter", sa.String(40), nullable=False),
        sa.Column("invitee", sa.String(40), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("ended_at", sa.Double, nullable=True),
    )
    op.create_index("ix_room_invitations_room_id", "room_invitations", ["room_id"])
    op.create_index("ix_room_invitations_invitee", "room_invitations", ["invitee", "status"])
    op.create_index(
        "uq_room_invitations_pending",
        "room_invitations",
        ["room_id", "invitee"],
        unique=True,
        sqlite_where=sa.text("status = 'pending'"),
        postgresql_where=sa.text("status = 'pending'"),
    )


def downgrade() -> None:
    op.drop_index("uq_room_invitations_pending", table_name="room_invitations")
    op.drop_index("ix_room_invitations_invitee", table_name="room_invitations")
    op.drop_index("ix_room_invitations_room_id", table_name="room_invitations")
    op.drop_table("room_invitations")
