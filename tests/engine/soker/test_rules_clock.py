"""The clock's default move: the table draws one card unless the player drew, then ends the turn."""

from __future__ import annotations

from engine.soker.cards import BY_CODE
from engine.soker.rules import Drew, SokerMove, TurnBegan, TurnEnded
from tests.engine.soker.position import hand_of, position, refusal

TIMEOUT = SokerMove("timeout")


def test_the_timeout_move_is_the_tables_timeout() -> None:
    state = position(["BVB-DEF", "ARS-MID", "RMA-GKP"], top="INT-FRW", current=1)
    assert state.timeout_move(1) == TIMEOUT
    assert state.timeout_move(1).to_wire() == "timeout"


def test_a_timeout_before_drawing_draws_exactly_one_card_and_ends_the_turn() -> None:
    state = position(["JUV-GKP BVB-DEF", "ARS-MID", "RMA-GKP"], top="INT-FRW", deck="LIV-DEF MUN-GKP")
    version = state.version
    events = state.apply(0, state.timeout_move(0), by_table=True)
    assert events == [Drew(0, 1, BY_CODE["LIV-DEF"], "table"), TurnEnded(0, True), TurnBegan(1)]
    assert hand_of(state, 0) == {"JUV-GKP", "BVB-DEF", "LIV-DEF"}
    assert state.view(None).deck_size == 1
    assert state.to_act() == (1,)
    assert state.version == version + 1


def test_a_timeout_after_drawing_only_ends_the_turn() -> None:
    state = position(["BVB-DEF", "ARS-MID", "RMA-GKP"], top="INT-FRW", deck="LIV-DEF MUN-GKP")
    state.apply(0, SokerMove("draw"))
    events = state.apply(0, state.timeout_move(0), by_table=True)
    assert events == [TurnEnded(0, True), TurnBegan(1)]
    assert hand_of(state, 0) == {"BVB-DEF", "LIV-DEF"}
    assert state.view(None).deck_size == 1


def test_a_timeout_with_nothing_to_draw_ends_the_turn_having_drawn_nothing() -> None:
    state = position(["BVB-DEF", "ARS-MID"], top="INT-FRW")
    events = state.apply(0, state.timeout_move(0), by_table=True)
    assert events == [Drew(0, 0, None, "table"), TurnEnded(0, True), TurnBegan(1)]
    assert hand_of(state, 0) == {"BVB-DEF"}


def test_the_timeout_is_not_a_legal_move_before_or_after_drawing() -> None:
    state = position(["BVB-DEF JUV-GKP", "ARS-MID"], top="INT-FRW", deck="LIV-DEF")
    assert TIMEOUT not in state.legal_moves(0)
    state.apply(0, SokerMove("draw"))
    assert TIMEOUT not in state.legal_moves(0)
    assert all(move.kind != "timeout" for move in state.legal_moves(0))


def test_a_player_cannot_send_the_tables_timeout() -> None:
    state = position(["BVB-DEF JUV-GKP", "ARS-MID"], top="INT-FRW", deck="LIV-DEF")
    assert refusal(state, 0, SokerMove.from_wire("timeout")) == "table_only"


def test_the_clock_restarts_with_each_new_turn_but_not_with_a_draw() -> None:
    state = position(["YELLOW-1 BVB-DEF JUV-GKP", "ARS-MID", "RMA-GKP"], top="INT-FRW", deck="LIV-DEF MUN-GKP")
    assert state.clock_seconds(0) == 30.0
    first = state.clock_key(0)
    state.apply(0, SokerMove("draw"))
    assert state.clock_key(0) == first  # drawing does not restart the 30 seconds
    state.apply(0, SokerMove.play("YELLOW-1"))
    after_yellow = state.clock_key(0)
    assert after_yellow != first and state.to_act() == (0,)  # a Yellow gives a new turn: a fresh clock
    state.apply(0, SokerMove.play("BVB-DEF"))
    assert state.clock_key(0) not in (first, after_yellow) and state.to_act() == (1,)
