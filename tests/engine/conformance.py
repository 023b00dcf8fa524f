"""The conformance suite every game passes: seeded random playouts checked at every step.

At every step of every game:

* every card is in exactly one place, and the whole deck is accounted for;
* no seat's view, and no event as redacted for a seat, shows a card hidden from that seat (spectators likewise).

Cards are audited as instances: ``locations()`` and ``hidden_from()`` name each physical card, and a deck that holds
identical cards names their copies ``FACE#n`` (``SHOOT#07``). Views and events show faces only, never which copy is
which, so "shows a hidden card" is counted by face: a viewer may see a face at most as many times as it has copies in
places open to it (after the move, or before it, for the cards the move took out of sight).
* the state survives a JSON round trip unchanged (the game then continues from the *deserialised* copy, so anything the
  JSON form forgot would change the rest of the game);
* a replica fed the same moves through their wire form stays identical, and at the end the whole log replayed from the
  seed gives the identical state;
* every game ends within a bound.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from engine.core import Game, GameState

MAX_MOVES = 20_000


def face(instance: str) -> str:
    """A card's face: its instance id without the copy number."""
    return instance.split("#", 1)[0]


def faces_shown(data: Any, faces: set[str]) -> Counter[str]:
    """How often each card face appears as a string anywhere in a JSON-able value."""
    found: Counter[str] = Counter()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in faces:
                found[item] += 1
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def open_faces(state: GameState, viewer: int | None) -> Counter[str]:
    """The faces of the copies in places open to ``viewer``, counted."""
    hidden = state.hidden_from(viewer)
    return Counter(face(card) for cards in state.locations().values() for card in cards if card not in hidden)


def check_cards(game: Game, state: GameState) -> None:
    places = state.locations()
    every = [card for cards in places.values() for card in cards]
    assert len(every) == game.spec.deck_size, f"{len(every)} cards in play, the deck has {game.spec.deck_size}"
    duplicated = {card for card in every if every.count(card) > 1}
    assert not duplicated, f"cards in two places: {sorted(duplicated)}"


def check_views(state: GameState, events: list[Any], before: dict[int | None, Counter[str]] | None = None) -> None:
    """No view or event shows ``viewer`` more copies of a face than are open to it; ``before``: what was open to
    each viewer before the move (an event may show a card the move then took out of sight, e.g. one played face up
    and shuffled away)."""
    faces = {face(card) for cards in state.locations().values() for card in cards}
    for viewer in [None, *range(state.seats)]:
        allowed = open_faces(state, viewer)
        shown = faces_shown(state.view(viewer).to_json(), faces)
        leaked = {name: count for name, count in shown.items() if count > allowed[name]}
        assert not leaked, f"viewer {viewer}'s view shows hidden cards {leaked}"
        if before is not None:
            allowed |= before[viewer]
        for event in events:
            shown = faces_shown(event.for_viewer(viewer).to_json(), faces)
            leaked = {name: count for name, count in shown.items() if count > allowed[name]}
            assert not leaked, f"viewer {viewer} can see hidden cards {leaked} in {event.to_json()['type']}"


def round_trip(game: Game, state: GameState) -> GameState:
    data = state.to_json()
    copy = game.state_from_json(json.loads(json.dumps(data)))
    assert copy.to_json() == data, "the state changed through its JSON form"
    return copy


def play_checked(game: Game, seats: int, seed: int) -> GameState:
    """One random game with every check at every step; returns the finished state."""
    chooser = random.Random(seed)
    state = game.new_game(seats, None, seed)
    replica = game.new_game(seats, None, seed)
    log: list[tuple[int, Any]] = []
    check_cards(game, state)
    check_views(state, [])
    while acting := state.to_act():
        assert len(log) < MAX_MOVES, f"seed {seed}: no end after {MAX_MOVES} moves"
        seat = chooser.choice(acting)
        moves = state.legal_moves(seat)
        assert moves, f"seed {seed}: seat {seat} must act but has no legal move"
        # Sometimes the clock runs out instead: the table's move must be accepted too.
        by_table = chooser.random() < 0.05
        move = state.timeout_move(seat) if by_table else chooser.choice(moves)
        before = {viewer: open_faces(state, viewer) for viewer in [None, *range(seats)]}
        events = state.apply(seat, move, by_table=by_table)
        wire = game.move_from_wire(move.to_wire())
        assert wire == move, f"wire form of {move!r} reads back as {wire!r}"
        replica.apply(seat, wire, by_table=by_table)
        log.append((seat, wire))
        check_cards(game, state)
        check_views(state, events, before)
        state = round_trip(game, state)
        assert replica.to_json() == state.to_json(), f"seed {seed}: replica diverged at move {len(log)}"
    assert state.outcome() is not None
    assert game.replay(seats, None, seed, log).to_json() == state.to_json(), f"seed {seed}: replay differs"
    return state
