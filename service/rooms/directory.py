"""The directory of rooms: creates them (checking the request), finds them, lists them a page at a time."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from typing import Any

from engine.core import InvalidOptions, UnknownGame
from engine.registry import get_game
from service.rooms.clock import Clock, SystemClock
from service.rooms.errors import InvalidRequest, RoomNotFound
from service.rooms.room import ONLINE, SOLO, Journal, MemoryJournal, Room

MAX_PAGE = 500
DEFAULT_PAGE = 50


class RoomDirectory:
    """Every room of this server. ``seed_source`` gives each new room its seed (tests pass a fixed one)."""

    def __init__(
        self,
        *,
        clock: Clock | None = None,
        journal: Journal | None = None,
        seed_source: Callable[[], int] | None = None,
        default_think_seconds: float | None = None,
    ) -> None:
        self.clock = clock or SystemClock()
        self.journal = journal or MemoryJournal()
        self.seed_source = seed_source or (lambda: secrets.randbits(63))
        self.default_think_seconds = default_think_seconds
        self._rooms: dict[str, Room] = {}
        self._order: list[Room] = []  # in creation order

    async def create(
        self,
        *,
        game: str,
        mode: str,
        seats: int,
        system_players: int,
        options: Mapping[str, Any] | None = None,
        system_player: str = "",
        think_seconds: float | None = None,
    ) -> Room:
        """A new room, stored, started and waiting for its people. Raises InvalidRequest naming what is wrong."""
        try:
            rules = get_game(game)
        except UnknownGame as exc:
            raise InvalidRequest(str(exc), code="unknown_game") from None
        if mode not in (ONLINE, SOLO):
            raise InvalidRequest("mode must be online or solo", code="bad_mode")
        try:
            resolved = rules.spec.resolve(seats, options)
        except InvalidOptions as exc:
            raise InvalidRequest(str(exc), code="invalid_options") from None
        if not 0 <= system_players < seats:
            raise InvalidRequest(
                f"system_players must be 0-{seats - 1}: at least one seat belongs to a person", code="no_person_seat"
            )
        if mode == SOLO and system_players != seats - 1:
            raise InvalidRequest(
                f"a solo room is one person against system players: system_players must be {seats - 1}",
                code="solo_needs_one_person",
            )
        system_player = system_player or "heuristic"
        if system_player not in rules.bots:
            known = ", ".join(sorted(rules.bots))
            raise InvalidRequest(f"no system player {system_player!r} (known: {known})", code="unknown_bot")
        if think_seconds is not None and not 0 <= think_seconds <= 60:
            raise InvalidRequest("think_seconds must be 0-60", code="bad_think_time")
        try:
            rules.new_game(seats, resolved, 0)  # the options must also make a game (e.g. enough cards to deal)
        except InvalidOptions as exc:
            raise InvalidRequest(str(exc), code="invalid_options") from None
        room = self._room(
            room_id=secrets.token_hex(8),
            game=game,
            mode=mode,
            seats=seats,
            system_players=system_players,
            options=resolved,
            system_player=system_player,
            think_seconds=think_seconds if think_seconds is not None else self.default_think_seconds,
            seed=self.seed_source(),
            created_at=self.clock.now(),
        )
        await self.journal.create_room(room)
        self._add(room)
        return room

    def _room(self, *, game: str, **fields: Any) -> Room:
        return Room(game=get_game(game), clock=self.clock, journal=self.journal, **fields)

    def _add(self, room: Room) -> None:
        self._rooms[room.room_id] = room
        self._order.append(room)
        room.start()

    async def restore(self, stored: list[tuple[Any, list[Any]]]) -> int:
        """Rebuild the stored rooms (a row and its log each) after a restart; returns how many were unfinished."""
        unfinished = 0
        for row, entries in stored:
            room = self._room(
                room_id=row.room_id,
                game=row.game,
                mode=row.mode,
                seats=row.seats,
                system_players=row.system_players,
                options=row.options,
                system_player=row.system_player,
                think_seconds=row.think_seconds,
                seed=row.seed,
                created_at=row.created_at,
            )
            await room.restore(entries)
            unfinished += room.status != "finished"
            self._add(room)
        return unfinished

    def get(self, room_id: str) -> Room:
        try:
            return self._rooms[room_id]
        except KeyError:
            raise RoomNotFound(f"no room {room_id!r}") from None

    def list(
        self, *, game: str = "", status: str = "", page_size: int = 0, page_token: str = ""
    ) -> tuple[list[Room], str]:
        """Rooms newest first, filtered; returns a page and the token for the next one ('' on the last page)."""
        if page_size < 0 or page_size > MAX_PAGE:
            raise InvalidRequest(f"page_size must be 0-{MAX_PAGE}", code="bad_page_size")
        size = page_size or DEFAULT_PAGE
        # The token is the creation number of the last room given: the next page starts below it, so rooms created
        # meanwhile neither repeat nor push others off a page.
        before = len(self._order)
        if page_token:
            try:
                before = int(page_token)
            except ValueError:
                raise InvalidRequest("page_token is not one this server gave", code="bad_page_token") from None
        page: list[Room] = []
        for number in range(min(before, len(self._order)) - 1, -1, -1):
            room = self._order[number]
            if (not game or room.game.spec.name == game) and (not status or room.status == status):
                if len(page) == size:
                    return page, str(number + 1)
                page.append(room)
        return page, ""

    async def close(self) -> None:
        for room in self._rooms.values():
            await room.close()
