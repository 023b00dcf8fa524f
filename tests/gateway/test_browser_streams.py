"""Event streams as a browser needs them: the answer starts at once, a finished room's stream says so and tells an
EventSource to stop, and a stream ticket opens a seat's own stream without a header - for that room, for a minute,
for streams only - and never shows up in a log line."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

from tests.server.conftest import Harness
from tests.servers import Start
from tests.sse import sse_events, sse_updates


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def playing_room(harness: Harness) -> tuple[str, dict[int, str]]:
    room_id = (await harness.create(seats=2)).room_id
    return room_id, dict([await harness.join(room_id, seat=seat) for seat in (0, 1)])


async def test_the_answer_starts_at_once_even_with_nothing_newer(start: Start, gateway) -> None:
    harness = await start()
    client = await gateway(harness)
    room_id, tokens = await playing_room(harness)
    version = (await harness.view(room_id)).version

    async def first_bytes() -> tuple[int, str, bytes, object]:
        stream = client.stream("GET", f"/v1/rooms/{room_id}/events", headers={"Last-Event-ID": str(version)})
        response = await stream.__aenter__()
        chunks = response.aiter_raw()
        return response.status_code, response.headers["content-type"], await anext(chunks), (stream, chunks)

    status, kind, chunk, (stream, chunks) = await asyncio.wait_for(first_bytes(), 10)
    assert status == 200 and kind.startswith("text/event-stream") and b"retry: 3000" in chunk
    legal = await harness.legal(room_id, tokens[0])
    await harness.submit(room_id, tokens[0], legal[0], request_id="m1")
    following = b""
    while b"event: update" not in following:
        following += await asyncio.wait_for(anext(chunks), 10)
    assert f"id: {version + 1}".encode() in following, "the next update comes on the open answer"
    await stream.__aexit__(None, None, None)


async def test_a_quiet_stream_says_heartbeats_and_goes_on_with_the_next_update(start: Start, gateway) -> None:
    """With nothing to send for the heartbeat's time the answer writes a comment line (proxies keep it open), and an
    update made after it still comes on the same answer. Buys: the stream's wait for its next message, which a
    heartbeat interrupts, loses nothing (the waiting read is not a task of its own). Under a second."""
    harness = await start()
    client = await gateway(harness, heartbeat=0.05)
    room_id, tokens = await playing_room(harness)
    version = (await harness.view(room_id)).version
    async with client.stream("GET", f"/v1/rooms/{room_id}/events", headers={"Last-Event-ID": str(version)}) as answer:
        chunks = answer.aiter_raw()
        seen = b""
        while seen.count(b": heartbeat\r\n\r\n") < 2:
            seen += await asyncio.wait_for(anext(chunks), 10)
        assert b"event:" not in seen, "a heartbeat is a comment only"
        legal = await harness.legal(room_id, tokens[0])
        await harness.submit(room_id, tokens[0], legal[0], request_id="m1")
        following = b""
        while b"event: update" not in following:
            following += await asyncio.wait_for(anext(chunks), 10)
        assert f"id: {version + 1}\r\nevent: update\r\ndata: ".encode() in following


async def test_a_finished_room_says_end_and_a_reconnect_is_told_to_stop(start: Start, gateway) -> None:
    harness = await start()
    client = await gateway(harness)
    room_id = (await harness.create(seats=2, system_players=1, solo=True)).room_id
    _, token = await harness.join(room_id)
    chooser = random.Random(2)
    while (view := await harness.view(room_id, token)).to_act:
        await harness.submit(room_id, token, chooser.choice(await harness.legal(room_id, token)), f"{view.version}")
        await harness.settle(room_id)
    final = (await harness.view(room_id)).version
    answer = await client.get(f"/v1/rooms/{room_id}/events")
    events = sse_events(answer.text)
    assert [int(data["version"]) for name, data in events if name == "update"] == list(range(1, final + 1))
    assert events[-1] == ("end", {"version": str(final)}), "the stream says the updates are over"
    again = await client.get(f"/v1/rooms/{room_id}/events", headers={"Last-Event-ID": str(final)})
    assert again.status_code == 204 and again.text == "", "204 stops an EventSource from reconnecting"


async def test_a_stream_ticket_opens_the_seats_own_stream_and_nothing_else(start: Start, gateway, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    harness = await start()
    client = await gateway(harness)
    room_id, tokens = await playing_room(harness)
    other_room, _ = await playing_room(harness)
    minted = await client.post(f"/v1/rooms/{room_id}/stream-tickets", headers=bearer(tokens[1]))
    assert minted.status_code == 201, minted.text
    ticket = minted.json()["ticket"]
    assert minted.json()["expireTime"] and ticket != tokens[1]

    while list((view := await harness.view(room_id)).to_act) == [0]:  # until seat 1 must act
        await harness.submit(room_id, tokens[0], (await harness.legal(room_id, tokens[0]))[0], f"m{view.version}")
    version = (await harness.view(room_id)).version
    async with client.stream("GET", f"/v1/rooms/{room_id}/events?ticket={ticket}") as stream:
        assert stream.status_code == 200
        text = ""
        async for chunk in stream.aiter_text():
            text += chunk.replace("\r\n", "\n")
            if f"id: {version}\n" in text:
                break
    updates = sse_updates(text)
    assert updates and all(update["viewer"] == 1 for update in updates), "seat 1's own stream"
    assert "legalMoves" in updates[-1], "with its legal moves"

    moved = await client.post(
        f"/v1/rooms/{room_id}/moves", json={"move": {"soker": {"draw": {}}}, "requestId": "t"}, headers=bearer(ticket)
    )
    assert moved.status_code == 401, "a ticket never moves"
    elsewhere = await client.get(f"/v1/rooms/{other_room}/events?ticket={ticket}")
    assert elsewhere.status_code == 403 and elsewhere.json()["reason"] == "permission_denied"
    both = await client.get(f"/v1/rooms/{room_id}/events?ticket={ticket}", headers=bearer(tokens[1]))
    assert both.status_code == 400 and both.json()["reason"] == "ticket_and_token"
    anonymous = await client.post(f"/v1/rooms/{room_id}/stream-tickets")
    assert anonymous.status_code == 401, "a ticket is minted with a seat token"
    harness.clock.advance(60)
    expired = await client.get(f"/v1/rooms/{room_id}/events?ticket={ticket}")
    assert expired.status_code == 401 and "expired" in expired.json()["detail"]
    assert ticket not in expired.text and ticket not in both.text
    logged = "\n".join(record.getMessage() for record in caplog.records if not record.name.startswith("httpx"))
    assert ticket not in logged and tokens[1] not in logged, "no log line shows a ticket or a token"


@pytest.mark.parametrize("forged", ["", "x.y", "not a ticket"])
async def test_a_forged_ticket_is_refused(start: Start, gateway, forged: str) -> None:
    harness = await start()
    client = await gateway(harness)
    room_id, tokens = await playing_room(harness)
    if not forged:  # a seat token is not a ticket
        forged = tokens[0]
    answer = await client.get(f"/v1/rooms/{room_id}/events", params={"ticket": forged})
    assert answer.status_code in (400, 401), answer.text
