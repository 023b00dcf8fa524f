"""A duplicate tournament's deals end to end: a person and three system players (solo) play its eight rooms, two deals
four times each with the seats rotated. A deal's rooms but its last are held: until the deal's last rotation ends
their replay is a spectator's (no hand, no move, no secret) and `kickoff verify` says it cannot verify yet; once the
tournament reveals the deal, every room of it verifies against the one commitment published at the creation."""

from __future__ import annotations

import json

from deals.verify import verify
from kickoff.v1 import common_pb2, tournament_pb2
from tests.deals.replays import replay_dict
from tests.deals.served import whole_replay
from tests.server.conftest import Harness, play_room
from tests.servers import Start


async def tournament(harness: Harness, tid: str) -> tournament_pb2.Tournament:
    await harness.server.tournaments.settle()
    return (await harness.tournaments.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id=tid))).tournament


async def test_a_duplicate_tournaments_rooms_verify_once_their_deal_is_revealed_and_not_before(
    start: Start,
) -> None:
    """Buys: a held room shows nothing to recompute a hand from until its deal's last rotation, and every room of a
    duplicate tournament (subject ``<tournament>/deal/<n>``, the players' seeds in entry order, the seats rotated)
    verifies from its replay afterwards (under a second: eight short games of Soker)."""
    harness = await start()
    request = tournament_pb2.CreateTournamentRequest(
        game="soker", mode=common_pb2.ROOM_MODE_SOLO, system_players=3, think_seconds=0, duplicate=True
    )
    created = (await harness.tournaments.CreateTournament(request)).tournament
    tid = created.tournament_id
    commitments = [deal.commitment for deal in created.deals]
    joined = await harness.tournaments.JoinTournament(
        tournament_pb2.JoinTournamentRequest(tournament_id=tid, name="ann", seed="ann-duplicate-seed")
    )
    token = joined.seat_token
    rooms: list[str] = []
    for index in range(8):
        room_id = (await tournament(harness, tid)).game_list[index].room_id
        await play_room(harness, room_id, token)
        rooms.append(room_id)
        standing = await tournament(harness, tid)
        deal, rotation = divmod(index, 4)
        for played, held_id in enumerate(rooms[deal * 4 :]):
            whole, _ = await whole_replay(harness, held_id, page_size=50)
            room = whole.room
            assert room.status == common_pb2.ROOM_STATUS_FINISHED
            assert room.deal.subject == f"{tid}/deal/{deal}" and room.deal.commitment == commitments[deal]
            assert room.deal.seeds[0] == "ann-duplicate-seed", "the players' seeds in entry order"
            if rotation < 3:  # the deal's last rotation is not played yet: every room of it is held
                assert not whole.revealed and not room.deal.secret and not standing.deals[deal].secret
                assert not any(step.hands or step.HasField("move") for step in whole.steps), "no hand, no move"
                hands = [card for step in whole.steps for card in step.view.soker.hand]
                assert not hands, f"room {played} of deal {deal}: a spectator's view holds no hand"
                verdict = verify(json.loads(json.dumps(replay_dict(whole))))
                assert not verdict.readable and "not revealed yet" in verdict.reason, verdict.describe()
            else:
                assert whole.revealed and room.deal.secret == standing.deals[deal].secret != ""
                verdict = verify(json.loads(json.dumps(replay_dict(whole))))
                assert verdict.ok, f"room {played} of deal {deal}: {verdict.describe()}"
                assert verdict.commitment == commitments[deal]
    final = await tournament(harness, tid)
    assert final.status == tournament_pb2.TOURNAMENT_STATUS_FINISHED and len(set(rooms)) == 8
