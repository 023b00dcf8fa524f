"""Seeded deals (`kickoff grpc --room-seeds SEED:COUNT`, RoomsShared.deals): the benchmarks' way to repeat the same
games from run to run now that a fair deal is bound to its room's random id, and why such a deal is no fair deal."""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import pytest

from deals.scheme import commitment, game_seed
from deals.verify import verify
from kickoff.v1 import common_pb2, move_pb2, room_pb2
from service.grpc.server import create_server
from service.grpc.tokens import SeatTokens
from service.rooms.clock import ManualClock
from service.rooms.directory import DealSpec, NewRoom, RoomDirectory, seeded_deals
from tests.deals.replays import replay_dict
from tests.room_ids import room_ids_for_test
from tests.server.conftest import Harness
from tests.server.test_protocol import play_some


@pytest.fixture
async def seeded() -> AsyncIterator[Harness]:
    """A server whose k-th room is dealt from the secret 5 + k % 2 (as `--room-seeds 5:2` makes it)."""
    clock = ManualClock()
    directory = RoomDirectory(
        clock=clock, deals=seeded_deals(5, 2), default_think_seconds=0, room_ids=room_ids_for_test()
    )
    server = await create_server(directory, SeatTokens(b"a test secret of 32 bytes......."))
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{server.port}")
    yield Harness(server, clock, directory, channel)
    await channel.close()
    await server.stop(0)


async def _played(harness: Harness) -> room_pb2.Room:
    """A two-person Soker room, both seats taken without a seed, played to its end."""
    request = room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2)
    room_id = (await harness.rooms.CreateRoom(request)).room.room_id
    tokens = [(await harness.join(room_id, seat=seat))[1] for seat in range(2)]
    await play_some(harness, room_id, tokens, 2_000)
    return (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room


async def test_seeded_rooms_repeat_their_deals_and_the_verifier_refuses_them(seeded: Harness) -> None:
    """Buys: the benchmarks' repeated games (tests/benchmarks/test_bench_players.py checks the same through a server
    process): rooms 0 and 2 get the same secret and subject, so the same game from the same seats' seeds whatever
    their ids; and the deal says what it is, so `kickoff verify` refuses it rather than calling it fair. Under a
    second."""
    rooms = [await _played(seeded) for _ in range(3)]
    assert [room.deal.subject for room in rooms] == ["seeded/5", "seeded/6", "seeded/5"]
    assert len({room.room_id for room in rooms}) == 3
    secret = (5).to_bytes(32, "big")
    assert rooms[0].deal.commitment == rooms[2].deal.commitment == commitment(secret, "seeded/5", "soker")
    assert rooms[0].deal.commitment != rooms[1].deal.commitment
    seeds = [seeded.directory.get(room.room_id).seed for room in rooms]
    assert seeds[0] == seeds[2] == game_seed(secret, "seeded/5", "soker", ["", ""]) != seeds[1]
    assert rooms[0].status == common_pb2.ROOM_STATUS_FINISHED and rooms[0].deal.secret == secret.hex()
    replay = await seeded.moves.GetReplay(move_pb2.GetReplayRequest(room_id=rooms[0].room_id))
    verdict = verify(replay_dict(replay))
    assert not verdict.ok and verdict.version is None
    assert verdict.reason.startswith("the deal is for 'seeded/5': neither this room"), verdict.reason


async def test_a_deal_chosen_by_what_makes_the_room_comes_before_the_seeded_one(seeded: Harness) -> None:
    """Buys: a duplicate tournament on a seeded server still deals its rotations alike (NewRoom.deal wins), and takes
    no number from the sequence. Milliseconds."""
    spec = DealSpec(bytes(range(32)), "t1/deal/0")
    room = await seeded.directory.create(NewRoom(game="soker", mode="solo", seats=2, system_players=1, deal=spec))
    assert room.deal_shown().subject == "t1/deal/0"
    after = await seeded.directory.create(NewRoom(game="soker", mode="solo", seats=2, system_players=1))
    assert after.deal_shown().subject == "seeded/5", "the sequence starts at its first number still"
