"""A stream opened as a seat ends when the seat changes hands, in all five kinds (server-sent events by seat token and
by stream ticket, StreamEvents by token and by ticket, Play), whether the room is on the node the client talks to or on
another one (the stream relayed): the old holder never sees an update after the seat was given back, its stream ends
UNAUTHENTICATED `seat_released` (an event stream with a `problem` event saying so), and a ticket issued before the
change opens nothing."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from kickoff.v1 import move_pb2, room_pb2
from tests.cluster.conftest import Cluster, auth
from tests.sse import sse_events


def reason(error: grpc.aio.AioRpcError) -> str:
    status = rpc_status.from_call(error)
    info = error_details_pb2.ErrorInfo()
    assert status is not None and status.details[0].Unpack(info)
    return info.reason


async def read_until_refused(call, name: str, limit: int) -> tuple[list[int], grpc.aio.AioRpcError | None]:
    """Versions read from a gRPC stream until it fails (or shows an update past ``limit``: a leak, stop there)."""
    versions: list[int] = []
    try:
        while (message := await asyncio.wait_for(call.read(), 10)) is not grpc.aio.EOF:
            if message.HasField("update"):
                versions.append(message.update.version)
                if message.update.version > limit:
                    call.cancel()
                    return versions, None
        return versions, None
    except grpc.aio.AioRpcError as error:
        return versions, error


async def read_events(response, limit: int) -> list[tuple[str, dict]]:
    """A server-sent event stream's events until it closes (or shows an update past ``limit``)."""
    text = ""
    async for chunk in response.aiter_text():
        text += chunk
        events = sse_events(text)
        if any(name == "update" and int(data["version"]) > limit for name, data in events):
            break
    return sse_events(text)


@pytest.mark.parametrize("route", ["owner", "relayed"])
async def test_a_seats_streams_end_the_moment_the_seat_changes_hands(cluster: Cluster, gateway, route: str) -> None:
    owner = await cluster.start("a")
    other = await cluster.start("b")
    entry = owner if route == "owner" else other  # the node the clients talk to
    rest = await gateway(entry)
    create = room_pb2.CreateRoomRequest(game="soker", mode=1, seats=3, system_seats=[2], think_seconds=0)
    room_id = (await owner.room_stub.CreateRoom(create)).room.room_id
    rooms, moves = entry.room_stub, entry.move_stub

    ann = await rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, name="ann", seat=0))
    seat = auth(ann.seat_token)
    grpc_ticket = await moves.CreateStreamTicket(move_pb2.CreateStreamTicketRequest(room_id=room_id), metadata=seat)
    rest_ticket = (
        await rest.post(f"/v1/rooms/{room_id}/stream-tickets", headers={"Authorization": f"Bearer {ann.seat_token}"})
    ).json()["ticket"]

    async def hello():
        yield move_pb2.PlayRequest(hello=move_pb2.PlayHello(room_id=room_id))
        await asyncio.Event().wait()

    streams = {
        "StreamEvents by token": moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room_id), metadata=seat),
        "StreamEvents by ticket": moves.StreamEvents(
            move_pb2.StreamEventsRequest(room_id=room_id, ticket=grpc_ticket.ticket)
        ),
        "Play": moves.Play(hello(), metadata=seat),
    }
    for name, call in streams.items():  # each is open, and has shown ann's join
        first = await asyncio.wait_for(call.read(), 10)
        assert first.update.version == ann.room.version, name
    sse = {
        "events by token": rest.stream(
            "GET", f"/v1/rooms/{room_id}/events", headers={"Authorization": f"Bearer {ann.seat_token}"}
        ),
        "events by ticket": rest.stream("GET", f"/v1/rooms/{room_id}/events", params={"ticket": rest_ticket}),
    }
    answers = {name: await stream.__aenter__() for name, stream in sse.items()}
    assert all(answer.status_code == 200 for answer in answers.values())

    # Ann gives the seat back; bea takes it, cal the other, and the game starts with bea's hand dealt to seat 0.
    left = (await rooms.LeaveRoom(room_pb2.LeaveRoomRequest(room_id=room_id), metadata=seat)).room.version
    bea = await rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, name="bea", seat=0))
    bea_seat = auth(bea.seat_token)
    await rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, name="cal", seat=1))  # (the game starts)
    for request_id in ("1", "2"):
        await owner.rooms._actors[room_id].settle()
        legal = await moves.ListLegalMoves(move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=bea_seat)
        if not legal.moves:
            continue
        submit = move_pb2.SubmitMoveRequest(
            room_id=room_id, move=legal.moves[0], request_id=request_id, expected_version=legal.version
        )
        await moves.SubmitMove(submit, metadata=bea_seat)

    for name, call in streams.items():
        versions, error = await read_until_refused(call, name, left - 1)
        assert all(version < left for version in versions), f"{name} showed seat 0's updates after it was given back"
        assert error is not None and error.code() == grpc.StatusCode.UNAUTHENTICATED, name
        assert reason(error) == "seat_released", name
    for name, answer in answers.items():
        events = await asyncio.wait_for(read_events(answer, left - 1), 10)
        updates = [int(data["version"]) for event, data in events if event == "update"]
        assert all(version < left for version in updates), f"{name} showed seat 0's updates after it was given back"
        assert events[-1][0] == "problem" and events[-1][1]["reason"] == "seat_released", name
        assert events[-1][1]["status"] == 401
    for stream in sse.values():
        await stream.__aexit__(None, None, None)

    # Nothing issued to ann opens anything now: not her token, nor the tickets minted before she left.
    with pytest.raises(grpc.aio.AioRpcError) as old_ticket:
        await moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room_id, ticket=grpc_ticket.ticket)).read()
    assert old_ticket.value.code() == grpc.StatusCode.UNAUTHENTICATED
    with pytest.raises(grpc.aio.AioRpcError) as old_token:
        await moves.Play(hello(), metadata=seat).read()
    assert old_token.value.code() == grpc.StatusCode.UNAUTHENTICATED
    answer = await rest.get(f"/v1/rooms/{room_id}/events", params={"ticket": rest_ticket})
    assert answer.status_code == 401
    # Bea's own streams are unaffected: she sees the whole room from the start, her join and her moves included.
    mine = moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room_id), metadata=bea_seat)
    versions, _ = await read_until_refused(mine, "bea", bea.room.version + 1)
    assert versions == list(range(1, len(versions) + 1)) and len(versions) > bea.room.version
