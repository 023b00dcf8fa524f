"""The server-side turn clock, driven by an injected clock: no sleeping."""

from __future__ import annotations

import grpc

from kickoff.v1 import common_pb2, move_pb2, room_pb2
from tests.server.conftest import Harness, auth, refusal, soker_move


async def next_update(stream) -> move_pb2.RoomUpdate:
    return (await stream.read()).update


async def test_at_zero_the_table_draws_and_ends_the_turn(harness: Harness) -> None:
    room = await harness.create(seats=2)
    _, first = await harness.join(room.room_id)
    await harness.join(room.room_id)
    stream = harness.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room.room_id, after_version=2))
    view = await harness.view(room.room_id, first)
    assert list(view.to_act) == [0]
    started = harness.clock.now()
    assert view.clock.seat == 0 and view.clock.turn_seconds == 30
    assert view.clock.deadline.ToNanoseconds() == round((started + 30) * 1e9)
    hand_before = len(view.view.soker.hand)

    harness.clock.advance(29.9)
    await harness.settle(room.room_id)
    assert list((await harness.view(room.room_id)).to_act) == [0], "not yet"

    harness.clock.advance(0.1)
    await harness.settle(room.room_id)
    update = await next_update(stream)
    kinds = [e.game.soker.WhichOneof("kind") for e in update.events]
    assert kinds == ["drew", "turn_ended", "turn_began"]
    assert update.events[0].game.soker.drew.cause == "table"
    assert update.events[0].game.soker.drew.card == "", "a spectator never sees the drawn card"
    assert update.events[1].game.soker.turn_ended.by_table
    after = await harness.view(room.room_id, first)
    assert len(after.view.soker.hand) == hand_before + 1 and list(after.to_act) == [1]
    assert after.clock.seat == 1 and after.clock.deadline.ToNanoseconds() == round((started + 60) * 1e9)


async def test_drawing_does_not_restart_the_clock(harness: Harness) -> None:
    room = await harness.create(seats=2)
    _, first = await harness.join(room.room_id)
    await harness.join(room.room_id)
    deadline = (await harness.view(room.room_id)).clock.deadline
    harness.clock.advance(20)
    await harness.submit(room.room_id, first, soker_move("draw"))
    view = await harness.view(room.room_id)
    assert view.clock.deadline == deadline and list(view.to_act) == [0]
    harness.clock.advance(10)
    await harness.settle(room.room_id)
    view = await harness.view(room.room_id, first)
    assert list(view.to_act) == [1], "the table ended the turn without drawing a second card"


async def test_a_solo_game_has_no_clock(harness: Harness) -> None:
    room = await harness.create(seats=3, system_players=2, solo=True)
    _, token = await harness.join(room.room_id)
    view = await harness.view(room.room_id, token)
    # No timer but the one that ends the room as abandoned if its person never moves again (30 days by default)
    assert not view.HasField("clock") and harness.clock.pending() == [harness.clock.now() + 30 * 24 * 3600]
    harness.clock.advance(3600)
    await harness.settle(room.room_id)
    assert (await harness.view(room.room_id)).version == view.version


async def test_an_absent_person_is_never_removed_the_table_keeps_playing(harness: Harness) -> None:
    room = await harness.create(seats=2, system_players=1)
    _, token = await harness.join(room.room_id)
    await harness.rooms.LeaveRoom(room_pb2.LeaveRoomRequest(room_id=room.room_id), metadata=auth(token))
    for _ in range(5):
        harness.clock.advance(30)
        await harness.settle(room.room_id)
    view = await harness.view(room.room_id, token)  # the seat and its token stay
    assert view.viewer == 0 and view.version > 3


async def test_stand_ins_are_a_room_option_seen_on_the_seat_and_in_the_stream(harness: Harness) -> None:
    solo = room_pb2.CreateRoomRequest(
        game="soker", mode=common_pb2.ROOM_MODE_SOLO, seats=2, system_players=1, stand_ins=True
    )
    code, reason, _ = await refusal(harness.rooms.CreateRoom(solo))
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_stand_ins"), "a solo room has no clock"
    request = room_pb2.CreateRoomRequest(
        game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, stand_ins=True, think_seconds=5
    )
    room = (await harness.rooms.CreateRoom(request)).room
    assert room.stand_ins and not (await harness.create(seats=2)).stand_ins, "off by default"
    await harness.join(room.room_id, name="ann")
    await harness.join(room.room_id, name="bo")
    stream = harness.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room.room_id, after_version=2))
    for _ in range(2):  # the clock plays ann's turn; the table plays bo's too
        for _ in range(2):
            harness.clock.advance(30)
            await harness.settle(room.room_id)
    seen = []
    while not seen:
        seen = [e.stand_in for e in (await next_update(stream)).events if e.WhichOneof("kind") == "stand_in"]
    assert seen == [move_pb2.StandIn(seat=0, level="normal")]
    seats = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room.room_id))).room.seats
    assert [(s.name, s.stand_in) for s in seats] == [("ann", "normal"), ("bo", "normal")]
