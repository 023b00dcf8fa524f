"""One tournament: four seats that play a series of games together, each game an ordinary room.

People join the tournament, not its rooms: a tournament seat's nonce names its token, and the tournament seats each
person in every one of its rooms with that nonce, so one token plays every game. When the last seat is taken the first
game starts; when a game's room finishes, its result is recorded and the next game starts by itself, with the first
player rotated as the game's tournament rules say.

Like a room, a tournament changes only in versioned updates, each written to its append-only log before anyone hears
of it: ``join``, ``leave``, ``game`` (game N started in room R) and ``result`` (game N ended; the outcome is the room's,
rebuilt from the room's own log). The standings are never stored: they are computed from the games' outcomes.

**A duplicate tournament** (``record.duplicate``; engine/soker/tournament.py) plays each of its deals in four rooms
in turn, the seats rotated: game ``g``'s room seats tournament seat ``k`` at table seat ``(k + r) % 4`` (its people
with their tournament nonces, its system players at their rotated seats), and is made with the deal's
``DealSpec``: the deal's secret (drawn at creation, kept sealed on the tournament's row), its subject
``<tournament id>/deal/<d>`` and its seeds (the players' seeds in tournament seat order; a system player's seat the
``system_seat_seed`` of the deal), so every rotation deals the same cards to the same table seats. The commitments are
public from the creation (Snapshot.deals). A deal's rooms but its last are ``held``: they end without revealing the
deal (the next rotation's players would read every hand in the replay); once its last rotation has ended (or the
tournament ended early) the tournament reveals them (RoomDirectory.reveal, idempotent: :meth:`Tournament._advance`
runs it after a restart too) and publishes the deal's secret.

A solo tournament whose person walked away ends with its game: that room ends as abandoned once its person has not
moved for the server's abandon time (service/rooms/room.py), and the ``result`` line of a game that ended so ends the
tournament there (no later game starts; the standings are those of the games played, not final), so that it leaves
the cap on live tournaments. Its replay does the same, the room's outcome being stored.

A tournament is a handler on the actor runtime (service/actors/actor.py), as a room is: its requests and its moving on
are commands of one loop. Recovery needs no special case. A restarted server rebuilds the rooms, replays the
tournament's log, then runs the same :meth:`Tournament.advance` that runs after every change: it records a finished game
the log does not have yet, seats people missing from the current room, and starts the next game (reusing a room created
just before a crash or a takeover: the store is asked, whether or not the room is in memory here, so a game never gets
two rooms; on a node of a cluster a game's room is stored only under the tournament's lease). A change the store does
not confirm is healed the same way without a restart: the runtime reads the log back from the store, replays it and the
tournament moves on, trying again with backoff while the store is away (and answering StoreUnavailable meanwhile); a
room that cannot be reached is tried again with backoff too.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from deals.scheme import SCHEME, commitment, system_seat_seed
from engine.core import Outcome
from engine.registry import get_game, new_tournament
from service.actors.actor import Actor, ActorHandler, Change, Host
from service.actors.feed import Feed
from service.actors.requests import RequestKey
from service.errors import Conflict, Moved, Unavailable
from service.rooms.deals import seat_seed
from service.rooms.directory import DealSpec, NewRoom, RoomDirectory
from service.rooms.room import ABANDONED, FINISHED, PERSON, PLAYING, SOLO, WAITING, Room
from service.rooms.seats import Seat, SeatLeftEvent, SeatTable, SeatTakenEvent, new_nonce
from service.store.records import TournamentEntry, TournamentRecord

log = logging.getLogger(__name__)


TournamentSeat = Seat  # (its origin is passed on to each game's seat)


@dataclass(frozen=True)
class GameInfo:
    """One game of the tournament as it stood at an update."""

    index: int
    room_id: str
    first_seat: int
    status: str
    outcome: Outcome | None = None
    deal: int = 0  # a duplicate tournament's: the deal it plays
    table_seats: tuple[int, ...] = ()  # a duplicate tournament's: the table seat of each tournament seat


@dataclass(frozen=True)
class DealInfo:
    """A duplicate tournament's deal as anyone may see it: its commitment from the start, its seeds once every seat is
    taken, its secret (hex) once its last rotation has ended ('' until then)."""

    subject: str
    commitment: str
    seeds: tuple[str, ...] = ()
    secret: str = ""
    scheme: str = SCHEME


@dataclass(frozen=True)
class HandPlay:
    """A player's game with one hand of a deal (tournament seat, its name, the game, points, whether they won)."""

    seat: int
    name: str
    game: int
    points: int
    won: bool


@dataclass(frozen=True)
class HandLine:
    """One table seat's hand of one deal and who played it (a duplicate tournament's comparison)."""

    deal: int
    table_seat: int
    plays: tuple[HandPlay, ...]


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
    hands: tuple[HandLine, ...] = ()  # a duplicate tournament's comparison, deal by deal, table seat by table seat


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
    duplicate: bool = False
    deals: tuple[DealInfo, ...] = ()
    seeds: tuple[str, ...] = ()  # each tournament seat's seed as its person gave it ('' for none, a system player's)

    @property
    def games_played(self) -> int:
        return sum(1 for game in self.game_list if game.outcome is not None)

    @property
    def current_room_id(self) -> str:
        playing = [game.room_id for game in self.game_list if game.outcome is None]
        return playing[-1] if playing else ""


# Tournament events: none holds anything secret. A seat's are a room's (service/rooms/seats.py).
SeatJoined, SeatLeft = SeatTakenEvent, SeatLeftEvent


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
    """One change of the tournament, what it caused, and the tournament after it (what anyone may see)."""

    version: int
    events: tuple[Any, ...]
    snapshot: Snapshot
    time: float


KIND = "tournament"  # the tournaments' kind of actor


class Tournament(ActorHandler):
    """See the module docstring: the tournament ``record`` describes, its games in ``rooms``. ``epoch``: the lease this
    node holds it under (0: a single server); ``host``: its directory."""

    def __init__(
        self,
        record: TournamentRecord,
        rooms: RoomDirectory,
        *,
        epoch: int = 0,
        host: Host | None = None,
        deal_secrets: Sequence[bytes] = (),
    ) -> None:
        """``deal_secrets``: a duplicate tournament's deals' secrets, opened (its record keeps them sealed)."""
        self._record = record
        self.duplicate = record.duplicate
        self.deal_secrets = tuple(deal_secrets)
        if self.duplicate and len(self.deal_secrets) != new_tournament(record.game, duplicate=True).deals:
            raise RuntimeError(f"tournament {record.tournament_id}: a duplicate tournament without its deals' secrets")
        self.tournament_id = record.tournament_id
        self.game = record.game
        self.mode = record.mode
        self.options = dict(record.options)
        self.system_player = record.system_player
        self.think_seconds = record.think_seconds
        self.system_players = record.system_players
        self.rooms = rooms
        self.actor: Actor[TournamentUpdate] = Actor(
            kind=KIND, actor_id=self.tournament_id, handler=self, journal=rooms.journal, host=host, epoch=epoch
        )
        players = new_tournament(self.game).players
        self.teams = get_game(self.game).teams(players, self.options)  # each seat's team, the same in every game
        self.used_at = rooms.clock.now()  # when it was last changed, loaded or called for (an idle solo one may rest)
        self.reset()
        self._created = self.snapshot()  # as created: what readers see while a first change awaits the store

    def record(self) -> TournamentRecord:
        """The tournament as created, for the store (with its status now)."""
        return replace(self._record, status=self.status)

    def reset(self) -> None:
        """The tournament as created (a rebuild replays the log over this)."""
        self.rules = new_tournament(self.game, duplicate=self.duplicate)
        players = self.rules.players
        # System players take the last seats, as in a room: the seat numbers are the same in every game.
        system = range(players - self.system_players, players)
        self.table = SeatTable(players, system, self.system_player, self.teams, Seat, "tournament")
        self.seats = self.table.seats
        self.status = WAITING
        self.game_room_ids: list[str] = []  # game i's room, for every game started (the rooms live in the directory)
        self.abandoned: int | None = None  # the game abandoned by its person, which ended the tournament
        self.seat_seeds: dict[int, str] = {}  # each person's seat's seed, as given on joining
        self._revealed: set[str] = set()  # held rooms revealed by this process (RoomDirectory.reveal is idempotent)

    # -- requests --------------------------------------------------------------------------------------------------

    async def join(
        self,
        seat: int | None,
        name: str,
        player: str = "",
        origin: str = "",
        request: RequestKey | None = None,
        seed: str = "",
    ) -> tuple[int, str]:
        """Take a person's seat (for ``player``, a signed-in player: one seat each, joining from ``origin``, as a
        room's seat keeps it: each game's room decides whether it is rated from its seats' origins); returns it with
        its nonce. The last seat taken starts the first game. ``request``: the join's request id, as a room's join
        takes it (Room.join): sent again, the same seat while it is still held under that join. ``seed``: the seat's
        seed for the fair deal (deals/scheme.py; InvalidRequest bad_seed for one it cannot take)."""
        seat_seed(seed)  # (a bad one: InvalidRequest bad_seed, as a room's join)
        return await self.actor.call(lambda: self._join(seat, name, player, origin, request, seed))

    async def _join(
        self,
        seat: int | None,
        name: str,
        player: str = "",
        origin: str = "",
        request: RequestKey | None = None,
        seed: str = "",
    ) -> tuple[int, str]:
        table = self.table
        if request is not None and table.joined_with(request):  # (before any other check: the join was made)
            return table.joined_before(request)
        if self.status != WAITING:
            raise Unavailable("the tournament has started: every seat is taken", code="tournament_full")
        if table.seat_of(player) is not None:
            raise Conflict("the player holds a seat of this tournament already", code="already_seated")
        seat = table.to_take(seat, full="tournament_full")
        nonce = new_nonce()
        await self._take_seat(
            seat, name or f"player {seat}", nonce, player, origin, request.line if request else "", seed
        )
        await self._move_on()
        return seat, nonce

    async def leave(self, seat: int, nonce: str) -> None:
        await self.actor.call(lambda: self._leave(seat, nonce))

    async def _leave(self, seat: int, nonce: str) -> None:
        self.check_seat(seat, nonce)
        if self.status != WAITING:
            return  # nobody is removed once the games have begun: the clock plays for an absent person
        await self._free_seat(seat)

    def check_seat(self, seat: int, nonce: str) -> None:
        self.table.check(seat, nonce)

    def subscribe(self, after_version: int) -> Feed[TournamentUpdate]:
        """A feed of every stored update after ``after_version``, then each new one."""
        current = self.current()
        return self.actor.subscribe(current.version, after_version, current.status == FINISHED)

    # -- what the tournament shows ---------------------------------------------------------------------------------

    def standings(self) -> Standings:
        names = {seat.seat: seat.name for seat in self.seats}
        lines = tuple(
            StandingLine(line.place, line.seat, line.points, line.games_won, line.tallies, names[line.seat])
            for line in self.rules.standings()
        )
        hands = tuple(
            HandLine(
                hand.deal,
                hand.table_seat,
                tuple(HandPlay(p.seat, names[p.seat], p.game, p.points, p.won) for p in hand.plays),
            )
            for hand in getattr(self.rules, "comparison", list)()
        )
        return Standings(lines, self.rules.finished, hands)

    # -- a duplicate tournament's deals ----------------------------------------------------------------------------

    def table_seat(self, seat: int, index: int) -> int:
        """The room's seat tournament seat ``seat`` plays in game ``index`` (the same seat unless duplicate)."""
        return self.rules.table_seat(seat, index) if self.duplicate else seat  # type: ignore[attr-defined]

    def deal_subject(self, deal: int) -> str:
        return f"{self.tournament_id}/deal/{deal}"

    def deal_seeds(self, deal: int) -> tuple[str, ...]:
        """Deal ``deal``'s seeds, in tournament seat order: each person's as given, each system player's the seed the
        scheme publishes for its seat (bound to the deal)."""
        secret, subject = self.deal_secrets[deal], self.deal_subject(deal)
        return tuple(
            self.seat_seeds.get(seat.seat, "")
            if seat.kind == PERSON
            else system_seat_seed(secret, subject, self.game, seat.seat)
            for seat in self.seats
        )

    def deal_revealed(self, deal: int) -> bool:
        """Whether deal ``deal`` may be shown: its last rotation has ended, or the tournament has (ended early)."""
        return len(self.rules.results) >= (deal + 1) * self.rules.players or self.status == FINISHED

    def deals(self) -> tuple[DealInfo, ...]:
        seated = self.status != WAITING
        return tuple(
            DealInfo(
                self.deal_subject(deal),
                commitment(secret, self.deal_subject(deal), self.game),
                self.deal_seeds(deal) if seated else (),
                secret.hex() if self.deal_revealed(deal) else "",
            )
            for deal, secret in enumerate(self.deal_secrets)
        )

    def game_info(self, index: int) -> GameInfo:
        # From the log only (not the room's status now), so a replayed update is the one first sent.
        outcome = self.rules.results[index] if index < len(self.rules.results) else None
        if index == self.abandoned:
            outcome = Outcome((), ABANDONED, ())
        status = FINISHED if outcome is not None else PLAYING
        info = GameInfo(index, self.game_room_ids[index], self.rules.first_seat(index), status, outcome)
        if not self.duplicate:
            return info
        tables = tuple(self.table_seat(seat.seat, index) for seat in self.seats)
        return replace(info, deal=index // self.rules.players, table_seats=tables)

    def current(self) -> Snapshot:
        """The tournament as of its last stored update: what every reader is told (never a change still being
        written, nor one the store refused)."""
        updates = self.actor.updates
        if updates:
            return updates[-1].snapshot
        return self._created if self.actor.ahead else self.snapshot()

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
            created_at=self._record.created_at,
            duplicate=self.duplicate,
            deals=self.deals(),
            seeds=tuple(self.seat_seeds.get(seat.seat, "") for seat in self.seats),
        )

    # -- changes ---------------------------------------------------------------------------------------------------

    async def _take_seat(
        self, seat: int, name: str, nonce: str, player: str = "", origin: str = "", request: str = "", seed: str = ""
    ) -> None:
        """``request``: the join's request key and parameters as its log line keeps them ('' for none)."""
        record = self.table.take(seat, name, nonce, player, origin)
        self.seat_seeds[seat] = seed
        entry = TournamentEntry(
            "", 0, "join", seat, name, nonce, player=player, origin=origin, request_id=request, seed=seed
        )
        await self._change([SeatJoined(replace(record, nonce="", origin=""))], entry)
        self.table.taken_with(request, seat, nonce)

    async def _free_seat(self, seat: int) -> None:
        self.table.free(seat)
        self.seat_seeds.pop(seat, None)
        await self._change([SeatLeft(seat)], TournamentEntry("", 0, "leave", seat))

    async def _game_started(self, room: Room) -> None:
        index = len(self.game_room_ids)
        if room.tournament_game != index:
            raise RuntimeError(f"tournament {self.tournament_id}: room {room.room_id} is not game {index}")
        self.game_room_ids.append(room.room_id)
        self.status = PLAYING
        players = tuple(record.player for record in self.seats if record.player)  # (for its webhook event)
        entry = TournamentEntry("", 0, "game", game_index=index, room_id=room.room_id, players=players)
        await self._change([GameStarted(self.game_info(index))], entry)

    async def _game_ended(self, index: int) -> None:
        room = await self.rooms.find(self.game_room_ids[index])
        ended = room.published.outcome
        if room.state is None and ended is not None and ended.reason == ABANDONED:
            # (its person walked away: the tournament ends here, its game scoring nothing)
            self.abandoned, self.status = index, FINISHED
            standings = self.standings()
            events = [GameEnded(self.game_info(index)), TournamentEnded(standings)]
            await self._change(events, TournamentEntry("", 0, "result", game_index=index, room_id=room.room_id))
            return
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
        await self._change(events, entry)

    async def _change(self, events: list[Any], entry: TournamentEntry) -> None:
        """The next version, through the actor (which stores the log line, then tells every feed)."""
        actor = self.actor

        def change(version: int) -> Change[TournamentUpdate]:
            replay = actor.replaying
            now = replay.time if replay else self.rooms.clock.now()
            line = replace(entry, tournament_id=self.tournament_id, version=version, time=now, epoch=actor.epoch)
            update = TournamentUpdate(version, tuple(events), self.snapshot(), now)
            return Change(line, self.status, update, last=self.status == FINISHED)

        await actor.change(change)

    def stored(self, change: Change[Any]) -> None:
        self.used_at = self.rooms.clock.now()

    # -- moving on -------------------------------------------------------------------------------------------------

    def child_finished(self, child: Any) -> None:
        """A room of this tournament finished its game (called from the room's loop): move on, in the tournament's."""
        if self.actor.moved is None:
            self.actor.enqueue(self._move_on)

    room_finished = child_finished

    async def advance(self) -> None:
        """Bring the tournament up to date: record finished games, start the next (see the module docstring)."""
        await self.actor.call(self._advance)

    async def _move_on(self) -> None:
        """Advance; while a room (or its store) cannot be reached, try again with backoff. A change of the
        tournament's own the store did not confirm is healed by the runtime, which then moves on (:meth:`resume`)."""
        try:
            await self._advance()
        except Moved:  # (the tournament, or its game, went on to another node)
            return
        except Exception as error:
            if not self.actor.ahead:
                log.warning("tournament %s: could not move on (%s)", self.tournament_id, type(error).__name__)
                self.actor.retry(self._move_on)
            return
        self.actor.succeeded()

    async def _advance(self) -> None:
        if self.actor.ahead or self.actor.moved is not None:
            return
        if self.status == WAITING and not all(seat.taken for seat in self.seats):
            return
        await self._reveal_due()
        while self.status != FINISHED:
            index = len(self.rules.results)
            if index < len(self.game_room_ids):
                room = await self.rooms.find(self.game_room_ids[index])
                await self._seat_everyone(room)
                if room.status != FINISHED:
                    return
                await self._game_ended(index)
                await self._reveal_due()
            else:
                await self._game_started(await self._room_for(index))

    async def _reveal_due(self) -> None:
        """A duplicate tournament: reveal the held rooms of every deal that may be shown now (its last rotation ended,
        or the tournament did). Idempotent, so a restart runs it again for a reveal a crash cut short."""
        if not self.duplicate:
            return
        players = self.rules.players
        for index, room_id in enumerate(self.game_room_ids):
            if index % players == players - 1:
                continue  # (a deal's last rotation is not held: it reveals the deal as it ends)
            if room_id not in self._revealed and self.deal_revealed(index // players):
                room = self.rooms.in_memory(room_id)
                if self.status == FINISHED and room is not None and room.status != FINISHED:
                    continue  # (a game the tournament's end left unplayed: nothing of it is held)
                await self.rooms.reveal(room_id)
                self._revealed.add(room_id)

    async def _room_for(self, index: int) -> Room:
        """Game ``index``'s room: the one created before a crash or a takeover cut its start short (in memory or in
        the store), or a new one."""
        made = await self.rooms.tournament_game(self.tournament_id, index)
        if made is not None:
            return made
        asked = NewRoom(
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
        if self.duplicate:
            players = self.rules.players
            deal = index // players
            system = tuple(sorted(self.table_seat(seat.seat, index) for seat in self.seats if seat.kind != PERSON))
            held = index % players != players - 1  # (every rotation but the deal's last)
            spec = DealSpec(self.deal_secrets[deal], self.deal_subject(deal), self.deal_seeds(deal), held=held)
            asked = replace(asked, system_seats=system, deal=spec)
        return await self.rooms.create(asked)

    async def _seat_everyone(self, room: Room) -> None:
        people = [seat for seat in self.seats if seat.kind == PERSON]
        index = room.tournament_game if room.tournament_game is not None else len(self.game_room_ids) - 1
        for seat in people:
            table = self.table_seat(seat.seat, index)
            seed = self.seat_seeds.get(seat.seat, "")  # (its seed in every game's room, as given on joining)
            await room.seat_person(table, seat.name, seat.nonce, seat.player, seat.origin, seed)
        if not people:
            await room.open()

    # -- resting ---------------------------------------------------------------------------------------------------

    def may_rest(self, now: float, rest_seconds: float, horizon: float) -> Room | None:
        """Whether this tournament may leave memory now (service/tournaments/directory.py): a solo tournament being
        played whose actor has nothing in hand or queued, with no reader, unused for ``rest_seconds``, whose every
        game started is recorded but the current one, and whose current game, in memory here, may rest with it
        (Room.may_rest). The game room to rest with it; None when it may not rest. (Its game never rests alone: a game
        room called back into memory wakes its tournament, TournamentDirectory.child_loaded.)"""
        if self.mode != SOLO or self.status != PLAYING or len(self.rules.results) != len(self.game_room_ids) - 1:
            return None
        actor = self.actor
        if not actor.idle or actor.readers.open_feeds or now - self.used_at < rest_seconds:
            return None
        room = self.rooms.in_memory(self.game_room_ids[-1])
        if room is None or not room.may_rest(now, rest_seconds, horizon, with_tournament=True):
            return None
        return room

    # -- the log ---------------------------------------------------------------------------------------------------

    async def restore(self, entries: list[TournamentEntry]) -> None:
        """Replay the log (the rooms are already rebuilt); the tournament moves on from where it stood."""
        await self.actor.restore(entries)

    async def replay(self, entry: TournamentEntry) -> None:
        if entry.kind == "join":
            await self._take_seat(
                entry.seat, entry.name, entry.nonce, entry.player, entry.origin, entry.request_id, entry.seed
            )
        elif entry.kind == "leave":
            await self._free_seat(entry.seat)
        elif entry.kind == "game":
            await self._game_started(await self.rooms.find(entry.room_id))
        elif entry.kind == "result":
            await self._game_ended(entry.game_index)
        else:
            raise RuntimeError(f"tournament {self.tournament_id}: unknown log line {entry.kind!r}")

    def resume(self) -> None:
        """After a replay: move on from where the log stood."""
        self.actor.enqueue(self._move_on)
