"""The store tests' helpers. Each store test runs on both engines through tests/conftest.py's database fixtures."""

from __future__ import annotations

import asyncio

from service.rooms.directory import RoomDirectory
from service.store.journal import SqlJournal
from service.tournaments.directory import TournamentDirectory


async def crash(directory: RoomDirectory, journal: SqlJournal, tournaments: TournamentDirectory | None = None) -> None:
    """Drop everything in memory without a goodbye (what is committed stays)."""
    for handler in [*(tournaments.held() if tournaments else []), *directory.held()]:
        handler.halt()  # (a room's timers)
        if handler.actor._task is not None:
            handler.actor._task.cancel()
        if handler.actor._retry is not None:
            handler.actor._retry.cancel()
    if journal._flusher is not None:  # a process that dies commits nothing more
        journal._flusher.cancel()
        await asyncio.gather(journal._flusher, return_exceptions=True)
    await journal.engine.dispose()
