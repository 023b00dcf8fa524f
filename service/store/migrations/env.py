"""Alembic's environment: runs the migrations on the async engine the URL names (SQLite or PostgreSQL)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from service.store.database import create_engine
from service.store.models import Base

config = context.config
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        # Batch migrations rebuild a SQLite table (copy, drop, rename); with foreign keys enforced, dropping a table
        # that other tables' rows point at fails. Enforcement is switched off around the migrations (it takes effect
        # only outside a transaction, so before it begins) and every reference is checked before the commit.
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # Several nodes starting at once each apply the migrations on start: one at a time, and those after the
            # first find the schema current (the lock is held until this transaction commits).
            connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7221001)")
        context.run_migrations()
        if sqlite:
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
            if broken:
                raise RuntimeError(f"the migration left rows pointing nowhere: {broken[:5]}")
    if sqlite:
        connection.exec_driver_sql("PRAGMA foreign_keys=ON")


async def _online() -> None:
    engine = create_engine(config.get_main_option("sqlalchemy.url"), pool=False)
    async with engine.connect() as connection:
        await connection.run_sync(_run)
        await connection.commit()
    await engine.dispose()


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(_online())
