"""Case 3: a store failure never healed. With the disk full for a moment, or PostgreSQL stopped and started, the first
write gave 500, then every room that wrote during the failure refused everything until the process restarted, and
GetRoom showed a version the store never got.

Now a room whose store is away answers UNAVAILABLE (retriable, with a retry delay), shows only what the store holds,
and goes on by itself once the store is back: the same process, the same room, every update heard once."""

from __future__ import annotations

import asyncio
import errno
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from kickoff.v1 import common_pb2, move_pb2, move_pb2_grpc, room_pb2, room_pb2_grpc
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from tests.abuse.postgres import PrivateCluster
from tests.processes import free_port
from tests.server.conftest import auth, refusal_info
from tests.servers import Start


def retry_delay(error: grpc.aio.AioRpcError) -> float | None:
    status = rpc_status.from_call(error)
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            info = error_details_pb2.RetryInfo()
            detail.Unpack(info)
            return info.retry_delay.ToNanoseconds() / 1e9
    return None


async def until_accepted(submit: Callable[[], Awaitable[move_pb2.SubmitMoveResponse]], wait: Callable[[], Awaitable]):
    """Send the same request again while the answer is UNAVAILABLE (``wait`` between tries), as a client would."""
    for _ in range(200):
        try:
            return await submit()
        except grpc.aio.AioRpcError as error:
            assert error.code() == grpc.StatusCode.UNAVAILABLE, error
            assert retry_delay(error) is not None, "UNAVAILABLE says when to try again"
            await wait()
    raise AssertionError("the room never took the move again")


async def play_out(moves, room_id: str, token: str, first_id: int) -> int:
    """Seat 0 plays (its first legal move each turn) until the game ends; returns the moves it made."""
    made = 0
    while True:
        view = await moves.GetView(move_pb2.GetViewRequest(room_id=room_id), metadata=auth(token))
        if not view.to_act:
            return made
        legal = await moves.ListLegalMoves(move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(token))
        if legal.version != view.version or not legal.moves:
            continue
        request = move_pb2.SubmitMoveRequest(
            room_id=room_id, move=legal.moves[0], request_id=f"m{first_id + made}", expected_version=view.version
        )
        await moves.SubmitMove(request, metadata=auth(token))
        made += 1


async def follow(call, into: list[int]) -> None:
    async for response in call:
        into.append(response.update.version)


async def test_postgresql_stopped_and_started_mid_game_the_room_goes_on_by_itself(start: Start) -> None:
    cluster = PrivateCluster()
    try:
        await upgrade_in_thread(cluster.url)
        journal = SqlJournal(create_engine(cluster.url), retry_seconds=0.3)
        harness = await start(journal=journal)
        room_id = (await harness.create(seats=4, system_players=3, solo=True)).room_id
        _, token = await harness.join(room_id, name="ann")
        room = harness.directory.get(room_id)
        heard: list[int] = []
        following = asyncio.create_task(
            follow(harness.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room_id)), heard)
        )
        for _ in range(3):
            legal = await harness.legal(room_id, token)
            await harness.submit(room_id, token, legal[0], request_id=f"before-{room.version}")
            await room.settle()
        stored_version = room.version
        legal = await harness.legal(room_id, token)

        cluster.stop()
        code, info, message = await refusal_info(harness.submit(room_id, token, legal[0], request_id="during"))
        assert code == grpc.StatusCode.UNAVAILABLE and info.reason == "store_unavailable", message
        shown = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
        assert shown.version == stored_version, "GetRoom shows only what the store holds"
        code, info, _ = await refusal_info(harness.view(room_id, token))
        assert code == grpc.StatusCode.UNAVAILABLE, "while the store is away the room says so, retriably"

        cluster.start()
        answer = await until_accepted(
            lambda: harness.submit(room_id, token, legal[0], request_id="during"), room.settle
        )
        assert answer.version == stored_version + 1, "the move is played once, after the store came back"
        await play_out(harness.moves, room_id, token, 0)
        final = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
        assert final.status == common_pb2.ROOM_STATUS_FINISHED
        await asyncio.wait_for(following, 10)  # the spectator's stream ends with the game
        assert heard == list(range(1, final.version + 1)), "every update once, in order, across the outage"
        stored = await journal.load("room", room_id)
        assert [entry.version for entry in stored] == heard, "what clients heard is what the store holds"
        await journal.close()
    finally:
        cluster.remove()


def namespace_ok() -> bool:
    return subprocess.run(["unshare", "-Urm", "true"], capture_output=True).returncode == 0


async def test_a_full_disk_under_sqlite_refuses_moves_retriably_and_the_same_process_goes_on(tmp_path) -> None:
    """The server runs in a mount namespace of its own whose ./disk is a 4 MB tmpfs; the test fills it to the last
    byte through /proc/<pid>/root, then frees it."""
    if not namespace_ok():
        if os.environ.get("CI") == "true":
            pytest.fail("unshare -Urm is refused: no private tmpfs for the full-disk test")
        pytest.skip("unshare -Urm is refused here")
    disk = tmp_path / "disk"
    disk.mkdir()
    port = free_port()
    env = {
        **os.environ,
        "KICKOFF_STORE_RETRY_SECONDS": "0.3",
        "KICKOFF_TOKEN_SECRET": "a full-disk test secret of 32 bytes",
    }
    command = (
        f"mount -t tmpfs -o size=4m tmpfs '{disk}' && exec '{sys.executable}' -m cli grpc --port {port} "
        f"--database-url 'sqlite+aiosqlite:///{disk}/kickoff.db'"
    )
    server = subprocess.Popen(
        ["unshare", "-Urm", "sh", "-c", command], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    filler = Path(f"/proc/{server.pid}/root{disk}/filler")
    try:
        for line in server.stdout:
            if f":{port}" in line:
                break
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            rooms, moves = room_pb2_grpc.RoomServiceStub(channel), move_pb2_grpc.MoveServiceStub(channel)
            created = (
                await rooms.CreateRoom(
                    room_pb2.CreateRoomRequest(
                        game="soker", mode=common_pb2.ROOM_MODE_SOLO, seats=4, system_players=3, think_seconds=0
                    )
                )
            ).room
            room_id = created.room_id
            token = (await rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, name="ann"))).seat_token
            heard: list[int] = []
            following = asyncio.create_task(
                follow(moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room_id)), heard)
            )

            async def legal_now() -> tuple[int, move_pb2.Move]:
                while True:  # the system players move after the person: wait for the person's turn
                    view = await moves.GetView(move_pb2.GetViewRequest(room_id=room_id), metadata=auth(token))
                    legal = await moves.ListLegalMoves(
                        move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(token)
                    )
                    if legal.moves and legal.version == view.version:
                        return view.version, legal.moves[0]

            version, move = await legal_now()
            # Fill the disk to the last byte, unbuffered: a buffered file would keep the part of its last chunk the
            # disk did not take, and fail again as it closes (unless the space left happened to be whole chunks).
            with open(filler, "wb", buffering=0) as fill:
                try:
                    while True:
                        fill.write(b"\0" * 65536)
                except OSError as error:
                    assert error.errno == errno.ENOSPC
            refusals = 0
            for _ in range(3):  # every try while the disk is full is refused retriably, at the same version
                try:
                    await moves.SubmitMove(
                        move_pb2.SubmitMoveRequest(
                            room_id=room_id, move=move, request_id="full", expected_version=version
                        ),
                        metadata=auth(token),
                    )
                except grpc.aio.AioRpcError as error:
                    assert error.code() == grpc.StatusCode.UNAVAILABLE, error
                    assert retry_delay(error) is not None
                    refusals += 1
                shown = (await rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
                assert shown.version == version, "GetRoom shows only what the store holds"
            assert refusals == 3, "no move was stored while the disk was full"
            filler.unlink()  # room on the disk again

            for _ in range(200):
                try:
                    answer = await moves.SubmitMove(
                        move_pb2.SubmitMoveRequest(
                            room_id=room_id, move=move, request_id="full", expected_version=version
                        ),
                        metadata=auth(token),
                    )
                    break
                except grpc.aio.AioRpcError as error:
                    assert error.code() == grpc.StatusCode.UNAVAILABLE, error
                    await asyncio.sleep(retry_delay(error) / 10)  # a client backs off as told (shortened here)
            assert answer.version == version + 1
            await play_out(moves, room_id, token, 0)
            final = (await rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
            assert final.status == common_pb2.ROOM_STATUS_FINISHED
            await asyncio.wait_for(following, 10)
            assert heard == list(range(1, final.version + 1)), "every update once, in order, across the full disk"
        assert server.poll() is None, "the same process served it all"
    finally:
        server.kill()
        server.wait()
