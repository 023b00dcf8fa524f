"""Each seat's result in the contract (Outcome.results), for every game: nobody moves, the clock plays every turn to
the game's end, and the room, its replay and the game's last event say what each seat got. Age of Soccer's turn limit
with every seat on 0 shields lists every seat a winner: that is a draw for each, never a win."""

from __future__ import annotations

import pytest

from kickoff.v1 import common_pb2, room_pb2
from tests.server.conftest import Harness
from tests.server.test_replays import replay

WON, LOST, DRAWN = common_pb2.SEAT_RESULT_WON, common_pb2.SEAT_RESULT_LOST, common_pb2.SEAT_RESULT_DRAWN


async def run_out(harness: Harness, game: str, seats: int, options: dict) -> room_pb2.Room:
    """A room of ``seats`` people who never move: every clock runs out until the game is over."""
    request = room_pb2.CreateRoomRequest(game=game, mode=common_pb2.ROOM_MODE_ONLINE, seats=seats)
    request.options.update(options)
    room_id = (await harness.rooms.CreateRoom(request)).room.room_id
    for seat in range(seats):
        await harness.join(room_id, seat=seat, name=f"p{seat}")
    for _ in range(5000):
        room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
        if room.status == common_pb2.ROOM_STATUS_FINISHED:
            return room
        harness.clock.advance(61)
        await harness.settle(room_id)
    raise AssertionError("the game never ended")


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [("age-of-soccer", 3, {"max_rounds": 1}), ("soker", 2, {}), ("carta-futbol-club", 4, {})],
)
async def test_every_finished_room_says_each_seats_result(harness: Harness, game: str, seats: int, options) -> None:
    room = await run_out(harness, game, seats, options)
    outcome = room.outcome
    results = list(outcome.results)
    if game == "age-of-soccer":  # nobody challenged: 0 shields each, every seat listed a winner, a draw for each
        assert (outcome.reason, list(outcome.winners)) == ("rounds", [0, 1, 2]), outcome
        assert results == [DRAWN] * 3
    elif game == "soker":  # nobody played a card: a stalemate, with no winner
        assert (outcome.reason, list(outcome.winners)) == ("stalemate", []), outcome
        assert results == [DRAWN] * 2
    elif outcome.reason == "draw":  # Carta: a level match without extra time is drawn
        assert results == [DRAWN] * 4
    else:  # the winning team's seats won together, the other team lost
        team = outcome.winning_teams[0]
        assert results == [WON if seat.team == team else LOST for seat in room.seats], outcome
    pages = await replay(harness, room.room_id)
    assert list(pages[0].room.outcome.results) == results
    steps = [step for page in pages for step in page.steps]
    ended = [e.game_ended.outcome for step in steps for e in step.update.events if e.HasField("game_ended")]
    assert [list(each.results) for each in ended] == [results]
