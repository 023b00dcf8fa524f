"""Private tables over REST: the lobby, a hidden room's 404, a link's CRUD and a join and a view with it, as a mobile
or web client would call them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx

from tests.players.conftest import Served
from tests.server.conftest import Harness


async def test_an_unlisted_room_and_its_links_over_rest(
    served: Served, gateway: Callable[[Harness], Awaitable[httpx.AsyncClient]]
) -> None:
    """Buys: every new route answers over REST (201 for a link, the token once, no-store), the lobby leaves the room
    out, a stranger gets the missing room's 404, and the link opens the room by body and by query parameter. About a
    second."""
    client = await gateway(served.harness)
    signed = await client.post("/v1/players/guest", json={})
    owner = {"Authorization": f"Bearer {signed.json()['session']['accessToken']}"}
    created = await client.post(
        "/v1/rooms", json={"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 3, "unlisted": True}, headers=owner
    )
    assert created.status_code == 201 and created.json()["unlisted"] is True
    room_id = created.json()["roomId"]
    lobby = await client.get("/v1/rooms")
    assert room_id not in [room["roomId"] for room in lobby.json()["rooms"]]
    missing = await client.get("/v1/rooms/0123456789abcdef")
    hidden = await client.get(f"/v1/rooms/{room_id}")
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json()["reason"] == missing.json()["reason"] == "room_not_found"
    made = await client.post(f"/v1/rooms/{room_id}/invitation-links", json={"maxUses": 2}, headers=owner)
    assert made.status_code == 201 and "no-store" in made.headers["cache-control"]
    token, link_id = made.json()["token"], made.json()["link"]["linkId"]
    assert made.json()["url"] == f"/play#join={token}"
    seen = await client.get(f"/v1/rooms/{room_id}", params={"invitation_token": token})
    assert seen.status_code == 200 and seen.json()["roomId"] == room_id
    joined = await client.post(f"/v1/rooms/{room_id}/seats", json={"invitationToken": token, "name": "Bo"})
    assert joined.status_code == 201 and joined.json()["seat"] == 1
    listed = await client.get(f"/v1/rooms/{room_id}/invitation-links", headers=owner)
    assert [(link["linkId"], link["uses"]) for link in listed.json()["links"]] == [(link_id, 1)]
    revoked = await client.delete(f"/v1/rooms/{room_id}/invitation-links/{link_id}", headers=owner)
    assert revoked.status_code == 200 and revoked.json()["revoked"] is True
    refused = await client.post(f"/v1/rooms/{room_id}/seats", json={"invitationToken": token})
    assert refused.status_code == 409 and refused.json()["reason"] == "link_revoked"
