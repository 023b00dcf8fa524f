"""The 8-game tournament's pure logic: who starts each game, and the standings.

The same four players play eight games. The first player rotates - game ``i`` (0-based) starts with seat ``i % 4`` - so
each seat starts exactly twice. Points are summed over the games (1 per card discarded, +3 for an empty-hand win, +7 for
a country win). Standings order by total points, then games won, then country wins; seats equal on all three share the
place (the next place is skipped, as in 1, 1, 3, 4).

Questions the rulebook leaves open, settled here (and kept by the tournament service):

- Seat numbers stay the same in all eight games; only who starts rotates. Seats equal on all three keys are listed in
  seat order within their shared place.
- A game that ends in a stalemate is one of the eight: its discards score, nobody wins, and the rotation goes on.
- The rotation is the tournament's: a tournament's games cannot be given another ``first_seat``.
- The rulebook's "at least one seat belongs to a person" is about rooms a person creates to play. A tournament may be
  four system players (an exhibition to watch); its rooms then start without anyone joining.
- Nobody leaves a tournament once its first game has started: an absent person's turns are played by the clock (online)
  or wait for them (solo), as in any room.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import core
from engine.core import InvalidOptions, Outcome
from engine.soker.rules import WIN_ONE_COUNTRY

PLAYERS = 4
GAMES = 8


def first_seat(game_index: int, players: int = PLAYERS) -> int:
    """The seat that starts game ``game_index`` (0-based)."""
    return game_index % players


@dataclass(frozen=True)
class Standing(core.Standing):
    """One seat's line in the table; its one tally is its country wins."""

    @property
    def country_wins(self) -> int:
        return dict(self.tallies).get("country_wins", 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "seat": self.seat,
            "points": self.points,
            "games_won": self.games_won,
            "country_wins": self.country_wins,
        }


def standings(results: Sequence[Outcome], players: int = PLAYERS) -> list[Standing]:
    """The table after ``results`` (finished games, in order), best first."""
    points = [0] * players
    wins = [0] * players
    country = [0] * players
    for outcome in results:
        if len(outcome.points) != players:
            raise ValueError(f"a game of {len(outcome.points)} seats in a tournament of {players}")
        for seat, p in enumerate(outcome.points):
            points[seat] += p
        for seat in outcome.winners:
            wins[seat] += 1
            if outcome.reason == WIN_ONE_COUNTRY:
                country[seat] += 1
    key = {seat: (points[seat], wins[seat], country[seat]) for seat in range(players)}
    order = sorted(range(players), key=lambda seat: (tuple(-v for v in key[seat]), seat))
    table: list[Standing] = []
    for rank, seat in enumerate(order):
        place = table[-1].place if table and key[table[-1].seat] == key[seat] else rank + 1
        table.append(Standing(place, seat, points[seat], wins[seat], (("country_wins", country[seat]),)))
    return table


@dataclass
class Tournament:
    """An 8-game tournament in progress: record each finished game, ask who starts the next, read the standings."""

    players: int = PLAYERS
    games: int = GAMES
    results: list[Outcome] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.players < 2 or self.games < 1:
            raise InvalidOptions("a tournament needs at least 2 players and 1 game")

    @property
    def finished(self) -> bool:
        return len(self.results) >= self.games

    def first_seat(self, index: int) -> int:
        return first_seat(index, self.players)

    def next_first_seat(self) -> int:
        if self.finished:
            raise InvalidOptions("the tournament is over")
        return first_seat(len(self.results), self.players)

    def next_options(self) -> dict[str, Any]:
        """The Soker options for the next game."""
        return {"first_seat": self.next_first_seat()}

    def record(self, outcome: Outcome) -> None:
        if self.finished:
            raise InvalidOptions("the tournament is over: no more games to record")
        if len(outcome.points) != self.players:
            raise InvalidOptions(f"a game of {len(outcome.points)} seats in a tournament of {self.players}")
        self.results.append(outcome)

    def standings(self) -> list[Standing]:
        return standings(self.results, self.players)

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "games": self.games, "results": [r.to_json() for r in self.results]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tournament:
        return cls(data["players"], data["games"], [Outcome.from_json(r) for r in data["results"]])
