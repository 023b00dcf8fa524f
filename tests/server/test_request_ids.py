"""CreateRoom and JoinRoom retried with their request id: the same id answers as the first time (the same room; the same
seat with a token that works) and creates or takes nothing more, on the server that answered first and on a server
started afresh on the same store (a restart, or another node); a request id is its caller's, never anyone else's."""

from __future__ import annotations

import grpc

from kickoff.v1 import common_pb2, move_pb2, player_pb2, room_pb2, tournament_pb2
from service.store.database import create_engine
from service.store.journal import SqlJournal
from tests.server.conftest import Harness, auth, refusal
from tests.servers import Start

ANONYMOUS_ID = "7c9e6679-7425-40de-944b-e07fc1f90ae7"  # a caller without a player's session sends a random id


async def served(start: Start, database_url: str) -> Harness:
    """A server on the test's database (each call: one more, as after a restart or on another node)."""
    return await start(journal=SqlJournal(create_engine(database_url)))


def create_request(request_id: str, seats: int = 3, system_players: int = 0) -> room_pb2.CreateRoomRequest:
    return room_pb2.CreateRoomRequest(
        game="soker",
        mode=common_pb2.ROOM_MODE_ONLINE,
        seats=seats,
        system_players=system_players,
        think_seconds=0,
        request_id=request_id,
    )


async def rooms_listed(harness: Harness) -> list[str]:
    return [room.room_id for room in (await harness.rooms.ListRooms(room_pb2.ListRoomsRequest())).rooms]


async def guest(harness: Harness, name: str) -> player_pb2.Session:
    return (await harness.players.SignInAsGuest(player_pb2.SignInAsGuestRequest(name=name))).session


async def test_create_room_sent_again_with_its_request_id_answers_the_same_room_after_a_restart(
    start: Start, database_url: str
) -> None:
    first = await served(start, database_url)
    room = (await first.rooms.CreateRoom(create_request(ANONYMOUS_ID))).room
    again = (await first.rooms.CreateRoom(create_request(ANONYMOUS_ID))).room
    assert again.room_id == room.room_id
    restarted = await served(start, database_url)
    after = (await restarted.rooms.CreateRoom(create_request(ANONYMOUS_ID))).room
    assert after.room_id == room.room_id and after.seats == room.seats
    assert await rooms_listed(restarted) == [room.room_id], "one room, however often it was asked for"
    other = (await restarted.rooms.CreateRoom(create_request("another-random-id-0001"))).room
    assert other.room_id != room.room_id
    # The same id for another room is refused, and makes none.
    code, reason, _ = await refusal(restarted.rooms.CreateRoom(create_request(ANONYMOUS_ID, seats=4)))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "request_id_reused")
    assert sorted(await rooms_listed(restarted)) == sorted([room.room_id, other.room_id])


async def test_join_room_sent_again_answers_the_same_seat_and_a_token_that_works_after_a_restart(
    start: Start, database_url: str
) -> None:
    first = await served(start, database_url)
    room = (await first.rooms.CreateRoom(create_request(ANONYMOUS_ID, seats=2))).room
    ann = room_pb2.JoinRoomRequest(room_id=room.room_id, name="ann", request_id="ann-" + ANONYMOUS_ID)
    bob = room_pb2.JoinRoomRequest(room_id=room.room_id, name="bob", seat=1, request_id="bob-" + ANONYMOUS_ID)
    joined = await first.rooms.JoinRoom(ann)
    assert (await first.rooms.JoinRoom(ann)).seat_token == joined.seat_token
    bob_joined = await first.rooms.JoinRoom(bob)  # the last seat: the game starts
    assert bob_joined.room.status == common_pb2.ROOM_STATUS_PLAYING
    # Bob's answer was lost: his retry answers his seat (not seat_taken, nor room_full), on a restarted server too.
    restarted = await served(start, database_url)
    for harness in (first, restarted):
        again = await harness.rooms.JoinRoom(bob)
        assert (again.seat, again.seat_token) == (1, bob_joined.seat_token)
        view = await harness.moves.GetView(
            move_pb2.GetViewRequest(room_id=room.room_id), metadata=auth(again.seat_token)
        )
        assert view.viewer == 1
    assert (await restarted.rooms.JoinRoom(ann)).seat_token == joined.seat_token
    # The same id with another join is refused; another caller's new id finds the room full.
    changed = room_pb2.JoinRoomRequest(room_id=room.room_id, name="robert", seat=1, request_id=bob.request_id)
    code, reason, _ = await refusal(restarted.rooms.JoinRoom(changed))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "request_id_reused")
    stranger = room_pb2.JoinRoomRequest(room_id=room.room_id, seat=1, request_id="someone-else-" + ANONYMOUS_ID)
    code, reason, _ = await refusal(restarted.rooms.JoinRoom(stranger))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "room_full")


async def test_a_retried_join_of_a_seat_given_back_since_is_refused_without_a_token(
    start: Start, database_url: str
) -> None:
    harness = await served(start, database_url)
    room = (await harness.rooms.CreateRoom(create_request(ANONYMOUS_ID))).room
    ann = room_pb2.JoinRoomRequest(room_id=room.room_id, name="ann", request_id="ann-" + ANONYMOUS_ID)
    joined = await harness.rooms.JoinRoom(ann)
    await harness.rooms.LeaveRoom(room_pb2.LeaveRoomRequest(room_id=room.room_id), metadata=auth(joined.seat_token))
    taken = await harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id, name="cy", seat=joined.seat))
    code, reason, _ = await refusal(harness.rooms.JoinRoom(ann))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "seat_given_back")
    # Cy holds the seat, and ann's retry took nothing from her.
    view = await harness.moves.GetView(move_pb2.GetViewRequest(room_id=room.room_id), metadata=auth(taken.seat_token))
    assert view.viewer == joined.seat


async def test_a_request_id_is_its_callers_and_never_hands_over_another_callers_seat(
    start: Start, database_url: str
) -> None:
    harness = await served(start, database_url)
    ann, bob = await guest(harness, "ann"), await guest(harness, "bob")
    room = (await harness.rooms.CreateRoom(create_request(ANONYMOUS_ID))).room
    join = room_pb2.JoinRoomRequest(room_id=room.room_id, request_id="1")  # (a player's ids are theirs: any will do)
    anns = await harness.rooms.JoinRoom(join, metadata=auth(ann.access_token))
    bobs = await harness.rooms.JoinRoom(join, metadata=auth(bob.access_token))
    assert bobs.seat != anns.seat and bobs.seat_token != anns.seat_token, "bob's '1' is not ann's"
    assert (await harness.rooms.JoinRoom(join, metadata=auth(ann.access_token))).seat_token == anns.seat_token
    # Without a player's session the id is the caller's secret: a short one, easily guessed, is refused.
    code, reason, _ = await refusal(harness.rooms.JoinRoom(join))
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "request_id_too_short")
    assert len((await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room.room_id))).room.seats) == 3
    taken = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room.room_id))).room.seats
    assert sum(seat.taken for seat in taken) == 2


async def test_a_player_creating_a_room_again_with_its_request_id_gets_the_same_room_seat_and_token(
    start: Start, database_url: str
) -> None:
    first = await served(start, database_url)
    ann = await guest(first, "ann")
    request = create_request("1", seats=2, system_players=1)  # (a solo game against one system player, online)
    created = await first.rooms.CreateRoom(request, metadata=auth(ann.access_token))
    assert created.room.status == common_pb2.ROOM_STATUS_PLAYING  # (her seat was the last person's)
    restarted = await served(start, database_url)
    for harness in (first, restarted):
        again = await harness.rooms.CreateRoom(request, metadata=auth(ann.access_token))
        assert (again.room.room_id, again.seat, again.seat_token) == (
            created.room.room_id,
            created.seat,
            created.seat_token,
        )
    assert await rooms_listed(restarted) == [created.room.room_id]
    # Another player's "1" is another room.
    bob = await guest(restarted, "bob")
    bobs = await restarted.rooms.CreateRoom(request, metadata=auth(bob.access_token))
    assert bobs.room.room_id != created.room.room_id and bobs.seat_token != created.seat_token


async def test_over_rest_a_retried_create_and_join_answer_as_the_first_time_after_a_restart(
    start: Start, gateway, database_url: str
) -> None:
    body = {"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 2, "requestId": ANONYMOUS_ID}
    first = await gateway(await served(start, database_url))
    created = await first.post("/v1/rooms", json=body)
    assert created.status_code == 201
    room_id = created.json()["roomId"]
    seat = {"name": "ann", "requestId": "ann-" + ANONYMOUS_ID}
    joined = await first.post(f"/v1/rooms/{room_id}/seats", json=seat)
    assert joined.status_code == 201
    restarted = await gateway(await served(start, database_url))
    for client in (first, restarted):
        assert (await client.post("/v1/rooms", json=body)).json()["roomId"] == room_id
        again = (await client.post(f"/v1/rooms/{room_id}/seats", json=seat)).json()
        assert (again["seat"], again["seatToken"]) == (joined.json()["seat"], joined.json()["seatToken"])
        view = await client.get(f"/v1/rooms/{room_id}/view", headers={"authorization": f"Bearer {again['seatToken']}"})
        assert view.status_code == 200 and view.json()["viewer"] == joined.json()["seat"]
    assert [room["roomId"] for room in (await restarted.get("/v1/rooms")).json()["rooms"]] == [room_id]
    room = (await restarted.get(f"/v1/rooms/{room_id}")).json()
    assert sum(bool(seat.get("taken")) for seat in room["seats"]) == 1
    reused = await restarted.post("/v1/rooms", json={**body, "seats": 3})
    assert reused.status_code == 409 and reused.json()["reason"] == "request_id_reused"


async def test_create_and_join_tournament_sent_again_answer_as_the_first_time_after_a_restart(
    start: Start, database_url: str
) -> None:
    create = tournament_pb2.CreateTournamentRequest(
        game="soker", mode=common_pb2.ROOM_MODE_ONLINE, system_players=2, think_seconds=0, request_id=ANONYMOUS_ID
    )
    first = await served(start, database_url)
    tournament = (await first.tournaments.CreateTournament(create)).tournament
    join = tournament_pb2.JoinTournamentRequest(
        tournament_id=tournament.tournament_id, name="ann", request_id="ann-" + ANONYMOUS_ID
    )
    joined = await first.tournaments.JoinTournament(join)
    restarted = await served(start, database_url)
    for harness in (first, restarted):
        assert (await harness.tournaments.CreateTournament(create)).tournament.tournament_id == tournament.tournament_id
        again = await harness.tournaments.JoinTournament(join)
        assert (again.seat, again.seat_token) == (joined.seat, joined.seat_token)
    listed = await restarted.tournaments.ListTournaments(tournament_pb2.ListTournamentsRequest())
    assert [t.tournament_id for t in listed.tournaments] == [tournament.tournament_id]
    now = (
        await restarted.tournaments.GetTournament(
            tournament_pb2.GetTournamentRequest(tournament_id=tournament.tournament_id)
        )
    ).tournament
    assert [seat.name for seat in now.seats if seat.taken and seat.kind == common_pb2.SEAT_KIND_PERSON] == ["ann"]
    # The token works: it gives the seat back (and a retry then takes none again).
    await restarted.tournaments.LeaveTournament(
        tournament_pb2.LeaveTournamentRequest(tournament_id=tournament.tournament_id), metadata=auth(joined.seat_token)
    )
    code, reason, _ = await refusal(restarted.tournaments.JoinTournament(join))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "seat_given_back")
    code, reason, _ = await refusal(
        restarted.tournaments.CreateTournament(
            tournament_pb2.CreateTournamentRequest(
                game="soker", mode=common_pb2.ROOM_MODE_ONLINE, system_players=3, request_id=ANONYMOUS_ID
            )
        )
    )
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "request_id_reused")
