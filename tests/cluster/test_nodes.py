"""Several nodes on one PostgreSQL, in this process: every node serves every call (forwarding to the owner), a node
whose lease ran out can no longer write (the fence), the survivors claim its rooms and tournaments and rebuild them,
and a node that drains hands everything over."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from sqlalchemy import text

from kickoff.v1 import move_pb2, room_pb2, tournament_pb2
from service.store.database import create_engine
from service.store.journal import SqlJournal
from service.store.leases import NodeIdInUse
from tests.cluster.conftest import Cluster, auth, create_room, play_turn
from tests.server.conftest import refusal


def epochs_in_order(log) -> bool:
    versions = [entry.version for entry in log]
    epochs = [entry.epoch for entry in log]
    return versions == list(range(1, len(log) + 1)) and epochs == sorted(epochs)


async def test_any_node_serves_a_room_another_node_owns(cluster: Cluster) -> None:
    a = await cluster.start("a")
    b = await cluster.start("b")
    room = await create_room(a)
    assert a.node.held == {("room", room.room_id): 1}

    joined = await b.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id, name="ann"))  # forwarded
    token = joined.seat_token
    answer = await play_turn(b, room.room_id, token, "first")
    view = await b.move_stub.GetView(move_pb2.GetViewRequest(room_id=room.room_id), metadata=auth(token))
    assert view.version >= answer.version and view.viewer == joined.seat
    assert room.room_id not in b.rooms._actors  # b never loaded it: a serves it
    assert b.server.forwarder.forwarded >= 4

    # A play stream through b: every update from the start, in order, then a move and its answer.
    async def hello():
        yield move_pb2.PlayRequest(hello=move_pb2.PlayHello(room_id=room.room_id))
        await asyncio.Event().wait()

    stream = b.move_stub.Play(hello(), metadata=auth(token))
    seen = []
    async for message in stream:
        seen.append(message.update.version)
        if message.update.version == view.version:
            break
    stream.cancel()
    assert seen == list(range(1, view.version + 1))

    # Listing through either node shows both nodes' rooms, newest first, a page at a time.
    cluster.clock.advance(1)  # (each node orders its own creations; across nodes, their clocks do)
    other = await create_room(b)
    first = await a.room_stub.ListRooms(room_pb2.ListRoomsRequest(page_size=1))
    second = await a.room_stub.ListRooms(room_pb2.ListRoomsRequest(page_size=1, page_token=first.next_page_token))
    assert [r.room_id for r in (*first.rooms, *second.rooms)] == [other.room_id, room.room_id]
    assert second.rooms[0].version == view.version


async def test_a_node_whose_lease_ran_out_cannot_write_and_its_rooms_go_on_elsewhere(cluster: Cluster) -> None:
    a = await cluster.start("a")
    b = await cluster.start("b")
    room = await create_room(a)
    joined = await a.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id, name="ann"))
    token = joined.seat_token
    before = await play_turn(a, room.room_id, token, "before")

    async def hello():
        yield move_pb2.PlayRequest(hello=move_pb2.PlayHello(room_id=room.room_id, after_version=before.version))
        await asyncio.Event().wait()

    on_a = a.move_stub.Play(hello(), metadata=auth(token))

    await cluster.expire("a")  # a stalled: b takes its room over
    assert await b.runtime.sweep() == 1
    assert b.node.held == {("room", room.room_id): 2}

    # a still believes it owns the room: its next line is refused by the store, and the room stops there.
    code, reason, _ = await refusal(play_turn(a, room.room_id, token, "stale"))
    assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "room_moved")
    assert room.room_id not in a.rooms._actors
    with pytest.raises(grpc.aio.AioRpcError) as ended:
        async for _ in on_a:
            pass
    assert ended.value.code() == grpc.StatusCode.UNAVAILABLE

    # The same request again, through a: forwarded to b, where the rebuilt room takes it.
    again = await play_turn(a, room.room_id, token, "stale")
    assert again.version == before.version + 1
    log = await cluster.log(room.room_id)
    assert [e.request_id for e in log].count("stale") == 1
    assert epochs_in_order(log) and log[-1].epoch == 2 and log[0].epoch == 1


async def test_a_draining_node_hands_its_rooms_and_tournaments_over(cluster: Cluster) -> None:
    a = await cluster.start("a")
    b = await cluster.start("b")
    rooms = [await create_room(a) for _ in range(3)]
    tokens = {}
    for room in rooms:
        joined = await b.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id, name="p"))
        tokens[room.room_id] = joined.seat_token
    created = await a.tournament_stub.CreateTournament(
        tournament_pb2.CreateTournamentRequest(game="soker", mode=1, system_players=3, think_seconds=0)
    )
    tournament_id = created.tournament.tournament_id
    seat = await b.tournament_stub.JoinTournament(tournament_pb2.JoinTournamentRequest(tournament_id=tournament_id))
    game = await b.tournament_stub.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id=tournament_id))
    game_room = game.tournament.game_list[0].room_id
    assert ("tournament", tournament_id) in a.node.held and ("room", game_room) in a.node.held

    await a.server.drain()
    assert a.node.held == {} and a.rooms._actors.keys().isdisjoint(tokens)
    code, reason, _ = await refusal(play_turn(a, rooms[0].room_id, tokens[rooms[0].room_id], "during"))
    assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "room_moved")  # given back, nobody claimed it yet

    assert await b.runtime.sweep() == 5  # 3 rooms, the tournament and its game (claimed with it)
    for room in rooms:
        answer = await play_turn(a, room.room_id, tokens[room.room_id], "after")  # through a, to b
        assert answer.version > 1
    await play_turn(b, game_room, seat.seat_token, "tournament-move")
    standing = await a.tournament_stub.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id=tournament_id))
    assert standing.tournament.game_list[0].room_id == game_room
    for room_id in [r.room_id for r in rooms] + [game_room]:
        assert epochs_in_order(await cluster.log(room_id))


async def test_a_node_restarted_under_its_id_takes_its_rooms_back_and_a_second_process_is_refused(
    cluster: Cluster,
) -> None:
    a = await cluster.start("a", lease_seconds=1.0)
    room = await create_room(a)
    a.node.draining = True  # "dies": stops renewing, keeps its row until it runs out
    await a.server.server.stop(0)

    again = await cluster.start("a2", lease_seconds=1.0)  # (another id meanwhile: claims nothing alive)
    assert again.node.held == {}
    restarted = await cluster.start_again("a", lease_seconds=1.0)  # waits for the dead process's row to run out
    assert restarted.node.held == {("room", room.room_id): 2}

    async def renew_forever() -> None:
        while True:
            await restarted.node.table.renew()
            await asyncio.sleep(0.2)

    renewing = asyncio.create_task(renew_forever())
    try:
        with pytest.raises(NodeIdInUse):
            await cluster.start_again("a", lease_seconds=1.0)
    finally:
        renewing.cancel()


async def test_leases_of_a_dead_node_are_split_among_the_survivors_in_one_sweep(cluster: Cluster) -> None:
    a = await cluster.start("a")
    b = await cluster.start("b")
    c = await cluster.start("c")
    made = {(await create_room(a)).room_id for _ in range(20)}
    await cluster.expire("a")
    claimed = await b.runtime.sweep() + await c.runtime.sweep()
    assert claimed == 20
    held_b = {room_id for _, room_id in b.node.held}
    held_c = {room_id for _, room_id in c.node.held}
    assert held_b | held_c == made and not held_b & held_c
    assert held_b and held_c  # (by a hash of the ids: 20 rooms on one side has a chance of 2 in a million)
    async with b.journal.engine.connect() as connection:
        owners = dict((await connection.execute(text("SELECT target_id, node_id FROM leases"))).all())
    assert owners == {**dict.fromkeys(held_b, "b"), **dict.fromkeys(held_c, "c")}
    for room_id in made:  # each rebuilt where it was claimed, and served from there
        owner = b if room_id in held_b else c
        assert owner.rooms.get(room_id).epoch == 2


async def test_nodes_starting_together_agree_on_one_token_secret(cluster: Cluster) -> None:
    journals = [SqlJournal(create_engine(cluster.url)) for _ in range(4)]
    try:
        secrets = await asyncio.gather(*(journal.token_secret() for journal in journals))
    finally:
        for journal in journals:
            await journal.close()
    assert len(set(secrets)) == 1 and len(secrets[0]) == 32


async def test_a_lease_a_node_lost_track_of_is_taken_back_on_the_next_call(cluster: Cluster) -> None:
    # A claim whose caller went away between the store's answer and the node's note of it leaves a lease that names
    # the node while the node does not know it holds it: the next call for the room takes it back (a new epoch).
    a = await cluster.start("a")
    room = await create_room(a)
    joined = await a.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id, name="ann"))
    a.node.held.clear()
    a.rooms._actors.pop(room.room_id).stop()
    answer = await play_turn(a, room.room_id, joined.seat_token, "after")
    assert a.node.held == {("room", room.room_id): 2}
    log = await cluster.log(room.room_id)
    assert log[-1].request_id == "after" and epochs_in_order(log) and log[-1].epoch == 2
    assert answer.version == log[-1].version
