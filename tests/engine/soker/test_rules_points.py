"""Points per game: one per card discarded (specials included, each card of a package), plus the win bonus."""

from __future__ import annotations

from engine.core import Outcome
from engine.soker.rules import SokerMove
from tests.engine.soker.position import position


def test_every_card_played_scores_one_point_specials_and_each_package_card_included() -> None:
    hands = ["YELLOW-1 JOKER-1 JUV-GKP JUV-DEF JUV-MID LIV-MID BAY-FRW", "ARS-MID", "RMA-GKP"]
    state = position(hands, top="INT-FRW")
    state.apply(0, SokerMove.play("YELLOW-1"))
    assert state.points() == (1, 0, 0)
    state.apply(0, SokerMove.play("JUV-GKP", "JUV-DEF", "JOKER-1"))
    assert state.points() == (4, 0, 0)
    assert state.view(1).points == (4, 0, 0)


def test_drawing_scores_nothing() -> None:
    state = position(["BVB-DEF", "ARS-MID"], top="INT-FRW", deck="LIV-DEF", played=[2, 5])
    state.apply(0, SokerMove("draw"))
    state.apply(0, SokerMove("end"))
    assert state.points() == (2, 5)


def test_reds_penalty_draws_score_nothing_for_anyone_but_the_red_scores_one() -> None:
    state = position(["RED-1 BVB-DEF", "ARS-MID", "RMA-GKP"], top="INT-FRW", deck="JUV-GKP MIL-GKP")
    state.apply(0, SokerMove.play("RED-1"))
    assert state.points() == (1, 0, 0)


def test_the_final_points_add_the_bonus_to_the_winner_only() -> None:
    state = position(["JUV-GKP JUV-DEF", "ARS-MID", "RMA-GKP"], top="INT-FRW", played=[5, 6, 2])
    state.apply(0, SokerMove.play("JUV-DEF", "JUV-GKP"))
    assert state.outcome() == Outcome((0,), "empty_hand", (5 + 2 + 3, 6, 2))
    assert state.points() == (10, 6, 2)
    assert state.view(2).points == (10, 6, 2)


def test_a_country_win_keeps_four_cards_in_hand_and_scores_seven_on_top_of_the_cards_played() -> None:
    state = position(["RMA-GKP FCB-GKP ATM-DEF RMA-MID BAY-FRW", "ARS-MID"], top="HSV-FRW", played=[3, 0])
    state.apply(0, SokerMove.play("BAY-FRW"))
    assert state.outcome() == Outcome((0,), "one_country", (3 + 1 + 7, 0))
    assert len(state.hand(0)) == 4
