"""Pages on other origins cannot act through their visitors' browsers: a request that changes something (POST,
DELETE) is refused 415 unless its body, where it has one, is application/json (a page cannot send that elsewhere
without a preflight), and 403 when its Origin is neither the gateway's own nor one the CORS policy lists; '*' never
allows a change. In each case nothing is done: no room or tournament made, no seat taken or given back, no move
played, no stream ticket minted."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from google.protobuf import json_format

from kickoff.v1 import common_pb2, room_pb2, tournament_pb2
from service.gateway.cors import CorsPolicy
from tests.server.conftest import Harness
from tests.servers import Start

PAGE = "https://play.example.com"
OTHER = "https://elsewhere.example.org"
NOT_JSON = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/json"]


@dataclass
class Scene:
    """A waiting room with a seat taken, a room in play with the person's legal move, and a waiting tournament with
    a seat taken; ``state()`` is what a request that did something would change."""

    harness: Harness
    waiting: str
    waiting_token: str
    playing: str
    playing_token: str
    move: dict[str, Any]
    tournament: str
    tournament_token: str

    def requests(self) -> list[tuple[str, str, dict[str, Any] | None, str]]:
        """(method, path, JSON body or None for a route that takes none, seat token) for every route that changes
        something, in an order in which each succeeds once."""
        return [
            ("POST", "/v1/rooms", {"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 2}, ""),
            ("POST", f"/v1/rooms/{self.waiting}/seats", {"name": "eve"}, ""),
            ("POST", f"/v1/rooms/{self.playing}/moves", {"move": self.move, "requestId": "x1"}, self.playing_token),
            ("POST", f"/v1/rooms/{self.playing}/stream-tickets", None, self.playing_token),
            ("DELETE", f"/v1/rooms/{self.waiting}/seat", None, self.waiting_token),
            ("POST", "/v1/tournaments", {"game": "soker", "mode": "ROOM_MODE_ONLINE"}, ""),
            ("POST", f"/v1/tournaments/{self.tournament}/seats", {"name": "eve"}, ""),
            ("DELETE", f"/v1/tournaments/{self.tournament}/seat", None, self.tournament_token),
        ]

    async def state(self) -> tuple[object, ...]:
        rooms = await self.harness.rooms.ListRooms(room_pb2.ListRoomsRequest())
        tournaments = await self.harness.tournaments.ListTournaments(tournament_pb2.ListTournamentsRequest())
        tournament = await self.harness.tournaments.GetTournament(
            tournament_pb2.GetTournamentRequest(tournament_id=self.tournament)
        )
        return (
            sorted((room.room_id, room.version, room.status) for room in rooms.rooms),
            sorted(t.tournament_id for t in tournaments.tournaments),
            tournament.tournament.version,
        )


async def scene(harness: Harness) -> Scene:
    waiting = (await harness.create(seats=3)).room_id
    _, waiting_token = await harness.join(waiting, name="ann")
    playing = (await harness.create(seats=2, system_players=1, solo=True)).room_id
    _, playing_token = await harness.join(playing, name="bo")
    await harness.settle(playing)
    legal = await harness.legal(playing, playing_token)
    tournament = (
        await harness.tournaments.CreateTournament(
            tournament_pb2.CreateTournamentRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE)
        )
    ).tournament.tournament_id
    joined = await harness.tournaments.JoinTournament(
        tournament_pb2.JoinTournamentRequest(tournament_id=tournament, name="cy")
    )
    return Scene(
        harness,
        waiting,
        waiting_token,
        playing,
        playing_token,
        json_format.MessageToDict(legal[0]),
        tournament,
        joined.seat_token,
    )


def problem_of(answer: httpx.Response, status: int, reason: str) -> None:
    """``answer`` is an RFC 9457 refusal with ``status`` and ``reason``, as the gateway's other refusals are."""
    assert answer.status_code == status, (answer.request.method, answer.request.url.path, answer.text)
    assert answer.headers["content-type"].startswith("application/problem+json")
    body = answer.json()
    assert body["type"] == f"urn:kickoff:problem:{reason}" and body["reason"] == reason, body
    assert body["status"] == status and body["title"] and body["detail"], body


def headers(token: str, **more: str) -> dict[str, str]:
    return {**({"Authorization": f"Bearer {token}"} if token else {}), **more}


@pytest.mark.parametrize("content_type", NOT_JSON)
async def test_a_body_that_is_not_json_is_refused_415_and_nothing_is_done(
    start: Start, gateway, content_type: str
) -> None:
    harness = await start()
    client = await gateway(harness)
    here = await scene(harness)
    before = await here.state()
    for method, path, body, token in here.requests():
        sent = json.dumps(body).encode() if body is not None else b"x=1"  # what a form would send
        answer = await client.request(
            method, path, content=sent, headers=headers(token, **{"Content-Type": content_type})
        )
        problem_of(answer, 415, "unsupported_media_type")
    # A body without any Content-Type is not taken as JSON either.
    for method, path, _, token in here.requests():
        answer = await client.request(method, path, content=b'{"name": "eve"}', headers=headers(token))
        assert "content-type" not in answer.request.headers
        problem_of(answer, 415, "unsupported_media_type")
    assert await here.state() == before, "nothing was done"


async def test_json_with_parameters_is_taken_and_a_request_without_a_body_needs_no_content_type(
    start: Start, gateway
) -> None:
    harness = await start()
    client = await gateway(harness)
    here = await scene(harness)
    for method, path, body, token in here.requests():
        if body is None:  # a route that takes no body: no Content-Type at all
            answer = await client.request(method, path, headers=headers(token))
            assert "content-type" not in answer.request.headers
        else:
            sent = json.dumps(body).encode()
            kind = {"Content-Type": "Application/JSON; charset=utf-8"}
            answer = await client.request(method, path, content=sent, headers=headers(token, **kind))
        assert answer.status_code in (200, 201), (method, path, answer.text)
    room_id = (await harness.create(seats=2)).room_id
    joined = await client.post(f"/v1/rooms/{room_id}/seats")  # the body is optional: no body, no Content-Type
    assert joined.status_code == 201 and joined.json()["seatToken"]


@pytest.mark.parametrize(
    "origins", [[], [PAGE], ["*"], ["*", PAGE]], ids=["cors-off", "cors-listing-another", "star", "star-and-another"]
)
async def test_a_change_from_an_origin_not_allowed_is_refused_403_and_nothing_is_done(
    start: Start, gateway, origins: list[str]
) -> None:
    harness = await start()
    client = await gateway(harness, cors=CorsPolicy.parse(origins) if origins else None)
    here = await scene(harness)
    before = await here.state()
    foreign = [
        OTHER,
        "null",  # a sandboxed frame, a data: URL
        f"http://127.0.0.1:{client.base_url.port + 1}",  # another port of the same host: another origin
        f"https://127.0.0.1:{client.base_url.port}",  # another scheme
        f"http://localhost:{client.base_url.port}",  # another host name
    ]
    for origin in foreign:
        for method, path, body, token in here.requests():
            answer = await client.request(method, path, json=body, headers=headers(token, Origin=origin))
            problem_of(answer, 403, "origin_not_allowed")
            assert "access-control-allow-origin" not in answer.headers
    assert await here.state() == before, "nothing was done"
    read = await client.get(f"/v1/rooms/{here.waiting}", headers={"Origin": OTHER})
    assert read.status_code == 200, "reading is not refused: CORS decides whether the page may see it"


@pytest.mark.parametrize("listed", [False, True], ids=["own-origin", "listed-origin"])
async def test_the_gateways_own_origin_and_a_listed_one_may_change_things(start: Start, gateway, listed: bool) -> None:
    harness = await start()
    client = await gateway(harness, cors=CorsPolicy.parse(["*", PAGE]) if listed else None)
    origin = PAGE if listed else f"http://127.0.0.1:{client.base_url.port}"  # what the /play page sends
    here = await scene(harness)
    plain = await client.post("/v1/rooms", content=b"{}", headers={"Origin": origin, "Content-Type": "text/plain"})
    problem_of(plain, 415, "unsupported_media_type")
    if listed:
        assert plain.headers["access-control-allow-origin"] == PAGE, "the page may read why it was refused"
    for method, path, body, token in here.requests():
        answer = await client.request(method, path, json=body, headers=headers(token, Origin=origin))
        assert answer.status_code in (200, 201), (method, path, answer.text)
        if listed:
            assert answer.headers["access-control-allow-origin"] == PAGE
    rooms = (await harness.rooms.ListRooms(room_pb2.ListRoomsRequest())).rooms
    assert len(rooms) == 3, "the room was created"
