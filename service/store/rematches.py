"""Where finished rooms' rematches are kept (service/rooms/rematches.py): on the database (SqlRematches, table
rematches, migration 0023: a proposal outlives a restart and is seen by whichever node holds the room next) or in
memory (MemoryRematches, for a store in memory, where nothing outlives the process anyway). A proposal is written with
its rematch.proposed events in one transaction (through the webhooks' outbox, which also makes them inbox items)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from service.store.models import RematchRow

OPEN, MADE, REFUSED = "open", "made", "refused"
WAITING, ACCEPTED, DECLINED, NO_ANSWER = "waiting", "accepted", "declined", "no_answer"


@dataclass(frozen=True)
class RematchRecord:
    """A finished room's rematch: who proposed it, each person's seat's answer (``answers``: seat -> waiting,
    accepted, declined, no_answer), its deadline, where it stands (open, made, refused), the new room once made and
    why there is none once refused (declined, no_answer)."""

    room_id: str
    proposed_by: int
    created_at: float
    deadline: float
    answers: Mapping[int, str] = field(default_factory=dict)
    seeds: Mapping[int, str] = field(default_factory=dict)  # each accepting seat's seed for the new room's fair deal
    status: str = OPEN
    new_room_id: str = ""
    reason: str = ""


def _record(row: Any) -> RematchRecord:
    return RematchRecord(
        room_id=row.room_id,
        proposed_by=row.proposed_by,
        created_at=row.created_at,
        deadline=row.deadline,
        answers={int(seat): answer for seat, answer in row.answers.items()},
        seeds={int(seat): seed for seat, seed in (row.seeds or {}).items()},
        status=row.status,
        new_room_id=row.new_room_id or "",
        reason=row.reason or "",
    )


def _values(record: RematchRecord) -> dict[str, Any]:
    return {
        "room_id": record.room_id,
        "proposed_by": record.proposed_by,
        "created_at": record.created_at,
        "deadline": record.deadline,
        "answers": {str(seat): answer for seat, answer in record.answers.items()},
        "seeds": {str(seat): seed for seat, seed in record.seeds.items()} or None,
        "status": record.status,
        "new_room_id": record.new_room_id,
        "reason": record.reason,
    }


class MemoryRematches:
    """Rematches in this process's memory (a store in memory)."""

    def __init__(self) -> None:
        self._kept: dict[str, RematchRecord] = {}

    async def get(self, room_id: str) -> RematchRecord | None:
        return self._kept.get(room_id)

    async def add(self, record: RematchRecord, events: Sequence[Any] = ()) -> bool:
        """Keep a new proposal (False: the room has one already)."""
        if record.room_id in self._kept:
            return False
        self._kept[record.room_id] = record
        return True

    async def save(self, record: RematchRecord) -> None:
        self._kept[record.room_id] = record

    async def open_ones(self) -> list[RematchRecord]:
        return [record for record in self._kept.values() if record.status == OPEN]


class SqlRematches:
    """Rematches on the database (table rematches, migration 0023); ``outbox`` writes a proposal's events in its
    transaction (None: no webhooks, no inbox)."""

    def __init__(self, engine: AsyncEngine, outbox: Any = None) -> None:
        self.engine = engine
        self.outbox = outbox

    async def get(self, room_id: str) -> RematchRecord | None:
        async with self.engine.connect() as connection:
            row = (await connection.execute(select(RematchRow).where(RematchRow.room_id == room_id))).first()
        return None if row is None else _record(row)

    async def add(self, record: RematchRecord, events: Sequence[Any] = ()) -> bool:
        try:
            async with self.engine.begin() as connection:
                await connection.execute(insert(RematchRow).values(**_values(record)))
                if events and self.outbox is not None:
                    await self.outbox.write(connection, list(events))
        except IntegrityError:
            return False
        return True

    async def save(self, record: RematchRecord) -> None:
        values = _values(record)
        del values["room_id"]
        async with self.engine.begin() as connection:
            await connection.execute(update(RematchRow).where(RematchRow.room_id == record.room_id).values(**values))

    async def open_ones(self) -> list[RematchRecord]:
        async with self.engine.connect() as connection:
            rows = await connection.execute(select(RematchRow).where(RematchRow.status == OPEN))
            return [_record(row) for row in rows]
