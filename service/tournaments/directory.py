"""The directory of tournaments: creates them (checking the request as a room would be checked), finds them, lists
them, rebuilds them after a restart, and hears from the room directory when one of their games ends."""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from engine.core import UnknownGame
from engine.registry import new_tournament
from service.rooms.directory import RoomDirectory, page_size_of
from service.rooms.errors import InvalidRequest, ResourceExhausted, TournamentNotFound
from service.rooms.room import FINISHED, Room
from service.store.records import TournamentEntry, TournamentRecord
from service.tournaments.tournament import Tournament, TournamentJournal

KEEP_FINISHED = 32  # a finished tournament weighs its updates' snapshots: keep fewer than finished rooms


class TournamentDirectory:
    """Every tournament of this server; its games live in ``rooms``. ``max_live`` caps the tournaments waiting or
    playing at once."""

    def __init__(
        self,
        rooms: RoomDirectory,
        journal: TournamentJournal | None = None,
        *,
        max_live: int | None = None,
        keep_finished: int = KEEP_FINISHED,
    ) -> None:
        self.rooms = rooms
        self.max_live = max_live
        self.keep_finished = keep_finished  # finished tournaments kept in memory, the most recently used
        self.journal: TournamentJournal = journal or rooms.journal  # type: ignore[assignment]
        self._tournaments: dict[str, Tournament] = {}  # every live tournament, and the finished ones kept
        self._recent: OrderedDict[str, None] = OrderedDict()
        rooms.on_finished = self._room_finished

    def _room_finished(self, room: Room) -> None:
        tournament = self._tournaments.get(room.tournament_id)
        if tournament is not None:  # (while restoring, a tournament not yet rebuilt moves on once it is)
            tournament.room_finished(room)

    async def create(
        self,
        *,
        game: str,
        mode: str,
        system_players: int,
        options: Mapping[str, Any] | None = None,
        system_player: str = "",
        think_seconds: float | None = None,
    ) -> Tournament:
        """A new tournament, stored and waiting for its people (or, with four system players, already playing)."""
        try:
            rules = new_tournament(game)
        except UnknownGame as exc:
            raise InvalidRequest(str(exc), code="no_tournament") from None
        options = dict(options or {})
        own = rules.next_options()
        if set(options) & set(own):
            names = ", ".join(sorted(set(options) & set(own)))
            raise InvalidRequest(f"a tournament sets {names} itself: it rotates game by game", code="invalid_options")
        resolved, system_player = self.rooms.check(
            game=game,
            mode=mode,
            seats=rules.players,
            system_players=system_players,
            options={**options, **own},
            system_player=system_player,
            think_seconds=think_seconds,
            people_optional=True,
            what="tournament",
        )
        for name in own:
            resolved.pop(name, None)
        if self.max_live is not None and self.live() >= self.max_live:
            raise ResourceExhausted(
                f"this server holds as many live tournaments as it may ({self.max_live}); try again later",
                code="server_full",
                retry_after=30.0,
            )
        tournament = self._tournament(
            tournament_id=secrets.token_hex(8),
            game=game,
            rules=rules,
            mode=mode,
            system_players=system_players,
            options=resolved,
            system_player=system_player,
            think_seconds=think_seconds if think_seconds is not None else self.rooms.default_think_seconds,
            created_at=self.rooms.creation_time(),
        )
        await self.journal.create_tournament(tournament.record())
        self._add(tournament)
        await tournament.advance()  # four system players need nobody: the first game starts now
        return tournament

    def _tournament(self, **fields: Any) -> Tournament:
        return Tournament(rooms=self.rooms, journal=self.journal, on_finished=self._keep, **fields)

    def _add(self, tournament: Tournament) -> None:
        self._tournaments[tournament.tournament_id] = tournament
        if tournament.status == FINISHED:
            self._keep(tournament)

    def _keep(self, tournament: Tournament) -> None:
        """Keep a finished tournament among the most recently used; the others leave memory (the store has them)."""
        self._recent[tournament.tournament_id] = None
        self._recent.move_to_end(tournament.tournament_id)
        while len(self._recent) > self.keep_finished:
            gone, _ = self._recent.popitem(last=False)
            self._tournaments.pop(gone)

    async def restore(self, stored: list[tuple[TournamentRecord, list[TournamentEntry]]]) -> int:
        """Rebuild the stored tournaments (a row and its log each) once the rooms are rebuilt, then let each move on
        from where it stood; returns how many are unfinished."""
        restored = []
        for row, entries in stored:
            tournament = self._tournament(
                tournament_id=row.tournament_id,
                game=row.game,
                rules=new_tournament(row.game),
                mode=row.mode,
                system_players=row.system_players,
                options=row.options,
                system_player=row.system_player,
                think_seconds=row.think_seconds,
                created_at=row.created_at,
            )
            await tournament.restore(entries)
            self._add(tournament)
            restored.append(tournament)
        for tournament in restored:
            await tournament.advance()
        return sum(1 for tournament in restored if tournament.status != "finished")

    def live(self) -> int:
        """How many tournaments are waiting or playing."""
        return sum(1 for tournament in self._tournaments.values() if tournament.current().status != FINISHED)

    def get(self, tournament_id: str) -> Tournament:
        """A tournament in memory (every live one is); TournamentNotFound otherwise. :meth:`find` reads the store."""
        try:
            return self._tournaments[tournament_id]
        except KeyError:
            raise TournamentNotFound(f"no tournament {tournament_id!r}") from None

    async def find(self, tournament_id: str) -> Tournament:
        """A tournament, from memory or read back from the store (a finished one not kept)."""
        tournament = self._tournaments.get(tournament_id)
        if tournament is not None:
            if tournament_id in self._recent:
                self._recent.move_to_end(tournament_id)
            return tournament
        stored = await self.journal.load_one_tournament(tournament_id)
        if stored is None:
            raise TournamentNotFound(f"no tournament {tournament_id!r}")
        if tournament_id not in self._tournaments:
            await self.restore([stored])
        return self._tournaments[tournament_id]

    async def list(self, *, status: str = "", page_size: int = 0, page_token: str = "") -> tuple[list[Tournament], str]:
        """Tournaments newest first, filtered, read from the store; a page and the next page's token ('' on the last
        page)."""
        ids, following = await self.journal.list_tournaments(status, page_size_of(page_size), page_token)
        found = []
        for tournament_id in ids:
            try:
                found.append(await self.find(tournament_id))
            except TournamentNotFound:
                continue
        return found, following

    async def settle(self) -> None:
        for tournament in list(self._tournaments.values()):
            await tournament.settle()

    async def close(self) -> None:
        for tournament in list(self._tournaments.values()):
            await tournament.close()
