"""Checks of a tournament over gRPC shared by the server and store tests: its updates, its rooms' updates, and its
standings recomputed from the rooms' own events. ``stubs`` is anything with ``tournaments`` and ``moves`` stubs."""

from __future__ import annotations

from collections import Counter
from typing import Any

from google.protobuf import json_format

from kickoff.v1 import move_pb2, tournament_pb2
from tests.tournament_points import game_from_updates, standings_lines, table


async def tournament_updates(stubs: Any, tournament_id: str, after: int = 0) -> list[dict]:
    """Every update after ``after`` until the tournament ends (the stream closes then)."""
    call = stubs.tournaments.StreamTournament(
        tournament_pb2.StreamTournamentRequest(tournament_id=tournament_id, after_version=after)
    )
    return [json_format.MessageToDict(response.update) async for response in call]


async def room_updates(stubs: Any, room_id: str, after: int = 0) -> list[dict]:
    """A finished room's updates as a spectator sees them."""
    call = stubs.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room_id, after_version=after))
    return [json_format.MessageToDict(response.update) async for response in call]


async def check_against_the_rooms(stubs: Any, tournament_id: str) -> list[dict]:
    """The tournament's standings equal those recomputed from its eight rooms' own events; returns the games."""
    tournament = (
        await stubs.tournaments.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id=tournament_id))
    ).tournament
    assert tournament.status == tournament_pb2.TOURNAMENT_STATUS_FINISHED
    assert tournament.games_played == 8 and len(tournament.game_list) == 8 and not tournament.current_room_id
    games = [game_from_updates(await room_updates(stubs, game.room_id)) for game in tournament.game_list]
    assert Counter(game["first_seat"] for game in games) == {0: 2, 1: 2, 2: 2, 3: 2}, "each seat starts twice"
    assert [game.first_seat for game in tournament.game_list] == [game["first_seat"] for game in games]
    for game, listed in zip(games, tournament.game_list, strict=True):
        assert list(listed.outcome.points) == game["points"]
    standings = (
        await stubs.tournaments.GetStandings(tournament_pb2.GetStandingsRequest(tournament_id=tournament_id))
    ).standings
    assert standings.final
    assert standings_lines(json_format.MessageToDict(standings)) == table(games)
    return games
