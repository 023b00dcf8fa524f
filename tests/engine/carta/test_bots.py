"""Carta Fútbol Club's system players: legal, deterministic, reading only their own view, and the heuristic one plays
to win (it counts the plays to the shot, shoots with its best card, keeps Super Defensa for a Cañito, answers an
Off-side with its Siga-siga)."""

from __future__ import annotations

from engine.carta import CARTA
from engine.carta.bots import HeuristicBot, RandomBot
from engine.core import play_out
from tests.engine.carta.position import play, position


def choice(state, seat: int) -> str:
    return " ".join(w[2:] if w[:2] in ("B-", "G-") else w for w in HeuristicBot().choose(state, seat).to_wire().split())


def test_bots_always_choose_legal_moves_and_finish_matches() -> None:
    for seed in range(12):
        seats = (2, 4, 6)[seed % 3]
        state = CARTA.new_game(seats, {"extra_time": seed % 2 == 0, "penalties": True}, seed)
        bots = [HeuristicBot(seed) if s % 2 else RandomBot(seed + s) for s in range(seats)]
        assert play_out(state, bots) and state.outcome() is not None  # apply() refuses any illegal move


def test_same_seed_same_choices() -> None:
    def match(seed: int) -> list:
        return play_out(CARTA.new_game(4, None, 5), [RandomBot(seed + s) for s in range(4)])

    assert match(1) == match(1)
    assert match(1) != match(2)


def test_it_shoots_with_its_best_card_once_three_plays_are_made() -> None:
    state = position(hands={0: "SS-6 SS-9 JOKER-8 PI-10", 1: "PI-1"}, count=3)
    assert choice(state, 0) == "play SS-9"
    state = position(hands={0: "SS-6 SS-9 JOKER-8 PI-10", 1: "PI-1"}, count=2)
    assert choice(state, 0) == "play PI-10", "not yet: its strongest play, the Shots kept"


def test_it_plays_a_canito_for_the_third_play() -> None:
    state = position(hands={0: "CANITO PI-10", 1: "PI-1"}, count=2)
    assert choice(state, 0) == "play CANITO"


def test_it_keeps_super_defensa_for_a_canito_and_wins_the_ball_as_cheaply_as_it_can() -> None:
    state = position(hands={0: "CANITO PI-6", 1: "SUPER PI-7 PI-9"})
    play(state, 0, "play PI-6")
    assert choice(state, 1) == "play PI-7", "the cheapest Intercept that wins, not the Super Defensa"
    state = position(hands={0: "CANITO PI-6", 1: "SUPER PI-7 PI-9"})
    play(state, 0, "play CANITO")
    assert choice(state, 1) == "play SUPER"


def test_it_answers_an_off_side_with_its_siga_siga() -> None:
    state = position(4, hands={0: "PI-6", 1: "OFFSIDE PI-2", 2: "SIGA PI-4", 3: "PI-1"})
    play(state, 0, "play PI-6")
    play(state, 1, "play OFFSIDE")
    assert choice(state, 2) == "play SIGA"


def test_it_saves_only_when_the_save_can_stop_the_shot() -> None:
    state = position(hands={0: "SS-8", 1: "SS-5 SS-9 PI-2"}, count=3)
    play(state, 0, "play SS-8")
    assert choice(state, 1) == "play SS-9"
    state = position(hands={0: "SS-10", 1: "SS-5 PI-2"}, count=3)
    play(state, 0, "play SS-10")
    assert choice(state, 1) == "down PI-2", "a Save that cannot stop it would be lost for nothing"


def test_a_team_of_heuristic_bots_beats_a_team_of_random_bots() -> None:
    wins, games = 0, 40
    for index in range(games):
        seats, hero = (2, 4)[index % 2], (index // 2) % 2
        bots = [HeuristicBot(index) if s % 2 == hero else RandomBot(index * 8 + s) for s in range(seats)]
        state = CARTA.new_game(seats, None, 20_000 + index)
        play_out(state, bots)
        wins += hero in state.outcome().winning_teams
    # `kickoff bench bots --game carta-futbol-club --seats 2,4` measures 1,000 matches (docs/benchmarks.md).
    assert wins / games >= 0.65, f"won {wins} of {games}"
