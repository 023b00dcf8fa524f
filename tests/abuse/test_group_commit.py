"""Case 1: on PostgreSQL one anonymous join with a name the store refuses (over 64 characters, or a NUL byte) broke
every room whose line shared its group commit, until a restart."""

from __future__ import annotations

import asyncio

import grpc
import pytest

from kickoff.v1 import room_pb2
from service.errors import StoreRefused, StoreUnavailable
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from tests.conftest import empty_database
from tests.server.conftest import refusal_info, soker_move
from tests.servers import Start

ROOMS = 30


@pytest.mark.parametrize("bad", [{"name": "x" * 65}, {"name": "ann\x00"}])
async def test_a_bad_join_among_30_concurrent_joins_is_refused_alone_and_every_room_plays_on(
    start: Start, database_url: str, bad: dict[str, str]
) -> None:
    journal = SqlJournal(create_engine(database_url))
    harness = await start(journal=journal)
    rooms = [(await harness.create(seats=2)).room_id for _ in range(ROOMS + 1)]
    requests = [room_pb2.JoinRoomRequest(room_id=room_id, name=f"p{i}") for i, room_id in enumerate(rooms[:ROOMS])]
    requests.append(room_pb2.JoinRoomRequest(room_id=rooms[ROOMS], **bad))
    answers = await asyncio.gather(
        *(harness.rooms.JoinRoom(r) for r in requests[:ROOMS]), refusal_info(harness.rooms.JoinRoom(requests[ROOMS]))
    )
    code, info, message = answers[-1]
    assert code == grpc.StatusCode.INVALID_ARGUMENT and info.metadata["field"] == "name"
    assert len(message) < 120 and "xxxxxxxxxx" not in message, "the refusal names the field, not the input"
    assert all(answer.seat == 0 for answer in answers[:ROOMS])
    # Every room, the refused one included, takes its second person and plays.
    for room_id in rooms:
        tokens = dict([await harness.join(room_id, name="bo")])
        if room_id == rooms[ROOMS]:
            tokens.update([await harness.join(room_id, name="cy")])
        view = await harness.view(room_id)
        mover = view.to_act[0]
        if mover in tokens:
            legal = await harness.legal(room_id, tokens[mover])
            await harness.submit(room_id, tokens[mover], legal[0], request_id="1")
    stored = {row.room_id: entries for row, entries in await journal.load_live("room")}
    assert all(len(stored[room_id]) == harness.directory.get(room_id).version for room_id in rooms)
    await journal.close()


async def test_a_line_the_store_refuses_fails_alone_in_its_group_and_its_room_heals(tmp_path) -> None:
    """Below the edge (a check that let something through, or a schema stricter than the edge): the journal commits
    the group's writes one at a time, so only the refused one fails."""
    url = await empty_database("postgresql", tmp_path)
    await upgrade_in_thread(url)
    from service.rooms.clock import ManualClock
    from service.rooms.directory import RoomDirectory

    journal = SqlJournal(create_engine(url))
    directory = RoomDirectory(clock=ManualClock(), journal=journal, default_think_seconds=0)
    rooms = [await directory.create(game="soker", mode="online", seats=2, system_players=0) for _ in range(ROOMS + 1)]
    isolated = journal.isolated
    names = [f"p{i}" for i in range(ROOMS)] + ["x" * 65]  # VARCHAR(64): PostgreSQL refuses it
    answers = await asyncio.gather(
        *(room.join(None, name) for room, name in zip(rooms, names, strict=True)), return_exceptions=True
    )
    assert isinstance(answers[-1], StoreRefused)
    assert all(isinstance(answer, tuple) for answer in answers[:-1]), "the others were stored as if nothing happened"
    assert journal.isolated > isolated, "the refused line shared a group with others"
    bad = rooms[-1]
    for _ in range(100):  # the refused room reads its log back (one query), then takes joins again
        try:
            await bad.join(None, "ann")
            break
        except StoreUnavailable:
            await bad.settle()
    assert bad.version == 1 and bad.published.seats[0].name == "ann"
    stored = {row.room_id: entries for row, entries in await journal.load_live("room")}
    assert [len(stored[room.room_id]) for room in rooms] == [1] * (ROOMS + 1)
    await directory.close()
    await journal.close()


async def test_moves_keep_coming_from_rooms_whose_neighbours_are_refused(start: Start, database_url: str) -> None:
    journal = SqlJournal(create_engine(database_url))
    harness = await start(journal=journal)
    room_id = (await harness.create(seats=2)).room_id
    tokens = dict([await harness.join(room_id), await harness.join(room_id)])
    view = await harness.view(room_id)
    mover = view.to_act[0]
    other = (await harness.create()).room_id
    refused = harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=other, name="\x1b[31m"))
    move = harness.submit(room_id, tokens[mover], soker_move("draw"), request_id="d")
    (code, _, _), answer = await asyncio.gather(refusal_info(refused), move)
    assert code == grpc.StatusCode.INVALID_ARGUMENT and answer.version == view.version + 1
