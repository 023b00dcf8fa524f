"""The durable journal: rooms and their log lines, committed in groups.

Every room's loop awaits its own line, so no acknowledgment precedes its commit; lines from many rooms that arrive
while a commit is running share the next one (group commit), which is what keeps durable moves fast.

A group commit must not let one writer hurt the others, and a store that goes away for a moment must not hurt anyone
for longer than that. So:

- When the store refuses a group's data (a value it will not take), each write of the group is committed alone: the
  one the store refuses fails with StoreRefused, the others are stored as if nothing happened.
- When the store is away (connection lost, server restarting, disk full), the group is tried again with backoff for
  up to ``retry_seconds``; after that its writers get StoreUnavailable, and until a commit succeeds again later
  groups get one try each, so that callers hear at once rather than after the whole budget each time. A try that
  failed while committing may have committed: before trying again the journal asks the store whether it holds the
  group (one transaction: all of it or none), so nothing is written twice.

A writer that gets an error does not know whether its write is stored (StoreUnavailable) or knows it is not
(StoreRefused); either way it reads its log back (:meth:`SqlJournal.load_room`) before it goes on.

On a node of a cluster (``node_id``: several nodes on one PostgreSQL, see service/cluster), every line is fenced: it
is written only while the room's (or tournament's) lease names this node with the line's epoch, checked in the same
transaction under a share lock of the lease row, so a claim by another node waits for the commit and every later line
of this node is refused. A fenced-out writer gets RoomMoved (nothing of it is stored); the others of its group are
stored as if nothing happened. A room created here gets its lease (epoch 1) in the transaction that stores it, and a
finished room or tournament gives its lease up in the transaction of its last line.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.trace import Link, NonRecordingSpan
from sqlalchemy import and_, delete, insert, or_, select, tuple_, update
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, InternalError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from service.errors import InvalidRequest, RoomMoved, StoreRefused, StoreUnavailable
from service.store.models import LeaseRow, LogRow, RoomRow, SeatRow, SettingRow, TournamentLogRow, TournamentRow
from service.store.records import LogEntry, RoomRecord, TournamentEntry, TournamentRecord
from service.telemetry import Telemetry

log = logging.getLogger(__name__)

FINISHED = "finished"
RETRY_SECONDS = 2.0  # how long a group is tried again while the store is away, before its writers hear of it
BACKOFF = (0.05, 0.5)  # seconds between tries: the first, and the most


def transient(error: BaseException) -> bool:
    """Whether ``error`` says the store is away for now (rather than that it refuses what it was given)."""
    if isinstance(error, DBAPIError):
        # OperationalError: connection refused or lost, server shutting down, disk full, database locked;
        # InterfaceError: the driver's connection is gone; InternalError: a transaction the server aborted.
        return error.connection_invalidated or isinstance(error, OperationalError | InterfaceError | InternalError)
    return isinstance(error, OSError | TimeoutError)


@dataclass(eq=False)
class _Write:
    """One writer's change, committed with other writers' or alone: a row to insert (a room, a log line, a
    tournament, a tournament log line) and what it changes besides."""

    kind: str  # room, line, tournament, tournament_line
    row: dict[str, Any]
    seats: list[dict[str, Any]] = field(default_factory=list)  # a new room's seats
    seat_change: dict[str, Any] | None = None  # a join's or leave's seat
    status: str = ""  # the room's or tournament's status after the change
    future: asyncio.Future[None] | None = None
    context: trace.SpanContext | None = None  # the writer's span, to trace the commit

    @property
    def owner(self) -> str:
        return self.row["tournament_id"] if self.kind.startswith("tournament") else self.row["room_id"]

    @property
    def lease(self) -> tuple[str, str]:
        """The lease that fences this write: (kind, id) of its room or tournament."""
        return ("tournament" if self.kind.startswith("tournament") else "room", self.owner)


class SqlJournal:
    """Commits rooms and log lines to the database behind ``engine``, many lines per transaction (see the module
    docstring for what happens when the store fails)."""

    def __init__(
        self,
        engine: AsyncEngine,
        telemetry: Telemetry | None = None,
        *,
        retry_seconds: float = RETRY_SECONDS,
        node_id: str = "",
    ) -> None:
        self.engine = engine
        self.retry_seconds = retry_seconds
        self.node_id = node_id  # set: a node of a cluster, whose every line is fenced by its lease (module docstring)
        telemetry = telemetry or Telemetry()
        self._tracer = telemetry.tracer
        self._commit_duration = telemetry.instruments.commit_duration
        self._tracing = telemetry.tracing
        if telemetry.tracing:
            instrument_database(engine, telemetry)
        self._pending: list[_Write] = []
        self._wakeup: asyncio.Event | None = None
        self._flusher: asyncio.Task[None] | None = None
        self._stored_status: dict[str, str] = {}  # each room's and tournament's status as the store holds it
        self._down = False  # the last group could not be stored: the next gets one try, not the whole budget
        self.commits = 0  # transactions committed (lines / commits = the group size)
        self.lines = 0
        self.isolated = 0  # groups the store refused, committed again a write at a time

    async def create_room(self, record: RoomRecord) -> None:
        row = {
            "room_id": record.room_id,
            "game": record.game,
            "mode": record.mode,
            "seats": record.seats,
            "system_players": len(record.system_seats),
            "system_seats": list(record.system_seats),
            "system_player": record.system_player,
            "think_seconds": record.think_seconds,
            "options": dict(record.options),
            "seed": record.seed,
            "created_at": record.created_at,
            "status": record.status,
            "tournament_id": record.tournament_id or None,
            "tournament_game": record.tournament_game,
        }
        seats = [
            {
                "room_id": record.room_id,
                "seat": seat,
                "kind": "system" if seat in record.system_seats else "person",
                "taken": seat in record.system_seats,
                "name": f"{record.system_player} bot" if seat in record.system_seats else "",
            }
            for seat in range(record.seats)
        ]
        await self._submit(_Write("room", row, seats=seats, status=record.status))

    async def append(self, entry: LogEntry, status: str) -> None:
        row = {
            "room_id": entry.room_id,
            "version": entry.version,
            "kind": entry.kind,
            "seat": entry.seat,
            "move": entry.move,
            "request_id": entry.request_id,
            "name": entry.name,
            "nonce": entry.nonce,
            "choice": entry.choice,
            "deadline": min(entry.deadlines.values()) if entry.deadlines else None,
            "deadlines": {str(seat): deadline for seat, deadline in entry.deadlines.items()} or None,
            "created_at": entry.time,
            "epoch": entry.epoch,
        }
        change = None
        if entry.kind in ("join", "leave"):
            change = {"room_id": entry.room_id, "seat": entry.seat, "taken": entry.kind == "join", "name": entry.name}
        await self._submit(_Write("line", row, seat_change=change, status=status))

    async def create_tournament(self, record: TournamentRecord) -> None:
        row = {
            "tournament_id": record.tournament_id,
            "game": record.game,
            "mode": record.mode,
            "system_players": record.system_players,
            "system_player": record.system_player,
            "think_seconds": record.think_seconds,
            "options": dict(record.options),
            "created_at": record.created_at,
            "status": record.status,
        }
        await self._submit(_Write("tournament", row, status=record.status))

    async def append_tournament(self, entry: TournamentEntry, status: str) -> None:
        row = {
            "tournament_id": entry.tournament_id,
            "version": entry.version,
            "kind": entry.kind,
            "seat": entry.seat,
            "name": entry.name,
            "nonce": entry.nonce,
            "game_index": entry.game_index,
            "room_id": entry.room_id,
            "created_at": entry.time,
            "epoch": entry.epoch,
        }
        await self._submit(_Write("tournament_line", row, status=status))

    async def _submit(self, write: _Write) -> None:
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
            await self._wakeup.wait()
            self._wakeup.clear()
            writes, self._pending = self._pending, []
            if not writes:
                continue
            # The commit belongs to the first writer's trace and links to every other writer's.
            traced = [w.context for w in writes if w.context is not None and w.context.is_valid]
            parent = trace.set_span_in_context(NonRecordingSpan(traced[0])) if traced else Context()
            started = time.perf_counter()
            with self._tracer.start_as_current_span(
                "journal.commit",
                context=parent,
                links=[Link(c) for c in traced[1:]],
                attributes={
                    "kickoff.lines": sum(w.kind in ("line", "tournament_line") for w in writes),
                    "kickoff.writers": len(writes),
                },
                record_exception=False,  # a database error's text is for the log, with its values hidden
            ):
                try:
                    await self._commit(writes)
                except Exception:  # a bug: its writers hear of it (they read their logs back), the journal goes on
                    log.exception("the journal could not commit a group of %d writes", len(writes))
                    self._settle(writes, StoreUnavailable("the store could not take this change; try again"))
            self._commit_duration.record(time.perf_counter() - started)

    async def _commit(self, writes: list[_Write]) -> None:
        """Commit ``writes`` in one transaction and settle each writer's future (see the module docstring)."""
        deadline = time.monotonic() + (0.0 if self._down else self.retry_seconds)
        delay, most = BACKOFF
        uncertain = False  # a failed try may have committed
        while True:
            try:
                lost = await self._held_back(writes) if uncertain else None
                if lost is None:
                    lost = await self._write(writes)
                break
            except Exception as error:
                if not transient(error):
                    if len(writes) > 1:  # find the write the store refuses: the others must not pay for it
                        self.isolated += 1
                        for write in writes:
                            await self._commit([write])
                        return
                    log.error("the store refused a %s of %s: %s", writes[0].kind, writes[0].owner, error)
                    self._settle(writes, StoreRefused("the store refused this request's data"))
                    return
                uncertain = True
                if time.monotonic() >= deadline:
                    if not self._down:
                        log.warning("the store is unavailable: %s", error)
                    self._down = True
                    self._settle(
                        writes, StoreUnavailable("the store is unavailable; try again shortly", retry_after=1.0)
                    )
                    return
                await asyncio.sleep(delay)
                delay = min(delay * 2, most)
        if self._down:
            log.warning("the store is back")
        self._down = False
        self.commits += 1
        if lost:
            self._settle(lost, RoomMoved("another node owns this room now; try again (the call is routed there)"))
            writes = [write for write in writes if write not in lost]
        for write in writes:
            self._stored_status[write.owner] = write.status
            self.lines += write.kind == "line"
        self._settle(writes, None)

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
        """Whether the store holds ``write`` (and so the whole group that was committed with it)."""
        row = write.row
        if write.kind == "room":
            query = select(RoomRow.room_id).where(RoomRow.room_id == row["room_id"])
        elif write.kind == "line":
            query = select(LogRow.version).where(LogRow.room_id == row["room_id"], LogRow.version == row["version"])
        elif write.kind == "tournament":
            query = select(TournamentRow.tournament_id).where(TournamentRow.tournament_id == row["tournament_id"])
        else:
            query = select(TournamentLogRow.version).where(
                TournamentLogRow.tournament_id == row["tournament_id"], TournamentLogRow.version == row["version"]
            )
        async with self.engine.connect() as connection:
            return (await connection.execute(query)).first() is not None

    async def _write(self, writes: list[_Write]) -> list[_Write]:
        """Commit ``writes`` in one transaction; returns those its fence kept out (a node of a cluster only)."""
        async with self.engine.begin() as connection:
            lost = await self._fence(connection, writes) if self.node_id else []
            if lost:
                writes = [write for write in writes if write not in lost]
            await self._insert(connection, writes)
        return lost

    async def _fence(self, connection: Any, writes: list[_Write]) -> list[_Write]:
        """The lines of ``writes`` whose lease no longer names this node with the line's epoch. The leases checked
        are share-locked until the commit: a node claiming one waits for it, and then reads these lines."""
        lines = [write for write in writes if write.kind in ("line", "tournament_line")]
        if not lines:
            return []
        rows = await connection.execute(
            select(LeaseRow.kind, LeaseRow.target_id, LeaseRow.epoch)
            .where(
                LeaseRow.node_id == self.node_id,
                tuple_(LeaseRow.kind, LeaseRow.target_id).in_({w.lease for w in lines}),
            )
            .with_for_update(read=True)
        )
        epochs = {(kind, target): epoch for kind, target, epoch in rows}
        return [write for write in lines if epochs.get(write.lease) != write.row["epoch"]]

    async def _insert(self, connection: Any, writes: list[_Write]) -> None:
        by_kind: dict[str, list[_Write]] = {"room": [], "line": [], "tournament": [], "tournament_line": []}
        for write in writes:
            by_kind[write.kind].append(write)
        statuses = [w for w in by_kind["line"] if w.status != self._stored_status.get(w.owner)]
        tournament_statuses = [w for w in by_kind["tournament_line"] if w.status != self._stored_status.get(w.owner)]
        if by_kind["tournament"]:  # before their rooms, which name them
            await connection.execute(insert(TournamentRow), [w.row for w in by_kind["tournament"]])
        if by_kind["room"]:
            await connection.execute(insert(RoomRow), [w.row for w in by_kind["room"]])
            await connection.execute(insert(SeatRow), [seat for w in by_kind["room"] for seat in w.seats])
        for write in by_kind["line"]:
            if write.seat_change is not None:
                change = write.seat_change
                await connection.execute(
                    update(SeatRow)
                    .where(SeatRow.room_id == change["room_id"], SeatRow.seat == change["seat"])
                    .values(taken=change["taken"], name=change["name"])
                )
        if by_kind["line"]:
            await connection.execute(insert(LogRow), [w.row for w in by_kind["line"]])
        for write in statuses:
            await connection.execute(update(RoomRow).where(RoomRow.room_id == write.owner).values(status=write.status))
        if by_kind["tournament_line"]:
            await connection.execute(insert(TournamentLogRow), [w.row for w in by_kind["tournament_line"]])
        for write in tournament_statuses:
            await connection.execute(
                update(TournamentRow).where(TournamentRow.tournament_id == write.owner).values(status=write.status)
            )
        if self.node_id:
            await self._lease_changes(connection, by_kind)

    async def _lease_changes(self, connection: Any, by_kind: dict[str, list[_Write]]) -> None:
        """A node of a cluster: the leases of what it created (its own, epoch 1), and those of what finished (gone)."""
        made = [
            {"kind": "tournament", "target_id": w.owner, "tournament_id": "", "node_id": self.node_id}
            for w in by_kind["tournament"]
        ] + [
            {
                "kind": "room",
                "target_id": w.owner,
                "tournament_id": w.row["tournament_id"] or "",
                "node_id": self.node_id,
            }
            for w in by_kind["room"]
        ]
        if made:
            now = time.time()
            await connection.execute(insert(LeaseRow), [{**lease, "epoch": 1, "claimed_at": now} for lease in made])
        ended = {w.lease for w in by_kind["line"] + by_kind["tournament_line"] if w.status == FINISHED}
        if ended:
            await connection.execute(
                delete(LeaseRow).where(
                    LeaseRow.node_id == self.node_id, tuple_(LeaseRow.kind, LeaseRow.target_id).in_(ended)
                )
            )

    async def close(self) -> None:
        if self._flusher is not None:
            self._flusher.cancel()
        await self.engine.dispose()

    # -- reading back --------------------------------------------------------------------------------------------

    async def load(self) -> list[tuple[RoomRecord, list[LogEntry]]]:
        """Every unfinished room with its log, oldest room first (finished ones are loaded when asked for:
        :meth:`load_one`)."""
        unfinished = select(RoomRow.room_id).where(RoomRow.status != FINISHED)
        async with self.engine.connect() as connection:
            rooms = (
                await connection.execute(select(RoomRow).where(RoomRow.status != FINISHED).order_by(RoomRow.created_at))
            ).all()
            lines = (
                await connection.execute(
                    select(LogRow).where(LogRow.room_id.in_(unfinished)).order_by(LogRow.room_id, LogRow.version)
                )
            ).all()
        by_room: dict[str, list[LogEntry]] = {}
        for line in lines:
            by_room.setdefault(line.room_id, []).append(_entry(line))
        for room in rooms:
            self._stored_status[room.room_id] = room.status
        return [(_room_record(room), by_room.get(room.room_id, [])) for room in rooms]

    async def load_one(self, room_id: str) -> tuple[RoomRecord, list[LogEntry]] | None:
        """One room with its log, or None when the store has no such room."""
        async with self.engine.connect() as connection:
            row = (await connection.execute(select(RoomRow).where(RoomRow.room_id == room_id))).first()
        if row is None:
            return None
        self._stored_status[room_id] = row.status
        return _room_record(row), await self.load_room(room_id)

    async def list_rooms(self, game: str, status: str, size: int, after: str) -> tuple[list[str], str]:
        """The ids of ``size`` rooms, newest first, of ``game`` and in ``status`` (when given), older than the room
        ``after`` (a page token: the last id of the page before); and the next page's token ('' on the last page)."""
        query = select(RoomRow.room_id)
        if game:
            query = query.where(RoomRow.game == game)
        if status:
            query = query.where(RoomRow.status == status)
        return await self._page(query, RoomRow, RoomRow.room_id, size, after)

    async def _page(self, query: Any, table: Any, key: Any, size: int, after: str) -> tuple[list[str], str]:
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

    async def load_room(self, room_id: str) -> list[LogEntry]:
        """One room's log as stored, in version order."""
        async with self.engine.connect() as connection:
            lines = (
                await connection.execute(select(LogRow).where(LogRow.room_id == room_id).order_by(LogRow.version))
            ).all()
            status = (await connection.execute(select(RoomRow.status).where(RoomRow.room_id == room_id))).scalar()
        if status is not None:
            self._stored_status[room_id] = status
        return [_entry(line) for line in lines]

    async def load_tournaments(self) -> list[tuple[TournamentRecord, list[TournamentEntry]]]:
        """Every unfinished tournament with its log, oldest first (load the rooms first: the log names them; finished
        tournaments are loaded when asked for: :meth:`load_one_tournament`)."""
        unfinished = select(TournamentRow.tournament_id).where(TournamentRow.status != FINISHED)
        async with self.engine.connect() as connection:
            rows = (
                await connection.execute(
                    select(TournamentRow).where(TournamentRow.status != FINISHED).order_by(TournamentRow.created_at)
                )
            ).all()
            lines = (
                await connection.execute(
                    select(TournamentLogRow)
                    .where(TournamentLogRow.tournament_id.in_(unfinished))
                    .order_by(TournamentLogRow.tournament_id, TournamentLogRow.version)
                )
            ).all()
        by_tournament: dict[str, list[TournamentEntry]] = {}
        for line in lines:
            by_tournament.setdefault(line.tournament_id, []).append(_tournament_entry(line))
        for row in rows:
            self._stored_status[row.tournament_id] = row.status
        return [(_tournament_record(row), by_tournament.get(row.tournament_id, [])) for row in rows]

    async def load_one_tournament(self, tournament_id: str) -> tuple[TournamentRecord, list[TournamentEntry]] | None:
        """One tournament with its log, or None when the store has no such tournament."""
        async with self.engine.connect() as connection:
            row = (
                await connection.execute(select(TournamentRow).where(TournamentRow.tournament_id == tournament_id))
            ).first()
        if row is None:
            return None
        self._stored_status[tournament_id] = row.status
        return _tournament_record(row), await self.load_tournament(tournament_id)

    async def list_tournaments(self, status: str, size: int, after: str) -> tuple[list[str], str]:
        """As :meth:`list_rooms`, for tournaments."""
        query = select(TournamentRow.tournament_id)
        if status:
            query = query.where(TournamentRow.status == status)
        return await self._page(query, TournamentRow, TournamentRow.tournament_id, size, after)

    async def load_tournament(self, tournament_id: str) -> list[TournamentEntry]:
        """One tournament's log as stored, in version order."""
        async with self.engine.connect() as connection:
            lines = (
                await connection.execute(
                    select(TournamentLogRow)
                    .where(TournamentLogRow.tournament_id == tournament_id)
                    .order_by(TournamentLogRow.version)
                )
            ).all()
            status = (
                await connection.execute(
                    select(TournamentRow.status).where(TournamentRow.tournament_id == tournament_id)
                )
            ).scalar()
        if status is not None:
            self._stored_status[tournament_id] = status
        return [_tournament_entry(line) for line in lines]

    async def token_secret(self) -> bytes:
        """The seat-token secret, made once and kept, so tokens stay valid across restarts. Nodes starting together
        agree on one: the first insert wins, and the others read the winner's."""
        query = select(SettingRow.value).where(SettingRow.key == "token_secret")
        async with self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
        if row is not None:
            return bytes.fromhex(row.value)
        try:
            async with self.engine.begin() as connection:
                secret = secrets.token_bytes(32)
                await connection.execute(insert(SettingRow).values(key="token_secret", value=secret.hex()))
                return secret
        except IntegrityError:  # another node made it first
            async with self.engine.connect() as connection:
                return bytes.fromhex((await connection.execute(query)).scalar_one())


def _room_record(row: Any) -> RoomRecord:
    system_seats = row.system_seats  # (rooms stored before 0004 name no seats: system players took the last ones)
    if system_seats is None:
        system_seats = range(row.seats - row.system_players, row.seats)
    return RoomRecord(
        room_id=row.room_id,
        game=row.game,
        mode=row.mode,
        seats=row.seats,
        system_seats=tuple(system_seats),
        system_player=row.system_player,
        think_seconds=row.think_seconds,
        options=row.options,
        seed=row.seed,
        created_at=row.created_at,
        status=row.status,
        tournament_id=row.tournament_id or "",
        tournament_game=row.tournament_game,
    )


def _tournament_record(row: Any) -> TournamentRecord:
    return TournamentRecord(
        tournament_id=row.tournament_id,
        game=row.game,
        mode=row.mode,
        system_players=row.system_players,
        system_player=row.system_player,
        think_seconds=row.think_seconds,
        options=row.options,
        created_at=row.created_at,
        status=row.status,
    )


def _entry(line: Any) -> LogEntry:
    if line.deadlines is not None:
        deadlines = {int(seat): deadline for seat, deadline in line.deadlines.items()}
    else:  # a line written before clocks were kept per seat: one deadline for every acting seat
        deadlines = {} if line.deadline is None else {-1: line.deadline}
    return LogEntry(
        room_id=line.room_id,
        version=line.version,
        kind=line.kind,
        seat=line.seat,
        move=line.move,
        request_id=line.request_id,
        name=line.name,
        nonce=line.nonce,
        choice=line.choice,
        deadlines=deadlines,
        time=line.created_at,
        epoch=line.epoch,
    )


def _tournament_entry(line: Any) -> TournamentEntry:
    return TournamentEntry(
        tournament_id=line.tournament_id,
        version=line.version,
        kind=line.kind,
        seat=line.seat,
        name=line.name,
        nonce=line.nonce,
        game_index=line.game_index,
        room_id=line.room_id,
        time=line.created_at,
        epoch=line.epoch,
    )


_asyncpg_provider: Any = None


def instrument_database(engine: AsyncEngine, telemetry: Telemetry) -> None:
    """Database spans for one engine: SQLAlchemy's statements (SQL text only, never the values bound), and on
    PostgreSQL asyncpg's own calls. asyncpg's instrumentation patches the driver for the whole process, so it follows
    the newest provider (a server has one; tests make one per server)."""
    global _asyncpg_provider
    from opentelemetry.instrumentation.sqlalchemy.engine import EngineTracer

    tracer = telemetry.tracer_provider.get_tracer("opentelemetry.instrumentation.sqlalchemy")
    connections = telemetry.meter_provider.get_meter("opentelemetry.instrumentation.sqlalchemy").create_up_down_counter(
        "db.client.connections.usage", unit="connections"
    )
    EngineTracer(tracer, engine.sync_engine, connections)
    if engine.dialect.name == "postgresql" and _asyncpg_provider is not telemetry.tracer_provider:
        from opentelemetry.instrumentation.asyncpg import AsyncPGInstrumentor

        if _asyncpg_provider is not None:
            AsyncPGInstrumentor().uninstrument()
        AsyncPGInstrumentor().instrument(tracer_provider=telemetry.tracer_provider)
        _asyncpg_provider = telemetry.tracer_provider
