"""The hard level's search (engine/search.py), in small fixed-iteration games: it plays legal moves, keeps to its
deadline on a fake clock, reads only its seat's view, and beats random players over a few seeded deals."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import GameState
from engine.levels import LEVELS, EasyBot, levels_of
from engine.registry import get_game
from engine.search import SearchBot, rewards

GAMES = tuple(name for name in ("soker", "age-of-soccer", "carta-futbol-club") if "hard" in get_game(name).bots)


def hard(name: str, seed: int, **budget: object) -> SearchBot:
    game = get_game(name)
    return SearchBot(game.sample, game.bots, seed, game.search, **budget)  # type: ignore[arg-type]


def position(name: str, seats: int, seed: int, moves: int) -> GameState:
    """A game ``moves`` moves in, played by normal players, at a seat with a choice to make."""
    game = get_game(name)
    state = game.new_game(seats, None, seed)
    bots = [game.new_bot("normal", seed + seat) for seat in range(seats)]
    played = 0
    while state.to_act():
        seat = state.to_act()[0]
        if played >= moves and len(state.legal_moves(seat)) > 1:
            return state
        state.apply(seat, bots[seat].choose(state, seat))
        played += 1
    raise AssertionError("the game ended before the position")


def test_every_game_offers_the_four_levels_and_takes_the_older_name() -> None:
    assert "soker" in GAMES
    for name in GAMES:
        game = get_game(name)
        assert levels_of(game) == LEVELS
        assert isinstance(game.new_bot("easy", 1), EasyBot)
        assert isinstance(game.new_bot("hard", 1), SearchBot)
        assert type(game.new_bot("heuristic", 1)) is type(game.new_bot("normal", 1))


@pytest.mark.parametrize("name", GAMES)
def test_a_hard_player_plays_a_whole_game_of_legal_moves(name: str) -> None:
    game = get_game(name)
    state = game.new_game(2, None, 11)
    bots = [hard(name, 3, iterations=10), game.new_bot("random", 4)]
    moves = 0
    while state.to_act():
        seat = state.to_act()[0]
        move = bots[seat].choose(state, seat)
        assert move in state.legal_moves(seat)
        state.apply(seat, move)
        moves += 1
    assert state.outcome() is not None and moves > 0


class FakeClock:
    """Each reading is ``step`` seconds after the one before."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.readings = 0.0, step, 0

    def __call__(self) -> float:
        self.now += self.step
        self.readings += 1
        return self.now


@pytest.mark.parametrize("name", GAMES)
def test_the_search_answers_by_its_deadline(name: str) -> None:
    state = position(name, 2, 5, 4)
    seat = state.to_act()[0]
    clock = FakeClock(0.01)  # (10 ms a reading: an iteration is at least one)
    bot = hard(name, 1, clock=clock)
    decision = bot.decide(state.view(seat), seat, seed=1, deadline=0.5)
    assert decision.move in state.legal_moves(seat)
    # It reads the clock once an iteration after the fewest it allows (8), and stops at the first reading past 0.5 s.
    assert 8 < decision.iterations <= 8 + 50
    assert clock.now <= 0.5 + 0.02  # (the reading that found the deadline passed, and the answer's)
    # A deadline already passed still gets the fewest iterations, never none.
    late = hard(name, 1, clock=FakeClock(1.0)).decide(state.view(seat), seat, seed=1, deadline=0.0)
    assert late.iterations == get_game(name).search.min_iterations


class ViewOnly:
    """A state that offers its view and version and nothing else: the search must not need more."""

    def __init__(self, state: GameState) -> None:
        self._state = state
        self.version = state.version

    def view(self, seat: int) -> object:
        return self._state.view(seat)


def assert_one_decision(game: Any, state: GameState, settings: Any) -> None:
    """The true table and a table dealt otherwise from the same view give the searching player (40 iterations, these
    settings) the same move: it reads only its view."""
    seat = state.to_act()[0]
    other = game.sample(state.view(seat), 99)
    assert other.view(seat) == state.view(seat) and other.to_json() != state.to_json()
    decisions = {
        SearchBot(game.sample, game.bots, 7, settings, iterations=40).choose(ViewOnly(table), seat).to_wire()  # type: ignore[arg-type]
        for table in (state, other)
    }
    assert len(decisions) == 1


@pytest.mark.parametrize("name", GAMES)
def test_the_search_reads_only_its_view_and_two_states_with_that_view_give_one_decision(name: str) -> None:
    game = get_game(name)
    for seats, seed in ((2, 21), (4, 22)):
        if seats not in game.spec.seat_counts:
            continue
        state = position(name, seats, seed, 6)
        seat = state.to_act()[0]
        other = game.sample(state.view(seat), 99)  # the same view, the hidden cards dealt otherwise
        assert other.view(seat) == state.view(seat)
        assert other.to_json() != state.to_json()
        decisions = {
            hard(name, 7, iterations=40).choose(ViewOnly(candidate), seat).to_wire()  # type: ignore[arg-type]
            for candidate in (state, other)
        }
        assert len(decisions) == 1
        assert decisions <= {move.to_wire() for move in state.legal_moves(seat)}


# Iterations a decision (Carta's matches against a random team are long: 8 keep its test to seconds).
BEATS_RANDOM = {"soker": 24, "age-of-soccer": 24, "carta-futbol-club": 8}


@pytest.mark.parametrize("name", GAMES)
def test_hard_beats_random_over_a_few_seeded_deals(name: str) -> None:
    """Four deals, each played twice with the seats swapped (luck cancels): hard takes most of the reward."""
    game = get_game(name)
    total = 0.0
    for deal in range(4):
        for hero in (0, 1):
            state = game.new_game(2, None, 300 + deal)
            bots = [game.new_bot("random", deal * 2 + seat) for seat in range(2)]
            bots[hero] = hard(name, deal, iterations=BEATS_RANDOM[name])
            while state.to_act():
                seat = state.to_act()[0]
                state.apply(seat, bots[seat].choose(state, seat))
            total += rewards(state)[hero]
    assert total / 8 >= 0.75


@pytest.mark.parametrize(("name", "seats"), [("carta-futbol-club", 2), ("carta-futbol-club", 4)])
def test_a_playout_is_judged_at_the_next_goal(name: str, seats: int) -> None:
    """Carta's playouts stop at the next goal (or penalty): nothing until then, then 1 for whoever scored it and 0
    for whoever conceded it (Age of Soccer's are played to the end: its bots.py says why)."""
    game = get_game(name)
    judge = game.search.judge
    assert judge is not None
    state = position(name, seats, 5, 3)
    verdict = judge(state)
    bots = [game.new_bot("normal", 5 + seat) for seat in range(seats)]
    while state.to_act():
        scored = verdict(state)
        if scored is not None:
            break
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    else:
        raise AssertionError("nobody scored in a whole game")
    teams = [state.team_of(seat) for seat in range(seats)]
    scorer = 0 if state.goals[0] + state.scored[0] > 0 else 1
    assert scored == [1.0 if team == scorer else 0.0 for team in teams]
    assert verdict(state) == scored, "the same position, the same verdict"
