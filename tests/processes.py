"""`kickoff grpc` in a process of its own: for the tests that kill it with SIGKILL (no goodbye) and start it again on
the same port and store."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from types import TracebackType

import grpc


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(
    database_url: str, port: int, command: str = "cli", settings: dict[str, str] | None = None
) -> subprocess.Popen:
    """`kickoff grpc` (or ``command``: a module that runs it, e.g. with the tests' game hosted) on ``port``, with
    ``settings`` (KICKOFF_... variables) besides the environment's."""
    env = {k: v for k, v in os.environ.items() if k != "KICKOFF_TOKEN_SECRET"} | (settings or {})
    # On PostgreSQL the server is a node of a cluster: a short lease, so that a server killed and started again
    # (the same node id) waits little for its predecessor's lease to run out.
    env.setdefault("KICKOFF_LEASE_SECONDS", "2")
    env.setdefault("KICKOFF_RENEW_SECONDS", "0.5")
    process = subprocess.Popen(
        [sys.executable, "-m", command, "grpc", "--port", str(port), "--database-url", database_url],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    for line in process.stdout:
        if f":{port}" in line:
            return process
    raise AssertionError("the server did not start")


class ServerProcess:
    """One server on a free port and a store; ``kill9`` then ``restart`` bring it back on the same port and store.
    Used as a context manager, it is killed on leaving."""

    def __init__(self, database_url: str, command: str = "cli", settings: dict[str, str] | None = None) -> None:
        self.database_url, self.command, self.settings = database_url, command, settings
        self.port = free_port()
        self.target = f"127.0.0.1:{self.port}"
        self.process = start_server(database_url, self.port, command, settings)

    def channel(self) -> grpc.aio.Channel:
        """A channel of its own: after a restart, a shared subchannel's failed connection would be backed off."""
        return grpc.aio.insecure_channel(self.target, options=[("grpc.use_local_subchannel_pool", 1)])

    def kill9(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def restart(self) -> None:
        self.process = start_server(self.database_url, self.port, self.command, self.settings)

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.process.kill()
        self.process.wait()
