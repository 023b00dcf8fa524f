"""The actor runtime is generic: a kind it has never heard of (a counter, tests/actors/counter.py) is stored through the
SQL journal, told to readers only once stored, numbered one by one, rebuilt from its log after a restart, and rebuilt
from the store after a failed commit, by the runtime alone (the counter's handler only says what a change did)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from service.actors.runtime import Runtime
from service.errors import InvalidRequest, StoreUnavailable
from service.store.database import create_engine
from service.store.journal import SqlJournal
from tests.actors.counter import KIND, Counter, Counters, create_tables, plugged


class Watched:
    """The SQL journal, watched: each line's version and how many updates readers had when it was written; ``fail``
    makes the next line fail, ``before`` the store takes it or ``after`` (the store has it, the writer never hears)."""

    def __init__(self, journal: SqlJournal) -> None:
        self.journal = journal
        self.fail = ""
        self.written: list[tuple[int, int]] = []  # (version, updates readers had)
        self.counter: Counter | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.journal, name)

    async def append(self, kind: str, entry: Any, status: str) -> None:
        assert self.counter is not None
        self.written.append((entry.version, len(self.counter.actor.updates)))
        fail, self.fail = self.fail, ""
        if fail == "before":
            raise StoreUnavailable("the store is away")
        await self.journal.append(kind, entry, status)
        if fail == "after":
            raise StoreUnavailable("the store went away before it answered")


@pytest.fixture
async def url(database_url: str) -> AsyncIterator[str]:
    with plugged():
        engine = create_engine(database_url)
        await create_tables(engine)
        await engine.dispose()
        yield database_url


async def open_counters(url: str) -> tuple[Counters, Watched, Runtime, dict[str, int]]:
    """A server's start: a runtime with the counters' directory over the store, every live counter rebuilt."""
    journal = Watched(SqlJournal(create_engine(url)))
    runtime = Runtime()
    counters = Counters(journal=journal, runtime=runtime, keep_finished=10)  # (registers itself with the runtime)
    live = await runtime.restore(journal)
    return counters, journal, runtime, live


async def stored(journal: Watched, counter_id: str) -> list[tuple[int, int]]:
    return [(entry.version, entry.amount) for entry in await journal.journal.load(KIND, counter_id)]


async def test_a_change_is_stored_before_its_readers_hear_of_it_and_versions_go_up_by_one(url: str) -> None:
    counters, journal, runtime, live = await open_counters(url)
    assert live == {KIND: 0}
    counter = journal.counter = await counters.create("c1", limit=10)
    feed = counter.actor.subscribe(0, 0, False)
    assert [await counter.add(amount) for amount in (2, 3)] == [1, 2]
    with pytest.raises(InvalidRequest):  # a refusal: nothing is stored, no version is spent
        await counter.add(0)
    assert await counter.add(5) == 3
    # Each line was written while readers had only the versions before it; each update a reader got was stored.
    assert journal.written == [(1, 0), (2, 1), (3, 2)]
    heard = [(update.version, update.total, await stored(journal, "c1")) async for update in feed]
    assert [(version, total) for version, total, _ in heard] == [(1, 2), (2, 5), (3, 10)]
    assert all(len(lines) >= version for version, _, lines in heard)
    assert await stored(journal, "c1") == [(1, 2), (2, 3), (3, 5)]
    assert counter.status == "finished"
    await runtime.close()
    await journal.close()


async def test_a_restart_rebuilds_a_counter_from_its_log(url: str) -> None:
    counters, journal, runtime, _ = await open_counters(url)
    counter = journal.counter = await counters.create("c1", limit=100)
    for amount in (4, 5, 6):
        await counter.add(amount)
    await runtime.close()
    await journal.close()

    counters, journal, runtime, live = await open_counters(url)
    assert live == {KIND: 1}
    restored = journal.counter = counters.get("c1")
    assert (restored.total, restored.version) == (15, 3)
    assert [update.version for update in restored.updates] == [1, 2, 3]
    assert await restored.add(1) == 4
    assert journal.written == [(4, 3)]
    await runtime.close()
    await journal.close()


@pytest.mark.parametrize("when", ["before", "after"])
async def test_a_failed_commit_rebuilds_the_counter_as_the_store_holds_it(url: str, when: str) -> None:
    counters, journal, runtime, _ = await open_counters(url)
    counter = journal.counter = await counters.create("c1", limit=100)
    await counter.add(2)
    journal.fail = when
    with pytest.raises(StoreUnavailable):
        await counter.add(3)
    await counter.settle()  # (the runtime reads the log back and replays it)
    kept = when == "after"  # the store has the line when it failed after taking it
    assert (counter.total, counter.version) == ((5, 2) if kept else (2, 1))
    assert [update.version for update in counter.updates] == ([1, 2] if kept else [1])
    assert await counter.add(4) == (3 if kept else 2)
    assert await stored(journal, "c1") == ([(1, 2), (2, 3), (3, 4)] if kept else [(1, 2), (2, 4)])
    await runtime.close()
    await journal.close()
