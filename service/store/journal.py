"""The durable journal: rooms and their log lines, committed in groups.

Every room's loop awaits its own line, so no acknowledgment precedes its commit; lines from many rooms that arrive
while a commit is running share the next one (group commit), which is what keeps durable moves fast.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import secrets
import time
from typing import Any

from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.trace import Link, NonRecordingSpan
from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from service.rooms.room import LogEntry, Room
from service.store.models import LogRow, RoomRow, SeatRow, SettingRow, TournamentLogRow, TournamentRow
from service.telemetry import Telemetry
from service.tournaments.tournament import Tournament, TournamentEntry

log = logging.getLogger(__name__)


class SqlJournal:
    """Commits rooms and log lines to the database behind ``engine``, many lines per transaction."""

    def __init__(self, engine: AsyncEngine, telemetry: Telemetry | None = None) -> None:
        self.engine = engine
        telemetry = telemetry or Telemetry()
        self._tracer = telemetry.tracer
        self._commit_duration = telemetry.instruments.commit_duration
        self._tracing = telemetry.tracing
        if telemetry.tracing:
            instrument_database(engine, telemetry)
        self._contexts: list[trace.SpanContext] = []  # the span of each line's writer, to trace the commit
        self._rooms: list[dict[str, Any]] = []
        self._seats: list[dict[str, Any]] = []
        self._seat_changes: list[dict[str, Any]] = []
        self._lines: list[dict[str, Any]] = []
        self._statuses: dict[str, str] = {}
        self._tournaments: list[dict[str, Any]] = []
        self._tournament_lines: list[dict[str, Any]] = []
        self._tournament_statuses: dict[str, str] = {}
        self._written_tournament_status: dict[str, str] = {}
        self._waiting: list[asyncio.Future[None]] = []
        self._wakeup: asyncio.Event | None = None
        self._flusher: asyncio.Task[None] | None = None
        self._written_status: dict[str, str] = {}
        self.commits = 0  # transactions committed (lines / commits = the group size)
        self.lines = 0

    async def create_room(self, room: Room) -> None:
        self._rooms.append(
            {
                "room_id": room.room_id,
                "game": room.game.spec.name,
                "mode": room.mode,
                "seats": len(room.seats),
                "system_players": sum(1 for r in room.seats if r.kind == "system"),
                "system_player": room.system_player,
                "think_seconds": room.think_seconds,
                "options": room.options,
                "seed": room.seed,
                "created_at": room.created_at,
                "status": room.status,
                "tournament_id": room.tournament_id or None,
                "tournament_game": room.tournament_game,
            }
        )
        self._seats.extend(
            {"room_id": room.room_id, "seat": r.seat, "kind": r.kind, "taken": r.taken, "name": r.name}
            for r in room.seats
        )
        self._written_status[room.room_id] = room.status
        await self._wait()

    async def append(self, entry: LogEntry, status: str) -> None:
        self._lines.append(
            {
                "room_id": entry.room_id,
                "version": entry.version,
                "kind": entry.kind,
                "seat": entry.seat,
                "move": entry.move,
                "request_id": entry.request_id,
                "name": entry.name,
                "nonce": entry.nonce,
                "deadline": entry.deadline,
                "created_at": entry.time,
            }
        )
        if entry.kind in ("join", "leave"):
            self._seat_changes.append(
                {"room_id": entry.room_id, "seat": entry.seat, "taken": entry.kind == "join", "name": entry.name}
            )
        if self._written_status.get(entry.room_id) != status:
            self._statuses[entry.room_id] = status
            self._written_status[entry.room_id] = status
        await self._wait()

    async def create_tournament(self, tournament: Tournament) -> None:
        self._tournaments.append(
            {
                "tournament_id": tournament.tournament_id,
                "game": tournament.game,
                "mode": tournament.mode,
                "system_players": tournament.system_players,
                "system_player": tournament.system_player,
                "think_seconds": tournament.think_seconds,
                "options": tournament.options,
                "created_at": tournament.created_at,
                "status": tournament.status,
            }
        )
        self._written_tournament_status[tournament.tournament_id] = tournament.status
        await self._wait()

    async def append_tournament(self, entry: TournamentEntry, status: str) -> None:
        self._tournament_lines.append(
            {
                "tournament_id": entry.tournament_id,
                "version": entry.version,
                "kind": entry.kind,
                "seat": entry.seat,
                "name": entry.name,
                "nonce": entry.nonce,
                "game_index": entry.game_index,
                "room_id": entry.room_id,
                "created_at": entry.time,
            }
        )
        if self._written_tournament_status.get(entry.tournament_id) != status:
            self._tournament_statuses[entry.tournament_id] = status
            self._written_tournament_status[entry.tournament_id] = status
        await self._wait()

    async def _wait(self) -> None:
        future = asyncio.get_running_loop().create_future()
        self._waiting.append(future)
        if self._tracing:
            self._contexts.append(trace.get_current_span().get_span_context())
        if self._flusher is None or self._flusher.done():
            self._wakeup = asyncio.Event()
            self._flusher = asyncio.get_running_loop().create_task(
                self._flush_forever(),
                name="journal",
                context=contextvars.Context(),  # none of the caller's trace
            )
        assert self._wakeup is not None
        self._wakeup.set()
        await future

    async def _flush_forever(self) -> None:
        assert self._wakeup is not None
        while True:
            await self._wakeup.wait()
            self._wakeup.clear()
            rooms, seats, seat_changes = self._rooms, self._seats, self._seat_changes
            lines, statuses, waiting = self._lines, self._statuses, self._waiting
            tournaments, tournament_lines = self._tournaments, self._tournament_lines
            tournament_statuses, contexts = self._tournament_statuses, self._contexts
            self._rooms, self._seats, self._seat_changes = [], [], []
            self._lines, self._statuses, self._waiting = [], {}, []
            self._tournaments, self._tournament_lines, self._tournament_statuses = [], [], {}
            self._contexts = []
            if not waiting:
                continue
            # The commit belongs to the first writer's trace and links to every other writer's.
            traced = [c for c in contexts if c.is_valid]
            parent = trace.set_span_in_context(NonRecordingSpan(traced[0])) if traced else Context()
            started = time.perf_counter()
            try:
                with self._tracer.start_as_current_span(
                    "journal.commit",
                    context=parent,
                    links=[Link(c) for c in traced[1:]],
                    attributes={"kickoff.lines": len(lines) + len(tournament_lines), "kickoff.writers": len(waiting)},
                    record_exception=False,  # a database error's text is for the log, with its values hidden
                ):
                    await self._write(
                        rooms, seats, seat_changes, lines, statuses, tournaments, tournament_lines, tournament_statuses
                    )
            except Exception as error:  # nothing of this group is acknowledged; the rooms report the failure
                log.exception("journal commit failed")
                for future in waiting:
                    if not future.done():
                        future.set_exception(error)
                continue
            self._commit_duration.record(time.perf_counter() - started)
            self.commits += 1
            self.lines += len(lines)
            for future in waiting:
                if not future.done():
                    future.set_result(None)

    async def _write(
        self,
        rooms: list[dict[str, Any]],
        seats: list[dict[str, Any]],
        seat_changes: list[dict[str, Any]],
        lines: list[dict[str, Any]],
        statuses: dict[str, str],
        tournaments: list[dict[str, Any]],
        tournament_lines: list[dict[str, Any]],
        tournament_statuses: dict[str, str],
    ) -> None:
        async with self.engine.begin() as connection:
            if tournaments:  # before their rooms, which name them
                await connection.execute(insert(TournamentRow), tournaments)
            if rooms:
                await connection.execute(insert(RoomRow), rooms)
                await connection.execute(insert(SeatRow), seats)
            for change in seat_changes:
                await connection.execute(
                    update(SeatRow)
                    .where(SeatRow.room_id == change["room_id"], SeatRow.seat == change["seat"])
                    .values(taken=change["taken"], name=change["name"])
                )
            if lines:
                await connection.execute(insert(LogRow), lines)
            for room_id, status in statuses.items():
                await connection.execute(update(RoomRow).where(RoomRow.room_id == room_id).values(status=status))
            if tournament_lines:
                await connection.execute(insert(TournamentLogRow), tournament_lines)
            for tournament_id, status in tournament_statuses.items():
                await connection.execute(
                    update(TournamentRow).where(TournamentRow.tournament_id == tournament_id).values(status=status)
                )

    async def close(self) -> None:
        if self._flusher is not None:
            self._flusher.cancel()
        await self.engine.dispose()

    # -- reading back --------------------------------------------------------------------------------------------

    async def load(self) -> list[tuple[RoomRow, list[LogEntry]]]:
        """Every stored room with its log, oldest room first."""
        async with self.engine.connect() as connection:
            rooms = (await connection.execute(select(RoomRow).order_by(RoomRow.created_at))).all()
            lines = (await connection.execute(select(LogRow).order_by(LogRow.room_id, LogRow.version))).all()
        by_room: dict[str, list[LogEntry]] = {}
        for line in lines:
            by_room.setdefault(line.room_id, []).append(
                LogEntry(
                    room_id=line.room_id,
                    version=line.version,
                    kind=line.kind,
                    seat=line.seat,
                    move=line.move,
                    request_id=line.request_id,
                    name=line.name,
                    nonce=line.nonce,
                    deadline=line.deadline,
                    time=line.created_at,
                )
            )
        for room in rooms:
            self._written_status[room.room_id] = room.status
        return [(room, by_room.get(room.room_id, [])) for room in rooms]

    async def load_tournaments(self) -> list[tuple[TournamentRow, list[TournamentEntry]]]:
        """Every stored tournament with its log, oldest first (load the rooms first: the log names them)."""
        async with self.engine.connect() as connection:
            rows = (await connection.execute(select(TournamentRow).order_by(TournamentRow.created_at))).all()
            lines = (
                await connection.execute(
                    select(TournamentLogRow).order_by(TournamentLogRow.tournament_id, TournamentLogRow.version)
                )
            ).all()
        by_tournament: dict[str, list[TournamentEntry]] = {}
        for line in lines:
            by_tournament.setdefault(line.tournament_id, []).append(
                TournamentEntry(
                    tournament_id=line.tournament_id,
                    version=line.version,
                    kind=line.kind,
                    seat=line.seat,
                    name=line.name,
                    nonce=line.nonce,
                    game_index=line.game_index,
                    room_id=line.room_id,
                    time=line.created_at,
                )
            )
        for row in rows:
            self._written_tournament_status[row.tournament_id] = row.status
        return [(row, by_tournament.get(row.tournament_id, [])) for row in rows]

    async def token_secret(self) -> bytes:
        """The seat-token secret, made once and kept, so tokens stay valid across restarts."""
        async with self.engine.begin() as connection:
            row = (await connection.execute(select(SettingRow.value).where(SettingRow.key == "token_secret"))).first()
            if row is not None:
                return bytes.fromhex(row.value)
            secret = secrets.token_bytes(32)
            await connection.execute(insert(SettingRow).values(key="token_secret", value=secret.hex()))
            return secret


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
