"""The store tests' helpers. Each store test runs on both engines through tests/conftest.py's database fixtures."""

from __future__ import annotations

import asyncio

from service.rooms.directory import RoomDirectory
from service.store.journal import SqlJournal
from service.tournaments.directory import TournamentDirectory


async def crash(directory: RoomDirectory, journal: SqlJournal, tournaments: TournamentDirectory | None = None) -> None:
    """Drop everything in memory without a goodbye (what is committed stays)."""
    for tournament in tournaments._tournaments.values() if tournaments else ():
        for task in [*tournament._advancing, *([tournament._healing] if tournament._healing else [])]:
            task.cancel()
    for room in directory._rooms.values():
        if room._task is not None:
            room._task.cancel()
        room._cancel_timers()
    if journal._flusher is not None:  # a process that dies commits nothing more
        journal._flusher.cancel()
        await asyncio.gather(journal._flusher, return_exceptions=True)
    await journal.engine.dispose()
