"""Test-wide settings, and the databases: a test that takes ``database_url`` runs on both engines, a fresh SQLite file
and a fresh database on the throwaway PostgreSQL that `make test` starts (scripts/with-postgres). Without PostgreSQL
those runs skip, except under CI=true: they fail."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator

import pytest

from service.store.database import upgrade_in_thread
from tests import relay
from tests.room_ids import room_ids_for_test, tournament_ids_for_test

pytest_plugins = ["tests.servers"]

# gRPC's C core logs routine connection events (GOAWAY on a server stop) at INFO; keep test output for failures.
os.environ.setdefault("GRPC_VERBOSITY", "ERROR")


@pytest.fixture(autouse=True)
def ids_the_same_from_run_to_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every room and tournament a test makes in this process gets an id the same from run to run: a fair deal is
    bound to its room's (or duplicate tournament's) id (deals/scheme.py), so a test whose seed_source fixes its
    secrets plays the same deals every run only if its ids are fixed too."""
    monkeypatch.setattr("service.rooms.directory.new_room_id", room_ids_for_test())
    monkeypatch.setattr("service.tournaments.directory.new_tournament_id", tournament_ids_for_test())


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


# Relay, the tests' own game (tests/relay), is hosted beside the product's games in every test process.
relay.register()
