"""A duplicate tournament's pure logic (engine/soker/tournament.py): the rotation of the seats, who starts each deal,
the standings by player and each deal's comparison, from known outcomes. No server: each test runs in milliseconds."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import registry
from engine.core import InvalidOptions, Outcome
from engine.soker.tournament import Tournament, comparison, deal_of, rotation_of, table_seat, to_players


def test_each_player_plays_each_table_seat_of_each_deal_once_and_starts_twice() -> None:
    """The rotation the docs state: game g is deal g // 4 in rotation g % 4, tournament seat k at table seat
    (k + r) % 4; the deal's starting table seat stays, so each player starts each deal once (twice in all)."""
    tournament = Tournament(duplicate=True)
    held = Counter((deal_of(g), tournament.table_seat(k, g), k) for g in range(8) for k in range(4))
    assert set(held.values()) == {1} and len(held) == 2 * 4 * 4
    assert [tournament.first_seat(g) for g in range(8)] == [0, 0, 0, 0, 1, 1, 1, 1]
    starters = [next(k for k in range(4) if table_seat(k, g) == tournament.first_seat(g)) for g in range(8)]
    assert starters == [0, 3, 2, 1, 1, 0, 3, 2]
    assert Counter(starters) == {0: 2, 1: 2, 2: 2, 3: 2}
    assert [(deal_of(g), rotation_of(g)) for g in (0, 3, 4, 7)] == [(0, 0), (0, 3), (1, 0), (1, 3)]


def _known_results() -> list[Outcome]:
    # Deal 0: table seat 0 holds the lucky hand; whoever sits there wins with 10 points in every rotation.
    deal0 = [Outcome((0,), "empty_hand", (10, 1, 2, 3))] * 4
    # Deal 1: only rotation 0's table seat 1 (tournament seat 1) makes a country win; the other rotations stall.
    deal1 = [Outcome((1,), "one_country", (0, 12, 0, 0))] + [Outcome((), "stalemate", (1, 1, 1, 1))] * 3
    return deal0 + deal1


def test_standings_map_table_seats_back_to_players_so_a_lucky_hand_scores_for_everyone() -> None:
    """Totals per player from known outcomes: deal 0's lucky hand gives each player 16 (10 + 1 + 2 + 3) and one win;
    only the country win of deal 1 tells the players apart."""
    tournament = Tournament(duplicate=True)
    for outcome in _known_results():
        tournament.record(outcome)
    assert tournament.finished
    table = [(s.place, s.seat, s.points, s.games_won, s.country_wins) for s in tournament.standings()]
    assert table == [(1, 1, 31, 2, 1), (2, 0, 19, 1, 0), (2, 2, 19, 1, 0), (2, 3, 19, 1, 0)]
    # Rotation 1 of deal 0: table seat 0 is held by tournament seat 3, who won it.
    assert to_players(Outcome((0,), "empty_hand", (10, 1, 2, 3)), 1) == Outcome((3,), "empty_hand", (1, 2, 3, 10))


def test_each_deals_comparison_lists_who_played_each_hand_and_their_points() -> None:
    """Per deal and table seat: the players who held that hand, game by game, with their points and whether they won
    (a deal under way lists the rotations played so far)."""
    results = _known_results()
    lines = comparison(results)
    assert len(lines) == 8
    first = lines[0]  # deal 0, table seat 0
    assert (first.deal, first.table_seat) == (0, 0)
    assert [(p.seat, p.game, p.points, p.won) for p in first.plays] == [
        (0, 0, 10, True),
        (3, 1, 10, True),
        (2, 2, 10, True),
        (1, 3, 10, True),
    ]
    hand = next(line for line in lines if (line.deal, line.table_seat) == (1, 1))
    assert [(p.seat, p.points, p.won) for p in hand.plays] == [
        (1, 12, True),
        (0, 1, False),
        (3, 1, False),
        (2, 1, False),
    ]
    partial = comparison(results[:5])  # deal 1 has begun: its hands list one play each
    assert [len(line.plays) for line in partial] == [4, 4, 4, 4, 1, 1, 1, 1]


def test_a_duplicate_tournament_survives_json_and_an_ordinary_one_compares_nothing() -> None:
    tournament = Tournament(duplicate=True)
    tournament.record(_known_results()[1])
    again = Tournament.from_json(tournament.to_json())
    assert again.duplicate and again.standings() == tournament.standings()
    assert Tournament().comparison() == [] and "duplicate" not in Tournament().to_json()


def test_a_game_whose_tournament_cannot_rotate_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """registry.new_tournament(duplicate=True) for a tournament with no duplicate form: InvalidOptions, saying so."""
    monkeypatch.setitem(registry.TOURNAMENTS, "soker", lambda: Tournament())
    with pytest.raises(InvalidOptions, match="cannot rotate its seats"):
        registry.new_tournament("soker", duplicate=True)
    monkeypatch.undo()
    assert registry.new_tournament("soker", duplicate=True).deals == 2  # type: ignore[attr-defined]
