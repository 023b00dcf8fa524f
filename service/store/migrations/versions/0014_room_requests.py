"""Room requests: a room created with a request id keeps the key of the caller's id (unique: a retry of CreateRoom
finds the room by it) and the hash of the request's parameters. A join's key rides in its log line's request_id.

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
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("request_key", sa.String(64), nullable=True))
        batch.add_column(sa.Column("request_hash", sa.String(64), nullable=True))
        batch.create_unique_constraint("uq_rooms_request_key", ["request_key"])


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_constraint("uq_rooms_request_key", type_="unique")
        batch.drop_column("request_hash")
        batch.drop_column("request_key")
