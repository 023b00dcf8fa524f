"""Duplicate tournaments (issue 50): a tournament may play its deals again with the seats rotated (``duplicate``);
it keeps each deal's secret, sealed with the nodes' shared key (``deal_secrets``), and a join line keeps the seat's
seed for the fair deal (``seed``).

Revision ID: 0031
Revises: 0029 (0030, the rooms' fair deals, lands beside it: on merging, this revises 0030)
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0031"
down_revision = "0030"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("duplicate", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("deal_secrets", sa.JSON(), nullable=True))
    with op.batch_alter_table("tournament_log") as batch:
        batch.add_column(sa.Column("seed", sa.String(64), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("tournament_log") as batch:
        batch.drop_column("seed")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("deal_secrets")
        batch.drop_column("duplicate")
