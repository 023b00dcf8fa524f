"""Friends' presence: online, at a table, searching for a game, or away (with when last seen), derived from what each
node sees of its own players, never from what a client claims.

**What a node knows.** Each node holds, in memory, the players whose streams it serves (:meth:`Presence.hold`: a
seat's play or event stream, a matchmaking ticket's stream, an inbox or presence stream) and the players whose access
token it checked lately (:meth:`Presence.touch`). A player's state on a node is the highest of what they hold there:
at a table (which room) over searching over online; with nothing held, online for ``online_seconds`` after their
last call, then away.

**What a change costs the store.** A node writes a player's row (player, node, state, room, since, version) only when
that player's state on the node changes: one upsert, batched with the other changes of the same moment in one
transaction; a stream's heartbeat, a second stream of the same state or a call while online writes nothing. A node's
rows outlive it: a row of a node whose lease ran out (service/cluster: the nodes' rows) reads as away, last seen when
its lease ran out; a node starting under an id marks the rows its predecessor left away (:meth:`Presence.start`).

**Reading.** A player's presence is the highest state of their rows from live nodes. :class:`PresenceWatch` reads,
every ``poll_seconds``, what changed in the store since its last round: the presence rows stamped since (each row
carries the store's time it was taken, ``changed_at``), the players whose friendships, name or visibility changed since
(``players.presence_changed_at``, stamped in the transaction of that change) and the nodes' liveness (a node whose
lease ran out turns its players' rows away). Three small reads through their indexes, however many streams and
friends the node follows; then the whole presence of only those changed players that streams here follow, and the
friends again of only the followed players whose friendships changed. A round reads the changes of the
:data:`SLACK_SECONDS` before its last one again (a change stamped just before a round may commit just after it) and
counts each only once; every :data:`FULL_SECONDS` it reads everything again. A change on this node is written at
once, and read again at once for the streams here that follow that player. A stream then compares what it sent with
what the watch read, in memory, for the friends changed since its last look.

**Who sees what.** Only friends (a block ends a friendship: a blocked pair are never friends, so never see each
other); a player whose visibility is ``nobody`` reads to everyone as away with no time. At a table in an unlisted room,
the room id is shown only to a friend who may enter that room (service/rooms/private.py's :func:`may_enter` where the
room lives on this node; its seats in the store otherwise): others see "at a table" alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, or_, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from service.errors import InvalidRequest
from service.followers import Followers
from service.rooms.private import Visitor, may_enter
from service.settings import PresenceSettings
from service.store.database import store_now
from service.store.journal import _away_is_unavailable
from service.store.models import FriendshipRow, NodeRow, PlayerRow, PresenceRow, SeatRow
from service.telemetry import Telemetry

log = logging.getLogger(__name__)

AWAY, ONLINE, SEARCHING, AT_TABLE = "away", "online", "searching", "at_table"
RANK = {AWAY: 0, ONLINE: 1, SEARCHING: 2, AT_TABLE: 3}
FRIENDS, NOBODY = "friends", "nobody"
VISIBILITIES = (FRIENDS, NOBODY)
SLACK_SECONDS = 5.0  # a round reads the changes stamped this long before the last round too (commits after stamping)
FULL_SECONDS = 300.0  # how often a round reads everything the streams here follow again, changed or not
RESUME_SLACK_MS = 10_000  # a resumed stream resends what changed this long before its cursor (nodes' clocks differ)
BATCH = 500


@dataclass(frozen=True)
class Spot:
    """A player's state on one node: what a row holds."""

    state: str
    room_id: str = ""
    unlisted: bool = False


@dataclass(frozen=True)
class Changes:
    """What the store says changed since a time (:meth:`Presence.changes`): its clock ``now``; ``stamps``, each
    change's stamp by its key: ("row", player, node id) for a presence row, ("player", player) for a player's
    friendships, name or visibility; ``nodes``, each node's liveness."""

    now: float
    stamps: dict[tuple[str, ...], float]
    nodes: dict[str, bool]


@dataclass(frozen=True)
class View:
    """A player's presence as the store says (before who looks): their state, its room, since when (away: last seen,
    None when never seen), their name and visibility."""

    state: str
    room_id: str
    unlisted: bool
    since: float | None
    name: str
    visibility: str


@dataclass(frozen=True)
class Seen:
    """A friend's presence as one player may see it."""

    player_id: str
    name: str
    state: str
    room_id: str = ""
    since: float | None = None
    removed: bool = False

    @property
    def cursor(self) -> int:
        return int(self.since * 1000) if self.since is not None else 0


def merge(rows: Sequence[Any]) -> tuple[Spot, float | None]:
    """A player's presence from their rows (each with ``alive`` and the node's ``expires_at``): the highest state of
    the live nodes' rows and since when; else away, last seen at the latest of their rows (a dead node's: when its
    lease ran out)."""
    live = [row for row in rows if row.alive and row.state != AWAY]
    if live:
        best = max(live, key=lambda row: (RANK.get(row.state, 0), row.since))
        return Spot(best.state, best.room_id, bool(best.unlisted)), best.since
    seen = [
        row.since
        if row.state == AWAY or row.alive or row.expires_at is None
        else max(row.since, min(row.expires_at, time.time()))  # (a dead node's: when its lease ran out)
        for row in rows
    ]
    return Spot(AWAY), (max(seen) if seen else None)


class _Follower:
    """One stream's share of the watch: woken with the friends whose presence changed since it last looked
    (``everything``: its friends changed, look at all of them)."""

    def __init__(self, player_id: str) -> None:
        self.player_id = player_id
        self.event = asyncio.Event()
        self.changed: set[str] = set()
        self.everything = True


class PresenceWatch:
    """The presence streams this node serves, and what it last read of the friends they follow (module docstring:
    Reading)."""

    def __init__(self, presence: Presence, limit: int) -> None:
        self.presence = presence
        self._followers: Followers[_Follower] = Followers(limit, "presence streams", _Follower, self._unfollowed)
        self.follow = self._followers.follow
        self.friends: dict[str, set[str]] = {}  # followed player -> their friends, as last read
        self._followed_by: dict[str, set[str]] = {}  # those friends -> the followed players who have them
        self.views: dict[str, View] = {}  # those friends' presence, as last read
        self._mark: float | None = None  # the store's time at the last round (None: none yet)
        self._alive: dict[str, bool] = {}  # each node's liveness at the last round
        self._full_at = 0.0  # (monotonic) when the next round reads everything again
        self._stamps: dict[tuple[str, ...], float] = {}  # a change's key (Changes) -> its stamp, as the rounds met it
        self._starting: set[str] = set()  # players whose streams start, for the next read of starting streams
        self._start: asyncio.Task[None] | None = None  # that read (it waits for the one reading now)
        self._started: asyncio.Task[None] | None = None  # the read of starting streams under way

    @property
    def count(self) -> int:
        return self._followers.count

    def _unfollowed(self, player_id: str) -> None:
        """The last stream following ``player_id`` here ended: their friends are forgotten."""
        self._set_friends(player_id, set())
        self.friends.pop(player_id, None)

    async def look(self, only: Sequence[str] | None = None) -> None:
        """One round: what changed in the store since the last round (module docstring: Reading), or everything the
        streams here follow when a full read is due (the first round, then every :data:`FULL_SECONDS`); ``only``:
        those players' friends and their presence, read whole (a stream that starts). Wakes the streams whose friends
        or friends' presence changed."""
        if only is not None:
            found = await self.presence.friends_of(list(only))
            await self._read(sorted({friend for group in found.values() for friend in group}), found, list(only))
            return
        full = self._mark is None or time.monotonic() >= self._full_at
        changes = await self.presence.changes(None if full else self._mark - SLACK_SECONDS)
        followed = list(self._followers)
        if full:
            self._full_at = time.monotonic() + FULL_SECONDS
            self._fresh(changes)  # (the changes just before it are read whole now: not fresh at the next round)
            found = await self.presence.friends_of(followed)
            wanted = sorted({friend for group in found.values() for friend in group})
        else:
            fresh = self._fresh(changes)
            dead = {node for node, alive in changes.nodes.items() if not alive and self._alive.get(node, False)}
            dead |= {node for node in self._alive if node not in changes.nodes}  # (a node whose row went)
            if dead:
                fresh |= await self.presence.players_on(dead)
            followed = [player for player in followed if player in fresh or player not in self.friends]
            found = await self.presence.friends_of(followed)
            new = {friend for group in found.values() for friend in group if friend not in self.views}
            wanted = sorted({player for player in fresh if player in self._followed_by} | new)
        self._mark, self._alive = changes.now, changes.nodes
        await self._read(wanted, found, followed)

    async def starting(self, player_id: str) -> None:
        """Read the friends of a stream that starts and their presence, with those of every stream that starts
        meanwhile: one read at a time for all of them (thousands of streams opening at once, as after a restart, are
        a few batched reads, not a connection each)."""
        self._starting.add(player_id)
        if self._start is None:
            self._start = asyncio.get_running_loop().create_task(self._read_starting(self._started))
            self._start.add_done_callback(lambda task: task.cancelled() or task.exception())  # (heard by its waiters)
        await asyncio.shield(self._start)  # (a stream that goes away leaves the read to the others)

    async def _read_starting(self, previous: asyncio.Task[None] | None) -> None:
        if previous is not None:
            await asyncio.wait({previous})
        self._started, self._start = asyncio.current_task(), None
        players, self._starting = sorted(self._starting), set()
        await self.look(players)

    def _fresh(self, changes: Changes) -> set[str]:
        """The players of ``changes`` not read before (each row and player is met again in the next rounds'
        overlap: only its first sighting counts), and the sightings older than the overlap forgotten."""
        fresh = set()
        for key, at in changes.stamps.items():
            if self._stamps.get(key) != at:
                self._stamps[key] = at
                fresh.add(key[1])
        horizon = changes.now - 2 * SLACK_SECONDS
        for key in [key for key, at in self._stamps.items() if at < horizon]:
            del self._stamps[key]
        return fresh

    async def refresh(self, players: set[str]) -> None:
        """Read again the presence of ``players`` that streams here follow (they changed on this node): at once,
        without waiting for the round."""
        wanted = sorted(player for player in players if player in self.views)
        if wanted:
            await self._read(wanted, {}, [])

    async def _read(self, wanted: Sequence[str], friends: dict[str, set[str]], followed: Sequence[str]) -> None:
        """Read the presence of ``wanted``; ``friends``: the friends just read of the ``followed`` players. Wakes
        the streams of the players whose friends changed (to look at all of them) and of those following a friend
        whose presence changed (to look at that friend)."""
        views = await self.presence.views(wanted)
        for player in followed:
            followers = self._followers.of(player)
            if not followers:
                continue  # (their stream ended while this was read)
            mine = friends.get(player, set())
            if mine != self.friends.get(player):
                self._set_friends(player, mine)
                for follower in followers:
                    follower.everything = True
                    follower.event.set()
        for player, view in views.items():
            if player not in self._followed_by:
                continue  # (no stream here follows them now)
            if self.views.get(player) == view:
                continue
            self.views[player] = view
            for follower in [f for who in self._followed_by[player] for f in self._followers.of(who)]:
                follower.changed.add(player)
                follower.event.set()

    def _set_friends(self, player: str, friends: set[str]) -> None:
        """``player``'s friends are now ``friends`` (the reverse index too; a friend nobody here follows any more is
        forgotten)."""
        before = self.friends.get(player, set())
        for friend in friends - before:
            self._followed_by.setdefault(friend, set()).add(player)
        for friend in before - friends:
            having = self._followed_by.get(friend)
            if having is not None:
                having.discard(player)
                if not having:
                    del self._followed_by[friend]
                    self.views.pop(friend, None)
        self.friends[player] = friends


class Presence:
    """Presence on this node (see the module docstring). ``node_id``: this node's ('' on a single server);
    ``now``: the time rows are stamped with; ``room``: the room of an id when it lives on this node (for may_enter)."""

    def __init__(
        self,
        engine: AsyncEngine,
        node_id: str = "",
        settings: PresenceSettings | None = None,
        *,
        now: Callable[[], float] = time.time,
        telemetry: Telemetry | None = None,
        room: Callable[[str], Any] | None = None,
    ) -> None:
        self.engine = engine
        self.node_id = node_id
        self.settings = settings or PresenceSettings()
        self.now = now
        self.telemetry = telemetry or Telemetry()
        self.room = room or (lambda room_id: None)
        self.watch = PresenceWatch(self, self.settings.max_followers)
        self._holds: dict[str, Counter[Spot]] = {}
        self._touched: dict[str, float] = {}
        self._written: dict[str, Spot] = {}  # what this node's row of each player says
        self._dirty: set[str] = set()
        self._local: set[str] = set()  # players whose presence changed here since the last look at them
        self.kick = asyncio.Event()  # (set at each change here: the rounds start at once; tests wait on it)
        self._poller: asyncio.Task[None] | None = None
        self.writes = 0  # rows written by this node (the benchmark's count)
        self._upsert_statement: Any = None
        self.viewed = 0  # players whose whole presence this node read (the rounds' cost: tests and the benchmark)

    # -- what this node sees of its players ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def hold(self, player_id: str, state: str, room_id: str = "", *, unlisted: bool = False) -> Iterator[None]:
        """The player is ``state`` on this node while the block runs (a stream of theirs is open)."""
        if not player_id:
            yield
            return
        spot = Spot(state, room_id if state == AT_TABLE else "", unlisted and state == AT_TABLE)
        self._holds.setdefault(player_id, Counter())[spot] += 1
        self._changed(player_id)
        try:
            yield
        finally:
            held = self._holds.get(player_id)
            if held is not None:
                held[spot] -= 1
                if held[spot] <= 0:
                    del held[spot]
                if not held:
                    del self._holds[player_id]
            self._touched[player_id] = self.now()  # (online a while after their last stream ends)
            self._changed(player_id)

    def touch(self, player_id: str) -> None:
        """The player's access token was used here now: online for ``online_seconds``."""
        first = player_id not in self._touched
        self._touched[player_id] = self.now()
        if first or self._written.get(player_id, Spot(AWAY)).state == AWAY:
            self._changed(player_id)

    def _changed(self, player_id: str) -> None:
        self._dirty.add(player_id)
        self.kick.set()

    def spot(self, player_id: str) -> Spot:
        """The player's state on this node now."""
        held = self._holds.get(player_id)
        if held:
            return max(held, key=lambda spot: RANK[spot.state])
        touched = self._touched.get(player_id)
        if touched is not None and self.now() - touched < self.settings.online_seconds:
            return Spot(ONLINE)
        return Spot(AWAY)

    async def flush(self) -> int:
        """Write the rows of the players whose state here changed since the last flush (and of those whose last call
        is now older than ``online_seconds``): one upsert each, in one transaction. How many were written."""
        now = self.now()
        for player, at in list(self._touched.items()):
            if now - at >= self.settings.online_seconds and player not in self._holds:
                del self._touched[player]
                self._dirty.add(player)
        dirty, self._dirty = self._dirty, set()
        rows = []
        for player in sorted(dirty):
            spot = self.spot(player)
            if spot == self._written.get(player, Spot(AWAY)) and not (spot.state == AWAY and player in self._written):
                continue
            if spot.state == AWAY and player not in self._written:
                continue  # (never written here: nothing to say)
            rows.append((player, spot))
        if not rows:
            return 0
        try:
            async with self.engine.begin() as connection:
                await self._upsert(connection, rows, now)
        except Exception:
            self._dirty |= {player for player, _ in rows}  # (the next round tries again)
            raise
        counter = self.telemetry.instruments.presence_changes
        for player, spot in rows:
            if spot.state == AWAY:
                self._written.pop(player, None)
            else:
                self._written[player] = spot
            counter.add(1, {"kickoff.presence.state": spot.state})
        self.writes += len(rows)
        self._local.update(player for player, _ in rows)
        return len(rows)

    async def _upsert(self, connection: Any, rows: Sequence[tuple[str, Spot]], now: float) -> None:
        """One statement for all ``rows`` (its parameters sent as a batch): each player's row of this node."""
        parameters = [
            {"player_id": player, "state": spot.state, "room_id": spot.room_id, "unlisted": spot.unlisted, "since": now}
            for player, spot in rows
        ]
        await connection.execute(self._upserting(connection.dialect.name), parameters)

    def _upserting(self, dialect: str) -> Any:
        """The upsert of this node's rows, built once (building it costs more than running it)."""
        if self._upsert_statement is not None:
            return self._upsert_statement
        if dialect == "postgresql":
            from sqlalchemy.dialects.postgresql import insert
        else:
            from sqlalchemy.dialects.sqlite import insert  # type: ignore[assignment]
        stamp = store_now(dialect)
        statement = insert(PresenceRow).values(
            {name: bindparam(name) for name in ("player_id", "state", "room_id", "unlisted", "since")}
            | {"node_id": self.node_id, "version": 1, "changed_at": stamp}
        )
        self._upsert_statement = statement.on_conflict_do_update(
            index_elements=["player_id", "node_id"],
            set_={
                "state": statement.excluded.state,
                "room_id": statement.excluded.room_id,
                "unlisted": statement.excluded.unlisted,
                "since": statement.excluded.since,
                "version": PresenceRow.version + 1,
                "changed_at": stamp,
            },
        )
        return self._upsert_statement

    async def start(self) -> None:
        """Mark away the rows a previous process under this node's id left (it is gone), and start the rounds."""
        async with self.engine.begin() as connection:
            await connection.execute(
                update(PresenceRow)
                .where(PresenceRow.node_id == self.node_id, PresenceRow.state != AWAY)
                .values(
                    state=AWAY,
                    since=self.now(),
                    version=PresenceRow.version + 1,
                    changed_at=store_now(connection.dialect.name),
                )
            )
        if self._poller is None:
            self._poller = asyncio.get_running_loop().create_task(self.run(), name="presence")

    async def close(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._poller
            self._poller = None
        with contextlib.suppress(Exception):  # (its players are away: the store says so at once, not after a lease)
            for player in list(self._written):
                self._holds.pop(player, None)
                self._touched.pop(player, None)
                self._dirty.add(player)
            await self.flush()

    async def round(self) -> None:
        """One round: write what changed here, then read what the streams here follow."""
        await self.flush()
        await self.watch.look()

    async def run(self) -> None:
        """Forever: a change on this node is written at once (and the streams here that follow that player read it
        again at once); every ``poll_seconds`` a round reads what changed in the store (everything the streams here
        follow, every :data:`FULL_SECONDS`)."""
        clock = time.monotonic
        poll_at = clock()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.kick.wait(), max(0.0, poll_at - clock()))
            self.kick.clear()
            try:
                await self.flush()
                local, self._local = self._local, set()
                if clock() >= poll_at:
                    poll_at = clock() + self.settings.poll_seconds
                    await self.watch.look()
                elif local:
                    await self.watch.refresh(local)
            except Exception as error:  # (the store is away: the next round tries again)
                log.warning("presence: a round failed (%s)", type(error).__name__)

    # -- reading -------------------------------------------------------------------------------------------------------

    async def changes(self, since: float | None) -> Changes:
        """The store's clock, what changed after ``since`` (in that clock; None: in the :data:`SLACK_SECONDS` before
        now) and every node's liveness: three small reads through the indexes on the stamps, on one connection."""
        async with self.engine.connect() as connection:
            now = store_now(connection.dialect.name)
            at = (await connection.execute(select(now))).scalar_one()
            nodes = {
                row.node_id: bool(row.alive)
                for row in await connection.execute(select(NodeRow.node_id, (NodeRow.expires_at > now).label("alive")))
            }
            since = at - SLACK_SECONDS if since is None else since
            stamps: dict[tuple[str, ...], float] = {}
            rows = select(PresenceRow.player_id, PresenceRow.node_id, PresenceRow.changed_at).where(
                PresenceRow.changed_at > since
            )
            for player, node, stamp in await connection.execute(rows):
                stamps["row", player, node] = stamp
            players = select(PlayerRow.player_id, PlayerRow.presence_changed_at).where(
                PlayerRow.presence_changed_at > since
            )
            for player, stamp in await connection.execute(players):
                stamps["player", player] = stamp
        return Changes(at, stamps, nodes)

    async def players_on(self, nodes: set[str]) -> set[str]:
        """The players with a row of one of ``nodes`` (nodes whose lease ran out: their rows now read as away)."""
        query = select(PresenceRow.player_id).where(PresenceRow.node_id.in_(sorted(nodes)))
        async with self.engine.connect() as connection:
            return set((await connection.execute(query)).scalars())

    async def friends_of(self, players: Sequence[str]) -> dict[str, set[str]]:
        """Each player's friends (one query per 500 players)."""
        found: dict[str, set[str]] = {player: set() for player in players}
        for start in range(0, len(players), BATCH):
            query = select(FriendshipRow.player_id, FriendshipRow.friend_id).where(
                FriendshipRow.player_id.in_(players[start : start + BATCH])
            )
            async with self.engine.connect() as connection:
                for player, friend in await connection.execute(query):
                    found[player].add(friend)
        return found

    async def views(self, players: Sequence[str]) -> dict[str, View]:
        """The players' presence as the store says (one query per 500 players)."""
        found: dict[str, View] = {}
        for start in range(0, len(players), BATCH):
            batch = players[start : start + BATCH]
            self.viewed += len(batch)
            async with self.engine.connect() as connection:
                alive = or_(PresenceRow.node_id == "", NodeRow.expires_at > store_now(connection.dialect.name))
                query = (
                    select(
                        PlayerRow.player_id,
                        PlayerRow.name,
                        PlayerRow.presence_visibility,
                        PresenceRow.state,
                        PresenceRow.room_id,
                        PresenceRow.unlisted,
                        PresenceRow.since,
                        NodeRow.expires_at,
                        alive.label("alive"),
                    )
                    .select_from(PlayerRow)
                    .outerjoin(PresenceRow, PresenceRow.player_id == PlayerRow.player_id)
                    .outerjoin(NodeRow, NodeRow.node_id == PresenceRow.node_id)
                    .where(PlayerRow.player_id.in_(batch), PlayerRow.deleted_at.is_(None))
                )
                rows = (await connection.execute(query)).all()
            by_player: dict[str, list[Any]] = {}
            names: dict[str, tuple[str, str]] = {}
            for row in rows:
                names[row.player_id] = (row.name, row.presence_visibility)
                if row.state is not None:
                    by_player.setdefault(row.player_id, []).append(row)
            for player, (name, visibility) in names.items():
                spot, since = merge(by_player.get(player, []))
                found[player] = View(spot.state, spot.room_id, spot.unlisted, since, name, visibility)
        return found

    async def seen_by(self, viewer: str, player_id: str, view: View) -> Seen:
        """``view`` (``player_id``'s presence) as ``viewer``, one of their friends, may see it."""
        if view.visibility == NOBODY:
            return Seen(player_id, view.name, AWAY)
        room_id = view.room_id
        if room_id and view.unlisted and not await self.may_see_room(viewer, room_id):
            room_id = ""
        return Seen(player_id, view.name, view.state, room_id, view.since)

    async def may_see_room(self, viewer: str, room_id: str) -> bool:
        """Whether ``viewer`` may enter the unlisted room ``room_id``: may_enter where the room lives here; its
        seats in the store otherwise (a player seated there is the only one may_enter lets in by player id)."""
        room = self.room(room_id)
        if room is not None:
            return may_enter(room, Visitor(player_id=viewer))
        query = select(SeatRow.room_id).where(SeatRow.room_id == room_id, SeatRow.player_id == viewer).limit(1)
        async with self.engine.connect() as connection:
            return (await connection.execute(query)).first() is not None

    async def page(self, player_id: str, friends: Sequence[str]) -> list[Seen]:
        """The presence of ``friends`` (the player's, in this order) as the player sees it."""
        async with _away_is_unavailable():
            views = await self.views(list(friends))
            return [await self.seen_by(player_id, friend, views[friend]) for friend in friends if friend in views]

    def check_page_size(self, size: int) -> int:
        if size < 0 or size > self.settings.page_size:
            raise InvalidRequest(
                f"page_size must be 0-{self.settings.page_size}", code="bad_page_size", field="page_size"
            )
        return size or min(100, self.settings.page_size)

    # -- visibility ----------------------------------------------------------------------------------------------------

    async def visibility(self, player_id: str) -> str:
        query = select(PlayerRow.presence_visibility).where(PlayerRow.player_id == player_id)
        async with _away_is_unavailable(), self.engine.connect() as connection:
            return (await connection.execute(query)).scalar_one_or_none() or FRIENDS

    async def set_visibility(self, player_id: str, visibility: str) -> str:
        if visibility not in VISIBILITIES:
            raise InvalidRequest("visibility must be friends or nobody", code="bad_visibility", field="visibility")
        async with _away_is_unavailable(), self.engine.begin() as connection:
            await connection.execute(
                update(PlayerRow)
                .where(PlayerRow.player_id == player_id)
                .values(presence_visibility=visibility, presence_changed_at=store_now(connection.dialect.name))
            )
        self._local.add(player_id)
        self.kick.set()  # (this node's streams see it at once; the others at their next round)
        return visibility

    # -- following -----------------------------------------------------------------------------------------------------

    async def follow(self, player_id: str, after: int, follower: _Follower) -> AsyncIterator[Seen]:
        """Each friend's presence now (resumed after a cursor: those changed since, and those shown without a time),
        then each change, for as long as the caller iterates. ``follower``: ``watch.follow(player_id)``'s."""
        watch = self.watch
        async with _away_is_unavailable():
            await watch.starting(player_id)
        sent: dict[str, Seen] = {}
        first = True
        while True:
            follower.event.clear()
            friends = watch.friends.get(player_id, set())
            if follower.everything:  # (the first look, or its friends changed: every friend is looked at)
                follower.everything, follower.changed = False, set()
                for gone in sorted(set(sent) - friends):
                    removed = Seen(gone, sent.pop(gone).name, AWAY, since=self.now(), removed=True)
                    yield removed
                looking = sorted(friends)
            else:  # (only the friends whose presence changed since its last look)
                looking, follower.changed = sorted(follower.changed & friends), set()
            for friend in looking:
                view = watch.views.get(friend)
                if view is None:
                    continue
                seen = await self.seen_by(player_id, friend, view)
                if sent.get(friend) == seen:
                    continue
                sent[friend] = seen
                if first and after and seen.since is not None and seen.cursor <= after - RESUME_SLACK_MS:
                    continue  # (the client saw it before it came back)
                yield seen
            first = False
            await follower.event.wait()


def holding(players: Any, player_id: str, state: str, room_id: str = "", *, unlisted: bool = False) -> Any:
    """``players.presence.hold(...)`` where the server keeps presence (and the player is known); else nothing."""
    presence = getattr(players, "presence", None) if players is not None else None
    if presence is None or not player_id:
        return contextlib.nullcontext()
    return presence.hold(player_id, state, room_id, unlisted=unlisted)


def seat_player(room: Any, seat: int | None) -> str:
    """The signed-in player holding ``seat`` of ``room`` ('' for a spectator, an anonymous seat or a system one)."""
    if seat is None:
        return ""
    seats = getattr(room, "seats", ())
    return getattr(seats[seat], "player", "") or "" if 0 <= seat < len(seats) else ""
