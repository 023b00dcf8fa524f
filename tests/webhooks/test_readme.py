"""The README's receiver example runs as written: started as a program, it gets a turn.began from a server and
prints the push it would send; a forged delivery gets 400."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

import httpx

from tests.processes import free_port
from tests.server.conftest import Harness
from tests.webhooks.test_service import TURN, against_a_system_player, drain, guest, register

README = Path(__file__).parents[2] / "docs" / "guides" / "webhooks.md"


def receiver_example() -> str:
    text = README.read_text()
    marker = text.index("<!-- receiver example: tests/webhooks/test_readme.py runs it -->")
    match = re.compile(r"```python\n(.*?)```", re.S).search(text, marker)
    assert match is not None
    return match.group(1)


async def test_the_readmes_receiver_runs_as_written(harness: Harness, tmp_path: Path) -> None:
    program = tmp_path / "receiver.py"
    program.write_text(receiver_example())
    port = free_port()
    _, secret = await register(harness, f"http://127.0.0.1:{port}/kickoff", [TURN])
    env = {**os.environ, "WEBHOOK_SECRET": secret, "PORT": str(port)}
    process = subprocess.Popen([sys.executable, str(program)], env=env, stdout=subprocess.PIPE, text=True)
    try:
        async with httpx.AsyncClient() as client:
            for _ in range(200):  # (until it listens)
                try:
                    forged = await client.post(
                        f"http://127.0.0.1:{port}/kickoff",
                        content=b'{"type":"turn.began"}',
                        headers={"webhook-id": "msg_x", "webhook-timestamp": "1", "webhook-signature": "v1,AAAA"},
                    )
                    break
                except httpx.ConnectError:
                    await asyncio.sleep(0.05)
        assert forged.status_code == 400
        ann = await guest(harness, "Ann")
        made = await against_a_system_player(harness, ann)
        await drain(harness)
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=10)
    assert f"push to {ann.player.player_id}: your turn in room {made.room.room_id}" in output
