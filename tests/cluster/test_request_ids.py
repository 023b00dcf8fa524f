"""A create or a join sent again with its request id to another node of the cluster answers as the first time: the
node that did not make the room (or tournament) finds it by the id in the store and forwards the call to its owner,
and once the owner is gone the node that takes the room over answers from the log it rebuilt the room from."""

from __future__ import annotations

from kickoff.v1 import common_pb2, player_pb2, room_pb2, tournament_pb2
from tests.cluster.conftest import Cluster, auth

SECRET_ID = "2f1c0b7e-5d8a-4c3e-9b6f-a1d2e3f40516"  # a caller without a player's session sends a random id


async def test_a_retry_on_another_node_answers_the_same_room_seat_and_token_before_and_after_a_failover(
    cluster: Cluster,
) -> None:
    a, b = await cluster.start("a"), await cluster.start("b")
    create = room_pb2.CreateRoomRequest(
        game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=3, think_seconds=0, request_id=SECRET_ID
    )
    room = (await a.room_stub.CreateRoom(create)).room
    join = room_pb2.JoinRoomRequest(room_id=room.room_id, name="ann", request_id="ann-" + SECRET_ID)
    joined = await a.room_stub.JoinRoom(join)
    bo = (await a.player_stub.SignInAsGuest(player_pb2.SignInAsGuestRequest(name="bo"))).session
    mine = room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, request_id="1")
    created = await a.room_stub.CreateRoom(mine, metadata=auth(bo.access_token))

    # Through b, which made nothing: the room is found by its id and the calls go to its owner, a.
    assert (await b.room_stub.CreateRoom(create)).room.room_id == room.room_id
    again = await b.room_stub.JoinRoom(join)
    assert (again.seat, again.seat_token) == (joined.seat, joined.seat_token)
    retried = await b.room_stub.CreateRoom(mine, metadata=auth(bo.access_token))
    assert (retried.room.room_id, retried.seat, retried.seat_token) == (
        created.room.room_id,
        created.seat,
        created.seat_token,
    )
    assert b.server.forwarder.forwarded >= 3 and room.room_id not in b.rooms._actors

    # a stalls: b takes the rooms over, rebuilt from their logs, and answers the same.
    await cluster.expire("a")
    assert await b.runtime.sweep() == 2
    after = await b.room_stub.JoinRoom(join)
    assert (after.seat, after.seat_token) == (joined.seat, joined.seat_token)
    assert (await b.room_stub.CreateRoom(mine, metadata=auth(bo.access_token))).seat_token == created.seat_token
    listed = await b.room_stub.ListRooms(room_pb2.ListRoomsRequest())
    assert sorted(r.room_id for r in listed.rooms) == sorted([room.room_id, created.room.room_id])
    assert [sum(seat.taken for seat in r.seats) for r in listed.rooms] == [1, 1], "one seat taken in each room"


async def test_a_tournament_created_again_through_another_node_is_the_same(cluster: Cluster) -> None:
    a, b = await cluster.start("a"), await cluster.start("b")
    create = tournament_pb2.CreateTournamentRequest(
        game="soker", mode=common_pb2.ROOM_MODE_ONLINE, system_players=3, think_seconds=0, request_id=SECRET_ID
    )
    made = (await a.tournament_stub.CreateTournament(create)).tournament
    assert (await b.tournament_stub.CreateTournament(create)).tournament.tournament_id == made.tournament_id
    join = tournament_pb2.JoinTournamentRequest(tournament_id=made.tournament_id, request_id="ann-" + SECRET_ID)
    joined = await a.tournament_stub.JoinTournament(join)  # (the last seat: the first game starts)
    again = await b.tournament_stub.JoinTournament(join)
    assert (again.seat, again.seat_token) == (joined.seat, joined.seat_token)
    listed = await b.tournament_stub.ListTournaments(tournament_pb2.ListTournamentsRequest())
    assert [t.tournament_id for t in listed.tournaments] == [made.tournament_id]
