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

What is not the room's loop lives beside it: its seats' table (service/rooms/seats.py, shared with tournaments), its
system players and stand-ins (players.py), which games are rated (ratings.py), when it ends by itself and when one
that rests must be back (resting.py), its past read back from the log (replays.py), its spans (tracing.py), and what
it is made of and tells (updates.py, whose names this module gives on).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from typing import Any

from opentelemetry import trace
from opentelemetry.trace import Status, StatusCode

from deals.scheme import SCHEME
from engine.core import GameState, Outcome, RuleError
from engine.registry import get_game
from service.actors.actor import Actor, ActorHandler, Change, Host
from service.actors.feed import Audience, Feed, History, Readers
from service.errors import (
    InvalidRequest,
    SeatReleased,
    ServiceError,
    StaleVersion,
    StoreRefused,
    StoreUnavailable,
    Unavailable,
)
from service.rooms.clocks import Deadline, SeatClocks
from service.rooms.deals import RoomDeal
from service.rooms.players import SystemPlayers
from service.rooms.ratings import NOT_PLAYED, game_result, unrated_with
from service.rooms.ratings import why_unrated as why_unrated
from service.rooms.replays import ReplayStep, read_back, replay_steps, update_at
from service.rooms.resting import Resting
from service.rooms.seating import Seating
from service.rooms.seats import PERSON, SYSTEM, SeatTable
from service.rooms.seats import SeatLeftEvent as SeatLeftEvent
from service.rooms.seats import SeatTakenEvent as SeatTakenEvent
from service.rooms.tracing import RoomSpans, move_kind
from service.rooms.updates import (
    FINISHED,
    ONLINE,
    PLAYING,
    WAITING,
    DealShown,
    GameEndedEvent,
    GameEvent,
    GameStartedEvent,
    MoveAnswer,
    Published,
    SeatRecord,
    StandInEvent,
    Surroundings,
    Update,
)
from service.rooms.updates import SOLO as SOLO
from service.rooms.updates import RoomLimits as RoomLimits  # (names other modules know a room's by)
from service.store.records import LogEntry, RoomRecord, Turn

KIND = "room"  # the rooms' kind of actor
REFUSALS_KEPT = 32  # refused request ids remembered per seat (accepted ones are kept for the room's life)
EXPIRED = "expired"  # the outcome's reason when a waiting room closes unplayed
# An operator's close (OperatorService.CloseRoom): the outcome's reason is this, ": " and the operator's reason
CLOSED_BY_OPERATOR = "closed_by_operator"
ABANDONED = "abandoned"  # the outcome's reason when a solo room's person did not move for abandon_seconds


class Room(Seating, ActorHandler):
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
        self.seed = record.seed  # the seed the engine deals with (a fair deal's: derived as the game starts)
        self.deal = RoomDeal.of(record, surroundings.sealer)  # its fair deal (None: a room made before them)
        self.created_at = record.created_at
        self.think_seconds = record.think_seconds
        self.system_player = record.system_player
        self.system_seats = tuple(record.system_seats)  # the seats system players take
        self.tournament_id = record.tournament_id  # the tournament this room's game belongs to ('' for none)
        self.tournament_game = record.tournament_game  # the game's index in it
        self.correspondence_hours = record.correspondence_hours  # every clocked period lasts this many hours (0: live)
        self.stand_ins = record.stand_ins  # whether system players stand in for absent people (players.py)
        self.unlisted = record.unlisted  # a private table: who may see it is service/rooms/private.py's to say
        self.rematch_fill = record.rematch_fill  # what fills a declined seat of its rematch (rematches.py)
        self.chat = record.chat or "on"  # what its chat lets through: on, reactions, off (service/chat)
        self.team_chat = record.team_chat  # whether each team has a chat channel of its own
        self.talk: Any = None  # its chat's state on this node, once used (service/chat: RoomChat)
        self.rematch: Any = None  # its rematch once one was read or proposed (a RematchRecord: rematches.py)
        self.rematch_read = False  # whether the store was asked for it since this room was loaded
        self.parent = ("tournament", record.tournament_id) if record.tournament_id else None  # told when it ends
        self.surroundings = surroundings
        self.clock = surroundings.clock
        self.limits = limits = surroundings.limits
        self.teams = self.game.teams(record.seats, self.options)  # the team each seat plays for
        telemetry = surroundings.telemetry
        self._metrics = telemetry.instruments
        # With a signal off, the move path skips its work outright (no no-op spans, contexts or attribute dicts).
        self._tracing, self._metering = telemetry.tracing, telemetry.metering
        self._span = RoomSpans(telemetry, self.room_id, self.game.spec.name, record.trace_parent).span
        self._game_attribute = {"kickoff.game": self.game.spec.name}
        self.actor: Actor[Update] = Actor(
            kind=KIND,
            actor_id=self.room_id,
            handler=self,
            journal=surroundings.journal,
            host=host,
            epoch=epoch,
            audience=Audience(History(limits.history), Readers(limits.stream_buffer, partial(read_back, self))),
            tracing=self._tracing,
        )
        self.seat_clocks = SeatClocks(self.clock, self._expired, self.correspondence_hours * 3600.0 or None)
        self.resting = Resting(self)
        self.players = SystemPlayers(self)
        self.used_at = self.clock.now()  # when it was last changed, loaded or called for (an idle one may rest)
        self.reset()

    def reset(self) -> None:
        """The room as created: seats free, no game, version 0 (a rebuild replays the log over this)."""
        self.players.reset()
        self.seed = self._record.seed
        self.deal_seeds: tuple[str, ...] = ()  # the seeds the game's seed was derived from, once it started
        self.revealed = False  # whether the deal is revealed (the game over, or a held deal told to)
        level, deal = self.system_player, self.deal

        def seat(s: int, kind: str, **fields: Any) -> SeatRecord:
            if kind != SYSTEM:
                return SeatRecord(s, kind, **fields)
            seed = deal.system_seat_seed(s) if deal is not None else ""  # (published as the seat is taken)
            return SeatRecord(s, kind, bot=self.game.new_bot(level, self.bot_seed(s)), seed=seed, **fields)

        self.table = SeatTable(self._record.seats, self.system_seats, level, self.teams, seat, "room")
        self.seats = self.table.seats
        for person in self._record.people:  # (a matched room: seated as it was made)
            self.table.take(*person[:5]).seed = person[5] if len(person) > 5 else ""
        self.state: GameState | None = None
        self.status = WAITING
        self.rated = False  # decided when the game starts (_why_unrated)
        self.unrated_reason = ""  # why not, once the game started or the room closed ('' while waiting, or rated)
        self.seat_clocks.reset()
        self._legal: dict[int, tuple[int, list[Any]]] = {}  # each acting person's legal moves, and since which version
        self._accepted: dict[tuple[int, str], int] = {}  # the version each accepted request id made
        self._refused: dict[int, OrderedDict[str, RuleError | ServiceError]] = {}
        self.published = Published(0, WAITING, tuple(r.shown() for r in self.seats), (), (), None)
        self._seats_stored = self.published.seats  # the seats as the last change made shows them
        self.changed_at = self.created_at  # the time of its last line (a solo room's is abandoned from it)

    def record(self) -> RoomRecord:
        """The room as created, for the store (with its status now)."""
        return replace(self._record, status=self.status)

    def bot_seed(self, seat: int) -> int:
        """The seed of a system player's (or a stand-in's) own choices at ``seat``: the deal's player seed, which says
        nothing of the game's seed (a room made before fair deals: its seed and the seat, as it always had)."""
        return self.deal.player_seed(seat) if self.deal is not None else self.seed + seat

    def deal_shown(self, published: Published | None = None) -> DealShown | None:
        """The deal as readers are shown it as of ``published`` (default: the last stored update): the commitment
        from the start, the seeds once the game started, the secret once revealed (None: a room before fair
        deals)."""
        deal = self.deal
        if deal is None:
            return None
        published = published or self.published
        secret = deal.revealed() if published.revealed else ""
        return DealShown(SCHEME, deal.subject, deal.commitment, published.deal_seeds, secret)

    # -- the actor --------------------------------------------------------------------------------------------------

    def start(self) -> None:
        if not self.actor.started:
            self.actor.start()
            self.resting.arm()

    def halt(self) -> None:
        """Stop the clocks' timers, the system players' and the waiting room's (the actor stops, or rebuilds)."""
        self.seat_clocks.cancel()
        self.resting.cancel()
        self.players.halt()

    # -- requests ---------------------------------------------------------------------------------------------------

    async def open(self) -> None:
        """Start the game of a room whose every seat was taken as it was made (a tournament of system players, a
        matched room); once only."""
        await self.actor.call(self._open)

    async def close_by_operator(self, reason: str) -> None:
        """An operator ends the room now (waiting or playing): nobody wins, the game is not rated, the outcome's
        reason is ``closed_by_operator: <reason>``. Stored before it returns; the streams get the end and stop."""
        await self.actor.call(lambda: self._operator_check(lambda: self._close_by_operator(reason)))

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

    def _start_game(self) -> GameStartedEvent:
        choices = self._choices()
        options = self.game.with_choices(len(self.seats), self.options, choices) if choices else self.options
        deal, shown = self.deal, None
        if deal is not None:  # the game's seed: the secret and every seat's seed, in seat order (deals/scheme.py)
            self.deal_seeds = deal.seeds if deal.seeds is not None else tuple(record.seed for record in self.seats)
            self.seed = deal.game_seed(self.deal_seeds)
            shown = DealShown(SCHEME, deal.subject, deal.commitment, self.deal_seeds)
        self.state = self.game.new_game(len(self.seats), options, self.seed)
        self.status = PLAYING
        self.unrated_reason = self._why_unrated(self.seats)
        self.rated = not self.unrated_reason
        return GameStartedEvent(self.state.to_act()[0], shown)

    def _ended(self, outcome: Outcome) -> GameEndedEvent:
        """The game's end, which reveals its deal (unless the deal is held: :meth:`reveal`)."""
        deal = self.deal
        if deal is None or deal.held:
            return GameEndedEvent(outcome)
        self.revealed = True
        return GameEndedEvent(outcome, deal.revealed())

    async def reveal(self) -> None:
        """Reveal a held deal once the game is over (a duplicate tournament, after its deal's last rotation): the log
        line ``reveal``, then an update with no events; from then on the room shows its secret and its replay shows
        every hand and move, as any finished room. Revealing twice, or a deal that is not held, changes nothing;
        Unavailable (game_not_over) before the end."""
        await self.actor.call(self._reveal)

    async def _reveal(self) -> None:
        if self.deal is None or self.revealed:
            return
        if self.status != FINISHED:
            raise Unavailable("the room's game is not over: its deal is revealed at its end", code="game_not_over")
        self.revealed = True
        await self._change([], "reveal", -1)

    def _why_unrated(self, seats: tuple[SeatRecord, ...] | list[SeatRecord]) -> str:
        """Why a game with these seats would not be rated ('' when it would): service/rooms/ratings.py."""
        return unrated_with(seats, self.surroundings.rates, self._record.rated, self.mode)

    def why_unrated(self) -> str:
        """Why the room's game is not rated, as of its last stored update ('' when it is, or would be if it started
        with the people seated now): what its view shows."""
        published = self.published
        if published.status == WAITING:
            return self._why_unrated(published.seats)
        return self.unrated_reason

    async def _open(self) -> None:
        if not all(r.taken for r in self.seats):
            raise InvalidRequest("a room with people's seats starts when they are all taken")
        if self.status == WAITING:
            await self._change([self._start_game()], "start", -1)

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
        await self._change([self._ended(outcome)], "close", -1, name=reason)

    async def _close(self) -> None:
        """A waiting room that nobody completed in time ends unplayed (its outcome's reason: expired)."""
        self.status = FINISHED
        self.unrated_reason = NOT_PLAYED
        await self._change([self._ended(Outcome((), EXPIRED, ()))], "close", -1)

    async def _abandon(self) -> None:
        """A solo room whose person did not move for ``abandon_seconds`` ends (the log line ``abandon``): nobody
        wins, the game is not rated, the outcome's reason is :data:`ABANDONED`."""
        self.status = FINISHED
        self.state = None  # (the game is over: no move or system player acts any more)
        self.rated = False
        await self._change([self._ended(Outcome((), ABANDONED, ()))], "abandon", -1)

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
                return MoveAnswer(version, await update_at(self, version), retried=True)
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
        changed = (
            self.stand_ins and record.kind == PERSON and self.players.stand_in(record, by_table, stand_in, playing)
        )
        if changed:
            events.append(StandInEvent(seat, record.stand_in))
        if outcome is not None:
            self.status = FINISHED
            events.append(self._ended(outcome))  # (a game's own end event, if it has one, stays: the codec decides)
        mover = None if by_table or stand_in or record.kind == SYSTEM else seat
        kind = "table" if by_table else "stand_in" if stand_in else "move"
        update = await self._change(events, kind, seat, mover, request_id, move=move, seats_changed=changed)
        if self.actor.replaying is None and self._tracing:
            trace.get_current_span().set_attribute("kickoff.version", update.version)
        if self.actor.replaying is None and self._metering:
            who = "person" if mover is not None else "system" if kind == "move" else kind
            self._metrics.moves.add(
                1, {**self._game_attribute, "kickoff.move.kind": move_kind(move), "kickoff.mover": who}
            )
        return MoveAnswer(update.version, update)

    async def _change(
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
        seed: str = "",
    ) -> Update:
        """Make the next version through the actor, which stores its log entry (of ``kind``, by ``seat``; the other
        arguments are the entry's too) and then tells every subscriber; the clocks are re-armed for it first."""
        actor = self.actor

        def change(version: int) -> Change[Update]:
            replay = actor.replaying
            now = replay.time if replay else self.clock.now()
            self.changed_at = now
            begun = self._arm(now, replay.deadlines if replay else None)
            running = self.seat_clocks.running
            state = self.state
            to_act = state.to_act() if state is not None else ()
            entry = None
            finishing = self.status == FINISHED and kind != "reveal"  # (a held deal's reveal comes after the end)
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
                    seed=seed,
                    result=game_result(self, events[-1].outcome, now) if finishing else None,
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
                    correspondence=bool(self.correspondence_hours),
                )
            update = Update(
                version=version,
                events=tuple(events),
                status=self.status,
                to_act=to_act,
                deadlines=tuple(running[seat] for seat in to_act if seat in running),
                time=now,
                legal={seat: state.legal_moves(seat) for seat in to_act if self.seats[seat].kind == PERSON},
                mover=mover,
                request_id=request_id if kind != "join" else "",  # (a join's is its key: for the log alone)
                released=seat if kind in ("leave", "revoke") else -1,
            )
            if seats_changed or kind in ("join", "leave"):  # (the seats readers are shown once it is stored)
                self._seats_stored = tuple(r.shown() for r in self.seats)
            return Change(entry, self.status, update, last=finishing)

        update = (await actor.change(change)).update
        if kind in ("join", "leave") or (update.status == FINISHED and self.resting.armed):
            self.resting.arm()  # (a finished room's timer goes)
        return update

    def stored(self, change: Change[Any]) -> None:
        """The change is stored, nobody has heard of it yet: the moves each person may make, and what readers of the
        room are shown (:attr:`published`), follow it."""
        update: Update = change.update
        self._note_legal(update.legal)
        self.published = Published(
            update.version,
            update.status,
            self._seats_stored,
            update.to_act,
            update.deadlines,
            update.events[-1].outcome if change.last else self.published.outcome,
            self.revealed,
            self.deal_seeds,
        )

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
                entry.seat,
                entry.name,
                entry.nonce,
                entry.choice,
                entry.player,
                entry.origin,
                entry.request_id,
                entry.seed,
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
        elif entry.kind == "reveal":
            await self._reveal()
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
        self.resting.arm()
        if self.status == WAITING and self._record.people and all(r.taken for r in self.seats):
            self.actor.enqueue(self._open)  # (a matched room stored just before a crash, not yet started)

    async def replay_steps(self, after: int, count: int) -> tuple[list[ReplayStep], bool, int]:
        """The stored updates after version ``after``, ``count`` at most, each with the table after it (see
        service/rooms/replays.py)."""
        return await replay_steps(self, after, count)

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
                    self.players.wake(seat, key)
        return begun

    @property
    def wake_at(self) -> float | None:
        """When the room must be in memory again if it rests (service/rooms/resting.py)."""
        return self.resting.wake_at()

    @property
    def abandon_at(self) -> float | None:
        """When a solo room being played ends as abandoned if nothing happens in it meanwhile (resting.py)."""
        return self.resting.abandon_at()

    def may_rest(self, now: float, rest_seconds: float, horizon: float, *, with_tournament: bool = False) -> bool:
        """Whether this room may leave memory now (resting.py)."""
        return self.resting.may_rest(now, rest_seconds, horizon, with_tournament)

    @property
    def first_deadline(self) -> Deadline | None:
        """The first acting seat's running clock (a turn has one; a response window one per responder)."""
        return next(iter(self.published.deadlines), None)

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
