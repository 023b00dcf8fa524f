"""Whole games over a real channel: one person against system players, four people, and the play stream."""

from __future__ import annotations

import asyncio
import random

import grpc

from kickoff.v1 import common_pb2, move_pb2, room_pb2
from tests.server.conftest import Harness, auth


async def collect(stream, until_version: int | None = None) -> list[move_pb2.RoomUpdate]:
    updates = []
    async for response in stream:
        update = response.update
        updates.append(update)
        if until_version is not None and update.version >= until_version:
            break
    return updates


async def test_one_person_plays_a_whole_game_against_three_system_players(harness: Harness) -> None:
    room = await harness.create(seats=4, system_players=3, solo=True)
    assert [s.kind for s in room.seats] == [common_pb2.SEAT_KIND_PERSON] + [common_pb2.SEAT_KIND_SYSTEM] * 3
    seat, token = await harness.join(room.room_id, name="ann")
    assert seat == 0
    stream = harness.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room.room_id), metadata=auth(token))
    chooser = random.Random(3)
    moves = 0
    while True:
        await harness.settle(room.room_id)
        view = await harness.view(room.room_id, token)
        current = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room.room_id))).room
        if current.status == common_pb2.ROOM_STATUS_FINISHED:
            break
        assert list(view.to_act) == [0], "the system players move at once: it must be the person's turn"
        assert not current.HasField("clock"), "a solo game has no clock"
        legal = await harness.legal(room.room_id, token)
        answer = await harness.submit(room.room_id, token, chooser.choice(legal), request_id=f"m{moves}")
        assert answer.version == answer.update.version and answer.update.viewer == 0
        moves += 1
    updates = await collect(stream)  # the stream ends with the game
    assert [u.version for u in updates] == list(range(1, current.version + 1))
    assert updates[-1].status == common_pb2.ROOM_STATUS_FINISHED
    assert updates[-1].events[-1].WhichOneof("kind") == "game_ended"
    assert list(updates[-1].events[-1].game_ended.outcome.points) == list(current.outcome.points)
    assert moves > 0 and current.outcome.reason in ("empty_hand", "one_country", "stalemate")


async def test_four_people_play_a_game_and_every_seat_sees_every_version(harness: Harness) -> None:
    room = await harness.create(seats=4)
    tokens = [(await harness.join(room.room_id, name=f"p{i}"))[1] for i in range(4)]
    streams = [
        harness.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room.room_id), metadata=auth(t)) for t in tokens
    ]
    spectator = harness.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room.room_id))
    chooser = random.Random(4)
    while True:
        view = await harness.view(room.room_id)
        if not view.to_act:
            break
        seat = view.to_act[0]
        legal = await harness.legal(room.room_id, tokens[seat])
        await harness.submit(room.room_id, tokens[seat], chooser.choice(legal), expected=view.version)
    final = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room.room_id))).room
    assert final.status == common_pb2.ROOM_STATUS_FINISHED
    seen = await asyncio.gather(*(collect(s) for s in [*streams, spectator]))
    for seat, updates in enumerate(seen):
        assert [u.version for u in updates] == list(range(1, final.version + 1)), f"viewer {seat}"
    # The join that filled the table started the game, with the first seat's clock running.
    start = seen[0][3]
    assert [e.WhichOneof("kind") for e in start.events] == ["seat_taken", "game_started"]
    assert start.HasField("clock") and start.clock.turn_seconds == 30


async def test_the_play_stream_takes_moves_and_answers_them(harness: Harness) -> None:
    room = await harness.create(seats=2, system_players=1, solo=True)
    _, token = await harness.join(room.room_id)
    outgoing: asyncio.Queue = asyncio.Queue()
    outgoing.put_nowait(move_pb2.PlayRequest(hello=move_pb2.PlayHello(room_id=room.room_id)))

    async def requests():
        while (message := await outgoing.get()) is not None:
            yield message

    call = harness.moves.Play(requests(), metadata=auth(token))
    chooser = random.Random(5)
    last_version = 0
    results = 0
    async for response in call:
        if response.HasField("result"):
            assert response.result.accepted, response.result.error
            assert response.result.version == response.update.version, "an accepted move's answer rides on its update"
            results += 1
        if response.HasField("update"):
            update = response.update
            assert update.version == last_version + 1 and update.viewer == 0
            last_version = update.version
            if update.status == common_pb2.ROOM_STATUS_FINISHED:
                outgoing.put_nowait(None)
            elif list(update.to_act) == [0]:
                legal = list(update.legal_moves)  # the update carries the seat's legal moves
                assert legal == await harness.legal(room.room_id, token)
                move = chooser.choice(legal)
                outgoing.put_nowait(
                    move_pb2.PlayRequest(
                        move=move_pb2.SubmitMoveRequest(
                            move=move, request_id=f"r{last_version}", expected_version=last_version
                        )
                    )
                )
    assert results > 0 and last_version > 2


async def test_the_play_stream_answers_a_refused_move_and_a_retried_one(harness: Harness) -> None:
    room = await harness.create(seats=2)
    _, first = await harness.join(room.room_id)
    _, second = await harness.join(room.room_id)
    outgoing: asyncio.Queue = asyncio.Queue()

    async def requests():
        while (message := await outgoing.get()) is not None:
            yield message

    call = harness.moves.Play(requests(), metadata=auth(second))
    outgoing.put_nowait(move_pb2.PlayRequest(hello=move_pb2.PlayHello(room_id=room.room_id, after_version=2)))
    draw = move_pb2.Move(soker={"draw": {}})
    outgoing.put_nowait(move_pb2.PlayRequest(move=move_pb2.SubmitMoveRequest(move=draw, request_id="too-early")))
    refused = await call.read()
    assert not refused.HasField("update") and refused.result.request_id == "too-early"
    assert not refused.result.accepted and refused.result.error.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
    assert "seat 0's turn" in refused.result.error.message
    # Seat 0 draws and ends its turn by unary calls; seat 1's stream sees both updates.
    await harness.submit(room.room_id, first, draw)
    await harness.submit(room.room_id, first, move_pb2.Move(soker={"end_turn": {}}))
    assert (await call.read()).update.version == 3
    assert list((await call.read()).update.to_act) == [1]
    outgoing.put_nowait(move_pb2.PlayRequest(move=move_pb2.SubmitMoveRequest(move=draw, request_id="d1")))
    accepted = await call.read()
    assert accepted.result.accepted and accepted.result.version == accepted.update.version == 5
    outgoing.put_nowait(move_pb2.PlayRequest(move=move_pb2.SubmitMoveRequest(move=draw, request_id="d1")))
    retried = await call.read()
    assert not retried.HasField("update") and retried.result.accepted and retried.result.version == 5
    outgoing.put_nowait(None)
    call.cancel()


async def test_moves_sent_back_to_back_are_answered_in_order_before_the_stream_ends(harness: Harness) -> None:
    """Answers come in the order the moves came, those the stream refuses itself (a malformed move) among the updates
    the others made, and a client that stops sending gets every answer before the stream ends."""
    room = await harness.create(seats=2)
    _, first = await harness.join(room.room_id)
    await harness.join(room.room_id)

    def move(request_id: str, move: move_pb2.Move) -> move_pb2.PlayRequest:
        return move_pb2.PlayRequest(move=move_pb2.SubmitMoveRequest(move=move, request_id=request_id))

    async def requests():
        yield move_pb2.PlayRequest(hello=move_pb2.PlayHello(room_id=room.room_id, after_version=2))
        yield move("a", move_pb2.Move(soker={"draw": {}}))
        yield move("b", move_pb2.Move())  # no game's move: the stream refuses it itself
        yield move("c", move_pb2.Move(soker={"end_turn": {}}))
        yield move("d", move_pb2.Move(soker={"draw": {}}))  # seat 1's turn now: the room refuses it

    answers = [response async for response in harness.moves.Play(requests(), metadata=auth(first))]
    assert [(a.result.request_id, a.result.accepted, a.update.version) for a in answers] == [
        ("a", True, 3),
        ("b", False, 0),
        ("c", True, 4),
        ("d", False, 0),
    ]
    assert answers[1].result.error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert answers[3].result.error.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
