"""REST over the gRPC server: a whole game, live events with resume, and every error as problem details."""

from __future__ import annotations

import json
import random

import pytest
from httpx import AsyncClient as AsyncTestClient


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def solo_room(client: AsyncTestClient, seats: int = 4) -> tuple[str, str]:
    created = await client.post(
        "/v1/rooms",
        json={"game": "soker", "mode": "ROOM_MODE_SOLO", "seats": seats, "systemPlayers": seats - 1, "thinkSeconds": 0},
    )
    assert created.status_code == 201, created.text
    room_id = created.json()["roomId"]
    joined = await client.post(f"/v1/rooms/{room_id}/seats", json={"name": "ann"})
    assert joined.status_code == 201, joined.text
    return room_id, joined.json()["seatToken"]


def parse_sse(text: str) -> list[dict]:
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
        if fields.get("event") == "update":
            events.append({"id": int(fields["id"]), **json.loads(fields["data"])})
    return events


async def test_a_whole_game_over_rest_and_server_sent_events(client: AsyncTestClient) -> None:
    games = (await client.get("/v1/games")).json()
    assert games["games"][0]["name"] == "soker"
    rules = (await client.get("/v1/games/soker/rules")).json()
    assert {o["name"]: o["value"] for o in rules["options"]}["turn_seconds"] == 30
    cards = (await client.get("/v1/games/soker/cards")).json()["cards"]
    assert len(cards) == 58 and cards[0]["soker"]["countryColour"] == "green" and cards[0]["soker"]["ringRgb"]
    room_id, token = await solo_room(client)
    chooser = random.Random(1)
    moves = 0
    while True:
        view = (await client.get(f"/v1/rooms/{room_id}/view", headers=bearer(token))).json()
        if not view.get("toAct"):
            break
        assert view["toAct"] == [0] and view["viewer"] == 0 and view["view"]["soker"]["hand"]
        legal = (await client.get(f"/v1/rooms/{room_id}/legal-moves", headers=bearer(token))).json()["moves"]
        answer = await client.post(
            f"/v1/rooms/{room_id}/moves",
            json={"move": chooser.choice(legal), "requestId": f"m{moves}", "expectedVersion": view["version"]},
            headers=bearer(token),
        )
        assert answer.status_code == 201, answer.text
        moves += 1
    room = (await client.get(f"/v1/rooms/{room_id}")).json()
    assert room["status"] == "ROOM_STATUS_FINISHED" and room["outcome"]["reason"]
    stream = await client.get(f"/v1/rooms/{room_id}/events", headers=bearer(token))
    assert stream.headers["content-type"].startswith("text/event-stream")
    updates = parse_sse(stream.text)
    assert [u["id"] for u in updates] == list(range(1, int(room["version"]) + 1))
    assert updates[-1]["events"][-1]["gameEnded"]["outcome"]["points"] == room["outcome"]["points"]
    assert all(u["viewer"] == 0 for u in updates) and moves > 0


async def test_events_resume_after_the_last_event_id(client: AsyncTestClient) -> None:
    room_id, token = await solo_room(client, seats=2)
    chooser = random.Random(2)
    while (view := (await client.get(f"/v1/rooms/{room_id}/view", headers=bearer(token))).json()).get("toAct"):
        legal = (await client.get(f"/v1/rooms/{room_id}/legal-moves", headers=bearer(token))).json()["moves"]
        await client.post(f"/v1/rooms/{room_id}/moves", json={"move": chooser.choice(legal)}, headers=bearer(token))
    total = int(view["version"])
    first = parse_sse((await client.get(f"/v1/rooms/{room_id}/events")).text)
    resumed = parse_sse(
        (await client.get(f"/v1/rooms/{room_id}/events", headers={"Last-Event-ID": str(total // 2)})).text
    )
    assert [u["id"] for u in first] == list(range(1, total + 1))
    assert [u["id"] for u in resumed] == list(range(total // 2 + 1, total + 1))
    assert resumed == first[total // 2 :], "the same updates, no gap and no duplicate"
    assert "viewer" not in first[0], "without a token the events are a spectator's"


async def test_a_finished_games_replay_pages_through_every_version_with_the_hands_shown(
    client: AsyncTestClient,
) -> None:
    room_id, token = await solo_room(client, seats=2)
    chooser = random.Random(3)
    while (view := (await client.get(f"/v1/rooms/{room_id}/view", headers=bearer(token))).json()).get("toAct"):
        legal = (await client.get(f"/v1/rooms/{room_id}/legal-moves", headers=bearer(token))).json()["moves"]
        await client.post(f"/v1/rooms/{room_id}/moves", json={"move": chooser.choice(legal)}, headers=bearer(token))
    steps, after = [], 0
    while True:
        page = (await client.get(f"/v1/rooms/{room_id}/replay?after_version={after}&page_size=25")).json()
        assert page["revealed"] and page["room"]["status"] == "ROOM_STATUS_FINISHED"
        steps += page["steps"]
        after = int(page.get("nextAfterVersion", 0))
        if not after:
            break
    assert [int(step["update"]["version"]) for step in steps] == list(range(1, int(view["version"]) + 1))
    assert steps[-1]["hands"][0] == view["view"], "the seat's own last view is among the hands"
    assert len(steps[-1]["hands"]) == 2 and not steps[-1]["view"]["soker"]["hand"], "a spectator's view has no hand"
    events = parse_sse((await client.get(f"/v1/rooms/{room_id}/events")).text)
    assert steps[0]["update"]["events"] == events[0]["events"]
    drawn = [
        event["game"]["soker"]["drew"]
        for step in steps
        for event in step["update"]["events"]
        if "drew" in event.get("game", {}).get("soker", {})
    ]
    assert drawn and all(drew["card"] for drew in drawn if drew["count"]), "once over, every card drawn is shown"


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "reason"),
    [
        ("get", "/v1/rooms/nope", None, 404, "room_not_found"),
        ("get", "/v1/games/chess/rules", None, 404, "unknown_game"),
        ("get", "/v1/games/chess/cards", None, 404, "unknown_game"),
        ("get", "/v1/rooms/nope/replay", None, 404, "room_not_found"),
        ("get", "/v1/rooms/nope/replay?page_size=501", None, 400, "bad_request"),
        ("post", "/v1/rooms", {"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 9}, 400, "invalid_options"),
        ("post", "/v1/rooms", {"game": "soker", "seatz": 4}, 400, "bad_request"),
        ("post", "/v1/rooms", {"game": "soker", "seats": "four"}, 400, "bad_request"),
        ("get", "/v1/rooms?status=sleeping", None, 400, "bad_request"),
    ],
)
async def test_refusals_are_problem_details(
    client: AsyncTestClient, method: str, path: str, body: dict | None, status: int, reason: str
) -> None:
    response = await getattr(client, method)(path, **({"json": body} if body is not None else {}))
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["status"] == status and problem["reason"] == reason
    assert problem["type"] == f"urn:kickoff:problem:{reason}" and problem["title"] and problem["detail"]
    if reason == "bad_request" and "seatz" in json.dumps(body):
        assert "seatz" not in problem["detail"], "the input is never carried back, an unknown field's name neither"
        assert "systemPlayers" in problem["detail"], "the message's own fields are listed instead"


async def test_move_refusals_map_to_http_statuses(client: AsyncTestClient) -> None:
    room_id, token = await solo_room(client, seats=2)
    draw = {"move": {"soker": {"draw": {}}}}
    missing = await client.post(f"/v1/rooms/{room_id}/moves", json=draw)
    assert (missing.status_code, missing.json()["reason"]) == (401, "unauthenticated")
    bad = await client.post(f"/v1/rooms/{room_id}/moves", json=draw, headers=bearer(token + "x"))
    assert bad.status_code == 401
    other_room, other_token = await solo_room(client, seats=2)
    foreign = await client.post(f"/v1/rooms/{room_id}/moves", json=draw, headers=bearer(other_token))
    assert (foreign.status_code, foreign.json()["reason"]) == (403, "permission_denied")
    stale = await client.post(
        f"/v1/rooms/{room_id}/moves", json={**draw, "expectedVersion": "0"}, headers=bearer(token)
    )
    assert (stale.status_code, stale.json()["reason"]) == (409, "stale_version")
    await client.post(f"/v1/rooms/{room_id}/moves", json=draw, headers=bearer(token))
    again = await client.post(f"/v1/rooms/{room_id}/moves", json=draw, headers=bearer(token))
    assert (again.status_code, again.json()["reason"]) == (409, "already_drew")
    malformed = await client.post(
        f"/v1/rooms/{room_id}/moves", json={"move": {"soker": {"play": {"cards": ["XYZ"]}}}}, headers=bearer(token)
    )
    assert (malformed.status_code, malformed.json()["reason"]) == (400, "malformed_move")
    view = (await client.get(f"/v1/rooms/{room_id}/view", headers=bearer(token))).json()
    foreign_card = next(code for code in ("JUV-GKP", "INT-DEF", "ARS-MID") if code not in view["view"]["soker"]["hand"])
    absent = await client.post(
        f"/v1/rooms/{room_id}/moves",
        json={"move": {"soker": {"play": {"cards": [foreign_card]}}}},
        headers=bearer(token),
    )
    assert (absent.status_code, absent.json()["reason"]) == (409, "card_not_in_hand")
    assert absent.json()["cards"] == [foreign_card] and foreign_card not in absent.json()["detail"]
    taken = await client.post(f"/v1/rooms/{room_id}/seats", json={"seat": 0})
    assert taken.status_code in (409,) and taken.json()["reason"] in ("seat_taken", "room_full")
    assert other_room != room_id


async def test_the_gateway_answers_503_while_the_game_server_is_down_and_recovers(grpc_server, client) -> None:
    assert (await client.get("/v1/games")).status_code == 200
    port = grpc_server.port
    await grpc_server.server.stop(0)
    down = await client.get("/v1/games")
    assert down.status_code == 503 and down.json()["reason"] == "unavailable"
    from service.grpc.server import create_server
    from service.grpc.tokens import SeatTokens
    from service.rooms.directory import RoomDirectory

    revived = await create_server(RoomDirectory(default_think_seconds=0), SeatTokens(b"x" * 32), port=port)
    try:
        for _ in range(50):  # the channel reconnects by itself within its (short) backoff
            response = await client.get("/v1/games")
            if response.status_code == 200:
                break
            import asyncio

            await asyncio.sleep(0.1)
        assert response.status_code == 200
    finally:
        await revived.stop(0)


def resolve(document: dict, schema: dict) -> dict:
    """A schema with its ``$ref`` followed into components.schemas."""
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].removeprefix("#/components/schemas/")]
    return schema


async def test_the_openapi_document_names_every_operation(client: AsyncTestClient) -> None:
    document = (await client.get("/schema/openapi.json")).json()
    assert document["openapi"].startswith("3.1")
    operations = {op["operationId"] for path in document["paths"].values() for op in path.values()}
    assert {"CreateRoom", "JoinRoom", "SubmitMove", "StreamEvents", "GetView", "ListLegalMoves"} <= operations
    assert all(op.get("summary") for path in document["paths"].values() for op in path.values())
    create = document["paths"]["/v1/rooms"]["post"]
    body = create["requestBody"]["content"]["application/json"]
    assert body["schema"] == {"$ref": "#/components/schemas/CreateRoomRequest"} and body["example"]["game"] == "soker"
    request = resolve(document, body["schema"])
    assert request["title"] == "CreateRoomRequest" and request["additionalProperties"] is False
    assert "systemPlayers" in request["properties"]
    assert create["responses"]["201"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Room"}
    for path in document["paths"].values():
        for op in path.values():
            media = [m for r in op["responses"].values() for m in r.get("content", {}).values()]
            request = op.get("requestBody", {}).get("content", {}).values()
            assert any("example" in m for m in [*media, *request]), f"{op['operationId']} has no example"
            for code in ("4XX", "5XX"):  # one shared schema for every refusal
                problem = op["responses"][code]["content"]["application/problem+json"]["schema"]
                assert problem == {"$ref": "#/components/schemas/ProblemDetails"}, op["operationId"]
    ui = await client.get("/schema")
    assert ui.status_code == 200 and "html" in ui.headers["content-type"]


async def test_the_openapi_document_names_each_message_once_and_says_what_a_missing_field_means(
    client: AsyncTestClient,
) -> None:
    document = (await client.get("/schema/openapi.json")).json()
    schemas = document["components"]["schemas"]
    assert {"Room", "RoomUpdate", "CreateRoomRequest", "ProblemDetails", "Tournament", "Standings"} <= set(schemas)
    assert '"properties"' not in json.dumps(document["paths"]), "no message schema is inlined in an operation"
    room = schemas["Room"]
    assert room["properties"]["seats"] == {
        "items": {"$ref": "#/components/schemas/Seat"},
        "type": "array",
        "default": [],
    }
    assert room["properties"]["outcome"] == {"$ref": "#/components/schemas/Outcome"}, "a message: no default"
    assert room["properties"]["mode"] == {
        "allOf": [{"$ref": "#/components/schemas/RoomMode"}],
        "default": "ROOM_MODE_UNSPECIFIED",
    }
    assert room["properties"]["roomId"]["default"] == "" and room["properties"]["tournamentGame"]["default"] == 0
    version = room["properties"]["version"]
    assert (version["type"], version["format"], version["default"]) == ("string", "int64", "0")
    assert "64-bit" in version["description"]
    submit = schemas["SubmitMoveRequest"]["properties"]
    assert "default" not in submit["expectedVersion"], "an optional field: missing means unset"
    # Replies send every field without presence: a message only replies carry lists those fields as required.
    assert {"roomId", "version", "seats", "toAct", "tournamentGame"} <= set(room["required"])
    assert "outcome" not in room["required"] and "clock" not in schemas["RoomUpdate"]["required"], "messages: unset"
    assert schemas["JoinRoomResponse"]["required"] == ["seat", "seatToken"]
    assert "viewer" not in schemas["GetViewResponse"]["required"], "a proto3 optional: missing means unset"
    for message in ("CreateRoomRequest", "SubmitMoveRequest", "Move", "SokerPlay"):  # what requests carry
        assert "required" not in schemas[message], message
    assert schemas["Seat"]["properties"]["taken"]["default"] is False
    assert schemas["RoomMode"]["enum"][0] == "ROOM_MODE_UNSPECIFIED"


async def test_the_openapi_document_says_which_routes_take_a_token_or_a_key(client: AsyncTestClient) -> None:
    document = (await client.get("/schema/openapi.json")).json()
    schemes = document["components"]["securitySchemes"]
    assert schemes["bearerAuth"]["type"] == "http" and schemes["bearerAuth"]["scheme"] == "bearer"
    assert "seat token" in schemes["bearerAuth"]["description"]
    assert (schemes["apiKey"]["type"], schemes["apiKey"]["in"], schemes["apiKey"]["name"]) == (
        "apiKey",
        "header",
        "X-API-Key",
    )
    security = {op["operationId"]: op.get("security") for path in document["paths"].values() for op in path.values()}
    seat, optional, key = [{"bearerAuth": []}], [{}, {"bearerAuth": []}], [{}, {"apiKey": []}]
    for operation in ("SubmitMove", "ListLegalMoves", "LeaveRoom", "CreateStreamTicket", "LeaveTournament"):
        assert security[operation] == seat, operation
    assert security["GetView"] == security["StreamEvents"] == optional
    assert security["CreateTournament"] == key
    assert security["CreateRoom"] == [*key, {"playerAuth": []}]  # a player creating a room is seated
    assert security["JoinRoom"] == security["JoinTournament"] == security["GetPlayer"] == [{}, {"playerAuth": []}]
    assert security["ListMyRooms"] == security["TakeSeat"] == [{"playerAuth": []}]
    assert security["ListGames"] is None and security["GetRoom"] is None
    events = document["paths"]["/v1/rooms/{room_id}/events"]["get"]
    ticket = next(p for p in events["parameters"] if p["name"] == "ticket")
    assert ticket["in"] == "query" and "stream-tickets" in ticket["description"]


async def test_the_event_streams_describe_each_event_as_sse_readers_yield_it(client: AsyncTestClient) -> None:
    document = (await client.get("/schema/openapi.json")).json()
    schemas = document["components"]["schemas"]
    for path, message in (
        ("/v1/rooms/{room_id}/events", "RoomUpdate"),
        ("/v1/tournaments/{tournament_id}/events", "TournamentUpdate"),
    ):
        responses = document["paths"][path]["get"]["responses"]
        stream = responses["200"]["content"]["text/event-stream"]
        # Each item is an event's data, parsed (what a generated SSE client yields): the message, then StreamEnd (or
        # ProblemDetails, where the server refused to go on).
        assert stream["schema"]["oneOf"] == [
            {"$ref": f"#/components/schemas/{message}"},
            {"$ref": "#/components/schemas/ProblemDetails"},
            {"$ref": "#/components/schemas/StreamEnd"},
        ]
        assert all(f"`{name}`" in stream["schema"]["description"] for name in ("update", "end", "problem"))
        assert "events" in schemas[message]["required"] and "events" not in schemas["StreamEnd"]["properties"]
        assert "version" in stream["example"] and "event" not in stream["example"] and "204" in responses
    assert schemas["StreamEnd"]["properties"]["version"]["format"] == "int64"
    assert not {"RoomUpdateEvent", "TournamentUpdateEvent", "StreamEndEvent"} & set(schemas)


async def test_a_header_grpc_cannot_carry_is_a_bad_request(client: AsyncTestClient) -> None:
    room_id, _ = await solo_room(client, seats=2)
    for name, value in (
        ("Authorization", b"Bearer\tx"),
        ("Authorization", "Bearer é".encode("latin-1")),
        ("X-API-Key", "clé".encode("latin-1")),
    ):
        response = await client.get(f"/v1/rooms/{room_id}/legal-moves", headers={name: value})
        assert response.status_code == 400, response.text
        assert (response.json()["reason"], response.json()["field"]) == ("bad_request", name)


async def test_a_body_that_is_not_json_is_a_bad_request(client: AsyncTestClient) -> None:
    response = await client.post(
        "/v1/rooms", content=b"\xff\xfe not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400 and response.json()["reason"] == "bad_request"
