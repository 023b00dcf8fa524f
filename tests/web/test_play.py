"""Whole games in a browser: a person opens /play, creates a solo room in the lobby (the other seats system players,
thinking for no time), plays it to its end by clicking legal moves, and sees the outcome the server recorded; a
second page watches the same room as a spectator and never shows a card hidden from spectators."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import httpx
import pytest

from engine import registry
from tests.servers import Start
from tests.web.browser import Page, Pages, PlaywrightError, expect, require_browser, screenshot, violations
from tests.web.leaks import check_spectator_page

require_browser()

# What the create form is given beyond a solo room of the game's smallest table, to keep each game short.
OPTIONS = {"age-of-soccer": {"max_rounds": "2"}}
SEATS = {"age-of-soccer": 3, "soker": 3}
MAX_CLICKS = 400
# The games with a card catalogue (the test game "relay", registered by other tests, has none).
CATALOGUED = ["age-of-soccer", "carta-futbol-club", "soker"]
# A moment of each game worth a screenshot of its own (the element's testid): Age of Soccer's match under way.
MOMENTS = {"age-of-soccer": "aos-match"}

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


async def play_by_clicking(
    page: Page, chooser: random.Random, mid_game: Path, labels: set[str] | None = None, moment: str = ""
) -> int:
    """Clicks one of the legal moves the page lists, whenever it lists new ones, until the page shows the outcome;
    takes the mid-game screenshot before the third click, and one more (``{mid_game}-{moment}``) the first time the
    element of testid ``moment`` is on the table. Returns the clicks."""
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
        if moment and await page.get_by_test_id(moment).count():
            await screenshot(page, mid_game.parent, f"{mid_game.stem}-{moment}")
            moment = ""
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


def spectator_views(harness, room_id: str) -> dict[int, dict]:
    """The spectator's view of the room's game at every version, from its log replayed from its seed."""
    live = harness.directory.get(room_id)
    state = live.game.new_game(len(live.seats), live.state.options, live.seed)
    views = {0: state.view(None).to_json()}
    for entry in harness.directory.journal.log("room", room_id):
        if entry.kind in ("move", "table"):
            state.apply(entry.seat, live.game.move_from_wire(entry.move), by_table=entry.kind == "table")
        views[entry.version] = state.view(None).to_json()
    return views


def names_said(seats: list[dict]) -> list[str]:
    """Each seat's name as the page says it in a sentence (the seat's number added where two share a name)."""
    names = [seat.get("name") or "" for seat in seats]
    return [
        (f"{name} {index}" if names.count(name) > 1 else name) if name else f"seat {index}"
        for index, name in enumerate(names)
    ]


def check_match_panel(renders: list[dict], views: dict[int, dict], names: list[str]) -> tuple[int, int]:
    """Fails unless every drawing of an Age of Soccer table shows the challenge, match and answers under way as its
    view has them: the challenger and target, the attack and defence the challenge compares (board values, +4 for
    each Eagle Eye or Park the Bus), and each answering seat's state in the order they count. Returns how many
    drawings showed a challenge and how many an answer window."""
    challenges = windows = 0
    for render in renders:
        version = int(render["viewVersion"])
        if version < 0:
            continue
        view, text = views[version], render["text"]
        challenge, match, window = view.get("challenge"), view.get("match"), view.get("window")
        assert ("Challenge:" in text or "Match:" in text) == bool(challenge or match), (version, text)
        if challenge:
            challenger, target = view["active"], challenge["target"]
            attack = view["seats"][challenger]["attack"] + 4 * challenge["eagles"]
            defence = view["seats"][target]["defence"] + 4 * challenge["buses"]
            assert f"Challenge: {names[challenger]} challenges {names[target]}" in text, text
            said = rf"Attack {attack}( \([^)]*\))? against Defence {defence}\b"
            assert re.search(said, text), (attack, defence, text)
            challenges += 1
        if match:
            assert f"Match: {names[match['attacker']]} attacks {names[match['defender']]}" in text, text
        if window:
            passed, answered = set(window["passed"]), set(window["answered"])
            for seat in window["order"]:
                said = "passed" if seat in passed else "has answered, face down" if seat in answered else "to answer"
                assert re.search(rf"{re.escape(names[seat])}( \(the defender\))?: {said}", text), (seat, said, text)
            windows += 1
    return challenges, windows


async def check_card_names(page: Page, faces: dict[str, dict]) -> set[str]:
    """Fails unless every card the table shows has an accessible name with its code and its catalogue name, as
    Chromium's accessibility tree hands it to a screen reader (which reads no name on a plain span); returns the kinds
    of element the cards were drawn as. (The page may draw the table again between two steps of a look, an update
    following the view: the browser then forgets the node asked about, and the whole look is made again.)"""
    for attempt in range(3):
        try:
            return await _card_names(page, faces)
        except PlaywrightError as error:
            if "Could not find node" not in str(error) or attempt == 2:
                raise
    raise AssertionError("unreachable")


async def _card_names(page: Page, faces: dict[str, dict]) -> set[str]:
    cdp = await page.context.new_cdp_session(page)
    try:
        root = (await cdp.send("DOM.getDocument", {"depth": 0}))["root"]["nodeId"]
        found = await cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": '[data-testid="room"] [data-card]'})
        tags = set()
        for node in found["nodeIds"]:
            described = (await cdp.send("DOM.describeNode", {"nodeId": node}))["node"]
            attributes = dict(zip(described["attributes"][::2], described["attributes"][1::2], strict=True))
            code, tags = attributes["data-card"], tags | {described["nodeName"]}
            tree = await cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})
            name = next((n.get("name", {}).get("value", "") for n in tree["nodes"] if not n.get("ignored")), "")
            wanted = rf"(^|\s){re.escape(code)}\b.*{re.escape(faces[code]['name'])}"
            assert re.search(wanted, name), (code, described["nodeName"], name)
        return tags
    finally:
        await cdp.detach()


async def feed_lines(page: Page) -> list[tuple[int, str]]:
    lines = await page.eval_on_selector_all(
        '[data-testid="feed"] li', "items => items.map(item => [Number(item.dataset.version), item.innerText])"
    )
    return [(int(version), text) for version, text in lines]


@pytest.mark.parametrize("game", sorted(registry.GAMES))
async def test_a_person_plays_a_solo_room_to_its_end_by_clicking_while_a_spectator_watches(
    start: Start, gateway, pages: Pages, artifacts: Path, game: str
) -> None:
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
    moment = MOMENTS.get(game, "")
    clicks = await play_by_clicking(player, random.Random(7), artifacts / f"{game}-table", labels, moment)
    assert clicks > 0
    face_down = [label for label in labels if "face down" in label]
    assert all(re.search(r"Juego tapada|Paso|Shot on Goal|no save", label) for label in face_down), face_down
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
        ("draw", "=A draw: every seat finished level.")
        if set(range(seats)) <= set(winners)  # every seat a winner: a draw
        else ("won", "✓You won!")
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

    if game in CATALOGUED:  # the cards left on the table are read out by name (Age of Soccer's boards: pictures)
        faces = {face["code"]: face for face in (await client.get(f"/v1/games/{game}/cards")).json()["cards"]}
        drawn = await check_card_names(player, faces)
        assert (game == "age-of-soccer") <= ("SPAN" in drawn), drawn
    await screenshot(player, artifacts, f"{game}-end")
    await screenshot(watcher, artifacts, f"{game}-spectator-end")
    for name in (f"{game}-table", f"{game}-end", *([f"{game}-table-{moment}"] if game == "age-of-soccer" else [])):
        assert (artifacts / f"{name}.png").stat().st_size > 0

    renders = await watcher.evaluate("window.__renders")
    checked, cards = check_spectator_page(harness, room_id, renders, await feed_lines(watcher))
    assert checked > 0 and cards > 0, "the spectator's table was drawn, with the cards open to all"
    if game == "age-of-soccer":  # the match as it happens: the challenge's numbers, the answers in their order
        names = names_said(room["seats"])
        challenges, windows = check_match_panel(renders, spectator_views(harness, room_id), names)
        assert challenges and windows, "the game had a challenge and a shot answered, drawn as they happened"


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


@pytest.mark.parametrize("game", CATALOGUED)
async def test_every_card_on_the_table_is_read_out_by_name_and_the_table_passes_axe_mid_game(
    start: Start, gateway, pages: Pages, game: str
) -> None:
    """A screen reader hears each card shown (in hand, on the boards, on the piles) by its code and its name from the
    catalogue, and each move by its words; axe finds nothing serious on a table mid-game."""
    client: httpx.AsyncClient = await gateway(await start())
    faces = {face["code"]: face for face in (await client.get(f"/v1/games/{game}/cards")).json()["cards"]}
    page = await pages.new()
    await create_solo_room(page, str(client.base_url), game, SEATS.get(game, 2), OPTIONS.get(game, {}))
    serial = -1
    for _ in range(5):  # (Carta's toss and choice of deck come before any card is dealt)
        serial = int(await (await page.wait_for_function(WAIT_FOR_TURN, arg=serial)).json_value())
        if await page.locator('[data-testid="hand"] [data-card]').count():
            break
        await page.get_by_test_id("move").first.click()
    assert await check_card_names(page, faces), "the table shows cards"
    for attempt in range(3):
        # (the page may draw the seat's moves again between two steps of a look at them, an update following the
        # view: the browser then forgets the node asked about; the next look reads the new drawing)
        try:
            moves = page.get_by_test_id("move")
            for index in range(await moves.count()):
                label = (await moves.nth(index).inner_text()).split("\n")[0]
                await expect(moves.nth(index)).to_have_accessible_name(re.compile(rf"^{re.escape(label)}"))
            assert await violations(page) == [], "the table mid-game, as its seat sees it"
            break
        except PlaywrightError as error:
            if "Could not find node" not in str(error) or attempt == 2:
                raise


async def test_a_level_carta_match_goes_to_a_shootout_drawn_kick_by_kick(
    start: Start, gateway, pages: Pages, artifacts: Path
) -> None:
    """Nobody plays: every clock runs out, each a card face down, so the match ends 0-0 after extra time and goes to
    penalties. The shootout panel counts each team's kicks and goals as the view has them, says which team is the
    seat's and who kicks, and the seat's moves say what a kick is; a kick clicked on the page is taken."""
    harness = await start()
    client: httpx.AsyncClient = await gateway(harness)
    body = {"game": "carta-futbol-club", "mode": "ROOM_MODE_ONLINE", "seats": 2}
    options = {"extra_time": True, "penalties": True}
    room_id = (await client.post("/v1/rooms", json={**body, "options": options})).json()["roomId"]
    held = (await client.post(f"/v1/rooms/{room_id}/seats", json={"name": "Ana"})).json()
    await client.post(f"/v1/rooms/{room_id}/seats", json={"name": "Bo"})
    auth = {"Authorization": f"Bearer {held['seatToken']}"}
    page = await pages.new()
    await page.goto(f"{client.base_url}/play")
    await page.evaluate(
        "([key, held]) => sessionStorage.setItem(key, JSON.stringify(held))",
        [f"kickoff:seat:{room_id}", {"seat": 0, "token": held["seatToken"], "name": "Ana"}],
    )
    await page.goto(f"{client.base_url}/play#room={room_id}")
    await expect(page.get_by_test_id("room")).to_have_attribute("data-viewer", "0")

    async def seen() -> dict:
        return (await client.get(f"/v1/rooms/{room_id}/view", headers=auth)).json()

    async def run_out() -> dict:
        """One clock runs out (30 s a move online): the table plays its seat's move; returns the view after it."""
        version = (await seen())["version"]
        harness.clock.advance(31)
        while (answer := await seen())["version"] == version:
            await asyncio.sleep(0)  # (the server's timer runs on this loop)
        return answer

    answer = await seen()
    while answer["view"]["carta"].get("phase") != "shootout" or 0 not in answer.get("toAct", []):
        answer = await run_out()
        assert answer.get("toAct"), "the level match should go to penalties"
    panel = page.get_by_test_id("carta-shootout")

    async def check_panel(answer: dict) -> None:
        await expect(page.get_by_test_id("room")).to_have_attribute("data-version", answer["version"])
        shootout = answer["view"]["carta"]["shootout"]
        for team in (0, 1):
            kicks, scored = shootout.get("kicks", [0, 0])[team], shootout.get("scored", [0, 0])[team]
            entry = panel.get_by_test_id("carta-kicks").nth(team)
            await expect(entry).to_have_attribute("data-kicks", str(kicks))
            await expect(entry).to_have_attribute("data-scored", str(scored))
            kicked = f"{kicks} kick{'' if kicks == 1 else 's'}"
            await expect(entry).to_have_text(
                f"Team {team}{' (yours)' if team == 0 else ''}: {scored} scored of {kicked}"
            )
        if shootout.get("sudden"):
            await expect(panel).to_contain_text(f"sudden death, round {shootout['sudden'] + 1}")

    await check_panel(answer)
    await expect(panel).to_contain_text("You to act.")
    await expect(panel).to_contain_text("only a Save stops a penalty")
    await screenshot(page, artifacts, "carta-futbol-club-table-shootout")
    legal = (await client.get(f"/v1/rooms/{room_id}/legal-moves", headers=auth)).json()["moves"]
    labels = await page.get_by_test_id("move").all_inner_texts()
    assert len(labels) == len(legal), (labels, legal)
    kick = answer["view"]["carta"].get("pending")
    if kick:  # Ana keeps goal: a save, or a card face down and the penalty is in
        said = rf"^Save with .+ against the kick of {kick.get('value', 0)}$|face down: no save, the penalty is scored$"
    else:  # Ana kicks: a Shot on Goal if she holds one, else a card face down, as a Shot on Goal 1
        said = r"^Kick with |face down: a kick as a Shot on Goal 1$"
    assert all(re.search(said, label) for label in labels), labels
    shootout = answer["view"]["carta"]["shootout"]
    await page.get_by_test_id("move").first.click()
    while (after := await seen())["version"] == answer["version"]:
        await asyncio.sleep(0)
    taken = after["view"]["carta"].get("shootout", {}).get("kicks", [0, 0])
    assert sum(taken) == sum(shootout.get("kicks", [0, 0])) + bool(kick), "the move clicked was taken"
    answer = after
    while answer.get("toAct"):  # each kick and save counted on the page as it happens
        await check_panel(answer)
        answer = await run_out()
    await check_panel(answer)
    room = (await client.get(f"/v1/rooms/{room_id}")).json()
    assert room["status"] == "ROOM_STATUS_FINISHED" and room["outcome"]["reason"] in ("penalties", "coin"), room
    await expect(page.get_by_test_id("outcome")).to_be_visible()
    # every kick in the feed, with the shootout's count after it
    final = answer["view"]["carta"]["shootout"]
    goals, kicks = "-".join(map(str, final["scored"])), "-".join(map(str, final["kicks"]))
    await expect(page.get_by_test_id("feed")).to_contain_text(f"took a penalty (goals {goals}, kicks {kicks})")
    lines = [text for _, text in await feed_lines(page) if "took a penalty" in text]
    assert len(lines) == sum(final["kicks"]), lines


async def test_a_game_that_every_seat_won_is_shown_to_each_seat_as_a_draw(start: Start, gateway, pages: Pages) -> None:
    """Nobody plays an Age of Soccer game of one round: every clock runs out, nobody wins a shield, and the turn limit
    lists both seats as winners. The contract says each seat drew; each seat's page says it is a draw (the headline,
    the list of seats, the line in the feed), not that it won, and so does the replay."""
    harness = await start()
    client: httpx.AsyncClient = await gateway(harness)
    body = {"game": "age-of-soccer", "mode": "ROOM_MODE_ONLINE", "seats": 2, "options": {"max_rounds": 1}}
    room_id = (await client.post("/v1/rooms", json=body)).json()["roomId"]
    players = []
    for name in ("Ana", "Bo"):
        held = (await client.post(f"/v1/rooms/{room_id}/seats", json={"name": name})).json()
        page = await pages.new()
        await page.goto(f"{client.base_url}/play")
        await page.evaluate(
            "([key, held]) => sessionStorage.setItem(key, JSON.stringify(held))",
            [f"kickoff:seat:{room_id}", {"seat": held.get("seat", 0), "token": held["seatToken"], "name": name}],
        )
        await page.goto(f"{client.base_url}/play#room={room_id}")
        await expect(page.get_by_test_id("room")).to_have_attribute("data-viewer", str(held.get("seat", 0)))
        players.append(page)
    for _ in range(40):  # every clock runs out in turn, until the round is over
        room = (await client.get(f"/v1/rooms/{room_id}")).json()
        if room["status"] == "ROOM_STATUS_FINISHED":
            break
        harness.clock.advance(31)
        await harness.directory.get(room_id).settle()
    outcome = room["outcome"]
    assert (outcome["reason"], sorted(outcome.get("winners", []))) == ("rounds", [0, 1]), outcome
    winners = ["Winners: Ana (you) (seat 0), Bo (seat 1)", "Winners: Ana (seat 0), Bo (you) (seat 1)"]
    for page, listed in zip(players, winners, strict=True):
        await expect(page.get_by_test_id("outcome-headline")).to_have_text("=A draw: every seat finished level.")
        await expect(page.get_by_test_id("outcome")).to_have_attribute("data-result", "draw")
        await expect(page.get_by_test_id("outcome-winners")).to_have_text(listed)  # (the result itself unchanged)
        await expect(page.get_by_test_id("seat-result")).to_have_text(["draw", "draw"])  # no seat marked "winner"
        await expect(page.get_by_test_id("feed")).to_contain_text("game over (rounds): a draw")
        await expect(page.get_by_test_id("feed")).not_to_contain_text("won by")
    assert outcome["results"] == ["SEAT_RESULT_DRAWN", "SEAT_RESULT_DRAWN"], outcome
    replay = players[0]
    await replay.goto(f"{client.base_url}/play#replay={room_id}")
    await expect(replay.get_by_test_id("replay")).to_have_attribute("data-room", room_id)
    last = harness.directory.journal.log("room", room_id)[-1].version  # (the steps loaded before Last is pressed)
    await expect(replay.get_by_test_id("replay")).to_have_attribute("data-last", str(last))
    await replay.get_by_test_id("replay-last").click()
    await expect(replay.get_by_test_id("replay-feed")).to_contain_text("game over (rounds): a draw")
    await expect(replay.get_by_test_id("replay-feed")).not_to_contain_text("won by")


async def test_two_winners_who_are_not_one_team_are_shown_a_shared_win(start: Start, gateway, pages: Pages) -> None:
    """Ana never moves in an Age of Soccer game of one round against two system players, who each take a shield
    from her (the first room's seed): the turn limit lists them both as winners, "ties shared". Ana's page says she
    lost and a spectator's that the two share the win; the list of seats and the feed say so, not "winner"."""
    harness = await start()
    client: httpx.AsyncClient = await gateway(harness)
    body = {
        "game": "age-of-soccer",
        "mode": "ROOM_MODE_ONLINE",
        "seats": 3,
        "systemSeats": [1, 2],
        "thinkSeconds": 0,
        "options": {"max_rounds": 1},
    }
    room_id = (await client.post("/v1/rooms", json=body)).json()["roomId"]
    held = (await client.post(f"/v1/rooms/{room_id}/seats", json={"name": "Ana"})).json()
    player = await pages.new()
    await player.goto(f"{client.base_url}/play")
    await player.evaluate(
        "([key, held]) => sessionStorage.setItem(key, JSON.stringify(held))",
        [f"kickoff:seat:{room_id}", {"seat": held.get("seat", 0), "token": held["seatToken"], "name": "Ana"}],
    )
    await player.goto(f"{client.base_url}/play#room={room_id}")
    await expect(player.get_by_test_id("room")).to_have_attribute("data-viewer", "0")
    watcher = await pages.new()
    await watcher.goto(f"{client.base_url}/play#room={room_id}")
    for _ in range(200):  # Ana's clock runs out on each of her turns and windows, until the round is over
        await harness.directory.get(room_id).settle()
        room = (await client.get(f"/v1/rooms/{room_id}")).json()
        if room["status"] == "ROOM_STATUS_FINISHED":
            break
        harness.clock.advance(61)
    outcome = room["outcome"]
    assert (outcome["reason"], outcome.get("winners")) == ("rounds", [1, 2]), outcome
    assert outcome["results"] == ["SEAT_RESULT_LOST", "SEAT_RESULT_SHARED_WIN", "SEAT_RESULT_SHARED_WIN"], outcome
    await expect(player.get_by_test_id("outcome")).to_have_attribute("data-result", "lost")
    await expect(player.get_by_test_id("outcome-headline")).to_have_text("✗You lost.")
    await expect(watcher.get_by_test_id("outcome")).to_have_attribute("data-result", "shared")
    await expect(watcher.get_by_test_id("outcome-headline")).to_have_text(
        re.compile(r"^=Shared win: .+ \(seat 1\), .+ \(seat 2\)$")
    )
    for page in (player, watcher):
        seats = page.get_by_test_id("seat")
        await expect(seats.nth(0).get_by_test_id("seat-result")).to_have_count(0)
        for seat in (1, 2):
            await expect(seats.nth(seat).get_by_test_id("seat-result")).to_have_text("shared win")
        await expect(page.get_by_test_id("feed")).to_contain_text(re.compile(r"game over \(rounds\): a shared win for"))
        await expect(page.get_by_test_id("feed")).not_to_contain_text("won by")
