"""The page as axe-core (Deque's accessibility engine, from the npm registry) judges it against WCAG 2.1 A and AA:
the lobby signed out and signed in, a Play now search, the table it lands at, and a game's leaderboard have no
violation. axe reads the rendered page (colours, names, roles, landmarks), so this catches what the page's own tests
do not look for. (Every screen a test saves as a screenshot is judged the same way: tests/web/browser.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.servers import Start
from tests.web.browser import Pages, expect, require_browser, violations
from tests.web.test_matches import FILL_SECONDS, Site, play_now, serve

require_browser()


@pytest.fixture
async def site(start: Start, gateway, tmp_path: Path) -> Site:
    return await serve(start, gateway, tmp_path)


async def test_the_lobby_a_search_its_table_and_a_leaderboard_have_no_wcag_violation(site: Site, pages: Pages) -> None:
    page = await pages.new()
    await page.goto(f"{site.base}/play")
    await expect(page.get_by_role("button", name="Play now: Soker")).to_be_visible()
    assert await violations(page) == [], "the lobby, signed out"
    await play_now(page, site, "Ana")
    assert await violations(page) == [], "the lobby, signed in and searching"
    await site.queue.turn(FILL_SECONDS)
    await expect(page.get_by_test_id("turn")).to_have_text("Your turn.")
    assert await violations(page) == [], "the table"
    await page.goto(f"{site.base}/play#leaderboard=soker")
    await expect(page.get_by_role("heading", name="Soker leaderboard")).to_be_visible()
    assert await violations(page) == [], "a leaderboard"
