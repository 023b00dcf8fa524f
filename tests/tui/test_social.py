"""Issue 48 in the terminal client, with the keys: the inbox's unread count in the lobby and the inbox screen (newest
first, marked read), friends (the friend code, adding by code, a request accepted, the friend's presence, removing),
and the rematch at the end of a game. Against a server with players, friends, inboxes and presence on SQLite."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual.widgets import DataTable

from kickoff.v1 import friend_pb2, player_pb2
from service.settings import PresenceSettings
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from terminal.app import KickoffApp
from terminal.screens.social import InboxScreen
from tests.inbox.conftest import INBOX
from tests.players.conftest import Served
from tests.server.conftest import auth
from tests.servers import Start
from tests.tui.conftest import SIZE, cells, lobby, paged, shown, sign_in, target, until

PRESENCE = PresenceSettings(online_seconds=60, poll_seconds=1, max_followers=3, page_size=5)


@pytest.fixture
async def social(start: Start, tmp_path: Path) -> AsyncIterator[Served]:
    """A server with players, friends, the players' inboxes and presence, on a SQLite file."""
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    yield Served(await start(journal=SqlJournal(create_engine(url)), inbox=INBOX, presence=PRESENCE))


async def befriend_by_code(served: Served, asker: player_pb2.Session, code: str) -> None:
    """``asker`` sends a friend request by ``code``, as another player's client would."""
    request = friend_pb2.SendFriendRequestRequest(friend_code=code)
    await served.harness.friends.SendFriendRequest(request, metadata=auth(asker.access_token))


async def test_the_lobby_counts_unread_items_and_the_inbox_marks_them_read(social: Served) -> None:
    """A friend request reaches the player's inbox: the lobby counts it unread, the inbox lists it newest first as
    new, and Enter marks it read (the lobby's count follows). Buys: the inbox as a person at the terminal uses it."""
    app = KickoffApp(target(social.harness), name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        screen = await lobby(pilot)
        assert shown(app, "#inbox-line") == ""  # (signed out: no inbox)
        await sign_in(pilot)
        await until(pilot, lambda: screen.unread == 0, "the unread count")
        assert "Inbox (b): 0 unread" in shown(app, "#inbox-line")

        code = await app.client.friend_code()
        bo, cy = await social.guest("Bo"), await social.guest("Cy")
        await befriend_by_code(social, bo, code)
        await befriend_by_code(social, cy, code)
        await pilot.press("r")
        await until(pilot, lambda: screen.unread == 2, "two unread items")
        assert "Inbox (b): 2 unread" in shown(app, "#inbox-line")

        await pilot.press("b")
        await until(pilot, lambda: isinstance(app.screen, InboxScreen), "the inbox")
        inbox = app.screen
        assert isinstance(inbox, InboxScreen)
        await paged(pilot, inbox)
        rows = cells(inbox.query_one("#inbox", DataTable))
        assert [(row[0], row[2]) for row in rows] == [
            ("new", "Cy asked to be your friend (f: friends)"),  # (newest first)
            ("new", "Bo asked to be your friend (f: friends)"),
        ]
        assert shown(app, "#inbox-status").startswith("2 unread.")

        await pilot.press("enter")  # marks Cy's item read
        await paged(pilot, inbox, 2)
        rows = cells(inbox.query_one("#inbox", DataTable))
        assert [row[0] for row in rows] == ["", "new"] and inbox.unread == 1

        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen and screen.unread == 1, "the lobby's count")
        assert "Inbox (b): 1 unread" in shown(app, "#inbox-line")
