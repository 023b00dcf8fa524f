"""The directory of rooms: creates them (checking the request, and the node's cap on live rooms); finding, listing,
rebuilding and handing over are the runtime's (service/actors/directory.py), for rooms as for every kind of actor."""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import InvalidOptions, UnknownGame
from engine.registry import GAMES, get_game
from service.actors.actor import Journal
from service.actors.directory import Directory, page_size_of
from service.actors.runtime import Remote, Runtime
from service.errors import InvalidRequest, ResourceExhausted, RoomNotFound
from service.rooms.clock import Clock, SystemClock
from service.rooms.room import KIND, ONLINE, SOLO, Room, RoomLimits, Surroundings
from service.store.memory import MemoryJournal
from service.store.records import RoomRecord
from service.telemetry import Telemetry

__all__ = ["KEEP_FINISHED", "RoomDirectory", "page_size_of", "seats_of_system_players"]

KEEP_FINISHED = 256  # finished rooms kept in memory, the most recently used


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


class RoomDirectory(Directory[Room]):
    """Every room of this server. ``seed_source`` gives each new room its seed (tests pass a fixed one).
    ``max_live_rooms`` caps the rooms waiting or playing at once (a tournament's games do not count: the tournaments
    have a cap of their own); ``limits`` is what each room may hold on to; ``runtime`` says where rooms live (a single
    server by default)."""

    kind = KIND
    parent = "tournament"  # a tournament's game names it
    not_found = RoomNotFound

    def __init__(
        self,
        *,
        clock: Clock | None = None,
        journal: Journal | None = None,
        seed_source: Callable[[], int] | None = None,
        default_think_seconds: float | None = None,
        telemetry: Telemetry | None = None,
        limits: RoomLimits | None = None,
        max_live_rooms: int | None = None,
        keep_finished: int = KEEP_FINISHED,
        runtime: Runtime | None = None,
        rates: bool = False,
    ) -> None:
        super().__init__(journal=journal or MemoryJournal(), runtime=runtime or Runtime(), keep_finished=keep_finished)
        self.clock = clock or SystemClock()
        self.telemetry = telemetry or Telemetry()
        self.telemetry.instruments.observe_rooms(self._count)
        self.seed_source = seed_source or (lambda: secrets.randbits(63))
        self.default_think_seconds = default_think_seconds
        self.limits = limits or RoomLimits()
        # ``rates``: the store keeps players' ratings, so games may be rated (a SQL journal with the players' rater)
        self.surroundings = Surroundings(self.clock, self.journal, self.telemetry, self.limits, rates)
        self.max_live_rooms = max_live_rooms
        self._live: set[str] = set()  # rooms waiting or playing, outside tournaments
        self._created = 0.0  # the last creation time given

    async def create(
        self,
        *,
        game: str,
        mode: str,
        seats: int,
        system_players: int,
        system_seats: Sequence[int] = (),
        options: Mapping[str, Any] | None = None,
        system_player: str = "",
        think_seconds: float | None = None,
        tournament_id: str = "",
        tournament_game: int | None = None,
        rated: bool | None = None,
        choice: str = "",
        room_id: str = "",
        people: Sequence[tuple[int, str, str, str]] = (),
    ) -> Room:
        """A new room, stored, started and waiting for its people. Raises InvalidRequest naming what is wrong.

        System players take ``system_seats`` when given, else the last ``system_players`` seats. A tournament's rooms
        (``tournament_id``) may be all system players: see :meth:`check`. ``rated``: whether the game is rated (None:
        the default rule, Room._rated); a rated room takes signed-in players only. ``choice``: what the creator, who
        takes the first person's seat at once, chooses for it (checked here, so a bad one makes no room).

        ``people``: a matched room's, each (seat, name, nonce, player), seated as the room is made (its id chosen
        beforehand, ``room_id``); with every other seat a system player's, the game starts as the room is stored."""
        if rated and not self.surroundings.rates:
            raise InvalidRequest(
                "this server keeps no ratings (players need a database store)", code="ratings_off", field="rated"
            )
        resolved, system_player = self.check(
            game=game,
            mode=mode,
            seats=seats,
            system_players=len(system_seats) or system_players,
            options=options,
            system_player=system_player,
            think_seconds=think_seconds,
            people_optional=bool(tournament_id),
        )
        taken = seats_of_system_players(seats, system_players, system_seats)
        if choice:
            first = next(seat for seat in range(seats) if seat not in taken)
            try:
                get_game(game).with_choices(seats, resolved, {first: choice})
            except InvalidOptions as error:
                raise InvalidRequest(str(error), field="choice", code="bad_choice") from None
        if not tournament_id and self.max_live_rooms is not None and len(self._live) >= self.max_live_rooms:
            raise ResourceExhausted(
                f"this server holds as many live rooms as it may ({self.max_live_rooms}); try again later",
                code="server_full",
                retry_after=30.0,
            )
        record = RoomRecord(
            room_id=room_id or secrets.token_hex(8),
            game=game,
            mode=mode,
            seats=seats,
            system_seats=taken,
            system_player=system_player,
            think_seconds=think_seconds if think_seconds is not None else self.default_think_seconds,
            options=resolved,
            seed=self.seed_source(),
            created_at=self.creation_time(),
            status="waiting",
            tournament_id=tournament_id,
            tournament_game=tournament_game,
            rated=rated,
            people=tuple(people),
        )
        room = self.build(record, self.runtime.created_epoch)  # (on a node, the store makes its lease with it)
        await self.created(room)
        if people and len(people) + len(taken) == seats:
            await room.open()
        return room

    def creation_time(self) -> float:
        """Now, but after every room and tournament this directory created before (lists are in creation order)."""
        self._created = max(self.clock.now(), self._created + 1e-6)
        return self._created

    def check(
        self,
        *,
        game: str,
        mode: str,
        seats: int,
        system_players: int,
        options: Mapping[str, Any] | None,
        system_player: str,
        think_seconds: float | None,
        people_optional: bool = False,
        what: str = "room",
    ) -> tuple[dict[str, Any], str]:
        """The options resolved and the system players' kind for a room so described; raises InvalidRequest naming
        what is wrong (``what`` names it: a room, or a tournament of such rooms). ``people_optional`` allows a table of
        system players only (a tournament to watch)."""
        try:
            rules = get_game(game)
        except UnknownGame:
            known = ", ".join(sorted(GAMES))
            raise InvalidRequest(f"no such game (known: {known})", code="unknown_game", field="game") from None
        if mode not in (ONLINE, SOLO):
            raise InvalidRequest("mode must be online or solo", code="bad_mode")
        try:
            resolved = rules.spec.resolve(seats, options)
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
        system_player = system_player or "heuristic"
        if system_player not in rules.bots:
            known = ", ".join(sorted(rules.bots))
            raise InvalidRequest(f"no such system player (known: {known})", code="unknown_bot", field="system_player")
        if think_seconds is not None and not 0 <= think_seconds <= 60:
            raise InvalidRequest("think_seconds must be 0-60", code="bad_think_time")
        try:
            rules.new_game(seats, resolved, 0)  # the options must also make a game (e.g. enough cards to deal)
        except InvalidOptions as exc:
            raise InvalidRequest(str(exc), code="invalid_options") from None
        return resolved, system_player

    def build(self, record: RoomRecord, epoch: int) -> Room:
        self._created = max(self._created, record.created_at)
        return Room(record, self.surroundings, epoch=epoch, host=self)

    def _count(self) -> dict[tuple[str, str], int]:
        """Rooms by (game, status), for the kickoff.rooms gauge."""
        return dict(Counter((room.game.spec.name, room.published.status) for room in self.held()))

    def added(self, room: Room) -> None:
        if not room.tournament_id:
            self._live.add(room.room_id)

    def removed(self, actor_id: str) -> None:
        self._live.discard(actor_id)

    def kept(self, room: Room) -> None:
        room.forget_updates()

    async def list(  # type: ignore[override]
        self, *, game: str = "", status: str = "", page_size: int = 0, page_token: str = ""
    ) -> tuple[list[Room | Remote], str]:
        """Rooms newest first, of ``game`` and in ``status`` when given (see Directory.list)."""
        return await super().list(page_size=page_size, page_token=page_token, game=game, status=status)

    def in_tournament(self, tournament_id: str) -> list[Room]:
        """The rooms of one tournament in memory, by game index (its live game is always among them)."""
        rooms = [room for room in self.held() if room.tournament_id == tournament_id]
        return sorted(rooms, key=lambda room: room.tournament_game or 0)
