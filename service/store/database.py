"""Engines and migrations. The embedded default is a SQLite file under ./var/ (WAL); KICKOFF_DATABASE_URL selects
another store, e.g. postgresql+asyncpg://user@host/db."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

MIGRATIONS = Path(__file__).with_name("migrations")
log = logging.getLogger(__name__)
DEFAULT_URL = "sqlite+aiosqlite:///var/kickoff.db"


def database_url() -> str:
    """KICKOFF_DATABASE_URL, or the embedded SQLite file."""
    return os.environ.get("KICKOFF_DATABASE_URL") or DEFAULT_URL


def _sqlite_path(url: str) -> Path | None:
    prefix = "sqlite+aiosqlite:///"
    if url.startswith(prefix) and url[len(prefix) :] not in ("", ":memory:"):
        return Path(url[len(prefix) :])
    return None


def create_engine(url: str, *, pool: bool = True) -> AsyncEngine:
    """An async engine; SQLite files get WAL and a busy timeout, and their folder is made."""
    path = _sqlite_path(url)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    # hide_parameters: a database error's text (logged) shows the SQL, never the values bound to it.
    engine = create_async_engine(url, poolclass=None if pool else NullPool, hide_parameters=True)
    if url.startswith("sqlite"):

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(connection, _record) -> None:  # type: ignore[no-untyped-def]
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")  # an acknowledged move survives a crash of the machine too
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

    return engine


def upgrade(url: str) -> None:
    """Bring the database at ``url`` to the newest schema (creating it from empty). Runs its own event loop."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url)
    path = _sqlite_path(url)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    # Alembic says at INFO what it sets up and each migration it runs (eight lines on a first start): its warnings and
    # errors only, and one line of ours.
    logging.getLogger("alembic").setLevel(logging.WARNING)
    command.upgrade(config, "head")
    log.info("the store is at its newest migration, %s", ScriptDirectory.from_config(config).get_current_head())


async def upgrade_in_thread(url: str) -> None:
    """:func:`upgrade` from inside a running event loop (Alembic runs its own loop, so it gets a thread)."""
    await asyncio.to_thread(upgrade, url)
