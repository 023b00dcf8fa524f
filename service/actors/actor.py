"""One durable actor: something the server keeps alive (a room, a tournament) whose every change is a versioned
update, stored before anyone hears of it, made by one serialised loop.

The actor is the runtime; what a change does is its handler's (a room's seats, moves and clocks; a tournament's games).
Requests, and the handler's own work (a clock that ran out, a system player, a tournament moving on), enter one queue
and are handled in order, so nothing about an actor ever changes concurrently. A handler applies a change in memory and
says what it was, a :class:`Change` (the log line to store, the actor's status after it, the update its readers are
told); the actor does the rest, the same way for every kind, in one place (:meth:`Actor.change`): it numbers the
version, commits the line through the journal, lets the handler keep what its readers are shown in step
(:meth:`Handler.stored`), and only then tells the readers. Nobody hears of a change before the store has it.

When a commit fails (the store is away, or refuses the line), the actor's memory is ahead of the store, so the actor
rebuilds itself from the store's log, as a restarted server would, before it does anything else: while the store is
away it answers StoreUnavailable (retriable) and tries again with backoff, and once it is back the handler resumes by
itself. A change whose commit failed ambiguously (the store may have it) is in the rebuilt actor exactly when the store
has it, so no client ever sees a version the store does not hold.

On a node of a cluster every line carries the lease epoch the node holds the actor under, and the store refuses a line
once another node has claimed the actor (Moved): the actor then stops here, refuses what is queued and tells its
readers to come back (they reach the new owner). :meth:`Actor.hand_over` does the same on purpose, after the command
in hand, when the node drains.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from opentelemetry import context as otel_context

from engine.core import RuleError
from service.actors.feed import Audience, Feed, History, Readers
from service.errors import Moved, ServiceError, StoreUnavailable
from service.telemetry import in_sampled_trace

log = logging.getLogger(__name__)

U = TypeVar("U")  # an update
RECOVERY_BACKOFF = (0.05, 2.0)  # seconds between an actor's tries to read its log back, or to run a command again


@dataclass(frozen=True, slots=True)
class Change(Generic[U]):
    """What one change of an actor did, as its handler says it (see :meth:`Actor.change`): ``entry``, the log line
    to store (None while replaying: the store has it already); ``status``, the actor's status after it (the store
    keeps it on the actor's row); ``update``, what readers are told once it is stored; ``last``: the actor finished
    with it (its host hears of it too)."""

    entry: Any
    status: str
    update: U
    last: bool = False


class Journal(Protocol):
    """Makes actors durable, by kind and id: each call returns once what it was given is committed, or raises
    StoreUnavailable (try again later; it may or may not be stored), StoreRefused (not stored) or Moved (another
    node owns the actor now: not stored)."""

    async def create(self, kind: str, record: Any, parent_lease: tuple[str, str, int] | None = None) -> None:
        """Store a new actor; a child of another actor under its parent's lease (kind, id, epoch) on a node of a
        cluster: Moved when that lease is no longer the node's."""
        ...

    async def append(self, kind: str, entry: Any, status: str) -> None: ...

    async def load(self, kind: str, actor_id: str) -> list[Any]:
        """The actor's log as stored, in version order."""
        ...

    async def load_one(self, kind: str, actor_id: str) -> tuple[Any, list[Any]] | None:
        """An actor as created, with its log (None: no such actor)."""
        ...

    async def load_live(self, kind: str, wake_before: float | None = None) -> list[tuple[Any, list[Any]]]:
        """Every unfinished actor of ``kind`` with its log, oldest first (``wake_before``: but those resting until
        later)."""
        ...

    async def page(self, kind: str, size: int, after: str, **filters: str) -> tuple[list[str], str]:
        """A page of ids, newest first (filtered by column: ``game``, ``status``), and the next page's token."""
        ...


class Handler(Protocol):
    """What one kind of actor does to its state; the :class:`Actor` it is given owns the loop, the store and the
    readers. Every change the handler makes goes through ``actor.change``, which numbers, stores and tells it; a
    refusal is raised (a RuleError or ServiceError) before anything changed."""

    def reset(self) -> None:
        """The state as created, version 0 (a rebuild replays the log over it)."""

    async def replay(self, entry: Any) -> None:
        """Make the change one stored log line records (``actor.replaying`` is that line: commit writes nothing)."""

    def resume(self) -> None:
        """After a replay (a restart, a rebuild, a claim): start what runs by itself (clocks, system players, moving
        on)."""

    def halt(self) -> None:
        """Stop what runs by itself (the actor stops here, or rebuilds)."""

    def stored(self, change: Change[Any]) -> None:
        """``change`` is stored (or replayed) and nobody has heard of it yet: keep what readers are shown in step with
        it (a room's table as last stored)."""


class Host(Protocol):
    """Who keeps the actor (its directory): told when it finished, and when it stopped because it moved away."""

    def finished(self, handler: Any) -> None: ...

    def moved(self, handler: Any) -> None: ...


Command = tuple[Callable[[], Any], "asyncio.Future[Any] | None", Any]


class ActorHandler:
    """What every handler has by way of its actor (``self.actor``, made by the handler's constructor): the version,
    the lease epoch, the updates, and its life (start, settle, hand over, stop). A handler overrides ``start`` and
    ``halt`` when it runs timers of its own, and ``child_finished`` when it has children."""

    actor: Actor[Any]
    parent: tuple[str, str] | None = None  # (kind, id) of the actor told when this one finishes

    @property
    def version(self) -> int:
        return self.actor.version

    @property
    def epoch(self) -> int:
        return self.actor.epoch

    @property
    def updates(self) -> History[Any]:
        return self.actor.updates

    def start(self) -> None:
        self.actor.start()

    def stop(self) -> None:
        """Stop at once, without waiting (a finished actor leaving memory: it has nothing in hand)."""
        self.actor.stop()

    async def close(self) -> None:
        await self.actor.close()

    async def settle(self) -> None:
        """Wait until the command in hand and every command queued (and what they queue in turn) are handled, and the
        actor is not recovering from a store failure (tests)."""
        await self.actor.settle()

    async def hand_over(self) -> None:
        """Stop here so another node can take the actor on (this node drains): see Actor.hand_over."""
        await self.actor.hand_over()

    def lost(self) -> None:
        """Another lease than this actor's holds it now: it stops here (see Actor.lost)."""
        self.actor.lost()

    def halt(self) -> None:
        """Stop what runs by itself (nothing, unless the handler says otherwise)."""

    def child_finished(self, child: Any) -> None:
        """An actor whose parent this one is finished (nothing, unless the handler has children)."""

    def stored(self, change: Change[Any]) -> None:
        """A change is stored, before its readers hear of it (nothing, unless the handler keeps a view in step)."""


class Actor(Generic[U]):
    """The runtime of one actor (see the module docstring): its queue, its updates and readers, its commits, its
    recovery, its lease epoch and its hand-over."""

    def __init__(
        self,
        *,
        kind: str,
        actor_id: str,
        handler: Handler,
        journal: Journal,
        host: Host | None = None,
        epoch: int = 0,
        audience: Audience[U] | None = None,
        tracing: bool = False,
    ) -> None:
        self.kind = kind
        self.actor_id = actor_id
        self.handler = handler
        self.journal = journal
        self.host = host
        # The lease epoch this node holds the actor under (a cluster's node; 0: a single node). Every log line
        # carries it.
        self.epoch = epoch
        audience = audience if audience is not None else Audience()
        self.updates: History[U] = audience.history  # read in place by every feed
        self.readers: Readers[U] = audience.readers
        self.version = 0
        self.replaying: Any = None  # the log line being replayed while the actor is rebuilt from its log
        self.ahead = False  # a change is applied here that the store did not confirm: rebuild before anything else
        self.moved: Moved | None = None  # another node owns the actor now: it does nothing more here
        self._tracing = tracing  # each command then carries its caller's trace context
        self._queue: asyncio.Queue[Command] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._busy = False  # a command is being handled
        self._recovering = False  # the store is away: requests are refused until the actor is rebuilt from it
        self._recovered = asyncio.Event()  # set whenever the actor is not recovering
        self._recovered.set()
        self._abandoned = False
        self._told_finished = False
        self._retry: asyncio.TimerHandle | None = None  # a command to run again once its backoff is over
        self._retry_delay = RECOVERY_BACKOFF[0]
        self._heal_delay = 0.0  # a recovery that follows another with no commit between waits this long first

    # -- the loop ---------------------------------------------------------------------------------------------------

    def start(self) -> None:
        if self._task is None:
            # A context of its own: commands run in their callers' trace contexts, and the actor's own (system
            # players, clocks) in none, never in that of whoever happened to create the actor.
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name=f"{self.kind} {self.actor_id}", context=contextvars.Context()
            )

    @property
    def started(self) -> bool:
        return self._task is not None

    @property
    def idle(self) -> bool:
        """Nothing in hand, queued, waiting to be retried or rebuilt, and still here (a resting room may go)."""
        return (
            not self._busy
            and self._queue.empty()
            and self._retry is None
            and not self._recovering
            and not self.ahead
            and self.moved is None
        )

    def stop(self) -> None:
        """Stop at once, without waiting (a finished actor leaving memory: it has nothing in hand)."""
        self._halt()
        if self._task is not None:
            self._task.cancel()
        self.readers.end()

    async def close(self) -> None:
        self._halt()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self.readers.end()

    def _halt(self) -> None:
        self.handler.halt()
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None

    async def _run(self) -> None:
        while True:
            command, future, trace_context = await self._queue.get()
            self._busy = True
            token = otel_context.attach(trace_context) if trace_context is not None else None
            try:
                result = command()
                if asyncio.iscoroutine(result):
                    result = await result
            except (RuleError, ServiceError) as exc:
                if future is None:  # the actor's own command (a system player, the clock, moving on)
                    if isinstance(exc, Moved):  # the fence's ordinary answer: another node has it now
                        log.info("%s %s: another node owns it now; it stops here", self.kind, self.actor_id)
                    elif self.ahead:  # its change could not be stored: the rebuilt actor makes it again
                        log.warning("%s %s: could not store its own change: %s", self.kind, self.actor_id, exc.code)
                    else:  # a refusal is a bug
                        log.error("%s %s: its own change was refused: %s", self.kind, self.actor_id, exc.code)
                elif not future.cancelled():
                    future.set_exception(exc)
            except Exception as exc:  # a bug: keep the actor alive, tell the caller, leave a trace
                log.exception("%s %s: command failed", self.kind, self.actor_id)
                if future is not None and not future.cancelled():
                    future.set_exception(exc)
            else:
                if future is not None and not future.cancelled():
                    future.set_result(result)
            finally:
                if token is not None:
                    otel_context.detach(token)
                self._busy = False
            if self.moved is not None:
                self._refuse_queued(self.moved)  # (a hand-over's marker among them)
                self._abandon()
                return
            if self.ahead:
                await self._recover()

    def unavailable(self) -> StoreUnavailable:
        return StoreUnavailable(
            f"this {self.kind}'s store is unavailable; the {self.kind} resumes by itself once it is back"
        )

    async def call(self, command: Callable[[], Any]) -> Any:
        """Run ``command`` in the actor's turn and return what it returns (or raise what it raises)."""
        if self.moved is not None:
            raise self.moved
        if self._recovering:
            raise self.unavailable()
        future = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((command, future, self._trace_context() if self._tracing else None))
        return await future

    @staticmethod
    def _trace_context() -> Any:
        """The caller's context when it is in a sampled trace (the command then runs in it); None otherwise, so that
        a command nobody traces costs no context switch (an untraced room's move: see service.telemetry)."""
        context = otel_context.get_current()
        return context if in_sampled_trace(context) else None

    def enqueue(self, command: Callable[[], Any]) -> None:
        """Run ``command`` in the actor's turn, with nobody waiting for it (the actor's own work)."""
        self._queue.put_nowait((command, None, None))

    def retry(self, command: Callable[[], Awaitable[Any]]) -> None:
        """Run ``command`` again after a backoff that doubles with every retry in a row (a collaborator of the
        handler's, another actor or the store, is away); :meth:`succeeded` starts the backoff over."""
        if self.moved is not None or self._retry is not None:
            return
        delay = self._retry_delay
        self._retry_delay = min(delay * 2, RECOVERY_BACKOFF[1])

        def due() -> None:
            self._retry = None
            self.enqueue(command)

        self._retry = asyncio.get_running_loop().call_later(delay, due)

    def succeeded(self) -> None:
        """What was retried went through: the next retry waits the shortest backoff again."""
        self._retry_delay = RECOVERY_BACKOFF[0]

    async def settle(self) -> None:
        """Wait until the command in hand and every command queued (and what they queue in turn, retries included)
        are handled, and the actor is not recovering from a store failure."""
        while True:
            await self._recovered.wait()
            with contextlib.suppress(StoreUnavailable):
                await self.call(lambda: None)
                if self._queue.empty() and not self._busy and not self._recovering:
                    if self._retry is None or self.moved is not None:
                        return
                    await asyncio.sleep(max(0.0, self._retry.when() - asyncio.get_running_loop().time()))

    # -- commits ----------------------------------------------------------------------------------------------------

    async def change(self, make: Callable[[int], Change[U]]) -> Change[U]:
        """Make the next version: ``make`` (the handler's, given the version's number, the change already applied in
        memory) says what it was; the actor stores its line (:meth:`commit`: while replaying, nothing is written),
        tells the handler it is stored, then tells every reader (:meth:`publish`). Raises what the commit raises
        (nobody heard of the change; the loop rebuilds the actor, see the module docstring). Every change of every
        kind of actor goes this way."""
        self.version = version = self.version + 1
        change = make(version)
        await self.commit(change.entry, change.status)
        self.handler.stored(change)
        self.publish(change.update, last=change.last)
        return change

    async def commit(self, entry: Any, status: str) -> None:
        """Store ``entry``, the next version's log line (while replaying, nothing is written); ``status`` is the
        actor's after it. A line the store did not confirm leaves the actor ahead of it: the loop rebuilds it before
        anything else (see the module docstring). Nobody hears of the change before this returns."""
        if self.replaying is None:
            try:
                await self.journal.append(self.kind, entry, status)
                self._heal_delay = 0.0
            except Moved as moved:  # another node claimed the actor: nothing of this is stored, nobody heard
                self.moved = moved
                raise
            except BaseException:
                # The change is applied here but the store did not confirm it (it may or may not hold it).
                self.ahead = True
                raise

    def publish(self, update: U, *, last: bool) -> None:
        """Tell every reader of the stored ``update`` (``last``: the actor finished; its host hears of it too)."""
        if self.version > len(self.updates):  # (a rebuild replays the updates readers had: those are kept)
            self.updates.append(update)
            self.readers.publish(last=last)
        if last and self.replaying is None:
            self._tell_finished()

    def _tell_finished(self) -> None:
        if self.host is not None and not self._told_finished:
            self._told_finished = True
            self.host.finished(self.handler)

    def subscribe(
        self, version: int, after_version: int, finished: bool, ends_at: Callable[[U], Exception | None] | None = None
    ) -> Feed[U]:
        """A feed of every update after ``after_version`` (up to ``version``, the last one published: only stored
        updates are ever in it), then each new one; see Readers.open."""
        return self.readers.open(self.updates, version, after_version, finished, ends_at)

    # -- replay and recovery ----------------------------------------------------------------------------------------

    async def replay(self, entries: Sequence[Any]) -> None:
        """Make every change the log records again, in order, with the same versions."""
        handler = self.handler
        for entry in entries:
            self.replaying = entry
            try:
                await handler.replay(entry)
            finally:
                self.replaying = None
            if self.version != entry.version:
                raise RuntimeError(
                    f"{self.kind} {self.actor_id}: log version {entry.version} replayed as {self.version}"
                )

    async def restore(self, entries: Sequence[Any]) -> None:
        """Rebuild the actor from its log after a restart (or on the node that claimed it), then resume."""
        await self.replay(entries)
        self.handler.resume()

    async def _recover(self) -> None:
        """Rebuild the actor from the store, trying again with backoff while it is away. Requests that arrive
        meanwhile, and those already queued, are answered StoreUnavailable."""
        self._recovering = True
        self._recovered.clear()
        self.handler.halt()
        delay, most = RECOVERY_BACKOFF
        if self._heal_delay:  # the last rebuild did not help (the store takes the log but not the next line): wait
            self._refuse_queued()
            await asyncio.sleep(self._heal_delay)
        self._heal_delay = min(max(2 * self._heal_delay, delay), most)
        failures = 0
        while True:
            self._refuse_queued()
            try:
                await self._rebuild(await self.journal.load(self.kind, self.actor_id))
                break
            except Exception as error:
                failures += 1
                if failures == 1:
                    log.warning(
                        "%s %s: the store is away, recovering (%s)", self.kind, self.actor_id, type(error).__name__
                    )
                await asyncio.sleep(delay)
                delay = min(delay * 2, most)
        self.ahead = self._recovering = False
        self._recovered.set()
        # Requests queued while rebuilding were judged against what may be an older actor; the actor's own work that
        # the rebuild queued (a system player to move, a tournament to move on) stays.
        self._refuse_queued(own=False)
        log.info("%s %s: rebuilt from the store at version %d", self.kind, self.actor_id, self.version)

    async def _rebuild(self, entries: list[Any]) -> None:
        """Replay the stored log over a fresh actor. The updates readers had are kept as they are (the store holds
        them); the ones after them, which the store holds too, are published as the replay makes them."""
        heard = len(self.updates)
        self.version = 0
        self.handler.reset()
        await self.replay(entries)
        if self.version < heard:  # the store lost updates that were told: readers must start over
            log.error("%s %s: the store holds %d updates, %d were told", self.kind, self.actor_id, self.version, heard)
            self.updates.truncate(self.version)
            self.readers.rewritten()
        self.handler.resume()

    def _refuse_queued(self, error: ServiceError | None = None, *, own: bool = True) -> None:
        """Refuse every request queued; drop the actor's own commands too unless ``own`` is False."""
        kept = []
        while not self._queue.empty():
            command = self._queue.get_nowait()
            future = command[1]
            if future is None:
                if not own:
                    kept.append(command)
            elif not future.done():
                future.set_exception(error or self.unavailable())
        for command in kept:
            self._queue.put_nowait(command)

    # -- leaving this node ------------------------------------------------------------------------------------------

    async def hand_over(self) -> None:
        """Stop here so another node can take the actor on (this node drains): requests from now on, and those
        queued, are refused with Moved (nothing of them happened: the client sends them again, to the new owner);
        the one in hand is finished and stored first; then the readers are told to come back (Moved, retriable)."""
        if self.moved is not None:
            return
        self.moved = Moved(f"this {self.kind} is moving to another node; reconnect with the last version seen")
        self._abandoned = True  # (the directory lets it go itself)
        self._halt()
        self._refuse_queued(self.moved)
        if self._task is not None and not self._task.done():
            done = asyncio.get_running_loop().create_future()
            self._queue.put_nowait((lambda: None, done, None))  # after the command in hand
            with contextlib.suppress(Exception):
                await done
            self._task.cancel()
        self.readers.fail(self.moved)

    def lost(self) -> None:
        """Another lease than this actor's holds it now (another node's, or this node's newer one): stop here."""
        if self.moved is None:
            self.moved = Moved(f"this {self.kind} moved to another node; reconnect with the last version seen")
            if self._task is not None and not self._busy:
                self._task.cancel()
            self._abandon()

    def _abandon(self) -> None:
        """Another node owns the actor now. Stop, refuse what is queued, tell the readers to come back (they reach
        the new owner) and the host to forget the actor."""
        if self._abandoned:
            return
        self._abandoned = True
        moved = self.moved or Moved(f"this {self.kind} moved to another node; reconnect with the last version seen")
        log.warning("%s %s: another node took it over (epoch %d was this node's)", self.kind, self.actor_id, self.epoch)
        self._halt()
        self._refuse_queued(moved)
        self.readers.fail(moved)
        if self.host is not None:
            self.host.moved(self.handler)
