"""The gateway (uvicorn, in this test's event loop) in front of a real gRPC server on port 0, both on loopback."""

from __future__ import annotations

import asyncio
import itertools
import socket
from collections.abc import AsyncIterator

import httpx
import pytest
import uvicorn

from service.gateway.app import create_app
from service.grpc.server import create_server
from service.grpc.tokens import SeatTokens
from service.rooms.clock import ManualClock
from service.rooms.directory import RoomDirectory
from tests.room_ids import room_ids_for_test


@pytest.fixture
async def grpc_server():
    seeds = itertools.count(1)
    directory = RoomDirectory(
        clock=ManualClock(), seed_source=lambda: next(seeds), default_think_seconds=0, room_ids=room_ids_for_test()
    )
    server = await create_server(directory, SeatTokens(b"a test secret of 32 bytes......."))
    yield server
    await server.stop(0)


@pytest.fixture
async def client(grpc_server) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(f"127.0.0.1:{grpc_server.port}", timeout=5.0)
    # proto=IPPROTO_TCP, as uvicorn's own sockets have: asyncio then sets TCP_NODELAY on each connection. (With the
    # default proto 0 it does not, and every small response waits ~40 ms for the client's delayed ACK.)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, loop="none", lifespan="on", log_level="warning"))
    serving = asyncio.create_task(server.serve(sockets=[listener]))
    while not server.started:
        await asyncio.sleep(0.01)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
        yield http
    server.should_exit = True
    await serving
