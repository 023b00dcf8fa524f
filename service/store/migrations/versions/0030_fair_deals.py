"""Fair deals (issue 50): a room's deal secret, sealed with the nodes' shared key (service/secrets.py), the subject its
commitment is bound to, the seeds fixed as it was made (a duplicate tournament's deal), whether its deal is held past
the game's end; and each join line's seed for the deal. A room stored before keeps no secret and plays on with its
old seed.

Revision ID: 0030
Revises: 0029
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0030"
down_revision = "0029"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("deal_secret", sa.Text(), nullable=True))
        batch.add_column(sa.Column("deal_subject", sa.String(96), nullable=False, server_default=""))
        batch.add_column(sa.Column("deal_seeds", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("deal_held", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("room_log") as batch:
        batch.add_column(sa.Column("seed", sa.String(64), nullable=False, server_default=""))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("seed", sa.String(64), nullable=False, server_default=""))
    with op.batch_alter_table("rematches") as batch:
        batch.add_column(sa.Column("seeds", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rematches") as batch:
        batch.drop_column("seeds")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("seed")
    with op.batch_alter_table("room_log") as batch:
        batch.drop_column("seed")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("deal_held")
        batch.drop_column("deal_seeds")
        batch.drop_column("deal_subject")
        batch.drop_column("deal_secret")
