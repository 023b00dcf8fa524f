"""Live feeds of a versioned history (a room's updates, a tournament's): a reader starts after any version it saw,
gets the kept updates at once and every later one as it is published, exactly once, and the feed ends with the
history.

A feed is only a position in the history its owner keeps anyway, so a reader that falls behind costs no memory: it
reads on from where it was. The owner keeps only the most recent updates in memory (:class:`History`); a reader that
asks for older ones (resuming from an old version, or fallen that far behind) gets them read back from the store
(``Readers(read_back=...)``). What a feed does buffer is bounded: the messages of its own that a play stream sends (the
answers to refused moves) wait in at most ``limit`` places, and one more ends the feed with ResourceExhausted (a client
that sends and never reads is disconnected, not buffered for).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from service.errors import InvalidRequest, ResourceExhausted, StoreUnavailable

T = TypeVar("T")
STREAM_BUFFER = 64  # a feed's own messages that may wait for its reader
HISTORY_KEPT = 256  # a room's most recent updates kept in memory (older ones are read back from the store)


class Evicted(LookupError):
    """The update asked for is older than those kept in memory."""


class History(Generic[T]):
    """A versioned history whose update ``v`` is ``history[v - 1]``, keeping at most about ``keep`` recent updates in
    memory (None: all). ``len()`` counts every update ever appended; asking for one no longer kept raises
    :class:`Evicted`. Iterating gives the kept ones."""

    def __init__(self, keep: int | None = HISTORY_KEPT) -> None:
        self.keep = keep
        self._items: list[T] = []
        self.first = 0  # the index of the oldest update kept

    def __len__(self) -> int:
        return self.first + len(self._items)

    def __getitem__(self, index: int) -> T:
        if index < 0:
            index += len(self)
        if index < self.first:
            raise Evicted(index)
        return self._items[index - self.first]

    def __iter__(self) -> Iterator[T]:
        return iter(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def append(self, item: T) -> None:
        items = self._items
        items.append(item)
        if self.keep is not None and len(items) >= 2 * self.keep:  # trimmed in halves: amortised O(1) an update
            dropped = len(items) - self.keep
            del items[:dropped]
            self.first += dropped

    def emptied(self) -> History[T]:
        """A history as long as this one that keeps none of its updates in memory (each is read back from the store
        when asked). Readers of this one read on in it: it lives as long as they do."""
        empty: History[T] = History(self.keep)
        empty.first = len(self)
        return empty

    def truncate(self, length: int) -> None:
        """Keep only the first ``length`` updates (the store holds no more)."""
        if length < self.first:
            self._items.clear()
            self.first = length
        else:
            del self._items[length - self.first :]


class Feed(Generic[T]):
    """One reader's feed; iterate it, or call :meth:`next`. See the module docstring."""

    def __init__(
        self,
        readers: Readers[T],
        history: Sequence[T],
        position: int,
        limit: int,
        ended: bool,
        ends_at: Callable[[T], Exception | None] | None = None,
    ) -> None:
        self._readers = readers
        self._ends_at = ends_at  # an update the reader must not get: the feed raises what this returns instead
        self._history = history
        self._position = position
        self._limit = limit
        self._older: deque[T] = deque()  # updates read back from the store, before the history's kept ones
        self._own: deque[tuple[int, Any]] = deque()  # the feed's own messages, each with the history's length then
        self._wakeup = asyncio.Event()
        self._read_own: asyncio.Event | None = None  # (set when an own message is read: :meth:`until_fewer`)
        self._ended = ended  # the history is over: nothing more will be published
        self._stopped = False
        self._overflowed = False
        self._rewritten = False  # the history was cut back under the reader (see Readers.rewritten)
        self._failure: Exception | None = None  # raised once everything published was read (see Readers.fail)
        self._cut: Exception | None = None  # the feed ended at an update its reader must not get (``ends_at``)

    def __aiter__(self) -> AsyncIterator[T]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[T]:
        try:
            while (update := await self.next()) is not None:
                yield update
        finally:
            self.close()

    async def next(self, *, until_stopped: bool = False) -> Any:
        """The next update or message of the feed's own, in the order they were published and sent, waiting for one;
        None once the history has ended and all of it was read (or, with ``until_stopped``, once :meth:`stop` was
        called and everything before it was read). Raises ResourceExhausted once more own messages waited than the
        feed may hold."""
        while True:
            if self._cut is not None:
                raise self._cut
            if self._rewritten:
                raise StoreUnavailable("the history was read back from the store: reconnect with the last version seen")
            if self._overflowed:
                raise ResourceExhausted(
                    f"the client did not read its stream: over {self._limit} answers waited; reconnect with the "
                    "last version seen",
                    code="slow_reader",
                )
            if self._older:
                update = self._older.popleft()
                return update if self._ends_at is None else self._checked(update)
            own = self._own
            if own and own[0][0] <= self._position:  # sent once the updates before it were published: its turn
                return self._own_read()
            if self._position < len(self._history):
                try:
                    update = self._history[self._position]
                except Evicted:  # older than what is kept: read back from the store, up to the oldest kept
                    self._older.extend(await self._readers.older(self._position))
                    self._position += len(self._older)
                    continue
                self._position += 1
                return update if self._ends_at is None else self._checked(update)
            if own:
                return self._own_read()
            if self._failure is not None:
                raise self._failure
            if self._stopped or (self._ended and not until_stopped):
                return None
            self._wakeup.clear()
            await self._wakeup.wait()

    def _own_read(self) -> Any:
        message = self._own.popleft()[1]
        if self._read_own is not None:
            self._read_own.set()
        return message

    async def until_fewer(self, most: int) -> None:
        """Wait until fewer than ``most`` messages of the feed's own wait for its reader (a sender that must not
        overflow it: the chat a room stream carries)."""
        while len(self._own) >= most:
            if self._read_own is None:
                self._read_own = asyncio.Event()
            self._read_own.clear()
            await self._read_own.wait()

    def _checked(self, update: T) -> T:
        ends_at = self._ends_at
        if ends_at is not None and (error := ends_at(update)) is not None:
            self._cut = error  # (for good: every later read raises it again)
            self._older.clear()
            self._own.clear()
            self.close()
            raise error
        return update

    def send(self, message: Any) -> None:
        """Queue a message of the feed's own for its reader (see the module docstring for the bound)."""
        if len(self._own) >= self._limit:
            self._overflowed = True
            self._own.clear()
        else:
            self._own.append((len(self._history), message))  # (read after the updates published before it)
        self._wakeup.set()

    def stop(self) -> None:
        """End the feed once everything published and sent before now has been read."""
        self._stopped = True
        self._wakeup.set()

    def close(self) -> None:
        self._readers._feeds.discard(self)

    def _wake(self, ended: bool) -> None:
        self._ended = self._ended or ended
        self._wakeup.set()


class Readers(Generic[T]):
    """Everyone following one history whose update ``v`` is kept at index ``v - 1``. ``read_back(start)`` gives the
    updates from index ``start`` up to the oldest one kept, read back from the store."""

    def __init__(
        self, limit: int = STREAM_BUFFER, read_back: Callable[[int], Awaitable[list[T]]] | None = None
    ) -> None:
        self._feeds: set[Feed[T]] = set()
        self.limit = limit
        self._read_back = read_back

    @property
    def open_feeds(self) -> int:
        """How many feeds are open (a room with a reader never rests)."""
        return len(self._feeds)

    async def older(self, start: int) -> list[T]:
        if self._read_back is None:
            raise Evicted(start)
        older = await self._read_back(start)
        if not older:
            raise Evicted(start)
        return older

    def open(
        self,
        history: Sequence[T],
        version: int,
        after_version: int,
        finished: bool,
        ends_at: Callable[[T], Exception | None] | None = None,
    ) -> Feed[T]:
        """A feed of every update of ``history`` after ``after_version`` (0 to the history's ``version``): the kept
        ones now, then each one published. ``history`` is read in place: its owner appends, and publishes. The feed
        ends, raising what ``ends_at`` returns, at the first update for which it returns an error (that update is
        not read)."""
        if after_version < 0 or after_version > version:
            raise InvalidRequest(f"after_version must be 0-{version}", field="after_version")
        feed = Feed(self, history, after_version, self.limit, finished, ends_at)
        if not finished:
            self._feeds.add(feed)
        return feed

    def publish(self, *, last: bool = False) -> None:
        """Tell every reader that the history grew; ``last``: and that it is over."""
        for feed in self._feeds:
            feed._wake(last)
        if last:
            self._feeds.clear()

    def end(self) -> None:
        """The history is over for every reader (the game ended, or the server stops)."""
        self.publish(last=True)

    def fail(self, error: Exception) -> None:
        """The history goes on elsewhere (the room moved to another node): every reader reads what was published
        here, then gets ``error`` (a client comes back with the last version it saw)."""
        for feed in self._feeds:
            feed._failure = error
            feed._wake(True)
        self._feeds.clear()

    def rewritten(self) -> None:
        """The history was cut back to fewer updates than readers may have had (a store that lost what it had
        confirmed): every reader is told to come back with the last version it saw."""
        for feed in self._feeds:
            feed._rewritten = True
            feed._wakeup.set()
        self._feeds.clear()


@dataclass(frozen=True)
class Audience(Generic[T]):
    """What an actor's readers follow: its updates kept in memory (``history``) and the readers' own buffers
    (``readers``). By default every update is kept and the buffers are the defaults' size."""

    history: History[T] = field(default_factory=lambda: History(None))
    readers: Readers[T] = field(default_factory=Readers)
