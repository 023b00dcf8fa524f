"""Only a node can forward a call: what marks a call forwarded (``kickoff-forwarded-by``) is sealed with the nodes'
key, so a client that sends it itself is served as any client (it used to be answered `room_moved`, a store read
each time), and the caller's address a sealed call names is believed without the forwarding node being a trusted
proxy, while anyone else's ``x-forwarded-for`` is not."""

from __future__ import annotations

from types import SimpleNamespace

from kickoff.v1 import move_pb2, room_pb2
from service.grpc.admission import Admission
from service.grpc.forward import CALLER, FORWARDED_BY, SEAL_SECONDS, Seal
from service.grpc.server import no_limits
from tests.cluster.conftest import Cluster, auth, create_room


async def test_a_clients_own_forwarded_by_metadata_is_ignored(cluster: Cluster) -> None:
    owner = await cluster.start("a")
    entry = await cluster.start("b")
    room = await create_room(owner)
    joined = await entry.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id, name="ann"))
    forged = (*auth(joined.seat_token), (FORWARDED_BY, "a"), (CALLER, "192.0.2.1"))
    for _ in range(3):  # (each used to be answered UNAVAILABLE room_moved, and cost a store read)
        view = await entry.move_stub.GetView(move_pb2.GetViewRequest(room_id=room.room_id), metadata=forged)
        assert view.viewer == joined.seat
    sealed = (FORWARDED_BY, Seal(b"not the nodes' key").seal("a", "192.0.2.1"))
    view = await entry.move_stub.GetView(
        move_pb2.GetViewRequest(room_id=room.room_id), metadata=(*auth(joined.seat_token), sealed)
    )
    assert view.viewer == joined.seat


def context(peer: str, metadata: list[tuple[str, str]]) -> SimpleNamespace:
    return SimpleNamespace(peer=lambda: peer, invocation_metadata=lambda: metadata)


def test_the_caller_a_node_names_is_believed_only_under_its_seal() -> None:
    now = [1_800_000_000.0]
    seal = Seal(b"the nodes' key, 32 bytes long...", clock=lambda: now[0])
    admission = Admission(no_limits())  # (no trusted proxies)
    admission.vouched = seal.caller
    peer = "ipv4:10.0.0.7:50000"  # the forwarding node
    sealed = [(CALLER, "203.0.113.9"), (FORWARDED_BY, seal.seal("b", "203.0.113.9"))]
    assert admission.address(context(peer, sealed)) == "203.0.113.9"
    assert admission.address(context(peer, [(CALLER, "198.51.100.1"), sealed[1]])) == "10.0.0.7"  # another caller
    assert admission.address(context(peer, [(CALLER, "203.0.113.9")])) == "10.0.0.7"  # no seal
    forged = [(CALLER, "203.0.113.9"), (FORWARDED_BY, "b;1800000000;" + "A" * 43)]
    assert admission.address(context(peer, forged)) == "10.0.0.7"
    now[0] += SEAL_SECONDS + 1
    assert admission.address(context(peer, sealed)) == "10.0.0.7"  # a seal long past
