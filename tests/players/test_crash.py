"""Ratings exactly once across kill -9 at the moment games end: rated games end while the server dies, and after the
restart every game, whether its end was stored before the kill or played again after it, changed each of its players'
ratings exactly once, as the library computes it; a room whose two people joined from one address plays unrated before
and after the restart (its seats' origins are on the join lines). On SQLite and PostgreSQL.

The server runs with its default limits behind a gateway on loopback that it trusts (KICKOFF_TRUSTED_PROXIES): every
player calls from an address of their own (x-forwarded-for), as players at home do."""

from __future__ import annotations

import asyncio
import random

import grpc
import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select

from kickoff.v1 import common_pb2, move_pb2, move_pb2_grpc, player_pb2, player_pb2_grpc, room_pb2, room_pb2_grpc
from service.store.database import create_engine
from service.store.models import RatingChangeRow, RatingRow, RoomRow, SeatRow
from tests.players.conftest import auth, calling_from
from tests.processes import ServerProcess

ROOMS = 12
BEHIND_A_GATEWAY = {"KICKOFF_TRUSTED_PROXIES": "127.0.0.1/32"}
MODEL = PlackettLuce()


async def play(
    moves: move_pb2_grpc.MoveServiceStub,
    room_id: str,
    tokens: dict[int, str],
    ended: asyncio.Queue,
    chooser: random.Random,
) -> None:
    """Both seats of one room, with unary moves, until the game ends (then ``ended`` hears of it) or the server goes
    away."""
    while True:
        view = await moves.GetView(move_pb2.GetViewRequest(room_id=room_id))
        if not view.to_act:
            ended.put_nowait(room_id)
            return
        seat = view.to_act[0]
        legal = await moves.ListLegalMoves(move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(tokens[seat]))
        try:
            await moves.SubmitMove(
                move_pb2.SubmitMoveRequest(
                    room_id=room_id, move=chooser.choice(legal.moves), expected_version=legal.version
                ),
                metadata=auth(tokens[seat]),
            )
        except grpc.aio.AioRpcError as error:
            if error.code() not in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION):
                raise


async def play_all(server: ServerProcess, rooms: dict[str, dict[int, str]], kill_after: int | None) -> None:
    ended: asyncio.Queue[str] = asyncio.Queue()
    async with server.channel() as channel:
        moves = move_pb2_grpc.MoveServiceStub(channel)
        players = [
            asyncio.create_task(play(moves, room_id, tokens, ended, random.Random(index)))
            for index, (room_id, tokens) in enumerate(rooms.items())
        ]
        if kill_after is None:
            await asyncio.gather(*players)
            return
        for _ in range(kill_after):
            await ended.get()
        server.kill9()  # games are ending all around: some ends stored, some in flight, some still to come
        await asyncio.gather(*players, return_exceptions=True)


async def test_each_rated_game_changes_ratings_exactly_once_across_kill_9(database_url: str) -> None:
    with ServerProcess(database_url, settings=BEHIND_A_GATEWAY) as server:
        rooms: dict[str, dict[int, str]] = {}
        async with server.channel() as channel:
            players, room_stub = player_pb2_grpc.PlayerServiceStub(channel), room_pb2_grpc.RoomServiceStub(channel)
            for index in range(ROOMS + 1):  # the last room's two people join from one address
                addresses = [f"198.51.100.{2 * index + 1}", f"198.51.100.{2 * index + 2}"]
                if index == ROOMS:
                    addresses = ["203.0.113.7"] * 2
                a, b = [
                    (await players.SignInAsGuest(player_pb2.SignInAsGuestRequest(name=f"p{index}{side}"))).session
                    for side in "ab"
                ]
                created = await room_stub.CreateRoom(
                    room_pb2.CreateRoomRequest(
                        game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, think_seconds=0
                    ),
                    metadata=auth(a.access_token) + calling_from(addresses[0]),
                )
                joined = await room_stub.JoinRoom(
                    room_pb2.JoinRoomRequest(room_id=created.room.room_id),
                    metadata=auth(b.access_token) + calling_from(addresses[1]),
                )
                if index == ROOMS:
                    assert not joined.room.rated and joined.room.unrated_reason == "same_address"
                    farmed = created.room.room_id
                else:
                    assert joined.room.rated
                rooms[created.room.room_id] = {created.seat: created.seat_token, joined.seat: joined.seat_token}
        await play_all(server, rooms, kill_after=ROOMS // 3)
        server.restart()
        await play_all(server, rooms, kill_after=None)  # (the seat tokens hold across the restart)

    engine = create_engine(database_url)
    async with engine.connect() as connection:
        statuses = dict((await connection.execute(select(RoomRow.room_id, RoomRow.status))).all())
        seats = (
            await connection.execute(select(SeatRow.room_id, SeatRow.seat, SeatRow.player_id, SeatRow.place))
        ).all()
        changes = (await connection.execute(select(RatingChangeRow))).all()
        ratings = {row.player_id: row for row in (await connection.execute(select(RatingRow))).all()}
    await engine.dispose()
    assert set(statuses.values()) == {"finished"}
    rated = [s for s in seats if s.room_id != farmed]
    assert sorted((c.room_id, c.player_id) for c in changes) == sorted((s.room_id, s.player_id) for s in rated)
    assert not any(s.player_id in ratings for s in seats if s.room_id == farmed), "the farmed room was rated"
    for room_id in [room_id for room_id in rooms if room_id != farmed]:
        mine = sorted((s for s in seats if s.room_id == room_id), key=lambda s: s.seat)
        a, b = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[s.place for s in mine])
        for seat, expected in zip(mine, (a[0], b[0]), strict=True):
            rating = ratings[seat.player_id]
            assert rating.games == 1, f"room {room_id}: rated {rating.games} times"
            assert rating.mu == pytest.approx(expected.mu) and rating.sigma == pytest.approx(expected.sigma)
