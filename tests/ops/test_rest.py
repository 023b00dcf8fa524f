"""The operators' REST routes under /v1/ops (problem details for every refusal, the key in X-Operator-Key), their
place in the OpenAPI document, and the /ops page as the gateway serves it."""

from __future__ import annotations

import re

import httpx

from service.gateway.pages import OPS_DIRECTORY
from service.settings import Rate
from tests.ops.conftest import KEY, OTHER_KEY, operator_keys
from tests.server.test_protocol import play_some, two_seat_game
from tests.servers import Start

HEADERS = {"X-Operator-Key": KEY}
JSON = {**HEADERS, "Content-Type": "application/json"}
ROUTES = [
    ("GET", "/v1/ops/nodes"),
    ("GET", "/v1/ops/leases"),
    ("GET", "/v1/ops/rooms"),
    ("GET", "/v1/ops/rooms/nosuchroom/timeline"),
    ("POST", "/v1/ops/rooms/nosuchroom/close"),
    ("POST", "/v1/ops/rooms/nosuchroom/seats/0/revoke"),
    ("POST", "/v1/ops/nodes/somenode/drain"),
]


def problem(answer: httpx.Response, status: int, reason: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["reason"] == reason


async def test_every_route_refuses_without_the_operator_key(start: Start, gateway) -> None:
    client: httpx.AsyncClient = await gateway(await start(operator_keys=operator_keys()))
    for method, path in ROUTES:
        problem(await client.request(method, path), 401, "operator_key_required")
        problem(await client.request(method, path, headers={"X-Operator-Key": OTHER_KEY}), 401, "bad_operator_key")
        api_key = {"X-Operator-Key": "kk_0123456789ab_an-api-key"}
        problem(await client.request(method, path, headers=api_key), 401, "bad_operator_key")
        answer = await client.request(method, path, headers={"Authorization": f"Bearer {KEY}"})
        problem(answer, 401, "operator_key_required")  # (the operator key as a seat token is no operator key)
        assert KEY not in answer.text
    client = await gateway(await start())
    problem(await client.get("/v1/ops/nodes", headers=HEADERS), 403, "operator_api_off")


async def test_the_routes_answer_with_the_key(start: Start, gateway) -> None:
    harness = await start(operator_keys=operator_keys())
    client: httpx.AsyncClient = await gateway(harness)
    room_id, tokens = await two_seat_game(harness)
    await play_some(harness, room_id, tokens, 3)
    nodes = (await client.get("/v1/ops/nodes", headers=HEADERS)).json()
    assert nodes["cluster"] is False and nodes["nodes"][0]["thisNode"] is True
    assert (await client.get("/v1/ops/leases", headers=HEADERS)).json() == {"leases": [], "nextPageToken": ""}
    rooms = (await client.get("/v1/ops/rooms?game=soker&page_size=10", headers=HEADERS)).json()
    assert [room["roomId"] for room in rooms["rooms"]] == [room_id]
    assert rooms["rooms"][0]["status"] == "ROOM_STATUS_PLAYING"
    timeline = (await client.get(f"/v1/ops/rooms/{room_id}/timeline?page_size=2", headers=HEADERS)).json()
    assert [update["version"] for update in timeline["updates"]] == ["1", "2"] and timeline["nextAfterVersion"] == "2"
    revoked = await client.post(f"/v1/ops/rooms/{room_id}/seats/0/revoke", headers=HEADERS)
    assert revoked.status_code == 200 and revoked.json()["released"] is False
    assert (
        await client.get(f"/v1/rooms/{room_id}/view", headers={"Authorization": f"Bearer {tokens[0]}"})
    ).status_code == 401
    closed = await client.post(f"/v1/ops/rooms/{room_id}/close", headers=JSON, json={"reason": "maintenance"})
    assert closed.status_code == 200, closed.text
    assert closed.json()["room"]["outcome"]["reason"] == "closed_by_operator: maintenance"
    assert closed.headers["cache-control"].startswith("no-store")
    problem(
        await client.post(f"/v1/ops/rooms/{room_id}/close", headers=JSON, json={"reason": "x"}), 409, "room_finished"
    )
    problem(await client.post("/v1/ops/nodes/any/drain", headers=HEADERS), 409, "not_a_cluster")


async def test_bad_input_is_refused_with_the_field_at_fault(start: Start, gateway) -> None:
    harness = await start(operator_keys=operator_keys())
    client: httpx.AsyncClient = await gateway(harness)
    room = await harness.create(seats=2)
    answer = await client.get("/v1/ops/rooms?page_size=501", headers=HEADERS)
    problem(answer, 400, "bad_request")
    assert answer.json()["field"] == "page_size"
    problem(await client.get("/v1/ops/rooms?page_token=nope", headers=HEADERS), 400, "bad_page_token")
    problem(await client.get("/v1/ops/nodes?page_size=x", headers=HEADERS), 400, "bad_request")
    problem(await client.post(f"/v1/ops/rooms/{room.room_id}/close", headers=JSON, json={}), 400, "missing_reason")
    answer = await client.post(f"/v1/ops/rooms/{room.room_id}/close", headers=JSON, json={"why": "x"})
    problem(answer, 400, "bad_request")
    problem(await client.post(f"/v1/ops/rooms/{room.room_id}/seats/9/revoke", headers=HEADERS), 400, "bad_seat")
    problem(await client.post(f"/v1/ops/rooms/{room.room_id}/seats/1/revoke", headers=HEADERS), 409, "seat_not_held")
    problem(await client.get("/v1/ops/rooms/nosuchroom/timeline", headers=HEADERS), 404, "room_not_found")
    answer = await client.post(f"/v1/ops/rooms/{room.room_id}/close", headers=HEADERS, content=b'{"reason": "x"}')
    problem(answer, 415, "unsupported_media_type")


async def test_the_openapi_document_names_every_route_and_its_key(start: Start, gateway) -> None:
    client: httpx.AsyncClient = await gateway(await start())
    schema = (await client.get("/schema/openapi.json")).json()
    operations = {
        operation["operationId"]: operation
        for path, item in schema["paths"].items()
        if path.startswith("/v1/ops/")
        for operation in item.values()
    }
    assert set(operations) == {
        "ListNodes",
        "ListLeases",
        "ListLiveRooms",
        "GetRoomTimeline",
        "CloseRoom",
        "RevokeSeatToken",
        "DrainNode",
        "GetPlayerSocial",
        # (issue 49: the chat's moderation)
        "ListChatReports",
        "GetChatReport",
        "CloseChatReport",
        "DeleteChatMessage",
        "MutePlayer",
        "EndMute",
        "ListMutes",
    }
    assert all(operation["security"] == [{"operatorKey": []}] for operation in operations.values())
    close = schema["components"]["schemas"]["CloseRoomRequest"]
    assert close["properties"]["reason"]["maxLength"] == 64
    assert "GetRoomTimelineResponse" in schema["components"]["schemas"]
    assert not any(path.startswith("/ops") for path in schema["paths"])


async def test_the_gateway_serves_the_ops_page_as_it_is_on_disk(start: Start, gateway) -> None:
    client: httpx.AsyncClient = await gateway(await start())
    page = await client.get("/ops")
    assert page.status_code == 200 and '<script type="module" src="/ops/ops.js">' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for path in OPS_DIRECTORY.iterdir():
        answer = await client.get(f"/ops/{path.name}")
        assert answer.status_code == 200, path.name
        assert not re.search(r"https?://", answer.text), f"{path.name} names another site"
    assert (await (await gateway(await start(), web=False)).get("/ops")).status_code == 404


async def test_the_key_comes_before_the_fields_and_wrong_keys_are_throttled(start: Start, gateway) -> None:
    """An attacker's report: a bad body was answered before the key was looked at, and wrong keys were never
    throttled. Over REST too, a caller without the right key hears the key's refusal only; and past
    KICKOFF_OPERATOR_KEY_FAILURES wrong keys (here 3 a minute) its calls are 429 `operator_key_throttled`."""
    harness = await start(operator_keys=operator_keys(), operator_key_failures=Rate(3, 60.0))
    client: httpx.AsyncClient = await gateway(harness)
    broken = {"content": b'{"reason": ', "headers": {"Content-Type": "application/json"}}
    problem(await client.post("/v1/ops/rooms/r1/close", **broken), 401, "operator_key_required")
    problem(await client.get("/v1/ops/rooms?page_size=9999"), 401, "operator_key_required")
    problem(await client.post("/v1/ops/rooms/r1/seats/99999999999/revoke"), 401, "operator_key_required")
    wrong = {"X-Operator-Key": OTHER_KEY, "Content-Type": "application/json"}
    problem(await client.post("/v1/ops/rooms/r1/close", content=b'{"reason": ', headers=wrong), 401, "bad_operator_key")
    problem(await client.post("/v1/ops/rooms/r1/close", content=b'{"reason": ', headers=JSON), 400, "bad_request")
    for _ in range(2):
        problem(await client.get("/v1/ops/nodes", headers={"X-Operator-Key": OTHER_KEY}), 401, "bad_operator_key")
    throttled = await client.get("/v1/ops/nodes", headers=HEADERS)  # (the right key, from the same address)
    problem(throttled, 429, "operator_key_throttled")
    assert int(throttled.headers["retry-after"]) > 0 and KEY not in throttled.text
