"""The service hosts a game with response windows, teams and identical cards (Relay, tests/relay) as it hosts Soker:
over gRPC, REST and SSE, with a clock per responder, system players on any seat, team results, durable rooms that
come back mid-window with each deadline, and no hidden card reaching anyone."""

from __future__ import annotations

import itertools
import random

import grpc
import pytest
from google.protobuf import json_format

from kickoff.v1 import common_pb2, move_pb2, move_pb2_grpc, room_pb2, room_pb2_grpc
from service.store.database import create_engine
from service.store.journal import SqlJournal
from tests.processes import ServerProcess
from tests.relay import RELAY
from tests.server.conftest import Harness, auth, refusal
from tests.servers import Start
from tests.sse import sse_updates
from tests.store.conftest import crash
from tests.watch import check_no_leak, play_listened

ONLINE, SOLO = common_pb2.ROOM_MODE_ONLINE, common_pb2.ROOM_MODE_SOLO


def has(seed: int, seat: int, face: str) -> bool:
    return any(card.startswith(face) for card in RELAY.new_game(4, None, seed).hands[seat])


def good(seed: int) -> bool:
    """A deal where seat 0 can attack and both opponents (1 and 3) can block: every kind of answer is open."""
    return has(seed, 0, "ATK") and has(seed, 1, "DEF") and has(seed, 3, "DEF")


SEED = 7  # the rooms' secret (seed_source); the seats' seeds then pick a good deal through the derivation (seated)


def generic(wire: str) -> move_pb2.Move:
    return move_pb2.Move(generic=move_pb2.GenericMove(wire=wire))


async def relay_room(harness: Harness, *, system_seats: tuple[int, ...] = (), mode: int = ONLINE) -> str:
    request = room_pb2.CreateRoomRequest(game="relay", mode=mode, seats=4, system_seats=system_seats, think_seconds=0)
    return (await harness.rooms.CreateRoom(request)).room.room_id


async def seated(harness: Harness, room_id: str) -> dict[int, str]:
    """Every person's seat taken; returns the tokens by seat."""
    room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    people = [seat.seat for seat in room.seats if seat.kind == common_pb2.SEAT_KIND_PERSON]
    seeds = await harness.seeds_dealing(room_id, SEED, good)  # (a good deal where the room's secret is SEED)
    return dict([await harness.join(room_id, seat=seat, name=f"p{seat}", seed=seeds[seat]) for seat in people])


async def send(harness: Harness, room_id: str, token: str, wire: str, expected: int | None = None):
    return await harness.submit(
        room_id, token, generic(wire), request_id=f"{wire}-{random.random()}", expected=expected
    )


async def test_seats_carry_their_teams_and_system_players_sit_where_the_creator_says(start: Start) -> None:
    harness = await start(seeds=itertools.repeat(SEED))
    room_id = await relay_room(harness, system_seats=(1, 3))  # the people (0, 2) against a team of system players
    room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert [(s.seat, s.team, s.kind) for s in room.seats] == [
        (0, 0, common_pb2.SEAT_KIND_PERSON),
        (1, 1, common_pb2.SEAT_KIND_SYSTEM),
        (2, 0, common_pb2.SEAT_KIND_PERSON),
        (3, 1, common_pb2.SEAT_KIND_SYSTEM),
    ]
    code, reason = (
        await refusal(
            harness.rooms.CreateRoom(
                room_pb2.CreateRoomRequest(game="relay", mode=ONLINE, seats=4, system_seats=(0, 1, 2, 3))
            )
        )
    )[:2]
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "no_person_seat"), "at least one seat is a person's"
    code, reason = (
        await refusal(
            harness.rooms.CreateRoom(
                room_pb2.CreateRoomRequest(game="relay", mode=ONLINE, seats=4, system_seats=(1, 1))
            )
        )
    )[:2]
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_system_seats")
    tokens = await seated(harness, room_id)
    while True:  # the people play their first legal move; the system players answer and attack on their own
        await harness.settle(room_id)
        view = await harness.view(room_id)
        if not view.to_act:
            break
        for seat in view.to_act:
            if seat in tokens:
                legal = await harness.legal(room_id, tokens[seat])
                if not legal:
                    continue  # (the other person's move closed the window meanwhile)
                try:
                    await harness.submit(room_id, tokens[seat], legal[0], request_id=f"{seat}-{view.version}")
                except grpc.aio.AioRpcError as error:
                    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION  # the window closed meanwhile
    final = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    outcome = harness.directory.get(room_id).state.outcome()
    assert list(final.outcome.team_points) == list(outcome.team_points) and sum(final.outcome.team_points) > 0
    assert list(final.outcome.winning_teams) == list(outcome.winning_teams)
    assert {final.seats[s].team for s in final.outcome.winners} == set(final.outcome.winning_teams)


@pytest.mark.parametrize("order", [(1, 2, 3), (3, 1, 2), (2, 3, 1)])
async def test_responders_answer_in_any_order_and_none_makes_another_stale(start: Start, order) -> None:
    harness = await start(seeds=itertools.repeat(SEED))
    room_id = await relay_room(harness)
    tokens = await seated(harness, room_id)
    opened = await send(harness, room_id, tokens[0], "attack")
    assert list(opened.update.to_act) == [1, 2, 3], "every other seat answers at once"
    for seat in order:  # each passes with the version at which the window opened
        answer = await send(harness, room_id, tokens[seat], "pass", expected=opened.version)
    final = answer.update
    assert list(final.to_act) == [1], "once all passed, the attack scored and the turn passed on"
    scored = [json_format.MessageToDict(e.game.generic.data) for e in final.events if e.HasField("game")]
    assert {"type": "scored", "seat": -1, "team": 0, "points": [1, 0]} in scored


async def test_a_block_closes_the_window_and_makes_the_others_answers_stale(start: Start) -> None:
    harness = await start(seeds=itertools.repeat(SEED))
    room_id = await relay_room(harness)
    tokens = await seated(harness, room_id)
    opened = await send(harness, room_id, tokens[0], "attack")
    await send(harness, room_id, tokens[3], "pass", expected=opened.version)
    blocked = await send(harness, room_id, tokens[1], "block", expected=opened.version)
    assert list(blocked.update.to_act) == [1]
    code, reason, _ = await refusal(send(harness, room_id, tokens[2], "pass", expected=opened.version))
    assert (code, reason) == (grpc.StatusCode.ABORTED, "stale_version"), "seat 2's moves changed: its answer is stale"


async def test_each_responder_has_its_own_clock_and_expires_on_its_own(start: Start) -> None:
    harness = await start(seeds=itertools.repeat(SEED))
    room_id = await relay_room(harness)
    tokens = await seated(harness, room_id)
    start_time = harness.clock.now()
    opened = await send(harness, room_id, tokens[0], "attack")
    deadlines = {c.seat: c.deadline.ToNanoseconds() / 1e9 - start_time for c in opened.update.clocks}
    assert deadlines == {1: 10.0, 2: 5.0, 3: 10.0}, "opponents 10 s, the teammate 5 s, each its own"
    assert opened.update.clock.seat == 1, "the single clock field is the first acting seat's"
    harness.clock.advance(3)
    after_pass = await send(harness, room_id, tokens[3], "pass")
    assert {c.seat: c.deadline.ToNanoseconds() / 1e9 - start_time for c in after_pass.update.clocks} == {
        1: 10.0,
        2: 5.0,
    }, "one responder's pass restarts nobody's clock"
    harness.clock.advance(2)  # the teammate's 5 s are up: the table passes for it, and only for it
    await harness.settle(room_id)
    room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert list(room.to_act) == [1] and [c.seat for c in room.clocks] == [1]
    harness.clock.advance(5)  # seat 1's 10 s
    await harness.settle(room_id)
    room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert list(room.to_act) == [1] and room.version == opened.version + 3, "a pass, two table passes: seat 1 plays"
    entries = harness.directory.journal.log("room", room_id)
    assert [(e.kind, e.seat) for e in entries[-2:]] == [("table", 2), ("table", 1)]


async def test_a_room_comes_back_mid_window_with_each_deadline(start: Start, database_url: str) -> None:
    journal = SqlJournal(create_engine(database_url))
    harness = await start(journal=journal, seeds=itertools.repeat(SEED))
    room_id = await relay_room(harness)
    tokens = await seated(harness, room_id)
    await send(harness, room_id, tokens[0], "attack")
    harness.clock.advance(1)
    await send(harness, room_id, tokens[3], "pass")
    room = harness.directory.get(room_id)
    before = (room.version, room.state.to_act(), dict(room.seat_clocks.running), room.state.to_json())
    await crash(harness.directory, journal)

    journal = SqlJournal(create_engine(database_url))
    again = await start(journal=journal, seeds=itertools.repeat(SEED))
    await again.directory.restore(await journal.load_live("room"))
    restored = again.directory.get(room_id)
    assert (
        restored.version,
        restored.state.to_act(),
        dict(restored.seat_clocks.running),
        restored.state.to_json(),
    ) == before
    again.clock.advance(harness.clock.now() - again.clock.now() + 4)  # the teammate's clock, started at the attack
    await restored.settle()
    assert restored.state.to_act() == (1,), "seat 2's deadline was kept: the table passed for it"
    await journal.close()


async def play_watched(harness: Harness, index: int) -> None:
    """One game of people and system players, every update to every viewer checked (tests/watch.py)."""
    chooser = random.Random(index)
    system_seats = tuple(sorted(chooser.sample(range(4), index % 3)))
    room_id = await relay_room(harness, system_seats=system_seats)
    tokens = await seated(harness, room_id)
    heard = await play_listened(harness, room_id, tokens, chooser)
    check_no_leak(harness, room_id, RELAY, heard, {"ATK", "DEF", "STAR"})


async def test_no_viewer_ever_receives_a_card_hidden_from_it_though_copies_look_alike(start: Start) -> None:
    harness = await start()
    for index in range(12):
        await play_watched(harness, index)


async def test_a_whole_game_over_rest_with_the_generic_form_and_sse(start: Start, gateway) -> None:
    harness = await start(seeds=itertools.repeat(SEED))
    client = await gateway(harness)
    created = await client.post(
        "/v1/rooms", json={"game": "relay", "mode": "ROOM_MODE_SOLO", "seats": 4, "systemSeats": [1, 2, 3]}
    )
    assert created.status_code == 201, created.text
    room_id = created.json()["roomId"]
    assert [seat.get("team", 0) for seat in created.json()["seats"]] == [0, 1, 0, 1]
    joined = (await client.post(f"/v1/rooms/{room_id}/seats", json={"name": "ann"})).json()
    headers = {"Authorization": f"Bearer {joined['seatToken']}"}
    for turn in range(200):
        await harness.settle(room_id)
        view = (await client.get(f"/v1/rooms/{room_id}/view", headers=headers)).json()
        if not view.get("toAct"):
            break
        assert "hand" in view["view"]["generic"]["data"], "the seat sees its own hand"
        legal = (await client.get(f"/v1/rooms/{room_id}/legal-moves", headers=headers)).json()["moves"]
        answer = await client.post(
            f"/v1/rooms/{room_id}/moves",
            json={"move": legal[0], "requestId": f"m{turn}", "expectedVersion": view["version"]},
            headers=headers,
        )
        assert answer.status_code in (201, 409), answer.text
    room = (await client.get(f"/v1/rooms/{room_id}")).json()
    assert room["status"] == "ROOM_STATUS_FINISHED" and "teamPoints" in room["outcome"]
    stream = await client.get(f"/v1/rooms/{room_id}/events", headers=headers)
    events = sse_updates(stream.text)
    assert [event["version"] for event in events] == [str(v) for v in range(1, int(room["version"]) + 1)]
    kinds = {e["game"]["generic"]["data"]["type"] for u in events for e in u.get("events", []) if "game" in e}
    assert {"attacked", "scored"} <= kinds


async def test_kill_9_mid_window_and_each_responders_clock_comes_back(database_url: str) -> None:
    with ServerProcess(database_url, command="tests.relay.serve") as server:
        async with server.channel() as channel:
            rooms, moves = room_pb2_grpc.RoomServiceStub(channel), move_pb2_grpc.MoveServiceStub(channel)
            created = (
                await rooms.CreateRoom(
                    room_pb2.CreateRoomRequest(
                        game="relay", mode=ONLINE, seats=4, options={"response_seconds": 300, "turn_seconds": 300}
                    )
                )
            ).room
            room_id = created.room_id
            tokens = {}
            for _ in range(4):
                joined = await rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id))
                tokens[joined.seat] = joined.seat_token
            for turn in range(100):  # until a seat attacks: a window opens
                view = await moves.GetView(move_pb2.GetViewRequest(room_id=room_id))
                if len(view.to_act) > 1:
                    break
                seat = view.to_act[0]
                legal = await moves.ListLegalMoves(
                    move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(tokens[seat])
                )
                wires = [m.generic.wire for m in legal.moves]
                wire = "attack" if "attack" in wires else wires[0]
                await moves.SubmitMove(
                    move_pb2.SubmitMoveRequest(room_id=room_id, move=generic(wire), request_id=f"t{turn}"),
                    metadata=auth(tokens[seat]),
                )
            responder = view.to_act[-1]
            await moves.SubmitMove(
                move_pb2.SubmitMoveRequest(room_id=room_id, move=generic("pass"), request_id="p"),
                metadata=auth(tokens[responder]),
            )
            before = (await rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
            assert len(before.clocks) == len(before.to_act) >= 1
        server.kill9()
        server.restart()
        async with server.channel() as channel:
            rooms, moves = room_pb2_grpc.RoomServiceStub(channel), move_pb2_grpc.MoveServiceStub(channel)
            after = (await rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
            assert after.version == before.version and list(after.to_act) == list(before.to_act)
            assert [(c.seat, c.deadline) for c in after.clocks] == [(c.seat, c.deadline) for c in before.clocks]
            for seat in after.to_act:  # the same tokens answer, and the window closes
                await moves.SubmitMove(
                    move_pb2.SubmitMoveRequest(room_id=room_id, move=generic("pass"), request_id=f"q{seat}"),
                    metadata=auth(tokens[seat]),
                )
            closed = (await rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
            assert len(closed.to_act) == 1 and closed.version == after.version + len(after.to_act)


async def test_a_tournament_of_another_game_runs_on_the_same_machinery(start: Start) -> None:
    """The tournament service knows no game: Relay's tournament (three games, its own tally) runs through it."""
    from kickoff.v1 import tournament_pb2

    harness = await start()
    created = (
        await harness.tournaments.CreateTournament(
            tournament_pb2.CreateTournamentRequest(game="relay", mode=ONLINE, system_players=4, think_seconds=0)
        )
    ).tournament
    tournament = harness.server.tournaments.get(created.tournament_id)
    for _ in range(10):
        for room_id in tournament.game_room_ids:
            await harness.directory.get(room_id).settle()
        await harness.server.tournaments.settle()
        if tournament.current().status == "finished":
            break
    final = (
        await harness.tournaments.GetTournament(
            tournament_pb2.GetTournamentRequest(tournament_id=created.tournament_id)
        )
    ).tournament
    assert final.status == tournament_pb2.TOURNAMENT_STATUS_FINISHED and final.games_played == 3
    assert [game.first_seat for game in final.game_list] == [0, 1, 2]
    assert [seat.team for seat in final.seats] == [0, 1, 0, 1]
    for game in final.game_list:
        room = harness.directory.get(game.room_id)
        assert list(game.outcome.team_points) == list(room.state.outcome().team_points)
    lines = final.standings.lines
    assert all(line.country_wins == 0 and [t.name for t in line.tallies] == ["cards"] for line in lines)
    cards = {line.seat: line.tallies[0].value for line in lines}
    played = {
        s: sum(harness.directory.get(g.room_id).state.outcome().points[s] for g in final.game_list) for s in cards
    }
    assert cards == played, "the game's own tally, as its tournament rules count it"
    points = [line.points for line in lines]
    assert points == sorted(points, reverse=True) and lines[0].place == 1
