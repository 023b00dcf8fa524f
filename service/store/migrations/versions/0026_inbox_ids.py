"""Inbox item ids are never given again (issue 48): on SQLite the table is made again with AUTOINCREMENT, since an
INTEGER primary key alone gives the next row the id of a deleted newest one, and a page or stream that had seen that
id would never show the new item. PostgreSQL's identity never gives an id twice: nothing to do there.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-06
"""

from __future__ import annotations

from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table("inbox_items", recreate="always", table_kwargs={"sqlite_autoincrement": True}):
            pass


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table("inbox_items", recreate="always", table_kwargs={"sqlite_autoincrement": False}):
            pass
