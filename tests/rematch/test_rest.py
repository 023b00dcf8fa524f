"""Rematches over REST, as a mobile or web client calls them: the creator's choice at creation, the proposal and the
answers on the finished room, and the new seat token in the last answer."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx

from tests.players.conftest import Served
from tests.server.conftest import Harness


async def test_a_rematch_over_rest(served: Served, gateway: Callable[[Harness], Awaitable[httpx.AsyncClient]]) -> None:
    """Buys: both new routes answer over REST with the room's rematch in camelCase JSON, the creator's rematch_fill
    is taken and shown, a spectator is refused (401), and the accepting person's answer carries a seat token that
    opens the new room. About a second."""
    client = await gateway(served.harness)
    heads = []
    for name in ("Ann", "Bo"):
        signed = await client.post("/v1/players/guest", json={"name": name})
        heads.append({"Authorization": f"Bearer {signed.json()['session']['accessToken']}"})
    body = {
        "game": "soker",
        "mode": "ROOM_MODE_ONLINE",
        "seats": 2,
        "options": {"hand_size": 1},
        "thinkSeconds": 0,
        "rematchFill": "REMATCH_FILL_SYSTEM_PLAYER",
    }
    created = await client.post("/v1/rooms", json=body, headers=heads[0])
    assert created.status_code == 201 and created.json()["rematchFill"] == "REMATCH_FILL_SYSTEM_PLAYER"
    room_id = created.json()["roomId"]
    joined = await client.post(f"/v1/rooms/{room_id}/seats", json={}, headers=heads[1])
    tokens = {0: created.json().get("seatToken", ""), 1: joined.json()["seatToken"]}
    seated = await client.post(f"/v1/rooms/{room_id}/my-seat", headers=heads[0])
    tokens[0] = seated.json()["seatToken"]
    await served.play_out(room_id, tokens)

    refused = await client.post(f"/v1/rooms/{room_id}/rematch", json={})
    assert refused.status_code == 401
    proposed = await client.post(f"/v1/rooms/{room_id}/rematch", json={}, headers=heads[0])
    assert proposed.status_code == 200
    rematch = proposed.json()["room"]["rematch"]
    assert rematch["status"] == "REMATCH_STATUS_OPEN" and rematch["seats"][1]["answer"] == "REMATCH_ANSWER_WAITING"
    answered = await client.post(f"/v1/rooms/{room_id}/rematch/answer", json={"accept": True}, headers=heads[1])
    assert answered.status_code == 200
    made = answered.json()
    assert made["room"]["rematch"]["status"] == "REMATCH_STATUS_MADE" and made["seat"] == 1
    new_id = made["room"]["rematch"]["roomId"]
    view = await client.get(f"/v1/rooms/{new_id}/view", headers={"Authorization": f"Bearer {made['seatToken']}"})
    assert view.status_code == 200 and view.json()["viewer"] == 1
    shown = await client.get(f"/v1/rooms/{room_id}")
    assert shown.json()["rematch"]["roomId"] == new_id
