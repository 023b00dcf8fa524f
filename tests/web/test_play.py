"""Whole games in a browser: a person opens /play, creates a solo room in the lobby (the other seats system players,
thinking for no time), plays it to its end by clicking legal moves, and sees the outcome the server recorded; a
second page watches the same room as a spectator and never shows a card hidden from spectators."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import httpx
import pytest

from engine import registry
from tests.servers import Start
from tests.web.browser import Page, Pages, expect, require_browser, screenshot
from tests.web.leaks import check_spectator_page
from tests.web.test_accessibility import violations

require_browser()

# What the create form is given beyond a solo room of the game's smallest table, to keep each game short.
OPTIONS = {"age-of-soccer": {"max_rounds": "2"}}
SEATS = {"age-of-soccer": 3, "soker": 3}
MAX_CLICKS = 400

WAIT_FOR_TURN = """
(serial) => {
  const room = document.querySelector('[data-testid="room"]');
  if (!room) return false;
  if (room.dataset.status === "finished" && !document.querySelector('[data-testid="outcome"]').hidden) return "end";
  const enabled = room.querySelector('[data-testid="move"]:not([disabled])');
  return Number(room.dataset.movesSerial) > serial && enabled ? room.dataset.movesSerial : false;
}
"""


async def create_solo_room(page: Page, base: str, game: str, seats: int, options: dict[str, str]) -> str:
    """Creates a solo room with the lobby's form and takes its seat; returns the room's id."""
    await page.goto(f"{base}/play")
    await expect(page.get_by_test_id("game")).to_have_count(len(registry.GAMES))
    await page.get_by_test_id("name").fill("Ana")
    await page.get_by_test_id("create-game").select_option(game)
    await page.get_by_test_id("create-seats").select_option(str(seats))
    await page.get_by_test_id("create-mode").select_option("solo")
    await expect(page.get_by_test_id("create-system")).to_have_value(str(seats - 1))
    await page.get_by_test_id("create-think").fill("0")
    for name, value in options.items():
        await page.get_by_test_id(f"option-{name}").fill(value)
    await page.get_by_test_id("create-submit").click()
    room = page.get_by_test_id("room")
    await expect(room).to_have_attribute("data-viewer", "0")
    return await room.get_attribute("data-room")


async def play_by_clicking(page: Page, chooser: random.Random, mid_game: Path, labels: set[str] | None = None) -> int:
    """Clicks one of the legal moves the page lists, whenever it lists new ones, until the page shows the outcome;
    takes the mid-game screenshot before the third click. Returns the clicks."""
    serial, clicks = -1, 0
    while True:
        found = await page.wait_for_function(WAIT_FOR_TURN, arg=serial)
        state = await found.json_value()
        if state == "end":
            return clicks
        serial = int(state)
        buttons = page.get_by_test_id("move")
        count = await buttons.count()
        assert count > 0
        if labels is not None:
            labels.update(await buttons.all_inner_texts())
        if clicks == 2:
            await screenshot(page, mid_game.parent, mid_game.stem)
        # A Soker table offers its cards to select: a card legal alone is played with a double-click.
        alone = page.locator('[data-testid="pick-card"][data-alone="yes"]:not([disabled])')
        singles = await alone.count()
        index = chooser.randrange(count + singles)
        if index >= count:
            await alone.nth(index - count).dblclick()
        else:
            await buttons.nth(index).click()
        clicks += 1
        assert clicks < MAX_CLICKS, "the game should have ended"


async def feed_lines(page: Page) -> list[tuple[int, str]]:
    lines = await page.eval_on_selector_all(
        '[data-testid="feed"] li', "items => items.map(item => [Number(item.dataset.version), item.innerText])"
    )
    return [(int(version), text) for version, text in lines]


@pytest.mark.parametrize("game", sorted(registry.GAMES))
async def test_a_person_plays_a_solo_room_to_its_end_by_clicking_while_a_spectator_watches(
    start: Start, gateway, pages: Pages, artifacts: Path, game: str
) -> None:
    began = time.monotonic()
    harness = await start()
    client: httpx.AsyncClient = await gateway(harness)
    base = str(client.base_url)
    hosted = {info["name"]: info for info in (await client.get("/v1/games")).json()["games"]}
    assert game in hosted, "the server hosts every registered game"
    seats = SEATS.get(game, min(hosted[game]["seatCounts"]))

    player = await pages.new()
    room_id = await create_solo_room(player, base, game, seats, OPTIONS.get(game, {}))
    room = (await client.get(f"/v1/rooms/{room_id}")).json()
    assert room["game"] == game and room["mode"] == "ROOM_MODE_SOLO" and len(room["seats"]) == seats
    assert [seat.get("kind") for seat in room["seats"]].count("SEAT_KIND_SYSTEM") == seats - 1
    assert room["seats"][0]["name"] == "Ana"
    for name, value in OPTIONS.get(game, {}).items():
        assert room["options"][name] == int(value)

    watcher = await pages.new(record=True)
    await watcher.goto(f"{base}/play#room={room_id}")
    await expect(watcher.get_by_test_id("role")).to_contain_text("spectator")
    await expect(watcher.get_by_test_id("room")).to_have_attribute("data-viewer", "")
    assert await watcher.get_by_test_id("moves").count() == 0 and await watcher.get_by_test_id("hand").count() == 0

    await expect(player.get_by_test_id("turn")).to_contain_text("Your")
    if game == "carta-futbol-club":  # the seat is told its team, and what a face-down play means
        await expect(player.get_by_test_id("your-team")).to_contain_text("Your team: team 0")
    labels: set[str] = set()
    clicks = await play_by_clicking(player, random.Random(7), artifacts / f"{game}-table", labels)
    assert clicks > 0
    face_down = [label for label in labels if "face down" in label]
    assert all(re.search(r"Juego tapada|Paso|Shot on Goal", label) for label in face_down), face_down
    assert (game == "carta-futbol-club") <= bool(face_down), "a Carta seat is offered face-down plays, explained"
    if game == "carta-futbol-club":  # the part of the match a hand is
        await expect(player.get_by_test_id("carta-hand")).to_have_text(re.compile(r"of 6 \((second half|extra time)"))
    if game == "age-of-soccer":  # each team's board: four positions, the attack and defence markers at their values
        seats_view = (await client.get(f"/v1/rooms/{room_id}/view")).json()["view"]["ageOfSoccer"]["seats"]
        boards = player.get_by_test_id("aos-board")
        await expect(boards).to_have_count(seats)
        for index, entry in enumerate(seats_view):
            board = boards.nth(index)
            await expect(board.get_by_test_id("aos-slot")).to_have_count(4)
            await expect(board.get_by_test_id("aos-attack")).to_have_attribute(
                "data-value", str(entry.get("attack", 0))
            )
            await expect(board.get_by_test_id("aos-defence")).to_have_attribute(
                "data-value", str(entry.get("defence", 0))
            )
            placed = [card for card in entry.get("board", []) if card]
            for card in placed:
                await expect(board).to_contain_text(card)
    if game == "age-of-soccer":  # moves in a player's words, cards by name ("Viking Attacker (VIK-AT)")
        raw = [label for label in labels if not label[:1].isupper() or re.search(r"\b[a-z]+ [A-Z]+-[A-Z]+\b", label)]
        assert not raw, raw

    room = (await client.get(f"/v1/rooms/{room_id}")).json()
    assert room["status"] == "ROOM_STATUS_FINISHED"
    outcome = room["outcome"]
    winners = outcome.get("winners", [])
    for page in (player, watcher):
        await expect(page.get_by_test_id("room")).to_have_attribute("data-version", room["version"])
        await expect(page.get_by_test_id("outcome")).to_be_visible()
        shown = await page.get_by_test_id("outcome-winners").inner_text()
        for seat in range(seats):
            assert (f"(seat {seat})" in shown) == (seat in winners), (shown, outcome)
        reason = outcome["reason"].replace("_", " ")
        await expect(page.get_by_test_id("outcome-reason")).to_have_text(f"Reason: {reason}")
        points = page.get_by_test_id("outcome-points").locator("li")
        await expect(points).to_have_count(len(outcome["points"]))
        for seat, value in enumerate(outcome["points"]):
            assert (await points.nth(seat).inner_text()).endswith(f": {value} point{'' if value == 1 else 's'}")
    result, headline = (
        ("won", "✓You won!")
        if 0 in winners
        else ("lost", "✗You lost.")
        if winners
        else ("draw", "=A draw: nobody won.")
    )
    await expect(player.get_by_test_id("outcome-headline")).to_have_text(headline)
    await expect(player.get_by_test_id("outcome")).to_have_attribute("data-result", result)
    await expect(watcher.get_by_test_id("outcome")).to_have_attribute("data-result", "over")
    state = await player.get_by_test_id("game-state").inner_text()
    assert "Turn:" not in state and "To act" not in state, "nothing says whose turn it is after the end"
    await expect(watcher.get_by_test_id("outcome-headline")).to_have_text("Game over.")
    await expect(player.get_by_test_id("turn")).to_have_text("Game over.")

    assert await violations(player) == [], "the finished table, as its seat sees it"
    await screenshot(player, artifacts, f"{game}-end")
    await screenshot(watcher, artifacts, f"{game}-spectator-end")
    for name in (f"{game}-table", f"{game}-end"):
        assert (artifacts / f"{name}.png").stat().st_size > 0

    renders = await watcher.evaluate("window.__renders")
    checked, cards = check_spectator_page(harness, room_id, renders, await feed_lines(watcher))
    assert checked > 0 and cards > 0, "the spectator's table was drawn, with the cards open to all"
    assert time.monotonic() - began < 60, "a game in the browser takes well under a minute"


FOCUSED_MOVE = """
() => {
  const focused = document.activeElement;
  const index = [...document.querySelectorAll('[data-testid="move"]:not([disabled])')].indexOf(focused);
  return [index, index >= 0 ? getComputedStyle(focused).outlineStyle : ""];
}
"""


@pytest.mark.parametrize("game", ["age-of-soccer", "carta-futbol-club"])
async def test_a_game_is_played_to_its_end_with_the_keyboard_alone(
    start: Start, gateway, pages: Pages, game: str
) -> None:
    client: httpx.AsyncClient = await gateway(await start())
    page = await pages.new()
    seats = SEATS.get(game, 2)
    await create_solo_room(page, str(client.base_url), game, seats, OPTIONS.get(game, {}))
    chooser, serial, moves, misses = random.Random(3), -1, 0, 0
    while True:
        state = await (await page.wait_for_function(WAIT_FOR_TURN, arg=serial)).json_value()
        if state == "end":
            break
        serial = int(state)
        count = await page.locator('[data-testid="move"]:not([disabled])').count()
        wanted = chooser.randrange(count)
        moved = False
        for _ in range(3 * 40):  # Tab through the page (links, switches, moves) to the move wanted, focus visible
            await page.keyboard.press("Tab")
            at, outline = await page.evaluate(FOCUSED_MOVE)
            if at == wanted:
                assert outline not in ("", "none"), "the focus is visible"
                await page.keyboard.press("Enter")
                moved = True
                break
        if moved:
            moves += 1
        else:
            serial -= 1  # (the moves were drawn again meanwhile, another seat having moved: look again)
            misses += 1
            assert misses < 50, "Tab kept missing the moves"
        assert moves < MAX_CLICKS
    await expect(page.get_by_test_id("outcome")).to_be_visible()
    assert moves > 0
