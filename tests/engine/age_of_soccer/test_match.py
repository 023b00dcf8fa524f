"""Age of Soccer's third phase: challenges with their boosts, shots, the answers to them from the defender and from
outside, Counter Attacks, shields and victory."""

from __future__ import annotations

import pytest

from engine.age_of_soccer.rules import AosMove
from engine.core import IllegalMove
from tests.engine.age_of_soccer.position import kinds, play, position


def challenge_moves(state, seat: int = 0) -> set[str]:
    return {m.to_wire() for m in state.legal_moves(seat) if m.kind == "challenge"}


def standing_match(state, target: int = 1) -> None:
    """Seat 0 challenges ``target`` and both pass: the match begins."""
    play(state, 0, f"challenge {target}")
    play(state, target, "pass")
    play(state, 0, "pass")
    assert state.phase == "shot" and state.match["defender"] == target


def test_a_challenge_needs_attack_at_least_the_defence_eagle_eye_or_cup_run_make_it_possible() -> None:
    state = position(hands={0: "SHOOT EAGLE CUPRUN"}, boards={1: "ROM-GK"}, phase="match")  # 4 against 7
    assert "challenge 1" not in challenge_moves(state)
    assert {"challenge 1 EAGLE", "challenge 1 CUPRUN", "challenge 2", "challenge 3"} <= challenge_moves(state)
    play(state, 0, "challenge 1 EAGLE")  # 8 against 7
    play(state, 1, "pass")
    play(state, 0, "pass")
    assert state.phase == "shot"


def test_park_the_bus_makes_a_challenge_fall_and_another_may_be_challenged() -> None:
    state = position(hands={0: "SHOOT", 1: "BUS"}, boards={0: "ROM-AT"}, phase="match")  # 7 against 4
    play(state, 0, "challenge 1")
    assert state.to_act() == (1,), "the challenged answers first"
    play(state, 1, "bus")  # 7 against 8
    play(state, 0, "pass")
    events = play(state, 1, "pass")
    assert kinds(events)[-1] == "challenge_falls" and state.phase == "match"
    assert "challenge 1" not in challenge_moves(state) and "challenge 2" in challenge_moves(state)


def test_boosts_alternate_until_both_pass() -> None:
    state = position(hands={0: "SHOOT EAGLE", 1: "BUS"}, phase="match")
    play(state, 0, "challenge 1")
    play(state, 1, "bus")  # 4 against 8
    play(state, 0, "eagle")  # 8 against 8
    play(state, 1, "pass")
    events = play(state, 0, "pass")
    assert kinds(events)[:2] == ["passed", "challenge_stands"]


def test_the_attacker_must_shoot_if_able_and_a_match_without_a_shot_is_a_draw() -> None:
    state = position(hands={0: "SHOOT SAVE"}, phase="match")
    standing_match(state)
    assert [m.kind for m in state.legal_moves(0)] == ["shoot"], "no stopping before the first shot"
    state = position(hands={0: "SAVE"}, phase="match", action_deck="SHOOT")
    play(state, 0, "challenge 1")
    play(state, 1, "pass")
    events = play(state, 0, "pass")
    assert "draw" in kinds(events) and state.phase == "pickup" and state.active == 1


def test_a_shot_everyone_passes_scores_a_shield_of_the_defenders_own_team() -> None:
    state = position(hands={0: "SHOOT"}, phase="match", teams="SPA,VIK,ROM,ZUL")
    standing_match(state)
    play(state, 0, "shoot SHOOT")
    assert state.to_act() == (1, 2, 3), "the defender and everyone outside answer at once"
    for seat in (3, 1, 2):
        events = play(state, seat, "pass")
    assert kinds(events)[1:3] == ["scored", "shield"] and events[2].cards == ("VIK",)
    assert state.won[0][1] == 1 and state.shields[1] == 6
    view = state.view(None).to_json()
    assert "window" not in view and "shot" not in view, "the goal ends the shot: no answer window stays on the table"


def test_save_stops_a_shoot_and_the_attacker_may_shoot_again_or_stop() -> None:
    state = position(hands={0: "SHOOT SHOOT", 1: "SAVE"}, phase="match")
    standing_match(state)
    play(state, 0, "shoot SHOOT")
    play(state, 2, "pass")
    events = play(state, 1, "answer SAVE")
    assert kinds(events)[-1] == "stopped" and state.phase == "shot"
    assert AosMove("stop") in state.legal_moves(0)
    play(state, 0, "stop")
    assert state.phase == "pickup" and state.won[0][1] == 0


def test_save_fails_against_an_activated_super_shot_but_stops_one_not_activated() -> None:
    activated = position(hands={0: "SUPERSHOT-VIK", 1: "SAVE"}, boards={0: "VIK-GK"}, phase="match")
    standing_match(activated)
    play(activated, 0, "shoot SUPERSHOT-VIK")
    assert AosMove("answer", ("SAVE",)) not in activated.legal_moves(1)
    plain = position(hands={0: "SUPERSHOT-VIK", 1: "SAVE"}, phase="match")  # seat 0: the Spartans, no Viking
    standing_match(plain)
    play(plain, 0, "shoot SUPERSHOT-VIK")
    assert AosMove("answer", ("SAVE",)) in plain.legal_moves(1), "not activated: a plain Shoot"


def test_super_save_activated_by_an_active_player_of_another_team() -> None:
    state = position(
        hands={0: "SUPERSHOT-SPA", 1: "SUPERSAVE-ZUL"},
        boards={0: "ROM-AT", 1: "ZUL-GK"},  # 7 against 7
        phase="match",
        teams="SPA,VIK,ROM,MON",
    )
    standing_match(state)
    play(state, 0, "shoot SUPERSHOT-SPA")  # the Spartans' own: activated
    assert AosMove("answer", ("SUPERSAVE-ZUL",)) in state.legal_moves(1), "a Zulu on the Vikings' board"
    events = play(state, 1, "answer SUPERSAVE-ZUL")
    assert kinds(events)[:3] == ["answered", "stopped", "draw"], "stopped; no Shoot left: a draw"


def test_offside_from_outside_the_match_cancels_even_a_super_shot() -> None:
    state = position(hands={0: "SUPERSHOT-SPA", 2: "OFFSIDE"}, phase="match")
    standing_match(state)
    play(state, 0, "shoot SUPERSHOT-SPA")
    play(state, 1, "pass")
    events = play(state, 2, "answer OFFSIDE")
    assert kinds(events)[:3] == ["answered", "stopped", "draw"] and events[1].seat == 2, "no Shoot left: a draw"


def test_answers_count_in_order_the_defenders_first_whoever_answered_first() -> None:
    state = position(hands={0: "SHOOT SHOOT", 1: "SAVE", 2: "OFFSIDE"}, phase="match")
    standing_match(state)
    play(state, 0, "shoot SHOOT")
    events = play(state, 2, "answer OFFSIDE")  # seat 2 answers first, but the defender comes first in order
    assert kinds(events) == ["answered"] and state.to_act() == (1, 3)
    events = play(state, 1, "answer SAVE")
    assert kinds(events)[-1] == "stopped" and events[-1].seat == 1
    assert "OFFSIDE" in state.faces(2), "the later answer goes back to its hand, unseen"


def test_counter_attack_from_outside_makes_its_player_the_attacker_who_then_shoots() -> None:
    state = position(hands={0: "SHOOT", 2: "COUNTER SHOOT"}, phase="match", teams="SPA,VIK,ROM,ZUL")
    standing_match(state)
    play(state, 0, "shoot SHOOT")
    play(state, 1, "pass")
    events = play(state, 2, "answer COUNTER")
    assert kinds(events)[-1] == "countered" and state.match == {
        "attacker": 2,
        "defender": 0,
        "shots": 1,
        "counter": True,
    }
    play(state, 2, "shoot SHOOT")
    assert state.to_act() == (0, 3, 1), "the former attacker defends first, then the others from seat 2's left"
    for seat in (0, 3, 1):
        events = play(state, seat, "pass")
    shield = next(event for event in events if event.kind == "shield")
    assert state.won[2][0] == 1 and shield.cards == ("SPA",) and shield.target == 0


def test_counter_attack_followed_by_no_shot_is_a_draw() -> None:
    state = position(hands={0: "SHOOT", 1: "COUNTER SAVE"}, phase="match")
    standing_match(state)
    play(state, 0, "shoot SHOOT")
    events = play(state, 1, "answer COUNTER")
    assert "draw" in kinds(events) and state.phase == "pickup", "seat 1 has no Shoot: the match is a draw"


@pytest.mark.parametrize("shot", ["SHOOT", "SUPERSHOT-MON"])
def test_after_a_counter_attack_the_new_attacker_must_shoot_if_able_a_super_shot_included(shot: str) -> None:
    state = position(hands={0: "SHOOT SAVE", 1: f"COUNTER {shot}", 2: "SHOOT"}, phase="match")
    standing_match(state)
    play(state, 0, "shoot SHOOT")
    play(state, 1, "answer COUNTER")
    assert state.legal_moves(1) == [AosMove("shoot", (shot,))], "no stopping while it holds a shot"
    with pytest.raises(IllegalMove, match="not one of the moves allowed"):
        state.apply(1, AosMove("stop"))
    state.actions[1].append(state.actions[2].pop())  # one more Shoot, for after the first is stopped
    play(state, 1, f"shoot {shot}")  # (SUPERSHOT-MON: not the Vikings' own, a plain shot)
    play(state, 0, "answer SAVE")
    assert AosMove("stop") in state.legal_moves(1), "a shot stopped: now it may stop, like any attacker"
    events = play(state, 1, "stop")
    assert "draw" in kinds(events)


def test_counter_attack_does_not_answer_an_activated_super_shot() -> None:
    state = position(hands={0: "SUPERSHOT-SPA", 1: "COUNTER", 2: "COUNTER"}, phase="match")
    standing_match(state)
    play(state, 0, "shoot SUPERSHOT-SPA")
    assert AosMove("answer", ("COUNTER",)) not in state.legal_moves(1)
    assert AosMove("answer", ("COUNTER",)) not in state.legal_moves(2)


def test_a_win_takes_effect_the_moment_the_last_needed_shield_is_taken() -> None:
    state = position(2, hands={0: "SHOOT"}, phase="match")
    standing_match(state)
    play(state, 0, "shoot SHOOT")
    events = play(state, 1, "pass")
    assert kinds(events)[-1] == "game_ended" and state.outcome().winners == (0,) and state.to_act() == ()


def test_a_three_player_game_needs_two_shields_from_each_opponent() -> None:
    state = position(3, hands={0: "SHOOT"}, phase="match")
    state.won[0] = [0, 2, 1]
    standing_match(state, target=2)
    play(state, 0, "shoot SHOOT")
    play(state, 1, "pass")
    events = play(state, 2, "pass")
    assert state.won[0] == [0, 2, 2] and kinds(events)[-1] == "game_ended"
    state = position(3, hands={0: "SHOOT"}, phase="match")
    state.won[0] = [0, 1, 1]
    standing_match(state, target=2)
    play(state, 0, "shoot SHOOT")
    play(state, 1, "pass")
    play(state, 2, "pass")
    assert state.outcome() is None, "one shield from seat 1 is not enough with three players"


def test_a_team_with_no_shield_left_gives_none() -> None:
    state = position(hands={0: "SHOOT"}, phase="match")
    state.shields[1] = 0
    standing_match(state)
    play(state, 0, "shoot SHOOT")
    for seat in (1, 2, 3):
        events = play(state, seat, "pass")
    assert "shield" not in kinds(events) and state.won[0][1] == 0


def test_the_turn_limit_ends_the_game_and_the_most_shields_win_ties_shared() -> None:
    state = position(2, phase="match", options={"max_rounds": 1})
    state.won = [[0, 0], [0, 0]]
    play(state, 0, "end")
    state.phase = "match"
    events = play(state, 1, "end")
    assert (
        kinds(events)[-1] == "game_ended" and state.outcome().winners == (0, 1) and state.outcome().reason == "rounds"
    )


def test_when_nobody_can_win_any_more_the_game_ends_and_the_most_shields_win() -> None:
    state = position(3, hands={0: "SHOOT"}, phase="match")
    state.shields = [7, 0, 1]  # the Vikings (seat 1) have no shield left: seat 2 can no longer win
    state.won = [[0, 2, 0], [3, 0, 1], [1, 1, 0]]
    standing_match(state, target=2)
    play(state, 0, "shoot SHOOT")
    play(state, 1, "pass")
    events = play(state, 2, "pass")  # seat 2's last shield: now seats 0 and 1 cannot get their second from it
    assert kinds(events)[-1] == "game_ended" and state.outcome().reason == "blocked"
    assert state.outcome().winners == (1,), "four shields, against three and two"


def test_an_unactivated_super_save_is_a_plain_save() -> None:
    state = position(hands={0: "SUPERSHOT-SPA", 1: "SUPERSAVE-MON"}, phase="match")
    standing_match(state)
    play(state, 0, "shoot SUPERSHOT-SPA")  # activated (seat 0 plays the Spartans)
    assert AosMove("answer", ("SUPERSAVE-MON",)) not in state.legal_moves(1), "no Mongol on the Vikings' side"
    state = position(hands={0: "SHOOT", 1: "SUPERSAVE-MON"}, phase="match")
    standing_match(state)
    play(state, 0, "shoot SHOOT")
    assert AosMove("answer", ("SUPERSAVE-MON",)) in state.legal_moves(1), "as a plain Save against a plain Shoot"


def test_counter_attack_answers_an_unactivated_super_shot_and_a_super_shot_is_the_new_attackers_shot() -> None:
    state = position(hands={0: "SUPERSHOT-MON", 1: "COUNTER SUPERSHOT-VIK"}, phase="match")
    standing_match(state)
    play(state, 0, "shoot SUPERSHOT-MON")  # the Spartans cannot activate the Mongols' Super Shot: a plain shot
    events = play(state, 1, "answer COUNTER")
    assert kinds(events)[-1] == "countered" and state.to_act() == (1,)
    play(state, 1, "shoot SUPERSHOT-VIK")  # the Vikings' own: activated
    assert state.shot["activated"] and AosMove("answer", ("SAVE",)) not in state.legal_moves(0)
