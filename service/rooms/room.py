"""One room: a table of seats around one game, run as one serialised loop.

Joins, leaves, moves from people, the table's moves when a clock runs out and the system players' moves all enter one
queue and are handled in order by the room's task, so nothing about a room ever changes concurrently. The engine is the
only judge of a move. Side effects go through collaborators given to the room: the clock (for turn deadlines and think
time) and the journal (which records each accepted move before anyone hears of it), so a room runs the same in a test,
with a manual clock and a journal in memory, as in the server.

Every change is an :class:`Update` with the next version number. Updates are kept, so a subscriber that comes back with
the last version it saw gets every later update exactly once; each viewer gets the update redacted for it.

A change is applied in memory first and then stored; nobody hears of it before the store has it. When the store
fails (it is away, or refuses the line), the room's memory is ahead of the store, so the room rebuilds itself from
the store's log, as a restarted server would, before it does anything else: while the store is away it answers
StoreUnavailable (retriable) and tries again with backoff, and once it is back the room goes on by itself (clocks,
system players). A change whose commit failed ambiguously (the store may have it) is in the rebuilt room exactly when
the store has it, so no client ever sees a version the store does not hold, and a retried request id answers as the
first time.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.trace import Status, StatusCode

from engine.core import Bot, ChoiceTaken, Game, GameState, InvalidOptions, NotYourTurn, Outcome, RuleError
from service.errors import (
    InvalidRequest,
    RoomMoved,
    RoomUnavailable,
    SeatReleased,
    SeatTaken,
    ServiceError,
    StaleVersion,
    StoreRefused,
    StoreUnavailable,
    Unauthenticated,
)
from service.rooms.clock import Clock, Timer
from service.rooms.feed import HISTORY_KEPT, STREAM_BUFFER, Evicted, Feed, History, Readers
from service.store.records import LogEntry, RoomRecord
from service.telemetry import Telemetry

log = logging.getLogger(__name__)

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
ONLINE, SOLO = "online", "solo"
PERSON, SYSTEM = "person", "system"
REFUSALS_KEPT = 32  # refused request ids remembered per seat (accepted ones are kept for the room's life)
THINK_RANGE = (0.8, 2.0)  # a system player's think time when the room sets none
RECOVERY_BACKOFF = (0.05, 2.0)  # seconds between a recovering room's tries to read its log back: first, most
EXPIRED = "expired"  # the outcome's reason when a waiting room closes unplayed


@dataclass(frozen=True)
class RoomLimits:
    """What a room may hold on to: how long it waits for its people, and how many answers a stream may queue."""

    waiting_seconds: float | None = None  # a waiting room with no seat change for this long closes (None: never)
    stream_buffer: int = STREAM_BUFFER  # a play stream's answers that may wait for its client (see feed.py)
    history: int | None = HISTORY_KEPT  # recent updates kept in memory; older ones are read back from the store


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
class GameEndedEvent:
    outcome: Outcome


@dataclass(frozen=True)
class ClockInfo:
    """One acting seat's clock: when the table plays for it, and how long its period is."""

    seat: int
    deadline: float
    seconds: float


@dataclass(eq=False)
class Update:
    """One change of the room and everything it caused."""

    version: int
    events: tuple[Any, ...]
    status: str
    to_act: tuple[int, ...]
    clocks: tuple[ClockInfo, ...]  # one per acting seat with a running clock, in to_act's order
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
    clocks: tuple[ClockInfo, ...]
    outcome: Outcome | None


@dataclass(frozen=True)
class MoveAnswer:
    """What an accepted move returns: the version after it and the update it caused (``retried``: the first answer
    to a request id seen before)."""

    version: int
    update: Update
    retried: bool = False


class Journal(Protocol):
    """Makes rooms durable: each call returns once what it was given is committed, or raises StoreUnavailable (try
    again later; it may or may not be stored) or StoreRefused (not stored)."""

    async def create_room(self, record: RoomRecord) -> None: ...

    async def append(self, entry: LogEntry, status: str) -> None: ...

    async def load_room(self, room_id: str) -> list[LogEntry]:
        """The room's log as stored, in version order."""
        ...

    async def load_one(self, room_id: str) -> tuple[RoomRecord, list[LogEntry]] | None:
        """A room as created, with its log (None: no such room)."""
        ...

    async def list_rooms(self, game: str, status: str, size: int, after: str) -> tuple[list[str], str]:
        """A page of room ids, newest first, and the next page's token."""
        ...


class Room:
    """A table of ``seats`` around one game of ``game``; see the module docstring."""

    def __init__(
        self,
        *,
        room_id: str,
        game: Game,
        mode: str,
        seats: int,
        system_seats: tuple[int, ...],
        options: Mapping[str, Any],
        system_player: str,
        think_seconds: float | None,
        seed: int,
        clock: Clock,
        journal: Journal,
        created_at: float,
        tournament_id: str = "",
        tournament_game: int | None = None,
        on_finished: Callable[[Room], None] | None = None,
        telemetry: Telemetry | None = None,
        limits: RoomLimits = RoomLimits(),
        epoch: int = 0,
        on_moved: Callable[[Room], None] | None = None,
    ) -> None:
        self.room_id = room_id
        # The lease epoch this node holds the room under (a cluster's node; 0: a single node). Every log line carries
        # it; the store refuses a line once another node has claimed the room (RoomMoved): the room then stops here,
        # and ``on_moved`` is told.
        self.epoch = epoch
        self.on_moved = on_moved
        self.tournament_id = tournament_id  # the tournament this room's game belongs to ('' for none)
        self.tournament_game = tournament_game  # the game's index in it
        self.on_finished = on_finished  # told once the game ends (not while a restarted server replays the log)
        self.game = game
        self.mode = mode
        self.options = dict(options)
        self.seed = seed
        self.clock = clock
        self.journal = journal
        self.created_at = created_at
        self.think_seconds = think_seconds
        self.system_player = system_player
        self.limits = limits
        self.system_seats = tuple(system_seats)  # the seats system players take
        self.teams = game.teams(seats, self.options)  # the team each seat plays for
        telemetry = telemetry or Telemetry()
        self._tracer = telemetry.tracer
        self._metrics = telemetry.instruments
        # With a signal off, the move path skips its work outright (no no-op spans, contexts or attribute dicts).
        self._tracing, self._metering = telemetry.tracing, telemetry.metering
        self._attributes = {"kickoff.room_id": room_id, "kickoff.game": game.spec.name}
        self._game_attribute = {"kickoff.game": game.spec.name}
        self.updates: History[Update] = History(limits.history)  # read in place by every feed (see _rebuild)
        self._readers: Readers[Update] = Readers(limits.stream_buffer, self._read_back)
        self._timers: dict[int, list[Timer]] = {}  # each acting seat's clock and system player's think time
        self._expiry: Timer | None = None
        self._reset(seats)
        # Each command carries the trace context of whoever asked, so its spans join the caller's trace.
        self._queue: asyncio.Queue[tuple[Callable[[], Any], asyncio.Future[Any] | None, Any]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._busy = False  # a command is being handled
        self._replaying: LogEntry | None = None  # the entry being replayed while the room is rebuilt from its log
        self._ahead = False  # a change is applied here that the store did not confirm: rebuild before anything else
        self._recovering = False  # the store is away: requests are refused until the room is rebuilt from it
        self._recovered = asyncio.Event()  # set whenever the room is not recovering
        self._recovered.set()
        self._told_finished = False
        self._moved: RoomMoved | None = None  # another node owns the room now: it does nothing more here
        self._abandoned = False

    def _reset(self, seats: int) -> None:
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
            for s in range(seats)
        ]
        self.state: GameState | None = None
        self.status = WAITING
        self.version = 0
        self.clocks: dict[int, ClockInfo] = {}  # the running clock of each acting seat that has one
        self._clock_keys: dict[int, Any] = {}  # each acting seat's clocked period (GameState.clock_key)
        self._paused: dict[int, tuple[Any, float]] = {}  # a seat's period left unfinished: (its key, seconds left)
        self._legal: dict[int, tuple[int, list[Any]]] = {}  # each acting person's legal moves, and since which version
        self._accepted: dict[tuple[int, str], int] = {}  # the version each accepted request id made
        self._refused: dict[int, OrderedDict[str, RuleError | ServiceError]] = {}
        self.published = Published(0, WAITING, tuple(_copy(r) for r in self.seats), (), (), None)

    def record(self) -> RoomRecord:
        """The room as created, for the store."""
        return RoomRecord(
            room_id=self.room_id,
            game=self.game.spec.name,
            mode=self.mode,
            seats=len(self.seats),
            system_seats=self.system_seats,
            system_player=self.system_player,
            think_seconds=self.think_seconds,
            options=self.options,
            seed=self.seed,
            created_at=self.created_at,
            status=self.status,
            tournament_id=self.tournament_id,
            tournament_game=self.tournament_game,
        )

    # -- the loop ---------------------------------------------------------------------------------------------------

    def start(self) -> None:
        if self._task is None:
            # A context of its own: the room's commands run in their callers' trace contexts, and the room's own
            # (system players, clocks) in none, never in that of whoever happened to create the room.
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name=f"room {self.room_id}", context=contextvars.Context()
            )
            self._arm_expiry()

    def stop(self) -> None:
        """Stop at once, without waiting (a finished room leaving memory: it has nothing in hand)."""
        self._cancel_timers()
        if self._expiry is not None:
            self._expiry.cancel()
        if self._task is not None:
            self._task.cancel()
        self._readers.end()

    async def close(self) -> None:
        self._cancel_timers()
        if self._expiry is not None:
            self._expiry.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._readers.end()

    async def _run(self) -> None:
        while True:
            command, future, trace_context = await self._queue.get()
            self._busy = True
            token = otel_context.attach(trace_context) if trace_context is not None else None
            try:
                result = command()
                if asyncio.iscoroutine(result):
                    result = await result
            except (RuleError, ServiceError) as exc:
                if future is None:  # the room's own command (a system player, the clock)
                    if self._ahead:  # its change could not be stored: the rebuilt room plays it again
                        log.warning("room %s: could not store the room's own move: %s", self.room_id, exc.code)
                    else:  # a refusal is a bug
                        log.error("room %s: internal move refused: %s", self.room_id, exc.code)
                elif not future.cancelled():
                    future.set_exception(exc)
            except Exception as exc:  # a bug: keep the room alive, tell the caller, leave a trace
                log.exception("room %s: command failed", self.room_id)
                if future is not None and not future.cancelled():
                    future.set_exception(exc)
            else:
                if future is not None and not future.cancelled():
                    future.set_result(result)
            finally:
                if token is not None:
                    otel_context.detach(token)
                self._busy = False
            if self._moved is not None:
                self._refuse_queued(self._moved)  # (a hand-over's marker among them)
                self._abandon()
                return
            if self._ahead:
                await self._recover()

    def _unavailable(self) -> StoreUnavailable:
        return StoreUnavailable("this room's store is unavailable; the room resumes by itself once it is back")

    async def _call(self, command: Callable[[], Any]) -> Any:
        if self._moved is not None:
            raise self._moved
        if self._recovering:
            raise self._unavailable()
        future = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((command, future, otel_context.get_current() if self._tracing else None))
        return await future

    def _enqueue(self, command: Callable[[], Any]) -> None:
        self._queue.put_nowait((command, None, None))

    async def settle(self) -> None:
        """Wait until the command in hand and every command queued (and what they queue in turn) are handled, and the
        room is not recovering from a store failure."""
        while True:
            await self._recovered.wait()
            with contextlib.suppress(StoreUnavailable):
                await self._call(lambda: None)
                if self._queue.empty() and not self._busy and not self._recovering:
                    return

    # -- requests ---------------------------------------------------------------------------------------------------

    async def join(self, seat: int | None, name: str, choice: str = "") -> tuple[int, str]:
        """Take a person's seat, with what the person chooses for it where the game offers a choice (a team);
        returns the seat with its nonce (for the token). The last person's join starts the game."""
        return await self._call(lambda: self._join(seat, name, choice))

    async def seat_person(self, seat: int, name: str, nonce: str) -> None:
        """Seat a person chosen elsewhere (a tournament seats its players in each of its rooms, with the nonce of
        their tournament token). Seating someone already seated with that nonce changes nothing."""
        await self._call(lambda: self._seat_person(seat, name, nonce))

    async def open(self) -> None:
        """Start the game of a room with no person's seat (a tournament of system players); once only."""
        await self._call(self._open)

    async def leave(self, seat: int, nonce: str) -> None:
        await self._call(lambda: self._leave(seat, nonce))

    async def move(self, seat: int, nonce: str, move: Any, request_id: str, expected_version: int | None) -> MoveAnswer:
        """Play ``move`` for ``seat``; the answer comes once the move is recorded (or the refusal, typed)."""
        if not self._metering:
            return await self._call(lambda: self._move(seat, nonce, move, request_id, expected_version))
        started = time.perf_counter()
        answer = await self._call(lambda: self._move(seat, nonce, move, request_id, expected_version))
        self._metrics.move_duration.record(time.perf_counter() - started, self._game_attribute)
        return answer

    async def read(self, reader: Callable[[], Any]) -> Any:
        """Run ``reader`` in the room's turn, so it sees only committed changes (never a move still being written)."""
        return await self._call(reader)

    def forget_updates(self) -> None:
        """Keep none of a finished room's updates in memory: a room kept after its game (to answer reads) then costs
        little memory, and the garbage collector does not walk its history again and again (each walk is a pause of
        every room). The feeds already open read on to the end; a later reader gets them read back from the store."""
        if self.status == FINISHED:
            self.updates = self.updates.emptied()

    def check_seat(self, seat: int, nonce: str) -> None:
        """Raises Unauthenticated unless ``nonce`` is the current one of a person's ``seat``."""
        if not 0 <= seat < len(self.seats):
            raise Unauthenticated("the token names no seat of this room")
        record = self.seats[seat]
        if record.kind != PERSON or not record.taken or record.nonce != nonce:
            raise Unauthenticated("the seat token is no longer valid (the seat was given back)")

    def subscribe(self, after_version: int, seat: int | None = None, nonce: str = "") -> Feed[Update]:
        """A feed of every update after ``after_version``: the kept ones now, then each new one (unredacted: the
        transport renders each for its viewer). Only stored updates are ever in it.

        A feed for ``seat`` (its holder's ``nonce``, checked now: Unauthenticated) ends the moment the seat changes
        hands: the update that gives it back is not read, and :class:`SeatReleased` is raised instead, so nothing
        after the change is ever rendered for the holder who opened it (the seat's next holder has another nonce)."""
        published = self.published
        finished = published.status == FINISHED
        if seat is None:
            return self._readers.open(self.updates, published.version, after_version, finished)
        self.check_seat(seat, nonce)
        since = self.seats[seat].since

        def released(update: Update) -> SeatReleased | None:
            if update.released == seat and update.version > since:
                return SeatReleased(f"seat {seat} was given back: a stream opened as that seat ends with it")
            return None

        return self._readers.open(self.updates, published.version, after_version, finished, released)

    # -- what happens inside the loop ---------------------------------------------------------------------------------

    async def _join(self, seat: int | None, name: str, choice: str = "") -> tuple[int, str]:
        if self.tournament_id:
            raise RoomUnavailable(
                f"this room is a game of tournament {self.tournament_id}: join the tournament, whose seat token "
                "every game of it accepts",
                code="tournament_room",
            )
        if self.status == FINISHED and self.state is None:
            raise RoomUnavailable("the room closed: nobody joined it for too long", code="room_closed")
        if self.status != WAITING:
            raise RoomUnavailable("the game has started: every seat is taken", code="room_full")
        free = [r.seat for r in self.seats if r.kind == PERSON and not r.taken]
        if seat is None:
            if not free:
                raise RoomUnavailable("no free seat", code="room_full")
            seat = free[0]
        elif not 0 <= seat < len(self.seats):
            raise InvalidRequest(f"seat must be 0-{len(self.seats) - 1}", field="seat")
        elif self.seats[seat].kind != PERSON:
            raise SeatTaken("the seat asked for belongs to a system player")
        elif self.seats[seat].taken:
            raise SeatTaken("the seat asked for is taken")
        if choice:
            self._check_choice(seat, choice)
        nonce = secrets.token_hex(8)
        await self._take_seat(seat, name or f"player {seat}", nonce, choice)
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

    async def _take_seat(self, seat: int, name: str, nonce: str, choice: str = "") -> None:
        record = self.seats[seat]
        record.taken, record.name, record.nonce, record.choice = True, name, nonce, choice
        record.since = self.version + 1  # (the version this join makes)
        events: list[Any] = [SeatTakenEvent(_copy(record))]
        if all(r.taken for r in self.seats):
            events.append(self._start_game())
        await self._commit(events, "join", seat, name=name, nonce=nonce, choice=choice)

    def _start_game(self) -> GameStartedEvent:
        choices = self._choices()
        options = self.game.with_choices(len(self.seats), self.options, choices) if choices else self.options
        self.state = self.game.new_game(len(self.seats), options, self.seed)
        self.status = PLAYING
        return GameStartedEvent(self.state.to_act()[0])

    async def _seat_person(self, seat: int, name: str, nonce: str) -> None:
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != PERSON:
            raise InvalidRequest(f"seat {seat} is not a person's seat")
        record = self.seats[seat]
        if record.taken:
            if record.nonce != nonce:
                raise SeatTaken(f"seat {seat} is taken")
            return
        await self._take_seat(seat, name, nonce)

    async def _open(self) -> None:
        if any(r.kind == PERSON for r in self.seats):
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
        record.taken, record.name, record.nonce, record.choice, record.since = False, "", "", "", 0
        await self._commit([SeatLeftEvent(seat)], "leave", seat)

    async def _close(self) -> None:
        """A waiting room that nobody completed in time ends unplayed (its outcome's reason: expired)."""
        self.status = FINISHED
        await self._commit([GameEndedEvent(Outcome((), EXPIRED, ()))], "close", -1)

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
                raise RoomUnavailable("the game has not started: seats are still free", code="not_started")
            if self.state is None:
                raise RoomUnavailable("the room closed before its game started", code="room_closed")
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

    async def _apply(self, seat: int, move: Any, *, by_table: bool, request_id: str = "") -> MoveAnswer:
        """The one path every move takes: the engine judges it, the journal commits it, then everyone hears of it."""
        state = self.state
        if state is None:
            raise RoomUnavailable("the game has not started", code="not_started")
        engine_events = state.apply(seat, move, by_table=by_table)
        events: list[Any] = [GameEvent(e) for e in engine_events]
        outcome = state.outcome()
        if outcome is not None:
            self.status = FINISHED
            events.append(GameEndedEvent(outcome))  # (a game's own end event, if it has one, stays: the codec decides)
        mover = None if by_table or self.seats[seat].kind == SYSTEM else seat
        update = await self._commit(events, "table" if by_table else "move", seat, mover, request_id, move=move)
        if self._replaying is None and self._tracing:
            trace.get_current_span().set_attribute("kickoff.version", update.version)
        if self._replaying is None and self._metering:
            who = "table" if by_table else ("person" if mover is not None else "system")
            self._metrics.moves.add(1, {**self._game_attribute, "kickoff.move.kind": _kind(move), "kickoff.mover": who})
        return MoveAnswer(update.version, update)

    async def _commit(
        self,
        events: list[Any],
        kind: str,
        seat: int,
        mover: int | None = None,
        request_id: str = "",
        *,
        move: Any = None,
        name: str = "",
        nonce: str = "",
        choice: str = "",
    ) -> Update:
        """Make the next version: re-arm the clock, commit its log entry (of ``kind``, by ``seat``; the other
        arguments are the entry's too), then tell every subscriber."""
        self.version += 1
        replay = self._replaying
        self._arm(replay.deadlines if replay else None)
        now = replay.time if replay else self.clock.now()
        if replay is None:
            entry = LogEntry(
                self.room_id,
                self.version,
                kind,
                seat,
                move=None if move is None else move.to_wire(),
                request_id=request_id,
                name=name,
                nonce=nonce,
                choice=choice,
                deadlines={seat: clock.deadline for seat, clock in self.clocks.items()},
                time=now,
                epoch=self.epoch,
            )
            try:
                await self.journal.append(entry, self.status)
            except RoomMoved as moved:  # another node claimed the room: nothing of this is stored, nobody heard
                self._moved = moved
                raise
            except BaseException:
                # The change is applied here but the store did not confirm it (it may or may not hold it): the loop
                # rebuilds the room from the store before anything else. Nobody heard of the change.
                self._ahead = True
                raise
        state = self.state
        to_act = state.to_act() if state is not None else ()
        clocks = tuple(self.clocks[seat] for seat in to_act if seat in self.clocks)
        legal = {seat: state.legal_moves(seat) for seat in to_act if self.seats[seat].kind == PERSON}
        self._note_legal(legal)
        update = Update(
            version=self.version,
            events=tuple(events),
            status=self.status,
            to_act=to_act,
            clocks=clocks,
            time=now,
            legal=legal,
            mover=mover,
            request_id=request_id,
            released=seat if kind == "leave" else -1,
        )
        published = self.published
        self.published = Published(
            self.version,
            self.status,
            tuple(_copy(r) for r in self.seats) if kind in ("join", "leave") else published.seats,
            to_act,
            clocks,
            events[-1].outcome if self.status == FINISHED else None,
        )
        if self.version > len(self.updates):  # (a rebuild replays the updates readers had: those are kept)
            self.updates.append(update)
            self._readers.publish(last=self.status == FINISHED)
        if kind in ("join", "leave"):
            self._arm_expiry()
        if self.status == FINISHED and replay is None:
            self._tell_finished()
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

    def _tell_finished(self) -> None:
        if self.on_finished is not None and not self._told_finished:
            self._told_finished = True
            self.on_finished(self)

    # -- recovery -----------------------------------------------------------------------------------------------------

    async def restore(self, entries: list[LogEntry]) -> None:
        """Rebuild the room from its log after a restart: every update again, in order, with the same versions, the
        same events and the stored clock deadlines; then the clock resumes with the time that was left and system
        players who must act wake up. Accepted request ids answer as before."""
        await self._replay(entries)
        self._resume()

    async def _replay(self, entries: list[LogEntry]) -> None:
        for entry in entries:
            self._replaying = entry
            try:
                if entry.kind == "join":
                    await self._take_seat(entry.seat, entry.name, entry.nonce, entry.choice)
                elif entry.kind == "leave":
                    await self._free_seat(entry.seat)
                elif entry.kind == "start":
                    await self._open()
                elif entry.kind == "close":
                    await self._close()
                else:
                    move = self.game.move_from_wire(entry.move or "")
                    answer = await self._apply(
                        entry.seat, move, by_table=entry.kind == "table", request_id=entry.request_id
                    )
                    if entry.request_id:
                        self._accepted[(entry.seat, entry.request_id)] = answer.version
            finally:
                self._replaying = None
            if self.version != entry.version:
                raise RuntimeError(f"room {self.room_id}: log version {entry.version} replayed as {self.version}")

    def _resume(self) -> None:
        """After a replay: each clock resumes with the time that was left, system players who must act wake up."""
        deadlines = {seat: clock.deadline for seat, clock in self.clocks.items()}
        self._cancel_timers()
        self.clocks, self._clock_keys = {}, {}
        self._arm(deadlines)
        self._arm_expiry()

    async def _recover(self) -> None:
        """Rebuild the room from the store (see the module docstring), trying again with backoff while it is away.
        Requests that arrive meanwhile, and those already queued, are answered StoreUnavailable."""
        self._recovering = True
        self._recovered.clear()
        self._cancel_timers()
        delay, most = RECOVERY_BACKOFF
        failures = 0
        while True:
            self._refuse_queued()
            try:
                entries = await self.journal.load_room(self.room_id)
                await self._rebuild(entries)
                break
            except Exception as error:
                failures += 1
                if failures == 1:
                    log.warning("room %s: the store is away, recovering (%s)", self.room_id, type(error).__name__)
                await asyncio.sleep(delay)
                delay = min(delay * 2, most)
        self._ahead = self._recovering = False
        self._recovered.set()
        self._refuse_queued()  # anything queued while rebuilding was judged against what may be an older room
        log.info("room %s: rebuilt from the store at version %d", self.room_id, self.version)

    def _refuse_queued(self, error: ServiceError | None = None) -> None:
        while not self._queue.empty():
            _, future, _ = self._queue.get_nowait()
            if future is not None and not future.done():
                future.set_exception(error or self._unavailable())

    # -- leaving this node --------------------------------------------------------------------------------------------

    async def hand_over(self) -> None:
        """Stop here so another node can take the room on (this node drains): requests from now on, and those queued,
        are refused with RoomMoved (nothing of them happened: the client sends them again, to the new owner); the one
        in hand is finished and stored first; then the room's readers are told to come back (RoomMoved, retriable)."""
        if self._moved is not None:
            return
        self._moved = RoomMoved("this room is moving to another node; reconnect with the last version seen")
        self._abandoned = True  # (the directory lets it go itself)
        self._stop_timers()
        self._refuse_queued(self._moved)
        if self._task is not None and not self._task.done():
            done = asyncio.get_running_loop().create_future()
            self._queue.put_nowait((lambda: None, done, None))  # after the command in hand
            with contextlib.suppress(Exception):
                await done
            self._task.cancel()
        self._readers.fail(self._moved)

    def _abandon(self) -> None:
        """The store refused a line: another node owns the room now. Stop, refuse what is queued, tell the readers to
        come back (they reach the new owner) and the directory to forget the room."""
        if self._abandoned:
            return
        self._abandoned = True
        moved = self._moved or RoomMoved("this room moved to another node; reconnect with the last version seen")
        log.warning("room %s: another node took the room over (epoch %d was this node's)", self.room_id, self.epoch)
        self._stop_timers()
        self._refuse_queued(moved)
        self._readers.fail(moved)
        if self.on_moved is not None:
            self.on_moved(self)

    def _stop_timers(self) -> None:
        self._cancel_timers()
        if self._expiry is not None:
            self._expiry.cancel()

    def lost(self) -> None:
        """Another lease than this room's holds the room now (another node's, or this node's newer one): stop as
        :meth:`_abandon`."""
        if self._moved is None:
            self._moved = RoomMoved("this room moved to another node; reconnect with the last version seen")
            if self._task is not None and not self._busy:
                self._task.cancel()
            self._abandon()

    async def _rebuild(self, entries: list[LogEntry]) -> None:
        """Replay the stored log over a fresh room. The updates readers had are kept as they are (the store holds
        them); the ones after them, which the store holds too, are published as the replay makes them."""
        heard = len(self.updates)
        self._reset(len(self.seats))
        await self._replay(entries)
        if self.version < heard:  # the store lost updates that were told: readers must start over
            log.error("room %s: the store holds %d updates, %d were told", self.room_id, self.version, heard)
            self.updates.truncate(self.version)
            self._readers.rewritten()
        self._resume()
        if self.status == FINISHED:  # (the change the store held after all ended the game)
            self._tell_finished()

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
        entries = [entry for entry in await self.journal.load_room(self.room_id) if entry.version <= stop]
        aside = Room(
            room_id=self.room_id,
            game=self.game,
            mode=self.mode,
            seats=len(self.seats),
            system_seats=self.system_seats,
            options=self.options,
            system_player=self.system_player,
            think_seconds=self.think_seconds,
            seed=self.seed,
            clock=self.clock,
            journal=self.journal,
            created_at=self.created_at,
            tournament_id=self.tournament_id,
            tournament_game=self.tournament_game,
            limits=replace(self.limits, history=None),
        )
        await aside._replay(entries)
        return [aside.updates[index] for index in range(start, min(stop, len(aside.updates)))]

    # -- clocks and system players ---------------------------------------------------------------------------------

    def _arm(self, deadlines: Mapping[int, float] | None = None) -> None:
        """After a change: each acting seat whose clocked period began (``GameState.clock_key``) gets its clock
        started and, if it is a system player, woken; seats that stopped acting lose theirs; every other acting seat's
        clock runs on (in a response window, one responder's move leaves the others' time as it was). A seat that
        stops acting in the middle of a period (Age of Soccer's player whose turn it is, while others answer a shot)
        has its clock paused: when it acts again in the same period, the clock resumes with the time that was left.
        The log's times and deadlines say it all, so a replay pauses and resumes the same way.

        ``deadlines`` are stored deadlines by seat (-1: any seat, in lines from before clocks were per seat), so that a
        restored room resumes each clock with the time that was left. While replaying a log, no timer is set and no
        system player woken: that happens once the room is whole again.
        """
        state = self.state
        if state is None or self.status != PLAYING:
            self._cancel_timers()
            self.clocks, self._clock_keys = {}, {}
            return
        acting = state.to_act()
        now = self._replaying.time if self._replaying is not None else self.clock.now()
        for seat in [seat for seat in self._clock_keys if seat not in acting]:
            key = self._clock_keys.pop(seat)
            paused = self.clocks.pop(seat, None)
            if paused is not None:
                self._paused[seat] = (key, max(0.0, paused.deadline - now))
            self._cancel_timers(seat)
        online = self.mode == ONLINE
        for seat in acting:
            key = state.clock_key(seat)
            if seat in self._clock_keys and self._clock_keys[seat] == key:
                continue
            self._clock_keys[seat] = key
            self._cancel_timers(seat)
            self.clocks.pop(seat, None)
            paused_key, left = self._paused.pop(seat, (None, 0.0))
            seconds = state.clock_seconds(seat) if online else None
            if seconds:
                deadline = deadlines.get(seat, deadlines.get(-1)) if deadlines else None
                if deadline is None:
                    deadline = now + (left if paused_key == key else seconds)
                self.clocks[seat] = ClockInfo(seat, deadline, seconds)
                if self._replaying is None:
                    timer = self.clock.call_at(deadline, lambda s=seat, k=key: self._expired(s, k))
                    self._timers.setdefault(seat, []).append(timer)
            if self._replaying is None and self.seats[seat].kind == SYSTEM:
                self._wake_bot(seat, key)

    @property
    def clock_info(self) -> ClockInfo | None:
        """The first acting seat's running clock (a turn has one; a response window one per responder)."""
        return next(iter(self.published.clocks), None)

    def _arm_expiry(self) -> None:
        """A waiting room (not a tournament's) closes once ``limits.waiting_seconds`` pass with no seat change."""
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
        seconds = self.limits.waiting_seconds
        if seconds is None or self.status != WAITING or self.tournament_id or self._replaying or self._task is None:
            return
        since = self.updates[-1].time if self.updates else self.created_at
        self._expiry = self.clock.call_at(since + seconds, lambda: self._enqueue(self._expire))

    async def _expire(self) -> None:
        if self.status == WAITING:  # (a seat change re-arms the timer; one that fired meanwhile finds a room begun)
            await self._close()

    def _cancel_timers(self, seat: int | None = None) -> None:
        """Stop ``seat``'s clock and think time (every seat's when None)."""
        for cancelled in [seat] if seat is not None else list(self._timers):
            for timer in self._timers.pop(cancelled, ()):
                timer.cancel()

    def _expired(self, seat: int, key: Any) -> None:
        self._enqueue(lambda: self._table_move(seat, key))

    async def _table_move(self, seat: int, key: Any) -> None:
        """The clock ran out: the table plays the engine's default move for the seat (if that period still stands)."""
        if self._clock_keys.get(seat) != key or self.state is None or seat not in self.state.to_act():
            return
        with self._span("room.clock_expired", seat):
            self._metrics.clock_expiries.add(1, self._game_attribute)
            await self._apply(seat, self.state.timeout_move(seat), by_table=True)

    def _span(self, name: str, seat: int, move: Any = None, **options: Any) -> Any:
        """A span of this room's (room id, game, seat, and the move's kind), current while the block runs; with
        tracing off, the invalid span, at no cost."""
        if not self._tracing:
            return contextlib.nullcontext(trace.INVALID_SPAN)
        attributes = {**self._attributes, "kickoff.seat": seat}
        if move is not None:
            attributes["kickoff.move.kind"] = _kind(move)
        return _SpanScope(self._tracer.start_span(name, attributes=attributes), **options)

    def _wake_bot(self, seat: int, key: Any) -> None:
        think = self.think_seconds
        if think is None:
            think = self._think_random.uniform(*THINK_RANGE)
        self._metrics.think_time.record(think, self._game_attribute)

        def enqueue() -> None:
            self._enqueue(lambda: self._bot_move(seat, key))

        if think <= 0:
            enqueue()
        else:
            self._timers.setdefault(seat, []).append(self.clock.call_at(self.clock.now() + think, enqueue))

    async def _bot_move(self, seat: int, key: Any) -> None:
        """A system player moves through the same path as people, if its turn still stands."""
        state = self.state
        if self._clock_keys.get(seat) != key or state is None or seat not in state.to_act():
            return
        bot = self.seats[seat].bot
        assert bot is not None
        move = bot.choose(state, seat)
        try:
            with self._span("room.system_player_move", seat, move):
                await self._apply(seat, move, by_table=False)
        except NotYourTurn:
            return
        # The same seat may have to act again in the same period (after a draw): wake it again.
        state = self.state
        if (
            state is not None
            and self.status == PLAYING
            and seat in state.to_act()
            and self._clock_keys.get(seat) == key
        ):
            self._wake_bot(seat, key)


class _SpanScope:
    """A span, current while a block runs and ended after it: what ``Tracer.start_as_current_span`` does (an error
    that escapes is recorded on the span and sets its status, unless told not to), without its two generator-based
    context managers, at a fraction of their cost (every move opens one)."""

    __slots__ = ("_span", "_token", "_record_exception", "_set_status_on_exception")

    def __init__(self, span: Any, *, record_exception: bool = True, set_status_on_exception: bool = True) -> None:
        self._span = span
        self._record_exception = record_exception
        self._set_status_on_exception = set_status_on_exception

    def __enter__(self) -> Any:
        self._token = otel_context.attach(trace.set_span_in_context(self._span))
        return self._span

    def __exit__(self, kind: Any, error: BaseException | None, traceback: Any) -> None:
        otel_context.detach(self._token)
        span = self._span
        if isinstance(error, Exception) and span.is_recording():  # (not cancellation: it is no error)
            if self._record_exception:
                span.record_exception(error)
            if self._set_status_on_exception:
                span.set_status(Status(StatusCode.ERROR, f"{type(error).__name__}: {error}"))
        span.end()


def _kind(move: Any) -> str:
    """A move's kind (its wire form's first word: play, draw, end, timeout), never its cards."""
    kind = getattr(move, "kind", None)
    if type(kind) is str:  # (every game's move has its kind first)
        return kind
    to_wire = getattr(move, "to_wire", None)
    return to_wire().split(" ", 1)[0] if to_wire is not None else "malformed"


def _copy(record: SeatRecord) -> SeatRecord:
    return SeatRecord(record.seat, record.kind, record.taken, record.name, team=record.team, choice=record.choice)
