"""Issue 48 in the terminal client, with the keys: the inbox's unread count in the lobby and the inbox screen (newest
first, marked read), friends (the friend code, adding by code, a request accepted, the friend's presence, removing),
and the rematch at the end of a game. Against a server with players, friends, inboxes and presence on SQLite."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from google.protobuf import struct_pb2
from textual.widgets import DataTable

from kickoff.v1 import common_pb2, friend_pb2, player_pb2, room_pb2
from service.settings import PresenceSettings
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from terminal.app import KickoffApp, TableScreen
from terminal.screens.social import PRESENCE_TEXT, FriendsScreen, InboxScreen
from tests.inbox.conftest import INBOX
from tests.players.conftest import Served
from tests.server.conftest import auth
from tests.servers import Start
from tests.tui.conftest import SIZE, as_session, at_table, cells, lobby, paged, shown, sign_in, target, until
from tests.tui.test_games import footer_keys

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


async def finished_with(served: Served, app: KickoffApp) -> tuple[str, str]:
    """A Soker game of one-card hands between the app's player (seat 0) and a guest, Bo (seat 1), played to its end
    outside the app; the room's id and Bo's seat token."""
    assert app.client.session is not None
    ana, bo = as_session(app.client.session), await served.guest("Bo")
    options = struct_pb2.Struct()
    options.update({"hand_size": 1})
    request = room_pb2.CreateRoomRequest(
        game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, options=options, think_seconds=0
    )
    created = await served.harness.rooms.CreateRoom(request, metadata=auth(ana.access_token))
    room_id = created.room.room_id
    tokens = {0: created.seat_token, 1: (await served.join(room_id, bo)).seat_token}
    ended = await served.play_out(room_id, tokens)
    assert ended.status == common_pb2.ROOM_STATUS_FINISHED
    return room_id, tokens[1]


def made(screen: TableScreen) -> bool:
    return screen.rematch is not None and screen.rematch.status == room_pb2.REMATCH_STATUS_MADE


def refused(screen: TableScreen) -> bool:
    return screen.rematch is not None and screen.rematch.status == room_pb2.REMATCH_STATUS_REFUSED


async def test_a_rematch_is_proposed_at_the_end_and_the_player_sits_down_in_it(social: Served) -> None:
    """At a finished game the seat proposes a rematch (n), the panel shows each seat's answer, the other player's
    acceptance is read (u) and j sits the player down in the new room. Buys: the rematch from the terminal end to
    end."""
    app = KickoffApp(target(social.harness), name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        room_id, bo_token = await finished_with(social, app)
        await pilot.press("i", *room_id, "enter")  # (the player's seat, taken up again)
        screen = await at_table(pilot)
        await until(pilot, lambda: screen.rematch_looks >= 1, "the rematch read")
        assert screen.finished and "n: propose a rematch" in shown(app, "#rematch")
        assert "Rematch" in footer_keys(app) and "Join rematch" not in footer_keys(app)

        await pilot.press("n")
        await until(pilot, lambda: screen.rematch is not None, "the proposal")
        text = shown(app, "#rematch")
        assert "Proposed by you" in text and "Ana (you): accepted" in text and "Bo: asked" in text, text
        assert "Waiting for the others" in text and "Rematch" not in footer_keys(app)

        request = room_pb2.AnswerRematchRequest(room_id=room_id, accept=True)
        await social.harness.rooms.AnswerRematch(request, metadata=auth(bo_token))
        await pilot.press("u")
        await until(pilot, lambda: made(screen), "the rematch made")
        assert screen.rematch is not None and screen.rematch.room_id
        assert f"Made: room {screen.rematch.room_id}. j: join it" in shown(app, "#rematch")

        await pilot.press("j")
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen is not screen, "the new table")
        again = await at_table(pilot, turn=False)
        assert again.room_id == screen.rematch.room_id and again.viewer == 0 and again.held
        assert again.status == common_pb2.ROOM_STATUS_PLAYING  # (everyone accepted: the game began at once)


async def test_a_seat_asked_for_a_rematch_declines_it(social: Served) -> None:
    """The other player proposes; the seat sees it asked, declines (d), and the panel says there is no rematch.
    Buys: the answer keys and the refused state."""
    app = KickoffApp(target(social.harness), name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        room_id, bo_token = await finished_with(social, app)
        await social.harness.rooms.ProposeRematch(
            room_pb2.ProposeRematchRequest(room_id=room_id), metadata=auth(bo_token)
        )
        await pilot.press("i", *room_id, "enter")
        screen = await at_table(pilot)
        await until(pilot, lambda: screen.rematch_looks >= 1, "the rematch read")
        text = shown(app, "#rematch")
        assert "Proposed by Bo" in text and "Ana (you): asked" in text and "y: accept, d: decline" in text, text
        assert {"Accept rematch", "Decline"} <= footer_keys(app)

        await pilot.press("d")
        await until(pilot, lambda: refused(screen), "the answer")
        text = shown(app, "#rematch")
        assert "Ana (you): declined" in text and "No rematch: a player declined" in text, text
        assert not {"Accept rematch", "Decline", "Join rematch", "Rematch"} & footer_keys(app)


async def test_the_friends_screen_shows_the_code_answers_a_request_and_adds_by_code(social: Served) -> None:
    """The friends screen (f) shows the player's friend code; a request received is accepted (a) and the friend is
    listed with their presence; a code typed in sends a request; R removes a friend. Buys: the friends panel."""
    app = KickoffApp(target(social.harness), name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        code = await app.client.friend_code()
        bo, cy = await social.guest("Bo"), await social.guest("Cy")
        await befriend_by_code(social, bo, code)
        cy_code = (
            await social.harness.friends.GetFriendCode(
                friend_pb2.GetFriendCodeRequest(), metadata=auth(cy.access_token)
            )
        ).friend_code

        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, FriendsScreen) and app.screen.loads >= 1, "friends")
        friends = app.screen
        assert isinstance(friends, FriendsScreen)
        assert f"Your friend code: {code}" in shown(app, "#friend-code"), shown(app, "#friends-status")
        table = friends.query_one("#friends", DataTable)
        assert cells(table) == [["Bo", "asks you", "a: accept, x: decline"]]

        await pilot.press("a")
        await until(pilot, lambda: friends.loads >= 2, "the acceptance")
        [[name, what, now]] = cells(table)
        seen = (await app.client.presence()).get(bo.player.player_id)  # (what PresenceService says of Bo)
        assert (name, what, now) == ("Bo", "friend", PRESENCE_TEXT[seen.state] if seen is not None else "hidden")
        assert shown(app, "#friends-status") == "Accepted: you are friends."

        await pilot.press("c", *cy_code, "enter")
        await until(pilot, lambda: friends.loads >= 3, "the request sent")
        assert ["Cy", "asked", "waiting for their answer"] in cells(table)
        assert shown(app, "#friends-status") == "Asked Cy: they are your friend once they accept."

        await pilot.press("R")  # the cursor is on Bo, the friend
        await until(pilot, lambda: friends.loads >= 4, "the removal")
        assert [row[0] for row in cells(table)] == ["Cy"]
