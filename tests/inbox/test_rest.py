"""The inbox over REST, as a phone app reads it: the list with its unread count and pages, marking read, deleting,
and following as server-sent events that resume with Last-Event-ID; the bounds answered 400 with their reason."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import httpx

from tests.inbox.conftest import Boxed
from tests.sse import sse_updates


def bearer(token: str, **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **headers}


async def guest(client: httpx.AsyncClient, name: str) -> dict[str, Any]:
    answer = await client.post("/v1/players/guest", json={"name": name})
    assert answer.status_code == 201, answer.text
    return answer.json()["session"]


async def test_a_phone_lists_marks_read_and_deletes_its_items(boxed: Boxed, gateway) -> None:
    """GET /v1/inbox (newest first, paged, unread count; item ids as strings), POST /v1/inbox/read, DELETE
    /v1/inbox/{item_id}, and a bad page size refused 400 with its reason. (~0.5 s)"""
    client = await gateway(boxed.harness)
    ann = await guest(client, "Ann")
    await boxed.put(ann["player"]["playerId"], 3)
    headers = bearer(ann["accessToken"])
    page = await client.get("/v1/inbox", params={"page_size": 2}, headers=headers)
    assert page.status_code == 200, page.text
    assert "no-store" in page.headers["cache-control"], "a player's inbox is never cached"
    body = page.json()
    assert [item["data"]["n"] for item in body["items"]] == [2, 1] and body["unreadCount"] == 3
    assert isinstance(body["items"][0]["itemId"], str), "an int64 is a string in JSON"
    assert body["items"][0]["kind"] == "friend.requested" and body["items"][0]["read"] is False
    rest = await client.get("/v1/inbox", params={"page_token": body["nextPageToken"]}, headers=headers)
    newest, oldest = body["items"][0]["itemId"], rest.json()["items"][-1]["itemId"]
    marked = await client.post("/v1/inbox/read", json={"itemIds": [newest]}, headers=headers)
    assert marked.status_code == 200 and marked.json() == {"unreadCount": 2}
    marked = await client.post("/v1/inbox/read", json={"upToItemId": oldest}, headers=headers)
    assert marked.json() == {"unreadCount": 1}
    gone = await client.delete(f"/v1/inbox/{newest}", headers=headers)
    assert gone.status_code == 200 and gone.json() == {"unreadCount": 1}
    unread = await client.get("/v1/inbox", params={"unread_only": "true"}, headers=headers)
    assert [item["data"]["n"] for item in unread.json()["items"]] == [1]
    big = await client.get("/v1/inbox", params={"page_size": 101}, headers=headers)
    assert big.status_code == 400 and big.json()["reason"] == "bad_page_size"
    empty = await client.post("/v1/inbox/read", json={}, headers=headers)
    assert empty.status_code == 400 and empty.json()["reason"] == "nothing_to_mark"
    assert (await client.get("/v1/inbox")).status_code == 401, "an access token is needed"


class Follower:
    """An inbox's event stream read as it comes (the answer's text grows in the background)."""

    def __init__(self, client: httpx.AsyncClient, headers: dict[str, str]) -> None:
        self.text, self.status = "", 0
        self.task = asyncio.create_task(self._read(client, headers))

    async def _read(self, client: httpx.AsyncClient, headers: dict[str, str]) -> None:
        async with client.stream("GET", "/v1/inbox/events", headers=headers) as answer:
            self.status = answer.status_code
            async for chunk in answer.aiter_text():
                self.text += chunk

    async def until(self, count: int) -> list[dict]:
        async def wait() -> None:
            while len(sse_updates(self.text)) < count:
                assert not self.task.done(), f"the stream ended: {self.status} {self.text[-300:]}"
                await asyncio.sleep(0.02)

        await asyncio.wait_for(wait(), 10)
        return sse_updates(self.text)

    async def close(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


async def test_a_phone_follows_its_inbox_and_resumes_with_last_event_id(boxed: Boxed, gateway) -> None:
    """GET /v1/inbox/events: each item written after it opened is an `update` event whose id is the item's id;
    coming back with Last-Event-ID sends only the items after it. (~1 s)"""
    client = await gateway(boxed.harness)
    ann = await guest(client, "Ann")
    player = ann["player"]["playerId"]
    following = Follower(client, bearer(ann["accessToken"]))
    try:
        await asyncio.wait_for(_opened(following), 10)
        await boxed.put(player, 1, turn=1)
        first = (await following.until(1))[0]
        assert first["data"]["turn"] == 1
        assert f"id: {first['itemId']}" in following.text, "the event's id is the item's id"
    finally:
        await following.close()
    await boxed.put(player, 2, turn=2)
    resumed = Follower(client, bearer(ann["accessToken"], **{"Last-Event-ID": first["itemId"]}))
    try:
        items = await resumed.until(2)
        assert [item["data"] for item in items] == [
            {"player_id": player, "n": 0, "turn": 2},
            {"player_id": player, "n": 1, "turn": 2},
        ], "only what came after the last id seen, oldest first"
    finally:
        await resumed.close()
    bad = await client.get("/v1/inbox/events", headers=bearer(ann["accessToken"], **{"Last-Event-ID": "x"}))
    assert bad.status_code == 400


async def _opened(follower: Follower) -> None:
    while not follower.text:  # (the answer's head and its first line: the stream is open at the server)
        await asyncio.sleep(0.02)
