"""One node of a cluster: several `kickoff grpc` processes on one PostgreSQL, each owning some of the live rooms and
tournaments through leases (service/store/leases.py) and serving every call (a call for a room another node owns
is forwarded there: service/grpc/forward.py).

What a node does about its leases (the runtime runs each in a task of its own, so that a long sweep never holds a
renewal back):

- every ``renew_seconds`` it pushes its own row's expiry one lease ahead: one statement, however many rooms it owns;
- when a renewal comes later than the lease (the node or its store was stalled), it reads back which leases it still
  holds and lets go of the others (another node claimed them, and the fence already refuses this node's lines);
- while its last successful renewal is older than the lease (cut from the store, or stalled), its leases may have run
  out and another node may be serving its rooms: it answers for none of them (:meth:`Node.vouch` raises Moved,
  retriable; the client's next call reaches the new owner) until a renewal succeeds and says what is still its own.
  Writes were safe without this (the fence refuses them); reads and seat-token checks were not: a node cut from the
  store went on answering from memory with a room another node had moved on, and refused the tokens it issued;
- it claims orphaned leases (their node died, or gave them back while draining), its part of them: the live nodes
  split the orphans by a hash of their ids, so the survivors of a dead node share its rooms in one sweep (and any
  orphan left over two renew intervals goes to whoever sweeps first); the runtime rebuilds each from its seed and
  log (clocks resume with the time they had left, system players wake up).

A call for a room this node does not hold finds its owner (:meth:`Node.resolve`): this node (the room is loaded
under the lease's epoch), another live node (:class:`Remote`, with its address), nobody alive (this node claims
it at once rather than making the caller wait for the sweep), or no lease at all (the room finished: any node reads
it from the store).

The node keeps the leases; it rebuilds nothing itself. What a sweep or a call claimed is what :meth:`Node.sweep` and
:meth:`Node.resolve` return, to the runtime (service/actors/runtime.py), which rebuilds it in the directory of its
kind, runs the renewals and sweeps, and stops what :meth:`Node.renew` says other nodes took.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine

from service.errors import Moved
from service.settings import NodeSettings
from service.store.leases import Claimed, LeaseTable, NodeIdInUse, Owner
from service.telemetry import Telemetry

__all__ = ["Claimed", "Node", "NodeIdInUse", "Remote", "Where"]

log = logging.getLogger(__name__)

Key = tuple[str, str]  # (kind, id): ("room", room_id) or ("tournament", tournament_id)
OWNER_CACHE_SECONDS = 1.0  # how long another node's ownership is believed without asking the store again


@dataclass(frozen=True)
class Where:
    """Where an actor lives (:meth:`Node.resolve`): ``at`` the epoch this node holds it under, None (no lease: read
    the store) or Remote; ``claimed`` the leases the call claimed to get there (the actor's, and a tournament's games
    with it), for the runtime to rebuild; none when it was held already."""

    at: int | Remote | None
    claimed: tuple[Claimed, ...] = ()


@dataclass(frozen=True)
class Remote:
    """Another live node owns what the call asks for: forward the call to ``address``."""

    node_id: str
    address: str
    target_id: str = ""  # the room or tournament asked for


class Node:
    """See the module docstring."""

    def __init__(
        self,
        table: LeaseTable,
        settings: NodeSettings,
        address: str,
        telemetry: Telemetry | None = None,
        *,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.table = table
        self._monotonic = monotonic  # (tests move it on: the lease is measured by it)
        self.settings = settings
        self.address = address
        self.node_id = settings.node_id
        self.held: dict[Key, int] = {}  # the leases this node holds, with their epochs
        self.draining = False
        self._owners: dict[Key, tuple[Owner, float]] = {}  # other nodes' leases seen lately, until when believed
        self._claiming: dict[Key, asyncio.Future[list[Claimed]]] = {}  # claims under way for callers
        self._renewed = 0.0  # monotonic time the last successful renewal started (its statement was sent after it)
        self._inherited = False
        # The operators' metrics: claims and hand-overs as they happen, and what each sweep sees of the cluster (the
        # nodes alive, the leases orphaned past a lease), read only when metrics are exported.
        telemetry = telemetry or Telemetry()
        self._claims = telemetry.instruments.lease_claims
        self._handovers = telemetry.instruments.lease_handovers
        self._census = telemetry.metering
        self.census: dict[str, int] | None = None  # the last sweep's look at the cluster (None: none yet)
        if self._census:
            telemetry.instruments.observe_cluster(lambda: self.census)

    @classmethod
    def for_engine(
        cls,
        engine: AsyncEngine,
        settings: NodeSettings,
        address: str,
        telemetry: Telemetry | None = None,
        *,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> Node:
        """A node on the store behind ``engine``, reached by the others at ``address``."""
        table = LeaseTable(engine, settings.node_id, address, secrets.token_hex(8), settings.lease_seconds)
        return cls(table, settings, address, telemetry, monotonic=monotonic)

    # -- life ------------------------------------------------------------------------------------------------------

    async def join(self) -> None:
        """Take this node's row: at once, or once a predecessor's lease under the same id has run out (a crashed
        process of this node). Raises NodeIdInUse when that predecessor keeps renewing: another live process."""
        seen: float | None = None
        while True:
            started = self._monotonic()
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

    async def sweep(self) -> tuple[list[Claimed], list[Claimed]]:
        """Claim this node's share of the orphaned leases; returns what it inherited (the first sweep: what a previous
        process of this node id left) and what it claimed, for the runtime to rebuild."""
        if self.draining:
            return [], []
        inherited = []
        if not self._inherited:  # the first sweep: what a previous process of this node left is this node's
            inherited = await self.table.inherit()
            self._inherited = True
            self._note(inherited, "inherited")
        claimed = await self.table.claim_orphans(grace=2 * self.settings.renew_seconds)
        self._note(claimed, "swept")
        if self._census:  # (after the claims: what is left orphaned is what this sweep could not take)
            self.census = await self.table.census()
        return inherited, claimed

    async def renew(self) -> list[Key]:
        """Push this node's expiry one lease ahead. A renewal later than the lease (the node or its store stalled)
        lets go of the leases other nodes claimed meanwhile: returns them. Until it has, the node still vouches for
        none of its rooms (:meth:`vouch`)."""
        started = self._monotonic()
        late = started - self._renewed > self.settings.lease_seconds
        if not await self.table.renew():
            log.error("node %s: another process took this node's row; letting go of every lease", self.node_id)
            lost = self._let_go(list(self.held))
            await self.join()
            return lost
        if late:  # the lease may have run out meanwhile: keep only what the store says is still this node's
            before = dict(self.held)  # (what is claimed or created while the store is asked is this node's)
            still = await self.table.held()
            lost = self._let_go(
                [key for key, epoch in before.items() if still.get(key) != epoch and self.held.get(key) == epoch]
            )
            self._renewed = max(self._renewed, started)
            return lost
        self._renewed = max(self._renewed, started)
        return []

    @property
    def lapsed(self) -> bool:
        """Whether this node's lease may have run out: its last successful renewal began more than a lease ago (the
        store measures the lease from when it got the renewal, a little later: this errs on the safe side)."""
        return self._monotonic() - self._renewed > self.settings.lease_seconds

    def vouch(self, kind: str) -> None:
        """Raise Moved (retriable) when this node's lease may have run out (:attr:`lapsed`): another node may own
        its rooms by now, and the caller must reach it rather than hear this node's memory."""
        if self.lapsed:
            raise Moved(f"this node could not renew its lease in time, so another node may own this {kind}; try again")

    async def drain(self) -> int:
        """Stop claiming and give every lease back (the caller has stopped the rooms' writes first); returns how many
        leases were given back."""
        self.draining = True
        self.census = None  # (a drained node sweeps no more: its look at the cluster would go stale)
        given = await self.table.give_back()
        self.held.clear()
        self._handovers.add(given, {"kickoff.lease.outcome": "given_back"})
        return given

    async def leave(self) -> None:
        """This node's row expires now (after :meth:`drain`, or at a stop without rooms)."""
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

    async def resolve(self, kind: str, target_id: str) -> Where:
        """Where it lives (:class:`Where`): the epoch under which this node holds the lease (claiming it when nobody
        alive holds it: what the claim took comes with it), None when nothing holds one (finished, or unknown: read
        the store), or Remote (another live node owns it). Raises Moved (it is being handed over: try again)."""
        key = (kind, target_id)
        if key in self.held:
            self.vouch(kind)
            return Where(self.held[key])
        cached = self._owners.get(key)
        if cached is not None and cached[1] > time.monotonic():
            return Where(Remote(cached[0].node_id, cached[0].address, target_id))
        owner = await self.table.locate(kind, target_id)
        if owner is None:
            return Where(None)
        if owner.alive and owner.node_id != self.node_id:
            self._owners[key] = (owner, time.monotonic() + OWNER_CACHE_SECONDS)
            return Where(Remote(owner.node_id, owner.address, target_id))
        if owner.alive and key in self.held:  # (claimed meanwhile by this node's sweep)
            self.vouch(kind)
            return Where(self.held[key])
        if self.draining:
            raise Moved("this node is handing its rooms over; try again")
        # Nobody alive owns it: claim it now (a tournament's game comes with its tournament). A lease that names this
        # node but that it does not know of (a claim whose caller went away half-way) is taken back the same way.
        claim = ("tournament", owner.tournament_id) if kind == "room" and owner.tournament_id else key
        mine = owner.alive and owner.node_id == self.node_id
        claiming = self._claiming.get(claim)
        first = claiming is None  # (the caller that claims is the one told what it took: it rebuilds that)
        if claiming is None:  # one claim for every caller asking at once; it runs to its end even if they leave
            claiming = self._claiming[claim] = asyncio.ensure_future(self._claim(claim, mine))
            claiming.add_done_callback(lambda _: self._claiming.pop(claim, None))
        claimed = await asyncio.shield(claiming)
        if key in self.held:
            self.vouch(kind)
            return Where(self.held[key], tuple(claimed) if first else ())
        raise Moved("another node is taking this room over; try again")

    async def _claim(self, claim: Key, mine: bool) -> list[Claimed]:
        claimed = await (self.table.reclaim(*claim) if mine else self.table.claim(*claim))
        if not claimed:  # (another node won it)
            self._claims.add(1, {"kickoff.lease.kind": claim[0], "kickoff.lease.outcome": "lost"})
        self._note(claimed, "reclaimed" if mine else "call")
        return claimed

    def _note(self, claimed: list[Claimed], outcome: str) -> None:
        """``outcome``: how they were claimed (swept, call, inherited, reclaimed), as kickoff.lease.claims counts."""
        if not claimed:
            return
        for lease in claimed:
            self.held[(lease.kind, lease.target_id)] = lease.epoch
            self._owners.pop((lease.kind, lease.target_id), None)
            self._claims.add(1, {"kickoff.lease.kind": lease.kind, "kickoff.lease.outcome": outcome})
        log.info(
            "node %s claimed %d leases: %s",
            self.node_id,
            len(claimed),
            ", ".join(f"{c.kind} {c.target_id} (epoch {c.epoch})" for c in claimed[:10]),
        )

    def _let_go(self, keys: list[Key]) -> list[Key]:
        for key in keys:
            self.held.pop(key, None)
        if keys:
            log.warning("node %s: %d leases were claimed by other nodes", self.node_id, len(keys))
            self._handovers.add(len(keys), {"kickoff.lease.outcome": "taken"})
        return keys
