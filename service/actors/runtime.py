"""The runtime: every kind of actor this server keeps alive, and where each actor lives.

Each kind (rooms, tournaments) registers its directory here when the directory is built. The runtime is the one
collaborator that knows about ownership: on a single server everything is here (epoch 0); on a node of a cluster
(``node``, service/cluster/node.py) an actor lives where its lease says, and :meth:`Runtime.resolve` answers with
the epoch this node holds it under, nothing (no lease: read the store), or :class:`Remote`, an ordinary answer that
the transport forwards. The runtime renews the node's lease and sweeps for orphans, rebuilds what the node claims in
the directory of its kind, and stops what another node took.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from service.cluster.node import Claimed, Node, Remote
from service.errors import Moved

log = logging.getLogger(__name__)

__all__ = ["Remote", "Runtime"]


class KindDirectory(Protocol):
    """The directory of one kind of actor (service/actors/directory.py), as the runtime sees it. (The kind itself, its
    tables and rows, is the store's: service/store/kinds.py's Kind.)"""

    kind: str
    parent: str | None  # the kind of actor this kind's records may name as parent (a room's tournament)

    async def locate(self, actor_id: str) -> Any: ...

    def lose(self, actor_ids: list[str]) -> None: ...

    async def restore(self, stored: list[tuple[Any, list[Any]]]) -> int: ...

    def wake_horizon(self) -> float | None: ...

    async def rest_idle(self) -> list[str]: ...

    def child_loaded(self, actor_id: str, child: Any) -> None: ...

    def child_finished(self, actor_id: str, child: Any) -> None: ...

    async def hand_over(self) -> int: ...

    async def close(self) -> None: ...


class Runtime:
    """See the module docstring. Parents (a tournament) are handed over and closed before their children (the rooms
    of its games), and what a claim brings is rebuilt children first (a tournament that replays its log then finds
    its games)."""

    def __init__(self, node: Node | None = None) -> None:
        self.node = node
        self.directories: dict[str, KindDirectory] = {}  # by kind
        self._tasks: list[asyncio.Task[None]] = []

    def register(self, directory: KindDirectory) -> None:
        self.directories[directory.kind] = directory

    def _parents_first(self) -> list[KindDirectory]:
        return sorted(self.directories.values(), key=lambda directory: directory.parent is not None)

    # -- ownership --------------------------------------------------------------------------------------------------

    @property
    def created_epoch(self) -> int:
        """The epoch of an actor created here (on a node, the store makes its lease with it)."""
        return 0 if self.node is None else 1

    def holds(self, kind: str, actor_id: str, epoch: int) -> bool:
        return self.node is None or self.node.holds(kind, actor_id, epoch)

    def vouch(self, kind: str) -> None:
        """Raise Moved when this node may no longer own what it holds (its lease may have run out: see
        Node.vouch); a single server always does."""
        if self.node is not None:
            self.node.vouch(kind)

    def parent_lease(self, parent: tuple[str, str] | None) -> tuple[str, str, int] | None:
        """The lease a child of ``parent`` (kind, id) is created under: the parent's, at the epoch this node holds
        it (0 when it does not: the store refuses the child); None on a single server, or for an actor without a
        parent."""
        if self.node is None or parent is None:
            return None
        return (*parent, self.node.held.get(parent, 0))

    def hold(self, kind: str, actor_id: str, epoch: int) -> None:
        if self.node is not None:
            self.node.hold(kind, actor_id, epoch)

    def forget(self, kind: str, actor_id: str) -> None:
        if self.node is not None:
            self.node.forget(kind, actor_id)

    async def resolve(self, kind: str, actor_id: str) -> int | Remote | None:
        """Where an actor lives: the epoch this node holds it under (claimed now if nobody alive held it, and what the
        claim took rebuilt), None (no lease: it finished, or never was; read the store), or Remote (another live node:
        forward the call). Raises Moved while it is being handed over. (On a node, in a task of its own: what a
        claim took is rebuilt even when the caller went away meanwhile.)"""
        if self.node is None:
            return None
        resolving = asyncio.ensure_future(self._resolve(self.node, kind, actor_id))
        resolving.add_done_callback(_retrieved)
        return await asyncio.shield(resolving)

    async def _resolve(self, node: Node, kind: str, actor_id: str) -> int | Remote | None:
        where = await node.resolve(kind, actor_id)
        if where.claimed:
            await self.adopt(list(where.claimed))
        return where.at

    # -- what the node's leases bring and take ----------------------------------------------------------------------

    async def adopt(self, claimed: list[Claimed]) -> None:
        """Rebuild what the node claimed, each in its kind's directory: children first (a tournament's games, claimed
        with it), as a restarted server does, so that a tournament that replays its log finds its live game, and a
        game room made just before its tournament's "game" line was stored, rather than making another."""
        children = {directory.kind for directory in self.directories.values() if directory.parent is not None}
        for lease in sorted(claimed, key=lambda lease: lease.kind not in children):
            try:
                await self.directories[lease.kind].locate(lease.target_id)
            except Moved as moved:  # (this node cannot vouch for its leases now: the next call or sweep loads it)
                log.info("%s %s is not rebuilt yet: %s", lease.kind, lease.target_id, moved)
            except Exception:  # (the next call for it loads it; the lease is held)
                log.exception("could not rebuild %s %s", lease.kind, lease.target_id)

    def child_finished(self, parent: tuple[str, str], child: Any) -> None:
        """An actor whose record names ``parent`` (kind, id) finished: the parent's directory tells it."""
        kind, actor_id = parent
        directory = self.directories.get(kind)
        if directory is not None:
            directory.child_finished(actor_id, child)

    def child_loaded(self, parent: tuple[str, str], child: Any) -> None:
        """An actor whose record names ``parent`` (kind, id) came into memory: the parent's directory hears of it (a
        resting solo tournament wakes with its game)."""
        kind, actor_id = parent
        directory = self.directories.get(kind)
        if directory is not None:
            directory.child_loaded(actor_id, child)

    async def rest_parents(self) -> list[str]:
        """Let the idle parents (a solo tournament, with its game) go to rest: the rest pass of every kind that names
        no parent, run by the children's own pass (RoomDirectory.rest_and_wake). Their ids."""
        return [
            actor_id
            for directory in self._parents_first()
            if directory.parent is None
            for actor_id in await directory.rest_idle()
        ]

    def lose(self, keys: list[tuple[str, str]]) -> None:
        """The node found these leases taken by other nodes: their actors stop here."""
        for kind, directory in self.directories.items():
            directory.lose([actor_id for of, actor_id in keys if of == kind])

    async def restore(self, journal: Any) -> dict[str, int]:
        """A single server's start: rebuild every unfinished actor the store holds, children first (a tournament's
        log names its rooms), but those that rest (a kind's ``wake_horizon``: its actors the store says need not be in
        memory before then stay in the store until they are due); how many of each kind are unfinished."""
        children_first = list(reversed(self._parents_first()))
        return {
            directory.kind: await directory.restore(
                await journal.load_live(directory.kind, wake_before=directory.wake_horizon())
            )
            for directory in children_first
        }

    async def sweep(self) -> int:
        """Claim the node's share of the orphaned leases and rebuild what they own (and, the first time, what a previous
        process of this node left); returns how many orphans were claimed."""
        if self.node is None:
            return 0
        inherited, claimed = await self.node.sweep()
        await self.adopt(inherited + claimed)
        return len(claimed)

    async def renew(self) -> None:
        """Renew the node's lease; stop what it lost meanwhile (a renewal later than the lease)."""
        if self.node is not None:
            self.lose(await self.node.renew())

    def start(self) -> None:
        """Renew and sweep from now on, each in a task of its own: a long sweep (many rooms to rebuild) must never
        hold a renewal back. A renewal still waiting on the store after a lease is left to end by itself (it is of
        no use by then, and a cut connection may answer nothing for minutes), and the next starts beside it, on
        another connection: a node whose store comes back renews at once. (Cancelling the one stuck instead was
        tried: on a loaded machine each cancelled renewal left the next waiting on its row, and no renewal ever
        went through again.)"""
        if self.node is not None and not self._tasks:
            loop = asyncio.get_running_loop()
            every = self.node.settings.renew_seconds
            name = f"node {self.node.node_id}"
            self._tasks = [
                loop.create_task(self._renewing(every, self.node.settings.lease_seconds), name=f"{name} renewing"),
                loop.create_task(self._every(every, self.sweep, "sweep"), name=f"{name} sweeping"),
            ]

    async def _renewing(self, every: float, lease: float) -> None:
        assert self.node is not None
        stuck: set[asyncio.Task[None]] = set()  # renewals left waiting on the store (a lease or more)
        while True:
            await asyncio.sleep(every)
            if len(stuck) >= 2:  # (a long cut: no more connections are spent on it until one of these ends)
                await asyncio.wait(set(stuck), return_when=asyncio.FIRST_COMPLETED)
            attempt = asyncio.ensure_future(self.renew())
            done, _ = await asyncio.wait({attempt}, timeout=lease)
            if not done:
                stuck.add(attempt)
                attempt.add_done_callback(stuck.discard)
                attempt.add_done_callback(self._renewed_late)
                log.warning("node %s: a renewal has waited on the store for %g s", self.node.node_id, lease)
                continue
            self._renewed_late(attempt)

    def _renewed_late(self, attempt: asyncio.Future[None]) -> None:
        """How a renewal ended (one left waiting ends here, whenever it does)."""
        if attempt.cancelled():
            return
        error = attempt.exception()
        if error is not None and self.node is not None:  # the store is away: the next try may do
            log.warning("node %s: could not renew: %s", self.node.node_id, type(error).__name__)

    async def _every(self, seconds: float, step: Callable[[], Awaitable[Any]], what: str) -> None:
        assert self.node is not None
        while True:
            await asyncio.sleep(seconds)
            try:
                await step()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the store is away: the next try may do (the lease may run out meanwhile)
                log.warning("node %s: could not %s: %s", self.node.node_id, what, type(error).__name__)

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()

    # -- leaving ----------------------------------------------------------------------------------------------------

    async def hand_over(self) -> dict[str, int]:
        """Stop every live actor so that other nodes can take them on (this node drains); how many, by kind."""
        if self.node is not None:
            self.node.draining = True  # nothing more is claimed here
        self.stop()
        return {directory.kind: await directory.hand_over() for directory in self._parents_first()}

    async def close(self) -> None:
        self.stop()
        for directory in self._parents_first():
            await directory.close()


def _retrieved(resolving: asyncio.Future[Any]) -> None:
    """A resolution whose caller went away ends here: its error, if any, is retrieved (not logged as never seen)."""
    if not resolving.cancelled():
        resolving.exception()
