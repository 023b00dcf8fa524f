"""An attacker's report: refusals carried the input back although the docs say they never do. A page_size of
10^30 came back in `page_size must be 0-500, got 1000000000000000000000000000000`, and a JSON body nested 10,000 deep
came back as Python's "maximum recursion depth exceeded". Other refusals named an unknown field, a bad value, a room
id or a status number as sent.

Now every refusal states the bound or what the field takes, and names the field by the message's own names only."""

from __future__ import annotations

import grpc

from kickoff.v1 import move_pb2, room_pb2, tournament_pb2
from tests.server.conftest import auth, refusal_info
from tests.servers import Start

HUGE = "1000000000000000000000000000000"  # the report's page_size: 10^30


def varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


async def test_a_huge_page_size_is_refused_with_the_bound_only(start: Start, gateway) -> None:
    harness = await start()
    client = await gateway(harness)
    for path in ("/v1/rooms", "/v1/tournaments"):
        answer = await client.get(path, params={"page_size": HUGE})
        assert answer.status_code == 400 and answer.json()["reason"] == "bad_request", answer.text
        # (past its field's range, int32: the gateway's integer check names the range; within it, the handler its own)
        detail = answer.json()["detail"]
        assert detail.endswith("from -2147483648 to 2147483647 (int32)") and answer.json()["field"] == "page_size"
        within = await client.get(path, params={"page_size": "2147483647"})
        assert within.status_code == 400 and within.json()["detail"] == "page_size must be 0-500", within.text
        assert HUGE not in answer.text
        for unreadable in ("abc-page-size", "1e400"):  # Litestar's own refusal carried the whole URL back
            answer = await client.get(path, params={"page_size": unreadable})
            assert answer.status_code == 400 and answer.json()["field"] == "page_size", answer.text
            assert unreadable not in answer.text and answer.json()["reason"] == "bad_request", answer.text
        sleeping = await client.get(path, params={"status": "sleeping-beauty"})
        assert sleeping.status_code == 400 and "sleeping-beauty" not in sleeping.text, sleeping.text
    # Over gRPC page_size is an int32: a client can send the largest one, or bytes with a varint longer than any.
    for page_size in (2**31 - 1, -(2**31)):
        code, info, message = await refusal_info(
            harness.rooms.ListRooms(room_pb2.ListRoomsRequest(page_size=page_size))
        )
        assert (code, info.metadata["field"]) == (grpc.StatusCode.INVALID_ARGUMENT, "page_size")
        assert message == "page_size must be 0-500" and str(abs(page_size)) not in message
    raw = harness.channel.unary_unary("/kickoff.v1.RoomService/ListRooms")  # bytes in, bytes out
    for encoded in (varint(10**30), varint(2**64 - 1)):  # 15 bytes (no varint is), then 10 (-1 as an int32)
        code, _, message = await refusal_info(raw(b"\x18" + encoded))
        assert code == grpc.StatusCode.INVALID_ARGUMENT, message
        assert message in ("the request is not a valid ListRoomsRequest message", "page_size must be 0-500"), message
    for request, call in (
        (room_pb2.ListRoomsRequest(status=77), harness.rooms.ListRooms),
        (tournament_pb2.ListTournamentsRequest(status=77), harness.tournaments.ListTournaments),
    ):
        code, info, message = await refusal_info(call(request))
        assert (code, info.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_status") and "77" not in message


async def test_a_body_nested_10000_deep_is_a_clear_400_naming_the_problem(start: Start, gateway) -> None:
    harness = await start()
    client = await gateway(harness)
    room_id = (await harness.create(seats=2)).room_id
    _, token = await harness.join(room_id)
    bodies = {
        "array": b"[" * 10_000 + b"]" * 10_000,
        "object": b'{"a":' * 10_000 + b"1" + b"}" * 10_000,
        "in a field": b'{"game": "soker", "options": ' + b"[" * 10_000 + b"]" * 10_000 + b"}",
        "just over the bound": b'{"move": ' + b'{"soker": ' * 32 + b"{}" + b"}" * 33,
    }
    for path in ("/v1/rooms", f"/v1/rooms/{room_id}/moves", "/v1/tournaments"):
        for what, body in bodies.items():
            answer = await client.post(
                path, content=body, headers={"content-type": "application/json", **dict(auth(token))}
            )
            assert answer.status_code == 400, (path, what, answer.status_code, answer.text)
            problem = answer.json()
            assert problem["reason"] == "bad_request" and "nests" in problem["detail"] and "32" in problem["detail"]
            assert "recursion" not in answer.text.lower() and "python" not in answer.text.lower(), answer.text
    for body, detail in (
        (b'{"seats": ' + b"7" * 5000 + b"}", "the body is not JSON the gateway reads: a number has too many digits"),
        (b"[]", "the body must be a JSON object (a CreateRoomRequest)"),
    ):
        answer = await client.post("/v1/rooms", content=body, headers={"content-type": "application/json"})
        assert (answer.status_code, answer.json()["detail"]) == (400, detail), answer.text
    assert (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room.version == 1


async def test_rest_body_refusals_name_the_field_and_never_what_was_sent(start: Start, gateway) -> None:
    harness = await start()
    client = await gateway(harness)
    room_id = (await harness.create(seats=2)).room_id
    _, token = await harness.join(room_id)
    tournament = await harness.tournaments.CreateTournament(
        tournament_pb2.CreateTournamentRequest(game="soker", mode=2, system_players=3)
    )
    tournament_id = tournament.tournament.tournament_id
    cases = [
        ("/v1/rooms", {"game": "soker", "seats": "four-seats-please"}, "seats", "four-seats-please"),
        ("/v1/rooms", {"game": "soker", "seats": 10**30}, "seats", HUGE),
        ("/v1/rooms", {"game": "soker", "mode": "ROOM_MODE_EVIL_TWIN"}, "mode", "EVIL_TWIN"),
        ("/v1/rooms", {"game": "soker", "seatzzz": 4}, "", "seatzzz"),
        ("/v1/rooms", {"game": 12345678}, "game", "12345678"),
        ("/v1/rooms", {"game": "chess-and-checkers", "mode": "ROOM_MODE_ONLINE"}, "game", "chess-and-checkers"),
        (
            "/v1/rooms",
            {"game": "soker", "mode": "ROOM_MODE_SOLO", "seats": 2, "systemPlayers": 1, "systemPlayer": "genius"},
            "system_player",
            "genius",
        ),
        (f"/v1/tournaments/{tournament_id}/seats", {"seat": 987654}, "seat", "987654"),
        (f"/v1/rooms/{room_id}/moves", {"move": {"soker": {"plaaay": {}}}}, "move.soker", "plaaay"),
        (f"/v1/rooms/{room_id}/moves", {"move": {"soker": {"play": {"cards": [424242]}}}}, "", "424242"),
        (f"/v1/rooms/{room_id}/moves", {"expectedVersion": "12345678901234567890123"}, "expectedVersion", "1234567"),
        ("/v1/tournaments", {"game": "chess-and-checkers", "mode": "ROOM_MODE_SOLO"}, "game", "chess-and-checkers"),
    ]
    for path, body, field, sent in cases:
        answer = await client.post(path, json=body, headers=dict(auth(token)))
        assert answer.status_code in (400, 404), (body, answer.status_code, answer.text)
        assert sent not in answer.text, f"the refusal carries {sent!r} back: {answer.text}"
        if field:
            assert answer.json().get("field") == field, (body, answer.text)
    unknown = (await client.post("/v1/rooms", json={"game": "soker", "seatzzz": 4})).json()
    assert "has no such field" in unknown["detail"] and "systemPlayers" in unknown["detail"], "its fields are listed"
    deep = (await client.post(f"/v1/rooms/{room_id}/moves", json={"move": {"soker": {"play": {"cards": [1]}}}})).json()
    assert deep["field"] == "move.soker.play.cards[0]" and deep["detail"].endswith("must be a string"), deep
    for path in (f"/v1/rooms/{'r' * 30}", f"/v1/tournaments/{'t' * 30}"):
        missing = await client.get(path)
        assert missing.status_code == 404 and "r" * 30 not in missing.text and "t" * 30 not in missing.text
    missing = await client.get("/v1/games/chess-and-checkers/rules")
    assert missing.status_code == 404 and "chess-and-checkers" not in missing.text and "soker" in missing.text


async def test_room_and_rule_refusals_state_the_bound_never_the_value_sent(start: Start) -> None:
    """The seat a join asks for, a room's options and a move's card codes: each refusal says what is allowed."""
    harness = await start()
    room_id = (await harness.create(seats=4, system_players=1)).room_id
    code, info, message = await refusal_info(
        harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, seat=2147483647))
    )
    assert (code, info.metadata["field"], message) == (grpc.StatusCode.INVALID_ARGUMENT, "seat", "seat must be 0-3")
    _, info, message = await refusal_info(harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, seat=3)))
    assert "3" not in message and info.reason == "seat_taken", message  # (seat 3 is the system player's)
    for options, sent in (
        ({"hand_size": 987654}, "987654"),
        ({"hand_size": "seven-cards"}, "seven-cards"),
        ({"warp_speed": 1}, "warp_speed"),
    ):
        request = room_pb2.CreateRoomRequest(game="soker", mode=1, seats=2)
        request.options.update(options)
        code, _, message = await refusal_info(harness.rooms.CreateRoom(request))
        assert code == grpc.StatusCode.INVALID_ARGUMENT and sent not in message, message
    request = room_pb2.CreateRoomRequest(game="soker", mode=1, seats=9)
    code, _, message = await refusal_info(harness.rooms.CreateRoom(request))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "9" not in message, message
    room_id = (await harness.create(seats=2)).room_id
    _, token = await harness.join(room_id)
    await harness.join(room_id)
    unknown_card = move_pb2.Move(generic=move_pb2.GenericMove(wire="play ZZZ-QQQ"))  # (a card that does not exist)
    request = move_pb2.SubmitMoveRequest(room_id=room_id, move=unknown_card)
    code, _, message = await refusal_info(harness.moves.SubmitMove(request, metadata=auth(token)))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "ZZZ" not in message, message
