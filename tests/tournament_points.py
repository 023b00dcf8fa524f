"""Standings recomputed from what the games' rooms said, independently of the engine's scoring code.

Works on the proto3 JSON mapping of RoomUpdate messages (as REST sends them; gRPC messages go through MessageToDict),
using only the rulebook: 1 point per card a seat played, +3 for an empty-hand win, +7 for a country win; the table
orders by points, then games won, then country wins, and seats equal on all three share the place.
"""

from __future__ import annotations

from typing import Any

BONUS = {"empty_hand": 3, "one_country": 7}  # the rulebook's table, written out again on purpose


def game_from_updates(updates: list[dict[str, Any]], seats: int = 4) -> dict[str, Any]:
    """One game's first seat, points per seat, winners and reason, read from its room's updates."""
    points = [0] * seats
    first_seat = None
    outcome: dict[str, Any] | None = None
    for update in updates:
        for event in update.get("events", []):
            if "gameStarted" in event:
                first_seat = event["gameStarted"].get("firstSeat", 0)
            played = event.get("game", {}).get("soker", {}).get("played")
            if played is not None:
                points[played.get("seat", 0)] += len(played["cards"])
            if "gameEnded" in event:
                outcome = event["gameEnded"]["outcome"]
    assert outcome is not None, "the game has not ended"
    winners = outcome.get("winners", [])
    for seat in winners:
        points[seat] += BONUS[outcome["reason"]]
    return {"first_seat": first_seat, "points": points, "winners": winners, "reason": outcome["reason"]}


def table(games: list[dict[str, Any]], seats: int = 4) -> list[tuple[int, int, int, int, int]]:
    """(place, seat, points, games won, country wins), best first."""
    totals = {seat: [0, 0, 0] for seat in range(seats)}
    for game in games:
        for seat in range(seats):
            totals[seat][0] += game["points"][seat]
        for seat in game["winners"]:
            totals[seat][1] += 1
            totals[seat][2] += game["reason"] == "one_country"
    order = sorted(range(seats), key=lambda seat: ([-v for v in totals[seat]], seat))
    lines: list[tuple[int, int, int, int, int]] = []
    for rank, seat in enumerate(order):
        shared = lines and totals[lines[-1][1]] == totals[seat]
        lines.append((lines[-1][0] if shared else rank + 1, seat, *totals[seat]))
    return lines


def standings_lines(standings: dict[str, Any]) -> list[tuple[int, int, int, int, int]]:
    """The service's standings (JSON mapping) in the same shape as :func:`table`."""
    return [
        (
            line.get("place", 0),
            line.get("seat", 0),
            line.get("points", 0),
            line.get("gamesWon", 0),
            line.get("countryWins", 0),
        )
        for line in standings.get("lines", [])
    ]
