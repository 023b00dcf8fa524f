"""The PlayerService over REST: sign in as a guest, act with the access token (create and join rooms, list them, take
a seat up), leaderboards and history, and refusals as problem details with their reasons."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx

from service.store.database import create_engine
from service.store.journal import SqlJournal
from tests.players.conftest import Served
from tests.server.conftest import Harness
from tests.servers import Start


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_a_player_over_rest(served: Served, gateway: Callable[[Harness], Awaitable[httpx.AsyncClient]]) -> None:
    client = await gateway(served.harness)
    signed = await client.post("/v1/players/guest", json={"name": "Ann", "deviceId": "ann-laptop-0123456789"})
    assert signed.status_code == 201 and signed.headers["cache-control"].startswith("no-store")
    session = signed.json()["session"]
    ann = bearer(session["accessToken"])
    me = (await client.get("/v1/players/me", headers=ann)).json()
    assert me["name"] == "Ann" and me["playerId"] == session["player"]["playerId"]
    created = await client.post(
        "/v1/rooms", json={"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 2}, headers=ann
    )
    assert created.status_code == 201
    room = created.json()
    assert room["seats"][0]["playerId"] == me["playerId"]
    bo = bearer((await client.post("/v1/players/guest", json={})).json()["session"]["accessToken"])
    joined = await client.post(f"/v1/rooms/{room['roomId']}/seats", json={}, headers=bo)
    assert joined.status_code == 201 and joined.json()["room"]["rated"]
    mine = (await client.get("/v1/players/me/rooms", headers=ann)).json()
    assert [(r["room"]["roomId"], r["myTurn"]) for r in mine["rooms"]] == [(room["roomId"], True)]
    taken = await client.post(f"/v1/rooms/{room['roomId']}/my-seat", headers=ann)
    assert taken.status_code == 200 and taken.json()["seat"] == 0 and taken.json()["seatToken"]
    renamed = await client.patch("/v1/players/me", json={"name": "Annie"}, headers=ann)
    assert renamed.json()["name"] == "Annie"
    board = await client.get("/v1/games/soker/leaderboard", params={"page_size": 10})
    assert board.status_code == 200 and board.json()["lines"] == []
    history = await client.get("/v1/players/me/games", headers=ann)
    assert history.json()["played"] == 0

    refreshed = await client.post("/v1/sessions/refresh", json={"refreshToken": session["refreshToken"]})
    assert refreshed.status_code == 200
    reused = await client.post("/v1/sessions/refresh", json={"refreshToken": session["refreshToken"]})
    assert (reused.status_code, reused.json()["reason"]) == (401, "refresh_reused")
    gone = await client.get("/v1/players/me", headers=ann)
    assert (gone.status_code, gone.json()["reason"]) == (401, "session_revoked")
    unknown = await client.get("/v1/games/chess/leaderboard")
    assert (unknown.status_code, unknown.json()["reason"]) == (400, "unknown_game")


async def test_numbers_out_of_range_are_problems(
    served: Served, gateway: Callable[[Harness], Awaitable[httpx.AsyncClient]]
) -> None:
    """A number too big for the call it fills is a 400 naming the field, never a server error (found by fuzzing)."""
    client = await gateway(served.harness)
    for neighbours in (13525899048883, -(2**31) - 1, 26):
        refused = await client.get("/v1/games/soker/leaderboard/me", params={"neighbours": neighbours})
        assert refused.status_code == 400, refused.text
        assert refused.json()["field"] == "neighbours"
    board = await client.get("/v1/games/soker/leaderboard", params={"page_size": 2**40})
    assert (board.status_code, board.json()["field"]) == (400, "page_size")


async def test_sign_ins_past_the_bound_end_the_oldest_session_over_rest(
    served: Served, gateway: Callable[[Harness], Awaitable[httpx.AsyncClient]]
) -> None:
    """Over REST as over gRPC: one device signing in 21 times keeps 20 live sessions, the first one ended (401
    session_revoked, its refresh token too)."""
    client = await gateway(served.harness)
    sessions = []
    for _ in range(21):
        signed = await client.post("/v1/players/guest", json={"deviceId": "phone-0123456789abcdef"})
        assert signed.status_code == 201, signed.text
        sessions.append(signed.json()["session"])
        served.harness.clock.advance(1.0)
    first = await client.get("/v1/players/me", headers=bearer(sessions[0]["accessToken"]))
    assert (first.status_code, first.json()["reason"]) == (401, "session_revoked")
    again = await client.post("/v1/sessions/refresh", json={"refreshToken": sessions[0]["refreshToken"]})
    assert (again.status_code, again.json()["reason"]) == (401, "session_revoked")
    for live in sessions[1:]:
        assert (await client.get("/v1/players/me", headers=bearer(live["accessToken"]))).status_code == 200


async def test_a_rank_over_rest_says_the_games_still_to_play(
    start: Start, database_url: str, gateway: Callable[[Harness], Awaitable[httpx.AsyncClient]]
) -> None:
    """The board is empty but says the minimum; a player with one rated game of three has two still to play, and a
    newcomer all three (numbers the page shows under the board)."""
    served = Served(await start(journal=SqlJournal(create_engine(database_url)), min_games=3))
    client = await gateway(served.harness)
    board = (await client.get("/v1/games/soker/leaderboard")).json()
    assert board["lines"] == [] and board["minGames"] == 3
    ann, bo = await served.guest(name="Ann"), await served.guest(name="Bo")
    created = await served.create(ann)
    joined = await served.join(created.room.room_id, bo)
    ended = await served.play_out(
        created.room.room_id, {created.seat: created.seat_token, joined.seat: joined.seat_token}
    )
    assert ended.rated
    mine = await client.get("/v1/games/soker/leaderboard/me", headers=bearer(ann.access_token))
    assert mine.status_code == 200, mine.text
    answer = mine.json()
    assert not answer.get("line") and (answer["ratedGames"], answer["gamesToPlay"], answer["minGames"]) == (1, 2, 3)
    newcomer = (await client.post("/v1/players/guest", json={"name": "Cy"})).json()["session"]["accessToken"]
    fresh = (await client.get("/v1/games/soker/leaderboard/me", headers=bearer(newcomer))).json()
    assert (fresh["ratedGames"], fresh["gamesToPlay"]) == (0, 3)
