"""System players' levels over a real channel: every game lists them, a solo room against ``hard`` players is played to
its end with their searches in a worker process, and a search under way delays no other room."""

from __future__ import annotations

import asyncio
import random

import grpc

from engine.registry import get_game
from kickoff.v1 import common_pb2, game_pb2, room_pb2
from service.rooms.thinking import Thinkers
from tests.server.conftest import Harness, refusal

LEVELS = ["random", "easy", "normal", "hard"]
GAMES = ("soker", "age-of-soccer", "carta-futbol-club")
SEARCHING = {name for name in GAMES if "hard" in get_game(name).bots}  # (the games that can sample a table)


async def test_every_game_lists_its_levels_and_a_room_refuses_an_unknown_one(start) -> None:
    harness: Harness = await start()
    games = (await harness.games.ListGames(game_pb2.ListGamesRequest())).games
    listed = {game.name: list(game.levels) for game in games if game.name in GAMES}
    assert listed == {name: LEVELS for name in SEARCHING} | {name: LEVELS[:3] for name in set(GAMES) - SEARCHING}
    rules = (await harness.games.GetRules(game_pb2.GetRulesRequest(game="carta-futbol-club"))).rules
    assert list(rules.levels) == (LEVELS if "carta-futbol-club" in SEARCHING else LEVELS[:3])
    code, reason, message = await refusal(
        harness.rooms.CreateRoom(
            room_pb2.CreateRoomRequest(
                game="soker", mode=common_pb2.ROOM_MODE_SOLO, seats=2, system_players=1, system_player="expert"
            )
        )
    )
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "unknown_bot")
    assert "random, easy, normal, hard" in message
    # The older name of normal is still taken, and the room says which level it plays.
    made = await harness.rooms.CreateRoom(
        room_pb2.CreateRoomRequest(
            game="soker",
            mode=common_pb2.ROOM_MODE_SOLO,
            seats=2,
            system_players=1,
            system_player="heuristic",
            think_seconds=0,
        )
    )
    assert made.room.seats[1].name == "normal bot"


async def _play_out(harness: Harness, room_id: str, token: str, seed: int) -> room_pb2.Room:
    chooser = random.Random(seed)
    while True:
        for _ in range(2_000):  # (the system players' searches answer from the worker)
            current = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
            view = await harness.view(room_id, token)
            if current.status == common_pb2.ROOM_STATUS_FINISHED or 0 in view.to_act:
                break
            await asyncio.sleep(0.01)
        if current.status == common_pb2.ROOM_STATUS_FINISHED:
            return current
        legal = await harness.legal(room_id, token)
        await harness.submit(room_id, token, chooser.choice(legal), expected=view.version)


async def test_a_search_under_way_delays_no_other_room(start, caplog) -> None:
    """A hard player thinking for 3 seconds in the worker: meanwhile another room's person plays a whole game against
    normal players, and the hard room has not moved; then its search answers, and it moves. The loop was never held."""
    harness: Harness = await start(thinkers=Thinkers(1))
    thinking = await harness.rooms.CreateRoom(
        room_pb2.CreateRoomRequest(
            game="soker",
            mode=common_pb2.ROOM_MODE_SOLO,
            seats=2,
            system_players=1,
            system_seats=[0],
            system_player="hard",
            think_seconds=3,
        )
    )
    other = await harness.rooms.CreateRoom(
        room_pb2.CreateRoomRequest(
            game="soker", mode=common_pb2.ROOM_MODE_SOLO, seats=2, system_players=1, think_seconds=0
        )
    )
    _, token = await harness.join(other.room.room_id)
    _, waiting = await harness.join(thinking.room.room_id)
    started = await harness.view(thinking.room.room_id, waiting)
    assert list(started.to_act) == [0]
    finished = await _play_out(harness, other.room.room_id, token, 5)
    assert finished.status == common_pb2.ROOM_STATUS_FINISHED
    assert (await harness.view(thinking.room.room_id, waiting)).version == started.version  # (still searching)
    for _ in range(3_000):
        moved = await harness.view(thinking.room.room_id, waiting)
        if moved.version > started.version:
            break
        await asyncio.sleep(0.01)
    assert moved.version > started.version
    assert "search failed" not in caplog.text  # (its own move, not the normal player's instead)


async def test_solo_games_against_hard_players_end(start, caplog) -> None:
    harness: Harness = await start(thinkers=Thinkers(1, iterations=12))
    for game, seats in (("soker", 3), ("age-of-soccer", 2), ("carta-futbol-club", 2)):
        if game not in SEARCHING:
            continue
        made = await harness.rooms.CreateRoom(
            room_pb2.CreateRoomRequest(
                game=game,
                mode=common_pb2.ROOM_MODE_SOLO,
                seats=seats,
                system_players=seats - 1,
                system_player="hard",
                think_seconds=0,
            )
        )
        _, token = await harness.join(made.room.room_id)
        finished = await _play_out(harness, made.room.room_id, token, 7)
        assert finished.status == common_pb2.ROOM_STATUS_FINISHED, game
        assert finished.outcome.reason
    assert "search failed" not in caplog.text
