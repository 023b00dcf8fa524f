"""System players' levels: the heuristic player is now the ``normal`` level, so its ratings (rated per kind and game,
like a player's) move from ``system-heuristic`` to ``system-normal``.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

TABLES = ("ratings", "rating_changes")


def _rename(old: str, new: str) -> None:
    for table in TABLES:
        op.execute(sa.text(f"UPDATE {table} SET player_id = :new WHERE player_id = :old").bindparams(old=old, new=new))


def upgrade() -> None:
    _rename("system-heuristic", "system-normal")


def downgrade() -> None:
    _rename("system-normal", "system-heuristic")
