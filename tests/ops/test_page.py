"""The /ops page in headless Chromium: nothing without the key; with it typed in, the nodes, the live rooms and a
room's timeline (a spectator's), every screen judged by axe-core against WCAG 2.1 A and AA."""

from __future__ import annotations

import httpx

from tests.ops.conftest import KEY, OTHER_KEY, operator_keys
from tests.server.test_protocol import play_some, two_seat_game
from tests.servers import Start
from tests.web.browser import Pages, expect, require_browser, screenshot

require_browser()


async def test_the_ops_page_shows_the_service_once_the_key_is_typed_in(
    start: Start, gateway, pages: Pages, artifacts
) -> None:
    harness = await start(operator_keys=operator_keys())
    client: httpx.AsyncClient = await gateway(harness)
    room_id, tokens = await two_seat_game(harness)
    await play_some(harness, room_id, tokens, 4)
    version = (await harness.view(room_id)).version
    hands = {card for token in tokens for card in (await harness.view(room_id, token)).view.soker.hand}
    page = await pages.new()
    await page.goto(f"{client.base_url}/ops")
    await expect(page.locator("#status")).to_contain_text("Type the operator key")
    await expect(page.locator("#views")).to_be_hidden()
    await screenshot(page, artifacts, "ops-locked")

    await page.get_by_label("Operator key", exact=True).fill(OTHER_KEY)
    await page.get_by_role("button", name="Show the service").click()
    await expect(page.locator("#status")).to_contain_text("bad_operator_key")
    await expect(page.locator("#views")).to_be_hidden()

    await page.get_by_label("Operator key", exact=True).fill(KEY)
    await page.get_by_role("button", name="Show the service").click()
    await expect(page.locator("#views")).to_be_visible()
    await expect(page.locator("#nodes tbody")).to_contain_text("(this one)")
    await expect(page.locator("#rooms tbody")).to_contain_text(room_id)
    await expect(page.locator("#leases tbody")).to_contain_text("no lease")
    assert await page.evaluate("sessionStorage.getItem('kickoff.operatorKey')") == KEY
    await page.get_by_role("button", name=f"Timeline of room {room_id}").click()
    await expect(page.locator("#timeline li")).to_have_count(version)  # (one line per update)
    text = await page.locator("#timeline").inner_text()
    assert "seat 0 taken" in text and "the game started" in text
    assert not [card for card in hands if card in text], "the timeline shows no card of a hand"
    await screenshot(page, artifacts, "ops-timeline")

    await page.reload()  # the key stays in the tab
    await expect(page.locator("#rooms tbody")).to_contain_text(room_id)
    await page.get_by_role("button", name="Forget the key").click()
    await expect(page.locator("#views")).to_be_hidden()
    assert await page.evaluate("sessionStorage.getItem('kickoff.operatorKey')") is None


async def test_the_ops_page_reads_a_chat_report_and_acts_on_it(
    start: Start, gateway, pages: Pages, artifacts, tmp_path
) -> None:
    """Issue 49: the reports list and one report's context (an injected tag stays text), then the buttons: delete the
    message (marked deleted), mute its author (listed, then ended) and close the report. A few seconds (SQLite)."""
    from kickoff.v1 import player_pb2
    from service.store.database import create_engine, upgrade_in_thread
    from service.store.journal import SqlJournal
    from tests.ops.test_chat_moderation import Said

    database_url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"  # (both stores: tests/ops/test_chat_moderation.py)
    await upgrade_in_thread(database_url)
    harness = await start(journal=SqlJournal(create_engine(database_url)), operator_keys=operator_keys())
    client: httpx.AsyncClient = await gateway(harness)
    ann, bob = [
        (await harness.players.SignInAsGuest(player_pb2.SignInAsGuestRequest(name=name))).session.player
        for name in ("Ann", "Bob")
    ]
    room = await harness.create(seats=2)
    lines = [
        Said(seq, player_id=(bob if seq % 2 else ann).player_id, name=(bob if seq % 2 else ann).name, time=1e9 + seq)
        for seq in range(1, 6)
    ]
    for line in lines:
        line.text = f"line {line.seq}"
    lines[2].text = "<script>window.__owned = true</script><b>loud</b>"
    chat = harness.server.operators.chat
    report = await chat.reports.file(ann.player_id, room.room_id, lines[2], lines, reason="rude")

    page = await pages.new()
    await page.goto(f"{client.base_url}/ops")
    await page.get_by_label("Operator key", exact=True).fill(KEY)
    await page.get_by_role("button", name="Show the service").click()
    await expect(page.locator("#reports tbody")).to_contain_text("<b>loud</b>")
    await page.get_by_role("button", name=f"Read report {report.report_id}").click()
    await expect(page.locator("#report-context li")).to_have_count(5)
    await expect(page.locator("#report-context li.reported")).to_contain_text("<script>window.__owned = true</script>")
    assert await page.locator("#report-context b, #report-context script").count() == 0  # (text, never markup)
    assert await page.evaluate("window.__owned") is None
    await screenshot(page, artifacts, "ops-chat-report")

    await page.get_by_role("button", name="Delete the reported message").click()
    await expect(page.locator("#report-context li.reported")).to_contain_text("(deleted)")
    assert await chat.actions.deleted(room.room_id) == {3}
    await page.get_by_label("Mute its author for").select_option("86400")
    await page.get_by_label("Reason").fill("insults")
    await page.get_by_role("button", name="Mute", exact=True).click()
    await expect(page.locator("#mutes tbody")).to_contain_text(bob.player_id)
    assert (await chat.mutes.current(bob.player_id)) is not None
    await page.get_by_role("button", name=f"End the mute of {bob.player_id}").click()
    await expect(page.locator("#mutes tbody")).to_contain_text("nobody is muted")
    await page.get_by_label("Note").fill("muted a day, then forgiven")
    await page.get_by_role("button", name="Close the report").click()
    await expect(page.locator("#report-summary")).to_contain_text("Closed by key")
    await expect(page.locator("#reports tbody")).to_contain_text("closed by")
    await screenshot(page, artifacts, "ops-chat-report-closed")
