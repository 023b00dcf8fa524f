"""Cases 4 and 5: a play stream whose client sends moves and never reads made the server hold every answer (+158 MB
for 200k moves); the request-id answers were one window of 1,024 for the whole room, refusals included, so one seat's
1,100 refused moves evicted another seat's answer and that seat's retried request was applied a second time.

(The gateway's own buffers - header size, header timeout, connections per client - are tested in
tests/gateway/test_http_limits.py.)"""

from __future__ import annotations

import asyncio

import grpc

from kickoff.v1 import move_pb2, move_pb2_grpc, room_pb2
from service.rooms.room import REFUSALS_KEPT, RoomLimits
from tests.server.conftest import auth, refusal_info, soker_move
from tests.servers import Start

# The client's receive window stays at 64 KiB (no BDP probing), so the server's writes block once it is full.
SMALL_WINDOW = [("grpc.http2.bdp_probe", 0)]


async def test_a_play_stream_that_is_never_read_is_cut_off_not_buffered(start: Start) -> None:
    harness = await start(room_limits=RoomLimits(stream_buffer=32))
    room_id = (await harness.create(seats=2)).room_id
    tokens = dict([await harness.join(room_id), await harness.join(room_id)])
    waiting = 1 - (await harness.view(room_id)).to_act[0]  # the seat whose turn it is not: every move is refused
    async with grpc.aio.insecure_channel(f"127.0.0.1:{harness.server.port}", options=SMALL_WINDOW) as channel:
        play = move_pb2_grpc.MoveServiceStub(channel).Play(metadata=auth(tokens[waiting]))
        await play.write(move_pb2.PlayRequest(hello=move_pb2.PlayHello(room_id=room_id, after_version=2)))
        sent = 0
        try:
            for sent in range(1, 5_001):  # never reading
                request = move_pb2.SubmitMoveRequest(room_id=room_id, move=soker_move("draw"), request_id=f"r{sent}")
                await play.write(move_pb2.PlayRequest(move=request))
        except grpc.aio.AioRpcError:
            pass  # the server ended the stream while the client was still writing
        answers = 0
        try:
            async with asyncio.timeout(30):  # a server that holds everything never ends the stream: fail, not hang
                while (await play.read()) is not grpc.aio.EOF:
                    answers += 1
        except grpc.aio.AioRpcError:
            pass
        assert await play.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, await play.details()
        assert "did not read" in await play.details()
        assert answers < sent, "the server stopped answering instead of holding every answer"
    # The room and its other seat are unharmed.
    view = await harness.view(room_id, tokens[1 - waiting])
    legal = await harness.legal(room_id, tokens[1 - waiting])
    answer = await harness.submit(room_id, tokens[1 - waiting], legal[0], request_id="fine")
    assert answer.version == view.version + 1


async def test_one_seats_refusals_never_evict_another_seats_answer(start: Start) -> None:
    harness = await start()
    room_id = (await harness.create(seats=2)).room_id
    tokens = dict([await harness.join(room_id), await harness.join(room_id)])
    first = (await harness.view(room_id)).to_act[0]
    legal = await harness.legal(room_id, tokens[first])
    draw = next(move for move in legal if move.soker.HasField("draw"))
    accepted = await harness.submit(room_id, tokens[first], draw, request_id="mine")
    other = 1 - first
    for number in range(1_100):  # refused: a stale expected version
        await refusal_info(
            harness.submit(room_id, tokens[other], soker_move("draw"), request_id=f"spam-{number}", expected=0)
        )
    again = await harness.submit(room_id, tokens[first], draw, request_id="mine")
    assert again.version == accepted.version, "the retry answers as the first time"
    room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert room.version == accepted.version, "and nothing was applied a second time"
    # A seat's own refusals: the last REFUSALS_KEPT answer as before; older ones are judged again.
    _, info, _ = await refusal_info(harness.submit(room_id, tokens[other], soker_move("draw"), request_id="spam-1099"))
    assert info.reason == "stale_version", "a remembered refusal answers as the first time"
    assert REFUSALS_KEPT < 1_100
