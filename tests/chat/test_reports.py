"""Reports, mutes and the operators' actions in the store (service/chat/reports.py), on SQLite and PostgreSQL: what
an operator reads of a report (the message and the ten around it as they were), one report per reporter and message,
a mute that refuses a player's messages with when it ends, and every action recorded with the operator key's id. Each
test is one fresh database and a few statements (well under a second on SQLite)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from service.chat.reports import REPORTS_PER_HOUR, ChatModeration, Muted
from service.errors import Conflict, InvalidRequest, NotFound, PreconditionFailed, ResourceExhausted
from service.rooms.clock import ManualClock
from service.store.database import create_engine
from service.store.retention import prune


@dataclass
class Said:
    """A chat message as the chat core hands it to a report."""

    seq: int
    channel: str = "players"
    player_id: str = "p-bob"
    name: str = "Bob"
    text: str = ""
    time: float = 0.0


def chat(count: int) -> list[Said]:
    return [Said(seq, text=f"message {seq}", time=1000.0 + seq) for seq in range(1, count + 1)]


@pytest.fixture
async def moderation(database_url: str) -> AsyncIterator[tuple[ChatModeration, ManualClock]]:
    engine = create_engine(database_url)
    clock = ManualClock()
    yield ChatModeration.on(engine, clock.now), clock
    await engine.dispose()


def refused(error: pytest.ExceptionInfo) -> str:
    return error.value.code


async def test_a_report_keeps_the_message_and_the_ten_around_it_as_they_were(moderation) -> None:
    store, clock = moderation
    messages = chat(30)
    report = await store.reports.file("p-ann", "room1", messages[19], messages, reason="  rude   again ")
    messages[19].text = "edited later"  # (what the chat does later does not change the report)
    found = await store.reports.get(report.report_id)
    assert found.message.text == "message 20" and found.reported_id == "p-bob" and found.reporter_id == "p-ann"
    assert [line.seq for line in found.context] == [15, 16, 17, 18, 19, 21, 22, 23, 24, 25]
    assert found.reason == "rude again" and found.room_id == "room1" and found.open
    assert found.created_at == clock.now()
    # Near the start of the chat, the ten nearest are mostly after it.
    early = await store.reports.file("p-ann", "room1", messages[1], messages)
    assert [line.seq for line in early.context] == [1, 3, 4, 5, 6, 7, 8, 9, 10, 11]


async def test_one_report_per_reporter_and_message(moderation) -> None:
    store, _ = moderation
    messages = chat(3)
    await store.reports.file("p-ann", "room1", messages[0], messages)
    with pytest.raises(Conflict) as error:
        await store.reports.file("p-ann", "room1", messages[0], messages)
    assert refused(error) == "report_exists"
    await store.reports.file("p-cat", "room1", messages[0], messages)  # (another reporter may)
    await store.reports.file("p-ann", "room2", messages[0], messages)  # (the same seq of another room is another)
    with pytest.raises(InvalidRequest) as error:
        await store.reports.file("p-bob", "room1", messages[1], messages)
    assert refused(error) == "cannot_report_yourself"
    with pytest.raises(InvalidRequest) as error:
        await store.reports.file("p-ann", "room1", messages[2], messages, reason="x" * 201)
    assert refused(error) == "too_long"


async def test_reports_page_open_ones_first_then_newest_first(moderation) -> None:
    store, clock = moderation
    messages = chat(5)
    ids = []
    for message in messages:
        ids.append((await store.reports.file("p-ann", "room1", message, messages)).report_id)
        clock.advance(1)
    closed = await store.reports.close(ids[4], "key1", note="warned them")
    assert (closed.open, closed.closed_by, closed.note, closed.closed_at) == (False, "key1", "warned them", clock.now())
    seen, token = [], ""
    while True:
        page, token = await store.reports.page(2, token)
        seen += [report.report_id for report in page]
        if not token:
            break
    assert seen == [ids[3], ids[2], ids[1], ids[0], ids[4]]
    with pytest.raises(PreconditionFailed) as error:
        await store.reports.close(ids[4], "key2")
    assert refused(error) == "report_closed"
    with pytest.raises(NotFound) as error:
        await store.reports.get("nosuchreport")
    assert refused(error) == "report_not_found"
    with pytest.raises(InvalidRequest) as error:
        await store.reports.page(2, "nosuchreport")
    assert refused(error) == "bad_page_token"


async def test_a_muted_player_is_refused_until_the_mute_ends(moderation) -> None:
    store, clock = moderation
    await store.mutes.check("p-bob")  # (not muted: nothing said)
    mute = await store.mutes.mute("p-bob", 600, "insults", "key1")
    assert mute.until == clock.now() + 600
    with pytest.raises(Muted) as error:
        await store.mutes.check("p-bob")
    assert refused(error) == "muted" and error.value.until == mute.until and error.value.retry_after == 600
    assert "until 20" in str(error.value) and error.value.metadata["until"].endswith("Z")
    await store.mutes.check("p-ann")  # (only that player)
    clock.advance(600)
    await store.mutes.check("p-bob")  # (the time is up)
    assert await store.mutes.page(10) == ([], "")
    # Until ended: refused until an operator ends it.
    await store.mutes.mute("p-bob", None, "", "key1")
    clock.advance(10 * 365 * 86400)
    with pytest.raises(Muted) as error:
        await store.mutes.check("p-bob")
    assert error.value.until is None and error.value.retry_after is None
    ended = await store.mutes.end("p-bob", "key2")
    assert (ended.ended_at, ended.ended_by) == (clock.now(), "key2")
    await store.mutes.check("p-bob")
    with pytest.raises(PreconditionFailed) as error:
        await store.mutes.end("p-bob", "key2")
    assert refused(error) == "not_muted"


async def test_muting_again_replaces_the_mute_and_the_list_pages(moderation) -> None:
    store, clock = moderation
    await store.mutes.mute("p-bob", 60, "", "key1")
    longer = await store.mutes.mute("p-bob", 3600, "again", "key1")
    for player in ("p-cat", "p-dan"):
        await store.mutes.mute(player, 60, "", "key1")
    page, token = await store.mutes.page(2)
    assert [mute.player_id for mute in page] == ["p-dan", "p-cat"] and token
    page, token = await store.mutes.page(2, token)
    assert [mute.mute_id for mute in page] == [longer.mute_id] and not token  # (the replaced one ended)
    clock.advance(120)
    assert [mute.player_id for mute in (await store.mutes.page(10))[0]] == ["p-bob"]
    assert len((await store.mutes.page(10, ended=True))[0]) == 4
    with pytest.raises(InvalidRequest) as error:
        await store.mutes.mute("p-bob", 367 * 86400, "", "key1")
    assert refused(error) == "bad_seconds"


async def test_every_action_is_recorded_with_the_operator_key(moderation) -> None:
    store, _ = moderation
    messages = chat(3)
    report = await store.reports.file("p-ann", "room1", messages[1], messages)
    assert await store.actions.delete_message("room1", 2, "key1")
    assert not await store.actions.delete_message("room1", 2, "key2")  # (once)
    assert await store.actions.deleted("room1") == {2} and await store.actions.deleted("room2") == set()
    await store.mutes.mute("p-bob", 60, "spam", "key1")
    await store.mutes.end("p-bob", "key2")
    await store.reports.close(report.report_id, "key2")
    actions = [(a["action"], a["key_id"]) for a in reversed(await store.actions.recent())]
    assert actions == [
        ("delete_message", "key1"),
        ("mute_player", "key1"),
        ("end_mute", "key2"),
        ("close_report", "key2"),
    ]
    with pytest.raises(InvalidRequest) as error:
        await store.actions.delete_message("room1", 0, "key1")
    assert refused(error) == "bad_seq"


async def test_a_reporter_files_at_most_thirty_reports_an_hour(moderation) -> None:
    """Buys: a player cannot flood the moderators (nor the store) with reports: the 31st within an hour is refused
    report_rate, and an hour later reports are taken again."""
    store, clock = moderation
    messages = chat(40)
    for said in messages[:REPORTS_PER_HOUR]:
        await store.reports.file("p-ann", "room1", said, messages)
    with pytest.raises(ResourceExhausted) as error:
        await store.reports.file("p-ann", "room1", messages[REPORTS_PER_HOUR], messages)
    assert refused(error) == "report_rate"
    await store.reports.file("p-cy", "room1", messages[REPORTS_PER_HOUR], messages)  # (another reporter: taken)
    clock.advance(3601)
    await store.reports.file("p-ann", "room1", messages[REPORTS_PER_HOUR], messages)


async def test_what_moderation_keeps_goes_once_it_is_old(moderation) -> None:
    """Buys: reports, mutes and the operators' actions do not pile up for ever: a report closed 90 days ago, a mute
    ended (or run out) 90 days ago and an action a year old are pruned by the retention pass; an open report, a
    running mute and this year's actions stay."""
    store, clock = moderation
    messages = chat(5)
    closed = await store.reports.file("p-ann", "room1", messages[0], messages)
    kept = await store.reports.file("p-ann", "room1", messages[1], messages)
    await store.reports.close(closed.report_id, "key1", "done")
    await store.mutes.mute("p-bob", 3600, "insults", "key1")
    await store.mutes.mute("p-dan", None, "spam", "key1")  # (until ended)
    clock.advance(91 * 86400)
    await prune(store.reports.engine, ChatModeration.retention(), clock.now())
    assert (await store.reports.get(kept.report_id)).open
    with pytest.raises(NotFound):
        await store.reports.get(closed.report_id)
    assert [mute.player_id for mute in (await store.mutes.page(10, ended=True))[0]] == ["p-dan"]
    assert len(await store.actions.recent()) == 3  # (closed, muted twice: under a year old)
    clock.advance(366 * 86400)
    await prune(store.reports.engine, ChatModeration.retention(), clock.now())
    assert await store.actions.recent() == []
    with pytest.raises(NotFound):
        await store.reports.get(kept.report_id)  # (left open a year: gone too)
