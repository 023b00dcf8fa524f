"""The terminal client's one module of calls (terminal/client.py), against a real server (one with players for the
players' calls: sign-in, sessions and their refresh, seats, leaderboards)."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import grpc
import pytest

from kickoff.v1 import common_pb2, match_pb2, match_pb2_grpc, move_pb2, room_pb2_grpc
from terminal.client import CallFailed, KickoffClient, Refusal, SessionEnded
from tests.players.conftest import Served
from tests.server.conftest import soker_move
from tests.tui.conftest import target


@pytest.fixture
async def client(start):
    harness = await start()
    client = KickoffClient(f"127.0.0.1:{harness.server.port}")
    yield client
    await client.close()


async def test_a_refused_call_carries_its_status_message_and_reason(client: KickoffClient) -> None:
    kickoff = client
    with pytest.raises(CallFailed) as failed:
        await kickoff.join_room("no-such-room", name="Ana")
    refusal = failed.value.refusal
    assert (refusal.code, refusal.reason) == ("NOT_FOUND", "room_not_found")
    assert refusal.message == "no such room" and str(refusal).startswith("NOT_FOUND (room_not_found): ")


async def test_rooms_views_moves_and_streams_go_through_the_stubs(client: KickoffClient) -> None:
    kickoff = client
    assert {"soker", "age-of-soccer", "carta-futbol-club"} <= {game.name for game in await kickoff.list_games()}
    playing = (await kickoff.create_room("soker", seats=2, solo=True, system_players=1, options={"hand_size": 5})).room
    waiting = (await kickoff.create_room("soker", seats=2, solo=False, system_players=0)).room
    ticket = await kickoff.join_room(playing.room_id, name="Ana")
    assert ticket.seat == 0 and ticket.room.status == common_pb2.ROOM_STATUS_PLAYING
    rooms = await kickoff.list_rooms()
    assert [room.room_id for room in rooms] == [waiting.room_id, playing.room_id], "waiting rooms first"
    assert (await kickoff.get_room(playing.room_id)).options["hand_size"] == 5

    snapshot = await kickoff.get_view(playing.room_id, ticket.token)
    assert snapshot.viewer == 0 and len(snapshot.view.soker.hand) == 5 and snapshot.to_act == (0,)
    spectator = await kickoff.get_view(playing.room_id)
    assert spectator.viewer is None and not spectator.view.soker.hand
    version, moves = await kickoff.legal_moves(playing.room_id, ticket.token)
    assert version == snapshot.version and soker_move("draw") in moves

    update = await kickoff.submit_move(playing.room_id, ticket.token, soker_move("draw"), "r1", version)
    assert update.version == version + 1 and update.viewer == 0
    with pytest.raises(CallFailed) as stale:
        await kickoff.submit_move(playing.room_id, ticket.token, soker_move("draw"), "r2", version)
    assert (stale.value.refusal.code, stale.value.refusal.reason) == ("ABORTED", "stale_version")
    assert stale.value.refusal.request_id == "r2"

    stream = await kickoff.play(playing.room_id, ticket.token, after_version=update.version)
    watcher = await kickoff.watch(playing.room_id, after_version=update.version - 1)
    await stream.send(soker_move("play", "NOPE-GKP"), "bad", update.version)
    items = aiter(stream)
    item = await anext(items)
    assert item.update is None and item.refusal is not None
    assert (item.refusal.code, item.refusal.reason, item.refusal.request_id) == (
        "INVALID_ARGUMENT",
        "malformed_move",
        "bad",
    )
    await stream.send(move_pb2.Move(soker={"end_turn": {}}), "end", update.version)
    item = await anext(items)
    assert item.accepted == "end" and item.update is not None and item.update.version == update.version + 1
    watched = [item async for item in _take(watcher, 2)]
    assert [item.update.version for item in watched] == [update.version, update.version + 1]
    assert not watched[0].update.HasField("viewer"), "a spectator's updates are redacted for nobody"
    await stream.close()
    await watcher.close()


async def _take(stream, count: int):
    taken = 0
    async for item in stream:
        yield item
        taken += 1
        if taken == count:
            return


def test_the_client_imports_nothing_from_the_engine_or_the_server() -> None:
    check = (
        "import sys, terminal.app, terminal.client, terminal.tables\n"
        "server = ('engine', 'service.grpc', 'service.rooms', 'service.store', 'service.gateway',"
        " 'service.tournaments', 'service.settings', 'service.telemetry', 'tests')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'engine' or m.startswith(server)))\n"
    )
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


class LoseFirstAnswers(grpc.aio.UnaryUnaryClientInterceptor):
    """The first call of each of ``methods`` (default: CreateRoom and JoinRoom) is made, but its answer never reaches
    the client (UNAVAILABLE instead)."""

    def __init__(self, methods: tuple[str, ...] = ("/CreateRoom", "/JoinRoom")) -> None:
        self.lost: set[str] = set()
        self.methods = methods

    async def intercept_unary_unary(self, continuation, details, request):
        call = await continuation(details, request)
        method = details.method.decode() if isinstance(details.method, bytes) else details.method
        if method in self.lost or not method.endswith(self.methods):
            return call
        await call  # (the server made it)
        self.lost.add(method)
        raise grpc.aio.AioRpcError(
            grpc.StatusCode.UNAVAILABLE, grpc.aio.Metadata(), grpc.aio.Metadata(), details="the answer was lost"
        )


async def test_a_create_or_a_join_whose_answer_was_lost_is_sent_again_and_made_once(start) -> None:
    harness = await start()
    client = KickoffClient(f"127.0.0.1:{harness.server.port}")
    lossy = grpc.aio.insecure_channel(f"127.0.0.1:{harness.server.port}", interceptors=[LoseFirstAnswers()])
    client._rooms = room_pb2_grpc.RoomServiceStub(lossy)  # (its rooms' calls lose their first answers)
    try:
        created = await client.create_room("soker", seats=2, solo=False, system_players=0)
        ticket = await client.join_room(created.room.room_id, name="Ana")
        assert (await client.get_view(created.room.room_id, ticket.token)).viewer == ticket.seat, "the token works"
        rooms = await client.list_rooms()
        assert [room.room_id for room in rooms] == [created.room.room_id], "one room made"
        assert [seat.name for seat in rooms[0].seats if seat.taken] == ["Ana"], "one seat taken"
    finally:
        await lossy.close()
        await client.close()


async def test_an_enqueue_whose_answer_was_lost_is_sent_again_and_answers_the_one_ticket_made(
    served: Served, clients
) -> None:
    client = clients()
    await client.sign_in_as_guest("Ana")
    lossy = grpc.aio.insecure_channel(target(served.harness), interceptors=[LoseFirstAnswers(("/Enqueue",))])
    client._matches = match_pb2_grpc.MatchServiceStub(lossy)  # (its first Enqueue's answer is lost)
    try:
        ticket = await client.enqueue("soker", seat_counts=[2])  # (not already_queued: the retry answers the ticket)
        assert ticket.status == match_pb2.TICKET_STATUS_SEARCHING
        assert [t.ticket_id for t in await client.my_tickets()] == [ticket.ticket_id], "one ticket made"
    finally:
        await lossy.close()


# -- players ----------------------------------------------------------------------------------------------------------


@pytest.fixture
async def clients(served: Served):
    """Clients of a server with players; ``clients(clock=...)`` makes one more."""
    made: list[KickoffClient] = []

    def make(**options) -> KickoffClient:
        made.append(KickoffClient(target(served.harness), **options))
        return made[-1]

    yield make
    for client in made:
        await client.close()


async def test_a_guest_creates_joins_takes_up_its_seat_and_signs_out(served: Served, clients) -> None:
    ana, anyone = clients(), clients()
    session = await ana.sign_in_as_guest("Ana")
    assert ana.signed_in and session.name == "Ana" and session.player_id
    created = await ana.create_room("soker", seats=2, solo=False, system_players=0)
    assert created.ticket is not None and created.ticket.seat == 0, "the creator is seated at once"
    assert created.ticket.player_id == session.player_id and created.room.seats[0].name == "Ana"
    room_id = created.room.room_id
    other = await anyone.join_room(room_id, name="Bea")  # anonymous, as ever
    assert other.seat == 1 and other.player_id == ""

    page = await ana.list_my_rooms()
    assert [(mine.room.room_id, mine.seat, mine.my_turn) for mine in page.rooms] == [(room_id, 0, True)]
    assert page.next_page_token == ""
    first_page = await ana.list_my_rooms(page_size=1)
    assert [mine.room.room_id for mine in first_page.rooms] == [room_id]
    assert first_page.next_page_token == "", "(no finished rooms follow: no empty page)"
    taken = await ana.take_seat(room_id)
    assert taken.seat == 0 and taken.player_id == session.player_id
    assert (await ana.get_view(room_id, taken.token)).viewer == 0, "the seat's token works"
    with pytest.raises(CallFailed) as full:
        await ana.join_room(room_id)  # (the game has started: her seat is still hers)
    assert (full.value.refusal.code, full.value.refusal.reason) == ("ALREADY_EXISTS", "already_seated")
    waiting = await ana.create_room("soker", seats=3, solo=False, system_players=0)
    with pytest.raises(CallFailed) as seated:
        await ana.join_room(waiting.room.room_id)
    assert (seated.value.refusal.code, seated.value.refusal.reason) == ("ALREADY_EXISTS", "already_seated")
    chosen = await ana.create_room("age-of-soccer", seats=2, solo=False, system_players=0, choice="VIK")
    assert chosen.ticket is not None and chosen.room.seats[chosen.ticket.seat].choice == "VIK"
    assert (await ana.me()).player_id == session.player_id

    await ana.sign_out()
    assert not ana.signed_in and ana.session_ended is None
    stale = clients()
    stale.session = session  # the tokens signed out: refused by the server, and forgotten
    with pytest.raises(SessionEnded) as ended:
        await stale.me()
    assert ended.value.refusal.reason == "session_revoked" and stale.session is None
    anonymous = await ana.create_room("soker", seats=2, solo=False, system_players=0)
    assert anonymous.ticket is None and not anonymous.room.seats[0].taken, "signed out: anonymous again"
    with pytest.raises(CallFailed) as needs:
        await ana.list_my_rooms()
    assert needs.value.refusal.reason == "no_session"


async def test_an_access_token_is_refreshed_before_it_expires_and_once_on_token_expired(
    served: Served, clients
) -> None:
    clock = served.harness.clock
    on_time = clients(clock=clock.now)  # reads the server's clock
    first = await on_time.sign_in_as_guest("Ana")
    lagging = clients(clock=lambda: 0.0)  # a clock far behind: only the server says the token expired
    second = await lagging.sign_in_as_guest("Bo")
    clock.advance(15 * 60 - 30)  # within a minute of the expiry: refreshed before the call
    await on_time.list_my_rooms()
    assert on_time.refreshes == 1 and on_time.session is not None
    assert on_time.session.refresh_token != first.refresh_token and on_time.session.access_expires > clock.now()
    clock.advance(60)  # past the expiry: the lagging client is told token_expired, refreshes once and goes on
    await lagging.list_my_rooms()
    assert lagging.refreshes == 1 and lagging.session is not None
    assert lagging.session.access_token != second.access_token

    clock.advance(15 * 60 + 1)  # two calls at once on an expired token: one refresh (a refresh token is good once)
    await asyncio.gather(lagging.list_my_rooms(), lagging.rank("soker"), lagging.me())
    assert lagging.refreshes == 2 and lagging.signed_in
    assert (await lagging.me()).player_id == second.player_id


async def test_a_session_the_server_ended_is_forgotten_and_said_so(served: Served, clients) -> None:
    told: list[Refusal] = []
    ana = clients(clock=served.harness.clock.now, on_session_ended=told.append)
    session = await ana.sign_in_as_guest("Ana")
    thief = clients()
    thief.session = session
    await thief.refresh_session()  # the refresh token is used up by someone else
    served.harness.clock.advance(15 * 60 + 1)
    with pytest.raises(SessionEnded) as ended:
        await ana.list_my_rooms()
    assert (ended.value.refusal.code, ended.value.refusal.reason) == ("UNAUTHENTICATED", "refresh_reused")
    assert ana.session is None and ana.session_ended == ended.value.refusal and told == [ended.value.refusal]

    again = await ana.sign_in_as_guest("Ana")  # a new player (no device id), a new session
    assert again.player_id != session.player_id and ana.session_ended is None
    thief.session = again
    await thief.sign_out()  # ended elsewhere: the next call says session_revoked
    with pytest.raises(SessionEnded) as revoked:
        await ana.join_room((await ana.create_room("soker", seats=2, solo=False, system_players=0)).room.room_id)
    assert revoked.value.refusal.reason == "session_revoked" and not ana.signed_in
    assert [refusal.reason for refusal in told] == ["refresh_reused", "session_revoked"]


async def test_leaderboard_pages_a_players_rank_and_players_looked_up_once(served: Served, clients) -> None:
    ana, bo = clients(), clients()
    first, second = await ana.sign_in_as_guest("Ana"), await bo.sign_in_as_guest("Bo")
    created = await ana.create_room("soker", seats=2, solo=False, system_players=0)
    assert created.ticket is not None
    joined = await bo.join_room(created.room.room_id)
    ended = await served.play_out(created.room.room_id, {0: created.ticket.token, 1: joined.token})
    assert ended.rated and ended.status == common_pb2.ROOM_STATUS_FINISHED

    anyone = clients()
    page = await anyone.leaderboard("soker", page_size=1)
    assert len(page.lines) == 1 and page.next_page_token and page.min_games == 1
    rest = await anyone.leaderboard("soker", page_size=1, page_token=page.next_page_token)
    lines = page.lines + rest.lines
    assert {line.player_id for line in lines} == {first.player_id, second.player_id} and not rest.next_page_token
    assert [line.rating.games for line in lines] == [1, 1]
    mine = await ana.rank("soker")
    assert mine.line is not None and mine.line.player_id == first.player_id and mine.ranked == 2
    assert (await anyone.rank("soker", second.player_id)).line.player_id == second.player_id

    bo_seen = await anyone.get_player(second.player_id)
    assert [(rating.game, rating.games) for rating in bo_seen.ratings] == [("soker", 1)]
    assert await anyone.get_player(second.player_id) is bo_seen, "kept for the run"
    assert await anyone.get_player(second.player_id, fresh=True) is not bo_seen
