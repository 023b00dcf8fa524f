"""Correspondence rooms over gRPC, on a manual clock: every clocked period lasts the room's hours, the table plays for
a seat whose hours ran out as it does for a live clock, and an idle room rests (leaves memory) and comes back, its
clock where it was. No sleeping: the tests move the clock and run the directory's rest-and-wake pass themselves."""

from __future__ import annotations

import asyncio
import random

import grpc
import pytest

from engine.registry import get_game
from kickoff.v1 import common_pb2, move_pb2, room_pb2
from service.rooms.clock import ManualClock
from service.rooms.directory import RoomDirectory
from service.store.memory import MemoryJournal
from tests.room_ids import room_ids_for_test
from tests.server.conftest import Harness, auth, refusal_info, soker_move

DAY = 24 * 3600.0
REST = 300.0  # KICKOFF_REST_SECONDS' default
WAKE = 60.0  # KICKOFF_WAKE_SECONDS' default


async def create(harness: Harness, hours: int, *, seats: int = 2, system_players: int = 0, solo: bool = False):
    request = room_pb2.CreateRoomRequest(
        game="soker",
        mode=common_pb2.ROOM_MODE_SOLO if solo else common_pb2.ROOM_MODE_ONLINE,
        seats=seats,
        system_players=system_players,
        think_seconds=0,
        correspondence_hours=hours,
    )
    return (await harness.rooms.CreateRoom(request)).room


async def playing(harness: Harness, hours: int = 24) -> tuple[str, dict[int, str]]:
    """A correspondence room of two people, its game begun (seat 0 to act); its id and the seats' tokens."""
    room = await create(harness, hours)
    tokens = dict([await harness.join(room.room_id), await harness.join(room.room_id)])
    return room.room_id, tokens


async def get_room(harness: Harness, room_id: str) -> room_pb2.Room:
    return (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room


def deadline_of(clock: common_pb2.TurnClock) -> float:
    return clock.deadline.ToNanoseconds() / 1e9


async def test_a_correspondence_turn_lasts_its_hours_and_then_the_table_plays(harness: Harness) -> None:
    room_id, tokens = await playing(harness, 24)
    started = harness.clock.now()
    room = await get_room(harness, room_id)
    assert room.correspondence_hours == 24 and room.status == common_pb2.ROOM_STATUS_PLAYING
    view = await harness.view(room_id, tokens[0])
    assert list(view.to_act) == [0] and view.clock.turn_seconds == 86400
    assert deadline_of(view.clock) == started + DAY, "the deadline is a day away, not the game's 30 s"
    stream = harness.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room_id, after_version=view.version))

    harness.clock.advance(DAY - 60)  # 23 h 59 min: nothing happens
    await harness.settle(room_id)
    assert (await harness.view(room_id)).version == view.version

    harness.clock.advance(60)  # 24 h: the table plays for seat 0
    await harness.settle(room_id)
    update = (await stream.read()).update
    kinds = [event.game.soker.WhichOneof("kind") for event in update.events]
    assert kinds == ["drew", "turn_ended", "turn_began"]
    assert update.events[0].game.soker.drew.cause == "table" and update.events[1].game.soker.turn_ended.by_table
    assert [c.seat for c in update.clocks] == [1] and update.clock.turn_seconds == 86400
    assert deadline_of(update.clock) == harness.clock.now() + DAY, "the next turn has a day too"
    stream.cancel()

    # A move made in time restarts nothing but the next seat's day.
    harness.clock.advance(3600)
    await harness.submit(room_id, tokens[1], soker_move("draw"))
    await harness.submit(room_id, tokens[1], soker_move("end_turn"))
    after = await harness.view(room_id)
    assert list(after.to_act) == [0] and deadline_of(after.clock) == harness.clock.now() + DAY


@pytest.mark.parametrize(
    ("hours", "solo", "why"),
    [(337, False, "past 14 days"), (-1, False, "negative"), (24, True, "a solo room")],
)
async def test_a_bad_correspondence_clock_is_refused(harness: Harness, hours: int, solo: bool, why: str) -> None:
    code, info, _ = await refusal_info(create(harness, hours, system_players=1 if solo else 0, solo=solo))
    assert (code, info.reason, info.metadata["field"]) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "bad_correspondence",
        "correspondence_hours",
    ), why
    assert not harness.directory.held(), "no room was made"


async def test_an_answer_in_a_response_window_lasts_the_hours_too() -> None:
    """Age of Soccer's answers (response_seconds 15 in a live room) get the room's hours, like its turns."""
    clock = ManualClock()
    directory = RoomDirectory(clock=clock, seed_source=lambda: 3, room_ids=room_ids_for_test(), default_think_seconds=0)
    room = await directory.create(
        game="age-of-soccer", mode="online", seats=2, system_players=0, correspondence_hours=2
    )
    nonces = dict([await room.join(None, "ann"), await room.join(None, "bo")])
    chooser = random.Random(1)
    windows = 0
    for _ in range(2000):
        state = room.state
        if state is None or state.outcome() is not None:
            break
        acting = state.to_act()
        for seat in acting:
            assert room.seat_clocks.running[seat].seconds == 2 * 3600, (seat, acting)
        windows += any(seat != state.active for seat in acting)
        seat = acting[0]
        await room.move(seat, nonces[seat], chooser.choice(state.legal_moves(seat)), "", None)
        if windows > 3:
            break
    assert windows, "the game asked for an answer at least once"
    await directory.close()


async def test_an_idle_correspondence_room_rests_and_comes_back_as_it_was(harness: Harness) -> None:
    directory, clock = harness.directory, harness.clock
    room_id, tokens = await playing(harness, 24)
    before = await get_room(harness, room_id)
    assert await directory.rest_and_wake() == ([], []), "used just now: it stays"

    clock.advance(REST)
    rested, woken = await directory.rest_and_wake()
    assert (rested, woken) == ([room_id], [])
    assert room_id not in {room.room_id for room in directory.held()} and room_id in directory.resting()
    assert clock.pending() == [], "no timer is held for a resting room"

    after = await get_room(harness, room_id)  # any call brings it back from the store
    assert room_id in {room.room_id for room in directory.held()} and room_id not in directory.resting()
    assert after.version == before.version and list(after.to_act) == [0]
    assert deadline_of(after.clock) == deadline_of(before.clock) and clock.pending() == [deadline_of(before.clock)]
    # Called just now, it does not rest again at once; and its seats' tokens still act.
    assert await directory.rest_and_wake() == ([], [])
    await harness.submit(room_id, tokens[0], soker_move("draw"))
    assert (await get_room(harness, room_id)).version == before.version + 1


async def test_the_sweep_loads_a_resting_room_before_its_deadline_and_the_table_plays_on_time(
    harness: Harness,
) -> None:
    directory, clock = harness.directory, harness.clock
    room_id, _ = await playing(harness, 24)
    deadline = deadline_of((await get_room(harness, room_id)).clock)
    clock.advance(REST)
    assert (await directory.rest_and_wake())[0] == [room_id]
    # Sweeps far from the deadline leave it resting.
    clock.advance(deadline - 2 * WAKE - 1 - clock.now())
    assert await directory.rest_and_wake() == ([], [])
    assert room_id in directory.resting()
    # Within two sweeps of it, the sweep loads the room, and its clock runs in memory to the deadline.
    clock.advance(1)
    assert await directory.rest_and_wake() == ([], [room_id])
    assert clock.pending() == [deadline]
    version = directory.get(room_id).version
    clock.advance(deadline - clock.now() - 0.5)
    await harness.settle(room_id)
    assert directory.get(room_id).version == version
    assert await directory.rest_and_wake() == ([], []), "due now: it stays"
    clock.advance(0.5)
    await harness.settle(room_id)
    room = directory.get(room_id)
    assert room.version == version + 1 and room.updates[-1].events[0].event.cause == "table"
    assert room.published.to_act == (1,) and room.first_deadline.deadline == deadline + DAY


async def test_the_sweep_runs_by_itself_on_the_directory_clock(harness: Harness) -> None:
    """Started, the directory rests and wakes every wake_seconds of its own clock: an hour-long turn's room rests
    after five idle minutes, is back in memory two sweeps before its deadline, and the table plays on time."""
    directory, clock = harness.directory, harness.clock
    room_id, _ = await playing(harness, 1)
    deadline = directory.get(room_id).first_deadline.deadline
    await directory.start_resting()
    seen = set()
    try:
        while clock.now() < deadline:
            clock.advance(WAKE)
            if directory._sweeping is not None:  # (the task the clock's timer started)
                await directory._sweeping
            seen.add(room_id in directory.resting())
        await harness.settle(room_id)
    finally:
        directory.stop_resting()
    assert seen == {True, False}, "it rested, and woke"
    room = directory.get(room_id)
    assert room.published.to_act == (1,) and room.updates[-1].events[0].event.cause == "table"


async def test_a_room_with_an_open_stream_does_not_rest(harness: Harness) -> None:
    directory, clock = harness.directory, harness.clock
    room_id, tokens = await playing(harness, 24)
    stream = harness.moves.StreamEvents(
        move_pb2.StreamEventsRequest(room_id=room_id, after_version=0), metadata=auth(tokens[1])
    )
    await stream.read()  # (open, and reading)
    clock.advance(2 * REST)
    assert await directory.rest_and_wake() == ([], [])
    stream.cancel()
    readers = directory.get(room_id).actor.readers
    for _ in range(200):  # (until the server has seen the stream go: a cancellation crosses the channel)
        if not readers.open_feeds:
            break
        await asyncio.sleep(0.01)
    assert (await directory.rest_and_wake())[0] == [room_id], "once nobody reads it, it rests"


async def test_live_rooms_a_system_players_turn_and_waiting_rooms_never_rest(harness: Harness) -> None:
    directory, clock = harness.directory, harness.clock
    live = await harness.create(seats=2)
    await harness.join(live.room_id)
    await harness.join(live.room_id)
    waiting = await create(harness, 24)
    await harness.join(waiting.room_id)
    clock.advance(2 * REST)  # (the live room's clock runs out on the way: the table plays)
    assert await directory.rest_and_wake() == ([], [])
    held = {room.room_id for room in directory.held()}
    assert {live.room_id, waiting.room_id} <= held and not directory.resting()


async def test_a_system_players_turn_keeps_a_correspondence_room_in_memory() -> None:
    clock = ManualClock()
    journal = MemoryJournal()
    directory = RoomDirectory(
        clock=clock, journal=journal, seed_source=lambda: 5, room_ids=room_ids_for_test(), default_think_seconds=30
    )
    room = await directory.create(game="soker", mode="online", seats=2, system_players=1, correspondence_hours=24)
    _, nonce = await room.join(None, "ann")
    assert room.published.to_act == (0,) and room.wake_at == room.first_deadline.deadline
    await room.move(0, nonce, get_game("soker").move_from_wire("draw"), "", None)
    await room.move(0, nonce, get_game("soker").move_from_wire("end"), "", None)
    assert room.published.to_act == (1,) and room.wake_at is None, "a system player must move: no rest"
    assert journal.current["room"][room.room_id]["wake_at"] is None
    turns = journal.current["room"][room.room_id]["turns"]
    assert list(turns) == ["1"] and turns["1"][0] == "" and turns["1"][1] == room.first_deadline.deadline
    for _ in range(10):  # (the system player thinks 30 s a move, and moves)
        clock.advance(30)
        await room.settle()
    assert room.published.to_act == (0,) and room.wake_at == room.first_deadline.deadline
    await directory.close()


async def test_resting_rooms_count_against_the_live_room_cap(start) -> None:
    """A resting room is not held in memory (the gauge and held() leave it out) but it is still this server's: it
    takes its place under max_live_rooms, so that all of them waking at once never exceeds the cap."""
    harness = await start(max_live_rooms=2)
    directory = harness.directory
    room_id, _ = await playing(harness, 24)
    harness.clock.advance(REST)
    assert (await directory.rest_and_wake())[0] == [room_id]
    assert directory._count() == {} and directory.resting() == {room_id}
    await create(harness, 24)  # the second of two
    code, info, _ = await refusal_info(create(harness, 24))
    assert (code, info.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "server_full")
    await get_room(harness, room_id)  # woken, it is counted once, as held
    assert not directory.resting() and len(directory._live) == 2
