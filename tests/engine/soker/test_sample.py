"""Soker's ``sample``: a whole table dealt from one seat's view, for the hard player's search."""

from __future__ import annotations

from collections import Counter

from engine.registry import get_game

SOKER = get_game("soker")


def positions(seats: int, seed: int):
    """Every position of a seeded game of random players."""
    state = SOKER.new_game(seats, None, seed)
    bots = [SOKER.new_bot("random", seed + seat) for seat in range(seats)]
    while state.to_act():
        yield state
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    yield state


def test_a_sample_shows_its_seat_the_same_view_the_same_moves_and_holds_every_card_once() -> None:
    for seats in (2, 3, 4):
        for seed in range(6):
            for state in positions(seats, seed):
                every = Counter(card for cards in state.locations().values() for card in cards)
                for seat in range(seats):
                    view = state.view(seat)
                    sample = SOKER.sample(view, seed * 31 + seat)
                    assert sample.view(seat) == view
                    assert Counter(card for cards in sample.locations().values() for card in cards) == every
                    assert sample.to_act() == state.to_act() and sample.outcome() == state.outcome()
                    assert {m.to_wire() for m in sample.legal_moves(seat)} == {
                        m.to_wire() for m in state.legal_moves(seat)
                    }
                    # Only what the seat cannot see moved: its hand and the top card stay where they are.
                    assert sample.locations()[f"hand:{seat}"] == state.locations()[f"hand:{seat}"]
                    assert sample.discard[-1] == state.discard[-1]


def test_a_sample_reads_only_the_view_and_plays_on_to_the_end() -> None:
    state = next(s for i, s in enumerate(positions(4, 9)) if i == 6)
    view = state.view(1)
    other = SOKER.sample(view, 5)  # another table with the same view for seat 1
    assert other.view(1) == view and other.to_json() != state.to_json()
    assert SOKER.sample(view, 77).to_json() == SOKER.sample(other.view(1), 77).to_json()
    assert SOKER.sample(view, 77).to_json() != SOKER.sample(view, 78).to_json()
    sample = SOKER.state_from_json(SOKER.sample(view, 3).to_json())
    bots = [SOKER.new_bot("random", seat) for seat in range(4)]
    while sample.to_act():
        seat = sample.to_act()[0]
        sample.apply(seat, bots[seat].choose(sample, seat))
    assert sample.outcome() is not None
