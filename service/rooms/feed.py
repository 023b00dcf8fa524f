"""Live feeds of a versioned history (a room's updates, a tournament's): a reader starts after any version it saw,
gets the kept updates at once and every later one as it is published, exactly once, and the feed ends with the
history."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from typing import Generic, TypeVar

from service.rooms.errors import InvalidRequest

T = TypeVar("T")


class Feed(Generic[T]):
    """One reader's feed; iterate it. ``queue`` ends with None (the history is over, or the server stops)."""

    def __init__(self, readers: Readers[T]) -> None:
        self._readers = readers
        self.queue: asyncio.Queue[T | None] = asyncio.Queue()

    def __aiter__(self) -> AsyncIterator[T]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[T]:
        try:
            while (update := await self.queue.get()) is not None:
                yield update
        finally:
            self.close()

    def close(self) -> None:
        self._readers._feeds.discard(self)


class Readers(Generic[T]):
    """Everyone following one history whose update ``v`` is kept at index ``v - 1``."""

    def __init__(self) -> None:
        self._feeds: set[Feed[T]] = set()

    def open(self, kept: Sequence[T], version: int, after_version: int, finished: bool) -> Feed[T]:
        """A feed of every update after ``after_version`` (0 to the history's ``version``): the kept ones now, then
        each one published."""
        if after_version < 0 or after_version > version:
            raise InvalidRequest(f"after_version must be 0-{version}, got {after_version}")
        feed = Feed(self)
        for update in kept[after_version:]:
            feed.queue.put_nowait(update)
        if finished:
            feed.queue.put_nowait(None)  # nothing more will come
        else:
            self._feeds.add(feed)
        return feed

    def publish(self, update: T, *, last: bool = False) -> None:
        """Tell every reader of ``update``; ``last`` ends every feed after it."""
        for feed in self._feeds:
            feed.queue.put_nowait(update)
        if last:
            self.end()

    def end(self) -> None:
        for feed in list(self._feeds):
            feed.queue.put_nowait(None)
