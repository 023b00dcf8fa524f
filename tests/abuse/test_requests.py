"""Cases 2 and 7: no limit on any field's length (2.2 MB names made GET /v1/rooms answer 429 for everyone, a 4 MB
request id was accepted, an error message echoed 3.8 MB of the input), names kept control characters, undecodable
protobuf gave UNKNOWN and a logged traceback, base64 spellings of a token other than the server's were accepted, and
a Last-Event-ID over int64 gave a bare 500.

Every bound below comes from the (kickoff.v1.limit) option on the field in proto/."""

from __future__ import annotations

import logging

import grpc
import pytest
from google.protobuf import struct_pb2

from kickoff.v1 import move_pb2, room_pb2, tournament_pb2
from tests.server.conftest import auth, refusal_info, soker_move
from tests.servers import Start


def options(values: dict) -> struct_pb2.Struct:
    data = struct_pb2.Struct()
    data.update(values)
    return data


async def test_every_bad_field_is_refused_naming_it_and_nothing_reaches_the_room(start: Start) -> None:
    harness = await start()
    room_id = (await harness.create(seats=2)).room_id
    _, token = await harness.join(room_id, name="ann")
    huge = "x" * 40_000  # under the transport's 64 KiB, so the field check answers
    cases = [
        (harness.rooms.JoinRoom, room_pb2.JoinRoomRequest(room_id=room_id, name="x" * 33), "name", "too_long"),
        (harness.rooms.JoinRoom, room_pb2.JoinRoomRequest(room_id=room_id, name=huge), "name", "too_long"),
        *(
            (harness.rooms.JoinRoom, room_pb2.JoinRoomRequest(room_id=room_id, name=name), "name", "bad_characters")
            for name in ("ann\x00", "ann\r\nSet-Cookie: x", "\x1b[31mred", "abc\u202egnp.exe", "tab\there")
        ),
        (harness.rooms.GetRoom, room_pb2.GetRoomRequest(room_id=huge), "room_id", "too_long"),
        (harness.rooms.GetRoom, room_pb2.GetRoomRequest(room_id="../../etc"), "room_id", "bad_characters"),
        (harness.rooms.ListRooms, room_pb2.ListRoomsRequest(page_token="9" * 33), "page_token", "too_long"),
        (
            harness.rooms.CreateRoom,
            room_pb2.CreateRoomRequest(game="soker", seats=2, options=options({f"o{i}": 1 for i in range(17)})),
            "options",
            "too_many",
        ),
        (
            harness.rooms.CreateRoom,
            room_pb2.CreateRoomRequest(game="soker", seats=2, options=options({"hand_size": {"deep": huge}})),
            "options.hand_size",
            "bad_value",
        ),
        (harness.rooms.CreateRoom, room_pb2.CreateRoomRequest(game=huge), "game", "too_long"),
    ]
    for method, request, field, reason in cases:
        code, info, message = await refusal_info(method(request))
        assert code == grpc.StatusCode.INVALID_ARGUMENT, (field, code, message)
        assert (info.metadata["field"], info.reason) == (field, reason), message
        assert len(message) < 160 and "xxxx" not in message and "\x00" not in message, "no echo of the input"
    move_cases = [
        (move_pb2.SubmitMoveRequest(room_id=room_id, move=soker_move("draw"), request_id="r" * 65), "request_id"),
        (move_pb2.SubmitMoveRequest(room_id=room_id, move=soker_move("draw"), request_id="with space"), "request_id"),
        (
            move_pb2.SubmitMoveRequest(room_id=room_id, move=soker_move("play", *["JUV-GKP"] * 17)),
            "move.soker.play.cards",
        ),
        (move_pb2.SubmitMoveRequest(room_id=room_id, move=soker_move("play", "J" * 17)), "move.soker.play.cards[0]"),
    ]
    for request, field in move_cases:
        code, info, message = await refusal_info(harness.moves.SubmitMove(request, metadata=auth(token)))
        assert code == grpc.StatusCode.INVALID_ARGUMENT and info.metadata["field"] == field, message
    room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert room.version == 1 and [seat.name for seat in room.seats] == ["ann", ""], "nothing reached the room"


async def test_names_are_normalised_and_kept_as_text(start: Start) -> None:
    harness = await start()
    room_id = (await harness.create(seats=3)).room_id
    await harness.join(room_id, name="  Ａｎｎ\u3000 \u00a0Lee  ")  # fullwidth letters, ideographic and no-break spaces
    await harness.join(room_id, name="<b>bo</b> 🎲")  # markup is text: the renderer escapes it, the server keeps it
    room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert [seat.name for seat in room.seats[:2]] == ["Ann Lee", "<b>bo</b> 🎲"]


async def test_a_request_over_the_transport_limit_is_refused_and_everyone_else_is_served(start: Start) -> None:
    harness = await start()
    room_id = (await harness.create(seats=2)).room_id
    for request in (
        room_pb2.JoinRoomRequest(room_id=room_id, name="x" * 2_200_000),
        room_pb2.CreateRoomRequest(game="soker", seats=2, system_player="x" * (4 * 1024 * 1024 - 200)),
    ):
        method = harness.rooms.JoinRoom if isinstance(request, room_pb2.JoinRoomRequest) else harness.rooms.CreateRoom
        code, _, message = await refusal_info(method(request))
        assert code == grpc.StatusCode.RESOURCE_EXHAUSTED and len(message) < 200, message
    listed = await harness.rooms.ListRooms(room_pb2.ListRoomsRequest())
    assert [room.room_id for room in listed.rooms] == [room_id] and listed.rooms[0].version == 0


async def test_bytes_that_are_not_the_request_are_invalid_argument_with_nothing_logged(
    start: Start, caplog: pytest.LogCaptureFixture
) -> None:
    harness = await start()
    join = harness.channel.unary_unary("/kickoff.v1.RoomService/JoinRoom")  # bytes in, bytes out
    caplog.set_level(logging.ERROR)
    for garbage in (b"\xff\xff\xff\xff", b"\x0a\xff\x01", b"\x12\x05ab"):
        code, info, message = await refusal_info(join(garbage))
        assert code == grpc.StatusCode.INVALID_ARGUMENT and info.reason == "malformed_request", message
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "no traceback per request"


def respellings(token: str) -> list[str]:
    """Spellings of ``token`` that base64 decoders read as the same bytes."""
    payload, signature = token.split(".")
    spellings = [f"{payload}==.{signature}", f"{payload}.{signature}="]
    swapped = payload.replace("-", "+").replace("_", "/")
    if swapped != payload:
        spellings.append(f"{swapped}.{signature}")
    if len(signature) % 4 == 3:  # the last character carries two bits nobody reads: flip them
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        last = alphabet.index(signature[-1])
        spellings.append(f"{payload}.{signature[:-1]}{alphabet[last ^ 1]}")
    spellings.append(f"{payload}.{signature[:10]}!!!!{signature[10:]}")  # characters outside the alphabet
    return spellings


async def test_a_seat_token_is_good_only_as_issued(start: Start) -> None:
    harness = await start()
    room_id = (await harness.create(seats=2)).room_id
    _, token = await harness.join(room_id)
    assert (await harness.view(room_id, token)).viewer == 0
    for spelling in respellings(token):
        metadata = (("authorization", f"Bearer {spelling}"),)
        code, _, _ = await refusal_info(
            harness.moves.GetView(move_pb2.GetViewRequest(room_id=room_id), metadata=metadata)
        )
        assert code == grpc.StatusCode.UNAUTHENTICATED, spelling


async def test_rest_over_large_bodies_get_413_and_bad_fields_400_naming_them(start: Start, gateway) -> None:
    harness = await start()
    client = await gateway(harness)
    room_id = (await harness.create(seats=2)).room_id
    for path in (f"/v1/rooms/{room_id}/seats", "/v1/tournaments"):
        big = await client.post(path, json={"name": "x" * 3_000_000})
        assert big.status_code == 413 and big.headers["content-type"] == "application/problem+json"
        assert len(big.text) < 400
    named = await client.post(f"/v1/rooms/{room_id}/seats", json={"name": "x" * 100})
    assert named.status_code == 400 and named.json()["field"] == "name" and "xxxx" not in named.text
    created = await client.post("/v1/tournaments", json={"game": "soker", "mode": "ROOM_MODE_SOLO", "systemPlayers": 3})
    tournament_id = created.json()["tournamentId"]
    named = await client.post(f"/v1/tournaments/{tournament_id}/seats", json={"name": "\u202eevil"})
    assert named.status_code == 400 and named.json()["reason"] == "bad_characters"
    assert (await client.get("/v1/rooms")).status_code == 200
    assert (await client.get("/v1/tournaments")).status_code == 200
    assert (await client.get(f"/v1/tournaments/{tournament_id}")).status_code == 200


async def test_rest_last_event_id_out_of_range_is_a_problem_not_a_bare_500(start: Start, gateway) -> None:
    harness = await start()
    client = await gateway(harness)
    room_id = (await harness.create(seats=2)).room_id
    for last in ("9223372036854775808", "-1", "1e3", "99999999999999999999999999"):
        answer = await client.get(f"/v1/rooms/{room_id}/events", headers={"Last-Event-ID": last})
        assert answer.status_code == 400, (last, answer.status_code)
        assert (
            answer.headers["content-type"] == "application/problem+json" and answer.json()["field"] == "Last-Event-ID"
        )
    tournament = (
        await harness.tournaments.CreateTournament(
            tournament_pb2.CreateTournamentRequest(game="soker", mode=2, system_players=3)
        )
    ).tournament
    answer = await client.get(
        f"/v1/tournaments/{tournament.tournament_id}/events", headers={"Last-Event-ID": "9223372036854775808"}
    )
    assert answer.status_code == 400
