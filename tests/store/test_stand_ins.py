"""Stand-ins, on both stores: once the clock has played a person's seat twice in a row, a system player at ``normal``
plays it (after its think time, as system players do) until the person's own move is accepted again; the seat stays
the person's; a restart stands in where the game did. Off (the default), the clock alone plays for an absent person."""

from __future__ import annotations

from engine.registry import get_game
from service.rooms.clock import ManualClock
from service.rooms.directory import RoomDirectory
from service.rooms.room import GameEvent, Room, StandInEvent
from service.store.database import create_engine
from service.store.journal import SqlJournal
from tests.room_ids import room_ids_for_test
from tests.store.conftest import crash

TURN = 30.0  # Soker's turn clock
THINK = 5.0  # the room's think time: the stand-in moves this long after the seat's turn begins

soker = get_game("soker")


def open_directory(url: str, clock: ManualClock) -> tuple[RoomDirectory, SqlJournal]:
    journal = SqlJournal(create_engine(url))
    return RoomDirectory(
        clock=clock, journal=journal, seed_source=lambda: 7, room_ids=room_ids_for_test(), default_think_seconds=0
    ), journal


async def two_people(directory: RoomDirectory, stand_ins: bool) -> tuple[Room, dict[int, str]]:
    room = await directory.create(
        game="soker", mode="online", seats=2, system_players=0, think_seconds=THINK, stand_ins=stand_ins
    )
    nonces = dict([await room.join(None, "ann", player="p-ann"), await room.join(None, "bo")])
    assert room.published.to_act == (0,), "ann (seat 0) begins"
    return room, nonces


async def bo_plays(room: Room, nonce: str) -> None:
    """Bo's turn: a card drawn, the turn ended (ann's turn begins)."""
    await room.move(1, nonce, soker.move_from_wire("draw"), "", None)
    await room.move(1, nonce, soker.move_from_wire("end"), "", None)
    assert room.published.to_act == (0,)


async def the_clock_plays_ann(room: Room, clock: ManualClock, seconds: float = TURN) -> None:
    version = room.version
    clock.advance(seconds)
    await room.settle()
    assert room.version == version + 1 and room.updates[-1].events[0].event.cause == "table"


def stand_ins(room: Room) -> list[StandInEvent]:
    updates = [room.updates[index] for index in range(room.version)]
    return [e for update in updates for e in update.events if type(e) is StandInEvent]


async def test_a_stand_in_plays_for_a_person_the_clock_played_twice_until_they_move_again(database_url: str) -> None:
    clock = ManualClock()
    directory, journal = open_directory(database_url, clock)
    room, nonces = await two_people(directory, stand_ins=True)
    await the_clock_plays_ann(room, clock)
    await bo_plays(room, nonces[1])
    assert stand_ins(room) == [] and room.published.seats[0].stand_in == "", "once is not yet twice"
    await the_clock_plays_ann(room, clock)
    assert room.updates[-1].events[-1] == StandInEvent(0, "normal"), "said in the update of the clock's second play"
    assert room.published.seats[0].stand_in == "normal" and room.published.seats[0].player == "p-ann"

    await bo_plays(room, nonces[1])
    version = room.version
    for _ in range(3):  # (a move a think time: after a draw it must still play or end)
        clock.advance(THINK)
        await room.settle()
        if room.published.to_act == (1,):
            break
    played = [room.updates[index] for index in range(version, room.version)]
    assert played and all(u.mover is None for u in played), "the stand-in's moves are nobody's own"
    assert not any(getattr(e.event, "cause", "") == "table" for u in played for e in u.events if type(e) is GameEvent)
    assert room.published.to_act == (1,), "the stand-in played ann's turn at its think time, not the clock's"
    lines = await journal.load("room", room.room_id)
    assert {line.kind for line in lines[version:]} == {"stand_in"}
    await crash(directory, journal)

    # A restart stands in where the game did.
    clock = ManualClock(start=clock.now() + 1)
    directory, journal = open_directory(database_url, clock)
    await directory.runtime.restore(journal)
    room = directory.get(room.room_id)
    assert room.published.seats[0].stand_in == "normal" and room.seats[0].stand_in == "normal"
    await bo_plays(room, nonces[1])
    # Ann is back: her own move, before the stand-in's think time is up, takes her seat back.
    clock.advance(THINK - 1)
    await room.move(0, nonces[0], soker.move_from_wire("draw"), "", None)
    assert room.updates[-1].events[-1] == StandInEvent(0, "")
    assert room.published.seats[0].stand_in == "" and room.updates[-1].mover == 0
    version = room.version
    clock.advance(1)
    await room.settle()
    assert room.version == version and room.published.to_act == (0,), "the stand-in's pending move is dropped"
    await room.move(0, nonces[0], soker.move_from_wire("end"), "", None)
    await bo_plays(room, nonces[1])
    await the_clock_plays_ann(room, clock)
    assert room.published.seats[0].stand_in == "", "the count starts again from her move"
    await crash(directory, journal)


async def test_without_stand_ins_only_the_clock_plays_for_an_absent_person(database_url: str) -> None:
    clock = ManualClock()
    directory, journal = open_directory(database_url, clock)
    room, nonces = await two_people(directory, stand_ins=False)
    await the_clock_plays_ann(room, clock)
    for _ in range(3):
        await bo_plays(room, nonces[1])
        version = room.version
        clock.advance(THINK)
        await room.settle()
        assert room.version == version, "nobody moves for ann before her clock runs out"
        await the_clock_plays_ann(room, clock, TURN - THINK)
    assert stand_ins(room) == [] and room.published.seats[0].stand_in == ""
    await crash(directory, journal)
