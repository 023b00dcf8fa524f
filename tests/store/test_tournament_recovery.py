"""A tournament survives a crash: same game, same move, same standings, same tokens, and it goes on to the end."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import pytest

from engine.soker.tournament import standings as engine_standings
from service.errors import StoreUnavailable
from service.rooms.clock import ManualClock
from service.rooms.directory import RoomDirectory
from service.rooms.room import FINISHED, Room
from service.store.database import create_engine
from service.store.journal import SqlJournal
from service.tournaments.directory import TournamentDirectory
from service.tournaments.tournament import Tournament
from tests.store.conftest import crash


class Server:
    """What a server process holds: rooms and tournaments over one store, rebuilt from it on start."""

    def __init__(self, journal: SqlJournal, clock: ManualClock) -> None:
        seeds = iter(range(100, 10_000))
        self.journal = journal
        self.rooms = RoomDirectory(
            clock=clock, journal=journal, seed_source=lambda: next(seeds), default_think_seconds=0
        )
        self.tournaments = TournamentDirectory(self.rooms)

    @classmethod
    async def start(cls, url: str, clock: ManualClock, journal: SqlJournal | None = None) -> Server:
        server = cls(journal or SqlJournal(create_engine(url)), clock)
        await server.rooms.restore(await server.journal.load_live("room"))
        await server.tournaments.restore(await server.journal.load_live("tournament"))
        await server.tournaments.settle()
        return server

    async def crash(self) -> None:
        await crash(self.rooms, self.journal, self.tournaments)


async def play(tournament: Tournament, nonce: str, chooser: random.Random, moves: int | None = None) -> Room:
    """Seat 0 plays the current game (``moves`` of its moves, or to the end); returns the room."""
    room = rooms_of(tournament)[-1]
    played = 0
    while moves is None or played < moves:
        await room.settle()  # (the status turns finished before the last move is stored: wait for the store)
        if room.status == FINISHED:
            break
        assert room.state.to_act() == (0,), "in a solo game the system players have moved"
        move = chooser.choice(room.state.legal_moves(0))
        await room.move(0, nonce, move, f"g{room.tournament_game}-{played}", room.version)
        played += 1
    await room.settle()
    return room


def rooms_of(tournament: Tournament) -> list[Room]:
    """The tournament's games' rooms (every one is in memory in these tests)."""
    return [tournament.rooms.get(room_id) for room_id in tournament.game_room_ids]


def table(tournament: Tournament) -> list[tuple]:
    return [
        (line.place, line.seat, line.points, line.games_won, dict(line.tallies)["country_wins"])
        for line in tournament.standings().lines
    ]


async def test_a_crash_in_game_five_resumes_at_the_same_game_and_move(database_url: str) -> None:
    clock = ManualClock()
    server = await Server.start(database_url, clock)
    tournament = await server.tournaments.create(game="soker", mode="solo", system_players=3)
    tid = tournament.tournament_id
    seat, nonce = await tournament.join(None, "ann")
    chooser = random.Random(5)
    for _ in range(4):
        await play(tournament, nonce, chooser)
        await server.tournaments.settle()
    room = await play(tournament, nonce, chooser, moves=2)  # game 5 (index 4), two of its moves in
    assert room.tournament_game == 4 and room.status != FINISHED
    before = {
        "version": tournament.version,
        "games": tournament.game_room_ids,
        "room_version": room.version,
        "view": room.state.view(0),
        "standings": table(tournament),
        "updates": [(u.version, u.events) for u in tournament.updates],
    }
    assert [line[2] for line in before["standings"]] != [0, 0, 0, 0], "four games scored"
    await server.crash()

    server = await Server.start(database_url, clock)
    tournament = server.tournaments.get(tid)
    room = rooms_of(tournament)[-1]
    assert tournament.version == before["version"] and tournament.status == "playing"
    assert tournament.game_room_ids == before["games"], "the same game, in the same room"
    assert room.version == before["room_version"] and room.state.view(0) == before["view"], "at the same move"
    assert table(tournament) == before["standings"], "standings intact"
    assert [(u.version, u.events) for u in tournament.updates] == before["updates"], "the same updates to resume"
    tournament.check_seat(seat, nonce)  # the tournament token still holds
    room.check_seat(seat, nonce)
    for _ in range(4):
        await play(tournament, nonce, chooser)
        await server.tournaments.settle()
    assert tournament.status == "finished" and len(tournament.game_room_ids) == 8
    outcomes = [r.state.outcome() for r in rooms_of(tournament)]
    assert table(tournament) == [
        (s.place, s.seat, s.points, s.games_won, s.country_wins) for s in engine_standings(outcomes)
    ]
    assert Counter(r.options["first_seat"] for r in rooms_of(tournament)) == {0: 2, 1: 2, 2: 2, 3: 2}
    await server.crash()

    # Finished, it stays finished: the final standings are still there after another restart.
    final = table(tournament)
    server = await Server.start(database_url, clock)
    finished = await server.tournaments.find(tid)  # (a finished tournament is read back when asked for)
    assert finished.status == "finished" and table(finished) == final
    await server.crash()


class ResultLost(SqlJournal):
    """A store that refuses tournament results while ``lost`` is set (as a full disk would)."""

    lost = True

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.refused = asyncio.Event()  # set once a result was refused

    async def append(self, kind: str, entry, status: str) -> None:
        if kind == "tournament" and entry.kind == "result" and self.lost:
            self.refused.set()
            raise StoreUnavailable("disk full")
        await super().append(kind, entry, status)


async def test_a_game_that_ended_just_before_a_crash_is_recorded_and_the_next_one_starts(database_url: str) -> None:
    """The room stored its last move, the tournament could not store the result: a restart records it and goes on."""
    clock = ManualClock()
    server = await Server.start(database_url, clock, ResultLost(create_engine(database_url)))
    tournament = await server.tournaments.create(game="soker", mode="solo", system_players=3)
    tid = tournament.tournament_id
    _, nonce = await tournament.join(None, "ann")
    room = await play(tournament, nonce, random.Random(9))
    await server.journal.refused.wait()  # it tried to record the result
    assert room.status == FINISHED
    assert tournament.current().standings.lines[0].points == 0, "the result was not stored, so nobody heard of it"
    with pytest.raises(StoreUnavailable):
        await tournament.join(None, "bo")
    await server.crash()

    server = await Server.start(database_url, clock)
    tournament = server.tournaments.get(tid)
    assert len(tournament.rules.results) == 1 and tournament.rules.results[0] == room.state.outcome()
    assert len(tournament.game_room_ids) == 2 and rooms_of(tournament)[1].options["first_seat"] == 1
    assert rooms_of(tournament)[1].status == "playing" and rooms_of(tournament)[1].seats[0].nonce == nonce
    kinds = [[type(event).__name__ for event in update.events] for update in tournament.updates]
    assert kinds[-2:] == [["GameEnded", "StandingsChanged"], ["GameStarted"]]
    await server.crash()


async def test_a_result_the_store_could_not_take_is_recorded_once_it_can_without_a_restart(database_url: str) -> None:
    clock = ManualClock()
    server = await Server.start(database_url, clock, ResultLost(create_engine(database_url)))
    tournament = await server.tournaments.create(game="soker", mode="solo", system_players=3)
    _, nonce = await tournament.join(None, "ann")
    feed = tournament.subscribe(0)
    room = await play(tournament, nonce, random.Random(9))
    assert room.status == FINISHED and tournament.current().games_played == 0
    server.journal.lost = False  # the disk has room again
    await server.tournaments.settle()  # the tournament heals by itself: no restart
    assert tournament.current().games_played == 1 and len(tournament.game_room_ids) == 2
    assert rooms_of(tournament)[1].status == "playing" and rooms_of(tournament)[1].seats[0].nonce == nonce
    heard = [(await feed.next()).version for _ in range(tournament.version)]
    assert heard == list(range(1, tournament.version + 1)), "every stored update once, in order"
    stored = await server.journal.load("tournament", tournament.tournament_id)
    assert [line.kind for line in stored][-2:] == ["result", "game"]
    await server.crash()


async def test_a_tournament_of_system_players_finishes_after_a_restart(database_url: str) -> None:
    clock = ManualClock()
    server = await Server.start(database_url, clock)
    tournament = await server.tournaments.create(game="soker", mode="online", system_players=4)
    updates = [update async for update in tournament.subscribe(0)]  # the feed ends with the tournament
    assert len(updates) == 16 and tournament.status == "finished"
    final = table(tournament)
    await server.crash()
    server = await Server.start(database_url, clock)
    again = await server.tournaments.find(tournament.tournament_id)
    assert again.status == "finished" and table(again) == final and len(again.game_room_ids) == 8
    await server.crash()
