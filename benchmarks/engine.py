"""`kickoff bench engine` and `kickoff bench bots`: random games in one process, and a system player's win rate."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from engine.core import play_out
from engine.registry import get_game


@dataclass(frozen=True)
class EngineFigures:
    """Games and moves per second of the median round (robust to other load on a shared machine), mean moves overall;
    with a baseline game, the same for it, from rounds alternating with this game's, and the ratio of the medians."""

    games: int
    moves: int
    round_rates: tuple[tuple[float, float], ...]  # (games/s, moves/s) of each round
    baseline: EngineFigures | None = None
    baseline_game: str = ""

    def to_json(self) -> dict[str, object]:
        games_per_s, moves_per_s = sorted(self.round_rates, key=lambda rates: rates[1])[len(self.round_rates) // 2]
        figures: dict[str, object] = {
            "games_per_s": round(games_per_s, 1),
            "moves_per_s": round(moves_per_s, 1),
            "mean_moves": round(self.moves / self.games, 2),
        }
        if self.baseline is not None:
            base = self.baseline.to_json()
            figures["baseline"] = {"game": self.baseline_game, **base}
            figures["ratio"] = round(moves_per_s / float(base["moves_per_s"]), 3)  # type: ignore[arg-type]
        return figures


class _Player:
    """Random games of one game, a round at a time, from consecutive seeds."""

    def __init__(self, game_name: str, seats: int, seed: int) -> None:
        self.game = get_game(game_name)
        self.seats = seats
        self.choosers = [self.game.new_bot("random", seed * 16 + seat).choose for seat in range(seats)]
        self.next_seed = seed
        self.moves = 0
        self.rates: list[tuple[float, float]] = []

    def round(self, games: int) -> None:
        new_game, seats, choosers = self.game.new_game, self.seats, self.choosers
        moves = 0
        start = time.perf_counter()
        for seed in range(self.next_seed, self.next_seed + games):
            state = new_game(seats, None, seed)
            apply = state.apply
            to_act = state.to_act
            while acting := to_act():
                seat = acting[0]
                apply(seat, choosers[seat](state, seat))
                moves += 1
        elapsed = time.perf_counter() - start
        self.next_seed += games
        self.rates.append((games / elapsed, moves / elapsed))
        self.moves += moves


def bench_engine(
    game_name: str, games: int, seats: int = 4, seed: int = 0, rounds: int = 5, baseline: str = ""
) -> EngineFigures:
    """Play ``games`` games between random bots in this process, in ``rounds`` rounds; every applied move counts.
    With ``baseline`` (another game's name), a round of it (the same number of games) follows each round, so that both
    games see the same machine."""
    player = _Player(game_name, seats, seed)
    base = _Player(baseline, seats, seed) if baseline else None
    rounds = max(1, min(rounds, games))
    for round_index in range(rounds):
        round_games = games // rounds + (round_index < games % rounds)
        player.round(round_games)
        if base is not None:
            base.round(round_games)
    base_figures = EngineFigures(games, base.moves, tuple(base.rates)) if base is not None else None
    return EngineFigures(games, player.moves, tuple(player.rates), base_figures, baseline)


@dataclass(frozen=True)
class BotFigures:
    bot: str
    opponent: str
    games: int
    wins: int
    draws: int
    by_seats: tuple[tuple[int, int, int], ...] = ()  # (seats, games, wins) for each table size played
    teams: bool = False  # whether the bot played as a whole team (a team game)

    def to_json(self) -> dict[str, object]:
        figures: dict[str, object] = {
            "bot": self.bot,
            "opponent": self.opponent,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 4),
            "no_winner": self.draws,
        }
        if len(self.by_seats) > 1:
            figures["by_seats"] = {
                str(seats): round(wins / played, 4) for seats, played, wins in self.by_seats if played
            }
        return figures


def bench_bots(
    game_name: str,
    games: int,
    bot: str = "normal",
    opponent: str = "random",
    seats: int | tuple[int, ...] = 4,
    seed: int = 0,
) -> BotFigures:
    """``bot`` against ``opponent`` over seeded games, the table sizes taken in turn. In a game of single seats the bot
    takes one seat and sits in every seat in turn; in a team game it plays a whole team (every seat of it) and the
    teams take turns; a game it did not win (a draw included) counts as lost."""
    game = get_game(game_name)
    counts = (seats,) if isinstance(seats, int) else tuple(seats)
    wins = draws = 0
    tally = {count: [0, 0] for count in counts}
    team_game = False
    for index in range(games):
        size = counts[index % len(counts)]
        teams = game.teams(size, game.spec.resolve(size, None))
        sides = sorted(set(teams))
        team_game = team_game or len(sides) < size
        hero = sides[(index // len(counts)) % len(sides)]
        players = [bot if teams[seat] == hero else opponent for seat in range(size)]
        state = game.new_game(size, None, seed + index)
        play_out(state, [game.new_bot(name, (seed + index) * 16 + seat) for seat, name in enumerate(players)])
        outcome = state.outcome()
        assert outcome is not None
        won = hero in (outcome.winning_teams if len(sides) < size else outcome.winners)
        wins += won
        draws += not outcome.winners
        tally[size][0] += 1
        tally[size][1] += won
    by_seats = tuple((count, played, won) for count, (played, won) in tally.items())
    return BotFigures(bot, opponent, games, wins, draws, by_seats, team_game)


# --- the reports: one line for people (`kickoff bench engine` and `kickoff bench bots` without --json) ------------


def engine_report(figures: dict[str, Any], game: str, games: int, seats: int, rounds: int, baseline: str = "") -> str:
    """:meth:`EngineFigures.to_json`'s figures."""
    text = (
        f"{game}: {games} random {seats}-seat games (median of {rounds} rounds): "
        f"{figures['games_per_s']:,.0f} games/s, {figures['moves_per_s']:,.0f} moves/s, "
        f"{figures['mean_moves']:.1f} moves per game"
    )
    if baseline:
        base = figures["baseline"]
        text += (
            f"; {baseline} in alternating rounds: {base['moves_per_s']:,.0f} moves/s "
            f"({base['mean_moves']:.1f} moves per game); ratio {figures['ratio']:.2f}"
        )
    return text


def bots_report(figures: BotFigures, game: str, counts: tuple[int, ...]) -> str:
    result = figures.to_json()
    if figures.teams:
        text = (
            f"{game}: a team of {figures.bot} bots against a team of {figures.opponent} bots over "
            f"{figures.games} seeded games at {'/'.join(map(str, counts))} seats: won {result['wins']} "
            f"({result['win_rate']:.1%}; a draw counts as not won)"
        )
    else:
        chance = sum(1 / count for count in counts) / len(counts)
        text = (
            f"{game}: {figures.bot} bot against {figures.opponent} bots over {figures.games} seeded games at "
            f"{'/'.join(map(str, counts))} seats: won {result['wins']} ({result['win_rate']:.1%}; "
            f"chance is {chance:.0%})"
        )
    if "by_seats" in result:
        text += "; by seats: " + ", ".join(f"{k}: {v:.1%}" for k, v in result["by_seats"].items())
    return text
