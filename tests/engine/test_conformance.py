"""Seeded random playouts of every registered game (see conformance.py for what is checked at each step)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.registry import GAMES
from tests.engine.conformance import play_checked

GAMES_PER_CHUNK = 250
CHUNKS = 8  # 2,000 games per game, spread across test workers
# Options per game and seed. Age of Soccer's random play can go on for thousands of moves at seven seats: its turn
# limit (2-6 full rounds) ends every game, and some still end by shields.
# Carta Fútbol Club runs with extra time and penalties on and off.
OPTIONS: dict[str, Callable[[int], dict[str, Any]]] = {
    "age-of-soccer": lambda seed: {"max_rounds": 2 + seed % 5},
    "carta-futbol-club": lambda seed: {"extra_time": seed % 4 < 2, "penalties": seed % 2 == 0},
}


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_playouts_keep_every_invariant(name: str, chunk: int) -> None:
    game = GAMES[name]
    spec = game.spec
    options = OPTIONS.get(name, lambda seed: None)
    reasons = set()
    for index in range(GAMES_PER_CHUNK):
        seed = chunk * GAMES_PER_CHUNK + index
        seats = spec.seat_counts[seed % len(spec.seat_counts)]
        state = play_checked(game, seats, seed, options(seed))
        reasons.add(state.outcome().reason)
    assert reasons, "no game finished"
