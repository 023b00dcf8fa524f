"""A node's group of moves on PostgreSQL is one statement: the lines whose lease still names the node are stored with
their rooms' rows, a line whose room another node claimed is refused, and the others of the group do not pay for it."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import event, select, update

from service.errors import Moved
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from service.store.models import LeaseRow, RoomRow
from service.store.records import LogEntry, RoomRecord, Turn
from tests.conftest import empty_database


def record(room_id: str) -> RoomRecord:
    return RoomRecord(
        room_id=room_id,
        game="soker",
        mode="online",
        seats=2,
        system_seats=(),
        system_player="normal",
        think_seconds=None,
        options={},
        seed=1,
        created_at=1.0,
        status="playing",
    )


def move(room_id: str, version: int, seat: int, then: int) -> LogEntry:
    """A person's move at ``seat``, after which seat ``then`` must act (its clock running out at 60.0)."""
    return LogEntry(
        room_id=room_id,
        version=version,
        kind="move",
        seat=seat,
        move="p:ITA-FW",
        request_id=f"{room_id}-{version}",
        deadlines={then: 60.0},
        time=float(version),
        epoch=1,
        turns=(Turn(then, "", 60.0, True),),
        game="soker",
    )


async def test_a_group_of_moves_is_one_statement_and_a_line_whose_room_moved_is_refused_alone(tmp_path) -> None:
    url = await empty_database("postgresql", tmp_path)
    await upgrade_in_thread(url)
    journal = SqlJournal(create_engine(url), node_id="node-a")
    for room_id in ("kept", "moved", "joined"):
        await journal.create("room", record(room_id))  # (its lease: node-a, epoch 1)
    await journal.append("room", move("kept", 1, 0, 1), "playing")
    await journal.append("room", move("moved", 1, 0, 1), "playing")
    async with journal.engine.begin() as connection:  # another node claims "moved"
        await connection.execute(
            update(LeaseRow).where(LeaseRow.target_id == "moved").values(node_id="node-b", epoch=2)
        )

    statements: list[str] = []
    event.listen(journal.engine.sync_engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    commits = journal.commits
    join = LogEntry(room_id="joined", version=1, kind="join", seat=0, name="ann", nonce="n", time=1.0, epoch=1)
    kept, moved, joined = await asyncio.gather(
        journal.append("room", move("kept", 2, 1, 0), "playing"),
        journal.append("room", move("moved", 2, 1, 0), "playing"),
        journal.append("room", join, "waiting"),  # (a seat taken: its transaction writes the seat's row too)
        return_exceptions=True,
    )
    assert kept is None and joined is None and isinstance(moved, Moved)
    moves = [statement for statement in statements if "INSERT INTO room_log" in statement]
    assert len(moves) == 2 and journal.commits - commits == 2, "the moves in one statement, the join beside them"
    assert sum(statement.startswith("WITH line AS") for statement in moves) == 1
    assert [entry.kind for entry in await journal.load("room", "joined")] == ["join"]

    assert [entry.version for entry in await journal.load("room", "kept")] == [1, 2]
    assert [entry.version for entry in await journal.load("room", "moved")] == [1], "nothing of the refused line"
    async with journal.engine.connect() as connection:
        rows = {row.room_id: row for row in await connection.execute(select(RoomRow))}
    assert rows["kept"].turns == {"0": ["", 60.0]}, "the kept room's row says who acts after its last line"
    assert rows["moved"].turns == {"1": ["", 60.0]}, "the moved room's row is as its last stored line left it"
    await journal.close()


@pytest.mark.parametrize("kind", ["join", "last"])
async def test_lines_that_change_more_than_the_log_and_the_row_take_the_whole_transaction(tmp_path, kind) -> None:
    url = await empty_database("postgresql", tmp_path)
    await upgrade_in_thread(url)
    journal = SqlJournal(create_engine(url), node_id="node-a")
    await journal.create("room", record("r"))
    entry = (
        LogEntry(room_id="r", version=1, kind="join", seat=0, name="ann", nonce="n", time=1.0, epoch=1)
        if kind == "join"
        else move("r", 1, 0, 1)
    )
    statements: list[str] = []
    event.listen(journal.engine.sync_engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    await journal.append("room", entry, "finished" if kind == "last" else "waiting")
    assert len(statements) > 1, "a seat taken or a lease given up is written beside the line, in its transaction"
    assert [e.version for e in await journal.load("room", "r")] == [1]
    async with journal.engine.connect() as connection:
        leases = (await connection.execute(select(LeaseRow.target_id))).scalars().all()
    assert leases == ([] if kind == "last" else ["r"])
    await journal.close()
