"""Game name -> game. The service reaches games only through this registry and the interface in :mod:`engine.core`."""

from __future__ import annotations

from collections.abc import Callable

from engine.age_of_soccer import AGE_OF_SOCCER
from engine.carta import CARTA
from engine.core import Game, InvalidOptions, TournamentRules, UnknownGame
from engine.soker import SOKER
from engine.soker.tournament import Tournament as SokerTournament

GAMES: dict[str, Game] = {game.spec.name: game for game in (SOKER, AGE_OF_SOCCER, CARTA)}
TOURNAMENTS: dict[str, Callable[[], TournamentRules]] = {SOKER.spec.name: SokerTournament}


def register(game: Game, tournament: Callable[[], TournamentRules] | None = None) -> None:
    """Host ``game`` (and its tournament, if it has one) in this process, beside the games above."""
    GAMES[game.spec.name] = game
    if tournament is not None:
        TOURNAMENTS[game.spec.name] = tournament


def get_game(name: str) -> Game:
    """The registered game called ``name``; raises :class:`UnknownGame` otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGame(f"no game {name!r} (known: {', '.join(sorted(GAMES))})") from None


def new_tournament(name: str, *, duplicate: bool = False) -> TournamentRules:
    """A new tournament of the game called ``name``; raises :class:`UnknownGame` when it has none. ``duplicate``: its
    deals played again with the seats rotated (InvalidOptions where the game's tournament cannot rotate its seats)."""
    get_game(name)
    try:
        make = TOURNAMENTS[name]
    except KeyError:
        raise UnknownGame(f"the game {name!r} has no tournament (games with one: {', '.join(TOURNAMENTS)})") from None
    if not duplicate:
        return make()
    try:
        return make(duplicate=True)  # type: ignore[call-arg]
    except TypeError:
        raise InvalidOptions(f"the {name} tournament cannot rotate its seats: it has no duplicate form") from None
