"""`kickoff bench ...`: benchmarks that measure the targets quoted in the README."""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine.core import play_out
from engine.registry import get_game


@dataclass(frozen=True)
class EngineFigures:
    games: int
    moves: int
    seconds: float

    def to_json(self) -> dict[str, float]:
        return {
            "games_per_s": round(self.games / self.seconds, 1),
            "moves_per_s": round(self.moves / self.seconds, 1),
            "mean_moves": round(self.moves / self.games, 2),
        }


def bench_engine(game_name: str, games: int, seats: int = 4, seed: int = 0) -> EngineFigures:
    """Play ``games`` games between random bots in this process; every applied move counts."""
    game = get_game(game_name)
    moves = 0
    start = time.perf_counter()
    bots = [game.new_bot("random", seed * 16 + seat) for seat in range(seats)]
    for index in range(games):
        state = game.new_game(seats, None, seed + index)
        apply = state.apply
        to_act = state.to_act
        while acting := to_act():
            seat = acting[0]
            apply(seat, bots[seat].choose(state, seat))
            moves += 1
    return EngineFigures(games, moves, time.perf_counter() - start)


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
