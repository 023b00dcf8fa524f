"""Beliefs for Carta Fútbol Club's hard player (engine/beliefs.py, engine/carta/bots.py ``beliefs``): the weighted
sampler deals only tables the seat's view could have come from, reads nothing but that view (its public history
included), takes the normal player's own moves at their word (the true table of normal players always weighs 1),
and gives a seat that answered a Pass face down the Intercepts that would have won the ball less often than a
uniform deal does."""

from __future__ import annotations

import dataclasses

from engine.beliefs import weighted_sample
from engine.carta import CARTA
from engine.carta import cards as C
from engine.carta.bots import beliefs
from engine.carta.rules import CartaState
from tests.engine.conformance import check_cards
from tests.engine.test_search import assert_one_decision

ON = dataclasses.replace(CARTA.search, beliefs=True)  # type: ignore[attr-defined]


def normal_match(seats: int, seed: int):  # type: ignore[no-untyped-def]
    """Every position of a seeded match of normal players, with the seat to act."""
    state = CARTA.new_game(seats, {"extra_time": True, "penalties": True} if seed % 2 else None, seed)
    bots = [CARTA.new_bot("normal", seed * 10 + seat) for seat in range(seats)]
    while state.to_act():
        seat = state.to_act()[0]
        yield state, seat
        state.apply(seat, bots[seat].choose(state, seat))


def test_weighted_deals_show_the_seat_its_own_view() -> None:
    """Over seeded matches of normal players at 2, 4 and 6 seats: every weighted deal is a whole table (each card
    once) whose view for the seat is the view it was dealt from, history included, and the history never names a card
    laid face down. Under a second."""
    weighed = 0
    for seats in (2, 4, 6):
        for seed in range(2):
            for index, (state, seat) in enumerate(normal_match(seats, seed)):
                view = state.view(seat)
                assert all(face == "" for _, _, _, _, _, kind, face, _ in view.seen.history if kind == "down")
                weigh = beliefs(view)
                if weigh is None or index % 4:
                    continue
                weighed += 1
                dealt = weighted_sample(CARTA.sample, weigh, view, state.version)
                assert dealt.view(seat) == view
                check_cards(CARTA, dealt)
                assert 0.0 <= weigh(dealt) <= 1.0
    assert weighed >= 100, "the normal players' moves gave the weigher something to weigh"


def test_the_true_table_of_normal_players_weighs_one() -> None:
    """The model is the normal player: at every decision of seeded matches of normal players (2, 4 and 6 seats,
    extra time and shootouts among them), the table as it truly is weighs 1 for every seat, while a random player's
    moves weigh less now and then. Under a second."""
    weighed = 0
    for seats in (2, 4, 6):
        for seed in range(3):
            for state, seat in normal_match(seats, seed):
                weigh = beliefs(state.view(seat))
                if weigh is not None:
                    weighed += 1
                    assert weigh(state) == 1.0, (seats, seed, state.view(seat).seen.history[-4:])
    assert weighed >= 500
    state = CARTA.new_game(2, None, 3)
    bots = [CARTA.new_bot("normal", 1), CARTA.new_bot("random", 2)]
    below = 0
    while state.to_act():
        seat = state.to_act()[0]
        weigh = beliefs(state.view(0))
        below += weigh is not None and weigh(state) < 1.0
        state.apply(seat, bots[seat].choose(state, seat))
    assert below >= 10, "a random player's moves are not the normal player's"


def test_a_state_stored_before_the_history_was_kept_still_loads() -> None:
    """A match stored without its history (as before it was kept) loads, plays on and keeps a history from there;
    until a move is made its views tell nothing, so the hard player deals uniformly. Instant."""
    state, seat = next(position for index, position in enumerate(normal_match(4, 1)) if index == 60)
    data = state.to_json()
    assert data.pop("history")
    old = CARTA.state_from_json(data)
    assert old.view(seat).seen.history == () and beliefs(old.view(seat)) is None
    old.apply(seat, CARTA.new_bot("normal", 1).choose(old, seat))
    assert len(old.view(seat).seen.history) == 1


def informed(seats: int) -> CartaState:
    """The first position of a seeded match of normal players where the seat to act has a choice and the other seats'
    moves have something to say about their hands."""
    for seed in range(20, 40):
        for state, seat in normal_match(seats, seed):
            if len(state.legal_moves(seat)) > 1 and beliefs(state.view(seat)) is not None:
                return state
    raise AssertionError("no informed position in 20 matches")


def test_with_beliefs_two_states_with_one_view_give_one_decision() -> None:
    """The search with beliefs on reads only its view (hand, public cards and the public history): the true table and
    a table dealt otherwise from the same view give the same move. Under a second."""
    for seats in (2, 4, 6):
        state = informed(seats)
        assert_one_decision(CARTA, state, ON)


def pass_answered_face_down() -> tuple[CartaState, int]:
    """Two seats, normal players: the first position where seat 1, still holding 7 cards or more, answered seat 0's
    Pass of 7 or less face down and seat 0 plays on. Returns the table and the Pass's value."""
    for seed in range(40):
        for state, seat in normal_match(2, seed):
            if seat != 0 or not state.history:
                continue
            mover, phase, asked, value, _, kind, _, _ = state.history[-1]
            held = len(state.hands[1])
            if mover == 1 and phase == "play" and asked == C.PASS and kind == "down" and held >= 7 and value <= 7:
                return state, value
    raise AssertionError("no such Pass in 40 matches")


def test_a_seat_that_let_a_pass_through_gets_the_winning_intercepts_less_often() -> None:
    """Seat 1 answered a Pass face down, so the normal player it is modelled on held no Intercept of that value or
    more: over 400 deals from seat 0's view, the weighted sampler gives seat 1 such an Intercept far less often than
    the uniform sampler. Under a second."""
    state, value = pass_answered_face_down()
    view = state.view(0)
    weigh = beliefs(view)
    assert weigh is not None
    colour = state.colours[1]
    winning = {
        card
        for card in C.deck_cards(colour, C.SKILL)
        if C.KIND[card] == C.PI and C.VALUE[card] >= value and card not in state.played
    }
    assert winning.isdisjoint(state.hands[1]), "the true hand agrees with the model"
    uniform = [CARTA.sample(view, seed).hands[1] for seed in range(400)]
    weighted = [weighted_sample(CARTA.sample, weigh, view, seed).hands[1] for seed in range(400)]
    counts = [sum(1 for hand in hands if winning.intersection(hand)) for hands in (uniform, weighted)]
    assert counts[0] >= 80 and counts[1] < counts[0] / 3, counts
