"""FriendService over REST (the gateway's routes from friend.proto's bindings), on both stores: what a mobile app does,
from sharing a code to a block, and how refusals read there."""

from __future__ import annotations

from typing import Any

import httpx

from tests.friends.conftest import Circle
from tests.matches.test_rest import bearer, refused


async def guest(client: httpx.AsyncClient, name: str) -> dict[str, Any]:
    answer = await client.post("/v1/players/guest", json={"name": name})
    assert answer.status_code == 201, answer.text
    return answer.json()["session"]  # type: ignore[no-any-return]


async def test_two_players_become_friends_over_rest_and_a_block_hides_them(circle: Circle, gateway) -> None:
    """Every route once: the code, a request by code (201), the lists, the acceptance, a removal, a block and its
    list, the unblock; refusals are problem details with their reason (a wrong code 404, the code lookups' rate 429
    with Retry-After)."""
    client = await gateway(circle.harness)
    ann, bob = await guest(client, "Ann"), await guest(client, "Bob")
    as_ann, as_bob = bearer(ann["accessToken"]), bearer(bob["accessToken"])
    bob_id, ann_id = bob["player"]["playerId"], ann["player"]["playerId"]

    code = (await client.get("/v1/friends/code", headers=as_bob)).json()["friendCode"]
    sent = await client.post("/v1/friends/requests", json={"friendCode": code}, headers=as_ann)
    assert sent.status_code == 201 and sent.json()["request"]["name"] == "Bob", sent.text
    listed = (await client.get("/v1/friends", headers=as_bob)).json()
    assert [r["name"] for r in listed["received"]] == ["Ann"], listed
    accepted = await client.post(f"/v1/friends/requests/{ann_id}/accept", headers=as_bob)
    assert accepted.status_code == 200 and accepted.json()["friend"]["playerId"] == ann_id, accepted.text
    assert [f["name"] for f in (await client.get("/v1/friends", headers=as_ann)).json()["friends"]] == ["Bob"]
    assert (await client.delete(f"/v1/friends/{bob_id}", headers=as_ann)).status_code == 200
    refused(await client.delete(f"/v1/friends/{bob_id}", headers=as_ann), 404, "not_friends")

    blocked = await client.post("/v1/blocks", json={"playerId": bob_id}, headers=as_ann)
    assert blocked.status_code == 201 and blocked.json()["blocked"]["name"] == "Bob", blocked.text
    assert [b["name"] for b in (await client.get("/v1/blocks", headers=as_ann)).json()["blocks"]] == ["Bob"]
    assert (await client.delete(f"/v1/blocks/{bob_id}", headers=as_ann)).status_code == 200
    rotated = (await client.post("/v1/friends/code/rotate", headers=as_bob)).json()["friendCode"]
    assert rotated != code

    refused(
        await client.post("/v1/friends/requests", json={"friendCode": code}, headers=as_ann),
        404,
        "friend_code_not_found",
    )
    await client.post("/v1/friends/requests", json={"friendCode": code}, headers=as_ann)  # (her third)
    too_many = await client.post("/v1/friends/requests", json={"friendCode": code}, headers=as_ann)
    refused(too_many, 429, "code_lookups_rate_limited")  # (3 a minute: SMALL)
    assert int(too_many.headers["retry-after"]) >= 1
