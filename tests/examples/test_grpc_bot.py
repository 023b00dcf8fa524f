"""examples/grpc/bot.py, the bot of your own the docs quote (docs/getting-started/python.md), run as a reader runs it
against a server with matchmaking: it must play every decision of its seat from its Play stream and stop at the end."""

from __future__ import annotations

import re
from pathlib import Path

from kickoff.v1 import common_pb2, move_pb2, room_pb2
from tests.examples.example_process import run_while_system_players_fill, sqlite_journal
from tests.servers import Start

EXAMPLE = "examples/grpc/bot.py"


async def test_the_bot_takes_up_a_matched_seat_plays_every_decision_and_stops_when_the_game_ends(
    start: Start, tmp_path: Path
) -> None:
    """Buys: the bot works as quoted, with nothing but grpcio and the generated stubs: a guest's ticket followed and
    taken up, then the game played on one Play stream (the test's clock never plays for the seat, so the game ends
    only if the bot made every move) and the stream closed by the bot once the game is over. About a second."""
    harness = await start(journal=await sqlite_journal(tmp_path))
    target = f"127.0.0.1:{harness.server.port}"
    output = await run_while_system_players_fill(EXAMPLE, target, harness, "queued for soker")
    lines = output.splitlines()

    room_id, seat = re.search(r"^room (\w+): seat (\d+) of 2$", output, re.M).groups()
    room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert room.status == common_pb2.ROOM_STATUS_FINISHED
    assert room.seats[int(seat)].name == "gRPC bot" and room.seats[int(seat)].player_id, "the bot's guest sat there"
    assert [s.kind for s in room.seats if s.seat != int(seat)] == [common_pb2.SEAT_KIND_SYSTEM]
    played = re.findall(r"^version \d+: played soker \{", output, re.M)
    assert played and "move refused" not in output

    result = common_pb2.SeatResult.Name(room.outcome.results[int(seat)])
    last = (await harness.moves.GetReplay(move_pb2.GetReplayRequest(room_id=room_id))).last_version
    assert lines[-1] == f"version {last}: the game is over ({room.outcome.reason}); seat {seat} {result}"
