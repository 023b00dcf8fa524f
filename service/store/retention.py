"""Retention: what ends and is never read again leaves the store after a while, in small batches.

Ended matchmaking tickets, started tables, ended sessions and spent refresh tokens would otherwise be kept for good,
and a public node's database would only ever grow. Each store that keeps such rows says which of them are old enough
to go (:class:`Rule`: a table, its key, and a condition on now); :class:`Retention` is the one loop that deletes them:
every :data:`PRUNE_SECONDS` a pass deletes at most :data:`PRUNE_BATCH` rows per rule, each rule in a short transaction
of its own, so that a backlog goes over several passes and no pass holds the database long. The rows pruned are ones
nothing changes any more (an ended ticket, a started table, an ended session), and no rule touches a room's rows, so a
pass never waits for, nor holds, a lock a move needs. Finished games and rating history are the players' history and
have no rule: they stay. (Webhook deliveries are pruned the same way, by their dispatcher: service/webhooks.)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncEngine

log = logging.getLogger(__name__)

PRUNE_SECONDS = 300.0  # a pass at most this often
PRUNE_BATCH = 5000  # rows one rule deletes at most in a pass


@dataclass(frozen=True)
class Rule:
    """Which rows of ``table`` (keyed by its column ``key``) may go at ``now``: ``old(now)``, a condition on them."""

    name: str  # what it prunes (for the log)
    table: Any
    key: str
    old: Callable[[float], Any]


async def prune(engine: AsyncEngine, rules: Sequence[Rule], now: float, batch: int = PRUNE_BATCH) -> dict[str, int]:
    """One pass: for each rule in order, delete at most ``batch`` of its old rows (one transaction each); how many
    each deleted. (A rule whose rows others name comes after the rule that prunes those others.)"""
    deleted = {}
    for rule in rules:
        key = getattr(rule.table, rule.key)
        old = select(key).where(rule.old(now)).limit(batch)
        async with engine.begin() as connection:
            done = await connection.execute(delete(rule.table).where(key.in_(old)))
        deleted[rule.name] = done.rowcount
    return deleted


class Retention:
    """The pruning loop (see the module docstring) of the rules each store gives (:meth:`add`); ``clock`` gives
    now. :meth:`prune` is one pass (tests call it); :meth:`start` runs one every ``every`` seconds until
    :meth:`stop`."""

    def __init__(
        self, engine: AsyncEngine, clock: Callable[[], float], *, every: float = PRUNE_SECONDS, batch: int = PRUNE_BATCH
    ) -> None:
        self.engine = engine
        self.clock = clock
        self.every = every
        self.batch = batch
        self.rules: list[Rule] = []
        self.looks: list[Callable[[], Awaitable[None]]] = []
        self._task: asyncio.Task[None] | None = None

    def add(self, rules: Sequence[Rule]) -> None:
        self.rules.extend(rules)

    def look(self, counting: Callable[[], Awaitable[None]]) -> None:
        """Run ``counting`` after each pass's rules, and once as the loop starts: a count of what the pass left (the
        inbox's unread items, for its gauge), made here so that it costs one query a pass and none a scrape."""
        self.looks.append(counting)

    async def prune(self) -> dict[str, int]:
        deleted = await prune(self.engine, self.rules, self.clock(), self.batch)
        if any(deleted.values()):
            log.info("pruned %s", ", ".join(f"{count} {name}" for name, count in deleted.items() if count))
        for counting in self.looks:
            await counting()
        return deleted

    def start(self) -> None:
        if self._task is None and self.rules:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="retention")

    async def _run(self) -> None:
        try:
            for counting in self.looks:  # (the gauges have a number from the start, not a pass later)
                await counting()
        except asyncio.CancelledError:
            raise
        except Exception as error:  # the store is away: the first pass counts again
            log.warning("could not count: %s", type(error).__name__)
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.prune()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the store is away: the next pass tries again
                log.warning("could not prune: %s", type(error).__name__)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
