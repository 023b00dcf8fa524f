"""The /ops page in headless Chromium: nothing without the key; with it typed in, the nodes, the live rooms and a
room's timeline (a spectator's), every screen judged by axe-core against WCAG 2.1 A and AA."""

from __future__ import annotations

import httpx

from tests.ops.conftest import KEY, OTHER_KEY, operator_keys
from tests.server.test_protocol import play_some, two_seat_game
from tests.servers import Start
from tests.web.browser import Pages, expect, require_browser, screenshot

require_browser()


async def test_the_ops_page_shows_the_service_once_the_key_is_typed_in(
    start: Start, gateway, pages: Pages, artifacts
) -> None:
    harness = await start(operator_keys=operator_keys())
    client: httpx.AsyncClient = await gateway(harness)
    room_id, tokens = await two_seat_game(harness)
    await play_some(harness, room_id, tokens, 4)
    version = (await harness.view(room_id)).version
    hands = {card for token in tokens for card in (await harness.view(room_id, token)).view.soker.hand}
    page = await pages.new()
    await page.goto(f"{client.base_url}/ops")
    await expect(page.locator("#status")).to_contain_text("Type the operator key")
    await expect(page.locator("#views")).to_be_hidden()
    await screenshot(page, artifacts, "ops-locked")

    await page.get_by_label("Operator key", exact=True).fill(OTHER_KEY)
    await page.get_by_role("button", name="Show the service").click()
    await expect(page.locator("#status")).to_contain_text("bad_operator_key")
    await expect(page.locator("#views")).to_be_hidden()

    await page.get_by_label("Operator key", exact=True).fill(KEY)
    await page.get_by_role("button", name="Show the service").click()
    await expect(page.locator("#views")).to_be_visible()
    await expect(page.locator("#nodes tbody")).to_contain_text("(this one)")
    await expect(page.locator("#rooms tbody")).to_contain_text(room_id)
    await expect(page.locator("#leases tbody")).to_contain_text("no lease")
    assert await page.evaluate("sessionStorage.getItem('kickoff.operatorKey')") == KEY
    await page.get_by_role("button", name=f"Timeline of room {room_id}").click()
    await expect(page.locator("#timeline li")).to_have_count(version)  # (one line per update)
    text = await page.locator("#timeline").inner_text()
    assert "seat 0 taken" in text and "the game started" in text
    assert not [card for card in hands if card in text], "the timeline shows no card of a hand"
    await screenshot(page, artifacts, "ops-timeline")

    await page.reload()  # the key stays in the tab
    await expect(page.locator("#rooms tbody")).to_contain_text(room_id)
    await page.get_by_role("button", name="Forget the key").click()
    await expect(page.locator("#views")).to_be_hidden()
    assert await page.evaluate("sessionStorage.getItem('kickoff.operatorKey')") is None
