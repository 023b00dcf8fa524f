"""A journal that keeps everything in memory (``kickoff bench server --database-url memory``, and tests): the same
calls as the SQL journal, committed at once."""

from __future__ import annotations

from typing import Any

from service.errors import InvalidRequest
from service.store.records import LogEntry, RoomRecord, TournamentEntry, TournamentRecord

Row = tuple[Any, ...]  # a log entry as plain values (see MemoryJournal)


def _row(entry: LogEntry) -> Row:
    return (
        entry.version,
        entry.kind,
        entry.seat,
        entry.move,
        entry.request_id,
        entry.name,
        entry.nonce,
        entry.choice,
        tuple(entry.deadlines.items()),
        entry.time,
    )


def _entry(room_id: str, row: Row) -> LogEntry:
    version, kind, seat, move, request_id, name, nonce, choice, deadlines, time = row
    return LogEntry(room_id, version, kind, seat, move, request_id, name, nonce, choice, dict(deadlines), time)


class MemoryJournal:
    """Rooms, tournaments and their logs in dicts (in creation order). A room's log is kept as rows of plain values,
    tuples the garbage collector stops walking after it has seen them once (a log of objects and dicts grew every
    full collection's pause for as long as the process ran); :meth:`log` gives the entries."""

    def __init__(self) -> None:
        self.rooms: dict[str, RoomRecord] = {}
        self.entries: dict[str, list[Row]] = {}
        self.statuses: dict[str, str] = {}
        self.tournaments: dict[str, TournamentRecord] = {}
        self.tournament_entries: dict[str, list[TournamentEntry]] = {}
        self.tournament_statuses: dict[str, str] = {}

    async def create_room(self, record: RoomRecord) -> None:
        self.rooms[record.room_id] = record
        self.entries[record.room_id] = []
        self.statuses[record.room_id] = record.status

    def log(self, room_id: str) -> list[LogEntry]:
        """The room's log, in version order."""
        return [_entry(room_id, row) for row in self.entries.get(room_id, ())]

    async def append(self, entry: LogEntry, status: str) -> None:
        self.entries.setdefault(entry.room_id, []).append(_row(entry))
        self.statuses[entry.room_id] = status

    async def load_room(self, room_id: str) -> list[LogEntry]:
        return self.log(room_id)

    async def load_one(self, room_id: str) -> tuple[RoomRecord, list[LogEntry]] | None:
        record = self.rooms.get(room_id)
        return None if record is None else (record, self.log(room_id))

    async def list_rooms(self, game: str, status: str, size: int, after: str) -> tuple[list[str], str]:
        ids = [
            room_id
            for room_id, record in reversed(self.rooms.items())
            if (not game or record.game == game) and (not status or self.statuses[room_id] == status)
        ]
        return page_after(ids, size, after, self.rooms)

    async def create_tournament(self, record: TournamentRecord) -> None:
        self.tournaments[record.tournament_id] = record
        self.tournament_entries[record.tournament_id] = []
        self.tournament_statuses[record.tournament_id] = record.status

    async def append_tournament(self, entry: TournamentEntry, status: str) -> None:
        self.tournament_entries.setdefault(entry.tournament_id, []).append(entry)
        self.tournament_statuses[entry.tournament_id] = status

    async def load_tournament(self, tournament_id: str) -> list[TournamentEntry]:
        return list(self.tournament_entries.get(tournament_id, ()))

    async def load_one_tournament(self, tournament_id: str) -> tuple[TournamentRecord, list[TournamentEntry]] | None:
        record = self.tournaments.get(tournament_id)
        return None if record is None else (record, list(self.tournament_entries[tournament_id]))

    async def list_tournaments(self, status: str, size: int, after: str) -> tuple[list[str], str]:
        ids = [
            tournament_id
            for tournament_id in reversed(self.tournaments)
            if not status or self.tournament_statuses[tournament_id] == status
        ]
        return page_after(ids, size, after, self.tournaments)


def page_after(ids: list[str], size: int, after: str, known: dict[str, object]) -> tuple[list[str], str]:
    """The first ``size`` of ``ids`` (newest first) that are older than ``after`` (a page token: the last id of the page
    before; ``known`` holds every id in creation order), and the next page's token ('' on the last page)."""
    if after:
        rank = {item: number for number, item in enumerate(known)}
        if after not in rank:
            raise InvalidRequest("page_token is not one this server gave", code="bad_page_token", field="page_token")
        ids = [item for item in ids if rank[item] < rank[after]]
    found = ids[: size + 1]
    return found[:size], found[size - 1] if len(found) > size else ""
