"""One node of a cluster: several `kickoff grpc` processes on one PostgreSQL, each owning some of the live rooms and
tournaments through leases (service/store/leases.py) and serving every call (a call for a room another node owns
is forwarded there: service/grpc/forward.py).

What a node does about its leases, each in a task of its own (so that a long sweep never holds a renewal back):

- every ``renew_seconds`` it pushes its own row's expiry one lease ahead: one statement, however many rooms it owns;
- when a renewal comes later than the lease (the node or its store was stalled), it reads back which leases it still
  holds and lets go of the others (another node claimed them, and the fence already refuses this node's lines);
- it claims orphaned leases (their node died, or gave them back while draining), its part of them: the live nodes
  split the orphans by a hash of their ids, so the survivors of a dead node share its rooms in one sweep (and any
  orphan left over two renew intervals goes to whoever sweeps first), and rebuilds each from its seed and log
  (``adopt``: clocks resume with the time they had left, system players wake up).

A call for a room this node does not hold finds its owner (:meth:`Node.resolve`): this node (the room is loaded
under the lease's epoch), another live node (:class:`Elsewhere`, with its address), nobody alive (this node claims
it at once rather than making the caller wait for the sweep), or no lease at all (the room finished: any node reads
it from the store).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from service.errors import RoomMoved
from service.settings import NodeSettings
from service.store.leases import Claimed, LeaseTable, NodeIdInUse, Owner

log = logging.getLogger(__name__)

Key = tuple[str, str]  # (kind, id): ("room", room_id) or ("tournament", tournament_id)
OWNER_CACHE_SECONDS = 1.0  # how long another node's ownership is believed without asking the store again


class Elsewhere(Exception):
    """Another live node owns what the call asks for: forward the call to ``address``."""

    def __init__(self, node_id: str, address: str, target_id: str = "") -> None:
        super().__init__(f"owned by node {node_id} at {address}")
        self.node_id = node_id
        self.address = address
        self.target_id = target_id  # the room or tournament asked for


class Node:
    """See the module docstring. ``adopt`` rebuilds what a claim brought (the server wires it to the directories);
    ``lose`` lets go of what another node took."""

    def __init__(self, table: LeaseTable, settings: NodeSettings, address: str) -> None:
        self.table = table
        self.settings = settings
        self.address = address
        self.node_id = settings.node_id
        self.held: dict[Key, int] = {}  # the leases this node holds, with their epochs
        self.draining = False
        self.adopt: Callable[[list[Claimed]], Awaitable[None]] | None = None
        self.lose: Callable[[list[Key]], None] | None = None
        self._owners: dict[Key, tuple[Owner, float]] = {}  # other nodes' leases seen lately, until when believed
        self._claiming: dict[Key, asyncio.Future[None]] = {}  # claims under way for callers
        self._tasks: list[asyncio.Task[None]] = []
        self._renewed = 0.0  # monotonic time the last successful renewal started
        self._inherited = False

    @classmethod
    def for_engine(cls, engine: AsyncEngine, settings: NodeSettings, address: str) -> Node:
        """A node on the store behind ``engine``, reached by the others at ``address``."""
        table = LeaseTable(engine, settings.node_id, address, secrets.token_hex(8), settings.lease_seconds)
        return cls(table, settings, address)

    # -- life ------------------------------------------------------------------------------------------------------

    async def join(self) -> None:
        """Take this node's row: at once, or once a predecessor's lease under the same id has run out (a crashed
        process of this node). Raises NodeIdInUse when that predecessor keeps renewing: another live process."""
        seen: float | None = None
        while True:
            started = time.monotonic()
            waiting = await self.table.join()
            if waiting is None:
                self._renewed = started
                break
            expires, now = waiting
            if seen is not None and expires > seen:
                raise NodeIdInUse(
                    f"node id {self.node_id!r} is in use by a live node that keeps renewing its lease: give each node "
                    "its own --node-id (KICKOFF_NODE_ID)"
                )
            seen = expires
            log.warning(
                "node %s: a previous process under this id holds its lease for %.1f s more; waiting",
                self.node_id,
                expires - now,
            )
            await asyncio.sleep(expires - now + 0.05)
        adopted = await self.table.adopt_unleased()
        if adopted:
            log.info(
                "node %s: %d live rooms and tournaments had no lease; they are claimable now", self.node_id, adopted
            )
        log.info(
            "node %s joined at %s (lease %g s, renewed every %g s)",
            self.node_id,
            self.address,
            self.settings.lease_seconds,
            self.settings.renew_seconds,
        )

    def start(self) -> None:
        """Renew and sweep from now on, each in a task of its own: a long sweep (many rooms to rebuild) must never
        hold a renewal back."""
        if not self._tasks:
            loop = asyncio.get_running_loop()
            renew, sweep = self.settings.renew_seconds, self.settings.renew_seconds
            self._tasks = [
                loop.create_task(self._every(renew, self.renew, "renew"), name=f"node {self.node_id} renewing"),
                loop.create_task(self._every(sweep, self.sweep, "sweep"), name=f"node {self.node_id} sweeping"),
            ]

    async def sweep(self) -> int:
        """Claim this node's share of the orphaned leases and rebuild what they own; returns how many it claimed
        (the first sweep also claims what a previous process of this node id left)."""
        if self.draining:
            return 0
        if not self._inherited:  # the first sweep: what a previous process of this node left is this node's
            inherited = await self.table.inherit()
            self._inherited = True
            await self._adopt(inherited)
        claimed = await self.table.claim_orphans(grace=2 * self.settings.renew_seconds)
        await self._adopt(claimed)
        return len(claimed)

    async def _every(self, seconds: float, step: Callable[[], Awaitable[Any]], what: str) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await step()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the store is away: the next try may do (the lease may run out meanwhile)
                log.warning("node %s: could not %s: %s", self.node_id, what, type(error).__name__)

    async def renew(self) -> None:
        """Push this node's expiry one lease ahead. A renewal later than the lease (the node or its store stalled)
        lets go of the leases other nodes claimed meanwhile."""
        started = time.monotonic()
        late = started - self._renewed > self.settings.lease_seconds
        if not await self.table.renew():
            log.error("node %s: another process took this node's row; letting go of every lease", self.node_id)
            self._let_go(list(self.held))
            await self.join()
            return
        self._renewed = started
        if late:  # the lease may have run out meanwhile: keep only what the store says is still this node's
            before = dict(self.held)  # (what is claimed or created while the store is asked is this node's)
            still = await self.table.held()
            self._let_go(
                [key for key, epoch in before.items() if still.get(key) != epoch and self.held.get(key) == epoch]
            )

    async def drain(self) -> int:
        """Stop claiming and give every lease back (the caller has stopped the rooms' writes first); returns how many
        leases were given back."""
        self.draining = True
        for task in self._tasks:
            task.cancel()
        given = await self.table.give_back()
        self.held.clear()
        return given

    async def leave(self) -> None:
        """This node's row expires now (after :meth:`drain`, or at a stop without rooms)."""
        for task in self._tasks:
            task.cancel()
        await self.table.leave()

    # -- what a call needs -----------------------------------------------------------------------------------------

    def holds(self, kind: str, target_id: str, epoch: int) -> bool:
        return self.held.get((kind, target_id)) == epoch

    def hold(self, kind: str, target_id: str, epoch: int) -> None:
        self.held[(kind, target_id)] = epoch

    def forget(self, kind: str, target_id: str) -> None:
        """The room or tournament finished (its lease went with its last line) or left this node."""
        self.held.pop((kind, target_id), None)

    def moved(self, kind: str, target_id: str) -> None:
        """A forwarded call found no owner where the cache said: ask the store next time."""
        self._owners.pop((kind, target_id), None)

    async def resolve(self, kind: str, target_id: str) -> int | None:
        """The epoch under which this node holds the lease (claiming it when nobody alive holds it), or None when
        nothing holds one (finished, or unknown: read the store). Raises Elsewhere (another live node owns it) or
        RoomMoved (it is being handed over: try again)."""
        key = (kind, target_id)
        if key in self.held:
            return self.held[key]
        cached = self._owners.get(key)
        if cached is not None and cached[1] > time.monotonic():
            raise Elsewhere(cached[0].node_id, cached[0].address, target_id)
        owner = await self.table.locate(kind, target_id)
        if owner is None:
            return None
        if owner.alive and owner.node_id != self.node_id:
            self._owners[key] = (owner, time.monotonic() + OWNER_CACHE_SECONDS)
            raise Elsewhere(owner.node_id, owner.address, target_id)
        if owner.alive and key in self.held:  # (claimed meanwhile by this node's sweep)
            return self.held[key]
        if self.draining:
            raise RoomMoved("this node is handing its rooms over; try again")
        # Nobody alive owns it: claim it now (a tournament's game comes with its tournament). A lease that names this
        # node but that it does not know of (a claim whose caller went away half-way) is taken back the same way.
        claim = ("tournament", owner.tournament_id) if kind == "room" and owner.tournament_id else key
        mine = owner.alive and owner.node_id == self.node_id
        claiming = self._claiming.get(claim)
        if claiming is None:  # one claim for every caller asking at once; it runs to its end even if they leave
            claiming = self._claiming[claim] = asyncio.ensure_future(self._claim(claim, mine))
            claiming.add_done_callback(lambda _: self._claiming.pop(claim, None))
        await asyncio.shield(claiming)
        if key in self.held:
            return self.held[key]
        raise RoomMoved("another node is taking this room over; try again")

    async def _claim(self, claim: Key, mine: bool) -> None:
        claimed = await (self.table.reclaim(*claim) if mine else self.table.claim(*claim))
        await self._adopt(claimed)

    async def _adopt(self, claimed: list[Claimed]) -> None:
        if not claimed:
            return
        for lease in claimed:
            self.held[(lease.kind, lease.target_id)] = lease.epoch
            self._owners.pop((lease.kind, lease.target_id), None)
        log.info(
            "node %s claimed %d leases: %s",
            self.node_id,
            len(claimed),
            ", ".join(f"{c.kind} {c.target_id} (epoch {c.epoch})" for c in claimed[:10]),
        )
        if self.adopt is not None:
            await self.adopt(claimed)

    def _let_go(self, keys: list[Key]) -> None:
        if not keys:
            return
        for key in keys:
            self.held.pop(key, None)
        log.warning("node %s: %d leases were claimed by other nodes", self.node_id, len(keys))
        if self.lose is not None:
            self.lose(keys)
