"""The streams and SubmitMove send each update serialised in shared pieces (convert.update_bytes): what a seat parses
must be exactly the update as that seat may see it, built here as one message from the room's events redacted for it,
for every update of every game, every seat and a spectator: its own draws, the legal moves of a seat that must act,
the clocks, the answer riding on the mover's update."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.registry import GAMES
from kickoff.v1 import move_pb2
from service.grpc.convert import (
    STATUS,
    _room_event,
    add_clocks,
    codec_for,
    stream_message,
    submit_answer,
    timestamp,
    update_bytes,
)
from service.rooms.clock import ManualClock
from service.rooms.directory import RoomDirectory
from service.rooms.room import FINISHED, Update


async def played_room(game: str, seats: int, seed: int):
    """An online room (clocks running) of ``seats``, seat 0 a person moving at random and the others system players,
    played to the end; with every update it made (read from a feed: a finished room keeps none in memory)."""
    seeds = itertools.count(seed)
    directory = RoomDirectory(
        clock=ManualClock(),
        seed_source=lambda: next(seeds),
        default_think_seconds=0,
    )
    room = await directory.create(game=game, mode="online", seats=seats, system_players=seats - 1)
    feed = room.subscribe(0)
    seat, nonce = await room.join(0, "person")
    chooser = random.Random(seed)
    for number in itertools.count():
        await room.settle()
        if room.status == FINISHED:
            break
        if seat in room.state.to_act():
            await room.move(seat, nonce, chooser.choice(room.state.legal_moves(seat)), f"r{number}", None)
    updates = [update async for update in feed]
    await directory.close()
    return room, updates


def update_to_proto(room, update: Update, viewer: int | None) -> move_pb2.RoomUpdate:
    """The update as ``viewer`` may see it, built as one message straight from the room's events redacted for it."""
    codec = codec_for(room)
    rendered = [_room_event(event, codec, room.teams) for event in update.events_for(viewer)]
    message = move_pb2.RoomUpdate(
        room_id=room.room_id,
        version=update.version,
        events=[event for event in rendered if event is not None],
        status=STATUS[update.status],
        to_act=update.to_act,
        time=timestamp(update.time),
    )
    add_clocks(message, update.deadlines)
    if viewer is not None:
        message.viewer = viewer
        message.legal_moves.extend(codec.move_to_proto(move) for move in update.legal.get(viewer, ()))
    return message


def fresh(update: Update) -> Update:
    """The update with nothing rendered yet (each path builds its own)."""
    return Update(**{**update.__dict__, "rendered": {}})


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_viewer_parses_the_update_it_may_see(game: str) -> None:
    spec = GAMES[game].spec
    checked = drawn = legal = clocks = 0
    for seats, seed in zip(spec.seat_counts, itertools.count(7)):
        room, updates = await played_room(game, seats, seed)
        for update in updates:
            pieces, whole = fresh(update), fresh(update)
            viewers = [None, *range(seats)]
            for viewer in viewers:
                expected = update_to_proto(room, whole, viewer)
                got = move_pb2.RoomUpdate.FromString(update_bytes(room, pieces, viewer))
                assert got == expected, (game, update.version, viewer)
                checked += 1
                legal += bool(expected.legal_moves)
                clocks += len(expected.clocks)
            public = update_to_proto(room, whole, None)
            drawn += any(update_to_proto(room, whole, v).events != public.events for v in range(seats))
    assert checked > 100 and legal > 10 and clocks > 10  # (a run that checked little proves little)
    assert drawn > 0  # some events differed between seats: the seat's own piece was used


async def test_the_answer_rides_on_the_movers_update_and_a_unary_move_answers_with_it() -> None:
    room, updates = await played_room("soker", 2, 3)
    update = next(u for u in updates if u.mover == 0 and u.request_id)
    result = move_pb2.MoveResult(request_id=update.request_id, accepted=True, version=update.version)
    message = move_pb2.PlayResponse.FromString(stream_message(update_bytes(room, update, 0), result))
    assert message.result == result
    assert message.update == update_to_proto(room, fresh(update), 0)
    events = move_pb2.StreamEventsResponse.FromString(stream_message(update_bytes(room, update, None)))
    assert events.update == update_to_proto(room, fresh(update), None)
    answer = move_pb2.SubmitMoveResponse.FromString(submit_answer(update.version, update_bytes(room, update, 0)))
    assert answer.version == update.version and answer.update == update_to_proto(room, fresh(update), 0)
