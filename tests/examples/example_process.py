"""An example under examples/ run as a reader runs it: its own Python process, its output read line by line as it
comes, so that the test can act on what the example says (turn the matchmaker's queue once it waits) while the
server it talks to runs in the test's event loop."""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal

ROOT = Path(__file__).parents[2]
# A guard against a hung example only (it fails the test): a whole run takes about a second.
SECONDS = 30


async def sqlite_journal(tmp_path: Path) -> SqlJournal:
    """A journal on a fresh SQLite file: the server then has players and matchmaking, as `make run`'s has."""
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    return SqlJournal(create_engine(url))


@dataclass
class Example:
    """A running example: its process, the lines it printed so far, and what it writes to stderr (read as it comes,
    so that neither pipe fills up)."""

    process: asyncio.subprocess.Process
    errors: asyncio.Task[bytes]
    lines: list[str] = field(default_factory=list)

    @classmethod
    async def start(cls, path: str, *args: str) -> Example:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(ROOT / path),
            *args,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},  # each line as it is printed, as on a terminal
        )
        return cls(process, asyncio.create_task(process.stderr.read()))

    async def until(self, text: str) -> None:
        """Read its output until a line holds ``text``; fails if it ends first, or stays silent too long."""
        while not self.lines or text not in self.lines[-1]:
            if not await self._line():
                raise AssertionError(f"it ended before saying {text!r}; it said:\n{self.said}")

    async def finish(self) -> tuple[int, str]:
        """Read the rest of its output until it exits; its exit status and what it wrote to stderr."""
        while await self._line():
            pass
        await self.process.wait()
        return self.process.returncode, (await self.errors).decode()

    @property
    def said(self) -> str:
        return "\n".join(self.lines)

    async def _line(self) -> bool:
        """Reads one more line of its output: False at its end."""
        try:
            line = await asyncio.wait_for(self.process.stdout.readline(), SECONDS)
        except TimeoutError:
            self.kill()
            stderr = (await self.errors).decode()
            raise AssertionError(f"it said nothing for {SECONDS} s; it said:\n{self.said}\n{stderr}") from None
        if line:
            self.lines.append(line.decode().rstrip("\n"))
        return bool(line)

    def kill(self) -> None:
        if self.process.returncode is None:
            self.process.kill()


async def run_while_system_players_fill(path: str, target: str, harness: Any, waiting: str) -> str:
    """Runs the example at ``path`` against ``target`` to its end: once it says ``waiting`` (its ticket is in the
    queue), the harness's clock passes KICKOFF_MATCH_FILL_SECONDS and the queue turns once, so system players fill
    its table. What it printed; fails unless it exited 0 with nothing on stderr."""
    example = await Example.start(path, target)
    try:
        await example.until(waiting)
        harness.clock.advance(30)
        await harness.matchmaker.tick()
        code, stderr = await example.finish()
    finally:
        example.kill()
    assert code == 0 and not stderr, example.said + stderr
    return example.said
