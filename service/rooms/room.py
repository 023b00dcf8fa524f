"""One room: a table of seats around one game, a handler on the actor runtime (service/actors/actor.py).

Joins, leaves, moves from people, the table's moves when a clock runs out and the system players' moves are commands
of the room's actor, handled in order, so nothing about a room ever changes concurrently. The engine is the only
judge of a move. Side effects go through collaborators given to the room: its time source (for turn deadlines and
think time: service/rooms/clocks.py keeps the seats' clocks) and the journal (which records each accepted move
before anyone hears of it), so a room runs the same in a test, with a manual clock and a journal in memory, as in the
server.

Every change is an :class:`Update` with the next version number. Updates are kept, so a subscriber that comes back with
the last version it saw gets every later update exactly once; each viewer gets the update redacted for it. When the
store fails, the actor rebuilds the room from its log (see the runtime), and a retried request id answers as the
first time.

Every line says who must act after it (``LogEntry.turns``: each acting seat's player and deadline), which the store
keeps on the room's row for "my turn" lists. A correspondence room (``correspondence_hours``: every clocked period
lasts hours) may rest: its directory lets an idle one leave memory (service/rooms/directory.py), and its line's
``wake_at`` says when it must be back, its first deadline while only people act (never while a system player must
move: that room stays in memory).

Which games are rated (:meth:`Room._why_unrated`): as the creator asked, else an online room whose people are all
signed-in players; and never a room in which two people took their seats from one network (``same_address``): one
person seating throwaway guests at their own table and beating them must not climb the leaderboard. Each seat keeps
its ``origin`` (a keyed hash of the network the server saw the person join from, never an address), on the join line,
so a room rebuilt after a restart or a failover decides as before. A room not rated says why (``unrated_reason``):
while it waits, the reason it would have if it started with the people seated so far.

A solo room has no clock, so a person who walks away would leave it playing for ever. It rests as a correspondence
room does, and ends by itself as abandoned (the log line ``abandon``: nobody wins, not rated, the outcome's reason
:data:`ABANDONED`) once ``Surroundings.abandon_seconds`` pass after its last line with its person to move; its
``wake_at`` is that moment, so that a resting one is loaded in time to end. The end goes through the actor, ordered
with the moves, and is stored as any line is, so that it survives a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from opentelemetry import trace
from opentelemetry.trace import Link, Status, StatusCode

from engine.core import Bot, ChoiceTaken, GameState, InvalidOptions, NotYourTurn, Outcome, RuleError
from engine.registry import get_game
from service.actors.actor import Actor, ActorHandler, Host, Journal
from service.actors.feed import HISTORY_KEPT, STREAM_BUFFER, Evicted, Feed, History, Readers
from service.actors.requests import RequestKey
from service.errors import (
    Conflict,
    InvalidRequest,
    SeatReleased,
    SeatTaken,
    ServiceError,
    StaleVersion,
    StoreRefused,
    StoreUnavailable,
    Unavailable,
)
from service.rooms.clock import Clock, Timer
from service.rooms.clocks import Deadline, SeatClocks
from service.rooms.seats import PERSON, SYSTEM, check_holder, joined_before, seat_to_take
from service.rooms.thinking import Thinkers
from service.store.records import GameResult, LogEntry, RoomRecord, SeatResult, Turn, system_rating_id
from service.telemetry import SpanScope, Telemetry, in_sampled_trace, room_context

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
ONLINE, SOLO = "online", "solo"
KIND = "room"  # the rooms' kind of actor
REFUSALS_KEPT = 32  # refused request ids remembered per seat (accepted ones are kept for the room's life)
THINK_RANGE = (0.8, 2.0)  # a system player's think time when the room sets none
SEARCH_MARGIN = 1.0  # a search ends this many seconds before the seat's clock runs out
STAND_IN_AFTER = 2  # with stand-ins on: the clock's plays in a row for a person's seat after which a stand-in plays it
STAND_IN_LEVEL = "normal"  # the stand-in's level

log = logging.getLogger(__name__)
# Why a game is not rated (Room.unrated_reason; the proto's Room.unrated_reason and the stored outcome's): '' when it is
RATINGS_OFF = "ratings_off"  # the server keeps no ratings (no players: a memory store)
ASKED_UNRATED = "asked_unrated"  # the creator asked for an unrated game (rated: false)
SOLO = "solo"  # a solo room, not asked to be rated
NO_PEOPLE = "no_people"  # system players only
NOT_SIGNED_IN = "not_signed_in"  # a person took a seat without a player's session
SAME_ADDRESS = "same_address"  # two people took their seats from one address (IPv4) or one /64 network (IPv6)
NOT_PLAYED = "not_played"  # the room closed before its game started, or an operator closed it
UNRATED_REASONS = (RATINGS_OFF, ASKED_UNRATED, SOLO, NO_PEOPLE, NOT_SIGNED_IN, SAME_ADDRESS, NOT_PLAYED)
EXPIRED = "expired"  # the outcome's reason when a waiting room closes unplayed
# An operator's close (OperatorService.CloseRoom): the outcome's reason is this, ": " and the operator's reason
CLOSED_BY_OPERATOR = "closed_by_operator"
ABANDONED = "abandoned"  # the outcome's reason when a solo room's person did not move for abandon_seconds


@dataclass(frozen=True)
class RoomLimits:
    """What a room may hold on to: how long it waits for its people, and how many answers a stream may queue."""

    waiting_seconds: float | None = None  # a waiting room with no seat change for this long closes (None: never)
    stream_buffer: int = STREAM_BUFFER  # a play stream's answers that may wait for its client (see feed.py)
    history: int | None = HISTORY_KEPT  # recent updates kept in memory; older ones are read back from the store


@dataclass(frozen=True)
class Surroundings:
    """What every room of a server shares: its time source, its journal, its telemetry and its limits."""

    clock: Clock
    journal: Journal
    telemetry: Telemetry = field(default_factory=Telemetry)
    limits: RoomLimits = RoomLimits()
    rates: bool = False  # the store keeps players' ratings (a SQL store with players): games may be rated
    thinkers: Thinkers = field(default_factory=lambda: Thinkers(0))  # where hard system players search
    # a solo room whose person has not moved for this long ends as abandoned (None: never; see the module docstring)
    abandon_seconds: float | None = None


@dataclass
class SeatRecord:
    """A seat: a person's (free until joined) or a system player's."""

    seat: int
    kind: str
    taken: bool = False
    name: str = ""
    nonce: str = ""  # changes on every join: a token names it, so a given-back seat's old token stops working
    bot: Bot | None = None
    team: int = 0
    choice: str = ""  # what the person chose on taking the seat (GameSpec.seat_choice), as the game understood it
    since: int = 0  # the version at which its holder took it (a stream opened as the seat ends when it is given back)
    player: str = ""  # the player holding it ('' for a seat taken without a player's session, and a system player's)
    origin: str = ""  # a keyed hash of the network its holder joined from ('' where not kept); never shown
    stand_in: str = ""  # the level of the system player standing in for its person now ('' while the person plays)
    clocked: int = 0  # a person's seat: the periods in a row the clock has played for it


# Room-level events. Only GameEvent can hold secrets; each is redacted for one viewer before it leaves the room.
@dataclass(frozen=True)
class SeatTakenEvent:
    seat: SeatRecord


@dataclass(frozen=True)
class SeatLeftEvent:
    seat: int


@dataclass(frozen=True)
class GameStartedEvent:
    first_seat: int


@dataclass(frozen=True)
class GameEvent:
    event: Any  # the engine's event, unredacted


@dataclass(frozen=True)
class StandInEvent:
    seat: int
    level: str  # the stand-in's level as it begins; '' as it ends


@dataclass(frozen=True)
class GameEndedEvent:
    outcome: Outcome


@dataclass(eq=False)
class Update:
    """One change of the room and everything it caused."""

    version: int
    events: tuple[Any, ...]
    status: str
    to_act: tuple[int, ...]
    deadlines: tuple[Deadline, ...]  # one per acting seat with a running clock, in to_act's order
    time: float
    legal: dict[int, list[Any]] = field(default_factory=dict)  # the legal moves of each person's seat that must act
    mover: int | None = None  # the seat whose move made this update (None: a join, the table, a system player)
    request_id: str = ""  # the mover's request id
    released: int = -1  # the seat this update gave back (-1: none): streams opened as that seat end here
    rendered: dict[Any, Any] = field(default_factory=dict)  # per-viewer renderings, filled by the transport

    def events_for(self, viewer: int | None) -> list[Any]:
        """The events as ``viewer`` may see them (a seat, or None for a spectator)."""
        return [GameEvent(e.event.for_viewer(viewer)) if type(e) is GameEvent else e for e in self.events]


@dataclass(frozen=True)
class Published:
    """The room as of its last stored update: what readers of the room are shown (never a change being written, nor
    one the store did not take)."""

    version: int
    status: str
    seats: tuple[SeatRecord, ...]
    to_act: tuple[int, ...]
    deadlines: tuple[Deadline, ...]
    outcome: Outcome | None


@dataclass(frozen=True)
class ReplayStep:
    """One update of a replay and the table after it: what a spectator saw (None before the game began) and, once
    the game is over, what each seat saw, by seat (every hand shown; empty before the end)."""

    update: Update
    view: Any
    hands: tuple[Any, ...] = ()


@dataclass(frozen=True)
class MoveAnswer:
    """What an accepted move returns: the version after it and the update it caused (``retried``: the first answer
    to a request id seen before)."""

    version: int
    update: Update
    retried: bool = False


class Room(ActorHandler):
    """A table of seats around one game, as ``record`` describes it; see the module docstring. ``epoch``: the lease
    this node holds the room under (0: a single server); ``host``: its directory."""

    def __init__(
        self, record: RoomRecord, surroundings: Surroundings, *, epoch: int = 0, host: Host | None = None
    ) -> None:
        self._record = record
        self.room_id = record.room_id
        self.game = get_game(record.game)
        self.mode = record.mode
        self.options = dict(record.options)
        self.seed = record.seed
        self.created_at = record.created_at
        self.think_seconds = record.think_seconds
        self.system_player = record.system_player
        self.system_seats = tuple(record.system_seats)  # the seats system players take
        self.tournament_id = record.tournament_id  # the tournament this room's game belongs to ('' for none)
        self.tournament_game = record.tournament_game  # the game's index in it
        self.correspondence_hours = record.correspondence_hours  # every clocked period lasts this many hours (0: live)
        self.stand_ins = record.stand_ins  # whether system players stand in for absent people (see _stand_in)
        self.parent = ("tournament", record.tournament_id) if record.tournament_id else None  # told when it ends
        self.surroundings = surroundings
        self.clock = surroundings.clock
        self.limits = limits = surroundings.limits
        self.teams = self.game.teams(record.seats, self.options)  # the team each seat plays for
        telemetry = surroundings.telemetry
        self._tracer = telemetry.tracer
        self._metrics = telemetry.instruments
        # With a signal off, the move path skips its work outright (no no-op spans, contexts or attribute dicts).
        self._tracing, self._metering = telemetry.tracing, telemetry.metering
        self._attributes = {"kickoff.room_id": self.room_id, "kickoff.game": self.game.spec.name}
        # A traced room's spans descend from its room.created span; an untraced room's make no SDK call at all
        self._trace = room_context(record.trace_parent) if self._tracing else None
        # (what a span in a caller's own trace links to: the room's room.created span)
        self._trace_links = [Link(trace.get_current_span(self._trace).get_span_context())] if self._trace else None
        self._game_attribute = {"kickoff.game": self.game.spec.name}
        self.actor: Actor[Update] = Actor(
            kind=KIND,
            actor_id=self.room_id,
            handler=self,
            journal=surroundings.journal,
            host=host,
            epoch=epoch,
            history=History(limits.history),
            readers=Readers(limits.stream_buffer, self._read_back),
            tracing=self._tracing,
        )
        self.seat_clocks = SeatClocks(self.clock, self._expired, self.correspondence_hours * 3600.0 or None)
        self._expiry: Timer | None = None  # a waiting room's time to close, or a solo room's to end as abandoned
        self._searches: set[asyncio.Task[None]] = set()  # system players' searches under way
        self.used_at = self.clock.now()  # when it was last changed, loaded or called for (an idle one may rest)
        self.reset()

    def reset(self) -> None:
        """The room as created: seats free, no game, version 0 (a rebuild replays the log over this)."""
        self._think_random = random.Random(self.seed ^ 0x5EED)
        teams = self.teams
        self.seats = [
            SeatRecord(
                s,
                SYSTEM,
                taken=True,
                name=f"{self.system_player} bot",
                bot=self.game.new_bot(self.system_player, self.seed + s),
                team=teams[s],
            )
            if s in self.system_seats
            else SeatRecord(s, PERSON, team=teams[s])
            for s in range(self._record.seats)
        ]
        for seat, name, nonce, player, origin in self._record.people:  # (a matched room: seated as it was made)
            record = self.seats[seat]
            record.taken, record.name, record.nonce, record.player, record.origin = True, name, nonce, player, origin
        self.state: GameState | None = None
        self.status = WAITING
        self.rated = False  # decided when the game starts (_why_unrated)
        self.unrated_reason = ""  # why not, once the game started or the room closed ('' while waiting, or rated)
        self.seat_clocks.reset()
        self._legal: dict[int, tuple[int, list[Any]]] = {}  # each acting person's legal moves, and since which version
        self._accepted: dict[tuple[int, str], int] = {}  # the version each accepted request id made
        self._refused: dict[int, OrderedDict[str, RuleError | ServiceError]] = {}
        # the joins made with a request id (service/actors/requests.py): key -> (parameters' hash, seat, nonce)
        self._joined: dict[str, tuple[str, int, str]] = {}
        self.published = Published(0, WAITING, tuple(_copy(r) for r in self.seats), (), (), None)
        self.changed_at = self.created_at  # the time of its last line (a solo room's is abandoned from it)

    def record(self) -> RoomRecord:
        """The room as created, for the store (with its status now)."""
        return replace(self._record, status=self.status)

    # -- the actor --------------------------------------------------------------------------------------------------

    def start(self) -> None:
        if not self.actor.started:
            self.actor.start()
            self._arm_expiry()

    def halt(self) -> None:
        """Stop the clocks' timers, the system players' and the waiting room's (the actor stops, or rebuilds)."""
        self.seat_clocks.cancel()
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
        for search in list(self._searches):
            search.cancel()

    # -- requests ---------------------------------------------------------------------------------------------------

    async def join(
        self,
        seat: int | None,
        name: str,
        choice: str = "",
        player: str = "",
        origin: str = "",
        request: RequestKey | None = None,
    ) -> tuple[int, str]:
        """Take a person's seat, with what the person chooses for it where the game offers a choice (a team), for
        ``player`` when a signed-in player joins (one seat per room: Conflict already_seated), who joins from
        ``origin`` (a keyed hash of their network, as the transport saw it: '' where not kept); returns the seat with
        its nonce (for the token). The last person's join starts the game.

        ``request``: the join's request id (service/actors/requests.py), kept in its log line. A join sent again with it
        answers the seat it took, for as long as that seat is still held under that join (Unavailable
        seat_given_back once it was given back or its token revoked), and takes nothing more; with other parameters,
        PreconditionFailed (request_id_reused)."""
        return await self.actor.call(lambda: self._join(seat, name, choice, player, origin, request))

    def joined_with(self, request: RequestKey | None) -> bool:
        """Whether a join with this request key was made here (a retry of it takes no seat more)."""
        return request is not None and request.key in self._joined

    async def seat_person(self, seat: int, name: str, nonce: str, player: str = "", origin: str = "") -> None:
        """Seat a person chosen elsewhere (a tournament seats its players in each of its rooms, with the nonce of
        their tournament token and the origin they joined it from). Seating someone already seated with that nonce
        changes nothing."""
        await self.actor.call(lambda: self._seat_person(seat, name, nonce, player, origin))

    def seat_of(self, player: str) -> SeatRecord | None:
        """The seat ``player`` holds here, if any."""
        return next((record for record in self.seats if player and record.player == player), None)

    async def open(self) -> None:
        """Start the game of a room whose every seat was taken as it was made (a tournament of system players, a
        matched room); once only."""
        await self.actor.call(self._open)

    async def leave(self, seat: int, nonce: str) -> None:
        await self.actor.call(lambda: self._leave(seat, nonce))

    async def close_by_operator(self, reason: str) -> None:
        """An operator ends the room now (waiting or playing): nobody wins, the game is not rated, the outcome's
        reason is ``closed_by_operator: <reason>``. Stored before it returns; the streams get the end and stop."""
        await self.actor.call(lambda: self._operator_check(lambda: self._close_by_operator(reason)))

    async def revoke_seat(self, seat: int) -> bool:
        """An operator revokes ``seat``'s token: its holder's tokens and tickets stop working and the streams opened
        as the seat end (SeatReleased). A waiting room's seat is given back (True); a playing room's gets a new nonce
        and stays its holder's (False): a signed-in player takes it up again with a fresh token (TakeSeat)."""
        return await self.actor.call(lambda: self._operator_check(lambda: self._revoke_seat(seat)))

    async def move(self, seat: int, nonce: str, move: Any, request_id: str, expected_version: int | None) -> MoveAnswer:
        """Play ``move`` for ``seat``; the answer comes once the move is recorded (or the refusal, typed)."""
        if not self._metering:
            return await self.actor.call(lambda: self._move(seat, nonce, move, request_id, expected_version))
        started = time.perf_counter()
        answer = await self.actor.call(lambda: self._move(seat, nonce, move, request_id, expected_version))
        self._metrics.move_duration.record(time.perf_counter() - started, self._game_attribute)
        return answer

    async def read(self, reader: Callable[[], Any]) -> Any:
        """Run ``reader`` in the room's turn, so it sees only committed changes (never a move still being written)."""
        return await self.actor.call(reader)

    def forget_updates(self) -> None:
        """Keep none of a finished room's updates in memory: a room kept after its game (to answer reads) then costs
        little memory, and the garbage collector does not walk its history again and again (each walk is a pause of
        every room). The feeds already open read on to the end; a later reader gets them read back from the store."""
        if self.status == FINISHED:
            self.actor.updates = self.updates.emptied()

    def check_seat(self, seat: int, nonce: str) -> None:
        """Raises Unauthenticated unless ``nonce`` is the current one of a person's ``seat``."""
        check_holder(self.seats, seat, nonce, "room")

    def subscribe(self, after_version: int, seat: int | None = None, nonce: str = "") -> Feed[Update]:
        """A feed of every update after ``after_version``: the kept ones now, then each new one (unredacted: the
        transport renders each for its viewer). Only stored updates are ever in it.

        A feed for ``seat`` (its holder's ``nonce``, checked now: Unauthenticated) ends the moment the seat changes
        hands: the update that gives it back is not read, and :class:`SeatReleased` is raised instead, so nothing
        after the change is ever rendered for the holder who opened it (the seat's next holder has another nonce)."""
        published = self.published
        finished = published.status == FINISHED
        if seat is None:
            return self.actor.subscribe(published.version, after_version, finished)
        self.check_seat(seat, nonce)
        since = self.seats[seat].since

        def released(update: Update) -> SeatReleased | None:
            if update.released == seat and update.version > since:
                return SeatReleased(f"seat {seat} was given back: a stream opened as that seat ends with it")
            return None

        return self.actor.subscribe(published.version, after_version, finished, released)

    # -- what happens inside the loop ---------------------------------------------------------------------------------

    async def _join(
        self,
        seat: int | None,
        name: str,
        choice: str = "",
        player: str = "",
        origin: str = "",
        request: RequestKey | None = None,
    ) -> tuple[int, str]:
        if self.tournament_id:
            raise Unavailable(
                f"this room is a game of tournament {self.tournament_id}: join the tournament, whose seat token "
                "every game of it accepts",
                code="tournament_room",
            )
        if request is not None and request.key in self._joined:  # (before any other check: the join was made)
            return joined_before(self._joined[request.key], request, self.seats)
        if self.status == FINISHED and self.state is None:
            raise Unavailable("the room closed: nobody joined it for too long", code="room_closed")
        if player and self.seat_of(player) is not None:
            raise Conflict(
                "the player holds a seat of this room already: take it up with TakeSeat", code="already_seated"
            )
        if self.status != WAITING:
            raise Unavailable("the game has started: every seat is taken", code="room_full")
        if self._record.rated and not player:
            raise Unavailable(
                "this room is rated: join it signed in as a player (PlayerService)", code="sign_in_required"
            )
        seat = seat_to_take(self.seats, seat, full="room_full")
        if choice:
            self._check_choice(seat, choice)
        nonce = secrets.token_hex(8)
        await self._take_seat(
            seat, name or f"player {seat}", nonce, choice, player, origin, request.line if request else ""
        )
        return seat, nonce

    def _choices(self) -> dict[int, str]:
        return {record.seat: record.choice for record in self.seats if record.choice}

    def _check_choice(self, seat: int, choice: str) -> None:
        """Refuses a choice the game does not take (InvalidRequest) or one another seat made (SeatTaken)."""
        try:
            self.game.with_choices(len(self.seats), self.options, {**self._choices(), seat: choice})
        except ChoiceTaken as error:
            raise SeatTaken(str(error), code="choice_taken") from None
        except InvalidOptions as error:
            raise InvalidRequest(str(error), field="choice", code="bad_choice") from None

    async def _take_seat(
        self,
        seat: int,
        name: str,
        nonce: str,
        choice: str = "",
        player: str = "",
        origin: str = "",
        request: str = "",
    ) -> None:
        """``request``: the join's request key and parameters as its log line keeps them ('' for none)."""
        record = self.seats[seat]
        record.taken, record.name, record.nonce, record.choice, record.player = True, name, nonce, choice, player
        record.origin = origin
        record.since = self.version + 1  # (the version this join makes)
        events: list[Any] = [SeatTakenEvent(_copy(record))]
        if all(r.taken for r in self.seats):
            events.append(self._start_game())
        await self._commit(
            events,
            "join",
            seat,
            request_id=request,
            name=name,
            nonce=nonce,
            choice=choice,
            player=player,
            origin=origin,
        )
        known = RequestKey.of_line(request)
        if known is not None:
            self._joined[known.key] = (known.parameters, seat, nonce)

    def _start_game(self) -> GameStartedEvent:
        choices = self._choices()
        options = self.game.with_choices(len(self.seats), self.options, choices) if choices else self.options
        self.state = self.game.new_game(len(self.seats), options, self.seed)
        self.status = PLAYING
        self.unrated_reason = self._why_unrated(self.seats)
        self.rated = not self.unrated_reason
        return GameStartedEvent(self.state.to_act()[0])

    def _why_unrated(self, seats: tuple[SeatRecord, ...] | list[SeatRecord]) -> str:
        """Why a game with these seats would not be rated ('' when it would): see :func:`why_unrated`."""
        people = [(r.taken, r.player, r.origin) for r in seats if r.kind == PERSON]
        return why_unrated(self.surroundings.rates, self._record.rated, self.mode, people)

    def why_unrated(self) -> str:
        """Why the room's game is not rated, as of its last stored update ('' when it is, or would be if it started
        with the people seated now): what its view shows."""
        published = self.published
        if published.status == WAITING:
            return self._why_unrated(published.seats)
        return self.unrated_reason

    def _result(self, outcome: Outcome, now: float) -> GameResult:
        """How the game ended for each seat, for its players' history and ratings (written with the last line)."""
        teams = self.teams
        places = outcome.places(teams) if self.state is not None else [0] * (max(teams) + 1)
        winning = set(outcome.for_teams(teams)[0])
        bot = system_rating_id(self.system_player)
        return GameResult(
            self.room_id,
            self.game.spec.name,
            self.rated,
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
                for r in self.seats
            ),
            self.unrated_reason,
        )

    async def _seat_person(self, seat: int, name: str, nonce: str, player: str = "", origin: str = "") -> None:
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != PERSON:
            raise InvalidRequest(f"seat {seat} is not a person's seat")
        record = self.seats[seat]
        if record.taken:
            if record.nonce != nonce:
                raise SeatTaken(f"seat {seat} is taken")
            return
        await self._take_seat(seat, name, nonce, player=player, origin=origin)

    async def _open(self) -> None:
        if not all(r.taken for r in self.seats):
            raise InvalidRequest("a room with people's seats starts when they are all taken")
        if self.status == WAITING:
            await self._commit([self._start_game()], "start", -1)

    async def _leave(self, seat: int, nonce: str) -> None:
        self.check_seat(seat, nonce)
        if self.status != WAITING:
            return  # nobody is ever removed from a game: the seat stays, the clock plays for it when it must
        await self._free_seat(seat)

    async def _free_seat(self, seat: int) -> None:
        record = self.seats[seat]
        record.taken, record.name, record.nonce, record.choice, record.since, record.player = False, "", "", "", 0, ""
        record.origin = ""
        await self._commit([SeatLeftEvent(seat)], "leave", seat)

    async def _operator_check(self, then: Callable[[], Any]) -> Any:
        """An operator's action on a room still live and not a tournament's game (Unavailable otherwise)."""
        if self.status == FINISHED:
            raise Unavailable("the room's game is over already", code="room_finished")
        if self.tournament_id:
            raise Unavailable("this room is a game of a tournament: ask its tournament", code="tournament_room")
        return await then()

    async def _close_by_operator(self, reason: str) -> None:
        """The operator's close, as the log line ``close`` with the reason in its name (one without is expired)."""
        self.status = FINISHED
        self.state = None  # (the game is over: no move, clock or system player acts any more)
        self.rated, self.unrated_reason = False, NOT_PLAYED
        outcome = Outcome((), f"{CLOSED_BY_OPERATOR}: {reason}", ())
        await self._commit([GameEndedEvent(outcome)], "close", -1, name=reason)

    async def _revoke_seat(self, seat: int) -> bool:
        if not 0 <= seat < len(self.seats):
            raise InvalidRequest(f"seat must be 0-{len(self.seats) - 1}", field="seat", code="bad_seat")
        record = self.seats[seat]
        if record.kind != PERSON or not record.taken:
            raise Unavailable("nobody holds this seat: it has no token", code="seat_not_held")
        if self.status == WAITING:
            await self._free_seat(seat)
            return True
        await self._rekey(seat, secrets.token_hex(8))
        return False

    async def _rekey(self, seat: int, nonce: str) -> None:
        """The seat's holder keeps it under a new nonce (the log line ``revoke``): every token naming the old one
        stops working, and the streams opened as the seat end here."""
        record = self.seats[seat]
        record.nonce, record.since = nonce, self.version + 1
        await self._commit([], "revoke", seat, nonce=nonce)

    async def _close(self) -> None:
        """A waiting room that nobody completed in time ends unplayed (its outcome's reason: expired)."""
        self.status = FINISHED
        self.unrated_reason = NOT_PLAYED
        await self._commit([GameEndedEvent(Outcome((), EXPIRED, ()))], "close", -1)

    async def _abandon(self) -> None:
        """A solo room whose person did not move for ``abandon_seconds`` ends (the log line ``abandon``): nobody
        wins, the game is not rated, the outcome's reason is :data:`ABANDONED`."""
        self.status = FINISHED
        self.state = None  # (the game is over: no move or system player acts any more)
        self.rated = False
        await self._commit([GameEndedEvent(Outcome((), ABANDONED, ()))], "abandon", -1)

    async def _move(
        self, seat: int, nonce: str, move: Any, request_id: str, expected_version: int | None
    ) -> MoveAnswer:
        with self._span("room.move", seat, move, record_exception=False, set_status_on_exception=False) as span:
            try:
                return await self._person_move(seat, nonce, move, request_id, expected_version)
            except (RuleError, ServiceError) as exc:
                # The reason code only: a refusal's message or cards must not reach telemetry.
                span.set_attribute("kickoff.refusal", exc.code)
                span.set_status(Status(StatusCode.ERROR, exc.code))
                raise

    async def _person_move(
        self, seat: int, nonce: str, move: Any, request_id: str, expected_version: int | None
    ) -> MoveAnswer:
        if request_id:
            version = self._accepted.get((seat, request_id))
            if version is not None:
                trace.get_current_span().set_attribute("kickoff.retried", True)
                return MoveAnswer(version, await self._update(version), retried=True)
            refused = self._refused.get(seat)
            if refused is not None and request_id in refused:
                raise refused[request_id]
        try:
            self.check_seat(seat, nonce)
            if self.status == WAITING:
                raise Unavailable("the game has not started: seats are still free", code="not_started")
            if self.state is None:
                # (closed unplayed, by an operator, or abandoned: its outcome says which)
                raise Unavailable("the room closed: its outcome says why", code="room_closed")
            if expected_version is not None:
                since = self._legal[seat][0] if seat in self._legal else self.version
                if not since <= expected_version <= self.version:
                    raise StaleVersion(
                        f"the seat's moves changed at version {since}, after version {expected_version}"
                        if expected_version < since
                        else f"the room is at version {self.version}, not {expected_version}"
                    )
            answer = await self._apply(seat, move, by_table=False, request_id=request_id)
        except (StoreUnavailable, StoreRefused):
            raise  # not an answer to remember: the rebuilt room judges a retry afresh
        except (RuleError, ServiceError) as exc:
            if request_id:
                refused = self._refused.setdefault(seat, OrderedDict())
                refused[request_id] = exc
                if len(refused) > REFUSALS_KEPT:
                    refused.popitem(last=False)
            raise
        if request_id:
            self._accepted[(seat, request_id)] = answer.version
        return answer

    async def _apply(
        self, seat: int, move: Any, *, by_table: bool, request_id: str = "", stand_in: bool = False
    ) -> MoveAnswer:
        """The one path every move takes: the engine judges it, the journal commits it, then everyone hears of it.
        ``by_table``: the clock's move; ``stand_in``: a stand-in's move for a person's seat."""
        state = self.state
        if state is None:
            raise Unavailable("the game has not started", code="not_started")
        engine_events = state.apply(seat, move, by_table=by_table)
        events: list[Any] = [GameEvent(e) for e in engine_events]
        outcome = state.outcome()
        record = self.seats[seat]
        playing = outcome is None
        changed = self.stand_ins and record.kind == PERSON and self._stand_in(record, by_table, stand_in, playing)
        if changed:
            events.append(StandInEvent(seat, record.stand_in))
        if outcome is not None:
            self.status = FINISHED
            events.append(GameEndedEvent(outcome))  # (a game's own end event, if it has one, stays: the codec decides)
        mover = None if by_table or stand_in or record.kind == SYSTEM else seat
        kind = "table" if by_table else "stand_in" if stand_in else "move"
        update = await self._commit(events, kind, seat, mover, request_id, move=move, seats_changed=changed)
        if self.actor.replaying is None and self._tracing:
            trace.get_current_span().set_attribute("kickoff.version", update.version)
        if self.actor.replaying is None and self._metering:
            who = "person" if mover is not None else "system" if kind == "move" else kind
            self._metrics.moves.add(1, {**self._game_attribute, "kickoff.move.kind": _kind(move), "kickoff.mover": who})
        return MoveAnswer(update.version, update)

    def _stand_in(self, record: SeatRecord, by_table: bool, stand_in: bool, playing: bool) -> bool:
        """In a room with stand-ins: keep count of the clock's plays in a row for a person's seat, start a stand-in
        after ``STAND_IN_AFTER`` of them (while the game goes on) or end it at the person's own move. Returns whether
        the seat changed. Only the log decides (its table and move lines), so a replay stands in where the game did."""
        if by_table:
            record.clocked += 1
            if playing and not record.stand_in and record.clocked >= STAND_IN_AFTER:
                record.stand_in = STAND_IN_LEVEL
                record.bot = self.game.new_bot(STAND_IN_LEVEL, self.seed + record.seat)
                return True
        elif not stand_in:  # the person's own move
            record.clocked = 0
            if record.stand_in:
                record.stand_in, record.bot = "", None
                return True
        return False

    async def _commit(
        self,
        events: list[Any],
        kind: str,
        seat: int,
        mover: int | None = None,
        request_id: str = "",
        *,
        seats_changed: bool = False,
        move: Any = None,
        name: str = "",
        nonce: str = "",
        choice: str = "",
        player: str = "",
        origin: str = "",
    ) -> Update:
        """Make the next version: re-arm the clocks, commit its log entry (of ``kind``, by ``seat``; the other
        arguments are the entry's too) through the actor, which then tells every subscriber."""
        actor = self.actor
        actor.version = version = actor.version + 1
        replay = actor.replaying
        now = replay.time if replay else self.clock.now()
        self.changed_at = now
        begun = self._arm(now, replay.deadlines if replay else None)
        running = self.seat_clocks.running
        state = self.state
        to_act = state.to_act() if state is not None else ()
        entry = None
        if replay is None:
            self.used_at = now
            began = {seat for seat, _ in begun}
            entry = LogEntry(
                self.room_id,
                version,
                kind,
                seat,
                move=None if move is None else move.to_wire(),
                request_id=request_id,
                name=name,
                nonce=nonce,
                choice=choice,
                deadlines={seat: clock.deadline for seat, clock in running.items()},
                time=now,
                epoch=actor.epoch,
                player=player,
                origin=origin,
                result=self._result(events[-1].outcome, now) if self.status == FINISHED else None,
                turns=tuple(
                    Turn(
                        seat,
                        self.seats[seat].player,
                        running[seat].deadline if seat in running else None,
                        seat in began,
                    )
                    for seat in to_act
                ),
                game=self.game.spec.name,
                wake_at=self.wake_at,
            )
        deadlines = tuple(running[seat] for seat in to_act if seat in running)
        legal = {seat: state.legal_moves(seat) for seat in to_act if self.seats[seat].kind == PERSON}
        finished = self.status == FINISHED
        update = Update(
            version=version,
            events=tuple(events),
            status=self.status,
            to_act=to_act,
            deadlines=deadlines,
            time=now,
            legal=legal,
            mover=mover,
            request_id=request_id if kind != "join" else "",  # (a join's is its key: for the log alone)
            released=seat if kind in ("leave", "revoke") else -1,
        )
        await actor.commit(entry, self.status)  # (stored, or raises: nobody heard of it)
        self._note_legal(legal)
        published = self.published
        self.published = Published(
            version,
            self.status,
            tuple(_copy(r) for r in self.seats) if seats_changed or kind in ("join", "leave") else published.seats,
            to_act,
            deadlines,
            events[-1].outcome if finished else None,
        )
        actor.publish(update, last=finished)
        if kind in ("join", "leave") or (finished and self._expiry is not None):
            self._arm_expiry()  # (a finished room's timer goes)
        return update

    def _note_legal(self, legal: dict[int, list[Any]]) -> None:
        """Keep, for each acting person, since which version its legal moves are what they are now: a move whose
        expected version is that one or later is not stale (another responder's move in a window changes nothing of
        this seat's)."""
        noted = self._legal
        for seat in [seat for seat in noted if seat not in legal]:
            del noted[seat]
        for seat, moves in legal.items():
            known = noted.get(seat)
            if known is None or known[1] != moves:
                noted[seat] = (self.version, moves)

    # -- the log ----------------------------------------------------------------------------------------------------

    async def restore(self, entries: list[LogEntry]) -> None:
        """Rebuild the room from its log after a restart: every update again, in order, with the same versions, the
        same events and the stored clock deadlines; then the clocks resume with the time that was left and system
        players who must act wake up. Accepted request ids answer as before."""
        await self.actor.restore(entries)

    async def replay(self, entry: LogEntry) -> None:
        """Make the change one stored line records (the actor replays the log a line at a time)."""
        if entry.kind == "join":
            await self._take_seat(
                entry.seat, entry.name, entry.nonce, entry.choice, entry.player, entry.origin, entry.request_id
            )
        elif entry.kind == "leave":
            await self._free_seat(entry.seat)
        elif entry.kind == "start":
            await self._open()
        elif entry.kind == "close":
            await (self._close_by_operator(entry.name) if entry.name else self._close())
        elif entry.kind == "revoke":
            await self._rekey(entry.seat, entry.nonce)
        elif entry.kind == "abandon":
            await self._abandon()
        else:
            move = self.game.move_from_wire(entry.move or "")
            answer = await self._apply(
                entry.seat,
                move,
                by_table=entry.kind == "table",
                request_id=entry.request_id,
                stand_in=entry.kind == "stand_in",
            )
            if entry.request_id:
                self._accepted[(entry.seat, entry.request_id)] = answer.version

    def resume(self) -> None:
        """After a replay: each clock resumes with the time that was left, system players who must act wake up, and
        a waiting room's time to close runs again."""
        self._arm(self.clock.now(), self.seat_clocks.restart())
        self._arm_expiry()
        if self.status == WAITING and self._record.people and all(r.taken for r in self.seats):
            self.actor.enqueue(self._open)  # (a matched room stored just before a crash, not yet started)

    # -- old updates --------------------------------------------------------------------------------------------------

    async def _update(self, version: int) -> Update:
        """Update ``version``, from memory or read back from the store."""
        try:
            return self.updates[version - 1]
        except Evicted:
            return (await self._read_back(version - 1, version))[0]

    async def _read_back(self, start: int, stop: int | None = None) -> list[Update]:
        """The updates from index ``start`` up to ``stop`` (default: the oldest kept in memory), rebuilt from the
        store's log by a room replayed aside."""
        stop = self.updates.first if stop is None else stop
        journal = self.actor.journal
        entries = [entry for entry in await journal.load(KIND, self.room_id) if entry.version <= stop]
        aside = Room(self.record(), replace(self.surroundings, limits=replace(self.limits, history=None)))
        await aside.actor.replay(entries)
        return [aside.updates[index] for index in range(start, min(stop, len(aside.updates)))]

    async def replay_steps(self, after: int, count: int) -> tuple[list[ReplayStep], bool, int]:
        """Up to ``count`` of the stored updates after version ``after``, each with the table after it, rebuilt from
        the store's log by a room replayed aside: ``(steps, revealed, last)``. ``revealed``: the game is over, so
        every hand may be shown (each step carries every seat's view); until then a step holds what a spectator may
        see only. ``last``: the last stored version."""
        published = self.published
        revealed, last = published.status == FINISHED, published.version
        stop = min(last, after + count)
        if after >= stop:
            return [], revealed, last
        entries = [entry for entry in await self.actor.journal.load(KIND, self.room_id) if entry.version <= stop]
        aside = Room(self.record(), replace(self.surroundings, limits=replace(self.limits, history=None)))
        steps: list[ReplayStep] = []
        for entry in entries:
            await aside.actor.replay([entry])
            if entry.version <= after:
                continue
            state = aside.state
            update = aside.updates[entry.version - 1]
            if state is None:
                steps.append(ReplayStep(update, None))
            else:
                hands = tuple(state.view(seat) for seat in range(len(aside.seats))) if revealed else ()
                steps.append(ReplayStep(update, state.view(None), hands))
        return steps, revealed, last

    # -- clocks and system players ---------------------------------------------------------------------------------

    def _arm(self, now: float, stored: Mapping[int, float] | None = None) -> list[tuple[int, Any]]:
        """After a change: the seats' clocks follow the acting seats (service/rooms/clocks.py), and each system
        player whose period began is woken. ``stored``: the deadlines the log has by seat, so that a restored room
        resumes each clock with the time that was left. While replaying a log, no timer is set and no system player
        woken: that happens once the room is whole again. Returns the (seat, key) of each period that began."""
        replaying = self.actor.replaying is not None
        state = self.state if self.status == PLAYING else None
        begun = self.seat_clocks.arm(state, now, online=self.mode == ONLINE, stored=stored, replaying=replaying)
        if not replaying:
            for seat, key in begun:
                if self.seats[seat].bot is not None:  # (a system player, or a stand-in)
                    self._wake_bot(seat, key)
        return begun

    @property
    def wake_at(self) -> float | None:
        """When a room that rests must be in memory again: a correspondence room's first running deadline while the
        game is played and every acting seat is a person's; a solo room's time to end as abandoned
        (:attr:`abandon_at`) while its person must move. None for a live room, a room that is not playing, one whose
        system player must move (it stays in memory), one without a running clock, and an online tournament's game.
        (A solo tournament's game rests only with its tournament: service/tournaments/directory.py.)"""
        state = self.state
        if self.status != PLAYING or state is None:
            return None
        abandon_at = None
        # (a live room, on every move, answers here at once)
        if not self.correspondence_hours and (self.mode != SOLO or (abandon_at := self.abandon_at) is None):
            return None
        acting = state.to_act()
        if not acting or any(self.seats[seat].bot is not None for seat in acting):
            return None
        if abandon_at is not None:
            return abandon_at
        running = self.seat_clocks.running
        deadlines = [running[seat].deadline for seat in acting if seat in running]
        return min(deadlines) if deadlines else None

    @property
    def abandon_at(self) -> float | None:
        """When a solo room being played (a solo tournament's game too: its tournament then ends with it) ends as
        abandoned if nothing happens in it meanwhile: ``abandon_seconds`` after its last line. None for any other
        room, or with no such bound."""
        seconds = self.surroundings.abandon_seconds
        if seconds is None or self.mode != SOLO or self.status != PLAYING:
            return None
        return self.changed_at + seconds

    def may_rest(self, now: float, rest_seconds: float, horizon: float, *, with_tournament: bool = False) -> bool:
        """Whether this room may leave memory now: a correspondence or solo room being played (outside tournaments,
        unless it rests ``with_tournament``, a solo tournament's game) whose actor has nothing in hand or queued, with
        no reader, unused for ``rest_seconds``, and whose ``wake_at`` is later than ``horizon`` (the wake sweep's
        reach: it is loaded again before it is due)."""
        if not (self.correspondence_hours or self.mode == SOLO) or self.status != PLAYING:
            return False
        if self.tournament_id and not with_tournament:
            return False
        actor = self.actor
        if not actor.idle or actor.readers.open_feeds or now - self.used_at < rest_seconds:
            return False
        wake_at = self.wake_at
        return wake_at is not None and wake_at > horizon

    @property
    def first_deadline(self) -> Deadline | None:
        """The first acting seat's running clock (a turn has one; a response window one per responder)."""
        return next(iter(self.published.deadlines), None)

    def _arm_expiry(self) -> None:
        """A waiting room (not a tournament's) closes once ``limits.waiting_seconds`` pass with no seat change; a solo
        room being played (a solo tournament's game too) ends as abandoned at :attr:`abandon_at`. The solo room's
        timer is set once, not at every move: when it fires, :meth:`_expire` sets it again for the later time a move
        made meanwhile gives."""
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
        actor = self.actor
        if actor.replaying or not actor.started:
            return
        seconds = self.limits.waiting_seconds
        if self.status == WAITING and seconds is not None and not self.tournament_id:
            since = self.updates[-1].time if self.updates else self.created_at
            self._expiry = self.clock.call_at(since + seconds, lambda: actor.enqueue(self._expire))
        elif (abandon_at := self.abandon_at) is not None:
            self._expiry = self.clock.call_at(abandon_at, lambda: actor.enqueue(self._expire))

    async def _expire(self) -> None:
        if self.status == WAITING:  # (a seat change re-arms the timer; one that fired meanwhile finds a room begun)
            await self._close()
        elif (abandon_at := self.abandon_at) is not None:
            if abandon_at <= self.clock.now():
                await self._abandon()
            else:  # (a line was made since the timer was set: it ends later, if nothing happens until then)
                self._arm_expiry()

    def _expired(self, seat: int, key: Any) -> None:
        self.actor.enqueue(lambda: self._table_move(seat, key))

    async def _table_move(self, seat: int, key: Any) -> None:
        """The clock ran out: the table plays the engine's default move for the seat (if that period still stands)."""
        if self.seat_clocks.key(seat) != key or self.state is None or seat not in self.state.to_act():
            return
        with self._span("room.clock_expired", seat):
            self._metrics.clock_expiries.add(1, self._game_attribute)
            self._metrics.clock_lateness.record(
                max(0.0, self.clock.now() - self.seat_clocks.running[seat].deadline), self._game_attribute
            )
            await self._apply(seat, self.state.timeout_move(seat), by_table=True)

    def _span(self, name: str, seat: int, move: Any = None, **options: Any) -> Any:
        """A span of this room's (room id, game, seat, and the move's kind), current while the block runs: in the
        room's trace when the room is traced, in the caller's when the call carries a sampled trace context (linked to
        the room's); otherwise, and with tracing off, the invalid span, at no cost (no SDK call)."""
        if not self._tracing:
            return contextlib.nullcontext(trace.INVALID_SPAN)
        if in_sampled_trace():
            parent, links = None, self._trace_links
        elif self._trace is not None:
            parent, links = self._trace, None
        else:
            return contextlib.nullcontext(trace.INVALID_SPAN)
        attributes = {**self._attributes, "kickoff.seat": seat}
        if move is not None:
            attributes["kickoff.move.kind"] = _kind(move)
        return SpanScope(self._tracer.start_span(name, parent, attributes=attributes, links=links), **options)

    def _wake_bot(self, seat: int, key: Any) -> None:
        if hasattr(self.seats[seat].bot, "decide"):  # (a player that searches: its thinking is its search)
            self._search(seat, key)
            return
        think = self.think_seconds
        if think is None:
            think = self._think_random.uniform(*THINK_RANGE)
        self._metrics.think_time.record(think, self._game_attribute)
        actor = self.actor

        def enqueue() -> None:
            actor.enqueue(lambda: self._bot_move(seat, key))

        if think <= 0:
            enqueue()
        else:
            self.seat_clocks.later(seat, self.clock.now() + think, enqueue)

    def _search(self, seat: int, key: Any) -> None:
        """Start the search of a system player that searches, off the event loop (Thinkers): it is given the seat's
        view, for its think time (the room's ``think_seconds``, else the game's), always ending
        ``SEARCH_MARGIN`` seconds inside the seat's clock; its move then goes the way of any system player's."""
        state = self.state
        if state is None:
            return
        seconds = self.think_seconds if self.think_seconds is not None else self.game.search.seconds
        running = self.seat_clocks.running.get(seat)
        if running is not None:
            seconds = min(seconds, max(0.0, running.deadline - self.clock.now() - SEARCH_MARGIN))
        view = state.view(seat)
        seed = (self.seed + seat) * 1_000_003 + state.version
        thinkers = self.surroundings.thinkers
        actor = self.actor

        async def think() -> None:
            move = None
            try:
                thought = await thinkers.think(self.game.spec.name, view, seat, seed, seconds)
                move = self.game.move_from_wire(thought.move)
                self._metrics.search_iterations.record(thought.iterations, self._game_attribute)
            except asyncio.CancelledError:
                raise
            except Exception:  # (the pool broke, or the search failed): the normal player answers instead
                log.exception("room %s: seat %s's search failed; the normal player moves instead", self.room_id, seat)
            actor.enqueue(lambda: self._bot_move(seat, key, move))

        self._metrics.think_time.record(seconds, self._game_attribute)
        task = asyncio.get_running_loop().create_task(think(), name=f"search {self.room_id} seat {seat}")
        self._searches.add(task)
        task.add_done_callback(self._searches.discard)

    async def _bot_move(self, seat: int, key: Any, move: Any = None) -> None:
        """A system player moves through the same path as people, if its turn still stands (``move``: the one its
        search chose; None: ask the bot, or for a player that searches whose search failed, the normal player)."""
        state = self.state
        clocks = self.seat_clocks
        if clocks.key(seat) != key or state is None or seat not in state.to_act():
            return
        record = self.seats[seat]
        bot = record.bot
        if bot is None:
            return  # (a stand-in whose person moved again meanwhile)
        stand_in = record.kind == PERSON
        if move is None and not hasattr(bot, "decide"):
            move = bot.choose(state, seat)
        elif move is None or move not in state.legal_moves(seat):
            # Its search failed, or the table changed while it searched: the normal player moves instead.
            move = self.game.new_bot("normal", self.seed + seat).choose(state, seat)
        try:
            with self._span("room.stand_in_move" if stand_in else "room.system_player_move", seat, move):
                await self._apply(seat, move, by_table=False, stand_in=stand_in)
        except NotYourTurn:
            return
        # The same seat may have to act again in the same period (after a draw): wake it again.
        state = self.state
        if state is None or self.status != PLAYING or seat not in state.to_act():
            return
        if clocks.key(seat) == key and record.bot is not None:
            self._wake_bot(seat, key)


def _kind(move: Any) -> str:
    """A move's kind (its wire form's first word: play, draw, end, timeout), never its cards."""
    kind = getattr(move, "kind", None)
    if type(kind) is str:  # (every game's move has its kind first)
        return kind
    to_wire = getattr(move, "to_wire", None)
    return to_wire().split(" ", 1)[0] if to_wire is not None else "malformed"


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
        return SOLO
    if not people:
        return NO_PEOPLE
    seated = [(player, origin) for taken, player, origin in people if taken]
    if any(not player for player, _ in seated):
        return NOT_SIGNED_IN
    origins = [origin for _, origin in seated if origin]
    if len(set(origins)) < len(origins):
        return SAME_ADDRESS
    return ""


def _copy(record: SeatRecord) -> SeatRecord:
    return SeatRecord(
        record.seat,
        record.kind,
        record.taken,
        record.name,
        team=record.team,
        choice=record.choice,
        player=record.player,
        stand_in=record.stand_in,
        origin=record.origin,
    )
