"""Solo rooms their person walked away from, on both stores, across restarts: a restart leaves a solo room whose
person must move in the store (resting, not counted under the cap), a call brings it back as it was, and one whose
time to end came while the server was down ends as abandoned when it starts again, for good (the ``abandon`` line
is replayed as any other)."""

from __future__ import annotations

from sqlalchemy import select

from engine.registry import get_game
from service.rooms.clock import ManualClock
from service.rooms.directory import RoomDirectory
from service.store.database import create_engine
from service.store.journal import SqlJournal
from service.store.models import RoomRow
from service.tournaments.directory import TournamentDirectory
from tests.room_ids import room_ids_for_test
from tests.store.conftest import crash

DAY = 24 * 3600.0
ABANDON = 30 * DAY  # KICKOFF_SOLO_ABANDON_SECONDS' default


def open_directory(url: str, clock: ManualClock, max_live_rooms: int | None = None) -> tuple[RoomDirectory, SqlJournal]:
    journal = SqlJournal(create_engine(url))
    directory = RoomDirectory(
        clock=clock,
        journal=journal,
        seed_source=lambda: 7,
        room_ids=room_ids_for_test(),
        default_think_seconds=0,
        max_live_rooms=max_live_rooms,
    )
    return directory, journal


async def solo_room(directory: RoomDirectory):
    room = await directory.create(game="soker", mode="solo", seats=2, system_players=1)
    _, nonce = await room.join(None, "ann", player="p-ann")
    return room, nonce


async def test_a_restart_leaves_a_walked_away_solo_room_resting_out_of_the_cap_until_it_is_called_for(
    database_url: str,
) -> None:
    clock = ManualClock()
    directory, journal = open_directory(database_url, clock)
    room, nonce = await solo_room(directory)
    joined, version = clock.now(), room.version
    async with journal.engine.connect() as connection:
        row = (await connection.execute(select(RoomRow).where(RoomRow.room_id == room.room_id))).one()
    assert row.wake_at == joined + ABANDON, "the row says when it must be back: to end as abandoned"
    await crash(directory, journal)

    clock = ManualClock(start=clock.now() + 3600)
    directory, journal = open_directory(database_url, clock, max_live_rooms=1)
    assert await directory.runtime.restore(journal) == {"room": 0}, "nothing loaded at start"
    await directory.start_resting()
    try:
        assert not directory.held() and directory.resting() == {room.room_id}
        await solo_room(directory)  # the cap of one is free: a resting solo room does not count
        back = await directory.locate(room.room_id, use=True)
        assert back.version == version and back.published.to_act == (0,) and back.abandon_at == joined + ABANDON
        await back.move(0, nonce, get_game("soker").move_from_wire("draw"), "", None)
        assert back.version == version + 1
    finally:
        directory.stop_resting()
        await crash(directory, journal)


async def test_a_solo_room_whose_time_came_while_the_server_was_down_ends_as_abandoned_at_start(
    database_url: str,
) -> None:
    clock = ManualClock()
    directory, journal = open_directory(database_url, clock)
    room, _ = await solo_room(directory)
    version = room.version
    await crash(directory, journal)

    clock = ManualClock(start=clock.now() + ABANDON + DAY)  # down for a month and a day
    directory, journal = open_directory(database_url, clock)
    assert await directory.runtime.restore(journal) == {"room": 1}, "due: loaded at start"
    restored = directory.get(room.room_id)
    clock.advance(0)
    await restored.settle()
    assert restored.status == "finished" and restored.version == version + 1
    assert restored.published.outcome.reason == "abandoned" and not restored.rated
    await crash(directory, journal)

    directory, journal = open_directory(database_url, clock)  # the end is stored: it stays ended
    assert await directory.runtime.restore(journal) == {"room": 0}
    again = await directory.locate(room.room_id)
    assert again.status == "finished" and again.published.outcome.reason == "abandoned"
    log = await journal.load("room", room.room_id)
    assert log[-1].kind == "abandon" and log[-1].time == clock.now()
    async with journal.engine.connect() as connection:
        row = (await connection.execute(select(RoomRow).where(RoomRow.room_id == room.room_id))).one()
    assert row.status == "finished" and row.outcome["reason"] == "abandoned" and row.wake_at is None
    await crash(directory, journal)


async def test_a_solo_tournament_ended_by_its_abandoned_game_stays_ended_after_a_restart(database_url: str) -> None:
    clock = ManualClock()
    directory, journal = open_directory(database_url, clock)
    tournaments = TournamentDirectory(directory)
    tournament = await tournaments.create(game="soker", mode="solo", system_players=3)
    await tournament.join(None, "ann")
    await tournaments.settle()
    room_id = tournament.current().current_room_id
    await crash(directory, journal, tournaments)

    clock = ManualClock(start=clock.now() + ABANDON + DAY)  # down for a month and a day
    directory, journal = open_directory(database_url, clock)
    tournaments = TournamentDirectory(directory)
    await directory.runtime.restore(journal)
    clock.advance(0)
    await directory.settle()
    await tournaments.settle()
    ended = tournaments.get(tournament.tournament_id).current()
    assert ended.status == "finished" and ended.game_list[0].outcome.reason == "abandoned"
    assert directory.get(room_id).published.outcome.reason == "abandoned"
    await crash(directory, journal, tournaments)

    directory, journal = open_directory(database_url, clock)  # the "result" line replays the same end
    tournaments = TournamentDirectory(directory)
    assert await directory.runtime.restore(journal) == {"room": 0, "tournament": 0}
    again = (await tournaments.locate(tournament.tournament_id)).current()
    assert again.status == "finished" and len(again.game_list) == 1
    assert again.game_list[0].outcome.reason == "abandoned" and not again.standings.final
    await crash(directory, journal, tournaments)


async def test_a_restart_leaves_a_resting_solo_tournament_in_the_store_until_its_person_comes_back(
    database_url: str,
) -> None:
    clock = ManualClock()
    directory, journal = open_directory(database_url, clock)
    tournaments = TournamentDirectory(directory)
    tournament = await tournaments.create(game="soker", mode="solo", system_players=3)
    _, nonce = await tournament.join(None, "ann")
    await tournaments.settle()
    room_id, version = tournament.current().current_room_id, tournament.current().version
    await directory.settle()
    clock.advance(600)  # KICKOFF_SOLO_REST_SECONDS' default
    await directory.rest_and_wake()
    await crash(directory, journal, tournaments)

    clock = ManualClock(start=clock.now() + 3600)
    directory, journal = open_directory(database_url, clock)
    tournaments = TournamentDirectory(directory, max_live=1)
    assert await directory.runtime.restore(journal) == {"room": 0, "tournament": 0}, "nothing loaded at start"
    try:
        await tournaments.create(game="soker", mode="solo", system_players=3)  # the cap of one is free
        await directory.start_resting()
        await tournaments.start_resting()
        assert tournaments.resting() == {tournament.tournament_id} and directory.resting() == {room_id}
        # Its person's move in its game brings the game back, and the tournament with it, as it was.
        room = await directory.locate(room_id, use=True)
        await room.move(0, nonce, get_game("soker").move_from_wire("draw"), "", None)
        await tournaments.settle()
        assert tournaments.resting() == set() and directory.resting() == set()
        back = tournaments.get(tournament.tournament_id).current()
        assert back.version == version and back.status == "playing" and back.current_room_id == room_id
    finally:
        await crash(directory, journal, tournaments)


async def test_a_solo_tournament_left_resting_by_a_restart_ends_when_its_game_is_abandoned(database_url: str) -> None:
    clock = ManualClock()
    directory, journal = open_directory(database_url, clock)
    tournaments = TournamentDirectory(directory)
    tournament = await tournaments.create(game="soker", mode="solo", system_players=3)
    await tournament.join(None, "ann")
    await tournaments.settle()
    joined = clock.now()
    await directory.settle()
    clock.advance(600)
    await directory.rest_and_wake()
    await crash(directory, journal, tournaments)

    clock = ManualClock(start=clock.now() + 3600)
    directory, journal = open_directory(database_url, clock)
    tournaments = TournamentDirectory(directory, max_live=1)
    await directory.runtime.restore(journal)
    try:
        await tournaments.create(game="soker", mode="solo", system_players=3)  # resting, it is not under the cap
        await directory.start_resting()
        await tournaments.start_resting()
        clock.advance(joined + ABANDON - clock.now())
        await directory.rest_and_wake()  # (the sweep loads its game, which wakes it and ends it)
        clock.advance(0)
        await directory.settle()
        await tournaments.settle()
        ended = (await tournaments.locate(tournament.tournament_id)).current()
        assert ended.status == "finished" and ended.game_list[0].outcome.reason == "abandoned"
        assert tournaments.resting() == set()
    finally:
        await crash(directory, journal, tournaments)
