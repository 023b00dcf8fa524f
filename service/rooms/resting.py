"""When a room ends by itself, and when one that rests must be back in memory.

A waiting room (not a tournament's) closes unplayed once ``RoomLimits.waiting_seconds`` pass with no seat change (its
outcome's reason: expired).

Every line says who must act after it (``LogEntry.turns``: each acting seat's player and deadline), which the store
keeps on the room's row for "my turn" lists. A correspondence room (``correspondence_hours``: every clocked period
lasts hours) may rest: its directory lets an idle one leave memory (service/rooms/directory.py), and its line's
``wake_at`` says when it must be back, its first deadline while only people act (never while a system player must
move: that room stays in memory).

A solo room has no clock, so a person who walks away would leave it playing for ever. It rests as a correspondence
room does, and ends by itself as abandoned (the log line ``abandon``: nobody wins, not rated, the outcome's reason
``abandoned``) once ``Surroundings.abandon_seconds`` pass after its last line with its person to move; its
``wake_at`` is that moment, so that a resting one is loaded in time to end. The end goes through the actor, ordered
with the moves, and is stored as any line is, so that it survives a restart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from service.rooms.clock import Clock, Timer
from service.rooms.clocks import SeatClocks
from service.rooms.updates import PLAYING, SOLO, WAITING, RoomLimits, Surroundings, Update

if TYPE_CHECKING:
    from service.actors.actor import Actor
    from service.actors.feed import History


class Rests(Protocol):
    """What a room's times are read from, and how it ends by itself: a room (service/rooms/room.py)."""

    status: str
    mode: str
    clock: Clock
    tournament_id: str
    correspondence_hours: int
    actor: Actor[Update]
    updates: History[Update]
    used_at: float
    surroundings: Surroundings
    limits: RoomLimits
    state: Any  # the game's state (None: not started)
    seats: Any  # its SeatRecords
    seat_clocks: SeatClocks
    created_at: float
    changed_at: float

    async def _close(self) -> None: ...

    async def _abandon(self) -> None: ...


class Resting:
    """The times of ``room`` (see the module docstring), and its timer to close or end as abandoned."""

    def __init__(self, room: Rests) -> None:
        self.room = room
        self._timer: Timer | None = None  # a waiting room's time to close, or a solo room's to end as abandoned

    def wake_at(self) -> float | None:
        """When a room that rests must be in memory again: a correspondence room's first running deadline while the
        game is played and every acting seat is a person's; a solo room's time to end as abandoned
        (:meth:`abandon_at`) while its person must move. None for a live room, a room that is not playing, one whose
        system player must move (it stays in memory), one without a running clock, and an online tournament's game.
        (A solo tournament's game rests only with its tournament: service/tournaments/directory.py.)"""
        room = self.room
        state = room.state
        if room.status != PLAYING or state is None:
            return None
        abandon_at = None
        # (a live room, on every move, answers here at once)
        if not room.correspondence_hours and (room.mode != SOLO or (abandon_at := self.abandon_at()) is None):
            return None
        acting = state.to_act()
        if not acting or any(room.seats[seat].bot is not None for seat in acting):
            return None
        if abandon_at is not None:
            return abandon_at
        running = room.seat_clocks.running
        deadlines = [running[seat].deadline for seat in acting if seat in running]
        return min(deadlines) if deadlines else None

    def abandon_at(self) -> float | None:
        """When a solo room being played (a solo tournament's game too: its tournament then ends with it) ends as
        abandoned if nothing happens in it meanwhile: ``abandon_seconds`` after its last line. None for any other
        room, or with no such bound."""
        room = self.room
        seconds = room.surroundings.abandon_seconds
        if seconds is None or room.mode != SOLO or room.status != PLAYING:
            return None
        return room.changed_at + seconds

    def may_rest(self, now: float, rest_seconds: float, horizon: float, with_tournament: bool) -> bool:
        """Whether the room may leave memory now: a correspondence or solo room being played (outside tournaments,
        unless it rests ``with_tournament``, a solo tournament's game) whose actor has nothing in hand or queued, with
        no reader, unused for ``rest_seconds``, and whose ``wake_at`` is later than ``horizon`` (the wake sweep's
        reach: it is loaded again before it is due)."""
        room = self.room
        if not (room.correspondence_hours or room.mode == SOLO) or room.status != PLAYING:
            return False
        if room.tournament_id and not with_tournament:
            return False
        actor = room.actor
        if not actor.idle or actor.readers.open_feeds or now - room.used_at < rest_seconds:
            return False
        wake_at = self.wake_at()
        return wake_at is not None and wake_at > horizon

    @property
    def armed(self) -> bool:
        return self._timer is not None

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def arm(self) -> None:
        """A waiting room (not a tournament's) closes once ``limits.waiting_seconds`` pass with no seat change; a solo
        room being played (a solo tournament's game too) ends as abandoned at :meth:`abandon_at`. The solo room's
        timer is set once, not at every move: when it fires, :meth:`_expire` sets it again for the later time a move
        made meanwhile gives."""
        self.cancel()
        room = self.room
        actor = room.actor
        if actor.replaying or not actor.started:
            return
        seconds = room.limits.waiting_seconds
        if room.status == WAITING and seconds is not None and not room.tournament_id:
            since = room.updates[-1].time if room.updates else room.created_at
            self._timer = room.clock.call_at(since + seconds, lambda: actor.enqueue(self._expire))
        elif (abandon_at := self.abandon_at()) is not None:
            self._timer = room.clock.call_at(abandon_at, lambda: actor.enqueue(self._expire))

    async def _expire(self) -> None:
        room = self.room
        if room.status == WAITING:  # (a seat change re-arms the timer; one that fired meanwhile finds a room begun)
            await room._close()
        elif (abandon_at := self.abandon_at()) is not None:
            if abandon_at <= room.clock.now():
                await room._abandon()
            else:  # (a line was made since the timer was set: it ends later, if nothing happens until then)
                self.arm()
