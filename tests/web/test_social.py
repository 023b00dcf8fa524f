"""Playing with people you know, on the page (issue 48), on a server with players, friends, presence and inboxes
(SQLite): the inbox in the header with its unread count, following new items live and marking them read; the rematch
button at the end of a game, proposed on one person's page and accepted on the other's, each page then going to the
new table; the friends panel, a friend added by code and followed live, and who sees where you are; a friend's
invitation answered in the inbox; a private table watched through its watch link."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kickoff.v1 import common_pb2
from service.presence.presence import AT_TABLE
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from tests.inbox.conftest import INBOX
from tests.players.conftest import Served
from tests.presence.conftest import SETTINGS as PRESENCE
from tests.presence.conftest import Node
from tests.servers import Start
from tests.web.browser import Page, Pages, expect, require_browser, stand_still, violations
from tests.web.leaks import check_spectator_page
from tests.web.test_play import feed_lines
from tests.web.test_players import Site, bearer, create_room, seat_held, sign_in

require_browser()


async def social_site(start: Start, gateway, tmp_path: Path) -> Site:
    """Players, friends, presence and inboxes on a SQLite file (presence rounds run when a test says)."""
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    harness = await start(journal=SqlJournal(create_engine(url)), inbox=INBOX, presence=PRESENCE)
    return Site(Served(harness), await gateway(harness))


@pytest.fixture
async def site(start: Start, gateway, tmp_path: Path) -> Site:
    return await social_site(start, gateway, tmp_path)


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


async def finished_between(site: Site, ana: dict[str, Any], bo: dict[str, Any]) -> str:
    """A Soker game of one-card hands that Ana made and Bo joined (both signed in), played to its end; its room id."""
    body = {"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 2, "thinkSeconds": 0, "options": {"hand_size": 1}}
    made = await site.client.post("/v1/rooms", json=body, headers=bearer(ana["accessToken"]))
    assert made.status_code in (200, 201), made.text
    room_id = made.json()["roomId"]  # (REST answers the room; Ana's seat token is taken up below)
    joined = await site.client.post(f"/v1/rooms/{room_id}/seats", json={}, headers=bearer(bo["accessToken"]))
    assert joined.status_code in (200, 201), joined.text
    mine = await site.client.post(f"/v1/rooms/{room_id}/my-seat", headers=bearer(ana["accessToken"]))
    tokens = {0: mine.json()["seatToken"], 1: joined.json()["seatToken"]}
    ended = await site.served.play_out(room_id, tokens)
    assert ended.status == common_pb2.ROOM_STATUS_FINISHED
    return room_id


async def test_a_rematch_is_proposed_on_one_page_accepted_on_the_other_and_both_go_to_the_new_table(
    site: Site, pages: Pages
) -> None:
    """At the end of a game between two signed-in players, Ana proposes a rematch and sees whom it waits for; Bo's
    page learns of it from his inbox at once and offers to accept; once he accepts, both pages offer the new table
    (Ana's by asking the room again a few seconds later on her page's clock) and each takes its own seat there.
    Buys: the rematch calls wired to the outcome panel, for both people. (~5 s)"""
    ana_page = await stand_still(await pages.new())
    bo_page = await pages.new()
    ana = await sign_in(ana_page, site, "Ana")
    bo = await sign_in(bo_page, site, "Bo")
    room_id = await finished_between(site, ana, bo)
    for page, seat in ((ana_page, "0"), (bo_page, "1")):
        await page.goto(f"{site.base}/play#room={room_id}")
        await expect(page.get_by_test_id("room")).to_have_attribute("data-viewer", seat)
        await expect(page.get_by_test_id("rematch-propose")).to_be_visible()

    await ana_page.get_by_test_id("rematch-propose").click()
    await expect(ana_page.get_by_test_id("rematch-status")).to_have_text("You proposed a rematch: waiting for Bo.")
    await expect(ana_page.get_by_test_id("rematch-accept")).to_have_count(0)
    await expect(bo_page.get_by_test_id("rematch-status")).to_have_text("Ana proposed a rematch: waiting for you.")
    await expect(bo_page.get_by_test_id("inbox-unread")).to_have_text("1")
    assert await violations(bo_page) == [], "the outcome with a rematch to answer"

    await bo_page.get_by_test_id("rematch-accept").click()
    await expect(bo_page.get_by_test_id("rematch-status")).to_have_text("The rematch is ready.")
    new_room = (await site.get(f"/v1/rooms/{room_id}")).json()["rematch"]["roomId"]
    await bo_page.get_by_test_id("rematch-go").click()
    await expect(bo_page.get_by_test_id("room")).to_have_attribute("data-room", new_room)
    await expect(bo_page.get_by_test_id("room")).to_have_attribute("data-viewer", "1")

    await ana_page.clock.run_for(5_000)  # (the page asks the room again)
    await expect(ana_page.get_by_test_id("rematch-status")).to_have_text("The rematch is ready.")
    await ana_page.get_by_test_id("rematch-go").click()
    await expect(ana_page.get_by_test_id("room")).to_have_attribute("data-room", new_room)
    await expect(ana_page.get_by_test_id("room")).to_have_attribute("data-viewer", "0")
    await expect(ana_page.get_by_test_id("turn")).not_to_have_text("Loading…")


async def test_two_players_become_friends_by_code_see_each_other_live_and_part(site: Site, pages: Pages) -> None:
    """Bo's page shows his friend code; Ana types it into hers and sends a request; Bo's page lists the request at
    once (his inbox brought it) and he accepts; Ana's list shows Bo as a friend, and where he is follows his presence
    live (online, then at a table once he opens one, with a link to watch); then Ana removes him. Buys: the friends
    panel's calls and the presence stream wired to what each person sees. (~6 s)"""
    ana_page, bo_page = await pages.new(), await pages.new()
    await sign_in(ana_page, site, "Ana")
    bo = await sign_in(bo_page, site, "Bo")
    bo_code = bo_page.get_by_test_id("friend-code")
    await expect(bo_code).to_have_text(re.compile(r"\S+"))
    code = await bo_code.inner_text()
    assert code == (await site.get("/v1/friends/code", bo["accessToken"])).json()["friendCode"]

    await ana_page.get_by_test_id("friend-code-input").fill(code)
    await ana_page.get_by_test_id("friend-add").click()
    await expect(ana_page.get_by_test_id("friends-status")).to_have_text("Request sent to Bo.")
    await expect(ana_page.get_by_test_id("friend-request-sent")).to_have_text(["Bo: waiting for an answer"])
    request = bo_page.get_by_test_id("friend-request")
    await expect(request).to_have_text(["Ana Accept Decline"])
    assert await violations(bo_page) == [], "the friends panel with a request"
    await request.get_by_test_id("friend-accept").click()
    await expect(bo_page.get_by_test_id("friend")).to_have_count(1)

    friend = ana_page.get_by_test_id("friend")
    await expect(friend).to_have_count(1)
    await expect(friend.locator("strong")).to_have_text("Bo")
    await site.served.harness.presence.round()
    await expect(friend.get_by_test_id("friend-presence")).to_have_text("online")
    room_id = await create_room(bo_page, site, mode="online", seats=2)
    node = Node(site.served.harness, "")
    await node.until(lambda: node.presence.spot(bo["player"]["playerId"]).state == AT_TABLE)  # (his table's stream)
    await site.served.harness.presence.round()
    await expect(friend.get_by_test_id("friend-presence")).to_have_text("at a table")
    await expect(friend.get_by_test_id("friend-watch")).to_have_attribute("href", f"#room={room_id}&watch")

    await friend.get_by_test_id("friend-remove").click()
    await expect(ana_page.get_by_test_id("friends-status")).to_have_text("Bo is no longer your friend.")
    await expect(friend).to_have_count(0)
    listed = (await site.get("/v1/friends", bo["accessToken"])).json()
    assert not listed.get("friends"), "the server was told"


async def befriend(site: Site, asker: dict[str, Any], answerer: dict[str, Any]) -> None:
    """`asker` and `answerer` become friends (a request by code, accepted)."""
    await ask_to_be_friends(site, asker, answerer["accessToken"])
    accepted = await site.client.post(
        f"/v1/friends/requests/{asker['player']['playerId']}/accept", headers=bearer(answerer["accessToken"])
    )
    assert accepted.status_code == 200, accepted.text


async def create_private_table(page: Page) -> str:
    """Creates a two-seat online Soker room, unlisted, with the lobby's form (the page is in the lobby, signed in);
    its id, once the page shows its table with seat 0 taken."""
    await expect(page.get_by_test_id("game")).not_to_have_count(0)
    await page.get_by_test_id("create-game").select_option("soker")
    await page.get_by_test_id("create-seats").select_option("2")
    await page.get_by_test_id("create-mode").select_option("online")
    await page.get_by_test_id("create-system").fill("0")
    await page.get_by_test_id("create-unlisted").check()
    await page.get_by_test_id("create-think").fill("0")
    await page.get_by_test_id("create-submit").click()
    room = page.get_by_test_id("room")
    await expect(room).to_have_attribute("data-viewer", "0")
    room_id = await room.get_attribute("data-room")
    assert room_id
    await expect(page.get_by_test_id("turn")).to_have_text("Waiting for players: 1 free seat.")
    return room_id


async def test_a_private_table_is_joined_by_its_invitation_link_and_a_friend_is_invited(
    site: Site, pages: Pages
) -> None:
    """Ana, signed in, creates a private (unlisted) room in the lobby; at its table she makes an invitation link and
    invites her friend Cy (his inbox gets it). Bo, not signed in, opens the link: his page takes a seat with it and
    shows him the table, and the game starts on both pages; the lobby never lists the room. Buys: the unlisted room
    shown to its seated people (the room read with their token), the link made and opened, a friend invited. (~5 s)"""
    ana_page, bo_page = await pages.new(), await pages.new()
    ana = await sign_in(ana_page, site, "Ana")
    cy = await guest(site, "Cy")
    await befriend(site, cy, ana)

    room_id = await create_private_table(ana_page)
    assert (await site.get(f"/v1/rooms/{room_id}")).status_code == 404, "nobody else finds the room"

    await ana_page.get_by_test_id("invite-friend").select_option(label="Cy")
    await ana_page.get_by_test_id("invite-friend-send").click()
    await expect(ana_page.get_by_test_id("invite-status")).to_have_text("Cy is invited.")
    items = (await site.get("/v1/inbox", cy["accessToken"])).json()["items"]
    assert [item["data"]["room_id"] for item in items if item["kind"] == "room.invited"] == [room_id], items

    await ana_page.get_by_test_id("invite-link-make").click()
    link = ana_page.get_by_test_id("invite-link")
    await expect(link).to_have_value(re.compile(rf"^{re.escape(site.base)}/play#join=\S+$"))
    assert await violations(ana_page) == [], "a private table's invitations"
    await bo_page.goto(await link.input_value())
    await expect(bo_page.get_by_test_id("room")).to_have_attribute("data-room", room_id)
    await expect(bo_page.get_by_test_id("room")).to_have_attribute("data-viewer", "1")
    await expect(ana_page.get_by_test_id("invite")).to_be_hidden()  # (the room is full: it plays)
    await expect(ana_page.get_by_test_id("turn")).not_to_have_text(re.compile("Waiting for players"))
    await bo_page.goto(f"{site.base}/play")
    await expect(bo_page.get_by_test_id("rooms")).to_have_text("No rooms yet: create one.")  # (the lobby lists none)


async def test_people_not_signed_in_play_a_rematch_with_the_seat_tokens_their_answers_give(
    site: Site, pages: Pages
) -> None:
    """Two anonymous seats (no player, so no inbox): Bo's page learns of Ana's proposal by reading the room again a
    few seconds later on its clock; once he accepts and she asks again, each page goes to the new table with the seat
    token its acceptance's answer carries. Buys: the rematch for people who never signed in. (~4 s)"""
    body = {"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 2, "thinkSeconds": 0, "options": {"hand_size": 1}}
    room_id = (await site.client.post("/v1/rooms", json=body)).json()["roomId"]
    held = {}
    for name in ("Ana", "Bo"):
        joined = (await site.client.post(f"/v1/rooms/{room_id}/seats", json={"name": name})).json()
        held[joined.get("seat", 0)] = {"seat": joined.get("seat", 0), "token": joined["seatToken"], "name": name}
    ended = await site.served.play_out(room_id, {seat: each["token"] for seat, each in held.items()})
    assert ended.status == common_pb2.ROOM_STATUS_FINISHED
    ana_page, bo_page = await stand_still(await pages.new()), await stand_still(await pages.new())
    for page, seat in ((ana_page, 0), (bo_page, 1)):
        await page.goto(f"{site.base}/play")
        await page.evaluate(
            "([key, held]) => sessionStorage.setItem(key, JSON.stringify(held))",
            [f"kickoff:seat:{room_id}", held[seat]],
        )
        await page.goto(f"{site.base}/play#room={room_id}")
        await expect(page.get_by_test_id("rematch-propose")).to_be_visible()

    await ana_page.get_by_test_id("rematch-propose").click()
    await expect(ana_page.get_by_test_id("rematch-status")).to_have_text("You proposed a rematch: waiting for Bo.")
    await bo_page.clock.run_for(5_000)
    await expect(bo_page.get_by_test_id("rematch-status")).to_have_text("Ana proposed a rematch: waiting for you.")
    await bo_page.get_by_test_id("rematch-accept").click()
    await bo_page.get_by_test_id("rematch-go").click()
    new_room = (await site.get(f"/v1/rooms/{room_id}")).json()["rematch"]["roomId"]
    await expect(bo_page.get_by_test_id("room")).to_have_attribute("data-room", new_room)
    await expect(bo_page.get_by_test_id("room")).to_have_attribute("data-viewer", "1")
    await ana_page.clock.run_for(5_000)
    await ana_page.get_by_test_id("rematch-go").click()
    await expect(ana_page.get_by_test_id("room")).to_have_attribute("data-room", new_room)
    await expect(ana_page.get_by_test_id("room")).to_have_attribute("data-viewer", "0")


async def test_a_friend_declines_an_invitation_in_the_inbox_then_accepts_the_next_and_is_at_the_table(
    site: Site, pages: Pages
) -> None:
    """Ana invites her friend Cy to her private table from her page; Cy's inbox shows the invitation at once with
    Accept and Decline. He declines: the item is read, with nothing to answer, and the server holds no invitation for
    him. Ana invites him again; he accepts on his page and is seated at the table (seat 1, his hand), and the game
    starts on Ana's page. Buys: AcceptRoomInvitation and DeclineRoomInvitation wired to the inbox, for the person
    invited. (~6 s)"""
    ana_page, cy_page = await pages.new(), await pages.new()
    ana = await sign_in(ana_page, site, "Ana")
    cy = await sign_in(cy_page, site, "Cy")
    await befriend(site, cy, ana)
    room_id = await create_private_table(ana_page)
    invite = ana_page.get_by_test_id("invite-friend-send")

    await ana_page.get_by_test_id("invite-friend").select_option(label="Cy")
    await invite.click()
    await expect(ana_page.get_by_test_id("invite-status")).to_have_text("Cy is invited.")
    await expect(cy_page.get_by_test_id("inbox-unread")).to_have_text("2")  # (Ana's acceptance, then the invitation)
    await cy_page.get_by_test_id("inbox-button").click()
    item = cy_page.get_by_test_id("inbox-item").filter(has_text="invited you")
    await expect(item).to_have_text("New: Ana invited you to a soker table. Accept Decline Mark read")
    assert await violations(cy_page) == [], "the inbox with an invitation to answer"
    await item.get_by_test_id("inbox-decline").click()
    await expect(cy_page.get_by_test_id("inbox-status")).to_have_text("The invitation is declined.")
    await expect(item).to_have_text("Ana invited you to a soker table.")  # (read, nothing to answer)
    await expect(cy_page.get_by_test_id("inbox-unread")).to_have_text("1")
    assert not (await site.get("/v1/room-invitations", cy["accessToken"])).json().get("received"), "the server knows"

    await invite.click()
    await expect(cy_page.get_by_test_id("inbox-unread")).to_have_text("2")
    await expect(item).to_have_count(2)
    await expect(item.nth(1).get_by_test_id("inbox-accept")).to_have_count(0)  # (the declined one)
    await item.nth(0).get_by_test_id("inbox-accept").click()
    room = cy_page.get_by_test_id("room")
    await expect(room).to_have_attribute("data-room", room_id)
    await expect(room).to_have_attribute("data-viewer", "1")
    await expect(cy_page.get_by_test_id("role")).to_contain_text("You play seat 1")
    await expect(cy_page.get_by_test_id("inbox")).to_be_hidden()
    await expect(ana_page.get_by_test_id("turn")).not_to_have_text(re.compile("Waiting for players"))
    await expect(cy_page.get_by_test_id("hand-cards")).not_to_have_count(0)


async def play_out_over_rest(site: Site, room_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Plays every seat of an unlisted room (its seat tokens: the room is hidden from anyone else) with the last legal
    move each time, until the game ends; the room as it ended."""
    for _ in range(2_000):
        view = (await site.get(f"/v1/rooms/{room_id}/view", tokens[0])).json()
        if not view.get("toAct"):
            break
        seat = view["toAct"][0]
        legal = (await site.get(f"/v1/rooms/{room_id}/legal-moves", tokens[seat])).json()
        if not legal.get("moves"):
            await site.served.harness.directory.get(room_id).actor.settle()
            continue
        body = {"move": legal["moves"][-1], "expectedVersion": legal["version"]}
        await site.client.post(f"/v1/rooms/{room_id}/moves", json=body, headers=bearer(tokens[seat]))
    room = (await site.get(f"/v1/rooms/{room_id}", tokens[0])).json()
    assert room["status"] == "ROOM_STATUS_FINISHED", room
    return room  # type: ignore[no-any-return]


async def test_a_private_table_is_watched_by_its_watch_link_and_the_watcher_sees_no_hidden_card(
    site: Site, pages: Pages
) -> None:
    """Ana, seated at her private table, makes a watch link on her page; a page nobody signed in on opens it and
    watches the game as a spectator (no hand, no moves) to its end, reading the room, its view and its event stream
    with the link's token; no drawing of it shows a card hidden from spectators. A link this page cannot read says
    so. Buys: `#watch=<token>` wired to the table's reads, and the link made where a seated person sees it. (~5 s)"""
    ana_page = await pages.new()
    ana = await sign_in(ana_page, site, "Ana")
    body = {"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 2, "thinkSeconds": 0, "unlisted": True}
    made = await site.client.post(
        "/v1/rooms", json=body | {"options": {"hand_size": 3}}, headers=bearer(ana["accessToken"])
    )
    assert made.status_code in (200, 201), made.text
    room_id = made.json()["roomId"]
    await ana_page.goto(f"{site.base}/play#room={room_id}")
    await expect(ana_page.get_by_test_id("room")).to_have_attribute("data-viewer", "0")  # (her seat, taken up)
    await ana_page.get_by_test_id("watch-link-make").click()
    link = ana_page.get_by_test_id("watch-link")
    await expect(link).to_have_value(re.compile(rf"^{re.escape(site.base)}/play#watch=\S+$"))
    watch_url = await link.input_value()
    assert await violations(ana_page) == [], "a private table's watch link"

    invitation = await site.client.post(
        f"/v1/rooms/{room_id}/invitation-links", json={}, headers=bearer(ana["accessToken"])
    )
    joined = await site.client.post(
        f"/v1/rooms/{room_id}/seats", json={"invitationToken": invitation.json()["token"], "name": "Bo"}
    )
    assert joined.status_code in (200, 201), joined.text
    held = await seat_held(ana_page, room_id)
    assert held
    tokens = {0: held["token"], 1: joined.json()["seatToken"]}

    watcher = await pages.new(record=True)
    await watcher.goto(watch_url)
    room = watcher.get_by_test_id("room")
    await expect(room).to_have_attribute("data-room", room_id)
    await expect(watcher.get_by_test_id("role")).to_have_text("You are watching as a spectator (online).")
    await expect(room).to_have_attribute("data-status", "playing")
    await expect(watcher.get_by_test_id("hand")).to_have_count(0)
    await expect(watcher.get_by_test_id("moves")).to_have_count(0)
    ended = await play_out_over_rest(site, room_id, tokens)
    await expect(room).to_have_attribute("data-version", str(ended["version"]))
    await expect(watcher.get_by_test_id("outcome-headline")).to_have_text("Game over.")
    await expect(ana_page.get_by_test_id("watch-link-panel")).to_be_hidden()  # (the game is over)
    renders = await watcher.evaluate("window.__renders")
    log = await site.served.harness.directory.journal.load("room", room_id)
    checked, cards = check_spectator_page(site.served.harness, room_id, renders, await feed_lines(watcher), log)
    assert checked > 0 and cards > 0, "the watcher's table was drawn, with the cards open to all"

    await watcher.goto(f"{site.base}/play#watch=not-a-link")
    await expect(watcher.get_by_test_id("watch-status")).to_have_text("This watch link is not one this page can read.")


async def test_a_player_hides_where_they_are_from_their_friends_and_shows_it_again(site: Site, pages: Pages) -> None:
    """Bo's friends panel says his friends see where he is; Ana's shows him online. He chooses "Nobody": the server
    keeps it (also after a reload of his page), and Ana's page shows him away at the next presence round. Back to
    "Your friends", and Ana sees him online again. Buys: SetPresenceVisibility and GetPresence's visibility wired to
    the friends panel, and what a friend then sees. (~4 s)"""
    ana_page, bo_page = await pages.new(), await pages.new()
    ana = await sign_in(ana_page, site, "Ana")
    bo = await sign_in(bo_page, site, "Bo")
    await befriend(site, ana, bo)
    presence = site.served.harness.presence
    friend = ana_page.get_by_test_id("friend")
    await expect(friend).to_have_count(1)
    await presence.round()
    await expect(friend.get_by_test_id("friend-presence")).to_have_text("online")
    choice = bo_page.get_by_test_id("presence-visibility")
    await expect(choice).to_be_enabled()
    await expect(choice).to_have_value("PRESENCE_VISIBILITY_FRIENDS")
    assert await violations(bo_page) == [], "the friends panel with who sees where you are"

    await choice.select_option(label="Nobody (your friends see you away)")
    status = bo_page.get_by_test_id("friends-status")
    await expect(status).to_have_text("Nobody sees where you are now: your friends see you away.")
    mine = (await site.get("/v1/presence", bo["accessToken"])).json()
    assert mine["visibility"] == "PRESENCE_VISIBILITY_NOBODY", "the server keeps it"
    await presence.round()
    await expect(friend.get_by_test_id("friend-presence")).to_have_text("away")
    await bo_page.reload()
    await expect(bo_page.get_by_test_id("presence-visibility")).to_have_value("PRESENCE_VISIBILITY_NOBODY")

    await bo_page.get_by_test_id("presence-visibility").select_option(label="Your friends")
    await expect(status).to_have_text("Your friends see where you are now.")
    await presence.round()
    await expect(friend.get_by_test_id("friend-presence")).to_have_text("online")
