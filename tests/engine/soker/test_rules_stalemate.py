"""Stalemate: nothing left to draw and two full rounds without a play end the game without a winner."""

from __future__ import annotations

from engine.core import Outcome
from engine.soker.rules import SokerMove
from tests.engine.soker.position import position

DRAW, END = SokerMove("draw"), SokerMove("end")


def idle_turn(state) -> None:
    seat = state.to_act()[0]
    state.apply(seat, DRAW)
    state.apply(seat, END)


def stuck(seats: int):
    hands = ["BAY-DEF HSV-MID", "LIV-FRW", "RMA-DEF", "ATM-MID"][:seats]
    return position(hands, top="JUV-GKP", played=[3, 1, 0, 2][:seats])


def test_two_full_rounds_without_a_play_and_nothing_to_draw_end_in_a_stalemate() -> None:
    state = stuck(2)
    for _ in range(3):
        idle_turn(state)
    assert state.outcome() is None
    idle_turn(state)
    assert state.outcome() == Outcome((), "stalemate", (3, 1))
    assert state.to_act() == ()


def test_with_four_seats_the_stalemate_takes_eight_idle_turns() -> None:
    state = stuck(4)
    for _ in range(7):
        idle_turn(state)
    assert state.outcome() is None
    idle_turn(state)
    assert state.outcome() == Outcome((), "stalemate", (3, 1, 0, 2))


def test_the_tables_timeouts_count_as_idle_turns_too() -> None:
    state = stuck(2)
    for _ in range(4):
        seat = state.to_act()[0]
        state.apply(seat, state.timeout_move(seat), by_table=True)
    assert state.outcome() == Outcome((), "stalemate", (3, 1))


def test_a_play_in_between_resets_the_count() -> None:
    state = position(["BAY-DEF HSV-MID MIL-FRW", "LIV-DEF"], top="JUV-GKP")
    idle_turn(state)
    idle_turn(state)
    state.apply(0, DRAW)
    state.apply(0, SokerMove.play("MIL-FRW"))  # now two more idle turns would have made four without the reset
    idle_turn(state)  # the discard pile under the top is shuffled in and drawn: a turn that does not count
    for _ in range(3):
        idle_turn(state)
    assert state.outcome() is None
    idle_turn(state)
    assert state.outcome() == Outcome((), "stalemate", (1, 0))


def test_only_turns_that_begin_with_nothing_to_draw_count() -> None:
    state = position(["BAY-DEF", "LIV-DEF"], top="JUV-GKP", deck="HSV-MID ATM-MID RMA-FRW")
    idle_turn(state)
    idle_turn(state)
    idle_turn(state)  # takes the last card: it began with a card to draw, so it does not count
    assert state.view(None).deck_size == 0
    for _ in range(3):
        idle_turn(state)
    assert state.outcome() is None
    idle_turn(state)  # the fourth turn that began with nothing to draw: two full rounds
    assert state.outcome() == Outcome((), "stalemate", (0, 0))


def test_whoever_draws_the_last_card_gets_a_later_turn_to_play_it() -> None:
    """Seat 1's clock runs out and the table draws the last card for it: a playable one. That turn does not count,
    so the game cannot end before seat 1 has had its next turn, and seat 1 plays the card then."""
    state = position(["BAY-DEF", "LIV-DEF"], top="JUV-GKP", deck="JUV-MID", current=1)
    state.idle_turns = 2 * state.seats - 1  # (as if the seats had been idle for almost two rounds)
    state.apply(1, state.timeout_move(1), by_table=True)
    assert state.outcome() is None and state.view(None).deck_size == 0
    idle_turn(state)  # seat 0 has nothing to play
    assert state.outcome() is None and state.to_act() == (1,)
    assert SokerMove.play("JUV-MID") in state.legal_moves(1)
    state.apply(1, SokerMove.play("JUV-MID"))
    assert state.outcome() is None
