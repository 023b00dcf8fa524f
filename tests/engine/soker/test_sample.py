"""Soker's ``sample``: a whole table dealt from one seat's view, for the hard player's search.

The positions come from seeded games of random and normal (heuristic) players with 2, 3 and 4 seats, the clock
sometimes running out (the table's move), and from tables laid by hand for what those games seldom reach (a stalemate
counting down, the last card drawn).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from engine.core import Rng
from engine.registry import get_game
from engine.soker.cards import BIT, CODES, DECK_SIZE, JOKER_AS_CLUB, bits
from engine.soker.rules import DRAW_MOVE, END_MOVE, Reshuffled, Skipped, SokerState
from tests.engine.conformance import check_cards

SOKER = get_game("soker")


def positions(seats: int, seed: int, kind: str) -> Iterator[tuple[SokerState, list]]:
    """Every position of a seeded game of ``kind`` players (the clock runs out on one move in twenty), each with the
    events of the move that led to it."""
    state = SOKER.new_game(seats, None, seed)
    bots = [SOKER.new_bot(kind, seed + seat) for seat in range(seats)]
    chooser = random.Random(seed)
    events: list = []
    while state.to_act():
        yield state, events
        seat = state.to_act()[0]
        if chooser.random() < 0.05:
            events = state.apply(seat, state.timeout_move(seat), by_table=True)
        else:
            events = state.apply(seat, bots[seat].choose(state, seat))
    yield state, events


GAMES = [(seats, seed, kind) for seats in (2, 3, 4) for seed in range(5) for kind in ("random", "heuristic")]
GAMES += [(4, seed, "random") for seed in (3, 4, 5, 6)]  # (four random players reshuffle the discard pile most often)


def wires(state: SokerState, seat: int) -> set[str]:
    return {move.to_wire() for move in state.legal_moves(seat)}


def hidden_places(state: SokerState, seat: int) -> dict[str, list[str]]:
    """The places a seat cannot see into: the deck and the other hands."""
    return {place: cards for place, cards in state.locations().items() if place not in ("discard", f"hand:{seat}")}


def play_out(state: SokerState, seed: int) -> SokerState:
    bots = [SOKER.new_bot("random", seed + seat) for seat in range(state.seats)]
    while state.to_act():
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    return state


def check_sample(state: SokerState, seat: int, seed: int) -> SokerState:
    """Everything a sample must keep for ``seat``, checked against the true state; returns the sample."""
    view = state.view(seat)
    sample = SOKER.sample(view, seed)
    assert sample.view(seat) == view and sample.view(seat).to_json() == view.to_json()
    check_cards(SOKER, sample)
    assert sample.to_act() == state.to_act() and sample.outcome() == state.outcome()
    assert wires(sample, seat) == wires(state, seat)
    # Only the hidden cards moved, and only among the hidden places, with the sizes the true table has.
    places, true_places = sample.locations(), state.locations()
    assert places["discard"] == true_places["discard"] and places[f"hand:{seat}"] == true_places[f"hand:{seat}"]
    hidden = hidden_places(sample, seat)
    assert {card for cards in hidden.values() for card in cards} == state.hidden_from(seat)
    assert {place: len(cards) for place, cards in hidden.items()} == {
        place: len(cards) for place, cards in hidden_places(state, seat).items()
    }
    # What no card shows stands as it does on the true table.
    facts = ("top", "current", "drawn", "played", "idle_turns", "idle_start", "result", "version", "seats")
    data, true_data = sample.to_json(), state.to_json()
    assert {key: data[key] for key in facts} == {key: true_data[key] for key in facts}
    return sample


def test_a_sample_keeps_the_view_the_moves_and_every_card_of_every_position() -> None:
    seen: Counter[str] = Counter()
    for seats, seed, kind in GAMES:
        for index, (state, events) in enumerate(positions(seats, seed, kind)):
            seen["positions"] += 1
            seen["drawn"] += state.drawn
            seen["joker on top"] += state.top >= JOKER_AS_CLUB
            seen["over"] += state.outcome() is not None
            seen["after a reshuffle"] += any(type(event) is Reshuffled for event in events)
            seen["a free turn"] += any(type(event) is Skipped and event.cause != "link" for event in events)
            seen["a link"] += any(type(event) is Skipped and event.cause == "link" for event in events)
            for seat in range(seats):
                sample = check_sample(state, seat, seed * 1_000 + index * 10 + seat)
                if index % 7 == seat:
                    # It plays on to the end, and so does its copy through JSON.
                    copy = SOKER.state_from_json(sample.to_json())
                    assert copy.to_json() == sample.to_json()
                    assert play_out(sample, index).outcome() is not None
                    assert play_out(copy, index).to_json() == sample.to_json()
    assert min(seen.values()) > 0, seen


def full_table(seats: int, seed: int) -> SokerState:
    """A dealt game whose deck has gone into the hands: nothing left to draw (the stalemate's positions)."""
    state = SOKER.new_game(seats, None, seed)
    for index, card in enumerate(state.deck):
        state.hands[index % seats] |= BIT[card]
    state.deck = []
    state.idle_start = not state.can_draw()
    return state


@pytest.mark.parametrize("seats", [2, 4])
def test_a_sample_counts_a_stalemate_down_as_the_table_does(seats: int) -> None:
    state = full_table(seats, 40 + seats)
    state.idle_turns = 2 * seats - 3  # three more idle turns end the game
    sample = check_sample(state, 1, 5)
    for _ in range(3):
        for table in (state, sample):
            seat = table.current
            table.apply(seat, DRAW_MOVE)
            table.apply(seat, END_MOVE)
        assert sample.to_json()["idle_turns"] == state.idle_turns
        assert sample.outcome() == state.outcome()
    assert state.outcome() is not None and state.outcome().reason == "stalemate"


def test_a_sample_knows_the_turn_that_drew_the_last_card_does_not_count_towards_a_stalemate() -> None:
    state = full_table(2, 3)
    last = bits(state.hands[1])[0]
    state.hands[1] ^= BIT[last]
    state.deck = [last]
    state.idle_turns = 3  # one more idle turn would end the game
    state.idle_start = False
    state.apply(0, DRAW_MOVE)  # the last card: the turn began with a card to draw
    view = state.view(1)
    assert (view.deck_size, view.discard_size, view.drawn, view.idle_start) == (0, 1, True, False)
    sample = check_sample(state, 1, 8)
    for table in (state, sample):
        table.apply(0, END_MOVE)
    assert state.outcome() is None and sample.outcome() is None
    assert sample.to_json()["idle_turns"] == state.idle_turns == 0


def mid_game(seats: int, seed: int) -> SokerState:
    """The position halfway through a seeded game of normal players."""
    tables = [SOKER.state_from_json(state.to_json()) for state, _ in positions(seats, seed, "heuristic")]
    return tables[len(tables) // 2]


def test_a_sample_reads_only_the_view() -> None:
    for seats in (2, 4):
        state = mid_game(seats, 9)
        for seat in range(seats):
            view = state.view(seat)
            assert SOKER.sample(view, 77).to_json() == SOKER.sample(view, 77).to_json()
            # Another true table with this view: dealt by the sample itself, and one with hidden cards swapped by hand.
            other = SOKER.sample(view, 5)
            swapped = SOKER.state_from_json(state.to_json())
            opponent = (seat + 1) % seats
            mine, theirs = bits(swapped.hands[opponent])[0], swapped.deck[0]
            swapped.hands[opponent] ^= BIT[mine] | BIT[theirs]
            swapped.deck[0] = mine
            for table in (other, swapped):
                assert table.view(seat) == view and table.to_json() != state.to_json()
                assert SOKER.sample(table.view(seat), 77).to_json() == SOKER.sample(view, 77).to_json()
            # Different seeds deal the hidden cards differently.
            arrangements = {str(hidden_places(SOKER.sample(view, k), seat)) for k in range(20)}
            assert len(arrangements) == 20


def test_a_sample_deals_the_hidden_cards_uniformly() -> None:
    state = mid_game(4, 2)
    seat = 2
    view = state.view(seat)
    hidden = sorted(state.hidden_from(seat))
    places = hidden_places(state, seat)
    sizes = {place: len(cards) for place, cards in places.items()}
    runs = 3_000
    where: Counter[tuple[str, str]] = Counter()
    next_draw: Counter[str] = Counter()
    for k in range(runs):
        sample = SOKER.sample(view, k)
        for place, cards in hidden_places(sample, seat).items():
            where.update((card, place) for card in cards)
        next_draw[CODES[sample.deck[-1]]] += 1
    for card in hidden:
        for place, size in sizes.items():
            expected = runs * size / len(hidden)
            assert abs(where[card, place] - expected) < 5 * (expected * (1 - size / len(hidden))) ** 0.5 + 1
    # The deck's order too: each hidden card is the next one drawn about equally often.
    expected = runs / len(hidden)
    assert all(abs(next_draw[card] - expected) < 5 * expected**0.5 for card in hidden)
    assert len(hidden) == DECK_SIZE - len(view.hand or ()) - view.discard_size


def test_the_game_rng_is_dealt_from_the_seed_and_a_spectator_view_is_refused() -> None:
    state = mid_game(2, 4)
    view = state.view(0)
    assert SOKER.sample(view, 1).to_json()["rng"] != SOKER.sample(view, 2).to_json()["rng"]
    assert SOKER.sample(view, 1).to_json()["rng"] != Rng(1).to_json()
    with pytest.raises(ValueError):
        SOKER.sample(state.view(None), 1)
