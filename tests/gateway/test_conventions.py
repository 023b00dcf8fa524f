"""What docs/contract/conventions.md tells a client, read off the wire as a client reads it: the raw bytes of the
answers and of an event stream, not the parsed JSON (where 7 and 7.0 are one number and CRLF is gone)."""

from __future__ import annotations

import httpx

from tests.gateway.test_rest import bearer, solo_room


async def test_a_rooms_options_arrive_as_the_numbers_that_were_sent(client: httpx.AsyncClient) -> None:
    """The options are a Struct, whose numbers are doubles: they used to arrive as `"hand_size":5.0`. A whole number
    now reads as one, and a fraction stays a fraction (the keys are the game's own, snake_case)."""
    body = {"game": "soker", "mode": "ROOM_MODE_SOLO", "seats": 2, "systemPlayers": 1, "options": {"hand_size": 5}}
    created = await client.post("/v1/rooms", json=body)
    assert created.status_code == 201, created.text
    read = await client.get(f"/v1/rooms/{created.json()['roomId']}")
    listed = await client.get("/v1/rooms")
    for answer in (created, read, listed):
        options = answer.content.split(b'"options":{', 1)[1].split(b"}", 1)[0]
        assert b'"hand_size":5' in options and b'"turn_seconds":30' in options, options
        assert b".0" not in options, options  # (the options in force: the defaults with the one sent)


async def test_the_conventions_a_client_meets_on_its_first_move(client: httpx.AsyncClient) -> None:
    room_id, token = await solo_room(client, seats=2)
    seat = bearer(token)
    legal = (await client.get(f"/v1/rooms/{room_id}/legal-moves", headers=seat)).json()
    assert isinstance(legal["version"], str), "a 64-bit integer is a string"

    # a body that does not say it is JSON is refused before it is read: the move is not made
    raw = httpx.Headers({**seat, "Content-Type": "text/plain"})
    unsaid = await client.post(f"/v1/rooms/{room_id}/moves", headers=raw, content=b'{"move": {}}')
    assert unsaid.status_code == 415, unsaid.text
    view = (await client.get(f"/v1/rooms/{room_id}/view", headers=seat)).json()
    assert view["version"] == legal["version"], "nothing was played"

    moved = await client.post(
        f"/v1/rooms/{room_id}/moves", headers=seat, json={"move": legal["moves"][0], "requestId": "first-move-of-ann"}
    )
    assert moved.status_code == 201, "an accepted move answers 201, not 200"
    again = await client.post(
        f"/v1/rooms/{room_id}/moves", headers=seat, json={"move": legal["moves"][0], "requestId": "first-move-of-ann"}
    )
    assert (again.status_code, again.json()) == (201, moved.json()), "the same request id answers the same"

    async with client.stream("GET", f"/v1/rooms/{room_id}/events", headers={**seat, "Last-Event-ID": "0"}) as stream:
        head = b""
        async for chunk in stream.aiter_bytes():
            head += chunk
            if b"event: update" in head and head.endswith(b"\r\n\r\n"):
                break
    opening, first = head.split(b"\r\n\r\n")[:2]
    assert opening == b": open\r\nretry: 3000", "a comment, then how long to wait before reconnecting"
    assert first.startswith(b"id: 1\r\nevent: update\r\ndata: {"), "each line ends in CRLF"
    assert b'"seat":0' in first or b'"viewer":0' in first, "a zero value is sent, not left out"
