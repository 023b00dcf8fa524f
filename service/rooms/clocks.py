"""The seats' clocks of one room: for every acting seat, the deadline at which the table plays for it.

Each acting seat's clock runs for its clocked period (``GameState.clock_key``), and restarts only when the key
changes; seats that stop acting lose theirs, and every other acting seat's clock runs on (in a response window, one
responder's move leaves the others' time as it was). A seat that stops acting in the middle of a period (Age of
Soccer's player whose turn it is, while others answer a shot) has its clock paused: when it acts again in the same
period, the clock resumes with the time that was left. The log's times and deadlines say it all, so a replay pauses
and resumes the same way.

A correspondence room (``period``: its hours, in seconds) gives every clocked period that length instead of the game's
seconds: a turn, and an answer in a response window alike; what happens when it runs out is the same.

Names: the room's ``Clock`` is its source of time (service/rooms/clock.py); a :class:`Deadline` is one seat's
running clock as readers are told it; :class:`SeatClocks` keeps them all, with each seat's timers (its clock, and
a system player's think time) and the periods paused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import GameState
from service.rooms.clock import Clock, Timer


@dataclass(frozen=True)
class Deadline:
    """One acting seat's running clock: when the table plays for it, and how long its period is."""

    seat: int
    deadline: float
    seconds: float


class SeatClocks:
    """See the module docstring. ``expired(seat, key)`` is called when a seat's clock runs out (the room queues the
    table's move); ``period``: a correspondence room's length of every clocked period, in seconds (None: the game's)."""

    def __init__(self, clock: Clock, expired: Callable[[int, Any], None], period: float | None = None) -> None:
        self.clock = clock
        self._expired = expired
        self.period = period
        self.running: dict[int, Deadline] = {}  # the running clock of each acting seat that has one
        self._keys: dict[int, Any] = {}  # each acting seat's clocked period
        self._paused: dict[int, tuple[Any, float]] = {}  # a seat's period left unfinished: (its key, seconds left)
        self._timers: dict[int, list[Timer]] = {}  # each acting seat's clock and system player's think time

    def reset(self) -> None:
        """No clock at all (a room as created)."""
        self.cancel()
        self.running, self._keys, self._paused = {}, {}, {}

    def key(self, seat: int) -> Any:
        """The seat's clocked period now (None: it is not acting)."""
        return self._keys.get(seat)

    def deadlines(self) -> dict[int, float]:
        """Each running clock's deadline by seat: what the log stores with an update."""
        return {seat: clock.deadline for seat, clock in self.running.items()}

    def arm(
        self,
        state: GameState | None,
        now: float,
        *,
        online: bool,
        stored: Mapping[int, float] | None = None,
        replaying: bool = False,
    ) -> list[tuple[int, Any]]:
        """After a change: each acting seat whose period began gets its clock started (``stored``: the deadlines the
        log has by seat, -1 for any seat in lines from before clocks were per seat; a restored room resumes with the
        time that was left); seats that stopped acting lose theirs, paused. Returns the (seat, key) of each period
        that began, for the room to wake its system players. While replaying no timer is set (that happens once the
        room is whole again). ``state`` None: the game is not being played, and no clock runs."""
        if state is None:
            self.cancel()
            self.running, self._keys = {}, {}
            return []
        acting = state.to_act()
        for seat in [seat for seat in self._keys if seat not in acting]:
            key = self._keys.pop(seat)
            paused = self.running.pop(seat, None)
            if paused is not None:
                self._paused[seat] = (key, max(0.0, paused.deadline - now))
            self.cancel(seat)
        begun = []
        for seat in acting:
            key = state.clock_key(seat)
            if seat in self._keys and self._keys[seat] == key:
                continue
            self._keys[seat] = key
            self.cancel(seat)
            self.running.pop(seat, None)
            paused_key, left = self._paused.pop(seat, (None, 0.0))
            seconds = state.clock_seconds(seat) if online else None
            if seconds and self.period:  # (a correspondence room: hours, wherever the game has a clock)
                seconds = self.period
            if seconds:
                deadline = stored.get(seat, stored.get(-1)) if stored else None
                if deadline is None:
                    deadline = now + (left if paused_key == key else seconds)
                self.running[seat] = Deadline(seat, deadline, seconds)
                if not replaying:
                    self.later(seat, deadline, lambda s=seat, k=key: self._expired(s, k))
            begun.append((seat, key))
        return begun

    def restart(self) -> dict[int, float]:
        """Stop every clock and forget which periods run, keeping their deadlines (returned): after a replay, arming
        again with them resumes each clock, timers and all, with the time that was left."""
        deadlines = self.deadlines()
        self.cancel()
        self.running, self._keys = {}, {}
        return deadlines

    def later(self, seat: int, when: float, callback: Callable[[], None]) -> None:
        """A timer of ``seat``'s (its clock, or its system player's think time), cancelled with the seat's clock."""
        self._timers.setdefault(seat, []).append(self.clock.call_at(when, callback))

    def cancel(self, seat: int | None = None) -> None:
        """Stop ``seat``'s timers (every seat's when None); the deadlines stay as they are."""
        for cancelled in [seat] if seat is not None else list(self._timers):
            for timer in self._timers.pop(cancelled, ()):
                timer.cancel()
