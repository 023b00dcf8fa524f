"""What an operator sees: one trace per move from the HTTP request to the database, clock expiries as their own
traces, metrics that move with play, and no card from a hand anywhere in the telemetry or the logs."""

from __future__ import annotations

import random
import re

from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.trace import SpanKind

from engine.soker import cards as soker_cards
from kickoff.v1 import common_pb2, move_pb2, move_pb2_grpc, room_pb2, room_pb2_grpc
from service.telemetry import from_environment
from tests.telemetry.conftest import Stack


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def solo_room(stack: Stack, seats: int = 4) -> tuple[str, str]:
    created = await stack.http.post(
        "/v1/rooms", json={"game": "soker", "mode": "ROOM_MODE_SOLO", "seats": seats, "systemPlayers": seats - 1}
    )
    room_id = created.json()["roomId"]
    joined = await stack.http.post(f"/v1/rooms/{room_id}/seats", json={"name": "ann"})
    return room_id, joined.json()["seatToken"]


def ancestry(span: ReadableSpan, by_id: dict[int, ReadableSpan]) -> list[str]:
    """The names from ``span`` up to its trace's root (within the spans given)."""
    names = [span.name]
    while span.parent is not None and span.parent.span_id in by_id:
        span = by_id[span.parent.span_id]
        names.append(span.name)
    return names


async def test_a_move_over_rest_is_one_trace_from_the_http_request_to_the_database(stack: Stack) -> None:
    room_id, token = await solo_room(stack)
    await stack.server.directory.get(room_id).settle()
    created = next(s for s in stack.grpc.finished() if s.name == "room.created")
    stack.gateway.spans.clear()
    stack.grpc.spans.clear()
    legal = (await stack.http.get(f"/v1/rooms/{room_id}/legal-moves", headers=bearer(token))).json()["moves"]
    stack.gateway.spans.clear()
    stack.grpc.spans.clear()
    answer = await stack.http.post(
        f"/v1/rooms/{room_id}/moves", json={"move": legal[0], "requestId": "r1"}, headers=bearer(token)
    )
    assert answer.status_code == 201, answer.text
    await stack.server.directory.get(room_id).settle()

    http = [s for s in stack.gateway.finished() if s.kind == SpanKind.SERVER]
    assert [s.name for s in http] == ["POST /v1/rooms/{room_id}/moves"], "named after the route, not the room"
    trace_id = http[0].context.trace_id
    spans = [s for s in stack.gateway.finished() + stack.grpc.finished() if s.context.trace_id == trace_id]
    by_id = {s.context.span_id: s for s in spans}
    named = {s.name: s for s in spans}
    client = next(s for s in spans if s.kind == SpanKind.CLIENT and s.name == "/kickoff.v1.MoveService/SubmitMove")
    server = next(s for s in spans if s.kind == SpanKind.SERVER and s.name == "/kickoff.v1.MoveService/SubmitMove")
    assert server.parent is not None and server.parent.span_id == client.context.span_id, "context crossed the call"
    move = named["room.move"]
    assert move.parent.span_id == server.context.span_id
    version = int(answer.json()["version"])
    assert dict(move.attributes) == {
        "kickoff.room_id": room_id,
        "kickoff.game": "soker",
        "kickoff.seat": 0,
        "kickoff.move.kind": next(iter(legal[0]["soker"])),
        "kickoff.version": version,
    }
    commit = named["journal.commit"]
    assert commit.parent.span_id == move.context.span_id and commit.attributes["kickoff.lines"] >= 1
    statements = [s for s in spans if "db.statement" in s.attributes or "db.query.text" in s.attributes]
    assert statements, "the database's own spans are in the trace"
    assert all(ancestry(s, by_id)[1] == "journal.commit" for s in statements)
    if stack.database == "postgresql":  # asyncpg's own spans too, under SQLAlchemy's
        driver = [s for s in spans if s.instrumentation_scope.name == "opentelemetry.instrumentation.asyncpg"]
        assert driver and all("journal.commit" in ancestry(s, by_id) for s in driver)
        # (a move is stored by one statement, its own transaction: no BEGIN or COMMIT round trip of its own)
        assert {s.name for s in driver} == {"WITH"}
    inserts = [
        s for s in statements if "room_log" in str(s.attributes.get("db.statement", s.attributes.get("db.query.text")))
    ]
    assert inserts
    assert ancestry(inserts[0], by_id)[-1] == http[0].name, "one trace from the gateway down to the database"
    # The system players, who move once the person's turn is over, have traces of their own.
    while not [s for s in stack.grpc.finished() if s.name == "room.system_player_move"]:
        legal = (await stack.http.get(f"/v1/rooms/{room_id}/legal-moves", headers=bearer(token))).json()["moves"]
        ending = [m for m in legal if "end" in m["soker"]] or legal
        await stack.http.post(f"/v1/rooms/{room_id}/moves", json={"move": ending[0]}, headers=bearer(token))
        await stack.server.directory.get(room_id).settle()
    # The room is traced (the sampler samples everything here): the person's move, in the request's own trace, links
    # to the room's trace, and the system players, who move once the person's turn is over, are in the room's trace,
    # under the span of its creation.
    assert created.attributes["kickoff.room_id"] == room_id
    assert [link.context.span_id for link in move.links] == [created.context.span_id]
    bots = [s for s in stack.grpc.finished() if s.name == "room.system_player_move"]
    assert bots and all(s.parent.span_id == created.context.span_id for s in bots)
    assert all(s.context.trace_id == created.context.trace_id != trace_id for s in bots)
    assert all(s.attributes["kickoff.room_id"] == room_id for s in bots)


async def test_a_clock_expiry_is_traced_in_its_rooms_trace(stack: Stack) -> None:
    rooms = room_pb2_grpc.RoomServiceStub(stack.channel)
    room = (
        await rooms.CreateRoom(
            room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, system_players=0)
        )
    ).room
    created = next(s for s in stack.grpc.finished() if s.name == "room.created")
    assert created.attributes["kickoff.room_id"] == room.room_id
    for _ in range(2):
        await rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id))
    stack.grpc.spans.clear()
    stack.clock.advance(30)
    await stack.server.directory.get(room.room_id).settle()
    expired = [s for s in stack.grpc.finished() if s.name == "room.clock_expired"]
    assert len(expired) == 1 and expired[0].parent.span_id == created.context.span_id
    assert expired[0].context.trace_id == created.context.trace_id
    assert expired[0].attributes["kickoff.room_id"] == room.room_id and "kickoff.seat" in expired[0].attributes
    commits = [s for s in stack.grpc.finished() if s.name == "journal.commit"]
    assert any(c.parent is not None and c.parent.span_id == expired[0].context.span_id for c in commits)


def points(side, name: str) -> list:
    data = side.metrics.get_metrics_data()
    found = []
    for resource_metrics in data.resource_metrics if data else ():
        for scope in resource_metrics.scope_metrics:
            for metric in scope.metrics:
                if metric.name == name:
                    found.extend(metric.data.data_points)
    return found


async def test_metrics_move_when_a_game_is_played(stack: Stack) -> None:
    room_id, token = await solo_room(stack, seats=2)
    moves = move_pb2_grpc.MoveServiceStub(stack.channel)
    auth = (("authorization", f"Bearer {token}"),)
    stream = moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room_id), metadata=auth)
    await stream.read()  # the stream is open
    assert {p.attributes["kickoff.stream"]: p.value for p in points(stack.grpc, "kickoff.event_streams.open")} == {
        "events": 1
    }
    chooser = random.Random(3)
    person_moves = 0
    while True:
        await stack.server.directory.get(room_id).settle()
        view = await moves.GetView(move_pb2.GetViewRequest(room_id=room_id), metadata=auth)
        if not view.to_act:
            break
        legal = await moves.ListLegalMoves(move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth)
        await moves.SubmitMove(
            move_pb2.SubmitMoveRequest(room_id=room_id, move=chooser.choice(legal.moves)), metadata=auth
        )
        person_moves += 1
    stream.cancel()
    await stack.server.directory.get(room_id).settle()
    assert not [line for line in stack.logs.lines if "ERROR" in line], "a stream closes without an error logged"
    counted = {
        (p.attributes["kickoff.mover"], p.attributes["kickoff.move.kind"]): p.value
        for p in points(stack.grpc, "kickoff.moves")
    }
    assert sum(v for (mover, _), v in counted.items() if mover == "person") == person_moves
    assert sum(v for (mover, _), v in counted.items() if mover == "system") > 0
    latency = points(stack.grpc, "kickoff.move.duration")
    assert latency[0].count == person_moves and latency[0].sum > 0
    think = points(stack.grpc, "kickoff.system_player.think_time")
    assert think[0].count > 0 and think[0].sum == 0, "bots think 0 s in tests"
    rooms = {
        (p.attributes["kickoff.game"], p.attributes["kickoff.room.status"]): p.value
        for p in points(stack.grpc, "kickoff.rooms")
    }
    assert rooms == {("soker", "finished"): 1}
    commits = points(stack.grpc, "kickoff.db.commit.duration")
    assert commits[0].count >= person_moves
    http = points(stack.gateway, "http.server.duration") or points(stack.gateway, "http.server.request.duration")
    assert http, "the gateway's HTTP metrics (Litestar's plugin)"
    # A clock that runs out is counted.
    rooms_stub = room_pb2_grpc.RoomServiceStub(stack.channel)
    online = (
        await rooms_stub.CreateRoom(
            room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, system_players=1)
        )
    ).room
    await rooms_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=online.room_id))
    await stack.server.directory.get(online.room_id).settle()
    stack.clock.advance(30)
    await stack.server.directory.get(online.room_id).settle()
    assert sum(p.value for p in points(stack.grpc, "kickoff.clock.expiries")) >= 1
    assert {p.attributes["kickoff.stream"]: p.value for p in points(stack.grpc, "kickoff.event_streams.open")} == {
        "events": 0
    }


CARD_CODES = re.compile(r"\b(?:[A-Z]{3}-(?:GKP|DEF|MID|FRW)|YELLOW-\d|RED-\d|JOKER-\d)\b")
LEGENDS = sorted({soker_cards.legend(card) for card in range(soker_cards.PLAYER_CARDS)})


def telemetry_text(stack: Stack) -> list[str]:
    """Every string the telemetry and the logs hold: span names, attributes, events, links, statuses, resources,
    metric names and attributes, and every log line."""
    texts: list[str] = list(stack.logs.lines)
    for side in (stack.gateway, stack.grpc):
        for span in side.finished():
            texts.append(span.name)
            texts.extend(f"{k}={v}" for k, v in span.attributes.items())
            texts.append(str(span.status.description or ""))
            for event in span.events:
                texts.append(event.name)
                texts.extend(f"{k}={v}" for k, v in (event.attributes or {}).items())
            for link in span.links:
                texts.extend(f"{k}={v}" for k, v in (link.attributes or {}).items())
            texts.extend(f"{k}={v}" for k, v in span.resource.attributes.items())
        data = side.metrics.get_metrics_data()
        for resource_metrics in data.resource_metrics if data else ():
            for scope in resource_metrics.scope_metrics:
                for metric in scope.metrics:
                    texts.append(metric.name)
                    for point in metric.data.data_points:
                        texts.extend(f"{k}={v}" for k, v in (point.attributes or {}).items())
    return texts


def cards_in(texts: list[str]) -> list[str]:
    found = [m for text in texts for m in CARD_CODES.findall(text)]
    found += [name for text in texts for name in LEGENDS if name in text]
    return found


async def test_no_telemetry_or_log_line_holds_a_card(stack: Stack) -> None:
    """Whole games over REST and gRPC - refusals of cards from the hand, clock expiries, system players - and then
    not one card code or legend's name anywhere an operator looks."""
    chooser = random.Random(17)
    for game in range(3):
        room_id, token = await solo_room(stack, seats=2 + game)
        while True:
            await stack.server.directory.get(room_id).settle()
            view = (await stack.http.get(f"/v1/rooms/{room_id}/view", headers=bearer(token))).json()
            if not view.get("toAct"):
                break
            legal = (await stack.http.get(f"/v1/rooms/{room_id}/legal-moves", headers=bearer(token))).json()["moves"]
            plays = {tuple(m["soker"]["play"]["cards"]) for m in legal if "play" in m["soker"]}
            illegal = [card for card in view["view"]["soker"]["hand"] if (card,) not in plays]
            if illegal:  # a card from the hand that the rules refuse: its code must not leak through the refusal
                refused = await stack.http.post(
                    f"/v1/rooms/{room_id}/moves",
                    json={"move": {"soker": {"play": {"cards": [illegal[0]]}}}},
                    headers=bearer(token),
                )
                assert refused.status_code == 409 and refused.json()["cards"] == [illegal[0]]
            await stack.http.post(
                f"/v1/rooms/{room_id}/moves", json={"move": chooser.choice(legal)}, headers=bearer(token)
            )
    rooms = room_pb2_grpc.RoomServiceStub(stack.channel)
    online = (
        await rooms.CreateRoom(
            room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=3, system_players=2)
        )
    ).room
    await rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=online.room_id))
    for _ in range(200):  # the person is away: the clock plays for them until the game ends
        room = stack.server.directory.get(online.room_id)
        await room.settle()
        if room.status == "finished":
            break
        stack.clock.advance(30)
    texts = telemetry_text(stack)
    assert any("room.move" in t for t in texts) and any("room.clock_expired" in t for t in texts)
    assert any("kickoff.refusal=no_match" in t or "kickoff.refusal=" in t for t in texts), "refusals were traced"
    assert cards_in(texts) == []
    # The check itself finds a card where there is one.
    assert cards_in(["room.move play JUV-GKP", f"by {LEGENDS[0]}"]) == ["JUV-GKP", LEGENDS[0]]


def test_the_environment_chooses_the_exporters() -> None:
    off = from_environment("kickoff-grpc", {})
    assert not off.tracing and not off.metering, "nothing is exported unless asked"
    console = from_environment(
        "kickoff-grpc",
        {
            "OTEL_TRACES_EXPORTER": "console",
            "OTEL_METRICS_EXPORTER": "none",
            "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=test",
        },
    )
    assert console.tracing and not console.metering
    resource = console.tracer_provider.resource.attributes
    assert resource["service.name"] == "kickoff-grpc" and resource["service.version"]
    assert resource["deployment.environment"] == "test"
    console.shutdown()
    named = from_environment(
        "kickoff-gateway",
        {"OTEL_TRACES_EXPORTER": "otlp", "OTEL_SERVICE_NAME": "edge", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"},
    )
    assert named.tracer_provider.resource.attributes["service.name"] == "edge"
    named.shutdown()
    disabled = from_environment("kickoff-grpc", {"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "otlp"})
    assert not disabled.tracing
    for bad in (
        {"OTEL_TRACES_EXPORTER": "zipkin"},
        {"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL": "thrift"},
    ):
        try:
            from_environment("kickoff-grpc", bad)
        except ValueError as error:
            assert next(iter(bad.values())) in str(error) or "PROTOCOL" in str(error)
        else:
            raise AssertionError(f"{bad} was accepted")


async def test_no_telemetry_or_log_line_holds_a_seat_token_or_a_stream_ticket(stack: Stack) -> None:
    """A seat token in headers, a stream ticket in a query string, a forged ticket refused, an invitation token in a
    room's and a view's query string (a watch link's reads): none of them anywhere an operator looks (the gateway keeps
    no access log, traces no event stream, and blots an invitation token out of a request's span)."""
    room_id, token = await solo_room(stack, seats=2)
    minted = await stack.http.post(f"/v1/rooms/{room_id}/stream-tickets", headers=bearer(token))
    assert minted.status_code == 201, minted.text
    ticket = minted.json()["ticket"]
    async with stack.http.stream("GET", f"/v1/rooms/{room_id}/events?ticket={ticket}") as stream:
        async for line in stream.aiter_lines():
            if line.startswith("event: update"):
                break
    forged = ticket[:-4] + ("AAAA" if not ticket.endswith("AAAA") else "BBBB")
    refused = await stack.http.get(f"/v1/rooms/{room_id}/events", params={"ticket": forged})
    assert refused.status_code == 401
    legal = (await stack.http.get(f"/v1/rooms/{room_id}/legal-moves", headers=bearer(token))).json()["moves"]
    await stack.http.post(f"/v1/rooms/{room_id}/moves", json={"move": legal[0]}, headers=bearer(token))
    link = "eyJhbGciOiJIUzI1NiJ9.eyJyaWQiOiJhIn0.a-watch-link-signature"  # (refused, link_invalid: still traced)
    for path in (f"/v1/rooms/{room_id}", f"/v1/rooms/{room_id}/view"):
        read = await stack.http.get(path, params={"invitation_token": link})
        assert read.status_code == 409 and read.json()["reason"] == "link_invalid", read.text
    texts = "\n".join(telemetry_text(stack))
    assert "room.move" in texts, "the run was traced"
    assert "invitation_token=-" in texts, "the reads with a link were traced, the token blotted out"
    for secret in (token, ticket, forged, *token.split("."), *ticket.split("."), *link.split(".")):
        assert secret not in texts
