"""A node of a test's cluster: `kickoff grpc` as a process on the test's PostgreSQL, started with the settings a test
gives it (each test file its own: leases, rates, matchmaking)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tests.processes import free_port


@dataclass
class Node:
    name: str
    port: int
    process: subprocess.Popen
    log: Path

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"


def start_node(name: str, url: str, tmp: Path, node_env: Mapping[str, str]) -> Node:
    """`kickoff grpc` as a node of the cluster on ``url``, with ``node_env`` over this process's environment (but
    its token secret: the nodes share the store's); its log in ``tmp``."""
    port = free_port()
    log = tmp / f"{name}.log"
    command = [sys.executable, "-m", "cli", "grpc", "--port", str(port), "--database-url", url]
    command += ["--node-id", name, "--advertise-address", f"127.0.0.1:{port}"]
    env = {k: v for k, v in os.environ.items() if k != "KICKOFF_TOKEN_SECRET"} | dict(node_env)
    with log.open("w") as err:
        process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=err, text=True)
    for line in process.stdout:
        if f":{port}" in line:
            return Node(name, port, process, log)
    raise AssertionError(f"node {name} did not start: {log.read_text()[-3000:]}")
