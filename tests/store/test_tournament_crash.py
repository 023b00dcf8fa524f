"""Kill -9 the server during game 5 of a tournament: after a restart, everything clients heard is said again the same
way, the tournament goes on by itself from where it stood, and its final standings add up."""

from __future__ import annotations

import signal
from dataclasses import dataclass

import grpc
from google.protobuf import json_format
from sqlalchemy import select

from kickoff.v1 import common_pb2, move_pb2, move_pb2_grpc, tournament_pb2, tournament_pb2_grpc
from service.store.database import create_engine
from service.store.models import RoomRow
from tests.store.test_crash import free_port, start_server
from tests.tournament_checks import check_against_the_rooms, room_updates, tournament_updates


@dataclass
class Stubs:
    tournaments: tournament_pb2_grpc.TournamentServiceStub
    moves: move_pb2_grpc.MoveServiceStub


def stubs(channel: grpc.aio.Channel) -> Stubs:
    return Stubs(tournament_pb2_grpc.TournamentServiceStub(channel), move_pb2_grpc.MoveServiceStub(channel))


async def test_kill_9_in_game_five_and_the_tournament_goes_on(database_url: str) -> None:
    port = free_port()
    target = f"127.0.0.1:{port}"
    server = start_server(database_url, port)
    try:
        async with grpc.aio.insecure_channel(target) as channel:
            stub = stubs(channel)
            # Four system players that think a little, so the games take long enough to be cut in the middle.
            created = await stub.tournaments.CreateTournament(
                tournament_pb2.CreateTournamentRequest(
                    game="soker", mode=common_pb2.ROOM_MODE_ONLINE, system_players=4, think_seconds=0.01
                )
            )
            tid = created.tournament_id
            heard = []
            feed = stub.tournaments.StreamTournament(tournament_pb2.StreamTournamentRequest(tournament_id=tid))
            async for update in feed:
                heard.append(json_format.MessageToDict(update))
                started = [e["gameStarted"]["game"] for e in heard[-1]["events"] if "gameStarted" in e]
                if started and started[0].get("index", 0) == 4:
                    break
            feed.cancel()
            room_id = started[0]["roomId"]
            room_heard = []
            events = stub.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room_id))
            async for update in events:
                room_heard.append(json_format.MessageToDict(update))
                if len(room_heard) == 8:
                    break
            events.cancel()
            server.send_signal(signal.SIGKILL)  # in the middle of game 5: no goodbye
            server.wait()
        assert len(heard) == 9, "four games ended and the fifth started before the crash"
        engine = create_engine(database_url)
        async with engine.connect() as connection:
            status = (await connection.execute(select(RoomRow.status).where(RoomRow.room_id == room_id))).scalar()
        await engine.dispose()
        assert status == "playing", "the server died in the middle of game 5"

        server = start_server(database_url, port)
        async with grpc.aio.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)]) as channel:
            stub = stubs(channel)
            everything = await tournament_updates(stub, tid)  # to the end: the games go on by themselves
            assert everything[: len(heard)] == heard, "what clients heard is said again, the same way"
            assert len(everything) == 16
            assert (await room_updates(stub, room_id))[: len(room_heard)] == room_heard
            await check_against_the_rooms(stub, tid)
    finally:
        server.kill()
        server.wait()
