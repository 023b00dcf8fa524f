"""A node cut from PostgreSQL, as a fault soak cut one (each node in its own network namespace, packets dropped, then
its sockets reset): the node reaches the store through a relay (tests/freeze.py) that freezes (passes nothing, new
connections hang), resets every connection (RST) or refuses new ones. PostgreSQL stays real; the other node reaches
it directly.

What must hold: no move is acknowledged unless the log holds that very move (a commit that may have happened is
settled by asking for *this* line, not for any line at its version), a commit waits on a silent store for a bounded
time, a node whose lease may have run out answers for none of its rooms, and every store failure is the retriable
UNAVAILABLE."""

from __future__ import annotations

import asyncio

import grpc

from kickoff.v1 import move_pb2, room_pb2
from tests.cluster.conftest import Cluster, Monotonic, auth, create_room
from tests.server.conftest import refusal

LEASE = 30.0  # seconds (the lease loops do not run: the tests move the nodes' lease clocks, expire and sweep)
GUARD = 60.0  # seconds: a test that waits longer than this has hung (no assertion depends on it)


async def _first_move(member, room_id: str, token: str, request_id: str) -> move_pb2.SubmitMoveRequest:
    legal = await member.move_stub.ListLegalMoves(move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(token))
    assert legal.moves, "the person is to act"
    return move_pb2.SubmitMoveRequest(
        room_id=room_id, move=legal.moves[0], request_id=request_id, expected_version=legal.version
    )


async def _in_flight(member, before: int) -> None:
    """Until the node has sent the store something more than ``before`` bytes in all (its commit, held by the cut)."""
    for _ in range(2_000):
        if member.store.received > before:
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the move never reached the store's relay")


async def test_a_move_cut_mid_commit_is_not_acknowledged_for_the_line_another_node_stored(cluster: Cluster) -> None:
    # Reproduces the soak's lost move: node a is cut from PostgreSQL with a move in its commit, its sockets are reset,
    # node b claims the room and its clock stores the table's move at that version; after the heal a asked whether the
    # store held *a* line at the version, found b's, and answered "OK" for a move that is nowhere.
    a = await cluster.start("a", LEASE, cuttable=True, try_seconds=None)  # (waits on the cut: isolates the check)
    b = await cluster.start("b", LEASE)
    room = await create_room(a, seats=2, system_players=1)
    joined = await a.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id, name="ann"))
    request = await _first_move(a, room.room_id, joined.seat_token, "cut-move")
    assert a.store is not None
    a.store.freeze()
    before = a.store.received
    move = asyncio.ensure_future(a.move_stub.SubmitMove(request, metadata=auth(joined.seat_token), timeout=GUARD))
    await _in_flight(a, before)
    a.store.reset()  # the commit fails: it may or may not have happened, so a asks the store (and waits on the cut)

    await cluster.expire("a")
    assert await b.runtime.sweep() == 1
    cluster.clock.advance(3_600)  # the person's clock runs out on b: the table's move takes the version
    await b.rooms.get(room.room_id).actor.settle()
    log = await cluster.log(room.room_id)
    taken = next(line for line in log if line.version == request.expected_version + 1)
    assert (taken.kind, taken.epoch, taken.request_id) == ("table", 2, "")

    a.store.thaw()  # the heal
    try:
        answer = await asyncio.wait_for(move, GUARD)
    except grpc.aio.AioRpcError as error:
        assert error.code() == grpc.StatusCode.UNAVAILABLE, error  # not stored: retriable, and nothing acknowledged
    else:
        stored = next((line for line in await cluster.log(room.room_id) if line.version == answer.version), None)
        assert stored is not None and stored.request_id == "cut-move", (
            f"acknowledged at version {answer.version}, where the log holds {stored}"
        )
    assert "cut-move" not in [line.request_id for line in await cluster.log(room.room_id)]


async def test_a_commit_the_store_does_not_answer_is_answered_while_the_cut_lasts(cluster: Cluster) -> None:
    # Packets dropped, nothing reset: a try that waits on a store that answers nothing is given up after try_seconds,
    # and the writer hears UNAVAILABLE while the cut still lasts, rather than whenever the network heals.
    a = await cluster.start("a", LEASE, cuttable=True, retry_seconds=0.2, try_seconds=0.3)
    room = await create_room(a, seats=2, system_players=1)
    joined = await a.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id, name="ann"))
    request = await _first_move(a, room.room_id, joined.seat_token, "silent")
    assert a.store is not None
    a.store.freeze()
    code, why, _ = await asyncio.wait_for(
        refusal(a.move_stub.SubmitMove(request, metadata=auth(joined.seat_token), timeout=GUARD)), GUARD
    )
    assert (code, why) == (grpc.StatusCode.UNAVAILABLE, "store_unavailable")
    assert not a.store._thawed.is_set(), "answered while the cut lasts"

    a.store.thaw()  # healed: the room rebuilds from the store by itself, and the same request is served
    for _ in range(200):
        try:
            answer = await a.move_stub.SubmitMove(request, metadata=auth(joined.seat_token), timeout=GUARD)
            break
        except grpc.aio.AioRpcError as error:
            assert error.code() == grpc.StatusCode.UNAVAILABLE, error
            await asyncio.sleep(0.05)  # (a client's backoff)
    else:
        raise AssertionError("the room never came back")
    assert [line.version for line in await cluster.log(room.room_id) if line.request_id == "silent"] == [answer.version]


async def test_a_node_whose_lease_may_have_run_out_answers_for_none_of_its_rooms(cluster: Cluster) -> None:
    # A node cut from the store for longer than its lease went on serving a room from memory after another node had
    # claimed it (a version behind), and refused the seat token the new owner issued ("seat was given back").
    clock = Monotonic()
    a = await cluster.start("a", LEASE, monotonic=clock)
    b = await cluster.start("b", LEASE)
    kept = await create_room(a, seats=2, system_players=1)  # a keeps this one: nobody claims it
    moved = await create_room(a, seats=2, system_players=1)  # b claims this one
    seat = await a.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=kept.room_id, name="ann"))
    assert (await a.room_stub.GetRoom(room_pb2.GetRoomRequest(room_id=kept.room_id))).room.room_id == kept.room_id

    clock.now += LEASE + 0.01  # a's last renewal is now older than its lease (it stalled, or its store was cut)
    for room_id in (kept.room_id, moved.room_id):
        for call in (
            a.room_stub.GetRoom(room_pb2.GetRoomRequest(room_id=room_id)),
            b.room_stub.GetRoom(room_pb2.GetRoomRequest(room_id=room_id)),  # (forwarded to a)
        ):
            code, why, _ = await refusal(call)
            assert (code, why) == (grpc.StatusCode.UNAVAILABLE, "room_moved")
    code, why, _ = await refusal(
        a.move_stub.GetView(move_pb2.GetViewRequest(room_id=kept.room_id), metadata=auth(seat.seat_token))
    )
    assert (code, why) == (grpc.StatusCode.UNAVAILABLE, "room_moved")

    # b claims one room (a's row has expired) and seats someone; a, still past its lease, sends them there or
    # refuses, retriably, but never answers from memory nor refuses b's token.
    await cluster.expire("a")
    b.node.moved("room", moved.room_id)  # (b forgets that a owned it a moment ago, and claims it)
    assert await b.runtime.resolve("room", moved.room_id) == 2
    joined = await b.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=moved.room_id, name="bob"))
    code, why, _ = await refusal(
        a.move_stub.GetView(move_pb2.GetViewRequest(room_id=moved.room_id), metadata=auth(joined.seat_token))
    )
    assert (code, why) == (grpc.StatusCode.UNAVAILABLE, "room_moved")

    # a renews at last: it lets go of what b took (and forwards there), and answers again for what is still its own.
    await a.runtime.renew()
    view = await a.move_stub.GetView(move_pb2.GetViewRequest(room_id=moved.room_id), metadata=auth(joined.seat_token))
    assert view.viewer == joined.seat and moved.room_id not in a.rooms._actors
    assert (await a.room_stub.GetRoom(room_pb2.GetRoomRequest(room_id=kept.room_id))).room.version >= 1


async def test_every_store_failure_on_the_way_to_a_room_is_unavailable(cluster: Cluster) -> None:
    # A node whose store connections are reset and refused: finding the owner of a room it does not hold raised the
    # driver's own errors, which were answered INTERNAL (REST: 500), where clients that follow the docs stop retrying.
    a = await cluster.start("a", LEASE, cuttable=True)
    b = await cluster.start("b", LEASE)
    room = await create_room(b, seats=2, system_players=1)
    assert a.store is not None
    a.store.refusing = True
    a.store.reset()
    calls = (
        lambda: a.room_stub.GetRoom(room_pb2.GetRoomRequest(room_id=room.room_id)),
        lambda: a.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id, name="ann")),
        lambda: a.move_stub.ListLegalMoves(move_pb2.ListLegalMovesRequest(room_id=room.room_id)),
        lambda: a.room_stub.CreateRoom(
            room_pb2.CreateRoomRequest(game="soker", mode=1, seats=2, system_players=1, think_seconds=0)
        ),
    )
    for call in calls:
        code, why, message = await asyncio.wait_for(refusal(call()), GUARD)
        assert (code, why) == (grpc.StatusCode.UNAVAILABLE, "store_unavailable"), message
