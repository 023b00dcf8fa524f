"""Property: over many seeded games, no update or view sent to a seat (or a spectator) holds a card hidden from it.

Each game is replayed afterwards from its seed and the journal's move log; at every version the engine says which
cards each viewer must not see, and everything the server sent that viewer at that version is searched for them.
"""

from __future__ import annotations

import asyncio
import random

from google.protobuf import json_format

from engine.registry import get_game
from engine.soker.cards import BY_CODE
from kickoff.v1 import common_pb2, move_pb2
from tests.server.conftest import Harness, auth

GAMES = 30


def card_codes(message) -> set[str]:
    found: set[str] = set()
    stack = [json_format.MessageToDict(message)]
    while stack:
        item = stack.pop()
        if isinstance(item, str) and item in BY_CODE:
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


async def drain(stream, into: list) -> None:
    async for response in stream:
        into.append(response.update)


async def play_one(harness: Harness, index: int) -> None:
    chooser = random.Random(index)
    seats = 2 + index % 3
    bots = index % seats
    room = await harness.create(seats=seats, system_players=bots)
    tokens = {}
    viewers: dict[int | None, list] = {None: []}
    tasks = []
    for _ in range(seats - bots):
        seat, token = await harness.join(room.room_id)
        tokens[seat] = token
    for viewer in [None, *tokens]:
        viewers[viewer] = []
        metadata = auth(tokens[viewer]) if viewer is not None else ()
        stream = harness.moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room.room_id), metadata=metadata)
        tasks.append(asyncio.create_task(drain(stream, viewers[viewer])))
    views: list[tuple[int | None, move_pb2.GetViewResponse]] = []
    while True:
        await harness.settle(room.room_id)
        viewer = chooser.choice([None, *tokens])
        view = await harness.view(room.room_id, tokens.get(viewer))
        views.append((viewer, view))
        if not view.to_act:
            break
        seat = view.to_act[0]
        if seat not in tokens or chooser.random() < 0.05:
            harness.clock.advance(30)  # the clock runs out: the table plays
            continue
        legal = await harness.legal(room.room_id, tokens[seat])
        await harness.submit(room.room_id, tokens[seat], chooser.choice(legal))
    await asyncio.gather(*tasks)

    live = harness.directory.get(room.room_id)
    assert live.status == "finished"
    game = get_game("soker")
    state = game.new_game(seats, live.options, live.seed)
    hidden_at: dict[int, dict[int | None, set[str]]] = {}
    journal = [e for e in harness.directory.journal.log("room", room.room_id) if e.kind in ("move", "table")]
    first_move_version = journal[0].version
    for viewer in viewers:
        hidden_at.setdefault(first_move_version - 1, {})[viewer] = state.hidden_from(viewer)
    for entry in journal:
        state.apply(entry.seat, game.move_from_wire(entry.move), by_table=entry.kind == "table")
        hidden_at[entry.version] = {viewer: state.hidden_from(viewer) for viewer in viewers}
    assert state.to_json()["result"] is not None

    for viewer, updates in viewers.items():
        assert [u.version for u in updates] == list(range(1, live.version + 1))
        for update in updates:
            if update.version in hidden_at:
                leaked = card_codes(update) & hidden_at[update.version][viewer]
                assert not leaked, f"game {index}: viewer {viewer} saw {leaked} at version {update.version}"
    for viewer, view in views:
        if view.version in hidden_at:
            leaked = card_codes(view) & hidden_at[view.version][viewer]
            assert not leaked, f"game {index}: viewer {viewer}'s view leaked {leaked}"
    assert any(view.view.soker.hand for viewer, view in views if viewer is not None), "seats see their own hands"
    assert viewers[None][-1].status == common_pb2.ROOM_STATUS_FINISHED


async def test_no_seat_ever_receives_a_card_hidden_from_it(harness: Harness) -> None:
    for index in range(GAMES):
        await play_one(harness, index)
