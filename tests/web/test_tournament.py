"""A tournament's standings in the browser: reached from the lobby or by /play#tournament=ID, kept live by the
tournament's event stream as each game ends, until the final standings; a duplicate tournament's comparison of each
hand."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.servers import Start
from tests.web.browser import Pages, expect, require_browser, screenshot

require_browser()


async def test_the_standings_follow_a_tournament_of_system_players_to_its_end(
    start: Start, gateway, pages: Pages, artifacts: Path
) -> None:
    client: httpx.AsyncClient = await gateway(await start())
    base = str(client.base_url)
    created = await client.post(
        "/v1/tournaments", json={"game": "soker", "mode": "ROOM_MODE_ONLINE", "systemPlayers": 4, "thinkSeconds": 0}
    )
    assert created.status_code == 201, created.text
    tid = created.json()["tournamentId"]
    games = created.json()["games"]

    page = await pages.new(record=True)
    await page.goto(f"{base}/play")
    link = page.get_by_test_id("tournament-row").filter(has_text=tid).get_by_role("link")
    await link.click()
    await expect(page).to_have_url(f"{base}/play#tournament={tid}")
    view = page.get_by_test_id("tournament")
    await expect(view).to_have_attribute("data-final", "true", timeout=60_000)
    await expect(page.get_by_test_id("standings-caption")).to_have_text("Final standings")

    final = (await client.get(f"/v1/tournaments/{tid}/standings")).json()
    assert final["final"]
    rows = page.get_by_test_id("standing")
    await expect(rows).to_have_count(len(final["lines"]))
    for index, line in enumerate(final["lines"]):
        cells = await rows.nth(index).locator("td, th").all_inner_texts()
        place, name, seat, points, won, *tallies = cells
        assert (int(place), name, int(seat), int(points), int(won)) == (
            line["place"],
            line["name"],
            line.get("seat", 0),
            line.get("points", 0),
            line.get("gamesWon", 0),
        ), (cells, line)
        assert [int(value) for value in tallies] == [tally.get("value", 0) for tally in line.get("tallies", [])]
    await expect(page.get_by_test_id("tournament-game")).to_have_count(games)
    await expect(page.get_by_test_id("hands")).to_be_hidden()  # (a duplicate tournament's comparison only)
    await expect(view).to_have_attribute("data-games-played", str(games))

    played = [render["gamesPlayed"] for render in await page.evaluate("window.__renders") if "gamesPlayed" in render]
    assert played == sorted(played), "the standings only move forward"
    assert set(range(1, games + 1)) <= set(played), f"the standings were drawn after each game: {played}"
    await screenshot(page, artifacts, "tournament-final")

    # The address alone opens it too, final at once.
    await page.goto(f"{base}/play#tournament={tid}")
    await expect(page.get_by_test_id("tournament")).to_have_attribute("data-final", "true")


async def test_a_duplicate_tournaments_page_compares_each_hand(start: Start, gateway, pages: Pages) -> None:
    """Buys: the page shows a duplicate tournament's comparison (Standings.hands) as the server gives it: a line per
    deal and table seat, with each player who held that hand and their points; an ordinary tournament's page shows
    no such table (the test above). A few seconds (eight short games of system players)."""
    client: httpx.AsyncClient = await gateway(await start())
    body = {
        "game": "soker",
        "mode": "ROOM_MODE_ONLINE",
        "systemPlayers": 4,
        "thinkSeconds": 0,
        "duplicate": True,
        "options": {"hand_size": 2},
    }
    created = await client.post("/v1/tournaments", json=body)
    assert created.status_code == 201, created.text
    tid = created.json()["tournamentId"]
    page = await pages.new()
    await page.goto(f"{client.base_url}/play#tournament={tid}")
    await expect(page.get_by_test_id("tournament")).to_have_attribute("data-final", "true", timeout=60_000)
    hands = (await client.get(f"/v1/tournaments/{tid}/standings")).json()["hands"]
    rows = page.get_by_test_id("hand")
    await expect(rows).to_have_count(len(hands))
    assert len(hands) == 8, "two deals, four table seats each"
    for index, hand in enumerate(hands):
        deal, seat, played = await rows.nth(index).locator("td").all_inner_texts()
        assert (int(deal), int(seat)) == (hand.get("deal", 0) + 1, hand.get("tableSeat", 0))
        expected = [
            f"{play['name']}: {play.get('points', 0)} points (game {play.get('game', 0) + 1}"
            + (", won)" if play.get("won") else ")")
            for play in hand["plays"]
        ]
        assert played.split("; ") == expected and len(expected) == 4
