"""Carta Fútbol Club on the service: rooms of 2, 4 and 6 with people and system players on any seats (people against
bots, in teams), every viewer's updates checked for hidden cards, the clock per card, the REST flow with its own
messages and server-sent events, and kill -9 mid-hand."""

from __future__ import annotations

import random

import grpc

from engine.carta import CARTA
from engine.carta import cards as C
from kickoff.v1 import carta_pb2, common_pb2, move_pb2, move_pb2_grpc, room_pb2, room_pb2_grpc
from tests.processes import ServerProcess
from tests.server.conftest import Harness, auth, refusal
from tests.servers import Start
from tests.sse import sse_updates
from tests.watch import check_no_leak, play_listened

ONLINE, SOLO = common_pb2.ROOM_MODE_ONLINE, common_pb2.ROOM_MODE_SOLO
FINISHED = common_pb2.ROOM_STATUS_FINISHED
GAME = "carta-futbol-club"


def text(wire: str) -> move_pb2.Move:
    return move_pb2.Move(generic=move_pb2.GenericMove(wire=wire))


async def carta_room(
    harness: Harness, seats: int, *, system_seats: tuple[int, ...] = (), mode: int = ONLINE, **options
) -> str:
    request = room_pb2.CreateRoomRequest(game=GAME, mode=mode, seats=seats, system_seats=system_seats, think_seconds=0)
    if options:
        request.options.update(options)
    return (await harness.rooms.CreateRoom(request)).room.room_id


async def people(harness: Harness, room_id: str, seats: list[int]) -> dict[int, str]:
    return dict([await harness.join(room_id, seat=seat, name=f"p{seat}") for seat in seats])


def lowest_skill(faces) -> str:
    """The face the clock plays for a seat in regular play: its lowest Skill card (by number, then kind)."""
    skills = [C.BY_FACE[face][0] for face in faces if C.is_skill(C.BY_FACE[face][0])]
    return C.FACE[min(skills, key=C.low_key)]


async def test_people_and_system_players_on_any_seats_at_2_4_and_6_and_no_viewer_sees_a_hidden_card(
    start: Start,
) -> None:
    harness = await start()
    # The system players' seats: a person against a bot; a bot calling the toss with a person as teammate; bots on
    # both teams at six, the people too; four people without extra time and penalties (a level match is drawn).
    both = {"extra_time": True, "penalties": True}
    for seats, bots, options in ((2, (1,), both), (4, (0, 3), both), (6, (1, 2, 5), both), (4, (), {})):
        room_id = await carta_room(harness, seats, system_seats=bots, **options)
        tokens = await people(harness, room_id, [seat for seat in range(seats) if seat not in bots])
        room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
        assert [seat.kind == common_pb2.SEAT_KIND_SYSTEM for seat in room.seats] == [s in bots for s in range(seats)]
        assert [seat.team for seat in room.seats] == [seat % 2 for seat in range(seats)], "two teams alternately"
        heard = await play_listened(harness, room_id, tokens, random.Random(seats + len(bots)), clock_odds=0.05)
        check_no_leak(harness, room_id, CARTA, heard, set(C.FACE))
        room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
        outcome, goals = room.outcome, list(room.outcome.team_points)
        assert room.status == FINISHED and len(goals) == 2
        if outcome.reason == "draw":
            assert not options and goals[0] == goals[1] and not outcome.winners and not outcome.winning_teams
            continue
        assert outcome.reason in ("goals", "extra_time", "penalties", "coin") and len(outcome.winning_teams) == 1
        if outcome.reason in ("goals", "extra_time"):
            assert list(outcome.winning_teams) == [goals.index(max(goals))] and goals[0] != goals[1]
        winners = [seat for seat in range(seats) if seat % 2 == outcome.winning_teams[0]]
        assert list(outcome.winners) == winners, "every seat's result follows its team"
        ended = heard[None][-1]
        assert ended.status == FINISHED and any(e.HasField("game_ended") for e in ended.events)


async def test_the_clock_gives_each_card_30_seconds_and_plays_the_lowest_skill_card_face_down(start: Start) -> None:
    harness = await start()
    room_id = await carta_room(harness, 2)
    tokens = await people(harness, room_id, [0, 1])
    t0 = harness.clock.now()

    async def room() -> room_pb2.Room:
        await harness.settle(room_id)
        return (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room

    def clocks(room: room_pb2.Room) -> list[tuple[int, float, int]]:
        return [(c.seat, round(c.deadline.ToNanoseconds() / 1e9 - t0, 3), c.turn_seconds) for c in room.clocks]

    assert clocks(await room()) == [(0, 30.0, 30)], "seat 0 calls the coin"
    harness.clock.advance(30)  # the toss: heads; the winner takes the kick-off; the other team the first deck
    await room()
    harness.clock.advance(30)
    await room()
    harness.clock.advance(30)
    started = await room()
    entries = harness.directory.journal.log("room", room_id)
    assert [(e.kind, e.move) for e in entries[-3:]] == [
        ("table", "call heads"),
        ("table", "choose kickoff"),
        ("table", "choose blue"),
    ]
    view = (await harness.view(room_id, tokens[0])).view.carta
    starter = view.starter
    assert view.phase == "play" and list(started.to_act) == [starter] and view.ball == starter % 2
    assert clocks(started) == [(starter, 120.0, 30)]
    hand = list((await harness.view(room_id, tokens[starter])).view.carta.hand_cards)
    assert len(hand) == 13, "10 Skill and 3 Special cards at two players"

    harness.clock.advance(29)
    assert (await room()).version == started.version, "29 s: nothing yet"
    harness.clock.advance(1)
    timed = await room()
    lowest = lowest_skill(hand)
    last = harness.directory.journal.log("room", room_id)[-1]
    assert (last.kind, last.seat, last.move) == ("table", starter, f"down {lowest}")
    mine = (await harness.view(room_id, tokens[starter])).view.carta
    assert sorted([*mine.hand_cards, lowest]) == sorted(hand), "the lowest Skill card went face down"
    other = 1 - starter
    theirs = (await harness.view(room_id, tokens[other])).view.carta
    assert theirs.pending.down and theirs.pending.card == "" and theirs.pending.seat == starter
    assert lowest not in str(theirs) + str(await harness.view(room_id)), "nobody sees which card"
    assert clocks(timed) == [(other, 150.0, 30)], "the answer's own 30 s"

    harness.clock.advance(12)
    legal = await harness.legal(room_id, tokens[other])
    answer = next(m for m in legal if m.carta.WhichOneof("kind") == "play")
    answered = await harness.submit(room_id, tokens[other], answer, request_id="a1")
    assert answered.update.version == timed.version + 1
    after = await room()
    assert clocks(after) == [(after.to_act[0], 162.0, 30)], "the next card: 30 s afresh"


async def test_a_whole_match_over_rest_with_its_own_messages_and_sse(start: Start, gateway) -> None:
    harness = await start()
    client = await gateway(harness)
    created = await client.post(
        "/v1/rooms",
        json={"game": GAME, "mode": "ROOM_MODE_SOLO", "seats": 4, "systemSeats": [1, 2, 3], "options": {}},
    )
    assert created.status_code == 201, created.text
    room_id = created.json()["roomId"]
    joined = await client.post(f"/v1/rooms/{room_id}/seats", json={"name": "ann"})
    assert joined.status_code == 201 and joined.json().get("seat", 0) == 0, joined.text
    headers = {"Authorization": f"Bearer {joined.json()['seatToken']}"}
    bad = await client.post(
        f"/v1/rooms/{room_id}/moves", json={"move": {"carta": {"call": {}}}, "requestId": "bad"}, headers=headers
    )
    assert bad.status_code == 400 and bad.headers["content-type"].startswith("application/problem+json")
    assert "'call' needs its side" in bad.json()["detail"]
    call = await client.post(
        f"/v1/rooms/{room_id}/moves",
        json={"move": {"carta": {"call": {"side": "tails"}}}, "requestId": "toss"},
        headers=headers,
    )
    assert call.status_code == 201, call.text
    view = (await client.get(f"/v1/rooms/{room_id}/view", headers=headers)).json()
    assert view["view"]["carta"]["coin"]["call"] == "tails"
    chooser = random.Random(3)
    for turn in range(3000):
        await harness.settle(room_id)
        view = (await client.get(f"/v1/rooms/{room_id}/view", headers=headers)).json()
        if not view.get("toAct"):
            break
        data = view["view"]["carta"]
        if data["phase"] in ("play", "siga", "shootout"):
            assert len(data["handCards"]) == data["seats"][0].get("cards", 0), "the seat's own cards"
        legal = (await client.get(f"/v1/rooms/{room_id}/legal-moves", headers=headers)).json()["moves"]
        assert all("carta" in move for move in legal), "legal moves come in the game's own messages"
        answer = await client.post(
            f"/v1/rooms/{room_id}/moves",
            json={"move": chooser.choice(legal), "requestId": f"m{turn}", "expectedVersion": view["version"]},
            headers=headers,
        )
        assert answer.status_code == 201, answer.text
    room = (await client.get(f"/v1/rooms/{room_id}")).json()
    assert room["status"] == "ROOM_STATUS_FINISHED" and room["outcome"]["reason"] in ("goals", "draw")
    assert len(room["outcome"]["teamPoints"]) == 2
    stream = await client.get(f"/v1/rooms/{room_id}/events", headers=headers)
    events = sse_updates(stream.text)
    assert [event["version"] for event in events] == [str(v) for v in range(1, int(room["version"]) + 1)]
    kinds = {e["game"]["carta"]["kind"] for u in events for e in u.get("events", []) if "game" in e}
    assert {"toss", "chose", "kick_off", "dealt", "played", "hand_ended", "half_time"} <= kinds


async def test_a_message_for_another_game_or_a_card_not_held_is_refused(start: Start) -> None:
    harness = await start()
    room_id = await carta_room(harness, 2)
    tokens = await people(harness, room_id, [0, 1])
    code, reason, message = await refusal(
        harness.submit(room_id, tokens[0], move_pb2.Move(soker={"draw": {}}), request_id="x")
    )
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "this room plays carta-futbol-club" in message
    message = move_pb2.Move(carta=carta_pb2.CartaMove(play=carta_pb2.CartaPlay(card="B-PI-6")))
    code, reason, message = await refusal(harness.submit(room_id, tokens[0], message, request_id="y"))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "card_not_in_hand"), "nobody holds a card yet"
    assert "B-PI-6" not in message, "a refusal never repeats the card"
    message = move_pb2.Move(carta=carta_pb2.CartaMove(choose=carta_pb2.CartaChoose(choice="kickoff")))
    code, reason, _ = await refusal(harness.submit(room_id, tokens[0], message, request_id="w"))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "not_allowed"), "the toss comes first"
    code, reason, _ = await refusal(harness.submit(room_id, tokens[1], text("call heads"), request_id="z"))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "not_your_turn")


async def test_kill_9_mid_hand_and_the_match_goes_on_after_the_restart(database_url: str) -> None:
    chooser = random.Random(11)
    with ServerProcess(database_url) as server:
        async with server.channel() as channel:
            rooms, moves = room_pb2_grpc.RoomServiceStub(channel), move_pb2_grpc.MoveServiceStub(channel)
            request = room_pb2.CreateRoomRequest(game=GAME, mode=ONLINE, seats=4)
            request.options.update({"turn_seconds": 600})
            room_id = (await rooms.CreateRoom(request)).room.room_id
            tokens = {}
            for seat in range(4):
                joined = await rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, seat=seat))
                tokens[seat] = joined.seat_token
            for step in range(400):  # random moves until a card waits for its answer, well into the first hand
                view = await moves.GetView(move_pb2.GetViewRequest(room_id=room_id))
                carta = view.view.carta
                if carta.phase == "play" and carta.HasField("pending") and step >= 8:
                    break
                seat = view.to_act[0]
                legal = await moves.ListLegalMoves(
                    move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(tokens[seat])
                )
                await moves.SubmitMove(
                    move_pb2.SubmitMoveRequest(
                        room_id=room_id, move=chooser.choice(list(legal.moves)), request_id=f"s{step}"
                    ),
                    metadata=auth(tokens[seat]),
                )
            before = (await rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
            views = {
                seat: await moves.GetView(move_pb2.GetViewRequest(room_id=room_id), metadata=auth(token))
                for seat, token in tokens.items()
            }
            assert views[0].view.carta.hand == 1 and views[0].view.carta.HasField("pending")
        server.kill9()
        server.restart()
        async with server.channel() as channel:
            rooms, moves = room_pb2_grpc.RoomServiceStub(channel), move_pb2_grpc.MoveServiceStub(channel)
            after = (await rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
            assert after.version == before.version and list(after.to_act) == list(before.to_act)
            assert [(c.seat, c.deadline) for c in after.clocks] == [(c.seat, c.deadline) for c in before.clocks]
            for seat, token in tokens.items():  # every hand, the card waiting and the score as they were
                again = await moves.GetView(move_pb2.GetViewRequest(room_id=room_id), metadata=auth(token))
                assert again.view == views[seat].view, f"seat {seat}"
            seat = after.to_act[0]
            legal = await moves.ListLegalMoves(
                move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(tokens[seat])
            )
            answered = await moves.SubmitMove(
                move_pb2.SubmitMoveRequest(room_id=room_id, move=legal.moves[0], request_id="after"),
                metadata=auth(tokens[seat]),
            )
            assert answered.update.version == after.version + 1, "the same token answers the card waiting"
