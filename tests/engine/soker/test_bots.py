"""System players: legal, deterministic, honest, and the heuristic one plays to win."""

from __future__ import annotations

from engine.core import play_out
from engine.soker import SOKER
from engine.soker.bots import HeuristicBot, RandomBot
from engine.soker.rules import SokerMove
from tests.engine.soker.position import position


def test_bots_always_choose_legal_moves_and_finish_games() -> None:
    for seed in range(40):
        state = SOKER.new_game(2 + seed % 3, None, seed)
        bots = [HeuristicBot(seed) if s % 2 else RandomBot(seed + s) for s in range(state.seats)]
        log = play_out(state, bots)  # apply() refuses any illegal move
        assert state.outcome() is not None and log


def test_same_seed_same_choices() -> None:
    def game(seed: int) -> list:
        return play_out(SOKER.new_game(4, None, 5), [RandomBot(seed + s) for s in range(4)])

    assert game(1) == game(1)
    assert game(1) != game(2)


def test_heuristic_bot_takes_a_winning_play() -> None:
    state = position(["JUV-GKP JUV-DEF INT-MID MIL-FRW BAY-DEF", "LIV-MID", "RMA-MID", "ARS-FRW"], top="BVB-GKP")
    assert HeuristicBot().choose(state, 0) == SokerMove.play("BAY-DEF")  # leaves four Italians: a country win


def test_heuristic_bot_prefers_a_package_and_keeps_its_joker() -> None:
    hand = "LIV-DEF LIV-FRW MUN-GKP JOKER-1 BAY-GKP RMA-MID FCB-GKP"
    state = position([hand, "INT-MID", "RMA-GKP", "ARS-FRW"], top="ARS-DEF")
    move = HeuristicBot().choose(state, 0)
    assert sorted(move.cards) == sorted(SokerMove.play("LIV-DEF", "LIV-FRW").cards)


def test_heuristic_bot_spends_red_when_an_opponent_is_close() -> None:
    hands = ["RED-1 BAY-FRW ATM-GKP LIV-DEF", "INT-MID", "RMA-MID LIV-GKP RMA-GKP RMA-DEF", "ARS-FRW BVB-DEF FCB-MID"]
    state = position(hands, top="BAY-MID")
    assert HeuristicBot().choose(state, 0) == SokerMove.play("RED-1")
    hands[1] = "INT-MID INT-DEF MIL-GKP JUV-FRW"
    hands[3] += " MUN-DEF"  # nobody close: keep the Red, play the German forward (a Link)
    state = position(hands, top="BAY-MID")
    assert HeuristicBot().choose(state, 0) == SokerMove.play("BAY-FRW")


def test_heuristic_bot_beats_random_bots_well_above_chance() -> None:
    wins = 0
    games = 200
    for seed in range(games):
        hero = seed % 4
        bots = [HeuristicBot(seed) if s == hero else RandomBot(seed * 4 + s) for s in range(4)]
        state = SOKER.new_game(4, None, 10_000 + seed)
        play_out(state, bots)
        wins += hero in state.outcome().winners
    # Chance is 25%; `kickoff bench bots` measures 1,000 games for the figure in docs/benchmarks.md.
    assert wins / games >= 0.5, f"won {wins} of {games}"
