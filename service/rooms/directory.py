"""The directory of rooms: creates them (checking the request, and the node's cap on live rooms) and lets idle
correspondence rooms rest; finding, listing, rebuilding and handing over are the runtime's
(service/actors/directory.py), for rooms as for every kind of actor.

**Resting.** A correspondence room (every clocked period lasts hours: ``correspondence_hours``) may go days between
two moves, and holding it in memory all that time, a timer set for days, costs memory for nothing. So every
``wake_seconds`` (:meth:`RoomDirectory.start_resting`, on the directory's clock) :meth:`RoomDirectory.rest_and_wake`
lets go of each such room that is being played, has no reader (no open stream), nothing in hand or queued in its
actor, was not changed, loaded or called for in ``rest_seconds``, and is not due within two sweeps (its ``wake_at``,
the first deadline while only people act, is later than now + 2 * wake_seconds): its actor stops, its timers with it,
and it leaves memory; the store has all of it. On a node of a cluster it keeps its lease, so calls for it still come
to this node. Any call for it (``locate``) reads it back from the store and rebuilds it as a restart would, each
clock resuming with its stored deadline. The same pass asks the store for the rooms due within two sweeps
(``journal.due``; on a node, those whose lease names it) and loads each that is not in memory, so that its clock runs
out in memory, on time. A single server's start loads no resting room (:meth:`RoomDirectory.wake_horizon`): the sweep
does, when it is due. A room whose system player must move never rests (its ``wake_at`` is None), nor does a live
room, a waiting one or a tournament's game by itself (a solo tournament's game rests with its tournament, which this
pass runs first: service/tournaments/directory.py; loaded again, the game wakes its tournament).

**Solo rooms rest too.** A solo room has no clock: a person who walks away would leave it in memory for good, reloaded
at every restart and counted under the cap. So a solo room whose person must move rests the same way after
``solo_rest_seconds`` idle, and its ``wake_at`` is the time it ends as abandoned (``solo_abandon_seconds`` after its
last line: service/rooms/room.py): the sweep loads it then, and it ends by itself, nobody winning. A call for it
brings it back meanwhile, as for a correspondence room.

**The cap on live rooms** (``max_live_rooms``). Resting rooms are not in memory, so the rooms held (``_live``, and
the kickoff.rooms gauge) do not count them; but they are this server's, and each comes back when it is due or called
for. So a new room is refused once the rooms held and the rooms resting (``_resting``) together reach the cap:
resting frees memory, never room under the cap, and a server whose resting rooms all wake at once still holds no
more than its cap. The resting rooms are counted from the store when resting starts (:meth:`start_resting`: after a
restart, or on a node, the rooms whose lease names it) and kept up to date as rooms rest, come back, or move away.
Resting solo rooms (``_resting_solo``) are the exception: they do not count. A solo room comes back only when its
own person calls for it (or to end, abandoned, and leave the count at once), never many at once on a clock, and
counting them is what let a node fill with rooms their people had walked away from and then refuse everyone.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from deals.scheme import new_secret
from engine.core import InvalidOptions, UnknownGame
from engine.levels import ALIASES, levels_of
from engine.registry import GAMES, get_game
from service.actors.directory import Directory, page_size_of
from service.actors.requests import RequestKey
from service.actors.runtime import Remote, Runtime
from service.errors import InvalidRequest, Moved, ResourceExhausted
from service.rooms.clock import SystemClock, Timer
from service.rooms.deals import RoomDeal, secret_of
from service.rooms.room import KIND, ONLINE, SOLO, Room, Surroundings
from service.settings import CorrespondenceSettings
from service.store.memory import MemoryJournal
from service.store.records import RoomRecord
from service.telemetry import room_trace

__all__ = [
    "KEEP_FINISHED",
    "MAX_CORRESPONDENCE_HOURS",
    "NewRoom",
    "RoomDirectory",
    "RoomsShared",
    "page_size_of",
    "seats_of_system_players",
]

log = logging.getLogger(__name__)

KEEP_FINISHED = 256  # finished rooms kept in memory, the most recently used
MAX_CORRESPONDENCE_HOURS = 14 * 24  # a correspondence room's longest period: 14 days
CHAT_MODES = ("", "on", "reactions", "off")  # a room's chat option ('' and "on" are the same: service/chat)


def seats_of_system_players(seats: int, count: int, chosen: Sequence[int] = ()) -> tuple[int, ...]:
    """The seats system players take: ``chosen`` (each a seat of the table, no seat twice), else the last ``count``."""
    if not chosen:
        return tuple(range(seats - count, seats))
    if any(not 0 <= seat < seats for seat in chosen) or len(set(chosen)) != len(chosen):
        raise InvalidRequest(
            f"system_seats must name different seats, each 0-{seats - 1}", code="bad_system_seats", field="system_seats"
        )
    if count and count != len(chosen):
        raise InvalidRequest(
            f"system_players is {count} but system_seats names {len(chosen)} seats (give one, or both agreeing)",
            code="bad_system_seats",
            field="system_seats",
        )
    return tuple(sorted(chosen))


def _random_secret() -> bytes:
    return new_secret()


def new_room_id() -> str:
    """A new room's id: random (the tests' conftest replaces it with ids the same from run to run, since a fair deal
    is bound to its room's id)."""
    return secrets.token_hex(8)


@dataclass(frozen=True)
class DealSpec:
    """A deal chosen for a new room by what makes it (a duplicate tournament plays one deal again with its seats
    rotated; deals/scheme.py): its ``secret``, the ``subject`` its commitment is bound to, and the ``seeds`` its game's
    seed is derived from, in the scheme's order (None: the seats' own seeds, in seat order, as any room's). ``held``:
    the room does not reveal the deal when its game ends but when it is told to (RoomDirectory.reveal): a duplicate
    tournament holds a deal until its last rotation has been played."""

    secret: bytes
    subject: str
    seeds: tuple[str, ...] | None = None
    held: bool = False


def seeded_deals(first: int, count: int) -> Callable[[], DealSpec]:
    """Deals that repeat from run to run (`kickoff grpc --room-seeds FIRST:COUNT`, for benchmarks): the k-th room
    made gets the secret ``n.to_bytes(32, "big")`` with ``n = first + k % count``, bound to the subject
    ``seeded/<n>`` instead of its (random) id, so the k-th room of every run is dealt the same game from the same
    seats' seeds. Such a deal is no fair deal: anyone who knows ``n`` knows its secret, and `kickoff verify` refuses
    it (its subject is not the room's)."""
    numbers = itertools.cycle(range(first, first + count))

    def deal() -> DealSpec:
        number = next(numbers)
        return DealSpec(secret_of(number), f"seeded/{number}")

    return deal


@dataclass(frozen=True)
class NewRoom:
    """What a new room is asked to be, as RoomDirectory.create takes it (a record of the request: create checks it;
    its docstring says what each field means)."""

    game: str
    mode: str
    seats: int
    system_players: int
    system_seats: Sequence[int] = ()
    options: Mapping[str, Any] | None = None
    system_player: str = ""
    think_seconds: float | None = None
    tournament_id: str = ""
    tournament_game: int | None = None
    rated: bool | None = None
    choice: str = ""
    room_id: str = ""
    people: Sequence[tuple[Any, ...]] = ()  # each (seat, name, nonce, player, origin, seed)
    correspondence_hours: int = 0
    stand_ins: bool = False
    unlisted: bool = False
    rematch_fill: str = ""  # what fills a seat whose person declines a rematch ('' no rematch, "system")
    rematch: bool = False  # a rematch's room (service/rooms/rematches.py): its people seated, unlisted as its first
    chat: str = ""  # the room's chat: '' (on), "reactions" or "off" (service/chat)
    team_chat: bool = False  # a channel for each team (a team game only)
    deal: DealSpec | None = None  # a deal chosen by what makes the room (None: the room draws its own secret)


@dataclass(frozen=True)
class RoomsShared:
    """What every room of a directory shares, as one object (as a Room takes its Surroundings): what each room holds
    (``surroundings``: the clock, the journal, the telemetry, the limits, whether games may be rated, the thinkers),
    the runtime where the rooms live, and how the directory makes new rooms (``seed_source``: each new room's deal
    secret, drawn with deals.scheme.new_secret; a source returning an int ``n`` gives the secret
    ``n.to_bytes(32, "big")``, the tests' and benchmarks' way to repeat deals: service/rooms/deals.py; the default
    think time, ``max_live_rooms``) and keeps finished ones (``keep_finished``); ``correspondence``: when idle
    correspondence and solo rooms rest, how often the store is swept for those due, and when a solo room nobody
    plays ends as abandoned (the surroundings' ``abandon_seconds``)."""

    surroundings: Surroundings
    runtime: Runtime = field(default_factory=Runtime)
    seed_source: Callable[[], int | bytes] = field(default=_random_secret)
    # each new room's deal, where what makes the room chose none (NewRoom.deal); None: the room draws its secret from
    # seed_source and binds it to its id (a fair deal). Benchmarks repeat their games with seeded_deals.
    deals: Callable[[], DealSpec] | None = None
    # each new room's id (random; tests give ids the same from run to run, since a fair deal is bound to its room's id)
    room_ids: Callable[[], str] = field(default=lambda: new_room_id())  # (looked up at each call: see new_room_id)
    default_think_seconds: float | None = None
    max_live_rooms: int | None = None
    keep_finished: int = KEEP_FINISHED
    correspondence: CorrespondenceSettings = field(default_factory=CorrespondenceSettings)

    @classmethod
    def of(cls, parts: Mapping[str, Any]) -> RoomsShared:
        """From parts named one by one (what tests and tools write: ``RoomDirectory(clock=..., journal=...)``), each
        a field of Surroundings or of this record; what is not named keeps its default (a system clock, a journal in
        memory, a single server's runtime), and the solo rooms' abandon time follows ``correspondence``."""
        held = {name.name for name in fields(Surroundings)}
        unknown = set(parts) - held - {name.name for name in fields(cls)}
        if unknown:
            raise TypeError(f"rooms share no {', '.join(sorted(unknown))}")
        own = {name: value for name, value in parts.items() if name not in held and value is not None}
        correspondence = own.get("correspondence") or CorrespondenceSettings()
        around = {name: value for name, value in parts.items() if name in held and value is not None}
        around.setdefault("clock", SystemClock())
        around.setdefault("journal", MemoryJournal())
        around.setdefault("abandon_seconds", correspondence.solo_abandon_seconds or None)
        return cls(Surroundings(**around), **own)


class RoomDirectory(Directory[Room]):
    """Every room of this server, with what they share (``shared``: see RoomsShared; or its parts by name, for tests
    and tools). ``max_live_rooms`` caps the rooms waiting or playing at once, resting correspondence rooms included
    and resting solo rooms not (see the module docstring; a tournament's games do not count: the tournaments have a
    cap of their own)."""

    kind = KIND
    parent = "tournament"  # a tournament's game names it

    def __init__(self, shared: RoomsShared | None = None, /, **parts: Any) -> None:
        shared = shared or RoomsShared.of(parts)
        around = shared.surroundings
        super().__init__(journal=around.journal, runtime=shared.runtime, keep_finished=shared.keep_finished)
        self.shared = shared
        self.surroundings = around
        self.clock = around.clock
        self.telemetry = around.telemetry
        self.telemetry.instruments.observe_rooms(self._count)
        self.seed_source = shared.seed_source
        self.default_think_seconds = shared.default_think_seconds
        self.limits = around.limits
        self.thinkers = around.thinkers  # where hard system players search (none: in the event loop's thread)
        self.correspondence = shared.correspondence
        self.max_live_rooms = shared.max_live_rooms
        self._live: set[str] = set()  # rooms waiting or playing in memory, outside tournaments
        self._created = 0.0  # the last creation time given
        self._resting: set[str] = set()  # live rooms of this server's that rest (not in memory: the store has them)
        self._resting_solo: set[str] = set()  # the solo ones among them: they do not count under the cap
        self._resting_on = False  # resting and waking every wake_seconds (start_resting)
        self._sweep_timer: Timer | None = None
        self._sweeping: asyncio.Task[None] | None = None

    async def create(self, asked: NewRoom | None = None, /, *, request: RequestKey | None = None, **named: Any) -> Room:
        """A new room, stored, started and waiting for its people. Raises InvalidRequest naming what is wrong.

        System players take ``system_seats`` when given, else the last ``system_players`` seats. A tournament's rooms
        (``tournament_id``) may be all system players: see :meth:`check`. ``rated``: whether the game is rated (None:
        the default rule, Room._why_unrated); a rated room takes signed-in players only. ``choice``: what the creator,
        who takes the first person's seat at once, chooses for it (checked here, so a bad one makes no room).

        ``people``: a matched room's, each (seat, name, nonce, player, origin), seated as the room is made (its id
        chosen beforehand, ``room_id``); with every other seat a system player's, the game starts as the room is
        stored.

        ``correspondence_hours``: a correspondence room (online only), whose every clocked period lasts this many
        hours (1-336) instead of the game's seconds; 0 for a live room.

        ``unlisted``: a private table (service/rooms/private.py): never listed, seen only by its seated players and
        its invitation links' holders; never a tournament's or a matched room.

        ``stand_ins``: a person's seat the clock played for twice in a row is played by a system player at ``normal``
        until the person moves again (online only: a solo room has no clock).

        ``chat``: what the room's chat lets through ('' or "on", "reactions", "off"); ``team_chat``: a channel for
        each team, in a game with teams only (service/chat).

        ``request``: the creator's request id (service/actors/requests.py), kept on the room's row; call it through
        :meth:`create_once`, which answers a retry with the room its key made. Another call that stored a room under
        the same key meanwhile (on another node): StoreRefused, as the store's unique key refuses this one.

        The room asked for is ``asked``, or its fields named one by one (``create(game=..., mode=..., ...)``)."""
        asked = asked or NewRoom(**named)
        if asked.rated and not self.surroundings.rates:
            raise InvalidRequest(
                "this server keeps no ratings (players need a database store)", code="ratings_off", field="rated"
            )
        system_players = len(asked.system_seats) or asked.system_players
        resolved, system_player = self.check(
            replace(asked, system_players=system_players), people_optional=bool(asked.tournament_id)
        )
        if not 0 <= asked.correspondence_hours <= MAX_CORRESPONDENCE_HOURS:
            raise InvalidRequest(
                f"correspondence_hours must be 0-{MAX_CORRESPONDENCE_HOURS} (0: a live room)",
                code="bad_correspondence",
                field="correspondence_hours",
            )
        if asked.correspondence_hours and asked.mode != ONLINE:
            raise InvalidRequest(
                "a correspondence room is an online room: a solo room has no clock",
                code="bad_correspondence",
                field="correspondence_hours",
            )
        if asked.unlisted and (asked.tournament_id or (asked.people and not asked.rematch)):
            raise InvalidRequest("a tournament's or a matched room is never unlisted", code="bad_unlisted")
        if asked.stand_ins and asked.mode != ONLINE:
            raise InvalidRequest(
                "stand-ins play for people the clock played for: a solo room has no clock",
                code="bad_stand_ins",
                field="stand_ins",
            )
        if asked.chat not in CHAT_MODES:
            raise InvalidRequest("chat must be on, reactions or off", code="bad_chat", field="chat")
        if asked.team_chat:
            teams = get_game(asked.game).teams(asked.seats, resolved)
            if len(set(teams)) == len(teams):
                raise InvalidRequest(
                    "team chat is for team games (Carta Futbol Club, Age of Soccer with teams): this game has none",
                    code="team_chat_not_allowed",
                    field="team_chat",
                )
        taken = seats_of_system_players(asked.seats, asked.system_players, asked.system_seats)
        if asked.choice:
            first = next(seat for seat in range(asked.seats) if seat not in taken)
            try:
                get_game(asked.game).with_choices(asked.seats, resolved, {first: asked.choice})
            except InvalidOptions as error:
                raise InvalidRequest(str(error), field="choice", code="bad_choice") from None
        if (
            not asked.tournament_id
            and self.max_live_rooms is not None
            and len(self._live) + len(self._resting) - len(self._resting_solo) >= self.max_live_rooms
        ):
            raise ResourceExhausted(
                f"this server holds as many live rooms as it may ({self.max_live_rooms}); try again later",
                code="server_full",
                retry_after=30.0,
            )
        room_id = asked.room_id or self.shared.room_ids()
        # (a deal chosen by what makes the room, a duplicate tournament's; else the server's, a benchmark's)
        spec = asked.deal or (self.shared.deals() if self.shared.deals is not None else None)
        if spec is not None:
            deal = RoomDeal(spec.secret, spec.subject, asked.game, spec.seeds, spec.held)
        else:
            deal = RoomDeal(secret_of(self.seed_source()), room_id, asked.game)
        traced = {
            "kickoff.room_id": room_id,
            "kickoff.game": asked.game,
            "kickoff.seats": asked.seats,
            "kickoff.room.mode": asked.mode,
        }
        record = RoomRecord(
            room_id=room_id,
            game=asked.game,
            mode=asked.mode,
            seats=asked.seats,
            system_seats=taken,
            system_player=system_player,
            think_seconds=asked.think_seconds if asked.think_seconds is not None else self.default_think_seconds,
            options=resolved,
            seed=0,  # (a fair deal's game seed is derived as the game starts: service/rooms/deals.py)
            created_at=self.creation_time(),
            status="waiting",
            tournament_id=asked.tournament_id,
            tournament_game=asked.tournament_game,
            rated=asked.rated,
            people=tuple(asked.people),
            correspondence_hours=asked.correspondence_hours,
            stand_ins=asked.stand_ins,
            unlisted=asked.unlisted,
            rematch_fill=asked.rematch_fill,
            chat="" if asked.chat == "on" else asked.chat,
            team_chat=asked.team_chat,
            trace_parent=room_trace(self.telemetry, traced),  # (whether its game is traced: decided once, now)
            request_key=request.key if request else "",
            request_hash=request.parameters if request else "",
            deal_secret=deal.sealed(self.surroundings.sealer),
            deal_subject=deal.subject,
            deal_seeds=deal.seeds,
            deal_held=deal.held,
        )
        room = self.build(record, self.runtime.created_epoch)  # (on a node, the store makes its lease with it)
        await self.created(room)
        if asked.people and len(asked.people) + len(taken) == asked.seats:
            await room.open()
        return room

    def creation_time(self) -> float:
        """Now, but after every room and tournament this directory created before (lists are in creation order)."""
        self._created = max(self.clock.now(), self._created + 1e-6)
        return self._created

    def check(self, asked: NewRoom, *, people_optional: bool = False, what: str = "room") -> tuple[dict[str, Any], str]:
        """The options resolved and the system players' kind for a room so described (its game, mode, seats, system
        players, options, system player and think time); raises InvalidRequest naming what is wrong (``what`` names
        it: a room, or a tournament of such rooms). ``people_optional`` allows a table of system players only (a
        tournament to watch)."""
        game, mode, seats, system_players = asked.game, asked.mode, asked.seats, asked.system_players
        system_player, think_seconds = asked.system_player, asked.think_seconds
        try:
            rules = get_game(game)
        except UnknownGame:
            known = ", ".join(sorted(GAMES))
            raise InvalidRequest(f"no such game (known: {known})", code="unknown_game", field="game") from None
        if mode not in (ONLINE, SOLO):
            raise InvalidRequest("mode must be online or solo", code="bad_mode")
        try:
            resolved = rules.spec.resolve(seats, asked.options)
        except InvalidOptions as exc:
            raise InvalidRequest(str(exc), code="invalid_options") from None
        most = seats if people_optional else seats - 1
        if not 0 <= system_players <= most:
            why = "" if people_optional else ": at least one seat belongs to a person"
            raise InvalidRequest(f"system_players must be 0-{most}{why}", code="no_person_seat")
        if mode == SOLO and system_players != seats - 1:
            raise InvalidRequest(
                f"a solo {what} is one person against system players: system_players must be {seats - 1}",
                code="solo_needs_one_person",
            )
        system_player = ALIASES.get(system_player, system_player) or "normal"
        if system_player not in rules.bots:
            known = ", ".join(levels_of(rules))
            raise InvalidRequest(f"no such system player (known: {known})", code="unknown_bot", field="system_player")
        if think_seconds is not None and not 0 <= think_seconds <= 60:
            raise InvalidRequest("think_seconds must be 0-60", code="bad_think_time")
        try:
            rules.new_game(seats, resolved, 0)  # the options must also make a game (e.g. enough cards to deal)
        except InvalidOptions as exc:
            raise InvalidRequest(str(exc), code="invalid_options") from None
        return resolved, system_player

    async def stale(self, handler: Room) -> bool:
        """On a node of a cluster, a finished room kept in memory whose player deleted themselves since: the node that
        deleted them let its own copy go, but this one still shows their name (one lookup by the seats' player ids,
        for a finished room's reads only; a single server forgets at the deletion itself)."""
        deleted_among = getattr(self.journal, "deleted_among", None)  # (a store with players: SqlJournal)
        if self.runtime.node is None or deleted_among is None:
            return False
        players = [seat.player for seat in handler.seats if seat.player]
        return bool(players) and bool(await deleted_among(players))

    def build(self, record: RoomRecord, epoch: int) -> Room:
        self._created = max(self._created, record.created_at)
        return Room(record, self.surroundings, epoch=epoch, host=self)

    def _count(self) -> dict[tuple[str, str], int]:
        """Rooms by (game, status), for the kickoff.rooms gauge."""
        return dict(Counter((room.game.spec.name, room.published.status) for room in self.held()))

    def added(self, room: Room) -> None:
        self._resting.discard(room.room_id)  # (a resting room loaded again)
        self._resting_solo.discard(room.room_id)
        if not room.tournament_id:
            self._live.add(room.room_id)
        elif room.parent is not None:  # (a resting solo tournament wakes with its game)
            self.runtime.child_loaded(room.parent, room)

    def removed(self, actor_id: str) -> None:
        self._live.discard(actor_id)
        self._resting.discard(actor_id)
        self._resting_solo.discard(actor_id)

    def kept(self, room: Room) -> None:
        room.forget_updates()

    async def list(  # type: ignore[override]
        self, *, game: str = "", status: str = "", page_size: int = 0, page_token: str = ""
    ) -> tuple[list[Room | Remote], str]:
        """Rooms newest first, of ``game`` and in ``status`` when given (see Directory.list)."""
        return await super().list(page_size=page_size, page_token=page_token, game=game, status=status)

    async def locate(self, actor_id: str, *, use: bool = False) -> Room | Remote:  # type: ignore[override]
        """As Directory.locate; ``use``: a call for the room (not a listing), which keeps an idle room from resting
        for ``rest_seconds`` (so that a call that found it never finds it gone to rest before it is handled)."""
        found = await super().locate(actor_id)
        if use and isinstance(found, Room):
            found.used_at = self.clock.now()
        return found

    async def reveal(self, room_id: str) -> None:
        """Reveal the held deal of a finished room (DealSpec.held: a duplicate tournament, once its deal's last rotation
        is over): its log line ``reveal``, after which the room shows its secret and a revealed replay. Idempotent;
        NotFound for an unknown room, Unavailable (game_not_over) for one still playing, Moved for one another node
        holds (ask it there)."""
        found = await self.locate(room_id, use=True)
        if not isinstance(found, Room):
            raise Moved(f"room {room_id} is held by another node: ask it there")
        await found.reveal()

    async def tournament_game(self, tournament_id: str, index: int) -> Room | None:
        """The room made for game ``index`` of a tournament, None when none was: in memory, else the store's (one
        made just before a crash or a takeover cut the tournament's start of it short, which the node that claimed
        the tournament may not have rebuilt yet: it is loaded now). Moved when another node holds it."""
        for room in self.held():
            if room.tournament_id == tournament_id and room.tournament_game == index:
                return room
        room_id = await self.journal.tournament_game(tournament_id, index)  # type: ignore[attr-defined]
        return None if room_id is None else await self.find(room_id)

    # -- resting ----------------------------------------------------------------------------------------------------

    def wake_horizon(self) -> float:
        """Until when a resting room need not be in memory: two wake sweeps from now (a room due before then is
        loaded; one due later may rest)."""
        return self.clock.now() + 2 * self.correspondence.wake_seconds

    def resting(self) -> frozenset[str]:
        """The live rooms of this server's that rest (not in memory)."""
        return frozenset(self._resting)

    def rests(self, room_id: str, wake_at: float | None) -> bool:
        """Whether a live room whose row says ``wake_at`` rests: not in memory here, and not due before the horizon
        (its summary is then the store's: asking for the room would wake it)."""
        return room_id not in self._actors and wake_at is not None and wake_at > self.wake_horizon()

    async def rest_and_wake(self) -> tuple[list[str], list[str]]:
        """One pass (see the module docstring): the idle correspondence and solo rooms rest, and the rooms due within
        two sweeps that are not in memory are loaded. Returns the ids of both, (rested, woken)."""
        settings = self.correspondence
        now = self.clock.now()
        horizon = now + 2 * settings.wake_seconds
        await self.runtime.rest_parents()  # (an idle solo tournament rests first, its game with it: see the docstring)
        rested = []
        for room in self.held():
            actor = room.actor
            idle = settings.solo_rest_seconds if room.mode == SOLO else settings.rest_seconds
            if room.may_rest(now, idle, horizon) and self.runtime.holds(KIND, room.room_id, actor.epoch):
                self.rest(room)
                rested.append(room.room_id)
        woken = []
        due = getattr(self.journal, "due", None)
        if due is not None:
            for room_id in await due(KIND, horizon):
                if room_id in self._actors:
                    continue
                try:
                    found = await self.locate(room_id)
                except Exception as error:  # (the store is away, the room moved: the next sweep tries again)
                    log.warning("could not wake room %s: %s", room_id, type(error).__name__)
                    continue
                if isinstance(found, Room):
                    woken.append(room_id)
        if rested or woken:
            log.info("%d rooms went to rest, %d woke; %d rest", len(rested), len(woken), len(self._resting))
        return rested, woken

    def rest(self, room: Room) -> None:
        """Let a room go from memory (its lease stays, on a node): its actor stops, and its timers with it. A call
        that found it before and sends it a command after is told to send it again (Moved, retriable), which
        wakes it; none can, unless it waited ``rest_seconds`` between the two."""
        actor = room.actor
        actor.moved = Moved("this room went to rest; send the call again (it wakes the room)")
        actor.stop()
        self._actors.pop(room.room_id, None)
        self._live.discard(room.room_id)
        self._resting.add(room.room_id)
        if room.mode == SOLO:
            self._resting_solo.add(room.room_id)

    async def start_resting(self) -> None:
        """Count the rooms resting in the store (after a restart, or on a node: those whose lease names it), then
        rest and wake every ``wake_seconds`` on the directory's clock, until :meth:`stop_resting`."""
        due = getattr(self.journal, "due", None)
        if due is not None:
            self._resting = {room_id for room_id in await due(KIND, None) if room_id not in self._actors}
            self._resting_solo = {room_id for room_id in await due(KIND, None, mode=SOLO) if room_id in self._resting}
        self._resting_on = True
        self._next_sweep()

    def stop_resting(self) -> None:
        self._resting_on = False
        if self._sweep_timer is not None:
            self._sweep_timer.cancel()
            self._sweep_timer = None
        if self._sweeping is not None:
            self._sweeping.cancel()
            self._sweeping = None

    def _next_sweep(self) -> None:
        if self._resting_on and self._sweep_timer is None:
            every = max(self.correspondence.wake_seconds, 1.0)  # (a setting of 0 must not spin)
            self._sweep_timer = self.clock.call_at(self.clock.now() + every, self._sweep_due)

    def _sweep_due(self) -> None:
        self._sweep_timer = None
        if self._resting_on and self._sweeping is None:
            self._sweeping = asyncio.get_running_loop().create_task(self._sweep(), name="rooms resting and waking")

    async def _sweep(self) -> None:
        try:
            await self.rest_and_wake()
        except Exception as error:  # the store is away: the next sweep tries again
            log.warning("could not rest and wake rooms: %s", type(error).__name__)
        finally:
            self._sweeping = None
            self._next_sweep()

    def lose(self, actor_ids: list[str]) -> None:
        self._resting.difference_update(actor_ids)  # (another node took them: they are not this node's any more)
        self._resting_solo.difference_update(actor_ids)
        super().lose(actor_ids)

    async def hand_over(self) -> int:
        """As Directory.hand_over; the resting rooms go too (the node gives every lease back, theirs with them)."""
        self.stop_resting()
        self._resting.clear()
        self._resting_solo.clear()
        return await super().hand_over()

    async def close(self) -> None:
        self.stop_resting()
        await super().close()
