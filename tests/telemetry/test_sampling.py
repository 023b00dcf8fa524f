"""Tracing by room: a room is traced, or not, once, as it is made. Every move of a traced room (a person's, a system
player's, the clock's) is a span in the room's trace, so the trace backend holds whole games; a move in an untraced
room makes no SDK call at all (not even the sampler is asked: no span for the move, its commit or its SQL), unless its
own call carries a sampled trace context, which is followed."""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass

import grpc
import pytest
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.sdk.trace.id_generator import IdGenerator
from opentelemetry.sdk.trace.sampling import ParentBased, Sampler, TraceIdRatioBased
from opentelemetry.trace import StatusCode

from kickoff.v1 import common_pb2, move_pb2, move_pb2_grpc, room_pb2, room_pb2_grpc
from service.grpc.server import KickoffServer, create_server
from service.grpc.tokens import SeatTokens
from service.rooms.clock import ManualClock
from service.rooms.directory import RoomDirectory
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from service.telemetry import build
from tests.conftest import empty_database

MOVED = ("room.move", "room.system_player_move", "room.clock_expired", "room.stand_in_move")


class Counting(Sampler):
    """The configured sampler, counting each time the SDK asks it: every span the SDK starts asks it first."""

    def __init__(self, delegate: Sampler) -> None:
        self.delegate = delegate
        self.asked: list[str] = []

    def should_sample(self, parent_context, trace_id, name, kind=None, attributes=None, links=None, trace_state=None):
        self.asked.append(name)
        return self.delegate.should_sample(parent_context, trace_id, name, kind, attributes, links, trace_state)

    def get_description(self) -> str:
        return f"Counting{{{self.delegate.get_description()}}}"


class SeededIds(IdGenerator):
    """Trace and span ids from a seeded generator, so the ratio sampler picks the same rooms on every run."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def generate_span_id(self) -> int:
        return self.random.getrandbits(64) or 1

    def generate_trace_id(self) -> int:
        return self.random.getrandbits(128) or 1


@dataclass
class Traced:
    server: KickoffServer
    journal: SqlJournal
    spans: InMemorySpanExporter
    sampler: Counting
    channel: grpc.aio.Channel


@pytest.fixture
async def traced(tmp_path) -> AsyncIterator[Traced]:
    """A gRPC server on SQLite whose sampler traces half the rooms (parent-based, by trace id), spans in memory."""
    url = await empty_database("sqlite", tmp_path)
    await upgrade_in_thread(url)
    spans, sampler = InMemorySpanExporter(), Counting(ParentBased(TraceIdRatioBased(0.5)))
    telemetry = build(
        "kickoff-grpc", span_processors=[SimpleSpanProcessor(spans)], sampler=sampler, id_generator=SeededIds(7)
    )
    journal = SqlJournal(create_engine(url), telemetry)
    seeds = itertools.count(1)
    directory = RoomDirectory(
        clock=ManualClock(),
        journal=journal,
        seed_source=lambda: next(seeds),
        default_think_seconds=0,
        telemetry=telemetry,
    )
    server = await create_server(directory, SeatTokens(b"a test secret of 32 bytes......."))
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{server.port}")
    yield Traced(server, journal, spans, sampler, channel)
    await channel.close()
    await server.stop(0)
    await journal.close()


async def solo_rooms(traced: Traced, count: int) -> list[tuple[str, str]]:
    rooms = room_pb2_grpc.RoomServiceStub(traced.channel)
    made = []
    for _ in range(count):
        request = room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_SOLO, seats=2, system_players=1)
        room_id = (await rooms.CreateRoom(request)).room.room_id
        made.append((room_id, (await rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id))).seat_token))
    return made


async def play_to_the_end(traced: Traced, room_id: str, token: str, sdk_calls: list[int]) -> None:
    """The person plays the first legal move until the game ends; ``sdk_calls`` gets how many times the SDK was asked
    for a span during each move (the move's call, the system player's answer, the commits and their SQL)."""
    moves = move_pb2_grpc.MoveServiceStub(traced.channel)
    auth = (("authorization", f"Bearer {token}"),)
    room = traced.server.directory.get(room_id)
    while room.status != "finished":
        legal = (await moves.ListLegalMoves(move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth)).moves
        traced.sampler.asked.clear()
        request = move_pb2.SubmitMoveRequest(room_id=room_id, move=legal[0], request_id=f"r{room.version}")
        await moves.SubmitMove(request, metadata=auth)
        await room.settle()
        sdk_calls.append(len(traced.sampler.asked))


async def test_a_room_is_traced_whole_or_not_at_all_and_an_untraced_rooms_moves_make_no_sdk_call(
    traced: Traced,
) -> None:
    made = await solo_rooms(traced, 8)
    created = {
        s.attributes["kickoff.room_id"]: s for s in traced.spans.get_finished_spans() if s.name == "room.created"
    }
    assert 0 < len(created) < len(made), "the ratio traces some rooms and not others"
    for room_id, token in made:
        sdk_calls: list[int] = []
        await play_to_the_end(traced, room_id, token, sdk_calls)
        record, log = await traced.journal.load_one("room", room_id)
        spans = [s for s in traced.spans.get_finished_spans() if s.attributes.get("kickoff.room_id") == room_id]
        if room_id not in created:
            assert record.trace_parent == ""
            assert sum(sdk_calls) == 0, f"an untraced room's moves asked the SDK {sum(sdk_calls)} times"
            assert spans == [], "no span names an untraced room"
            continue
        root = created[room_id]
        assert record.trace_parent == f"00-{root.context.trace_id:032x}-{root.context.span_id:016x}-01", "kept"
        moved = {s.attributes["kickoff.version"]: s for s in spans if s.name in MOVED}
        versions = {line.version for line in log if line.kind in ("move", "table", "stand_in")}
        assert versions and set(moved) == versions, "every move of the traced room is a span of its own"
        assert all(s.context.trace_id == root.context.trace_id for s in spans), "one trace holds the whole game"
        assert all(s.parent.span_id == root.context.span_id for s in moved.values())
        assert {s.attributes["kickoff.seat"] for s in moved.values()} == {0, 1}, "the person's and the bot's moves"
        commits = {s.parent.span_id for s in traced.spans.get_finished_spans() if s.name == "journal.commit"}
        assert all(s.context.span_id in commits for s in moved.values()), "each move's commit is under it"


async def test_a_move_call_with_a_sampled_trace_context_is_followed_in_an_untraced_room(traced: Traced) -> None:
    made = await solo_rooms(traced, 8)
    created = {s.attributes["kickoff.room_id"] for s in traced.spans.get_finished_spans() if s.name == "room.created"}
    room_id, token = next((room_id, token) for room_id, token in made if room_id not in created)
    moves = move_pb2_grpc.MoveServiceStub(traced.channel)
    legal = (
        await moves.ListLegalMoves(
            move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=(("authorization", f"Bearer {token}"),)
        )
    ).moves
    trace_id, span_id = 0x5EED << 64 | 0xC0FFEE, 0xBEEF
    asked = (("authorization", f"Bearer {token}"), ("traceparent", f"00-{trace_id:032x}-{span_id:016x}-01"))
    request = move_pb2.SubmitMoveRequest(room_id=room_id, move=legal[0], request_id="asked-for-a-trace")
    version = (await moves.SubmitMove(request, metadata=asked)).version
    await traced.server.directory.get(room_id).settle()
    spans = [s for s in traced.spans.get_finished_spans() if s.context.trace_id == trace_id]
    call = next(s for s in spans if s.name == "/kickoff.v1.MoveService/SubmitMove")
    move = next(s for s in spans if s.name == "room.move")
    assert call.parent.span_id == span_id and move.parent.span_id == call.context.span_id
    assert move.attributes["kickoff.room_id"] == room_id and move.attributes["kickoff.version"] == version
    assert not move.links, "the room has no trace to link to"
    assert "journal.commit" in {s.name for s in spans}, "the move's commit is in the trace it asked for"
    # A refused move's call is traced too, with its status: the caller's mistake, not the server's failure.
    stale = move_pb2.SubmitMoveRequest(room_id=room_id, move=legal[0], request_id="stale", expected_version=0)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await moves.SubmitMove(stale, metadata=asked)
    calls = [s for s in traced.spans.get_finished_spans() if s.name == "/kickoff.v1.MoveService/SubmitMove"]
    assert calls[-1].attributes["rpc.grpc.status_code"] == refused.value.code().value[0] != 0
    assert calls[-1].status.status_code == StatusCode.UNSET and call.attributes["rpc.grpc.status_code"] == 0
    # The system player's answer is the room's own work: the room is not traced, so it is not either.
    others = [s for s in traced.spans.get_finished_spans() if s.attributes.get("kickoff.room_id") == room_id]
    assert {s.name for s in others} == {"room.move"} and len(others) == 2
