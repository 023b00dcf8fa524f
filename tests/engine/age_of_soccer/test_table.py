"""Age of Soccer around the table: empty decks and their reshuffles, the clock's moves for each seat, the hand limit at
the end of a turn, teams and the first seat, the turn order and the turn limit."""

from __future__ import annotations

import pytest

from engine.age_of_soccer import AGE_OF_SOCCER
from engine.age_of_soccer.bots import HeuristicBot, RandomBot
from engine.age_of_soccer.rules import TIMEOUT, AosMove
from engine.core import ChoiceTaken, IllegalMove, InvalidOptions
from tests.engine.age_of_soccer.position import faces, kinds, play, players, position


def timeout(state, seat: int) -> list:
    return state.apply(seat, TIMEOUT, by_table=True)


def test_an_empty_action_deck_is_replaced_by_its_shuffled_discard_pile() -> None:
    state = position(phase="pickup", action_deck="SHOOT", action_discard="SAVE EAGLE BUS")
    events = play(state, 0, "pick actions")
    assert kinds(events) == ["reshuffled", "drew"] and len(faces(state, 0)) == 2
    assert "SHOOT" in faces(state, 0), "the deck's last card first, then one from the reshuffled pile"
    assert len(state.action_deck) == 2 and state.action_discard == []


def test_an_empty_player_deck_is_replaced_by_its_shuffled_discard_pile() -> None:
    state = position(phase="pickup", player_discard="VIK-AT")
    events = play(state, 0, "pick player")
    assert kinds(events) == ["reshuffled", "drew"] and players(state, 0) == ["VIK-AT"]
    assert state.player_discard == [] and state.player_deck == []


def test_with_both_piles_empty_a_pick_up_takes_what_there_is() -> None:
    state = position(phase="pickup", action_deck="SHOOT")
    events = play(state, 0, "pick actions")
    assert faces(state, 0) == ["SHOOT"] and events[-1].count == 1


def test_a_pick_up_is_offered_only_where_it_draws_a_card() -> None:
    state = position(phase="pickup", action_discard="SHOOT")  # no player card anywhere
    assert state.legal_moves(0) == [AosMove("pick", ("ACTIONS",))]
    state = position(phase="pickup", player_discard="VIK-AT")  # no action card anywhere
    assert state.legal_moves(0) == [AosMove("pick", ("PLAYER",))]


def test_with_nothing_left_to_draw_the_pick_up_draws_nothing_and_training_begins() -> None:
    state = position(hands={0: "SHOOT", 1: "SAVE"}, phase="match")  # every deck and discard pile empty
    events = play(state, 0, "end")
    assert kinds(events)[-2:] == ["turn_began", "drew"] and events[-1].count == 0
    assert state.active == 1 and state.phase == "training" and state.to_act() == (1,)
    assert "pick" not in {m.kind for m in state.legal_moves(1)} and AosMove("pass") in state.legal_moves(1)
    for bot in (HeuristicBot(1), RandomBot(1)):
        assert bot.choose(state, 1) in state.legal_moves(1)
    events = timeout(state, 1)  # the clock: nothing to pick up, the turn ends
    assert kinds(events) == ["timed_out", "turn_began", "drew"] and state.active == 2 and state.phase == "training"


def test_a_reshuffle_is_seeded_the_same_seed_gives_the_same_deck() -> None:
    orders = set()
    for _ in range(2):
        state = position(phase="pickup", action_discard="SHOOT SAVE EAGLE BUS OFFSIDE COUNTER", seed=3)
        play(state, 0, "pick actions")
        orders.add(tuple(state.action_deck))
    assert len(orders) == 1


def test_the_clock_of_the_player_whose_turn_it_is_picks_up_two_discards_the_last_picked_and_ends_the_turn() -> None:
    state = position(phase="pickup", hands={0: "SHOOT SAVE EAGLE BUS OFFSIDE COUNTER"}, action_deck="SAMBA RED", seed=1)
    events = timeout(state, 0)
    assert kinds(events) == ["timed_out", "drew", "discarded", "turn_began"]
    assert events[2].cards == ("RED",) and "SAMBA" in faces(state, 0) and len(state.actions[0]) == 7
    assert state.active == 1 and state.phase == "pickup"


def test_the_clock_in_training_keeps_the_hand_when_it_is_within_the_limit() -> None:
    state = position(hands={0: "SHOOT SAVE ROM-AT"}, action_deck="EAGLE")
    events = timeout(state, 0)
    assert kinds(events) == ["timed_out", "turn_began"] and faces(state, 0) == ["SAVE", "SHOOT"]


def test_the_clock_during_a_match_ends_it_drawn() -> None:
    state = position(hands={0: "SHOOT SHOOT", 1: "SAVE"}, phase="match")
    play(state, 0, "challenge 1")
    play(state, 1, "pass")
    play(state, 0, "pass")
    play(state, 0, "shoot SHOOT")
    play(state, 1, "answer SAVE")  # stopped: the attacker may shoot again or stop
    events = timeout(state, 0)
    assert kinds(events) == ["timed_out", "draw", "turn_began"] and state.won[0][1] == 0


def test_the_clock_of_a_responder_is_a_pass_and_leaves_the_other_responders_asked() -> None:
    state = position(hands={0: "SHOOT"}, phase="match")
    play(state, 0, "challenge 1")
    play(state, 1, "pass")
    play(state, 0, "pass")
    play(state, 0, "shoot SHOOT")
    events = timeout(state, 2)
    assert kinds(events) == ["passed"] and state.to_act() == (1, 3)


def test_the_clock_of_the_challenged_player_is_a_pass_in_the_exchange() -> None:
    state = position(hands={0: "SHOOT", 1: "BUS"}, phase="match")
    play(state, 0, "challenge 1")
    events = timeout(state, 1)
    assert kinds(events) == ["passed"] and state.to_act() == (0,) and "BUS" in faces(state, 1)


def test_the_clock_of_a_drafter_takes_the_first_card_face_up() -> None:
    state = position(2, hands={0: "WINDOW"}, player_deck="VIK-AT ROM-GK")
    play(state, 0, "play WINDOW")
    first = state.draft["cards"][0]
    timeout(state, 0)
    assert first in state.players[0] and state.to_act() == (1,)


def test_the_clock_of_a_counter_attacker_who_does_not_shoot_is_a_draw() -> None:
    state = position(hands={0: "SHOOT", 2: "COUNTER SHOOT"}, phase="match")
    play(state, 0, "challenge 1")
    play(state, 1, "pass")
    play(state, 0, "pass")
    play(state, 0, "shoot SHOOT")
    play(state, 1, "pass")
    play(state, 2, "answer COUNTER")
    events = timeout(state, 2)
    assert "draw" in kinds(events) and state.active == 1 and "SHOOT" in faces(state, 2)


def test_only_the_table_plays_timeout() -> None:
    state = position(phase="pickup")
    with pytest.raises(IllegalMove, match="only the table"):
        state.apply(0, TIMEOUT)


def test_teams_are_chosen_by_option_or_follow_seat_order() -> None:
    assert AGE_OF_SOCCER.new_game(3, None, 1).view(None).to_json()["seats"][2]["team"] == "PAR"
    state = AGE_OF_SOCCER.new_game(3, {"teams": "mon,VIK,ROM"}, 1)
    assert [seat["team"] for seat in state.view(None).to_json()["seats"]] == ["MON", "VIK", "ROM"]
    for wrong in ("VIK,ROM", "VIK,VIK,ROM", "VIK,ROM,XXX"):
        with pytest.raises(InvalidOptions, match="must name 3 different teams"):
            AGE_OF_SOCCER.new_game(3, {"teams": wrong}, 1)


def test_the_first_seat_option_and_turns_in_seat_order() -> None:
    state = AGE_OF_SOCCER.new_game(3, {"first_seat": 2}, 1)
    assert state.to_act() == (2,)
    play(state, 2, "pick actions")
    play(state, 2, "pass")
    while state.phase == "discard":
        play(state, 2, state.legal_moves(2)[0].to_wire())
    play(state, 2, "end")
    assert state.to_act() == (0,), "after the last seat, the first"
    with pytest.raises(InvalidOptions, match="first_seat"):
        AGE_OF_SOCCER.new_game(3, {"first_seat": 3}, 1)


def test_everyone_is_dealt_five_action_cards_and_no_player_card() -> None:
    state = AGE_OF_SOCCER.new_game(7, None, 5)
    assert all(len(hand) == 5 for hand in state.actions) and all(hand == [] for hand in state.players)
    assert len(state.action_deck) == 88 - 35 and len(state.player_deck) == 28
    assert all(shields == 7 for shields in state.shields)
    assert all((state.attack(seat), state.defence(seat)) == (4, 4) for seat in range(7))


def test_a_red_carded_player_is_skipped_and_the_next_one_plays() -> None:
    state = position(3, hands={0: "RED"})
    play(state, 0, "play RED 1")
    play(state, 0, "pass")
    events = play(state, 0, "end")
    assert kinds(events)[-2:] == ["missed_turn", "turn_began"] and state.active == 2


def test_a_turn_limit_counts_the_opening_turn_and_the_game_ends_after_the_last_full_round() -> None:
    state = AGE_OF_SOCCER.new_game(2, {"max_rounds": 2}, 1)
    turns = 0
    while state.outcome() is None:
        seat = state.to_act()[0]
        if state.phase == "pickup":
            turns += 1
        state.apply(seat, TIMEOUT, by_table=True)
    assert turns == 4 and state.outcome().reason == "rounds"


def test_a_move_from_text_is_read_case_blind_and_bad_text_is_refused() -> None:
    assert AGE_OF_SOCCER.move_from_wire("play agent-vik 2 1") == AosMove("play", ("AGENT-VIK", "2", "1"))
    with pytest.raises(Exception, match="unknown move"):
        AGE_OF_SOCCER.move_from_wire("dance")


def test_teams_chosen_on_taking_seats_fill_the_rest_in_seat_order() -> None:
    options = AGE_OF_SOCCER.with_choices(4, None, {1: "mon", 3: "SPA"})
    assert options["teams"] == "VIK,MON,PAR,SPA", "seats 0 and 2 get the first teams left"
    assert AGE_OF_SOCCER.with_choices(4, None, {})["teams"] == "SPA,VIK,PAR,ROM"
    with pytest.raises(ChoiceTaken, match="seat 1 plays MON"):
        AGE_OF_SOCCER.with_choices(4, None, {1: "MON", 2: "MON"})
    with pytest.raises(InvalidOptions, match="no such team"):
        AGE_OF_SOCCER.with_choices(4, None, {0: "XYZ"})
    fixed = {"teams": "ROM,VIK"}
    assert AGE_OF_SOCCER.with_choices(2, fixed, {0: "ROM"}) == fixed
    with pytest.raises(InvalidOptions, match="the room's creator set the teams: seat 1 plays VIK"):
        AGE_OF_SOCCER.with_choices(2, fixed, {1: "ZUL"})
