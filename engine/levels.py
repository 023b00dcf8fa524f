"""System players' levels, the same four for every game: ``random``, ``easy``, ``normal`` and ``hard``.

* ``random`` picks uniformly among the legal moves.
* ``easy`` plays ``normal``'s move, but one move in three (drawn from its seed) a random legal move instead: a beginner
  who knows what to do and sometimes does not see it.
* ``normal`` is the game's heuristic player (``heuristic`` is its older name, still taken).
* ``hard`` searches (:mod:`engine.search`): information-set Monte Carlo tree search over the seat's view, with
  ``normal`` playing the playouts, for about a second a decision (the service keeps it inside the seat's clock).

A game gives its ``random`` and ``heuristic`` bots and its :class:`~engine.search.SearchSettings`; :func:`with_levels`
adds the rest.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Bot, Game, GameState
from engine.search import SearchBot, SearchSettings

__all__ = ["ALIASES", "EASY_MISTAKES", "LEVELS", "EasyBot", "levels_of", "with_levels"]

LEVELS = ("random", "easy", "normal", "hard")
ALIASES = {"heuristic": "normal"}  # older names, still accepted
EASY_MISTAKES = 1 / 3  # the share of easy's moves that are random


class EasyBot:
    """``normal``'s move, or a random legal move ``mistakes`` of the time. Seeded."""

    def __init__(self, normal: Bot, seed: int = 0, mistakes: float = EASY_MISTAKES) -> None:
        self.normal = normal
        self.mistakes = mistakes
        self._random = random.Random(seed ^ 0xEA5)

    def choose(self, state: GameState, seat: int) -> Any:
        if self._random.random() < self.mistakes:
            moves = state.legal_moves(seat)
            return moves[self._random.randrange(len(moves))]
        return self.normal.choose(state, seat)


def with_levels(game: Game, settings: SearchSettings) -> Game:
    """``game`` with the four levels as its bots (and the aliases), built from its ``random`` and ``heuristic``;
    ``hard`` only where the game can sample a table from a view (``Game.sample``)."""
    bots: dict[str, Callable[[int], Bot]] = dict(game.bots)
    heuristic = bots["heuristic"]
    bots["normal"] = heuristic
    bots["easy"] = lambda seed: EasyBot(heuristic(seed), seed)
    policies: Mapping[str, Callable[[int], Bot]] = bots
    if type(game).sample is not Game.sample:  # (a game that cannot deal a table from a view cannot search)
        bots["hard"] = lambda seed: SearchBot(game.sample, policies, seed, settings)
    game.bots = {name: bots[name] for name in (*LEVELS, *ALIASES) if name in bots}
    game.search = settings  # type: ignore[attr-defined]
    return game


def levels_of(game: Game) -> tuple[str, ...]:
    """The levels ``game`` offers, weakest first (its bots' names without the older aliases)."""
    return tuple(name for name in game.bots if name not in ALIASES)
