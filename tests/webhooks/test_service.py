"""Webhooks as a server runs them: the operators' admin API behind the operator key (gRPC and REST), and the events
that played games, correspondence clocks and the matchmaker write into the outbox, delivered signed and card-free."""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from sqlalchemy import select
from standardwebhooks import Webhook

from engine.registry import get_game
from kickoff.v1 import common_pb2, match_pb2, move_pb2, player_pb2, room_pb2, tournament_pb2, webhook_pb2
from service.settings import WebhookSettings
from service.store.database import create_engine
from service.store.journal import SqlJournal
from service.store.models import WebhookDeliveryRow
from tests.server.conftest import Harness
from tests.server.test_seat_results import run_out
from tests.servers import Start
from tests.webhooks.conftest import OPERATOR_KEY, SERVER_SETTINGS

KEY = OPERATOR_KEY
OPERATOR = (("x-operator-key", KEY),)
TURN = webhook_pb2.WEBHOOK_EVENT_TURN_BEGAN
ENDED = webhook_pb2.WEBHOOK_EVENT_GAME_ENDED
REMINDER = webhook_pb2.WEBHOOK_EVENT_CLOCK_RUNNING_OUT


def auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def reason(error: grpc.aio.AioRpcError) -> str:
    status = rpc_status.from_call(error)
    for detail in status.details if status else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info.reason
    return ""


async def register(harness: Harness, url: str, events: list[int]) -> tuple[str, str]:
    request = webhook_pb2.AddEndpointRequest(url=url, events=events)
    answer = await harness.webhook_admin.AddEndpoint(request, metadata=OPERATOR)
    return answer.endpoint.endpoint_id, answer.secret


async def drain(harness: Harness) -> None:
    """Every delivery due now sent (the test steps the dispatcher; nothing runs by itself)."""
    dispatcher = harness.webhooks.dispatcher
    for _ in range(1000):  # (each pass claims what an endpoint may have in flight)
        await harness.directory.settle()
        sent = await dispatcher.step()
        await dispatcher.settle()
        if not sent:
            return


async def guest(harness: Harness, name: str) -> player_pb2.Session:
    return (await harness.players.SignInAsGuest(player_pb2.SignInAsGuestRequest(name=name))).session


async def against_a_system_player(
    harness: Harness, session: player_pb2.Session, *, game: str = "soker", correspondence_hours: int = 0
) -> room_pb2.CreateRoomResponse:
    """An online room of two seats made by the player (seated at once) against a system player: its game begins."""
    request = room_pb2.CreateRoomRequest(
        game=game,
        mode=common_pb2.ROOM_MODE_ONLINE,
        seats=2,
        system_players=1,
        think_seconds=0,
        correspondence_hours=correspondence_hours,
    )
    return await harness.rooms.CreateRoom(request, metadata=auth(session.access_token))


# -- the admin API ----------------------------------------------------------------------------------------------


async def test_the_admin_api_needs_the_operator_key(harness: Harness, receivers: Any) -> None:
    receiver = await receivers()
    request = webhook_pb2.AddEndpointRequest(url=receiver.url, events=[TURN])
    with pytest.raises(grpc.aio.AioRpcError) as missing:
        await harness.webhook_admin.AddEndpoint(request)
    assert missing.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert reason(missing.value) == "operator_key_required"
    with pytest.raises(grpc.aio.AioRpcError) as wrong:
        await harness.webhook_admin.ListEndpoints(
            webhook_pb2.ListEndpointsRequest(), metadata=(("x-operator-key", "x" * 32),)
        )
    assert wrong.value.code() == grpc.StatusCode.UNAUTHENTICATED and reason(wrong.value) == "bad_operator_key"
    # An API key or a player's token is no operator key.
    player = await guest(harness, "Ann")
    with pytest.raises(grpc.aio.AioRpcError) as player_call:
        await harness.webhook_admin.ListEndpoints(
            webhook_pb2.ListEndpointsRequest(), metadata=auth(player.access_token)
        )
    assert player_call.value.code() == grpc.StatusCode.UNAUTHENTICATED
    # The key comes first: a caller without it hears nothing of the request's fields (a URL past its bound, an
    # event not named), which were checked before it.
    bad = webhook_pb2.AddEndpointRequest(url="https://x.example/" + "a" * 3000, events=[0])
    for metadata in ((), (("x-operator-key", "x" * 32),)):
        with pytest.raises(grpc.aio.AioRpcError) as fields:
            await harness.webhook_admin.AddEndpoint(bad, metadata=metadata)
        assert fields.value.code() == grpc.StatusCode.UNAUTHENTICATED, fields.value.details()
    with pytest.raises(grpc.aio.AioRpcError) as fields:
        await harness.webhook_admin.AddEndpoint(bad, metadata=OPERATOR)
    assert fields.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "url" in fields.value.details()


async def test_a_server_without_an_operator_key_has_no_admin_api(start: Start, database_url: str) -> None:
    harness = await start(
        journal=SqlJournal(create_engine(database_url)), webhooks=WebhookSettings(allow=("127.0.0.0/8",))
    )
    with pytest.raises(grpc.aio.AioRpcError) as off:
        await harness.webhook_admin.ListEndpoints(webhook_pb2.ListEndpointsRequest(), metadata=OPERATOR)
    assert off.value.code() == grpc.StatusCode.PERMISSION_DENIED and reason(off.value) == "operator_api_off"


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("http://10.1.2.3/hook", "address_refused"),
        ("http://169.254.169.254/latest/meta-data", "address_refused"),
        ("http://[::1]:8080/hook", "address_refused"),
        ("ftp://push.example.com/hook", "bad_url"),
        ("http://user:secret@127.0.0.1/hook", "bad_url"),
    ],
)
async def test_an_endpoint_on_a_refused_address_is_not_registered(harness: Harness, url: str, code: str) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await register(harness, url, [TURN])
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert reason(refused.value) == code
    listed = await harness.webhook_admin.ListEndpoints(webhook_pb2.ListEndpointsRequest(), metadata=OPERATOR)
    assert not listed.endpoints


async def test_endpoints_are_added_listed_tested_and_removed(harness: Harness, receivers: Any) -> None:
    receiver = await receivers()
    endpoint_id, secret = await register(harness, receiver.url, [TURN, ENDED])
    assert secret.startswith("whsec_")
    listed = await harness.webhook_admin.ListEndpoints(webhook_pb2.ListEndpointsRequest(), metadata=OPERATOR)
    (endpoint,) = listed.endpoints
    assert endpoint.endpoint_id == endpoint_id and list(endpoint.events) == [TURN, ENDED]
    assert secret not in str(listed) and endpoint.secret_hint == secret[:10] + "..."
    tested = await harness.webhook_admin.TestEndpoint(
        webhook_pb2.TestEndpointRequest(endpoint_id=endpoint_id), metadata=OPERATOR
    )
    assert tested.delivered and tested.status_code == 200
    (request,) = receiver.requests
    event = Webhook(secret).verify(request.body, request.headers)
    assert event["type"] == "webhook.test" and request.headers["webhook-id"] == tested.delivery_id
    await harness.webhook_admin.RemoveEndpoint(
        webhook_pb2.RemoveEndpointRequest(endpoint_id=endpoint_id), metadata=OPERATOR
    )
    with pytest.raises(grpc.aio.AioRpcError) as gone:
        await harness.webhook_admin.RemoveEndpoint(
            webhook_pb2.RemoveEndpointRequest(endpoint_id=endpoint_id), metadata=OPERATOR
        )
    assert gone.value.code() == grpc.StatusCode.NOT_FOUND and reason(gone.value) == "endpoint_not_found"
    assert endpoint_id not in (gone.value.details() or ""), "a refusal names the field, never the id sent"


async def test_the_rest_admin_api(harness: Harness, gateway: Any, receivers: Any) -> None:
    client = await gateway(harness)
    receiver = await receivers()
    body = {"url": receiver.url, "events": ["WEBHOOK_EVENT_GAME_ENDED"]}
    refused = await client.post("/v1/admin/webhooks", json=body)
    assert refused.status_code == 401
    assert refused.headers["content-type"].startswith("application/problem+json")
    made = await client.post("/v1/admin/webhooks", json=body, headers={"X-Operator-Key": KEY})
    assert made.status_code == 201, made.text
    endpoint_id = made.json()["endpoint"]["endpointId"]
    assert made.json()["secret"].startswith("whsec_") and "private" in made.headers["cache-control"]
    listed = await client.get("/v1/admin/webhooks", headers={"X-Operator-Key": KEY})
    assert [e["endpointId"] for e in listed.json()["endpoints"]] == [endpoint_id]
    bad = await client.post(
        "/v1/admin/webhooks", json={**body, "url": "http://192.168.1.10/"}, headers={"X-Operator-Key": KEY}
    )
    assert bad.status_code == 400 and bad.json()["reason"] == "address_refused"
    dead = await client.get("/v1/admin/webhooks/deliveries?status=dead", headers={"X-Operator-Key": KEY})
    assert dead.status_code == 200 and dead.json()["deliveries"] == []
    gone = await client.delete(f"/v1/admin/webhooks/{endpoint_id}", headers={"X-Operator-Key": KEY})
    assert gone.status_code == 200
    assert (await client.get("/v1/admin/webhooks", headers={"X-Operator-Key": KEY})).json()["endpoints"] == []


async def test_add_endpoint_sent_again_with_its_request_id_answers_the_same_endpoint_and_secret_after_a_restart(
    start: Start, database_url: str, receivers: Any
) -> None:
    receiver = await receivers()
    first = await start(journal=SqlJournal(create_engine(database_url)), webhooks=SERVER_SETTINGS)
    request = webhook_pb2.AddEndpointRequest(url=receiver.url, events=[TURN], request_id="hook-1")
    added = await first.webhook_admin.AddEndpoint(request, metadata=OPERATOR)
    assert added.secret.startswith("whsec_")
    restarted = await start(journal=SqlJournal(create_engine(database_url)), webhooks=SERVER_SETTINGS)
    for harness in (first, restarted):
        # The first answer was lost: the retry is the same endpoint, with the secret it signs with (else no one has it).
        again = await harness.webhook_admin.AddEndpoint(request, metadata=OPERATOR)
        assert (again.endpoint.endpoint_id, again.secret) == (added.endpoint.endpoint_id, added.secret)
    listed = await restarted.webhook_admin.ListEndpoints(webhook_pb2.ListEndpointsRequest(), metadata=OPERATOR)
    assert [e.endpoint_id for e in listed.endpoints] == [added.endpoint.endpoint_id]
    # The same id with another request is refused, and registers nothing.
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        changed = webhook_pb2.AddEndpointRequest(url=receiver.url, events=[ENDED], request_id="hook-1")
        await restarted.webhook_admin.AddEndpoint(changed, metadata=OPERATOR)
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION and reason(refused.value) == "request_id_reused"
    listed = await restarted.webhook_admin.ListEndpoints(webhook_pb2.ListEndpointsRequest(), metadata=OPERATOR)
    assert len(listed.endpoints) == 1


async def test_over_rest_a_retried_add_endpoint_answers_the_same_endpoint_and_secret(
    harness: Harness, gateway: Any, receivers: Any
) -> None:
    client = await gateway(harness)
    receiver = await receivers()
    body = {"url": receiver.url, "events": ["WEBHOOK_EVENT_GAME_ENDED"], "requestId": "hook-1"}
    operator = {"X-Operator-Key": KEY}
    made = await client.post("/v1/admin/webhooks", json=body, headers=operator)
    assert made.status_code == 201, made.text
    again = await client.post("/v1/admin/webhooks", json=body, headers=operator)
    assert again.status_code == 201 and again.json() == made.json()
    listed = await client.get("/v1/admin/webhooks", headers=operator)
    assert [e["endpointId"] for e in listed.json()["endpoints"]] == [made.json()["endpoint"]["endpointId"]]
    reused = await client.post("/v1/admin/webhooks", json={**body, "description": "other"}, headers=operator)
    assert reused.status_code == 409 and reused.json()["reason"] == "request_id_reused"


# -- events from play ---------------------------------------------------------------------------------------------


def every_face(game: str, seats: int) -> set[str]:
    """Every card code of the game (a new game's locations hold each card once)."""
    state = get_game(game).new_game(seats, get_game(game).spec.resolve(seats, {}), 1)
    return {code for codes in state.locations().values() for code in codes}


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in [key, *strings(item)]]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return []


async def play_to_the_end(harness: Harness, room_id: str, token: str, seed: int) -> None:
    """The person's seat plays at random (the system player answers at once) until the game ends."""
    chooser = random.Random(seed)
    for _ in range(2000):
        await harness.directory.settle()
        room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
        if room.status == common_pb2.ROOM_STATUS_FINISHED:
            return
        legal = await harness.moves.ListLegalMoves(
            move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(token)
        )
        if not legal.moves:
            continue
        await harness.moves.SubmitMove(
            move_pb2.SubmitMoveRequest(
                room_id=room_id, move=chooser.choice(legal.moves), expected_version=legal.version
            ),
            metadata=auth(token),
        )
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", ["soker", "age-of-soccer", "carta-futbol-club"])
async def test_a_played_game_sends_signed_events_that_hold_no_card(harness: Harness, receivers: Any, game: str) -> None:
    receiver = await receivers()
    _, secret = await register(harness, receiver.url, [TURN, ENDED])
    ann = await guest(harness, "Ann")
    made = await against_a_system_player(harness, ann, game=game)
    room_id = made.room.room_id
    await play_to_the_end(harness, room_id, made.seat_token, seed=3)
    await drain(harness)
    events = [Webhook(secret).verify(request.body, request.headers) for request in receiver.requests]
    assert len({request.headers["webhook-id"] for request in receiver.requests}) == len(events)
    turns = [event for event in events if event["type"] == "turn.began"]
    ended = [event for event in events if event["type"] == "game.ended"]
    assert turns and all(
        t["data"]["player_id"] == ann.player.player_id and t["data"]["room_id"] == room_id for t in turns
    )
    assert all(t["data"]["seat"] == made.seat for t in turns)  # (never the system player's turns)
    (end,) = ended
    assert end["data"]["room_id"] == room_id and end["data"]["reason"]
    assert {seat["player_id"] for seat in end["data"]["seats"]} == {ann.player.player_id, None}
    # Each seat's result is the one the room's outcome gives it.
    room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert [seat["result"] for seat in end["data"]["seats"]] == [result_name(r) for r in room.outcome.results]
    # No card face anywhere: not as a value, not inside one.
    faces = every_face(game, 2)
    for event in events:
        for text in strings(event):
            assert text not in faces, (event["type"], text)
            assert not [face for face in faces if len(face) > 3 and face in text], (event["type"], text)
    # Every delivery is written once per event, and stored as delivered.
    async with harness.directory.journal.engine.connect() as connection:
        stored = (await connection.execute(select(WebhookDeliveryRow.status))).scalars().all()
    assert stored and set(stored) == {"delivered"} and len(stored) == len(events)


def result_name(result: int) -> str:
    """A SeatResult as game.ended spells it: SEAT_RESULT_SHARED_WIN is "shared_win"."""
    return common_pb2.SeatResult.Name(result).removeprefix("SEAT_RESULT_").lower()


async def test_a_draw_that_lists_every_seat_a_winner_ends_drawn_for_each_seat(harness: Harness, receivers: Any) -> None:
    """game.ended says each seat's result: Age of Soccer's turn limit with every seat on 0 shields names every seat a
    winner (``won`` true for each, as released) and is a draw for each. A few hundred ms: nobody moves, the clock
    plays every turn of one round."""
    receiver = await receivers()
    _, secret = await register(harness, receiver.url, [ENDED])
    room = await run_out(harness, "age-of-soccer", 3, {"max_rounds": 1})
    await drain(harness)
    (request,) = receiver.requests
    end = Webhook(secret).verify(request.body, request.headers)["data"]
    assert (end["reason"], end["winners"]) == ("rounds", [0, 1, 2])
    assert [(seat["seat"], seat["won"], seat["result"]) for seat in end["seats"]] == [
        (0, True, "drawn"),
        (1, True, "drawn"),
        (2, True, "drawn"),
    ]
    assert [result_name(r) for r in room.outcome.results] == ["drawn"] * 3


async def test_a_correspondence_turn_gets_a_reminder_an_hour_before_its_deadline(
    harness: Harness, receivers: Any
) -> None:
    receiver = await receivers()
    _, secret = await register(harness, receiver.url, [TURN, REMINDER])
    ann = await guest(harness, "Ann")
    made = await against_a_system_player(harness, ann, correspondence_hours=24)
    await drain(harness)
    (began,) = [json.loads(request.body) for request in receiver.requests]
    assert began["type"] == "turn.began" and began["data"]["player_id"] == ann.player.player_id
    harness.clock.advance(23 * 3600 - 1)
    await drain(harness)
    assert len(receiver.requests) == 1  # (not yet: due an hour before the deadline)
    harness.clock.advance(1)
    await drain(harness)
    reminder = Webhook(secret).verify(receiver.requests[-1].body, receiver.requests[-1].headers)
    assert reminder["type"] == "clock.running_out" and reminder["data"]["seconds_left"] == 3600
    assert (
        reminder["data"]["room_id"] == made.room.room_id and reminder["data"]["deadline"] == began["data"]["deadline"]
    )


async def end_turn(harness: Harness, room_id: str, token: str) -> None:
    """The person's moves until their turn is over (a draw leaves it running) and the next one began."""
    view = await harness.moves.GetView(move_pb2.GetViewRequest(room_id=room_id), metadata=auth(token))
    first = view.clocks[0].deadline.seconds
    while True:
        legal = await harness.moves.ListLegalMoves(
            move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(token)
        )
        await harness.moves.SubmitMove(
            move_pb2.SubmitMoveRequest(room_id=room_id, move=legal.moves[-1], expected_version=legal.version),
            metadata=auth(token),
        )
        await harness.directory.settle()
        view = await harness.moves.GetView(move_pb2.GetViewRequest(room_id=room_id), metadata=auth(token))
        if view.clocks and view.clocks[0].deadline.seconds != first:
            return


async def test_a_reminder_for_a_seat_that_moved_is_never_sent(harness: Harness, receivers: Any) -> None:
    receiver = await receivers()
    await register(harness, receiver.url, [REMINDER])
    ann = await guest(harness, "Ann")
    made = await against_a_system_player(harness, ann, correspondence_hours=24)
    room_id, token = made.room.room_id, made.seat_token
    harness.clock.advance(3600)
    await end_turn(harness, room_id, token)
    harness.clock.advance(22 * 3600)  # (the first turn's reminder falls due; that turn is over)
    await drain(harness)
    assert receiver.requests == []  # (the second turn's reminder is due an hour later)
    async with harness.directory.journal.engine.connect() as connection:
        statuses = (await connection.execute(select(WebhookDeliveryRow.status))).scalars().all()
    assert "obsolete" in statuses


async def test_a_match_found_and_a_tournaments_next_game_are_sent(harness: Harness, receivers: Any) -> None:
    receiver = await receivers()
    found, ready = webhook_pb2.WEBHOOK_EVENT_MATCH_FOUND, webhook_pb2.WEBHOOK_EVENT_TOURNAMENT_GAME_READY
    _, secret = await register(harness, receiver.url, [found, ready])
    ann, bob = await guest(harness, "Ann"), await guest(harness, "Bob")
    tickets = {}
    for session in (ann, bob):
        request = match_pb2.EnqueueRequest(game="soker", seat_counts=[2])
        ticket = (await harness.matches.Enqueue(request, metadata=auth(session.access_token))).ticket
        tickets[ticket.ticket_id] = session.player.player_id
    harness.clock.advance(1)
    await harness.matchmaker.tick()
    created = await harness.tournaments.CreateTournament(
        tournament_pb2.CreateTournamentRequest(
            game="soker", mode=common_pb2.ROOM_MODE_ONLINE, system_players=3, think_seconds=0
        )
    )
    tournament_id = created.tournament.tournament_id
    await harness.tournaments.JoinTournament(
        tournament_pb2.JoinTournamentRequest(tournament_id=tournament_id, name="Ann"),
        metadata=auth(ann.access_token),
    )
    await drain(harness)
    events = [Webhook(secret).verify(request.body, request.headers) for request in receiver.requests]
    matched = {event["data"]["ticket_id"]: event["data"] for event in events if event["type"] == "match.found"}
    assert set(matched) == set(tickets)
    assert all(data["players"] == [tickets[ticket]] and data["take_up_deadline"] for ticket, data in matched.items())
    assert len({data["match_id"] for data in matched.values()}) == 1  # (one table for both)
    (game,) = [event["data"] for event in events if event["type"] == "tournament.game_ready"]
    assert game["tournament_id"] == tournament_id and game["game_index"] == 0
    assert game["players"] == [ann.player.player_id] and game["room_id"]


async def test_kickoff_webhooks_drives_the_admin_api(harness: Harness, receivers: Any) -> None:
    receiver = await receivers()
    env = {**os.environ, "KICKOFF_OPERATOR_KEY": KEY}
    target = f"127.0.0.1:{harness.server.port}"

    async def kickoff(*words: str, key: bool = True) -> tuple[int, str]:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "cli",
            "webhooks",
            "--target",
            target,
            *words,
            env=env if key else {k: v for k, v in env.items() if k != "KICKOFF_OPERATOR_KEY"},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        output, _ = await process.communicate()
        return process.returncode or 0, output.decode()

    code, output = await kickoff("add", receiver.url, "--event", "turn.began", "--event", "game.ended")
    assert code == 0, output
    endpoint_id = output.split()[1]
    secret = output.rsplit(": ", 1)[1].strip()
    assert secret.startswith("whsec_")
    code, output = await kickoff("list")
    assert code == 0 and endpoint_id in output and "turn.began,game.ended" in output and secret not in output
    code, output = await kickoff("test", endpoint_id)
    assert code == 0 and "delivered: HTTP 200" in output
    Webhook(secret).verify(receiver.requests[-1].body, receiver.requests[-1].headers)
    code, output = await kickoff("deliveries", "--status", "dead")
    assert code == 0 and output == ""
    code, output = await kickoff("add", "http://10.0.0.1/hook", "--event", "turn.began")
    assert code == 1 and "INVALID_ARGUMENT" in output
    code, output = await kickoff("list", key=False)
    assert code == 2 and "KICKOFF_OPERATOR_KEY" in output
    code, output = await kickoff("remove", endpoint_id)
    assert code == 0
    code, output = await kickoff("list")
    assert code == 0 and output == ""
