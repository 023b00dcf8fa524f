"""Ratings: each change equal to what openskill's Plackett-Luce model computes for the same outcome, for free-for-all
games of 2-7 seats and for teams of 1-3 a side; a rated game's end changes its players' ratings once, with the
history of each change; solo rooms are not rated unless asked, and system players are rated per kind."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from engine.core import Outcome
from kickoff.v1 import player_pb2
from service.players.store import PlayerStore
from service.store.database import create_engine
from service.store.records import GameResult, SeatResult
from tests.players.conftest import Served, auth

MODEL = PlackettLuce()


def test_places_put_the_winners_first_then_points_and_share_ties() -> None:
    assert Outcome((1,), "empty_hand", (3, 9, 2, 2)).places([0, 1, 2, 3]) == [2, 1, 3, 3]
    assert Outcome((), "stalemate", (4, 4, 1)).places([0, 1, 2]) == [1, 1, 3]
    assert Outcome((0, 2), "goals", (2, 1, 2, 1)).places([0, 1, 0, 1]) == [1, 2]


TABLES = [[1] * seats for seats in range(2, 8)] + [[1, 1], [2, 2], [3, 3]]  # seats per team


@pytest.mark.parametrize("team_sizes", TABLES, ids=lambda sizes: "v".join(map(str, sizes)))
async def test_rating_changes_equal_the_librarys_for_the_same_outcome(database_url: str, team_sizes: list[int]) -> None:
    chooser = random.Random(len(team_sizes) * 10 + team_sizes[0])
    engine = create_engine(database_url)
    store = PlayerStore(engine, lambda: 1.0)
    players = [f"p{team}{index}" for team, size in enumerate(team_sizes) for index in range(size)]
    teams = [team for team, size in enumerate(team_sizes) for _ in range(size)]
    expected = {p: MODEL.rating() for p in players}
    for game in range(3):  # three games in a row: the second and third start from the ratings the first left
        places = [chooser.randint(1, len(team_sizes)) for _ in team_sizes]
        result = GameResult(
            f"room{game}",
            "soker",
            True,
            float(game),
            {},
            tuple(
                SeatResult(seat, player, teams[seat], places[teams[seat]], places[teams[seat]] == 1)
                for seat, player in enumerate(players)
            ),
        )
        async with engine.begin() as connection:
            await store.rate(connection, [result])
        members = [[p for p, t in zip(players, teams, strict=True) if t == team] for team in range(len(team_sizes))]
        rated = MODEL.rate([[expected[p] for p in team] for team in members], ranks=places)
        for team, ratings in zip(members, rated, strict=True):
            for player, rating in zip(team, ratings, strict=True):
                expected[player] = rating
    stored = await store.ratings_of("soker", players)
    for player in players:
        assert stored[player].mu == pytest.approx(expected[player].mu, abs=1e-9)
        assert stored[player].sigma == pytest.approx(expected[player].sigma, abs=1e-9)
        assert stored[player].games == 3
    await engine.dispose()


async def test_a_rated_game_changes_its_players_ratings_once_with_history(served: Served) -> None:
    ann, bo = await served.guest(name="Ann"), await served.guest(name="Bo")
    created = await served.create(ann)
    room_id = created.room.room_id
    joined = await served.join(room_id, bo)
    assert joined.room.rated  # online, every person a player: rated by default
    ended = await served.play_out(room_id, {created.seat: created.seat_token, joined.seat: joined.seat_token})
    assert ended.outcome.reason and ended.rated
    places = Outcome(tuple(ended.outcome.winners), "", tuple(ended.outcome.points)).places([0, 1])
    a, b = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=places)
    players = served.harness.players
    for session, expected, seat in ((ann, a[0], 0), (bo, b[0], 1)):
        me = (await players.GetPlayer(player_pb2.GetPlayerRequest(player_id=session.player.player_id))).player
        [rating] = me.ratings
        assert (rating.game, rating.games) == ("soker", 1)
        assert rating.mu == pytest.approx(expected.mu) and rating.sigma == pytest.approx(expected.sigma)
        assert rating.display == pytest.approx(expected.mu - 3 * expected.sigma)
        assert rating.wins == (seat in ended.outcome.winners)
        changes = (
            await players.ListRatingChanges(
                player_pb2.ListRatingChangesRequest(game="soker"), metadata=auth(session.access_token)
            )
        ).changes
        assert [(c.room_id, c.place) for c in changes] == [(room_id, places[seat])]
        assert changes[0].before.mu == pytest.approx(25.0) and changes[0].after.mu == pytest.approx(expected.mu)
        games = await players.ListPlayerGames(player_pb2.ListPlayerGamesRequest(player_id=session.player.player_id))
        assert (games.played, games.won) == (1, int(seat in ended.outcome.winners))
        [game] = games.games
        assert (game.room_id, game.seat, game.place, game.rated) == (room_id, seat, places[seat], True)
        assert [s.name for s in game.seats] == ["Ann", "Bo"] and list(game.outcome.points) == list(ended.outcome.points)
    board = await players.GetLeaderboard(player_pb2.GetLeaderboardRequest(game="soker"))
    assert sorted(line.player_id for line in board.lines) == sorted([ann.player.player_id, bo.player.player_id])
    assert [line.rank for line in board.lines] == sorted(line.rank for line in board.lines)


async def test_solo_rooms_are_not_rated_unless_asked_and_system_players_have_ratings(served: Served) -> None:
    ann = await served.guest()
    players = served.harness.players
    plain = await served.create(ann, solo=True, seats=2, system_players=1)
    ended = await served.play_out(plain.room.room_id, {plain.seat: plain.seat_token})
    assert not ended.rated
    me = (await players.GetPlayer(player_pb2.GetPlayerRequest(), metadata=auth(ann.access_token))).player
    assert list(me.ratings) == []
    asked = await served.create(ann, solo=True, seats=3, system_players=2, rated=True)
    ended = await served.play_out(asked.room.room_id, {asked.seat: asked.seat_token})
    assert ended.rated
    bot = (await players.GetPlayer(player_pb2.GetPlayerRequest(player_id="system-normal"))).player
    assert [(r.game, r.games) for r in bot.ratings] == [("soker", 1)]
    me = (await players.GetPlayer(player_pb2.GetPlayerRequest(), metadata=auth(ann.access_token))).player
    assert [(r.game, r.games) for r in me.ratings] == [("soker", 1)]
