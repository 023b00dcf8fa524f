"""A journal that keeps everything in memory (``kickoff bench server --database-url memory``, and tests): the same
calls as the SQL journal, committed at once."""

from __future__ import annotations

from service.store.records import LogEntry, RoomRecord, TournamentEntry, TournamentRecord


class MemoryJournal:
    """Rooms, tournaments and their logs in dicts."""

    def __init__(self) -> None:
        self.rooms: dict[str, RoomRecord] = {}
        self.entries: dict[str, list[LogEntry]] = {}
        self.tournaments: dict[str, TournamentRecord] = {}
        self.tournament_entries: dict[str, list[TournamentEntry]] = {}

    async def create_room(self, record: RoomRecord) -> None:
        self.rooms[record.room_id] = record
        self.entries[record.room_id] = []

    async def append(self, entry: LogEntry, status: str) -> None:
        self.entries.setdefault(entry.room_id, []).append(entry)

    async def load_room(self, room_id: str) -> list[LogEntry]:
        return list(self.entries.get(room_id, ()))

    async def create_tournament(self, record: TournamentRecord) -> None:
        self.tournaments[record.tournament_id] = record
        self.tournament_entries[record.tournament_id] = []

    async def append_tournament(self, entry: TournamentEntry, status: str) -> None:
        self.tournament_entries.setdefault(entry.tournament_id, []).append(entry)

    async def load_tournament(self, tournament_id: str) -> list[TournamentEntry]:
        return list(self.tournament_entries.get(tournament_id, ()))
