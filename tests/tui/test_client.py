"""The terminal client's one module of calls (terminal/client.py), against a real server."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kickoff.v1 import common_pb2, move_pb2
from terminal.client import CallFailed, KickoffClient
from tests.server.conftest import soker_move


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
    playing = await kickoff.create_room("soker", seats=2, solo=True, system_players=1, options={"hand_size": 5})
    waiting = await kickoff.create_room("soker", seats=2, solo=False, system_players=0)
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
