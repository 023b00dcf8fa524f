"""service/probe.py, the image's HEALTHCHECK, against a real grpc.aio server with the health servicer on port 0."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from collections.abc import AsyncIterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio

from service import probe

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


class Health:
    def __init__(self, server: grpc.aio.Server, servicer: health_aio.HealthServicer, port: int) -> None:
        self.server, self.servicer, self.port, self.target = server, servicer, port, f"127.0.0.1:{port}"


@pytest.fixture
async def health() -> AsyncIterator[Health]:
    server = grpc.aio.server()
    servicer = health_aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    await servicer.set("", SERVING)
    await servicer.set("kickoff.v1.RoomService", SERVING)
    yield Health(server, servicer, port)
    await server.stop(0)


async def run(*args: str, port: int | None = None) -> tuple[int, str]:
    """``python -m service.probe ARGS`` as the HEALTHCHECK runs it (KICKOFF_GRPC_PORT set to ``port`` if given): its
    exit status and its stderr."""
    env = {**os.environ, "KICKOFF_GRPC_PORT": str(port)} if port is not None else None
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "service.probe",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    _, err = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode is not None
    return process.returncode, err.decode()


async def in_thread(*args: str) -> int:
    """probe.main in a thread: its channel is a blocking one, and the server runs on this test's event loop."""
    return await asyncio.to_thread(probe.main, list(args))


async def test_the_command_exits_0_while_serving_and_1_once_draining(health: Health) -> None:
    assert await run("--target", health.target) == (0, "")
    assert await run(port=health.port) == (0, ""), "without --target: 127.0.0.1 at $KICKOFF_GRPC_PORT, as in the image"
    await health.servicer.enter_graceful_shutdown()  # what the server does on SIGTERM
    code, err = await run("--timeout", "2", port=health.port)
    assert code == 1
    assert err.count("\n") == 1 and "NOT_SERVING" in err, err


async def test_one_service_is_asked_about_by_name(health: Health, capsys: pytest.CaptureFixture[str]) -> None:
    assert await in_thread("--target", health.target, "--service", "kickoff.v1.RoomService") == 0
    await health.servicer.set("kickoff.v1.RoomService", NOT_SERVING)
    assert await in_thread("--target", health.target, "--service", "kickoff.v1.RoomService") == 1
    assert "kickoff.v1.RoomService is NOT_SERVING" in capsys.readouterr().err
    assert await in_thread("--target", health.target) == 0, "the server as a whole still serves"
    assert await in_thread("--target", health.target, "--service", "no.such.Service") == 1
    assert "no health status for service 'no.such.Service'" in capsys.readouterr().err


async def test_no_server_is_unhealthy_within_the_timeout(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    started = asyncio.get_running_loop().time()
    assert await in_thread("--target", f"127.0.0.1:{port}", "--timeout", "1") == 1
    assert asyncio.get_running_loop().time() - started < 5
    err = capsys.readouterr().err
    assert err.startswith("unhealthy: ") and err.count("\n") == 1


def test_a_timeout_must_be_positive() -> None:
    with pytest.raises(SystemExit) as exit_:
        probe.main(["--timeout", "0"])
    assert exit_.value.code == 2
