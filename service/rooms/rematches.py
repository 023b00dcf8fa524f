"""Rematches: at the end of a game any of its people proposes one; it is made, as a new room with the same people at
the same seats and the same options, when every person has accepted (docs/guides/rematches.md).

- **Who.** A person seated in the finished room (their seat token, or their player's access token) proposes; the
  proposer has accepted. Every other person's seat waits for its answer until the deadline: ``seconds`` after the
  proposal (KICKOFF_REMATCH_SECONDS) in a live room, the room's own period (``correspondence_hours``) in a
  correspondence room. System players' seats are system players again, at the same level.
- **A seat that declines, or does not answer by the deadline,** is filled as the room's creator chose
  (RoomRecord.rematch_fill): ``system``, a system player at the room's level takes it; anything else (the default),
  no rematch: the proposal is refused (reason declined or no_answer).
- **The new room**: the same game, mode, options, system players' level and think time, correspondence period,
  stand-ins, listing (an unlisted room's rematch is unlisted) and choice of fill; a new seed (a new deal); the first
  seat moved on by one (the game's ``first_seat`` option, where it has one: Soker, Age of Soccer; Carta Futbol Club
  has none, and its new deal's toss decides the kick-off). The people are seated as the room is made, as a matched
  room's are, and the game starts at once. Its id is made from the finished room's, so that making it twice (a
  retry after a crash) finds the one made.
- **Durable.** A proposal is a row of its own (service/store/rematches.py), written with its rematch.proposed events;
  the finished room's stored log ended with its game. Its deadline is a timer on the rooms' clock, armed again at
  start for every open proposal (:meth:`Rematches.resume`), and checked again whenever the rematch is read, so a
  deadline that passed while no node held the room is acted on at the first look.
- **Counted.** The kickoff.rematches counter (kickoff.rematch.outcome) counts each proposal (``proposed``), each
  rematch made (``started``) and each refused (``declined``, ``no_answer``), once the store holds the change, on the
  node that makes it.
- **One at a time.** Every change of one room's rematch runs under that room's lock here; on a cluster, calls for
  the room go to the node that holds it (service/grpc/forward.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

from service.errors import NotFound, PermissionDenied, PreconditionFailed
from service.rooms.clock import Timer
from service.rooms.directory import NewRoom, RoomDirectory
from service.rooms.room import Room
from service.rooms.seats import PERSON, SYSTEM
from service.rooms.updates import FINISHED
from service.store.rematches import (
    ACCEPTED,
    DECLINED,
    MADE,
    NO_ANSWER,
    OPEN,
    REFUSED,
    WAITING,
    MemoryRematches,
    RematchRecord,
)
from service.webhooks.events import rematch_event

log = logging.getLogger(__name__)

FILL_SYSTEM = "system"  # RoomRecord.rematch_fill: a system player takes a declined or silent seat
DEFAULT_SECONDS = 60.0


def rematch_room_id(room_id: str) -> str:
    """The rematch's room id, made from the finished room's (the same every time: making it twice finds it)."""
    return hashlib.sha256(f"rematch of {room_id}".encode()).hexdigest()[:16]


def moved_on(room: Room) -> dict[str, Any]:
    """The finished room's options with its first seat moved on by one, where the game has a ``first_seat`` option."""
    options = dict(room.options)
    if "first_seat" in options:
        options["first_seat"] = (int(options["first_seat"]) + 1) % len(room.seats)
    return options


class Rematches:
    """The rematches of ``directory``'s rooms, kept in ``store`` (a MemoryRematches or SqlRematches), each open one
    with a timer on the rooms' clock. ``seconds``: a live room's window to answer in."""

    def __init__(self, directory: RoomDirectory, store: Any = None, seconds: float = DEFAULT_SECONDS) -> None:
        self.directory = directory
        self.store = store or MemoryRematches()
        self.seconds = seconds
        self.clock = directory.clock
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}  # each room's lock, and how many hold or await it
        self._timers: dict[str, Timer] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._counted = directory.telemetry.instruments.rematches

    # -- reading ------------------------------------------------------------------------------------------------------

    async def attach(self, room: Room) -> RematchRecord | None:
        """``room``'s rematch as it stands (an open one past its deadline is settled first), also set on the room
        (``room.rematch``) for what shows it."""
        if room.status != FINISHED or room.tournament_id:
            return None
        async with self._lock(room.room_id):
            record = room.rematch
            if room.rematch_read and (record is None or record.status != OPEN or self.clock.now() < record.deadline):
                return record  # (read before: every change since went through here)
            if not room.rematch_read:
                record = await self.store.get(room.room_id)
                room.rematch_read = True
            if record is not None and record.status == OPEN and self.clock.now() >= record.deadline:
                record = await self._expire(room, record)
            room.rematch = record
            return record

    # -- proposing and answering -------------------------------------------------------------------------------------

    async def propose(self, room: Room, seat: int, seed: str = "") -> RematchRecord:
        """``seat`` (a person's, checked by the caller) proposes a rematch of ``room``; see the module docstring.
        ``seed``: the proposer's seat's seed for the new room's fair deal (checked by the caller), as ``answer`` takes
        an accepting seat's; a proposal made already keeps the seeds it has."""
        self._check_room(room)
        await self.attach(room)
        async with self._lock(room.room_id):
            record = room.rematch  # (as the last change under the lock left it)
            if record is not None:
                if record.status != OPEN:
                    raise PreconditionFailed("this room's rematch was made or refused already", code="rematch_over")
                return record  # (proposed twice: the same proposal)
            now = self.clock.now()
            window = room.correspondence_hours * 3600.0 if room.correspondence_hours else self.seconds
            people = [r.seat for r in room.seats if r.kind == PERSON]
            answers = {s: ACCEPTED if s == seat else WAITING for s in people}
            record = RematchRecord(room.room_id, seat, now, now + window, answers, {seat: seed} if seed else {})
            events = [
                rematch_event(
                    recipient=r.player,
                    room_id=room.room_id,
                    game=room.game.spec.name,
                    proposed_by=seat,
                    deadline=record.deadline,
                    now=now,
                )
                for r in room.seats
                if r.kind == PERSON and r.player and r.seat != seat
            ]
            if not await self.store.add(record, events):
                record = await self.store.get(room.room_id)  # (another call proposed it meanwhile)
                assert record is not None
                room.rematch = record
                return record
            self._count("proposed")
            if all(answer == ACCEPTED for answer in answers.values()):
                record = await self._make(room, record)  # (one person, against system players)
            else:
                self._arm(record)
            room.rematch = record
            return record

    async def answer(self, room: Room, seat: int, accept: bool, seed: str = "") -> RematchRecord:
        """``seat`` accepts or declines ``room``'s rematch; the last acceptance makes it. ``seed``: an accepting
        seat's seed for the new room's fair deal (checked by the caller), its seat's in the new room."""
        await self.attach(room)
        async with self._lock(room.room_id):
            record = room.rematch  # (as the last change under the lock left it)
            if record is None:
                raise PreconditionFailed("no rematch of this room was proposed", code="no_rematch")
            given = ACCEPTED if accept else DECLINED
            known = record.answers.get(seat)
            if known == given:
                return record  # (answered again: the same answer)
            if record.status != OPEN:
                raise PreconditionFailed("this room's rematch was made or refused already", code="rematch_over")
            if known != WAITING:
                raise PreconditionFailed("this seat answered the rematch already", code="already_answered")
            record = replace(record, answers={**record.answers, seat: given})
            if accept and seed:
                record = replace(record, seeds={**record.seeds, seat: seed})
            if not accept and room.rematch_fill != FILL_SYSTEM:
                record = replace(record, status=REFUSED, reason="declined")
                await self.store.save(record)
                self._count("declined")
                self._disarm(room.room_id)
            elif WAITING not in record.answers.values():
                record = await self._make(room, record)
            else:
                await self.store.save(record)
            room.rematch = record
            return record

    def _check_room(self, room: Room) -> None:
        if room.status != FINISHED:
            raise PreconditionFailed("a rematch is proposed once the game is over", code="game_not_over")
        if room.tournament_id:
            raise PreconditionFailed("a tournament's game has its tournament's next game", code="tournament_room")
        if room.unrated_reason == "not_played":
            raise PreconditionFailed("this room's game was never played", code="not_played")

    # -- the deadline and the new room -------------------------------------------------------------------------------

    async def _expire(self, room: Room, record: RematchRecord) -> RematchRecord:
        answers = {s: NO_ANSWER if a == WAITING else a for s, a in record.answers.items()}
        record = replace(record, answers=answers)
        if room.rematch_fill != FILL_SYSTEM:
            record = replace(record, status=REFUSED, reason="no_answer")
            await self.store.save(record)
            self._count("no_answer")
            self._disarm(room.room_id)
            return record
        return await self._make(room, record)

    async def _make(self, room: Room, record: RematchRecord) -> RematchRecord:
        """The new room (see the module docstring): accepted seats keep their people, the rest are system players."""
        self._disarm(room.room_id)
        new_id = rematch_room_id(room.room_id)
        people = [
            (r.seat, r.name, secrets.token_hex(8), r.player, r.origin, record.seeds.get(r.seat, ""))
            for r in room.seats
            if r.kind == PERSON and record.answers.get(r.seat) == ACCEPTED
        ]
        seated = {person[0] for person in people}
        system_seats = tuple(r.seat for r in room.seats if r.kind == SYSTEM or r.seat not in seated)
        try:
            await self.directory.locate(new_id)  # (made already: a retry after a crash)
        except NotFound:
            await self.directory.create(
                NewRoom(
                    game=room.game.spec.name,
                    mode=room.mode,
                    seats=len(room.seats),
                    system_players=len(system_seats),
                    system_seats=system_seats,
                    options=moved_on(room),
                    system_player=room.system_player,
                    think_seconds=room.think_seconds,
                    rated=room.record().rated,
                    room_id=new_id,
                    people=people,
                    correspondence_hours=room.correspondence_hours,
                    stand_ins=room.stand_ins,
                    unlisted=room.unlisted,
                    rematch_fill=room.rematch_fill,
                    chat=room.chat,
                    team_chat=room.team_chat,
                    rematch=True,
                )
            )
        record = replace(record, status=MADE, new_room_id=new_id)
        await self.store.save(record)
        self._count("started")
        return record

    def _count(self, outcome: str) -> None:
        self._counted.add(1, {"kickoff.rematch.outcome": outcome})

    # -- timers -------------------------------------------------------------------------------------------------------

    async def resume(self) -> None:
        """At start: a timer for every open proposal (its room is loaded when it fires, on the node that holds it)."""
        for record in await self.store.open_ones():
            self._arm(record)

    def _arm(self, record: RematchRecord) -> None:
        self._disarm(record.room_id)
        self._timers[record.room_id] = self.clock.call_at(record.deadline, lambda: self._due(record.room_id))

    def _disarm(self, room_id: str) -> None:
        timer = self._timers.pop(room_id, None)
        if timer is not None:
            timer.cancel()

    def _due(self, room_id: str) -> None:
        self._timers.pop(room_id, None)
        task = asyncio.get_running_loop().create_task(self._settle(room_id), name=f"rematch of {room_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _settle(self, room_id: str) -> None:
        try:
            found = await self.directory.locate(room_id)
            if isinstance(found, Room):  # (another node's: it settles it there)
                await self.attach(found)
        except Exception as error:  # (the store is away: the next read settles it)
            log.warning("could not settle the rematch of room %s: %s", room_id, type(error).__name__)

    async def settled(self) -> None:
        """Wait for the deadlines that fired (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks))

    @contextlib.asynccontextmanager
    async def _lock(self, room_id: str) -> AsyncIterator[None]:
        """One change of ``room_id``'s rematch at a time (the lock is dropped once nobody holds or awaits it)."""
        lock, users = self._locks.get(room_id) or (asyncio.Lock(), 0)
        self._locks[room_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[room_id]
            if users == 1:
                del self._locks[room_id]
            else:
                self._locks[room_id] = (lock, users - 1)


def seat_of_caller(room: Room, seat: int | None, player_id: str) -> int:
    """The person's seat of ``room`` the caller holds (by seat token, or by player): PermissionDenied otherwise."""
    if seat is None and player_id:
        record = room.seat_of(player_id)
        seat = record.seat if record is not None else None
    if seat is None or room.seats[seat].kind != PERSON:
        raise PermissionDenied("only a person seated in this room may do this", code="not_seated")
    return seat
