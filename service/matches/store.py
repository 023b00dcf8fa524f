"""The matchmaking store: tickets, the tables made of them, and each game's queue rows, in the database every node
shares (SQLite for one server, PostgreSQL for a cluster).

Every change is one transaction that first locks its game's queue row (PostgreSQL: ``SELECT ... FOR UPDATE``; SQLite:
an ``UPDATE`` of it, which takes the database's write lock at once and so never meets a write that came between its
reads and its own). So the changes of one game's queue happen one at a time on every node, and a ticket is in at most
one table: its status and its table change in the same transaction, or not at all. A turn of the queue (the tick that
makes tables) first locks a second row of the game's, skipping it when another node holds it (``SKIP LOCKED``), so
one node at a time turns a queue, and then waits for the first row like any change. A node that dies mid-way leaves
nothing half done: its transaction never commits, and the next tick (on any node) starts from what is stored.

A table becomes a room once every person at it took their seat up. The room's id is chosen with the table, and a
table is claimed before its room is made, so one node makes it: the one that claimed it, unless the store has it
already (a node died after making it, before marking the table started); then that node marks the table started and
its tickets matched.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from engine.registry import get_game
from service.actors.requests import RequestKey, reused
from service.errors import (
    Conflict,
    InvalidRequest,
    PlayerNotFound,
    PreconditionFailed,
    ResourceExhausted,
    TicketNotFound,
)
from service.matches.matching import Table, Vacant, Waiting
from service.players.ratings import MU
from service.settings import MatchSettings
from service.store.models import (
    BlockRow,
    FriendshipRow,
    MatchQueueRow,
    MatchRow,
    PlayerRow,
    QueuedPlayerRow,
    RatingRow,
    TicketInviteRow,
    TicketRow,
)
from service.store.retention import Rule
from service.webhooks.events import match_event

SEARCHING, PROPOSED, MATCHED, CANCELLED, EXPIRED = "searching", "proposed", "matched", "cancelled", "expired"
FORMING = "forming"  # a party's ticket whose invited members have not all joined
LIVE = (FORMING, SEARCHING, PROPOSED)
READY, STARTING, STARTED = "ready", "starting", "started"  # a table's status besides proposed
RECLAIM_SECONDS = 5.0  # a table claimed for starting this long ago (its node died meanwhile) is claimed again
TURN = "#turn"  # the suffix of a game's second queue row: a turn locks it (SKIP LOCKED) before the first
NOT_TAKEN_UP = "not_taken_up"  # a ticket's reason when it went back to the queue
DECLINED = "declined"  # a forming ticket's reason when an invited member declined
PLAYER_DELETED = "player_deleted"  # a ticket's reason when one of its players deleted themselves
BATCH = 2000  # tickets one tick considers at most (the oldest)
# waiting, vacant tables, now, teams (size, options key -> each seat's team) -> the tables to make
Planner = Callable[[list[Waiting], list[Vacant], float, Callable[[int, str], Sequence[int]]], list[Table]]


@dataclass(frozen=True)
class NewTicket:
    game: str
    members: tuple[str, ...]  # the leader first
    names: tuple[str, ...]
    counts: tuple[int, ...]
    mode: str
    options: dict[str, Any]
    options_key: str
    rating: float
    caller: str = ""
    trace: str = ""
    request: RequestKey | None = None  # the enqueuer's request id (service/actors/requests.py): a retry finds it


@dataclass(frozen=True)
class TicketInfo:
    ticket_id: str
    game: str
    status: str
    members: tuple[str, ...]
    joined: tuple[str, ...]
    names: tuple[str, ...]
    counts: tuple[int, ...]
    mode: str
    options: dict[str, Any]
    options_key: str
    rating: float
    place: float
    created_at: float
    expires_at: float
    match_id: str
    version: int
    reason: str
    returned: int
    trace: str
    ended_at: float | None

    @property
    def live(self) -> bool:
        return self.status in LIVE


@dataclass(frozen=True)
class MatchInfo:
    match_id: str
    game: str
    room_id: str
    status: str
    size: int
    mode: str
    options: dict[str, Any]
    options_key: str
    system_player: str
    seats: tuple[dict[str, Any], ...]
    place: float
    created_at: float
    started_at: float | None
    spread: float

    def people(self) -> list[tuple[Any, ...]]:
        """Each person's (seat, name, nonce, player, origin, seed), as the room is made (the origin: where they took
        the seat up from, AcceptMatch; the seed: the one they gave for the fair deal there)."""
        return [
            (s["seat"], s["name"], s["nonce"], s["player"], s.get("origin", ""), s.get("seed", ""))
            for s in self.seats
            if s.get("ticket")
        ]

    def bots(self) -> list[int]:
        return [s["seat"] for s in self.seats if s.get("bot")]


@dataclass
class TickReport:
    """What one tick did (None: another node holds the queue now)."""

    expired: list[str]
    returned: list[str]
    tables: list[tuple[MatchInfo, Table]]  # made or filled
    started: list[tuple[MatchInfo, list[TicketInfo]]]
    changed: set[str]  # every ticket whose version moved
    steps: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)  # (trace, span name, attributes)


def _ticket(row: Any) -> TicketInfo:
    return TicketInfo(
        ticket_id=row.ticket_id,
        game=row.game,
        status=row.status,
        members=tuple(row.members),
        joined=tuple(row.joined),
        names=tuple(row.names),
        counts=tuple(row.counts),
        mode=row.mode,
        options=dict(row.options),
        options_key=row.options_key,
        rating=row.rating,
        place=row.place,
        created_at=row.created_at,
        expires_at=row.expires_at,
        match_id=row.match_id or "",
        version=row.version,
        reason=row.reason,
        returned=row.returned,
        trace=row.trace,
        ended_at=row.ended_at,
    )


def _match(row: Any) -> MatchInfo:
    return MatchInfo(
        match_id=row.match_id,
        game=row.game,
        room_id=row.room_id,
        status=row.status,
        size=row.size,
        mode=row.mode,
        options=dict(row.options),
        options_key=row.options_key,
        system_player=row.system_player,
        seats=tuple(dict(seat) for seat in row.seats),
        place=row.place,
        created_at=row.created_at,
        started_at=row.started_at,
        spread=row.spread,
    )


async def _without_deleted(
    connection: AsyncConnection, ticket: TicketInfo, match: MatchInfo | None
) -> tuple[TicketInfo, MatchInfo | None]:
    """The ticket and its table with every player who deleted themselves since under their pseudonym: a ticket keeps
    the names its players had when it was made, and an ended one is still read by its other members."""
    people = set(ticket.members) | {seat["player"] for seat in (match.seats if match else ()) if seat.get("player")}
    query = select(PlayerRow.player_id, PlayerRow.name).where(
        PlayerRow.player_id.in_(sorted(people)), PlayerRow.deleted_at.is_not(None)
    )
    gone = {row.player_id: row.name for row in await connection.execute(query)}
    if not gone:
        return ticket, match
    names = tuple(gone.get(member, name) for member, name in zip(ticket.members, ticket.names, strict=True))
    ticket = replace(ticket, names=names)
    if match is not None:
        seats = tuple(
            {**seat, "name": gone[seat["player"]]} if seat.get("player") in gone else seat for seat in match.seats
        )
        match = replace(match, seats=seats)
    return ticket, match


def _dialect(connection: AsyncConnection) -> Any:
    return postgresql if connection.dialect.name == "postgresql" else sqlite


def _complete(seats: Sequence[dict[str, Any]]) -> bool:
    """Every seat is a system player's or a person's who took it up."""
    return all(seat.get("bot") or seat.get("accepted") for seat in seats)


class MatchStore:
    """Tickets and tables in the database behind ``engine`` (see the module docstring). ``clock`` gives now;
    ``settings`` how long a ticket searches, how long a person has to take a seat up, and the quotas."""

    def __init__(
        self,
        engine: AsyncEngine,
        clock: Callable[[], float],
        settings: MatchSettings | None = None,
        outbox: Any = None,
    ) -> None:
        self.engine = engine
        self.clock = clock
        self.settings = settings or MatchSettings()
        self.outbox = outbox  # writes a match.found webhook event per ticket, in the table's transaction (or None)

    def retention(self) -> list[Rule]:
        """What the pruning loop deletes (service/store/retention.py): tickets ended (matched, cancelled, expired) and
        tables started more than ``keep_days`` ago. Nothing changes them any more: their rows hold no queue's place
        (those went as they ended), and the rooms made of the tables are the players' history."""
        keep = self.settings.keep_days * 86400.0
        return [
            Rule(
                "ended tickets",
                TicketRow,
                "ticket_id",
                lambda now: and_(TicketRow.ended_at.is_not(None), TicketRow.ended_at < now - keep),
            ),
            Rule(
                "started tables",
                MatchRow,
                "match_id",
                lambda now: and_(MatchRow.status == STARTED, MatchRow.started_at < now - keep),
            ),
        ]

    async def ensure_queues(self, games: Sequence[str]) -> None:
        """Every game's queue rows (a node starting makes the missing ones; another node's are left as they are):
        the one every change locks, and the one a turn locks first (:data:`TURN`)."""
        rows = [{"game": key, "ticks": 0, "ticked_at": 0.0} for game in games for key in (game, game + TURN)]
        async with self.engine.begin() as connection:
            statement = _dialect(connection).insert(MatchQueueRow).on_conflict_do_nothing()
            await connection.execute(statement, rows)

    async def _lock(self, connection: AsyncConnection, game: str, *, skip: bool = False) -> bool:
        """Lock ``game``'s queue row for this transaction (see the module docstring); False: ``skip`` and another
        transaction holds it."""
        if connection.dialect.name == "postgresql":
            query = select(MatchQueueRow.game).where(MatchQueueRow.game == game).with_for_update(skip_locked=skip)
            return (await connection.execute(query)).first() is not None
        changed = await connection.execute(
            update(MatchQueueRow).where(MatchQueueRow.game == game).values(ticks=MatchQueueRow.ticks + 1)
        )
        return changed.rowcount == 1

    # -- reading ----------------------------------------------------------------------------------------------------

    async def ticket(self, ticket_id: str) -> tuple[TicketInfo, MatchInfo | None]:
        """A ticket with its table (None while it has none); TicketNotFound."""
        async with self.engine.connect() as connection:
            row = (await connection.execute(select(TicketRow).where(TicketRow.ticket_id == ticket_id))).first()
            if row is None:
                raise TicketNotFound("no such ticket")
            match = None
            if row.match_id:
                found = (await connection.execute(select(MatchRow).where(MatchRow.match_id == row.match_id))).first()
                match = _match(found) if found is not None else None
            return await _without_deleted(connection, _ticket(row), match)

    async def live_of(self, player_id: str) -> list[TicketInfo]:
        """The live tickets ``player_id`` is in or invited to, oldest first."""
        async with self.engine.connect() as connection:
            ids = select(QueuedPlayerRow.ticket_id).where(QueuedPlayerRow.player_id == player_id)
            ids = ids.union(select(TicketInviteRow.ticket_id).where(TicketInviteRow.player_id == player_id))
            rows = await connection.execute(
                select(TicketRow).where(TicketRow.ticket_id.in_(ids)).order_by(TicketRow.created_at)
            )
            return [_ticket(row) for row in rows]

    async def versions(self, ticket_ids: Sequence[str]) -> dict[str, int]:
        """Each ticket's version now (the followers of tickets changed on other nodes read these)."""
        if not ticket_ids:
            return {}
        async with self.engine.connect() as connection:
            rows = await connection.execute(
                select(TicketRow.ticket_id, TicketRow.version).where(TicketRow.ticket_id.in_(list(ticket_ids)))
            )
            return {row.ticket_id: row.version for row in rows}

    async def queue_length(self, game: str) -> int:
        async with self.engine.connect() as connection:
            return await self._searching(connection, game)

    @staticmethod
    async def _searching(connection: AsyncConnection, game: str) -> int:
        query = select(func.count()).where(TicketRow.game == game, TicketRow.status == SEARCHING)
        return (await connection.execute(query)).scalar_one()

    # -- a player's changes -----------------------------------------------------------------------------------------

    async def enqueue(self, new: NewTicket) -> TicketInfo:
        """Store a new ticket: searching, or for a party forming until each invited member joins (:meth:`join`).
        Conflict (already_queued) for a leader already in this game's queue; ResourceExhausted for a quota
        (tickets_per_player, tickets_per_caller, queue_full).

        With a request id (``new.request``), the ticket that id made already, as it stands now, is the answer (checked
        first, in the queue's locked transaction: a retry is never already_queued nor over a quota); PreconditionFailed
        (request_id_reused) when it was made by another request. Two nodes that race with one id for two games lock
        two queues: the unique key lets one ticket be stored, and the other call answers as a retry does."""
        try:
            return await self._enqueue(new)
        except IntegrityError:
            if new.request is None:
                raise
            async with self.engine.connect() as connection:
                found = await self._requested(connection, new.request)
            if found is None:
                raise
            return found

    @staticmethod
    async def _requested(connection: AsyncConnection, request: RequestKey) -> TicketInfo | None:
        """The ticket ``request``'s id made, or None; PreconditionFailed (request_id_reused) when another request
        made it."""
        row = (await connection.execute(select(TicketRow).where(TicketRow.request_key == request.key))).first()
        if row is None:
            return None
        if row.request_hash != request.parameters:
            raise reused("another game, table sizes, options or party")
        return _ticket(row)

    async def _enqueue(self, new: NewTicket) -> TicketInfo:
        now = self.clock()
        ticket_id = secrets.token_hex(8)
        leader, invited = new.members[0], list(new.members[1:])
        async with self.engine.begin() as connection:
            await self._lock(connection, new.game)
            if new.request is not None:
                found = await self._requested(connection, new.request)
                if found is not None:
                    return found
            await self._check_alive(connection, new.members)
            if invited:
                await _check_friends(connection, leader, invited)
            await self._check_player(connection, new.game, leader, "you are")
            if new.caller:
                query = select(func.count()).where(TicketRow.caller == new.caller, TicketRow.status.in_(LIVE))
                if (await connection.execute(query)).scalar_one() >= self.settings.per_caller:
                    raise ResourceExhausted(
                        f"this address has {self.settings.per_caller} live tickets already; try again later",
                        code="tickets_per_caller",
                        retry_after=30.0,
                    )
            if await self._searching(connection, new.game) >= self.settings.max_queue:
                raise ResourceExhausted(
                    f"the {new.game} queue holds as many tickets as it may ({self.settings.max_queue}); try again "
                    "later",
                    code="queue_full",
                    retry_after=10.0,
                )
            row = {
                "ticket_id": ticket_id,
                "game": new.game,
                "status": FORMING if invited else SEARCHING,
                "leader": leader,
                "members": list(new.members),
                "joined": [leader],
                "names": list(new.names),
                "counts": list(new.counts),
                "mode": new.mode,
                "options": dict(new.options),
                "options_key": new.options_key,
                "rating": new.rating,
                "place": now,
                "created_at": now,
                "expires_at": now + self.settings.ticket_seconds,
                "match_id": None,
                "version": 1,
                "reason": "",
                "returned": 0,
                "caller": new.caller[:64],
                "trace": new.trace,
                "ended_at": None,
                "request_key": new.request.key if new.request else None,
                "request_hash": new.request.parameters if new.request else None,
            }
            await connection.execute(insert(TicketRow), [row])
            await self._queue(connection, new.game, leader, ticket_id)  # (the key refuses a second: never, locked)
            if invited:
                await connection.execute(
                    insert(TicketInviteRow),
                    [{"ticket_id": ticket_id, "player_id": player, "game": new.game} for player in invited],
                )
        return _ticket(SimpleNamespace(**row))

    async def _check_player(self, connection: AsyncConnection, game: str, player: str, who: str) -> None:
        """Refuse a player in ``game``'s queue already (Conflict already_queued) or in as many queues as they may."""
        query = select(QueuedPlayerRow.game).where(QueuedPlayerRow.player_id == player)
        games = [row.game for row in await connection.execute(query)]
        if game in games:
            raise Conflict(f"{who} in the {game} queue already: one ticket per player and game", code="already_queued")
        if len(games) >= self.settings.per_player:
            raise ResourceExhausted(
                f"{who} in {len(games)} queues already (at most {self.settings.per_player})",
                code="tickets_per_player",
                retry_after=30.0,
            )

    @staticmethod
    async def _check_alive(connection: AsyncConnection, players: Sequence[str]) -> None:
        """PlayerNotFound unless every one of ``players`` is a player who has not deleted themselves. Checked in the
        queue's locked transaction: a deletion locks every queue, so a ticket is made before it (and the deletion
        cancels it) or refused after it, never left behind."""
        query = select(func.count()).where(PlayerRow.player_id.in_(list(players)), PlayerRow.deleted_at.is_(None))
        if (await connection.execute(query)).scalar_one() != len(set(players)):
            raise PlayerNotFound("no such player in the party", field="party")

    async def withdraw(
        self, connection: AsyncConnection, player_id: str, now: float
    ) -> tuple[list[TicketInfo], set[str]]:
        """In a player's deletion's transaction (``connection``): cancel every live ticket they are in or invited to
        (``player_deleted``; a proposed one leaves its table, whose other tickets keep their seats). Every game's
        queue is locked first, in one order (see :meth:`_check_alive`). Returns the tickets cancelled and every
        ticket whose version moved. PreconditionFailed (room_being_made) while a table of theirs that everyone took
        up is making its room: the player is seated in a moment, and deletion waits for that game to end."""
        games = await connection.execute(
            select(MatchQueueRow.game).where(MatchQueueRow.game.not_like("%" + TURN)).order_by(MatchQueueRow.game)
        )
        for game in [row.game for row in games]:
            await self._lock(connection, game)
        ids = select(QueuedPlayerRow.ticket_id).where(QueuedPlayerRow.player_id == player_id)
        ids = ids.union(select(TicketInviteRow.ticket_id).where(TicketInviteRow.player_id == player_id))
        rows = list(
            await connection.execute(select(TicketRow).where(TicketRow.ticket_id.in_(ids), TicketRow.status.in_(LIVE)))
        )
        changed: set[str] = set()
        for row in rows:
            if row.status == PROPOSED and await self._is_ready(connection, row.match_id):
                raise PreconditionFailed(
                    "everyone at a table of the player's took their seat up: the room is being made; delete the "
                    "player once its game ends",
                    code="room_being_made",
                )
            if row.status == PROPOSED and row.match_id:
                changed |= await self._leave_table(connection, row.match_id, {row.ticket_id})
        ended = [row.ticket_id for row in rows]
        if not ended:
            return [], changed
        await self._end(connection, ended, CANCELLED, PLAYER_DELETED, now)
        cancelled = [
            _ticket(row) for row in await connection.execute(select(TicketRow).where(TicketRow.ticket_id.in_(ended)))
        ]
        return cancelled, changed | set(ended)

    @staticmethod
    async def _queue(connection: AsyncConnection, game: str, player: str, ticket_id: str) -> None:
        await connection.execute(insert(QueuedPlayerRow), [{"game": game, "player_id": player, "ticket_id": ticket_id}])

    async def join(self, ticket_id: str, player_id: str) -> TicketInfo:
        """An invited party member joins the ticket (a member who joined already changes nothing); the last to join
        puts it in the queue (searching, its place from now). Conflict (already_queued) or ResourceExhausted as for
        enqueueing; PreconditionFailed (ticket_ended) for a ticket that ended."""
        game = await self._game_of(ticket_id, player_id)
        now = self.clock()
        async with self.engine.begin() as connection:
            await self._lock(connection, game)
            row = await self._locked_ticket(connection, ticket_id)
            if player_id in row.joined:
                return _ticket(row)
            if row.status != FORMING:
                raise PreconditionFailed(f"the ticket is {row.status} already", code="ticket_ended")
            await self._check_alive(connection, [player_id])
            await self._check_player(connection, game, player_id, "you are")
            await self._queue(connection, game, player_id, ticket_id)
            await connection.execute(
                delete(TicketInviteRow).where(
                    TicketInviteRow.ticket_id == ticket_id, TicketInviteRow.player_id == player_id
                )
            )
            joined = [*row.joined, player_id]
            complete = len(joined) == len(row.members)
            values: dict[str, Any] = {"joined": joined}
            if complete:
                values |= {"status": SEARCHING, "place": now}
            await self._touch(connection, [ticket_id], **values)
            return _ticket(await self._locked_ticket(connection, ticket_id))

    async def join_by_link(
        self, ticket_id: str, player_id: str, name: str, fitting: Callable[[str, int, Mapping[str, Any]], list[int]]
    ) -> TicketInfo:
        """A party link's holder joins the ticket (service/matches/party.py): they are added to its members, joined, and
        the ticket keeps its place (a forming one searches once everyone invited joined). ``fitting(game, size,
        options)``: the table sizes a party of ``size`` fits, of those the ticket takes. PreconditionFailed
        ticket_ended for a ticket no longer forming or searching, link_invalid where a block stands between the holder
        and one of the party (either way: told as a token not signed here is); InvalidRequest party_too_big; Conflict
        already_queued or ResourceExhausted as for enqueueing. A member already in changes nothing."""
        game, members = await self._game(ticket_id)
        if player_id in members:  # (invited by name too, or in already: as JoinTicket)
            return await self.join(ticket_id, player_id)
        async with self.engine.begin() as connection:
            await self._lock(connection, game)
            row = await self._locked_ticket(connection, ticket_id)
            if player_id in row.members:  # (joined at the same moment)
                return _ticket(row)
            if row.status not in (FORMING, SEARCHING):
                raise PreconditionFailed(f"the ticket is {row.status} already", code="ticket_ended")
            members = list(row.members)
            blocks = select(func.count()).where(
                or_(
                    and_(BlockRow.blocker == player_id, BlockRow.blocked.in_(members)),
                    and_(BlockRow.blocked == player_id, BlockRow.blocker.in_(members)),
                )
            )
            if (await connection.execute(blocks)).scalar_one():
                raise PreconditionFailed("the party link is not valid", code="link_invalid")
            counts = [count for count in fitting(game, len(members) + 1, row.options) if count in row.counts]
            if not counts:
                raise InvalidRequest(
                    f"a party of {len(members) + 1} fits no table this ticket takes", code="party_too_big"
                )
            await self._check_alive(connection, [player_id])
            await self._check_player(connection, game, player_id, "you are")
            await self._queue(connection, game, player_id, ticket_id)
            members.append(player_id)
            query = select(RatingRow.player_id, RatingRow.mu).where(
                RatingRow.game == game, RatingRow.player_id.in_(members)
            )
            mu = {r.player_id: r.mu for r in await connection.execute(query)}
            await self._touch(
                connection,
                [ticket_id],
                members=members,
                joined=[*row.joined, player_id],
                names=[*row.names, name],
                counts=counts,
                rating=sum(mu.get(m, MU) for m in members) / len(members),
            )
            return _ticket(await self._locked_ticket(connection, ticket_id))

    async def _game(self, ticket_id: str) -> tuple[str, list[str]]:
        """The game and members of a ticket anyone may name (a party link's holder): TicketNotFound when there is
        none."""
        async with self.engine.connect() as connection:
            row = (
                await connection.execute(
                    select(TicketRow.game, TicketRow.members).where(TicketRow.ticket_id == ticket_id)
                )
            ).first()
        if row is None:
            raise TicketNotFound("no such ticket")
        return row.game, list(row.members)

    async def decline(self, ticket_id: str, player_id: str) -> TicketInfo:
        """An invited party member declines: they leave the ticket's members (it is no longer theirs), and the party
        goes on without them: its rating is its members' again, and once everyone left has joined it searches (its
        place from now). TicketNotFound for a ticket the player is not in; PreconditionFailed already_joined for a
        member who joined (they cancel), ticket_ended for a ticket that ended."""
        game = await self._game_of(ticket_id, player_id)
        now = self.clock()
        async with self.engine.begin() as connection:
            await self._lock(connection, game)
            row = await self._locked_ticket(connection, ticket_id)
            if player_id not in row.members:  # (declined already, at the same moment)
                raise TicketNotFound("no such ticket of yours")
            if player_id in row.joined:
                raise PreconditionFailed(
                    "you joined this ticket: cancel it to leave (that ends it for the party)", code="already_joined"
                )
            if row.status != FORMING:
                raise PreconditionFailed(f"the ticket is {row.status} already", code="ticket_ended")
            await connection.execute(
                delete(TicketInviteRow).where(
                    TicketInviteRow.ticket_id == ticket_id, TicketInviteRow.player_id == player_id
                )
            )
            kept = [(m, n) for m, n in zip(row.members, row.names, strict=True) if m != player_id]
            members = [m for m, _ in kept]
            query = select(RatingRow.player_id, RatingRow.mu).where(
                RatingRow.game == game, RatingRow.player_id.in_(members)
            )
            mu = {r.player_id: r.mu for r in await connection.execute(query)}
            values: dict[str, Any] = {
                "members": members,
                "names": [n for _, n in kept],
                "rating": sum(mu.get(m, MU) for m in members) / len(members),
                "reason": DECLINED,
            }
            if len(row.joined) == len(members):
                values |= {"status": SEARCHING, "place": now}
            await self._touch(connection, [ticket_id], **values)
            return _ticket(await self._locked_ticket(connection, ticket_id))

    async def cancel(self, ticket_id: str, player_id: str) -> tuple[TicketInfo, set[str]]:
        """End a live ticket (any of its members may): a proposed one leaves its table, whose other tickets keep
        their seats. Returns the ticket and every ticket whose version moved. TicketNotFound for a ticket that is not
        the player's; PreconditionFailed (ticket_ended) for one already ended."""
        game = await self._game_of(ticket_id, player_id)
        now = self.clock()
        async with self.engine.begin() as connection:
            await self._lock(connection, game)
            row = await self._locked_ticket(connection, ticket_id)
            if row.status not in LIVE:
                raise PreconditionFailed(f"the ticket is {row.status} already", code="ticket_ended")
            changed = {ticket_id}
            if row.status == PROPOSED and await self._is_ready(connection, row.match_id):
                raise PreconditionFailed(
                    "everyone at the ticket's table took their seat up: the room is being made", code="room_being_made"
                )
            if row.status == PROPOSED and row.match_id:
                changed |= await self._leave_table(connection, row.match_id, {ticket_id})
            await self._end(connection, [ticket_id], CANCELLED, "cancelled", now)
            info = _ticket((await connection.execute(select(TicketRow).where(TicketRow.ticket_id == ticket_id))).one())
        return info, changed

    async def accept(self, ticket_id: str, player_id: str, origin: str = "", seed: str = "") -> tuple[TicketInfo, bool]:
        """The player takes up their seat at the ticket's table from ``origin`` (as a room's seat keeps it: the room
        made decides whether it is rated from its seats' origins); returns the ticket and whether the table is ready
        now (every person took up). PreconditionFailed (not_proposed) when the ticket has no table to take up."""
        game = await self._game_of(ticket_id, player_id)
        async with self.engine.begin() as connection:
            await self._lock(connection, game)
            row = await self._locked_ticket(connection, ticket_id)
            if row.status == MATCHED:  # (taken up already, and the room made: a retried take-up changes nothing)
                return _ticket(row), False
            if row.status != PROPOSED or not row.match_id:
                raise PreconditionFailed(
                    f"the ticket is {row.status}: there is no seat to take up", code="not_proposed"
                )
            match = (await connection.execute(select(MatchRow).where(MatchRow.match_id == row.match_id))).one()
            seats = [dict(seat) for seat in match.seats]
            for seat in seats:
                if seat.get("ticket") == ticket_id and seat.get("player") == player_id:
                    seat["accepted"], seat["origin"], seat["seed"] = True, origin, seed
            ready = _complete(seats)
            await connection.execute(
                update(MatchRow)
                .where(MatchRow.match_id == row.match_id)
                .values(seats=seats, status=READY if ready else PROPOSED)
            )
            await self._touch(connection, [t for t in {s.get("ticket") for s in seats} if t])
            info = _ticket((await connection.execute(select(TicketRow).where(TicketRow.ticket_id == ticket_id))).one())
        return info, ready

    @staticmethod
    async def _is_ready(connection: AsyncConnection, match_id: str) -> bool:
        query = select(MatchRow.status).where(MatchRow.match_id == match_id)
        return (await connection.execute(query)).scalar_one_or_none() in (READY, STARTING, STARTED)

    async def _game_of(self, ticket_id: str, player_id: str) -> str:
        async with self.engine.connect() as connection:
            row = (
                await connection.execute(
                    select(TicketRow.game, TicketRow.members).where(TicketRow.ticket_id == ticket_id)
                )
            ).first()
        if row is None or player_id not in row.members:
            raise TicketNotFound("no such ticket of yours")
        return row.game

    @staticmethod
    async def _locked_ticket(connection: AsyncConnection, ticket_id: str) -> Any:
        return (await connection.execute(select(TicketRow).where(TicketRow.ticket_id == ticket_id))).one()

    @staticmethod
    async def _touch(connection: AsyncConnection, ticket_ids: Sequence[str], **values: Any) -> None:
        if ticket_ids:
            await connection.execute(
                update(TicketRow)
                .where(TicketRow.ticket_id.in_(list(ticket_ids)))
                .values(version=TicketRow.version + 1, **values)
            )

    async def _end(self, connection: AsyncConnection, ticket_ids: Sequence[str], status: str, why: str, now: float):
        await self._touch(connection, ticket_ids, status=status, reason=why, ended_at=now)
        await connection.execute(delete(QueuedPlayerRow).where(QueuedPlayerRow.ticket_id.in_(list(ticket_ids))))
        await connection.execute(delete(TicketInviteRow).where(TicketInviteRow.ticket_id.in_(list(ticket_ids))))

    async def _leave_table(self, connection: AsyncConnection, match_id: str, leaving: set[str]) -> set[str]:
        """``leaving`` tickets' seats at a table are free again; a table with no ticket left goes. Returns the tickets
        still at it (their version moves: they hear that seats are being filled again)."""
        match = (await connection.execute(select(MatchRow).where(MatchRow.match_id == match_id))).one()
        seats = [_freed(s) if s.get("ticket") in leaving else dict(s) for s in match.seats]
        staying = {s["ticket"] for s in seats if s.get("ticket")}
        if staying:
            await connection.execute(
                update(MatchRow).where(MatchRow.match_id == match_id).values(seats=seats, status=PROPOSED)
            )
            await self._touch(connection, sorted(staying))
        else:
            await connection.execute(delete(MatchRow).where(MatchRow.match_id == match_id))
        return staying

    # -- the tick ---------------------------------------------------------------------------------------------------

    async def tick(
        self,
        game: str,
        planner: Planner,
        system_player: Callable[[float], Awaitable[str]],
        make_room: Callable[[MatchInfo], Awaitable[None]],
    ) -> TickReport | None:
        """One turn of ``game``'s queue, if no other node is taking it (None then): expire tickets, put back those
        whose people did not take their seats up in time, make tables (``planner``; ``system_player`` picks the kind
        for a table's mean rating) and start the tables every person took up (``make_room``)."""
        if not await self._busy(game):
            return TickReport([], [], [], [], set())
        now = self.clock()
        async with self.engine.begin() as connection:
            # One node turns a game's queue at a time: the turn's own row, skipped when another node holds it. Then
            # the row every change takes, waited for (a take-up or an enqueue holds it for a moment only), so that
            # changes never starve the turns.
            if not await self._lock(connection, game + TURN, skip=True):
                return None
            await self._lock(connection, game)
            report = TickReport([], [], [], [], set())
            rows = await connection.execute(
                select(TicketRow.ticket_id, TicketRow.trace).where(
                    TicketRow.game == game, TicketRow.status.in_((FORMING, SEARCHING)), TicketRow.expires_at <= now
                )
            )
            expired = [(row.ticket_id, row.trace) for row in rows]
            if expired:
                report.expired = [ticket_id for ticket_id, _ in expired]
                await self._end(connection, report.expired, EXPIRED, "expired", now)
                report.changed = set(report.expired)
                report.steps += [(trace, "ticket.expired", {}) for _, trace in expired]
            proposed = [
                _match(row)
                for row in await connection.execute(
                    select(MatchRow).where(MatchRow.game == game, MatchRow.status == PROPOSED).order_by(MatchRow.place)
                )
            ]
            for match in proposed:
                late = {
                    seat["ticket"]
                    for seat in match.seats
                    if seat.get("ticket") and not seat.get("accepted") and seat["by"] <= now
                }
                if not late:
                    continue
                report.changed |= await self._leave_table(connection, match.match_id, late) | late
                rows = await connection.execute(
                    select(TicketRow.ticket_id, TicketRow.trace, TicketRow.expires_at).where(
                        TicketRow.ticket_id.in_(sorted(late))
                    )
                )
                step = {"kickoff.match_id": match.match_id}
                over, back = [], []
                for row in rows:
                    (over if row.expires_at <= now else back).append(row)
                if over:  # (its time was up while it was proposed: it ends, rather than searching again)
                    await self._end(connection, [row.ticket_id for row in over], EXPIRED, "expired", now)
                    report.expired += [row.ticket_id for row in over]
                    report.steps += [(row.trace, "ticket.expired", step) for row in over]
                if back:  # at the back of the queue; match_id keeps the table it left, never offered it again
                    await self._touch(
                        connection,
                        [row.ticket_id for row in back],
                        status=SEARCHING,
                        place=now,
                        reason=NOT_TAKEN_UP,
                        returned=TicketRow.returned + 1,
                    )
                    report.returned += [row.ticket_id for row in back]
                    report.steps += [(row.trace, "ticket.returned", step) for row in back]
            await self._make_tables(connection, game, now, planner, system_player, report)
        await self._start(game, make_room, report)
        return report

    async def _busy(self, game: str) -> bool:
        """Whether ``game``'s queue has a live ticket (a turn of an empty queue locks and writes nothing)."""
        async with self.engine.connect() as connection:
            query = select(TicketRow.ticket_id).where(TicketRow.game == game, TicketRow.status.in_(LIVE)).limit(1)
            return (await connection.execute(query)).first() is not None

    async def start_ready(
        self, game: str, match_id: str, make_room: Callable[[MatchInfo], Awaitable[None]]
    ) -> TickReport:
        """Start the table ``match_id`` of ``game`` that every person took up (after the last take-up, at once)."""
        report = TickReport([], [], [], [], set())
        await self._start(game, make_room, report, only=match_id)
        return report

    async def _make_tables(
        self,
        connection: AsyncConnection,
        game: str,
        now: float,
        planner: Planner,
        system_player: Callable[[float], Awaitable[str]],
        report: TickReport,
    ) -> None:
        query = (
            select(TicketRow)
            .where(TicketRow.game == game, TicketRow.status == SEARCHING)
            .order_by(TicketRow.place)
            .limit(BATCH)
        )
        rows = [_ticket(row) for row in await connection.execute(query)]
        by_id = {ticket.ticket_id: ticket for ticket in rows}
        apart = await _apart(connection, game)

        def kept(people: Sequence[str]) -> frozenset[str]:
            return frozenset(other for person in people for other in apart.get(person, ()))

        waiting = [
            Waiting(
                t.ticket_id,
                len(t.members),
                t.rating,
                frozenset(t.counts),
                t.options_key,
                t.place,
                t.match_id,
                people=frozenset(t.members),
                apart=kept(t.members),
            )
            for t in rows
        ]
        open_tables = [
            _match(row)
            for row in await connection.execute(
                select(MatchRow).where(MatchRow.game == game, MatchRow.status == PROPOSED)
            )
        ]
        vacant: list[Vacant] = []
        tables_by_id: dict[str, MatchInfo] = {}
        for match in open_tables:
            free = tuple(seat["seat"] for seat in match.seats if not seat.get("ticket") and not seat.get("bot"))
            if not free:
                continue
            at = sorted({seat["ticket"] for seat in match.seats if seat.get("ticket")})
            ratings = [
                row.rating
                for row in await connection.execute(select(TicketRow.rating).where(TicketRow.ticket_id.in_(at)))
            ]
            teams = tuple(seat.get("team", seat["seat"]) for seat in match.seats)
            seated = [seat["player"] for seat in match.seats if seat.get("ticket")]
            vacant.append(
                Vacant(
                    match.match_id,
                    match.size,
                    match.options_key,
                    match.place,
                    teams,
                    free,
                    tuple(ratings),
                    people=frozenset(seated),
                    apart=kept(seated),
                )
            )
            tables_by_id[match.match_id] = match
        if not waiting and not vacant:
            return
        options_of = {t.options_key: t.options for t in rows} | {m.options_key: m.options for m in open_tables}
        rules = get_game(game)

        def teams(size: int, key: str) -> Sequence[int]:
            return rules.teams(size, rules.spec.resolve(size, options_of[key]))

        found: list[Any] = []  # (the webhook events of the tickets proposed a table)
        for table in planner(waiting, vacant, now, teams):
            tickets = [by_id[ticket] for ticket, _ in table.tickets]
            by = now + self.settings.take_up_seconds
            if table.match_id:
                match = tables_by_id[table.match_id]
                seats = {seat["seat"]: dict(seat) for seat in match.seats}
                kind = match.system_player
            else:
                table_teams = teams(table.size, table.key)
                seats = {s: {"seat": s, "team": table_teams[s]} for s in range(table.size)}
                ratings = [t.rating for t in tickets]
                kind = await system_player(sum(ratings) / len(ratings)) if table.bots else ""
            for ticket, (_, group) in zip(tickets, table.tickets, strict=True):
                for member, name, seat in zip(ticket.members, ticket.names, group, strict=True):
                    seats[seat] |= {
                        "ticket": ticket.ticket_id,
                        "player": member,
                        "name": name,
                        "nonce": secrets.token_hex(8),
                        "by": by,
                        "accepted": False,
                    }
            for seat in table.bots:
                seats[seat] |= {"bot": True}
            if not kind and table.bots:
                kind = await system_player(sum(table.ratings) / len(table.ratings))
            listed = [seats[s] for s in sorted(seats)]
            status = READY if _complete(listed) else PROPOSED
            if table.match_id:
                await connection.execute(
                    update(MatchRow)
                    .where(MatchRow.match_id == table.match_id)
                    .values(seats=listed, status=status, system_player=kind, spread=table.spread)
                )
                match_id = table.match_id
                report.changed |= {s["ticket"] for s in listed if s.get("ticket")}
            else:
                first = tickets[0]
                match_id = secrets.token_hex(8)
                await connection.execute(
                    insert(MatchRow),
                    [
                        {
                            "match_id": match_id,
                            "game": game,
                            "room_id": secrets.token_hex(8),
                            "status": status,
                            "size": table.size,
                            "mode": first.mode,
                            "options": first.options,
                            "options_key": first.options_key,
                            "system_player": kind,
                            "seats": listed,
                            "place": min(t.place for t in tickets),
                            "created_at": now,
                            "started_at": None,
                            "spread": table.spread,
                        }
                    ],
                )
            moved = [t.ticket_id for t in tickets]
            await self._touch(connection, moved, status=PROPOSED, match_id=match_id, reason="")
            report.changed |= set(moved)
            if self.outbox is not None:
                found += [
                    match_event(
                        ticket_id=t.ticket_id,
                        game=game,
                        match_id=match_id,
                        players=list(t.members),
                        take_up_by=by,
                        now=now,
                    )
                    for t in tickets
                ]
            step = {"kickoff.match_id": match_id, "kickoff.match.spread": table.spread}
            report.steps += [(t.trace, "ticket.proposed", step) for t in tickets]
            stored = (await connection.execute(select(MatchRow).where(MatchRow.match_id == match_id))).one()
            report.tables.append((_match(stored), table))
        if found:
            await self.outbox.write(connection, found)

    async def _start(
        self,
        game: str,
        make_room: Callable[[MatchInfo], Awaitable[None]],
        report: TickReport,
        only: str = "",
    ) -> None:
        """Make the rooms of ``game``'s tables that every person took up (``only``: that table), then mark each
        started and its tickets matched. A table is claimed first (starting, with the time of the claim), so that
        one node makes its room; a claim whose node died is claimed again after RECLAIM_SECONDS. The room is made
        outside the queue's lock (the rooms' store is written by the journal, which on SQLite waits for that lock's
        writer), and only the claim's own holder marks the table started. A ready table never changes (its tickets
        can no longer be cancelled nor put back); a room made twice all the same (a claim taken again from a node
        that was slow, not dead) is refused by the store the second time, and is the same room."""
        now = self.clock()
        async with self.engine.begin() as connection:
            await self._lock(connection, game)
            query = select(MatchRow).where(
                MatchRow.game == game,
                (MatchRow.status == READY)
                | ((MatchRow.status == STARTING) & (MatchRow.started_at <= now - RECLAIM_SECONDS)),
            )
            if only:
                query = query.where(MatchRow.match_id == only)
            claimed = [_match(row) for row in await connection.execute(query.order_by(MatchRow.place))]
            if claimed:
                await connection.execute(
                    update(MatchRow)
                    .where(MatchRow.match_id.in_([m.match_id for m in claimed]))
                    .values(status=STARTING, started_at=now)
                )
        for match in claimed:
            try:
                await make_room(match)
            except ResourceExhausted:  # (the node holds as many rooms as it may: claimed again later)
                continue
            started = self.clock()
            async with self.engine.begin() as connection:
                await self._lock(connection, game)
                marked = await connection.execute(
                    update(MatchRow)
                    .where(MatchRow.match_id == match.match_id, MatchRow.status == STARTING, MatchRow.started_at == now)
                    .values(status=STARTED, started_at=started)
                )
                if marked.rowcount != 1:  # (claimed again meanwhile: the one who claimed it marks it)
                    continue
                at = sorted({seat["ticket"] for seat in match.seats if seat.get("ticket")})
                await self._end(connection, at, MATCHED, "", started)
                rows = await connection.execute(select(TicketRow).where(TicketRow.ticket_id.in_(at)))
                tickets = [_ticket(row) for row in rows]
            report.started.append((replace(match, status=STARTED, started_at=started), tickets))
            report.changed |= set(at)


async def _check_friends(connection: AsyncConnection, leader: str, invited: Sequence[str]) -> None:
    """PreconditionFailed (party_not_friends) unless each of ``invited`` is the leader's friend (FriendService): a
    stranger, or a player either of the two blocked, is never invited."""
    query = select(func.count()).where(FriendshipRow.player_id == leader, FriendshipRow.friend_id.in_(list(invited)))
    if (await connection.execute(query)).scalar_one() != len(set(invited)):
        raise PreconditionFailed(
            "only your friends may be invited to your party (FriendService)", code="party_not_friends", field="party"
        )


async def _apart(connection: AsyncConnection, game: str) -> dict[str, set[str]]:
    """For each player in ``game``'s queue (or at one of its tables) who blocked someone or was blocked: those
    players, whom matchmaking keeps from their table."""
    queued = select(QueuedPlayerRow.player_id).where(QueuedPlayerRow.game == game)
    rows = await connection.execute(
        select(BlockRow.blocker, BlockRow.blocked).where(
            or_(BlockRow.blocker.in_(queued), BlockRow.blocked.in_(queued))
        )
    )
    apart: dict[str, set[str]] = {}
    for blocker, blocked in rows:
        apart.setdefault(blocker, set()).add(blocked)
        apart.setdefault(blocked, set()).add(blocker)
    return apart


def _freed(seat: dict[str, Any]) -> dict[str, Any]:
    """A seat its ticket left: free again, on its team."""
    return {"seat": seat["seat"], "team": seat.get("team", seat["seat"])}
