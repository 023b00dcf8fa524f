"""Age of Soccer's system players: legal, deterministic, reading only their own view, and the heuristic one plays to
win (a board that can challenge, Super cards it can activate, the defence of a shield, interference)."""

from __future__ import annotations

from engine.age_of_soccer import AGE_OF_SOCCER
from engine.age_of_soccer.bots import HeuristicBot, RandomBot
from engine.age_of_soccer.rules import AosMove
from engine.core import play_out
from tests.engine.age_of_soccer.position import play, position


def choice(state, seat: int) -> str:
    return HeuristicBot().choose(state, seat).to_wire()


def test_bots_always_choose_legal_moves_and_finish_games() -> None:
    for seed in range(20):
        state = AGE_OF_SOCCER.new_game(2 + seed % 6, {"max_rounds": 4}, seed)
        bots = [HeuristicBot(seed) if s % 2 else RandomBot(seed + s) for s in range(state.seats)]
        assert play_out(state, bots) and state.outcome() is not None  # apply() refuses any illegal move


def test_same_seed_same_choices() -> None:
    def game(seed: int) -> list:
        return play_out(AGE_OF_SOCCER.new_game(4, {"max_rounds": 3}, 5), [RandomBot(seed + s) for s in range(4)])

    assert game(1) == game(1)
    assert game(1) != game(2)


def test_the_heuristic_bot_reads_only_its_own_view() -> None:
    state = position(hands={0: "SHOOT", 1: "SAVE OFFSIDE"}, phase="match")
    other = position(hands={0: "SHOOT", 1: "EAGLE BUS"}, phase="match")  # another hand for seat 1: same view for 0
    assert choice(state, 0) == choice(other, 0)


def test_it_fills_its_board_attacker_first() -> None:
    state = position(hands={0: "ROM-GK ROM-AT VIK-MF"})
    assert choice(state, 0) == "board ROM-AT"


def test_it_challenges_an_opponent_it_needs_a_shield_from_when_it_holds_a_shot() -> None:
    state = position(hands={0: "SHOOT"}, phase="match")
    state.won[0] = [0, 1, 0, 1]
    assert choice(state, 0) == "challenge 2"
    state = position(hands={0: "SAVE"}, phase="match")
    assert choice(state, 0) == "end", "no shot: no challenge"


def test_it_shoots_an_activated_super_shot_first_and_keeps_one_it_cannot_activate() -> None:
    state = position(hands={0: "SHOOT SUPERSHOT-SPA"}, phase="shot")
    state.match = {"attacker": 0, "defender": 1, "shots": 0, "counter": False}
    assert choice(state, 0) == "shoot SUPERSHOT-SPA", "seat 0 plays the Spartans: activated"
    state = position(hands={0: "SHOOT SUPERSHOT-MON"}, phase="shot")
    state.match = {"attacker": 0, "defender": 1, "shots": 0, "counter": False}
    assert choice(state, 0) == "shoot SHOOT"
    state = position(hands={0: "SHOOT SHOOT SAVE SAVE OFFSIDE EAGLE BUS SUPERSAVE-SPA"}, phase="discard")
    assert choice(state, 0) != "discard SUPERSAVE-SPA", "a Super card it can activate is kept"


def test_it_defends_a_shield_and_interferes_only_against_the_one_to_fear() -> None:
    state = position(hands={0: "SHOOT", 1: "SAVE", 2: "OFFSIDE"}, phase="match")
    play(state, 0, "challenge 1")
    play(state, 1, "pass")
    play(state, 0, "pass")
    play(state, 0, "shoot SHOOT")
    assert choice(state, 1) == "answer SAVE", "the defender saves"
    assert choice(state, 2) == "pass", "seat 0 has won nothing: not worth an Offside"
    state = position(hands={0: "SHOOT", 1: "BUS", 2: "OFFSIDE"}, phase="match")
    state.won[0] = [0, 0, 1, 1]  # a shield from seat 1 wins seat 0 the game
    play(state, 0, "challenge 1")
    assert choice(state, 1) == "bus", "Park the Bus keeps the winning shot away"
    play(state, 1, "pass")
    play(state, 0, "pass")
    play(state, 0, "shoot SHOOT")
    assert choice(state, 2) == "answer OFFSIDE", "from outside, against the winning shot"
    assert HeuristicBot().choose(state, 3) == AosMove("pass")


def test_the_heuristic_bot_beats_random_bots_well_above_chance() -> None:
    wins, games = 0, 60
    for seed in range(games):
        hero = seed % 4
        bots = [HeuristicBot(seed) if s == hero else RandomBot(seed * 4 + s) for s in range(4)]
        state = AGE_OF_SOCCER.new_game(4, None, 10_000 + seed)
        play_out(state, bots)
        wins += hero in state.outcome().winners
    # Chance is 25%; `kickoff bench bots --game age-of-soccer` measures 1,000 games (docs/benchmarks.md).
    assert wins / games >= 0.5, f"won {wins} of {games}"
