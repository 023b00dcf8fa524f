"""A page on another origin plays with the seat token it was given, once the gateway lists its origin: it reads the
seat's legal moves with Authorization, submits one, and follows its own seat's events with a stream ticket. Without
its origin in the gateway's CORS policy, the browser refuses the page the same calls."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from urllib.parse import urlencode

import httpx
import pytest

from service.gateway.cors import CorsPolicy
from tests.servers import Start
from tests.web.browser import Pages, expect, require_browser

require_browser()

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>elsewhere</title></head>
<body>
<pre data-testid="result">running</pre>
<script type="module">
const given = new URLSearchParams(location.hash.slice(1));
const [api, room, token] = ["api", "room", "token"].map((name) => given.get(name));
const out = { updates: [] };
const show = () => (document.querySelector("pre").textContent = JSON.stringify(out));
try {
  const auth = { Authorization: `Bearer ${token}` };
  const legal = await (await fetch(`${api}/v1/rooms/${room}/legal-moves`, { headers: auth })).json();
  out.legal = legal.moves.length;
  const moved = await fetch(`${api}/v1/rooms/${room}/moves`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({ move: legal.moves[0], requestId: "elsewhere-1", expectedVersion: legal.version }),
  });
  out.moveStatus = moved.status;
  out.moveVersion = Number((await moved.json()).version);
  const minted = await fetch(`${api}/v1/rooms/${room}/stream-tickets`, { method: "POST", headers: auth });
  const { ticket } = await minted.json();
  const source = new EventSource(`${api}/v1/rooms/${room}/events?ticket=${encodeURIComponent(ticket)}`);
  source.addEventListener("update", (event) => {
    const update = JSON.parse(event.data);
    out.updates.push({ version: Number(update.version), viewer: update.viewer ?? null });
    if (Number(update.version) >= out.moveVersion) {
      source.close();
      out.done = true;
      show();
    }
  });
  source.addEventListener("error", () => {
    out.streamError = true;
    show();
  });
} catch (error) {
  out.error = String(error);
  out.done = true;
  show();
}
</script>
</body></html>
"""


@pytest.fixture
async def elsewhere() -> AsyncIterator[str]:
    """A second HTTP server on another port - another origin - that serves PAGE for any path; yields its origin."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await reader.readuntil(b"\r\n\r\n")
            body = PAGE.encode()
            head = f"HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {len(body)}\r\n"
            writer.write(head.encode() + b"connection: close\r\n\r\n" + body)
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
    server.close()
    await server.wait_closed()


async def result(page) -> dict:
    pre = page.get_by_test_id("result")
    await expect(pre).not_to_have_text("running")
    await page.wait_for_function("() => JSON.parse(document.querySelector('pre').textContent).done === true")
    return json.loads(await pre.inner_text())


async def test_a_page_on_another_origin_plays_with_its_token_only_where_the_gateway_lists_it(
    start: Start, gateway, pages: Pages, elsewhere: str
) -> None:
    harness = await start()
    listed: httpx.AsyncClient = await gateway(harness, cors=CorsPolicy.parse([elsewhere]))
    unlisted: httpx.AsyncClient = await gateway(harness)
    room_id = (await harness.create(seats=2, system_players=1, solo=True)).room_id
    seat, token = await harness.join(room_id, name="ann")
    version = int((await listed.get(f"/v1/rooms/{room_id}")).json()["version"])
    page = await pages.new()

    await page.goto(f"{elsewhere}/#" + urlencode({"api": str(unlisted.base_url), "room": room_id, "token": token}))
    refused = await result(page)
    assert refused.get("error", "").startswith("TypeError") and "legal" not in refused, refused
    assert int((await listed.get(f"/v1/rooms/{room_id}")).json()["version"]) == version, "nothing was played"

    await page.goto(f"{elsewhere}/other#" + urlencode({"api": str(listed.base_url), "room": room_id, "token": token}))
    played = await result(page)
    assert "error" not in played and not played.get("streamError"), played
    assert played["legal"] > 0 and played["moveStatus"] == 201, played
    assert played["moveVersion"] > version
    assert int((await listed.get(f"/v1/rooms/{room_id}")).json()["version"]) >= played["moveVersion"], "it moved"
    mine = [update for update in played["updates"] if update["version"] == played["moveVersion"]]
    assert mine and all(update["viewer"] == seat for update in played["updates"]), played["updates"]
