"""Beliefs for Soker's hard player (engine/beliefs.py, engine/soker/bots.py ``beliefs``): the weighted sampler deals
only tables the seat's view could have come from, reads nothing but that view (its public history included), and
gives a seat that drew and ended its turn the cards legal on that top card less often than a uniform deal does."""

from __future__ import annotations

import dataclasses

from engine.beliefs import weighted_sample
from engine.registry import get_game
from engine.soker.bots import beliefs
from engine.soker.cards import BIT, DECK_SIZE, LEGAL_ON, PLAYER_CARDS, bits
from engine.soker.rules import DRAW_MOVE, END_MOVE, PLAY, SokerMove, SokerState
from tests.engine.conformance import check_cards
from tests.engine.test_search import assert_one_decision

SOKER = get_game("soker")
ON = dataclasses.replace(SOKER.search, beliefs=True)


def test_weighted_deals_show_the_seat_its_own_view() -> None:
    """Over seeded games of normal players at 2, 3 and 4 seats: every weighted deal is a whole table (each card once)
    whose view for the seat is the view it was dealt from, history included. About a second."""
    weighed = 0
    for seats in (2, 3, 4):
        for seed in range(3):
            state = SOKER.new_game(seats, None, 40 + seed)
            bots = [SOKER.new_bot("normal", seed + seat) for seat in range(seats)]
            while state.to_act():
                seat = state.to_act()[0]
                view = state.view(seat)
                weigh = beliefs(view)
                if weigh is not None:
                    weighed += 1
                    dealt = weighted_sample(SOKER.sample, weigh, view, state.version)
                    assert dealt.view(seat) == view
                    check_cards(SOKER, dealt)
                    assert 0.0 <= weigh(dealt) <= 1.0
                state.apply(seat, bots[seat].choose(state, seat))
    assert weighed >= 10, "the normal players' draws and ends gave the weigher something to weigh"


def test_with_beliefs_two_states_with_one_view_give_one_decision() -> None:
    """The search with beliefs on reads only its view (hand, public cards and the public history): the true table and
    a table dealt otherwise from the same view give the same move. Under a second."""
    for seats in (2, 3, 4):
        state = informed(seats)
        assert_one_decision(SOKER, state, ON)


def informed(seats: int) -> SokerState:
    """The first position of a seeded game of normal players where the seat to act has a choice and another seat's
    draw or end has something to say about its hand."""
    for seed in range(20, 60):
        state = SOKER.new_game(seats, None, seed)
        bots = [SOKER.new_bot("normal", seed + seat) for seat in range(seats)]
        while state.to_act():
            seat = state.to_act()[0]
            if len(state.legal_moves(seat)) > 1 and beliefs(state.view(seat)) is not None:
                return state
            state.apply(seat, bots[seat].choose(state, seat))
    raise AssertionError("no informed position in 40 games")


def drew_and_ended() -> tuple[SokerState, int]:
    """Two seats; seat 1, one card in hand, none legal on the top card, draws one that is not legal either and ends
    its turn. Returns the table at seat 0's turn and the top card seat 1 drew on."""
    state = SOKER.new_game(2, {"first_seat": 1}, 5)
    top = state.discard[-1]
    legal = LEGAL_ON[state.top]
    cards = [c for c in range(DECK_SIZE) if c != top]
    unplayable = [c for c in cards if not BIT[c] & legal]
    one, drawn = unplayable[:2]
    rest = [c for c in cards if c not in (one, drawn)]
    state.hands = [sum(BIT[c] for c in rest[:7]), BIT[one]]
    state.deck = [*rest[7:], drawn]  # (drawn from the end)
    state.apply(1, DRAW_MOVE)
    state.apply(1, END_MOVE)
    assert state.to_act() == (0,)
    return state, top


def test_a_seat_that_drew_and_ended_gets_the_cards_legal_there_less_often() -> None:
    """Seat 1 drew and ended on the top card, so the normal player it is modelled on held no card legal there: over
    1000 deals from seat 0's view, the weighted sampler gives seat 1 a legal card, and a given legal card, far less
    often than the uniform sampler. About half a second."""
    state, top = drew_and_ended()
    view = state.view(0)
    weigh = beliefs(view)
    assert weigh is not None
    legal = LEGAL_ON[top]
    marked = next(c for c in range(PLAYER_CARDS) if BIT[c] & legal and BIT[c] & ~state.hands[0] and c != top)
    uniform = [SOKER.sample(view, seed).hands[1] for seed in range(1000)]
    weighted = [weighted_sample(SOKER.sample, weigh, view, seed).hands[1] for seed in range(1000)]
    assert all(len(bits(hand)) == 2 for hand in uniform + weighted)
    with_legal = [sum(1 for hand in hands if hand & legal) for hands in (uniform, weighted)]
    with_marked = [sum(1 for hand in hands if hand & BIT[marked]) for hands in (uniform, weighted)]
    assert with_legal[0] > 500 and with_legal[1] < with_legal[0] / 3, with_legal
    assert with_marked[0] >= 20 and with_marked[1] < with_marked[0] / 2, with_marked


def test_a_seat_that_played_one_card_of_a_club_gets_the_rest_of_that_club_less_often() -> None:
    """Seat 1 played a single player card of a club onto the top card; the normal player plays the longest package
    it can, so it held no other card of that club: over 1000 deals from seat 0's view, the weighted sampler gives
    seat 1 another card of that club far less often than the uniform one. About half a second."""
    state = SOKER.new_game(2, {"first_seat": 1}, 5)
    top = state.discard[-1]
    legal = LEGAL_ON[state.top]
    cards = [c for c in range(PLAYER_CARDS) if c != top and BIT[c] & legal]
    played = cards[0]
    club = [c for c in range(PLAYER_CARDS) if c >> 2 == played >> 2 and c not in (played, top)]
    rest = [c for c in range(DECK_SIZE) if c not in (top, played, *club)]
    state.hands = [sum(BIT[c] for c in rest[:7]), BIT[played] | sum(BIT[c] for c in rest[7:11])]
    state.deck = [*club, *rest[11:]]
    state.apply(1, SokerMove(PLAY, (played,)))
    assert state.to_act() == (0,)
    view = state.view(0)
    weigh = beliefs(view)
    assert weigh is not None
    mask = sum(BIT[c] for c in club)
    uniform = [SOKER.sample(view, seed).hands[1] & mask for seed in range(1000)]
    weighted = [weighted_sample(SOKER.sample, weigh, view, seed).hands[1] & mask for seed in range(1000)]
    counts = [sum(1 for hand in hands if hand) for hands in (uniform, weighted)]
    assert counts[0] > 100 and counts[1] < counts[0] / 3, counts
