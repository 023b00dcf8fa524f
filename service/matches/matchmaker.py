"""The matchmaker: takes tickets (checked), turns each game's queue at every interval (any node may: the store lets
one at a time), makes the rooms of the tables whose people all took their seats up, and tells the followers of every
ticket that changed.

A ticket's life is one trace: the span of its enqueueing is stored with it (its traceparent), and each later step
(proposed, put back, matched, cancelled, expired) is a span of that trace, on whichever node takes the step. The wait
from joining the queue to the room and each room's rating spread are metrics (kickoff.match.wait,
kickoff.match.rating_spread).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.trace import Link
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

from engine.core import InvalidOptions, UnknownGame
from engine.levels import levels_of
from engine.registry import GAMES, get_game
from service.actors.requests import RequestKey
from service.errors import InvalidRequest, PlayerNotFound, StoreRefused, TicketNotFound
from service.followers import Followers
from service.matches.matching import Table, Vacant, Waiting, plan
from service.matches.store import (
    CANCELLED,
    EXPIRED,
    MATCHED,
    PLAYER_DELETED,
    MatchInfo,
    MatchStore,
    NewTicket,
    TicketInfo,
    TickReport,
)
from service.players.ratings import MU
from service.players.store import PlayerStore
from service.rooms.clock import Clock, Timer
from service.rooms.directory import NewRoom, RoomDirectory
from service.rooms.room import ONLINE
from service.settings import MatchSettings
from service.store.records import system_rating_id
from service.telemetry import Telemetry

log = logging.getLogger(__name__)

MAX_PARTY = 6  # other players a ticket may bring (the largest table, Age of Soccer's, seats 7)
POLL_SECONDS = 1.0  # how often a node reads the versions of the tickets it streams (changes made on other nodes)
_PROPAGATOR = TraceContextTextMapPropagator()


def options_key(mode: str, options: Mapping[str, Any]) -> str:
    """Tickets of one key may share a table: the same mode and the same options asked for."""
    text = json.dumps({"mode": mode, "options": dict(options)}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class TicketWatch:
    """The ticket streams this node serves: each waits on an event its ticket's change sets. Changes made here set it
    at once; those made on another node are noticed by reading the versions of the followed tickets every
    POLL_SECONDS. ``limit`` bounds the streams (ResourceExhausted past it)."""

    def __init__(self, store: MatchStore, limit: int) -> None:
        self.store = store
        self._seen: dict[str, int] = {}
        self._events: Followers[asyncio.Event] = Followers(
            limit,
            "ticket streams",
            lambda ticket_id: asyncio.Event(),
            lambda ticket_id: self._seen.pop(ticket_id, None),
        )
        self.follow = self._events.follow

    def seen(self, ticket_id: str, version: int) -> None:
        self._seen[ticket_id] = version

    def changed(self, ticket_ids: Sequence[str] | set[str]) -> None:
        for ticket_id in ticket_ids:
            for event in self._events.of(ticket_id):
                event.set()

    async def run(self) -> None:
        """Notice changes other nodes made to the tickets followed here, forever."""
        while True:
            await asyncio.sleep(POLL_SECONDS)
            followed = list(self._events)
            try:
                for start in range(0, len(followed), 500):
                    versions = await self.store.versions(followed[start : start + 500])
                    self.changed([t for t, v in versions.items() if v != self._seen.get(t)])
            except Exception as error:  # (the store is away: the next round tries again)
                log.warning("ticket streams: could not read ticket versions (%s)", type(error).__name__)


class Matchmaker:
    """See the module docstring. ``rooms`` makes the matched rooms (on this node), ``players`` gives names and
    ratings; ``clock`` times the queue's turns (tests turn them by hand with :meth:`tick`)."""

    def __init__(
        self,
        store: MatchStore,
        rooms: RoomDirectory,
        players: PlayerStore,
        settings: MatchSettings | None = None,
        *,
        clock: Clock,
        telemetry: Telemetry | None = None,
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.players = players
        self.settings = settings or MatchSettings()
        self.clock = clock
        self.telemetry = telemetry or rooms.telemetry
        self.watch = TicketWatch(store, self.settings.max_followers)
        self.games = sorted(GAMES)
        self._timer: Timer | None = None
        self._ticking: asyncio.Task[None] | None = None
        self._poller: asyncio.Task[None] | None = None
        self._closed = False
        players.erasers.append(self._withdraw)  # (a player's deletion cancels their tickets, in its transaction)

    # -- running ----------------------------------------------------------------------------------------------------

    async def start(self, *, turning: bool = True) -> None:
        """Make the queues' rows, follow tickets changed elsewhere, and turn the queues every interval (``turning``
        False: only when :meth:`tick` is called)."""
        await self.store.ensure_queues(self.games)
        self._poller = asyncio.get_running_loop().create_task(self.watch.run(), name="ticket watch")
        if turning:
            self._schedule()

    def _schedule(self) -> None:
        if not self._closed:
            self._timer = self.clock.call_at(self.clock.now() + self.settings.interval_seconds, self._due)

    def _due(self) -> None:
        # (one turn at a time: the next is scheduled when this one ends)
        self._ticking = asyncio.get_running_loop().create_task(self._turn(), name="matchmaker")

    async def _turn(self) -> None:
        try:
            await self.tick()
        except Exception as error:  # (the store is away: the next turn tries again)
            log.warning("matchmaker: a turn failed (%s)", type(error).__name__)
        finally:
            self._schedule()

    async def close(self) -> None:
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
        for task in (self._ticking, self._poller):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def tick(self) -> list[TickReport]:
        """One turn of every game's queue (those another node is turning now are skipped)."""
        reports = []
        for game in self.games:
            report = await self.store.tick(
                game, self._planner, lambda rating, g=game: self._kind(g, rating), self._room
            )
            if report is not None:
                self._after(game, report)
                reports.append(report)
        return reports

    def _planner(self, waiting: list[Waiting], vacant: list[Vacant], now: float, teams: Any) -> list[Table]:
        return plan(waiting, vacant, now, teams, self.settings.fill_seconds or None)

    async def _kind(self, game: str, rating: float) -> str:
        """The system players' level for a table of ``rating``: the one whose own rating in the game is nearest (level
        ``normal`` among equals: every level is unrated at first)."""
        kinds = sorted(levels_of(get_game(game)), key=lambda kind: kind != "normal")
        ratings = await self.players.ratings_of(game, [system_rating_id(kind) for kind in kinds])
        mu = {kind: ratings[system_rating_id(kind)].mu if system_rating_id(kind) in ratings else MU for kind in kinds}
        return min(kinds, key=lambda kind: abs(mu[kind] - rating))

    async def _room(self, match: MatchInfo) -> None:
        """Make a started table's room, unless the store has it already (a node made it and died before marking the
        table started)."""
        if await self.rooms.journal.load_one("room", match.room_id) is not None:
            return
        bots = match.bots()
        try:
            await self.rooms.create(
                NewRoom(
                    game=match.game,
                    mode=match.mode,
                    seats=match.size,
                    system_players=len(bots),
                    system_seats=bots,
                    options=match.options,
                    system_player=match.system_player,
                    room_id=match.room_id,
                    people=match.people(),
                )
            )
        except StoreRefused:  # (another node made it meanwhile: the same room, from the same table)
            if await self.rooms.journal.load_one("room", match.room_id) is None:
                raise

    def _after(self, game: str, report: TickReport) -> None:
        """Tell the followers, count, and trace what a turn (or a take-up, or a cancel) did."""
        self.watch.changed(report.changed)
        instruments, attributes = self.telemetry.instruments, {"kickoff.game": game}
        for _ in report.expired:
            instruments.tickets.add(1, {**attributes, "kickoff.ticket.status": EXPIRED})
        for match, tickets in report.started:
            instruments.match_spread.record(match.spread, attributes)
            for ticket in tickets:
                instruments.tickets.add(1, {**attributes, "kickoff.ticket.status": MATCHED})
                instruments.match_wait.record((match.started_at or 0.0) - ticket.created_at, attributes)
                self._step(ticket.trace, "ticket.matched", {"kickoff.room_id": match.room_id})
        for traceparent, name, step in report.steps:
            self._step(traceparent, name, step)

    # -- traces -----------------------------------------------------------------------------------------------------

    def _traceparent(self) -> str:
        carrier: dict[str, str] = {}
        _PROPAGATOR.inject(carrier)
        return carrier.get("traceparent", "")

    def _step(self, traceparent: str, name: str, attributes: Mapping[str, Any]) -> None:
        if not self.telemetry.tracing or not traceparent:
            return
        context = _PROPAGATOR.extract({"traceparent": traceparent})
        self.telemetry.tracer.start_span(name, context=context, attributes=dict(attributes)).end()

    # -- a player's requests ----------------------------------------------------------------------------------------

    async def enqueue(
        self,
        player_id: str,
        *,
        game: str,
        counts: Sequence[int] = (),
        mode: str = ONLINE,
        options: Mapping[str, Any] | None = None,
        party: Sequence[str] = (),
        caller: str = "",
        request: RequestKey | None = None,
    ) -> TicketInfo:
        """A new ticket for ``player_id`` and ``party`` (other players who sit at the same table, and on the same team
        where the game has teams; each is invited, and the ticket searches once they all joined it). Raises
        InvalidRequest naming what is wrong, PlayerNotFound for a party member who is not a player, Conflict
        (already_queued) or ResourceExhausted (a quota). With ``request`` (the player's request id): the ticket it
        made already, as it stands now, when it made one (MatchStore.enqueue)."""
        try:
            rules = get_game(game)
        except UnknownGame:
            known = ", ".join(sorted(GAMES))
            raise InvalidRequest(f"no such game (known: {known})", code="unknown_game", field="game") from None
        if mode != ONLINE:
            raise InvalidRequest(
                "matchmaking makes online rooms (a solo room needs nobody: CreateRoom)", code="bad_mode", field="mode"
            )
        offered = rules.spec.seat_counts
        asked = sorted(set(counts)) or list(offered)
        if any(count not in offered for count in asked):
            sizes = ", ".join(map(str, offered))
            raise InvalidRequest(f"{rules.spec.title} takes {sizes} seats", code="bad_seat_counts", field="seat_counts")
        options = dict(options or {})
        for count in asked:
            try:
                rules.new_game(count, rules.spec.resolve(count, options), 0)
            except InvalidOptions as error:
                raise InvalidRequest(f"{error} (at {count} seats)", code="invalid_options", field="options") from None
        members = [player_id]
        for other in party:
            if other in members:
                raise InvalidRequest("a party names each player once, and not you", code="bad_party", field="party")
            members.append(other)
        if len(members) > MAX_PARTY + 1:
            raise InvalidRequest(f"a party is at most {MAX_PARTY + 1} players", code="bad_party", field="party")
        fitting = [count for count in asked if len(members) <= largest_team(rules, count, options)]
        if not fitting:
            raise InvalidRequest(
                f"a party of {len(members)} fits no table of the sizes asked for (in {rules.spec.title}, a party sits "
                "on one team where the game has teams)",
                code="party_too_big",
                field="party",
            )
        names = []
        for member in members:
            info = await self.players.player(member)
            if info is None:
                raise PlayerNotFound("no such player in the party", field="party")
            names.append(info.name)
        ratings = await self.players.ratings_of(game, members)
        rating = sum(ratings[m].mu if m in ratings else MU for m in members) / len(members)
        call = trace.get_current_span().get_span_context()  # (the call's span, when it is traced)
        with self.telemetry.tracer.start_as_current_span(
            "ticket.enqueue",
            context=Context(),  # a ticket's life is a trace of its own, linked to the call that began it
            links=[Link(call)] if call.is_valid else [],
            attributes={"kickoff.game": game, "kickoff.ticket.players": len(members)},
        ):
            ticket = await self.store.enqueue(
                NewTicket(
                    game=game,
                    members=tuple(members),
                    names=tuple(names),
                    counts=tuple(fitting),
                    mode=mode,
                    options=options,
                    options_key=options_key(mode, options),
                    rating=rating,
                    caller=caller,
                    trace=self._traceparent() if self.telemetry.tracing else "",
                    request=request,
                )
            )
        return ticket

    async def ticket(self, ticket_id: str, player_id: str) -> tuple[TicketInfo, MatchInfo | None]:
        """A ticket of the player's (TicketNotFound for anyone else's: its members and table are theirs to see)."""
        ticket, match = await self.store.ticket(ticket_id)
        if player_id not in ticket.members:
            raise TicketNotFound("no such ticket of yours")
        return ticket, match

    async def join(self, ticket_id: str, player_id: str) -> TicketInfo:
        """An invited party member joins the ticket (the last one puts it in the queue)."""
        ticket = await self.store.join(ticket_id, player_id)
        self.watch.changed([ticket_id])
        return ticket

    async def decline(self, ticket_id: str, player_id: str) -> None:
        """An invited party member declines (see MatchStore.decline); the ticket's followers hear of it."""
        await self.store.decline(ticket_id, player_id)
        self.watch.changed([ticket_id])

    async def cancel(self, ticket_id: str, player_id: str) -> TicketInfo:
        ticket, changed = await self.store.cancel(ticket_id, player_id)
        self.watch.changed(changed)
        self.telemetry.instruments.tickets.add(1, {"kickoff.game": ticket.game, "kickoff.ticket.status": CANCELLED})
        self._step(ticket.trace, "ticket.cancelled", {})
        return ticket

    async def _withdraw(self, connection: Any, player_id: str, pseudonym: str, now: float) -> Callable[[], None]:
        """A player deletes themselves: their tickets and invitations are cancelled in the deletion's transaction
        (see MatchStore.withdraw); once it is committed, the followers hear of it, and it is counted and traced."""
        cancelled, changed = await self.store.withdraw(connection, player_id, now)

        def told() -> None:
            self.watch.changed(changed)
            for ticket in cancelled:
                attributes = {"kickoff.game": ticket.game, "kickoff.ticket.status": CANCELLED}
                self.telemetry.instruments.tickets.add(1, attributes)
                self._step(ticket.trace, "ticket.cancelled", {"kickoff.ticket.reason": PLAYER_DELETED})

        return told

    async def accept(self, ticket_id: str, player_id: str, origin: str = "", seed: str = "") -> None:
        """Take up the player's seat at the ticket's table (from ``origin``: MatchStore.accept); the last person to
        take up starts the room at once (read the ticket for where it stands then)."""
        ticket, ready = await self.store.accept(ticket_id, player_id, origin, seed)
        self.watch.changed([ticket_id])
        if ready:
            report = await self.store.start_ready(ticket.game, ticket.match_id, self._room)
            self._after(ticket.game, report)


def largest_team(rules: Any, count: int, options: Mapping[str, Any]) -> int:
    """The most people one ticket may seat at a table of ``count``: the table, or its largest team where the game has
    teams of several seats."""
    teams = rules.teams(count, rules.spec.resolve(count, options))
    sizes = [teams.count(team) for team in set(teams)]
    return count if max(sizes) == 1 else max(sizes)
