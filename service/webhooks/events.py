"""The events webhooks carry, made from what the store writes: a room's log line, a tournament's, a table the
matchmaker found. Each is JSON, ``{"type": ..., "timestamp": ..., "data": {...}}``, written once into the outbox for
each endpoint that wants its type and sent as it was written.

No event carries a card, nor anything made of one: who must act, when, and how a game ended (its reason, the winning
seats, the places), never a hand, a move or a discard. A line's events are made only from the line's fields that say
who acts and how the game ended, so nothing a viewer could not see can reach a payload.

The clock reminder (``clock.running_out``) is written with the turn it is about, due ``lead`` before the deadline
(KICKOFF_WEBHOOK_REMINDER_SECONDS, at most half the time left; none for a clock under 10 minutes: a player with so
little time is at the table), with a condition the dispatcher checks before sending it: the seat still acts, with
that deadline. A reminder for a seat that moved meanwhile is obsolete, never sent.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import Outcome
from service.store.records import SYSTEM_RATING, LogEntry, TournamentEntry

TURN_BEGAN = "turn.began"
MATCH_FOUND = "match.found"
GAME_ENDED = "game.ended"
TOURNAMENT_GAME_READY = "tournament.game_ready"
CLOCK_RUNNING_OUT = "clock.running_out"
TEST = "webhook.test"
# Friends (service/friends): to the player asked, and to the player whose request was accepted (issue 48).
FRIEND_REQUESTED = "friend.requested"
FRIEND_ACCEPTED = "friend.accepted"
# Room invitations (service/rooms/invitations.py): to the friend invited to a room (issue 48).
ROOM_INVITED = "room.invited"
# Rematches (service/rooms/rematches.py): to each other person of a finished room, when one proposes a rematch.
REMATCH_PROPOSED = "rematch.proposed"
# Table talk (service/chat): a message to a seated player who is away from a correspondence room (issue 49). Its data
# holds no text; an endpoint that asked for the text (its chat_text) gets it at delivery (dispatcher.py).
CHAT_MESSAGE = "chat.message"
TYPES = (
    TURN_BEGAN,
    MATCH_FOUND,
    GAME_ENDED,
    TOURNAMENT_GAME_READY,
    CLOCK_RUNNING_OUT,
    FRIEND_REQUESTED,
    FRIEND_ACCEPTED,
    ROOM_INVITED,
    REMATCH_PROPOSED,
    CHAT_MESSAGE,
)
SHORTEST_REMINDED = 600.0  # a clock with less time than this gets no reminder


@dataclass(frozen=True)
class Event:
    """One event: its type, when it happened, its data; ``due`` when it is to be sent (None: at once) and
    ``condition``, what must still hold then (a reminder's seat and deadline)."""

    type: str
    time: float
    data: Mapping[str, Any]
    due: float | None = None
    condition: Mapping[str, Any] | None = field(default=None)
    # Whether the player it names (data's ``player_id``, each of its ``players``) also finds it in their inbox
    # (service/inbox): not a live game's turn, nor a clock reminder
    inbox: bool = True

    def body(self) -> dict[str, Any]:
        return {"type": self.type, "timestamp": timestamp(self.time), "data": dict(self.data)}


def timestamp(seconds: float) -> str:
    """ISO 8601 in UTC, to the millisecond."""
    moment = datetime.datetime.fromtimestamp(seconds, datetime.UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _moment(seconds: float | None) -> str | None:
    return None if seconds is None else timestamp(seconds)


def room_events(entry: LogEntry, *, reminder_seconds: float) -> list[Event]:
    """What a room's line causes: a turn began for each signed-in player whose period began with it (and its clock
    reminder), and the game's end when the line ends it."""
    events: list[Event] = []
    for turn in entry.turns or ():
        if not (turn.began and turn.player):
            continue
        data = {
            "player_id": turn.player,
            "room_id": entry.room_id,
            "game": entry.game,
            "seat": turn.seat,
            "deadline": _moment(turn.deadline),
            "version": entry.version,
        }
        events.append(Event(TURN_BEGAN, entry.time, data, inbox=entry.correspondence))
        left = None if turn.deadline is None else turn.deadline - entry.time
        if left is not None and left >= SHORTEST_REMINDED:
            lead = min(reminder_seconds, left / 2)
            due = turn.deadline - lead
            reminder = {**data, "seconds_left": round(lead)}
            condition = {"room_id": entry.room_id, "seat": turn.seat, "deadline": turn.deadline}
            events.append(Event(CLOCK_RUNNING_OUT, due, reminder, due=due, condition=condition, inbox=False))
    result = entry.result
    if result is not None:
        outcome = result.outcome
        # Each seat's result as the contract's Outcome.results says it (docs/contract/results.md): won, lost, drawn,
        # shared_win. ``won`` keeps its released meaning, the seat's team is among the winners the rules name: in a
        # draw that names every seat a winner, each seat has won true and result drawn.
        teams = [seat.team for seat in sorted(result.seats, key=lambda seat: seat.seat)]
        results = Outcome.from_json(outcome).results(teams)
        seats = [
            {
                "seat": seat.seat,
                "player_id": seat.rating_id
                if seat.rating_id and not seat.rating_id.startswith(SYSTEM_RATING)
                else None,
                "system_player": seat.rating_id.startswith(SYSTEM_RATING),
                "team": seat.team,
                "place": seat.place,
                "won": seat.won,
                "result": results[seat.seat].value,
            }
            for seat in result.seats
        ]
        data = {
            "room_id": entry.room_id,
            "game": result.game,
            "rated": result.rated,
            "reason": outcome.get("reason", ""),
            "winners": list(outcome.get("winners", ())),
            "winning_teams": list(outcome.get("winning_teams", ())),
            "seats": seats,
        }
        events.append(Event(GAME_ENDED, result.time, data, inbox=False))
    return events


def inboxed(kind: str, entry: Any) -> bool:
    """Whether a line (of ``kind``: room, tournament) causes an event that is an inbox item (service/inbox): a turn
    that began for a player in a correspondence room, a tournament's game ready. A live room's line never does."""
    if kind == "room":
        return entry.correspondence and any(turn.began and turn.player for turn in entry.turns or ())
    return kind == "tournament" and entry.kind == "game"


def tournament_events(entry: TournamentEntry) -> list[Event]:
    """What a tournament's line causes: its next game is ready when a game line is written."""
    if entry.kind != "game":
        return []
    data = {
        "tournament_id": entry.tournament_id,
        "game_index": entry.game_index,
        "room_id": entry.room_id,
        "players": list(entry.players),
    }
    return [Event(TOURNAMENT_GAME_READY, entry.time, data)]


def match_event(
    *, ticket_id: str, game: str, match_id: str, players: list[str], take_up_by: float, now: float
) -> Event:
    """The matchmaker found a table for a ticket: its players take their seats up by ``take_up_by``."""
    data = {
        "ticket_id": ticket_id,
        "game": game,
        "match_id": match_id,
        "players": players,
        "take_up_deadline": timestamp(take_up_by),
    }
    return Event(MATCH_FOUND, now, data)


def friend_event(kind: str, *, recipient: str, other: str, other_name: str, now: float) -> Event:
    """A friend request sent to ``recipient`` (``friend.requested``) or the one ``recipient`` sent, accepted
    (``friend.accepted``): the other player's id and name, nothing else."""
    return Event(kind, now, {"player_id": recipient, "other_player_id": other, "other_name": other_name})


def room_invited_event(
    *, recipient: str, room_id: str, game: str, inviter: str, inviter_name: str, now: float
) -> Event:
    """A friend invited ``recipient`` to a room (``room.invited``): the room, its game, and who invited them."""
    data = {"player_id": recipient, "room_id": room_id, "game": game}
    return Event(ROOM_INVITED, now, {**data, "from_player_id": inviter, "from_name": inviter_name})


def rematch_event(*, recipient: str, room_id: str, game: str, proposed_by: int, deadline: float, now: float) -> Event:
    """A rematch of ``room_id`` proposed to ``recipient`` (``rematch.proposed``): the room, the game, the proposing
    seat and the deadline to answer by; no card."""
    data = {
        "player_id": recipient,
        "room_id": room_id,
        "game": game,
        "proposed_by": proposed_by,
        "deadline": timestamp(deadline),
    }
    return Event(REMATCH_PROPOSED, now, data)


def chat_event(
    *, recipient: str, room_id: str, game: str, seq: int, channel: str, reaction: str, from_name: str, now: float
) -> Event:
    """A chat message (room ``room_id``'s ``seq``, in ``channel``) to ``recipient``, away from that correspondence
    room (``chat.message``): the room, the game, the sender's name as the room shows it and the reaction's key ('' for
    text); never the text itself (an endpoint with chat_text reads it at delivery)."""
    data = {
        "player_id": recipient,
        "room_id": room_id,
        "game": game,
        "seq": seq,
        "channel": channel,
        "reaction": reaction,
        "from_name": from_name,
    }
    return Event(CHAT_MESSAGE, now, data)
