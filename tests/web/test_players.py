"""Players on the page, on a server with players (SQLite): signing in as a guest kept by the page (localStorage) and
seated by creating rooms; "My games", taken up in a second tab as a second device would; a game's leaderboard after
rated games, with the player's own rank; a player's rating beside their name at the table; an expired access token
refreshed once and the page going on, tabs refreshing before the expiry without ever sending a refresh token twice, a
reused refresh token signing the page out; and signing out, after which play is anonymous as before players."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from kickoff.v1 import common_pb2, player_pb2
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from tests.players.conftest import Served
from tests.servers import Start
from tests.web.browser import Page, Pages, expect, require_browser, screenshot

require_browser()

SESSION = "kickoff:session"
ACCESS_SECONDS = 15 * 60


@dataclass
class Site:
    """A server with players, the gateway in front of it, and the page's address."""

    served: Served
    client: httpx.AsyncClient

    @property
    def base(self) -> str:
        return str(self.client.base_url)

    async def get(self, path: str, token: str = "", **params: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return await self.client.get(path, headers=headers, params=params)


@pytest.fixture
async def site(start: Start, gateway, tmp_path: Path) -> AsyncIterator[Site]:
    """Players on a SQLite file (the page does not depend on the database; PostgreSQL is the store suites')."""
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    harness = await start(journal=SqlJournal(create_engine(url)))
    yield Site(Served(harness), await gateway(harness))


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def stored(page: Page) -> dict[str, Any] | None:
    return json.loads(await page.evaluate(f"localStorage.getItem('{SESSION}')") or "null")


async def seat_held(page: Page, room_id: str) -> dict[str, Any] | None:
    return json.loads(await page.evaluate(f"sessionStorage.getItem('kickoff:seat:{room_id}')") or "null")


async def sign_in(page: Page, site: Site, name: str) -> dict[str, Any]:
    """Signs in as a guest in the lobby; the session the page keeps."""
    await page.goto(f"{site.base}/play")
    await expect(page.get_by_test_id("sign-in-guest")).to_be_visible()
    await page.get_by_test_id("name").fill(name)
    await page.get_by_test_id("sign-in-guest").click()
    await expect(page.get_by_test_id("player-name")).to_have_text(name)
    await expect(page.get_by_test_id("name")).to_be_hidden()
    await expect(page.get_by_test_id("my-rooms").locator("tr")).not_to_have_count(0)  # "My games" is loaded
    session = await stored(page)
    assert session and session["accessToken"] and session["refreshToken"] and session["player"]["name"] == name
    return session


async def create_room(page: Page, site: Site, *, mode: str = "solo", seats: int = 2, system: int = 0, go=True) -> str:
    """Creates a Soker room with the lobby's form (`go`: the lobby opened first) and takes its seat; the room's id."""
    if go:
        await page.goto(f"{site.base}/play")
    await expect(page.get_by_test_id("game")).not_to_have_count(0)
    await page.get_by_test_id("create-game").select_option("soker")
    await page.get_by_test_id("create-seats").select_option(str(seats))
    await page.get_by_test_id("create-mode").select_option(mode)
    if mode == "online":
        await page.get_by_test_id("create-system").fill(str(system))
    await page.get_by_test_id("create-think").fill("0")
    await page.get_by_test_id("create-submit").click()
    room = page.get_by_test_id("room")
    await expect(room).to_have_attribute("data-viewer", "0")
    return await room.get_attribute("data-room")


def smaller_pages(size: int):
    """A route handler asking for pages of `size` (the page's own are larger than these tests' lists)."""

    async def handle(route) -> None:
        await route.continue_(url=re.sub(r"page_size=\d+", f"page_size={size}", route.request.url))

    return handle


def shown_rating(text: str) -> float:
    match = re.fullmatch(r"rating (-?\d+\.\d)", text)
    assert match, text
    return float(match.group(1))


def rating_of(player: dict[str, Any], game: str = "soker") -> dict[str, Any]:
    return next(rating for rating in player["ratings"] if rating["game"] == game)


async def test_a_guest_is_seated_kept_across_reloads_and_picks_the_game_up_in_a_second_tab(
    site: Site, pages: Pages, artifacts: Path
) -> None:
    page = await pages.new()
    session = await sign_in(page, site, "Ana")
    me = (await site.get("/v1/players/me", session["accessToken"])).json()
    assert me["name"] == "Ana" and me["playerId"] == session["player"]["playerId"]
    ana = me["playerId"]

    waiting = await create_room(page, site, mode="online", seats=2)
    await expect(page.get_by_test_id("turn")).to_have_text("Waiting for players: 1 free seat.")
    solo = await create_room(page, site, mode="solo", seats=2)
    for room_id in (waiting, solo):
        room = (await site.get(f"/v1/rooms/{room_id}")).json()
        assert room["seats"][0]["playerId"] == ana and room["seats"][0]["name"] == "Ana", "the player is seated"
        held = await seat_held(page, room_id)
        assert held["seat"] == 0 and held["token"] and held["player"] == ana
    await expect(page.get_by_test_id("turn")).to_have_text("Your turn.")
    # Ana has no rating in Soker yet; the system player's seat has no player, so no rating.
    seats = page.get_by_test_id("seat")
    await expect(seats.nth(0).get_by_test_id("seat-rating")).to_have_text("unrated")
    await expect(seats.nth(1)).to_contain_text("bot")
    await expect(seats.nth(1).get_by_test_id("seat-rating")).to_have_count(0)

    # A reload keeps the session (and the tab its seat).
    await page.reload()
    await expect(page.get_by_test_id("room")).to_have_attribute("data-viewer", "0")
    await expect(page.get_by_test_id("turn")).to_have_text("Your turn.")
    assert (await stored(page))["refreshToken"] == session["refreshToken"], "nothing needed refreshing"

    # A second tab of the same browser: the same session, no seat tokens of its own. "My games" lists both rooms
    # as the server orders them (where it is my turn first, marked), a page at a time.
    second = await page.context.new_page()
    await second.route("**/v1/players/me/rooms?*", smaller_pages(1))
    await second.goto(f"{site.base}/play")
    await expect(second.get_by_test_id("player-name")).to_have_text("Ana")
    assert await seat_held(second, solo) is None
    listed = (await site.get("/v1/players/me/rooms", session["accessToken"])).json()["rooms"]
    assert [(entry["room"]["roomId"], entry["myTurn"]) for entry in listed] == [(solo, True), (waiting, False)]
    rows = second.get_by_test_id("my-room")
    await expect(rows).to_have_count(1)
    await expect(rows.first).to_have_attribute("data-room", solo)
    await expect(rows.first.get_by_test_id("my-turn")).to_have_text("Your turn")
    more = second.get_by_test_id("my-rooms-more")
    await more.click()
    await expect(rows).to_have_count(2)
    if await more.is_visible():  # a full last page: the server tells the list's end with one more, empty page
        await more.click()
    await expect(more).to_be_hidden()
    await expect(rows).to_have_count(2)
    await expect(rows.nth(1)).to_have_attribute("data-room", waiting)
    await expect(rows.nth(1)).to_have_attribute("data-my-turn", "false")
    await expect(rows.nth(1).get_by_test_id("my-turn")).to_have_count(0)
    await screenshot(second, artifacts, "my-games")

    # Choosing the game takes the seat up in this tab (a fresh seat token) and opens its table; a move made here
    # reaches the first tab's table too: both are the same seat.
    await rows.first.get_by_test_id("take-up").click()
    await expect(second.get_by_test_id("room")).to_have_attribute("data-viewer", "0")
    await expect(second.get_by_test_id("turn")).to_have_text("Your turn.")
    held = await seat_held(second, solo)
    assert held["seat"] == 0 and held["token"] and held["player"] == ana
    await second.get_by_test_id("move").filter(has_text="Draw a card").click()
    await expect(second.get_by_test_id("feed")).to_contain_text("you drew")
    await expect(page.get_by_test_id("feed")).to_contain_text("you drew")

    # Opened by its address in a third tab, the player's room is taken up too, unless the address says to watch.
    third = await page.context.new_page()
    await third.goto(f"{site.base}/play#room={waiting}")
    await expect(third.get_by_test_id("room")).to_have_attribute("data-viewer", "0")
    await expect(third.get_by_test_id("role")).to_have_text("You play seat 0 (online).")
    await third.goto(f"{site.base}/play#room={solo}&watch")
    await expect(third.get_by_test_id("role")).to_have_text("You are watching as a spectator (solo).")
    await expect(third.get_by_test_id("room")).to_have_attribute("data-viewer", "")


async def test_players_join_from_the_list_go_back_to_their_seat_and_choose_a_team(site: Site, pages: Pages) -> None:
    ana_page = await pages.new()
    ana = await sign_in(ana_page, site, "Ana")
    room_id = await create_room(ana_page, site, mode="online", seats=2)

    # Another player, in another browser, joins from the rooms list: seated as the player, with their name.
    bo_page = await pages.new()
    bo = await sign_in(bo_page, site, "Bo")
    row = bo_page.get_by_test_id("room-row").filter(has_text=room_id)
    await row.get_by_test_id("join").click()
    await expect(bo_page.get_by_test_id("room")).to_have_attribute("data-viewer", "1")
    seats = (await site.get(f"/v1/rooms/{room_id}")).json()["seats"]
    assert [(seat["name"], seat["playerId"]) for seat in seats] == [
        ("Ana", ana["player"]["playerId"]),
        ("Bo", bo["player"]["playerId"]),
    ]
    assert (await seat_held(bo_page, room_id))["player"] == bo["player"]["playerId"]
    await expect(ana_page.get_by_test_id("turn")).to_have_text("Your turn.")

    # In a tab without its token, the list offers the player's seat back (taken up, not joined again).
    other = await bo_page.context.new_page()
    await other.goto(f"{site.base}/play")
    await other.get_by_test_id("room-row").filter(has_text=room_id).get_by_test_id("resume").click()
    await expect(other.get_by_test_id("room")).to_have_attribute("data-viewer", "1")
    await expect(other.get_by_test_id("turn")).to_have_text("Waiting for Ana.")

    # A game with a choice on taking a seat: the room is made, and the player seated with the choice.
    await ana_page.bring_to_front()
    await ana_page.goto(f"{site.base}/play")
    await ana_page.get_by_test_id("create-game").select_option("age-of-soccer")
    await ana_page.get_by_test_id("create-seats").select_option("2")
    await ana_page.get_by_test_id("create-mode").select_option("solo")
    await ana_page.get_by_test_id("create-think").fill("0")
    await ana_page.get_by_test_id("create-choice").fill("VIK")
    await ana_page.get_by_test_id("create-submit").click()
    await expect(ana_page.get_by_test_id("room")).to_have_attribute("data-viewer", "0")
    chosen = await ana_page.get_by_test_id("room").get_attribute("data-room")
    seat = (await site.get(f"/v1/rooms/{chosen}")).json()["seats"][0]
    assert (seat["playerId"], seat["choice"]) == (ana["player"]["playerId"], "VIK")


async def test_an_empty_leaderboard_says_its_minimum_and_a_player_the_games_still_to_play(
    start: Start, gateway, tmp_path: Path, pages: Pages
) -> None:
    """With a minimum of 3, after one rated game: the empty board's line says what it takes, and the signed-in
    player's line says the game played and the two still to play (GetRank's numbers)."""
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    harness = await start(journal=SqlJournal(create_engine(url)), min_games=3)
    site = Site(Served(harness), await gateway(harness))
    page = await pages.new()
    session = await sign_in(page, site, "Ana")
    ana, bo = player_pb2.Session(access_token=session["accessToken"]), await site.served.guest("Bo")
    created = await site.served.create(ana, seats=2)
    joined = await site.served.join(created.room.room_id, bo)
    ended = await site.served.play_out(
        created.room.room_id, {created.seat: created.seat_token, joined.seat: joined.seat_token}
    )
    assert ended.rated and ended.status == common_pb2.ROOM_STATUS_FINISHED
    await page.goto(f"{site.base}/play#leaderboard=soker")
    await expect(page.get_by_test_id("leaderboard-lines")).to_have_text(
        "Nobody yet: a player appears after 3 rated games."
    )
    await expect(page.get_by_test_id("min-games")).to_have_text("Min 3 rated games to appear.")
    await expect(page.get_by_test_id("my-rank-line")).to_have_text(
        "You have played 1 rated game: 2 more rated games to appear on the leaderboard."
    )


async def test_the_leaderboard_after_rated_games_and_ratings_beside_names_at_the_table(
    site: Site, pages: Pages, artifacts: Path
) -> None:
    served = site.served
    page = await pages.new()
    session = await sign_in(page, site, "Ana")
    ana = player_pb2.Session(access_token=session["accessToken"])
    bo, cy = await served.guest("Bo"), await served.guest("Cy")
    await page.goto(f"{site.base}/play#leaderboard=soker")  # before any rated game
    await expect(page.get_by_test_id("leaderboard-lines")).to_have_text(
        "Nobody yet: a player appears after 1 rated game."
    )
    await expect(page.get_by_test_id("my-rank-line")).to_have_text(
        "You have played 0 rated games: 1 more rated game to appear on the leaderboard."
    )

    # Two rated games played out through gRPC: Bo against Cy, then Ana against Bo.
    for first, second in ((bo, cy), (ana, bo)):
        created = await served.create(first, seats=2)
        joined = await served.join(created.room.room_id, second)
        assert joined.room.rated
        tokens = {created.seat: created.seat_token, joined.seat: joined.seat_token}
        ended = await served.play_out(created.room.room_id, tokens)
        assert ended.status == common_pb2.ROOM_STATUS_FINISHED

    board = (await site.get("/v1/games/soker/leaderboard")).json()
    assert board["minGames"] == 1 and len(board["lines"]) == 3
    mine = (await site.get("/v1/games/soker/leaderboard/me", session["accessToken"])).json()
    assert mine["line"]["playerId"] == session["player"]["playerId"]

    # The lobby links each game's leaderboard.
    await page.goto(f"{site.base}/play")
    await page.locator('[data-testid="game"][data-game="soker"]').get_by_test_id("leaderboard-link").click()
    await expect(page).to_have_url(f"{site.base}/play#leaderboard=soker")
    await expect(page.get_by_test_id("leaderboard-title")).to_have_text("Soker leaderboard")
    await expect(page.get_by_test_id("min-games")).to_have_text("Min 1 rated game to appear.")
    rows = page.get_by_test_id("leaderboard-line")
    await expect(rows).to_have_count(3)
    for index, line in enumerate(board["lines"]):
        rank, name, rating, games, won = await rows.nth(index).locator("td, th").all_inner_texts()
        you = " (you)" if line["playerId"] == session["player"]["playerId"] else ""
        assert (rank, name, int(games), int(won)) == (
            str(line["rank"]),
            line["name"] + you,
            line["rating"]["games"],
            line["rating"]["wins"],
        )
        assert re.fullmatch(r"-?\d+\.\d", rating) and abs(float(rating) - line["rating"]["display"]) <= 0.05 + 1e-9
    line = mine["line"]
    await expect(page.get_by_test_id("my-rank-line")).to_have_text(
        re.compile(rf"^Your rank: {line['rank']} of 3, rating -?\d+\.\d \(1 rated game\)\.$")
    )
    await expect(page.get_by_test_id("my-rank-neighbour")).to_have_count(3)
    await expect(page.locator('[data-testid="leaderboard-line"].me')).to_have_attribute(
        "data-player", session["player"]["playerId"]
    )
    await screenshot(page, artifacts, "leaderboard")

    # A page at a time.
    await page.route("**/v1/games/soker/leaderboard?*", smaller_pages(2))
    await page.reload()
    await expect(rows).to_have_count(2)
    more = page.get_by_test_id("leaderboard-more")
    await more.click()
    await expect(rows).to_have_count(3)
    if await more.is_visible():  # (a full last page: one more, empty, tells the end)
        await more.click()
    await expect(more).to_be_hidden()
    await expect(rows).to_have_count(3)
    names = [await rows.nth(index).locator("th").inner_text() for index in range(3)]
    assert [name.removesuffix(" (you)") for name in names] == [line["name"] for line in board["lines"]]

    # At a table: each player's rating in this game beside their name; a player new to it is unrated.
    dee = await served.guest("Dee")
    room_id = await create_room(page, site, mode="online", seats=3)
    await served.join(room_id, bo)
    await served.join(room_id, dee)
    bo_player = (await site.get(f"/v1/players/{bo.player.player_id}")).json()
    ana_player = (await site.get(f"/v1/players/{session['player']['playerId']}")).json()
    seats = page.get_by_test_id("seat")
    await expect(seats.nth(1)).to_contain_text("Bo")
    await expect(seats.nth(2)).to_contain_text("Dee")
    for seat, player in ((0, ana_player), (1, bo_player)):
        shown = seats.nth(seat).get_by_test_id("seat-rating")
        await expect(shown).to_have_text(re.compile(r"^rating -?\d+\.\d$"))
        assert abs(shown_rating(await shown.inner_text()) - rating_of(player)["display"]) <= 0.05 + 1e-9
    await expect(seats.nth(2).get_by_test_id("seat-rating")).to_have_text("unrated")
    await screenshot(page, artifacts, "table-ratings")

    # A spectator whose look-ups of players fail sees the table without ratings, and nothing breaks.
    watcher = await pages.new()

    async def refuse(route) -> None:
        await route.fulfill(status=503, content_type="application/json", body='{"detail": "away", "reason": "x"}')

    await watcher.route(re.compile(r".*/v1/players/[A-Za-z0-9_-]+$"), refuse)
    async with watcher.expect_response(lambda response: "/v1/players/" in response.url and response.status == 503):
        await watcher.goto(f"{site.base}/play#room={room_id}")
    await expect(watcher.get_by_test_id("seats")).to_contain_text("Dee")
    await expect(watcher.get_by_test_id("turn")).to_contain_text("Waiting for")
    await expect(watcher.get_by_test_id("seat-rating")).to_have_count(0)


async def test_an_expired_access_token_is_refreshed_once_and_the_page_goes_on(site: Site, pages: Pages) -> None:
    page = await pages.new()
    before = await sign_in(page, site, "Ana")
    answers: list[tuple[str, str, int]] = []
    page.on("response", lambda response: answers.append((response.request.method, response.url, response.status)))

    site.served.harness.clock.advance(ACCESS_SECONDS + 60)  # the access token has expired (the server's clock)
    assert (await site.get("/v1/players/me", before["accessToken"])).json()["reason"] == "token_expired"
    room_id = await create_room(page, site, mode="solo", go=False)  # the lobby shown since signing in
    room = (await site.get(f"/v1/rooms/{room_id}")).json()
    assert room["seats"][0]["playerId"] == before["player"]["playerId"], "created as the player, after the refresh"

    after = await stored(page)
    assert after["accessToken"] != before["accessToken"] and after["refreshToken"] != before["refreshToken"]
    refreshes = [answer for answer in answers if answer[1].endswith("/v1/sessions/refresh")]
    assert [status for _, _, status in refreshes] == [200], "one refresh"
    refused = [answer for answer in answers if answer[2] == 401]
    assert [(method, url.removeprefix(site.base)) for method, url, _ in refused] == [("POST", "/v1/rooms")]
    assert (await site.get("/v1/players/me", after["accessToken"])).status_code == 200, "the session goes on"

    # The page goes on with the new pair: its games, its table.
    await page.goto(f"{site.base}/play")
    await expect(page.get_by_test_id("my-room")).to_have_count(1)
    await page.get_by_test_id("take-up").click()
    await expect(page.get_by_test_id("turn")).to_have_text("Your turn.")
    assert (await stored(page))["refreshToken"] == after["refreshToken"]


async def test_two_tabs_refresh_before_the_expiry_and_spend_the_refresh_token_once(site: Site, pages: Pages) -> None:
    first = await pages.new()
    await first.clock.install()  # the context's clock: every tab's timers
    before = await sign_in(first, site, "Ana")
    second = await first.context.new_page()
    await second.goto(f"{site.base}/play")
    await expect(second.get_by_test_id("player-name")).to_have_text("Ana")
    await expect(second.get_by_test_id("my-rooms").locator("tr")).not_to_have_count(0)
    refreshes: list[int] = []

    def answered(response) -> None:
        if "/v1/sessions/refresh" in response.url:
            refreshes.append(response.status)

    first.context.on("response", answered)

    # Both tabs' refreshes fall due a minute before the expiry; the first to run spends the refresh token, the other
    # finds the new pair stored.
    site.served.harness.clock.advance(ACCESS_SECONDS - 30)
    await first.clock.fast_forward((ACCESS_SECONDS - 30) * 1000)
    changed = "old => JSON.parse(localStorage.getItem('kickoff:session') || 'null')?.refreshToken !== old"
    for page in (first, second):
        await page.wait_for_function(changed, arg=before["refreshToken"])
    after = await stored(first)
    assert after is not None and after == await stored(second)

    # Past the old token's expiry, both tabs act with the new one, and nothing refreshes again.
    site.served.harness.clock.advance(60)
    for page in (first, second):
        await page.bring_to_front()
        async with page.expect_response(lambda response: "/v1/players/me/rooms" in response.url) as listed:
            await page.get_by_test_id("my-rooms-refresh").click()
        assert (await listed.value).status == 200
        await expect(page.get_by_test_id("player-name")).to_have_text("Ana")
    assert refreshes == [200], "one refresh for both tabs"
    assert (await site.get("/v1/players/me", after["accessToken"])).status_code == 200, "the session was not revoked"
    assert (await stored(first))["refreshToken"] == after["refreshToken"]


async def test_a_refresh_token_used_elsewhere_signs_the_page_out(site: Site, pages: Pages) -> None:
    page = await pages.new()
    before = await sign_in(page, site, "Ana")
    # Someone else spends the page's refresh token (it was copied): the page's next refresh presents it again.
    stolen = await site.client.post("/v1/sessions/refresh", json={"refreshToken": before["refreshToken"]})
    assert stolen.status_code == 200
    site.served.harness.clock.advance(ACCESS_SECONDS + 60)
    async with page.expect_response(lambda response: "/v1/sessions/refresh" in response.url) as refreshed:
        await page.get_by_test_id("my-rooms-refresh").click()
    assert (await refreshed.value).status == 401
    await expect(page.get_by_test_id("sign-in-guest")).to_be_visible()
    await expect(page.get_by_test_id("lobby-status")).to_have_text("You were signed out (refresh reused).")
    await expect(page.get_by_test_id("my-games")).to_be_hidden()
    assert await stored(page) is None
    thief = stolen.json()["session"]["refreshToken"]
    refused = await site.client.post("/v1/sessions/refresh", json={"refreshToken": thief})
    assert (refused.status_code, refused.json()["reason"]) == (401, "session_revoked"), "the whole session ended"


async def test_signing_out_forgets_the_session_and_play_is_anonymous_again(site: Site, pages: Pages) -> None:
    page = await pages.new()
    session = await sign_in(page, site, "Ana")
    room_id = await create_room(page, site, mode="solo")
    assert (await seat_held(page, room_id))["player"] == session["player"]["playerId"]
    other = await page.context.new_page()
    await other.goto(f"{site.base}/play")
    await expect(other.get_by_test_id("player-name")).to_have_text("Ana")

    await page.bring_to_front()  # (a tab in the background draws slowly: clicks wait for it)
    await page.goto(f"{site.base}/play")
    async with page.expect_response(lambda response: "/v1/sessions/sign-out" in response.url) as signed_out:
        await page.get_by_test_id("sign-out").click()
    assert (await signed_out.value).status == 200
    await expect(page.get_by_test_id("sign-in-guest")).to_be_visible()
    await expect(page.get_by_test_id("my-games")).to_be_hidden()
    await expect(page.get_by_test_id("name")).to_have_value("Ana")
    assert await stored(page) is None
    assert await seat_held(page, room_id) is None, "the player's seats in this tab are forgotten too"
    gone = await site.get("/v1/players/me", session["accessToken"])
    assert (gone.status_code, gone.json()["reason"]) == (401, "session_revoked")
    await expect(other.get_by_test_id("sign-in-guest")).to_be_visible()  # the other tab follows
    await page.reload()
    await expect(page.get_by_test_id("sign-in-guest")).to_be_visible()

    # Signed out, a seat is anonymous, with its seat token, as before players.
    anonymous = await create_room(page, site, mode="solo")
    seat = (await site.get(f"/v1/rooms/{anonymous}")).json()["seats"][0]
    assert (seat["name"], seat["playerId"]) == ("Ana", "")
    held = await seat_held(page, anonymous)
    assert held["token"] and "player" not in held
    await expect(page.get_by_test_id("turn")).to_have_text("Your turn.")
    await expect(page.get_by_test_id("seat-rating")).to_have_count(0)

    # This browser's guest signs in again as the same player (its device id).
    again = await sign_in(page, site, "Ana")
    assert again["player"]["playerId"] == session["player"]["playerId"]
