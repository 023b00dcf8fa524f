"""What the store keeps, as plain records: an actor (a room, a tournament) as created, and the lines of its log.

The store knows these and its rows, never the Room or Tournament objects that are rebuilt from them: a room hands the
journal its :class:`RoomRecord` and its :class:`LogEntry` lines, and gets them back after a restart. Each names its
actor (``actor_id``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.levels import ALIASES


@dataclass(frozen=True)
class RoomRecord:
    """A room as created (its status is kept current for listing; its log decides)."""

    room_id: str
    game: str
    mode: str
    seats: int
    system_seats: tuple[int, ...]  # the seats system players take
    system_player: str
    think_seconds: float | None
    options: Mapping[str, Any]
    seed: int
    created_at: float
    status: str
    tournament_id: str = ""
    tournament_game: int | None = None
    rated: bool | None = None  # as the creator asked (None: the default rule, see service/rooms/room.py)
    # The people seated as the room is made (a matched room: its people took their seats up in the queue), each
    # (seat, name, nonce, player, origin, seed: as a join line's, taken as the person took the seat up; a room stored
    # before fair deals has no seeds); such a room starts as soon as it is stored.
    people: tuple[tuple[Any, ...], ...] = ()
    correspondence_hours: int = 0  # a correspondence room's clock, in hours for every period (0: a live room)
    # Whether a system player at ``normal`` stands in for a person the clock played for twice in a row, until the
    # person moves again (service/rooms/room.py)
    stand_ins: bool = False
    # The W3C traceparent of the room's trace when its game is traced ('' when not): decided once, as it is made
    # (service.telemetry.room_trace), and kept so that a rebuilt room goes on in the same trace on any node
    trace_parent: str = ""
    # The creator's request, when CreateRoom carried a request id (service/actors/requests.py): the key of the caller's
    # id (unique among rooms: a retry finds this room by it) and the hash of the request's parameters ('' for none)
    request_key: str = ""
    request_hash: str = ""
    # Whether the room is unlisted: never listed, seen only by its seated players and its invitation links' holders
    # (service/rooms/private.py)
    unlisted: bool = False
    # What fills a seat whose person declines a rematch of this room: '' (no rematch, the default) or "system" (a
    # system player at the room's level: service/rooms/rematches.py)
    rematch_fill: str = ""
    # The room's chat (service/chat): "" (on: text and reactions), "reactions" or "off"; and whether each team has a
    # channel of its own (a team game only)
    chat: str = ""
    team_chat: bool = False
    # The room's fair deal (service/rooms/deals.py, deals/scheme.py): its secret sealed with the nodes' shared key
    # (service/secrets.py; '' for a room made before fair deals, which plays on with ``seed``), the subject its
    # commitment is bound to, the seeds its game's seed is derived from when they were fixed as it was made (a
    # duplicate tournament's deal; None: the seats' own, in seat order), and whether its deal is held past the game's
    # end until it is told to reveal it (a log line ``reveal``)
    deal_secret: str = ""
    deal_subject: str = ""
    deal_seeds: tuple[str, ...] | None = None
    deal_held: bool = False

    @property
    def actor_id(self) -> str:
        return self.room_id


@dataclass(frozen=True)
class Turn:
    """One seat that must act after a line: who holds it (a player's id; '' for a system player or a guest), its
    clock's deadline (None: no clock), and whether its period began with this line (a new turn or answer, rather than
    one running on)."""

    seat: int
    player: str
    deadline: float | None
    began: bool


@dataclass(frozen=True)
class LogEntry:
    """One line of a room's append-only log: what a restarted server needs to rebuild the update."""

    room_id: str
    version: int
    kind: str  # join, leave, start (a room of system players only), move (a person's or a system player's), table,
    # stand_in (a stand-in's move for a person's seat), close (a waiting room expired, or an operator closed it),
    # revoke (a seat's token revoked), abandon (a solo room nobody played for the abandon time ended), reveal (a held
    # deal revealed after the game's end: service/rooms/deals.py)
    seat: int
    move: str | None = None  # the move's wire form
    # A move's request id, as the client sent it; a join's, its request's key and parameters' hash ("key:hash",
    # service/actors/requests.py: never the id itself)
    request_id: str = ""
    name: str = ""
    nonce: str = ""
    choice: str = ""  # a join's choice for the seat (a team), as the person gave it
    deadlines: Mapping[int, float] = field(default_factory=dict)  # each acting seat's clock deadline after the update
    time: float = 0.0
    epoch: int = 0  # the writer's lease epoch (0: a single node without leases)
    player: str = ""  # a join's player ('' for a seat taken without a player's session)
    # A join's origin: a keyed hash of the network the server saw the person join from ('' where not kept), so a
    # room whose people share one knows it after a restart or failover too (service/rooms/room.py, unrated_reason)
    origin: str = ""
    seed: str = ""  # a join's seed for the fair deal, as the person gave it ('' for none: deals/scheme.py)
    result: GameResult | None = None  # the last line's: how the game ended for each seat (not a column of the log)
    # Every acting seat after the line (not a column of the log: the room's row keeps the last line's, for "my turn"
    # lists, webhooks and waking resting rooms); None: not known (a line read back from the store)
    turns: tuple[Turn, ...] | None = None
    game: str = ""  # the room's game (not a column: for the events the line causes)
    # When the room must be in memory again if it rests: a correspondence room's first deadline while only people
    # act, a solo room's time to end as abandoned while its person must move (None: a room that does not rest now).
    # Not a column of the log: the room's row keeps the last line's.
    wake_at: float | None = None
    # Whether the room is a correspondence room (not a column: a turn that began in one is an inbox item, service/inbox)
    correspondence: bool = False

    @property
    def actor_id(self) -> str:
        return self.room_id


SYSTEM_RATING = "system-"  # a system player's rating id: system-<kind> (a player's id is hex, never this)


def system_rating_id(kind: str) -> str:
    """The rating id a kind of system player plays for (rated per kind and game, like a player; an older name of a
    level plays for the level)."""
    return SYSTEM_RATING + ALIASES.get(kind, kind)


@dataclass(frozen=True)
class SeatResult:
    """How a finished game ended for one seat. ``rating_id``: whose rating the seat plays for (a player's id, a
    system player's rating id, '' for a person without a player's session)."""

    seat: int
    rating_id: str
    team: int
    place: int  # 1 is the best; equal places share (0: the game was never played)
    won: bool


@dataclass(frozen=True)
class GameResult:
    """A finished game as history and ratings take it: written with the game's last line, in its transaction, so the
    rating change is part of the game's durable record (never applied twice, never lost)."""

    room_id: str
    game: str
    rated: bool
    time: float
    outcome: Mapping[str, Any]  # the outcome's JSON
    seats: tuple[SeatResult, ...]
    unrated_reason: str = ""  # why the game is not rated ('' when it is: service/rooms/room.py, UNRATED_REASONS)


@dataclass(frozen=True)
class TournamentRecord:
    """A tournament as created."""

    tournament_id: str
    game: str
    mode: str
    system_players: int
    system_player: str
    think_seconds: float | None
    options: Mapping[str, Any]
    created_at: float
    status: str
    # The creator's request, when CreateTournament carried a request id (as a RoomRecord's)
    request_key: str = ""
    request_hash: str = ""

    @property
    def actor_id(self) -> str:
        return self.tournament_id


@dataclass(frozen=True)
class TournamentEntry:
    """One line of a tournament's log."""

    tournament_id: str
    version: int
    kind: str  # join, leave, game (started), result (ended)
    seat: int = -1
    name: str = ""
    nonce: str = ""
    game_index: int = -1
    room_id: str = ""
    time: float = 0.0
    epoch: int = 0  # the writer's lease epoch, as in a room's log
    player: str = ""  # a join's player ('' for a seat taken without a player's session)
    origin: str = ""  # a join's origin, as a room's join line keeps it (LogEntry.origin)
    players: tuple[str, ...] = ()  # a game line's: the tournament's players (not a column: for its webhook event)
    request_id: str = ""  # a join's request key and parameters' hash, "key:hash" (service/actors/requests.py)

    @property
    def actor_id(self) -> str:
        return self.tournament_id
