"""The directory of tournaments: creates them (checking the request as a room would be checked); finding, listing,
rebuilding and handing over are the runtime's (service/actors/directory.py). A tournament hears from the runtime when
one of its games ends (a room's record names its tournament)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from engine.core import UnknownGame
from engine.registry import GAMES, TOURNAMENTS, new_tournament
from service.actors.actor import Journal
from service.actors.directory import Directory
from service.actors.requests import RequestKey
from service.actors.runtime import Remote
from service.errors import InvalidRequest, ResourceExhausted, TournamentNotFound
from service.rooms.directory import RoomDirectory
from service.rooms.room import FINISHED
from service.store.records import TournamentRecord
from service.tournaments.tournament import KIND, Tournament

KEEP_FINISHED = 32  # a finished tournament weighs its updates' snapshots: keep fewer than finished rooms


class TournamentDirectory(Directory[Tournament]):
    """Every tournament of this server; its games live in ``rooms`` (and where they live, in the rooms' runtime).
    ``max_live`` caps the tournaments waiting or playing at once."""

    kind = KIND
    not_found = TournamentNotFound

    def __init__(
        self,
        rooms: RoomDirectory,
        journal: Journal | None = None,
        *,
        max_live: int | None = None,
        keep_finished: int = KEEP_FINISHED,
    ) -> None:
        super().__init__(journal=journal or rooms.journal, runtime=rooms.runtime, keep_finished=keep_finished)
        self.rooms = rooms
        self.max_live = max_live

    async def create(
        self,
        *,
        game: str,
        mode: str,
        system_players: int,
        options: Mapping[str, Any] | None = None,
        system_player: str = "",
        think_seconds: float | None = None,
        request: RequestKey | None = None,
    ) -> Tournament:
        """A new tournament, stored and waiting for its people (or, with four system players, already playing).
        ``request``: the creator's request id, kept on its row, as RoomDirectory.create keeps a room's."""
        try:
            rules = new_tournament(game)
        except UnknownGame:
            offered = ", ".join(sorted(TOURNAMENTS))
            what = "this game has no tournament" if game in GAMES else "no such game"
            raise InvalidRequest(f"{what} (games with one: {offered})", code="no_tournament", field="game") from None
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
        record = TournamentRecord(
            tournament_id=secrets.token_hex(8),
            game=game,
            mode=mode,
            system_players=system_players,
            system_player=system_player,
            think_seconds=think_seconds if think_seconds is not None else self.rooms.default_think_seconds,
            options=resolved,
            created_at=self.rooms.creation_time(),
            status="waiting",
            request_key=request.key if request else "",
            request_hash=request.parameters if request else "",
        )
        tournament = self.build(record, self.runtime.created_epoch)  # (on a node, the store makes its lease with it)
        await self.created(tournament)
        await tournament.advance()  # four system players need nobody: the first game starts now
        return tournament

    def build(self, record: TournamentRecord, epoch: int) -> Tournament:
        return Tournament(record, self.rooms, epoch=epoch, host=self)

    async def restore(self, stored: list[tuple[Any, list[Any]]], epoch: int = 0) -> int:
        """Rebuild stored tournaments once the rooms are rebuilt (or on a node that claimed them under lease
        ``epoch``), then let each move on from where it stood; returns how many are unfinished."""
        unfinished = await super().restore(stored, epoch)
        for record, _ in stored:
            await self.get(record.tournament_id).advance()
        return unfinished

    def live(self) -> int:
        """How many tournaments are waiting or playing."""
        return sum(1 for tournament in self.held() if tournament.current().status != FINISHED)

    async def list(  # type: ignore[override]
        self, *, status: str = "", page_size: int = 0, page_token: str = ""
    ) -> tuple[list[Tournament | Remote], str]:
        """Tournaments newest first, in ``status`` when given (see Directory.list)."""
        return await super().list(page_size=page_size, page_token=page_token, status=status)
