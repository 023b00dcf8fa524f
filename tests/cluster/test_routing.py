"""Routing by room: a client that asks (``kickoff-route: owner``) is told which node owns the room when a node
forwards its call, and sends the room's next calls there; the gateway does so for its REST clients, so a room's calls
and stream updates stop crossing a second node. A client that does not ask is forwarded as before and told nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from types import SimpleNamespace

from kickoff.v1 import move_pb2, room_pb2
from tests.cluster.conftest import Cluster, auth, create_room

ROUTE = (("kickoff-route", "owner"),)


async def within_turns(condition: Callable[[], bool], turns: int = 10_000) -> bool:
    """Whether ``condition`` holds within ``turns`` turns of the event loop (what another task must do first)."""
    for _ in range(turns):
        if condition():
            return True
        await asyncio.sleep(0)
    return condition()


def owner_named(metadata: object) -> str:
    return dict(metadata or ()).get("kickoff-owner", "")


async def test_a_forwarded_call_names_the_owner_to_a_client_that_asks_and_to_no_other(cluster: Cluster) -> None:
    a, b = await cluster.start("a"), await cluster.start("b")
    room = await create_room(a, seats=4, system_players=2)  # (made on a: a owns it)
    join = room_pb2.JoinRoomRequest(room_id=room.room_id)

    plain = b.room_stub.JoinRoom(join)
    await plain
    assert owner_named(await plain.trailing_metadata()) == "", "a client that does not ask is told nothing"

    asking = b.room_stub.JoinRoom(join, metadata=ROUTE)
    token = (await asking).seat_token
    assert owner_named(await asking.trailing_metadata()) == a.node.address
    assert b.server.forwarder.forwarded == 2

    at_owner = a.move_stub.GetView(move_pb2.GetViewRequest(room_id=room.room_id), metadata=(*auth(token), *ROUTE))
    assert (await at_owner).version >= 2
    assert owner_named(await at_owner.trailing_metadata()) == "", "the owner itself forwards nothing"
    assert b.server.forwarder.forwarded == 2, "the call went to the owner, not through b"

    stream = b.move_stub.StreamEvents(
        move_pb2.StreamEventsRequest(room_id=room.room_id, after_version=0), metadata=(*auth(token), *ROUTE)
    )
    assert owner_named(await stream.initial_metadata()) == a.node.address, "a relayed stream names the owner first"
    assert (await stream.read()).update.version == 1
    stream.cancel()


async def test_the_gateway_sends_a_rooms_calls_to_its_owner_once_a_forwarded_answer_named_it(
    cluster: Cluster, gateway
) -> None:
    a, b = await cluster.start("a"), await cluster.start("b")
    room = await create_room(a, seats=2, system_players=1)
    http = await gateway(SimpleNamespace(server=b.server), web=False)  # (behind it: b only, as behind a balancer)
    joined = await http.post(f"/v1/rooms/{room.room_id}/seats", json={"name": "ann"})
    assert joined.status_code == 201, joined.text
    assert b.server.forwarder.forwarded == 1, "the join went through b, which named a"
    bearer = {"Authorization": f"Bearer {joined.json()['seatToken']}"}
    for turn in range(3):  # (the system player answers each move at once)
        legal = (await http.get(f"/v1/rooms/{room.room_id}/legal-moves", headers=bearer)).json()
        body = {"move": legal["moves"][0], "requestId": f"r{turn}", "expectedVersion": legal["version"]}
        moved = await http.post(f"/v1/rooms/{room.room_id}/moves", json=body, headers=bearer)
        assert moved.status_code == 201, moved.text
        await a.rooms.get(room.room_id).settle()
    assert (await http.get(f"/v1/rooms/{room.room_id}", headers=bearer)).status_code == 200
    assert b.server.forwarder.forwarded == 1, "every later call went to a directly"

    # The owner goes away: the call sent there fails (UNAVAILABLE, retriable: 503), the gateway forgets it, and
    # the client's next tries go through b again, which takes the room over (once it has seen a gone) and serves it.
    await a.server.server.stop(0)
    await cluster.expire("a")
    answers = [await http.get(f"/v1/rooms/{room.room_id}/view", headers=bearer) for _ in range(3)]
    assert answers[0].status_code == 503, "a is gone: the call sent there is answered retriably"
    assert answers[-1].status_code == 200, [answer.text for answer in answers]
    assert int(answers[-1].json()["version"]) >= int(legal["version"]), "the game goes on where it was"
    assert b.rooms.get(room.room_id) is not None, "b took the room over"
    assert b.server.forwarder.forwarded >= 1


async def test_the_gateways_event_stream_is_opened_at_the_owner_not_relayed_by_the_node_it_reached(
    cluster: Cluster, gateway
) -> None:
    a, b = await cluster.start("a"), await cluster.start("b")
    room = await create_room(a, seats=2, system_players=1)
    token = (await a.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id))).seat_token
    http = await gateway(SimpleNamespace(server=b.server), web=False)  # (behind it: b only, as behind a balancer)
    bearer = {"Authorization": f"Bearer {token}"}
    async with http.stream("GET", f"/v1/rooms/{room.room_id}/events", headers=bearer) as answer:
        assert answer.status_code == 200
        lines = answer.aiter_lines()
        while not (await anext(lines)).startswith("data:"):  # the first update, at the owner
            pass
        assert b.server.forwarder.forwarded == 1, "the stream's first try went through b, which named a"
        assert await within_turns(lambda: not b.server.forwarder._streams), "b relays nothing: the stream is at a"
        legal = (await http.get(f"/v1/rooms/{room.room_id}/legal-moves", headers=bearer)).json()
        body = {"move": legal["moves"][0], "requestId": "r1", "expectedVersion": legal["version"]}
        moved = await http.post(f"/v1/rooms/{room.room_id}/moves", json=body, headers=bearer)
        assert moved.status_code == 201, moved.text
        while not (await anext(lines)).startswith("data:"):  # the move's update, on the stream from a
            pass
    assert b.server.forwarder.forwarded == 1, "the room's later calls went to a directly"
