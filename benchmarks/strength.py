"""`kickoff bench bots --duplicate`: one level against another on duplicate deals.

Each deal is played once for every side the bot can take (every seat of a game of single seats, every team of a team
game), with the same cards, so the luck of the deal cancels. Games run in parallel worker processes, one core each, so
a search's think time is a core's. The report gives the bot's win rate with a 95% Wilson interval (for a game played
by teams, Carta Fútbol Club, of the matches not drawn, one against one too), the decisions' p50 and p99 time and the
iterations a decision of a searching bot (decisions with one legal move are not searched and not counted)."""

from __future__ import annotations

import math
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from engine.registry import get_game
from engine.search import SearchBot

__all__ = ["StrengthFigures", "bench_strength", "strength_report", "wilson"]


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class StrengthFigures:
    game: str
    bot: str
    opponent: str
    seats: int
    deals: int
    games: int
    wins: int
    draws: int
    teams: bool
    seconds: float | None
    iterations: int | None
    decision_seconds: tuple[float, ...]
    decision_iterations: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        decided = self.games - self.draws if self.teams else self.games
        low, high = wilson(self.wins, decided)
        times = sorted(self.decision_seconds)
        counts = sorted(self.decision_iterations)

        def pick(values: list[Any], q: float) -> Any:
            return values[min(len(values) - 1, int(q * len(values)))] if values else None

        return {
            "game": self.game,
            "bot": self.bot,
            "opponent": self.opponent,
            "seats": self.seats,
            "deals": self.deals,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "decided": decided,
            "win_rate": round(self.wins / decided, 4) if decided else None,
            "interval_95": [round(low, 4), round(high, 4)],
            "of": "matches not drawn" if self.teams else "games",
            "think_seconds": self.seconds,
            "fixed_iterations": self.iterations,
            "decisions": len(times),
            "decision_p50_ms": round(pick(times, 0.5) * 1000, 1) if times else None,
            "decision_p99_ms": round(pick(times, 0.99) * 1000, 1) if times else None,
            "iterations_p50": pick(counts, 0.5),
            "iterations_p1": pick(counts, 0.01),
        }


def _one(
    task: tuple[str, int, int, int, str, str, float | None, int | None],
) -> tuple[int, int, list[float], list[int]]:
    """One game of a deal with the bot on one side: (won, drawn, its searched decisions' seconds and iterations)."""
    name, seats, deal, hero, bot, opponent, seconds, iterations = task
    game = get_game(name)
    state = game.new_game(seats, None, deal)
    teams = [state.team_of(seat) for seat in range(seats)]
    players = []
    for seat in range(seats):
        level = bot if teams[seat] == hero else opponent
        player = game.new_bot(level, deal * 16 + seat)
        if isinstance(player, SearchBot):
            player.clock = time.perf_counter
            player.iterations = iterations
            if seconds is not None:
                player.seconds = seconds
        players.append(player)
    times: list[float] = []
    counts: list[int] = []
    while state.to_act():
        seat = state.to_act()[0]
        player = players[seat]
        move = player.choose(state, seat)
        last = getattr(player, "last", None)
        if last is not None and last.iterations:
            times.append(last.seconds)
            counts.append(last.iterations)
        state.apply(seat, move)
    outcome = state.outcome()
    assert outcome is not None
    winning, _ = outcome.for_teams(teams)
    return int(hero in winning), int(not winning), times, counts


def bench_strength(
    name: str,
    deals: int,
    bot: str = "hard",
    opponent: str = "normal",
    seats: int = 2,
    seed: int = 0,
    seconds: float | None = 1.0,
    iterations: int | None = None,
    workers: int = 2,
) -> StrengthFigures:
    """``bot`` against ``opponent`` on ``deals`` duplicate deals at ``seats`` seats (see the module docstring)."""
    game = get_game(name)
    options = game.spec.resolve(seats, None)
    teams = game.teams(seats, options)
    sides = sorted(set(teams))
    # A game played by teams at some table size (Carta: two against two) counts its matches not drawn at every size,
    # one against one too: a side is a team of one.
    team_game = any(
        len(set(game.teams(count, game.spec.resolve(count, None)))) < count for count in game.spec.seat_counts
    )
    tasks = [
        (name, seats, seed + deal, hero, bot, opponent, seconds, iterations) for deal in range(deals) for hero in sides
    ]
    wins = draws = 0
    times: list[float] = []
    counts: list[int] = []
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        for won, drawn, spent, done in pool.map(_one, tasks):
            wins += won
            draws += drawn
            times += spent
            counts += done
    return StrengthFigures(
        name,
        bot,
        opponent,
        seats,
        deals,
        len(tasks),
        wins,
        draws,
        team_game,
        seconds,
        iterations,
        tuple(times),
        tuple(counts),
    )


def strength_report(figures: StrengthFigures) -> str:
    data = figures.to_json()
    low, high = data["interval_95"]
    side = "a team of" if figures.teams else "one"
    against = f"a team of {figures.opponent}" if figures.teams else f"{figures.seats - 1} {figures.opponent}"
    budget = f"{figures.iterations} iterations" if figures.iterations else f"{figures.seconds:g} s"
    text = (
        f"{figures.game}, {figures.seats} seats: {side} {figures.bot} against {against} over {figures.deals} duplicate "
        f"deals ({figures.games} games, {budget} a decision): won {figures.wins} of {data['decided']} {data['of']} "
        f"({data['win_rate'] or 0:.1%}, 95% interval {low:.1%}-{high:.1%}; {figures.draws} drawn)"
    )
    if data["decisions"]:
        text += (
            f"; {data['decisions']} searched decisions, p50 {data['decision_p50_ms']} ms, p99 "
            f"{data['decision_p99_ms']} ms, {data['iterations_p50']} iterations at p50"
        )
    return text
