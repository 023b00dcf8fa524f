"""Tournaments over gRPC: eight games that start by themselves, one token for every game, standings that add up."""

from __future__ import annotations

import grpc
import pytest
from google.protobuf import struct_pb2

from engine.core import Outcome
from kickoff.v1 import common_pb2, room_pb2, tournament_pb2
from tests.server.conftest import Harness, auth, play_room, refusal, soker_move
from tests.tournament_checks import check_against_the_rooms, tournament_updates
from tests.tournament_points import standings_lines, table


async def create(
    harness: Harness, *, system_players: int, solo: bool = False, options: dict | None = None
) -> tournament_pb2.Tournament:
    request = tournament_pb2.CreateTournamentRequest(
        game="soker",
        mode=common_pb2.ROOM_MODE_SOLO if solo else common_pb2.ROOM_MODE_ONLINE,
        system_players=system_players,
        think_seconds=0,
    )
    if options:
        request.options.CopyFrom(struct_pb2.Struct())
        request.options.update(options)
    return (await harness.tournaments.CreateTournament(request)).tournament


async def test_four_system_players_play_a_whole_tournament(harness: Harness) -> None:
    created = await create(harness, system_players=4)
    assert created.games == 8 and len(created.seats) == 4
    assert all(seat.kind == common_pb2.SEAT_KIND_SYSTEM and seat.taken for seat in created.seats)
    updates = await tournament_updates(harness, created.tournament_id)
    assert [int(u["version"]) for u in updates] == list(range(1, 17)), "one start and one result per game"
    kinds = [[next(iter(event)) for event in u["events"]] for u in updates]
    assert kinds == [["gameStarted"], ["gameEnded", "standingsChanged"]] * 7 + [
        ["gameStarted"],
        ["gameEnded", "standingsChanged", "tournamentEnded"],
    ]
    started = [u["events"][0]["gameStarted"]["game"] for u in updates[::2]]
    assert [g.get("index", 0) for g in started] == list(range(8))
    assert [g.get("firstSeat", 0) for g in started] == [0, 1, 2, 3, 0, 1, 2, 3]
    games = await check_against_the_rooms(harness, created.tournament_id)
    # Each update's standings are the running total of the games ended so far.
    for count, update in enumerate(updates[1::2], start=1):
        assert standings_lines(update["events"][1]["standingsChanged"]["standings"]) == table(games[:count])
    final = updates[-1]["events"][2]["tournamentEnded"]["standings"]
    assert final["final"] and standings_lines(final) == table(games)


async def test_a_person_plays_every_game_with_one_tournament_token(harness: Harness) -> None:
    created = await create(harness, system_players=3, solo=True)
    assert created.status == tournament_pb2.TOURNAMENT_STATUS_WAITING and not created.game_list
    joined = await harness.tournaments.JoinTournament(
        tournament_pb2.JoinTournamentRequest(tournament_id=created.tournament_id, name="ann")
    )
    assert joined.seat == 0 and joined.tournament.status == tournament_pb2.TOURNAMENT_STATUS_PLAYING
    token = joined.seat_token
    tid = created.tournament_id
    played_rooms = []
    for index in range(8):
        await harness.server.tournaments.settle()
        tournament = (
            await harness.tournaments.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id=tid))
        ).tournament
        assert tournament.games_played == index and len(tournament.game_list) == index + 1
        room_id = tournament.current_room_id
        room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
        assert room.tournament_id == tid and room.tournament_game == index
        assert room.seats[0].name == "ann" and room.status == common_pb2.ROOM_STATUS_PLAYING
        assert room.options["first_seat"] == index % 4
        # Play the whole game, a play whenever there is one: the same token in every room.
        await play_room(harness, room_id, token)
        played_rooms.append(room_id)
    await harness.server.tournaments.settle()
    assert len(set(played_rooms)) == 8
    games = await check_against_the_rooms(harness, tid)
    assert sum(game["points"][0] for game in games) > 0, "the person scored"
    # The final standings stay a value anyone can fetch afterwards.
    again = (await harness.tournaments.GetStandings(tournament_pb2.GetStandingsRequest(tournament_id=tid))).standings
    assert again.final and again.lines[0].name


async def test_the_next_game_starts_when_the_clock_ends_a_game_nobody_plays(harness: Harness) -> None:
    """An online tournament: the person is away, the clock plays for them, and the games go on by themselves."""
    created = await create(harness, system_players=3, options={"hand_size": 2})
    tid = created.tournament_id
    await harness.tournaments.JoinTournament(tournament_pb2.JoinTournamentRequest(tournament_id=tid))
    first_room = (
        await harness.tournaments.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id=tid))
    ).tournament
    room_id = first_room.current_room_id
    for _ in range(500):
        await harness.settle(room_id)
        room = harness.directory.get(room_id)
        if room.status == "finished":
            break
        assert room.first_deadline is not None and room.first_deadline.seat == 0, "only the person's turn waits"
        harness.clock.advance(30)
    else:
        pytest.fail("the game did not end")
    await harness.server.tournaments.settle()
    tournament = (
        await harness.tournaments.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id=tid))
    ).tournament
    assert tournament.games_played >= 1 and tournament.current_room_id not in ("", room_id)
    assert tournament.game_list[1].first_seat == 1


async def test_tournament_streams_resume_after_a_version(harness: Harness) -> None:
    created = await create(harness, system_players=4)
    everything = await tournament_updates(harness, created.tournament_id)
    resumed = await tournament_updates(harness, created.tournament_id, after=5)
    assert resumed == everything[5:], "the same updates, no gap and no duplicate"


async def test_seats_can_be_given_back_before_the_start_and_not_after(harness: Harness) -> None:
    created = await create(harness, system_players=2)
    tid = created.tournament_id
    tournaments = harness.tournaments
    first = await tournaments.JoinTournament(tournament_pb2.JoinTournamentRequest(tournament_id=tid, seat=1, name="bo"))
    with pytest.raises(grpc.aio.AioRpcError) as taken:
        await tournaments.JoinTournament(tournament_pb2.JoinTournamentRequest(tournament_id=tid, seat=1))
    assert taken.value.code() == grpc.StatusCode.ALREADY_EXISTS
    with pytest.raises(grpc.aio.AioRpcError) as robot:
        await tournaments.JoinTournament(tournament_pb2.JoinTournamentRequest(tournament_id=tid, seat=3))
    assert robot.value.code() == grpc.StatusCode.ALREADY_EXISTS and "system player" in robot.value.details()
    left = await tournaments.LeaveTournament(
        tournament_pb2.LeaveTournamentRequest(tournament_id=tid), metadata=auth(first.seat_token)
    )
    assert not left.tournament.seats[1].taken
    with pytest.raises(grpc.aio.AioRpcError) as stale:
        await tournaments.LeaveTournament(
            tournament_pb2.LeaveTournamentRequest(tournament_id=tid), metadata=auth(first.seat_token)
        )
    assert stale.value.code() == grpc.StatusCode.UNAUTHENTICATED
    ann = await tournaments.JoinTournament(tournament_pb2.JoinTournamentRequest(tournament_id=tid, name="ann"))
    bo = await tournaments.JoinTournament(tournament_pb2.JoinTournamentRequest(tournament_id=tid, name="bo"))
    assert (ann.seat, bo.seat) == (0, 1) and bo.tournament.status == tournament_pb2.TOURNAMENT_STATUS_PLAYING
    with pytest.raises(grpc.aio.AioRpcError) as full:
        await tournaments.JoinTournament(tournament_pb2.JoinTournamentRequest(tournament_id=tid))
    assert full.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    # During the games the seat stays: leaving changes nothing, and the token still plays.
    await tournaments.LeaveTournament(
        tournament_pb2.LeaveTournamentRequest(tournament_id=tid), metadata=auth(bo.seat_token)
    )
    room_id = bo.tournament.current_room_id
    assert (await harness.legal(room_id, ann.seat_token)) or (await harness.legal(room_id, bo.seat_token))


async def test_tournament_rooms_take_only_their_tournament_tokens(harness: Harness) -> None:
    one = await create(harness, system_players=3, solo=True)
    two = await create(harness, system_players=3, solo=True)
    token_one = (
        await harness.tournaments.JoinTournament(tournament_pb2.JoinTournamentRequest(tournament_id=one.tournament_id))
    ).seat_token
    joined_two = await harness.tournaments.JoinTournament(
        tournament_pb2.JoinTournamentRequest(tournament_id=two.tournament_id)
    )
    room_two = joined_two.tournament.current_room_id
    with pytest.raises(grpc.aio.AioRpcError) as foreign:
        await harness.submit(room_two, token_one, soker_move("draw"))
    assert foreign.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.aio.AioRpcError) as direct:
        await harness.join(room_two)
    assert (
        direct.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "join the tournament" in direct.value.details()
    )
    with pytest.raises(grpc.aio.AioRpcError) as wrong:
        await harness.tournaments.LeaveTournament(
            tournament_pb2.LeaveTournamentRequest(tournament_id=two.tournament_id), metadata=auth(token_one)
        )
    assert wrong.value.code() == grpc.StatusCode.PERMISSION_DENIED
    answer = await harness.submit(room_two, joined_two.seat_token, soker_move("draw"))
    assert answer.version > 0


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"game": "chess", "system_players": 3, "mode": common_pb2.ROOM_MODE_SOLO}, "no_tournament"),
        ({"game": "soker", "system_players": 5, "mode": common_pb2.ROOM_MODE_ONLINE}, "no_person_seat"),
        ({"game": "soker", "system_players": 2, "mode": common_pb2.ROOM_MODE_SOLO}, "solo_needs_one_person"),
        ({"game": "soker", "system_players": 1}, "bad_mode"),
        ({"system_players": 1, "mode": common_pb2.ROOM_MODE_ONLINE}, "missing_game"),
        ({"game": "soker", "mode": common_pb2.ROOM_MODE_ONLINE, "think_seconds": 99}, "bad_think_time"),
    ],
)
async def test_bad_tournaments_are_refused_with_a_reason(harness: Harness, fields: dict, reason: str) -> None:
    code, why, message = await refusal(
        harness.tournaments.CreateTournament(tournament_pb2.CreateTournamentRequest(**fields))
    )
    assert (code, why) == (grpc.StatusCode.INVALID_ARGUMENT, reason) and message


async def test_first_seat_is_the_tournaments_to_set_and_unknown_ids_are_not_found(harness: Harness) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await create(harness, system_players=4, options={"first_seat": 2})
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "rotates" in refused.value.details()
    code, reason, _ = await refusal(
        harness.tournaments.GetStandings(tournament_pb2.GetStandingsRequest(tournament_id="nope"))
    )
    assert (code, reason) == (grpc.StatusCode.NOT_FOUND, "tournament_not_found")
    with pytest.raises(grpc.aio.AioRpcError) as empty:
        await harness.tournaments.GetTournament(tournament_pb2.GetTournamentRequest())
    assert empty.value.code() == grpc.StatusCode.INVALID_ARGUMENT


async def test_tournaments_are_listed_newest_first_by_status(harness: Harness) -> None:
    done = await create(harness, system_players=4)
    await tournament_updates(harness, done.tournament_id)  # until it ends
    waiting = await create(harness, system_players=3, solo=True)
    listed = await harness.tournaments.ListTournaments(tournament_pb2.ListTournamentsRequest())
    assert [t.tournament_id for t in listed.tournaments] == [waiting.tournament_id, done.tournament_id]
    finished = await harness.tournaments.ListTournaments(
        tournament_pb2.ListTournamentsRequest(status=tournament_pb2.TOURNAMENT_STATUS_FINISHED)
    )
    assert [t.tournament_id for t in finished.tournaments] == [done.tournament_id]
    page = await harness.tournaments.ListTournaments(tournament_pb2.ListTournamentsRequest(page_size=1))
    rest = await harness.tournaments.ListTournaments(
        tournament_pb2.ListTournamentsRequest(page_size=1, page_token=page.next_page_token)
    )
    assert [t.tournament_id for t in [*page.tournaments, *rest.tournaments]] == [
        waiting.tournament_id,
        done.tournament_id,
    ]
    assert not rest.next_page_token


@pytest.mark.parametrize(
    ("results", "expected"),
    [
        # equal points: games won decide
        ([((0,), "empty_hand", (9, 9, 2, 1)), ((), "stalemate", (0, 0, 1, 1))], [(1, 0), (2, 1), (3, 2), (4, 3)]),
        # equal points and games won: country wins decide
        ([((0,), "one_country", (10, 0, 0, 0)), ((1,), "empty_hand", (0, 10, 0, 0))], [(1, 0), (2, 1), (3, 2), (3, 3)]),
        # equal on all three: the place is shared and the next one skipped
        ([((0,), "empty_hand", (8, 4, 2, 2)), ((1,), "empty_hand", (4, 8, 2, 2))], [(1, 0), (1, 1), (3, 2), (3, 3)]),
    ],
)
async def test_constructed_ties_reach_clients_with_shared_places(
    harness: Harness, results: list, expected: list
) -> None:
    """The standings on the wire break ties as the rulebook says (the games' outcomes are set by hand here)."""
    created = await create(harness, system_players=3, solo=True)
    tournament = harness.server.tournaments.get(created.tournament_id)
    for winners, reason, points in results:
        tournament.rules.record(Outcome(winners, reason, points))
    standings = (
        await harness.tournaments.GetStandings(tournament_pb2.GetStandingsRequest(tournament_id=created.tournament_id))
    ).standings
    assert [(line.place, line.seat) for line in standings.lines] == expected
    assert not standings.final


async def test_a_solo_tournament_whose_person_walked_away_ends_with_its_abandoned_game(start) -> None:
    harness = await start(max_live_tournaments=1)
    created = await create(harness, system_players=3, solo=True)
    tid = created.tournament_id
    joined = await harness.tournaments.JoinTournament(tournament_pb2.JoinTournamentRequest(tournament_id=tid))
    await harness.server.tournaments.settle()
    first = (await harness.tournaments.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id=tid))).tournament
    room_id = first.current_room_id
    await harness.settle(room_id)
    assert list((await harness.view(room_id, joined.seat_token)).to_act) == [0], "the person to move"
    code, reason, _ = await refusal(
        harness.tournaments.CreateTournament(
            tournament_pb2.CreateTournamentRequest(game="soker", mode=common_pb2.ROOM_MODE_SOLO, system_players=3)
        )
    )
    assert (code, reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "server_full")

    harness.clock.advance(30 * 24 * 3600)  # KICKOFF_SOLO_ABANDON_SECONDS' default, without a move
    await harness.settle(room_id)
    await harness.server.tournaments.settle()
    room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert room.status == common_pb2.ROOM_STATUS_FINISHED and room.outcome.reason == "abandoned"
    ended = (await harness.tournaments.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id=tid))).tournament
    assert ended.status == tournament_pb2.TOURNAMENT_STATUS_FINISHED and len(ended.game_list) == 1
    assert ended.game_list[0].outcome.reason == "abandoned" and not ended.standings.final
    updates = await tournament_updates(harness, tid)
    assert [next(iter(event)) for event in updates[-1]["events"]] == ["gameEnded", "tournamentEnded"]
    await create(harness, system_players=3, solo=True)  # it left the cap on live tournaments


async def test_a_duplicate_tournaments_token_plays_its_rotated_seat_and_the_deals_are_public(harness: Harness) -> None:
    """Over gRPC: Tournament.duplicate and deals (commitments from the creation, the seat's seed once seated), each
    game's table_seats; the one tournament token plays the rotated seat of games 1 and 2 (the room finds it by the
    token's nonce), and GetStandings compares each hand of deal 0 as it is played. Under a second."""
    request = tournament_pb2.CreateTournamentRequest(
        game="soker", mode=common_pb2.ROOM_MODE_SOLO, system_players=3, think_seconds=0, duplicate=True
    )
    created = (await harness.tournaments.CreateTournament(request)).tournament
    tid = created.tournament_id
    assert created.duplicate and [deal.subject for deal in created.deals] == [f"{tid}/deal/0", f"{tid}/deal/1"]
    assert all(len(deal.commitment) == 64 and not deal.secret for deal in created.deals)
    joined = await harness.tournaments.JoinTournament(
        tournament_pb2.JoinTournamentRequest(tournament_id=tid, name="ann", seed="ann-seed")
    )
    assert joined.tournament.seats[0].seed == "ann-seed" and joined.tournament.deals[0].seeds[0] == "ann-seed"
    token = joined.seat_token
    for index in range(2):
        await harness.server.tournaments.settle()
        tournament = (
            await harness.tournaments.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id=tid))
        ).tournament
        game = tournament.game_list[index]
        assert list(game.table_seats) == [(seat + index) % 4 for seat in range(4)] and game.deal == 0
        room_id = game.room_id
        while True:
            await harness.settle(room_id)
            view = await harness.view(room_id, token)
            assert view.viewer == index, "the token's seat in rotation r is table seat r"
            if not view.to_act:
                break
            legal = await harness.legal(room_id, token)
            plays = [move for move in legal if move.soker.HasField("play")]
            await harness.submit(room_id, token, (plays or legal)[0], expected=view.version)
    await harness.server.tournaments.settle()
    standings = (
        await harness.tournaments.GetStandings(tournament_pb2.GetStandingsRequest(tournament_id=tid))
    ).standings
    hands = [(hand.deal, hand.table_seat, [(p.seat, p.game) for p in hand.plays]) for hand in standings.hands]
    assert hands == [(0, t, [(t, 0), ((t - 1) % 4, 1)]) for t in range(4)]
    assert standings.hands[0].plays[0].name == "ann"


async def test_an_ordinary_tournaments_games_take_the_seed_given_on_joining(harness: Harness) -> None:
    """Buys: JoinTournamentRequest.seed counts in an ordinary tournament: each game's room seats the person with it,
    so it goes into every game's deal (the first game and the one after it). Under a second."""
    created = await create(harness, system_players=3, solo=True, options={"hand_size": 1})
    tid = created.tournament_id
    joined = await harness.tournaments.JoinTournament(
        tournament_pb2.JoinTournamentRequest(tournament_id=tid, name="ann", seed="ann-seed")
    )
    token = joined.seat_token
    rooms = []
    for index in range(2):
        await harness.server.tournaments.settle()
        tournament = (
            await harness.tournaments.GetTournament(tournament_pb2.GetTournamentRequest(tournament_id=tid))
        ).tournament
        room_id = tournament.game_list[index].room_id
        await play_room(harness, room_id, token)
        rooms.append((await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room)
    for room in rooms:
        assert room.seats[0].seed == "ann-seed" and room.deal.seeds[0] == "ann-seed"
        assert [seat.seed for seat in room.seats[1:]] == list(room.deal.seeds[1:]) and all(room.deal.seeds[1:])
