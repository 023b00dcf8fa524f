"""The chat's metrics an operator reads (deploy/observability.md): messages stored by channel and kind (a withdrawal
among them), reports filed and the operators' actions, each moved by what a player or an operator does over gRPC, on
SQLite, read as an exporter would from the SDK's in-memory reader. Under two seconds."""

from __future__ import annotations

from kickoff.v1 import chat_pb2, operator_pb2
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from tests.chat.conftest import CHAT, Table
from tests.ops.conftest import op, operator_keys, ops
from tests.servers import Start
from tests.telemetry.test_operations import by, metered


async def test_messages_reports_and_moderation_are_counted(start: Start, tmp_path) -> None:
    telemetry, reader = metered()
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    journal = SqlJournal(create_engine(url))
    table = Table(await start(journal=journal, chat=CHAT, telemetry=telemetry, operator_keys=operator_keys()))
    ann, bo = await table.guest("Ann"), await table.guest("Bo")
    room = await table.room(ann, bo)
    await table.say(ann, room, "hello")
    rude = await table.say(bo, room, "rude")
    await table.say(ann, room, reaction=chat_pb2.CHAT_REACTION_GOOD_GAME)
    await table.stub.ReportChatMessage(
        chat_pb2.ReportChatMessageRequest(room_id=room, seq=rude.seq),
        metadata=(("authorization", f"Bearer {ann.access_token}"),),
    )
    delete = operator_pb2.DeleteChatMessageRequest(room_id=room, seq=rude.seq)
    await ops(table.harness).DeleteChatMessage(delete, metadata=op())
    await ops(table.harness).DeleteChatMessage(delete, metadata=op())  # (once deleted: nothing more counted)

    assert by(reader, "kickoff.chat.messages", "kickoff.chat.channel", "kickoff.chat.kind") == {
        ("players", "text"): 2,
        ("players", "reaction"): 1,
        ("players", "withdrawal"): 1,
    }
    assert by(reader, "kickoff.chat.reports") == {(): 1}
    assert by(reader, "kickoff.chat.moderation", "kickoff.chat.action") == {("delete_message",): 1}
