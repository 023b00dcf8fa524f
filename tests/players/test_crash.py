"""Ratings exactly once across kill -9 at the moment games end: rated games end while the server dies, and after the
restart every game, whether its end was stored before the kill or played again after it, changed each of its players'
ratings exactly once, as the library computes it. On SQLite and PostgreSQL."""

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
from tests.players.conftest import auth
from tests.processes import ServerProcess

ROOMS = 12
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
    with ServerProcess(database_url) as server:
        rooms: dict[str, dict[int, str]] = {}
        async with server.channel() as channel:
            players, room_stub = player_pb2_grpc.PlayerServiceStub(channel), room_pb2_grpc.RoomServiceStub(channel)
            for index in range(ROOMS):
                a, b = [
                    (await players.SignInAsGuest(player_pb2.SignInAsGuestRequest(name=f"p{index}{side}"))).session
                    for side in "ab"
                ]
                created = await room_stub.CreateRoom(
                    room_pb2.CreateRoomRequest(
                        game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, think_seconds=0
                    ),
                    metadata=auth(a.access_token),
                )
                joined = await room_stub.JoinRoom(
                    room_pb2.JoinRoomRequest(room_id=created.room.room_id), metadata=auth(b.access_token)
                )
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
    assert sorted((c.room_id, c.player_id) for c in changes) == sorted((s.room_id, s.player_id) for s in seats)
    for room_id in rooms:
        mine = sorted((s for s in seats if s.room_id == room_id), key=lambda s: s.seat)
        a, b = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[s.place for s in mine])
        for seat, expected in zip(mine, (a[0], b[0]), strict=True):
            rating = ratings[seat.player_id]
            assert rating.games == 1, f"room {room_id}: rated {rating.games} times"
            assert rating.mu == pytest.approx(expected.mu) and rating.sigma == pytest.approx(expected.sigma)
