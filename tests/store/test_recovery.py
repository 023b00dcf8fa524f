"""Rooms survive a restart: rebuilt from seed and log, with their clocks, system players and request ids."""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy import inspect, select

from engine.registry import get_game
from service.errors import StoreUnavailable, Unauthenticated
from service.rooms.clock import ManualClock
from service.rooms.directory import RoomDirectory
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from service.store.memory import MemoryJournal
from service.store.models import RoomRow, SeatRow
from tests.room_ids import room_ids_for_test
from tests.store.conftest import crash


async def open_directory(url: str, clock: ManualClock, seed: int = 7) -> tuple[RoomDirectory, SqlJournal]:
    journal = SqlJournal(create_engine(url))
    directory = RoomDirectory(
        clock=clock, journal=journal, seed_source=lambda: seed, room_ids=room_ids_for_test(), default_think_seconds=0
    )
    await directory.restore(await journal.load_live("room"))
    return directory, journal


async def play(room, nonces: dict[int, str], moves: int, chooser: random.Random, prefix: str = "m") -> list:
    answers = []
    for index in range(moves):
        await room.settle()  # (a system player's answer to the last move first)
        if room.state.outcome() is not None:
            break
        seat = room.state.to_act()[0]
        move = chooser.choice(room.state.legal_moves(seat))
        answers.append(await room.move(seat, nonces[seat], move, f"{prefix}{index}", room.version))
    return answers


async def test_migrations_build_the_schema_from_empty(database_url: str) -> None:
    engine = create_engine(database_url)
    async with engine.connect() as connection:
        tables = await connection.run_sync(lambda sync: set(inspect(sync).get_table_names()))
    await engine.dispose()
    assert {"rooms", "seats", "room_log", "server_settings", "alembic_version"} <= tables
    await upgrade_in_thread(database_url)  # running it again changes nothing


async def test_a_room_continues_where_it_stood_after_a_restart(database_url: str) -> None:
    clock = ManualClock()
    directory, journal = await open_directory(database_url, clock)
    room = await directory.create(game="soker", mode="online", seats=3, system_players=0)
    nonces = dict([await room.join(None, f"p{i}") for i in range(3)])
    answers = await play(room, nonces, 12, random.Random(1))
    before = {seat: room.state.view(seat) for seat in range(3)}
    version, deadline = room.version, room.first_deadline.deadline
    clock.advance(12)  # 12 of the turn's 30 seconds pass, then the server dies
    await crash(directory, journal)

    clock = ManualClock(start=clock.now() + 5)  # the restart takes 5 s
    directory, journal = await open_directory(database_url, clock)
    restored = directory.get(room.room_id)
    assert restored.version == version and restored.status == "playing"
    assert {seat: restored.state.view(seat) for seat in range(3)} == before
    assert restored.first_deadline.deadline == deadline, "the clock keeps its deadline: 13 s are left"
    assert clock.pending() == [deadline]
    # The seats' tokens (nonces) still hold, and an acknowledged request id answers as before.
    seat = answers[-1].update.mover
    again = await restored.move(seat, nonces[seat], None, f"m{len(answers) - 1}", None)
    assert again.version == answers[-1].version and again.retried
    # The updates kept for resuming streams are the same, version by version.
    assert [u.version for u in restored.updates] == list(range(1, version + 1))
    assert [e.event for e in restored.updates[-1].events if hasattr(e, "event")] == [
        e.event for e in answers[-1].update.events if hasattr(e, "event")
    ]
    # The clock then runs out on time, and the game plays on to its end.
    current = restored.state.to_act()[0]
    clock.advance(12.9)
    await restored.settle()
    assert restored.state.to_act() == (current,)
    clock.advance(0.1)
    await restored.settle()
    assert restored.state.to_act() != (current,) or restored.status == "finished"
    await play(restored, nonces, 10_000, random.Random(2), prefix="after")
    assert restored.status == "finished"
    await crash(directory, journal)


async def test_system_players_resume_after_a_restart(database_url: str) -> None:
    clock = ManualClock()
    directory, journal = await open_directory(database_url, clock)
    room = await directory.create(game="soker", mode="solo", seats=4, system_players=3)
    seat, nonce = await room.join(None, "ann")
    await room.settle()
    await play(room, {seat: nonce}, 3, random.Random(3))
    version = room.version
    await crash(directory, journal)
    directory, journal = await open_directory(database_url, ManualClock())
    restored = directory.get(room.room_id)
    await restored.settle()
    assert restored.version >= version
    chooser = random.Random(4)
    while restored.status != "finished":
        await restored.settle()
        if restored.status == "finished":
            break
        assert restored.state.to_act() == (0,)
        move = chooser.choice(restored.state.legal_moves(0))
        await restored.move(0, nonce, move, "", None)
    await restored.settle()  # (a system player's last move may still be committing: the room is finished before)
    # Everything that happened is in the log: a replay from the seed gives the same final state.
    entries = [e for e in await journal.load("room", restored.room_id) if e.kind in ("move", "table")]
    game = get_game("soker")
    replayed = game.new_game(4, restored.options, restored.seed)
    for entry in entries:
        replayed.apply(entry.seat, game.move_from_wire(entry.move), by_table=entry.kind == "table")
    assert replayed.to_json() == restored.state.to_json()
    await crash(directory, journal)


async def test_a_given_back_seat_stays_given_back_after_a_restart(database_url: str) -> None:
    directory, journal = await open_directory(database_url, ManualClock())
    room = await directory.create(game="soker", mode="online", seats=3, system_players=0)
    seat, nonce = await room.join(None, "ann")
    async with journal.engine.connect() as connection:
        taken = (await connection.execute(select(SeatRow.name).where(SeatRow.taken))).scalars().all()
    assert taken == ["ann"]
    await room.leave(seat, nonce)
    await crash(directory, journal)
    directory, journal = await open_directory(database_url, ManualClock())
    restored = directory.get(room.room_id)
    assert not restored.seats[seat].taken and restored.version == 2
    async with journal.engine.connect() as connection:
        rows = (await connection.execute(select(SeatRow).where(SeatRow.room_id == room.room_id))).all()
    assert [(r.seat, r.kind, r.taken) for r in rows] == [
        (0, "person", False),
        (1, "person", False),
        (2, "person", False),
    ]
    with pytest.raises(Unauthenticated):
        restored.check_seat(seat, nonce)
    await crash(directory, journal)


async def test_a_server_stopping_mid_commit_stores_the_move_in_hand_and_refuses_the_next(database_url: str) -> None:
    """Stopping (SIGTERM) closes the journal while a move is being committed: its player hears it was played, the
    store holds it, and a move after the close is refused retriably. (The journal used to cancel that commit: the
    player never heard, and the process could hang at exit on the commit's connection.)"""
    clock = ManualClock()
    directory, journal = await open_directory(database_url, clock)
    room = await directory.create(game="soker", mode="online", seats=3, system_players=0)
    nonces = dict([await room.join(None, f"p{i}") for i in range(3)])
    seat = room.state.to_act()[0]
    move = room.state.legal_moves(seat)[0]
    in_hand = asyncio.ensure_future(room.move(seat, nonces[seat], move, "last", room.version))
    for _ in range(1000):  # until the move is handed to the journal: its commit is about to start
        if journal._pending:
            break
        await asyncio.sleep(0)
    assert journal._pending, "the move reached the journal"
    await asyncio.sleep(0)
    await asyncio.wait_for(journal.close(), 10)
    answer = await asyncio.wait_for(in_hand, 1)
    assert answer.version == room.version, "the move in hand was played and acknowledged"
    seat = room.state.to_act()[0]
    with pytest.raises(StoreUnavailable, match="stopping"):
        await asyncio.wait_for(room.move(seat, nonces[seat], room.state.legal_moves(seat)[0], "next", room.version), 5)

    journal = SqlJournal(create_engine(database_url))
    stored = await journal.load("room", room.room_id)
    assert stored[-1].version == answer.version, "what was acknowledged is stored"
    await journal.close()


async def test_the_token_secret_is_kept(database_url: str) -> None:
    journal = SqlJournal(create_engine(database_url))
    first = await journal.token_secret()
    await journal.close()
    journal = SqlJournal(create_engine(database_url))
    assert await journal.token_secret() == first and len(first) == 32
    await journal.close()


async def test_moves_of_concurrent_rooms_share_commits(database_url: str) -> None:
    directory, journal = await open_directory(database_url, ManualClock())
    rooms = []
    for _ in range(10):
        room = await directory.create(game="soker", mode="online", seats=2, system_players=0)
        rooms.append((room, dict([await room.join(None, "") for _ in range(2)])))
    commits, lines = journal.commits, journal.lines
    await asyncio.gather(*(play(room, nonces, 10, random.Random(i)) for i, (room, nonces) in enumerate(rooms)))
    moved = journal.lines - lines
    assert moved >= 50, "every room moved"
    assert journal.commits - commits < moved / 2, "lines from many rooms share one commit"
    stored = {row.room_id: entries for row, entries in await journal.load_live("room")}
    assert all(len(stored[room.room_id]) == room.version for room, _ in rooms), "every acknowledged line is there"
    async with journal.engine.connect() as connection:  # (each room's row is updated in one statement for all)
        rows = {row.room_id: row for row in await connection.execute(select(RoomRow))}
    for room, _ in rooms:
        acting = {str(seat) for seat in room.state.to_act()} if room.state.outcome() is None else set()
        assert set(rows[room.room_id].turns or {}) == acting, "the row says who must act after the room's last line"
        assert rows[room.room_id].status == room.status
    await crash(directory, journal)


class FlakyJournal(MemoryJournal):
    """A store in memory that can go away: while ``away``, writes fail as SqlJournal's do when its retries run out
    (``ambiguous``: the line was stored all the same, as when a connection drops during COMMIT), and so do reads."""

    def __init__(self) -> None:
        super().__init__()
        self.away = False
        self.ambiguous = False

    async def append(self, kind: str, entry, status: str) -> None:
        if self.away:
            if self.ambiguous:
                await super().append(kind, entry, status)
            raise StoreUnavailable("the store is unavailable")
        await super().append(kind, entry, status)

    async def load(self, kind: str, actor_id: str):
        if self.away:
            raise OSError("connection refused")
        return await super().load(kind, actor_id)


async def started_room(journal: FlakyJournal):
    directory = RoomDirectory(clock=ManualClock(), journal=journal, default_think_seconds=0)
    room = await directory.create(game="soker", mode="online", seats=2, system_players=0)
    nonces = dict([await room.join(None, "") for _ in range(2)])
    return directory, room, nonces


async def test_a_room_whose_store_is_away_answers_unavailable_then_heals_by_itself() -> None:
    journal = FlakyJournal()
    directory, room, nonces = await started_room(journal)
    feed = room.subscribe(0)
    seat = room.state.to_act()[0]
    await room.move(seat, nonces[seat], room.state.legal_moves(seat)[0], "ok", None)  # version 3: stored
    seat = room.state.to_act()[0]
    journal.away = True
    with pytest.raises(StoreUnavailable):
        await room.move(seat, nonces[seat], room.state.legal_moves(seat)[0], "lost", None)
    with pytest.raises(StoreUnavailable):  # the room is recovering: it refuses at once, with a retry hint
        await room.move(seat, nonces[seat], get_game("soker").move_from_wire("draw"), "meanwhile", None)
    assert room.published.version == 3, "readers are shown only what the store holds"
    journal.away = False
    await room.settle()  # the room has rebuilt itself from the store once this returns
    assert room.version == 3 and [e.version for e in journal.log("room", room.room_id)] == [1, 2, 3]
    seat = room.state.to_act()[0]
    answer = await room.move(seat, nonces[seat], room.state.legal_moves(seat)[0], "lost", None)
    assert answer.version == 4 and not answer.retried, "the lost move was not applied: its retry is judged afresh"
    heard = [(await feed.next()).version for _ in range(4)]
    assert heard == [1, 2, 3, 4], "the change that was not stored reached no subscriber; the rest came once"
    await directory.close()


async def test_a_move_stored_although_its_commit_failed_is_in_the_rebuilt_room_and_its_retry_answers_as_first() -> None:
    journal = FlakyJournal()
    directory, room, nonces = await started_room(journal)
    feed = room.subscribe(2)
    seat = room.state.to_act()[0]
    journal.away = journal.ambiguous = True
    move = room.state.legal_moves(seat)[0]
    with pytest.raises(StoreUnavailable):
        await room.move(seat, nonces[seat], move, "maybe", None)
    journal.away = journal.ambiguous = False
    await room.settle()
    assert room.version == 3 and room.published.version == 3, "the store holds the move, so the room does"
    retried = await room.move(seat, nonces[seat], move, "maybe", None)
    assert retried.retried and retried.version == 3, "the retry answers as the first time and changes nothing"
    assert (await feed.next()).version == 3 and room.version == 3
    await directory.close()


async def test_readers_are_sent_back_when_the_store_holds_less_than_they_heard() -> None:
    journal = FlakyJournal()
    directory, room, nonces = await started_room(journal)
    feed = room.subscribe(0)
    assert [(await feed.next()).version for _ in range(2)] == [1, 2]
    del journal.logs["room"][room.room_id][-1]  # a store that lost a line it had confirmed (an older backup, say)
    journal.away = True
    seat = room.state.to_act()[0]
    with pytest.raises(StoreUnavailable):
        await room.move(seat, nonces[seat], room.state.legal_moves(seat)[0], "m", None)
    journal.away = False
    await room.settle()
    assert room.version == 1 and room.published.version == 1 and len(room.updates) == 1
    with pytest.raises(StoreUnavailable, match="reconnect"):
        await feed.next()  # told to come back with the last version it saw, rather than left waiting
    again = room.subscribe(0)
    assert (await again.next()).version == 1, "coming back, it reads what the store holds"
    await directory.close()
