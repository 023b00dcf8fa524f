"""Beliefs for Age of Soccer's hard player (engine/beliefs.py, engine/age_of_soccer/bots.py ``beliefs``): the weighted
sampler deals only tables the seat's view could have come from, reads nothing but that view (its public history
included), and gives a defender that passed a shot's window the cards it could have answered with less often than a
uniform deal does."""

from __future__ import annotations

import dataclasses
import json

from engine.age_of_soccer import AGE_OF_SOCCER
from engine.age_of_soccer import cards as C
from engine.age_of_soccer.bots import beliefs
from engine.age_of_soccer.rules import AosState
from engine.beliefs import weighted_sample
from tests.engine.age_of_soccer.position import play
from tests.engine.conformance import check_cards
from tests.engine.test_search import assert_one_decision

GAME = AGE_OF_SOCCER
ON = dataclasses.replace(GAME.search, beliefs=True)
ANSWERS = frozenset((C.SAVE, C.SUPERSAVE, C.OFFSIDE, C.COUNTER))  # what a defender may answer a plain shot with


def test_weighted_deals_show_the_seat_its_own_view() -> None:
    """Over seeded games of normal players at every seat count (2 to 7): every weighted deal is a whole table (each
    card once) whose view for the seat is the view it was dealt from, history included, with the same seats to act
    and the same legal moves. Under a second."""
    weighed = 0
    for seats in GAME.spec.seat_counts:
        for seed in range(2):
            state = GAME.new_game(seats, None, 40 + seed)
            bots = [GAME.new_bot("normal", seed + seat) for seat in range(seats)]
            for step in range(240):
                if not state.to_act():
                    break
                seat = state.to_act()[0]
                view = state.view(seat)
                weigh = beliefs(view)
                if weigh is not None and step % 3 == 0:
                    weighed += 1
                    dealt = weighted_sample(GAME.sample, weigh, view, state.version)
                    assert dealt.view(seat) == view
                    check_cards(GAME, dealt)
                    assert dealt.to_act() == state.to_act()
                    assert set(dealt.legal_moves(seat)) == set(state.legal_moves(seat))
                    assert 0.0 <= weigh(dealt) <= 1.0
                    assert weigh(state) == 1.0, "the normal players' own moves are the model's moves"
                state.apply(seat, bots[seat].choose(state, seat))
    assert weighed >= 200, "the normal players' moves gave the weigher something to weigh"


def test_the_history_is_kept_in_the_state_and_its_json() -> None:
    """A stored state keeps the public history its views show (the same view after a round trip through JSON), and a
    state stored before the history was kept still loads, with none. Under a tenth of a second."""
    state = informed(4)
    seat = state.to_act()[0]
    data = json.loads(json.dumps(state.to_json()))
    assert GAME.state_from_json(data).view(seat) == state.view(seat)
    assert state.view(seat).seen.history, "the normal players' moves are in the history"
    del data["history"]
    old = GAME.state_from_json(data)
    assert old.view(seat).seen.history == () and old.view(seat).to_json() == state.view(seat).to_json()


def test_with_beliefs_two_states_with_one_view_give_one_decision() -> None:
    """The search with beliefs on reads only its view (hand, public cards and the public history): the true table and
    a table dealt otherwise from the same view give the same move, at 2, 3 and 4 seats. Under half a second."""
    for seats in (2, 3, 4):
        state = informed(seats)
        assert_one_decision(GAME, state, ON)


def informed(seats: int) -> AosState:
    """The first position, 30 moves or more into a seeded game of normal players, where the seat to act has a choice
    and another seat's public moves have something to say about its hand."""
    state = GAME.new_game(seats, None, 20 + seats)
    bots = [GAME.new_bot("normal", seats + seat) for seat in range(seats)]
    played = 0
    while state.to_act():
        seat = state.to_act()[0]
        if played >= 30 and len(state.legal_moves(seat)) > 1 and beliefs(state.view(seat)) is not None:
            return state
        state.apply(seat, bots[seat].choose(state, seat))
        played += 1
    raise AssertionError("no informed position in the game")


def window_passed() -> AosState:
    """Four seats; seat 0 challenges seat 1 (4 attack against 4 defence: the challenge stands), shoots a plain Shoot,
    and seat 1, the defender, holding three cards and no Save, Super Save, Offside or Counter Attack, passes the
    window. Returns the table with seats 2 and 3 still to answer."""
    state = GAME.new_game(4, None, 5)
    deck = state.action_deck
    shoot = next(card for card in deck if C.ACTION_KIND[card] == C.SHOOT)
    deck.remove(shoot)
    deck.append(state.actions[0].pop())
    state.actions[0].append(shoot)
    deck.extend(state.actions[1][3:])  # seat 1 holds three cards, none that answers a shot
    del state.actions[1][3:]
    for place, card in enumerate(state.actions[1]):
        if C.ACTION_KIND[card] in ANSWERS | {C.SHOOT, C.SUPERSHOT, C.BUS}:
            spare = next(i for i, c in enumerate(deck) if C.ACTION_KIND[c] in (C.RED, C.SAMBA, C.INJURY, C.FREE))
            state.actions[1][place], deck[spare] = deck[spare], card
    state.phase = "match"
    play(state, 0, "challenge 1")
    play(state, 1, "pass")
    play(state, 0, "pass")
    play(state, 0, "shoot SHOOT")
    play(state, 1, "pass")
    assert state.phase == "window" and state.to_act() == (2, 3)
    return state


def test_a_defender_that_passed_a_window_gets_answers_less_often() -> None:
    """Seat 1 passed the window of a plain shot it defended, so the normal player it is modelled on held nothing to
    answer with: over 400 deals from seat 0's view, the weighted sampler gives seat 1 a Save, Super Save, Offside or
    Counter Attack, and a Save, far less often than the uniform sampler. Under a fifth of a second."""
    state = window_passed()
    view = state.view(0)
    weigh = beliefs(view)
    assert weigh is not None
    uniform = [GAME.sample(view, seed).actions[1] for seed in range(400)]
    weighted = [weighted_sample(GAME.sample, weigh, view, seed).actions[1] for seed in range(400)]
    assert all(len(hand) == len(state.actions[1]) for hand in uniform + weighted)
    kinds = [[{C.ACTION_KIND[card] for card in hand} for hand in hands] for hands in (uniform, weighted)]
    answering = [sum(1 for held in hands if held & ANSWERS) for hands in kinds]
    saving = [sum(1 for held in hands if C.SAVE in held) for hands in kinds]
    assert answering[0] > 200 and answering[1] < answering[0] / 3, answering
    assert saving[0] >= 80 and saving[1] < saving[0] / 2, saving


def test_a_seat_that_ended_its_turn_without_a_challenge_gets_shots_less_often() -> None:
    """Four seats; seat 1, holding three cards and no shot, ends its turn without challenging, where every seat was in
    reach and the normal player, holding a shot, would have challenged: over 400 deals from seat 0's view, the
    weighted sampler gives seat 1 a Shoot or a Super Shot far less often than the uniform sampler. Under a fifth of a
    second."""
    state = GAME.new_game(4, {"first_seat": 1}, 6)
    deck = state.action_deck
    deck.extend(state.actions[1][3:])
    del state.actions[1][3:]
    for place, card in enumerate(state.actions[1]):
        if C.ACTION_KIND[card] in (C.SHOOT, C.SUPERSHOT):
            spare = next(i for i, c in enumerate(deck) if C.ACTION_KIND[c] in (C.RED, C.SAMBA, C.INJURY, C.FREE))
            state.actions[1][place], deck[spare] = deck[spare], card
    state.phase = "match"
    play(state, 1, "end")
    assert state.active == 2
    view = state.view(0)
    weigh = beliefs(view)
    assert weigh is not None
    shots = (C.SHOOT, C.SUPERSHOT)
    uniform = [GAME.sample(view, seed).actions[1] for seed in range(400)]
    weighted = [weighted_sample(GAME.sample, weigh, view, seed).actions[1] for seed in range(400)]
    shooting = [
        sum(1 for hand in hands if any(C.ACTION_KIND[card] in shots for card in hand)) for hands in (uniform, weighted)
    ]
    assert shooting[0] > 150 and shooting[1] < shooting[0] / 3, shooting
