"""The 8-game tournament's pure logic: rotation of the first player and the standings."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import InvalidOptions, Outcome, play_out
from engine.soker import SOKER
from engine.soker.bots import RandomBot
from engine.soker.tournament import Tournament, first_seat, standings


def test_each_player_starts_exactly_twice_in_eight_games() -> None:
    starters = Counter(first_seat(game) for game in range(8))
    assert starters == {0: 2, 1: 2, 2: 2, 3: 2}


def test_standings_order_by_points_then_wins_then_country_wins() -> None:
    results = [
        Outcome((0,), "empty_hand", (10, 3, 2, 1)),
        Outcome((1,), "one_country", (1, 12, 3, 1)),
        Outcome((2,), "empty_hand", (2, 1, 12, 4)),
        Outcome((), "stalemate", (1, 1, 0, 11)),
    ]
    # totals: seat0 14 pts 1 win; seat1 17 pts 1 win (country); seat2 17 pts 1 win; seat3 17 pts 0 wins
    table = standings(results)
    assert [(s.place, s.seat, s.points, s.games_won, s.country_wins) for s in table] == [
        (1, 1, 17, 1, 1),
        (2, 2, 17, 1, 0),
        (3, 3, 17, 0, 0),
        (4, 0, 14, 1, 0),
    ]


def test_a_player_can_lose_the_last_game_and_still_win_on_points() -> None:
    results = [Outcome((0,), "one_country", (20, 1, 1, 1))] + [Outcome((1,), "empty_hand", (0, 5, 0, 0))] * 2
    assert standings(results)[0].seat == 0


def test_equal_on_all_three_share_the_place() -> None:
    results = [Outcome((0,), "empty_hand", (8, 4, 2, 2)), Outcome((1,), "empty_hand", (4, 8, 2, 2))]
    table = standings(results)
    assert [(s.place, s.seat) for s in table] == [(1, 0), (1, 1), (3, 2), (3, 3)]


def test_a_tournament_runs_eight_games_and_refuses_a_ninth() -> None:
    tournament = Tournament()
    starters = []
    for game in range(8):
        options = tournament.next_options()
        starters.append(options["first_seat"])
        state = SOKER.new_game(4, options, seed=game)
        assert state.current == options["first_seat"]
        play_out(state, [RandomBot(game * 4 + s) for s in range(4)])
        tournament.record(state.outcome())
    assert tournament.finished and starters == [0, 1, 2, 3, 0, 1, 2, 3]
    table = tournament.standings()
    assert sum(s.points for s in table) == sum(sum(r.points) for r in tournament.results)
    assert sum(s.games_won for s in table) == sum(len(r.winners) for r in tournament.results)
    with pytest.raises(InvalidOptions, match="over"):
        tournament.record(tournament.results[0])
    assert Tournament.from_json(tournament.to_json()).standings() == table
