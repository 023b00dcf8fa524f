"""A journal that keeps everything in memory (``kickoff bench server --database-url memory``, and tests): the same
calls as the SQL journal, committed at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.errors import InvalidRequest, StoreRefused
from service.store.kinds import KINDS
from service.store.records import LogEntry

Row = tuple[Any, ...]  # a room's log entry as plain values (see MemoryJournal)


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
        entry.seed,
    )


def _entry(room_id: str, row: Row) -> LogEntry:
    version, kind, seat, move, request_id, name, nonce, choice, deadlines, time, seed = row
    return LogEntry(
        room_id, version, kind, seat, move, request_id, name, nonce, choice, dict(deadlines), time, seed=seed
    )


# How a kind's log lines are kept: packed into plain values and back (a kind not named keeps its entries as they are).
PACKED: dict[str, tuple[Callable[[Any], Any], Callable[[str, Any], Any]]] = {"room": (_row, _entry)}


class MemoryJournal:
    """Actors and their logs in dicts by kind (each in creation order). A room's log is kept as rows of plain values,
    tuples the garbage collector stops walking after it has seen them once (a log of objects and dicts grew every
    full collection's pause for as long as the process ran); :meth:`log` gives the entries."""

    def __init__(self) -> None:
        self.records: dict[str, dict[str, Any]] = {kind: {} for kind in KINDS}
        self.logs: dict[str, dict[str, list[Any]]] = {kind: {} for kind in KINDS}
        self.statuses: dict[str, dict[str, str]] = {kind: {} for kind in KINDS}
        # each actor's current values, as the SQL journal keeps them on its row (a room's turns and wake_at)
        self.current: dict[str, dict[str, dict[str, Any]]] = {kind: {} for kind in KINDS}
        # the actors created for requests (with a request id), by kind and the request's key
        self.requests: dict[str, dict[str, str]] = {kind: {} for kind in KINDS}

    async def create(self, kind: str, record: Any, parent_lease: tuple[str, str, int] | None = None) -> None:
        actor_id = record.actor_id
        request_key = getattr(record, "request_key", "")
        if request_key:
            if request_key in self.requests[kind]:
                raise StoreRefused("the store refused this request's data")  # (as a database's unique key refuses it)
            self.requests[kind][request_key] = actor_id
        self.records[kind][actor_id] = record
        self.logs[kind][actor_id] = []
        self.statuses[kind][actor_id] = record.status

    def log(self, kind: str, actor_id: str) -> list[Any]:
        """An actor's log, in version order."""
        lines = self.logs[kind].get(actor_id, ())
        packed = PACKED.get(kind)
        return [packed[1](actor_id, line) for line in lines] if packed else list(lines)

    async def append(self, kind: str, entry: Any, status: str) -> None:
        actor_id = entry.actor_id
        packed = PACKED.get(kind)
        self.logs[kind].setdefault(actor_id, []).append(packed[0](entry) if packed else entry)
        self.statuses[kind][actor_id] = status
        values = KINDS[kind].current(entry)
        if values:
            self.current[kind].setdefault(actor_id, {}).update(values)

    async def load(self, kind: str, actor_id: str) -> list[Any]:
        return self.log(kind, actor_id)

    async def find_request(self, kind: str, request_key: str) -> tuple[str, str] | None:
        """As SqlJournal.find_request."""
        actor_id = self.requests[kind].get(request_key)
        if actor_id is None:
            return None
        return actor_id, self.records[kind][actor_id].request_hash

    async def tournament_game(self, tournament_id: str, index: int) -> str | None:
        """As SqlJournal.tournament_game."""
        return next(
            (
                room_id
                for room_id, record in self.records["room"].items()
                if record.tournament_id == tournament_id and record.tournament_game == index
            ),
            None,
        )

    async def load_one(self, kind: str, actor_id: str) -> tuple[Any, list[Any]] | None:
        record = self.records[kind].get(actor_id)
        return None if record is None else (record, self.log(kind, actor_id))

    async def load_live(self, kind: str, wake_before: float | None = None) -> list[tuple[Any, list[Any]]]:
        statuses = self.statuses[kind]
        return [
            (record, self.log(kind, actor_id))
            for actor_id, record in self.records[kind].items()
            if statuses[actor_id] != "finished"
            and (wake_before is None or not self._wakes_after(kind, actor_id, wake_before))
        ]

    def _wake_at(self, kind: str, actor_id: str) -> float | None:
        wake_at: float | None = self.current[kind].get(actor_id, {}).get("wake_at")
        return wake_at

    def _wakes_after(self, kind: str, actor_id: str, when: float) -> bool:
        wake_at = self._wake_at(kind, actor_id)
        return wake_at is not None and wake_at > when

    async def rest(self, kind: str, actor_id: str, wake_at: float) -> None:
        """As SqlJournal.rest."""
        if self.statuses[kind].get(actor_id) not in (None, "finished"):
            self.current[kind].setdefault(actor_id, {})["wake_at"] = wake_at

    async def due(self, kind: str, before: float | None, **filters: str) -> list[str]:
        """As SqlJournal.due (no leases here)."""
        statuses = self.statuses[kind]
        found = [
            (wake_at, actor_id)
            for actor_id, record in self.records[kind].items()
            if statuses[actor_id] != "finished"
            and all(getattr(record, column) == value for column, value in filters.items())
            and (wake_at := self._wake_at(kind, actor_id)) is not None
            and (before is None or wake_at <= before)
        ]
        return [actor_id for _, actor_id in sorted(found)]

    async def page(self, kind: str, size: int, after: str, **filters: str) -> tuple[list[str], str]:
        records, statuses = self.records[kind], self.statuses[kind]
        wanted = {column: value for column, value in filters.items() if value}
        ids = [
            actor_id
            for actor_id, record in reversed(records.items())
            if not getattr(record, "unlisted", False)
            and all(
                (statuses[actor_id] if column == "status" else getattr(record, column)) == value
                for column, value in wanted.items()
            )
        ]
        return page_after(ids, size, after, records)


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
