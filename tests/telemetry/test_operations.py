"""The metrics an operator watches a deployment by (deploy/observability.md: its dashboards and alerts): turn clocks
that fire late, writes the store refused while away, refusals by reason, lease claims and hand-overs, the nodes
alive and the rooms nobody claims. Each is read as an exporter would, from the SDK's in-memory reader."""

from __future__ import annotations

import time
from typing import Any

import grpc
import pytest
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from sqlalchemy import text

from kickoff.v1 import common_pb2, move_pb2, move_pb2_grpc, room_pb2, room_pb2_grpc
from service.cluster.node import Node
from service.errors import StoreUnavailable
from service.rooms.clock import ManualClock
from service.rooms.directory import RoomDirectory
from service.settings import NodeSettings
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from service.store.leases import NOW
from service.telemetry import Telemetry, build
from tests.conftest import empty_database
from tests.telemetry.conftest import Stack


def points(reader: InMemoryMetricReader, name: str) -> list[Any]:
    """The data points of the metric ``name`` as the reader collects them now."""
    found: list[Any] = []
    data = reader.get_metrics_data()
    for resource_metrics in data.resource_metrics if data else ():
        for scope in resource_metrics.scope_metrics:
            for metric in scope.metrics:
                if metric.name == name:
                    found.extend(metric.data.data_points)
    return found


def by(reader: InMemoryMetricReader, name: str, *keys: str) -> dict[tuple[Any, ...], Any]:
    """Each point's value (a sum, a gauge) by the attributes ``keys``."""
    return {tuple(p.attributes.get(k) for k in keys): p.value for p in points(reader, name)}


def metered() -> tuple[Telemetry, InMemoryMetricReader]:
    reader = InMemoryMetricReader()
    return build("kickoff-grpc", metric_readers=[reader]), reader


async def test_a_clock_that_fires_late_is_measured_against_its_deadline(stack: Stack) -> None:
    rooms = room_pb2_grpc.RoomServiceStub(stack.channel)
    room = (
        await rooms.CreateRoom(
            room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, system_players=0)
        )
    ).room
    for _ in range(2):
        await rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id))
    live = stack.server.directory.get(room.room_id)
    await live.settle()
    assert not points(stack.grpc.metrics, "kickoff.clock.lateness"), "no clock ran out yet"
    deadline = live.first_deadline
    assert deadline is not None
    # The machine was away 7 s past the deadline (a stalled loop, a node that rebuilt the room late).
    stack.clock.advance(deadline.deadline - stack.clock.now() + 7.0)
    await live.settle()
    expiries = sum(p.value for p in points(stack.grpc.metrics, "kickoff.clock.expiries"))
    (late,) = points(stack.grpc.metrics, "kickoff.clock.lateness")
    assert expiries >= 1 and late.count == expiries
    assert late.sum == pytest.approx(7.0 * expiries)
    assert dict(late.attributes) == {"kickoff.game": "soker"}
    # In seconds' buckets (not the SDK's default ones, made for milliseconds): 7 s falls between 5 and 10.
    bounds = list(late.explicit_bounds)
    assert bounds[0] <= 0.001 and 5.0 in bounds and 10.0 in bounds
    assert late.bucket_counts[bounds.index(10.0)] == expiries


async def test_refusals_are_counted_by_reason_once_each_and_accepted_moves_not_at_all(stack: Stack) -> None:
    created = await stack.http.post(
        "/v1/rooms", json={"game": "soker", "mode": "ROOM_MODE_SOLO", "seats": 2, "systemPlayers": 1}
    )
    room_id = created.json()["roomId"]
    token = (await stack.http.post(f"/v1/rooms/{room_id}/seats", json={"name": "ann"})).json()["seatToken"]
    await stack.server.directory.get(room_id).settle()
    moves = move_pb2_grpc.MoveServiceStub(stack.channel)
    auth = (("authorization", f"Bearer {token}"),)
    legal = await moves.ListLegalMoves(move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth)
    await moves.SubmitMove(move_pb2.SubmitMoveRequest(room_id=room_id, move=legal.moves[0]), metadata=auth)
    await stack.server.directory.get(room_id).settle()
    assert not points(stack.grpc.metrics, "kickoff.refusals"), "accepted calls are not refusals"
    # A stale version over gRPC, twice; an unknown room over REST (refused by the server, passed on by the gateway).
    for _ in range(2):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await moves.SubmitMove(
                move_pb2.SubmitMoveRequest(room_id=room_id, move=legal.moves[0], expected_version=1), metadata=auth
            )
        assert refused.value.code() == grpc.StatusCode.ABORTED
    missing = await stack.http.get("/v1/rooms/nosuchroom")
    assert missing.status_code == 404
    counted = by(stack.grpc.metrics, "kickoff.refusals", "kickoff.reason", "kickoff.grpc.code")
    assert counted == {("stale_version", "ABORTED"): 2, ("room_not_found", "NOT_FOUND"): 1}
    assert not points(stack.gateway.metrics, "kickoff.refusals"), "counted once, where the refusal is made"


async def test_writes_the_store_refuses_while_away_are_counted(tmp_path) -> None:
    telemetry, reader = metered()
    away = SqlJournal(create_engine(f"sqlite+aiosqlite:///{tmp_path}/gone/kickoff.db"), telemetry, retry_seconds=0.05)
    directory = RoomDirectory(clock=ManualClock(), journal=away, default_think_seconds=0, telemetry=telemetry)
    for _ in range(2):  # (the first waits out the retry budget; the next, while the store is still away, does not)
        with pytest.raises(StoreUnavailable):
            await directory.create(game="soker", mode="online", seats=2, system_players=0)
    assert sum(p.value for p in points(reader, "kickoff.store.unavailable")) == 2
    await away.close()
    # A store that takes every write counts none.
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    telemetry, reader = metered()
    journal = SqlJournal(create_engine(url), telemetry, retry_seconds=0.05)
    directory = RoomDirectory(clock=ManualClock(), journal=journal, default_think_seconds=0, telemetry=telemetry)
    await directory.create(game="soker", mode="online", seats=2, system_players=0)
    assert points(reader, "kickoff.db.commit.duration") and not points(reader, "kickoff.store.unavailable")
    await journal.close()


def node(engine: Any, node_id: str, telemetry: Telemetry | None = None) -> Node:
    settings = NodeSettings(node_id=node_id, lease_seconds=30.0, renew_seconds=7.5)
    return Node.for_engine(engine, settings, f"{node_id}:50051", telemetry)


async def test_lease_claims_hand_overs_nodes_alive_and_rooms_nobody_claims(tmp_path) -> None:
    url = await empty_database("postgresql", tmp_path)
    await upgrade_in_thread(url)
    engine = create_engine(url)
    (ta, ra), (tb, rb), (tc, rc) = metered(), metered(), metered()
    a, b, c = node(engine, "a", ta), node(engine, "b", tb), node(engine, "c", tc)
    await a.join()
    await b.join()
    async with engine.begin() as connection:
        for kind, target in (("room", "r1"), ("room", "r2"), ("tournament", "t1")):
            await connection.execute(
                text(
                    "INSERT INTO leases (kind, target_id, node_id, epoch, tournament_id, claimed_at) "
                    f"VALUES (:kind, :target, 'a', 1, '', {NOW})"
                ),
                {"kind": kind, "target": target},
            )
            a.hold(kind, target, 1)
    assert not points(rb, "kickoff.nodes.alive"), "nothing is reported before the node has looked"
    await b.sweep()
    assert by(rb, "kickoff.nodes.alive") == {(): 2}
    assert by(rb, "kickoff.leases.orphaned", "kickoff.lease.kind") == {("room",): 0, ("tournament",): 0}
    assert not points(rb, "kickoff.lease.claims")

    # Node a dies; its leases have been orphaned for longer than a lease. A claim of r2 is stuck (its row locked).
    async with engine.begin() as connection:
        await connection.execute(text(f"UPDATE nodes SET expires_at = {NOW} - 31 WHERE node_id = 'a'"))
    async with engine.connect() as stuck:
        transaction = await stuck.begin()
        await stuck.execute(text("SELECT 1 FROM leases WHERE target_id = 'r2' FOR UPDATE"))
        await b.sweep()
        await transaction.rollback()
    assert by(rb, "kickoff.nodes.alive") == {(): 1}, "node a is gone"
    assert by(rb, "kickoff.leases.orphaned", "kickoff.lease.kind") == {("room",): 1, ("tournament",): 0}
    await b.sweep()
    assert by(rb, "kickoff.leases.orphaned", "kickoff.lease.kind") == {("room",): 0, ("tournament",): 0}
    claims = by(rb, "kickoff.lease.claims", "kickoff.lease.kind", "kickoff.lease.outcome")
    assert claims == {("room", "swept"): 2, ("tournament", "swept"): 1}

    # Node a comes back from its stall: what b took is gone from it.
    a._renewed = time.monotonic() - 31  # (its last renewal was longer than a lease ago)
    assert sorted(await a.renew()) == [("room", "r1"), ("room", "r2"), ("tournament", "t1")]
    assert by(ra, "kickoff.lease.handovers", "kickoff.lease.outcome") == {("taken",): 3}

    # Node b drains: it gives its three leases back and stops reporting what it can no longer see; a call for r1 on
    # node c claims it at once.
    await c.join()
    assert await b.drain() == 3
    assert by(rb, "kickoff.lease.handovers", "kickoff.lease.outcome") == {("given_back",): 3}
    assert not points(rb, "kickoff.nodes.alive") and not points(rb, "kickoff.leases.orphaned")
    assert (await c.resolve("room", "r1")).at == 3
    assert by(rc, "kickoff.lease.claims", "kickoff.lease.kind", "kickoff.lease.outcome") == {("room", "call"): 1}

    # Without metrics exported a node never reads the census (it costs nothing).
    quiet = node(engine, "d")
    await quiet.join()
    await quiet.sweep()
    assert quiet.census is None
    await engine.dispose()
