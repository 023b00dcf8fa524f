"""Links: two or more consecutive cards of one club make the next player skip a turn."""

from __future__ import annotations

from engine.soker.rules import Skipped, SokerMove, TurnBegan
from tests.engine.soker.position import position

FOUR = ["JUV-GKP JUV-DEF LIV-MID", "ARS-MID", "RMA-GKP", "HSV-DEF"]


def test_a_package_makes_the_next_player_skip() -> None:
    state = position(FOUR, top="INT-FRW")
    events = state.apply(0, SokerMove.play("JUV-GKP", "JUV-DEF"))
    assert events[0].link is True
    assert events[1:] == [Skipped((1,), "link"), TurnBegan(2)]
    assert state.to_act() == (2,)
    assert state.legal_moves(1) == []


def test_one_club_card_on_a_top_of_the_same_club_is_a_link() -> None:
    state = position(FOUR, top="JUV-FRW")
    events = state.apply(0, SokerMove.play("JUV-GKP"))
    assert events[0].link is True
    assert Skipped((1,), "link") in events
    assert state.to_act() == (2,)


def test_a_link_from_the_last_seat_skips_the_first_seat() -> None:
    state = position(["ARS-MID", "RMA-GKP", "JUV-GKP LIV-MID"], top="JUV-FRW", current=2)
    events = state.apply(2, SokerMove.play("JUV-GKP"))
    assert events[1:] == [Skipped((0,), "link"), TurnBegan(1)]
    assert state.to_act() == (1,)


def test_a_lone_joker_is_not_a_link_even_on_its_club() -> None:
    state = position(["JOKER-1 LIV-MID", "ARS-MID", "RMA-GKP", "HSV-DEF"], top="JUV-FRW")
    events = state.apply(0, SokerMove.play("JOKER-1"))
    assert events[0].link is False
    assert not any(isinstance(e, Skipped) for e in events)
    assert state.to_act() == (1,)


def test_a_single_card_of_another_club_of_the_same_country_is_no_link() -> None:
    state = position(["MIL-GKP LIV-MID", "ARS-MID", "RMA-GKP", "HSV-DEF"], top="JUV-FRW")
    events = state.apply(0, SokerMove.play("MIL-GKP"))
    assert events[0].link is False
    assert events[1:] == [TurnBegan(1)]


def test_a_single_card_of_the_top_position_but_another_club_is_no_link() -> None:
    state = position(["LIV-FRW RMA-MID", "ARS-MID", "RMA-GKP"], top="JUV-FRW")
    events = state.apply(0, SokerMove.play("LIV-FRW"))
    assert events[0].link is False
    assert state.to_act() == (1,)


def test_with_two_seats_a_package_link_gives_the_player_the_next_turn() -> None:
    state = position(["JUV-GKP JUV-DEF LIV-MID", "ARS-MID"], top="INT-FRW", deck="BAY-GKP BAY-DEF", drawn=True)
    events = state.apply(0, SokerMove.play("JUV-GKP", "JUV-DEF"))
    assert events[1:] == [Skipped((1,), "link"), TurnBegan(0)]
    assert state.to_act() == (0,)
    assert SokerMove("draw") in state.legal_moves(0)  # a fresh turn: the player may draw again


def test_with_two_seats_a_single_card_link_gives_the_player_the_next_turn() -> None:
    state = position(["JUV-GKP LIV-MID", "ARS-MID"], top="JUV-FRW")
    state.apply(0, SokerMove.play("JUV-GKP"))
    assert state.to_act() == (0,)
