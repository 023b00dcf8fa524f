"""Beliefs about hidden cards: a weighted determinisation for the hard player's search (engine/search.py).

The plain search deals every hidden card uniformly (``Game.sample``). With beliefs on, each uniform deal is weighed by
how likely the other seats' public moves were had they held the cards that deal gives them (the game's model, below),
and kept with that probability (rejection sampling), up to ``candidates`` deals; where none is kept, one of them is
picked by weight (importance resampling). Where every weight vanishes the first is taken, and where the game cannot
tell (its model gives no weigher for a view) the search samples as without beliefs: uniform deals.

A game's model of a seat is its ``normal`` player, softened: the move the normal player would make with probability
``1 - SOFTNESS + SOFTNESS / n``, any other of the ``n`` legal moves ``SOFTNESS / n``. ``SOFTNESS`` is 0.1. The normal
player is deterministic, so against it a smaller value would be exact; but people, ``easy`` players (a random move one
time in three) and other searching players do not follow it, and a deal that only a model taken at its word rules out
must keep some weight: with 0.1, one move against the model costs a deal about a factor of ten to twenty, not all of it.

Reads only the view: the weigher is built from the seat's view (its public history of moves included) and applied to
deals sampled from that view, so two tables with the same view give the same deals for the same seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import GameState, Rng

__all__ = ["CANDIDATES", "SOFTNESS", "Weigher", "weighted_sample"]

SOFTNESS = 0.1  # the share of a seat's moves the model lets be any legal move (see the module docstring)
CANDIDATES = 8  # the most uniform deals weighed for each deal the search plays
Weigher = Callable[[GameState], float]  # a deal's likelihood of the public moves, between 0 and 1


def weighted_sample(
    sample: Callable[[Any, int], GameState],
    weigh: Weigher,
    view: Any,
    seed: int,
    candidates: int = CANDIDATES,
) -> GameState:
    """One deal ``view`` could have come from, drawn by weight: uniform deals (``sample``) one at a time, each kept
    with probability its weight (a likelihood, at most 1: rejection sampling, exact where a deal is kept), at most
    ``candidates`` of them; where none is kept, one of those dealt picked in proportion to its weight, and where every
    weight is 0 the first (a uniform deal). A deal the moves tell nothing against (weight 1) is kept at once, so
    beliefs cost a sample's time only where the moves are informative. Deterministic for a seed."""
    rng = Rng(seed)
    states = []
    weights = []
    total = 0.0
    for _ in range(max(1, candidates)):
        state = sample(view, rng.next_u64() >> 2)
        weight = weigh(state)
        if rng.next_u64() / 2.0**64 < weight:
            return state
        states.append(state)
        weights.append(weight)
        total += weight
    if not total > 0.0:  # (0, or not a number: no deal is more likely than another)
        return states[0]
    left = rng.next_u64() / 2.0**64 * total
    for state, weight in zip(states, weights, strict=True):
        left -= weight
        if left < 0.0:
            return state
    return states[-1]
