"""Fair deals played through a server (tests/servers.py's ``start``): a room of each game with a person and system
players, the person's seat given its own seed, played to the end; and the room's whole replay as its file holds it.

Each game is set up so that one whole game is short (a fraction of a second to a second or two): Soker at three seats,
Age of Soccer at three seats for three rounds, Carta at two seats."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import grpc

from kickoff.v1 import common_pb2, move_pb2, room_pb2
from tests.server.conftest import Harness, auth


@dataclass(frozen=True)
class Setup:
    """One game's room: its seats, the system players' seats, its options and the person's choice (a team)."""

    seats: int
    system_seats: tuple[int, ...]
    options: dict[str, Any] = field(default_factory=dict)
    choice: str = ""


GAMES = {
    "soker": Setup(3, (1, 2)),
    "age-of-soccer": Setup(3, (1, 2), {"max_rounds": 3}, "ZUL"),
    "carta-futbol-club": Setup(2, (1,)),
}
VIEW_FIELD = {"soker": "soker", "age-of-soccer": "ageOfSoccer", "carta-futbol-club": "carta"}


def create_request(game: str, system_player: str = "") -> room_pb2.CreateRoomRequest:
    """CreateRoom for a room of ``game`` as GAMES sets it up: online, no think time, the person's seat 0 free."""
    setup = GAMES[game]
    request = room_pb2.CreateRoomRequest(
        game=game,
        mode=common_pb2.ROOM_MODE_ONLINE,
        seats=setup.seats,
        system_seats=setup.system_seats,
        system_player=system_player,
        think_seconds=0,
    )
    if setup.options:
        request.options.update(setup.options)
    return request


async def seated_room(harness: Harness, game: str, *, system_player: str = "", seed: str = "") -> tuple[str, str]:
    """A room of ``game`` (GAMES' setup, online, no think time) with the person at seat 0 given ``seed`` (default:
    ``person-<game>``): its id and the person's seat token. The game is dealt as the person sits."""
    setup = GAMES[game]
    room_id = (await harness.rooms.CreateRoom(create_request(game, system_player))).room.room_id
    seed = seed or f"person-{game}"
    joined = await harness.rooms.JoinRoom(
        room_pb2.JoinRoomRequest(room_id=room_id, seat=0, name="ann", choice=setup.choice, seed=seed)
    )
    return room_id, joined.seat_token


async def play_to_the_end(
    harness: Harness, room_id: str, token: str, chooser: random.Random, *, clock_odds: float = 0.05
) -> int:
    """The person (seat 0) plays random legal moves until the game ends; now and then its clock runs out instead, so
    the table moves for it (the system players move as the room settles). Returns the room's last version."""
    while True:
        await harness.settle(room_id)
        view = await harness.view(room_id)
        if not view.to_act:
            return view.version
        if 0 not in view.to_act or chooser.random() < clock_odds:
            harness.clock.advance(600)  # longer than any clock: the table moves for the seats that must act
            continue
        legal = await harness.legal(room_id, token)
        try:
            await harness.submit(room_id, token, chooser.choice(legal), request_id=f"m{view.version}")
        except grpc.aio.AioRpcError as error:  # a system player of the same window moved first
            assert error.code() in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ABORTED), error


async def whole_replay(
    harness: Harness, room_id: str, *, page_size: int = 25, token: str = ""
) -> tuple[move_pb2.GetReplayResponse, list[move_pb2.GetReplayResponse]]:
    """The room's whole replay fetched a page at a time, every page's steps in one answer (the room as of the last
    page), as `kickoff replay --save` writes it; and the pages as they came."""
    whole, pages, after = move_pb2.GetReplayResponse(), [], 0
    while True:
        request = move_pb2.GetReplayRequest(room_id=room_id, after_version=after, page_size=page_size)
        page = await harness.moves.GetReplay(request, metadata=auth(token) if token else ())
        pages.append(page)
        whole.steps.extend(page.steps)
        whole.room.CopyFrom(page.room)
        whole.revealed, whole.last_version = page.revealed, page.last_version
        after = page.next_after_version
        if not after:
            return whole, pages
