"""Play now on the page, on a server with players and matchmaking (SQLite) whose queues the test turns (the manual
clock moved on, then one turn): a person alone clicks Play now for Soker, is signed in as a guest, sees the search
with its wait, cancels it and tries again, and lands at a table with a system player, where they play a move; two
people in two browsers click Play now and land at the same room, one seat each; a search that finds nobody ends, and
can be tried again (a reload of the tab goes on following it)."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.settings import MatchSettings
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from tests.matches.conftest import Queue
from tests.servers import Start
from tests.web.browser import Page, Pages, expect, require_browser, screenshot, stand_still

require_browser()

FILL_SECONDS = 5  # system players take the seats nobody took after this wait
TICKET_SECONDS = 60
SEARCHING = "Searching for a Soker table…"
# The lobby's visible buttons that a screen reader would read out without a name.
UNNAMED_BUTTONS = """
[...document.querySelectorAll("button")]
  .filter((button) => button.offsetParent !== null)
  .filter((button) => !(button.getAttribute("aria-label") || button.textContent).trim())
  .map((button) => button.outerHTML)
"""


@dataclass
class Site:
    queue: Queue
    client: httpx.AsyncClient

    @property
    def base(self) -> str:
        return str(self.client.base_url)


async def serve(start: Start, gateway, tmp_path: Path, fill_seconds: float = FILL_SECONDS) -> Site:
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    settings = MatchSettings(
        fill_seconds=fill_seconds, take_up_seconds=20, ticket_seconds=TICKET_SECONDS, per_caller=1000
    )
    harness = await start(journal=SqlJournal(create_engine(url)), match=settings)
    return Site(Queue(harness), await gateway(harness))


@pytest.fixture
async def site(start: Start, gateway, tmp_path: Path) -> AsyncIterator[Site]:
    yield await serve(start, gateway, tmp_path)


async def stored(page: Page, key: str, area: str = "sessionStorage") -> Any:
    return json.loads(await page.evaluate(f"{area}.getItem({json.dumps(key)})") or "null")


async def play_now(page: Page, site: Site, name: str) -> str:
    """Opens the lobby and clicks Play now for Soker with `name` in the name field; the ticket's id, once the page
    shows the search."""
    await page.goto(f"{site.base}/play")
    await page.get_by_test_id("name").fill(name)
    await page.get_by_role("button", name="Play now: Soker").click()
    await expect(page.get_by_test_id("search-status")).to_have_text(SEARCHING)
    ticket = await page.get_by_test_id("search").get_attribute("data-ticket")
    assert ticket
    return ticket


async def seated(page: Page) -> tuple[str, int]:
    """The room the page went to and the seat it plays there."""
    room = page.get_by_test_id("room")
    await expect(room).to_have_attribute("data-viewer", re.compile(r"^\d+$"))
    room_id = await room.get_attribute("data-room")
    held = await stored(page, f"kickoff:seat:{room_id}")
    assert held and held["token"], "the ticket's seat token is kept for the room, as a joined seat's is"
    return room_id, int(await room.get_attribute("data-viewer"))


async def test_a_person_alone_plays_now_cancels_tries_again_and_plays_a_move_at_a_table_with_a_system_player(
    site: Site, pages: Pages, artifacts: Path
) -> None:
    page = await stand_still(await pages.new())  # (the page's clock stands still: the test moves it)
    first = await play_now(page, site, "Ana")
    session = await stored(page, "kickoff:session", "localStorage")
    assert session and session["player"]["name"] == "Ana", "signed in as a guest on the way"
    await expect(page.get_by_test_id("player-name")).to_have_text("Ana")
    # The search as a screen reader finds it: its state in a live region, the wait, a button that cancels it.
    await expect(page.get_by_test_id("search")).to_match_aria_snapshot(
        f"""
        - status: {SEARCHING}
        - paragraph: "Waiting: 0:00"
        - paragraph:
          - button "Cancel search"
        """
    )
    await page.clock.run_for(7_000)
    await expect(page.get_by_test_id("search-wait")).to_have_text("Waiting: 0:07")  # (it counts, by the page's clock)
    await expect(page.get_by_role("button", name="Play now: Soker")).to_be_disabled()
    unnamed = await page.evaluate(UNNAMED_BUTTONS)
    assert not unnamed, f"buttons without a name: {unnamed}"
    await page.clock.resume()  # (time goes on: axe-core's checks run on the page's timers)
    await screenshot(page, artifacts, "play-now-searching")

    await page.get_by_role("button", name="Cancel search").click()
    await expect(page.get_by_role("status")).to_have_text("The Soker search was cancelled.")
    await expect(page.get_by_test_id("search-wait")).to_be_hidden()
    token = session["accessToken"]
    ticket = (await site.client.get(f"/v1/tickets/{first}", headers={"Authorization": f"Bearer {token}"})).json()
    assert ticket["ticket"]["status"] == "TICKET_STATUS_CANCELLED"
    await page.get_by_role("button", name="Try again: play Soker now").click()
    await expect(page.get_by_test_id("search-status")).to_have_text(SEARCHING)
    again = await page.get_by_test_id("search").get_attribute("data-ticket")
    assert again and again != first

    # Nobody else comes: after the wait, a system player takes the other seat; the page takes its seat up by itself
    # and goes to the table.
    await site.queue.turn(FILL_SECONDS)
    room_id, seat = await seated(page)
    room = (await site.client.get(f"/v1/rooms/{room_id}")).json()
    assert room["status"] == "ROOM_STATUS_PLAYING" and len(room["seats"]) == 2
    assert room["seats"][seat]["playerId"] == session["player"]["playerId"]
    assert [s["kind"] for s in room["seats"]].count("SEAT_KIND_SYSTEM") == 1
    assert await stored(page, "kickoff:search") is None, "the search is over"
    await expect(page.get_by_test_id("role")).to_have_text(f"You play seat {seat} (online, rated).")
    await expect(page.get_by_test_id("turn")).to_have_text("Your turn.")
    await page.get_by_test_id("move").filter(has_text="Draw a card").click()
    await expect(page.get_by_test_id("feed")).to_contain_text("you drew")
    await screenshot(page, artifacts, "play-now-table")


async def test_two_people_play_now_and_land_at_the_same_room(site: Site, pages: Pages) -> None:
    ana, bo = await pages.new(), await pages.new()
    for page, name in ((ana, "Ana"), (bo, "Bo")):
        await play_now(page, site, name)
    await site.queue.turn(1)  # the two fill a table of two at once: no system player
    (ana_room, ana_seat), (bo_room, bo_seat) = await seated(ana), await seated(bo)
    assert ana_room == bo_room and {ana_seat, bo_seat} == {0, 1}
    room = (await site.client.get(f"/v1/rooms/{ana_room}")).json()
    assert sorted(s["name"] for s in room["seats"]) == ["Ana", "Bo"]
    assert all(s["kind"] == "SEAT_KIND_PERSON" for s in room["seats"])
    for page, other in ((ana, "Bo"), (bo, "Ana")):
        await expect(page.get_by_test_id("seats")).to_contain_text(other)
    first = ana if ana_seat in room["toAct"] else bo
    await expect(first.get_by_test_id("turn")).to_have_text("Your turn.")


async def test_a_search_that_finds_nobody_ends_and_can_be_tried_again(start: Start, gateway, tmp_path: Path, pages):
    site = await serve(start, gateway, tmp_path, fill_seconds=0)  # (no system players: nobody is found)
    page = await pages.new()
    ticket = await play_now(page, site, "Ana")
    await page.reload()  # the tab follows its search again
    await expect(page.get_by_test_id("search-status")).to_have_text(SEARCHING)
    assert await page.get_by_test_id("search").get_attribute("data-ticket") == ticket
    await site.queue.turn(TICKET_SECONDS)
    await expect(page.get_by_role("status")).to_have_text("Nobody was found in time: the Soker search ended.")
    await expect(page.get_by_role("button", name="Play now: Soker")).to_be_enabled()
    await page.get_by_role("button", name="Try again: play Soker now").click()
    await expect(page.get_by_test_id("search-status")).to_have_text(SEARCHING)
