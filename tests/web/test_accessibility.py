"""The page as axe-core (Deque's accessibility engine, from the npm registry) judges it against WCAG 2.1 A and AA:
the lobby signed out and signed in, a Play now search, the table it lands at, a game's leaderboard, and the friends
panel and inbox have no violation. axe reads the rendered page (colours, names, roles, landmarks), so this catches
what the page's own tests do not look for. (Every screen a test saves as a screenshot is judged the same way:
tests/web/browser.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.servers import Start
from tests.web.browser import Pages, expect, require_browser, violations
from tests.web.test_matches import FILL_SECONDS, Site, play_now, serve
from tests.web.test_players import sign_in
from tests.web.test_social import ask_to_be_friends, guest, social_site

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


async def test_the_inbox_and_the_friends_panel_have_no_wcag_violation(
    start: Start, gateway, tmp_path: Path, pages
) -> None:
    """Issue 48's parts of the lobby, filled: the friends panel with a request received and the inbox open with its
    item. (The rematch, a private table's invitations and watch link, an invitation to answer in the inbox and who sees
    where you are are judged where tests/web/test_social.py draws them.)"""
    social = await social_site(start, gateway, tmp_path)
    page = await pages.new()
    session = await sign_in(page, social, "Ana")
    await ask_to_be_friends(social, await guest(social, "Bo"), session["accessToken"])
    await expect(page.get_by_test_id("friend-request")).to_have_count(1)
    await page.get_by_test_id("inbox-button").click()
    await expect(page.get_by_test_id("inbox-item")).to_have_count(1)
    assert await violations(page) == [], "the lobby with friends and the inbox open"
