"""`kickoff bench ...`: benchmarks that measure the targets quoted in the README."""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine.core import play_out
from engine.registry import get_game


@dataclass(frozen=True)
class EngineFigures:
    """Games and moves per second of the median round (robust to other load on a shared machine), mean moves overall."""

    games: int
    moves: int
    round_rates: tuple[tuple[float, float], ...]  # (games/s, moves/s) of each round

    def to_json(self) -> dict[str, float]:
        games_per_s, moves_per_s = sorted(self.round_rates, key=lambda rates: rates[1])[len(self.round_rates) // 2]
        return {
            "games_per_s": round(games_per_s, 1),
            "moves_per_s": round(moves_per_s, 1),
            "mean_moves": round(self.moves / self.games, 2),
        }


def bench_engine(game_name: str, games: int, seats: int = 4, seed: int = 0, rounds: int = 5) -> EngineFigures:
    """Play ``games`` games between random bots in this process, in ``rounds`` rounds; every applied move counts."""
    game = get_game(game_name)
    choosers = [game.new_bot("random", seed * 16 + seat).choose for seat in range(seats)]
    rounds = max(1, min(rounds, games))
    seeds = iter(range(seed, seed + games))
    total_moves = 0
    rates = []
    for round_index in range(rounds):
        round_games = games // rounds + (round_index < games % rounds)
        moves = 0
        start = time.perf_counter()
        for _ in range(round_games):
            state = game.new_game(seats, None, next(seeds))
            apply = state.apply
            to_act = state.to_act
            while acting := to_act():
                seat = acting[0]
                apply(seat, choosers[seat](state, seat))
                moves += 1
        elapsed = time.perf_counter() - start
        rates.append((round_games / elapsed, moves / elapsed))
        total_moves += moves
    return EngineFigures(games, total_moves, tuple(rates))


@dataclass(frozen=True)
class BotFigures:
    bot: str
    opponent: str
    games: int
    wins: int
    draws: int

    def to_json(self) -> dict[str, float | str | int]:
        return {
            "bot": self.bot,
            "opponent": self.opponent,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 4),
            "no_winner": self.draws,
        }


def bench_bots(
    game_name: str, games: int, bot: str = "heuristic", opponent: str = "random", seats: int = 4, seed: int = 0
) -> BotFigures:
    """``bot`` against ``seats - 1`` copies of ``opponent`` over seeded games; ``bot`` sits in every seat in turn."""
    game = get_game(game_name)
    wins = draws = 0
    for index in range(games):
        hero = index % seats
        bots = [game.new_bot(bot if seat == hero else opponent, (seed + index) * 16 + seat) for seat in range(seats)]
        state = game.new_game(seats, None, seed + index)
        play_out(state, bots)
        outcome = state.outcome()
        assert outcome is not None
        wins += hero in outcome.winners
        draws += not outcome.winners
    return BotFigures(bot, opponent, games, wins, draws)
