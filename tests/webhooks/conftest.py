"""The webhook tests' helpers: receivers on loopback (a small HTTP/1.1 server that records what it gets and answers
as the test says), a clock the test sets, and rows written straight into webhook_endpoints and webhook_deliveries
(the secret column holds the plain whsec_ secret: the dispatcher is given ``unseal=lambda s: s``)."""

from __future__ import annotations

import asyncio
import base64
import json
import random
import secrets
import ssl
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from service.settings import WebhookSettings
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from service.store.models import RoomRow, WebhookDeliveryRow, WebhookEndpointRow
from service.webhooks.addresses import AddressPolicy
from service.webhooks.dispatcher import Dispatcher, Pace
from service.webhooks.sender import Sender
from tests.conftest import empty_database
from tests.server.conftest import Harness
from tests.servers import Start

START = 1_800_000_000.0  # the fake clock's start: 2027, far from the wall clock (signatures must use the wall clock)
LOOPBACK = ("127.0.0.0/8",)
SETTINGS = WebhookSettings(allow=LOOPBACK, retry_hours=26, poll_seconds=1, backlog=1000, keep_days=7)
OPERATOR_KEY = "an operator key of 32 characters"
SERVER_SETTINGS = WebhookSettings(operator_key=OPERATOR_KEY, allow=LOOPBACK, poll_seconds=3600)


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


class FakeClock:
    """A clock that moves only when the test says."""

    def __init__(self, start: float = START) -> None:
        self.t = start

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@dataclass
class Received:
    method: str
    target: str
    headers: dict[str, str]
    body: str
    at: float  # time.monotonic()


Answer = Callable[[Received], Awaitable[int]]


async def ok(_: Received) -> int:
    return 200


@dataclass
class Receiver:
    """An HTTP/1.1 server on loopback: ``answer`` gives each request's status (it may wait); it counts connections
    and the requests under way at once (``peak``)."""

    answer: Answer = ok
    host: str = "127.0.0.1"
    body: bytes = b"ok"
    extra: bytes = b""  # more header lines of every answer
    tls: ssl.SSLContext | None = None
    requests: list[Received] = field(default_factory=list)
    connections: int = 0
    active: int = 0
    peak: int = 0
    port: int = 0
    released: asyncio.Event = field(default_factory=asyncio.Event)

    async def start(self) -> Receiver:
        self._writers: set[asyncio.StreamWriter] = set()
        self._server = await asyncio.start_server(self._serve, self.host, 0, ssl=self.tls)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    @property
    def url(self) -> str:
        return f"{'https' if self.tls else 'http'}://{self.host}:{self.port}/hook?x=1"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self._writers.add(writer)
        try:
            while True:
                line = await reader.readline()
                if not line:
                    break
                method, target, _ = line.decode().split(" ", 2)
                headers: dict[str, str] = {}
                while True:
                    header = await reader.readline()
                    if header in (b"\r\n", b"\n", b""):
                        break
                    name, _, value = header.decode().partition(":")
                    headers[name.strip().lower()] = value.strip()
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                request = Received(method, target, headers, body.decode(), time.monotonic())
                self.requests.append(request)
                self.active += 1
                self.peak = max(self.peak, self.active)
                try:
                    status = await self.answer(request)
                finally:
                    self.active -= 1
                head = b"HTTP/1.1 %d X\r\ncontent-length: %d\r\n%s\r\n" % (status, len(self.body), self.extra)
                writer.write(head + self.body)
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError, ssl.SSLError):
            pass
        finally:
            self._writers.discard(writer)
            writer.close()

    async def hang(self, _: Received) -> int:
        """An answer that never comes (until the receiver closes)."""
        await self.released.wait()
        return 200

    def ids(self) -> list[str]:
        return [request.headers["webhook-id"] for request in self.requests]

    async def close(self) -> None:
        self.released.set()
        self._server.close()
        for writer in list(self._writers):
            writer.close()
        await self._server.wait_closed()
        await asyncio.sleep(0)


@pytest.fixture
async def receivers() -> AsyncIterator[Callable[..., Awaitable[Receiver]]]:
    """Start receivers: ``await receivers(answer=...)``; all close when the test ends."""
    started: list[Receiver] = []

    async def make(answer: Answer | None = None, **fields: Any) -> Receiver:
        receiver = Receiver(**fields)
        if answer is not None:
            receiver.answer = answer
        started.append(await receiver.start())
        return receiver

    yield make
    for receiver in started:
        await receiver.close()


@pytest.fixture
async def sqlite_url(tmp_path) -> str:
    url = await empty_database("sqlite", tmp_path)
    await upgrade_in_thread(url)
    return url


@pytest.fixture
async def postgres_url(tmp_path) -> str:
    url = await empty_database("postgresql", tmp_path)
    await upgrade_in_thread(url)
    return url


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    """Both engines (tests/conftest.py's database_url)."""
    engine = create_engine(database_url)
    yield engine
    await engine.dispose()


@pytest.fixture
async def sqlite_engine(sqlite_url: str) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(sqlite_url)
    yield engine
    await engine.dispose()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def dispatchers(clock: FakeClock) -> AsyncIterator[Callable[..., Dispatcher]]:
    """Make dispatchers (``dispatchers(engine, node_id=..., allow=..., ...)``); each is closed when the test ends."""
    made: list[Dispatcher] = []

    def make(
        engine: AsyncEngine, *, node_id: str = "a", allow: tuple[str, ...] = LOOPBACK, seed: int = 7, **options: Any
    ) -> Dispatcher:
        settings = replace(SETTINGS, allow=allow)
        paced = {name: options.pop(name) for name in ("sleep", "max_tasks", "close_seconds") if name in options}
        dispatcher = Dispatcher(
            engine,
            clock=options.pop("clock", clock),
            settings=options.pop("settings", settings),
            sender=Sender(AddressPolicy(allow)),
            unseal=lambda sealed: sealed,
            node_id=node_id,
            pace=Pace(random=random.Random(seed), **paced),
            **options,
        )
        made.append(dispatcher)
        return dispatcher

    yield make
    for dispatcher in made:
        await dispatcher.close()


async def add_endpoint(
    engine: AsyncEngine,
    url: str,
    *,
    endpoint_id: str = "",
    secret: str = "",
    max_in_flight: int = 4,
    timeout: float = 1.0,
    events: tuple[str, ...] = ("turn.began",),
) -> tuple[str, str]:
    """An endpoint's row; its id and (plain) secret."""
    endpoint_id = endpoint_id or "we_" + secrets.token_hex(8)
    secret = secret or new_secret()
    row = {
        "endpoint_id": endpoint_id,
        "url": url,
        "events": list(events),
        "description": "",
        "secret": secret,
        "secret_hint": secret[:10],
        "max_in_flight": max_in_flight,
        "timeout_seconds": timeout,
        "created_at": START,
    }
    async with engine.begin() as connection:
        await connection.execute(insert(WebhookEndpointRow), [row])
    return endpoint_id, secret


async def add_delivery(
    engine: AsyncEngine,
    endpoint_id: str,
    *,
    at: float,
    data: dict[str, Any] | None = None,
    event: str = "turn.began",
    condition: dict[str, Any] | None = None,
    **values: Any,
) -> str:
    """A pending delivery due ``at``; its id (the webhook-id)."""
    delivery_id = values.pop("delivery_id", "msg_" + secrets.token_hex(16))
    payload = json.dumps({"type": event, "timestamp": "2027-01-15T08:00:00.000Z", "data": data or {"n": 1}})
    row = {
        "delivery_id": delivery_id,
        "endpoint_id": endpoint_id,
        "event": event,
        "payload": payload,
        "created_at": at,
        "retry_from": at,
        "next_attempt_at": at,
        "attempts": 0,
        "status": "pending",
        "condition": condition,
        **values,
    }
    async with engine.begin() as connection:
        await connection.execute(insert(WebhookDeliveryRow), [row])
    return delivery_id


async def delivery(engine: AsyncEngine, delivery_id: str) -> Any:
    async with engine.connect() as connection:
        return (
            await connection.execute(select(WebhookDeliveryRow).where(WebhookDeliveryRow.delivery_id == delivery_id))
        ).one()


async def statuses(engine: AsyncEngine) -> dict[str, str]:
    async with engine.connect() as connection:
        rows = await connection.execute(select(WebhookDeliveryRow.delivery_id, WebhookDeliveryRow.status))
        return {row.delivery_id: row.status for row in rows}


async def add_room(engine: AsyncEngine, room_id: str, turns: dict[str, list[Any]] | None) -> None:
    row = {
        "room_id": room_id,
        "game": "relay",
        "mode": "open",
        "seats": 2,
        "system_players": 0,
        "system_player": "",
        "options": {},
        "seed": 1,
        "created_at": START,
        "status": "playing",
        "correspondence_hours": 24,
        "turns": turns,
    }
    async with engine.begin() as connection:
        await connection.execute(insert(RoomRow), [row])


async def eventually(check: Callable[[], Awaitable[bool]], seconds: float = 3.0) -> None:
    """Wait (polling) until ``check()`` holds; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not await check():
        if time.monotonic() > deadline:
            raise AssertionError("the condition never held")
        await asyncio.sleep(0.01)


@pytest.fixture
async def harness(start: Start, database_url: str) -> Harness:
    """A server with players and webhooks (tests/servers.py's, its operator key OPERATOR_KEY, loopback allowed) on
    both stores; the test steps its dispatcher."""
    return await start(journal=SqlJournal(create_engine(database_url)), webhooks=SERVER_SETTINGS)
