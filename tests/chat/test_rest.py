"""Rooms' chat over REST, as a browser uses it: sending (201, the message with its seq as a string), listing, a
`<script>` kept as plain text, the chat's event stream resuming with Last-Event-ID, and refusals answered with their
reason."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from tests.chat.conftest import Table
from tests.sse import sse_updates


def bearer(token: str, **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **headers}


async def events(client: httpx.AsyncClient, path: str, headers: dict[str, str], count: int) -> list[dict[str, Any]]:
    """The first ``count`` `update` events of an event stream."""
    text = ""

    async def read() -> list[dict[str, Any]]:
        nonlocal text
        async with client.stream("GET", path, headers=headers) as answer:
            assert answer.status_code == 200, await answer.aread()
            async for chunk in answer.aiter_text():
                text += chunk
                if len(sse_updates(text)) >= count:
                    return sse_updates(text)[:count]
        raise AssertionError(f"the stream ended: {text[-300:]}")

    return await asyncio.wait_for(read(), 10)


async def test_a_browser_sends_lists_and_follows_the_chat(table: Table, gateway) -> None:
    """POST /v1/rooms/{room_id}/chat answers 201 with the stored message; GET lists it for the other player, its text
    exactly as sent (markup stays characters); /chat/events resumes after Last-Event-ID; a message too long is 400
    message_too_long, and the spectators' channel refuses a seated player 403 not_your_channel. (~0.6 s)"""
    client = await gateway(table.harness)
    ann, bob = await table.guest("Ann"), await table.guest("Bob")
    room_id = await table.room(ann, bob)
    sent = await client.post(
        f"/v1/rooms/{room_id}/chat", json={"text": "<script>alert(1)</script>"}, headers=bearer(ann.access_token)
    )
    assert sent.status_code == 201, sent.text
    message = sent.json()
    assert message["seq"] == "1" and message["channel"] == "CHAT_CHANNEL_PLAYERS" and message["name"] == "Ann"
    listed = await client.get(f"/v1/rooms/{room_id}/chat", headers=bearer(bob.access_token))
    assert listed.status_code == 200 and "no-store" in listed.headers["cache-control"]
    assert [m["text"] for m in listed.json()["messages"]] == ["<script>alert(1)</script>"], "text, never markup"
    second = await client.post(
        f"/v1/rooms/{room_id}/chat", json={"reaction": "CHAT_REACTION_GOOD_GAME"}, headers=bearer(bob.access_token)
    )
    assert second.status_code == 201 and second.json()["seq"] == "2"
    path = f"/v1/rooms/{room_id}/chat/events"
    assert [e["seq"] for e in await events(client, path, bearer(bob.access_token), 2)] == ["1", "2"]
    resumed = await events(client, path, bearer(bob.access_token, **{"Last-Event-ID": "1"}), 1)
    assert resumed[0]["reaction"] == "CHAT_REACTION_GOOD_GAME", "after the last event's id, nothing twice"
    long = await client.post(f"/v1/rooms/{room_id}/chat", json={"text": "x" * 301}, headers=bearer(ann.access_token))
    assert long.status_code == 400 and long.json()["reason"] == "message_too_long"
    wrong = await client.post(
        f"/v1/rooms/{room_id}/chat",
        json={"text": "hi", "channel": "CHAT_CHANNEL_SPECTATORS"},
        headers=bearer(ann.access_token),
    )
    assert wrong.status_code == 403 and wrong.json()["reason"] == "not_your_channel"


async def raw_events(
    client: httpx.AsyncClient, path: str, headers: dict[str, str], chats: int
) -> list[tuple[str, str, dict[str, Any]]]:
    """The events (name, id, data) of an event stream up to its ``chats``-th `chat` event (0: its first event)."""
    text = ""

    def parsed() -> list[tuple[str, str, dict[str, Any]]]:
        found = []
        for block in text.replace("\r\n", "\n").split("\n\n"):
            fields = dict(line.partition(":")[::2] for line in block.splitlines() if line and not line.startswith(":"))
            if "data" in fields:
                found.append(
                    (fields.get("event", "").strip(), fields.get("id", "").strip(), json.loads(fields["data"]))
                )
        return found

    def enough(events: list[tuple[str, str, dict[str, Any]]]) -> int:
        if not chats:
            return 1 if events else 0
        names = [name for name, _, _ in events]
        return 0 if names.count("chat") < chats else [i for i, n in enumerate(names) if n == "chat"][chats - 1] + 1

    async def read() -> list[tuple[str, str, dict[str, Any]]]:
        nonlocal text
        async with client.stream("GET", path, headers=headers) as answer:
            assert answer.status_code == 200, await answer.aread()
            async for chunk in answer.aiter_text():
                text += chunk
                if upto := enough(parsed()):
                    return parsed()[:upto]
        raise AssertionError(f"the stream ended: {text[-300:]}")

    return await asyncio.wait_for(read(), 10)


async def test_the_rooms_event_stream_carries_the_chat_when_asked_and_resumes_both(table: Table, gateway) -> None:
    """Buys: a browser follows a table's updates and its chat on one event stream (/v1/rooms/{id}/events with
    after_chat_seq): chat messages are `chat` events between the updates, every id is `<version>:<seq>`, and coming
    back with the last id sends neither an update nor a message twice. Without after_chat_seq, no chat. (~0.5 s)"""
    client = await gateway(table.harness)
    ann, bob = await table.guest("Ann"), await table.guest("Bob")
    room_id = await table.room(ann, bob)
    seat = bearer(table.seat_tokens[room_id, bob.player.player_id])
    await table.say(ann, room_id, "hello")
    await table.say(ann, room_id, "<b>bold</b>")
    path = f"/v1/rooms/{room_id}/events"
    first = await raw_events(client, f"{path}?after_chat_seq=0", seat, 2)
    chats = [data for name, _, data in first if name == "chat"]
    assert [c["text"] for c in chats] == ["hello", "<b>bold</b>"] and chats[0]["name"] == "Ann"
    versions = [int(data["version"]) for name, _, data in first if name == "update"]
    assert versions and all(event_id.count(":") == 1 for _, event_id, _ in first)
    last_id = first[-1][1]
    assert last_id == f"{versions[-1]}:{chats[-1]['seq']}"

    await table.say(ann, room_id, "again")
    resumed = await raw_events(client, path, {**seat, "Last-Event-ID": last_id}, 1)
    assert [data.get("text") for name, _, data in resumed if name == "chat"] == ["again"], "no message twice"
    assert all(int(data["version"]) > versions[-1] for name, _, data in resumed if name == "update"), "no update twice"
    plain = await raw_events(client, path, seat, 0)
    assert plain[0][0] == "update" and ":" not in plain[0][1], "no chat unless asked"
    bad = await client.get(path, headers={**seat, "Last-Event-ID": "3:x"})
    assert bad.status_code == 400
