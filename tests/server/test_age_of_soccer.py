"""Age of Soccer on the service: teams chosen on joining, the turn clock that pauses while others answer, a response
window where two seats answer (each on its own clock), the table's moves, a crash mid-window, a whole online game in
which no viewer ever receives a card hidden from it, the REST flow with server-sent events, and kill -9 mid-window."""

from __future__ import annotations

import asyncio
import itertools
import random

import grpc

from engine.age_of_soccer import AGE_OF_SOCCER
from engine.age_of_soccer.cards import ACTION_FACE, PLAYER_CODES
from kickoff.v1 import age_of_soccer_pb2, common_pb2, game_pb2, move_pb2, move_pb2_grpc, room_pb2, room_pb2_grpc
from service.store.database import create_engine
from service.store.journal import SqlJournal
from tests.processes import ServerProcess
from tests.server.conftest import Harness, auth, refusal
from tests.servers import Start
from tests.sse import sse_updates
from tests.store.conftest import crash
from tests.watch import check_no_leak, play_listened

ONLINE, SOLO = common_pb2.ROOM_MODE_ONLINE, common_pb2.ROOM_MODE_SOLO
TEAMS = "VIK,ROM,ZUL,MON"


def dealt(seed: int, seat: int) -> list[str]:
    return [ACTION_FACE[card] for card in AGE_OF_SOCCER.new_game(4, None, seed).actions[seat]]


def good(seed: int) -> bool:
    """A deal where seat 0 holds two Shoots and seat 1 a Save: a shot saved, then a second shot."""
    return dealt(seed, 0).count("SHOOT") >= 2 and "SAVE" in dealt(seed, 1)


SEED = 7  # the rooms' secret (seed_source); the seats' seeds then pick a good deal through the derivation (seated)


def text(wire: str) -> move_pb2.Move:
    return move_pb2.Move(generic=move_pb2.GenericMove(wire=wire))


async def aos_room(harness: Harness, *, seats: int = 4, mode: int = ONLINE, **options) -> str:
    request = room_pb2.CreateRoomRequest(game="age-of-soccer", mode=mode, seats=seats, think_seconds=0)
    if options:
        request.options.update(options)
    return (await harness.rooms.CreateRoom(request)).room.room_id


async def seated(harness: Harness, room_id: str, seats: int = 4, *, deal: bool = False) -> dict[int, str]:
    """Every seat taken; ``deal``: with seeds that deal a good game (the room's secret being SEED)."""
    seeds = await harness.seeds_dealing(room_id, SEED, good) if deal else {}
    return dict(
        [await harness.join(room_id, seat=seat, name=f"p{seat}", seed=seeds.get(seat, "")) for seat in range(seats)]
    )


class Table:
    """Four people at one room; moves by text; clocks as seconds from the start."""

    def __init__(self, harness: Harness, room_id: str, tokens: dict[int, str]) -> None:
        self.harness, self.room_id, self.tokens = harness, room_id, tokens
        self.t0 = harness.clock.now()
        self.count = 0

    async def play(self, seat: int, wire: str, expected: int | None = None) -> move_pb2.SubmitMoveResponse:
        self.count += 1
        return await self.harness.submit(
            self.room_id, self.tokens[seat], text(wire), request_id=f"r{self.count}", expected=expected
        )

    def clocks(self, update) -> dict[int, float]:
        return {c.seat: round(c.deadline.ToNanoseconds() / 1e9 - self.t0, 3) for c in update.clocks}

    async def room(self) -> room_pb2.Room:
        await self.harness.settle(self.room_id)
        return (await self.harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=self.room_id))).room


def game_events(update, kind: str) -> list:
    return [e.game.age_of_soccer for e in update.events if e.HasField("game") and e.game.age_of_soccer.kind == kind]


async def test_teams_are_chosen_on_joining_and_the_rest_follow_in_order(start: Start) -> None:
    harness = await start()
    listed = await harness.games.ListGames(game_pb2.ListGamesRequest())
    assert "VIK (Vikings)" in next(g.seat_choice for g in listed.games if g.name == "age-of-soccer")
    room_id = await aos_room(harness, seats=3)
    joined = await harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, seat=1, choice="MON"))
    assert joined.room.seats[1].choice == "MON"
    code, reason, message = await refusal(
        harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, seat=2, choice="MON"))
    )
    assert (code, reason) == (grpc.StatusCode.ALREADY_EXISTS, "choice_taken") and "seat 1 plays MON" in message
    code, reason, message = await refusal(
        harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, seat=2, choice="ATL"))
    )
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_choice") and "choose one of SPA" in message
    await harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, seat=2, choice="spa"))
    await harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, seat=0))
    view = await harness.view(room_id)
    assert [seat.team for seat in view.view.age_of_soccer.seats] == ["VIK", "MON", "SPA"]
    soker = (await harness.create(seats=2)).room_id
    code, reason, _ = await refusal(harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=soker, choice="VIK")))
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_choice"), "Soker offers no choice"


async def test_a_window_where_two_seats_answer_each_on_its_own_clock_and_the_turn_clock_pauses(start: Start) -> None:
    harness = await start(seeds=itertools.repeat(SEED))
    room_id = await aos_room(harness, teams=TEAMS, max_rounds=2)
    table = Table(harness, room_id, await seated(harness, room_id, deal=True))
    await table.play(0, "pick actions")
    harness.clock.advance(10)
    await table.play(0, "pass")
    challenged = await table.play(0, "challenge 1")
    assert table.clocks(challenged.update) == {1: 25.0}, "the challenged seat's 15 s; the turn clock pauses"
    harness.clock.advance(4)
    await table.play(1, "pass")
    back = await table.play(0, "pass")
    assert table.clocks(back.update) == {0: 64.0}, "the turn clock resumes with its 50 s left"

    opened = (await table.play(0, "shoot SHOOT")).update
    assert list(opened.to_act) == [1, 2, 3] and table.clocks(opened) == {1: 29.0, 2: 29.0, 3: 29.0}
    harness.clock.advance(3)
    passed = await table.play(3, "pass", expected=opened.version)
    assert table.clocks(passed.update) == {1: 29.0, 2: 29.0}, "one answer restarts nobody's clock"
    harness.clock.advance(2)
    saved = (await table.play(1, "answer SAVE", expected=opened.version)).update
    assert [e.kind for e in game_events(saved, "stopped")] == ["stopped"] and list(saved.to_act) == [0]
    assert table.clocks(saved) == {0: 69.0}, "the attacker's turn clock again, with the 50 s it had"

    second = (await table.play(0, "shoot SHOOT")).update
    assert table.clocks(second) == {1: 34.0, 2: 34.0, 3: 34.0}, "a new shot: each responder's 15 s afresh"
    await table.play(2, "pass", expected=second.version)
    harness.clock.advance(15)  # seats 1 and 3 let their clocks run out: the table passes for each
    room = await table.room()
    entries = harness.directory.journal.log("room", room_id)
    assert sorted((e.kind, e.seat) for e in entries[-2:]) == [("table", 1), ("table", 3)]
    scored = (await harness.view(room_id)).view.age_of_soccer
    assert list(scored.seats[0].won) == [0, 1, 0, 0] and scored.seats[1].shields == 6
    assert list(room.to_act) == [1] and scored.phase == "pickup", "the shot scored; seat 1's turn"
    stream = harness.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room_id, after_version=room.version - 2))
    updates = []
    async for response in stream:
        update = response.update
        updates.append(update)
        if update.version == room.version:
            break
    stream.cancel()
    shields = [e for u in updates for e in game_events(u, "shield")]
    assert [(e.seat, list(e.cards), e.target) for e in shields] == [(0, ["ROM"], 1)]

    while room.status != common_pb2.ROOM_STATUS_FINISHED:  # nobody plays again: the clock plays every turn out
        harness.clock.advance(60)
        room = await table.room()
    assert room.outcome.reason == "rounds" and list(room.outcome.winners) == [0], "the most shields won"


async def test_a_three_card_trade_sent_in_another_order_is_the_same_trade_over_grpc(start: Start) -> None:
    harness = await start(seeds=itertools.repeat(SEED))
    room_id = await aos_room(harness, teams=TEAMS)
    table = Table(harness, room_id, await seated(harness, room_id, deal=True))
    await table.play(0, "pick actions")
    # (two Shoots and one more: not in the engine's sorted order)
    cards = sorted(dealt(harness.directory.get(room_id).seed, 0)[:3], reverse=True)
    assert cards != sorted(cards)
    trade = age_of_soccer_pb2.AgeOfSoccerMove(trade=age_of_soccer_pb2.AgeOfSoccerTrade(cards=cards))
    answer = await harness.submit(room_id, table.tokens[0], move_pb2.Move(age_of_soccer=trade), request_id="trade")
    assert [sorted(e.cards) for e in game_events(answer.update, "traded")] == [sorted(cards)]
    hand = (await harness.view(room_id, table.tokens[0])).view.age_of_soccer.hand
    assert len(hand.actions) == 4 and len(hand.players) == 1, "seven action cards less three, and a player card"


async def test_a_room_comes_back_mid_window_with_every_clock_and_the_paused_turn(start: Start, database_url) -> None:
    journal = SqlJournal(create_engine(database_url))
    harness = await start(journal=journal, seeds=itertools.repeat(SEED))
    room_id = await aos_room(harness, teams=TEAMS)
    table = Table(harness, room_id, await seated(harness, room_id, deal=True))
    await table.play(0, "pick actions")
    await table.play(0, "pass")
    await table.play(0, "challenge 1")
    await table.play(1, "pass")
    await table.play(0, "pass")
    harness.clock.advance(20)
    opened = (await table.play(0, "shoot SHOOT")).update
    harness.clock.advance(5)
    await table.play(2, "pass", expected=opened.version)
    room = harness.directory.get(room_id)
    before = (room.version, room.state.to_act(), dict(room.seat_clocks.running), room.state.to_json())
    await crash(harness.directory, journal)

    journal = SqlJournal(create_engine(database_url))
    again = await start(journal=journal, seeds=itertools.repeat(SEED))
    again.clock.advance(harness.clock.now() - again.clock.now())
    await again.directory.restore(await journal.load_live("room"))
    restored = again.directory.get(room_id)
    assert (
        restored.version,
        restored.state.to_act(),
        dict(restored.seat_clocks.running),
        restored.state.to_json(),
    ) == before
    table = Table(again, room_id, table.tokens)
    table.t0 = harness.clock.now() - 25  # the game's start on the first server's clock
    await table.play(3, "pass")
    saved = (await table.play(1, "answer SAVE")).update
    assert table.clocks(saved) == {0: 25 + 40.0}, "after the restart too, the turn clock resumes with its 40 s"
    await journal.close()


async def test_a_solo_game_over_the_play_stream_to_its_end(start: Start) -> None:
    harness = await start(seeds=itertools.repeat(SEED))
    request = room_pb2.CreateRoomRequest(game="age-of-soccer", mode=SOLO, seats=3, system_seats=(1, 2), think_seconds=0)
    request.options.update({"max_rounds": 3})
    room_id = (await harness.rooms.CreateRoom(request)).room.room_id
    _, token = await harness.join(room_id, seat=0)
    outgoing: asyncio.Queue = asyncio.Queue()
    outgoing.put_nowait(move_pb2.PlayRequest(hello=move_pb2.PlayHello(room_id=room_id)))

    async def requests():
        while (message := await outgoing.get()) is not None:
            yield message

    chooser = random.Random(9)
    last, answered, kinds = 0, 0, set()
    async for response in harness.moves.Play(requests(), metadata=auth(token)):
        if response.HasField("result"):
            # In a window the system players answer at once too: a move may come after the window closed.
            accepted = response.result.accepted
            assert accepted or response.result.error.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
            answered += accepted
        if not response.HasField("update"):
            continue
        update = response.update
        assert update.version == last + 1 and not update.HasField("clock"), "in order; a solo game has no clock"
        last = update.version
        kinds |= {e.game.age_of_soccer.kind for e in update.events if e.HasField("game")}
        if update.status == common_pb2.ROOM_STATUS_FINISHED:
            outgoing.put_nowait(None)
        elif 0 in update.to_act:
            move = chooser.choice(list(update.legal_moves))
            assert move.WhichOneof("game") == "age_of_soccer", "legal moves come in the game's own messages"
            outgoing.put_nowait(move_pb2.PlayRequest(move=move_pb2.SubmitMoveRequest(move=move, request_id=f"r{last}")))
    room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert room.status == common_pb2.ROOM_STATUS_FINISHED and answered > 10 and room.version == last
    assert {"turn_began", "drew", "trained", "challenged"} <= kinds


async def play_watched(harness: Harness, index: int) -> None:
    """One online game of people at 3-5 seats, every update to every viewer checked (tests/watch.py)."""
    seats = 3 + index % 3
    room_id = await aos_room(harness, seats=seats, max_rounds=2)
    tokens = await seated(harness, room_id, seats)
    heard = await play_listened(harness, room_id, tokens, random.Random(index), clock_odds=0.05)
    faces = set(ACTION_FACE) | set(PLAYER_CODES)
    check_no_leak(harness, room_id, AGE_OF_SOCCER, heard, faces)


async def test_no_viewer_ever_receives_a_card_hidden_from_it(start: Start) -> None:
    harness = await start()
    for index in range(4):
        await play_watched(harness, index)


async def test_a_whole_game_over_rest_with_its_own_messages_and_sse(start: Start, gateway) -> None:
    harness = await start(seeds=itertools.repeat(SEED))
    client = await gateway(harness)
    created = await client.post(
        "/v1/rooms",
        json={
            "game": "age-of-soccer",
            "mode": "ROOM_MODE_SOLO",
            "seats": 3,
            "systemSeats": [1, 2],
            "options": {"max_rounds": 3},
        },
    )
    assert created.status_code == 201, created.text
    room_id = created.json()["roomId"]
    joined = await client.post(f"/v1/rooms/{room_id}/seats", json={"name": "ann", "choice": "ZUL"})
    assert joined.status_code == 201, joined.text
    headers = {"Authorization": f"Bearer {joined.json()['seatToken']}"}
    first = await client.post(
        f"/v1/rooms/{room_id}/moves",
        json={"move": {"ageOfSoccer": {"pick": {"player": True}}}, "requestId": "first"},
        headers=headers,
    )
    assert first.status_code == 201, first.text
    view = (await client.get(f"/v1/rooms/{room_id}/view", headers=headers)).json()
    assert view["view"]["ageOfSoccer"]["hand"]["players"], "the player card picked up"
    bad = await client.post(
        f"/v1/rooms/{room_id}/moves",
        json={"move": {"ageOfSoccer": {"shoot": {}}}, "requestId": "bad"},
        headers=headers,
    )
    assert bad.status_code == 400 and bad.headers["content-type"].startswith("application/problem+json")
    chooser = random.Random(5)
    for turn in range(2000):
        await harness.settle(room_id)
        view = (await client.get(f"/v1/rooms/{room_id}/view", headers=headers)).json()
        if not view.get("toAct"):
            break
        data = view["view"]["ageOfSoccer"]
        assert data["seats"][0]["team"] == "ZUL" and "hand" in data
        legal = (await client.get(f"/v1/rooms/{room_id}/legal-moves", headers=headers)).json()["moves"]
        answer = await client.post(
            f"/v1/rooms/{room_id}/moves",
            json={"move": chooser.choice(legal), "requestId": f"m{turn}", "expectedVersion": view["version"]},
            headers=headers,
        )
        assert answer.status_code in (201, 409), answer.text
    room = (await client.get(f"/v1/rooms/{room_id}")).json()
    assert room["status"] == "ROOM_STATUS_FINISHED" and room["outcome"]["reason"] in ("rounds", "shields")
    stream = await client.get(f"/v1/rooms/{room_id}/events", headers=headers)
    events = sse_updates(stream.text)
    assert [event["version"] for event in events] == [str(v) for v in range(1, int(room["version"]) + 1)]
    kinds = {e["game"]["ageOfSoccer"]["kind"] for u in events for e in u.get("events", []) if "game" in e}
    assert {"turn_began", "drew", "trained"} <= kinds


async def test_kill_9_mid_window_and_every_responder_answers_after_the_restart(database_url: str) -> None:
    preference = ("shoot", "challenge", "pick", "pass", "discard", "draft", "end")
    with ServerProcess(database_url) as server:
        async with server.channel() as channel:
            rooms, moves = room_pb2_grpc.RoomServiceStub(channel), move_pb2_grpc.MoveServiceStub(channel)
            created = (
                await rooms.CreateRoom(
                    room_pb2.CreateRoomRequest(
                        game="age-of-soccer",
                        mode=ONLINE,
                        seats=4,
                        options={"response_seconds": 300, "turn_seconds": 600},
                    )
                )
            ).room
            room_id = created.room_id
            tokens = {}
            for _ in range(4):
                joined = await rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id))
                tokens[joined.seat] = joined.seat_token
            for step in range(500):  # every turn: pick up, pass, challenge, shoot: until a window opens
                view = await moves.GetView(move_pb2.GetViewRequest(room_id=room_id))
                if len(view.to_act) > 1:
                    break
                seat = view.to_act[0]
                legal = await moves.ListLegalMoves(
                    move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(tokens[seat])
                )
                by_kind = {m.age_of_soccer.WhichOneof("kind"): m for m in reversed(legal.moves)}
                move = next(by_kind[kind] for kind in preference if kind in by_kind)
                await moves.SubmitMove(
                    move_pb2.SubmitMoveRequest(room_id=room_id, move=move, request_id=f"s{step}"),
                    metadata=auth(tokens[seat]),
                )
            responder = view.to_act[-1]
            await moves.SubmitMove(
                move_pb2.SubmitMoveRequest(room_id=room_id, move=text("pass"), request_id="p"),
                metadata=auth(tokens[responder]),
            )
            before = (await rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
            assert len(before.clocks) == len(before.to_act) >= 2
        server.kill9()
        server.restart()
        async with server.channel() as channel:
            rooms, moves = room_pb2_grpc.RoomServiceStub(channel), move_pb2_grpc.MoveServiceStub(channel)
            after = (await rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
            assert after.version == before.version and list(after.to_act) == list(before.to_act)
            assert [(c.seat, c.deadline) for c in after.clocks] == [(c.seat, c.deadline) for c in before.clocks]
            for seat in after.to_act:  # the same tokens answer, and the window closes: the shot scores
                await moves.SubmitMove(
                    move_pb2.SubmitMoveRequest(room_id=room_id, move=text("pass"), request_id=f"q{seat}"),
                    metadata=auth(tokens[seat]),
                )
            closed = await moves.GetView(move_pb2.GetViewRequest(room_id=room_id))
            assert len(closed.to_act) == 1 and closed.version > after.version
            won = [sum(seat.won) for seat in closed.view.age_of_soccer.seats]
            assert sum(won) == 1, "one shield taken"
