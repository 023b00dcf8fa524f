"""The page's replay view (#replay=ID): a finished game stepped through version by version with the keys, matching the
room's log, with every hand shown at the end; a replay asked before the end shows no card a spectator may not see;
and the view has no WCAG violation. Games are played over REST (the browser's own play is test_play's)."""

from __future__ import annotations

import random
from pathlib import Path

import httpx
import pytest

from service.settings import ChatSettings
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from tests.servers import Start
from tests.web.browser import Page, Pages, expect, require_browser, screenshot, stand_still, violations
from tests.web.leaks import check_spectator_page

require_browser()

GAMES = {"soker": (2, {}), "age-of-soccer": (3, {"max_rounds": 1}), "carta-futbol-club": (2, {})}


async def solo_room(client: httpx.AsyncClient, game: str, seats: int = 0) -> tuple[str, str]:
    seats, options = seats or GAMES[game][0], GAMES[game][1]
    body = {"game": game, "mode": "ROOM_MODE_SOLO", "seats": seats, "systemPlayers": seats - 1, "thinkSeconds": 0}
    created = await client.post("/v1/rooms", json={**body, "options": options})
    assert created.status_code == 201, created.text
    room_id = created.json()["roomId"]
    joined = await client.post(f"/v1/rooms/{room_id}/seats", json={"name": "Ana"})
    return room_id, joined.json()["seatToken"]


async def play(client: httpx.AsyncClient, room_id: str, token: str, moves: int = 100_000) -> dict:
    """The seat's moves, chosen at random, until the game ends (or ``moves`` were made); returns the seat's view."""
    chooser, auth = random.Random(5), {"Authorization": f"Bearer {token}"}
    while (view := (await client.get(f"/v1/rooms/{room_id}/view", headers=auth)).json()).get("toAct") and moves:
        legal = (await client.get(f"/v1/rooms/{room_id}/legal-moves", headers=auth)).json()["moves"]
        if legal:
            await client.post(f"/v1/rooms/{room_id}/moves", json={"move": chooser.choice(legal)}, headers=auth)
            moves -= 1
    return view


async def at_version(page: Page, version: int) -> None:
    await expect(page.get_by_test_id("replay")).to_have_attribute("data-version", str(version))


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_finished_game_steps_through_every_version_with_the_keys(
    start: Start, gateway, pages: Pages, artifacts: Path, game: str
) -> None:
    harness = await start()
    client: httpx.AsyncClient = await gateway(harness)
    room_id, token = await solo_room(client, game)
    seat_view = await play(client, room_id, token)
    log = harness.directory.journal.log("room", room_id)
    last = log[-1].version
    replay = (await client.get(f"/v1/rooms/{room_id}/replay?page_size=500")).json()
    events = {int(step["update"]["version"]): len(step["update"].get("events", [])) for step in replay["steps"]}
    assert sorted(events) == [entry.version for entry in log], "one step for every line of the room's log"

    page = await pages.new()
    await page.goto(f"{client.base_url}/play#replay={room_id}")
    view = page.get_by_test_id("replay")
    await expect(view).to_have_attribute("data-last", str(last))
    await expect(view).to_have_attribute("data-revealed", "yes")
    await at_version(page, 1)
    await expect(page.get_by_test_id("replay-position")).to_contain_text(f"Version 1 of {last}: every hand shown")
    for version in range(1, last + 1):  # every version, one key press each, its events added to the feed
        if version > 1:
            await page.keyboard.press("ArrowRight")
            await at_version(page, version)
        shown = await page.locator(f'[data-testid="replay-feed"] li[data-version="{version}"]').count()
        assert shown == events[version], f"version {version}: its {events[version]} events"
    await expect(page.get_by_test_id("replay-next")).to_be_disabled()
    hands = page.get_by_test_id("replay-hand")
    await expect(hands).to_have_count(len(replay["room"]["seats"]))
    [(member, mine)] = seat_view["view"].items()
    held = {
        "soker": lambda: mine.get("hand", []),
        "ageOfSoccer": lambda: [*mine.get("hand", {}).get("players", []), *mine.get("hand", {}).get("actions", [])],
        "carta": lambda: mine.get("handCards", []),
    }[member]()
    for card in held:
        await expect(hands.nth(0)).to_contain_text(card)
    await screenshot(page, artifacts, f"{game}-replay-end")
    await page.keyboard.press("Home")
    await at_version(page, 1)
    await page.get_by_test_id("replay-slider").fill(str(last // 2))
    await at_version(page, last // 2)
    await page.get_by_test_id("replay-speed").select_option("8")
    await stand_still(page)  # (the page's timer steps only as the test moves the page's clock)
    await page.get_by_test_id("replay-play").click()
    await expect(page.get_by_test_id("replay-play")).to_have_attribute("aria-pressed", "true")
    await page.clock.run_for(250)  # 8 steps a second
    await at_version(page, last // 2 + 2)  # (played on by the page's own timer)
    await page.get_by_test_id("replay-play").click()
    await expect(page.get_by_test_id("replay-position")).not_to_contain_text("Playing")
    await page.clock.run_for(1_000)
    await at_version(page, last // 2 + 2)  # (paused)


async def test_a_replay_before_the_end_shows_no_card_a_spectator_may_not_see(
    start: Start, gateway, pages: Pages
) -> None:
    harness = await start()
    client: httpx.AsyncClient = await gateway(harness)
    room_id, token = await solo_room(client, "soker", seats=4)
    await play(client, room_id, token, moves=5)
    assert (await client.get(f"/v1/rooms/{room_id}")).json()["status"] == "ROOM_STATUS_PLAYING"
    last = harness.directory.journal.log("room", room_id)[-1].version
    page = await pages.new()
    await page.goto(f"{client.base_url}/play#replay={room_id}")
    view = page.get_by_test_id("replay")
    await expect(view).to_have_attribute("data-last", str(last))
    await expect(view).to_have_attribute("data-revealed", "")
    await expect(page.get_by_test_id("replay-hands")).to_have_text("Hands are shown once the game is over.")
    renders = []
    for version in range(1, last + 1):
        if version > 1:
            await page.keyboard.press("ArrowRight")
        await at_version(page, version)
        text = await page.get_by_test_id("replay-board").inner_text()
        renders.append({"viewVersion": version, "text": text})
    feed = await page.eval_on_selector_all(
        '[data-testid="replay-feed"] li', "items => items.map(item => [Number(item.dataset.version), item.innerText])"
    )
    checked, cards = check_spectator_page(harness, room_id, renders, [(int(v), text) for v, text in feed])
    assert checked == last and cards > 0, "every version drawn, with the cards open to all"
    assert await violations(page) == [], "the replay view"


async def test_the_end_of_a_game_and_the_lobby_lead_to_its_replay(start: Start, gateway, pages: Pages) -> None:
    harness = await start()
    client: httpx.AsyncClient = await gateway(harness)
    room_id, token = await solo_room(client, "soker")
    await play(client, room_id, token)
    page = await pages.new()
    await page.goto(f"{client.base_url}/play#room={room_id}&watch")
    await expect(page.get_by_test_id("outcome")).to_be_visible()
    await page.get_by_test_id("outcome-replay").click()
    await expect(page.get_by_test_id("replay")).to_have_attribute("data-version", "1")
    await page.goto(f"{client.base_url}/play")
    row = page.get_by_test_id("room-row").filter(has_text=room_id)
    await row.get_by_test_id("replay").click()
    await expect(page.get_by_test_id("replay")).to_have_attribute("data-room", room_id)


async def test_a_player_of_the_table_sees_its_chat_beside_the_steps_as_text(
    start: Start, gateway, pages: Pages, tmp_path: Path
) -> None:
    """The tab that holds a seat of the room gets the table's chat with the replay: each message shows from the last
    step at or before its time on, its markup as characters (never an element), a reaction in words; the view stays
    free of WCAG violations. (~4 s: SQLite, three moves)"""
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    harness = await start(journal=SqlJournal(create_engine(url)), chat=ChatSettings())
    client: httpx.AsyncClient = await gateway(harness)
    created = await client.post(
        "/v1/rooms", json={"game": "soker", "mode": "ROOM_MODE_SOLO", "seats": 2, "systemPlayers": 1, "thinkSeconds": 0}
    )
    room_id = created.json()["roomId"]
    ana = (await client.post("/v1/players/guest", json={"name": "Ana"})).json()["session"]
    joined = await client.post(
        f"/v1/rooms/{room_id}/seats", json={}, headers={"Authorization": f"Bearer {ana['accessToken']}"}
    )
    token = joined.json()["seatToken"]
    auth = {"Authorization": f"Bearer {token}"}
    await play(client, room_id, token, moves=1)
    await harness.settle(room_id)
    said_at = int((await client.get(f"/v1/rooms/{room_id}/view", headers=auth)).json()["version"])
    harness.clock.advance(5)
    said = await client.post(f"/v1/rooms/{room_id}/chat", json={"text": "<b>good luck</b>"}, headers=auth)
    assert said.status_code == 201, said.text
    harness.clock.advance(5)
    await play(client, room_id, token, moves=2)
    await harness.settle(room_id)
    harness.clock.advance(5)
    thanks = {"reaction": "CHAT_REACTION_THANKS"}
    assert (await client.post(f"/v1/rooms/{room_id}/chat", json=thanks, headers=auth)).status_code == 201
    last = int((await client.get(f"/v1/rooms/{room_id}/replay?page_size=1")).json()["lastVersion"])

    page = await pages.new()
    await page.goto(f"{client.base_url}/play")
    seat = {"seat": joined.json()["seat"], "token": token, "name": "Ana"}
    await page.evaluate(
        "([key, held]) => sessionStorage.setItem(key, JSON.stringify(held))", [f"kickoff:seat:{room_id}", seat]
    )
    await page.goto(f"{client.base_url}/play#replay={room_id}")
    await expect(page.get_by_test_id("replay")).to_have_attribute("data-last", str(last))
    talk = page.get_by_test_id("replay-chat").locator("li")
    await page.keyboard.press("End")
    await at_version(page, last)
    await expect(talk).to_have_text(["Ana: <b>good luck</b>", "Ana: Thanks"])
    assert await page.get_by_test_id("replay-chat").locator("b").count() == 0, "text, never markup"
    await page.keyboard.press("Home")
    await at_version(page, 1)
    await expect(talk).to_have_count(0)  # (before the message's time: nothing said yet)
    await page.get_by_test_id("replay-slider").fill(str(said_at))
    await at_version(page, said_at)
    await expect(talk).to_have_text(["Ana: <b>good luck</b>"])  # (from the last step before it on; not the reaction)
    assert await violations(page) == [], "the replay view with its chat"
