"""Worked example 3, examples/web/: a web page in TypeScript that plays one game of Soker through the client generated
into clients/typescript. The test compiles it with tsc (strict), serves the page from an origin of its own, and
plays it in Chromium against a real gateway and server that list that origin (CORS): a person types the gateway's
address, clicks Play, then the first legal move the page offers each time, until the page shows the end. What it
buys: the example as the docs quote it builds, runs in a browser, reaches the end of a game, and says each seat's
result as the server recorded it. A few seconds (tsc takes most of them); the system player thinks for no time, so
no clock is moved.

It needs node and the npm tools (`make test` installs them with `npm ci`) and Chromium (`make browser`); it skips
without them, never under CI=true.
"""

from __future__ import annotations

import asyncio
import mimetypes
import os
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from service.gateway.cors import CorsPolicy
from tests.servers import Start
from tests.web import conftest as web
from tests.web.browser import Page, Pages, expect, require_browser

require_browser()
pages = web.pages  # the browser tests' fixture: a headless Chromium, failing the test on any uncaught page error

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "web"
TSC = ROOT / "node_modules" / ".bin" / "tsc"
MAX_CLICKS = 200
RESULTS = {"SEAT_RESULT_WON": "won", "SEAT_RESULT_LOST": "lost", "SEAT_RESULT_DRAWN": "drew"}
HEADLINES = {"SEAT_RESULT_WON": "You won!", "SEAT_RESULT_LOST": "You lost.", "SEAT_RESULT_DRAWN": "A draw."}

# What the page shows next: "end" once the results are listed, "move" while a legal move can be clicked.
NEXT = """
() => {
  if (document.querySelectorAll('#results li').length) return "end";
  if (document.querySelector('#moves button:not([disabled])')) return "move";
  if (document.getElementById('status').textContent.startsWith('Refused')) return "refused";
  return false;
}
"""


def compile_example(out: Path) -> None:
    """tsc over examples/web/tsconfig.json (strict), into `out`; skips (fails under CI=true) without the tools."""
    if shutil.which("node") is None or not TSC.exists():
        why = "node is not installed" if shutil.which("node") is None else "run `npm ci` (no node_modules/.bin/tsc)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"the web example's test needs node and the npm tools: {why}")
        pytest.skip(why)
    command = [str(TSC), "-p", str(EXAMPLE / "tsconfig.json"), "--outDir", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"tsc failed:\n{done.stdout}{done.stderr}"


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[str]:
    """The example compiled and served as a reader would serve it: examples/web/index.html at /, the compiled modules
    under /build/ (from the test's folder), on an origin of its own. Yields the origin."""
    build = tmp_path / "build"
    await asyncio.to_thread(compile_example, build)

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            path = (await reader.readuntil(b"\r\n\r\n")).split(b" ")[1].decode().split("?")[0]
            file = EXAMPLE / "index.html" if path == "/" else build / path.removeprefix("/build/")
            found = path in ("/", "/index.html") or (path.startswith("/build/") and ".." not in path)
            if found and file.is_file():
                body, kind = file.read_bytes(), mimetypes.guess_type(file.name)[0] or "text/plain"
                head = f"HTTP/1.1 200 OK\r\ncontent-type: {kind}\r\ncontent-length: {len(body)}\r\n"
            else:
                body, head = b"not found", "HTTP/1.1 404 Not Found\r\ncontent-length: 9\r\n"
            writer.write(head.encode() + b"connection: close\r\n\r\n" + body)
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, IndexError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
    server.close()
    await server.wait_closed()


async def click_to_the_end(page: Page) -> int:
    """Clicks the first legal move the page offers, each time it offers moves, until it lists the results."""
    clicks = 0
    while (state := await (await page.wait_for_function(NEXT)).json_value()) == "move":
        await page.locator("#moves button:not([disabled])").first.click()
        clicks += 1
        assert clicks < MAX_CLICKS, "the game should have ended"
    assert state == "end", await page.locator("#status").inner_text()
    return clicks


async def test_the_typescript_web_example_plays_a_game_to_its_end(
    start: Start, gateway, pages: Pages, site: str
) -> None:
    harness = await start()
    http = await gateway(harness, cors=CorsPolicy.parse([site]))
    page = await pages.new()
    await page.goto(f"{site}/")
    await page.get_by_label("Gateway").fill(str(http.base_url).rstrip("/"))
    await page.get_by_label("Your name").fill("Ana")
    await page.get_by_role("button", name="Play").click()

    clicks = await click_to_the_end(page)

    rooms = (await http.get("/v1/rooms", params={"status": "finished"})).json()["rooms"]
    assert len(rooms) == 1 and clicks > 0
    room = rooms[0]
    outcome = room["outcome"]
    assert room["seats"][0]["name"] == "Ana" and outcome["results"][0] in HEADLINES, room
    await expect(page.locator("#status")).to_have_text(f"{HEADLINES[outcome['results'][0]]} ({outcome['reason']})")
    other = room["seats"][1]["name"]
    await expect(page.locator("#results li")).to_have_text(
        [
            f"You: {RESULTS[outcome['results'][0]]}, {outcome['points'][0]} points",
            f"{other}: {RESULTS[outcome['results'][1]]}, {outcome['points'][1]} points",
        ]
    )
    await expect(page.locator("#moves button")).to_have_count(0)
