"""Pages on other origins: none may call the gateway unless it is told so; a listed origin may play (every method,
the seat token in Authorization); '*' lets any page read what a spectator may read, and nothing more."""

from __future__ import annotations

import pytest

from service.gateway.cors import CorsPolicy
from tests.servers import Start

PAGE = "https://play.example.com"
OTHER = "https://elsewhere.example.org"


def preflight(method: str, origin: str, headers: str = "") -> dict[str, str]:
    asked = {"Origin": origin, "Access-Control-Request-Method": method}
    if headers:
        asked["Access-Control-Request-Headers"] = headers
    return asked


async def test_without_origins_no_page_elsewhere_may_call(start: Start, gateway) -> None:
    client = await gateway(await start())
    answer = await client.get("/v1/games", headers={"Origin": PAGE})
    assert answer.status_code == 200 and "access-control-allow-origin" not in answer.headers
    asked = await client.options("/v1/rooms", headers=preflight("POST", PAGE, "content-type"))
    assert "access-control-allow-origin" not in asked.headers


async def test_a_listed_origin_plays_with_its_seat_token(start: Start, gateway) -> None:
    client = await gateway(await start(), cors=CorsPolicy.parse([PAGE + "/"]))
    asked = await client.options("/v1/rooms/r1/moves", headers=preflight("POST", PAGE, "Authorization, Content-Type"))
    assert asked.status_code == 204
    assert asked.headers["access-control-allow-origin"] == PAGE
    assert "POST" in asked.headers["access-control-allow-methods"]
    assert {"authorization", "content-type", "last-event-id"} <= set(
        asked.headers["access-control-allow-headers"].split(", ")
    )
    assert asked.headers["access-control-max-age"] == "600", "the browser caches the answer"
    origin = {"Origin": PAGE}
    created = await client.post(
        "/v1/rooms", json={"game": "soker", "mode": "ROOM_MODE_SOLO", "seats": 2, "systemPlayers": 1}, headers=origin
    )
    assert created.status_code == 201 and created.headers["access-control-allow-origin"] == PAGE
    assert created.headers["vary"] == "Origin"
    room_id = created.json()["roomId"]
    joined = await client.post(f"/v1/rooms/{room_id}/seats", json={"name": "ann"}, headers=origin)
    token = joined.json()["seatToken"]
    seat = {**origin, "Authorization": f"Bearer {token}"}
    legal = (await client.get(f"/v1/rooms/{room_id}/legal-moves", headers=seat)).json()["moves"]
    moved = await client.post(f"/v1/rooms/{room_id}/moves", json={"move": legal[0], "requestId": "1"}, headers=seat)
    assert moved.status_code == 201 and moved.headers["access-control-allow-origin"] == PAGE
    stale = await client.post(
        f"/v1/rooms/{room_id}/moves", json={"move": legal[0], "requestId": "2", "expectedVersion": "1"}, headers=seat
    )
    assert stale.status_code == 409 and stale.headers["access-control-allow-origin"] == PAGE, "a page reads refusals"
    assert "Retry-After" in stale.headers["access-control-expose-headers"]
    refused = await client.options("/v1/rooms", headers=preflight("POST", OTHER, "content-type"))
    assert refused.status_code == 403 and "access-control-allow-origin" not in refused.headers


async def test_star_lets_any_page_read_what_a_spectator_reads_and_nothing_more(start: Start, gateway) -> None:
    harness = await start()
    client = await gateway(harness, cors=CorsPolicy.parse(["*", PAGE]))
    room_id = (await harness.create(seats=2)).room_id
    _, token = await harness.join(room_id)
    for path in ("/v1/games", f"/v1/rooms/{room_id}", f"/v1/rooms/{room_id}/view"):
        answer = await client.get(path, headers={"Origin": OTHER})
        assert answer.status_code == 200 and answer.headers["access-control-allow-origin"] == "*", path
    asked = await client.options(f"/v1/rooms/{room_id}/events", headers=preflight("GET", OTHER, "last-event-id"))
    assert asked.status_code == 204 and asked.headers["access-control-allow-origin"] == "*"
    for method, headers in (("POST", "content-type"), ("GET", "authorization"), ("DELETE", "")):
        asked = await client.options(f"/v1/rooms/{room_id}/seats", headers=preflight(method, OTHER, headers))
        assert asked.status_code == 403 and "access-control-allow-origin" not in asked.headers, (method, headers)
    seat_view = await client.get(
        f"/v1/rooms/{room_id}/view", headers={"Origin": OTHER, "Authorization": f"Bearer {token}"}
    )
    assert "access-control-allow-origin" not in seat_view.headers, "a seat's own view is for listed origins"
    listed = await client.options("/v1/rooms", headers=preflight("POST", PAGE, "content-type,x-api-key"))
    assert listed.status_code == 204 and listed.headers["access-control-allow-origin"] == PAGE


@pytest.mark.parametrize("value", ["play.example.com", "https://*.example.com", "https://a.example/path?x"])
def test_an_origin_is_a_scheme_and_host_or_a_star(value: str) -> None:
    with pytest.raises(ValueError, match="scheme://host"):
        CorsPolicy.parse([value])
    assert CorsPolicy.parse(["https://A.example:8443/, *"]) == CorsPolicy(frozenset({"https://a.example:8443"}), True)
