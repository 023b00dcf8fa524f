"""Worked example 4, examples/webhooks/receiver.py, run as written: a program that verifies each webhook, ignores a
delivery it has seen, and answers each turn.began of its player by taking the turn over REST, so a correspondence game
against a system player is played to its end by webhooks alone. The test steps the server's webhook dispatcher; the
room's clock never moves, so no clock plays a turn for the player: every move of the player's is the receiver's."""

from __future__ import annotations

import asyncio
import datetime
import json
import os
import sys
from pathlib import Path
from typing import Any

import httpx
from standardwebhooks import Webhook

from kickoff.v1 import common_pb2, room_pb2
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from tests.conftest import empty_database
from tests.processes import free_port
from tests.servers import Start
from tests.webhooks.conftest import SERVER_SETTINGS, new_secret
from tests.webhooks.test_service import ENDED, TURN, against_a_system_player, drain, guest, register, result_name

RECEIVER = Path(__file__).parents[2] / "examples" / "webhooks" / "receiver.py"


def signed(secret: str, webhook_id: str, event: dict) -> tuple[bytes, dict[str, str]]:
    """A delivery as the server sends it: the body and its Standard Webhooks headers, signed with ``secret``."""
    body = json.dumps(event).encode()
    now = datetime.datetime.now(datetime.UTC)
    signature = Webhook(secret).sign(webhook_id, now, body)
    return body, {
        "webhook-id": webhook_id,
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": signature,
    }


async def test_the_receiver_plays_a_correspondence_game_to_its_end_by_webhooks(
    start: Start, gateway: Any, tmp_path: Path
) -> None:
    """What the example promises: a forged delivery gets 400, a delivery sent twice is handled once, and the player's
    game is played to its end through the receiver, which prints the player's result. About 1 s (SQLite only: the
    example is about the receiver; tests/webhooks tests both stores)."""
    url = await empty_database("sqlite", tmp_path)
    await upgrade_in_thread(url)
    harness = await start(journal=SqlJournal(create_engine(url)), webhooks=SERVER_SETTINGS)
    rest = await gateway(harness)
    ann = await guest(harness, "Ann")
    port = free_port()
    _, secret = await register(harness, f"http://127.0.0.1:{port}/kickoff", [TURN, ENDED])
    made = await against_a_system_player(harness, ann, correspondence_hours=24)
    room_id = made.room.room_id
    env = {
        **os.environ,
        "WEBHOOK_SECRET": secret,
        "ACCESS_TOKEN": ann.access_token,
        "KICKOFF_URL": str(rest.base_url).rstrip("/"),
        "PORT": str(port),
        "EXIT_AFTER_ROOM": room_id,
    }
    receiver = await asyncio.create_subprocess_exec(
        sys.executable, str(RECEIVER), env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    try:
        assert receiver.stdout is not None
        listening = await asyncio.wait_for(receiver.stdout.readline(), 30)
        if listening.decode().strip() != f"listening on port {port}":  # (it failed: say how)
            raise AssertionError((listening + await asyncio.wait_for(receiver.stdout.read(), 30)).decode())
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
            # Signed with another secret: refused. Sent twice with one webhook-id: handled once.
            seats = [{"seat": 0, "player_id": ann.player.player_id, "result": "drawn"}]
            ended = {"type": "game.ended", "data": {"room_id": "other", "reason": "stalemate", "seats": seats}}
            body, headers = signed(new_secret(), "msg_forged", ended)
            forged = await client.post("/kickoff", content=body, headers=headers)
            assert forged.status_code == 400
            body, headers = signed(secret, "msg_twice", ended)
            for _ in range(2):
                assert (await client.post("/kickoff", content=body, headers=headers)).status_code == 204
        for _ in range(100):  # (each pass delivers what is due: the receiver's turns, the system player's answers)
            await drain(harness)
            room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
            if room.status == common_pb2.ROOM_STATUS_FINISHED:
                break
        await drain(harness)  # (game.ended: the receiver exits once it has answered it)
        if room.status == common_pb2.ROOM_STATUS_FINISHED:
            await asyncio.wait_for(receiver.wait(), 30)
    finally:
        if receiver.returncode is None:
            receiver.kill()
            await receiver.wait()
        output = (await receiver.stdout.read()).decode()  # (its own lines, and its log of each request)
    assert room.status == common_pb2.ROOM_STATUS_FINISHED, output
    assert receiver.returncode == 0, output
    lines = output.splitlines()
    assert lines.count("room other is over (stalemate): drawn") == 1, output
    played = [n for n, line in enumerate(lines) if line.startswith(f"room {room_id}: played ")]
    result = result_name(room.outcome.results[made.seat])
    over = lines.index(f"room {room_id} is over ({room.outcome.reason}): {result}")
    assert played and max(played) < over, output
