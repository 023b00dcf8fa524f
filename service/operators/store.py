"""What the operators' API reads of the store: the nodes and their leases (a cluster's, on PostgreSQL) and the live
rooms with the node that owns each. Reads only, each one bounded statement; paged by keys, so that rows made
meanwhile neither repeat nor push others off a page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, or_, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from service.errors import InvalidRequest
from service.store.leases import NOW
from service.store.models import BlockRow, FriendRequestRow, LeaseRow, PlayerRow, RoomRow

LIVE = ("waiting", "playing")


@dataclass(frozen=True)
class NodeInfo:
    node_id: str
    address: str
    alive: bool
    expires_at: float | None
    started_at: float | None
    leases: int


@dataclass(frozen=True)
class LeaseInfo:
    kind: str
    target_id: str
    node_id: str
    epoch: int
    tournament_id: str
    claimed_at: float
    orphaned: bool


@dataclass(frozen=True)
class LiveRoomInfo:
    room_id: str
    game: str
    status: str
    mode: str
    seats: int
    node_id: str
    epoch: int
    tournament_id: str
    created_at: float


def bad_page_token() -> InvalidRequest:
    return InvalidRequest("page_token is not one this server gave", code="bad_page_token", field="page_token")


NODES = (
    f"SELECT n.node_id, n.address, n.expires_at, n.started_at, n.expires_at > {NOW} AS alive, "
    "(SELECT count(*) FROM leases l WHERE l.node_id = n.node_id) AS leases FROM nodes n "
)


def _node(row: Any) -> NodeInfo:
    return NodeInfo(row.node_id, row.address, bool(row.alive), row.expires_at, row.started_at, int(row.leases))


async def nodes(engine: AsyncEngine, size: int, after: str) -> tuple[list[NodeInfo], str]:
    """The cluster's nodes by id after ``after``, each with its lease count (PostgreSQL: its clock says who lives)."""
    query = text(NODES + "WHERE n.node_id > :after ORDER BY n.node_id LIMIT :most")
    async with engine.connect() as connection:
        rows = (await connection.execute(query, {"after": after, "most": size + 1})).all()
    found = [_node(row) for row in rows]
    return found[:size], found[size - 1].node_id if len(found) > size else ""


async def node(engine: AsyncEngine, node_id: str) -> NodeInfo | None:
    """One node, or None when the cluster has never had it."""
    async with engine.connect() as connection:
        row = (await connection.execute(text(NODES + "WHERE n.node_id = :id"), {"id": node_id})).first()
    return None if row is None else _node(row)


async def leases(engine: AsyncEngine, node_id: str, size: int, after: str) -> tuple[list[LeaseInfo], str]:
    """The leases by (kind, id) after ``after`` (a page token: ``kind:id``), only ``node_id``'s when given."""
    kind, _, target = after.partition(":")
    if after and not target:
        raise bad_page_token()
    where = ["(l.kind, l.target_id) > (:kind, :target)"] if after else []
    if node_id:
        where.append("l.node_id = :node")
    query = text(
        "SELECT l.kind, l.target_id, l.node_id, l.epoch, l.tournament_id, l.claimed_at, "
        f"(l.node_id = '' OR coalesce(n.expires_at <= {NOW}, true)) AS orphaned "
        "FROM leases l LEFT JOIN nodes n ON n.node_id = l.node_id "
        + (f"WHERE {' AND '.join(where)} " if where else "")
        + "ORDER BY l.kind, l.target_id LIMIT :most"
    )
    async with engine.connect() as connection:
        rows = (
            await connection.execute(query, {"kind": kind, "target": target, "node": node_id, "most": size + 1})
        ).all()
    found = [
        LeaseInfo(
            row.kind, row.target_id, row.node_id, row.epoch, row.tournament_id, row.claimed_at, bool(row.orphaned)
        )
        for row in rows
    ]
    following = f"{found[size - 1].kind}:{found[size - 1].target_id}" if len(found) > size else ""
    return found[:size], following


async def live_rooms(
    engine: AsyncEngine, *, node_id: str, game: str, size: int, after: str
) -> tuple[list[LiveRoomInfo], str]:
    """The rooms waiting or playing, newest first, older than the room ``after`` (a page token: the last id of the
    page before), with their lease's node and epoch; only ``node_id``'s and ``game``'s when given."""
    lease = and_(LeaseRow.kind == "room", LeaseRow.target_id == RoomRow.room_id)
    query = (
        select(
            RoomRow.room_id,
            RoomRow.game,
            RoomRow.status,
            RoomRow.mode,
            RoomRow.seats,
            RoomRow.tournament_id,
            RoomRow.created_at,
            func.coalesce(LeaseRow.node_id, "").label("node_id"),
            func.coalesce(LeaseRow.epoch, 0).label("epoch"),
        )
        .select_from(RoomRow)
        .outerjoin(LeaseRow, lease)
        .where(RoomRow.status.in_(LIVE))
    )
    if game:
        query = query.where(RoomRow.game == game)
    if node_id:
        query = query.where(LeaseRow.node_id == node_id)
    async with engine.connect() as connection:
        if after:
            anchor = (await connection.execute(select(RoomRow.created_at).where(RoomRow.room_id == after))).scalar()
            if anchor is None:
                raise bad_page_token()
            query = query.where(
                or_(RoomRow.created_at < anchor, and_(RoomRow.created_at == anchor, RoomRow.room_id < after))
            )
        query = query.order_by(RoomRow.created_at.desc(), RoomRow.room_id.desc()).limit(size + 1)
        rows = (await connection.execute(query)).all()
    found = [
        LiveRoomInfo(
            row.room_id,
            row.game,
            row.status,
            row.mode,
            row.seats,
            row.node_id,
            row.epoch,
            row.tournament_id or "",
            row.created_at,
        )
        for row in rows
    ]
    return found[:size], found[size - 1].room_id if len(found) > size else ""


async def player_exists(engine: AsyncEngine, player_id: str) -> bool:
    """Whether the player exists (and has not deleted themselves)."""
    async with engine.connect() as connection:
        query = select(PlayerRow.player_id).where(PlayerRow.player_id == player_id, PlayerRow.deleted_at.is_(None))
        found = await connection.execute(query)
        return found.first() is not None


__all__ = ["LeaseInfo", "LiveRoomInfo", "NodeInfo", "leases", "live_rooms", "node", "nodes", "player_exists"]


@dataclass(frozen=True)
class Other:
    """Another player in a social report: who, their name now, when (the block, the request), and for a request
    whether it reached its recipient."""

    player_id: str
    name: str
    time: float
    delivered: bool = True


@dataclass(frozen=True)
class Social:
    """A player's blocks (made and suffered) and pending friend requests (received, sent), the latest first."""

    player_id: str
    name: str
    blocks: list[Other]
    blocked_by: list[Other]
    received: list[Other]
    sent: list[Other]


async def social(engine: AsyncEngine, player_id: str, most: int = 1000) -> Social | None:
    """The player's social report (None: no such player). Each list at most ``most`` rows (every list is bounded by
    a setting far below it)."""
    async with engine.connect() as connection:
        player = (
            await connection.execute(select(PlayerRow.name).where(PlayerRow.player_id == player_id))
        ).scalar_one_or_none()
        if player is None:
            return None

        async def others(column: Any, other: Any, when: Any, *where: Any, delivered: Any = None) -> list[Other]:
            fields = [other, PlayerRow.name, when] + ([delivered] if delivered is not None else [])
            query = (
                select(*fields)
                .join(PlayerRow, PlayerRow.player_id == other)
                .where(column == player_id, *where)
                .order_by(when.desc())
                .limit(most)
            )
            rows = await connection.execute(query)
            return [Other(row[0], row[1], row[2], bool(row[3]) if delivered is not None else True) for row in rows]

        pending = FriendRequestRow.status == "pending"
        return Social(
            player_id,
            player,
            await others(BlockRow.blocker, BlockRow.blocked, BlockRow.created_at),
            await others(BlockRow.blocked, BlockRow.blocker, BlockRow.created_at),
            await others(
                FriendRequestRow.recipient,
                FriendRequestRow.sender,
                FriendRequestRow.created_at,
                pending,
                delivered=FriendRequestRow.delivered,
            ),
            await others(
                FriendRequestRow.sender,
                FriendRequestRow.recipient,
                FriendRequestRow.created_at,
                pending,
                delivered=FriendRequestRow.delivered,
            ),
        )
