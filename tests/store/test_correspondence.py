"""Correspondence rooms on both stores: each line keeps who must act (and until when) on the room's row, a restart
leaves a resting room in the store until the wake sweep loads it, and its clock runs out at the deadline it had."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from engine.registry import get_game
from service.rooms.clock import ManualClock
from service.rooms.directory import RoomDirectory
from service.store.database import create_engine
from service.store.journal import SqlJournal
from service.store.memory import MemoryJournal
from service.store.models import RoomRow
from tests.room_ids import room_ids_for_test
from tests.store.conftest import crash

DAY = 24 * 3600.0
WAKE = 60.0  # KICKOFF_WAKE_SECONDS' default


def open_directory(url: str, clock: ManualClock) -> tuple[RoomDirectory, SqlJournal]:
    journal = SqlJournal(create_engine(url))
    return RoomDirectory(
        clock=clock, journal=journal, seed_source=lambda: 7, room_ids=room_ids_for_test(), default_think_seconds=0
    ), journal


async def row_of(journal: SqlJournal, room_id: str):
    async with journal.engine.connect() as connection:
        return (await connection.execute(select(RoomRow).where(RoomRow.room_id == room_id))).one()


async def correspondence_room(directory: RoomDirectory, hours: int = 24):
    room = await directory.create(game="soker", mode="online", seats=2, system_players=0, correspondence_hours=hours)
    nonces = dict([await room.join(None, "ann", player="p-ann"), await room.join(None, "bo")])
    return room, nonces


async def test_each_line_keeps_who_must_act_on_the_rooms_row(database_url: str) -> None:
    clock = ManualClock()
    directory, journal = open_directory(database_url, clock)
    room, nonces = await correspondence_room(directory)
    deadline = clock.now() + DAY
    row = await row_of(journal, room.room_id)
    assert row.correspondence_hours == 24 and row.status == "playing"
    assert row.turns == {"0": ["p-ann", deadline]} and row.wake_at == deadline
    clock.advance(600)
    soker = get_game("soker")
    await room.move(0, nonces[0], soker.move_from_wire("draw"), "", None)
    await room.move(0, nonces[0], soker.move_from_wire("end"), "", None)
    row = await row_of(journal, room.room_id)
    assert row.turns == {"1": ["", clock.now() + DAY]} and row.wake_at == clock.now() + DAY, "a guest's seat: ''"
    # A live room's row says who acts too, but it never rests (no wake_at).
    live = await directory.create(game="soker", mode="online", seats=2, system_players=1)
    await live.join(None, "cy", player="p-cy")
    row = await row_of(journal, live.room_id)
    assert row.turns == {"0": ["p-cy", clock.now() + 30]} and row.wake_at is None and row.correspondence_hours == 0
    await crash(directory, journal)


async def test_a_restart_leaves_a_resting_room_in_the_store_until_the_sweep_and_its_clock_keeps_its_deadline(
    database_url: str,
) -> None:
    clock = ManualClock()
    directory, journal = open_directory(database_url, clock)
    room, _ = await correspondence_room(directory)
    live, _ = await correspondence_room(directory, hours=0)  # (a live room of people: loaded at start, as ever)
    deadline, version = room.first_deadline.deadline, room.version
    clock.advance(3600)
    await crash(directory, journal)

    clock = ManualClock(start=clock.now() + 5)  # the restart takes 5 s
    directory, journal = open_directory(database_url, clock)
    assert await directory.runtime.restore(journal) == {"room": 1}
    assert [r.room_id for r in directory.held()] == [live.room_id], "the resting room stays in the store"
    await directory.start_resting()
    try:
        assert directory.resting() == {room.room_id}
        assert [r for r in clock.pending() if r != live.first_deadline.deadline] == [clock.now() + WAKE], (
            "no timer for the resting room: only the sweep's"
        )
        clock.advance(deadline - 2 * WAKE - 1 - clock.now())
        directory.stop_resting()  # (the test sweeps by hand from here)
        assert await directory.rest_and_wake() == ([], [])
        clock.advance(1)
        assert await directory.rest_and_wake() == ([], [room.room_id])
        woken = directory.get(room.room_id)
        assert woken.version == version and woken.first_deadline.deadline == deadline
        assert deadline in clock.pending() and not directory.resting()
        clock.advance(deadline - clock.now() - 0.001)
        await woken.settle()
        assert woken.version == version, "not before its deadline"
        clock.advance(0.001)
        await woken.settle()
        assert woken.version == version + 1 and woken.updates[-1].events[0].event.cause == "table"
        row = await row_of(journal, room.room_id)
        assert row.turns == {"1": ["", deadline + DAY]} and row.wake_at == deadline + DAY
    finally:
        await crash(directory, journal)


async def test_a_restart_near_the_deadline_loads_the_room_at_once(database_url: str) -> None:
    clock = ManualClock()
    directory, journal = open_directory(database_url, clock)
    room, _ = await correspondence_room(directory)
    deadline, version = room.first_deadline.deadline, room.version
    await crash(directory, journal)
    clock = ManualClock(start=deadline - WAKE)  # down for most of a day: up again a minute before the deadline
    directory, journal = open_directory(database_url, clock)
    assert await directory.runtime.restore(journal) == {"room": 1}
    restored = directory.get(room.room_id)
    assert restored.first_deadline.deadline == deadline and clock.pending() == [deadline]
    clock.advance(WAKE)
    await restored.settle()
    assert restored.version == version + 1 and restored.published.to_act == (1,)
    await crash(directory, journal)


async def test_a_finished_room_leaves_no_turn_on_its_row(database_url: str) -> None:
    clock = ManualClock()
    directory, journal = open_directory(database_url, clock)
    room, _ = await correspondence_room(directory, hours=1)
    while room.status != "finished":  # nobody moves: the table plays every hour until the game ends
        clock.advance(3600)
        await room.settle()
    row = await row_of(journal, room.room_id)
    assert row.status == "finished" and not row.turns and row.wake_at is None
    assert await journal.due("room", None) == []
    await crash(directory, journal)


@pytest.mark.parametrize("store", ["sql", "memory"])
async def test_the_journals_say_which_rooms_rest_and_which_are_due(store: str, database_url: str) -> None:
    clock = ManualClock()
    if store == "sql":
        directory, journal = open_directory(database_url, clock)
    else:
        journal = MemoryJournal()  # type: ignore[assignment]
        directory = RoomDirectory(
            clock=clock, journal=journal, seed_source=lambda: 7, room_ids=room_ids_for_test(), default_think_seconds=0
        )
    far, _ = await correspondence_room(directory, hours=24)
    near, _ = await correspondence_room(directory, hours=1)
    live, _ = await correspondence_room(directory, hours=0)
    waiting = await directory.create(game="soker", mode="online", seats=2, system_players=0, correspondence_hours=24)
    horizon = clock.now() + 2 * 3600
    assert await journal.due("room", horizon) == [near.room_id]
    assert await journal.due("room", None) == [near.room_id, far.room_id], "soonest first"
    loaded = {record.room_id for record, _ in await journal.load_live("room", wake_before=horizon)}
    assert loaded == {near.room_id, live.room_id, waiting.room_id}, "the one due after the horizon rests"
    everything = {record.room_id for record, _ in await journal.load_live("room")}
    assert everything == {far.room_id, near.room_id, live.room_id, waiting.room_id}
    if store == "sql":
        await crash(directory, journal)  # type: ignore[arg-type]
