"""Soker's table in the browser: a package is made by selecting the hand's cards in order (only selections that begin a
legal play are offered) and its last card becomes the top discard; a double-click plays a card legal alone at once;
and every move is reachable with the keyboard alone."""

from __future__ import annotations

import json
import re

import httpx

from tests.servers import Start
from tests.web.browser import Page, Pages, expect, require_browser, stand_still

require_browser()


async def seated_page(pages: Pages, client: httpx.AsyncClient, room_id: str, token: str) -> Page:
    """A page whose tab holds seat 0 of the room (as the lobby would have left it), at the table."""
    return await seated_page_with(await pages.new(), client, room_id, token)


async def seated_page_with(page: Page, client: httpx.AsyncClient, room_id: str, token: str) -> Page:
    await page.goto(f"{client.base_url}/play")
    held = json.dumps({"seat": 0, "token": token, "name": "Ana"})
    await page.evaluate("([key, held]) => sessionStorage.setItem(key, held)", [f"kickoff:seat:{room_id}", held])
    await page.goto(f"{client.base_url}/play#room={room_id}")
    await expect(page.get_by_test_id("turn")).to_have_text("Your turn.")
    return page


async def room_with(client: httpx.AsyncClient, wanted) -> tuple[str, str, list[dict]]:
    """A solo room (seat 0 first) whose first legal plays hold one that ``wanted`` picks; its id, token and plays."""
    for _ in range(30):
        body = {"game": "soker", "mode": "ROOM_MODE_SOLO", "seats": 2, "systemPlayers": 1, "thinkSeconds": 0}
        room_id = (await client.post("/v1/rooms", json={**body, "options": {"first_seat": 0}})).json()["roomId"]
        token = (await client.post(f"/v1/rooms/{room_id}/seats", json={"name": "Ana"})).json()["seatToken"]
        auth = {"Authorization": f"Bearer {token}"}
        moves = (await client.get(f"/v1/rooms/{room_id}/legal-moves", headers=auth)).json()["moves"]
        plays = [move["soker"]["play"]["cards"] for move in moves if "play" in move["soker"]]
        if any(wanted(cards) for cards in plays):
            return room_id, token, plays
    raise AssertionError("no deal of 30 offered such a play")


async def top_after(client: httpx.AsyncClient, room_id: str, cards: list[str]) -> str:
    """The top discard right after seat 0 played ``cards`` (read from the room's replay: the system player may have
    played since)."""
    steps = (await client.get(f"/v1/rooms/{room_id}/replay?page_size=500")).json()["steps"]
    for step in steps:
        for event in step["update"].get("events", []):
            played = event.get("game", {}).get("soker", {}).get("played")
            if played is not None and played.get("seat", 0) == 0 and played["cards"] == cards:
                return step["view"]["soker"]["topCard"]
    raise AssertionError(f"seat 0 never played {cards}")


async def test_a_package_selected_in_order_is_played_and_its_last_card_becomes_the_top(
    start: Start, gateway, pages: Pages
) -> None:
    client: httpx.AsyncClient = await gateway(await start())
    room_id, token, plays = await room_with(client, lambda cards: len(cards) >= 2)
    package = next(cards for cards in plays if len(cards) >= 2)
    page = await seated_page(pages, client, room_id, token)
    cards = page.get_by_test_id("pick-card")
    play = page.get_by_test_id("play-selection")
    # Each card drawn from the catalogue: the country's colour, the position word, the club's ringed mark, the legend.
    faces = {face["code"]: face for face in (await client.get("/v1/games/soker/cards")).json()["cards"]}
    first = faces[package[0]]["soker"]
    drawn = page.locator(f'[data-testid="pick-card"][data-card="{package[0]}"]')
    await expect(drawn.locator(".soker-pos")).to_have_text(first["position"])
    await expect(drawn.locator(".soker-crest")).to_have_text(first["club"])
    await expect(drawn).to_have_attribute("data-legend", f"{first['legend']}, {first['clubName']}")
    rgb = [int(first["countryRgb"][i : i + 2], 16) for i in (1, 3, 5)]
    assert await drawn.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb({}, {}, {})".format(*rgb)
    ring = [int(first["ringRgb"][i : i + 2], 16) for i in (1, 3, 5)]
    crest = drawn.locator(".soker-crest")
    assert await crest.evaluate("e => getComputedStyle(e).borderTopColor") == "rgb({}, {}, {})".format(*ring)
    await expect(play).to_be_disabled()
    for count, card in enumerate(package, 1):
        await page.locator(f'[data-testid="pick-card"][data-card="{card}"]').click()
        await expect(page.locator(f'[data-testid="pick-card"][data-card="{card}"]')).to_have_attribute(
            "data-order", str(count)
        )
        offered = set(await cards.evaluate_all("cs => cs.filter(c => !c.disabled).map(c => c.dataset.card)"))
        chosen = package[:count]
        expected = {rest[count] for rest in plays if rest[:count] == chosen and len(rest) > count} | {card}
        assert offered == expected, "only cards that go on to a legal play are offered (and the last one, to undo)"
    await expect(play).to_have_text(f"Play {' '.join(package)} ({package[-1]} on top)")
    await play.click()
    await expect(page.get_by_test_id("feed")).to_contain_text(f"you played {' '.join(package)}")
    assert await top_after(client, room_id, package) == package[-1]
    # Two cards of a club in a row are a Link: the table calls it, and who skips.
    await expect(page.get_by_test_id("announce")).to_have_text(re.compile(r"^LINK! .+ skips a turn\.$"))
    await expect(page.get_by_test_id("points-table")).to_contain_text("3 a win by emptying the hand")


async def test_a_double_click_plays_a_card_and_the_keyboard_alone_plays_the_rest(
    start: Start, gateway, pages: Pages
) -> None:
    client: httpx.AsyncClient = await gateway(await start())
    room_id, token, plays = await room_with(client, lambda cards: len(cards) == 1)
    single = next(cards[0] for cards in plays if len(cards) == 1)
    page = await seated_page(pages, client, room_id, token)
    await page.locator(f'[data-testid="pick-card"][data-card="{single}"]').dblclick()
    await expect(page.get_by_test_id("feed")).to_contain_text(f"you played {single}")
    assert await top_after(client, room_id, [single]) == single
    # Later turns with the keys only: Tab to a card, Space or Enter to select, Tab to "Play" and Enter; or Draw.
    for _ in range(3):
        await expect(page.get_by_test_id("turn")).to_have_text("Your turn.", timeout=20_000)
        offered = page.locator('[data-testid="pick-card"]:not([disabled])')
        target = page.get_by_test_id("play-selection") if await offered.count() else page.get_by_test_id("move").first
        if await offered.count():
            code = await offered.first.get_attribute("data-card")
            await offered.first.focus()
            await page.keyboard.press("Space")
            # Selecting redraws the moves; the focus stays on the card selected, so Tab goes on from there.
            chosen = page.locator(f'[data-testid="pick-card"][data-card="{code}"]')
            await expect(chosen).to_have_attribute("data-order", "1")
            await expect(chosen).to_be_focused()
        version = await page.get_by_test_id("room").get_attribute("data-version")
        if await target.is_disabled():  # (a package's first card: a second one is needed, or draw instead)
            target = page.get_by_test_id("move").first
        await target.focus()
        await expect(target).to_be_focused()
        await page.keyboard.press("Enter")
        await expect(page.get_by_test_id("room")).not_to_have_attribute("data-version", version)
        if (await client.get(f"/v1/rooms/{room_id}")).json()["status"] == "ROOM_STATUS_FINISHED":
            break


async def test_the_clock_ring_turns_amber_then_red_and_the_last_seconds_tick_unless_muted(
    start: Start, gateway, pages: Pages
) -> None:
    client: httpx.AsyncClient = await gateway(await start())
    body = {"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 2, "systemPlayers": 1, "thinkSeconds": 0}
    room_id = (await client.post("/v1/rooms", json={**body, "options": {"first_seat": 0}})).json()["roomId"]
    token = (await client.post(f"/v1/rooms/{room_id}/seats", json={"name": "Ana"})).json()["seatToken"]
    watcher = await stand_still(await pages.new())  # (the pages' clocks stand still: the test moves them)
    await watcher.goto(f"{client.base_url}/play#room={room_id}&watch")
    around = watcher.locator('[data-testid="seat"][data-seat="0"]')
    await expect(around).to_have_attribute("data-ring", "green")  # around the panel of whoever is playing
    page = await seated_page_with(await stand_still(await pages.new()), client, room_id, token)
    table = page.get_by_test_id("game-state").locator("xpath=..")  # on your turn, around the table's panel
    line = page.get_by_test_id("clock-line")

    async def ticks() -> int:
        return await page.evaluate("() => window.__kickoffTicks")

    await expect(line).to_have_text("Your clock: 30 s")
    await expect(table).to_have_attribute("data-ring", "green")
    await page.clock.run_for(20_000)
    await expect(line).to_have_text("Your clock: 10 s")
    await expect(table).to_have_attribute("data-ring", "amber")
    assert await ticks() == 0
    await page.clock.run_for(7_000)
    await expect(line).to_have_text("Your clock: 3 s")
    await expect(table).to_have_attribute("data-ring", "red")
    assert await ticks() == 3, "one tick for each of the seconds 5, 4 and 3"
    await page.clock.run_for(1_000)
    assert await ticks() == 4
    await page.get_by_test_id("mute").click()
    await expect(page.get_by_test_id("mute")).to_have_attribute("aria-pressed", "true")
    await page.clock.run_for(1_000)
    await expect(line).to_have_text("Your clock: 1 s")
    assert await ticks() == 4, "muted: no tick"
    await page.clock.run_for(5_000)
    await expect(line).to_have_text("Your clock: 0 s")
    await expect(around).to_have_attribute("data-ring", "green")  # (the watcher's clock did not move)
