"""The directory of tournaments: creates them (checking the request as a room would be checked), finds them, lists
them, rebuilds them after a restart, and hears from the room directory when one of their games ends."""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from engine.core import UnknownGame
from engine.registry import GAMES, TOURNAMENTS, new_tournament
from service.cluster.node import Elsewhere, Key
from service.errors import InvalidRequest, ResourceExhausted, TournamentNotFound
from service.rooms.directory import RoomDirectory, page_size_of
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
        self.node = rooms.node  # a node of a cluster: tournaments are owned by leases, as rooms are
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
        tournament = self._tournament(
            epoch=1 if self.node is not None else 0,  # (the lease the store makes with the tournament)
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
        if self.node is not None:
            self.node.hold("tournament", tournament.tournament_id, tournament.epoch)
        self._add(tournament)
        await tournament.advance()  # four system players need nobody: the first game starts now
        return tournament

    def _tournament(self, **fields: Any) -> Tournament:
        return Tournament(
            rooms=self.rooms, journal=self.journal, on_finished=self._keep, on_moved=self._moved, **fields
        )

    def _moved(self, tournament: Tournament) -> None:
        """``tournament`` stopped here: another node owns it now."""
        if self._tournaments.get(tournament.tournament_id) is tournament:
            del self._tournaments[tournament.tournament_id]
        if self.node is not None and self.node.holds("tournament", tournament.tournament_id, tournament.epoch):
            self.node.forget("tournament", tournament.tournament_id)

    def lose(self, keys: list[Key]) -> None:
        """The node found these leases taken by other nodes: their tournaments stop here."""
        for kind, tournament_id in keys:
            tournament = self._tournaments.get(tournament_id)
            if kind == "tournament" and tournament is not None:
                tournament.lost()

    async def hand_over(self) -> int:
        """Stop every live tournament so that other nodes can take them on (this node drains); returns how many."""
        handed = 0
        while live := [t for t in self._tournaments.values() if t.status != FINISHED]:  # (and any loaded meanwhile)
            for tournament in live:
                await tournament.hand_over()
                self._tournaments.pop(tournament.tournament_id, None)
            handed += len(live)
        return handed

    def _add(self, tournament: Tournament) -> None:
        self._tournaments[tournament.tournament_id] = tournament
        if tournament.status == FINISHED:
            self._keep(tournament)

    def _keep(self, tournament: Tournament) -> None:
        """Keep a finished tournament among the most recently used; the others leave memory (the store has them)."""
        if self.node is not None:  # (its lease went with its last line)
            self.node.forget("tournament", tournament.tournament_id)
        self._recent[tournament.tournament_id] = None
        self._recent.move_to_end(tournament.tournament_id)
        while len(self._recent) > self.keep_finished:
            gone, _ = self._recent.popitem(last=False)
            self._tournaments.pop(gone)

    async def restore(self, stored: list[tuple[TournamentRecord, list[TournamentEntry]]], epoch: int = 0) -> int:
        """Rebuild the stored tournaments (a row and its log each) once the rooms are rebuilt (or on a node that
        claimed them under lease ``epoch``), then let each move on from where it stood; returns how many are
        unfinished."""
        restored = []
        for row, entries in stored:
            tournament = self._tournament(
                epoch=epoch,
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
            raise TournamentNotFound("no such tournament") from None

    async def find(self, tournament_id: str) -> Tournament:
        """A tournament, from memory or read back from the store (a finished one not kept). On a node of a cluster,
        raises Elsewhere for a live tournament another node owns (and claims one nobody alive owns)."""
        tournament = self._tournaments.get(tournament_id)
        node = self.node
        if tournament is not None and (
            node is None or tournament.status == FINISHED or node.holds("tournament", tournament_id, tournament.epoch)
        ):
            if tournament_id in self._recent:
                self._recent.move_to_end(tournament_id)
            return tournament
        epoch = 0
        if node is not None:
            held = await node.resolve("tournament", tournament_id)  # (raises Elsewhere; may claim and rebuild it)
            tournament = self._tournaments.get(tournament_id)
            if tournament is not None and (held is None or tournament.epoch == held):
                return tournament
            epoch = held or 0
        stored = await self.journal.load_one_tournament(tournament_id)
        if stored is None:
            raise TournamentNotFound("no such tournament")
        here = self._tournaments.get(tournament_id)
        if here is None or (node is not None and here.status != FINISHED and here.epoch != epoch):
            if here is not None:  # an older lease's tournament: its readers come back to the one rebuilt here
                here.lost()
            await self.restore([stored], epoch)
        return self._tournaments[tournament_id]

    async def list(
        self, *, status: str = "", page_size: int = 0, page_token: str = ""
    ) -> tuple[list[Tournament | Elsewhere], str]:
        """Tournaments newest first, filtered, read from the store; a page and the next page's token ('' on the last
        page). On a node of a cluster, a tournament another node owns is in the page as Elsewhere."""
        ids, following = await self.journal.list_tournaments(status, page_size_of(page_size), page_token)
        found: list[Tournament | Elsewhere] = []
        for tournament_id in ids:
            try:
                found.append(await self.find(tournament_id))
            except Elsewhere as elsewhere:
                found.append(elsewhere)
            except TournamentNotFound:
                continue
        return found, following

    async def settle(self) -> None:
        for tournament in list(self._tournaments.values()):
            await tournament.settle()

    async def close(self) -> None:
        for tournament in list(self._tournaments.values()):
            await tournament.close()
