"""Age of Soccer's first two phases: picking up, trades, team management, the hand limit, and each training card."""

from __future__ import annotations

from itertools import permutations

import pytest

from engine.age_of_soccer import AGE_OF_SOCCER
from engine.age_of_soccer import cards as C
from engine.age_of_soccer.rules import AosMove
from engine.core import IllegalMove
from tests.engine.age_of_soccer.position import board, faces, kinds, play, players, position


def test_pick_up_is_one_player_card_or_two_action_cards() -> None:
    state = position(phase="pickup", player_deck="VIK-AT", action_deck="SHOOT SAVE EAGLE")
    play(state, 0, "pick player")
    assert players(state, 0) == ["VIK-AT"] and state.phase == "training"
    state = position(phase="pickup", player_deck="VIK-AT", action_deck="SHOOT SAVE EAGLE")
    play(state, 0, "pick actions")
    assert faces(state, 0) == ["SAVE", "SHOOT"] and players(state, 0) == []


def test_a_trade_is_three_action_cards_for_a_player_card_or_one_the_other_way_once_a_turn() -> None:
    state = position(hands={0: "SAMBA RED BUS ROM-GK"}, player_deck="VIK-AT", action_deck="SHOOT")
    play(state, 0, "trade BUS RED SAMBA")
    assert faces(state, 0) == [] and players(state, 0) == ["ROM-GK", "VIK-AT"]
    discarded = {C.ACTION_FACE[card] for card in state.action_discard}
    assert discarded == {"BUS", "RED", "SAMBA"} and state.view(None).to_json()["action_discard_size"] == 3
    assert not [m for m in state.legal_moves(0) if m.kind == "trade"], "one trade a turn"
    state = position(hands={0: "ROM-GK"}, action_deck="SHOOT")
    play(state, 0, "trade ROM-GK")
    assert faces(state, 0) == ["SHOOT"] and players(state, 0) == []


def test_a_three_card_trade_is_the_same_trade_whatever_order_its_cards_are_written_in() -> None:
    for three in (*permutations(("SAMBA", "RED", "BUS")), ("SHOOT", "SAVE", "SHOOT")):
        state = position(hands={0: " ".join(three)}, player_deck="VIK-AT")
        events = state.apply(0, AGE_OF_SOCCER.move_from_wire("trade " + " ".join(three)))
        assert kinds(events)[0] == "traded" and faces(state, 0) == [] and players(state, 0) == ["VIK-AT"]
        state = position(hands={0: " ".join(three)}, player_deck="VIK-AT")
        state.apply(0, AosMove("trade", three))  # a move built without its text form: the same
        assert faces(state, 0) == [] and players(state, 0) == ["VIK-AT"]


def test_the_blind_positions_of_a_bankruptcy_are_the_same_move_in_any_order() -> None:
    state = position(hands={0: "BANKRUPT", 1: "SHOOT SAVE EAGLE"})
    state.apply(0, AGE_OF_SOCCER.move_from_wire("play BANKRUPT 1 3 1"))
    assert len(state.actions[1]) == 1
    state = position(hands={0: "BANKRUPT", 1: "SHOOT SAVE EAGLE"})
    with pytest.raises(IllegalMove):
        state.apply(0, AGE_OF_SOCCER.move_from_wire("play BANKRUPT 1 2 2"))  # one card twice is no move


def test_a_trade_is_offered_only_when_a_card_can_be_drawn_for_it() -> None:
    state = position(hands={0: "SAMBA RED BUS ROM-GK"})  # both decks and discard piles empty
    assert not [m for m in state.legal_moves(0) if m.kind == "trade"]


def test_team_management_boards_and_benches_and_moves_attack_and_defence() -> None:
    state = position(hands={0: "ROM-AT VIK-AT ZUL-GK"})
    assert (state.attack(0), state.defence(0)) == (4, 4)
    play(state, 0, "board ROM-AT")
    play(state, 0, "board ZUL-GK")
    assert (state.attack(0), state.defence(0)) == (7, 7), "4 + AT 3/0 + GK 0/3"
    assert AosMove("board", ("VIK-AT",)) not in state.legal_moves(0), "one card per position"
    play(state, 0, "bench ROM-AT")
    play(state, 0, "board VIK-AT")
    assert board(state, 0) == ["ZUL-GK", "VIK-AT"] and players(state, 0) == ["ROM-AT"]


def test_passing_training_with_more_than_seven_action_cards_discards_down_to_seven_by_choice() -> None:
    state = position(hands={0: "SHOOT SHOOT SAVE SAVE OFFSIDE EAGLE BUS RED SAMBA ROM-AT"})
    play(state, 0, "pass")
    assert state.phase == "discard" and {m.kind for m in state.legal_moves(0)} == {"discard"}
    play(state, 0, "discard RED")
    assert state.phase == "discard"
    play(state, 0, "discard SAMBA")
    assert state.phase == "match" and len(state.actions[0]) == 7 and players(state, 0) == ["ROM-AT"]


def test_exactly_seven_action_cards_after_training_discard_nothing() -> None:
    state = position(hands={0: "SHOOT SHOOT SAVE SAVE OFFSIDE EAGLE BUS ROM-AT"})
    events = play(state, 0, "pass")
    assert kinds(events) == ["trained"] and state.phase == "match" and len(state.actions[0]) == 7


@pytest.mark.parametrize(("board_text", "drawn"), [("", 2), ("ROM-AT", 2), ("ROM-AT ROM-GK", 3)])
def test_millionaire_owner_draws_two_or_three_with_two_active_players_of_its_team(board_text, drawn) -> None:
    state = position(hands={0: "OWNER-ROM"}, boards={0: board_text}, action_deck="SHOOT SAVE EAGLE BUS")
    play(state, 0, "play OWNER-ROM")
    assert len(state.actions[0]) == drawn


@pytest.mark.parametrize(("board_text", "stolen"), [("VIK-AT", 1), ("VIK-AT VIK-DF", 2)])
def test_greedy_agent_steals_blind_one_or_two_with_the_bonus(board_text, stolen) -> None:
    state = position(hands={0: "AGENT-VIK", 1: "SHOOT SAVE EAGLE"}, boards={0: board_text})
    positions = "1 2" if stolen == 2 else "1"
    events = play(state, 0, f"play AGENT-VIK 1 {positions}")
    assert len(state.actions[0]) == stolen and len(state.actions[1]) == 3 - stolen
    assert events[-1].for_viewer(2).private == () and len(events[-1].for_viewer(1).private) == stolen


def test_a_blind_position_says_nothing_the_hand_is_shuffled_first() -> None:
    taken = set()
    for seed in range(12):
        state = position(hands={0: "AGENT-VIK", 1: "SHOOT SAVE EAGLE"}, seed=seed)
        play(state, 0, "play AGENT-VIK 1 1")
        taken.add(faces(state, 0)[0])
    assert taken == {"SHOOT", "SAVE", "EAGLE"}, "position 1 takes any of the cards, depending on the shuffle"


def test_samba_fever_gives_everyone_a_card_from_its_player_round_the_table() -> None:
    state = position(hands={1: "SAMBA"}, active=1, action_deck="SHOOT SAVE EAGLE BUS")
    play(state, 1, "play SAMBA")
    assert [faces(state, seat) for seat in range(4)] == [["BUS"], ["SHOOT"], ["SAVE"], ["EAGLE"]]


def test_bankruptcy_discards_two_blind_and_takes_what_there_is() -> None:
    state = position(hands={0: "BANKRUPT BANKRUPT", 1: "SHOOT SAVE EAGLE", 2: "OFFSIDE"})
    play(state, 0, "play BANKRUPT 1 1 2")
    assert len(state.actions[1]) == 1
    play(state, 0, "play BANKRUPT 2 1")  # one card is all there is
    assert state.actions[2] == []
    assert [m for m in state.legal_moves(0) if m.kind == "play"] == [], "no victim with an action card: no Bankruptcy"


@pytest.mark.parametrize("face", ["AGENT-VIK", "BANKRUPT"])
def test_greedy_agent_and_bankruptcy_never_take_aim_at_a_player_with_no_action_card(face: str) -> None:
    state = position(hands={0: face, 1: "SHOOT", 2: "ROM-AT"})  # seat 2 holds a player card only, seat 3 nothing
    victims = {m.args[1] for m in state.legal_moves(0) if m.kind == "play"}
    assert victims == {"1"}, "only a player holding an action card"
    for victim in ("2", "3"):
        with pytest.raises(IllegalMove, match="not one of the moves allowed"):
            state.apply(0, AosMove("play", (face, victim)))
    assert faces(state, 0) == [face], "the card is not spent"
    state = position(hands={0: face, 2: "ROM-AT"})
    assert [m for m in state.legal_moves(0) if m.kind == "play"] == [], "nobody holds an action card"


def test_red_cards_stack_and_each_costs_one_turn() -> None:
    state = position(hands={0: "RED RED"})
    play(state, 0, "play RED 1")
    play(state, 0, "play RED 1")
    play(state, 0, "pass")
    events = play(state, 0, "end")
    assert kinds(events)[-2:] == ["missed_turn", "turn_began"] and state.active == 2
    assert len(state.reds[1]) == 1
    for seat in (2, 3, 0):
        state.phase = "match"
        state.active = seat
        play(state, seat, "end")
    assert state.active == 2 and state.reds[1] == [], "the second Red Card costs seat 1 its next turn too"


def test_injury_free_transfer_and_insider_trading_move_an_opponents_active_player() -> None:
    state = position(hands={0: "INJURY FREE INSIDER"}, boards={1: "ROM-AT ROM-GK", 2: "MON-MF"})
    play(state, 0, "play INJURY 1 ROM-AT")
    assert board(state, 1) == ["ROM-GK"] and "ROM-AT" in state.view(None).to_json()["player_discard"]
    assert state.attack(1) == 4
    play(state, 0, "play FREE 1 ROM-GK")
    assert board(state, 1) == [] and players(state, 0) == ["ROM-GK"], "into the thief's hand"
    assert AosMove("play", ("INSIDER", "2", "MON-MF", "0")) not in state.legal_moves(0), "not to oneself"
    play(state, 0, "play INSIDER 2 MON-MF 2")  # back to its owner's hand: any player but oneself
    assert board(state, 2) == [] and players(state, 2) == ["MON-MF"]


def test_player_cards_in_a_hand_are_safe_from_injury_free_transfer_and_insider_trading() -> None:
    state = position(hands={0: "INJURY FREE INSIDER", 1: "ROM-AT"})
    assert [m for m in state.legal_moves(0) if m.kind == "play"] == []


def test_transfer_window_deals_one_per_player_face_up_drafted_from_its_player() -> None:
    state = position(hands={2: "WINDOW"}, active=2, player_deck="ROM-AT VIK-GK ZUL-MF MON-DF")
    events = play(state, 2, "play WINDOW")
    assert events[-1].cards == ("ROM-AT", "VIK-GK", "ZUL-MF", "MON-DF") and state.to_act() == (2,)
    for seat, code in ((2, "ZUL-MF"), (3, "ROM-AT"), (0, "MON-DF"), (1, "VIK-GK")):
        assert state.to_act() == (seat,)
        play(state, seat, f"draft {code}")
    assert state.phase == "training" and state.to_act() == (2,)
    assert [players(state, s) for s in range(4)] == [["MON-DF"], ["VIK-GK"], ["ZUL-MF"], ["ROM-AT"]]


def test_a_short_transfer_window_leaves_the_last_drafters_out_and_a_red_carded_player_still_drafts() -> None:
    state = position(hands={0: "WINDOW RED"}, player_deck="ROM-AT VIK-GK")
    play(state, 0, "play RED 1")
    play(state, 0, "play WINDOW")
    play(state, 0, "draft ROM-AT")
    assert state.to_act() == (1,), "missing turns does not miss drafts"
    play(state, 1, "draft VIK-GK")
    assert state.phase == "training" and players(state, 2) == [] and players(state, 3) == []
