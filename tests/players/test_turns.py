"""Whose turn: ListMyTurns lists the rooms waiting for the caller (their seat must act), the nearest deadline first and
rooms without a clock last, from the rooms' rows; neither it nor ListMyRooms wakes a correspondence room that rests.
Over gRPC and REST, on both stores, on the manual clock."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import grpc
import httpx
import pytest

from kickoff.v1 import common_pb2, player_pb2, room_pb2
from tests.players.conftest import Served, auth
from tests.server.conftest import Harness, refusal_info

DAY = 24 * 3600.0
REST = 300.0  # KICKOFF_REST_SECONDS' default


async def create(
    served: Served, session: player_pb2.Session, hours: int = 0, *, solo: bool = False
) -> room_pb2.CreateRoomResponse:
    request = room_pb2.CreateRoomRequest(
        game="soker",
        mode=common_pb2.ROOM_MODE_SOLO if solo else common_pb2.ROOM_MODE_ONLINE,
        seats=2,
        system_players=1 if solo else 0,
        think_seconds=0,
        correspondence_hours=hours,
    )
    return await served.harness.rooms.CreateRoom(request, metadata=auth(session.access_token))


async def turns(served: Served, session: player_pb2.Session, page_size: int = 0) -> list[player_pb2.MyTurn]:
    request = player_pb2.ListMyTurnsRequest(page_size=page_size)
    return list((await served.harness.players.ListMyTurns(request, metadata=auth(session.access_token))).turns)


def seconds(turn: player_pb2.MyTurn) -> float | None:
    return turn.deadline.ToNanoseconds() / 1e9 if turn.HasField("deadline") else None


def held(served: Served) -> set[str]:
    return {room.room_id for room in served.harness.directory.held()}


async def rooms_of(served: Served) -> dict[str, tuple[player_pb2.Session, player_pb2.Session]]:
    """Ann's and Bo's rooms: a day's and three days' correspondence and a live room where Ann moves, a correspondence
    room where Bo does, and Ann's solo room (no clock). By name: the room's id."""
    ann, bo = await served.guest(name="Ann"), await served.guest(name="Bo")
    ids = {}
    for name, hours, first in (("day", 24, ann), ("three_days", 72, ann), ("bos", 24, bo), ("live", 0, ann)):
        created = await create(served, first, hours)
        await served.join(created.room.room_id, bo if first is ann else ann)
        ids[name] = created.room.room_id
        served.harness.clock.advance(1)
    ids["solo"] = (await create(served, ann, solo=True)).room.room_id
    return ids, ann, bo  # type: ignore[return-value]


async def test_my_turns_are_the_rooms_waiting_for_me_the_nearest_deadline_first(served: Served) -> None:
    ids, ann, bo = await rooms_of(served)
    start = served.harness.clock.now() - 4  # (the rooms began a second apart)
    mine = await turns(served, ann)
    assert [turn.room_id for turn in mine] == [ids["live"], ids["day"], ids["three_days"], ids["solo"]]
    assert [seconds(turn) for turn in mine] == [start + 3 + 30, start + DAY, start + 1 + 3 * DAY, None]
    assert [turn.correspondence_hours for turn in mine] == [0, 24, 72, 0]
    assert {(turn.game, turn.seat) for turn in mine} == {("soker", 0)}
    assert [turn.room_id for turn in await turns(served, ann, page_size=2)] == [ids["live"], ids["day"]]
    assert [(turn.room_id, turn.seat) for turn in await turns(served, bo)] == [(ids["bos"], 0)]
    code, info, _ = await refusal_info(turns(served, ann, page_size=501))
    assert (code, info.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_page_size")
    code, info, _ = await refusal_info(served.harness.players.ListMyTurns(player_pb2.ListMyTurnsRequest()))
    assert code == grpc.StatusCode.UNAUTHENTICATED


async def test_my_lists_wake_no_resting_room(served: Served) -> None:
    ids, ann, _ = await rooms_of(served)
    directory = served.harness.directory
    correspondence = {ids["day"], ids["three_days"], ids["bos"]}
    listed = await served.harness.players.ListMyRooms(player_pb2.ListMyRoomsRequest(), metadata=auth(ann.access_token))
    before = {mine.room.room_id: mine for mine in listed.rooms}
    served.harness.clock.advance(REST)
    rested, _ = await directory.rest_and_wake()
    assert set(rested) == correspondence and not held(served) & correspondence

    mine = await turns(served, ann)
    assert [turn.room_id for turn in mine if turn.room_id in correspondence] == [ids["day"], ids["three_days"]]
    listed = await served.harness.players.ListMyRooms(player_pb2.ListMyRoomsRequest(), metadata=auth(ann.access_token))
    after = {mine.room.room_id: mine for mine in listed.rooms}
    assert not held(served) & correspondence, "neither list woke a resting room"
    for room_id in correspondence:  # shown from the store as the room itself showed it
        assert after[room_id] == before[room_id], room_id
    assert [after[room_id].my_turn for room_id in (ids["day"], ids["three_days"], ids["bos"])] == [True, True, False]
    assert after[ids["day"]].room.correspondence_hours == 24 and after[ids["day"]].room.clock.turn_seconds == 86400
    # Asked for itself, a room wakes, and is the same again.
    got = await served.harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=ids["day"]))
    assert got.room == before[ids["day"]].room and ids["day"] in held(served)


async def test_my_turns_over_rest(served: Served, gateway: Callable[[Harness], Awaitable[httpx.AsyncClient]]) -> None:
    client = await gateway(served.harness)
    ids, ann, _ = await rooms_of(served)
    headers = {"Authorization": f"Bearer {ann.access_token}"}
    served.harness.clock.advance(REST)
    await served.harness.directory.rest_and_wake()
    answer = await client.get("/v1/players/me/turns", headers=headers)
    assert answer.status_code == 200 and answer.headers["cache-control"].startswith("no-store")
    listed = answer.json()["turns"]
    assert [turn["roomId"] for turn in listed if turn["roomId"] != ids["live"]] == [
        ids["day"],
        ids["three_days"],
        ids["solo"],
    ]
    day = next(turn for turn in listed if turn["roomId"] == ids["day"])
    assert (day["game"], day["seat"], day["correspondenceHours"]) == ("soker", 0, 24) and day["deadline"]
    assert "deadline" not in listed[-1], "no clock: no deadline"
    assert ids["day"] not in held(served)
    paged = await client.get("/v1/players/me/turns", params={"page_size": 1}, headers=headers)
    assert len(paged.json()["turns"]) == 1
    too_many = await client.get("/v1/players/me/turns", params={"page_size": 501}, headers=headers)
    assert too_many.status_code == 400 and too_many.json()["field"] == "page_size"
    anonymous = await client.get("/v1/players/me/turns")
    assert anonymous.status_code == 401
    document = (await client.get("/schema/openapi.json")).json()
    operation = document["paths"]["/v1/players/me/turns"]["get"]
    assert operation["operationId"] == "ListMyTurns" and operation["security"] == [{"playerAuth": []}]


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({"mode": "ROOM_MODE_ONLINE", "correspondenceHours": 337}, "past 14 days"),
        ({"mode": "ROOM_MODE_ONLINE", "correspondenceHours": -1}, "negative"),
        ({"mode": "ROOM_MODE_SOLO", "systemPlayers": 1, "correspondenceHours": 24}, "a solo room"),
    ],
)
async def test_a_bad_correspondence_clock_is_a_problem_over_rest(
    served: Served, gateway: Callable[[Harness], Awaitable[httpx.AsyncClient]], body: dict, why: str
) -> None:
    client = await gateway(served.harness)
    answer = await client.post("/v1/rooms", json={"game": "soker", "seats": 2, **body})
    assert answer.status_code == 400, why
    problem = answer.json()
    assert (problem["reason"], problem["field"]) == ("bad_correspondence", "correspondence_hours"), why
    assert problem["type"] == "urn:kickoff:problem:bad_correspondence"
    created = await client.post(
        "/v1/rooms", json={"game": "soker", "seats": 2, "mode": "ROOM_MODE_ONLINE", "correspondenceHours": 48}
    )
    assert created.status_code == 201 and created.json()["correspondenceHours"] == 48
