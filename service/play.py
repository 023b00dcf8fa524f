"""`kickoff play`: one seeded game between system players, printed move by move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from engine.registry import get_game


def play_game(game_name: str, seats: int, seed: int, bot_names: Sequence[str], out: TextIO) -> int:
    """Play one game between the named bots and write it to ``out``; returns the number of moves played."""
    game = get_game(game_name)
    if len(bot_names) != seats:
        raise ValueError(f"{seats} seats need {seats} system players, got {len(bot_names)}: {', '.join(bot_names)}")
    bots = [game.new_bot(name, seed * 1_000 + seat) for seat, name in enumerate(bot_names)]
    state = game.new_game(seats, None, seed)
    out.write(f"{game.spec.title}: {seats} seats, seed {seed}\n")
    for seat, name in enumerate(bot_names):
        out.write(f"  seat {seat}: {name} bot\n")
    out.write(f"  {state.describe()}\n\n")
    moves = 0
    while acting := state.to_act():
        seat = acting[0]
        move = bots[seat].choose(state, seat)
        events = state.apply(seat, move)
        moves += 1
        out.write(f"{moves:4d}. seat {seat}: {move.to_wire()}\n")
        for event in events:
            out.write(f"        {event.describe()}\n")
    outcome = state.outcome()
    assert outcome is not None
    out.write(f"\nGame over after {moves} moves: {outcome.reason.replace('_', ' ')}.\n")
    for seat, points in enumerate(outcome.points):
        mark = "  <- winner" if seat in outcome.winners else ""
        out.write(f"  seat {seat} ({bot_names[seat]}): {points} points{mark}\n")
    return moves
