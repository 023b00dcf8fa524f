"""Legal moves: country or position, specials always, free play on a special top."""

from __future__ import annotations

import pytest

from engine.core import IllegalMove
from engine.soker.cards import BY_CODE
from engine.soker.rules import Played, SokerMove, TurnBegan
from tests.engine.soker.position import hand_of, position


@pytest.mark.parametrize("card", ["JUV-GKP", "MIL-DEF", "JUV-MID", "BAY-FRW", "LIV-FRW"])
def test_a_card_of_the_top_country_or_position_is_legal(card: str) -> None:
    state = position([f"{card} BVB-DEF", "ARS-MID", "RMA-GKP"], top="INT-FRW")
    events = state.apply(0, SokerMove.play(card))
    assert events[0] == Played(0, (BY_CODE[card],), False, BY_CODE[card])
    assert hand_of(state, 0) == {"BVB-DEF"}
    assert state.view(None).to_json()["top"] == card
    assert state.to_act() == (1,)


def test_a_german_defender_on_an_italian_forward_is_refused_and_nothing_changes() -> None:
    state = position(["BAY-DEF JUV-GKP", "ARS-MID"], top="INT-FRW", deck="LIV-GKP")
    before = state.to_json()
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, SokerMove.play("BAY-DEF"))
    assert refused.value.code == "no_match"
    assert hand_of(state, 0) == {"BAY-DEF", "JUV-GKP"}
    assert state.to_act() == (0,)
    assert state.version == before["version"]
    assert state.to_json() == before


def test_legal_moves_list_the_matching_cards_only() -> None:
    state = position(["JUV-GKP BAY-FRW BVB-DEF LIV-MID", "ARS-MID"], top="INT-FRW")
    assert set(state.legal_moves(0)) == {
        SokerMove("draw"),
        SokerMove.play("JUV-GKP"),
        SokerMove.play("BAY-FRW"),
    }
    assert state.legal_moves(1) == []


@pytest.mark.parametrize("special", ["YELLOW-1", "RED-2", "JOKER-3"])
def test_a_special_card_is_always_legal(special: str) -> None:
    state = position([f"{special} BVB-DEF LIV-MID", "ARS-MID", "RMA-GKP"], top="INT-FRW", deck="HSV-GKP HSV-DEF")
    assert SokerMove.play(special) in state.legal_moves(0)
    state.apply(0, SokerMove.play(special))
    assert hand_of(state, 0) == {"BVB-DEF", "LIV-MID"}
    assert state.view(None).to_json()["top"] == special


@pytest.mark.parametrize("top", ["YELLOW-1", "RED-1", "JOKER-2"])
def test_any_card_is_legal_on_a_special_top(top: str) -> None:
    state = position(["BVB-DEF LIV-MID RMA-GKP", "ARS-MID"], top=top)
    assert set(state.legal_moves(0)) >= {
        SokerMove.play("BVB-DEF"),
        SokerMove.play("LIV-MID"),
        SokerMove.play("RMA-GKP"),
    }
    events = state.apply(0, SokerMove.play("BVB-DEF"))
    assert events[-1] == TurnBegan(1)
    assert state.view(None).to_json()["top"] == "BVB-DEF"


def test_after_a_free_play_the_usual_matching_applies_again() -> None:
    state = position(["BVB-DEF LIV-MID", "RMA-GKP HSV-MID ARS-DEF"], top="JOKER-1")
    state.apply(0, SokerMove.play("BVB-DEF"))
    with pytest.raises(IllegalMove) as refused:
        state.apply(1, SokerMove.play("RMA-GKP"))
    assert refused.value.code == "no_match"
    assert set(state.legal_moves(1)) == {SokerMove("draw"), SokerMove.play("HSV-MID"), SokerMove.play("ARS-DEF")}
