"""Correspondence rooms and webhooks: a room's correspondence clock, who must act in it now (with every line, for
"my turn" lists and for resting rooms' wake-up), and the webhook endpoints with their outbox of deliveries.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("correspondence_hours", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("turns", sa.JSON, nullable=True))
        batch.add_column(sa.Column("wake_at", sa.Double, nullable=True))
        batch.create_index("ix_rooms_wake_at", ["wake_at"])
    op.create_table(
        "webhook_endpoints",
        sa.Column("endpoint_id", sa.String(32), primary_key=True),
        sa.Column("url", sa.String(2048), nullable=False),
        sa.Column("events", sa.JSON, nullable=False),
        sa.Column("description", sa.String(128), nullable=False, server_default=""),
        sa.Column("secret", sa.Text, nullable=False),
        sa.Column("secret_hint", sa.String(16), nullable=False),
        sa.Column("max_in_flight", sa.Integer, nullable=False),
        sa.Column("timeout_seconds", sa.Double, nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
    )
    op.create_table(
        "webhook_deliveries",
        sa.Column("delivery_id", sa.String(40), primary_key=True),
        sa.Column("endpoint_id", sa.String(32), nullable=False),
        sa.Column("event", sa.String(32), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("created_at", sa.Double, nullable=False),
        sa.Column("retry_from", sa.Double, nullable=False),
        sa.Column("next_attempt_at", sa.Double, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("claimed_by", sa.String(64), nullable=False, server_default=""),
        sa.Column("claimed_until", sa.Double, nullable=True),
        sa.Column("last_error", sa.String(200), nullable=False, server_default=""),
        sa.Column("last_status", sa.Integer, nullable=False, server_default="0"),
        sa.Column("finished_at", sa.Double, nullable=True),
        sa.Column("condition", sa.JSON, nullable=True),
    )
    op.create_index("ix_webhook_deliveries_due", "webhook_deliveries", ["status", "next_attempt_at"])
    op.create_index(
        "ix_webhook_deliveries_endpoint", "webhook_deliveries", ["endpoint_id", "status", "next_attempt_at"]
    )


def downgrade() -> None:
    op.drop_table("webhook_deliveries")
    op.drop_table("webhook_endpoints")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_index("ix_rooms_wake_at")
        batch.drop_column("wake_at")
        batch.drop_column("turns")
        batch.drop_column("correspondence_hours")
