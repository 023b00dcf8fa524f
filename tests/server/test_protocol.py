"""Resuming streams, idempotent retries, stale versions, and every error with its status code and reason."""

from __future__ import annotations

import grpc
import pytest
from google.protobuf import json_format

from kickoff.v1 import common_pb2, game_pb2, move_pb2, room_pb2
from tests.server.conftest import Harness, auth, refusal, refusal_info, soker_move


async def two_seat_game(harness: Harness) -> tuple[str, list[str]]:
    room = await harness.create(seats=2)
    tokens = [(await harness.join(room.room_id))[1] for _ in range(2)]
    return room.room_id, tokens


async def play_some(harness: Harness, room_id: str, tokens: list[str], count: int) -> None:
    for _ in range(count):
        view = await harness.view(room_id)
        if not view.to_act:
            return
        seat = view.to_act[0]
        legal = await harness.legal(room_id, tokens[seat])
        await harness.submit(room_id, tokens[seat], legal[-1])


async def test_a_stream_resumes_from_the_last_version_seen_without_gap_or_duplicate(harness: Harness) -> None:
    room_id, tokens = await two_seat_game(harness)
    first = harness.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room_id), metadata=auth(tokens[0]))
    await play_some(harness, room_id, tokens, 4)
    seen = [(await first.read()).update for _ in range(3)]
    first.cancel()  # the connection drops after version 3
    await play_some(harness, room_id, tokens, 5)
    resumed = harness.moves.StreamEvents(
        move_pb2.StreamEventsRequest(room_id=room_id, after_version=seen[-1].version), metadata=auth(tokens[0])
    )
    current = (await harness.view(room_id)).version
    rest = [(await resumed.read()).update for _ in range(current - seen[-1].version)]
    resumed.cancel()
    assert [u.version for u in seen + rest] == list(range(1, current + 1))
    assert all(u.viewer == 0 for u in seen + rest)


async def test_a_retried_request_id_returns_the_first_answer_and_changes_nothing(harness: Harness) -> None:
    room_id, tokens = await two_seat_game(harness)
    move = soker_move("draw")
    first = await harness.submit(room_id, tokens[0], move, request_id="draw-1")
    again = await harness.submit(room_id, tokens[0], move, request_id="draw-1")
    assert again == first
    view = await harness.view(room_id, tokens[0])
    assert view.version == first.version and view.view.soker.drawn
    # A refused request is refused the same way on retry, even once it would be legal.
    code, reason, _ = await refusal(harness.submit(room_id, tokens[1], move, request_id="early"))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "not_your_turn")
    await harness.submit(room_id, tokens[0], soker_move("end_turn"))
    code, reason, _ = await refusal(harness.submit(room_id, tokens[1], move, request_id="early"))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "not_your_turn")


async def test_a_stale_expected_version_is_aborted(harness: Harness) -> None:
    room_id, tokens = await two_seat_game(harness)
    version = (await harness.view(room_id)).version
    code, reason, message = await refusal(harness.submit(room_id, tokens[0], soker_move("draw"), expected=version - 1))
    assert (code, reason) == (grpc.StatusCode.ABORTED, "stale_version")
    assert f"version {version}" in message
    accepted = await harness.submit(room_id, tokens[0], soker_move("draw"), expected=version)
    assert accepted.version == version + 1


async def test_an_illegal_move_and_a_move_out_of_turn_are_failed_preconditions(harness: Harness) -> None:
    room_id, tokens = await two_seat_game(harness)
    view = await harness.view(room_id, tokens[0])
    legal = {tuple(m.soker.play.cards) for m in await harness.legal(room_id, tokens[0]) if m.soker.HasField("play")}
    illegal = next(card for card in view.view.soker.hand if (card,) not in legal)  # specials are always legal
    code, info, message = await refusal_info(harness.submit(room_id, tokens[0], soker_move("play", illegal)))
    assert (code, info.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "no_match")
    assert info.metadata["cards"] == illegal, "the mover's answer names the card refused"
    assert illegal not in message, "the message, which telemetry records, names no card"
    code, reason, _ = await refusal(harness.submit(room_id, tokens[1], soker_move("draw")))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "not_your_turn")
    code, reason, _ = await refusal(harness.submit(room_id, tokens[0], soker_move("end_turn")))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "must_draw_first")


async def test_tokens_missing_bad_or_for_another_room(harness: Harness) -> None:
    room_id, tokens = await two_seat_game(harness)
    other_id, other_tokens = await two_seat_game(harness)
    request = move_pb2.SubmitMoveRequest(room_id=room_id, move=soker_move("draw"))
    code, reason, _ = await refusal(harness.moves.SubmitMove(request))
    assert (code, reason) == (grpc.StatusCode.UNAUTHENTICATED, "unauthenticated")
    code, _, _ = await refusal(harness.moves.SubmitMove(request, metadata=auth(tokens[0] + "x")))
    assert code == grpc.StatusCode.UNAUTHENTICATED
    code, _, _ = await refusal(harness.moves.SubmitMove(request, metadata=(("authorization", "Basic abc"),)))
    assert code == grpc.StatusCode.UNAUTHENTICATED
    code, reason, _ = await refusal(harness.moves.SubmitMove(request, metadata=auth(other_tokens[0])))
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "permission_denied")
    code, _, _ = await refusal(harness.moves.ListLegalMoves(move_pb2.ListLegalMovesRequest(room_id=room_id)))
    assert code == grpc.StatusCode.UNAUTHENTICATED
    assert other_id != room_id


async def test_a_given_back_seat_token_stops_working(harness: Harness) -> None:
    room = await harness.create(seats=3)
    _, token = await harness.join(room.room_id)
    await harness.rooms.LeaveRoom(room_pb2.LeaveRoomRequest(room_id=room.room_id), metadata=auth(token))
    code, _, message = await refusal(
        harness.rooms.LeaveRoom(room_pb2.LeaveRoomRequest(room_id=room.room_id), metadata=auth(token))
    )
    assert code == grpc.StatusCode.UNAUTHENTICATED and "no longer valid" in message


async def test_unknown_rooms_and_games_are_not_found(harness: Harness) -> None:
    code, reason, _ = await refusal(harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id="nope")))
    assert (code, reason) == (grpc.StatusCode.NOT_FOUND, "room_not_found")
    code, _, _ = await refusal(harness.moves.GetView(move_pb2.GetViewRequest(room_id="nope")))
    assert code == grpc.StatusCode.NOT_FOUND
    code, reason, _ = await refusal(harness.games.GetRules(game_pb2.GetRulesRequest(game="chess")))
    assert (code, reason) == (grpc.StatusCode.NOT_FOUND, "unknown_game")


@pytest.mark.parametrize(
    ("request_fields", "reason"),
    [
        ({"game": "chess", "mode": common_pb2.ROOM_MODE_ONLINE, "seats": 4}, "unknown_game"),
        ({"game": "soker", "seats": 4}, "bad_mode"),
        ({"game": "soker", "mode": common_pb2.ROOM_MODE_ONLINE, "seats": 5}, "invalid_options"),
        ({"game": "soker", "mode": common_pb2.ROOM_MODE_ONLINE, "seats": 4, "system_players": 4}, "no_person_seat"),
        (
            {"game": "soker", "mode": common_pb2.ROOM_MODE_SOLO, "seats": 4, "system_players": 1},
            "solo_needs_one_person",
        ),
        ({"game": "soker", "mode": common_pb2.ROOM_MODE_ONLINE, "seats": 2, "system_player": "genius"}, "unknown_bot"),
    ],
)
async def test_malformed_room_requests_are_invalid_arguments(
    harness: Harness, request_fields: dict, reason: str
) -> None:
    code, got, _ = await refusal(harness.rooms.CreateRoom(room_pb2.CreateRoomRequest(**request_fields)))
    assert (code, got) == (grpc.StatusCode.INVALID_ARGUMENT, reason)


async def test_malformed_moves_and_options_are_invalid_arguments(harness: Harness) -> None:
    room_id, tokens = await two_seat_game(harness)
    for move in (soker_move("play", "XYZ-ABC"), soker_move("play"), move_pb2.Move()):
        code, reason, _ = await refusal(harness.submit(room_id, tokens[0], move))
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "malformed_move"), move
    request = room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=4)
    request.options.update({"hand_size": "seven"})
    code, reason, message = await refusal(harness.rooms.CreateRoom(request))
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "invalid_options") and "hand_size" in message
    code, _, _ = await refusal(harness.moves.GetView(move_pb2.GetViewRequest()))
    assert code == grpc.StatusCode.INVALID_ARGUMENT


async def test_a_taken_seat_is_already_taken_and_a_full_room_refuses(harness: Harness) -> None:
    room = await harness.create(seats=2)
    await harness.join(room.room_id, seat=1)
    code, reason, _ = await refusal(harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id, seat=1)))
    assert (code, reason) == (grpc.StatusCode.ALREADY_EXISTS, "seat_taken")
    await harness.join(room.room_id)
    code, reason, _ = await refusal(harness.rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id)))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "room_full")


async def test_options_and_rules_in_force(harness: Harness) -> None:
    rules = (await harness.games.GetRules(game_pb2.GetRulesRequest(game="soker"))).rules
    values = {o.name: o.value.number_value for o in rules.options}
    assert values == {"hand_size": 7, "first_seat": 0, "turn_seconds": 30} and rules.deck_size == 58
    room = await harness.create(seats=2, options={"turn_seconds": 10, "hand_size": 5})
    _, token = await harness.join(room.room_id)
    await harness.join(room.room_id)
    view = await harness.view(room.room_id, token)
    assert view.clock.turn_seconds == 10 and len(view.view.soker.hand) == 5
    games = await harness.games.ListGames(game_pb2.ListGamesRequest())
    # (relay: the tests' own game, hosted by the tests)
    assert [g.name for g in games.games] == ["soker", "age-of-soccer", "carta-futbol-club", "relay"]
    rules = (await harness.games.GetRules(game_pb2.GetRulesRequest(game="age-of-soccer"))).rules
    values = {o.name: json_format.MessageToDict(o.value) for o in rules.options}
    assert values == {"teams": "", "first_seat": 0, "turn_seconds": 60, "response_seconds": 15, "max_rounds": 0}
    assert rules.deck_size == 28 + 88 and list(rules.seat_counts) == [2, 3, 4, 5, 6, 7]
    assert list(games.games[0].seat_counts) == [2, 3, 4]
    rules = (await harness.games.GetRules(game_pb2.GetRulesRequest(game="carta-futbol-club"))).rules
    values = {o.name: json_format.MessageToDict(o.value) for o in rules.options}
    assert values == {"extra_time": False, "penalties": False, "turn_seconds": 30}
    assert rules.deck_size == 120 and list(rules.seat_counts) == [2, 4, 6]


async def test_every_game_lists_its_cards_with_its_own_fields(harness: Harness) -> None:
    for name, field in (("soker", "soker"), ("age-of-soccer", "age_of_soccer"), ("carta-futbol-club", "carta")):
        cards = await harness.games.ListCards(game_pb2.ListCardsRequest(game=name))
        rules = (await harness.games.GetRules(game_pb2.GetRulesRequest(game=name))).rules
        assert cards.game == name and sum(card.copies for card in cards.cards) == rules.deck_size
        assert all(card.WhichOneof("game") == field for card in cards.cards), name
    soker = {card.code: card for card in (await harness.games.ListCards(game_pb2.ListCardsRequest(game="soker"))).cards}
    forward = soker["JUV-FRW"]
    assert (forward.name, forward.soker.country_colour, forward.soker.legend) == (
        "Juventus Forward",
        "green",
        "Alessandro Del Piero",
    )
    carta = await harness.games.ListCards(game_pb2.ListCardsRequest(game="carta-futbol-club"))
    assert list(next(c for c in carta.cards if c.code == "G-DT-8").carta.actions) == ["dribble", "tackle"]
    # (relay, the tests' own game, has no cards to draw)
    assert not (await harness.games.ListCards(game_pb2.ListCardsRequest(game="relay"))).cards
    code, reason, _ = await refusal(harness.games.ListCards(game_pb2.ListCardsRequest(game="chess")))
    assert (code, reason) == (grpc.StatusCode.NOT_FOUND, "unknown_game")
    code, reason, _ = await refusal(harness.games.ListCards(game_pb2.ListCardsRequest()))
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "missing_game")


async def test_rooms_list_in_pages_filtered_by_status(harness: Harness) -> None:
    created = [await harness.create(seats=2) for _ in range(5)]
    await harness.join(created[0].room_id)
    await harness.join(created[0].room_id)  # now playing
    first = await harness.rooms.ListRooms(room_pb2.ListRoomsRequest(page_size=2))
    assert [r.room_id for r in first.rooms] == [created[4].room_id, created[3].room_id]
    rest = await harness.rooms.ListRooms(room_pb2.ListRoomsRequest(page_size=2, page_token=first.next_page_token))
    last = await harness.rooms.ListRooms(room_pb2.ListRoomsRequest(page_size=2, page_token=rest.next_page_token))
    assert [r.room_id for r in [*rest.rooms, *last.rooms]] == [c.room_id for c in reversed(created[:3])]
    assert last.next_page_token == ""
    waiting = await harness.rooms.ListRooms(room_pb2.ListRoomsRequest(status=common_pb2.ROOM_STATUS_WAITING))
    assert len(waiting.rooms) == 4 and created[0].room_id not in {r.room_id for r in waiting.rooms}
