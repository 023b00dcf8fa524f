"""Refused requests: out of turn, wrong move types, and the wire form of moves."""

from __future__ import annotations

import pytest

from engine.core import MalformedMove, NotYourTurn
from engine.soker import SOKER
from engine.soker.rules import SokerMove
from tests.engine.soker.position import position


def test_moving_out_of_turn_is_refused_and_changes_nothing() -> None:
    state = position(["JUV-GKP", "MIL-GKP", "RMA-GKP"], top="INT-FRW", deck="LIV-DEF")
    before = state.to_json()
    for seat, move in [(1, SokerMove.play("MIL-GKP")), (2, SokerMove("draw")), (1, state.timeout_move(1))]:
        with pytest.raises(NotYourTurn) as refused:
            state.apply(seat, move)
        assert refused.value.code == "not_your_turn"
    assert state.to_json() == before


@pytest.mark.parametrize("move", ["draw", ("draw", ()), None, SokerMove("dance"), SokerMove("play", ())])
def test_a_move_that_is_not_a_soker_move_is_malformed(move) -> None:
    state = position(["JUV-GKP", "MIL-GKP"], top="INT-FRW", deck="LIV-DEF")
    before = state.to_json()
    with pytest.raises(MalformedMove):
        state.apply(0, move)
    assert state.to_json() == before


@pytest.mark.parametrize("cards", [None, 5, "JUV-GKP"])
def test_a_play_whose_cards_are_not_a_sequence_of_card_ids_is_malformed(cards) -> None:
    state = position(["JUV-GKP", "MIL-GKP"], top="INT-FRW", deck="LIV-DEF")
    before = state.to_json()
    with pytest.raises(MalformedMove):
        state.apply(0, SokerMove("play", cards))
    assert state.to_json() == before


@pytest.mark.parametrize(
    "move",
    [
        SokerMove.play("JUV-GKP"),
        SokerMove.play("JOKER-4"),
        SokerMove.play("JUV-MID", "JOKER-2", "JUV-GKP"),
        SokerMove.play("LIV-FRW", "LIV-GKP"),
        SokerMove("draw"),
        SokerMove("end"),
        SokerMove("timeout"),
    ],
)
def test_the_wire_form_reads_back(move: SokerMove) -> None:
    assert SokerMove.from_wire(move.to_wire()) == move
    assert SOKER.move_from_wire(move.to_wire()) == move


def test_the_wire_form_reads_as_a_person_would_write_it() -> None:
    assert SokerMove.play("JUV-DEF", "JUV-FRW", "JOKER-1").to_wire() == "play JUV-DEF JUV-FRW JOKER-1"
    assert SokerMove.from_wire("play JUV-FRW JUV-DEF") == SokerMove.play("JUV-FRW", "JUV-DEF")


@pytest.mark.parametrize("text", ["play", "play XYZ-ABC", "play JUV-GKP XYZ-ABC", "dance", "draw JUV-GKP", "end 1", ""])
def test_junk_on_the_wire_is_malformed(text: str) -> None:
    with pytest.raises(MalformedMove) as refused:
        SokerMove.from_wire(text)
    assert refused.value.code == "malformed_move"


def test_a_wire_move_that_is_not_text_is_malformed() -> None:
    with pytest.raises(MalformedMove):
        SokerMove.from_wire(42)  # type: ignore[arg-type]
