"""A node that stops answering (SIGSTOP, a stalled machine: its connections stay open, nothing comes back) holds no
call up for longer than a lease: a call forwarded to it is answered UNAVAILABLE `room_moved` within the lease (the
forwarded call's own bound) and so is a stream relayed from it (the node-to-node channel's keepalive notices the
silent peer); the same call sent again once the frozen node's lease has run out is served by the node that claims
the room. The frozen node is frozen on the wire (tests/freeze.py): to the other node it is exactly a stopped
process."""

from __future__ import annotations

import asyncio
import contextlib
import time

import grpc

from kickoff.v1 import move_pb2, room_pb2
from tests.cluster.conftest import Cluster, auth, create_room
from tests.cluster.test_seat_streams import reason

LEASE = 2.0  # seconds


async def test_a_frozen_owner_holds_no_forwarded_call_for_longer_than_a_lease(cluster: Cluster) -> None:
    frozen = await cluster.start("a", LEASE, freezable=True)  # (its lease loop does not run: it is never renewed)
    entry = await cluster.start("b", LEASE)
    entry.runtime.start()  # the live node renews, and claims what a dead node leaves
    room = await create_room(frozen)
    joined = await entry.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id, name="ann"))
    seat = auth(joined.seat_token)

    async def hello():
        yield move_pb2.PlayRequest(hello=move_pb2.PlayHello(room_id=room.room_id))
        await asyncio.Event().wait()

    play = entry.move_stub.Play(hello(), metadata=seat)  # relayed from the owner
    events = entry.move_stub.StreamEvents(move_pb2.StreamEventsRequest(room_id=room.room_id), metadata=seat)
    assert (await play.read()).update.version == 1 and (await events.read()).update.version == 1
    assert frozen.freezer is not None
    frozen.freezer.freeze()
    started = time.monotonic()

    async def refused(call) -> tuple[grpc.StatusCode, str, float]:
        try:
            while await call.read() is not grpc.aio.EOF:
                pass
        except grpc.aio.AioRpcError as error:
            return error.code(), reason(error), time.monotonic() - started
        raise AssertionError("the stream ended as if the room were over")

    async def view() -> tuple[grpc.StatusCode, str, float]:
        try:  # no deadline of the caller's own
            await entry.move_stub.GetView(move_pb2.GetViewRequest(room_id=room.room_id), metadata=seat)
        except grpc.aio.AioRpcError as error:
            return error.code(), reason(error), time.monotonic() - started
        raise AssertionError("a frozen owner answered")

    # (the guard is generous: a call that waited for its owner would wait here for ever)
    answers = await asyncio.wait_for(asyncio.gather(view(), refused(play), refused(events)), 6 * LEASE)
    for code, why, seconds in answers:
        assert (code, why) == (grpc.StatusCode.UNAVAILABLE, "room_moved")
        assert seconds <= LEASE + 1.0, f"answered after {seconds:.1f} s, over the lease of {LEASE} s"

    # Sent again, the call reaches the node that claimed the room once the frozen node's lease ran out.
    async def served() -> move_pb2.GetViewResponse:
        while True:
            with contextlib.suppress(grpc.aio.AioRpcError):
                return await entry.move_stub.GetView(
                    move_pb2.GetViewRequest(room_id=room.room_id), metadata=seat, timeout=3 * LEASE
                )
            await asyncio.sleep(0.1)  # (a client's backoff)

    view_after = await asyncio.wait_for(served(), 10 * LEASE)
    assert view_after.viewer == joined.seat and room.room_id in entry.rooms._actors
    print(f"frozen owner: answered after {', '.join(f'{s:.2f}' for _, _, s in answers)} s (lease {LEASE} s)")
