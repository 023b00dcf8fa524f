"""Game name -> game. The service reaches games only through this registry and the interface in :mod:`engine.core`."""

from __future__ import annotations

from engine.core import Game, UnknownGame
from engine.soker import SOKER

GAMES: dict[str, Game] = {SOKER.spec.name: SOKER}


def get_game(name: str) -> Game:
    """The registered game called ``name``; raises :class:`UnknownGame` otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGame(f"no game {name!r} (known: {', '.join(sorted(GAMES))})") from None
