"""Each seat's result (won, lost, drawn, shared win), decided by the engine from a finished game's winners and the
table's teams: games played to their end by system players, one per way each game can end."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import Outcome, SeatResult, play_out
from engine.registry import get_game

WON, LOST, DRAWN, SHARED = SeatResult.WON, SeatResult.LOST, SeatResult.DRAWN, SeatResult.SHARED_WIN


def finished(name: str, seats: int, options: dict[str, Any], seed: int) -> tuple[Outcome, tuple[SeatResult, ...]]:
    game = get_game(name)
    state = game.new_game(seats, options, seed)
    play_out(state, [game.new_bot("random", seed + seat) for seat in range(seats)])
    outcome = state.outcome()
    assert outcome is not None
    return outcome, outcome.results(game.teams(seats, options))


@pytest.mark.parametrize(
    ("name", "seats", "options", "seed", "reason", "winners", "results"),
    [
        # Age of Soccer: the turn limit with every seat on 0 shields lists every seat a winner: a draw
        ("age-of-soccer", 3, {"max_rounds": 1}, 1, "rounds", (0, 1, 2), (DRAWN, DRAWN, DRAWN)),
        ("age-of-soccer", 2, {"max_rounds": 6}, 17, "rounds", (0, 1), (DRAWN, DRAWN)),
        # two seats level on the most shields: "ties shared", the third lost
        ("age-of-soccer", 3, {"max_rounds": 1}, 3, "rounds", (0, 1), (SHARED, SHARED, LOST)),
        ("age-of-soccer", 3, {"max_rounds": 1}, 0, "rounds", (2,), (LOST, LOST, WON)),
        ("age-of-soccer", 2, {"max_rounds": 6}, 0, "shields", (1,), (LOST, WON)),
        # Carta: the winning team's seats win together (won, not shared); a drawn match is a draw
        ("carta-futbol-club", 4, {}, 0, "goals", (1, 3), (LOST, WON, LOST, WON)),
        ("carta-futbol-club", 4, {}, 4, "draw", (), (DRAWN, DRAWN, DRAWN, DRAWN)),
        # Soker: one winner, the others lost
        ("soker", 2, {}, 0, "empty_hand", (0,), (WON, LOST)),
        ("soker", 2, {}, 7, "one_country", (1,), (LOST, WON)),
    ],
)
def test_each_seat_gets_the_result_its_game_gives(
    name: str, seats: int, options: dict[str, Any], seed: int, reason: str, winners: tuple, results: tuple
) -> None:
    outcome, decided = finished(name, seats, options, seed)
    assert (outcome.reason, outcome.winners) == (reason, winners)
    assert decided == results


def test_a_soker_stalemate_is_a_draw_for_every_seat() -> None:
    """Soker's stalemate ends "with no winner" (its points still count): nobody lost more than another."""
    stalemate = Outcome((), "stalemate", (5, 9, 2))
    assert stalemate.results(get_game("soker").teams(3, {})) == (DRAWN, DRAWN, DRAWN)
