"""Private tables: a room may be unlisted (never listed; seen only by its seated players and the holders of its
invitation links), and its invitation links are kept, with their uses counted, so that revocation and a single use hold
on every node and across restarts (service/rooms/private.py).

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("unlisted", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "invitation_links",
        sa.Column("link_id", sa.String(32), primary_key=True),
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("expires_at", sa.Double, nullable=False),
        sa.Column("max_uses", sa.Integer, nullable=False),
        sa.Column("uses", sa.Integer, nullable=False, server_default="0"),
        sa.Column("revoked", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_invitation_links_room_id", "invitation_links", ["room_id"])


def downgrade() -> None:
    op.drop_index("ix_invitation_links_room_id", table_name="invitation_links")
    op.drop_table("invitation_links")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("unlisted")
