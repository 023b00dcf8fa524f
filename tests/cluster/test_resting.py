"""Resting correspondence rooms on a cluster's nodes: a room that rests keeps its lease, so a call through any node
reaches its owner, which loads it; only the owner's sweep wakes it; and when the owner dies, the node that claims the
room rebuilds it with the deadline it had."""

from __future__ import annotations

from kickoff.v1 import common_pb2, move_pb2, room_pb2, tournament_pb2
from tests.cluster.conftest import Cluster

DAY = 24 * 3600.0
REST = 300.0  # KICKOFF_REST_SECONDS' default
WAKE = 60.0  # KICKOFF_WAKE_SECONDS' default


async def test_a_resting_room_keeps_its_lease_and_wakes_where_it_lives(cluster: Cluster) -> None:
    a = await cluster.start("a")
    b = await cluster.start("b")
    request = room_pb2.CreateRoomRequest(game="soker", mode=1, seats=2, think_seconds=0, correspondence_hours=24)
    room = (await a.room_stub.CreateRoom(request)).room
    assert room.correspondence_hours == 24
    for name in ("ann", "bo"):  # (through b: forwarded to a)
        await b.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id, name=name))
    before = (await a.room_stub.GetRoom(room_pb2.GetRoomRequest(room_id=room.room_id))).room
    deadline = before.clock.deadline.ToNanoseconds() / 1e9
    assert deadline == cluster.clock.now() + DAY

    cluster.clock.advance(REST)
    assert await a.rooms.rest_and_wake() == ([room.room_id], [])
    assert room.room_id not in a.rooms._actors and a.rooms.resting() == {room.room_id}
    assert a.node.held == {("room", room.room_id): 1}, "resting, it keeps its lease"
    assert await a.journal.due("room", None) == [room.room_id] and await b.journal.due("room", None) == []

    # A call through b is forwarded to a, which reads the room back; b never loads it.
    again = (await b.room_stub.GetRoom(room_pb2.GetRoomRequest(room_id=room.room_id))).room
    assert again == before
    assert room.room_id in a.rooms._actors and room.room_id not in b.rooms._actors
    assert a.rooms.get(room.room_id).epoch == 1

    # It rests again; b's sweep, even close to the deadline, leaves it alone (it is a's to wake), a's wakes it.
    cluster.clock.advance(REST)
    assert (await a.rooms.rest_and_wake())[0] == [room.room_id]
    cluster.clock.advance(deadline - 2 * WAKE - cluster.clock.now())
    assert await b.rooms.rest_and_wake() == ([], [])
    assert await a.rooms.rest_and_wake() == ([], [room.room_id])
    assert cluster.clock.pending() == [deadline]
    cluster.clock.advance(WAKE * 2)
    woken = a.rooms.get(room.room_id)
    await woken.settle()
    assert woken.version == before.version + 1 and woken.published.to_act == (1,)


async def test_when_the_owner_of_a_resting_room_dies_the_claiming_node_keeps_its_deadline(cluster: Cluster) -> None:
    a = await cluster.start("a")
    b = await cluster.start("b")
    request = room_pb2.CreateRoomRequest(game="soker", mode=1, seats=2, think_seconds=0, correspondence_hours=24)
    room = (await a.room_stub.CreateRoom(request)).room
    for name in ("ann", "bo"):
        await a.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id, name=name))
    deadline = a.rooms.get(room.room_id).first_deadline.deadline
    version = a.rooms.get(room.room_id).version
    cluster.clock.advance(REST)
    assert (await a.rooms.rest_and_wake())[0] == [room.room_id]

    await cluster.expire("a")  # a dies with the room resting: b claims it, and rebuilds it
    assert await b.runtime.sweep() == 1
    claimed = b.rooms.get(room.room_id)
    assert claimed.epoch == 2 and claimed.version == version and claimed.first_deadline.deadline == deadline
    assert await b.journal.due("room", None) == [room.room_id]
    cluster.clock.advance(deadline - cluster.clock.now())
    await claimed.settle()
    assert claimed.version == version + 1
    log = await cluster.log(room.room_id)
    assert [entry.epoch for entry in log][-1] == 2 and log[-1].kind == "table"


SOLO_REST = 600.0  # KICKOFF_SOLO_REST_SECONDS' default
ABANDON = 30 * DAY  # KICKOFF_SOLO_ABANDON_SECONDS' default


async def test_a_walked_away_solo_room_rests_on_its_node_wakes_for_its_person_and_ends_as_abandoned(
    cluster: Cluster,
) -> None:
    a = await cluster.start("a", max_live_rooms=1)
    b = await cluster.start("b")
    request = room_pb2.CreateRoomRequest(game="soker", mode=2, seats=2, system_players=1, think_seconds=0)
    room = (await a.room_stub.CreateRoom(request)).room
    joined = await b.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id, name="ann"))  # (forwarded)
    cluster.clock.advance(SOLO_REST)
    assert await a.rooms.rest_and_wake() == ([room.room_id], [])
    assert a.node.held == {("room", room.room_id): 1}, "resting, it keeps its lease"
    assert (await a.room_stub.CreateRoom(request)).room.room_id, "a's cap of one: the resting solo room is not in it"

    # Its person's view, through b, reaches a, which reads it back; b never loads it.
    view = await b.move_stub.GetView(
        move_pb2.GetViewRequest(room_id=room.room_id), metadata=(("authorization", f"Bearer {joined.seat_token}"),)
    )
    assert list(view.to_act) == [0]
    assert room.room_id in a.rooms._actors and room.room_id not in b.rooms._actors

    # It rests again, and a dies: b claims it, and it ends as abandoned when its time comes.
    cluster.clock.advance(SOLO_REST)
    assert (await a.rooms.rest_and_wake())[0] == [room.room_id]
    await cluster.expire("a")
    assert await b.runtime.sweep() == 2
    claimed = b.rooms.get(room.room_id)
    cluster.clock.advance(room.created_at.ToNanoseconds() / 1e9 + ABANDON - cluster.clock.now())
    await claimed.settle()
    ended = (await b.room_stub.GetRoom(room_pb2.GetRoomRequest(room_id=room.room_id))).room
    assert ended.status == common_pb2.ROOM_STATUS_FINISHED and ended.outcome.reason == "abandoned"
    log = await cluster.log(room.room_id)
    assert log[-1].kind == "abandon" and log[-1].epoch == 2


async def test_a_walked_away_solo_tournament_rests_on_its_node_and_wakes_for_its_person(cluster: Cluster) -> None:
    a = await cluster.start("a", max_live_tournaments=1)
    b = await cluster.start("b")
    request = tournament_pb2.CreateTournamentRequest(game="soker", mode=2, system_players=3, think_seconds=0)
    tid = (await a.tournament_stub.CreateTournament(request)).tournament.tournament_id
    joined = await b.tournament_stub.JoinTournament(tournament_pb2.JoinTournamentRequest(tournament_id=tid))
    await a.tournaments.settle()
    get = tournament_pb2.GetTournamentRequest(tournament_id=tid)
    before = (await a.tournament_stub.GetTournament(get)).tournament
    room_id = before.current_room_id
    await a.rooms.get(room_id).settle()
    cluster.clock.advance(SOLO_REST)
    await a.rooms.rest_and_wake()
    assert (await a.tournament_stub.CreateTournament(request)).tournament.tournament_id, (
        "a's cap of one: the resting solo tournament is not in it"
    )
    assert a.tournaments.resting() == {tid} and a.rooms.resting() == {room_id}
    assert {("tournament", tid), ("room", room_id)} <= set(a.node.held), "resting, both keep their leases"

    # Its person's view of its game, through b, reaches a, which reads the game back, and the tournament with it.
    view = await b.move_stub.GetView(
        move_pb2.GetViewRequest(room_id=room_id), metadata=(("authorization", f"Bearer {joined.seat_token}"),)
    )
    assert list(view.to_act) == [0]
    await a.tournaments.settle()
    assert a.tournaments.resting() == set() and tid not in b.tournaments.resting()
    assert (await b.tournament_stub.GetTournament(get)).tournament == before
    assert room_id not in b.rooms.resting() and a.tournaments.in_memory(tid) is not None
