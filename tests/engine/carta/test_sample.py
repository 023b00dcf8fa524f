"""Carta Fútbol Club's ``sample``: a whole match dealt from one seat's view, for the hard player's search. Checked at
positions along seeded matches at 2, 4 and 6 seats played by the random and heuristic players, the toss, the
Siga-siga, extra time and the shootout included: the sample shows its seat the same view, is a real state (every card
once, the same moves, turn and outcome, played on to the end), reads only the view, and deals only the hidden cards,
uniformly, where they may be."""

from __future__ import annotations

import functools
import json
import math
from collections import Counter
from collections.abc import Iterator

import pytest

from engine.carta import CARTA
from engine.carta import cards as C
from engine.carta.rules import HISTORY, CartaSeen, CartaState, CartaView
from engine.core import play_out
from tests.engine.conformance import check_cards, face

OPTIONS = {"extra_time": True, "penalties": True}
ID = {instance: card for card, instance in enumerate(C.INSTANCE)}
SPECIAL_PHASES = {"toss", "choice", "deck", "siga", "shootout", "over"}


def match(seats: int, seed: int, options: dict | None) -> Iterator[CartaState]:
    """Every position of a seeded match: random players, or heuristic ones against random ones."""
    state = CARTA.new_game(seats, options, seed)
    kinds = ("random", "random") if seed % 3 else ("heuristic", "random")
    bots = [CARTA.new_bot(kinds[(seat + seed) % 2], seed * 10 + seat) for seat in range(seats)]
    while acting := state.to_act():
        yield state
        state.apply(acting[0], bots[acting[0]].choose(state, acting[0]))
    yield state


# (seats, seed, options): the toss won both ways, a deck chosen after the kick-off, Siga-sigas, extra time and
# shootouts among them, heuristic players in seeds 0 and 3.
GAMES = ((2, 0, OPTIONS), (2, 1, None), (2, 22, OPTIONS), (4, 3, None), (4, 4, OPTIONS), (6, 0, None), (6, 1, OPTIONS))


@functools.cache
def positions() -> tuple[CartaState, ...]:
    """Copies of positions along those matches: every fifth, and every one in a special phase, in extra time or with
    a card face down on the table."""
    chosen = []
    for seats, seed, options in GAMES:
        for index, state in enumerate(match(seats, seed, options)):
            special = state.phase in SPECIAL_PHASES or state.hand > 6 or True in state.down
            if special or index % 5 == 0:
                chosen.append(CARTA.state_from_json(state.to_json()))
    return tuple(chosen)


def wires(state: CartaState, seat: int) -> set[str]:
    return {move.to_wire() for move in state.legal_moves(seat)}


def test_the_positions_reach_every_phase_extra_time_and_face_down_cards() -> None:
    states = positions()
    assert {state.phase for state in states} >= SPECIAL_PHASES | {"play"}
    assert {state.seats for state in states} == {2, 4, 6}
    assert any(state.hand > 6 for state in states) and any(True in state.down for state in states)
    assert any(state.luck_known != [0, 0] for state in states) and any(state.played for state in states)


def test_a_sample_shows_its_seat_the_same_view() -> None:
    for index, state in enumerate(positions()):
        for seat in [*range(state.seats), None]:
            view = state.view(seat)
            sample = CARTA.sample(view, index * 7 + (seat or 0))
            assert sample.view(seat) == view
            assert sample.view(seat).to_json() == view.to_json()


CARD_KEYS = {"skill", "special", "luck", "hands", "pile", "played", "table", "pending", "rng"}


def test_a_sample_is_a_real_state_with_the_same_moves_turn_and_outcome() -> None:
    for index, state in enumerate(positions()):
        true = {key: value for key, value in state.to_json().items() if key not in CARD_KEYS}
        for seat in range(state.seats):
            sample = CARTA.sample(state.view(seat), index * 11 + seat)
            check_cards(CARTA, sample)
            # everything but where the cards are and the RNG is the true state's (the next extra card's seat too)
            assert {key: value for key, value in sample.to_json().items() if key not in CARD_KEYS} == true
            assert sample.pending.keys() == state.pending.keys()  # and the card waiting its answer, but its copy
            assert all(sample.pending[key] == state.pending[key] for key in state.pending if key != "card")
            assert sample.to_act() == state.to_act() and sample.outcome() == state.outcome()
            assert wires(sample, seat) == wires(state, seat)
            assert CARTA.state_from_json(json.loads(json.dumps(sample.to_json()))).to_json() == sample.to_json()


def test_a_sample_plays_on_to_the_end_and_so_does_its_json_copy() -> None:
    states = positions()
    for index in range(0, len(states), max(1, len(states) // 24)):
        state = states[index]
        seat = state.to_act()[0] if state.to_act() else 0
        sample = CARTA.sample(state.view(seat), index)
        copy = CARTA.state_from_json(json.loads(json.dumps(sample.to_json())))
        logs = [
            play_out(game, [CARTA.new_bot("random", index + s) for s in range(state.seats)]) for game in (sample, copy)
        ]
        assert logs[0] == logs[1] and sample.to_json() == copy.to_json()
        assert sample.outcome() is not None


def test_a_sample_reads_only_the_view() -> None:
    states = positions()
    for index in range(0, len(states), 7):
        state = states[index]
        for seat in range(state.seats):
            view = state.view(seat)
            first = CARTA.sample(view, 77)
            assert first.to_json() == CARTA.sample(view, 77).to_json(), "the same view and seed, the same state"
            other = CARTA.sample(view, 5)  # another state this view may have come from
            assert other.view(seat) == view
            assert CARTA.sample(other.view(seat), 77).to_json() == first.to_json()
            if state.hidden_from(seat):
                assert CARTA.sample(view, 78).to_json() != first.to_json(), "another seed, another deal"
                assert other.to_json() != state.to_json()


def test_two_states_that_differ_only_in_what_a_seat_cannot_see_give_it_the_same_sample() -> None:
    checked = 0
    for state in positions()[::9]:
        if state.colours[0] < 0 or not state.skill[1]:
            continue
        seat = 0
        swapped = CARTA.state_from_json(state.to_json())  # a card of seat 1's hand and one of its deck swapped
        held = next((i for i, card in enumerate(swapped.hands[1]) if C.is_skill(card)), None)
        if held is None:
            continue
        deck = swapped.skill[1]
        swapped.hands[1][held], deck[-1] = deck[-1], swapped.hands[1][held]
        swapped.rng = CARTA.new_game(2, None, 1234).rng  # and the game's RNG, which nobody sees
        assert swapped.to_json() != state.to_json() and swapped.view(seat) == state.view(seat)
        assert CARTA.sample(swapped.view(seat), 3).to_json() == CARTA.sample(state.view(seat), 3).to_json()
        checked += 1
    assert checked >= 5


def allowed(state: CartaState, place: str, card: int) -> bool:
    """Whether a hidden card may be in that place: a hand, a deck or a face-down card holds its team's colour only,
    a deck its own kind only, and the pile any Skill or Special card."""
    kind, _, where = place.partition(":")
    if kind == "pile":
        return C.KIND[card] not in C.LUCK_KINDS
    if kind == "table":
        seat = state.pending["seat"]
        return C.COLOUR[card] == state.colours[seat % 2] and C.KIND[card] not in C.LUCK_KINDS
    team = int(where) % 2
    if C.COLOUR[card] != state.colours[team]:
        return False
    kinds = {"skill": C.SKILL_KINDS, "special": C.SPECIAL_KINDS, "luck": C.LUCK_KINDS}.get(kind)
    return C.KIND[card] in (kinds or C.SKILL_KINDS | C.SPECIAL_KINDS)


def test_a_sample_keeps_every_card_the_seat_sees_and_deals_only_the_hidden_ones_where_they_may_be() -> None:
    for index, state in enumerate(positions()):
        places = state.locations()
        for seat in [*range(state.seats), None]:
            sample = CARTA.sample(state.view(seat), index * 13 + (seat or 0))
            hidden, dealt = state.hidden_from(seat), sample.hidden_from(seat)
            theirs = sample.locations()
            assert theirs.keys() == places.keys()
            for place, cards in places.items():
                mine = theirs[place]
                assert len(mine) == len(cards), place
                seen = [face(card) for card in cards if card not in hidden]
                shown = [face(card) for card in mine if card not in dealt]
                # where the seat sees them, as it sees them (its own hand in no particular order)
                assert (sorted(shown) == sorted(seen)) if place.startswith("hand") else (shown == seen), place
                if place != "boxes":
                    assert all(allowed(sample, place, ID[card]) for card in mine if card in dealt), place
            assert Counter(map(face, dealt)) == Counter(map(face, hidden)), "the hidden cards, dealt again"


def test_the_hidden_cards_are_dealt_uniformly_among_the_places_that_may_hold_them() -> None:
    state = next(
        s
        for s in match(2, 3, None)
        if s.hand == 2 and s.skill[1] and s.pile and s.to_act() == (0,) and True not in s.down
    )
    view = state.view(0)
    # (copies that look alike: a sample places those the seat sees on the lowest ids, so its hidden copies are the
    # same in every sample, and maybe not the true state's)
    hidden = {ID[card] for card in CARTA.sample(view, 0).hidden_from(0)}
    # A Skill card of seat 1's colour hidden from seat 0: in seat 1's Skill deck with the deck's share of those
    # cards, else in its hand or the pile with theirs of the rest (the rest: that colour's hidden Skill cards out of
    # the deck, its hidden Special cards out of its Special deck).
    colour = state.colours[1]
    skills = [card for card in C.deck_cards(colour, C.SKILL) if card in hidden]
    specials = [card for card in C.deck_cards(colour, C.SPECIAL) if card in hidden]
    deck, special_deck, held = len(state.skill[1]), len(state.special[1]), len(state.hands[1])
    rest = len(skills) - deck + len(specials) - special_deck
    expected = {
        "skill deck": deck / len(skills),
        "skill in hand": (1 - deck / len(skills)) * held / rest,
        "special deck": special_deck / len(specials),
        "special in hand": (1 - special_deck / len(specials)) * held / rest,
    }
    luck = [card for card in state.luck[0][state.luck_known[0] :]]
    expected["goal on top"] = sum(C.KIND[card] == C.GOAL for card in luck) / len(luck)
    assert min(expected.values()) > 0 and max(expected.values()) < 1
    skill, special, runs = skills[0], specials[0], 4000
    counts: Counter[str] = Counter()
    for seed in range(runs):
        sample = CARTA.sample(view, seed)
        counts["skill deck"] += skill in sample.skill[1]
        counts["skill in hand"] += skill in sample.hands[1]
        counts["special deck"] += special in sample.special[1]
        counts["special in hand"] += special in sample.hands[1]
        counts["goal on top"] += C.KIND[sample.luck[0][-1]] == C.GOAL
    for what, share in expected.items():
        assert abs(counts[what] / runs - share) < 4 * math.sqrt(share * (1 - share) / runs), (what, share, counts)


def test_the_view_object_carries_the_cards_played_face_up_the_options_the_move_count_and_history_for_everyone() -> None:
    for state in positions()[::5]:
        played = tuple(C.FACE[card] for card in state.played)
        seen = {state.view(seat).seen for seat in [*range(state.seats), None]}
        history = tuple(state.history[-HISTORY:])
        assert seen == {CartaSeen(played, tuple(state.options.items()), state.version, history)}
        assert state.view(0).to_json()["played"] == len(state.played)
    view = positions()[-1].view(0)
    with pytest.raises(ValueError, match="CartaSeen"):
        CARTA.sample(CartaView(view.to_json()), 1)  # a view rebuilt from its JSON form lacks what the seat saw
