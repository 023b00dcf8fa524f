"""The durable journal: actors (rooms, tournaments: service/store/kinds.py says how each is kept) and their log
lines, committed in groups.

Every actor's loop awaits its own line, so no acknowledgment precedes its commit; lines from many rooms that arrive
while a commit is running share the next one (group commit), which is what keeps durable moves fast.

A group commit must not let one writer hurt the others, and a store that goes away for a moment must not hurt anyone
for longer than that. So:

- When the store refuses a group's data (a value it will not take), each write of the group is committed alone: the
  one the store refuses fails with StoreRefused, the others are stored as if nothing happened.
- When the store is away (connection lost, server restarting, disk full), the group is tried again with backoff for
  up to ``retry_seconds``; after that its writers get StoreUnavailable, and until a commit succeeds again later
  groups get one try each, so that callers hear at once rather than after the whole budget each time. A try that
  failed while committing may have committed: before trying again the journal asks the store whether it holds the
  group (one transaction: all of it or none), so nothing is written twice. It asks for *this* write, not for a line
  at its version: on a node of a cluster another node may have claimed the room meanwhile and stored its own line
  there (a table's move when the clock ran out), which is not this one (the stored line must be this write's, column
  for column: its epoch, request id, move, time...).
- On PostgreSQL no try waits on the store for longer than ``try_seconds`` (a cut whose packets are dropped answers
  nothing, ever): a try that has not ended by then is asked to stop, and counts as one that may have committed; the
  next try starts only once it has ended (two tries in flight could both commit). So a writer hears within
  ``retry_seconds`` + ``try_seconds`` (``try_seconds`` alone once the store is known to be away), whatever the
  network does: 7 s by default, within a cluster's default lease (10 s). (A tighter bound was tried, half a lease:
  on a loaded machine with 2 s leases, healthy commits took longer than 1 s, and each try given up cost the store
  more work than it saved.)

A writer that gets an error does not know whether its write is stored (StoreUnavailable) or knows it is not
(StoreRefused); either way it reads its log back (:meth:`SqlJournal.load`) before it goes on.

On a node of a cluster (``node_id``: several nodes on one PostgreSQL, see service/cluster), every line is fenced: it
is written only while the room's (or tournament's) lease names this node with the line's epoch, checked in the same
transaction under a share lock of the lease row, so a claim by another node waits for the commit and every later line
of this node is refused. A fenced-out writer gets Moved (nothing of it is stored); the others of its group are
stored as if nothing happened. A room created here gets its lease (epoch 1) in the transaction that stores it, and a
finished room or tournament gives its lease up in the transaction of its last line. A tournament's game room is
fenced by the tournament's lease as it is created: a node that lost the tournament (and has not heard yet) makes no
room for it, and a node that claims the tournament after the room was stored claims the room with it.

The events a line causes (a player's turn began, a game ended: service/webhooks) are written by the ``outbox`` in
the line's transaction too, so a crash neither loses a delivery nor invents one.

On PostgreSQL, a group of plain room lines (moves: nothing but the log's row and the room's, no lease given up, no
rating, no delivery) is one statement, its own transaction (:data:`_ROOM_LINES`): the lines, fenced on a node of a
cluster, and their rooms' rows. The general transaction is five round trips (begin, the fence, the log, the rows,
commit), each with the driver's and SQLAlchemy's work around it: a node's CPU a commit of one line was 2.3 ms that
way and is 0.9 ms this way, of twenty lines 3.2 and 1.6 ms (docs/benchmarks.md, Several nodes).

A rated game's last line carries its result, and the ``rater`` (the players' store) changes the ratings of its players
in the same transaction: the change is part of the game's durable record, stored with it or not at all, and never made
again (a line is stored once). A rater that fails for a reason of its own (a bug) is logged and the game's end stored
unrated, rather than a game that can never end.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.trace import Link, NonRecordingSpan
from sqlalchemy import JSON, and_, bindparam, delete, false, insert, or_, select, text, tuple_, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from service.errors import InvalidRequest, Moved, StoreRefused, StoreUnavailable
from service.store.database import store_away
from service.store.kinds import KINDS
from service.store.models import LeaseRow, LogRow, PlayerRow, SettingRow
from service.telemetry import FollowingTracerProvider, Telemetry

log = logging.getLogger(__name__)

FINISHED = "finished"
RETRY_SECONDS = 2.0  # how long a group is tried again while the store is away, before its writers hear of it
TRY_SECONDS = 5.0  # on PostgreSQL, the longest one try of a commit (or the check after an uncertain one) may take
CLOSE_SLACK_SECONDS = 1.0  # close() waits this long past the retry budget for the group in hand
BACKOFF = (0.05, 0.5)  # seconds between tries: the first, and the most


def _unavailable() -> StoreUnavailable:
    """What a writer or a reader hears while the store is away (retriable)."""
    return StoreUnavailable("the store is unavailable; try again shortly", retry_after=1.0)


@contextlib.asynccontextmanager
async def _away_is_unavailable() -> AsyncIterator[None]:
    """A store that is away, in the block, is StoreUnavailable to the caller (any other error goes on as it is)."""
    try:
        yield
    except Exception as error:
        if store_away(error):
            raise _unavailable() from None
        raise


class Outbox(Protocol):
    """What writes the events a group's lines cause (webhook deliveries) in the group's transaction."""

    async def lines(self, connection: Any, lines: list[tuple[str, Any, str]]) -> None:
        """``lines``: each (kind, log entry, the actor's status after it)."""


@dataclass(eq=False)
class _Write:
    """One writer's change, committed with other writers' or alone: an actor created (``line`` False) or a line of
    its log, as the row to insert, for the actor of ``kind`` (service/store/kinds.py)."""

    kind: str  # the actor's kind: room, tournament
    line: bool
    row: dict[str, Any]
    source: Any  # the record or the log entry the row was made of
    status: str = ""  # the actor's status after the change
    future: asyncio.Future[None] | None = None
    context: trace.SpanContext | None = None  # the writer's span, to trace the commit
    # A created child's parent lease (kind, id, epoch) on a node of a cluster: the child is stored only while that
    # lease names this node with that epoch (a tournament's game room, made under the tournament's lease).
    parent_lease: tuple[str, str, int] | None = None
    # A room's line that changes nothing but its log and its row (no seat taken or left, no game ended: no lease given
    # up, no rating): on PostgreSQL such lines are stored by one statement (_ROOM_LINES). Decided once, as it is made.
    plain: bool = field(init=False)

    def __post_init__(self) -> None:
        self.plain = (
            self.line
            and self.kind == "room"
            and self.status != FINISHED
            and self.source.result is None
            and not KINDS["room"].changes(self.source)
            and not self.source.correspondence  # (its turn may be an inbox item, written in its transaction)
        )

    @property
    def owner(self) -> str:
        return self.source.actor_id

    @property
    def lease(self) -> tuple[str, str]:
        """The lease of this write's actor: (kind, id)."""
        return (self.kind, self.owner)

    @property
    def fence(self) -> tuple[str, str, int] | None:
        """The lease (kind, id, epoch) that must name this node for the write to be stored: a line's actor's, at
        the line's epoch; a created child's parent's; None for anything else."""
        if self.line:
            if self.kind == "room" and self.source.kind == "reveal":
                # A held deal's reveal comes after the game's end, which gave the room's lease up: it adds only what
                # was fixed when the room was made, and two nodes writing it at once meet on the log's key.
                return None
            return (self.kind, self.owner, self.row["epoch"])
        return self.parent_lease


@functools.cache
def _row_update(kind: Any, columns: tuple[str, ...]) -> Any:
    """UPDATE of ``kind``'s row ``b_actor`` setting ``columns`` from ``b_<column>`` (bound parameters named as
    kinds.py names those of its statements): executed with a list of rows."""
    key = getattr(kind.table, kind.key)
    return (
        update(kind.table)
        .where(key == bindparam("b_actor"))
        .values({column: bindparam(f"b_{column}") for column in columns})
    )


# The columns of a room's log line, each with its type in PostgreSQL, as the one-statement commit sends them: one
# array a column, so the statement is the same text (and the same prepared statement) for a group of any size.
_LOG_COLUMNS = {
    "room_id": "varchar",
    "version": "integer",
    "kind": "varchar",
    "seat": "integer",
    "move": "text",
    "request_id": "varchar",
    "name": "varchar",
    "nonce": "varchar",
    "choice": "varchar",
    "player_id": "varchar",
    "origin": "varchar",
    "seed": "varchar",
    "deadline": "float8",
    "deadlines": "json",
    "created_at": "float8",
    "epoch": "integer",
}
assert set(_LOG_COLUMNS) == set(LogRow.__table__.columns.keys()), "a column of room_log the statement below misses"


def _room_lines(fenced: bool) -> Any:
    """The one statement that stores a group of plain room lines on PostgreSQL (see the module docstring): the
    lines (``fenced``: only those whose lease still names this node, ``:node_id``, with the line's epoch, the lease
    rows share-locked until the statement ends, as :meth:`SqlJournal._fence` does), then the rows of the rooms whose
    lines were kept (their turns and wake-up when ``set_turns``, their status when given). Returns the lines stored,
    (room_id, version)."""
    arrays = ", ".join(
        f"CAST(:l_{column} AS {'text' if kind == 'json' else kind}[])" for column, kind in _LOG_COLUMNS.items()
    )
    names = ", ".join(_LOG_COLUMNS)
    values = ", ".join(f"CAST({column} AS json)" if kind == "json" else column for column, kind in _LOG_COLUMNS.items())
    fence = (
        " JOIN leases ON leases.kind = 'room' AND leases.target_id = line.room_id"
        " AND leases.node_id = :node_id AND leases.epoch = line.epoch FOR SHARE OF leases"
        if fenced
        else ""
    )
    return text(
        f"WITH line AS (SELECT * FROM unnest({arrays}) AS line({names})), "
        f"kept AS MATERIALIZED (SELECT line.* FROM line{fence}), "
        f"stored AS (INSERT INTO room_log ({names}) SELECT {values} FROM kept RETURNING room_id, version), "
        "changed AS (UPDATE rooms SET "
        "turns = CASE WHEN r.set_turns THEN CAST(r.turns AS json) ELSE rooms.turns END, "
        "wake_at = CASE WHEN r.set_turns THEN r.wake_at ELSE rooms.wake_at END, "
        "status = COALESCE(r.status, rooms.status) "
        "FROM unnest(CAST(:r_room_id AS varchar[]), CAST(:r_set_turns AS boolean[]), CAST(:r_turns AS text[]), "
        "CAST(:r_wake_at AS float8[]), CAST(:r_status AS varchar[])) AS r(room_id, set_turns, turns, wake_at, status) "
        "WHERE rooms.room_id = r.room_id AND r.room_id IN (SELECT room_id FROM kept)) "
        "SELECT room_id, version FROM stored"
    )


_ROOM_LINES = {fenced: _room_lines(fenced) for fenced in (False, True)}


@functools.cache
def _identity(log: Any) -> tuple[str, ...]:
    """The columns of a log table that say which write a stored line is (every one but those of JSON values, whose
    form a store may change: a room's deadlines by seat, which follow from the others)."""
    return tuple(column.name for column in log.__table__.columns if not isinstance(column.type, JSON))


def _stray_ended(attempt: asyncio.Future[Any]) -> None:
    """A try given up on ended at last (its writers heard long ago): take its outcome, so nothing is logged as never
    retrieved."""
    if not attempt.cancelled():
        attempt.exception()


def _stopping() -> StoreUnavailable:
    """What a write hears once the journal is closing (the server is stopping): retriable, as StoreUnavailable is."""
    return StoreUnavailable("the server is stopping; try again shortly")


class SqlJournal:
    """Commits actors and their log lines to the database behind ``engine``, many lines per transaction (see the
    module docstring for what happens when the store fails); every kind of actor as service/store/kinds.py says."""

    def __init__(
        self,
        engine: AsyncEngine,
        telemetry: Telemetry | None = None,
        *,
        retry_seconds: float = RETRY_SECONDS,
        try_seconds: float | None = TRY_SECONDS,
        node_id: str = "",
        rater: Callable[[Any, list[Any]], Awaitable[None]] | None = None,
        outbox: Outbox | None = None,
    ) -> None:
        self.engine = engine
        self.rater = rater  # changes the ratings of rated games ending in a transaction (the module docstring)
        # writes the webhook deliveries the lines cause, in their transaction (service/webhooks/outbox.py)
        self.outbox = outbox
        self.retry_seconds = retry_seconds
        # the longest a try may wait on the store (module docstring); SQLite, a file on this machine, has no network
        # to lose, and its writers wait their turn in the process for up to WRITE_WAIT: unbounded there
        self.try_seconds = try_seconds if engine.dialect.name != "sqlite" else None
        self.node_id = node_id  # set: a node of a cluster, whose every line is fenced by its lease (module docstring)
        telemetry = telemetry or Telemetry()
        self._tracer = telemetry.tracer
        self._commit_duration = telemetry.instruments.commit_duration
        self._store_unavailable = telemetry.instruments.store_unavailable
        self._tracing = telemetry.tracing
        if telemetry.tracing:
            instrument_database(engine, telemetry)
        self._pending: list[_Write] = []
        self._wakeup: asyncio.Event | None = None
        self._flusher: asyncio.Task[None] | None = None
        self._closing = False  # close() began: no new write is taken, those in hand are committed first
        self._stored_status: dict[tuple[str, str], str] = {}  # each actor's status as the store holds it
        self._down = False  # the last group could not be stored: the next gets one try, not the whole budget
        self.commits = 0  # transactions committed (lines / commits = the group size)
        self.lines = 0  # rooms' lines committed
        self.isolated = 0  # groups the store refused, committed again a write at a time

    async def create(self, kind: str, record: Any, parent_lease: tuple[str, str, int] | None = None) -> None:
        """Store a new actor of ``kind`` (on a node of a cluster, with its lease: epoch 1, this node's). A child of
        another actor is created under its ``parent_lease`` (kind, id, epoch), fenced as a line is: Moved when that
        lease no longer names this node with that epoch (the node lost the parent: nothing is stored)."""
        row = KINDS[kind].record_row(record)
        await self._submit(_Write(kind, False, row, record, record.status, parent_lease=parent_lease))

    async def append(self, kind: str, entry: Any, status: str) -> None:
        """Store the next line of an actor's log; ``status`` is the actor's after it."""
        await self._submit(_Write(kind, True, KINDS[kind].line_row(entry), entry, status))

    async def _submit(self, write: _Write) -> None:
        if self._closing:
            raise _stopping()
        write.future = asyncio.get_running_loop().create_future()
        if self._tracing:
            write.context = trace.get_current_span().get_span_context()
        self._pending.append(write)
        if self._flusher is None or self._flusher.done():
            self._wakeup = asyncio.Event()
            self._flusher = asyncio.get_running_loop().create_task(
                self._flush_forever(),
                name="journal",
                context=contextvars.Context(),  # none of the caller's trace
            )
        assert self._wakeup is not None
        self._wakeup.set()
        await write.future

    async def _flush_forever(self) -> None:
        assert self._wakeup is not None
        while True:
            if not self._pending:
                if self._closing:
                    return
                await self._wakeup.wait()
            self._wakeup.clear()
            writes, self._pending = self._pending, []
            if not writes:
                continue
            # The commit belongs to the first sampled writer's trace and links to every other's; a group that no
            # traced writer asked for (an untraced room's move) is committed without a span, at no SDK cost.
            traced = [w.context for w in writes if w.context is not None and w.context.trace_flags.sampled]
            started = time.perf_counter()
            with (
                self._tracer.start_as_current_span(
                    "journal.commit",
                    context=trace.set_span_in_context(NonRecordingSpan(traced[0]), Context()),
                    links=[Link(c) for c in traced[1:]],
                    attributes={
                        "kickoff.lines": sum(w.line for w in writes),
                        "kickoff.writers": len(writes),
                    },
                    record_exception=False,  # a database error's text is for the log, with its values hidden
                )
                if traced
                else contextlib.nullcontext()
            ):
                try:
                    await self._commit_group(writes)
                except asyncio.CancelledError:  # (close() gave up on a store that held the commit up)
                    self._settle(writes, _stopping())
                    raise
                except Exception:  # a bug: its writers hear of it (they read their logs back), the journal goes on
                    log.exception("the journal could not commit a group of %d writes", len(writes))
                    self._settle(writes, StoreUnavailable("the store could not take this change; try again"))
            self._commit_duration.record(time.perf_counter() - started)

    async def _commit_group(self, writes: list[_Write]) -> None:
        """Commit a group: its plain room lines in one statement (PostgreSQL: :data:`_ROOM_LINES`) beside the rest
        in a transaction of their own, at the same time. Splitting a group is safe because an actor has one line in
        flight at a time (it awaits each): no room has a line on both sides, and each side is retried, or found
        stored, on its own."""
        plain = [write for write in writes if write.plain] if self._one_statement() else []
        if not plain or len(plain) == len(writes):
            await self._commit(writes)
            return
        rest = [write for write in writes if not write.plain]
        for outcome in await asyncio.gather(self._commit(rest), self._commit(plain), return_exceptions=True):
            if isinstance(outcome, BaseException):
                raise outcome

    async def _commit(self, writes: list[_Write]) -> None:
        """Commit ``writes`` in one transaction and settle each writer's future (see the module docstring)."""
        started = time.monotonic()
        retry_until = started + (0.0 if self._down else self.retry_seconds)
        # the latest a writer hears: a try may begin just before retry_until and take up to try_seconds
        give_up = retry_until + (self.try_seconds or 0.0)
        delay, most = BACKOFF
        uncertain = False  # a failed try may have committed
        while True:
            attempt = asyncio.ensure_future(self._try(writes, uncertain))
            error = await self._wait(attempt, give_up)
            if attempt.done() and error is None:
                lost = attempt.result()
                break
            if attempt.done() and error is not None and not store_away(error):
                if len(writes) > 1:  # find the write the store refuses: the others must not pay for it
                    self.isolated += 1
                    for write in writes:
                        await self._commit([write])
                    return
                what = "line" if writes[0].line else "creation"
                log.error("the store refused a %s of %s %s: %s", what, writes[0].kind, writes[0].owner, error)
                self._settle(writes, StoreRefused("the store refused this request's data"))
                return
            uncertain = True
            if not attempt.done() or time.monotonic() >= retry_until:
                if not self._down:
                    log.warning("the store is unavailable: %s", error)
                self._down = True
                self._store_unavailable.add(len(writes))
                self._settle(writes, _unavailable())
                return
            await asyncio.sleep(delay)
            delay = min(delay * 2, most)
        if self._down:
            log.warning("the store is back")
        self._down = False
        self.commits += 1
        if lost:
            self._settle(lost, Moved("another node owns this room now; try again (the call is routed there)"))
            writes = [write for write in writes if write not in lost]
        for write in writes:
            self._stored_status[write.lease] = write.status
            self.lines += write.line and write.kind == "room"
        self._settle(writes, None)

    async def _try(self, writes: list[_Write], uncertain: bool) -> list[_Write]:
        """One try: commit ``writes`` (after an ``uncertain`` try, unless the store holds them already); returns the
        writes the fence kept out."""
        lost = await self._held_back(writes) if uncertain else None
        if lost is None:
            lost = await self._write(writes)
        return lost

    async def _wait(self, attempt: asyncio.Future[list[_Write]], give_up: float) -> BaseException | None:
        """Wait for a try to end, for at most ``try_seconds`` (and never past ``give_up``); returns its error (None:
        it committed). A try that has not ended by then is cancelled and waited for until ``give_up``: a cancelled
        try may still have committed, or may still commit (the driver may wait on a socket that answers nothing), so
        no try begins beside it. One still running at ``give_up`` is left to end by itself (its writers hear the store
        is unavailable, and read their logs back)."""
        try:
            return await self._ended(attempt, give_up)
        except asyncio.CancelledError:  # (close() gave up on the commit: so does the try)
            attempt.cancel()
            raise

    async def _ended(self, attempt: asyncio.Future[list[_Write]], give_up: float) -> BaseException | None:
        if self.try_seconds is None:
            await asyncio.wait({attempt})
        else:
            await asyncio.wait({attempt}, timeout=max(0.0, min(self.try_seconds, give_up - time.monotonic())))
            if not attempt.done():
                attempt.cancel()
                await asyncio.wait({attempt}, timeout=max(0.0, give_up - time.monotonic()))
                if not attempt.done():
                    attempt.add_done_callback(_stray_ended)
                    return TimeoutError(f"the store did not answer a commit within {self.try_seconds:g} s")
        if attempt.cancelled():
            return TimeoutError(f"the store did not answer a commit within {self.try_seconds:g} s")
        return attempt.exception()

    @staticmethod
    def _settle(writes: list[_Write], error: Exception | None) -> None:
        for write in writes:
            if write.future is not None and not write.future.done():
                if error is None:
                    write.future.set_result(None)
                else:
                    write.future.set_exception(error)

    async def _held_back(self, writes: list[_Write]) -> list[_Write] | None:
        """After a try that may have committed: None when the store holds none of ``writes`` (the group was not
        committed: write it again), else the writes it does not hold (the group was committed without them: fenced
        out)."""
        held = [await self._holds(write) for write in writes]
        if not any(held):
            return None
        return [write for write, stored in zip(writes, held, strict=True) if not stored]

    async def _holds(self, write: _Write) -> bool:
        """Whether the store holds ``write`` (and so the whole group that was committed with it): an actor it created,
        or a line that is this write's, not merely one at its version (another node may have stored its own there:
        the module docstring)."""
        kind = KINDS[write.kind]
        key = write.owner
        if not write.line:
            query = select(getattr(kind.table, kind.key)).where(getattr(kind.table, kind.key) == key)
            async with self.engine.connect() as connection:
                return (await connection.execute(query)).first() is not None
        log_key = getattr(kind.log, kind.key)
        columns = _identity(kind.log)
        query = select(*(kind.log.__table__.c[name] for name in columns)).where(
            log_key == key, kind.log.version == write.row["version"]
        )
        async with self.engine.connect() as connection:
            stored = (await connection.execute(query)).first()
        if stored is None:
            return False
        return all(stored[i] == write.row.get(name) for i, name in enumerate(columns))

    async def _write(self, writes: list[_Write]) -> list[_Write]:
        """Commit ``writes`` in one transaction; returns those its fence kept out (a node of a cluster only)."""
        if self._one_statement() and all(write.plain for write in writes):
            return await self._write_room_lines(writes)
        async with self.engine.begin() as connection:
            lost = await self._fence(connection, writes) if self.node_id else []
            if lost:
                writes = [write for write in writes if write not in lost]
            await self._insert(connection, writes)
        return lost

    def _one_statement(self) -> bool:
        """Whether plain room lines are stored by the one statement of :data:`_ROOM_LINES`: on PostgreSQL, while no
        webhook endpoint wants any event (the outbox writes its deliveries in the lines' transaction)."""
        if self.engine.dialect.name != "postgresql":
            return False
        return self.outbox is None or not getattr(self.outbox, "wanted", True)

    async def _write_room_lines(self, writes: list[_Write]) -> list[_Write]:
        """Store plain room lines in one statement (:data:`_ROOM_LINES`); returns those its fence kept out."""
        rows = [write.row for write in writes]
        parameters: dict[str, Any] = {
            f"l_{column}": [json.dumps(row[column]) for row in rows]
            if kind == "json"
            else [row[column] for row in rows]
            for column, kind in _LOG_COLUMNS.items()
        }
        rooms = self._row_values(KINDS["room"], writes)
        parameters["r_room_id"] = list(rooms)
        parameters["r_set_turns"] = [("turns" in values) for values in rooms.values()]
        parameters["r_turns"] = [json.dumps(values.get("turns")) for values in rooms.values()]
        parameters["r_wake_at"] = [values.get("wake_at") for values in rooms.values()]
        parameters["r_status"] = [values.get("status") for values in rooms.values()]
        if self.node_id:
            parameters["node_id"] = self.node_id
        async with self.engine.connect() as connection:
            autocommit = await connection.execution_options(isolation_level="AUTOCOMMIT")
            result = await autocommit.execute(_ROOM_LINES[bool(self.node_id)], parameters)
            stored = {(room_id, version) for room_id, version in result}
        return [write for write in writes if (write.owner, write.row["version"]) not in stored]

    def _row_values(self, kind: Any, lines: list[_Write]) -> dict[str, dict[str, Any]]:
        """Each actor's row as the last of its ``lines`` leaves it (a room's: who must act now, its status when it
        changes): the columns to set, by actor (those with nothing to change left out)."""
        current: dict[str, dict[str, Any]] = {}
        for write in lines:
            values = current.setdefault(write.owner, {})
            values.update(kind.current(write.source))
            if write.status != self._stored_status.get(write.lease):
                values["status"] = write.status
        return {owner: values for owner, values in current.items() if values}

    async def _fence(self, connection: Any, writes: list[_Write]) -> list[_Write]:
        """The writes of ``writes`` whose fence (:attr:`_Write.fence`: a line's lease, a child's parent's) no longer
        names this node with its epoch. The leases checked are share-locked until the commit: a node claiming one
        waits for it, and then reads these lines (and, claiming a tournament, takes the game rooms made under it)."""
        fenced = [(write, fence) for write in writes if (fence := write.fence) is not None]
        if not fenced:
            return []
        rows = await connection.execute(
            select(LeaseRow.kind, LeaseRow.target_id, LeaseRow.epoch)
            .where(
                LeaseRow.node_id == self.node_id,
                tuple_(LeaseRow.kind, LeaseRow.target_id).in_({(kind, target) for _, (kind, target, _) in fenced}),
            )
            .with_for_update(read=True)
        )
        epochs = {(kind, target): epoch for kind, target, epoch in rows}
        return [write for write, (kind, target, epoch) in fenced if epochs.get((kind, target)) != epoch]

    async def _insert(self, connection: Any, writes: list[_Write]) -> None:
        created = [w for w in writes if not w.line]
        for kind in KINDS.values():  # (parents first: a room names its tournament)
            mine = [w for w in created if w.kind == kind.name]
            if mine:
                await connection.execute(insert(kind.table), [w.row for w in mine])
                more: dict[Any, list[dict[str, Any]]] = {}
                for write in mine:
                    for table, rows in kind.rows_created(write.source):
                        more.setdefault(table, []).extend(rows)
                for table, rows in more.items():
                    await connection.execute(insert(table), rows)
        for kind in KINDS.values():
            lines = [w for w in writes if w.line and w.kind == kind.name]
            if not lines:
                continue
            for write in lines:
                for statement, parameters in kind.changes(write.source):
                    await connection.execute(statement, parameters)
            await connection.execute(insert(kind.log), [w.row for w in lines])
            # Each actor's row as its last line leaves it (a room's: who must act now), one statement for all the
            # rows of the group that change the same columns: a statement a line cost more than the line itself.
            by_columns: dict[tuple[str, ...], list[dict[str, Any]]] = {}
            for owner, values in self._row_values(kind, lines).items():
                by_columns.setdefault(tuple(sorted(values)), []).append(
                    {"b_actor": owner, **{f"b_{column}": value for column, value in values.items()}}
                )
            for columns, rows in by_columns.items():
                await connection.execute(_row_update(kind, columns), rows)
        if self.rater is not None:
            results = [w.source.result for w in writes if w.line and getattr(w.source, "result", None) is not None]
            rated = [result for result in results if result.rated]
            if rated:
                await self._rate(connection, rated)
        if self.outbox is not None:
            lines = [(w.kind, w.source, w.status) for w in writes if w.line]
            if lines:
                await self.outbox.lines(connection, lines)
        if self.node_id:
            await self._lease_changes(connection, writes)

    async def _rate(self, connection: Any, results: list[Any]) -> None:
        """The ratings of games ending in this transaction, in a savepoint of it: a rater's own failure (not the
        store's) leaves the games' ends to be stored, unrated, and is logged."""
        assert self.rater is not None
        savepoint = await connection.begin_nested()
        try:
            await self.rater(connection, results)
        except Exception as error:
            await savepoint.rollback()
            if store_away(error):
                raise
            log.exception("the ratings of %d games could not be changed; they end unrated", len(results))
        else:
            await savepoint.commit()

    async def _lease_changes(self, connection: Any, writes: list[_Write]) -> None:
        """A node of a cluster: the leases of what it created (its own, epoch 1), and those of what finished (gone)."""
        made = [
            {
                "kind": w.kind,
                "target_id": w.owner,
                "tournament_id": KINDS[w.kind].lease_group(w.source),
                "node_id": self.node_id,
            }
            for w in writes
            if not w.line
        ]
        if made:
            now = time.time()
            await connection.execute(insert(LeaseRow), [{**lease, "epoch": 1, "claimed_at": now} for lease in made])
        ended = {w.lease for w in writes if w.line and w.status == FINISHED}
        if ended:
            await connection.execute(
                delete(LeaseRow).where(
                    LeaseRow.node_id == self.node_id, tuple_(LeaseRow.kind, LeaseRow.target_id).in_(ended)
                )
            )

    async def close(self) -> None:
        """Stop taking writes, commit those in hand (their writers hear how it went), then close the engine. A
        commit the store holds up is given up after ``retry_seconds`` and a little more, its writers told the store
        is unavailable. (Cancelling a commit midway instead left its connection to close after the engine's pool was
        gone, and the process could hang on it at exit.)"""
        self._closing = True
        flusher = self._flusher
        if flusher is not None and not flusher.done():
            assert self._wakeup is not None
            self._wakeup.set()
            await asyncio.wait({flusher}, timeout=self.retry_seconds + (self.try_seconds or 0.0) + CLOSE_SLACK_SECONDS)
            if not flusher.done():
                flusher.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await flusher
            self._settle(self._pending, _stopping())
        await self.engine.dispose()

    # -- reading back --------------------------------------------------------------------------------------------

    async def load_live(self, kind: str, wake_before: float | None = None) -> list[tuple[Any, list[Any]]]:
        """Every unfinished actor of ``kind`` with its log, oldest first (finished ones are loaded when asked for:
        :meth:`load_one`; load rooms before tournaments, whose logs name them). ``wake_before``: leave out the
        resting ones, those whose row says they need not be in memory before then (``wake_at`` later: a
        correspondence room that rests; the wake sweep, :meth:`due`, loads it in time)."""
        stored = KINDS[kind]
        key, log_key = getattr(stored.table, stored.key), getattr(stored.log, stored.key)
        live = stored.table.status != FINISHED
        wake_at = getattr(stored.table, "wake_at", None)
        if wake_before is not None and wake_at is not None:
            live = and_(live, or_(wake_at.is_(None), wake_at <= wake_before))
        unfinished = select(key).where(live)
        async with self.engine.connect() as connection:
            rows = (await connection.execute(select(stored.table).where(live).order_by(stored.table.created_at))).all()
            lines = (
                await connection.execute(
                    select(stored.log).where(log_key.in_(unfinished)).order_by(log_key, stored.log.version)
                )
            ).all()
        by_actor: dict[str, list[Any]] = {}
        for line in lines:
            by_actor.setdefault(getattr(line, stored.key), []).append(stored.entry_of(line))
        for row in rows:
            self._stored_status[(kind, getattr(row, stored.key))] = row.status
        return [(stored.record_of(row), by_actor.get(getattr(row, stored.key), [])) for row in rows]

    async def due(self, kind: str, before: float | None, **filters: str) -> list[str]:
        """The ids of the unfinished actors of ``kind`` whose row says when they must be in memory (``wake_at``: a
        correspondence room's first deadline, a solo room's time to end as abandoned), at ``before`` or earlier
        (None: whenever), soonest first, whose columns have the values ``filters`` give (``mode="solo"``); on a node
        of a cluster only those whose lease names this node (another node wakes its own)."""
        stored = KINDS[kind]
        table = stored.table
        wake_at = getattr(table, "wake_at", None)
        if wake_at is None:
            return []
        key = getattr(table, stored.key)
        query = select(key).where(table.status != FINISHED, wake_at.is_not(None))
        if before is not None:
            query = query.where(wake_at <= before)
        for column, value in filters.items():
            query = query.where(getattr(table, column) == value)
        if self.node_id:
            query = query.join(LeaseRow, and_(LeaseRow.kind == kind, LeaseRow.target_id == key)).where(
                LeaseRow.node_id == self.node_id
            )
        async with self.engine.connect() as connection:
            return list((await connection.execute(query.order_by(wake_at, key))).scalars())

    async def rest(self, kind: str, actor_id: str, wake_at: float) -> None:
        """Say on an unfinished actor's row that it rests until ``wake_at`` (a solo tournament going to rest: its next
        line clears it). A store that is away: StoreUnavailable (it then stays in memory)."""
        stored = KINDS[kind]
        table = stored.table
        query = (
            update(table)
            .where(getattr(table, stored.key) == actor_id, table.status != FINISHED)
            .values(wake_at=wake_at)
        )
        async with _away_is_unavailable(), self.engine.begin() as connection:
            await connection.execute(query)

    async def find_request(self, kind: str, request_key: str) -> tuple[str, str] | None:
        """The actor of ``kind`` created for a request (its key: service/actors/requests.py), as (its id, the
        request's parameters' hash); None when none was. A store that is away: StoreUnavailable."""
        stored = KINDS[kind]
        table = stored.table
        query = select(getattr(table, stored.key), table.request_hash).where(table.request_key == request_key)
        async with _away_is_unavailable(), self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
        return None if row is None else (row[0], row[1] or "")

    async def tournament_game(self, tournament_id: str, index: int) -> str | None:
        """The id of the room made for game ``index`` of a tournament, None when none was. One lookup through the
        rooms' index of their tournament."""
        table = KINDS["room"].table
        query = select(table.room_id).where(table.tournament_id == tournament_id, table.tournament_game == index)
        async with self.engine.connect() as connection:
            return (await connection.execute(query.limit(1))).scalar()

    async def deleted_among(self, player_ids: Sequence[str]) -> bool:
        """Whether any of ``player_ids`` deleted themselves (a finished room another node kept in memory shows their
        names: it is read back then). One lookup by primary key."""
        async with self.engine.connect() as connection:
            query = select(PlayerRow.player_id).where(
                PlayerRow.player_id.in_(list(player_ids)), PlayerRow.deleted_at.is_not(None)
            )
            return (await connection.execute(query.limit(1))).first() is not None

    async def load_one(self, kind: str, actor_id: str) -> tuple[Any, list[Any]] | None:
        """One actor with its log, or None when the store has no such actor."""
        stored = KINDS[kind]
        async with self.engine.connect() as connection:
            row = (
                await connection.execute(select(stored.table).where(getattr(stored.table, stored.key) == actor_id))
            ).first()
        if row is None:
            return None
        self._stored_status[(kind, actor_id)] = row.status
        return stored.record_of(row), await self.load(kind, actor_id)

    async def load(self, kind: str, actor_id: str) -> list[Any]:
        """One actor's log as stored, in version order."""
        stored = KINDS[kind]
        async with self.engine.connect() as connection:
            lines = (
                await connection.execute(
                    select(stored.log).where(getattr(stored.log, stored.key) == actor_id).order_by(stored.log.version)
                )
            ).all()
            status = (
                await connection.execute(
                    select(stored.table.status).where(getattr(stored.table, stored.key) == actor_id)
                )
            ).scalar()
        if status is not None:
            self._stored_status[(kind, actor_id)] = status
        return [stored.entry_of(line) for line in lines]

    async def page(self, kind: str, size: int, after: str, **filters: str) -> tuple[list[str], str]:
        """The ids of ``size`` actors of ``kind``, newest first, matching ``filters`` (column: value, where the value
        is given), older than the actor ``after`` (a page token: the last id of the page before); and the next page's
        token ('' on the last page)."""
        stored = KINDS[kind]
        table, key = stored.table, getattr(stored.table, stored.key)
        query = select(key)
        if stored.hidden:
            query = query.where(getattr(table, stored.hidden) == false())
        for column, value in filters.items():
            if column not in stored.filters:
                raise ValueError(f"{kind}s are not listed by {column}")
            if value:
                query = query.where(getattr(table, column) == value)
        async with self.engine.connect() as connection:
            if after:
                anchor = (await connection.execute(select(table.created_at).where(key == after))).scalar()
                if anchor is None:
                    raise InvalidRequest(
                        "page_token is not one this server gave", code="bad_page_token", field="page_token"
                    )
                query = query.where(or_(table.created_at < anchor, and_(table.created_at == anchor, key < after)))
            query = query.order_by(table.created_at.desc(), key.desc()).limit(size + 1)
            found = list((await connection.execute(query)).scalars())
        return found[:size], found[size - 1] if len(found) > size else ""

    async def token_secret(self) -> bytes:
        """The seat-token secret (:func:`token_secret`)."""
        return await token_secret(self.engine)


async def token_secret(engine: AsyncEngine) -> bytes:
    """The seat-token secret, made once and kept, so tokens stay valid across restarts. Nodes starting together agree
    on one: the first insert wins, and the others read the winner's. (A function of the engine: the composition root
    reads it before the journal exists, for the collaborators built before it.)"""
    query = select(SettingRow.value).where(SettingRow.key == "token_secret")
    async with engine.connect() as connection:
        row = (await connection.execute(query)).first()
    if row is not None:
        return bytes.fromhex(row.value)
    try:
        async with engine.begin() as connection:
            secret = secrets.token_bytes(32)
            await connection.execute(insert(SettingRow).values(key="token_secret", value=secret.hex()))
            return secret
    except IntegrityError:  # another node made it first
        async with engine.connect() as connection:
            return bytes.fromhex((await connection.execute(query)).scalar_one())


_asyncpg_provider: Any = None


def instrument_database(engine: AsyncEngine, telemetry: Telemetry) -> None:
    """Database spans for one engine: SQLAlchemy's statements (SQL text only, never the values bound), and on
    PostgreSQL asyncpg's own calls. asyncpg's instrumentation patches the driver for the whole process, so it follows
    the newest provider (a server has one; tests make one per server)."""
    global _asyncpg_provider
    from opentelemetry.instrumentation.sqlalchemy.engine import EngineTracer

    # (Following tracers: a statement is traced inside a sampled trace only, so an untraced room's commit costs no
    # SDK call; asyncpg's instrumentation gets a following provider for the same reason.)
    following = FollowingTracerProvider(telemetry.tracer_provider)
    tracer = following.get_tracer("opentelemetry.instrumentation.sqlalchemy")
    connections = telemetry.meter_provider.get_meter("opentelemetry.instrumentation.sqlalchemy").create_up_down_counter(
        "db.client.connections.usage", unit="connections"
    )
    EngineTracer(tracer, engine.sync_engine, connections)
    if engine.dialect.name == "postgresql" and _asyncpg_provider is not telemetry.tracer_provider:
        from opentelemetry.instrumentation.asyncpg import AsyncPGInstrumentor

        if _asyncpg_provider is not None:
            AsyncPGInstrumentor().uninstrument()
        AsyncPGInstrumentor().instrument(tracer_provider=following)
        _asyncpg_provider = telemetry.tracer_provider
