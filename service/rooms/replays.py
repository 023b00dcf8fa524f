"""A room's past, rebuilt from its log: the updates older than those a room keeps in memory (a reader resuming from far
back), and a game's replay step by step with the table after each. Both replay the store's log in a room made aside
(with every update kept), never in the live one, which goes on meanwhile.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from service.actors.feed import Evicted, History
from service.rooms.updates import FINISHED, Published, RoomLimits, Surroundings, Update

if TYPE_CHECKING:
    from service.actors.actor import Actor
    from service.store.records import LogEntry, RoomRecord


class Replayed(Protocol):
    """What a room's past is rebuilt from: a room (service/rooms/room.py), made again aside as ``type(room)(record,
    surroundings)`` to replay its log."""

    room_id: str
    actor: Actor[Update]
    surroundings: Surroundings
    limits: RoomLimits
    updates: History[Update]
    published: Published
    state: Any  # the game's state (None: not started)
    seats: Any  # its SeatRecords
    deal: Any  # its fair deal (None: a room made before them)

    def record(self) -> RoomRecord: ...


Room = TypeVar("Room", bound=Replayed)  # (the room made aside is of the live one's class)


@dataclass(frozen=True)
class ReplayStep:
    """One update of a replay and the table after it: what a spectator saw (None before the game began) and, once
    the game is over, what each seat saw, by seat (every hand shown; empty before the end), and the move the update
    applied as its log line holds it (None before the end, and for an update that applied none)."""

    update: Update
    view: Any
    hands: tuple[Any, ...] = ()
    move: ReplayMove | None = None


@dataclass(frozen=True)
class ReplayMove:
    """A move as a room's log holds it: its seat, its wire text, and whether the table made it (its clock ran out)."""

    seat: int
    text: str
    by_table: bool


MOVES = ("move", "table", "stand_in")  # the log lines that apply a move


async def _aside(room: Room, stop: int) -> tuple[Room, list[LogEntry]]:
    """A room made aside as ``room`` was created, and the stored log up to version ``stop``, to replay over it."""
    entries = [entry for entry in await room.actor.journal.load(room.actor.kind, room.room_id) if entry.version <= stop]
    aside = type(room)(room.record(), replace(room.surroundings, limits=replace(room.limits, history=None)))
    return aside, entries


async def read_back(room: Room, start: int, stop: int | None = None) -> list[Update]:
    """The updates from index ``start`` up to ``stop`` (default: the oldest kept in memory)."""
    stop = room.updates.first if stop is None else stop
    aside, entries = await _aside(room, stop)
    await aside.actor.replay(entries)
    return [aside.updates[index] for index in range(start, min(stop, len(aside.updates)))]


async def update_at(room: Room, version: int) -> Update:
    """Update ``version``, from memory or read back from the store."""
    try:
        return room.updates[version - 1]
    except Evicted:
        return (await read_back(room, version - 1, version))[0]


async def replay_steps(room: Room, after: int, count: int) -> tuple[list[ReplayStep], bool, int]:
    """Up to ``count`` of the stored updates after version ``after``, each with the table after it:
    ``(steps, revealed, last)``. ``revealed``: the game is over, so every hand may be shown (each step carries every
    seat's view); until then a step holds what a spectator may see only. ``last``: the last stored version."""
    published = room.published
    # (a fair deal's replay opens with its reveal: a held deal's stays a spectator's past the end until it is told to)
    revealed = published.revealed if room.deal is not None else published.status == FINISHED
    last = published.version
    stop = min(last, after + count)
    if after >= stop:
        return [], revealed, last
    aside, entries = await _aside(room, stop)
    steps: list[ReplayStep] = []
    for entry in entries:
        await aside.actor.replay([entry])
        if entry.version <= after:
            continue
        state = aside.state
        update = aside.updates[entry.version - 1]
        if state is None:
            steps.append(ReplayStep(update, None))
        else:
            hands = tuple(state.view(seat) for seat in range(len(aside.seats))) if revealed else ()
            move = None
            if revealed and entry.kind in MOVES:
                move = ReplayMove(entry.seat, entry.move or "", entry.kind == "table")
            steps.append(ReplayStep(update, state.view(None), hands, move))
    return steps, revealed, last
