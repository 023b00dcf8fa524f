"""The chat's moderation through OperatorService (issue 49), on SQLite and PostgreSQL: an operator lists the reports
(open ones first), reads one with the messages around it, deletes the message (the chat core's withdraw is called and
the report shows it deleted), mutes its author (their messages are refused with muted) and ends the mute, and closes
the report; each action is logged with the operator key's id, and each bad request is refused with its reason. The
reports are filed through the store, as the chat core will file them. About a second a store."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import grpc
import pytest

from kickoff.v1 import chat_pb2, operator_pb2, player_pb2
from service.chat.reports import Muted
from service.rooms.room import Room
from service.store.database import create_engine
from service.store.journal import SqlJournal
from tests.ops.conftest import KEY, KEY_ID, op, operator_keys, ops
from tests.server.conftest import Harness, refusal
from tests.servers import Start


@dataclass
class Said:
    seq: int
    channel: str = "players"
    player_id: str = ""
    name: str = ""
    text: str = ""
    time: float = 0.0


async def moderated(start: Start, database_url: str) -> tuple[Harness, list[player_pb2.Session]]:
    harness = await start(journal=SqlJournal(create_engine(database_url)), operator_keys=operator_keys())
    sessions = [
        (await harness.players.SignInAsGuest(player_pb2.SignInAsGuestRequest(name=name))).session
        for name in ("Ann", "Bob")
    ]
    return harness, sessions


async def test_an_operator_reads_a_report_and_acts_on_it(
    start: Start, database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    harness, (ann, bob) = await moderated(start, database_url)
    room = await harness.create(seats=2)
    chat = harness.server.operators.chat
    withdrawn: list[tuple[str, int]] = []

    async def withdraw(room: Room, seq: int) -> None:
        withdrawn.append((room.room_id, seq))

    harness.server.operators.withdraw = withdraw
    people = {1: ann.player, 0: bob.player}
    messages = [
        Said(seq, player_id=people[seq % 2].player_id, name=people[seq % 2].name, text=f"line {seq}", time=1e9 + seq)
        for seq in range(1, 13)
    ]
    older = await chat.reports.file(bob.player.player_id, room.room_id, messages[0], messages)
    harness.clock.advance(60)
    report = await chat.reports.file(ann.player.player_id, room.room_id, messages[5], messages, reason="rude")
    stub = ops(harness)

    with caplog.at_level(logging.INFO, logger="service.grpc.operators"):
        listed = await stub.ListChatReports(operator_pb2.ListChatReportsRequest(), metadata=op())
        assert [r.report_id for r in listed.reports] == [report.report_id, older.report_id]
        assert listed.reports[0].message.text == "line 6" and not listed.reports[0].context
        got = (
            await stub.GetChatReport(operator_pb2.GetChatReportRequest(report_id=report.report_id), metadata=op())
        ).report
        assert (got.reporter_id, got.reason, got.message.player_id) == (
            ann.player.player_id,
            "rude",
            bob.player.player_id,
        )
        assert [line.seq for line in got.context] == [1, 2, 3, 4, 5, 7, 8, 9, 10, 11]

        delete = operator_pb2.DeleteChatMessageRequest(room_id=room.room_id, seq=6)
        assert (await stub.DeleteChatMessage(delete, metadata=op())).deleted
        assert not (await stub.DeleteChatMessage(delete, metadata=op())).deleted  # (recorded once)
        assert withdrawn[0] == (room.room_id, 6)
        got = (
            await stub.GetChatReport(operator_pb2.GetChatReportRequest(report_id=report.report_id), metadata=op())
        ).report
        assert got.message.deleted and got.message.text == "line 6"  # (the report still shows what was said)
        assert got.message.channel == chat_pb2.CHAT_CHANNEL_PLAYERS
        assert not any(line.deleted for line in got.context)

        mute = operator_pb2.MutePlayerRequest(player_id=bob.player.player_id, seconds=3600, reason="insults")
        muted = (await stub.MutePlayer(mute, metadata=op())).mute
        assert muted.active and muted.created_by == KEY_ID and muted.until.seconds == int(harness.clock.now()) + 3600
        with pytest.raises(Muted):
            await chat.mutes.check(bob.player.player_id)
        assert [m.player_id for m in (await stub.ListMutes(operator_pb2.ListMutesRequest(), metadata=op())).mutes] == [
            bob.player.player_id
        ]
        ended = (await stub.EndMute(operator_pb2.EndMuteRequest(player_id=bob.player.player_id), metadata=op())).mute
        assert not ended.active and ended.ended_by == KEY_ID
        await chat.mutes.check(bob.player.player_id)
        assert not (await stub.ListMutes(operator_pb2.ListMutesRequest(), metadata=op())).mutes
        assert len((await stub.ListMutes(operator_pb2.ListMutesRequest(include_ended=True), metadata=op())).mutes) == 1

        close = operator_pb2.CloseChatReportRequest(report_id=report.report_id, note="muted an hour")
        closed = (await stub.CloseChatReport(close, metadata=op())).report
        assert (closed.open, closed.closed_by, closed.note) == (False, KEY_ID, "muted an hour")
        listed = await stub.ListChatReports(operator_pb2.ListChatReportsRequest(), metadata=op())
        assert [r.report_id for r in listed.reports] == [older.report_id, report.report_id]  # (open ones first)

    lines = [record.getMessage() for record in caplog.records]
    for done in ("delete_chat_message", "mute_player", "end_mute", "close_chat_report"):
        assert any(line.startswith(f"operator action={done} key_id={KEY_ID}") for line in lines), done
    assert f"operator action=delete_chat_message key_id={KEY_ID} room_id={room.room_id} seq=6" in "\n".join(lines)
    assert KEY not in caplog.text and "insults" not in caplog.text
    recorded = [(a["action"], a["key_id"]) for a in await chat.actions.recent()]
    assert recorded == [
        ("close_report", KEY_ID),
        ("end_mute", KEY_ID),
        ("mute_player", KEY_ID),
        ("delete_message", KEY_ID),
    ]


async def test_bad_requests_are_refused_with_their_reason(start: Start, database_url: str) -> None:
    harness, (_, bob) = await moderated(start, database_url)
    stub = ops(harness)
    room = await harness.create(seats=2)
    bob_id = bob.player.player_id
    cases = [
        (stub.MutePlayer(operator_pb2.MutePlayerRequest(player_id=bob_id), metadata=op()), "bad_seconds"),
        (
            stub.MutePlayer(
                operator_pb2.MutePlayerRequest(player_id=bob_id, seconds=5, until_ended=True), metadata=op()
            ),
            "bad_seconds",
        ),
        (
            stub.MutePlayer(operator_pb2.MutePlayerRequest(player_id=bob_id, seconds=10**9), metadata=op()),
            "bad_seconds",
        ),
        (
            stub.MutePlayer(operator_pb2.MutePlayerRequest(player_id="nobody", seconds=5), metadata=op()),
            "player_not_found",
        ),
        (stub.EndMute(operator_pb2.EndMuteRequest(player_id=bob_id), metadata=op()), "not_muted"),
        (stub.GetChatReport(operator_pb2.GetChatReportRequest(report_id="nosuch"), metadata=op()), "report_not_found"),
        (stub.GetChatReport(operator_pb2.GetChatReportRequest(), metadata=op()), "missing_report_id"),
        (
            stub.CloseChatReport(operator_pb2.CloseChatReportRequest(report_id="nosuch"), metadata=op()),
            "report_not_found",
        ),
        (
            stub.DeleteChatMessage(operator_pb2.DeleteChatMessageRequest(room_id="nosuchroom", seq=1), metadata=op()),
            "room_not_found",
        ),
        (
            stub.DeleteChatMessage(operator_pb2.DeleteChatMessageRequest(room_id=room.room_id), metadata=op()),
            "bad_seq",
        ),
        (stub.ListChatReports(operator_pb2.ListChatReportsRequest(page_token="nope"), metadata=op()), "bad_page_token"),
        (stub.ListMutes(operator_pb2.ListMutesRequest(page_token="x"), metadata=op()), "bad_page_token"),
        (
            stub.MutePlayer(
                operator_pb2.MutePlayerRequest(player_id=bob_id, seconds=5, reason="a\u202eb"), metadata=op()
            ),
            "bad_characters",
        ),
    ]
    for call, reason in cases:
        assert (await refusal(call))[1] == reason
    # Muting twice replaces the mute; an until-ended mute has no end time.
    await stub.MutePlayer(operator_pb2.MutePlayerRequest(player_id=bob_id, seconds=60), metadata=op())
    forever = (
        await stub.MutePlayer(operator_pb2.MutePlayerRequest(player_id=bob_id, until_ended=True), metadata=op())
    ).mute
    assert not forever.HasField("until") and forever.active
    assert len((await stub.ListMutes(operator_pb2.ListMutesRequest(), metadata=op())).mutes) == 1


async def test_a_server_without_players_has_no_chat_to_moderate(start: Start) -> None:
    harness = await start(operator_keys=operator_keys())
    code, reason, _ = await refusal(ops(harness).ListChatReports(operator_pb2.ListChatReportsRequest(), metadata=op()))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "players_off")


async def test_the_chat_calls_over_rest(start: Start, gateway, database_url: str) -> None:
    """The REST bindings under /v1/ops: a report read, a message deleted, a player muted and unmuted, each refusal a
    problem with its reason."""
    from tests.ops.test_rest import HEADERS, JSON, problem

    harness, (ann, bob) = await moderated(start, database_url)
    client = await gateway(harness)
    room = await harness.create(seats=2)
    said = Said(3, player_id=bob.player.player_id, name="Bob", text="<b>hi</b>", time=1e9)
    report = await harness.server.operators.chat.reports.file(ann.player.player_id, room.room_id, said, [said])
    listed = (await client.get("/v1/ops/chat/reports", headers=HEADERS)).json()
    assert [r["reportId"] for r in listed["reports"]] == [report.report_id]
    got = (await client.get(f"/v1/ops/chat/reports/{report.report_id}", headers=HEADERS)).json()["report"]
    assert got["message"]["text"] == "<b>hi</b>" and got["message"]["seq"] == "3"
    answer = await client.post(f"/v1/ops/rooms/{room.room_id}/chat/3/delete", headers=HEADERS)
    assert answer.status_code == 200 and answer.json() == {"deleted": True}
    bob_id = bob.player.player_id
    answer = await client.post(f"/v1/ops/players/{bob_id}/mute", headers=JSON, json={"seconds": "600"})
    assert answer.status_code == 200 and answer.json()["mute"]["active"]
    assert [m["playerId"] for m in (await client.get("/v1/ops/chat/mutes", headers=HEADERS)).json()["mutes"]] == [
        bob_id
    ]
    assert (await client.post(f"/v1/ops/players/{bob_id}/mute/end", headers=HEADERS)).status_code == 200
    problem(await client.post(f"/v1/ops/players/{bob_id}/mute/end", headers=HEADERS), 409, "not_muted")
    problem(await client.post(f"/v1/ops/players/{bob_id}/mute", headers=JSON, json={}), 400, "bad_seconds")
    problem(await client.get("/v1/ops/chat/reports/nosuch", headers=HEADERS), 404, "report_not_found")
    answer = await client.post(f"/v1/ops/chat/reports/{report.report_id}/close", headers=JSON, json={"note": "done"})
    assert answer.json()["report"]["open"] is False
    problem(await client.get("/v1/ops/chat/reports"), 401, "operator_key_required")


async def test_a_deleted_players_name_leaves_the_reports(start: Start, database_url: str) -> None:
    """A report keeps what was said, but a player who deletes themselves keeps no name in it: their lines show their
    pseudonym; the other player's lines keep theirs."""
    from tests.server.conftest import auth

    harness, (ann, bob) = await moderated(start, database_url)
    room = await harness.create(seats=2)
    lines = [
        Said(1, player_id=bob.player.player_id, name="Bob", text="you again", time=1e9),
        Said(2, player_id=ann.player.player_id, name="Ann", text="hi", time=1e9 + 1),
        Said(3, player_id=bob.player.player_id, name="Bob", text="rude words", time=1e9 + 2),
    ]
    report = await harness.server.operators.chat.reports.file(ann.player.player_id, room.room_id, lines[2], lines)
    await harness.players.DeletePlayer(player_pb2.DeletePlayerRequest(), metadata=auth(bob.access_token))
    got = (
        await ops(harness).GetChatReport(operator_pb2.GetChatReportRequest(report_id=report.report_id), metadata=op())
    ).report
    names = [got.context[0].name, got.context[1].name, got.message.name]
    assert "Bob" not in names and names[1] == "Ann" and names[0] == names[2] != ""
    assert got.message.text == "rude words" and got.message.player_id == bob.player.player_id
