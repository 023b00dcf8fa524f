"""A player's games read back from the store carry each seat's result, as the room gave it when the game ended."""

from __future__ import annotations

from kickoff.v1 import common_pb2, player_pb2
from tests.players.conftest import Served


async def test_a_players_stored_game_says_each_seats_result(served: Served) -> None:
    ann, bo = await served.guest(name="Ann"), await served.guest(name="Bo")
    created = await served.create(ann)
    room_id = created.room.room_id
    joined = await served.join(room_id, bo)
    ended = await served.play_out(room_id, {created.seat: created.seat_token, joined.seat: joined.seat_token})
    won, lost, drawn = common_pb2.SEAT_RESULT_WON, common_pb2.SEAT_RESULT_LOST, common_pb2.SEAT_RESULT_DRAWN
    winners = list(ended.outcome.winners)
    expected = [drawn, drawn] if not winners else [won if seat in winners else lost for seat in range(2)]
    assert list(ended.outcome.results) == expected, ended.outcome
    for session in (ann, bo):
        games = await served.harness.players.ListPlayerGames(
            player_pb2.ListPlayerGamesRequest(player_id=session.player.player_id)
        )
        [game] = games.games
        assert game.room_id == room_id and list(game.outcome.results) == expected, game.outcome
