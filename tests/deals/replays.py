"""Replay files without a server: a game played with its engine and written as the server writes a replay.

:func:`played_replay` plays a whole game (random legal moves from a seeded ``random.Random``, with now and then the
table's move for a seat whose clock ran out) and encodes every step as service/grpc/convert.py's ``replay_to_proto``
does: the real codecs turn each view into its message, and ``json_format.MessageToDict`` into the file's JSON (what
``kickoff replay --save`` writes with MessageToJson). :func:`replay_dict` does the same for a GetReplayResponse the
server answered, for the tests that play through the server.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

from google.protobuf import json_format

from deals import scheme
from engine.registry import get_game
from kickoff.v1 import common_pb2, move_pb2, room_pb2
from service.grpc.codecs import codec_of
from service.grpc.convert import outcome_to_proto

SECRET = bytes(range(32))  # a fixed secret, so that every test plays the same games


def replay_dict(response: move_pb2.GetReplayResponse) -> dict[str, Any]:
    """A replay file's JSON for a GetReplayResponse (the whole replay: every page's steps in one)."""
    return json_format.MessageToDict(response)


@dataclass(frozen=True)
class Played:
    """A replay built by :func:`played_replay` and what the tests need to change it."""

    replay: dict[str, Any]  # the file's JSON
    first_view: int  # the version at which the game was dealt (the last seat taken)
    moves: int
    table_moves: int

    def copy(self) -> dict[str, Any]:
        return copy.deepcopy(self.replay)


def played_replay(
    game_name: str,
    seats: int,
    *,
    seed: int = 1,
    system: tuple[int, ...] = (),
    choices: dict[int, str] | None = None,
    options: dict[str, Any] | None = None,
    table_moves: float = 0.05,
    room_id: str = "r-verify",
) -> Played:
    """A whole game of ``game_name`` at ``seats`` seats, as its replay file holds it once the game is over: one step
    per seat taken (the last one deals), then one per move. ``system``: the seats of system players (their seeds the
    ones the secret fixes); the others are people's, each with a seed of its own."""
    game = get_game(game_name)
    codec = codec_of(game)
    rng = random.Random(seed)
    options = game.spec.resolve(seats, options)
    seeds = [
        scheme.system_seat_seed(SECRET, room_id, game_name, seat) if seat in system else f"person-{seat}-{seed}"
        for seat in range(seats)
    ]
    room = room_pb2.Room(room_id=room_id, game=game_name, status=common_pb2.ROOM_STATUS_FINISHED)
    room.options.update(options)
    for seat in range(seats):
        room.seats.add(
            seat=seat,
            kind=common_pb2.SEAT_KIND_SYSTEM if seat in system else common_pb2.SEAT_KIND_PERSON,
            taken=True,
            name=f"seat {seat}",
            choice=(choices or {}).get(seat, ""),
            seed=seeds[seat],
        )
    room.deal.CopyFrom(
        common_pb2.Deal(
            scheme=scheme.SCHEME,
            subject=room_id,
            commitment=scheme.commitment(SECRET, room_id, game_name),
            seeds=seeds,
            secret=SECRET.hex(),
        )
    )
    dealt_with = game.with_choices(seats, options, choices) if choices else options
    state = game.new_game(seats, dealt_with, scheme.game_seed(SECRET, room_id, game_name, seeds))
    for seat, team in enumerate(state.team_of(seat) for seat in range(seats)):
        room.seats[seat].team = team

    response = move_pb2.GetReplayResponse(room=room, revealed=True)

    def step(move: move_pb2.ReplayMove | None = None, view: bool = True) -> None:
        into = response.steps.add()
        into.update.room_id = room_id
        into.update.version = len(response.steps)
        if view:
            into.view.CopyFrom(codec.view_to_proto(state.view(None)))
            into.hands.extend(codec.view_to_proto(state.view(seat)) for seat in range(seats))
        if move is not None:
            into.move.CopyFrom(move)

    for _ in range(seats - 1):
        step(view=False)  # a seat taken
    step()  # the last seat taken: the game is dealt
    first_view = len(response.steps)
    moves = by_table = 0
    while state.to_act():
        seat = rng.choice(state.to_act())
        table = rng.random() < table_moves
        move = state.timeout_move(seat) if table else rng.choice(state.legal_moves(seat))
        state.apply(seat, move, by_table=table)
        moves += 1
        by_table += table
        step(move_pb2.ReplayMove(seat=seat, text=move.to_wire(), by_table=table))
    outcome = state.outcome()
    assert outcome is not None
    response.room.outcome.CopyFrom(outcome_to_proto(outcome, [state.team_of(seat) for seat in range(seats)]))
    response.room.version = response.last_version = len(response.steps)
    return Played(replay_dict(response), first_view, moves, by_table)
