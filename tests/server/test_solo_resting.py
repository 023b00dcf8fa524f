"""Solo rooms that their person walked away from, over gRPC and REST on a manual clock: an idle one rests (leaves
memory, and no longer counts under the cap on live rooms), any call of its person brings it back as it was, and once
KICKOFF_SOLO_ABANDON_SECONDS pass without a move it ends by itself as abandoned. The tests move the clock and run the
directory's rest-and-wake pass themselves."""

from __future__ import annotations

import grpc

from kickoff.v1 import common_pb2, move_pb2, room_pb2, tournament_pb2
from tests.server.conftest import Harness, auth, refusal_info, soker_move
from tests.servers import Start

DAY = 24 * 3600.0
SOLO_REST = 600.0  # KICKOFF_SOLO_REST_SECONDS' default
ABANDON = 30 * DAY  # KICKOFF_SOLO_ABANDON_SECONDS' default
WAKE = 60.0  # KICKOFF_WAKE_SECONDS' default


def solo_request() -> room_pb2.CreateRoomRequest:
    return room_pb2.CreateRoomRequest(
        game="soker", mode=common_pb2.ROOM_MODE_SOLO, seats=2, system_players=1, think_seconds=0
    )


async def solo_room(harness: Harness) -> tuple[str, str]:
    """A solo room whose person joined (the game begun, the person to move); its id and the person's token."""
    room = (await harness.rooms.CreateRoom(solo_request())).room
    _, token = await harness.join(room.room_id, name="ann")
    await harness.settle(room.room_id)
    return room.room_id, token


async def get_room(harness: Harness, room_id: str) -> room_pb2.Room:
    return (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room


async def test_walked_away_solo_rooms_rest_free_the_cap_and_come_back_for_their_person(start: Start) -> None:
    harness = await start(max_live_rooms=5)
    directory, clock = harness.directory, harness.clock
    rooms = [await solo_room(harness) for _ in range(5)]
    ids = [room_id for room_id, _ in rooms]
    versions = [(await get_room(harness, room_id)).version for room_id in ids]
    code, info, _ = await refusal_info(harness.rooms.CreateRoom(solo_request()))
    assert (code, info.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "server_full")

    clock.advance(SOLO_REST - 1)
    assert await directory.rest_and_wake() == ([], []), "used within ten minutes: they stay"
    clock.advance(1)
    rested, woken = await directory.rest_and_wake()
    assert sorted(rested) == sorted(ids) and woken == []
    assert not directory.held() and directory.resting() == set(ids)
    new, _ = await solo_room(harness)  # resting, they leave room under the cap for new ones

    # Its person's view, move or stream brings each back, as it was.
    (first, first_token), (second, second_token), (third, third_token) = rooms[:3]
    view = await harness.view(first, first_token)
    assert view.version == versions[0] and list(view.to_act) == [0]
    answer = await harness.submit(second, second_token, soker_move("draw"))
    assert answer.version == versions[1] + 1
    stream = harness.moves.StreamEvents(
        move_pb2.StreamEventsRequest(room_id=third, after_version=versions[2] - 1), metadata=auth(third_token)
    )
    assert (await stream.read()).update.version == versions[2]
    stream.cancel()
    held = {room.room_id for room in directory.held()}
    assert held == {first, second, third, new} and directory.resting() == set(ids[3:])
    # Four are live again, and two rest (not counted): the cap holds one more, and then no more.
    await solo_room(harness)
    code, info, _ = await refusal_info(harness.rooms.CreateRoom(solo_request()))
    assert (code, info.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "server_full")


async def test_a_solo_room_nobody_plays_ends_as_abandoned_and_everyone_sees_why(start: Start, gateway) -> None:
    harness = await start()
    client = await gateway(harness)
    directory, clock = harness.directory, harness.clock
    joined = clock.now()
    idle, idle_token = await solo_room(harness)
    played, played_token = await solo_room(harness)
    watched, _ = await solo_room(harness)
    clock.advance(10 * DAY)
    await harness.submit(played, played_token, soker_move("draw"))  # (its time runs from its last move)
    stream = harness.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=watched))  # (never rests: read)
    await stream.read()
    clock.advance(SOLO_REST)
    rested, _ = await directory.rest_and_wake()
    assert sorted(rested) == sorted([idle, played])

    # The sweep loads the resting room two sweeps before its time, and it ends then, nobody winning.
    clock.advance(joined + ABANDON - 2 * WAKE - 1 - clock.now())
    assert await directory.rest_and_wake() == ([], [])
    clock.advance(1)
    assert await directory.rest_and_wake() == ([], [idle])
    clock.advance(2 * WAKE - 0.001)
    await harness.settle(idle)
    await harness.settle(watched)
    assert directory.get(idle).status == "playing" and directory.get(watched).status == "playing"
    clock.advance(0.001)
    await harness.settle(idle)
    await harness.settle(watched)
    for room_id in (idle, watched):
        room = await get_room(harness, room_id)
        assert room.status == common_pb2.ROOM_STATUS_FINISHED and room.outcome.reason == "abandoned"
        assert not room.rated and not room.outcome.winners
        body = (await client.get(f"/v1/rooms/{room_id}")).json()
        assert body["status"] == "ROOM_STATUS_FINISHED" and body["outcome"]["reason"] == "abandoned"
    heard = []
    while (response := await stream.read()) is not grpc.aio.EOF:
        heard.append(response.update)
    assert heard[-1].events[-1].game_ended.outcome.reason == "abandoned", "its watchers hear it, then it ends"
    assert (await get_room(harness, played)).status == common_pb2.ROOM_STATUS_PLAYING, "moved ten days later"
    code, info, _ = await refusal_info(harness.submit(idle, idle_token, soker_move("draw")))
    assert (code, info.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "room_closed"), (
        "its person comes back to a game that is over"
    )


async def solo_tournament(harness: Harness) -> tuple[str, str, str]:
    """A solo tournament (one person, three system players) whose person joined and must move in its first game; its
    id, its game's room and the person's token."""
    created = await harness.tournaments.CreateTournament(solo_tournament_request())
    tid = created.tournament.tournament_id
    joined = await harness.tournaments.JoinTournament(tournament_pb2.JoinTournamentRequest(tournament_id=tid))
    await harness.server.tournaments.settle()
    room_id = (await get_tournament(harness, tid)).current_room_id
    await harness.settle(room_id)
    assert list((await harness.view(room_id, joined.seat_token)).to_act) == [0], "the person to move"
    return tid, room_id, joined.seat_token


def solo_tournament_request() -> tournament_pb2.CreateTournamentRequest:
    return tournament_pb2.CreateTournamentRequest(
        game="soker", mode=common_pb2.ROOM_MODE_SOLO, system_players=3, think_seconds=0
    )


async def get_tournament(harness: Harness, tid: str) -> tournament_pb2.Tournament:
    return (await harness.tournaments.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id=tid))).tournament


async def test_a_walked_away_solo_tournament_rests_out_of_the_cap_and_comes_back_for_its_person(start: Start) -> None:
    harness = await start(max_live_tournaments=1)
    directory, tournaments, clock = harness.directory, harness.server.tournaments, harness.clock
    tid, room_id, token = await solo_tournament(harness)
    version = (await get_tournament(harness, tid)).version
    code, info, _ = await refusal_info(harness.tournaments.CreateTournament(solo_tournament_request()))
    assert (code, info.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "server_full")

    clock.advance(SOLO_REST - 1)
    await directory.rest_and_wake()
    code, info, _ = await refusal_info(harness.tournaments.CreateTournament(solo_tournament_request()))
    assert info.reason == "server_full", "used within ten minutes: it stays, under the cap"
    clock.advance(1)
    await directory.rest_and_wake()
    other = (await harness.tournaments.CreateTournament(solo_tournament_request())).tournament  # the cap has room
    assert tournaments.resting() == {tid} and directory.resting() == {room_id}, "it rests with its game"

    # Its person's view brings it back as it was; it counts again (with the new one, the cap is passed: no more).
    back = await get_tournament(harness, tid)
    assert back.version == version and back.status == tournament_pb2.TOURNAMENT_STATUS_PLAYING
    assert back.current_room_id == room_id and tournaments.resting() == set()
    code, info, _ = await refusal_info(harness.tournaments.CreateTournament(solo_tournament_request()))
    assert info.reason == "server_full"

    # It rests again; its person's move in its game brings the game back, and the tournament with it.
    clock.advance(SOLO_REST)
    await directory.rest_and_wake()
    assert tournaments.resting() == {tid} and directory.resting() == {room_id}
    answer = await harness.submit(room_id, token, soker_move("draw"))
    await tournaments.settle()
    assert tournaments.resting() == set() and directory.resting() == set()
    assert (await harness.view(room_id, token)).version == answer.version
    assert (await get_tournament(harness, other.tournament_id)).status == tournament_pb2.TOURNAMENT_STATUS_WAITING


async def test_a_resting_solo_tournament_ends_when_its_game_is_abandoned(start: Start) -> None:
    harness = await start(max_live_tournaments=1)
    directory, tournaments, clock = harness.directory, harness.server.tournaments, harness.clock
    joined = clock.now()
    tid, room_id, _ = await solo_tournament(harness)
    clock.advance(SOLO_REST)
    await directory.rest_and_wake()
    await harness.tournaments.CreateTournament(solo_tournament_request())  # resting, it leaves room under the cap
    assert tournaments.resting() == {tid}

    # The rooms' sweep loads its game two sweeps before its time; the game wakes its tournament, and ends it.
    clock.advance(joined + ABANDON - 2 * WAKE - clock.now())
    assert await directory.rest_and_wake() == ([], [room_id])
    clock.advance(2 * WAKE)
    await harness.settle(room_id)
    await tournaments.settle()
    ended = await get_tournament(harness, tid)
    assert ended.status == tournament_pb2.TOURNAMENT_STATUS_FINISHED and len(ended.game_list) == 1
    assert ended.game_list[0].outcome.reason == "abandoned" and not ended.standings.final
    assert tournaments.resting() == set()
