"""`kickoff bench ladder`: a game's levels measured against each other on duplicate deals.

Each level plays every weaker one (one of it against the rest of the table of the weaker, or a team of it against a
team of the weaker) on the same duplicate deals as `kickoff bench bots --deals` (:mod:`benchmarks.strength`), at each
table size asked for. The table gives each pairing's win rate with its 95% Wilson interval beside what chance gives,
so a front-end can describe each level by what it measurably does; `--readme` writes it between the game's markers in
docs/benchmarks.md. `--deals`, `--think` or `--iterations` size a run; `--out` makes it resumable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from benchmarks.strength import bench_strength, sides_of
from engine.registry import get_game

__all__ = ["bench_ladder", "ladder_table", "markers"]


def markers(name: str) -> tuple[str, str]:
    """The markers of ``name``'s ladder in docs/benchmarks.md."""
    return f"<!-- kickoff bench ladder {name}: begin -->", f"<!-- kickoff bench ladder {name}: end -->"


def bench_ladder(
    name: str,
    seats: tuple[int, ...] = (2, 4),
    deals: int = 20,
    levels: tuple[str, ...] = ("random", "easy", "normal", "hard"),
    seed: int = 0,
    seconds: float | None = 1.0,
    iterations: int | None = None,
    workers: int = 2,
    out: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Every pairing of ``levels`` (weakest first), the stronger as the bot, at each of ``seats``; stops at the first
    pairing a signal stopped (``stopped`` in the figures)."""
    game = get_game(name)
    if len(levels) < 2 or len(set(levels)) < len(levels):
        raise ValueError("--levels needs two levels or more, each once")
    for level in levels:
        if level not in game.bots:
            raise ValueError(f"{game.spec.title} has no system player '{level}' (known: {', '.join(game.bots)})")
    for count in seats:
        if count not in game.spec.seat_counts:
            raise ValueError(f"{game.spec.title} is played at {game.spec.seat_counts} seats, not {count}")
    rows: list[dict[str, Any]] = []
    stopped = False
    for count in seats:
        chance = 1 / len(sides_of(name, count))
        for strong in range(1, len(levels)):
            for weak in range(strong):
                figures = bench_strength(
                    name,
                    deals,
                    levels[strong],
                    levels[weak],
                    count,
                    seed,
                    seconds,
                    iterations,
                    workers,
                    out=out,
                    progress=progress,
                )
                rows.append(figures.to_json() | {"chance": round(chance, 4)})
                if figures.stopped:
                    stopped = True
                    break
            if stopped:
                break
        if stopped:
            break
    return {
        "game": name,
        "title": game.spec.title,
        "seats": list(seats),
        "levels": list(levels),
        "deals": deals,
        "think_seconds": None if iterations else seconds,
        "fixed_iterations": iterations,
        "workers": workers,
        "stopped": stopped,
        "rows": rows,
    }


def ladder_table(figures: dict[str, Any]) -> str:
    """The ladder as a Markdown table, and a line that says how it was measured."""
    lines = [
        "| seats | level | against | deals (games) | won | 95% interval | chance |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in figures["rows"]:
        low, high = row["interval_95"]
        against = f"a team of {row['opponent']}" if row["of"] != "games" else row["opponent"]
        rate = f"{row['win_rate']:.1%}" if row["win_rate"] is not None else "-"
        lines.append(
            f"| {row['seats']} | {row['bot']} | {against} | {row['deals']} ({row['games']}) | {row['wins']} of "
            f"{row['decided']} {row['of']}: {rate} | {low:.1%}-{high:.1%} | {row['chance']:.0%} |"
        )
    budget = (
        f"--iterations {figures['fixed_iterations']}"
        if figures["fixed_iterations"]
        else f"--think {figures['think_seconds']:g}"
    )
    seats = ",".join(str(count) for count in figures["seats"])
    levels = ",".join(figures["levels"])
    lines.append("")
    lines.append(
        f"{figures['title']}, measured by `kickoff bench ladder --game {figures['game']} --seats {seats} --levels "
        f"{levels} --deals {figures['deals']} {budget} --workers {figures['workers']}`: one player of the level "
        "against the rest of the table of the other (in a team game, a team against a team), each deal played once "
        "for every side." + (" Stopped before its end: the table is partial." if figures["stopped"] else "")
    )
    return "\n".join(lines)
