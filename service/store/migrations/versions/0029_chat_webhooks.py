"""Chat in correspondence games (issue 49): a webhook endpoint may ask for the text of the chat messages it is sent
(``chat_text``; its ``chat.message`` deliveries carry the text, read at delivery, service/webhooks/dispatcher.py).

Revision ID: 0029
Revises: 0028
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0029"
down_revision = "0028"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("webhook_endpoints") as batch:
        batch.add_column(sa.Column("chat_text", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("webhook_endpoints") as batch:
        batch.drop_column("chat_text")
