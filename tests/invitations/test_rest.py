"""Invitations to a friend over REST, as a mobile or web client calls them: every route, its status and its reason."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx

from tests.invitations.conftest import Hosts
from tests.server.conftest import Harness


async def test_every_invitation_route_over_rest(
    hosts: Hosts, gateway: Callable[[Harness], Awaitable[httpx.AsyncClient]]
) -> None:
    """Buys: the five routes answer over REST (201 for an invitation and for the seat it gives, no-store), refusals
    carry their reasons, and the friend invited sees the unlisted room. About a second."""
    client = await gateway(hosts.harness)
    ann, bo, cy = await hosts.guests("Ann", "Bo", "Cy")
    await hosts.befriend(ann, bo)
    await hosts.befriend(ann, cy)
    owner, bob, cyd = ({"Authorization": f"Bearer {s.access_token}"} for s in (ann, bo, cy))
    created = await client.post(
        "/v1/rooms", json={"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 3, "unlisted": True}, headers=owner
    )
    room_id = created.json()["roomId"]
    invited = await client.post(
        f"/v1/rooms/{room_id}/invitations", json={"playerId": bo.player.player_id}, headers=owner
    )
    assert invited.status_code == 201 and "no-store" in invited.headers["cache-control"]
    assert invited.json()["fromName"] == "Ann" and invited.json()["name"] == "Bo"
    again = await client.post(f"/v1/rooms/{room_id}/invitations", json={"playerId": bo.player.player_id}, headers=owner)
    assert (again.status_code, again.json()["reason"]) == (409, "already_invited")
    stranger = await client.post(f"/v1/rooms/{room_id}/invitations", json={"playerId": "x"}, headers=cyd)
    assert (stranger.status_code, stranger.json()["reason"]) == (404, "room_not_found")
    await client.post(f"/v1/rooms/{room_id}/invitations", json={"playerId": cy.player.player_id}, headers=owner)

    listed = await client.get("/v1/room-invitations", headers=bob)
    assert listed.status_code == 200 and [i["roomId"] for i in listed.json()["received"]] == [room_id]
    assert (await client.get(f"/v1/rooms/{room_id}", headers=bob)).status_code == 200
    assert (await client.get("/v1/room-invitations")).status_code == 401

    declined = await client.post(f"/v1/rooms/{room_id}/invitation/decline", headers=cyd)
    assert declined.status_code == 200 and declined.json() == {}
    accepted = await client.post(f"/v1/rooms/{room_id}/invitation/accept", headers=bob)
    assert accepted.status_code == 201 and accepted.json()["seatToken"]
    await client.post(f"/v1/rooms/{room_id}/invitations", json={"playerId": cy.player.player_id}, headers=owner)
    withdrawn = await client.delete(f"/v1/rooms/{room_id}/invitations/{cy.player.player_id}", headers=owner)
    assert withdrawn.status_code == 200
    refused = await client.post(f"/v1/rooms/{room_id}/invitation/accept", headers=cyd)
    assert (refused.status_code, refused.json()["reason"]) == (409, "invitation_withdrawn")
    gone = await client.delete(f"/v1/rooms/{room_id}/invitations/{cy.player.player_id}", headers=owner)
    assert (gone.status_code, gone.json()["reason"]) == (404, "invitation_not_found")
