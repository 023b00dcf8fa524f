"""Carta Fútbol Club over a whole match: the toss and its choice, dealing for 2, 4 and 6 players with the extra cards
rotating, hands that end and carry the play over, half time, full time, extra time's starters, the penalty shootout
into sudden death, the clock's move for every seat, and the outcome per team."""

from __future__ import annotations

import pytest

from engine.carta import CARTA
from engine.carta import cards as C
from engine.carta.rules import PLAY, SHOOTOUT, SIGA, CartaMove, CartaState
from tests.engine.carta.position import data, held, kinds, legal, move, play, position


def run_out(state: CartaState, until) -> None:
    """The clock plays every move (each a card face down) until ``until(state)``."""
    while not until(state):
        seat = state.to_act()[0]
        state.apply(seat, state.timeout_move(seat), by_table=True)


def tossed(seats: int = 2, *, choice: str = "kickoff", deck: str = "green", seed: int = 3, **options) -> CartaState:
    state = CARTA.new_game(seats, options, seed)
    state.apply(0, CartaMove("call", ("heads",)))
    chooser = state.to_act()[0]
    state.apply(chooser, CartaMove("choose", (choice,)))
    if choice == "kickoff":
        state.apply(state.to_act()[0], CartaMove("choose", (deck,)))
    return state


def test_the_toss_winner_chooses_the_kick_off_and_the_other_team_its_deck() -> None:
    state = CARTA.new_game(4, None, 3)
    assert state.to_act() == (0,) and {m.to_wire() for m in state.legal_moves(0)} == {"call heads", "call tails"}
    events = state.apply(0, CartaMove("call", ("tails",)))
    winner = data(events[0])["winner"]
    assert data(events[0])["coin"] in ("heads", "tails") and state.to_act() == (winner,), "its first seat chooses"
    state.apply(winner, CartaMove("choose", ("kickoff",)))
    assert state.to_act() == (1 - winner,) and {m.to_wire() for m in state.legal_moves(1 - winner)} == {
        "choose blue",
        "choose green",
    }
    events = state.apply(1 - winner, CartaMove("choose", ("blue",)))
    assert state.colours[1 - winner] == 0 and state.colours[winner] == 1
    assert state.starter == winner and state.to_act() == (winner,) and state.ball == state.team_of(winner)
    assert "dealt" in kinds(events) and state.phase == PLAY


@pytest.mark.parametrize("call", ["heads", "tails"])
def test_the_toss_is_won_by_the_team_whose_call_matches_the_coin(call: str) -> None:
    seen = set()
    for seed in range(12):
        state = CARTA.new_game(4, None, seed)
        events = state.apply(0, CartaMove("call", (call,)))
        coin = data(events[0])["coin"]
        seen.add(coin)
        winner = 0 if coin == call else 1  # seat 0's team, or the other one
        assert state.winner_team == winner and data(events[0])["winner"] == winner
        assert state.to_act() == (winner,), "the winning team's first seat chooses"
    assert seen == {"heads", "tails"}, "both sides of the coin came up"


def test_a_toss_winner_who_chooses_a_deck_gives_the_other_team_the_kick_off() -> None:
    state = CARTA.new_game(2, None, 3)
    events = state.apply(0, CartaMove("call", ("heads",)))
    winner = data(events[0])["winner"]
    state.apply(winner, CartaMove("choose", ("green",)))
    assert state.colours[winner] == 1 and state.starter == 1 - winner and state.to_act() == (1 - winner,)


@pytest.mark.parametrize(
    ("seats", "sizes"),
    [(2, [13, 13]), (4, [7, 7, 6, 6]), (6, [5, 5, 4, 4, 4, 4])],
)
def test_thirteen_cards_a_team_ten_skill_and_three_special(seats: int, sizes: list[int]) -> None:
    state = tossed(seats)
    assert [len(hand) for hand in state.hands] == sizes
    for team in (0, 1):
        cards = [card for seat in state.team_seats(team) for card in state.hands[seat]]
        assert sum(map(C.is_skill, cards)) == 10 and sum(map(C.is_special, cards)) == 3
        assert all(C.COLOUR[card] == state.colours[team] for card in cards), "each team from its own deck"


@pytest.mark.parametrize(("seats", "kind"), [(4, "special"), (6, "skill")])
def test_the_extra_card_rotates_between_teammates_hand_after_hand(seats: int, kind: str) -> None:
    state = tossed(seats)
    holders = []
    for hand in (1, 2, 3, 4):
        run_out(state, lambda s, h=hand: s.hand == h and s.version > 0)
        counts = [sum(1 for card in cards if getattr(C, f"is_{kind}")(card)) for cards in state.hands]
        if hand == 1 or max(counts) > min(counts):
            holders.append([seat for seat in range(seats) if counts[seat] == max(counts)])
        run_out(state, lambda s, h=hand: s.hand > h or s.result is not None)
    first = [[0, 1], [2, 3], [4, 5], [0, 1]] if seats == 6 else [[0, 1], [2, 3], [0, 1], [2, 3]]
    assert holders[0] == first[0], "the first seat of each team first, then clockwise within the team"
    assert holders[1] == first[1]


def test_a_hand_ends_when_the_turn_comes_to_a_player_with_no_card_and_play_carries_over() -> None:
    state = position(hands={0: "PI-6 DT-5", 1: "PI-2"}, hand=1)
    play(state, 0, "play PI-6")
    play(state, 1, "play PI-2")  # the pass stands; seat 0 plays on
    events = play(state, 0, "play DT-5")  # seat 1, who must answer, holds nothing: the hand ends
    assert kinds(events)[-3:] == ["hand_ended", "dealt", "dealt"] and state.hand == 2
    assert state.to_act() == (1,) and state.pending["action"] == "dribble" and state.count == 1, "carried over"
    assert [len(hand) for hand in state.hands] == [13, 13]


def test_half_time_ends_unfinished_play_and_the_player_left_of_the_starter_kicks_off() -> None:
    state = position(hands={0: "PI-6 DT-5", 1: "PI-2"}, hand=3, count=0)
    special_left = len(state.special[0])
    play(state, 0, "play PI-6")
    play(state, 1, "play PI-2")
    events = play(state, 0, "play DT-5")
    assert "half_time" in kinds(events) and state.hand == 4
    assert not state.pending and state.count == 0 and state.to_act() == (1,) and state.ball == 1
    assert len(state.skill[0]) == 20, "the Skill deck reshuffled whole: 30, 10 of them dealt"
    assert len(state.special[0]) == special_left - 3, "the Special deck continues where it stood"


def test_a_level_match_ends_drawn_without_extra_time_or_penalties() -> None:
    state = tossed(2, seed=5)
    run_out(state, lambda s: s.result is not None)  # face-down play only: nobody ever shoots
    outcome = state.outcome()
    assert outcome.reason == "draw" and outcome.winners == () and outcome.team_points == (0, 0)
    assert state.hand == 6


def test_extra_time_is_two_hands_started_by_the_match_starter_then_the_second_half_starter() -> None:
    state = tossed(4, extra_time=True, seed=5)
    starter = state.starter
    run_out(state, lambda s: s.hand == 7)
    assert state.to_act() == (starter,) and state.count == 0 and not state.pending
    assert [len(deck) for deck in state.luck] == [12, 12] and len(state.special[0]) == 15, "every deck reshuffled"
    run_out(state, lambda s: s.hand == 8)
    assert state.to_act() == ((starter + 1) % 4,) and state.count == 0, "play does not continue"
    run_out(state, lambda s: s.result is not None)
    assert state.outcome().reason == "draw"


def shootout(hands: dict[int, str], kicks=(0, 0), scored=(0, 0), actor: int = 0, sudden: int = 0, luck=None):
    state = position(hands=hands, actor=actor, luck=luck)
    state.phase = SHOOTOUT
    state.ball, state.count = -1, 0
    state.kicks, state.scored, state.sudden = list(kicks), list(scored), sudden
    return state


def test_a_shootout_follows_the_match_with_skill_cards_dealt_in_full_from_the_starters_team() -> None:
    state = tossed(2, penalties=True, seed=5)
    run_out(state, lambda s: s.phase == SHOOTOUT)
    assert state.to_act() == (state.starter,) and [len(hand) for hand in state.hands] == [30, 30]
    assert all(C.is_skill(card) for hand in state.hands for card in hand)


def test_a_kick_is_a_shot_and_only_a_save_stops_it_and_the_keeper_shoots_next() -> None:
    state = shootout({0: "SS-7 PI-9", 1: "SS-8 DT-2"})
    assert legal(state, 0) == {"play SS-7"}, "a player with a Shot must use it"
    play(state, 0, "play SS-7")
    assert legal(state, 1) == {"play SS-8", "down SS-8", "down DT-2"}
    events = play(state, 1, "play SS-8")
    assert data(events[-1])["goal"] is False and state.to_act() == (1,), "whoever saved shoots next"
    assert state.kicks == [1, 0] and state.scored == [0, 0]


def test_a_player_with_no_shot_kicks_face_down_as_a_shot_one() -> None:
    state = shootout({0: "PI-9 DT-2", 1: "SS-3 PI-1"})
    assert legal(state, 0) == {"down PI-9", "down DT-2"}
    events = play(state, 0, "down PI-9")
    assert data(events[0]) == {"action": "shot", "value": 1} and "PI-9" not in str(events[0].to_json())
    play(state, 1, "play SS-3")
    assert state.scored == [0, 0]


def test_the_shootout_stops_as_soon_as_one_team_cannot_be_caught() -> None:
    state = shootout({0: "SS-6 PI-1", 1: "SS-5 PI-2"}, kicks=(3, 2), scored=(3, 0), actor=1)
    play(state, 1, "play SS-5")
    events = play(state, 0, "play SS-6")  # saved: team 1 can score 2 more at most, team 0 has 3
    assert kinds(events)[-1] == "game_ended" and state.outcome().reason == "penalties"
    assert state.outcome().winners == (0,) and state.kicks == [3, 3]


def test_at_four_three_after_four_kicks_each_the_shootout_goes_on() -> None:
    state = shootout({0: "SS-8 SS-3", 1: "SS-5 SS-9"}, kicks=(4, 3), scored=(4, 3), actor=1)
    play(state, 1, "play SS-5")
    events = play(state, 0, "play SS-8")  # saved: 4-3 after four each, team 1 may still level with its fifth
    assert state.kicks == [4, 4] and state.scored == [4, 3] and "game_ended" not in kinds(events)
    assert state.outcome() is None and state.to_act() == (0,)
    play(state, 0, "play SS-3")
    play(state, 1, "play SS-9")  # saved: 4-3 after five and four, team 1 still has its fifth
    assert state.outcome() is None and state.to_act() == (1,)


def test_the_shootout_stops_before_the_trailing_team_kicks_when_it_cannot_catch_up() -> None:
    state = shootout({0: "SS-9 PI-1", 1: "SS-3 PI-2"}, kicks=(3, 3), scored=(3, 1))
    play(state, 0, "play SS-9")
    events = play(state, 1, "play SS-3")  # a goal: 4-1, and team 1 can score two more at most
    assert kinds(events)[-1] == "game_ended" and state.outcome().winners == (0,) and state.kicks == [4, 3]


def test_a_shootout_into_sudden_death_ends_at_the_first_round_with_a_difference() -> None:
    state = shootout({0: "SS-9 SS-8", 1: "SS-10 SS-3"}, kicks=(5, 5), scored=(4, 4))
    play(state, 0, "play SS-9")
    play(state, 1, "down SS-10")  # a goal
    assert state.outcome() is None and state.scored == [5, 4], "team 1 may still level the round"
    play(state, 1, "play SS-3")
    events = play(state, 0, "play SS-8")  # saved: the round ends 1-0
    assert kinds(events)[-1] == "game_ended" and state.outcome().reason == "penalties"
    assert state.outcome().winners == (0,) and state.outcome().winning_teams == (0,)


def test_ten_level_rounds_of_sudden_death_and_the_coin_decides() -> None:
    state = shootout({0: "SS-9 SS-8", 1: "SS-10 SS-3"}, kicks=(14, 14), scored=(9, 9), sudden=9)
    play(state, 0, "play SS-9")
    play(state, 1, "down SS-3")
    play(state, 1, "play SS-10")
    events = play(state, 0, "down SS-8")
    assert kinds(events)[-2:] == ["coin", "game_ended"] and state.outcome().reason == "coin"


def test_the_clock_plays_the_house_move_for_each_seat() -> None:
    state = CARTA.new_game(2, None, 3)
    assert state.timeout_move(0).to_wire() == "call heads"
    state.apply(0, state.timeout_move(0), by_table=True)
    assert state.timeout_move(state.to_act()[0]).to_wire() == "choose kickoff"
    state.apply(state.to_act()[0], state.timeout_move(state.to_act()[0]), by_table=True)
    assert state.timeout_move(state.to_act()[0]).to_wire() == "choose blue"
    state = position(hands={0: "SS-4 PI-3 DT-3 CANITO", 1: "PI-1"})
    assert move(state, 0, "down PI-3") == state.timeout_move(0), "the lowest Skill card, by number then kind"
    state = position(hands={0: "OFFSIDE SUPER", 1: "PI-1"})
    assert move(state, 0, "down OFFSIDE") == state.timeout_move(0), "no Skill card: the first Special"
    state = position(4, hands={0: "PI-6", 1: "OFFSIDE PI-2", 2: "SIGA PI-4", 3: "PI-1"})
    play(state, 0, "play PI-6")
    play(state, 1, "play OFFSIDE")
    assert state.phase == SIGA and state.timeout_move(2).to_wire() == "decline", "no Siga-siga"
    state = shootout({0: "SS-9 SS-4 JOKER-10", 1: "SS-10 SS-6 PI-1"})
    assert move(state, 0, "play SS-4") == state.timeout_move(0), "the shooter's lowest Shot"
    play(state, 0, "play SS-9")
    assert move(state, 1, "play SS-6") == state.timeout_move(1), "the keeper's lowest Save"


def test_the_clock_lays_down_the_first_special_in_the_house_order_not_the_deal_order() -> None:
    for dealt, first in (
        ("SUPER SIGA OFFSIDE CANITO", "CANITO"),
        ("SUPER SIGA OFFSIDE", "OFFSIDE"),
        ("SUPER SIGA", "SIGA"),
        ("SUPER SUPER", "SUPER"),
    ):
        state = position(hands={0: dealt, 1: "PI-1"})  # dealt in this order
        assert state.timeout_move(0) == move(state, 0, f"down {first}"), f"{dealt}: Cañito, Off-side, Siga-siga, Super"
        assert state.timeout_move(0) in state.legal_moves(0)
        state = position(hands={0: "PI-5", 1: dealt}, actor=0)
        play(state, 0, "play PI-5")  # seat 1 answers a Pass holding only Specials
        assert state.timeout_move(1) == move(state, 1, f"down {first}")


def test_hidden_cards_a_face_down_card_is_shown_to_nobody() -> None:
    state = position(hands={0: "PI-6 DT-5", 1: "PI-2"})
    play(state, 0, "down PI-6")
    for viewer in (None, 0, 1):
        view = state.view(viewer).to_json()
        assert view["pending"] == {"seat": 0, "action": "down", "value": 0, "card": "", "down": True}
        assert "B-PI-6" not in str(view)
    assert held(state, 0) == ["DT-5"]


def test_the_outcome_is_per_team_and_every_seat_follows_its_team() -> None:
    state = position(4, hands={0: "SS-10", 1: "PI-1", 2: "PI-2", 3: "PI-3"}, hand=6, count=3, goals=(1, 1))
    play(state, 0, "play SS-10")
    events = play(state, 1, "down PI-1")  # a goal; seat 2 must play and holds... a card: play on
    assert state.goals == [2, 1] and "goal" in kinds(events)
    run_out(state, lambda s: s.result is not None)
    outcome = state.outcome()
    assert outcome.reason == "goals" and outcome.winners == (0, 2) and outcome.team_points == (2, 1)
    assert outcome.points == (2, 1, 2, 1)
