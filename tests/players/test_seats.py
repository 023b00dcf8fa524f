"""Seats held by players: joining and creating with a session seats the player, a player lists their rooms (their
turn first, then live, waiting, finished), takes up a seat from a second device (both devices are the same holder),
and holds one seat per room at most."""

from __future__ import annotations

import grpc

from kickoff.v1 import common_pb2, move_pb2, player_pb2, room_pb2
from tests.players.conftest import Served, auth
from tests.server.conftest import refusal


async def my_rooms(served: Served, session: player_pb2.Session, **page: object) -> player_pb2.ListMyRoomsResponse:
    request = player_pb2.ListMyRoomsRequest(**page)  # type: ignore[arg-type]
    return await served.harness.players.ListMyRooms(request, metadata=auth(session.access_token))


async def test_a_player_lists_their_rooms_with_their_turn_first(served: Served) -> None:
    ann, bo = await served.guest(name="Ann"), await served.guest(name="Bo")
    waiting = (await served.create(ann, seats=3)).room  # Ann sits down at once; two seats stay free
    assert [
        s.player_id
        for s in (await served.harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=waiting.room_id))).room.seats
    ] == [ann.player.player_id, "", ""]
    playing = []
    for _ in range(2):
        created = await served.create(ann)
        joined = await served.join(created.room.room_id, bo)
        assert (
            joined.room.seats[joined.seat].name == "Bo"
            and joined.room.seats[joined.seat].player_id == bo.player.player_id
        )
        playing.append(created.room.room_id)
    # Ann moves first in both games: her turn in both (newest first), then the waiting room.
    listed = await my_rooms(served, ann)
    assert [(r.room.room_id, r.my_turn) for r in listed.rooms] == [
        (playing[1], True),
        (playing[0], True),
        (waiting.room_id, False),
    ]
    for_bo = await my_rooms(served, bo)
    assert [(r.room.room_id, r.my_turn, r.seat) for r in for_bo.rooms] == [
        (playing[1], False, 1),
        (playing[0], False, 1),
    ]
    # Pages: one room at a time, the same order, and no empty page after the last (no finished rooms follow).
    pages, token = [], ""
    while True:
        page = await my_rooms(served, ann, page_size=1, page_token=token)
        pages.append([r.room.room_id for r in page.rooms])
        token = page.next_page_token
        if not token:
            break
    assert pages == [[playing[1]], [playing[0]], [waiting.room_id]]


async def test_a_second_device_takes_the_seat_up_and_both_devices_play_it(served: Served) -> None:
    ann, bo = await served.guest(name="Ann"), await served.guest(name="Bo")
    created = await served.create(ann)
    room_id = created.room.room_id
    bo_token = (await served.join(room_id, bo)).seat_token
    laptop = created.seat_token
    # Ann on her phone: a new session (the same player), and the seat taken up.
    phone_session = (
        await served.harness.players.RefreshSession(player_pb2.RefreshSessionRequest(refresh_token=ann.refresh_token))
    ).session
    taken = await served.harness.players.TakeSeat(
        player_pb2.TakeSeatRequest(room_id=room_id), metadata=auth(phone_session.access_token)
    )
    assert taken.seat == created.seat and taken.seat_token
    phone = taken.seat_token
    stream = served.harness.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room_id), metadata=auth(laptop))
    await served.play_out(room_id, {0: phone, 1: bo_token}, moves=3)  # the phone plays seat 0
    first = (await stream.read()).update
    assert first.viewer == 0  # the laptop's stream goes on, as the same holder
    legal = await served.harness.moves.ListLegalMoves(
        move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(laptop)
    )
    assert legal.version > 0  # and the laptop's token still acts for the seat
    stream.cancel()
    code, why, _ = await refusal(
        served.harness.players.TakeSeat(
            player_pb2.TakeSeatRequest(room_id=room_id), metadata=auth((await served.guest()).access_token)
        )
    )
    assert (code, why) == (grpc.StatusCode.NOT_FOUND, "no_seat")


async def test_a_player_holds_one_seat_per_room(served: Served) -> None:
    ann = await served.guest()
    room = (await served.create(ann, seats=3)).room
    code, why, _ = await refusal(served.join(room.room_id, ann))
    assert (code, why) == (grpc.StatusCode.ALREADY_EXISTS, "already_seated")
    # Also once the game has started (every seat taken): the answer says the seat is theirs, not that the room is full.
    bo = await served.guest()
    full = (await served.create(bo)).room
    await served.join(full.room_id, ann)
    code, why, _ = await refusal(served.join(full.room_id, ann))
    assert (code, why) == (grpc.StatusCode.ALREADY_EXISTS, "already_seated")


async def test_a_rated_room_takes_signed_in_players_only(served: Served) -> None:
    ann = await served.guest()
    room = (await served.create(ann, rated=True)).room
    code, why, _ = await refusal(served.join(room.room_id, None))
    assert (code, why) == (grpc.StatusCode.FAILED_PRECONDITION, "sign_in_required")
    joined = await served.join(room.room_id, await served.guest())
    assert joined.room.status == common_pb2.ROOM_STATUS_PLAYING and joined.room.rated


async def test_a_creating_player_chooses_for_their_seat(served: Served) -> None:
    """Age of Soccer's team code, chosen by the player creating the room, who sits down at once with it; a choice the
    game does not offer makes no room; an anonymous creator joins with their choice as before."""
    ann = await served.guest(name="Ann")
    request = room_pb2.CreateRoomRequest(game="age-of-soccer", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, choice="VIK")
    created = await served.harness.rooms.CreateRoom(request, metadata=auth(ann.access_token))
    assert (created.seat, created.room.seats[created.seat].choice) == (0, "VIK")
    assert created.room.seats[0].player_id == ann.player.player_id
    before = len((await served.harness.rooms.ListRooms(room_pb2.ListRoomsRequest())).rooms)
    request.choice = "XXX"
    code, why, _ = await refusal(served.harness.rooms.CreateRoom(request, metadata=auth(ann.access_token)))
    assert (code, why) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_choice")
    request.choice = "VIK"
    code, why, _ = await refusal(served.harness.rooms.CreateRoom(request))
    assert (code, why) == (grpc.StatusCode.INVALID_ARGUMENT, "choice_needs_player")
    assert len((await served.harness.rooms.ListRooms(room_pb2.ListRoomsRequest())).rooms) == before


async def test_taking_up_the_seat_of_a_resting_solo_room_brings_it_back(served: Served) -> None:
    ann = await served.guest(name="Ann")
    created = await served.create(ann, solo=True, system_players=1)
    room_id = created.room.room_id
    directory, clock = served.harness.directory, served.harness.clock
    clock.advance(600)  # KICKOFF_SOLO_REST_SECONDS' default: Ann walked away
    assert await directory.rest_and_wake() == ([room_id], [])
    assert not directory.held()
    # Ann on another device: her session takes the seat up, which brings the room back as it was.
    taken = await served.harness.players.TakeSeat(
        player_pb2.TakeSeatRequest(room_id=room_id), metadata=auth(ann.access_token)
    )
    assert taken.seat == created.seat and room_id in {room.room_id for room in directory.held()}
    assert not directory.resting()
    view = await served.harness.moves.GetView(move_pb2.GetViewRequest(room_id=room_id), metadata=auth(taken.seat_token))
    assert view.viewer == created.seat and list(view.to_act) == [created.seat]
