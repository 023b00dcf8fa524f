"""examples/rest/play.py, the REST flow the docs walk through (docs/getting-started/rest.md), run as a reader runs it
against a server with matchmaking and the gateway in front of it: it must play its game to the end and say so."""

from __future__ import annotations

import re
from pathlib import Path

from kickoff.v1 import common_pb2, move_pb2, player_pb2, room_pb2
from tests.examples.example_process import Example, run_while_system_players_fill, sqlite_journal
from tests.servers import Start

EXAMPLE = "examples/rest/play.py"


async def test_the_rest_example_plays_a_matched_game_to_its_end_then_prints_the_replay_and_the_rating(
    start: Start, gateway, tmp_path: Path
) -> None:
    """Buys: the whole REST flow works as the docs quote it, every step against the real gateway: a guest, a ticket
    followed to MATCHED, the seat, a game played from the event stream with a stream ticket (the test's clock never
    plays for the seat, so the game ends only if the example made every move), the replay and the rating. About a
    second."""
    harness = await start(journal=await sqlite_journal(tmp_path))
    client = await gateway(harness)
    output = await run_while_system_players_fill(EXAMPLE, str(client.base_url), harness, "ticket searching")
    lines = output.splitlines()
    assert "ticket proposed" in output and "ticket matched" in output

    room_id, seat = re.search(r"^room (\w+): seat (\d+) of 2$", output, re.M).groups()
    room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert room.status == common_pb2.ROOM_STATUS_FINISHED and room.mode == common_pb2.ROOM_MODE_ONLINE
    player_id = re.search(r"^signed in as REST example \(player (\w+)\)$", output, re.M).group(1)
    assert room.seats[int(seat)].player_id == player_id, "the example's guest held the seat it played"
    assert len(re.findall(r"^version \d+: played ", output, re.M)) >= 1
    assert re.search(r"^version \d+: the game is over$", output, re.M)

    replay = await harness.moves.GetReplay(move_pb2.GetReplayRequest(room_id=room_id, page_size=500))
    result = common_pb2.SeatResult.Name(room.outcome.results[int(seat)]).removeprefix("SEAT_RESULT_").lower()
    assert f"replay: {replay.last_version} steps; the game ended by {room.outcome.reason}; seat {seat} {result}" in (
        lines
    )

    rank = await harness.players.GetRank(player_pb2.GetRankRequest(game="soker", player_id=player_id))
    rating = rank.line.rating
    assert rank.rated_games == 1 and rating.games == 1, "the matched game was rated"
    assert f"rating {rating.display:.2f} (mu {rating.mu:.2f}, sigma {rating.sigma:.2f})" in lines
    assert f"rank {rank.line.rank} of {rank.ranked}" in lines


async def test_the_rest_example_stops_with_the_servers_reason_for_a_game_it_does_not_host(
    start: Start, gateway, tmp_path: Path
) -> None:
    """Buys: a mistyped option ends the example at once with the refusal's status and reason, not a traceback or a
    wait. Under a second."""
    harness = await start(journal=await sqlite_journal(tmp_path))
    client = await gateway(harness)
    example = await Example.start(EXAMPLE, str(client.base_url), "--game", "chess")
    try:
        code, stderr = await example.finish()
    finally:
        example.kill()
    assert code == 1, stderr
    assert stderr.startswith("POST /v1/tickets: 400") and "unknown_game" in stderr, stderr
    assert "Traceback" not in stderr
