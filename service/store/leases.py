"""The lease table's statements (PostgreSQL only: a cluster's nodes share one PostgreSQL, and its clock).

Every time here is the database's clock, in seconds since the Unix epoch (``clock_timestamp()``), so nodes whose own
clocks disagree still agree on who is alive. A node's row (``nodes``) says until when the node is alive; a live room's
or tournament's row (``leases``) names its owner node and the lease's epoch. A lease is *orphaned* when its node's row
has expired (or is gone), or when its node gave it back (``node_id`` ''): then any live node may claim it, raising its
epoch. A claim is one UPDATE, so two nodes claiming at once cannot both win; and it waits for any commit of the old
owner that holds the lease row share-locked (the journal's fence), so the claimer reads every line that owner wrote.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from service.store.database import POSTGRESQL_NOW

NOW = POSTGRESQL_NOW
# a lease's node is not alive: it gave the lease back, or its row expired (a node's row is never deleted). Written so
# that the index on leases.node_id finds the orphans: a sweep costs what there is to claim, not the live rooms.
ORPHANED = f"(l.node_id = '' OR l.node_id IN (SELECT node_id FROM nodes WHERE expires_at <= {NOW}))"
# since when a lease is orphaned: its node's expiry, or when it was given back
ORPHANED_SINCE = (
    "CASE WHEN l.node_id = '' THEN l.claimed_at ELSE (SELECT n.expires_at FROM nodes n WHERE n.node_id = l.node_id) END"
)
# the claiming node is alive itself: a node that missed its renewals claims nothing
ALIVE = (
    f"EXISTS (SELECT 1 FROM nodes m WHERE m.node_id = :me AND m.incarnation = :incarnation AND m.expires_at > {NOW})"
)


class NodeIdInUse(RuntimeError):
    """Another live process holds this node id."""


@dataclass(frozen=True)
class Owner:
    """Who owns a room or tournament: ``node_id`` ('' for nobody now), where it listens, whether it is alive, and the
    lease's epoch."""

    node_id: str
    address: str
    alive: bool
    epoch: int
    tournament_id: str = ""  # a tournament's game: the tournament it belongs to


@dataclass(frozen=True)
class Claimed:
    kind: str
    target_id: str
    epoch: int
    tournament_id: str


class LeaseTable:
    """One node's statements on the ``nodes`` and ``leases`` tables."""

    def __init__(self, engine: AsyncEngine, node_id: str, address: str, incarnation: str, lease_seconds: float) -> None:
        self.engine = engine
        self.node_id = node_id
        self.address = address
        self.incarnation = incarnation
        self.lease_seconds = lease_seconds

    def _me(self, **values: object) -> dict[str, object]:
        return {"me": self.node_id, "incarnation": self.incarnation, "lease": self.lease_seconds, **values}

    async def join(self) -> tuple[float, float] | None:
        """Take this node's row for this incarnation, alive for one lease from now. Returns None when taken, else
        (when the live predecessor's row expires, the database's time now): another incarnation of this node id,
        alive a while yet (a crashed process of this node, or another process given the same id)."""
        async with self.engine.begin() as connection:
            row = (
                await connection.execute(
                    text(
                        f"SELECT address, incarnation, expires_at, {NOW} AS now FROM nodes "
                        "WHERE node_id = :me FOR UPDATE"
                    ),
                    self._me(),
                )
            ).first()
            if row is not None and row.incarnation != self.incarnation and row.expires_at > row.now:
                return row.expires_at, row.now
            await connection.execute(
                text(
                    f"INSERT INTO nodes (node_id, address, incarnation, expires_at, started_at) "
                    f"VALUES (:me, :address, :incarnation, {NOW} + :lease, {NOW}) "
                    "ON CONFLICT (node_id) DO UPDATE SET address = excluded.address, "
                    "incarnation = excluded.incarnation, expires_at = excluded.expires_at, "
                    "started_at = excluded.started_at"
                ),
                self._me(address=self.address),
            )
        return None

    async def renew(self) -> bool:
        """Push this node's expiry one lease ahead; False when the row is no longer this incarnation's."""
        async with self.engine.begin() as connection:
            result = await connection.execute(
                text(
                    f"UPDATE nodes SET expires_at = {NOW} + :lease WHERE node_id = :me AND incarnation = :incarnation"
                ),
                self._me(),
            )
        return result.rowcount == 1

    async def held(self) -> dict[tuple[str, str], int]:
        """Every lease the store says this node holds, with its epoch."""
        async with self.engine.connect() as connection:
            rows = await connection.execute(
                text("SELECT kind, target_id, epoch FROM leases WHERE node_id = :me"), self._me()
            )
            return {(row.kind, row.target_id): row.epoch for row in rows}

    async def locate(self, kind: str, target_id: str) -> Owner | None:
        """The owner of a live room or tournament; None when it has no lease (it finished, or never was)."""
        async with self.engine.connect() as connection:
            row = (
                await connection.execute(
                    text(
                        f"SELECT l.node_id, l.epoch, l.tournament_id, coalesce(n.address, '') AS address, "
                        f"coalesce(n.expires_at > {NOW}, false) AS alive "
                        "FROM leases l LEFT JOIN nodes n ON n.node_id = l.node_id "
                        "WHERE l.kind = :kind AND l.target_id = :target"
                    ),
                    {"kind": kind, "target": target_id},
                )
            ).first()
        if row is None:
            return None
        return Owner(row.node_id, row.address, bool(row.alive) and row.node_id != "", row.epoch, row.tournament_id)

    async def claim(self, kind: str, target_id: str) -> list[Claimed]:
        """Claim one orphaned lease (a tournament's comes with its rooms'); [] when it is not orphaned (any more) or
        this node is not alive."""
        async with self.engine.begin() as connection:
            claimed = await self._claim(
                connection,
                "l.kind = :kind AND l.target_id = :target",
                {"kind": kind, "target": target_id},
            )
            return claimed + await self._claim_games(connection, claimed)

    async def reclaim(self, kind: str, target_id: str) -> list[Claimed]:
        """Claim again a lease that names this node but that this node does not know it holds (a claim whose caller
        went away between the store's answer and the node's note of it): its epoch is raised, so that nothing written
        under the old one can follow."""
        async with self.engine.begin() as connection:
            claimed = [
                Claimed(row.kind, row.target_id, row.epoch, row.tournament_id)
                for row in await connection.execute(
                    text(
                        f"UPDATE leases SET epoch = epoch + 1, claimed_at = {NOW} "
                        f"WHERE kind = :kind AND target_id = :target AND node_id = :me AND {ALIVE} "
                        "RETURNING kind, target_id, epoch, tournament_id"
                    ),
                    self._me(kind=kind, target=target_id),
                )
            ]
            return claimed + await self._claim_games(connection, claimed)

    async def claim_orphans(self, grace: float, most: int = 1000) -> list[Claimed]:
        """Claim this node's part of the orphaned leases, skipping rows another node is claiming (a tournament's
        games come with it, never alone). The live nodes split the orphans by a hash of their ids, each taking the
        part of its rank among them, so the survivors of a dead node share its rooms in one sweep without talking
        to each other; an orphan left over ``grace`` seconds (its part's node died too, or the nodes changed) goes to
        whoever sweeps first."""
        async with self.engine.begin() as connection:
            claimed = await self._claim(
                connection,
                "NOT (l.kind = 'room' AND l.tournament_id <> '') AND ("
                f"  mod(abs(hashtext(l.target_id)), (SELECT count(*) FROM nodes WHERE expires_at > {NOW})) = ("
                f"    SELECT count(*) FROM nodes WHERE expires_at > {NOW} AND node_id < :me)"
                f"  OR {ORPHANED_SINCE} < {NOW} - :grace)",
                {"grace": grace},
                most=most,
            )
            return claimed + await self._claim_games(connection, claimed)

    async def _claim(self, connection: object, where: str, values: dict[str, object], most: int = 1) -> list[Claimed]:
        rows = await connection.execute(  # type: ignore[attr-defined]
            text(
                "UPDATE leases SET node_id = :me, epoch = epoch + 1, claimed_at = " + NOW + " "
                "WHERE (kind, target_id) IN ("
                f"  SELECT l.kind, l.target_id FROM leases l WHERE {where} AND {ORPHANED} "
                "  ORDER BY l.claimed_at LIMIT :most FOR UPDATE SKIP LOCKED"
                f") AND {ALIVE} "
                "RETURNING kind, target_id, epoch, tournament_id"
            ),
            self._me(most=most, **values),
        )
        return [Claimed(row.kind, row.target_id, row.epoch, row.tournament_id) for row in rows]

    async def _claim_games(self, connection: object, claimed: list[Claimed]) -> list[Claimed]:
        """The live rooms of the tournaments just claimed, claimed with them (a tournament and its game share a
        node)."""
        tournaments = [c.target_id for c in claimed if c.kind == "tournament"]
        if not tournaments:
            return []
        rows = await connection.execute(  # type: ignore[attr-defined]
            text(
                f"UPDATE leases SET node_id = :me, epoch = epoch + 1, claimed_at = {NOW} "
                "WHERE kind = 'room' AND tournament_id = ANY(:tournaments) "
                "RETURNING kind, target_id, epoch, tournament_id"
            ),
            self._me(tournaments=tournaments),
        )
        return [Claimed(row.kind, row.target_id, row.epoch, row.tournament_id) for row in rows]

    async def inherit(self) -> list[Claimed]:
        """Claim the leases a previous process of this node id left (it died: :meth:`join` waited for its row to
        expire), raising their epochs so that nothing that process might still send is written."""
        async with self.engine.begin() as connection:
            rows = await connection.execute(
                text(
                    f"UPDATE leases SET epoch = epoch + 1, claimed_at = {NOW} WHERE node_id = :me AND {ALIVE} "
                    "RETURNING kind, target_id, epoch, tournament_id"
                ),
                self._me(),
            )
            return [Claimed(row.kind, row.target_id, row.epoch, row.tournament_id) for row in rows]

    async def adopt_unleased(self) -> int:
        """Give a lease (orphaned, claimable by any node) to every live room and tournament the store holds without
        one: those stored before the cluster's leases existed, or by a single node without them."""
        async with self.engine.begin() as connection:
            tournaments = await connection.execute(
                text(
                    "INSERT INTO leases (kind, target_id, node_id, epoch, tournament_id, claimed_at) "
                    f"SELECT 'tournament', t.tournament_id, '', 0, '', {NOW} FROM tournaments t "
                    "WHERE t.status <> 'finished' ON CONFLICT DO NOTHING"
                )
            )
            rooms = await connection.execute(
                text(
                    "INSERT INTO leases (kind, target_id, node_id, epoch, tournament_id, claimed_at) "
                    f"SELECT 'room', r.room_id, '', 0, coalesce(r.tournament_id, ''), {NOW} FROM rooms r "
                    "WHERE r.status <> 'finished' ON CONFLICT DO NOTHING"
                )
            )
        return tournaments.rowcount + rooms.rowcount

    async def census(self) -> dict[str, int]:
        """What the operators' gauges report: the nodes alive (``"node"``), and the leases orphaned for longer than a
        lease, by kind (``"room"``, ``"tournament"``; a kind with none is left out). One read, through the indexes a
        sweep uses: it costs what there is to count among the orphans, not the live rooms."""
        async with self.engine.connect() as connection:
            rows = await connection.execute(
                text(
                    f"SELECT 'node' AS kind, count(*) AS n FROM nodes WHERE expires_at > {NOW} "
                    f"UNION ALL SELECT l.kind, count(*) AS n FROM leases l WHERE {ORPHANED} "
                    f"AND {ORPHANED_SINCE} < {NOW} - :lease GROUP BY l.kind"
                ),
                {"lease": self.lease_seconds},
            )
            return {row.kind: row.n for row in rows}

    async def give_back(self) -> int:
        """Give back every lease this node holds, for any live node to claim at once; returns how many."""
        async with self.engine.begin() as connection:
            result = await connection.execute(
                text(f"UPDATE leases SET node_id = '', claimed_at = {NOW} WHERE node_id = :me"), self._me()
            )
            return result.rowcount

    async def leave(self) -> None:
        """This node is gone: its row expires now."""
        async with self.engine.begin() as connection:
            await connection.execute(
                text(f"UPDATE nodes SET expires_at = {NOW} - 1 WHERE node_id = :me AND incarnation = :incarnation"),
                self._me(),
            )
