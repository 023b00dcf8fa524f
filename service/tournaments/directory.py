"""The directory of tournaments: creates them (checking the request as a room would be checked); finding, listing,
rebuilding and handing over are the runtime's (service/actors/directory.py). A tournament hears from the runtime when
one of its games ends (a room's record names its tournament).

**A solo tournament rests** as its solo rooms do (service/rooms/directory.py): one whose person walked away would
otherwise stay in memory, counted under ``max_live``, until its game ends as abandoned (up to
``solo_abandon_seconds``). So the rooms' rest pass (RoomDirectory.rest_and_wake, every ``wake_seconds``) first runs
:meth:`TournamentDirectory.rest_idle`: a solo tournament being played with no reader, nothing in hand, not called for
in ``solo_rest_seconds``, whose current game may rest too (its person to move, no reader, idle as long), leaves memory
with that game; on a node it keeps both leases. A resting tournament is not counted under ``max_live``. It comes back
on any call for it (``locate``: a view, a stream, a join...), and when its game comes back into memory: its person
called the room, or the rooms' sweep loaded it to end as abandoned (its ``wake_at``); the game's room then wakes its
tournament (:meth:`TournamentDirectory.child_loaded`), which moves on when the game ends. Its game never rests alone.
Its row's ``wake_at`` (written as it goes to rest: its game's, the time that game ends as abandoned; its next line
clears it) lets a restart leave it in the store with its game (:meth:`TournamentDirectory.wake_horizon`), counted as
resting again by :meth:`TournamentDirectory.start_resting`.

**A duplicate tournament's deals** (service/tournaments/tournament.py) are drawn as it is created, one secret per deal,
from the rooms' own source (RoomsShared.seed_source: a test's source of ints gives the secret ``n.to_bytes(32,
"big")``, as the rooms take it), and kept on its row sealed with the key the nodes share (``sealer``; without one,
a store in memory or a test's, as hex)."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Mapping
from typing import Any

from deals.scheme import SECRET_BYTES, secret_from_hex
from engine.core import InvalidOptions, UnknownGame
from engine.registry import GAMES, TOURNAMENTS, new_tournament
from service.actors.actor import Journal
from service.actors.directory import Directory
from service.actors.requests import RequestKey
from service.actors.runtime import Remote
from service.errors import InvalidRequest, Moved, ResourceExhausted
from service.rooms.directory import NewRoom, RoomDirectory
from service.rooms.room import FINISHED, Room
from service.store.records import TournamentRecord
from service.tournaments.tournament import KIND, Tournament

log = logging.getLogger(__name__)

KEEP_FINISHED = 32  # a finished tournament weighs its updates' snapshots: keep fewer than finished rooms


def deal_secret(drawn: int | bytes) -> bytes:
    """A deal's secret from what the rooms' seed source drew: 32 bytes as they are, an int (a test's or a benchmark's
    deterministic source) as ``n.to_bytes(32, "big")``."""
    if isinstance(drawn, bytes):
        if len(drawn) != SECRET_BYTES:
            raise ValueError(f"a deal's secret is {SECRET_BYTES} bytes")
        return drawn
    return drawn.to_bytes(SECRET_BYTES, "big")


def new_tournament_id() -> str:
    """A new tournament's id: random (the tests' conftest replaces it with ids the same from run to run, since a
    duplicate tournament's deals are bound to its id)."""
    return secrets.token_hex(8)


class TournamentDirectory(Directory[Tournament]):
    """Every tournament of this server; its games live in ``rooms`` (and where they live, in the rooms' runtime).
    ``max_live`` caps the tournaments waiting or playing at once (resting solo ones are not counted: see the module
    docstring)."""

    kind = KIND

    def __init__(
        self,
        rooms: RoomDirectory,
        journal: Journal | None = None,
        *,
        max_live: int | None = None,
        keep_finished: int = KEEP_FINISHED,
        sealer: Any = None,
    ) -> None:
        """``sealer``: seals the deals' secrets at rest (``seal``/``open`` of text: the webhooks' Sealer under the
        nodes' shared key); None keeps them as hex (a store in memory)."""
        super().__init__(journal=journal or rooms.journal, runtime=rooms.runtime, keep_finished=keep_finished)
        self.rooms = rooms
        self.max_live = max_live
        self.sealer = sealer
        self._resting: set[str] = set()  # solo tournaments of this server's that rest (not in memory), with their game
        self._waking: set[asyncio.Task[Any]] = set()  # resting tournaments being loaded because their game came back

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
        duplicate: bool = False,
    ) -> Tournament:
        """A new tournament, stored and waiting for its people (or, with four system players, already playing).
        ``request``: the creator's request id, kept on its row, as RoomDirectory.create keeps a room's.
        ``duplicate``: its deals played again with the seats rotated (InvalidRequest no_duplicate where the game's
        tournament cannot rotate)."""
        try:
            rules = new_tournament(game, duplicate=duplicate)
        except UnknownGame:
            offered = ", ".join(sorted(TOURNAMENTS))
            what = "this game has no tournament" if game in GAMES else "no such game"
            raise InvalidRequest(f"{what} (games with one: {offered})", code="no_tournament", field="game") from None
        except InvalidOptions as error:
            raise InvalidRequest(str(error), code="no_duplicate", field="duplicate") from None
        options = dict(options or {})
        own = rules.next_options()
        if set(options) & set(own):
            names = ", ".join(sorted(set(options) & set(own)))
            raise InvalidRequest(f"a tournament sets {names} itself: it rotates game by game", code="invalid_options")
        table = NewRoom(
            game=game,
            mode=mode,
            seats=rules.players,
            system_players=system_players,
            options={**options, **own},
            system_player=system_player,
            think_seconds=think_seconds,
        )
        resolved, system_player = self.rooms.check(table, people_optional=True, what="tournament")
        for name in own:
            resolved.pop(name, None)
        if self.max_live is not None and self.live() >= self.max_live:
            raise ResourceExhausted(
                f"this server holds as many live tournaments as it may ({self.max_live}); try again later",
                code="server_full",
                retry_after=30.0,
            )
        deal_secrets = [deal_secret(self.rooms.seed_source()) for _ in range(getattr(rules, "deals", 0))]
        record = TournamentRecord(
            tournament_id=new_tournament_id(),
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
            duplicate=duplicate,
            deal_secrets=tuple(self._seal(secret) for secret in deal_secrets),
        )
        tournament = self.build(record, self.runtime.created_epoch)  # (on a node, the store makes its lease with it)
        await self.created(tournament)
        await tournament.advance()  # four system players need nobody: the first game starts now
        return tournament

    def build(self, record: TournamentRecord, epoch: int) -> Tournament:
        opened = tuple(self._open(sealed) for sealed in record.deal_secrets)
        return Tournament(record, self.rooms, epoch=epoch, host=self, deal_secrets=opened)

    def _seal(self, secret: bytes) -> str:
        return self.sealer.seal(secret.hex()) if self.sealer is not None else secret.hex()

    def _open(self, kept: str) -> bytes:
        """A deal's secret as the row keeps it: sealed, or hex where it was stored without a sealer."""
        if self.sealer is None or len(kept) == 2 * SECRET_BYTES:
            return secret_from_hex(kept)
        return secret_from_hex(self.sealer.open(kept))

    async def restore(self, stored: list[tuple[Any, list[Any]]], epoch: int = 0) -> int:
        """Rebuild stored tournaments once the rooms are rebuilt (or on a node that claimed them under lease
        ``epoch``), then let each move on from where it stood; returns how many are unfinished."""
        unfinished = await super().restore(stored, epoch)
        for record, _ in stored:
            await self.get(record.tournament_id).advance()
        return unfinished

    # -- resting ----------------------------------------------------------------------------------------------------

    async def rest_idle(self) -> list[str]:
        """Let every idle solo tournament go to rest with its current game (see the module docstring); their ids. Its
        row says first until when it rests (its game's ``wake_at``): a store that cannot say so keeps it in memory."""
        rooms = self.rooms
        rest_seconds = rooms.correspondence.solo_rest_seconds
        rest = getattr(self.journal, "rest", None)  # (a journal that keeps no rows: nothing to say)
        rested = []
        for tournament in self.held():
            actor = tournament.actor
            room = self._may_rest(tournament, rest_seconds)
            if room is None:
                continue
            try:
                if rest is not None:
                    await rest(self.kind, actor.actor_id, room.wake_at)
            except Exception as error:  # (the store is away: the next pass tries again)
                log.warning("tournament %s could not rest: %s", actor.actor_id, type(error).__name__)
                continue
            still = self._actors.get(actor.actor_id) is tournament
            if not still or self._may_rest(tournament, rest_seconds) is not room:
                continue  # (called for meanwhile: it stays; its next line clears its row's wake_at)
            rooms.rest(room)
            actor.moved = Moved("this tournament went to rest; send the call again (it wakes the tournament)")
            actor.stop()
            self._actors.pop(actor.actor_id, None)
            self._resting.add(actor.actor_id)
            rested.append(actor.actor_id)
        if rested:
            log.info("%d solo tournaments went to rest; %d rest", len(rested), len(self._resting))
        return rested

    def _may_rest(self, tournament: Tournament, rest_seconds: float) -> Room | None:
        """The game room to rest with ``tournament``, held here as the tournament is; None when it may not rest."""
        rooms = self.rooms
        room = tournament.may_rest(rooms.clock.now(), rest_seconds, rooms.wake_horizon())
        actor = tournament.actor
        if room is None or not (
            self.runtime.holds(self.kind, actor.actor_id, actor.epoch)
            and self.runtime.holds(rooms.kind, room.room_id, room.actor.epoch)
        ):
            return None
        return room

    def wake_horizon(self) -> float:
        """As the rooms': a start leaves in the store a tournament resting until later (its row's ``wake_at``)."""
        return self.rooms.wake_horizon()

    async def start_resting(self) -> None:
        """Count the solo tournaments resting in the store (after a restart, which leaves them there), so that their
        games, coming back, wake them; one whose game the start loaded (its system player to move) wakes now."""
        due = getattr(self.journal, "due", None)
        if due is not None:
            self._resting = {actor_id for actor_id in await due(self.kind, None) if actor_id not in self._actors}
        for room in self.rooms.held():
            if room.tournament_id in self._resting and room.status != FINISHED:
                self._wake(room.tournament_id)

    def resting(self) -> frozenset[str]:
        """The solo tournaments of this server's that rest (not in memory)."""
        return frozenset(self._resting)

    def child_loaded(self, actor_id: str, child: Any) -> None:
        """A resting tournament's game came back into memory: the tournament wakes too (in a task of its own: the
        room is being loaded in the caller's)."""
        if actor_id in self._resting and actor_id not in self._actors:
            self._wake(actor_id)

    def child_finished(self, actor_id: str, child: Any) -> None:
        """As Directory.child_finished; a resting tournament whose game ended wakes and moves on."""
        if actor_id in self._resting and actor_id not in self._actors:
            self._wake(actor_id)
        else:
            super().child_finished(actor_id, child)

    def _wake(self, actor_id: str) -> None:
        task = asyncio.ensure_future(self.locate(actor_id))
        self._waking.add(task)
        task.add_done_callback(self._woken)

    def _woken(self, task: asyncio.Task[Any]) -> None:
        self._waking.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:  # (its next call, or its game's, wakes it)
            log.warning("could not wake a tournament: %s", type(error).__name__)

    def added(self, tournament: Tournament) -> None:
        self._resting.discard(tournament.tournament_id)  # (a resting tournament loaded again)

    def removed(self, actor_id: str) -> None:
        self._resting.discard(actor_id)

    async def locate(self, actor_id: str) -> Tournament | Remote:  # type: ignore[override]
        """As Directory.locate; a call for a tournament keeps it from resting for ``solo_rest_seconds`` (and one that
        rests is read back from the store)."""
        found = await super().locate(actor_id)
        if isinstance(found, Tournament):
            found.used_at = self.rooms.clock.now()
        return found

    def lose(self, actor_ids: list[str]) -> None:
        self._resting.difference_update(actor_ids)  # (another node took them: they are not this node's any more)
        super().lose(actor_ids)

    async def hand_over(self) -> int:
        """As Directory.hand_over; the resting tournaments go too (the node gives every lease back)."""
        self._resting.clear()
        return await super().hand_over()

    async def settle(self) -> None:
        """As Directory.settle, once the tournaments being woken are loaded."""
        while self._waking:
            await asyncio.gather(*self._waking, return_exceptions=True)
        await super().settle()

    async def close(self) -> None:
        for task in list(self._waking):
            task.cancel()
        await super().close()

    def live(self) -> int:
        """How many tournaments are waiting or playing."""
        return sum(1 for tournament in self.held() if tournament.current().status != FINISHED)

    async def list(  # type: ignore[override]
        self, *, status: str = "", page_size: int = 0, page_token: str = ""
    ) -> tuple[list[Tournament | Remote], str]:
        """Tournaments newest first, in ``status`` when given (see Directory.list)."""
        return await super().list(page_size=page_size, page_token=page_token, status=status)
