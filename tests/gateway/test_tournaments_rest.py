"""A tournament over REST: one person and three system players, live standings over server-sent events."""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from collections.abc import AsyncIterator

import httpx
import pytest

from tests.gateway.test_rest import bearer, parse_sse
from tests.tournament_points import game_from_updates, standings_lines, table


async def sse(client: httpx.AsyncClient, path: str, headers: dict | None = None) -> AsyncIterator[dict]:
    """The updates of a live event stream as they come (the stream ends when the server ends it)."""
    async with client.stream("GET", path, headers=headers or {}) as response:
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
        fields: dict[str, str] = {}
        async for line in response.aiter_lines():
            if not line:
                if fields.get("event") == "update":
                    yield {"id": int(fields["id"]), **json.loads(fields["data"])}
                fields = {}
            elif not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = value.removeprefix(" ")


async def play_room(client: httpx.AsyncClient, room_id: str, token: str, chooser: random.Random) -> int:
    """Seat 0 plays the room's game to its end over REST (the system players move as soon as it is their turn)."""
    moves = 0
    while True:
        view = (await client.get(f"/v1/rooms/{room_id}/view", headers=bearer(token))).json()
        if not view.get("toAct"):
            return moves
        assert view["toAct"] == [0] and view["view"]["soker"]["hand"]
        legal = (await client.get(f"/v1/rooms/{room_id}/legal-moves", headers=bearer(token))).json()["moves"]
        answer = await client.post(
            f"/v1/rooms/{room_id}/moves",
            json={"move": chooser.choice(legal), "requestId": f"m{moves}", "expectedVersion": view["version"]},
            headers=bearer(token),
        )
        assert answer.status_code == 201, answer.text
        moves += 1


async def test_one_person_and_three_system_players_play_a_tournament_over_rest(client: httpx.AsyncClient) -> None:
    created = await client.post(
        "/v1/tournaments",
        json={"game": "soker", "mode": "ROOM_MODE_SOLO", "systemPlayers": 3, "thinkSeconds": 0},
    )
    assert created.status_code == 201, created.text
    tid = created.json()["tournamentId"]
    assert created.json()["status"] == "TOURNAMENT_STATUS_WAITING" and created.json()["games"] == 8
    live: asyncio.Queue[dict | None] = asyncio.Queue()

    async def follow() -> None:
        async for update in sse(client, f"/v1/tournaments/{tid}/events"):
            live.put_nowait(update)
        live.put_nowait(None)

    following = asyncio.create_task(follow())
    joined = await client.post(f"/v1/tournaments/{tid}/seats", json={"name": "ann"})
    assert joined.status_code == 201, joined.text
    token = joined.json()["seatToken"]
    chooser = random.Random(11)
    rooms: list[str] = []
    standings_seen = []
    while (update := await live.get()) is not None:
        for event in update["events"]:
            if "gameStarted" in event:
                room_id = event["gameStarted"]["game"]["roomId"]
                room = (await client.get(f"/v1/rooms/{room_id}")).json()
                assert room["tournamentId"] == tid and room.get("tournamentGame", 0) == len(rooms)
                assert await play_room(client, room_id, token, chooser) > 0
                rooms.append(room_id)
            if "standingsChanged" in event:
                standings_seen.append(event["standingsChanged"]["standings"])
    await following
    assert len(rooms) == 8 and len(standings_seen) == 8
    games = []
    for room_id in rooms:
        updates = parse_sse((await client.get(f"/v1/rooms/{room_id}/events", headers=bearer(token))).text)
        games.append(game_from_updates(updates))
    assert Counter(game["first_seat"] for game in games) == {0: 2, 1: 2, 2: 2, 3: 2}, "each seat starts twice"
    for count, seen in enumerate(standings_seen, start=1):
        assert standings_lines(seen) == table(games[:count]), "the live standings after each game"
    final = (await client.get(f"/v1/tournaments/{tid}/standings")).json()
    assert final["final"] and standings_lines(final) == table(games)
    assert {line["name"] for line in final["lines"]} == {"ann", "normal bot"}
    tournament = (await client.get(f"/v1/tournaments/{tid}")).json()
    assert tournament["status"] == "TOURNAMENT_STATUS_FINISHED" and tournament["gamesPlayed"] == 8
    # A client that saw version 5 picks up the rest, and only the rest.
    everything = parse_sse((await client.get(f"/v1/tournaments/{tid}/events")).text)
    resumed = parse_sse((await client.get(f"/v1/tournaments/{tid}/events", headers={"Last-Event-ID": "5"})).text)
    assert [u["id"] for u in everything] == list(range(1, int(tournament["version"]) + 1))
    assert resumed == everything[5:]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "reason"),
    [
        ("get", "/v1/tournaments/nope", None, 404, "tournament_not_found"),
        ("get", "/v1/tournaments/nope/standings", None, 404, "tournament_not_found"),
        ("get", "/v1/tournaments/nope/events", None, 404, "tournament_not_found"),
        (
            "post",
            "/v1/tournaments",
            {"game": "soker", "mode": "ROOM_MODE_ONLINE", "systemPlayers": 9},
            400,
            "no_person_seat",
        ),
        (
            "post",
            "/v1/tournaments",
            {"game": "soker", "mode": "ROOM_MODE_ONLINE", "options": {"first_seat": 1}},
            400,
            "invalid_options",
        ),
        ("get", "/v1/tournaments?status=sleeping", None, 400, "bad_request"),
        ("delete", "/v1/tournaments/nope/seat", None, 404, "tournament_not_found"),
    ],
)
async def test_tournament_refusals_are_problem_details(
    client: httpx.AsyncClient, method: str, path: str, body: dict | None, status: int, reason: str
) -> None:
    response = await getattr(client, method)(path, **({"json": body} if body is not None else {}))
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["reason"] == reason


async def test_seats_over_rest_join_leave_and_conflict(client: httpx.AsyncClient) -> None:
    body = {"game": "soker", "mode": "ROOM_MODE_ONLINE", "systemPlayers": 2, "thinkSeconds": 0}
    tid = (await client.post("/v1/tournaments", json=body)).json()["tournamentId"]
    anonymous = await client.delete(f"/v1/tournaments/{tid}/seat")
    assert (anonymous.status_code, anonymous.json()["reason"]) == (401, "unauthenticated")
    first = (await client.post(f"/v1/tournaments/{tid}/seats", json={"name": "ann"})).json()
    left = await client.delete(f"/v1/tournaments/{tid}/seat", headers=bearer(first["seatToken"]))
    assert left.status_code == 200 and not left.json()["tournament"]["seats"][0].get("taken")
    assert (await client.post(f"/v1/tournaments/{tid}/seats", json={"name": "bo"})).json().get("seat", 0) == 0
    again = (await client.post(f"/v1/tournaments/{tid}/seats", json={"name": "cy"})).json()
    assert again["seat"] == 1 and again["tournament"]["status"] == "TOURNAMENT_STATUS_PLAYING"
    full = await client.post(f"/v1/tournaments/{tid}/seats", json={})
    assert (full.status_code, full.json()["reason"]) == (409, "tournament_full")
    listed = (await client.get("/v1/tournaments?status=playing")).json()
    assert [t["tournamentId"] for t in listed["tournaments"]] == [tid]
