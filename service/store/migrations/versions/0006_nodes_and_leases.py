"""Several nodes on one PostgreSQL: the nodes, the leases of live rooms and tournaments, and the lease epoch of every
log line (0 on lines written before, and whenever a single node runs without leases).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "nodes",
        sa.Column("node_id", sa.String(64), primary_key=True),
        sa.Column("address", sa.String(255), nullable=False),
        sa.Column("incarnation", sa.String(32), nullable=False),
        sa.Column("expires_at", sa.Double, nullable=False),
        sa.Column("started_at", sa.Double, nullable=False),
    )
    op.create_table(
        "leases",
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("target_id", sa.String(32), primary_key=True),
        sa.Column("node_id", sa.String(64), nullable=False, index=True),
        sa.Column("epoch", sa.Integer, nullable=False),
        sa.Column("tournament_id", sa.String(32), nullable=False, server_default=""),
        sa.Column("claimed_at", sa.Double, nullable=False),
    )
    with op.batch_alter_table("room_log") as batch:
        batch.add_column(sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("tournament_log") as batch:
        batch.add_column(sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("tournament_log") as batch:
        batch.drop_column("epoch")
    with op.batch_alter_table("room_log") as batch:
        batch.drop_column("epoch")
    op.drop_table("leases")
    op.drop_table("nodes")
