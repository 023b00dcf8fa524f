"""Each store test runs on both engines: a fresh SQLite file, and a fresh database on the throwaway PostgreSQL that
`make test` starts (scripts/with-postgres). Without PostgreSQL those runs skip, except under CI=true: they fail."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator

import pytest

from service.rooms.directory import RoomDirectory
from service.store.database import upgrade_in_thread
from service.store.journal import SqlJournal
from service.tournaments.directory import TournamentDirectory


async def fresh_postgres_database() -> str:
    import asyncpg

    admin_url = os.environ["KICKOFF_TEST_POSTGRES_URL"]
    name = f"t_{uuid.uuid4().hex[:12]}"
    connection = await asyncpg.connect(admin_url.replace("postgresql+asyncpg", "postgresql"))
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()
    return admin_url.rsplit("/", 1)[0] + f"/{name}"


async def empty_database(kind: str, tmp_path) -> str:
    """The URL of an empty database with no schema: a SQLite file under ``tmp_path``, or a fresh database on the
    throwaway PostgreSQL (skipped without one, except under CI=true, where that fails)."""
    if kind == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    if not os.environ.get("KICKOFF_TEST_POSTGRES_URL"):
        reason = "no PostgreSQL: run the tests with `make test`, which starts a throwaway PostgreSQL 15"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return await fresh_postgres_database()


@pytest.fixture(params=["sqlite", "postgresql"])
async def empty_database_url(request: pytest.FixtureRequest, tmp_path) -> AsyncIterator[str]:
    """An empty database with no schema at all."""
    yield await empty_database(request.param, tmp_path)


@pytest.fixture
async def database_url(empty_database_url: str) -> AsyncIterator[str]:
    """An empty database, migrated to the newest schema."""
    await upgrade_in_thread(empty_database_url)
    yield empty_database_url


async def crash(directory: RoomDirectory, journal: SqlJournal, tournaments: TournamentDirectory | None = None) -> None:
    """Drop everything in memory without a goodbye (what is committed stays)."""
    for tournament in tournaments._order if tournaments else ():
        for task in [*tournament._advancing, *([tournament._healing] if tournament._healing else [])]:
            task.cancel()
    for room in directory._rooms.values():
        if room._task is not None:
            room._task.cancel()
        for timer in room._timers:
            timer.cancel()
    if journal._flusher is not None:  # a process that dies commits nothing more
        journal._flusher.cancel()
        await asyncio.gather(journal._flusher, return_exceptions=True)
    await journal.engine.dispose()
