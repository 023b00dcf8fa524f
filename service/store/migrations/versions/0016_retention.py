"""Retention: indexes for the pruning loop (service/store/retention.py), which finds ended tickets, started tables,
ended sessions and spent refresh tokens by the time they ended, every few minutes, without reading whole tables.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06
"""

from __future__ import annotations

from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_tickets_ended_at", "tickets", ["ended_at"])
    op.create_index("ix_matches_started", "matches", ["status", "started_at"])
    op.create_index("ix_sessions_expires_at", "sessions", ["expires_at"])
    op.create_index("ix_sessions_revoked_at", "sessions", ["revoked_at"])
    op.create_index("ix_refresh_tokens_expires_at", "refresh_tokens", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_refresh_tokens_expires_at", "refresh_tokens")
    op.drop_index("ix_sessions_revoked_at", "sessions")
    op.drop_index("ix_sessions_expires_at", "sessions")
    op.drop_index("ix_matches_started", "matches")
    op.drop_index("ix_tickets_ended_at", "tickets")
