"""Playing with people you know, on the page (issue 48), on a server with players, friends and inboxes (SQLite): the
inbox in the header with its unread count, following new items live and marking them read; the rematch button at the
end of a game, proposed on one person's page and accepted on the other's, each page then going to the new table."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from tests.inbox.conftest import INBOX
from tests.players.conftest import Served
from tests.servers import Start
from tests.web.browser import Pages, expect, require_browser, violations
from tests.web.test_players import Site, bearer, sign_in

require_browser()


@pytest.fixture
async def site(start: Start, gateway, tmp_path: Path) -> AsyncIterator[Site]:
    """Players, friends and inboxes on a SQLite file."""
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    harness = await start(journal=SqlJournal(create_engine(url)), inbox=INBOX)
    yield Site(Served(harness), await gateway(harness))


async def guest(site: Site, name: str) -> dict[str, Any]:
    answer = await site.client.post("/v1/players/guest", json={"name": name})
    assert answer.status_code == 201, answer.text
    return answer.json()["session"]  # type: ignore[no-any-return]


async def ask_to_be_friends(site: Site, asker: dict[str, Any], token: str) -> None:
    """`asker` sends a friend request to the player of `token`, by that player's friend code."""
    code = (await site.get("/v1/friends/code", token)).json()["friendCode"]
    sent = await site.client.post(
        "/v1/friends/requests", json={"friendCode": code}, headers=bearer(asker["accessToken"])
    )
    assert sent.status_code == 201, sent.text


async def test_the_inbox_counts_unread_items_as_they_come_and_marks_them_read(site: Site, pages: Pages) -> None:
    """The header's unread count follows the inbox live (two friend requests arrive while the page is open), the
    panel lists them newest first in words, and marking read (one, then all) brings the count down, also after a
    reload. Buys: the inbox's list, stream and mark-read calls wired to what a person sees. (~3 s)"""
    page = await pages.new()
    session = await sign_in(page, site, "Ana")
    button = page.get_by_test_id("inbox-button")
    badge = page.get_by_test_id("inbox-unread")
    await expect(button).to_be_visible()
    await expect(button).to_have_attribute("aria-label", "Inbox, nothing unread")
    await expect(badge).to_be_hidden()

    bo, cy = await guest(site, "Bo"), await guest(site, "Cy")
    await ask_to_be_friends(site, bo, session["accessToken"])
    await expect(badge).to_have_text("1")
    await ask_to_be_friends(site, cy, session["accessToken"])
    await expect(badge).to_have_text("2")
    await expect(button).to_have_attribute("aria-label", "Inbox, 2 unread")

    await button.click()
    await expect(button).to_have_attribute("aria-expanded", "true")
    items = page.get_by_test_id("inbox-item")
    await expect(items).to_have_text(
        ["New: Cy asked to be your friend. Mark read", "New: Bo asked to be your friend. Mark read"]
    )
    assert await violations(page) == [], "the lobby with the inbox open"
    await items.nth(1).get_by_test_id("inbox-mark-read").click()
    await expect(badge).to_have_text("1")
    await expect(items.nth(1)).to_have_attribute("data-read", "true")
    await expect(items.nth(0)).to_have_attribute("data-read", "false")
    await page.get_by_test_id("inbox-mark-all").click()
    await expect(badge).to_be_hidden()
    await expect(items.nth(0)).to_have_attribute("data-read", "true")

    listed = (await site.get("/v1/inbox", session["accessToken"])).json()
    assert listed["unreadCount"] == 0 and all(item["read"] for item in listed["items"]), "the server was told"
    await page.reload()
    await expect(page.get_by_test_id("inbox-button")).to_have_attribute("aria-label", "Inbox, nothing unread")

    await page.get_by_test_id("sign-out").click()
    await expect(page.get_by_test_id("inbox-button")).to_be_hidden()
