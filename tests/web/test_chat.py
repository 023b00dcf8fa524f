"""Table talk on the page (issue 49), on a server with players and rooms' chat (SQLite): two people at a table chat
with each other while a spectator's page talks in its own channel, a quick reaction is shown in words, markup in a
message stays text and axe stays clean with the chat open; at a phone's size the chat sits below the hand and a card
is still played by clicking it; an operator's deletion blanks the message on the other page, a report is filed, a
block hides the blocked player's messages, and a mute shows on the page and closes the form."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kickoff.v1 import operator_pb2
from service.chat.reports import Mutes, Reports, rfc3339
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from tests.chat.conftest import CHAT
from tests.ops.conftest import op, operator_keys, ops
from tests.players.conftest import Served
from tests.servers import Start
from tests.web.browser import Page, Pages, expect, require_browser, violations
from tests.web.test_players import Site, bearer, sign_in

require_browser()

# Each of these would run if the page ever parsed a message as HTML; each sets window.__injected.
SCRIPT = "<script>window.__injected = 'script'</script>"
IMAGE = "<img src=x onerror=\"window.__injected = 'img'\">"


@pytest.fixture
async def site(start: Start, gateway, tmp_path: Path) -> Site:
    """Players and rooms' chat on a SQLite file, taking reports, with an operator key for the operators' calls."""
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    harness = await start(journal=SqlJournal(create_engine(url)), chat=CHAT, operator_keys=operator_keys())
    harness.chat.reports = Reports(harness.player_store.engine, harness.clock.now)  # (the server files them so too)
    return Site(Served(harness), await gateway(harness))


async def table_for_two(site: Site, ana: dict[str, Any], bo: dict[str, Any]) -> str:
    """A Soker room Ana made and Bo joined (both signed in): the game is on. Its id."""
    body = {"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 2, "thinkSeconds": 0}
    made = await site.client.post("/v1/rooms", json=body, headers=bearer(ana["accessToken"]))
    assert made.status_code in (200, 201), made.text
    room_id: str = made.json()["roomId"]
    joined = await site.client.post(f"/v1/rooms/{room_id}/seats", json={}, headers=bearer(bo["accessToken"]))
    assert joined.status_code in (200, 201), joined.text
    return room_id


async def at_table(page: Page, site: Site, room_id: str, viewer: str) -> None:
    """Opens the room's table (the signed-in player's seat taken up, or a spectator's: viewer "") with its chat."""
    await page.goto(f"{site.base}/play#room={room_id}")
    await expect(page.get_by_test_id("room")).to_have_attribute("data-viewer", viewer)
    await expect(page.get_by_test_id("chat")).to_be_visible()


async def say(page: Page, text: str) -> None:
    await page.get_by_test_id("chat-input").fill(text)
    await page.get_by_test_id("chat-send").click()
    await expect(page.get_by_test_id("chat-input")).to_have_value("")  # (cleared once the server stored it)


def lines(page: Page):
    return page.get_by_test_id("chat-message")


async def test_players_and_a_spectator_chat_apart_react_and_markup_stays_text(site: Site, pages: Pages) -> None:
    """Ana and Bo, seated, read each other's messages; Cy, watching, talks in the spectators' channel and never sees
    theirs, nor they his. Bo's "Good game" button shows as "Good game" on Ana's page. A message holding `<script>` and
    `<img onerror>` is shown as those characters: no element made, nothing run. axe finds nothing wrong on the table
    with the chat open. Buys: the panel's channels, form, reactions and text-only rendering, end to end. (~8 s)"""
    ana_page, bo_page, cy_page = await pages.new(), await pages.new(), await pages.new()
    ana = await sign_in(ana_page, site, "Ana")
    bo = await sign_in(bo_page, site, "Bo")
    await sign_in(cy_page, site, "Cy")
    room_id = await table_for_two(site, ana, bo)
    await at_table(ana_page, site, room_id, "0")
    await at_table(bo_page, site, room_id, "1")
    await at_table(cy_page, site, room_id, "")
    await expect(cy_page.get_by_test_id("chat")).to_have_attribute("data-channel", "CHAT_CHANNEL_SPECTATORS")

    await say(cy_page, "Nice match")
    await expect(cy_page.get_by_test_id("chat-who")).to_have_text(["You"])
    await say(ana_page, "Hello Bo")
    await expect(bo_page.get_by_test_id("chat-who")).to_have_text(["Ana"])
    await expect(lines(bo_page).get_by_test_id("chat-report")).to_have_count(1)  # (on another's message, not his own)
    await say(bo_page, SCRIPT + IMAGE)
    await bo_page.get_by_test_id("chat-reaction").filter(has_text="Good game").click()

    # Ana's page: her own line, Bo's markup as text, his reaction in words, and nothing of Cy's (sent before them).
    await expect(ana_page.get_by_test_id("chat-text")).to_have_text(["Hello Bo", SCRIPT + IMAGE, "Good game"])
    await expect(ana_page.get_by_test_id("chat-who")).to_have_text(["You", "Bo", "Bo"])
    made = await ana_page.evaluate(
        "[document.querySelectorAll('[data-testid=chat-list] script, [data-testid=chat-list] img').length,"
        " window.__injected ?? null]"
    )
    assert made == [0, None], "a message's markup made elements or ran"
    assert await violations(ana_page) == [], "the table with the chat open"

    # Cy says something after the players: once it is on his page, everything before it is too, and it is his alone.
    await say(cy_page, "Still here")
    await expect(cy_page.get_by_test_id("chat-text")).to_have_text(["Nice match", "Still here"])
    await expect(bo_page.get_by_test_id("chat-text")).to_have_text(["Hello Bo", SCRIPT + IMAGE, "Good game"])
    await expect(ana_page.get_by_test_id("chat-text")).to_have_count(3)


async def test_on_a_phone_a_card_is_played_with_the_chat_open_and_moderation_shows(site: Site, pages: Pages) -> None:
    """At 390x740 the chat sits below the hand and the moves, and the seat to act plays a card by clicking it. Then,
    on those pages: a message an operator deletes shows "(message withdrawn)" on Ana's page instead of its text; Ana
    reports a message (the report is in the moderation store with her reason) and blocks its author, whose messages
    leave her panel, also after a reload; Bo, muted by an operator, sees "You are muted until ..." and a closed form.
    Buys: the phone layout, and report, block, withdrawal and mute as a player sees them. (~7 s)"""
    ana_page = await pages.new(width=390, height=740)
    bo_page = await pages.new(width=390, height=740)
    ana = await sign_in(ana_page, site, "Ana")
    bo = await sign_in(bo_page, site, "Bo")
    room_id = await table_for_two(site, ana, bo)
    await at_table(ana_page, site, room_id, "0")
    await at_table(bo_page, site, room_id, "1")

    # The seat to act plays a card by clicking it, the chat open below: nothing covers the hand's buttons.
    view = (await site.get(f"/v1/rooms/{room_id}/view")).json()
    acting = ana_page if view.get("toAct", [0])[0] == 0 else bo_page
    room = acting.get_by_test_id("room")
    version = int(await room.get_attribute("data-version") or 0)
    hand = await acting.get_by_test_id("hand").bounding_box()
    chat = await acting.get_by_test_id("chat").bounding_box()
    assert hand and chat and chat["y"] >= hand["y"] + hand["height"], "the chat sits below the hand"
    card = acting.locator('[data-testid="pick-card"][data-alone="yes"]:not([disabled])').first
    await card.dblclick()  # (Playwright clicks only an element that nothing covers at its point)
    await expect(room).not_to_have_attribute("data-version", str(version))

    # An operator deletes Bo's message: Ana's page blanks it.
    await say(bo_page, "something rude")
    rude = lines(ana_page).filter(has_text="something rude")
    await expect(rude).to_have_count(1)
    seq = int(await rude.get_attribute("data-seq") or 0)
    delete = operator_pb2.DeleteChatMessageRequest(room_id=room_id, seq=seq)
    assert (await ops(site.served.harness).DeleteChatMessage(delete, metadata=op())).deleted
    withdrawn = ana_page.locator(f'[data-testid="chat-message"][data-seq="{seq}"]')
    await expect(withdrawn.get_by_test_id("chat-text")).to_have_text("(message withdrawn)")
    await expect(withdrawn.get_by_test_id("chat-report")).to_have_count(0)
    await expect(ana_page.get_by_test_id("chat-list")).not_to_contain_text("something rude")

    # Ana reports Bo's next message, then blocks him.
    await say(bo_page, "you play like a goat")
    goat = lines(ana_page).filter(has_text="you play like a goat")
    await goat.get_by_test_id("chat-report").click()
    await goat.get_by_test_id("chat-report-reason").fill("insults")
    await goat.get_by_test_id("chat-report-send").click()
    await expect(goat.get_by_test_id("chat-reported")).to_have_text("Reported")
    engine = site.served.harness.player_store.engine
    reports, _ = await Reports(engine, site.served.harness.clock.now).page(10)
    assert [(r.room_id, r.reporter_id, r.reason, r.message.text) for r in reports] == [
        (room_id, ana["player"]["playerId"], "insults", "you play like a goat")
    ]
    await goat.get_by_test_id("chat-block").click()
    await expect(ana_page.get_by_test_id("chat-status")).to_have_text("You blocked Bo: their messages are hidden.")
    bo_id = bo["player"]["playerId"]
    await expect(ana_page.locator(f'[data-testid="chat-message"][data-player="{bo_id}"]')).to_have_count(0)
    await say(ana_page, "bye")
    await ana_page.reload()  # (the server leaves them out now: the block is the player's, not the page's)
    await expect(ana_page.get_by_test_id("chat-text")).to_have_text(["bye"])

    # An operator mutes Bo: his next message is refused, and his page says until when and closes the form.
    mute = await Mutes(engine, site.served.harness.clock.now).mute(bo_id, 3600, "insults", "key-1")
    refused = await site.client.post(
        f"/v1/rooms/{room_id}/chat", json={"text": "hi"}, headers=bearer(bo["accessToken"])
    )
    assert (refused.status_code, refused.json()["reason"]) == (403, "muted")
    assert refused.json()["until"] == rfc3339(mute.until), "the problem says when the mute ends"
    await bo_page.get_by_test_id("chat-input").fill("hello?")
    await bo_page.get_by_test_id("chat-send").click()
    await expect(bo_page.get_by_test_id("chat-muted")).to_have_text(re.compile(r"^You are muted until .*\d{4}.*\.$"))
    await expect(bo_page.get_by_test_id("chat-input")).to_be_disabled()
    await expect(bo_page.get_by_test_id("chat-send")).to_be_disabled()
    await expect(bo_page.get_by_test_id("chat-reaction").first).to_be_disabled()
    assert await violations(bo_page) == [], "the muted state at a phone's size"


async def test_the_create_form_sets_the_chat_and_offers_team_chat_only_for_team_tables(
    site: Site, pages: Pages
) -> None:
    """The lobby's form shows "Team chat" for a Carta Fútbol Club table of four (its seats play in pairs), not for two
    seats nor for Soker; a room made with it has team chat, and its anonymous seat gets the Players / Team switch and
    the reactions only, with the line saying why, and reacts in its team's channel. A room made with the chat off
    shows no chat panel. Buys: the room options from the form to the table. (~4 s)"""
    page = await pages.new()
    await page.goto(f"{site.base}/play")
    await expect(page.get_by_test_id("game")).not_to_have_count(0)
    team_chat = page.get_by_test_id("create-team-chat")
    await page.get_by_test_id("create-game").select_option("carta-futbol-club")
    await page.get_by_test_id("create-seats").select_option("2")
    await expect(team_chat).to_be_hidden()
    await page.get_by_test_id("create-seats").select_option("4")
    await expect(team_chat).to_be_visible()
    await team_chat.check()
    await page.get_by_test_id("create-mode").select_option("solo")
    await page.get_by_test_id("create-think").fill("0")
    await page.get_by_test_id("create-submit").click()
    room = page.get_by_test_id("room")
    await expect(room).to_have_attribute("data-viewer", "0")
    room_id = await room.get_attribute("data-room")
    assert (await site.get(f"/v1/rooms/{room_id}")).json()["teamChat"] is True

    await expect(page.get_by_test_id("chat-channel")).to_have_text(["Players", "Team"])
    await expect(page.get_by_test_id("chat-input")).to_have_count(0)
    await expect(page.get_by_test_id("chat-why")).to_have_text(
        "Sign in to write messages: an anonymous seat sends quick reactions only."
    )
    await page.get_by_test_id("chat-channel").filter(has_text="Team").click()
    await page.get_by_test_id("chat-reaction").filter(has_text="Thanks").click()
    thanks = lines(page).filter(has_text="Thanks")
    await expect(thanks).to_have_attribute("data-channel", "CHAT_CHANNEL_TEAM")
    await expect(thanks.get_by_test_id("chat-who")).to_have_text("You")
    await page.get_by_test_id("chat-channel").filter(has_text="Players").click()
    await expect(thanks).to_be_hidden()

    await page.goto(f"{site.base}/play")
    await page.get_by_test_id("create-game").select_option("soker")
    await expect(team_chat).to_be_hidden()
    await page.get_by_test_id("create-mode").select_option("solo")
    await page.get_by_test_id("create-think").fill("0")
    await page.get_by_test_id("create-chat").select_option("CHAT_MODE_OFF")
    await page.get_by_test_id("create-submit").click()
    await expect(room).to_have_attribute("data-viewer", "0")
    await expect(room).to_have_attribute("data-status", "playing")  # (the room is read: a panel would be there now)
    assert (await site.get(f"/v1/rooms/{await room.get_attribute('data-room')}")).json()["chat"] == "CHAT_MODE_OFF"
    await expect(page.get_by_test_id("chat")).to_have_count(0)


async def test_a_watch_links_holder_reads_and_writes_the_spectators_chat_of_a_private_table(
    site: Site, pages: Pages
) -> None:
    """Cy, signed in, opens Ana's private table through its watch link: the spectators' chat is there, he writes in it,
    and a message another link holder wrote is on his page; Ana, seated, reads none of it. Buys: the watch link's token
    carried by the chat's stream, sends and reads (an unlisted room's chat is its link holders' too). (~4 s)"""
    ana_page, cy_page = await pages.new(), await pages.new()
    ana = await sign_in(ana_page, site, "Ana")
    await sign_in(cy_page, site, "Cy")
    body = {"game": "soker", "mode": "ROOM_MODE_ONLINE", "seats": 2, "thinkSeconds": 0, "unlisted": True}
    made = await site.client.post("/v1/rooms", json=body, headers=bearer(ana["accessToken"]))
    assert made.status_code in (200, 201), made.text
    room_id = made.json()["roomId"]
    link = await site.client.post(f"/v1/rooms/{room_id}/invitation-links", json={}, headers=bearer(ana["accessToken"]))
    token = link.json()["token"]
    dee = (await site.client.post("/v1/players/guest", json={"name": "Dee"})).json()
    sent = await site.client.post(
        f"/v1/rooms/{room_id}/chat",
        json={"text": "watching too", "invitationToken": token},
        headers=bearer(dee["session"]["accessToken"]),
    )
    assert sent.status_code == 201, sent.text

    await cy_page.goto(f"{site.base}/play#watch={token}")
    await expect(cy_page.get_by_test_id("chat")).to_be_visible()
    await expect(cy_page.get_by_test_id("chat")).to_have_attribute("data-channel", "CHAT_CHANNEL_SPECTATORS")
    await expect(cy_page.get_by_test_id("chat-text")).to_have_text(["watching too"])
    await say(cy_page, "me as well")
    await expect(cy_page.get_by_test_id("chat-text")).to_have_text(["watching too", "me as well"])
    await at_table(ana_page, site, room_id, "0")
    await expect(ana_page.get_by_test_id("chat-text")).to_have_count(0)
