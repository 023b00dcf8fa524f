"""Fair deals on the server (deals/scheme.py): the commitment from the room's first answer, the seats' seeds in the
game's seed, the secret revealed at the end and checked against the commitment, a bad seed refused, a held deal
revealed only when told to (and so after a rebuild)."""

from __future__ import annotations

import grpc

from deals.scheme import commitment, game_seed, secret_from_hex
from engine.registry import get_game
from kickoff.v1 import common_pb2, room_pb2
from service.rooms.deals import RoomDeal
from service.rooms.directory import DealSpec, NewRoom
from tests.server.conftest import Harness, refusal
from tests.server.test_protocol import play_some


async def test_a_deal_is_committed_at_creation_and_its_revealed_secret_deals_the_game(harness: Harness) -> None:
    """Buys: the whole promise of a fair deal on one game (in well under a second)."""
    created = (
        await harness.rooms.CreateRoom(
            room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2)
        )
    ).room
    assert len(created.deal.commitment) == 64 and not created.deal.secret and not created.deal.seeds
    room_id = created.room_id
    tokens = [(await harness.join(room_id, seat=seat, seed=f"mine-{seat}"))[1] for seat in range(2)]
    started = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert list(started.deal.seeds) == ["mine-0", "mine-1"] and [s.seed for s in started.seats] == ["mine-0", "mine-1"]
    assert not started.deal.secret, "no secret while the game is played"
    await play_some(harness, room_id, tokens, 2_000)
    ended = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    secret = secret_from_hex(ended.deal.secret)
    assert commitment(secret, room_id, "soker") == created.deal.commitment
    room = harness.directory.get(room_id)
    assert game_seed(secret, room_id, "soker", ["mine-0", "mine-1"]) == room.seed
    assert game_seed(secret, room_id, "soker", ["mine-0", "other"]) != room.seed, "a seat's seed changes the deal"
    game = get_game("soker")
    replayed = game.new_game(2, room.options, room.seed)
    for entry in harness.directory.journal.log("room", room_id):
        if entry.kind in ("move", "table"):
            replayed.apply(entry.seat, game.move_from_wire(entry.move), by_table=entry.kind == "table")
    assert replayed.to_json() == room.state.to_json()


async def test_a_bad_seed_is_refused(harness: Harness) -> None:
    """Buys: every request field bounded; the refusal names the seed."""
    room_id = (
        await harness.rooms.CreateRoom(
            room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2)
        )
    ).room.room_id
    for seed in ("with space", "x" * 65):
        code, reason, _ = await refusal(harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, seed=seed)))
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_seed")


async def test_a_held_deal_is_revealed_when_told_and_after_a_rebuild_too(harness: Harness) -> None:
    """Buys: a duplicate tournament's first rotations show no hand until the last is played (RoomDirectory.reveal)."""
    deal = DealSpec(bytes(range(32)), "t1/deal/0", held=True)
    room = await harness.directory.create(NewRoom(game="soker", mode="solo", seats=2, system_players=1, deal=deal))
    assert room.deal_shown().subject == "t1/deal/0"
    _, token = await harness.join(room.room_id, seat=0)
    await play_some(harness, room.room_id, [token, token], 2_000)
    await room.settle()
    while room.status != "finished":
        await play_some(harness, room.room_id, [token, token], 2_000)
        await room.settle()
    steps, revealed, _ = await room.replay_steps(0, 1_000)
    assert not room.deal_shown().secret and not revealed and not any(step.move for step in steps)
    await harness.directory.reveal(room.room_id)
    await harness.directory.reveal(room.room_id)  # (again: nothing more)
    assert room.deal_shown().secret == bytes(range(32)).hex()
    steps, revealed, _ = await room.replay_steps(0, 1_000)
    assert revealed and any(step.move for step in steps)
    room.reset()
    room.actor.version = 0
    await room.actor.replay(harness.directory.journal.log("room", room.room_id))
    assert room.revealed and room.deal_shown().secret == bytes(range(32)).hex(), "the reveal line survives a rebuild"
    assert RoomDeal.of(room.record(), harness.directory.surroundings.sealer).commitment == room.deal.commitment
