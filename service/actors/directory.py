"""The directory of one kind of actor: the ones this server holds in memory, found, listed, rebuilt, handed over.

Memory holds every live actor of the kind and only the most recently used finished ones (``keep_finished``): a
finished actor is read back from the store when someone asks for it (:meth:`Directory.locate`), and listing reads
the store, so a server's memory and its start-up do not grow with what it has hosted.

On a node of a cluster, memory holds the live actors this node owns: :meth:`Directory.locate` asks the runtime where
any other lives (:class:`Remote` for one another node owns; one nobody alive owns is claimed and rebuilt here), and
an actor that moves away (handed over, or claimed by another node) leaves memory.

A kind subclasses :class:`Directory` with what is its own: how to build its handler from a stored record
(:meth:`Directory.build`), and what a request to create one checks.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Any, Generic, Protocol, TypeVar

from service.actors.actor import Actor, Journal
from service.actors.requests import RequestKey, reused
from service.actors.runtime import Remote, Runtime
from service.errors import InvalidRequest, Moved, NotFound, StoreRefused

FINISHED = "finished"
MAX_PAGE = 500
DEFAULT_PAGE = 50


class Kept(Protocol):
    """A handler, as its directory sees it."""

    actor: Actor[Any]
    status: str  # its status in memory: waiting, playing, finished
    parent: tuple[str, str] | None  # (kind, id) of the actor told when this one finishes (a room's tournament)

    def record(self) -> Any:
        """The actor as created, for the store."""
        ...

    def start(self) -> None:
        """Run its actor (and what the handler runs by itself)."""

    def child_finished(self, child: Any) -> None:
        """An actor whose parent this one is finished (called from the child's loop)."""


H = TypeVar("H", bound=Kept)


def page_size_of(page_size: int) -> int:
    """The page size asked for (0: the default), or InvalidRequest."""
    if page_size < 0 or page_size > MAX_PAGE:
        raise InvalidRequest(f"page_size must be 0-{MAX_PAGE}", code="bad_page_size", field="page_size")
    return page_size or DEFAULT_PAGE


class Directory(Generic[H]):
    """Every actor of ``kind`` on this server (see the module docstring); registers itself with ``runtime``."""

    kind = ""
    parent: str | None = None  # the kind of actor this kind's records may name as parent

    def __init__(self, *, journal: Journal, runtime: Runtime, keep_finished: int) -> None:
        self.journal = journal
        self.runtime = runtime
        self.keep_finished = keep_finished
        self._actors: dict[str, H] = {}  # every live actor, and the finished ones kept
        self._recent: OrderedDict[str, None] = OrderedDict()  # the finished ones kept, least recently used first
        self._loading: dict[str, asyncio.Task[H | None]] = {}
        self._requests: dict[str, asyncio.Lock] = {}  # creations at work with a request id, by key (create_once)
        runtime.register(self)

    # -- what a kind says -------------------------------------------------------------------------------------------

    def build(self, record: Any, epoch: int) -> H:
        """A handler (with its actor) for a stored ``record``, held under lease ``epoch``."""
        raise NotImplementedError

    def added(self, handler: H) -> None:
        """``handler`` is in memory now (a kind that counts its live actors counts it)."""

    def removed(self, actor_id: str) -> None:
        """The actor left memory, or finished."""

    def kept(self, handler: H) -> None:
        """``handler`` finished and is kept among the recent ones."""

    async def rest_idle(self) -> list[str]:
        """A kind whose actors rest with their children (a solo tournament with its game): let the idle ones go from
        memory now and return their ids. The children's rest pass runs it (Runtime.rest_parents); none by default."""
        return []

    def child_loaded(self, actor_id: str, child: Any) -> None:
        """A child of ``actor_id`` came into memory (its person called for it): a parent that rests with it wakes."""

    def wake_horizon(self) -> float | None:
        """A kind whose actors may rest (leave memory while nothing happens to them): the time before which a resting
        one need not be in memory, so that a start leaves it in the store (None: every live actor is loaded)."""
        return None

    # -- the actors' host -------------------------------------------------------------------------------------------

    def finished(self, handler: H) -> None:
        """An actor's last line is stored (its lease went with it); its parent, if it has one, is told."""
        actor = handler.actor
        self.runtime.forget(self.kind, actor.actor_id)
        self.removed(actor.actor_id)
        self.kept(handler)
        self._keep(actor.actor_id)
        if handler.parent is not None:
            self.runtime.child_finished(handler.parent, handler)

    def child_finished(self, actor_id: str, child: Any) -> None:
        """A child of ``actor_id`` finished: tell it, if it is in memory (one being rebuilt moves on by itself)."""
        handler = self._actors.get(actor_id)
        if handler is not None:
            handler.child_finished(child)

    def moved(self, handler: H) -> None:
        """``handler`` stopped here: another node owns it now."""
        actor = handler.actor
        if self._actors.get(actor.actor_id) is handler:
            del self._actors[actor.actor_id]
            self.removed(actor.actor_id)
            self._recent.pop(actor.actor_id, None)
        if self.runtime.holds(self.kind, actor.actor_id, actor.epoch):
            self.runtime.forget(self.kind, actor.actor_id)

    # -- creations with a request id (service/actors/requests.py) ------------------------------------------------

    async def create_once(self, request: RequestKey | None, create: Callable[[], Awaitable[H]]) -> H | Remote:
        """``create()``, once for a request key: a creation sent again with a key that made something answers what
        it made (here, or Remote: on the node that holds it; PreconditionFailed request_id_reused when it was asked
        for another one) and creates nothing. Without a key, simply ``create()``.

        Calls with the same key are handled one at a time on this node (a retry sent while the first call is still
        at work waits for it, then finds what it made). Two nodes that race with one key both create, and the store's
        unique key refuses the second (StoreRefused), which then answers the first's."""
        if request is None:
            return await create()
        async with self._creating(request):
            found = await self.created_for(request)
            if found is not None:
                return found
            try:
                return await create()
            except StoreRefused:
                found = await self.created_for(request)
                if found is None:
                    raise
                return found

    @contextlib.asynccontextmanager
    async def _creating(self, request: RequestKey) -> AsyncIterator[None]:
        lock = self._requests.setdefault(request.key, asyncio.Lock())
        try:
            async with lock:
                yield
        finally:
            if not lock.locked() and self._requests.get(request.key) is lock:
                del self._requests[request.key]

    async def created_for(self, request: RequestKey) -> H | Remote | None:
        """The actor a creation with this request key made (here, or Remote: on the node that holds it), or None
        when none was; PreconditionFailed (request_id_reused) when that creation was asked for another one."""
        found = await self.journal.find_request(self.kind, request.key)  # type: ignore[attr-defined]
        if found is None:
            return None
        actor_id, parameters = found
        if parameters != request.parameters:
            raise reused(f"another {self.kind}")
        return await self.locate(actor_id)

    # -- memory -----------------------------------------------------------------------------------------------------

    async def created(self, handler: H) -> None:
        """Store a new actor (with its lease, on a node), then keep and start it."""
        actor = handler.actor
        await self.journal.create(self.kind, handler.record(), self.runtime.parent_lease(handler.parent))
        self.runtime.hold(self.kind, actor.actor_id, actor.epoch)
        self.add(handler)

    def add(self, handler: H) -> None:
        self._actors[handler.actor.actor_id] = handler
        if handler.status == FINISHED:
            self.kept(handler)
            self._keep(handler.actor.actor_id)
        else:
            self.added(handler)
        handler.start()

    def _keep(self, actor_id: str) -> None:
        """Keep a finished actor among the most recently used; the least recently used beyond them leave memory (the
        store has them)."""
        self._recent[actor_id] = None
        self._recent.move_to_end(actor_id)
        while len(self._recent) > self.keep_finished:
            gone, _ = self._recent.popitem(last=False)
            self._actors.pop(gone).actor.stop()

    async def stale(self, handler: H) -> bool:
        """Whether a finished actor kept in memory is older than what the store holds of it (a kind says: a room
        whose player deleted themselves on another node); it is read back then. None by default."""
        return False

    def forget_finished(self, actor_ids: Iterable[str]) -> None:
        """Let finished actors kept in memory go (what the store holds of them changed: they are read again)."""
        for actor_id in actor_ids:
            if self._recent.pop(actor_id, 0) is None:
                self._actors.pop(actor_id).actor.stop()

    def in_memory(self, actor_id: str) -> H | None:
        """The actor if it is in memory here (nothing is read from the store)."""
        return self._actors.get(actor_id)

    def held(self) -> list[H]:
        """Every actor in memory."""
        return list(self._actors.values())

    def get(self, actor_id: str) -> H:
        """An actor in memory (every live one is); NotFound otherwise. :meth:`locate` also reads the store."""
        try:
            return self._actors[actor_id]
        except KeyError:
            raise NotFound(self.kind, f"no such {self.kind}") from None

    async def locate(self, actor_id: str) -> H | Remote:
        """An actor, from memory or read back from the store (a finished one not kept); NotFound otherwise. On
        a node of a cluster, Remote for a live actor another node owns (one nobody alive owns is claimed here)."""
        handler = self._actors.get(actor_id)
        runtime = self.runtime
        if handler is not None and handler.status == FINISHED and await self.stale(handler):
            self.forget_finished([actor_id])  # (read back below, as the store holds it now)
            handler = None
        if handler is not None and (
            handler.status == FINISHED or runtime.holds(self.kind, actor_id, handler.actor.epoch)
        ):
            if actor_id in self._recent:
                self._recent.move_to_end(actor_id)
            elif handler.status != FINISHED:  # (a live one: only while this node's lease holds)
                runtime.vouch(self.kind)
            return handler
        held = await runtime.resolve(self.kind, actor_id)  # (may claim, and rebuild, the actor)
        if isinstance(held, Remote):
            return held
        handler = self._actors.get(actor_id)
        if handler is not None and (held is None or handler.actor.epoch == held):
            return handler
        loading = self._loading.get(actor_id)
        if loading is None:  # one read for everyone asking at once
            loading = self._loading[actor_id] = asyncio.ensure_future(self._load(actor_id, held or 0))
            loading.add_done_callback(lambda _: self._loading.pop(actor_id, None))
        handler = await asyncio.shield(loading)
        if handler is None:
            raise NotFound(self.kind, f"no such {self.kind}")
        return handler

    async def find(self, actor_id: str) -> H:
        """As :meth:`locate`, for an actor that must be on this node (a tournament's game is where the tournament
        is): Moved, retriable, when another node has it."""
        found = await self.locate(actor_id)
        if isinstance(found, Remote):
            raise Moved(f"this {self.kind} is on another node; try again")
        return found

    async def _load(self, actor_id: str, epoch: int) -> H | None:
        stored = await self.journal.load_one(self.kind, actor_id)
        if stored is None:
            return None
        here = self._actors.get(actor_id)
        if here is None or (here.status != FINISHED and here.actor.epoch != epoch):
            if here is not None:  # an older lease's actor: its readers come back to the one rebuilt here
                here.actor.lost()
                self._actors.pop(actor_id, None)
            await self.restore([stored], epoch)
        return self._actors[actor_id]

    async def restore(self, stored: list[tuple[Any, list[Any]]], epoch: int = 0) -> int:
        """Rebuild stored actors (a record and its log each) after a restart, or on a node that claimed them under
        lease ``epoch``; returns how many are unfinished."""
        unfinished = 0
        for record, entries in stored:
            handler = self.build(record, epoch)
            await handler.actor.restore(entries)
            unfinished += handler.status != FINISHED
            self.add(handler)
        return unfinished

    async def list(self, *, page_size: int = 0, page_token: str = "", **filters: str) -> tuple[list[H | Remote], str]:
        """Actors newest first, filtered, read from the store; returns a page and the token for the next one ('' on
        the last page). The token is the last id given: actors created meanwhile neither repeat nor push others off a
        page. On a node of a cluster, an actor another node owns is in the page as Remote (ask that node)."""
        ids, following = await self.journal.page(self.kind, page_size_of(page_size), page_token, **filters)
        found: list[H | Remote] = []
        for actor_id in ids:
            try:
                found.append(await self.locate(actor_id))
            except NotFound:  # (created in the store, but its creation failed here: not one)
                continue
        return found, following

    # -- leaving ----------------------------------------------------------------------------------------------------

    def lose(self, actor_ids: list[str]) -> None:
        """The node found these leases taken by other nodes: their actors stop here."""
        for actor_id in actor_ids:
            handler = self._actors.get(actor_id)
            if handler is not None and handler.status != FINISHED:
                handler.actor.lost()

    async def hand_over(self) -> int:
        """Stop every live actor so that other nodes can take them on (this node drains); returns how many."""
        handed = 0
        while live := [h for h in self._actors.values() if h.status != FINISHED]:  # (and any loaded meanwhile)
            await asyncio.gather(*(handler.actor.hand_over() for handler in live))
            for handler in live:
                self._actors.pop(handler.actor.actor_id, None)
                self.removed(handler.actor.actor_id)
            handed += len(live)
        return handed

    async def settle(self) -> None:
        for handler in list(self._actors.values()):
            await handler.actor.settle()

    async def close(self) -> None:
        for handler in list(self._actors.values()):
            await handler.actor.close()
