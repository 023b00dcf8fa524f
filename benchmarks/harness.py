"""What the benchmarks share: kickoff's processes (and the bare fan-out server) started on free ports of loopback, and
a fresh store for a run.

Each is a child process of the benchmark, stopped by it: `kickoff grpc` (:class:`ServerProcess`), `kickoff gateway`
(:class:`GatewayProcess`), the bare fan-out server of baseline.py (:class:`BaselineProcess`) and the bare REST relay
of rest_floor.py (:class:`RestFloorProcess`). kickoff's run without the per-caller limits (:data:`UNLIMITED`): the
load comes from one address.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# The load comes from one address: the per-caller limits that protect a public server would throttle it, and its
# rated games would play unrated (same_address).
UNLIMITED = {
    "KICKOFF_CREATE_RATE": "off",
    "KICKOFF_JOIN_RATE": "off",
    "KICKOFF_STREAMS_PER_CALLER": "0",
    "KICKOFF_MAX_LIVE_ROOMS": "0",
    "KICKOFF_RATE_SHARED_ADDRESSES": "1",
}


class Child:
    """A kickoff process this benchmark started."""

    process: subprocess.Popen
    port: int

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the process has used so far."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def _listening(self, what: str) -> None:
        """Waits for the child's first line, which names its port once it listens; kills it and raises if not."""
        line = self.process.stdout.readline() if self.process.stdout else ""
        if f":{self.port}" not in line:
            self.process.kill()
            raise RuntimeError(f"{what} did not start: {line!r}")

    def stop(self) -> None:
        """SIGTERM (a graceful stop), then SIGKILL after 30 s."""
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


class ServerProcess(Child):
    """`kickoff grpc` in a child process on a free port."""

    def __init__(
        self,
        database_url: str = "",
        *,
        tracing: bool = False,
        env: dict[str, str] | None = None,
        node_id: str = "",
        extra: tuple[str, ...] = (),
    ) -> None:
        """``extra``: more arguments of `kickoff grpc` (players.py's seeds the rooms)."""
        self.port = free_port()
        self._scratch: tempfile.TemporaryDirectory[str] | None = None
        if not database_url:  # a fresh SQLite file
            self._scratch = tempfile.TemporaryDirectory(prefix="kickoff-bench-")
            database_url = f"sqlite+aiosqlite:///{self._scratch.name}/bench.db"
        self.database_url = database_url
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cli", "grpc", "--port", str(self.port), "--database-url", database_url, *extra]
            + (["--discard-spans"] if tracing else [])
            + (["--node-id", node_id, "--advertise-address", f"127.0.0.1:{self.port}"] if node_id else []),
            env={**os.environ, **UNLIMITED, **(env or {})},
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self._listening("the server")

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def peak_rss_mb(self) -> float:
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def stop(self) -> None:
        super().stop()
        if self._scratch is not None:
            self._scratch.cleanup()


class BaselineProcess(ServerProcess):
    """The bare fan-out server (benchmarks/baseline.py) in a child process on a free port."""

    def __init__(self, update_bytes: int, moves_per_game: int = 47) -> None:  # not ServerProcess.__init__: no store
        self.port = free_port()
        self._scratch = None
        self.database_url = "none"
        command = [sys.executable, "-m", "benchmarks.baseline", "--port", str(self.port)]
        command += ["--update-bytes", str(update_bytes), "--moves-per-game", str(moves_per_game)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self._listening("the baseline server")


class GatewayProcess(Child):
    """`kickoff gateway` in a child process on a free port, in front of ``grpc_target``."""

    def __init__(self, grpc_target: str, *, tracing: bool = False) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cli", "gateway", "--port", str(self.port), "--grpc-target", grpc_target]
            + ["--max-connections-per-client", "0"]  # every seat's connections come from this one address
            + (["--discard-spans"] if tracing else []),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(200):
            try:
                if httpx.get(f"{self.url}/v1/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.process.kill()
        raise RuntimeError("the gateway did not start")


class RestFloorProcess(Child):
    """The bare REST relay (benchmarks/rest_floor.py) in a child process on a free port, in front of ``grpc_target``:
    the floor under :class:`GatewayProcess`."""

    def __init__(self, grpc_target: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "benchmarks.rest_floor", "--port", str(self.port)]
        self.process = subprocess.Popen(
            [*command, "--grpc-target", grpc_target], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        self._listening("the REST relay")


def fresh_store(database_url: str, name: str) -> tuple[str, Callable[[], None]]:
    """A fresh SQLite file ``name``.db (``database_url`` empty), or a fresh database beside the PostgreSQL one named.
    Returns its URL and what removes it."""
    if not database_url:
        folder = tempfile.TemporaryDirectory(prefix=f"kickoff-bench-{name}-")
        return f"sqlite+aiosqlite:///{folder.name}/{name}.db", folder.cleanup
    if database_url.startswith("postgresql"):
        made = f"kickoff_bench_{uuid.uuid4().hex[:8]}"
        url = asyncio.run(database(database_url, made))
        return url, lambda: asyncio.run(database(database_url, made, drop=True))
    raise ValueError("--database-url is a PostgreSQL database (a fresh one is made beside it), or empty: SQLite")


async def database(admin_url: str, name: str, *, drop: bool = False) -> str:
    """Make (or, ``drop``, remove) the database ``name`` beside the PostgreSQL one at ``admin_url``; its URL."""
    import asyncpg

    connection = await asyncpg.connect(admin_url.replace("postgresql+asyncpg", "postgresql"))
    try:
        await connection.execute(
            f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)' if drop else f'CREATE DATABASE "{name}"'
        )
    finally:
        await connection.close()
    return admin_url.rsplit("/", 1)[0] + f"/{name}"
