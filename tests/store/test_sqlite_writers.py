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


async def test_a_call_cancelled_twice_mid_query_leaves_nothing_running(tmp_path) -> None:
    """A call cancelled during a query, and again while its connection is being given up (a client that goes away, then
    the server stopping), leaves no task behind: the event loop can close and the process exit. With SQLAlchemy's own
    way of giving up an aiosqlite connection, a task closing it waited for ever and the process hung at exit."""
    import threading

    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path}/cancelled.db")
    entered, release = threading.Event(), threading.Event()

    @event.listens_for(engine.sync_engine, "connect")
    def _slow_function(connection, _record) -> None:
        connection.create_function("slow", 0, lambda: (entered.set(), release.wait(30), 1)[-1])

    before = set(threading.enumerate())
    try:

        async def call() -> None:
            async with engine.connect() as connection:
                await connection.execute(text("SELECT slow()"))

        task = asyncio.create_task(call())
        await asyncio.to_thread(entered.wait, 30)  # the query runs in the connection's thread
        task.cancel()  # the call goes away: its connection is given up
        for _ in range(20):  # until it waits on giving up its connection (the close is queued behind the query)
            await asyncio.sleep(0)
        task.cancel()  # the server stops
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await task
    finally:
        release.set()
        await engine.dispose()
    for thread in set(threading.enumerate()) - before:  # the connection's thread has ended: all it said has arrived
        if "_connection_worker_thread" in thread.name:  # (aiosqlite's, one per connection)
            await asyncio.to_thread(thread.join, 30)
    for _ in range(20):
        await asyncio.sleep(0)
    left = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()]
    assert left == [], f"still running: {left}"
