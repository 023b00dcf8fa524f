"""What a TypeScript front end's generated client sees of an event stream: @hey-api/openapi-ts (pinned in
package.json) makes a client from the gateway's own OpenAPI document, and a small program against it
(typescript/read-stream.ts) reads a whole game's event stream with the generated SSE client.

The generated SSE client yields each event's data, parsed, typed by the stream's schema: the document must describe
the stream as that data (a RoomUpdate per `update` event, then the StreamEnd, or ProblemDetails in a `problem` event),
or code that narrows on the types never sees an update. tsc type-checks the program against the generated types (with
the old `{event, id, data}` schema it fails), then node runs it against the real gateway. A few seconds in all.

It needs node and the npm tools (`make test` installs them with `npm ci`); it skips without them, never under
CI=true.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.server.conftest import Harness
from tests.servers import Start

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "node_modules" / ".bin"
PROGRAM = Path(__file__).with_name("typescript") / "read-stream.ts"
TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "target": "es2022",
        "module": "commonjs",
        "lib": ["es2022", "dom", "dom.iterable", "dom.asynciterable"],
        "types": [],
        "skipLibCheck": True,
        "outDir": "out",
    },
    "files": ["read-stream.ts"],
}


def require_tools() -> str:
    """node's path, with the npm tools installed; skips (fails under CI=true) where they are not."""
    node = shutil.which("node")
    missing = [str(p) for p in (TOOLS / "openapi-ts", TOOLS / "tsc") if not p.exists()]
    if node is None or missing:
        why = "node is not installed" if node is None else f"run `npm ci` (missing: {', '.join(missing)})"
        if os.environ.get("CI") == "true":
            pytest.fail(f"the TypeScript client test needs node and the npm tools: {why}")
        pytest.skip(why)
    return node


def run(command: list[str], cwd: Path) -> str:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=60)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{' '.join(command[:2])} failed:\n{output}"
    return done.stdout


async def play_to_the_end(harness: Harness) -> tuple[str, str, int]:
    """A solo room played to its end by the person's seat: (room id, seat token, last version)."""
    room_id = (await harness.create(seats=2, system_players=1, solo=True)).room_id
    _, token = await harness.join(room_id, name="ann")
    chooser = random.Random(3)
    while (view := await harness.view(room_id, token)).to_act:
        if 0 in view.to_act:
            await harness.submit(room_id, token, chooser.choice(await harness.legal(room_id, token)))
        await harness.settle(room_id)
    return room_id, token, (await harness.view(room_id, token)).version


async def test_the_generated_typescript_sse_client_yields_room_updates(start: Start, gateway, tmp_path: Path) -> None:
    node = require_tools()
    harness = await start()
    http = await gateway(harness)
    document = await http.get("/schema/openapi.json")
    assert document.status_code == 200
    (tmp_path / "openapi.json").write_bytes(document.content)
    (tmp_path / "tsconfig.json").write_text(json.dumps(TSCONFIG))
    shutil.copy(PROGRAM, tmp_path / "read-stream.ts")
    generate = [str(TOOLS / "openapi-ts"), "--input", "openapi.json", "--output", "client"]
    await asyncio.to_thread(run, generate, tmp_path)
    await asyncio.to_thread(run, [str(TOOLS / "tsc"), "-p", "tsconfig.json"], tmp_path)  # the types, checked

    room_id, token, last = await play_to_the_end(harness)
    base_url = str(http.base_url).rstrip("/")
    out = await asyncio.to_thread(run, [node, "out/read-stream.js", base_url, room_id, token], tmp_path)
    read = json.loads(out)
    versions = [str(v) for v in range(1, last + 1)]
    assert [u["version"] for u in read["updates"]] == versions, "every update, as a RoomUpdate"
    assert all(u["roomId"] == room_id and u["viewer"] == 0 and "toAct" in u for u in read["updates"])
    assert read["updates"][-1]["events"][-1]["gameEnded"]["outcome"]["reason"]
    assert read["end"] == {"version": str(last)} and "problem" not in read, "then the StreamEnd"
    assert read["events"] == [*({"event": "update", "id": v} for v in versions), {"event": "end", "id": str(last)}]
