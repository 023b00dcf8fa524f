"""Yellow and Red: every opponent skips and the player goes again on a free top; Red also makes each opponent draw."""

from __future__ import annotations

import pytest

from engine.soker.cards import BY_CODE, CODES
from engine.soker.rules import Drew, Reshuffled, Skipped, SokerMove, TurnBegan
from tests.engine.soker.position import hand_of, position


def test_yellow_makes_every_opponent_skip_and_the_player_goes_again() -> None:
    state = position(["YELLOW-1 BVB-DEF LIV-MID", "ARS-MID", "RMA-GKP", "HSV-DEF"], top="INT-FRW")
    events = state.apply(0, SokerMove.play("YELLOW-1"))
    assert events[1:] == [Skipped((1, 2, 3), "yellow"), TurnBegan(0)]
    assert state.to_act() == (0,)
    assert [state.legal_moves(s) for s in (1, 2, 3)] == [[], [], []]


def test_after_yellow_the_player_has_a_fresh_turn_and_may_draw_again() -> None:
    state = position(["YELLOW-2 BVB-DEF", "ARS-MID", "RMA-GKP"], top="INT-FRW", deck="HSV-GKP", drawn=True)
    assert SokerMove("draw") not in state.legal_moves(0)
    state.apply(0, SokerMove.play("YELLOW-2"))
    assert SokerMove("draw") in state.legal_moves(0)
    assert SokerMove("end") not in state.legal_moves(0)
    state.apply(0, SokerMove("draw"))
    assert hand_of(state, 0) == {"BVB-DEF", "HSV-GKP"}


def test_after_yellow_any_card_is_legal() -> None:
    state = position(["ARS-MID", "YELLOW-1 BVB-DEF LIV-MID", "RMA-GKP"], top="INT-FRW", current=1)
    state.apply(1, SokerMove.play("YELLOW-1"))
    assert set(state.legal_moves(1)) == {
        SokerMove("draw"),
        SokerMove.play("BVB-DEF"),
        SokerMove.play("LIV-MID"),
    }
    state.apply(1, SokerMove.play("BVB-DEF"))  # a German defender on what was an Italian forward
    assert state.to_act() == (2,)


def test_red_skips_every_opponent_and_each_draws_one_card_from_the_players_left() -> None:
    hands = ["ARS-MID", "RMA-GKP", "RED-1 BVB-DEF LIV-MID", "HSV-DEF"]
    state = position(hands, top="INT-FRW", current=2, deck="JUV-GKP MIL-DEF ATM-MID FCB-FRW")
    events = state.apply(2, SokerMove.play("RED-1"))
    assert events[1:] == [
        Skipped((3, 0, 1), "red"),
        Drew(3, 1, BY_CODE["JUV-GKP"], "red"),
        Drew(0, 1, BY_CODE["MIL-DEF"], "red"),
        Drew(1, 1, BY_CODE["ATM-MID"], "red"),
        TurnBegan(2),
    ]
    assert hand_of(state, 3) == {"HSV-DEF", "JUV-GKP"}
    assert hand_of(state, 0) == {"ARS-MID", "MIL-DEF"}
    assert hand_of(state, 1) == {"RMA-GKP", "ATM-MID"}
    assert hand_of(state, 2) == {"BVB-DEF", "LIV-MID"}
    assert state.view(None).deck_size == 1
    assert state.to_act() == (2,)


def test_after_red_the_player_goes_again_on_a_free_top() -> None:
    state = position(["RED-2 BVB-DEF", "ARS-MID"], top="INT-FRW", deck="JUV-GKP", drawn=True)
    state.apply(0, SokerMove.play("RED-2"))
    assert set(state.legal_moves(0)) == {SokerMove("draw"), SokerMove.play("BVB-DEF")}


def test_red_penalty_draws_reshuffle_the_discard_when_the_deck_runs_out() -> None:
    hands = ["RED-1 BVB-DEF", "ARS-MID", "RMA-GKP"]
    state = position(hands, top="INT-FRW", deck="JUV-GKP", discard="LIV-GKP")
    events = state.apply(0, SokerMove.play("RED-1"))
    assert events[1:] == [
        Skipped((1, 2), "red"),
        Drew(1, 1, BY_CODE["JUV-GKP"], "red"),
        Reshuffled(2),
        Drew(2, 1, events[4].card, "red"),
        TurnBegan(0),
    ]
    assert CODES[events[4].card] in {"LIV-GKP", "INT-FRW"}
    assert state.view(None).to_json()["top"] == "RED-1"
    assert len(state.hand(1)) == len(state.hand(2)) == 2


@pytest.mark.parametrize("special", ["YELLOW-3", "RED-1"])
def test_with_two_seats_a_yellow_or_red_still_returns_the_turn(special: str) -> None:
    state = position([f"{special} BVB-DEF", "ARS-MID"], top="INT-FRW", deck="JUV-GKP")
    events = state.apply(0, SokerMove.play(special))
    assert Skipped((1,), "red" if special.startswith("RED") else "yellow") in events
    assert state.to_act() == (0,)


def test_after_a_lone_joker_the_next_player_may_play_anything() -> None:
    state = position(["JOKER-2 BVB-DEF", "ATM-MID LIV-GKP"], top="INT-FRW")
    events = state.apply(0, SokerMove.play("JOKER-2"))
    assert events[1:] == [TurnBegan(1)]
    assert set(state.legal_moves(1)) == {SokerMove("draw"), SokerMove.play("ATM-MID"), SokerMove.play("LIV-GKP")}


def test_a_lone_joker_on_a_joker_standing_for_a_club_is_no_link_and_frees_the_top() -> None:
    state = position(["JOKER-2 BVB-DEF", "ATM-MID", "LIV-GKP"], top="JOKER-1", top_as_club="JUV")
    events = state.apply(0, SokerMove.play("JOKER-2"))
    assert events[0].link is False
    assert state.to_act() == (1,)
    assert SokerMove.play("ATM-MID") in state.legal_moves(1)


def test_red_penalty_draws_stop_taking_cards_when_nothing_is_left() -> None:
    state = position(["RED-1 BVB-DEF", "ARS-MID", "RMA-GKP"], top="INT-FRW")
    events = state.apply(0, SokerMove.play("RED-1"))
    assert events[1:] == [
        Skipped((1, 2), "red"),
        Reshuffled(1),  # only the old top lies under the Red
        Drew(1, 1, BY_CODE["INT-FRW"], "red"),
        Drew(2, 0, None, "red"),
        TurnBegan(0),
    ]
    assert state.view(None).hand_sizes == (1, 2, 1)
    assert state.view(None).to_json()["top"] == "RED-1"
