"""The lobby and a table between two people: an online room made with the form, joined from the list by a second
page, the turn clock counting down from the update's deadline, a refusal shown while the table goes on, and the table
playing for a seat whose clock ran out."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from tests.servers import Start
from tests.web.browser import Pages, expect, require_browser, screenshot, stand_still

require_browser()


async def test_two_people_play_an_online_room_made_and_joined_in_the_lobby(
    start: Start, gateway, pages: Pages, artifacts: Path
) -> None:
    harness = await start()
    client: httpx.AsyncClient = await gateway(harness)
    base = str(client.base_url)
    hosted = [info["title"] for info in (await client.get("/v1/games")).json()["games"]]

    ana = await stand_still(await pages.new())  # (the pages' clocks stand still: the test moves them)
    await ana.goto(f"{base}/play")
    await expect(ana.get_by_test_id("game").locator("strong")).to_have_text(hosted)
    await ana.get_by_test_id("name").fill("Ana")
    await ana.get_by_test_id("create-game").select_option("soker")
    await ana.get_by_test_id("create-seats").select_option("2")
    await ana.get_by_test_id("create-mode").select_option("online")
    await ana.get_by_test_id("create-system").fill("0")
    await ana.get_by_test_id("create-think").fill("0")
    await ana.get_by_test_id("create-submit").click()
    await expect(ana.get_by_test_id("turn")).to_have_text("Waiting for players: 1 free seat.")
    room_id = await ana.get_by_test_id("room").get_attribute("data-room")
    held = json.loads(await ana.evaluate(f"sessionStorage.getItem('kickoff:seat:{room_id}')"))
    assert held["seat"] == 0 and held["token"], "the seat token is kept for this room"

    bo = await pages.new()
    await bo.goto(f"{base}/play")
    await bo.get_by_test_id("name").fill("Bo")
    row = bo.get_by_test_id("room-row").filter(has_text=room_id)
    await expect(row).to_contain_text("1 free seat")
    await screenshot(bo, artifacts, "lobby")  # (axe-core's checks run on the page's timers: before they stand still)
    await stand_still(bo)
    await row.get_by_test_id("join").click()
    await expect(bo.get_by_test_id("room")).to_have_attribute("data-viewer", "1")
    await expect(bo.get_by_test_id("turn")).to_have_text("Waiting for Ana.")
    await expect(ana.get_by_test_id("turn")).to_have_text("Your turn.")
    await expect(ana.get_by_test_id("seats")).to_contain_text("Bo")

    # The clock counts down from the deadline the update gave (30 s a turn), as the page's clock moves.
    clock = ana.get_by_test_id("clock-line")
    await expect(clock).to_have_attribute("data-seat", "0")
    await expect(clock).to_have_text("Your clock: 30 s")
    await expect(bo.get_by_test_id("clock-line")).to_have_text("Ana: 30 s")
    await ana.clock.run_for(4_000)
    await expect(clock).to_have_text("Your clock: 26 s")
    await expect(bo.get_by_test_id("clock-line")).to_have_text("Ana: 30 s")  # (Bo's page's clock did not move)

    # A refusal is shown and the table goes on: the move is sent for a version long gone.
    async def stale(route) -> None:
        body = json.loads(route.request.post_data or "{}")
        await route.continue_(post_data=json.dumps({**body, "expectedVersion": "0"}))

    await ana.route("**/moves", stale)
    version = (await client.get(f"/v1/rooms/{room_id}")).json()["version"]
    serial = int(await ana.get_by_test_id("room").get_attribute("data-moves-serial"))
    await ana.get_by_test_id("move").first.click()
    await expect(ana.get_by_test_id("refusal")).to_contain_text("stale_version")
    # The moves are offered again (Playwright's wait_for_function polls on animation frames, which stand still here).
    await expect(ana.get_by_test_id("room")).to_have_attribute("data-moves-serial", str(serial + 1))
    assert (await client.get(f"/v1/rooms/{room_id}")).json()["version"] == version, "nothing was played"
    await ana.unroute("**/moves")

    await ana.get_by_test_id("move").filter(has_text="Draw a card").click()
    await expect(ana.get_by_test_id("feed")).to_contain_text("you drew")
    await expect(bo.get_by_test_id("feed")).to_contain_text("Ana drew a card")
    await expect(ana.get_by_test_id("move").filter(has_text="End the turn")).to_be_enabled()

    # Ana's clock runs out: the table ends her turn, and it is Bo's.
    harness.clock.advance(31)
    await expect(bo.get_by_test_id("feed")).to_contain_text("Ana ended the turn (the clock ran out)")
    await expect(bo.get_by_test_id("turn")).to_have_text("Your turn.")
    await expect(ana.get_by_test_id("turn")).to_have_text("Waiting for Bo.")
    await expect(ana.get_by_test_id("moves")).to_have_text("Nothing to do now.")


async def test_the_lobby_lists_the_waiting_rooms_first_and_the_rest_a_page_at_a_time(
    start: Start, gateway, pages: Pages
) -> None:
    harness = await start()
    client: httpx.AsyncClient = await gateway(harness)
    online = {"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 2}
    waiting = [(await client.post("/v1/rooms", json=online)).json()["roomId"] for _ in range(2)]  # the oldest
    playing = []
    for _ in range(21):
        solo = {"game": "soker", "mode": "ROOM_MODE_SOLO", "seats": 2, "systemPlayers": 1, "thinkSeconds": 0}
        room_id = (await client.post("/v1/rooms", json=solo)).json()["roomId"]
        await client.post(f"/v1/rooms/{room_id}/seats", json={"name": "Bo"})
        playing.append(room_id)
    page = await pages.new()
    await page.goto(f"{client.base_url}/play")
    rows = page.get_by_test_id("room-row")
    await expect(rows).to_have_count(22)  # the two waiting rooms, then a page of 20 others, newest first
    listed = await rows.evaluate_all("rows => rows.map(row => row.dataset.room)")
    assert listed[:2] == waiting[::-1] and listed[2:] == playing[::-1][:20]
    await page.get_by_test_id("rooms-more").click()
    await expect(rows).to_have_count(23)
    assert await rows.nth(22).get_attribute("data-room") == playing[0]
    await expect(page.get_by_test_id("rooms-more")).to_be_hidden()
