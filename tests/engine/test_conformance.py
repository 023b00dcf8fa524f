"""Seeded random playouts of every registered game (see conformance.py for what is checked at each step)."""

from __future__ import annotations

import pytest

from engine.registry import GAMES
from tests.engine.conformance import play_checked

GAMES_PER_CHUNK = 250
CHUNKS = 8  # 2,000 games per game, spread across test workers


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_playouts_keep_every_invariant(name: str, chunk: int) -> None:
    game = GAMES[name]
    spec = game.spec
    reasons = set()
    for index in range(GAMES_PER_CHUNK):
        seed = chunk * GAMES_PER_CHUNK + index
        seats = spec.seat_counts[seed % len(spec.seat_counts)]
        state = play_checked(game, seats, seed)
        reasons.add(state.outcome().reason)
    assert reasons, "no game finished"
