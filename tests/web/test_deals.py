"""Fair deals on the page (docs/guides/fair-deals.md): the seat's own seed sent on joining, the deal's commitment at
the table during play, and at the end the page's own check of the revealed secret ("Deal verified", or not when the
secret does not match), with the replay file to download for ``kickoff verify``. Games are played over REST with the
seat's token (the browser's own play is test_play's): the page follows them on its stream."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx

from deals import scheme
from terminal.replay import read_replay
from tests.servers import Start
from tests.web.browser import Page, Pages, expect, require_browser, screenshot, violations
from tests.web.test_play import create_solo_room
from tests.web.test_replay import play

require_browser()

CHECK = "async ([deal, game]) => (await import('/play/deal.js')).checkDeal(deal, game)"


async def test_the_page_computes_the_commitment_as_the_scheme_does(start: Start, gateway, pages: Pages) -> None:
    """The page's WebCrypto check agrees with deals/scheme.py byte for byte (a room's id and a duplicate tournament's
    subject, whose "/" must pass as it is), refuses a secret changed by one character, one of the wrong length and a
    subject that is not the deal's; a seat seed it draws is one the server takes. No server game: a second."""
    client: httpx.AsyncClient = await gateway(await start())
    page = await pages.new(random_seeds=True)
    await page.goto(f"{client.base_url}/play")
    secret = bytes(range(32))
    for subject in ("r8Kq2mZtXw", "t0urn4m3nt/deal/3"):
        deal = {
            "scheme": scheme.SCHEME,
            "subject": subject,
            "commitment": scheme.commitment(secret, subject, "soker"),
            "secret": secret.hex(),
        }
        assert await page.evaluate(CHECK, [deal, "soker"]) == {"ok": True}, subject
        flipped = deal["secret"][:-1] + ("0" if deal["secret"][-1] != "0" else "1")
        assert await page.evaluate(CHECK, [{**deal, "secret": flipped}, "soker"]) == {"ok": False}
        assert await page.evaluate(CHECK, [{**deal, "secret": deal["secret"][:62]}, "soker"]) == {"ok": False}
        assert await page.evaluate(CHECK, [deal, "carta-futbol-club"]) == {"ok": False}, "the game is bound too"
    unknown = await page.evaluate(CHECK, [{**deal, "scheme": "kickoff-deal-9"}, "soker"])
    assert unknown["ok"] is None and "kickoff-deal-9" in unknown["why"]
    seeds = await page.evaluate(
        "async () => { const d = await import('/play/deal.js'); return [d.newSeatSeed(), d.newSeatSeed()] }"
    )
    assert all(re.fullmatch(r"[0-9a-f]{16}", seed) and scheme.check_seat_seed(seed) == seed for seed in seeds), seeds
    assert seeds[0] != seeds[1]


async def seat_token(page: Page, room_id: str) -> str:
    held = await page.evaluate("(key) => JSON.parse(sessionStorage.getItem(key))", f"kickoff:seat:{room_id}")
    return held["token"]


async def test_a_solo_room_shows_its_commitment_in_play_and_deal_verified_at_its_end_with_the_file(
    start: Start, gateway, pages: Pages, artifacts: Path, tmp_path: Path
) -> None:
    """The seed the page sent on joining is the seat's (Seat.seed) and the table shows it; during play the table shows
    the room's commitment, short, and whole in its details; at the end it says "Deal verified" with the secret the
    room reveals, and the file it downloads is the whole replay with the deal, as the CLI reads it. Soker, two seats,
    played over REST: a few seconds."""
    harness = await start()
    client: httpx.AsyncClient = await gateway(harness)
    page = await pages.new()
    room_id = await create_solo_room(page, str(client.base_url), "soker", 2, {})
    room = (await client.get(f"/v1/rooms/{room_id}")).json()
    seed = room["seats"][0].get("seed", "")
    assert seed == "5eed000100000001", room["seats"][0]  # (the page's first draw: tests/web/browser.py fixes them)
    deal = room["deal"]
    assert len(deal["commitment"]) == 64 and not deal.get("secret")

    panel = page.get_by_test_id("deal")
    await expect(page.get_by_test_id("deal-commitment")).to_contain_text(deal["commitment"][:12])
    await expect(page.get_by_test_id("deal-commitment")).to_have_attribute("data-commitment", deal["commitment"])
    await panel.locator("summary").click()  # the details: the whole commitment, the seeds, the seat's own seed
    await expect(page.get_by_test_id("deal-commitment-full")).to_have_text(deal["commitment"])
    await expect(page.get_by_test_id("deal-my-seed")).to_have_text(seed)
    assert await violations(page) == [], "the table with the deal's details open"

    await play(client, room_id, await seat_token(page, room_id))
    room = (await client.get(f"/v1/rooms/{room_id}")).json()
    assert room["status"] == "ROOM_STATUS_FINISHED" and len(room["deal"].get("secret", "")) == 64
    await expect(page.get_by_test_id("deal-verdict")).to_have_text("Deal verified")
    await expect(page.get_by_test_id("deal-secret")).to_have_text(room["deal"]["secret"])
    await expect(page.get_by_test_id("deal-seeds")).to_contain_text(seed)
    await expect(page.get_by_test_id("deal-command")).to_have_text(f"kickoff verify kickoff-replay-{room_id}.json")
    await screenshot(page, artifacts, "deal-verified")

    async with page.expect_download() as downloading:
        await page.get_by_test_id("deal-download").click()
    download = await downloading.value
    assert download.suggested_filename == f"kickoff-replay-{room_id}.json"
    saved = tmp_path / download.suggested_filename
    await download.save_as(saved)
    whole = json.loads(saved.read_text(encoding="utf-8"))
    assert whole["room"]["deal"] == room["deal"] and whole["revealed"] is True
    replay = read_replay(saved)  # what `kickoff replay FILE` and `kickoff verify FILE` read
    log = harness.directory.journal.log("room", room_id)
    assert [step.update.version for step in replay.steps] == [entry.version for entry in log], "every version"
    assert replay.room.deal.secret == room["deal"]["secret"]
    await expect(page.get_by_test_id("deal-saved")).to_contain_text(f"{len(log)} versions")


async def test_a_secret_that_does_not_match_the_commitment_is_shown_not_verified(
    start: Start, gateway, pages: Pages
) -> None:
    """The page checks the secret itself rather than trusting the server: the finished room's answer, changed on its
    way to the page (one character of the secret), gives "Deal NOT verified". A finished Soker room: a few seconds."""
    client: httpx.AsyncClient = await gateway(await start())
    created = await client.post(
        "/v1/rooms", json={"game": "soker", "mode": "ROOM_MODE_SOLO", "seats": 2, "systemPlayers": 1, "thinkSeconds": 0}
    )
    room_id = created.json()["roomId"]
    joined = (await client.post(f"/v1/rooms/{room_id}/seats", json={"name": "Ana"})).json()
    await play(client, room_id, joined["seatToken"])
    secret = (await client.get(f"/v1/rooms/{room_id}")).json()["deal"]["secret"]
    tampered = secret[:10] + ("0" if secret[10] != "0" else "1") + secret[11:]

    async def tamper(route) -> None:  # (the room's answer, its secret changed)
        answer = await route.fetch()
        body = await answer.json()
        if body.get("deal", {}).get("secret"):
            body["deal"]["secret"] = tampered
        await route.fulfill(response=answer, json=body)

    page = await pages.new()
    await page.route(re.compile(rf"/v1/rooms/{re.escape(room_id)}(\?.*)?$"), tamper)
    await page.goto(f"{client.base_url}/play#room={room_id}&watch")
    await expect(page.get_by_test_id("outcome")).to_be_visible()
    verdict = page.get_by_test_id("deal-verdict")
    await expect(verdict).to_have_text("Deal NOT verified: the secret does not match the commitment")
    await expect(verdict).to_have_attribute("data-state", "failed")
    await expect(page.get_by_test_id("deal-secret")).to_have_text(tampered)
    assert await violations(page) == [], "the table's end with the deal not verified"
