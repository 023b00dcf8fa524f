"""Which games are rated, and what a game's end writes for its players' history and ratings.

A game is rated as its creator asked, else an online room whose people are all signed-in players; only where the
store keeps ratings; and never a room in which two people took their seats from one network (``same_address``): one
person seating throwaway guests at their own table and beating them must not climb the leaderboard. Each seat keeps
its ``origin`` (a keyed hash of the network the server saw the person join from, never an address), on the join line,
so a room rebuilt after a restart or a failover decides as before. A room not rated says why (``unrated_reason``):
while it waits, the reason it would have if it started with the people seated so far.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from engine.core import Outcome
from service.rooms.seats import PERSON, SYSTEM, Seat
from service.rooms.updates import ONLINE, SOLO
from service.store.records import GameResult, SeatResult, system_rating_id


class Rated(Protocol):
    """What a game's result is read from: a room (service/rooms/room.py), as far as its ratings go."""

    room_id: str
    game: Any  # the engine's game
    state: Any  # the game's state (None: not started)
    seats: Sequence[Any]  # its SeatRecords
    teams: Sequence[int]
    system_player: str
    rated: bool
    unrated_reason: str


# Why a game is not rated (Room.unrated_reason; the proto's Room.unrated_reason and the stored outcome's): '' when it is
RATINGS_OFF = "ratings_off"  # the server keeps no ratings (no players: a memory store)
ASKED_UNRATED = "asked_unrated"  # the creator asked for an unrated game (rated: false)
SOLO_UNRATED = SOLO  # a solo room, not asked to be rated
NO_PEOPLE = "no_people"  # system players only
NOT_SIGNED_IN = "not_signed_in"  # a person took a seat without a player's session
SAME_ADDRESS = "same_address"  # two people took their seats from one address (IPv4) or one /64 network (IPv6)
NOT_PLAYED = "not_played"  # the room closed before its game started, or an operator closed it
UNRATED_REASONS = (RATINGS_OFF, ASKED_UNRATED, SOLO_UNRATED, NO_PEOPLE, NOT_SIGNED_IN, SAME_ADDRESS, NOT_PLAYED)


def why_unrated(rates: bool, asked: bool | None, mode: str, people: list[tuple[bool, str, str]]) -> str:
    """Why a game would not be rated ('' when it would), with ``people`` its people's seats, each (taken, player,
    origin): rated as its creator asked (``asked``), else by default an online room whose people are all signed-in
    players (a solo room not); only where the store keeps ratings (``rates``), and never when two of its people took
    their seats from one network (the module docstring). The seats not taken yet count for nothing: a waiting room
    gives the reason it would have if it started with those seated."""
    if not rates:
        return RATINGS_OFF
    if asked is False:
        return ASKED_UNRATED
    if asked is None and mode != ONLINE:
        return SOLO_UNRATED
    if not people:
        return NO_PEOPLE
    seated = [(player, origin) for taken, player, origin in people if taken]
    if any(not player for player, _ in seated):
        return NOT_SIGNED_IN
    origins = [origin for _, origin in seated if origin]
    if len(set(origins)) < len(origins):
        return SAME_ADDRESS
    return ""


def unrated_with(seats: Iterable[Seat], rates: bool, asked: bool | None, mode: str) -> str:
    """Why a game with these seats would not be rated ('' when it would): see :func:`why_unrated`."""
    return why_unrated(rates, asked, mode, [(r.taken, r.player, r.origin) for r in seats if r.kind == PERSON])


def game_result(room: Rated, outcome: Outcome, now: float) -> GameResult:
    """How ``room``'s game ended for each seat, for its players' history and ratings (written with the last line)."""
    teams = room.teams
    places = outcome.places(teams) if room.state is not None else [0] * (max(teams) + 1)
    winning = set(outcome.for_teams(teams)[0])
    bot = system_rating_id(room.system_player)
    return GameResult(
        room.room_id,
        room.game.spec.name,
        room.rated,
        now,
        outcome.to_json(),
        tuple(
            SeatResult(
                r.seat,
                bot if r.kind == SYSTEM else r.player,
                teams[r.seat],
                places[teams[r.seat]],
                teams[r.seat] in winning,
            )
            for r in room.seats
        ),
        room.unrated_reason,
    )
