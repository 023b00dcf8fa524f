"""Kill -9 the server during game 5 of a tournament: after a restart, everything clients heard is said again the same
way, the tournament goes on by itself from where it stood, and its final standings add up."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import grpc
from google.protobuf import json_format
from sqlalchemy import select

from kickoff.v1 import common_pb2, move_pb2, move_pb2_grpc, tournament_pb2, tournament_pb2_grpc
from service.store.database import create_engine
from service.store.models import RoomRow
from tests.processes import ServerProcess
from tests.store.test_crash import auth
from tests.tournament_checks import check_against_the_rooms, tournament_updates


@dataclass
class Stubs:
    tournaments: tournament_pb2_grpc.TournamentServiceStub
    moves: move_pb2_grpc.MoveServiceStub


def stubs(channel: grpc.aio.Channel) -> Stubs:
    return Stubs(tournament_pb2_grpc.TournamentServiceStub(channel), move_pb2_grpc.MoveServiceStub(channel))


async def play(moves: move_pb2_grpc.MoveServiceStub, room_id: str, token: str, stop_after: int | None = None) -> int:
    """Seat 0 plays its room over a Play stream, a play whenever it has one, until the game ends (or, once
    ``stop_after`` of its moves were accepted, until it must act again: the system players have nothing left to do);
    returns how many were accepted."""
    outbox: asyncio.Queue[move_pb2.PlayRequest | None] = asyncio.Queue()

    async def requests():
        yield move_pb2.PlayRequest(hello=move_pb2.PlayHello(room_id=room_id))
        while (message := await outbox.get()) is not None:
            yield message

    call = moves.Play(requests(), metadata=auth(token))
    accepted = 0
    try:
        async for response in call:
            accepted += response.result.accepted
            update = response.update
            if update.status == common_pb2.ROOM_STATUS_FINISHED:
                break
            if update.legal_moves:
                if stop_after is not None and accepted >= stop_after:
                    break
                plays = [move for move in update.legal_moves if move.soker.HasField("play")]
                request = move_pb2.SubmitMoveRequest(
                    move=(plays or update.legal_moves)[0],
                    request_id=f"{room_id}-{update.version}",
                    expected_version=update.version,
                )
                outbox.put_nowait(move_pb2.PlayRequest(move=request))
    finally:
        outbox.put_nowait(None)
        call.cancel()
    return accepted


async def next_room(tournaments: tournament_pb2_grpc.TournamentServiceStub, tid: str, index: int, after: int) -> str:
    """The room of game ``index``, from the tournament's updates after version ``after``."""
    feed = tournaments.StreamTournament(tournament_pb2.StreamTournamentRequest(tournament_id=tid, after_version=after))
    try:
        async for response in feed:
            for event in response.update.events:
                if event.HasField("game_started") and event.game_started.game.index == index:
                    return event.game_started.game.room_id
    finally:
        feed.cancel()
    raise AssertionError(f"game {index} never started")


async def test_kill_9_in_game_five_and_the_tournament_goes_on(database_url: str) -> None:
    with ServerProcess(database_url) as server:
        async with server.channel() as channel:
            stub = stubs(channel)
            # One person against three system players, no clock: game 5 waits for the person, so the crash lands
            # in the middle of it for sure.
            created = (
                await stub.tournaments.CreateTournament(
                    tournament_pb2.CreateTournamentRequest(
                        game="soker", mode=common_pb2.ROOM_MODE_SOLO, system_players=3, think_seconds=0
                    )
                )
            ).tournament
            tid = created.tournament_id
            joined = await stub.tournaments.JoinTournament(
                tournament_pb2.JoinTournamentRequest(tournament_id=tid, name="ann")
            )
            token = joined.seat_token
            for index in range(4):
                await play(stub.moves, await next_room(stub.tournaments, tid, index, 0), token)
            # Two moves into game 5, when the person must act again (so nothing moves until they do). Should a system
            # player end game 5 before that, the crash comes in game 6 instead (and so on).
            for index in range(4, 8):
                room_id = await next_room(stub.tournaments, tid, index, 0)
                await play(stub.moves, room_id, token, stop_after=2)
                view = await stub.moves.GetView(move_pb2.GetViewRequest(room_id=room_id))
                if list(view.to_act) == [0]:
                    break
            heard = await updates_so_far(stub, tid)
            room_heard = [json_format.MessageToDict(u) for u in await room_updates_so_far(stub, room_id)]
            server.kill9()  # in the middle of game 5: no goodbye
        kinds = [next(iter(event)) for update in heard for event in update["events"]]
        assert kinds.count("gameEnded") == index and kinds.count("gameStarted") == index + 1
        engine = create_engine(database_url)
        async with engine.connect() as connection:
            status = (await connection.execute(select(RoomRow.status).where(RoomRow.room_id == room_id))).scalar()
        await engine.dispose()
        assert status == "playing", f"the server died in the middle of game {index + 1}"

        server.restart()
        async with server.channel() as channel:
            stub = stubs(channel)
            assert await updates_so_far(stub, tid) == heard, "the same tournament, said the same way"
            again = [json_format.MessageToDict(u) for u in await room_updates_so_far(stub, room_id)]
            assert again[: len(room_heard)] == room_heard, "the same game, at the same move"
            tournament = (
                await stub.tournaments.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id=tid))
            ).tournament
            assert tournament.current_room_id == room_id and tournament.games_played == index
            await play(stub.moves, room_id, token)  # the tournament token still plays
            for later in range(index + 1, 8):
                await play(stub.moves, await next_room(stub.tournaments, tid, later, 0), token)
            await tournament_updates(stub, tid)  # until the end
            await check_against_the_rooms(stub, tid)


async def updates_so_far(stub: Stubs, tid: str) -> list[dict]:
    """The tournament's updates up to its version now."""
    version = (
        await stub.tournaments.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id=tid))
    ).tournament.version
    feed = stub.tournaments.StreamTournament(tournament_pb2.StreamTournamentRequest(tournament_id=tid))
    heard = []
    async for response in feed:
        update = response.update
        heard.append(json_format.MessageToDict(update))
        if update.version == version:
            break
    feed.cancel()
    return heard


async def room_updates_so_far(stub: Stubs, room_id: str) -> list[move_pb2.RoomUpdate]:
    """A room's updates (a spectator's) up to its version now."""
    version = (await stub.moves.GetView(move_pb2.GetViewRequest(room_id=room_id))).version
    call = stub.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room_id))
    seen = []
    async for response in call:
        update = response.update
        seen.append(update)
        if update.version == version:
            break
    call.cancel()
    return seen
