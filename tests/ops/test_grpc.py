"""OperatorService over gRPC on one server: the key it takes (and every key it refuses), the live rooms, a room's
timeline (a spectator's, never a hidden card), closing a room and revoking a seat's token, each logged and traced."""

from __future__ import annotations

import logging

import grpc
import pytest
from google.protobuf.message import Message
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from kickoff.v1 import common_pb2, move_pb2, operator_pb2, player_pb2, room_pb2
from service.operators.keys import OperatorKeys, key_hash
from service.settings import Rate
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from service.telemetry import Telemetry
from tests.ops.conftest import KEY, KEY_ID, OTHER_KEY, op, operator_keys, ops
from tests.server.conftest import Harness, auth, refusal
from tests.server.test_protocol import play_some, two_seat_game
from tests.server.test_replays import stream
from tests.servers import Start
from tests.web.leaks import faces_in, open_to_spectators

API_KEY = "kk_0123456789ab_an-api-key-of-this-server"
CALLS: list[tuple[str, Message]] = [
    ("ListNodes", operator_pb2.ListNodesRequest()),
    ("ListLeases", operator_pb2.ListLeasesRequest()),
    ("ListLiveRooms", operator_pb2.ListLiveRoomsRequest()),
    ("GetRoomTimeline", operator_pb2.GetRoomTimelineRequest(room_id="nosuchroom")),
    ("CloseRoom", operator_pb2.CloseRoomRequest(room_id="nosuchroom", reason="why")),
    ("RevokeSeatToken", operator_pb2.RevokeSeatTokenRequest(room_id="nosuchroom", seat=0)),
    ("DrainNode", operator_pb2.DrainNodeRequest()),
    # (issue 49: the chat's moderation)
    ("ListChatReports", operator_pb2.ListChatReportsRequest()),
    ("GetChatReport", operator_pb2.GetChatReportRequest(report_id="nosuchreport")),
    ("CloseChatReport", operator_pb2.CloseChatReportRequest(report_id="nosuchreport")),
    ("DeleteChatMessage", operator_pb2.DeleteChatMessageRequest(room_id="nosuchroom", seq=1)),
    ("MutePlayer", operator_pb2.MutePlayerRequest(player_id="nosuchplayer", seconds=60)),
    ("EndMute", operator_pb2.EndMuteRequest(player_id="nosuchplayer")),
    ("ListMutes", operator_pb2.ListMutesRequest()),
]


async def operated(start: Start, **options: object) -> Harness:
    return await start(operator_keys=operator_keys(), **options)


@pytest.mark.parametrize(("method", "request_message"), CALLS, ids=[name for name, _ in CALLS])
async def test_every_call_takes_only_an_operator_key(start: Start, method: str, request_message: Message) -> None:
    harness = await operated(start, api_keys=(API_KEY,))
    room = await harness.create(seats=2)
    _, seat_token = await harness.join(room.room_id)
    call = getattr(ops(harness), method)
    # No key, whatever the request names (an unknown room too: nothing is said before the key).
    assert (await refusal(call(request_message)))[:2] == (grpc.StatusCode.UNAUTHENTICATED, "operator_key_required")
    for wrong in (OTHER_KEY, API_KEY, seat_token, "x" * 300):
        code, reason, message = await refusal(call(request_message, metadata=op(wrong)))
        assert (code, reason) == (grpc.StatusCode.UNAUTHENTICATED, "bad_operator_key")
        assert wrong not in message
    bare = await start()  # a server without operator keys has no operator API
    code, reason, _ = await refusal(getattr(ops(bare), method)(request_message, metadata=op()))
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "operator_api_off")


async def test_an_operator_key_is_neither_an_api_key_nor_a_seat_token(start: Start) -> None:
    harness = await operated(start, require_api_key=True, api_keys=(API_KEY,))
    create = room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2)
    assert (await refusal(harness.rooms.CreateRoom(create, metadata=(("x-api-key", KEY),))))[1] == "bad_api_key"
    room = (await harness.rooms.CreateRoom(create, metadata=(("x-api-key", API_KEY),))).room
    view = harness.moves.GetView(move_pb2.GetViewRequest(room_id=room.room_id), metadata=auth(KEY))
    assert (await refusal(view))[0] == grpc.StatusCode.UNAUTHENTICATED
    # A setting that made an API key an operator key too is refused as the server starts.
    with pytest.raises(ValueError, match="must not be an API key"):
        OperatorKeys.from_settings([("k1", key_hash(API_KEY))], "", (API_KEY,))


async def test_bad_requests_are_refused_with_the_field_at_fault(start: Start) -> None:
    harness = await operated(start)
    stub = ops(harness)
    room = await harness.create(seats=2)
    cases = [
        (stub.ListLiveRooms(operator_pb2.ListLiveRoomsRequest(page_size=501), metadata=op()), "bad_page_size"),
        (stub.ListLiveRooms(operator_pb2.ListLiveRoomsRequest(page_token="nope"), metadata=op()), "bad_page_token"),
        (stub.ListNodes(operator_pb2.ListNodesRequest(page_size=-1), metadata=op()), "bad_page_size"),
        (stub.GetRoomTimeline(operator_pb2.GetRoomTimelineRequest(room_id="r" * 33), metadata=op()), "too_long"),
        (
            stub.GetRoomTimeline(
                operator_pb2.GetRoomTimelineRequest(room_id=room.room_id, after_version=-1), metadata=op()
            ),
            "bad_after_version",
        ),
        (stub.CloseRoom(operator_pb2.CloseRoomRequest(room_id=room.room_id), metadata=op()), "missing_reason"),
        (
            stub.CloseRoom(operator_pb2.CloseRoomRequest(room_id=room.room_id, reason="x" * 65), metadata=op()),
            "too_long",
        ),
        (
            stub.RevokeSeatToken(operator_pb2.RevokeSeatTokenRequest(room_id=room.room_id, seat=7), metadata=op()),
            "bad_seat",
        ),
    ]
    for call, expected in cases:
        code, reason, _ = await refusal(call)
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, expected)
    missing = stub.CloseRoom(operator_pb2.CloseRoomRequest(room_id="nosuchroom", reason="why"), metadata=op())
    assert (await refusal(missing))[:2] == (grpc.StatusCode.NOT_FOUND, "room_not_found")
    free = stub.RevokeSeatToken(operator_pb2.RevokeSeatTokenRequest(room_id=room.room_id, seat=1), metadata=op())
    assert (await refusal(free))[:2] == (grpc.StatusCode.FAILED_PRECONDITION, "seat_not_held")
    drain = stub.DrainNode(operator_pb2.DrainNodeRequest(), metadata=op())
    assert (await refusal(drain))[:2] == (grpc.StatusCode.FAILED_PRECONDITION, "not_a_cluster")


async def test_a_single_server_lists_itself_and_no_lease(start: Start) -> None:
    stub = ops(await operated(start))
    nodes = await stub.ListNodes(operator_pb2.ListNodesRequest(), metadata=op())
    assert not nodes.cluster and len(nodes.nodes) == 1 and nodes.nodes[0].this_node and nodes.nodes[0].alive
    assert not (await stub.ListLeases(operator_pb2.ListLeasesRequest(), metadata=op())).leases


@pytest.mark.parametrize("journal", ["memory", "sqlite"])
async def test_live_rooms_by_game_newest_first_a_page_at_a_time(start: Start, journal: str, tmp_path) -> None:
    stored = None
    if journal == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
        await upgrade_in_thread(url)
        stored = SqlJournal(create_engine(url))
    harness = await operated(start, journal=stored)
    stub = ops(harness)
    soker = [(await harness.create(seats=2)).room_id for _ in range(3)]
    other = room_pb2.CreateRoomRequest(game="age-of-soccer", mode=common_pb2.ROOM_MODE_ONLINE, seats=2)
    age = (await harness.rooms.CreateRoom(other)).room.room_id
    closed = soker.pop(0)
    await stub.CloseRoom(operator_pb2.CloseRoomRequest(room_id=closed, reason="tidy"), metadata=op())
    everything = await stub.ListLiveRooms(operator_pb2.ListLiveRoomsRequest(), metadata=op())
    assert {room.room_id for room in everything.rooms} == {*soker, age}, "a finished room is not live"
    seen, token = [], ""
    while True:
        page = await stub.ListLiveRooms(
            operator_pb2.ListLiveRoomsRequest(game="soker", page_size=1, page_token=token), metadata=op()
        )
        assert len(page.rooms) <= 1
        seen += [room.room_id for room in page.rooms]
        token = page.next_page_token
        if not token:
            break
    assert sorted(seen) == sorted(soker) and len(seen) == len(set(seen))
    room = everything.rooms[0]
    assert room.status == common_pb2.ROOM_STATUS_WAITING and room.seats == 2 and room.HasField("create_time")


async def test_closing_a_room_tells_its_seats_and_its_outcome_says_closed_by_operator(
    start: Start, caplog: pytest.LogCaptureFixture
) -> None:
    harness = await operated(start)
    room_id, tokens = await two_seat_game(harness)
    await play_some(harness, room_id, tokens, 3)
    version = (await harness.view(room_id)).version
    streams = [
        harness.moves.StreamEvents(
            move_pb2.StreamEventsRequest(room_id=room_id, after_version=version), metadata=auth(token)
        )
        for token in tokens
    ]
    for call in streams:
        await call.initial_metadata()
    with caplog.at_level(logging.INFO, logger="service.grpc.operators"):
        closed = await ops(harness).CloseRoom(
            operator_pb2.CloseRoomRequest(room_id=room_id, reason="server maintenance"), metadata=op()
        )
    reason = "closed_by_operator: server maintenance"
    assert closed.room.status == common_pb2.ROOM_STATUS_FINISHED and closed.room.outcome.reason == reason
    assert not closed.room.outcome.winners and not closed.room.rated
    for call in streams:  # each seat hears of it on its stream, which then ends
        update = (await call.read()).update
        assert update.version == version + 1 and update.status == common_pb2.ROOM_STATUS_FINISHED
        assert [event.game_ended.outcome.reason for event in update.events] == [reason]
        assert await call.read() is grpc.aio.EOF
    move = move_pb2.Move(soker={"draw": {}})
    assert (await refusal(harness.submit(room_id, tokens[0], move)))[0] == grpc.StatusCode.FAILED_PRECONDITION
    again = ops(harness).CloseRoom(operator_pb2.CloseRoomRequest(room_id=room_id, reason="again"), metadata=op())
    assert (await refusal(again))[:2] == (grpc.StatusCode.FAILED_PRECONDITION, "room_finished")
    lines = [record.getMessage() for record in caplog.records]
    assert f"operator action=close_room key_id={KEY_ID} room_id={room_id}" in lines
    assert any("refused=room_finished" in line for line in lines)
    assert KEY not in caplog.text


async def test_a_closed_room_and_a_revoked_token_survive_a_restart(start: Start, tmp_path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    first = await operated(start, journal=SqlJournal(create_engine(url)))
    room_id, tokens = await two_seat_game(first)
    await play_some(first, room_id, tokens, 2)
    revoked = await ops(first).RevokeSeatToken(
        operator_pb2.RevokeSeatTokenRequest(room_id=room_id, seat=0), metadata=op()
    )
    assert not revoked.released and revoked.room.status == common_pb2.ROOM_STATUS_PLAYING
    closing, _ = await two_seat_game(first)
    await ops(first).CloseRoom(operator_pb2.CloseRoomRequest(room_id=closing, reason="cheating"), metadata=op())
    await first.server.stop(0)

    second = await operated(start, journal=SqlJournal(create_engine(url)))
    await second.directory.restore(await second.directory.journal.load_live("room"))
    room = (await second.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=closing))).room
    assert room.status == common_pb2.ROOM_STATUS_FINISHED and room.outcome.reason == "closed_by_operator: cheating"
    timeline = await ops(second).GetRoomTimeline(operator_pb2.GetRoomTimelineRequest(room_id=closing), metadata=op())
    assert timeline.updates[-1].events[-1].game_ended.outcome.reason == "closed_by_operator: cheating"
    assert (await refusal(second.view(room_id, tokens[0])))[0] == grpc.StatusCode.UNAUTHENTICATED
    assert (await second.view(room_id, tokens[1])).viewer == 1, "the other seat's token still works"


async def test_a_revoked_seat_token_opens_nothing_and_its_streams_end(start: Start) -> None:
    harness = await operated(start)
    stub = ops(harness)
    room_id, tokens = await two_seat_game(harness)
    await play_some(harness, room_id, tokens, 2)
    for _ in range(20):  # (on to seat 1's turn: the seat whose token stays plays on below)
        if list((await harness.view(room_id)).to_act) == [1]:
            break
        await play_some(harness, room_id, tokens, 1)
    version = (await harness.view(room_id)).version
    call = harness.moves.StreamEvents(
        move_pb2.StreamEventsRequest(room_id=room_id, after_version=version), metadata=auth(tokens[0])
    )
    await call.initial_metadata()
    answer = await stub.RevokeSeatToken(operator_pb2.RevokeSeatTokenRequest(room_id=room_id, seat=0), metadata=op())
    assert not answer.released and answer.room.seats[0].taken, "a playing room's seat stays its holder's"
    code, reason, _ = await refusal(call.read())
    assert (code, reason) == (grpc.StatusCode.UNAUTHENTICATED, "seat_released")
    for refused in (
        harness.view(room_id, tokens[0]),
        harness.legal(room_id, tokens[0]),
        harness.submit(room_id, tokens[0], move_pb2.Move(soker={"draw": {}})),
        harness.moves.CreateStreamTicket(move_pb2.CreateStreamTicketRequest(room_id=room_id), metadata=auth(tokens[0])),
    ):
        assert (await refusal(refused))[0] == grpc.StatusCode.UNAUTHENTICATED
    await play_some(harness, room_id, [tokens[1], tokens[1]], 1)  # (the other seat plays on)
    # A waiting room's seat is given back: anyone may take it again.
    waiting = await harness.create(seats=3)
    seat, _ = await harness.join(waiting.room_id)
    answer = await stub.RevokeSeatToken(
        operator_pb2.RevokeSeatTokenRequest(room_id=waiting.room_id, seat=seat), metadata=op()
    )
    assert answer.released and not answer.room.seats[seat].taken
    assert (await harness.join(waiting.room_id, seat=seat))[0] == seat


async def test_a_players_revoked_seat_is_taken_up_again_with_a_fresh_token(start: Start, tmp_path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    harness = await operated(start, journal=SqlJournal(create_engine(url)))
    session = (await harness.players.SignInAsGuest(player_pb2.SignInAsGuestRequest(name="ann"))).session
    room = await harness.create(seats=2)
    joined = await harness.rooms.JoinRoom(
        room_pb2.JoinRoomRequest(room_id=room.room_id), metadata=auth(session.access_token)
    )
    await harness.join(room.room_id)
    await ops(harness).RevokeSeatToken(
        operator_pb2.RevokeSeatTokenRequest(room_id=room.room_id, seat=joined.seat), metadata=op()
    )
    assert (await refusal(harness.view(room.room_id, joined.seat_token)))[0] == grpc.StatusCode.UNAUTHENTICATED
    taken = await harness.players.TakeSeat(
        player_pb2.TakeSeatRequest(room_id=room.room_id), metadata=auth(session.access_token)
    )
    assert taken.seat == joined.seat and taken.seat_token != joined.seat_token
    assert (await harness.view(room.room_id, taken.seat_token)).viewer == joined.seat


async def test_the_timeline_is_what_a_spectator_saw_before_and_after_the_end(start: Start) -> None:
    harness = await operated(start)
    stub = ops(harness)
    room_id, tokens = await two_seat_game(harness)

    async def timeline() -> list[move_pb2.RoomUpdate]:
        updates, after = [], 0
        while True:
            page = await stub.GetRoomTimeline(
                operator_pb2.GetRoomTimelineRequest(room_id=room_id, after_version=after, page_size=7), metadata=op()
            )
            updates += page.updates
            after = page.next_after_version
            if not after:
                return updates

    def check(updates: list[move_pb2.RoomUpdate]) -> None:
        faces, open_at = open_to_spectators(harness, room_id)
        for update in updates:
            shown = faces_in(str(update), faces)
            allowed = open_at[update.version] | open_at[update.version - 1]
            assert not {face for face, count in shown.items() if count > allowed[face]}, update.version
            assert not update.legal_moves and not update.HasField("viewer")

    await play_some(harness, room_id, tokens, 12)
    during = await timeline()
    assert during == await stream(harness, room_id), "before the end: exactly a spectator's stream"
    hands = {card for token in tokens for card in (await harness.view(room_id, token)).view.soker.hand}
    assert hands and not [card for card in hands if card in str(during)], "no card of a hand"
    check(during)
    await play_some(harness, room_id, tokens, 2_000)
    assert not (await harness.view(room_id)).to_act, "the game is over"
    after = await timeline()
    assert after == await stream(harness, room_id), "after the end too: a spectator's, the cards drawn unshown"
    assert not any(event.game.soker.drew.card for update in after for event in update.events)
    check(after)


async def test_every_action_is_traced_with_the_key_id_and_never_the_key(start: Start) -> None:
    harness = await operated(start)
    spans = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(spans))
    harness.directory.telemetry = Telemetry(tracer_provider=provider, tracing=True)
    room = await harness.create(seats=2)
    await harness.join(room.room_id)
    stub = ops(harness)
    await stub.RevokeSeatToken(operator_pb2.RevokeSeatTokenRequest(room_id=room.room_id, seat=0), metadata=op())
    await stub.CloseRoom(operator_pb2.CloseRoomRequest(room_id=room.room_id, reason="done"), metadata=op())
    await stub.ListLiveRooms(operator_pb2.ListLiveRoomsRequest(), metadata=op())
    finished = {span.name: span for span in spans.get_finished_spans()}
    assert {"operator.revoke_seat_token", "operator.close_room", "operator.list_live_rooms"} <= set(finished)
    revoke = finished["operator.revoke_seat_token"].attributes
    assert revoke["kickoff.operator.key_id"] == KEY_ID and revoke["kickoff.room_id"] == room.room_id
    assert revoke["kickoff.seat"] == 0
    for span in finished.values():
        assert all(KEY not in str(value) for value in span.attributes.values())


async def test_wrong_operator_keys_are_throttled_by_address_and_counted(start: Start) -> None:
    """An attacker's report: wrong operator keys were never throttled (about 1,000 tries a second). Now an address
    has KICKOFF_OPERATOR_KEY_FAILURES wrong keys (here 3 a minute); past them its operator calls are refused before
    any key is looked at, the right key's too, until the rate refills; each wrong key is counted
    (kickoff.operator.key_failures)."""
    harness = await operated(start, operator_key_failures=Rate(3, 60.0))
    counted: list[dict[str, object]] = []

    class Counter:  # (the metric, read as the test's own exporter would)
        def add(self, amount: int, attributes: dict[str, object]) -> None:
            counted.extend([attributes] * amount)

    harness.directory.telemetry.instruments.operator_key_failures = Counter()  # type: ignore[assignment]
    request = operator_pb2.ListNodesRequest()
    assert (await ops(harness).ListNodes(request, metadata=op())).nodes, "the right key works before"
    for _ in range(3):
        code, reason, _ = await refusal(ops(harness).ListNodes(request, metadata=op(OTHER_KEY)))
        assert (code, reason) == (grpc.StatusCode.UNAUTHENTICATED, "bad_operator_key")
    for key in (OTHER_KEY, KEY):
        code, reason, message = await refusal(ops(harness).ListNodes(request, metadata=op(key)))
        assert (code, reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "operator_key_throttled"), message
        assert key not in message
    assert counted == [{"kickoff.throttled": False}] * 3 + [{"kickoff.throttled": True}] * 2
