"""A real gRPC server on port 0 with a manual clock and fixed seeds, and a small client for the tests."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
from google.protobuf import struct_pb2
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from deals.scheme import game_seed
from kickoff.v1 import (
    common_pb2,
    friend_pb2_grpc,
    game_pb2_grpc,
    match_pb2_grpc,
    move_pb2,
    move_pb2_grpc,
    player_pb2_grpc,
    room_pb2,
    room_pb2_grpc,
    tournament_pb2_grpc,
    webhook_pb2_grpc,
)
from service.grpc.server import KickoffServer, create_server
from service.grpc.tokens import SeatTokens
from service.rooms.clock import ManualClock
from service.rooms.directory import RoomDirectory
from tests.room_ids import room_ids_for_test


def auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


@dataclass
class Harness:
    server: KickoffServer
    clock: ManualClock
    directory: RoomDirectory
    channel: grpc.aio.Channel
    player_store: Any = None  # (a PlayerStore where the server has players)
    matchmaker: Any = None  # (a Matchmaker where it has players: the test turns its queues, matchmaker.tick())
    webhooks: Any = None  # (a Webhooks where the test asked for them: the test steps its dispatcher)
    inbox: Any = None  # (an Inbox where the test asked for one: service/inbox)
    friend_store: Any = None  # (a FriendStore where the server has players)
    presence: Any = None  # (a Presence where the test asked for one: service/presence)
    invitations: Any = None  # (a RoomInvitations where the server has players)
    chat: Any = None  # (a Chat where the test asked for one: service/chat)

    @property
    def rooms(self) -> room_pb2_grpc.RoomServiceStub:
        return room_pb2_grpc.RoomServiceStub(self.channel)

    @property
    def moves(self) -> move_pb2_grpc.MoveServiceStub:
        return move_pb2_grpc.MoveServiceStub(self.channel)

    @property
    def tournaments(self) -> tournament_pb2_grpc.TournamentServiceStub:
        return tournament_pb2_grpc.TournamentServiceStub(self.channel)

    @property
    def games(self) -> game_pb2_grpc.GameServiceStub:
        return game_pb2_grpc.GameServiceStub(self.channel)

    @property
    def players(self) -> player_pb2_grpc.PlayerServiceStub:
        return player_pb2_grpc.PlayerServiceStub(self.channel)

    @property
    def matches(self) -> match_pb2_grpc.MatchServiceStub:
        return match_pb2_grpc.MatchServiceStub(self.channel)

    @property
    def friends(self) -> friend_pb2_grpc.FriendServiceStub:
        return friend_pb2_grpc.FriendServiceStub(self.channel)

    @property
    def webhook_admin(self) -> webhook_pb2_grpc.WebhookServiceStub:
        return webhook_pb2_grpc.WebhookServiceStub(self.channel)

    async def create(
        self, *, seats: int = 4, system_players: int = 0, solo: bool = False, options: dict[str, Any] | None = None
    ) -> room_pb2.Room:
        request = room_pb2.CreateRoomRequest(
            game="soker",
            mode=common_pb2.ROOM_MODE_SOLO if solo else common_pb2.ROOM_MODE_ONLINE,
            seats=seats,
            system_players=system_players,
            think_seconds=0,
        )
        if options:
            request.options.CopyFrom(struct_pb2.Struct())
            request.options.update(options)
        return (await self.rooms.CreateRoom(request)).room

    async def join(self, room_id: str, seat: int | None = None, name: str = "", seed: str = "") -> tuple[int, str]:
        request = room_pb2.JoinRoomRequest(room_id=room_id, name=name, seed=seed)
        if seat is not None:
            request.seat = seat
        response = await self.rooms.JoinRoom(request)
        return response.seat, response.seat_token

    async def seeds_dealing(self, room_id: str, secret: int, good: Callable[[int], bool]) -> dict[int, str]:
        """A seed for each person's seat of the waiting room (by seat) such that the game's seed the room derives
        from ``secret`` (its seed_source's int) and the seats' seeds satisfies ``good``: a test that needs a certain
        deal gets it through the fair deal's derivation (deals/scheme.py), as the seats' own entropy would."""
        room = (await self.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
        people = [seat.seat for seat in room.seats if seat.kind == common_pb2.SEAT_KIND_PERSON]
        for n in itertools.count():
            given = {seat: "" for seat in people} | {people[-1]: f"t{n}"}
            seeds = [given.get(seat.seat, seat.seed) for seat in room.seats]
            if good(game_seed(secret.to_bytes(32, "big"), room.deal.subject, room.game, seeds)):
                return given
        raise AssertionError("unreachable")

    async def settle(self, room_id: str) -> None:
        """Wait until the room has handled everything queued (system players' moves, clock expiries)."""
        await self.directory.get(room_id).settle()

    async def legal(self, room_id: str, token: str) -> list[move_pb2.Move]:
        response = await self.moves.ListLegalMoves(
            move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(token)
        )
        return list(response.moves)

    async def view(self, room_id: str, token: str | None = None) -> move_pb2.GetViewResponse:
        metadata = auth(token) if token else ()
        return await self.moves.GetView(move_pb2.GetViewRequest(room_id=room_id), metadata=metadata)

    async def submit(
        self, room_id: str, token: str, move: move_pb2.Move, request_id: str = "", expected: int | None = None
    ) -> move_pb2.SubmitMoveResponse:
        request = move_pb2.SubmitMoveRequest(room_id=room_id, move=move, request_id=request_id)
        if expected is not None:
            request.expected_version = expected
        return await self.moves.SubmitMove(request, metadata=auth(token))


def soker_move(kind: str, *cards: str) -> move_pb2.Move:
    if kind == "play":
        return move_pb2.Move(soker={"play": {"cards": list(cards)}})
    return move_pb2.Move(soker={kind: {}})


async def play_room(harness: Harness, room_id: str, token: str) -> None:
    """The seat of ``token`` plays a card whenever it can, else its first legal move, until the room's game ends (a
    tournament's games: the same token in every room)."""
    while True:
        await harness.settle(room_id)
        view = await harness.view(room_id, token)
        if not view.to_act:
            return
        legal = await harness.legal(room_id, token)
        plays = [move for move in legal if move.soker.HasField("play")]
        await harness.submit(room_id, token, (plays or legal)[0], expected=view.version)


async def refusal(call) -> tuple[grpc.StatusCode, str, str]:
    """Await a call that must fail; returns its code, its ErrorInfo reason and its message."""
    code, info, message = await refusal_info(call)
    return code, info.reason, message


async def refusal_info(call) -> tuple[grpc.StatusCode, error_details_pb2.ErrorInfo, str]:
    """Await a call that must fail; returns its code, its whole ErrorInfo and its message."""
    with pytest.raises(grpc.aio.AioRpcError) as failed:
        await call
    error = failed.value
    status = rpc_status.from_call(error)
    info = error_details_pb2.ErrorInfo()
    if status is not None:
        for detail in status.details:
            if detail.Unpack(info):
                break
    return error.code(), info, error.details()


@pytest.fixture
async def harness() -> AsyncIterator[Harness]:
    clock = ManualClock()
    seeds = itertools.count(1)
    directory = RoomDirectory(
        clock=clock, seed_source=lambda: next(seeds), default_think_seconds=0, room_ids=room_ids_for_test()
    )
    server = await create_server(directory, SeatTokens(b"a test secret of 32 bytes......."))
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{server.port}")
    yield Harness(server, clock, directory, channel)
    await channel.close()
    await server.stop(0)
