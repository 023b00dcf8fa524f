"""Seat origins: a room's join line (and its seat's row, for rooms that rest) and a tournament's join line keep a keyed
hash of the network the person joined from, so a room whose people share an address plays unrated
(service/rooms/room.py) after a restart or a failover as it did before.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("room_log", "seats", "tournament_log"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("origin", sa.String(32), nullable=False, server_default=""))


def downgrade() -> None:
    for table in ("room_log", "seats", "tournament_log"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("origin")
