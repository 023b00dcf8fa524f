"""The conformance suite every game passes: seeded random playouts checked at every step.

At every step of every game:

* every card is in exactly one place, and the whole deck is accounted for;
* no seat's view, and no event as redacted for a seat, holds a card hidden from that seat (spectators likewise);
* the state survives a JSON round trip unchanged (the game then continues from the *deserialised* copy, so anything the
  JSON form forgot would change the rest of the game);
* a replica fed the same moves through their wire form stays identical, and at the end the whole log replayed from the
  seed gives the identical state;
* every game ends within a bound.
"""

from __future__ import annotations

import json
import random
from typing import Any

from engine.core import Game, GameState

MAX_MOVES = 20_000


def _strings(data: Any) -> set[str]:
    """Every string anywhere in a JSON-able value (card codes appear as strings)."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def check_cards(game: Game, state: GameState) -> None:
    places = state.locations()
    every = [card for cards in places.values() for card in cards]
    assert len(every) == game.spec.deck_size, f"{len(every)} cards in play, the deck has {game.spec.deck_size}"
    duplicated = {card for card in every if every.count(card) > 1}
    assert not duplicated, f"cards in two places: {sorted(duplicated)}"


def check_views(state: GameState, events: list[Any]) -> None:
    for viewer in [None, *range(state.seats)]:
        hidden = state.hidden_from(viewer)
        seen = _strings(state.view(viewer).to_json())
        for event in events:
            seen |= _strings(event.for_viewer(viewer).to_json())
        leaked = seen & hidden
        assert not leaked, f"viewer {viewer} can see hidden cards {sorted(leaked)}"


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
        events = state.apply(seat, move, by_table=by_table)
        wire = game.move_from_wire(move.to_wire())
        assert wire == move, f"wire form of {move!r} reads back as {wire!r}"
        replica.apply(seat, wire, by_table=by_table)
        log.append((seat, wire))
        check_cards(game, state)
        check_views(state, events)
        state = round_trip(game, state)
        assert replica.to_json() == state.to_json(), f"seed {seed}: replica diverged at move {len(log)}"
    assert state.outcome() is not None
    assert game.replay(seats, None, seed, log).to_json() == state.to_json(), f"seed {seed}: replay differs"
    return state
