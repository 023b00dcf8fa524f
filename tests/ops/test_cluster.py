"""OperatorService on two nodes of one PostgreSQL: the nodes and their leases, live rooms by node, a room's timeline
and close from a node that does not own it (forwarded to the owner), and a node drained through the API."""

from __future__ import annotations

import grpc

from kickoff.v1 import common_pb2, operator_pb2, operator_pb2_grpc, room_pb2
from tests.cluster.conftest import Cluster, Member, create_room
from tests.ops.conftest import op, operator_keys
from tests.server.conftest import refusal


async def node(cluster: Cluster, node_id: str) -> tuple[Member, operator_pb2_grpc.OperatorServiceStub]:
    member = await cluster.start(node_id)
    member.server.operators.keys = operator_keys()  # (every node takes the same operator keys)
    return member, operator_pb2_grpc.OperatorServiceStub(member.channel)


async def test_nodes_leases_rooms_and_a_drain_through_the_api(cluster: Cluster) -> None:
    a, _ = await node(cluster, "a")
    b, stub = await node(cluster, "b")
    first, second = (await create_room(a)).room_id, (await create_room(a)).room_id
    nodes = await stub.ListNodes(operator_pb2.ListNodesRequest(), metadata=op())
    assert nodes.cluster and [(n.node_id, n.alive, n.leases, n.this_node) for n in nodes.nodes] == [
        ("a", True, 2, False),
        ("b", True, 0, True),
    ]
    paged = await stub.ListNodes(operator_pb2.ListNodesRequest(page_size=1), metadata=op())
    assert [n.node_id for n in paged.nodes] == ["a"] and paged.next_page_token == "a"
    leases = await stub.ListLeases(operator_pb2.ListLeasesRequest(node_id="a"), metadata=op())
    assert {(lease.kind, lease.target_id) for lease in leases.leases} == {("room", first), ("room", second)}
    assert all(lease.epoch > 0 and not lease.orphaned for lease in leases.leases)
    live = await stub.ListLiveRooms(operator_pb2.ListLiveRoomsRequest(node_id="a"), metadata=op())
    assert {(room.room_id, room.node_id) for room in live.rooms} == {(first, "a"), (second, "a")}
    assert not (await stub.ListLiveRooms(operator_pb2.ListLiveRoomsRequest(node_id="b"), metadata=op())).rooms

    # b does not own the rooms: the calls are forwarded to a, which acts and stores.
    await b.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=first, name="ann"))
    timeline = await stub.GetRoomTimeline(operator_pb2.GetRoomTimelineRequest(room_id=first), metadata=op())
    assert timeline.room.room_id == first and timeline.updates
    closed = await stub.CloseRoom(operator_pb2.CloseRoomRequest(room_id=first, reason="moving"), metadata=op())
    assert closed.room.outcome.reason == "closed_by_operator: moving"
    assert a.rooms.get(first).status == "finished"

    drained = await stub.DrainNode(operator_pb2.DrainNodeRequest(node_id="a"), metadata=op())
    assert (drained.node_id, drained.rooms, drained.leases) == ("a", 1, 1)
    nodes = await stub.ListNodes(operator_pb2.ListNodesRequest(), metadata=op())
    assert [(n.node_id, n.alive, n.leases) for n in nodes.nodes] == [("a", False, 0), ("b", True, 0)]
    leases = await stub.ListLeases(operator_pb2.ListLeasesRequest(), metadata=op())
    assert [(lease.target_id, lease.node_id, lease.orphaned) for lease in leases.leases] == [(second, "", True)]
    # Any node takes the room on as soon as a call asks for it.
    room = (await b.room_stub.GetRoom(room_pb2.GetRoomRequest(room_id=second))).room
    assert room.status == common_pb2.ROOM_STATUS_WAITING
    owned = await stub.ListLiveRooms(operator_pb2.ListLiveRoomsRequest(node_id="b"), metadata=op())
    assert [room.room_id for room in owned.rooms] == [second]

    again = stub.DrainNode(operator_pb2.DrainNodeRequest(node_id="a"), metadata=op())
    assert (await refusal(again))[:2] == (grpc.StatusCode.FAILED_PRECONDITION, "node_not_alive")
    unknown = stub.DrainNode(operator_pb2.DrainNodeRequest(node_id="nobody"), metadata=op())
    assert (await refusal(unknown))[:2] == (grpc.StatusCode.NOT_FOUND, "node_not_found")
