"""A seat's page whose event stream broke after its stream ticket expired: the browser's own retry is refused, so the
page mints a new ticket and resumes from the last version it saw, missing nothing and showing nothing twice."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
import uvicorn

from service.gateway import http
from service.gateway.app import create_app
from service.settings import HttpLimits
from tests.servers import Start
from tests.web.browser import Pages, expect, require_browser

require_browser()


@pytest.fixture
async def own_gateway(start: Start) -> AsyncIterator[tuple]:
    """A harness and the gateway in front of it, served here so that the test can cut its connections."""
    harness = await start()
    app = create_app(f"127.0.0.1:{harness.server.port}", timeout=5.0)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.bind(("127.0.0.1", 0))
    server = uvicorn.Server(http.config(app, "127.0.0.1", 0, HttpLimits(), loop="none", lifespan="on"))
    serving = asyncio.create_task(server.serve(sockets=[listener]))
    while not server.started:
        await asyncio.sleep(0.01)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{listener.getsockname()[1]}", timeout=10) as client:
        yield harness, server, client
    server.should_exit = True
    server.force_exit = True
    await serving


async def test_a_broken_stream_resumes_with_a_new_ticket_from_the_last_version(own_gateway, pages: Pages) -> None:
    harness, server, client = own_gateway
    page = await pages.new()
    streams: list[str] = []
    page.on("request", lambda request: streams.append(request.url) if "/events?" in request.url else None)
    await page.goto(f"{client.base_url}/play")
    await page.get_by_test_id("name").fill("Ana")
    await page.get_by_test_id("create-game").select_option("soker")
    await page.get_by_test_id("create-seats").select_option("2")
    await page.get_by_test_id("create-think").fill("0")
    await page.get_by_test_id("create-submit").click()
    await expect(page.get_by_test_id("turn")).to_have_text("Your turn.")
    room = page.get_by_test_id("room")
    room_id = await room.get_attribute("data-room")
    seen = await room.get_attribute("data-version")
    token = json.loads(await page.evaluate(f"sessionStorage.getItem('kickoff:seat:{room_id}')"))["token"]

    harness.clock.advance(61)  # the page's stream ticket has expired
    for connection in list(server.server_state.connections):
        connection.transport.close()  # the stream breaks; the browser tries again with the old ticket, refused
    auth = {"Authorization": f"Bearer {token}"}
    legal = (await client.get(f"/v1/rooms/{room_id}/legal-moves", headers=auth)).json()["moves"]
    draw = next(move for move in legal if "draw" in move["soker"])
    moved = await client.post(f"/v1/rooms/{room_id}/moves", json={"move": draw, "requestId": "elsewhere"}, headers=auth)
    assert moved.status_code == 201, moved.text

    version = moved.json()["version"]
    await expect(room).to_have_attribute("data-version", version, timeout=20_000)
    await expect(page.get_by_test_id("connection")).to_have_text("")
    await expect(page.get_by_test_id("feed")).to_contain_text("you drew")
    queries = [parse_qs(urlsplit(url).query) for url in streams]
    tickets = {query["ticket"][0] for query in queries}
    assert len(tickets) == 2, "a new ticket after the old one was refused"
    assert queries[-1]["after_version"] == [seen], "resumed from the last version seen"
    feed = await page.eval_on_selector_all('[data-testid="feed"] li', "items => items.map(i => i.dataset.version)")
    assert [int(v) for v in feed] == sorted(int(v) for v in feed) and int(feed[-1]) == int(version)
    drew = await page.get_by_test_id("feed").locator("li").filter(has_text="you drew").count()
    assert drew == 1, "nothing shown twice"
