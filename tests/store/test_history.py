"""Memory does not grow with history: a room keeps only its recent updates (older ones are read back from the store
for a reader who asks), a server keeps only its most recently used finished rooms, and its start loads none of the
finished ones: they are read back when someone asks for them."""

from __future__ import annotations

import itertools
import random

from kickoff.v1 import common_pb2, room_pb2
from service.rooms.clock import ManualClock
from service.rooms.directory import RoomDirectory
from service.rooms.room import RoomLimits
from service.store.database import create_engine
from service.store.journal import SqlJournal
from tests.servers import Start
from tests.store.conftest import crash


async def finished_room(directory: RoomDirectory, chooser: random.Random):
    """A solo game played to its end by its person (seat 0) choosing at random; returns the room."""
    room = await directory.create(game="soker", mode="solo", seats=4, system_players=3)
    _, nonce = await room.join(0, "ann")
    moves = 0
    while True:
        await room.settle()
        if room.status == "finished":
            return room
        move = chooser.choice(room.state.legal_moves(0))
        await room.move(0, nonce, move, f"m{moves}", None)
        moves += 1


async def test_a_room_keeps_its_recent_updates_and_reads_older_ones_back(database_url: str) -> None:
    journal = SqlJournal(create_engine(database_url))
    seeds = itertools.count(5)
    directory = RoomDirectory(
        clock=ManualClock(),
        journal=journal,
        seed_source=lambda: next(seeds),
        default_think_seconds=0,
        limits=RoomLimits(history=4),
    )
    room = await finished_room(directory, random.Random(1))
    assert room.version > 8 and len(list(room.updates)) < 8, "only the recent updates stay in memory"
    heard = [update async for update in room.subscribe(0)]  # from the start: most of it read back from the store
    assert [update.version for update in heard] == list(range(1, room.version + 1))
    events = [[type(event).__name__ for event in update.events] for update in heard]
    assert events[0] == ["SeatTakenEvent", "GameStartedEvent"] and events[-1][-1] == "GameEndedEvent"
    await directory.close()
    await journal.close()


async def test_an_old_request_id_answers_as_the_first_time_though_its_update_left_memory(start: Start) -> None:
    harness = await start(room_limits=RoomLimits(history=4))
    room_id = (await harness.create(seats=2)).room_id
    tokens = dict([await harness.join(room_id), await harness.join(room_id)])
    room = harness.directory.get(room_id)
    first = None
    for number in range(20):
        seat = room.state.to_act()[0]
        legal = await harness.legal(room_id, tokens[seat])
        answer = await harness.submit(room_id, tokens[seat], legal[0], request_id=f"r{number}")
        first = first or (seat, legal[0], answer)
        if room.status == "finished":
            break
    seat, move, answer = first
    again = await harness.submit(room_id, tokens[seat], move, request_id="r0")
    assert again.version == answer.version and again.update == answer.update, "read back, the same answer"


async def test_finished_rooms_leave_memory_and_come_back_when_asked_for(start: Start, database_url: str) -> None:
    journal = SqlJournal(create_engine(database_url))
    harness = await start(journal=journal)
    harness.directory.keep_finished = 2
    chooser = random.Random(2)
    finished = [await finished_room(harness.directory, chooser) for _ in range(5)]
    kept = [room_id for room_id, room in harness.directory._actors.items() if room.status == "finished"]
    assert len(kept) == 2, "only the two most recently finished stay in memory"
    oldest = finished[0]
    shown = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=oldest.room_id))).room
    assert shown.version == oldest.version and list(shown.outcome.points) == list(oldest.state.outcome().points)
    listed, token = [], ""
    while True:  # every room, newest first, a page of two at a time, from the store
        page = await harness.rooms.ListRooms(room_pb2.ListRoomsRequest(page_size=2, page_token=token))
        listed += [room.room_id for room in page.rooms]
        token = page.next_page_token
        if not token:
            break
    assert listed == [room.room_id for room in reversed(finished)]
    await crash(harness.directory, journal)

    journal = SqlJournal(create_engine(database_url))
    again = await start(journal=journal)
    assert await again.directory.restore(await journal.load_live("room")) == 0 and not again.directory._actors, (
        "a restart loads no finished room"
    )
    shown = (await again.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=oldest.room_id))).room
    assert shown.version == oldest.version and shown.status == common_pb2.ROOM_STATUS_FINISHED
    await journal.close()
