"""Whole games played over a real server while every viewer listens, then every update each viewer received checked
against what the engine hides from that viewer at that version.

Cards are counted by face, as the conformance suite counts them (a deck may hold identical cards): an update may show
a viewer a face as often as it has copies open to that viewer before or after the update, plus the viewer's own cards
before it (a move plays them face up), plus what the engine's own events of the update show that viewer (a card
played face up and gathered in by the same move, as when Carta's half ends on a tackle, is open neither before nor
after it; the engine's redaction of its events is the conformance suite's to check). The legal moves an update
carries for its seat name that seat's cards, often several times over: they may name only faces open to it.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import grpc
from google.protobuf import json_format

from engine.core import Game
from kickoff.v1 import move_pb2
from tests.engine.conformance import faces_shown, open_faces
from tests.server.conftest import Harness, auth


async def play_listened(
    harness: Harness, room_id: str, tokens: dict[int, str], chooser: random.Random, *, clock_odds: float = 0.1
) -> dict[int | None, list[move_pb2.RoomUpdate]]:
    """Random legal moves for the people's seats (now and then the clock runs out instead) until the game ends;
    returns every update each seat and a spectator received on its stream."""
    heard: dict[int | None, list[move_pb2.RoomUpdate]] = {viewer: [] for viewer in [None, *tokens]}

    async def follow(viewer: int | None) -> None:
        metadata = auth(tokens[viewer]) if viewer is not None else ()
        async for response in harness.moves.StreamEvents(
            move_pb2.StreamEventsRequest(room_id=room_id), metadata=metadata
        ):
            heard[viewer].append(response.update)

    following = [asyncio.create_task(follow(viewer)) for viewer in heard]
    while True:
        await harness.settle(room_id)
        view = await harness.view(room_id)
        if not view.to_act:
            break
        people = [seat for seat in view.to_act if seat in tokens]
        if not people or chooser.random() < clock_odds:
            harness.clock.advance(600)  # longer than any clock: the table moves for the seats that must act
            continue
        seat = chooser.choice(people)
        legal = await harness.legal(room_id, tokens[seat])
        try:
            await harness.submit(room_id, tokens[seat], chooser.choice(legal), request_id=f"{view.version}-{seat}")
        except grpc.aio.AioRpcError as error:  # another seat of the window, or the clock, moved first
            assert error.code() in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ABORTED)
    await asyncio.gather(*following)
    return heard


def check_no_leak(harness: Harness, room_id: str, game: Game, heard: dict, faces: set[str]) -> None:
    """Replays the room's log and checks each viewer's updates (see the module docstring)."""
    live = harness.directory.get(room_id)
    state = game.new_game(len(live.seats), live.state.options, live.seed)
    open_at = {0: {viewer: open_faces(state, viewer) for viewer in heard}}
    told: dict[int, dict[int | None, Counter[str]]] = {}  # what the engine's events of each version show each viewer
    for entry in harness.directory.journal.log("room", room_id):
        if entry.kind in ("move", "table"):
            events = state.apply(entry.seat, game.move_from_wire(entry.move), by_table=entry.kind == "table")
            told[entry.version] = {
                viewer: sum((faces_shown(e.for_viewer(viewer).to_json(), faces) for e in events), Counter())
                for viewer in heard
            }
        open_at[entry.version] = {viewer: open_faces(state, viewer) for viewer in heard}
    assert state.to_json() == live.state.to_json(), "the log replays to the same game"
    for viewer, updates in heard.items():
        assert [u.version for u in updates] == list(range(1, live.version + 1)), f"viewer {viewer} missed updates"
        for update in updates:
            before, after = open_at[update.version - 1][viewer], open_at[update.version][viewer]
            data = json_format.MessageToDict(update)
            named = set(faces_shown(data.pop("legalMoves", []), faces))
            assert named <= {face for face, n in after.items() if n}, f"viewer {viewer}'s moves name hidden cards"
            allowed = after | before | told.get(update.version, {}).get(viewer, Counter())
            if viewer is not None:
                allowed += before - open_at[update.version - 1][None]
            shown = faces_shown(data, faces)
            leaked = {face: n for face, n in shown.items() if n > allowed[face]}
            assert not leaked, f"room {room_id}: viewer {viewer} saw {leaked} at version {update.version}"
