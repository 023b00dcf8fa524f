"""One tournament: four seats that play a series of games together, each game an ordinary room.

People join the tournament, not its rooms: a tournament seat's nonce names its token, and the tournament seats each
person in every one of its rooms with that nonce, so one token plays every game. When the last seat is taken the first
game starts; when a game's room finishes, its result is recorded and the next game starts by itself, with the first
player rotated as the game's tournament rules say.

Like a room, a tournament changes only in versioned updates, each written to its append-only log before anyone hears
of it: ``join``, ``leave``, ``game`` (game N started in room R) and ``result`` (game N ended; the outcome is the room's,
rebuilt from the room's own log). The standings are never stored: they are computed from the games' outcomes.

Recovery needs no special case. A restarted server rebuilds the rooms, replays the tournament's log, then runs the same
:meth:`Tournament.advance` that runs after every change: it records a finished game the log does not have yet, seats
people missing from the current room, and starts the next game (reusing a room created just before a crash). A change
the store does not confirm is healed the same way without a restart: the tournament reads its log back from the store,
replays it and moves on, trying again with backoff while the store is away (and answering StoreUnavailable
meanwhile).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol

from engine.core import Outcome, TournamentRules
from engine.registry import get_game, new_tournament
from service.errors import (
    InvalidRequest,
    RoomMoved,
    RoomUnavailable,
    SeatTaken,
    StoreUnavailable,
    Unauthenticated,
)
from service.rooms.directory import RoomDirectory
from service.rooms.feed import Feed, Readers
from service.rooms.room import FINISHED, PERSON, PLAYING, RECOVERY_BACKOFF, SYSTEM, WAITING, Room
from service.store.records import TournamentEntry, TournamentRecord

log = logging.getLogger(__name__)


@dataclass
class TournamentSeat:
    seat: int
    kind: str
    taken: bool = False
    name: str = ""
    nonce: str = ""  # changes on every join; the seat's token names it
    team: int = 0


@dataclass(frozen=True)
class GameInfo:
    """One game of the tournament as it stood at an update."""

    index: int
    room_id: str
    first_seat: int
    status: str
    outcome: Outcome | None = None


@dataclass(frozen=True)
class StandingLine:
    """A seat's line in the standings, with its name: the game's scoring (engine.core.Standing) as told."""

    place: int
    seat: int
    points: int
    games_won: int
    tallies: tuple[tuple[str, int], ...]  # the game's own counts that order the table after points and wins
    name: str


@dataclass(frozen=True)
class Standings:
    lines: tuple[StandingLine, ...]
    final: bool


@dataclass(frozen=True)
class Snapshot:
    """The tournament as anyone may see it at one version (nothing in it is hidden from anyone)."""

    tournament_id: str
    game: str
    mode: str
    status: str
    version: int
    games: int
    seats: tuple[TournamentSeat, ...]
    game_list: tuple[GameInfo, ...]
    standings: Standings
    options: Mapping[str, Any]
    created_at: float

    @property
    def games_played(self) -> int:
        return sum(1 for game in self.game_list if game.outcome is not None)

    @property
    def current_room_id(self) -> str:
        playing = [game.room_id for game in self.game_list if game.outcome is None]
        return playing[-1] if playing else ""


# Tournament events: none holds anything secret.
@dataclass(frozen=True)
class SeatJoined:
    seat: TournamentSeat


@dataclass(frozen=True)
class SeatLeft:
    seat: int


@dataclass(frozen=True)
class GameStarted:
    game: GameInfo


@dataclass(frozen=True)
class GameEnded:
    game: GameInfo


@dataclass(frozen=True)
class StandingsChanged:
    standings: Standings


@dataclass(frozen=True)
class TournamentEnded:
    standings: Standings


@dataclass(frozen=True)
class TournamentUpdate:
    version: int
    events: tuple[Any, ...]
    snapshot: Snapshot
    time: float


class TournamentJournal(Protocol):
    async def create_tournament(self, record: TournamentRecord) -> None: ...

    async def append_tournament(self, entry: TournamentEntry, status: str) -> None: ...

    async def load_tournament(self, tournament_id: str) -> list[TournamentEntry]: ...


class Tournament:
    """See the module docstring. Every change runs under one lock, in order, like a room's loop."""

    def __init__(
        self,
        *,
        tournament_id: str,
        game: str,
        rules: TournamentRules,
        mode: str,
        system_players: int,
        options: Mapping[str, Any],
        system_player: str,
        think_seconds: float | None,
        created_at: float,
        rooms: RoomDirectory,
        journal: TournamentJournal,
        on_finished: Callable[[Tournament], None] | None = None,
        epoch: int = 0,
        on_moved: Callable[[Tournament], None] | None = None,
    ) -> None:
        self.tournament_id = tournament_id
        self.epoch = epoch  # the lease epoch this node holds the tournament under (0: a single node), as a room's
        self.on_moved = on_moved  # told when another node took the tournament over (the store refused a line)
        self._moved: RoomMoved | None = None
        self.game = game
        self.rules = rules
        self.mode = mode
        self.options = dict(options)
        self.system_player = system_player
        self.think_seconds = think_seconds
        self.created_at = created_at
        self.rooms = rooms
        self.journal = journal
        self.on_finished = on_finished  # told once the last game's result is stored (not while replaying)
        self.system_players = system_players
        self.teams = get_game(game).teams(rules.players, self.options)  # each seat's team, the same in every game
        self.updates: list[TournamentUpdate] = []  # read in place by every feed: only ever appended to
        self._readers: Readers[TournamentUpdate] = Readers()
        self._reset()
        self._lock = asyncio.Lock()
        self._replaying: TournamentEntry | None = None
        self._ahead = False  # a change the store did not confirm: the tournament rebuilds itself from the store
        self._healing: asyncio.Task[None] | None = None
        self._advancing: set[asyncio.Task[None]] = set()
        self._created = self.snapshot()  # as created: what readers see while a first change awaits the store

    def record(self) -> TournamentRecord:
        """The tournament as created, for the store."""
        return TournamentRecord(
            tournament_id=self.tournament_id,
            game=self.game,
            mode=self.mode,
            system_players=self.system_players,
            system_player=self.system_player,
            think_seconds=self.think_seconds,
            options=self.options,
            created_at=self.created_at,
            status=self.status,
        )

    def _reset(self) -> None:
        """The tournament as created (a rebuild replays the log over this)."""
        people = self.rules.players - self.system_players
        # System players take the last seats, as in a room: the seat numbers are the same in every game.
        self.seats = [TournamentSeat(s, PERSON, team=self.teams[s]) for s in range(people)]
        self.seats += [
            TournamentSeat(s, SYSTEM, True, f"{self.system_player} bot", team=self.teams[s])
            for s in range(people, self.rules.players)
        ]
        self.status = WAITING
        self.version = 0
        self.game_room_ids: list[str] = []  # game i's room, for every game started (the rooms live in the directory)

    # -- requests --------------------------------------------------------------------------------------------------

    async def join(self, seat: int | None, name: str) -> tuple[int, str]:
        """Take a person's seat; returns it with its nonce. The last seat taken starts the first game."""
        async with self._lock:
            self._check_store()
            if self.status != WAITING:
                raise RoomUnavailable("the tournament has started: every seat is taken", code="tournament_full")
            free = [s.seat for s in self.seats if s.kind == PERSON and not s.taken]
            if seat is None:
                if not free:
                    raise RoomUnavailable("no free seat", code="tournament_full")
                seat = free[0]
            elif not 0 <= seat < len(self.seats):
                raise InvalidRequest(f"seat must be 0-{len(self.seats) - 1}", field="seat")
            elif self.seats[seat].kind != PERSON:
                raise SeatTaken("the seat asked for belongs to a system player")
            elif self.seats[seat].taken:
                raise SeatTaken("the seat asked for is taken")
            nonce = secrets.token_hex(8)
            await self._take_seat(seat, name or f"player {seat}", nonce)
            await self._advance()
            return seat, nonce

    async def leave(self, seat: int, nonce: str) -> None:
        async with self._lock:
            self._check_store()
            self.check_seat(seat, nonce)
            if self.status != WAITING:
                return  # nobody is removed once the games have begun: the clock plays for an absent person
            await self._free_seat(seat)

    def _check_store(self) -> None:
        if self._moved is not None:
            raise self._moved
        if self._ahead:
            raise StoreUnavailable("this tournament's store is unavailable; it resumes by itself once it is back")

    def check_seat(self, seat: int, nonce: str) -> None:
        if not 0 <= seat < len(self.seats):
            raise Unauthenticated("the token names no seat of this tournament")
        record = self.seats[seat]
        if record.kind != PERSON or not record.taken or record.nonce != nonce:
            raise Unauthenticated("the seat token is no longer valid (the seat was given back)")

    def subscribe(self, after_version: int) -> Feed[TournamentUpdate]:
        """A feed of every stored update after ``after_version``, then each new one."""
        current = self.current()
        return self._readers.open(self.updates, current.version, after_version, current.status == FINISHED)

    # -- what the tournament shows ---------------------------------------------------------------------------------

    def standings(self) -> Standings:
        names = {seat.seat: seat.name for seat in self.seats}
        lines = tuple(
            StandingLine(line.place, line.seat, line.points, line.games_won, line.tallies, names[line.seat])
            for line in self.rules.standings()
        )
        return Standings(lines, self.rules.finished)

    def game_info(self, index: int) -> GameInfo:
        # From the log only (not the room's status now), so a replayed update is the one first sent.
        outcome = self.rules.results[index] if index < len(self.rules.results) else None
        status = FINISHED if outcome is not None else PLAYING
        return GameInfo(index, self.game_room_ids[index], self.rules.first_seat(index), status, outcome)

    def current(self) -> Snapshot:
        """The tournament as of its last stored update: what every reader is told (never a change still being
        written, nor one the store refused)."""
        if self.updates:
            return self.updates[-1].snapshot
        return self._created if self._ahead else self.snapshot()

    def snapshot(self) -> Snapshot:
        """The tournament as it stands in memory (updates are built from it)."""
        return Snapshot(
            tournament_id=self.tournament_id,
            game=self.game,
            mode=self.mode,
            status=self.status,
            version=self.version,
            games=self.rules.games,
            seats=tuple(replace(seat, nonce="") for seat in self.seats),
            game_list=tuple(self.game_info(index) for index in range(len(self.game_room_ids))),
            standings=self.standings(),
            options=self.options,
            created_at=self.created_at,
        )

    # -- changes ---------------------------------------------------------------------------------------------------

    async def _take_seat(self, seat: int, name: str, nonce: str) -> None:
        record = self.seats[seat]
        record.taken, record.name, record.nonce = True, name, nonce
        entry = TournamentEntry("", 0, "join", seat, name, nonce)
        await self._commit([SeatJoined(replace(record, nonce=""))], entry)

    async def _free_seat(self, seat: int) -> None:
        record = self.seats[seat]
        record.taken, record.name, record.nonce = False, "", ""
        await self._commit([SeatLeft(seat)], TournamentEntry("", 0, "leave", seat))

    async def _game_started(self, room: Room) -> None:
        index = len(self.game_room_ids)
        if room.tournament_game != index:
            raise RuntimeError(f"tournament {self.tournament_id}: room {room.room_id} is not game {index}")
        self.game_room_ids.append(room.room_id)
        self.status = PLAYING
        entry = TournamentEntry("", 0, "game", game_index=index, room_id=room.room_id)
        await self._commit([GameStarted(self.game_info(index))], entry)

    async def _game_ended(self, index: int) -> None:
        room = await self.rooms.find(self.game_room_ids[index])
        outcome = room.state.outcome() if room.state is not None else None
        if outcome is None:
            raise RuntimeError(f"tournament {self.tournament_id}: game {index} has no outcome")
        self.rules.record(outcome)
        standings = self.standings()
        events: list[Any] = [GameEnded(self.game_info(index)), StandingsChanged(standings)]
        if self.rules.finished:
            self.status = FINISHED
            events.append(TournamentEnded(standings))
        entry = TournamentEntry("", 0, "result", game_index=index, room_id=room.room_id)
        await self._commit(events, entry)

    async def _commit(self, events: list[Any], entry: TournamentEntry) -> None:
        """The next version: write the log line, then tell every feed. A change the store does not confirm is healed
        (see the module docstring)."""
        self.version += 1
        replay = self._replaying
        now = replay.time if replay else self.rooms.clock.now()
        entry = replace(entry, tournament_id=self.tournament_id, version=self.version, time=now, epoch=self.epoch)
        if replay is None:
            try:
                await self.journal.append_tournament(entry, self.status)
            except RoomMoved as moved:  # another node claimed the tournament: it goes on there
                self._stop_here(moved)
                raise
            except BaseException:
                # Heard by nobody, and perhaps not stored: the tournament reads its log back before anything else.
                self._ahead = True
                self._heal()
                raise
        if self.version > len(self.updates):  # (a rebuild replays the updates readers had: those are kept)
            self.updates.append(TournamentUpdate(self.version, tuple(events), self.snapshot(), now))
            self._readers.publish(last=self.status == FINISHED)
        if self.status == FINISHED and replay is None and self.on_finished is not None:
            self.on_finished(self)

    # -- moving on -------------------------------------------------------------------------------------------------

    def room_finished(self, room: Room) -> None:
        """A room of this tournament finished its game (called from the room's loop): move on, outside that loop."""
        if self._moved is not None:
            return
        task = asyncio.get_running_loop().create_task(
            self._advance_locked(), name=f"tournament {self.tournament_id}", context=contextvars.Context()
        )
        self._advancing.add(task)
        task.add_done_callback(self._advancing.discard)

    async def _advance_locked(self) -> None:
        try:
            async with self._lock:
                await self._advance()
        except RoomMoved:  # (the tournament, or its game, went on to another node)
            return
        except Exception as error:  # a store (its own or a room's) is away: heal, then move on from the store
            log.warning("tournament %s: could not move on (%s)", self.tournament_id, type(error).__name__)
            self._heal()

    async def advance(self) -> None:
        """Bring the tournament up to date: record finished games, start the next (see the module docstring)."""
        async with self._lock:
            await self._advance()

    async def _advance(self) -> None:
        if self._ahead or self._moved is not None:
            return
        if self.status == WAITING and not all(seat.taken for seat in self.seats):
            return
        while self.status != FINISHED:
            index = len(self.rules.results)
            if index < len(self.game_room_ids):
                room = await self.rooms.find(self.game_room_ids[index])
                await self._seat_everyone(room)
                if room.status != FINISHED:
                    return
                await self._game_ended(index)
            else:
                await self._game_started(await self._room_for(index))

    async def _room_for(self, index: int) -> Room:
        """Game ``index``'s room: the one created before a crash cut its start short, or a new one."""
        for room in self.rooms.in_tournament(self.tournament_id):
            if room.tournament_game == index:
                return room
        return await self.rooms.create(
            game=self.game,
            mode=self.mode,
            seats=len(self.seats),
            system_players=self.system_players,
            options={**self.options, **self.rules.next_options()},
            system_player=self.system_player,
            think_seconds=self.think_seconds,
            tournament_id=self.tournament_id,
            tournament_game=index,
        )

    async def _seat_everyone(self, room: Room) -> None:
        people = [seat for seat in self.seats if seat.kind == PERSON]
        for seat in people:
            await room.seat_person(seat.seat, seat.name, seat.nonce)
        if not people:
            await room.open()

    # -- recovery --------------------------------------------------------------------------------------------------

    async def restore(self, entries: list[TournamentEntry]) -> None:
        """Replay the log (the rooms are already rebuilt), then move on from where it stood."""
        for entry in entries:
            self._replaying = entry
            try:
                if entry.kind == "join":
                    await self._take_seat(entry.seat, entry.name, entry.nonce)
                elif entry.kind == "leave":
                    await self._free_seat(entry.seat)
                elif entry.kind == "game":
                    await self._game_started(await self.rooms.find(entry.room_id))
                elif entry.kind == "result":
                    await self._game_ended(entry.game_index)
                else:
                    raise RuntimeError(f"tournament {self.tournament_id}: unknown log line {entry.kind!r}")
            finally:
                self._replaying = None
            if self.version != entry.version:
                raise RuntimeError(
                    f"tournament {self.tournament_id}: log version {entry.version} replayed as {self.version}"
                )

    def _heal(self) -> None:
        if self._healing is None or self._healing.done():
            self._healing = asyncio.get_running_loop().create_task(
                self._heal_forever(), name=f"tournament {self.tournament_id} healing", context=contextvars.Context()
            )

    async def _heal_forever(self) -> None:
        """Read the log back from the store, replay it and move on; again with backoff while the store is away."""
        delay, most = RECOVERY_BACKOFF
        while True:
            await asyncio.sleep(delay)
            try:
                async with self._lock:
                    if self._ahead:
                        await self._rebuild(await self.journal.load_tournament(self.tournament_id))
                    await self._advance()
                return
            except Exception as error:
                log.warning("tournament %s: the store is away, healing (%s)", self.tournament_id, type(error).__name__)
            delay = min(delay * 2, most)

    async def _rebuild(self, entries: list[TournamentEntry]) -> None:
        """Replay the stored log over a fresh tournament (as a room's rebuild does: readers hear only of the stored
        updates they have not had)."""
        self._reset()
        self.rules = new_tournament(self.game)
        await self.restore(entries)
        self._ahead = False
        log.info("tournament %s: rebuilt from the store at version %d", self.tournament_id, self.version)

    # -- leaving this node ------------------------------------------------------------------------------------------

    async def hand_over(self) -> None:
        """Stop here so another node can take the tournament on (this node drains): what is being written is
        finished first, then readers are told to come back."""
        async with self._lock:
            self._stop_here(
                RoomMoved("this tournament is moving to another node; reconnect with the last version seen")
            )

    def lost(self) -> None:
        """The node found the lease taken by another node."""
        self._stop_here(RoomMoved("this tournament moved to another node; reconnect with the last version seen"))

    def _stop_here(self, moved: RoomMoved) -> None:
        if self._moved is not None:
            return
        self._moved = moved
        current = asyncio.current_task()
        for task in [*self._advancing, *([self._healing] if self._healing else [])]:
            if task is not current:
                task.cancel()
        self._readers.fail(moved)
        if self.on_moved is not None:
            self.on_moved(self)

    async def settle(self) -> None:
        """Wait until every move-on that a finished game started, and any healing, has run (tests)."""
        while self._advancing or (self._healing is not None and not self._healing.done()):
            await asyncio.gather(*self._advancing, *([self._healing] if self._healing else []), return_exceptions=True)

    async def close(self) -> None:
        for task in [*self._advancing, *([self._healing] if self._healing else [])]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._readers.end()
