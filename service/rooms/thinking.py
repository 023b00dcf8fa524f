"""Where ``hard`` system players search: a pool of worker processes, so that a bot thinking for a second never delays
another room's move or clock on the event loop (a thread would hold the interpreter's lock).

A worker is given what the seat may see and nothing more: the game's name, the seat's view, the seat, a seed and a
deadline on the machine's monotonic clock (shared by every process). It answers with the move's wire form. Workers
start on the first search (``spawn``: nothing of the server is copied into them) and are replaced if one dies; a
search that fails is answered by the ``normal`` player in the room instead, so a room never waits on a broken pool.
``workers=0`` searches in the calling thread (tests that fix the iterations, and tools without a pool).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from engine.core import View
from engine.registry import get_game

log = logging.getLogger(__name__)

__all__ = ["Thinkers", "Thought"]


@dataclass(frozen=True)
class Thought:
    """A search's answer: the move's wire form, its iterations and how long it took."""

    move: str
    iterations: int
    seconds: float


def search(game: str, view: View, seat: int, seed: int, deadline: float | None, iterations: int | None) -> Thought:
    """One decision of ``game``'s hard player from ``view`` (in a worker, or in the caller with ``workers=0``)."""
    bot = get_game(game).new_bot("hard", 0)
    bot.clock = time.monotonic  # type: ignore[attr-defined]
    decision = bot.decide(view, seat, seed=seed, deadline=deadline, iterations=iterations)  # type: ignore[attr-defined]
    return Thought(decision.move.to_wire(), decision.iterations, decision.seconds)


class Thinkers:
    """The server's search workers (``workers`` processes; 0: search inline). ``iterations``: a fixed budget a
    decision instead of a deadline (tests)."""

    def __init__(self, workers: int = 1, *, iterations: int | None = None) -> None:
        self.workers = workers
        self.iterations = iterations
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def think(self, game: str, view: View, seat: int, seed: int, seconds: float) -> Thought:
        """The hard player's move for ``seat``, searched for at most ``seconds`` from now (or the fixed iterations)."""
        iterations = self.iterations
        deadline = None if iterations is not None else time.monotonic() + max(0.0, seconds)
        if self.workers <= 0:
            return search(game, view, seat, seed, deadline, iterations)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), search, game, view, seat, seed, deadline, iterations)
        except BrokenProcessPool:
            log.warning("a search worker died; the pool starts again")
            pool, self._pool = self._pool, None
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    def close(self) -> None:
        """Stop the workers, searches under way included (their rooms are stopping too)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            processes = list(getattr(pool, "_processes", {}).values())  # (Python 3.14 has terminate_workers)
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()

    def __repr__(self) -> str:
        return f"<Thinkers workers={self.workers} iterations={self.iterations}>"
