"""Issue 48 in the terminal client, with the keys: the inbox's unread count in the lobby and the inbox screen (newest
first, marked read), friends (the friend code, adding by code, a request accepted, the friend's presence, removing),
and the rematch at the end of a game. Against a server with players, friends, inboxes and presence on SQLite."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from google.protobuf import struct_pb2
from textual import events
from textual.widgets import DataTable, Input, OptionList

from kickoff.v1 import common_pb2, friend_pb2, player_pb2, presence_pb2, presence_pb2_grpc, room_pb2
from service.settings import PresenceSettings
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from terminal.app import KickoffApp, TableScreen
from terminal.client import link_room
from terminal.screens.private import InviteScreen, JoinLinkScreen
from terminal.screens.social import PRESENCE_TEXT, FriendsScreen, InboxScreen, RoomInvitationsScreen
from tests.inbox.conftest import INBOX
from tests.players.conftest import Served
from tests.server.conftest import auth
from tests.servers import Start
from tests.tui.conftest import (
    SIZE,
    as_session,
    at_table,
    cells,
    create_room,
    lobby,
    paged,
    rooms,
    shown,
    sign_in,
    target,
    until,
)
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


# -- private tables, invitations to a room, presence visibility --------------------------------------------------------


async def friends_with(served: Served, app: KickoffApp, name: str) -> player_pb2.Session:
    """A guest who asked the app's player to be friends by their code, accepted through the app's client."""
    other = await served.guest(name)
    await befriend_by_code(served, other, await app.client.friend_code())
    await app.client.accept_friend(other.player.player_id)
    return other


async def unlisted_room(served: Served, creator: player_pb2.Session) -> room_pb2.CreateRoomResponse:
    """A waiting two-seat Soker room, unlisted, that ``creator`` made and sits in."""
    request = room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, unlisted=True)
    return await served.harness.rooms.CreateRoom(request, metadata=auth(creator.access_token))


async def test_an_unlisted_room_is_made_and_its_seat_makes_a_link_to_copy(social: Served) -> None:
    """ "Unlisted" in the room form makes a private table (signing in first): it is in nobody's lobby, yet its table
    opens for the seat; i, then l makes a single-use link whose token c copies, and the other choice a link of many
    uses. Buys: a private table made and shared from the terminal."""
    app = KickoffApp(target(social.harness), name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        await create_room(pilot, "soker", seats=2, unlisted=True)
        screen = await at_table(pilot, turn=False)
        assert app.client.signed_in and screen.room is not None and screen.room.unlisted and screen.viewer == 0
        assert screen.room_id not in [room.room_id for room in await rooms(social.harness)]
        assert "Invite" in footer_keys(app)

        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, InviteScreen), "the invitations")
        invite = app.screen
        assert isinstance(invite, InviteScreen)
        assert "Make a link" in footer_keys(app) and "Copy it" not in footer_keys(app)
        await pilot.press("l")
        await until(pilot, lambda: invite.link is not None, "the link")
        assert invite.link is not None
        token = invite.link.token
        assert "good for 1 join until" in shown(app, "#invite-link") and token in shown(app, "#invite-link")
        assert link_room(token) == screen.room_id and invite.link.url == f"/play#join={token}"
        await pilot.press("c")
        assert app.clipboard == token and "copied" in shown(app, "#invite-status")
        seen = await social.harness.rooms.GetRoom(
            room_pb2.GetRoomRequest(room_id=screen.room_id, invitation_token=token)  # (the link's holder sees it)
        )
        assert seen.room.unlisted

        await pilot.press("enter", "down", "enter", "l")  # many joins: the server's most
        await until(pilot, lambda: invite.link is not None and invite.link.token != token, "the second link")
        assert invite.link is not None and invite.link.link.max_uses > 1
        assert f"good for {invite.link.link.max_uses} joins" in shown(app, "#invite-link")


async def test_a_pasted_link_seats_the_player_at_a_private_table(social: Served) -> None:
    """k in the lobby takes a pasted link: text that is no link is refused with a reason and nothing joined; the
    whole link (an address ending in #join=<token>) seats the anonymous player in the unlisted room and opens its
    table. Buys: joining a private table from the terminal with what a friend sent."""
    bo = await social.guest("Bo")
    created = await unlisted_room(social, bo)
    made = await social.harness.rooms.CreateInvitationLink(
        room_pb2.CreateInvitationLinkRequest(room_id=created.room.room_id, max_uses=1),
        metadata=auth(created.seat_token),
    )
    app = KickoffApp(target(social.harness), name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        await lobby(pilot)
        await pilot.press("k")
        await until(pilot, lambda: isinstance(app.screen, JoinLinkScreen), "the link form")
        field = app.screen.query_one("#link-input", Input)
        field.post_message(events.Paste("see you at the table"))
        await pilot.press("enter")
        await until(pilot, lambda: "Not joined" in shown(app, "#link-hint"), "the refusal")
        assert "not an invitation link" in shown(app, "#link-hint") and isinstance(app.screen, JoinLinkScreen)

        await pilot.press("ctrl+u")  # (the text typed, cleared)
        field.post_message(events.Paste(f"https://kickoff.example{made.url}"))
        await pilot.press("enter")
        screen = await at_table(pilot, turn=False)
        assert screen.room_id == created.room.room_id and screen.viewer == 1 and not screen.held
        assert screen.room is not None and screen.room.unlisted
        assert [seat.name for seat in screen.room.seats if seat.taken] == ["Bo", "Ana"]


async def test_a_seated_player_invites_a_friend_from_the_waiting_table(social: Served) -> None:
    """At a waiting table, i lists the player's friends and Enter invites the highlighted one: the friend has the
    invitation from the player to that room. Buys: inviting a friend from the terminal."""
    app = KickoffApp(target(social.harness), name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        bo = await friends_with(social, app, "Bo")
        await create_room(pilot, "soker", seats=2, online=True)
        screen = await at_table(pilot, turn=False)

        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, InviteScreen) and app.screen.loads >= 1, "the friends")
        invite = app.screen
        assert isinstance(invite, InviteScreen) and "Make a link" not in footer_keys(app)  # (a listed room)
        options = invite.query_one("#invite-friends", OptionList)
        assert [str(option.prompt) for option in options.options] == ["Bo"] and options.has_focus
        await pilot.press("enter")
        await until(pilot, lambda: invite.loads >= 2, "the invitation")
        assert shown(app, "#invite-status").startswith("Bo is invited"), shown(app, "#invite-status")
        listed = await social.harness.rooms.ListRoomInvitations(
            room_pb2.ListRoomInvitationsRequest(), metadata=auth(bo.access_token)
        )
        assert [(i.room_id, i.from_name) for i in listed.received] == [(screen.room_id, "Ana")]


async def test_an_invitation_to_a_room_is_declined_or_accepted_and_accepting_opens_the_table(social: Served) -> None:
    """A friend invites the player to two private tables: t in the lobby lists both; x declines one, Enter accepts the
    other, which seats the player and opens that table. Buys: answering invitations from the
    terminal."""
    app = KickoffApp(target(social.harness), name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        ana = await sign_in(pilot)
        bo = await friends_with(social, app, "Bo")
        first, second = await unlisted_room(social, bo), await unlisted_room(social, bo)
        for room in (first, second):
            request = room_pb2.InviteToRoomRequest(room_id=room.room.room_id, player_id=ana.player.player_id)
            await social.harness.rooms.InviteToRoom(request, metadata=auth(bo.access_token))

        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, RoomInvitationsScreen), "the invitations")
        invitations = app.screen
        assert isinstance(invitations, RoomInvitationsScreen)
        await until(pilot, lambda: invitations.loads >= 1, "the list")
        table = invitations.query_one("#invitations", DataTable)
        rows = cells(table)
        assert sorted(row[:3] for row in rows) == sorted(
            ["Bo invites you", "soker", room.room.room_id] for room in (first, second)
        )  # (latest first: these two were sent in the same second)
        assert shown(app, "#invitations-status").startswith("2 invitations to answer")
        declined, kept = rows[0][2], rows[1][2]

        await pilot.press("x")  # the highlighted one, the first line
        await until(pilot, lambda: invitations.loads >= 2, "the decline")
        assert [row[2] for row in cells(table)] == [kept]
        assert shown(app, "#invitations-status") == "Declined Bo's invitation."
        sent = await social.harness.rooms.ListRoomInvitations(
            room_pb2.ListRoomInvitationsRequest(), metadata=auth(bo.access_token)
        )
        assert declined != kept and [i.room_id for i in sent.sent] == [kept]  # (Bo's list no longer has it)

        await pilot.press("enter")
        screen = await at_table(pilot, turn=False)
        assert screen.room_id == kept and screen.viewer == 1 and screen.held
        assert screen.status == common_pb2.ROOM_STATUS_PLAYING  # (the table was full: the game began)


async def test_the_friends_screen_shows_and_changes_who_sees_the_players_presence(social: Served) -> None:
    """The friends screen says who sees the player's presence; v hides it (a friend then sees the player away) and
    v again shows it to friends. Buys: presence visibility from the terminal."""
    app = KickoffApp(target(social.harness), name="Ana")
    async with app.run_test(size=SIZE) as pilot:
        ana = await sign_in(pilot)
        bo = await friends_with(social, app, "Bo")

        async def seen_by_bo() -> int:
            await social.harness.presence.flush()  # (Ana's calls made her online: written now, not on the next round)
            stub = presence_pb2_grpc.PresenceServiceStub(social.harness.channel)
            answer = await stub.GetPresence(presence_pb2.GetPresenceRequest(), metadata=auth(bo.access_token))
            return next(friend.state for friend in answer.friends if friend.player_id == ana.player.player_id)

        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, FriendsScreen) and app.screen.loads >= 1, "friends")
        friends = app.screen
        assert isinstance(friends, FriendsScreen)
        assert shown(app, "#presence-line").startswith("Your presence: your friends see it")
        assert await seen_by_bo() == presence_pb2.PRESENCE_STATE_ONLINE

        await pilot.press("v")
        await until(pilot, lambda: friends.loads >= 2, "the change")
        assert shown(app, "#presence-line").startswith("Your presence: hidden")
        assert shown(app, "#friends-status") == "Nobody sees your presence now."
        assert await seen_by_bo() == presence_pb2.PRESENCE_STATE_AWAY

        await pilot.press("v")
        await until(pilot, lambda: friends.loads >= 3, "the change back")
        assert shown(app, "#presence-line").startswith("Your presence: your friends see it")
        assert (await app.client.friends_presence()).visibility == presence_pb2.PRESENCE_VISIBILITY_FRIENDS
