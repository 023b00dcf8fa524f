"""A PostgreSQL 15 cluster of one test's own, to stop and start under a running server (the throwaway cluster of
`make test` serves every other test). initdb refuses root, so as root the cluster runs as the postgres user."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

BINDIR = Path(os.environ.get("POSTGRES_BINDIR", "/usr/lib/postgresql/15/bin"))


def _as_postgres(*command: str) -> None:
    if os.getuid() == 0:
        command = ("su", "postgres", "-s", "/bin/sh", "-c", " ".join(f"'{part}'" for part in command))
    subprocess.run(command, check=True, capture_output=True, timeout=60)


class PrivateCluster:
    """``start()``, ``stop()`` (a fast shutdown: connections are cut, as when an operator restarts the server) and
    ``remove()``; ``url`` is its database's SQLAlchemy URL."""

    def __init__(self) -> None:
        if not (BINDIR / "initdb").exists():
            reason = f"no PostgreSQL binaries in {BINDIR}"
            if os.environ.get("CI") == "true":
                pytest.fail(reason)
            pytest.skip(reason)
        self.folder = Path(tempfile.mkdtemp(prefix="kickoff-pg-own-"))
        if os.getuid() == 0:
            shutil.chown(self.folder, "postgres")
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.data = self.folder / "data"
        _as_postgres(str(BINDIR / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        self.start()
        _as_postgres(str(BINDIR / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "kickoff")
        self.url = f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/kickoff"

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        _as_postgres(
            str(BINDIR / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "log"), "-w", "-o", options, "start"
        )

    def stop(self) -> None:
        _as_postgres(str(BINDIR / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        subprocess.run(
            ["su", "postgres", "-s", "/bin/sh", "-c", f"'{BINDIR / 'pg_ctl'}' -D '{self.data}' -m immediate stop"]
            if os.getuid() == 0
            else [str(BINDIR / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(self.folder, ignore_errors=True)
