"""Kill -9 the server in the middle of 20 games, restart it, and lose nothing that was acknowledged."""

from __future__ import annotations

import asyncio
import random
import signal

import grpc
from sqlalchemy import select

from engine.registry import get_game
from kickoff.v1 import common_pb2, move_pb2, move_pb2_grpc, room_pb2, room_pb2_grpc
from service.grpc.soker_codec import SokerCodec
from service.rooms.deals import RoomDeal
from service.secrets import Sealer
from service.store.database import create_engine
from service.store.kinds import KINDS
from service.store.models import LogRow, RoomRow
from tests.processes import free_port, start_server

ROOMS = 20


def auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


async def player(moves, room_id: str, tokens: dict[int, str], acked: list, chooser: random.Random, tag: str) -> None:
    """Plays every person's seat of one room with unary moves until the game ends or the server goes away."""
    count = 0
    while True:
        view = await moves.GetView(move_pb2.GetViewRequest(room_id=room_id))
        if not view.to_act:
            return
        seat = view.to_act[0]
        if seat not in tokens:
            await asyncio.sleep(0.001)  # a system player is moving
            continue
        legal = await moves.ListLegalMoves(move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(tokens[seat]))
        if legal.version != view.version:
            continue
        count += 1
        request_id = f"{tag}-{count}"
        try:
            answer = await moves.SubmitMove(
                move_pb2.SubmitMoveRequest(
                    room_id=room_id,
                    move=chooser.choice(legal.moves),
                    request_id=request_id,
                    expected_version=view.version,
                ),
                metadata=auth(tokens[seat]),
            )
        except grpc.aio.AioRpcError as error:
            if error.code() in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION):
                continue  # a system player or the clock moved first
            raise
        acked.append((room_id, request_id, answer.version))


async def test_kill_9_mid_game_loses_no_acknowledged_move(database_url: str) -> None:
    port = free_port()
    server = start_server(database_url, port)
    target = f"127.0.0.1:{port}"
    rooms: dict[str, dict[int, str]] = {}
    acked: list[tuple[str, str, int]] = []
    try:
        async with grpc.aio.insecure_channel(target) as channel:
            room_stub, move_stub = room_pb2_grpc.RoomServiceStub(channel), move_pb2_grpc.MoveServiceStub(channel)
            for _ in range(ROOMS):
                room = (
                    await room_stub.CreateRoom(
                        room_pb2.CreateRoomRequest(
                            game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=3, system_players=1, think_seconds=0
                        )
                    )
                ).room
                joined = [await room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id)) for _ in range(2)]
                rooms[room.room_id] = {j.seat: j.seat_token for j in joined}
            players = [
                asyncio.create_task(player(move_stub, room_id, tokens, acked, random.Random(i), "a"))
                for i, (room_id, tokens) in enumerate(rooms.items())
            ]
            await asyncio.sleep(random.Random(len(database_url)).uniform(0.4, 1.2))
            server.send_signal(signal.SIGKILL)  # no goodbye
            server.wait()
            await asyncio.gather(*players, return_exceptions=True)
        assert len(acked) > ROOMS, "the clients were playing when the server died"

        # Every acknowledged move is in the log, at the version it was acknowledged with.
        engine = create_engine(database_url)
        async with engine.connect() as connection:
            logged = {
                (row.room_id, row.request_id): row.version
                for row in (await connection.execute(select(LogRow).where(LogRow.request_id != ""))).all()
            }
            stored = {row.room_id: row for row in (await connection.execute(select(RoomRow))).all()}
        await engine.dispose()
        missing = [(r, q, v) for r, q, v in acked if logged.get((r, q)) != v]
        assert not missing, f"acknowledged but lost: {missing[:5]}"

        server = start_server(database_url, port)
        # A fresh channel of its own: the old one's failed connection would be shared and backed off.
        async with grpc.aio.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)]) as channel:
            room_stub, move_stub = room_pb2_grpc.RoomServiceStub(channel), move_pb2_grpc.MoveServiceStub(channel)
            # After recovery each seat sees exactly what the engine computes from the seed and the log (up to the
            # version the view belongs to: the system players play on meanwhile).
            views = {
                (room_id, seat): await move_stub.GetView(move_pb2.GetViewRequest(room_id=room_id), metadata=auth(token))
                for room_id, tokens in rooms.items()
                for seat, token in tokens.items()
            }
            engine = create_engine(database_url)
            async with engine.connect() as connection:
                lines = (await connection.execute(select(LogRow).order_by(LogRow.room_id, LogRow.version))).all()
            sealer = await Sealer.for_store(engine)  # (the server's key: the store's own)
            await engine.dispose()
            codec, game = SokerCodec(), get_game("soker")
            for (room_id, seat), view in views.items():
                row = stored[room_id]
                # The game's seed from the deal's secret (unsealed as the server does) and the seats' seeds: the
                # system players' published ones, none for the people (deals/scheme.py)
                record = KINDS["room"].record_of(row)
                deal = RoomDeal.of(record, sealer)
                seeds = [deal.system_seat_seed(s) if s in record.system_seats else "" for s in range(row.seats)]
                state = game.new_game(row.seats, row.options, deal.game_seed(seeds))
                for line in lines:
                    if line.room_id == room_id and line.kind in ("move", "table") and line.version <= view.version:
                        state.apply(line.seat, game.move_from_wire(line.move), by_table=line.kind == "table")
                assert view.view == codec.view_to_proto(state.view(seat)), f"room {room_id} seat {seat}"
            # An acknowledged request id answers as before, across the restart.
            room_id, request_id, version = acked[0]
            seat_tokens = rooms[room_id]
            for token in seat_tokens.values():
                try:
                    again = await move_stub.SubmitMove(
                        move_pb2.SubmitMoveRequest(
                            room_id=room_id, move=move_pb2.Move(soker={"draw": {}}), request_id=request_id
                        ),
                        metadata=auth(token),
                    )
                except grpc.aio.AioRpcError:
                    continue  # not this seat's request id
                assert again.version == version
                break
            else:
                raise AssertionError("no seat answered the acknowledged request id again")
            # Every room then plays on to its end.
            more: list = []
            await asyncio.gather(
                *(player(move_stub, r, t, more, random.Random(100 + i), "b") for i, (r, t) in enumerate(rooms.items()))
            )
            for room_id in rooms:
                final = (await room_stub.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
                assert final.status == common_pb2.ROOM_STATUS_FINISHED, room_id
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
