"""Kill -9 of the server between a move's commit and its delivery: the delivery was written with the move, so the
restarted server sends it, once."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from sqlalchemy import select
from standardwebhooks import Webhook

from kickoff.v1 import (
    common_pb2,
    move_pb2,
    move_pb2_grpc,
    player_pb2,
    player_pb2_grpc,
    room_pb2,
    room_pb2_grpc,
    webhook_pb2,
    webhook_pb2_grpc,
)
from service.store.database import create_engine
from service.store.models import WebhookDeliveryRow
from tests.processes import ServerProcess, free_port
from tests.webhooks.conftest import OPERATOR_KEY, Receiver

KEY = OPERATOR_KEY


def auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


async def stored(url: str) -> list[Any]:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            return list(await connection.execute(select(WebhookDeliveryRow)))
    finally:
        await engine.dispose()


async def test_kill_9_between_a_moves_commit_and_its_delivery(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KICKOFF_OPERATOR_KEY", KEY)
    monkeypatch.setenv("KICKOFF_WEBHOOK_ALLOW", "127.0.0.0/8")
    port = free_port()  # (the receiver's: nothing listens there until the server is dead)
    url = f"http://127.0.0.1:{port}/hook"
    with ServerProcess(database_url) as server:
        async with server.channel() as channel:
            admin = webhook_pb2_grpc.WebhookServiceStub(channel)
            added = await admin.AddEndpoint(
                webhook_pb2.AddEndpointRequest(url=url, events=[webhook_pb2.WEBHOOK_EVENT_TURN_BEGAN]),
                metadata=(("x-operator-key", KEY),),
            )
            ann = (
                await player_pb2_grpc.PlayerServiceStub(channel).SignInAsGuest(
                    player_pb2.SignInAsGuestRequest(name="Ann")
                )
            ).session
            rooms = room_pb2_grpc.RoomServiceStub(channel)
            moves = move_pb2_grpc.MoveServiceStub(channel)

            async def new_room() -> tuple[str, str, set[str]]:
                made = await rooms.CreateRoom(
                    room_pb2.CreateRoomRequest(
                        game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, system_players=1, think_seconds=0
                    ),
                    metadata=auth(ann.access_token),
                )
                # (what is stored by now: the turn the game began with, and any earlier room's, all undelivered)
                return made.room.room_id, made.seat_token, {row.delivery_id for row in await stored(database_url)}

            room_id, token, first = await new_room()
            rooms_played = {room_id}
            # Ann plays until her turn ends (a draw leaves it running); the system player answers at once, so her
            # next turn begins in a line after her last move, and its delivery, written in that line's
            # transaction, fails its first attempt (nothing listens yet). The server deals at random: where the
            # system player empties its hand first (about one deal in fifty), the game ends with no next turn of
            # Ann's, and she plays a new room.
            rows: list[Any] = []
            for _ in range(500):
                rows = [row for row in await stored(database_url) if row.delivery_id not in first]
                if rows and all(row.attempts and row.status == "pending" for row in rows):  # (tried, failed)
                    break
                if not rows:
                    legal = await moves.ListLegalMoves(
                        move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(token)
                    )
                    if not legal.moves:
                        room = (await rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
                        if room.status == common_pb2.ROOM_STATUS_FINISHED:
                            room_id, token, first = await new_room()
                            rooms_played.add(room_id)
                    else:
                        await moves.SubmitMove(
                            move_pb2.SubmitMoveRequest(
                                room_id=room_id, move=legal.moves[-1], expected_version=legal.version
                            ),
                            metadata=auth(token),
                        )
                await asyncio.sleep(0.02)
            assert rows and all(row.status == "pending" for row in rows)
        server.kill9()
        receiver = await _listen(port)
        try:
            server.restart()
            expected = first | {row.delivery_id for row in rows}  # (every one written, none delivered)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                delivered = {row.delivery_id for row in await stored(database_url) if row.status == "delivered"}
                if expected <= delivered:
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(0.5)  # (anything sent twice would arrive meanwhile)
        finally:
            await receiver.close()
    ids = [request.headers["webhook-id"] for request in receiver.requests]
    assert sorted(ids) == sorted(expected)  # each delivered, once
    for request in receiver.requests:
        event = Webhook(added.secret).verify(request.body, request.headers)
        assert event["type"] == "turn.began" and event["data"]["room_id"] in rooms_played


async def _listen(port: int) -> Receiver:
    """A receiver on ``port`` (the one the endpoint names)."""
    receiver = Receiver()
    receiver._writers = set()  # type: ignore[attr-defined]
    receiver._server = await asyncio.start_server(receiver._serve, "127.0.0.1", port)  # type: ignore[attr-defined]
    receiver.port = port
    return receiver
