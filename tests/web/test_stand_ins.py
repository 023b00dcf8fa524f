"""Stand-ins on the page: a person who creates an online room with stand-ins and then lets the clock play for them
twice in a row sees a normal system player standing in on their seat and in the feed, is told on their turn that a
move takes the seat back, and after one click is playing again."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.servers import Start
from tests.web.browser import Pages, expect, require_browser, screenshot

require_browser()

THINK = 5  # the room's think time (the system player's and the stand-in's)


async def test_a_stand_in_plays_for_an_absent_person_until_they_move(
    start: Start, gateway, pages: Pages, artifacts: Path
) -> None:
    harness = await start()
    client: httpx.AsyncClient = await gateway(harness)
    page = await pages.new()
    await page.goto(f"{client.base_url}/play")
    await page.get_by_test_id("name").fill("Ana")
    await page.get_by_test_id("create-game").select_option("soker")
    await page.get_by_test_id("create-seats").select_option("2")
    await page.get_by_test_id("create-mode").select_option("online")
    await page.get_by_test_id("create-system").fill("1")
    await page.get_by_test_id("create-think").fill(str(THINK))
    await page.get_by_test_id("create-stand-ins").check()
    await page.get_by_test_id("create-submit").click()
    room_element = page.get_by_test_id("room")
    await expect(room_element).to_have_attribute("data-viewer", "0")
    room = harness.directory.get(await room_element.get_attribute("data-room"))
    assert room.stand_ins

    # Ana is away: the clock plays her turns (the system player takes its think time on its own).
    for _ in range(40):
        if room.seats[0].stand_in:
            break
        harness.clock.advance(THINK)
        await room.settle()
    assert room.seats[0].stand_in == "normal", "the clock played for her twice in a row"
    await expect(page.get_by_test_id("seat-stand-in")).to_have_text("normal stand-in")
    await expect(page.get_by_test_id("feed")).to_contain_text(
        "a normal system player stands in for you: your next move takes your seat back"
    )
    while room.published.to_act != (0,):  # the system player's turn: it plays, then hers begins
        harness.clock.advance(THINK)
        await room.settle()
    await expect(page.get_by_test_id("turn")).to_contain_text("move to take your seat back")
    await screenshot(page, artifacts, "stand-in")

    # She is back: her move, before the stand-in's think time is up.
    await page.get_by_test_id("move").first.click()
    await expect(page.get_by_test_id("feed")).to_contain_text("you are back")
    await expect(page.get_by_test_id("seat-stand-in")).to_have_count(0)
    assert room.seats[0].stand_in == "" and room.seats[0].name == "Ana"
