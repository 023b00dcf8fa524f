"""Case 6: nothing limited anyone. One anonymous caller created 18,658 rooms in 60 s (305/s), all kept and reloaded
on restart, and 2,000 idle event streams were accepted without limit.

Now: API keys for creating (when the operator requires them), rates per caller on creating and joining, open streams
per caller, a cap on live rooms and tournaments per node, and waiting rooms that close when nobody completes them."""

from __future__ import annotations

import asyncio

import grpc

from kickoff.v1 import common_pb2, move_pb2, room_pb2, tournament_pb2
from service.rooms.room import RoomLimits
from service.settings import Rate
from service.store.database import create_engine, upgrade_in_thread
from service.store.keys import create_key, live_keys, revoke_key
from tests.abuse.test_store_failures import retry_delay
from tests.server.conftest import Harness, refusal_info
from tests.servers import Start

KEY = "a-front-end-key-of-some-length"
GATEWAY = ("127.0.0.1", "::1")  # KICKOFF_TRUSTED_PROXIES: this test's loopback peer is a gateway, named by the operator


def room_request() -> room_pb2.CreateRoomRequest:
    return room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2)


def caller(address: str = "", key: str = "") -> tuple[tuple[str, str], ...]:
    """Metadata as the gateway sends it for a client at ``address`` (believed where the server trusts GATEWAY)."""
    return tuple(item for item in (("x-forwarded-for", address), ("x-api-key", key)) if item[1])


async def test_one_caller_over_its_create_rate_waits_and_no_one_else_does(start: Start) -> None:
    harness = await start(create_rate=Rate(5, 60), trusted_proxies=GATEWAY)
    for _ in range(5):
        await harness.rooms.CreateRoom(room_request(), metadata=caller("203.0.113.7"))
    code, info, _ = await refusal_info(harness.rooms.CreateRoom(room_request(), metadata=caller("203.0.113.7")))
    assert (code, info.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "rate_limited")
    try:
        await harness.rooms.CreateRoom(room_request(), metadata=caller("203.0.113.7"))
    except grpc.aio.AioRpcError as refused:
        assert 11 < retry_delay(refused) <= 12, "one room every 12 s: the next in about 12 s"
    code, info, _ = await refusal_info(
        harness.tournaments.CreateTournament(
            tournament_pb2.CreateTournamentRequest(game="soker", mode=2, system_players=3),
            metadata=caller("203.0.113.7"),
        )
    )
    assert (code, info.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "rate_limited"), "tournaments count too"
    await harness.rooms.CreateRoom(room_request(), metadata=caller("203.0.113.8"))  # another client
    for _ in range(5):  # an IPv6 client counts by its /64: these share one bucket
        await harness.rooms.CreateRoom(room_request(), metadata=caller("2001:db8::1"))
    code, _, _ = await refusal_info(harness.rooms.CreateRoom(room_request(), metadata=caller("2001:db8::2")))
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
    listed = await harness.rooms.ListRooms(room_pb2.ListRoomsRequest())
    assert len(listed.rooms) == 11


async def test_joins_are_rated_per_caller(start: Start) -> None:
    harness = await start(join_rate=Rate(3, 60), trusted_proxies=GATEWAY)
    rooms = [(await harness.create(seats=4)).room_id for _ in range(2)]
    for _ in range(3):
        await harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=rooms[0]), metadata=caller("198.51.100.1"))
    code, info, _ = await refusal_info(
        harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=rooms[1]), metadata=caller("198.51.100.1"))
    )
    assert (code, info.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "rate_limited")
    await harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=rooms[1]), metadata=caller("198.51.100.2"))


async def test_an_api_key_is_required_for_creating_when_the_operator_says_so(start: Start, tmp_path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/keys.db"
    await upgrade_in_thread(url)
    engine = create_engine(url)
    harness = await start(require_api_key=True, api_keys=(KEY,))
    code, info, message = await refusal_info(harness.rooms.CreateRoom(room_request()))
    assert (code, info.reason) == (grpc.StatusCode.UNAUTHENTICATED, "api_key_required") and "x-api-key" in message
    code, info, _ = await refusal_info(harness.rooms.CreateRoom(room_request(), metadata=caller(key="not-a-key")))
    assert (code, info.reason) == (grpc.StatusCode.UNAUTHENTICATED, "bad_api_key")
    room = (await harness.rooms.CreateRoom(room_request(), metadata=caller(key=KEY))).room
    await harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id))  # joining needs no key

    key_id, stored_key = await create_key(engine, "web front-end")
    keys = harness.server.admission.keys
    code, _, _ = await refusal_info(harness.rooms.CreateRoom(room_request(), metadata=caller(key=stored_key)))
    assert code == grpc.StatusCode.UNAUTHENTICATED, "not before the server has read the store's keys"
    keys.replace_stored(await live_keys(engine))  # what the server does every 30 s
    await harness.rooms.CreateRoom(room_request(), metadata=caller(key=stored_key))
    assert await revoke_key(engine, key_id)
    keys.replace_stored(await live_keys(engine))
    code, info, _ = await refusal_info(harness.rooms.CreateRoom(room_request(), metadata=caller(key=stored_key)))
    assert (code, info.reason) == (grpc.StatusCode.UNAUTHENTICATED, "bad_api_key"), "a revoked key is refused"
    await engine.dispose()


async def test_live_rooms_are_capped_and_a_waiting_room_nobody_completes_closes(start: Start) -> None:
    harness = await start(max_live_rooms=3, room_limits=RoomLimits(waiting_seconds=600))
    rooms = [(await harness.create(seats=2)).room_id for _ in range(3)]
    await harness.join(rooms[0], name="ann")
    code, info, _ = await refusal_info(harness.rooms.CreateRoom(room_request()))
    assert (code, info.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "server_full")
    events = harness.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=rooms[1]))
    harness.clock.advance(599)
    await asyncio.gather(*(harness.settle(room_id) for room_id in rooms))
    assert (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=rooms[0]))).room.status == (
        common_pb2.ROOM_STATUS_WAITING
    )
    harness.clock.advance(2)  # ten minutes without a seat change
    await asyncio.gather(*(harness.settle(room_id) for room_id in rooms))
    for room_id in rooms:
        room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
        assert room.status == common_pb2.ROOM_STATUS_FINISHED and room.outcome.reason == "expired"
    heard = [response.update async for response in events]
    assert heard[-1].events[-1].game_ended.outcome.reason == "expired", "followers hear it, then the stream ends"
    code, info, _ = await refusal_info(harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=rooms[2])))
    assert (code, info.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "room_closed")
    await harness.rooms.CreateRoom(room_request())  # room for new ones again


async def first_update(harness: Harness, room_id: str, address: str) -> tuple[object, int]:
    """Opens a spectator's stream for the caller at ``address``; returns it with its first update's version (-1 when
    the server refused it: RESOURCE_EXHAUSTED)."""
    stream = harness.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room_id), metadata=caller(address))
    try:
        return stream, (await stream.read()).update.version
    except grpc.aio.AioRpcError as refused:
        assert refused.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, refused
        return stream, -1


async def test_open_streams_are_capped_per_caller(start: Start) -> None:
    harness = await start(streams_per_caller=3, trusted_proxies=GATEWAY)
    room_id = (await harness.create(seats=2)).room_id
    await harness.join(room_id)
    streams = [await first_update(harness, room_id, "192.0.2.1") for _ in range(3)]
    assert [version for _, version in streams] == [1, 1, 1]
    _, version = await first_update(harness, room_id, "192.0.2.1")
    assert version == -1, "a fourth stream of the same caller is refused"
    other, version = await first_update(harness, room_id, "192.0.2.2")
    assert version == 1, "another caller is served"
    streams[0][0].cancel()
    for _ in range(100):  # the server hears of the cancel a moment later, and then the caller may open one again
        again, version = await first_update(harness, room_id, "192.0.2.1")
        if version == 1:
            break
        await harness.settle(room_id)
    assert version == 1
    for stream in [again, other, *(stream for stream, _ in streams[1:])]:
        stream.cancel()


async def test_rest_callers_get_429_with_retry_after_and_503_when_the_node_is_full(start: Start, gateway) -> None:
    harness = await start(create_rate=Rate(2, 60), max_live_rooms=3, streams_per_caller=2, api_keys=(KEY,))
    client = await gateway(harness)
    body = {"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 2}
    created = [await client.post("/v1/rooms", json=body) for _ in range(2)]
    assert [answer.status_code for answer in created] == [201, 201]
    limited = await client.post("/v1/rooms", json=body)
    assert limited.status_code == 429 and limited.json()["reason"] == "rate_limited"
    assert 25 <= int(limited.headers["retry-after"]) <= 30
    keyed = await client.post("/v1/rooms", json=body, headers={"X-API-Key": "an-unknown-key-of-length"})
    assert keyed.status_code == 401 and keyed.json()["reason"] == "bad_api_key", "the key reaches the server"
    assert (await client.post("/v1/rooms", json=body, headers={"X-API-Key": KEY})).status_code == 201
    full = await client.post("/v1/rooms", json=body, headers={"X-API-Key": KEY})
    assert full.status_code == 503 and full.json()["reason"] == "server_full" and int(full.headers["retry-after"]) > 0

    room_id = created[0].json()["roomId"]
    await harness.join(room_id)  # an update to follow (a stream with nothing to send yet sends no head: issue 15)
    async with (
        client.stream("GET", f"/v1/rooms/{room_id}/events") as first,
        client.stream("GET", f"/v1/rooms/{room_id}/events") as second,
    ):
        assert first.status_code == second.status_code == 200
        third = await client.get(f"/v1/rooms/{room_id}/events")
        assert third.status_code == 429 and third.json()["reason"] == "too_many_streams"
        assert int(third.headers["retry-after"]) > 0
