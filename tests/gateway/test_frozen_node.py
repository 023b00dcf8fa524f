"""A node that stops answering without closing its connections (SIGSTOP, a stalled machine) does not hold the
gateway's event streams for ever: the gateway's own heartbeats would keep each client's answer open, so its channel
pings the node and drops a connection whose ping goes unanswered; the stream's answer then ends (without an `end`
event) and an EventSource comes back, through another node in a cluster. The node is frozen on the wire
(tests/freeze.py); the keepalive is shortened for the test (the gateway pings every 10 s in service)."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

from service.gateway import app as gateway_app
from service.grpc import server as grpc_server
from tests.freeze import Freezer
from tests.servers import Start
from tests.sse import sse_events


async def test_an_event_stream_through_the_gateway_ends_when_its_node_freezes(start: Start, gateway, monkeypatch):
    monkeypatch.setattr(gateway_app, "KEEPALIVE_MS", 500)
    monkeypatch.setattr(gateway_app, "PING_TIMEOUT_MS", 500)
    monkeypatch.setattr(grpc_server, "MIN_PING_MS", 250)
    harness = await start()
    freezer = await Freezer(f"127.0.0.1:{harness.server.port}").start()
    try:
        client = await gateway(SimpleNamespace(server=SimpleNamespace(port=int(freezer.address.rsplit(":", 1)[1]))))
        room_id = (await harness.create(seats=2)).room_id
        await harness.join(room_id)
        async with client.stream("GET", f"/v1/rooms/{room_id}/events") as answer:
            assert answer.status_code == 200
            text = ""
            chunks = answer.aiter_text()
            while not sse_events(text):  # (the join)
                text += await asyncio.wait_for(anext(chunks), 10)
            # Idle, the stream is pinged (and the node lets it be: no GOAWAY), and stays open for the next update.
            mark = freezer.sent

            async def pinged() -> None:
                while freezer.sent < mark + 6 * 17:  # (six pings, every half second: past grpc's two strikes)
                    await asyncio.sleep(0.1)

            await asyncio.wait_for(pinged(), 10)
            await harness.join(room_id)
            while len(sse_events(text)) < 2:
                text += await asyncio.wait_for(anext(chunks), 10)
            freezer.freeze()
            frozen = time.monotonic()

            async def rest() -> str:
                return "".join([chunk async for chunk in chunks])

            tail = await asyncio.wait_for(rest(), 10)  # (without the keepalive: for ever, heartbeats and all)
        assert "event: end" not in tail, "the room is not over: the client comes back with Last-Event-ID"
        assert time.monotonic() - frozen < 3
        assert [name for name, _ in sse_events(text)] == ["update", "update"]
    finally:
        freezer.thaw()
        await freezer.close()
