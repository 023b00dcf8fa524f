"""Carta Fútbol Club in play: every duel and its tie, face-down cards, the Special cards, the count to the shot, who
continues, fouls by play number, goals and saves."""

from __future__ import annotations

import pytest

from engine.carta.rules import SIGA
from tests.engine.carta.position import data, held, kinds, legal, play, position


def after(attack: str, answer: str, *, count: int = 0, luck: str = "") -> tuple:
    """Seat 0 (the ball) plays ``attack``, seat 1 answers: (state, the answer's events)."""
    state = position(
        hands={0: f"{attack.split()[1]} PI-1 PI-2", 1: f"{answer.split()[1]} PI-3"},
        count=count,
        luck={0: luck} if luck else None,
    )
    play(state, 0, attack)
    return state, play(state, 1, answer)


@pytest.mark.parametrize(
    ("intercept", "wins"), [("PI-7", True), ("PI-6", True), ("PI-5", False)], ids=["higher", "tie", "lower"]
)
def test_pass_against_intercept_the_higher_wins_and_a_tie_goes_to_the_intercept(intercept: str, wins: bool) -> None:
    state, events = after("play PI-6", f"play {intercept}")
    if wins:
        assert kinds(events)[-1] == "won_ball" and (state.ball, state.actor, state.count) == (1, 1, 0)
    else:
        assert kinds(events)[-1] == "play_stands" and (state.ball, state.actor, state.count) == (0, 0, 1)


@pytest.mark.parametrize(("tackle", "result"), [("DT-6", "won_ball"), ("DT-4", "play_stands"), ("DT-5", "foul")])
def test_dribble_against_slide_tackle_the_higher_wins_and_a_tie_is_a_foul_by_the_tackling_team(tackle, result):
    state, events = after("play DT-5", f"play {tackle}")
    assert result in kinds(events)
    if result == "foul":
        assert state.ball == 0 and data(events[-1])["outcome"] == "restart", "the team with the ball keeps it"


@pytest.mark.parametrize(
    ("save", "luck", "goal"),
    [("SS-9", "", False), ("SS-7", "", True), ("SS-8", "GOAL", True), ("SS-8", "NOGOAL", False)],
    ids=["higher", "lower", "tie-goal", "tie-no-goal"],
)
def test_shot_against_save_and_a_tie_decided_by_the_shooters_luck_card(save: str, luck: str, goal: bool) -> None:
    state, events = after("play SS-8", f"play {save}", count=3, luck=luck)
    assert state.goals == ([1, 0] if goal else [0, 0])
    assert (state.ball, state.actor, state.count) == (1, 1, 0), "the player who faced the shot starts, from play one"
    if luck:
        shown = next(event for event in events if event.kind == "luck")
        assert shown.cards == (f"B-{luck}",) and shown.seat == 0
        assert state.view(None).to_json()["luck_bottom"][0] == [f"B-{luck}"], "shown, then put at the bottom"


def test_a_shot_needs_three_attacking_plays_and_a_joker_is_declared_as_any_action() -> None:
    state = position(hands={0: "SS-9 JOKER-8 PI-4", 1: "PI-1"}, count=2)
    assert "play SS-9" not in legal(state, 0) and "play JOKER-8 shot" not in legal(state, 0)
    assert {"play JOKER-8 pass", "play JOKER-8 dribble", "down SS-9"} <= legal(state, 0)
    state = position(hands={0: "SS-9 JOKER-8 PI-4", 1: "PI-1"}, count=3)
    assert {"play SS-9", "play JOKER-8 shot", "play JOKER-8 pass", "play PI-4"} <= legal(state, 0)
    state = position(hands={0: "PI-4", 1: "JOKER-10 DT-3"})
    play(state, 0, "play PI-4")
    assert {"play JOKER-10 intercept", "down JOKER-10", "down DT-3"} == legal(state, 1), "only the pair answers"


def test_a_face_down_card_is_beaten_by_any_intercept_or_tackle_but_not_by_a_special() -> None:
    state = position(hands={0: "SS-10 PI-2", 1: "DT-1 SUPER OFFSIDE"})
    play(state, 0, "down SS-10")
    assert "play SUPER" not in legal(state, 1) and "play OFFSIDE" not in legal(state, 1)
    events = play(state, 1, "play DT-1")
    assert kinds(events)[-1] == "won_ball" and state.ball == 1


def test_face_down_against_face_down_adds_a_play_and_so_does_a_paso() -> None:
    state = position(hands={0: "PI-2 PI-3", 1: "DT-1 DT-2"})
    play(state, 0, "down PI-2")
    events = play(state, 1, "down DT-1")
    assert kinds(events)[-1] == "play_stands" and state.count == 1 and state.ball == 0
    play(state, 0, "play PI-3")
    play(state, 1, "down DT-2")
    assert state.count == 2, "a paso against a pass: the play stands"
    seen = state.view(None).to_json()
    assert (seen["pile"], seen["played"]) == (3, 1), "the face-down cards hidden, the pass played face up known"
    assert "DT-1" not in str(state.view(0).to_json())


def test_a_paso_against_a_shot_on_goal_is_a_goal() -> None:
    state, events = after("play SS-5", "down PI-4", count=3)
    assert "goal" in kinds(events) and state.goals == [1, 0]


def test_off_side_after_a_pass_is_cancelled_by_siga_siga_from_the_player_left_of_its_caller() -> None:
    state = position(4, hands={0: "PI-6", 1: "OFFSIDE", 2: "SIGA DT-3", 3: "PI-1"})
    play(state, 0, "play PI-6")
    play(state, 1, "play OFFSIDE")
    assert state.phase == SIGA and state.to_act() == (2,), "the attacking team's player to the caller's left"
    assert legal(state, 2) == {"play SIGA", "decline"}
    events = play(state, 2, "play SIGA")
    assert kinds(events)[-1] == "play_stands" and (state.ball, state.count, state.actor) == (0, 1, 2)


def test_off_side_without_siga_siga_gives_the_ball_to_its_callers_team() -> None:
    state = position(4, hands={0: "PI-6", 1: "OFFSIDE DT-7", 2: "DT-3", 3: "PI-1"})
    play(state, 0, "play PI-6")
    play(state, 1, "play OFFSIDE")
    assert legal(state, 2) == {"decline"}
    events = play(state, 2, "decline")
    assert kinds(events)[-2:] == ["offside_given", "won_ball"] and (state.ball, state.actor, state.count) == (1, 1, 0)


def test_off_side_answers_only_a_pass() -> None:
    state = position(hands={0: "DT-6", 1: "OFFSIDE"})
    play(state, 0, "play DT-6")
    assert "play OFFSIDE" not in legal(state, 1)


def test_a_canito_counts_one_play_and_only_super_defensa_stops_it() -> None:
    state = position(hands={0: "CANITO PI-3", 1: "PI-10 DT-10 SUPER"})
    play(state, 0, "play CANITO")
    assert legal(state, 1) == {"play SUPER", "down PI-10", "down DT-10", "down SUPER"}
    events = play(state, 1, "play SUPER")
    assert kinds(events)[-1] == "won_ball" and state.ball == 1
    state = position(hands={0: "CANITO PI-3", 1: "PI-10"})
    play(state, 0, "play CANITO")
    play(state, 1, "down PI-10")
    assert state.count == 1 and state.ball == 0


def test_super_defensa_takes_a_pass_or_a_dribble_but_not_a_shot() -> None:
    for attack in ("PI-9", "DT-9"):
        state = position(hands={0: attack, 1: "SUPER PI-1"})
        play(state, 0, f"play {attack}")
        assert kinds(play(state, 1, "play SUPER"))[-1] == "won_ball"
    state = position(hands={0: "SS-9", 1: "SUPER"}, count=3)
    play(state, 0, "play SS-9")
    assert "play SUPER" not in legal(state, 1)


def test_after_a_play_that_stands_the_player_left_of_the_defender_continues() -> None:
    state = position(4, hands={0: "PI-6", 1: "PI-2", 2: "DT-4", 3: "PI-1"})
    play(state, 0, "play PI-6")
    play(state, 1, "play PI-2")
    assert state.to_act() == (2,) and state.count == 1, "seat 0's teammate, to the left of the defender"
    state = position(4, hands={0: "PI-6", 1: "PI-8 PI-1", 2: "DT-4", 3: "PI-3"})
    play(state, 0, "play PI-6")
    play(state, 1, "play PI-8")
    assert state.to_act() == (1,), "the defender who won the ball starts its team's attack"
    assert state.view(None).to_json()["count"] == 0


@pytest.mark.parametrize(("count", "outcome"), [(0, "restart"), (1, "restart"), (2, "free_kick"), (3, "penalty")])
def test_a_foul_by_play_number_restarts_gives_a_free_kick_or_a_penalty(count: int, outcome: str) -> None:
    state = position(
        4,
        hands={0: "DT-5 PI-1", 1: "SS-9 PI-2", 2: "PI-3", 3: "DT-5"},
        actor=3,
        ball=1,
        count=count,
        luck={1: "NOGOAL"},
    )
    play(state, 3, "play DT-5")  # seat 3 (team 1) dribbles, seat 0 (team 0) ties: a foul by team 0
    events = play(state, 0, "play DT-5")
    foul = next(event for event in events if event.kind == "foul")
    assert data(foul) == {"play": count + 1, "outcome": outcome} and foul.target == 1
    if outcome == "restart":
        assert (state.ball, state.count, state.actor) == (1, 0, 1), "team 1 keeps the ball from play one"
    elif outcome == "free_kick":
        assert (state.ball, state.count, state.actor) == (1, 3, 1) and state.goals == [0, 0]
    else:
        assert "luck" in kinds(events), "decided by a Luck card of the taker (seat 1's team: Green)"


def test_a_direct_free_kick_allows_a_shot_but_does_not_force_one() -> None:
    state = position(hands={0: "DT-5 SS-9 PI-4", 1: "DT-5"}, count=2)
    play(state, 0, "play DT-5")
    play(state, 1, "play DT-5")  # play 3: a direct free kick for team 0, taken by seat 0 (left of the tackler)
    assert state.to_act() == (0,) and {"play SS-9", "play PI-4"} <= legal(state, 0)


@pytest.mark.parametrize(("luck", "goals"), [("GOAL", [0, 1]), ("NOGOAL", [0, 0])])
def test_a_penalty_is_the_takers_luck_card_then_play_restarts_from_the_takers_left(luck: str, goals) -> None:
    state = position(
        4, hands={0: "DT-5 PI-1", 1: "PI-2", 2: "PI-3", 3: "DT-5"}, actor=3, ball=1, count=3, luck={1: luck}
    )
    play(state, 3, "play DT-5")
    events = play(state, 0, "play DT-5")  # a foul on play 4: a penalty taken by seat 1
    shown = next(event for event in events if event.kind == "luck")
    assert shown.seat == 1 and shown.cards == (f"G-{luck}",)
    assert state.goals == goals and (state.ball, state.actor, state.count) == (0, 2, 0), "seat 2 starts"


def test_a_goal_counts_for_the_team_and_the_player_who_faced_the_shot_kicks_off() -> None:
    state = position(4, hands={0: "PI-1", 1: "PI-2", 2: "SS-10", 3: "SS-3 PI-5"}, actor=2, count=3)
    play(state, 2, "play SS-10")
    events = play(state, 3, "play SS-3")
    goal = next(event for event in events if event.kind == "goal")
    assert (goal.seat, goal.target, data(goal)["team"]) == (2, 3, 0) and state.to_act() == (3,) and state.ball == 1


def test_a_card_not_held_is_refused_without_being_named() -> None:
    from engine.carta import CARTA
    from engine.core import IllegalMove

    state = position(hands={0: "PI-1", 1: "PI-2"})
    with pytest.raises(IllegalMove) as refused:
        state.apply(0, CARTA.move_from_wire("play B-PI-9"))
    assert refused.value.code == "card_not_in_hand" and "PI-9" not in str(refused.value)
    assert held(state, 0) == ["PI-1"]
