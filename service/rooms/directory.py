"""The directory of rooms: creates them (checking the request, and the node's cap on live rooms), finds them, lists
them a page at a time.

Memory holds every live room and only the most recently used finished ones (``keep_finished``): a finished room is
read back from the store when someone asks for it (:meth:`RoomDirectory.find`), and listing reads the store, so a
server's memory and its start-up do not grow with the games it has hosted.

On a node of a cluster (``node``), memory holds the live rooms this node owns: :meth:`RoomDirectory.find` asks the
node who owns any other (it raises Elsewhere for a room another node owns; a room nobody alive owns is claimed and
rebuilt here), and a room that moves away (handed over, or claimed by another node) leaves memory."""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import InvalidOptions, UnknownGame
from engine.registry import GAMES, get_game
from service.cluster.node import Elsewhere, Key, Node
from service.errors import InvalidRequest, ResourceExhausted, RoomNotFound
from service.rooms.clock import Clock, SystemClock
from service.rooms.room import FINISHED, ONLINE, SOLO, Journal, Room, RoomLimits
from service.store.memory import MemoryJournal
from service.store.records import LogEntry, RoomRecord
from service.telemetry import Telemetry

MAX_PAGE = 500
DEFAULT_PAGE = 50
KEEP_FINISHED = 256  # finished rooms kept in memory, the most recently used


def page_size_of(page_size: int) -> int:
    """The page size asked for (0: the default), or InvalidRequest."""
    if page_size < 0 or page_size > MAX_PAGE:
        raise InvalidRequest(f"page_size must be 0-{MAX_PAGE}", code="bad_page_size", field="page_size")
    return page_size or DEFAULT_PAGE


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


class RoomDirectory:
    """Every room of this server. ``seed_source`` gives each new room its seed (tests pass a fixed one).
    ``max_live_rooms`` caps the rooms waiting or playing at once (a tournament's games do not count: the tournaments
    have a cap of their own); ``limits`` is what each room may hold on to."""

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
        node: Node | None = None,
    ) -> None:
        self.node = node  # a node of a cluster: rooms are owned by leases (see the module docstring)
        self.clock = clock or SystemClock()
        self.telemetry = telemetry or Telemetry()
        self.telemetry.instruments.observe_rooms(self._count)
        self.journal = journal or MemoryJournal()
        self.seed_source = seed_source or (lambda: secrets.randbits(63))
        self.default_think_seconds = default_think_seconds
        self.limits = limits or RoomLimits()
        self.max_live_rooms = max_live_rooms
        self.keep_finished = keep_finished
        self._rooms: dict[str, Room] = {}  # every live room, and the finished ones kept
        self._recent: OrderedDict[str, None] = OrderedDict()  # the finished rooms kept, least recently used first
        self._loading: dict[str, asyncio.Task[Room | None]] = {}
        self._live: set[str] = set()  # rooms waiting or playing, outside tournaments
        self._created = 0.0  # the last creation time given
        self.on_finished: Callable[[Room], None] | None = None  # told when a room's game ends (tournaments listen)

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
    ) -> Room:
        """A new room, stored, started and waiting for its people. Raises InvalidRequest naming what is wrong.

        System players take ``system_seats`` when given, else the last ``system_players`` seats. A tournament's rooms
        (``tournament_id``) may be all system players: see :meth:`check`."""
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
        if not tournament_id and self.max_live_rooms is not None and len(self._live) >= self.max_live_rooms:
            raise ResourceExhausted(
                f"this server holds as many live rooms as it may ({self.max_live_rooms}); try again later",
                code="server_full",
                retry_after=30.0,
            )
        room = self._room(
            epoch=1 if self.node is not None else 0,  # (the lease the store makes with the room)
            room_id=secrets.token_hex(8),
            game=game,
            mode=mode,
            seats=seats,
            system_seats=taken,
            options=resolved,
            system_player=system_player,
            think_seconds=think_seconds if think_seconds is not None else self.default_think_seconds,
            seed=self.seed_source(),
            created_at=self.creation_time(),
            tournament_id=tournament_id,
            tournament_game=tournament_game,
        )
        await self.journal.create_room(room.record())
        if self.node is not None:
            self.node.hold("room", room.room_id, room.epoch)
        self._add(room)
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

    def _room(self, *, game: str, **fields: Any) -> Room:
        return Room(
            game=get_game(game),
            clock=self.clock,
            journal=self.journal,
            on_finished=self._finished,
            on_moved=self._moved,
            telemetry=self.telemetry,
            limits=self.limits,
            **fields,
        )

    def _count(self) -> dict[tuple[str, str], int]:
        """Rooms by (game, status), for the kickoff.rooms gauge."""
        return dict(Counter((room.game.spec.name, room.published.status) for room in self._rooms.values()))

    def _finished(self, room: Room) -> None:
        if self.node is not None:  # (its lease went with its last line)
            self.node.forget("room", room.room_id)
        self._live.discard(room.room_id)
        room.forget_updates()
        self._keep(room)
        if self.on_finished is not None:
            self.on_finished(room)

    def _add(self, room: Room) -> None:
        self._rooms[room.room_id] = room
        if room.status == FINISHED:
            room.forget_updates()
            self._keep(room)
        elif not room.tournament_id:
            self._live.add(room.room_id)
        room.start()

    def _keep(self, room: Room) -> None:
        """Keep a finished room among the most recently used; the least recently used beyond them leave memory (the
        store has them)."""
        self._recent[room.room_id] = None
        self._recent.move_to_end(room.room_id)
        while len(self._recent) > self.keep_finished:
            gone, _ = self._recent.popitem(last=False)
            self._rooms.pop(gone).stop()

    def _moved(self, room: Room) -> None:
        """``room`` stopped here: another node owns it now."""
        if self._rooms.get(room.room_id) is room:
            del self._rooms[room.room_id]
            self._live.discard(room.room_id)
            self._recent.pop(room.room_id, None)
        if self.node is not None and self.node.holds("room", room.room_id, room.epoch):
            self.node.forget("room", room.room_id)

    def lose(self, keys: list[Key]) -> None:
        """The node found these leases taken by other nodes: their rooms stop here."""
        for kind, room_id in keys:
            room = self._rooms.get(room_id)
            if kind == "room" and room is not None and room.status != FINISHED:
                room.lost()

    async def hand_over(self) -> int:
        """Stop every live room so that other nodes can take them on (this node drains); returns how many."""
        handed = 0
        while live := [room for room in self._rooms.values() if room.status != FINISHED]:  # (and any loaded meanwhile)
            await asyncio.gather(*(room.hand_over() for room in live))
            for room in live:
                self._rooms.pop(room.room_id, None)
                self._live.discard(room.room_id)
            handed += len(live)
        return handed

    async def restore(self, stored: list[tuple[RoomRecord, list[LogEntry]]], epoch: int = 0) -> int:
        """Rebuild the stored rooms (a record and its log each) after a restart, or on a node that claimed them under
        lease ``epoch``; returns how many were unfinished."""
        unfinished = 0
        for record, entries in stored:
            self._created = max(self._created, record.created_at)
            room = self._room(
                epoch=epoch,
                room_id=record.room_id,
                game=record.game,
                mode=record.mode,
                seats=record.seats,
                system_seats=record.system_seats,
                options=record.options,
                system_player=record.system_player,
                think_seconds=record.think_seconds,
                seed=record.seed,
                created_at=record.created_at,
                tournament_id=record.tournament_id,
                tournament_game=record.tournament_game,
            )
            await room.restore(entries)
            unfinished += room.status != "finished"
            self._add(room)
        return unfinished

    def get(self, room_id: str) -> Room:
        """A room in memory (every live room is); RoomNotFound otherwise. :meth:`find` also reads the store."""
        try:
            return self._rooms[room_id]
        except KeyError:
            raise RoomNotFound("no such room") from None

    async def find(self, room_id: str) -> Room:
        """A room, from memory or read back from the store (a finished room not kept); RoomNotFound otherwise. On a
        node of a cluster, raises Elsewhere for a live room another node owns (and claims one nobody alive owns)."""
        room = self._rooms.get(room_id)
        node = self.node
        if room is not None and (node is None or room.status == FINISHED or node.holds("room", room_id, room.epoch)):
            if room_id in self._recent:
                self._recent.move_to_end(room_id)
            return room
        epoch = 0
        if node is not None:
            held = await node.resolve("room", room_id)  # (raises Elsewhere; may claim and rebuild the room)
            room = self._rooms.get(room_id)
            if room is not None and (held is None or room.epoch == held):
                return room
            epoch = held or 0
        loading = self._loading.get(room_id)
        if loading is None:  # one read for everyone asking at once
            loading = self._loading[room_id] = asyncio.ensure_future(self._load(room_id, epoch))
            loading.add_done_callback(lambda _: self._loading.pop(room_id, None))
        room = await asyncio.shield(loading)
        if room is None:
            raise RoomNotFound("no such room")
        return room

    async def _load(self, room_id: str, epoch: int = 0) -> Room | None:
        stored = await self.journal.load_one(room_id)
        if stored is None:
            return None
        here = self._rooms.get(room_id)
        if here is None or (self.node is not None and here.status != FINISHED and here.epoch != epoch):
            if here is not None:  # an older lease's room: its readers come back to the one rebuilt here
                here.lost()
                self._rooms.pop(room_id, None)
            await self.restore([stored], epoch)
        return self._rooms[room_id]

    async def list(
        self, *, game: str = "", status: str = "", page_size: int = 0, page_token: str = ""
    ) -> tuple[list[Room | Elsewhere], str]:
        """Rooms newest first, filtered, read from the store; returns a page and the token for the next one ('' on
        the last page). The token is the last room given: rooms created meanwhile neither repeat nor push others off
        a page. On a node of a cluster, a room another node owns is in the page as Elsewhere (ask that node)."""
        ids, following = await self.journal.list_rooms(game, status, page_size_of(page_size), page_token)
        rooms: list[Room | Elsewhere] = []
        for room_id in ids:
            try:
                rooms.append(await self.find(room_id))
            except Elsewhere as elsewhere:
                rooms.append(elsewhere)
            except RoomNotFound:  # (created in the store, but its creation failed here: not a room)
                continue
        return rooms, following

    def in_tournament(self, tournament_id: str) -> list[Room]:
        """The rooms of one tournament in memory, by game index (its live game is always among them)."""
        rooms = [room for room in self._rooms.values() if room.tournament_id == tournament_id]
        return sorted(rooms, key=lambda room: room.tournament_game or 0)

    async def close(self) -> None:
        for room in self._rooms.values():
            await room.close()
