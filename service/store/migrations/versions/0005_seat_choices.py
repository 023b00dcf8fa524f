"""What a person chooses on taking a seat (Age of Soccer: a team), kept with the join in the room's log.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Lines stored before hold "": nobody chose anything.
    with op.batch_alter_table("room_log") as batch:
        batch.add_column(sa.Column("choice", sa.String(16), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("room_log") as batch:
        batch.drop_column("choice")
