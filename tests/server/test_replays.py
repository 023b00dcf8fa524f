"""Replays (MoveService.GetReplay): a room's game version by version, a page at a time; a spectator's until the game is
over, every hand shown after."""

from __future__ import annotations

import grpc

from kickoff.v1 import move_pb2, room_pb2
from tests.server.conftest import Harness, auth, refusal
from tests.server.test_protocol import play_some, two_seat_game


async def replay(
    harness: Harness, room_id: str, page_size: int = 0, token: str = ""
) -> list[move_pb2.GetReplayResponse]:
    """Every page of the room's replay, in order."""
    pages, after = [], 0
    while True:
        request = move_pb2.GetReplayRequest(room_id=room_id, after_version=after, page_size=page_size)
        page = await harness.moves.GetReplay(request, metadata=auth(token) if token else ())
        pages.append(page)
        after = page.next_after_version
        if not after:
            return pages


async def stream(harness: Harness, room_id: str, token: str = "") -> list[move_pb2.RoomUpdate]:
    """Every update of the room so far as a seat (or a spectator) gets it on a stream."""
    version = (await harness.view(room_id)).version
    call = harness.moves.StreamEvents(
        move_pb2.StreamEventsRequest(room_id=room_id), metadata=auth(token) if token else ()
    )
    updates = [(await call.read()).update for _ in range(version)]
    call.cancel()
    return updates


def without_cards_drawn(update: move_pb2.RoomUpdate) -> move_pb2.RoomUpdate:
    """The update with the cards drawn taken out of its events (as a spectator gets it)."""
    copy = move_pb2.RoomUpdate()
    copy.CopyFrom(update)
    for event in copy.events:
        if event.HasField("game") and event.game.soker.HasField("drew"):
            event.game.soker.drew.ClearField("card")
    return copy


async def test_a_replay_before_the_end_is_what_a_spectator_saw_and_shows_no_hand(harness: Harness) -> None:
    room_id, tokens = await two_seat_game(harness)
    await play_some(harness, room_id, tokens, 6)
    assert (await harness.view(room_id)).to_act, "the game goes on (a short deal may end in a dozen moves)"
    # Asked with a seat's token too: a replay is the same for everyone until the cards are turned over.
    pages = await replay(harness, room_id, page_size=5, token=tokens[0])
    steps = [step for page in pages for step in page.steps]
    spectator = await stream(harness, room_id)
    assert [step.update for step in steps] == spectator
    assert len(pages) == -(-len(spectator) // 5) and not any(page.revealed for page in pages)
    assert all(not step.hands for step in steps)
    views = [step.view.soker for step in steps if step.HasField("view")]
    assert views and all(not view.hand for view in views), "a spectator's view holds no hand"
    hands = {card for token in tokens for card in (await harness.view(room_id, token)).view.soker.hand}
    dumped = b"".join(page.SerializeToString() for page in pages)
    assert not [card for card in hands if card.encode() in dumped], "no card in a hand appears anywhere in the replay"
    assert steps[-1].view == (await harness.view(room_id)).view


async def test_a_finished_games_replay_steps_through_every_version_with_every_hand_shown(harness: Harness) -> None:
    room_id, tokens = await two_seat_game(harness)
    await play_some(harness, room_id, tokens, 2_000)
    final = await harness.view(room_id)
    assert not final.to_act, "the game is over"
    pages = await replay(harness, room_id, page_size=40)
    steps = [step for page in pages for step in page.steps]
    assert [step.update.version for step in steps] == list(range(1, final.version + 1))
    assert all(page.revealed and page.last_version == final.version for page in pages)
    room = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert pages[-1].room == room and room.outcome.winners
    # The events as they happened: a spectator's stream with the cards drawn shown.
    spectator = await stream(harness, room_id)
    assert [without_cards_drawn(step.update) for step in steps] == spectator
    assert any(event.game.soker.drew.card for step in steps for event in step.update.events), "cards drawn are shown"
    # Every seat's view at every step once the game began, and at the end the seats' own.
    started = [step for step in steps if step.HasField("view")]
    assert started and all(len(step.hands) == 2 for step in started)
    for seat, token in enumerate(tokens):
        assert steps[-1].hands[seat] == (await harness.view(room_id, token)).view
    assert any(step.hands[0].soker.hand for step in started), "a hand is shown"


async def test_a_replay_refuses_a_bad_page_and_an_unknown_room(harness: Harness) -> None:
    room_id, _ = await two_seat_game(harness)
    calls = {
        "bad_after_version": move_pb2.GetReplayRequest(room_id=room_id, after_version=-1),
        "bad_page_size": move_pb2.GetReplayRequest(room_id=room_id, page_size=501),
    }
    for reason, request in calls.items():
        code, refused, _ = await refusal(harness.moves.GetReplay(request))
        assert (code, refused) == (grpc.StatusCode.INVALID_ARGUMENT, reason)
    code, _, _ = await refusal(harness.moves.GetReplay(move_pb2.GetReplayRequest(room_id="nosuchroom")))
    assert code == grpc.StatusCode.NOT_FOUND
    after_the_end = await harness.moves.GetReplay(move_pb2.GetReplayRequest(room_id=room_id, after_version=10_000))
    assert not after_the_end.steps and not after_the_end.next_after_version
