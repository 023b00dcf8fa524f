"""The friends store: friend codes, friend requests, friendships and blocks, in the database every node shares.

Every change between two players is one transaction that first locks both players' rows, in player-id order
(PostgreSQL: ``SELECT ... FOR UPDATE``; SQLite: the store's write transactions take turns in the process), so the
changes between two players happen one at a time on every node: two players who ask each other at once end friends
exactly once (the second request finds the first and accepts it), and a bound counted in the transaction holds when
one player sends many requests at once. A pending request is also unique per sender and recipient in the schema.

A block is told to nobody: a request from a player the recipient blocked is stored like any other, counted against
the sender's bounds alike, and stays pending on the sender's side (as a request nobody answers does) until the sender
withdraws it or the block is lifted (then it ends, as a declined request does); the recipient never sees it and no
event is written for it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from service.errors import Conflict, InvalidRequest, NotFound, PlayerNotFound, PreconditionFailed, ResourceExhausted
from service.settings import FriendSettings
from service.store.database import store_now
from service.store.models import (
    BlockRow,
    FriendCodeRow,
    FriendRequestRow,
    FriendshipRow,
    PlayerRow,
    SeatRow,
)
from service.store.retention import Rule
from service.webhooks.events import FRIEND_ACCEPTED, FRIEND_REQUESTED, friend_event

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base32: no I, L, O, U
CODE_LENGTH = 10  # 50 bits: guessing one player's code in bulk is hopeless at KICKOFF_FRIEND_CODE_LOOKUPS
_READ_AS = str.maketrans({"I": "1", "L": "1", "O": "0"})
PENDING, ACCEPTED, DECLINED, CANCELLED, ENDED = "pending", "accepted", "declined", "cancelled", "ended"
DAY = 86400.0
PAGE, MAX_PAGE = 100, 500


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def shown(code: str) -> str:
    """A code as players read it: two groups of five, ``7KX2M-9QHRT``."""
    return f"{code[:5]}-{code[5:]}"


def read_code(text: str) -> str | None:
    """A code as typed (any case, with or without its dash or spaces; I and L read as 1, O as 0), or None for text
    that is no code at all."""
    code = text.upper().replace("-", "").replace(" ", "").replace("_", "").translate(_READ_AS)
    if len(code) != CODE_LENGTH or any(character not in ALPHABET for character in code):
        return None
    return code


@dataclass(frozen=True)
class Person:
    """Another player as a list shows them: their id, their name now, and the time that matters (a friend's since,
    a request's sending, a block's making)."""

    player_id: str
    name: str
    time: float


@dataclass(frozen=True)
class Sent:
    """What a request did: a request pending (``request``), or a friendship (``friend``: the other had asked)."""

    request: Person | None = None
    friend: Person | None = None
    delivered: bool = True  # False: the recipient blocked the sender (the sender is never told)


def _not_yourself() -> InvalidRequest:
    return InvalidRequest("that is you", code="not_yourself", field="player_id")


class FriendStore:
    """Friend codes, requests, friendships and blocks in the database behind ``engine`` (see the module docstring).
    ``outbox`` writes the friend.requested and friend.accepted webhook events in the change's transaction (or None)."""

    def __init__(
        self,
        engine: AsyncEngine,
        clock: Callable[[], float],
        settings: FriendSettings | None = None,
        outbox: Any = None,
    ) -> None:
        self.engine = engine
        self.clock = clock
        self.settings = settings or FriendSettings()
        self.outbox = outbox

    def retention(self) -> list[Rule]:
        """What the pruning loop deletes: requests answered (or withdrawn, or ended) more than ``keep_days`` ago."""
        keep = self.settings.keep_days * DAY
        return [
            Rule(
                "answered friend requests",
                FriendRequestRow,
                "request_id",
                lambda now: and_(FriendRequestRow.status != PENDING, FriendRequestRow.ended_at < now - keep),
            )
        ]

    # -- codes ------------------------------------------------------------------------------------------------------

    async def code(self, player_id: str) -> tuple[str, float]:
        """The player's code and when it was made (made now, on the first ask)."""
        async with self.engine.connect() as connection:
            row = (await connection.execute(select(FriendCodeRow).where(FriendCodeRow.player_id == player_id))).first()
        if row is not None:
            return row.code, row.created_at
        return await self.rotate(player_id, only_if_none=True)

    async def rotate(self, player_id: str, *, only_if_none: bool = False) -> tuple[str, float]:
        """A new code for the player (the old one finds nobody any more). A code already taken (one chance in 2^50
        per code held) is drawn again."""
        for _ in range(5):
            now = self.clock()
            code = new_code()
            try:
                async with self.engine.begin() as connection:
                    row = (
                        await connection.execute(select(FriendCodeRow).where(FriendCodeRow.player_id == player_id))
                    ).first()
                    if row is not None and only_if_none:  # (made meanwhile by another call)
                        return row.code, row.created_at
                    if row is None:
                        values = {"player_id": player_id, "code": code, "created_at": now}
                        await connection.execute(insert(FriendCodeRow), [values])
                    else:
                        await connection.execute(
                            update(FriendCodeRow)
                            .where(FriendCodeRow.player_id == player_id)
                            .values(code=code, created_at=now)
                        )
                return code, now
            except IntegrityError:
                continue
        raise RuntimeError("could not draw a friend code that is free")

    async def find(self, code: str) -> str | None:
        """The player a code (as :func:`read_code` reads it) finds now, or None."""
        async with self.engine.connect() as connection:
            query = (
                select(FriendCodeRow.player_id)
                .join(PlayerRow, PlayerRow.player_id == FriendCodeRow.player_id)
                .where(FriendCodeRow.code == code, PlayerRow.deleted_at.is_(None))
            )
            return (await connection.execute(query)).scalar_one_or_none()

    async def shared_table(self, one: str, other: str) -> bool:
        """Whether the two players were seated in one room (their seats of it still name them)."""
        mine, theirs = SeatRow.__table__.alias("mine"), SeatRow.__table__.alias("theirs")
        query = (
            select(mine.c.room_id)
            .join(theirs, theirs.c.room_id == mine.c.room_id)
            .where(mine.c.player_id == one, theirs.c.player_id == other)
            .limit(1)
        )
        async with self.engine.connect() as connection:
            return (await connection.execute(query)).first() is not None

    # -- changes between two players --------------------------------------------------------------------------------

    @staticmethod
    async def _lock(connection: AsyncConnection, players: Sequence[str]) -> dict[str, str]:
        """Lock the players' rows for this transaction, in player-id order; their names, for those who are people
        and have not deleted themselves."""
        query = (
            select(PlayerRow.player_id, PlayerRow.name, PlayerRow.kind, PlayerRow.deleted_at)
            .where(PlayerRow.player_id.in_(sorted(set(players))))
            .order_by(PlayerRow.player_id)
        )
        if connection.dialect.name == "postgresql":
            query = query.with_for_update()
        rows = await connection.execute(query)
        return {row.player_id: row.name for row in rows if row.kind == "person" and row.deleted_at is None}

    async def _people(self, connection: AsyncConnection, one: str, other: str) -> dict[str, str]:
        if one == other:
            raise _not_yourself()
        names = await self._lock(connection, [one, other])
        if other not in names:
            raise PlayerNotFound("no such player", field="player_id")
        return names

    @staticmethod
    async def _count(connection: AsyncConnection, table: Any, *where: Any) -> int:
        return (await connection.execute(select(func.count()).select_from(table).where(*where))).scalar_one()

    async def _exists(self, connection: AsyncConnection, table: Any, *where: Any) -> bool:
        return await self._count(connection, table, *where) > 0

    async def _blocked(self, connection: AsyncConnection, blocker: str, blocked: str) -> bool:
        return await self._exists(connection, BlockRow, BlockRow.blocker == blocker, BlockRow.blocked == blocked)

    async def _friends(self, connection: AsyncConnection, one: str, other: str) -> bool:
        return await self._exists(
            connection, FriendshipRow, FriendshipRow.player_id == one, FriendshipRow.friend_id == other
        )

    async def _pending(self, connection: AsyncConnection, sender: str, recipient: str) -> Any:
        query = select(FriendRequestRow).where(
            FriendRequestRow.sender == sender,
            FriendRequestRow.recipient == recipient,
            FriendRequestRow.status == PENDING,
        )
        return (await connection.execute(query)).first()

    async def _room_for_friends(self, connection: AsyncConnection, player: str, other: str) -> None:
        """ResourceExhausted when either player has as many friends as they may (friends_full: the caller's own
        list; their_friends_full: the other's)."""
        most = self.settings.max_friends
        for who, code, text in ((player, "friends_full", "you have"), (other, "their_friends_full", "they have")):
            if await self._count(connection, FriendshipRow, FriendshipRow.player_id == who) >= most:
                raise ResourceExhausted(f"{text} as many friends as a player may ({most}); remove one first", code=code)

    async def _befriend(self, connection: AsyncConnection, request: Any, names: dict[str, str], now: float) -> Person:
        """The pending ``request`` accepted: the two are friends, and its sender hears of it."""
        await connection.execute(
            update(FriendRequestRow)
            .where(FriendRequestRow.request_id == request.request_id)
            .values(status=ACCEPTED, ended_at=now)
        )
        sender, recipient = request.sender, request.recipient
        await connection.execute(
            insert(FriendshipRow),
            [
                {"player_id": sender, "friend_id": recipient, "since": now},
                {"player_id": recipient, "friend_id": sender, "since": now},
            ],
        )
        await _friendships_changed(connection, [sender, recipient])
        await self._events(
            connection,
            [friend_event(FRIEND_ACCEPTED, recipient=sender, other=recipient, other_name=names[recipient], now=now)],
        )
        return Person(sender, names[sender], now)

    async def _events(self, connection: AsyncConnection, events: list[Any]) -> None:
        if self.outbox is not None:
            await self.outbox.write(connection, events)

    async def send(self, sender: str, recipient: str) -> Sent:
        """A request from ``sender`` to ``recipient`` (or, when ``recipient`` asked ``sender`` already, their
        friendship). See the module docstring for a recipient who blocked the sender."""
        settings = self.settings
        now = self.clock()
        async with self.engine.begin() as connection:
            names = await self._people(connection, sender, recipient)
            if await self._blocked(connection, sender, recipient):
                raise PreconditionFailed(
                    "you blocked this player: unblock them first", code="you_blocked", field="player_id"
                )
            if await self._friends(connection, sender, recipient):
                raise Conflict("you are friends already", code="already_friends")
            if await self._pending(connection, sender, recipient) is not None:
                raise Conflict("your request to this player is waiting for their answer", code="request_pending")
            silenced = await self._blocked(connection, recipient, sender)
            theirs = await self._pending(connection, recipient, sender)
            if theirs is not None and theirs.delivered and not silenced:  # (they asked first: accepted)
                await self._room_for_friends(connection, sender, recipient)
                await self._befriend(connection, theirs, names, now)
                return Sent(friend=Person(recipient, names[recipient], now))
            first = (
                await connection.execute(
                    select(func.count(), func.min(FriendRequestRow.created_at)).where(
                        FriendRequestRow.sender == sender, FriendRequestRow.created_at > now - DAY
                    )
                )
            ).one()
            if first[0] >= settings.per_day:
                wait = max(1.0, first[1] + DAY - now)
                raise ResourceExhausted(
                    f"you sent as many friend requests as a player may in a day ({settings.per_day})",
                    code="requests_per_day",
                    retry_after=wait,
                )
            mine = FriendRequestRow.sender == sender, FriendRequestRow.status == PENDING
            if await self._count(connection, FriendRequestRow, *mine) >= settings.max_pending_out:
                raise ResourceExhausted(
                    f"you have as many requests waiting for an answer as a player may ({settings.max_pending_out}); "
                    "cancel one first",
                    code="pending_requests",
                )
            received = (
                FriendRequestRow.recipient == recipient,
                FriendRequestRow.status == PENDING,
                FriendRequestRow.delivered.is_(True),
            )
            if await self._count(connection, FriendRequestRow, *received) >= settings.max_pending_in:
                raise ResourceExhausted(
                    "this player has as many requests waiting for their answer as a player may; try again later",
                    code="their_pending_requests",
                )
            await self._room_for_friends(connection, sender, recipient)
            row = {
                "request_id": secrets.token_hex(16),
                "sender": sender,
                "recipient": recipient,
                "status": PENDING,
                "delivered": not silenced,
                "created_at": now,
                "ended_at": None,
            }
            await connection.execute(insert(FriendRequestRow), [row])
            if not silenced:
                name = names[sender]
                event = friend_event(FRIEND_REQUESTED, recipient=recipient, other=sender, other_name=name, now=now)
                await self._events(connection, [event])
        return Sent(request=Person(recipient, names[recipient], now), delivered=not silenced)

    async def accept(self, player: str, sender: str) -> Person:
        """``player`` accepts ``sender``'s request: the two are friends (the friend, as the list shows them)."""
        now = self.clock()
        async with self.engine.begin() as connection:
            names = await self._people(connection, player, sender)
            request = await self._pending(connection, sender, player)
            if request is None or not request.delivered:
                raise NotFound("friend request", "no request from this player", code="request_not_found")
            await self._room_for_friends(connection, player, sender)
            await self._befriend(connection, request, names, now)
        return Person(sender, names[sender], now)

    async def _end_request(self, sender: str, recipient: str, status: str, *, seen_by: str) -> None:
        """The pending request from ``sender`` to ``recipient`` ends with ``status`` (NotFound when there is none that
        ``seen_by`` sees: a recipient never sees one that was not delivered)."""
        now = self.clock()
        async with self.engine.begin() as connection:
            if sender == recipient:
                raise _not_yourself()
            await self._lock(connection, [sender, recipient])
            request = await self._pending(connection, sender, recipient)
            if request is None or (seen_by == recipient and not request.delivered):
                raise NotFound("friend request", "no such request", code="request_not_found")
            await connection.execute(
                update(FriendRequestRow)
                .where(FriendRequestRow.request_id == request.request_id)
                .values(status=status, ended_at=now)
            )

    async def decline(self, player: str, sender: str) -> None:
        await self._end_request(sender, player, DECLINED, seen_by=player)

    async def cancel(self, player: str, recipient: str) -> None:
        await self._end_request(player, recipient, CANCELLED, seen_by=player)

    async def remove(self, player: str, friend: str) -> None:
        """The friendship ends, for both (NotFound not_friends when there is none)."""
        if player == friend:
            raise _not_yourself()
        async with self.engine.begin() as connection:
            await self._lock(connection, [player, friend])
            if not await self._unfriend(connection, player, friend):
                raise NotFound("friend", "this player is not your friend", code="not_friends")

    @staticmethod
    async def _unfriend(connection: AsyncConnection, one: str, other: str) -> bool:
        gone = await connection.execute(
            delete(FriendshipRow).where(
                or_(
                    and_(FriendshipRow.player_id == one, FriendshipRow.friend_id == other),
                    and_(FriendshipRow.player_id == other, FriendshipRow.friend_id == one),
                )
            )
        )
        if gone.rowcount:
            await _friendships_changed(connection, [one, other])
        return bool(gone.rowcount)

    @staticmethod
    async def _end_between(connection: AsyncConnection, one: str, other: str, now: float, *, only: Any = None) -> None:
        """Every pending request between the two (``only``: those that also meet it) ends."""
        between = or_(
            and_(FriendRequestRow.sender == one, FriendRequestRow.recipient == other),
            and_(FriendRequestRow.sender == other, FriendRequestRow.recipient == one),
        )
        where = [between, FriendRequestRow.status == PENDING] + ([only] if only is not None else [])
        await connection.execute(update(FriendRequestRow).where(*where).values(status=ENDED, ended_at=now))

    async def block(self, player: str, other: str) -> Person:
        """``player`` blocks ``other``: their friendship and every pending request between them end (a block made
        already is answered as it is)."""
        now = self.clock()
        async with self.engine.begin() as connection:
            names = await self._people(connection, player, other)
            found = (
                await connection.execute(
                    select(BlockRow.created_at).where(BlockRow.blocker == player, BlockRow.blocked == other)
                )
            ).first()
            if found is not None:
                return Person(other, names[other], found.created_at)
            if await self._count(connection, BlockRow, BlockRow.blocker == player) >= self.settings.max_blocks:
                raise ResourceExhausted(
                    f"you blocked as many players as a player may ({self.settings.max_blocks}); unblock one first",
                    code="blocks_full",
                )
            await connection.execute(insert(BlockRow), [{"blocker": player, "blocked": other, "created_at": now}])
            await self._unfriend(connection, player, other)
            await self._end_between(connection, player, other, now)
        return Person(other, names[other], now)

    async def unblock(self, player: str, other: str) -> None:
        """The block is lifted; requests ``other`` sent while it held (never delivered) end, as declined ones do."""
        now = self.clock()
        async with self.engine.begin() as connection:
            await self._lock(connection, [player, other])
            gone = await connection.execute(
                delete(BlockRow).where(BlockRow.blocker == player, BlockRow.blocked == other)
            )
            if not gone.rowcount:
                raise NotFound("block", "you have not blocked this player", code="not_blocked")
            await self._end_between(connection, player, other, now, only=FriendRequestRow.delivered.is_(False))

    # -- reading ----------------------------------------------------------------------------------------------------

    async def are_friends(self, one: str, other: str) -> bool:
        async with self.engine.connect() as connection:
            return await self._friends(connection, one, other)

    async def friends(self, player: str, page_size: int = 0, page_token: str = "") -> tuple[list[Person], str]:
        """A page of the player's friends, by player id, and the next page's token ("" on the last)."""
        size = _size(page_size)
        query = (
            select(FriendshipRow.friend_id, FriendshipRow.since, PlayerRow.name)
            .join(PlayerRow, PlayerRow.player_id == FriendshipRow.friend_id)
            .where(FriendshipRow.player_id == player, FriendshipRow.friend_id > page_token)
            .order_by(FriendshipRow.friend_id)
            .limit(size + 1)
        )
        async with self.engine.connect() as connection:
            rows = list(await connection.execute(query))
        people = [Person(row.friend_id, row.name, row.since) for row in rows[:size]]
        return people, people[-1].player_id if len(rows) > size else ""

    async def requests(self, player: str) -> tuple[list[Person], list[Person]]:
        """The player's pending requests, received (delivered ones only) and sent, the latest first."""
        async with self.engine.connect() as connection:
            received = await connection.execute(
                select(FriendRequestRow.sender, FriendRequestRow.created_at, PlayerRow.name)
                .join(PlayerRow, PlayerRow.player_id == FriendRequestRow.sender)
                .where(
                    FriendRequestRow.recipient == player,
                    FriendRequestRow.status == PENDING,
                    FriendRequestRow.delivered.is_(True),
                )
                .order_by(FriendRequestRow.created_at.desc())
                .limit(self.settings.max_pending_in)
            )
            sent = await connection.execute(
                select(FriendRequestRow.recipient, FriendRequestRow.created_at, PlayerRow.name)
                .join(PlayerRow, PlayerRow.player_id == FriendRequestRow.recipient)
                .where(FriendRequestRow.sender == player, FriendRequestRow.status == PENDING)
                .order_by(FriendRequestRow.created_at.desc())
                .limit(self.settings.max_pending_out)
            )
            return (
                [Person(row.sender, row.name, row.created_at) for row in received],
                [Person(row.recipient, row.name, row.created_at) for row in sent],
            )

    async def blocks(self, player: str, page_size: int = 0, page_token: str = "") -> tuple[list[Person], str]:
        """A page of the players ``player`` blocked, the latest first, and the next page's token."""
        size = _size(page_size)
        query = (
            select(BlockRow.blocked, BlockRow.created_at, PlayerRow.name)
            .join(PlayerRow, PlayerRow.player_id == BlockRow.blocked)
            .where(BlockRow.blocker == player)
            .order_by(BlockRow.created_at.desc(), BlockRow.blocked)
            .limit(size + 1)
        )
        if page_token:
            when, _, after = page_token.partition("|")
            try:
                moment = float(when)
            except ValueError:
                raise InvalidRequest(
                    "page_token is not one this server gave", code="bad_page_token", field="page_token"
                ) from None
            query = query.where(
                or_(BlockRow.created_at < moment, and_(BlockRow.created_at == moment, BlockRow.blocked > after))
            )
        async with self.engine.connect() as connection:
            rows = list(await connection.execute(query))
        people = [Person(row.blocked, row.name, row.created_at) for row in rows[:size]]
        token = f"{people[-1].time!r}|{people[-1].player_id}" if len(rows) > size else ""
        return people, token

    # -- a player's deletion ----------------------------------------------------------------------------------------

    async def erase(self, connection: AsyncConnection, player: str, pseudonym: str, now: float) -> None:
        """In a player's deletion's transaction: their code, friendships and blocks go, their pending requests end."""
        await connection.execute(delete(FriendCodeRow).where(FriendCodeRow.player_id == player))
        friends = select(FriendshipRow.friend_id).where(FriendshipRow.player_id == player)
        await _friendships_changed(connection, [player, *(await connection.execute(friends)).scalars()])
        await connection.execute(
            delete(FriendshipRow).where(or_(FriendshipRow.player_id == player, FriendshipRow.friend_id == player))
        )
        await connection.execute(delete(BlockRow).where(or_(BlockRow.blocker == player, BlockRow.blocked == player)))
        await connection.execute(
            update(FriendRequestRow)
            .where(
                or_(FriendRequestRow.sender == player, FriendRequestRow.recipient == player),
                FriendRequestRow.status == PENDING,
            )
            .values(status=ENDED, ended_at=now)
        )


def _size(page_size: int) -> int:
    if page_size < 0:
        raise InvalidRequest("page_size must not be negative", code="bad_page_size", field="page_size")
    return min(page_size or PAGE, MAX_PAGE)


async def _friendships_changed(connection: AsyncConnection, players: Sequence[str]) -> None:
    """Stamp the players whose friendships change in this transaction: presence's rounds read their friends again
    (service/presence)."""
    await connection.execute(
        update(PlayerRow)
        .where(PlayerRow.player_id.in_(sorted(set(players))))
        .values(presence_changed_at=store_now(connection.dialect.name))
    )
