"""Request ids for matchmaking's Enqueue and the webhooks' AddEndpoint: a ticket or an endpoint made with a request id
keeps the key of the caller's id (unique: a retry finds what the first call made by it) and the hash of the request's
other parameters (service/actors/requests.py), as a room or tournament does since 0015.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

TABLES = {"tickets": "uq_tickets_request_key", "webhook_endpoints": "uq_webhook_endpoints_request_key"}


def upgrade() -> None:
    for table, constraint in TABLES.items():
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("request_key", sa.String(64), nullable=True))
            batch.add_column(sa.Column("request_hash", sa.String(64), nullable=True))
            batch.create_unique_constraint(constraint, ["request_key"])


def downgrade() -> None:
    for table, constraint in reversed(TABLES.items()):
        with op.batch_alter_table(table) as batch:
            batch.drop_constraint(constraint, type_="unique")
            batch.drop_column("request_hash")
            batch.drop_column("request_key")
