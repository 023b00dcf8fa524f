"""The two wins, checked right after each play: an empty hand, or exactly four cards of one country."""

from __future__ import annotations

import pytest

from engine.core import GameOver, Outcome
from engine.soker.rules import GameEnded, SokerMove, TurnBegan
from tests.engine.soker.position import position


def test_playing_the_last_card_wins_with_three_bonus_points() -> None:
    state = position(["JUV-DEF", "ARS-MID", "RMA-GKP"], top="INT-FRW", played=[4, 2, 1])
    events = state.apply(0, SokerMove.play("JUV-DEF"))
    assert state.outcome() == Outcome((0,), "empty_hand", (4 + 1 + 3, 2, 1))
    assert events[-1] == GameEnded(state.outcome())
    assert not any(isinstance(e, TurnBegan) for e in events)


def test_four_cards_of_one_country_left_win_with_seven_bonus_points_positions_may_repeat() -> None:
    state = position(["JUV-GKP MIL-GKP INT-DEF JUV-MID BAY-FRW", "ARS-MID"], top="HSV-FRW", played=[0, 3])
    state.apply(0, SokerMove.play("BAY-FRW"))
    assert state.outcome() == Outcome((0,), "one_country", (1 + 7, 3))


def test_three_cards_of_one_country_and_a_joker_win() -> None:
    state = position(["LIV-GKP MUN-GKP ARS-DEF JOKER-2 BAY-FRW", "ARS-MID"], top="HSV-FRW")
    state.apply(0, SokerMove.play("BAY-FRW"))
    assert state.outcome() == Outcome((0,), "one_country", (8, 0))


def test_two_jokers_and_two_cards_of_one_country_do_not_win() -> None:
    state = position(["JUV-GKP MIL-GKP JOKER-1 JOKER-2 BAY-FRW", "ARS-MID"], top="HSV-FRW")
    state.apply(0, SokerMove.play("BAY-FRW"))
    assert state.outcome() is None
    assert state.to_act() == (1,)


@pytest.mark.parametrize("special", ["YELLOW-1", "RED-2"])
def test_a_yellow_or_red_among_the_four_never_counts(special: str) -> None:
    state = position([f"JUV-GKP MIL-GKP INT-DEF {special} BAY-FRW", "ARS-MID"], top="HSV-FRW")
    state.apply(0, SokerMove.play("BAY-FRW"))
    assert state.outcome() is None
    assert state.to_act() == (1,)


def test_five_cards_of_one_country_left_do_not_win() -> None:
    state = position(["JUV-GKP MIL-GKP INT-DEF JUV-MID MIL-FRW BAY-FRW", "ARS-MID"], top="HSV-FRW")
    state.apply(0, SokerMove.play("BAY-FRW"))
    assert state.outcome() is None


def test_four_cards_of_two_countries_do_not_win() -> None:
    state = position(["JUV-GKP MIL-GKP INT-DEF LIV-MID BAY-FRW", "ARS-MID"], top="HSV-FRW")
    state.apply(0, SokerMove.play("BAY-FRW"))
    assert state.outcome() is None


def test_reaching_four_cards_of_one_country_by_drawing_is_no_win() -> None:
    state = position(["JUV-GKP MIL-GKP INT-DEF", "ARS-MID"], top="HSV-FRW", deck="JUV-MID LIV-GKP")
    state.apply(0, SokerMove("draw"))
    assert state.outcome() is None
    assert state.to_act() == (0,)
    state.apply(0, SokerMove("end"))
    assert state.outcome() is None
    assert state.to_act() == (1,)


def test_only_the_player_who_plays_can_win_not_an_opponent_holding_a_country_set() -> None:
    state = position(["JUV-GKP JUV-DEF BVB-MID", "LIV-GKP MUN-GKP ARS-DEF ARS-MID"], top="INT-FRW")
    state.apply(0, SokerMove.play("JUV-GKP"))
    assert state.outcome() is None
    assert state.to_act() == (1,)


def test_a_package_can_empty_the_hand_and_win() -> None:
    state = position(["JUV-GKP JUV-DEF", "ARS-MID"], top="MIL-FRW")
    state.apply(0, SokerMove.play("JUV-GKP", "JUV-DEF"))
    assert state.outcome() == Outcome((0,), "empty_hand", (2 + 3, 0))


def test_a_package_can_leave_four_cards_of_one_country_and_win() -> None:
    state = position(["LIV-GKP LIV-DEF JUV-GKP MIL-GKP INT-DEF JUV-MID", "ARS-MID"], top="ARS-FRW")
    state.apply(0, SokerMove.play("LIV-DEF", "LIV-GKP"))
    assert state.outcome() == Outcome((0,), "one_country", (2 + 7, 0))


def test_a_winning_red_ends_the_game_before_any_penalty_draw() -> None:
    state = position(["RED-1", "ARS-MID", "RMA-GKP"], top="INT-FRW", deck="JUV-GKP MIL-GKP")
    events = state.apply(0, SokerMove.play("RED-1"))
    assert state.outcome() == Outcome((0,), "empty_hand", (1 + 3, 0, 0))
    assert [type(e).__name__ for e in events] == ["Played", "GameEnded"]
    assert state.view(None).hand_sizes == (0, 1, 1)


def test_a_won_game_is_over_for_everyone() -> None:
    state = position(["JUV-DEF", "ARS-MID JUV-GKP", "RMA-GKP"], top="INT-FRW", deck="LIV-DEF")
    state.apply(0, SokerMove.play("JUV-DEF"))
    assert state.to_act() == ()
    assert [state.legal_moves(seat) for seat in range(3)] == [[], [], []]
    for seat, move in [(1, SokerMove.play("JUV-GKP")), (1, SokerMove("draw")), (0, SokerMove("draw"))]:
        with pytest.raises(GameOver):
            state.apply(seat, move)
    with pytest.raises(GameOver):
        state.apply(1, state.timeout_move(1), by_table=True)
    assert state.view(None).hand_sizes == (0, 2, 1)
