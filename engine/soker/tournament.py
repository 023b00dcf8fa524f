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

**A duplicate tournament** (``Tournament(duplicate=True)``) plays 2 deals 4 times each, the seats rotated, so that luck
cancels out and the points measure play: game ``g`` is deal ``g // 4`` in rotation ``g % 4``, and in rotation ``r``
the player who holds tournament seat ``k`` sits at table seat ``(k + r) % 4`` (:func:`table_seat`). Each player so
plays each table seat's hand of each deal once. The rooms' outcomes are in table seats; the standings map each
table seat's points back to the player who sat there (:func:`to_players`), and :func:`comparison` lines up, for each
deal and table seat, who played that hand and what they scored with it. Questions this settles:

- Who starts a deal stays with the table seat in all its rotations (the hands and the turn order are the deal; only
  the players move): deal ``d`` starts with table seat ``d`` (:func:`deal_first_seat`). Two deals cannot let every
  table seat start, but the rulebook's "each seat starts exactly twice" is kept for the players: in a deal's four
  rotations the starting table seat is held by each player once, so every player starts twice in eight games.
- Seat numbers are the tournament's (its players' seats, as in the standings); a game's room numbers its seats as
  table seats, and :func:`table_seat` maps one to the other. ``first_seat(g)`` is the table seat that starts game g.
- A stalemate is one of the rotations as in any tournament; its discards compare like any points.
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
DEALS = 2  # a duplicate tournament's deals, each played once per rotation (DEALS * PLAYERS == GAMES)


def first_seat(game_index: int, players: int = PLAYERS) -> int:
    """The seat that starts game ``game_index`` (0-based)."""
    return game_index % players


def deal_of(game_index: int, players: int = PLAYERS) -> int:
    """A duplicate tournament's game ``game_index``: the deal it plays."""
    return game_index // players


def rotation_of(game_index: int, players: int = PLAYERS) -> int:
    """A duplicate tournament's game ``game_index``: its rotation (0 to players - 1)."""
    return game_index % players


def table_seat(seat: int, game_index: int, players: int = PLAYERS) -> int:
    """The table seat tournament seat ``seat`` plays in a duplicate tournament's game ``game_index``."""
    return (seat + rotation_of(game_index, players)) % players


def seat_at(table: int, game_index: int, players: int = PLAYERS) -> int:
    """The tournament seat that plays table seat ``table`` in a duplicate tournament's game ``game_index``."""
    return (table - rotation_of(game_index, players)) % players


def deal_first_seat(deal: int, players: int = PLAYERS) -> int:
    """The table seat that starts deal ``deal`` in every one of its rotations."""
    return deal % players


def to_players(outcome: Outcome, game_index: int, players: int = PLAYERS) -> Outcome:
    """A duplicate tournament's game outcome (in table seats) in tournament seats: each player's points are those of
    the table seat they played, and a winning table seat's player won."""
    points = tuple(outcome.points[table_seat(seat, game_index, players)] for seat in range(players))
    winners = tuple(sorted(seat_at(table, game_index, players) for table in outcome.winners))
    return Outcome(winners, outcome.reason, points)


@dataclass(frozen=True)
class Play:
    """One hand of a deal as one player played it: the tournament seat, the game (its index) and the points."""

    seat: int
    game: int
    points: int
    won: bool


@dataclass(frozen=True)
class HandComparison:
    """One table seat's hand of one deal, and each player who has played it so far (in rotation order)."""

    deal: int
    table_seat: int
    plays: tuple[Play, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "table_seat": self.table_seat,
            "plays": [{"seat": p.seat, "game": p.game, "points": p.points, "won": p.won} for p in self.plays],
        }


def comparison(results: Sequence[Outcome], players: int = PLAYERS) -> list[HandComparison]:
    """For each deal begun and each table seat: who played that hand and what they scored with it, game by game
    (``results``: a duplicate tournament's finished games in order, their outcomes in table seats)."""
    deals = (len(results) + players - 1) // players
    table: list[HandComparison] = []
    for deal in range(deals):
        for seat in range(players):
            plays = tuple(
                Play(seat_at(seat, game, players), game, results[game].points[seat], seat in results[game].winners)
                for game in range(deal * players, min(len(results), (deal + 1) * players))
            )
            table.append(HandComparison(deal, seat, plays))
    return table


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
    """An 8-game tournament in progress: record each finished game, ask who starts the next, read the standings.
    ``duplicate``: the same deals played again with the seats rotated (see the module docstring); ``results`` are
    then the rooms' outcomes, in table seats."""

    players: int = PLAYERS
    games: int = GAMES
    results: list[Outcome] = field(default_factory=list)
    duplicate: bool = False

    def __post_init__(self) -> None:
        if self.players < 2 or self.games < 1:
            raise InvalidOptions("a tournament needs at least 2 players and 1 game")
        if self.duplicate and self.games % self.players:
            raise InvalidOptions("a duplicate tournament plays each deal once per rotation: games must be a multiple")

    @property
    def deals(self) -> int:
        """How many deals a duplicate tournament plays (0 for an ordinary one)."""
        return self.games // self.players if self.duplicate else 0

    def table_seat(self, seat: int, index: int) -> int:
        """The table seat (the room's seat) tournament seat ``seat`` plays in game ``index``."""
        return table_seat(seat, index, self.players) if self.duplicate else seat

    def comparison(self) -> list[HandComparison]:
        """Each deal's hands and who played them (a duplicate tournament; [] for an ordinary one)."""
        return comparison(self.results, self.players) if self.duplicate else []

    @property
    def finished(self) -> bool:
        return len(self.results) >= self.games

    def first_seat(self, index: int) -> int:
        """The table seat that starts game ``index`` (a duplicate tournament: its deal's, in every rotation)."""
        if self.duplicate:
            return deal_first_seat(deal_of(index, self.players), self.players)
        return first_seat(index, self.players)

    def next_first_seat(self) -> int:
        if self.finished:
            raise InvalidOptions("the tournament is over")
        return self.first_seat(len(self.results))

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
        """The table by player (a duplicate tournament's points mapped from the table seats each player played)."""
        if self.duplicate:
            return standings([to_players(o, g, self.players) for g, o in enumerate(self.results)], self.players)
        return standings(self.results, self.players)

    def to_json(self) -> dict[str, Any]:
        data = {"players": self.players, "games": self.games, "results": [r.to_json() for r in self.results]}
        return {**data, "duplicate": True} if self.duplicate else data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tournament:
        results = [Outcome.from_json(r) for r in data["results"]]
        return cls(data["players"], data["games"], results, bool(data.get("duplicate")))
