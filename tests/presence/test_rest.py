"""Presence over REST, as a phone app reads it: the friends' list, the visibility setting and the event stream that
resumes with Last-Event-ID; the bounds answered 400 with their reason."""

from __future__ import annotations

import asyncio
import contextlib

import httpx

from kickoff.v1 import presence_pb2
from tests.presence.conftest import SETTINGS, Pair
from tests.server.conftest import auth
from tests.sse import sse_updates


def bearer(token: str, **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **headers}


class Follower:
    """A presence event stream read as it comes (the answer's text grows in the background)."""

    def __init__(self, client: httpx.AsyncClient, headers: dict[str, str]) -> None:
        self.text, self.status = "", 0
        self.task = asyncio.create_task(self._read(client, headers))

    async def _read(self, client: httpx.AsyncClient, headers: dict[str, str]) -> None:
        async with client.stream("GET", "/v1/presence/events", headers=headers) as answer:
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


async def test_a_phone_lists_and_sets_presence(pair: Pair, gateway) -> None:
    """GET /v1/presence (a friend's state and since when), POST /v1/presence/visibility, and the refusals 400
    bad_page_size, bad_visibility and 401 without a token. (~0.5 s)"""
    a = pair.a
    client = await gateway(a.harness)
    ann, bo = await a.guest("Ann"), await pair.b.guest("Bo")
    await pair.befriend(ann, bo)
    await a.presence.flush()
    page = await client.get("/v1/presence", headers=bearer(bo.access_token))
    assert page.status_code == 200, page.text
    assert "no-store" in page.headers["cache-control"], "presence is never cached"
    body = page.json()
    assert body["visibility"] == "PRESENCE_VISIBILITY_FRIENDS"
    [friend] = body["friends"]
    assert (friend["name"], friend["state"]) == ("Ann", "PRESENCE_STATE_ONLINE") and "sinceTime" in friend
    chosen = await client.post(
        "/v1/presence/visibility", json={"visibility": "PRESENCE_VISIBILITY_NOBODY"}, headers=bearer(ann.access_token)
    )
    assert chosen.status_code == 200 and chosen.json() == {"visibility": "PRESENCE_VISIBILITY_NOBODY"}
    hidden = (await client.get("/v1/presence", headers=bearer(bo.access_token))).json()["friends"][0]
    assert hidden["state"] == "PRESENCE_STATE_AWAY" and "lastSeenTime" not in hidden
    bad = await client.post("/v1/presence/visibility", json={}, headers=bearer(ann.access_token))
    assert bad.status_code == 400 and bad.json()["reason"] == "bad_visibility"
    big = await client.get(
        "/v1/presence", params={"page_size": SETTINGS.page_size + 1}, headers=bearer(bo.access_token)
    )
    assert big.status_code == 400 and big.json()["reason"] == "bad_page_size"
    assert (await client.get("/v1/presence")).status_code == 401, "an access token is needed"


async def test_a_phone_follows_presence_and_resumes_with_last_event_id(pair: Pair, gateway) -> None:
    """GET /v1/presence/events: each friend's presence is an `update` event whose id is its cursor; coming back with
    Last-Event-ID sends the friends whose presence changed since, not those that did not. (~1 s)"""
    a = pair.a
    client = await gateway(a.harness)
    ann, bo, cy = await a.guest("Ann"), await a.guest("Bo"), await a.guest("Cy")
    await pair.befriend(bo, ann)  # (Bo's calls on node a, Ann's and Cy's on node b, whose rounds do not run)
    await pair.befriend(bo, cy)
    request = presence_pb2.FollowPresenceRequest()
    cy_online = a.stub.FollowPresence(request, metadata=auth(cy.access_token))  # (Cy stays online: a stream open)
    await a.until(lambda: a.presence.watch.count == 1)
    await a.presence.flush()
    a.harness.clock.advance(20)
    await a.get(ann)  # (Ann online 20 s after Cy)
    await a.presence.flush()

    following = Follower(client, bearer(bo.access_token))
    try:
        first = {event["name"]: event for event in await following.until(2)}
        assert {name: event["state"] for name, event in first.items()} == {
            "Ann": "PRESENCE_STATE_ONLINE",
            "Cy": "PRESENCE_STATE_ONLINE",
        }
        assert f"id: {first['Ann']['cursor']}" in following.text, "the event's id is the presence's cursor"
    finally:
        await following.close()
    await a.until(lambda: a.presence.watch.count == 1)
    a.harness.clock.advance(SETTINGS.online_seconds)  # (Ann made no call since: away; Cy's stream is still open)
    await a.presence.flush()
    resumed = Follower(client, bearer(bo.access_token, **{"Last-Event-ID": first["Ann"]["cursor"]}))
    try:
        [event] = await resumed.until(1)
        assert (event["name"], event["state"]) == ("Ann", "PRESENCE_STATE_AWAY"), "only what changed since"
        await a.presence.watch.look()
        assert len(sse_updates(resumed.text)) == 1
    finally:
        await resumed.close()
    cy_online.cancel()
    bad = await client.get("/v1/presence/events", headers=bearer(bo.access_token, **{"Last-Event-ID": "x"}))
    assert bad.status_code == 400


async def test_a_friend_who_hides_their_presence_reads_away_on_the_stream(pair: Pair, gateway) -> None:
    """Ann chooses nobody while Bo follows her presence over REST: his stream gets her away at once (a presence shown
    with no time has cursor 0, and the gateway let none of those through). (~1 s)"""
    a = pair.a
    client = await gateway(a.harness)
    ann, bo = await a.guest("Ann"), await a.guest("Bo")
    await pair.befriend(bo, ann)
    await a.get(ann)  # (Ann online)
    await a.presence.flush()
    following = Follower(client, bearer(bo.access_token))
    try:
        [online] = await following.until(1)
        assert (online["name"], online["state"]) == ("Ann", "PRESENCE_STATE_ONLINE")
        chosen = await client.post(
            "/v1/presence/visibility",
            json={"visibility": "PRESENCE_VISIBILITY_NOBODY"},
            headers=bearer(ann.access_token),
        )
        assert chosen.status_code == 200, chosen.text
        await a.presence.watch.look()
        hidden = (await following.until(2))[-1]
        assert (hidden["name"], hidden["state"]) == ("Ann", "PRESENCE_STATE_AWAY") and "lastSeenTime" not in hidden
    finally:
        await following.close()
