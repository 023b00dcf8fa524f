"""Each player's inbox: what happened for them while they were away, one item an event.

**Written with the change.** Every event the webhooks' outbox is handed (service/webhooks/outbox.py: a room's or a
tournament's line, a table the matchmaker found, a friend's request) that names a player, in its data's ``player_id``
or each of its ``players``, is an item for that player, inserted by :meth:`Inbox.write` in the transaction of the
change, whether or not any webhook endpoint wants it: a crash keeps both or neither, and an item is in the store, for
every node, after a restart or a failover. Events marked ``inbox=False`` are not items: a live game's turn (a
correspondence game's is), a clock reminder, a game's end (events.py marks them). A ``chat.message`` (a message to a
player away from a correspondence room) is the one exception to "one item an event": a player keeps at most one unread
such item a room, which a later message updates (:meth:`Inbox._merged`: its ``count`` and newest seq, keeping its id),
so that a talkative table cannot fill an inbox.

**Ids.** ``item_id`` is the store's own counter (an INTEGER primary key on SQLite, an identity on PostgreSQL): each
item written has a higher one, so a player's items newest first are ``ORDER BY item_id DESC`` on the index
(player_id, item_id), and a stream resumes after the last id it saw. On PostgreSQL two transactions may commit in the
other order than the one they took their ids in; a follower therefore keeps looking below the highest id it sent for
:data:`LOOKBACK_SECONDS` (the journal's longest commit is 7 s), and sends each id once.

**Followers.** A stream waits on an event that a write on this node sets once its transaction is done (at once), and
that :meth:`InboxWatch.run` sets when the count or highest id of a followed player's items changed in the store
(every :data:`POLL_SECONDS`: items written on other nodes, in one query for all the players followed here). The
streams a node serves are bounded (``max_followers``: ResourceExhausted, too_many_followers, past it).

**Retention.** Items older than ``keep_days`` and each player's items past the newest ``max_items`` are pruned by the
retention loop (service/store/retention.py, every 5 minutes, in batches), not at write time: a write costs its insert
and nothing more. A player's deletion takes their items with it, in its transaction.

**The backlog.** While metrics are exported, each retention pass (and the loop's start) also counts the unread items
of every player by kind (:meth:`Inbox.count_unread`: one grouped count over the table, a scan of it, every 5 minutes),
and the kickoff.inbox.unread gauge reports the last count from memory: reading metrics costs no query, and a write
nothing more.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from service.errors import InvalidRequest
from service.followers import Followers
from service.settings import InboxSettings
from service.store.journal import _away_is_unavailable
from service.store.models import InboxItemRow
from service.store.retention import Rule
from service.telemetry import Telemetry
from service.webhooks.events import CHAT_MESSAGE

log = logging.getLogger(__name__)

POLL_SECONDS = 1.0  # how often a node reads what changed for the players it streams (items other nodes wrote)
LOOKBACK_SECONDS = 10.0  # how long a follower looks below the highest id it sent (module docstring: Ids)
RECHECK_SECONDS = 0.05  # a local write woke a follower before its commit was visible: it looks again this soon
RECHECKS = 20  # (at most this many times, then the poll's round takes over)
DEFAULT_PAGE = 50
MERGE_LOOK = 100  # a player's unread chat items a new chat message looks through for its room's (Inbox._merged)


@dataclass(frozen=True)
class Item:
    """One item as the store holds it."""

    item_id: int
    player_id: str
    kind: str
    data: dict[str, Any]
    created_at: float
    read: bool


@dataclass(frozen=True)
class Page:
    """A page of a player's items, newest first; ``next_token`` ('' on the last page) and the unread count."""

    items: list[Item]
    next_token: str
    unread: int


def recipients(data: Any) -> list[str]:
    """The players an event's data names: its ``player_id``, and each of its ``players`` (once each)."""
    found: list[str] = []
    player = data.get("player_id")
    if isinstance(player, str) and player:
        found.append(player)
    for other in data.get("players") or ():
        if isinstance(other, str) and other and other not in found:
            found.append(other)
    return found


def _item(row: Any) -> Item:
    return Item(row.item_id, row.player_id, row.kind, dict(row.data), row.created_at, bool(row.read))


class _Follower:
    """One stream's wake-up: ``event`` is set when the player's items changed; ``local`` when by a write here (whose
    transaction may not be visible yet when the stream looks)."""

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.local = False


class InboxWatch:
    """The inbox streams this node serves, by player (see the module docstring: Followers)."""

    def __init__(self, inbox: Inbox, limit: int) -> None:
        self.inbox = inbox
        self._seen: dict[str, tuple[int, int]] = {}  # player -> (count, highest id) of their items, as last read
        self._followers: Followers[_Follower] = Followers(
            limit, "inbox streams", lambda player_id: _Follower(), lambda player_id: self._seen.pop(player_id, None)
        )
        self.follow = self._followers.follow

    @property
    def count(self) -> int:
        """The streams served now."""
        return self._followers.count

    def changed(self, players: Sequence[str] | set[str], *, local: bool = False) -> None:
        for player in players:
            for follower in self._followers.of(player):
                follower.local = follower.local or local
                follower.event.set()

    async def look(self) -> None:
        """One round: wake the followers of players whose items changed in the store since the last round."""
        followed = list(self._followers)
        for start in range(0, len(followed), 500):
            marks = await self.inbox.marks(followed[start : start + 500])
            changed = [p for p in followed[start : start + 500] if marks.get(p, (0, 0)) != self._seen.get(p)]
            for player in changed:
                self._seen[player] = marks.get(player, (0, 0))
            self.changed(changed)

    async def run(self) -> None:
        """Notice items other nodes wrote for the players followed here, forever."""
        while True:
            await asyncio.sleep(POLL_SECONDS)
            try:
                await self.look()
            except Exception as error:  # (the store is away: the next round tries again)
                log.warning("inbox streams: could not read what changed (%s)", type(error).__name__)


class Inbox:
    """The players' inboxes in the store behind ``engine`` (see the module docstring); ``now`` gives the time
    (retention's), ``telemetry`` counts the items written by kind."""

    def __init__(
        self,
        engine: AsyncEngine,
        settings: InboxSettings | None = None,
        *,
        now: Callable[[], float] = time.time,
        telemetry: Telemetry | None = None,
    ) -> None:
        self.engine = engine
        self.settings = settings or InboxSettings()
        self.now = now
        self.telemetry = telemetry or Telemetry()
        self.watch = InboxWatch(self, self.settings.max_followers)
        self._poller: asyncio.Task[None] | None = None
        self.unread: dict[str, int] | None = None  # unread items by kind, as the last count saw them (None: none yet)
        self.counting = self.telemetry.metering  # (the backlog is counted only while metrics are exported)
        if self.counting:
            self.telemetry.instruments.observe_inbox(lambda: self.unread)

    def start(self) -> None:
        if self._poller is None:
            self._poller = asyncio.get_running_loop().create_task(self.watch.run(), name="inbox watch")

    async def close(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._poller
            self._poller = None

    # -- writing, in the caller's transaction -----------------------------------------------------------------------

    async def write(self, connection: Any, events: Sequence[Any]) -> int:
        """An item for each player each event names (unless the event is not for the inbox), inserted in
        ``connection``'s transaction; how many. The followers of those players on this node look once it is done."""
        rows = []
        for event in events:
            if not event.inbox:
                continue
            for player in recipients(event.data):
                row = {"player_id": player, "kind": event.type, "data": dict(event.data), "created_at": event.time}
                if event.type == CHAT_MESSAGE:
                    if await self._merged(connection, row):
                        continue
                    row["data"]["count"] = 1
                rows.append(row)
        if not rows:
            return 0
        await connection.execute(insert(InboxItemRow), rows)
        counter = self.telemetry.instruments.inbox_items
        for row in rows:
            counter.add(1, {"kickoff.inbox.kind": row["kind"]})
        players = {row["player_id"] for row in rows}
        # (the followers here look at once: a look before the commit is visible looks again soon)
        asyncio.get_running_loop().call_soon(lambda: self.watch.changed(players, local=True))
        return len(rows)

    async def _merged(self, connection: Any, row: dict[str, Any]) -> bool:
        """A chat message for a player who has an unread ``chat.message`` item of that room already: that item is
        updated (one more in its ``count``, the newest message's seq, channel, sender and time) rather than a new one
        written, so that a talkative table leaves one unread item a room. Whether it was."""
        query = (
            select(InboxItemRow.item_id, InboxItemRow.data)
            .where(
                InboxItemRow.player_id == row["player_id"],
                InboxItemRow.kind == CHAT_MESSAGE,
                InboxItemRow.read.is_(False),
            )
            .order_by(InboxItemRow.item_id.desc())
            .limit(MERGE_LOOK)
        )
        room_id = row["data"].get("room_id")
        for item_id, data in (await connection.execute(query)).all():
            if data.get("room_id") == room_id:
                merged = {**row["data"], "count": int(data.get("count") or 1) + 1}
                await connection.execute(
                    update(InboxItemRow)
                    .where(InboxItemRow.item_id == item_id)
                    .values(data=merged, created_at=row["created_at"])
                )
                return True
        return False

    # -- reading and marking ----------------------------------------------------------------------------------------

    async def page(self, player_id: str, size: int, token: str = "", *, unread_only: bool = False) -> Page:
        """A page of ``player_id``'s items, newest first, after ``token`` (the previous page's next_token)."""
        if size < 0 or size > self.settings.page_size:
            raise InvalidRequest(
                f"page_size must be 0-{self.settings.page_size}", code="bad_page_size", field="page_size"
            )
        size = size or min(DEFAULT_PAGE, self.settings.page_size)
        if token and not (token.isdigit() and len(token) <= 19):
            raise InvalidRequest("page_token is not one this server gave", code="bad_page_token", field="page_token")
        query = select(InboxItemRow).where(InboxItemRow.player_id == player_id)
        if token:
            query = query.where(InboxItemRow.item_id < int(token))
        if unread_only:
            query = query.where(InboxItemRow.read.is_(False))
        query = query.order_by(InboxItemRow.item_id.desc()).limit(size + 1)
        async with _away_is_unavailable(), self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
            unread = await self._unread(connection, player_id)
        items = [_item(row) for row in rows[:size]]
        following = str(items[-1].item_id) if len(rows) > size else ""
        return Page(items, following, unread)

    async def _unread(self, connection: Any, player_id: str) -> int:
        query = select(func.count()).where(InboxItemRow.player_id == player_id, InboxItemRow.read.is_(False))
        return int((await connection.execute(query)).scalar_one())

    async def mark_read(self, player_id: str, item_ids: Sequence[int] = (), up_to: int = 0) -> int:
        """Mark ``item_ids`` and every item up to ``up_to`` of the player's read (others' ids change nothing); the
        unread count after it."""
        if any(item_id <= 0 for item_id in item_ids) or up_to < 0:
            raise InvalidRequest("item ids are positive", code="bad_item_id", field="item_ids")
        if not item_ids and not up_to:
            raise InvalidRequest(
                "name the items to mark read (item_ids) or the last of them (up_to_item_id)",
                code="nothing_to_mark",
                field="item_ids",
            )
        mine = (InboxItemRow.player_id == player_id, InboxItemRow.read.is_(False))
        async with _away_is_unavailable(), self.engine.begin() as connection:
            if item_ids:
                await connection.execute(
                    update(InboxItemRow).where(*mine, InboxItemRow.item_id.in_(set(item_ids))).values(read=True)
                )
            if up_to:
                await connection.execute(
                    update(InboxItemRow).where(*mine, InboxItemRow.item_id <= up_to).values(read=True)
                )
            return await self._unread(connection, player_id)

    async def delete(self, player_id: str, item_id: int) -> int:
        """Delete one of the player's items (an id not theirs, or gone, changes nothing); the unread count after it."""
        if item_id <= 0:
            raise InvalidRequest("item_id is required (a positive id)", code="bad_item_id", field="item_id")
        async with _away_is_unavailable(), self.engine.begin() as connection:
            await connection.execute(
                delete(InboxItemRow).where(InboxItemRow.player_id == player_id, InboxItemRow.item_id == item_id)
            )
            return await self._unread(connection, player_id)

    async def after(self, player_id: str, floor: int, sent: set[int] | dict[int, float]) -> list[Item]:
        """The player's items above ``floor`` not in ``sent``, oldest first."""
        query = (
            select(InboxItemRow)
            .where(InboxItemRow.player_id == player_id, InboxItemRow.item_id > floor)
            .order_by(InboxItemRow.item_id)
            .limit(self.settings.max_items + len(sent))
        )
        async with _away_is_unavailable(), self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [_item(row) for row in rows if row.item_id not in sent]

    async def marks(self, players: Sequence[str]) -> dict[str, tuple[int, int]]:
        """Each player's (count, highest id) of items: what changes when an item is written or pruned."""
        query = (
            select(InboxItemRow.player_id, func.count(), func.max(InboxItemRow.item_id))
            .where(InboxItemRow.player_id.in_(players))
            .group_by(InboxItemRow.player_id)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return {player: (int(count), int(highest or 0)) for player, count, highest in rows}

    def check_after(self, after: int) -> None:
        if after < 0:
            raise InvalidRequest("after_item_id must not be negative", code="bad_item_id", field="after_item_id")

    async def follow(
        self, player_id: str, after: int, follower: _Follower, clock: Callable[[], float] = time.monotonic
    ) -> AsyncIterator[Item]:
        """Each item of the player's written after ``after``, oldest first, then each new one as it is written, for
        as long as the caller iterates; ``follower``: the stream's place in the watch (``watch.follow(player_id)``,
        which refuses a stream past the node's bound). See the module docstring: Ids, Followers."""
        floor = after
        sent: dict[int, float] = {}  # ids sent above the floor, with when
        rechecks = 0  # looks left after a write here woke the stream (its commit may not have been visible)
        while True:
            follower.event.clear()
            items = await self.after(player_id, floor, sent)
            for item in items:
                sent[item.item_id] = clock()
                yield item
            # The floor rises to the highest id sent at least LOOKBACK_SECONDS ago: nothing below it can come.
            old = [item_id for item_id, at in sent.items() if clock() - at >= LOOKBACK_SECONDS]
            if old:
                floor = max(floor, *old)
                for item_id in [i for i in sent if i <= floor]:
                    del sent[item_id]
            rechecks = 0 if items else max(0, rechecks - 1)
            try:
                await asyncio.wait_for(follower.event.wait(), RECHECK_SECONDS if rechecks else None)
            except TimeoutError:
                continue
            if follower.local:
                follower.local = False
                rechecks = RECHECKS

    # -- retention and erasure --------------------------------------------------------------------------------------

    def retention(self) -> list[Rule]:
        """Items older than keep_days, and each player's items past the newest max_items (service/store/retention)."""
        keep = self.settings.keep_days * 86400.0
        ranked = select(
            InboxItemRow.item_id,
            func.row_number()
            .over(partition_by=InboxItemRow.player_id, order_by=InboxItemRow.item_id.desc())
            .label("position"),
        ).subquery()
        beyond = select(ranked.c.item_id).where(ranked.c.position > self.settings.max_items)
        return [
            Rule(
                "inbox items past their time", InboxItemRow, "item_id", lambda now: InboxItemRow.created_at < now - keep
            ),
            Rule(
                "inbox items past a player's count",
                InboxItemRow,
                "item_id",
                lambda now: InboxItemRow.item_id.in_(beyond),
            ),
        ]

    async def count_unread(self) -> None:
        """Count every player's unread items by kind (the retention loop's look, while metrics are exported: see the
        module docstring, The backlog)."""
        if not self.counting:
            return
        query = select(InboxItemRow.kind, func.count()).where(InboxItemRow.read.is_(False)).group_by(InboxItemRow.kind)
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        counted = {kind: int(count) for kind, count in rows}
        # (a kind counted before and now read through reports 0, not its last number)
        self.unread = {kind: 0 for kind in self.unread or {}} | counted

    async def erase(self, connection: Any, player_id: str, pseudonym: str, now: float) -> Callable[[], None]:
        """A player deletes themselves: their items go, in the deletion's transaction."""
        await connection.execute(delete(InboxItemRow).where(InboxItemRow.player_id == player_id))
        return lambda: None
