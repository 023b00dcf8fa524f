"""SQLite's one writer at a time: write transactions of one process take turns instead of failing. Each writer's
connection here has no busy timeout at all, so a writer that reached SQLite while another held the lock would fail
with "database is locked" at once (as one did after 5 s when the machine was loaded: the matchmaker's Enqueue and
AcceptMatch answered INTERNAL)."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import OperationalError

from service.store import database
from service.store.database import create_engine


def _engine(tmp_path):
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path}/writers.db")

    @event.listens_for(engine.sync_engine, "connect")
    def _no_busy_wait(connection, _record) -> None:  # (after the engine's own pragmas)
        cursor = connection.cursor()
        cursor.execute("PRAGMA busy_timeout=0")
        cursor.close()

    return engine


async def test_writers_take_turns_and_none_fails(tmp_path) -> None:
    engine = _engine(tmp_path)
    try:
        async with engine.begin() as connection:
            await connection.execute(text("CREATE TABLE moves (n INTEGER)"))
        first_holds, first_may_go = asyncio.Event(), asyncio.Event()

        async def first() -> None:
            async with engine.begin() as connection:
                await connection.execute(text("INSERT INTO moves VALUES (0)"))
                first_holds.set()
                await first_may_go.wait()

        async def another(n: int) -> None:
            async with engine.begin() as connection:
                await connection.execute(text("INSERT INTO moves VALUES (:n)"), {"n": n})

        holder = asyncio.create_task(first())
        await first_holds.wait()
        others = [asyncio.create_task(another(n)) for n in range(1, 6)]
        for _ in range(20):  # (each waiter gets every chance to reach SQLite while the lock is held)
            await asyncio.sleep(0)
        assert not any(task.done() for task in others), "a writer went past the one holding the lock"
        first_may_go.set()
        await asyncio.gather(holder, *others)
        async with engine.connect() as connection:
            rows = (await connection.execute(text("SELECT n FROM moves ORDER BY rowid"))).scalars().all()
        assert rows == [0, 1, 2, 3, 4, 5], "every write stored, in the order they asked"
        async with engine.connect() as connection:  # reads do not wait for a turn
            assert (await connection.execute(text("SELECT count(*) FROM moves"))).scalar_one() == 6
    finally:
        await engine.dispose()


async def test_a_writer_that_gets_no_turn_in_time_fails_as_sqlite_would(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(database, "WRITE_WAIT", 0.05)
    engine = _engine(tmp_path)
    try:
        release = asyncio.Event()

        async def holder() -> None:
            async with engine.begin():
                await release.wait()

        task = asyncio.create_task(holder())
        await asyncio.sleep(0)
        with pytest.raises(OperationalError, match="database is locked"):
            async with engine.begin():
                pass
        release.set()
        await task
        async with engine.begin() as connection:  # and the turn is free again
            await connection.execute(text("SELECT 1"))
    finally:
        await engine.dispose()
