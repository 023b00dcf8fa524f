"""Both processes' telemetry into memory: a gRPC server on a SQLite store and the REST gateway, each with its own
tracer and meter providers (as two processes would have), on loopback in this test's event loop."""

from __future__ import annotations

import asyncio
import itertools
import logging
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass

import grpc
import httpx
import pytest
import uvicorn
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from service.gateway.app import create_app
from service.grpc.server import KickoffServer, create_server
from service.grpc.tokens import SeatTokens
from service.rooms.clock import ManualClock
from service.rooms.directory import RoomDirectory
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from service.telemetry import Telemetry, build
from tests.conftest import empty_database
from tests.room_ids import room_ids_for_test


@dataclass
class Side:
    """One process's telemetry, kept in memory."""

    telemetry: Telemetry
    spans: InMemorySpanExporter
    metrics: InMemoryMetricReader

    def finished(self) -> list[ReadableSpan]:
        return list(self.spans.get_finished_spans())


def side(name: str) -> Side:
    spans, metrics = InMemorySpanExporter(), InMemoryMetricReader()
    telemetry = build(name, span_processors=[SimpleSpanProcessor(spans)], metric_readers=[metrics])
    return Side(telemetry, spans, metrics)


class Records(logging.Handler):
    """Every log record of the run, formatted as it would be written."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        text = self.format(record)
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        self.lines.append(text)


@dataclass
class Stack:
    server: KickoffServer
    gateway: Side
    grpc: Side
    clock: ManualClock
    http: httpx.AsyncClient
    channel: grpc.aio.Channel
    logs: Records
    database: str


@pytest.fixture(params=["sqlite", "postgresql"])
async def stack(request: pytest.FixtureRequest, tmp_path) -> AsyncIterator[Stack]:
    url = await empty_database(request.param, tmp_path)
    await upgrade_in_thread(url)
    grpc_side, gateway_side = side("kickoff-grpc"), side("kickoff-gateway")
    logs = Records()
    logging.getLogger().addHandler(logs)
    previous_level = logging.getLogger().level
    logging.getLogger().setLevel(logging.DEBUG)
    clock = ManualClock()
    seeds = itertools.count(1)
    journal = SqlJournal(create_engine(url), grpc_side.telemetry)
    directory = RoomDirectory(
        clock=clock,
        journal=journal,
        seed_source=lambda: next(seeds),
        default_think_seconds=0,
        telemetry=grpc_side.telemetry,
        room_ids=room_ids_for_test(),
    )
    server = await create_server(directory, SeatTokens(b"a test secret of 32 bytes......."))
    app = create_app(f"127.0.0.1:{server.port}", timeout=5.0, telemetry=gateway_side.telemetry)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    http_server = uvicorn.Server(uvicorn.Config(app, loop="none", lifespan="on", log_level="warning"))
    serving = asyncio.create_task(http_server.serve(sockets=[listener]))
    while not http_server.started:
        await asyncio.sleep(0.01)
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{server.port}")
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
        yield Stack(server, gateway_side, grpc_side, clock, http, channel, logs, request.param)
    await channel.close()
    http_server.should_exit = True
    await serving
    await server.stop(0)
    await journal.close()
    logging.getLogger().removeHandler(logs)
    logging.getLogger().setLevel(previous_level)
