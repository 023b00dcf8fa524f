"""A toy durable actor kind, a counter, to prove the actor runtime generic (as the Relay game, tests/relay, proves the
room service generic): nothing in service/ knows it, yet it is stored through the SQL journal, rebuilt by the runtime
after a restart or a failed commit, and numbered, stored and told by the same :meth:`Actor.change` as rooms and
tournaments.

Its store is two tables of its own (on a metadata of its own, made by :func:`create_tables`) and one entry in the
store's :data:`service.store.kinds.KINDS`, plugged in for the test by :func:`plugged` (the journal knows a kind by that
entry alone: service/store/kinds.py).

A counter counts up to its ``limit`` and then finishes; adding nothing or less is refused (nothing is stored).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Float, ForeignKey, Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from service.actors.actor import Actor, ActorHandler, Change, Host, Journal
from service.actors.directory import Directory
from service.errors import InvalidRequest
from service.store.kinds import KINDS, Kind

KIND = "counter"
OPEN, FINISHED = "open", "finished"


@dataclass(frozen=True)
class Keyed:
    """What the store keys a counter's rows by."""

    counter_id: str

    @property
    def actor_id(self) -> str:
        return self.counter_id


@dataclass(frozen=True)
class CounterRecord(Keyed):
    limit: int
    status: str = OPEN
    created_at: float = 0.0


@dataclass(frozen=True)
class CounterEntry(Keyed):
    """One log line: ``amount`` was added."""

    version: int
    amount: int
    time: float = 0.0
    epoch: int = 0


@dataclass(frozen=True)
class Counted:
    """What a reader is told: the counter's total at a version."""

    version: int
    total: int


class Base(DeclarativeBase):
    pass


class CounterRow(Base):
    __tablename__ = "test_counters"

    counter_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    limit: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[float] = mapped_column(Float)


class CounterLogRow(Base):
    __tablename__ = "test_counter_log"

    counter_id: Mapped[str] = mapped_column(String(32), ForeignKey("test_counters.counter_id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    amount: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float)
    epoch: Mapped[int] = mapped_column(Integer)


COUNTERS = Kind(
    KIND,
    CounterRow,
    CounterLogRow,
    "counter_id",
    record_row=lambda record: {
        "counter_id": record.counter_id,
        "limit": record.limit,
        "status": record.status,
        "created_at": record.created_at,
    },
    record_of=lambda row: CounterRecord(row.counter_id, row.limit, row.status, row.created_at),
    line_row=lambda entry: {
        "counter_id": entry.counter_id,
        "version": entry.version,
        "amount": entry.amount,
        "created_at": entry.time,
        "epoch": entry.epoch,
    },
    entry_of=lambda row: CounterEntry(row.counter_id, row.version, row.amount, row.created_at, row.epoch),
)


@contextmanager
def plugged() -> Iterator[None]:
    """The counters are a kind the store knows while this lasts."""
    KINDS[KIND] = COUNTERS
    try:
        yield
    finally:
        del KINDS[KIND]


async def create_tables(engine: Any) -> None:
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.create_all)


class Counter(ActorHandler):
    """The handler: its state is a total; its one command adds to it."""

    def __init__(self, record: CounterRecord, journal: Journal, *, epoch: int = 0, host: Host | None = None) -> None:
        self._record = record
        self.counter_id = record.counter_id
        self.limit = record.limit
        self.actor: Actor[Counted] = Actor(
            kind=KIND, actor_id=record.counter_id, handler=self, journal=journal, host=host, epoch=epoch
        )
        self.reset()

    def reset(self) -> None:
        self.total = 0
        self.status = OPEN

    def record(self) -> CounterRecord:
        return replace(self._record, status=self.status)

    async def add(self, amount: int) -> int:
        """Add ``amount`` (more than nothing: InvalidRequest otherwise); the version it made."""
        return await self.actor.call(lambda: self._add(amount))

    async def _add(self, amount: int) -> int:
        if amount <= 0 or self.status == FINISHED:
            raise InvalidRequest("a counter counts up, until its limit")
        self.total += amount
        if self.total >= self.limit:
            self.status = FINISHED
        total, status = self.total, self.status

        def change(version: int) -> Change[Counted]:
            entry = None if self.actor.replaying else CounterEntry(self.counter_id, version, amount, 0.0, self.epoch)
            return Change(entry, status, Counted(version, total), last=status == FINISHED)

        return (await self.actor.change(change)).update.version

    async def replay(self, entry: CounterEntry) -> None:
        await self._add(entry.amount)

    def resume(self) -> None: ...


class Counters(Directory[Counter]):
    """The counters this server holds."""

    kind = KIND

    def build(self, record: CounterRecord, epoch: int) -> Counter:
        return Counter(record, self.journal, epoch=epoch, host=self)

    async def create(self, counter_id: str, limit: int) -> Counter:
        counter = Counter(CounterRecord(counter_id, limit), self.journal, epoch=self.runtime.created_epoch, host=self)
        await self.created(counter)
        return counter
