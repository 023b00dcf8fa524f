"""Request ids: a room or tournament created with a request id keeps the key of the caller's id (unique: a retry of
CreateRoom or CreateTournament finds it by it) and the hash of the request's parameters; a tournament's join keeps its
request's key in its log line, as a room's join does in the room log's request_id (service/actors/requests.py).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("rooms", "tournaments"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("request_key", sa.String(64), nullable=True))
            batch.add_column(sa.Column("request_hash", sa.String(64), nullable=True))
            batch.create_unique_constraint(f"uq_{table}_request_key", ["request_key"])
    with op.batch_alter_table("tournament_log") as batch:
        batch.add_column(sa.Column("request_id", sa.String(128), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("tournament_log") as batch:
        batch.drop_column("request_id")
    for table in ("tournaments", "rooms"):
        with op.batch_alter_table(table) as batch:
            batch.drop_constraint(f"uq_{table}_request_key", type_="unique")
            batch.drop_column("request_hash")
            batch.drop_column("request_key")
