"""The conformance suite every game passes: seeded random playouts checked at every step.

At every step of every game:

* every card is in exactly one place, and the whole deck is accounted for;
* no seat's view, and no event as redacted for a seat, shows a card hidden from that seat (spectators likewise).

Cards are audited as instances: ``locations()`` and ``hidden_from()`` name each physical card, and a deck that holds
identical cards names their copies ``FACE#n`` (``SHOOT#07``). Views and events show faces only, never which copy is
which, so "shows a hidden card" is counted by face: a viewer may see a face at most as many times as it has copies in
places open to it (after the move, or before it, for the cards the move took out of sight); an event may also show
the mover's own cards, which a move plays face up (and the rules may shuffle out of sight in the same move: Age of
Soccer's played card goes to the discard pile before its effect, which may reshuffle that pile into the deck).
* the state survives a JSON round trip unchanged (the game then continues from the *deserialised* copy, so anything the
  JSON form forgot would change the rest of the game);
* a replica fed the same moves through their wire form stays identical, and at the end the whole log replayed from the
  seed gives the identical state;
* every game ends within a bound.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections import Counter
from typing import Any

from engine.core import Game, GameState

MAX_MOVES = 20_000


@functools.cache
def face(instance: str) -> str:
    """A card's face: its instance id without the copy number."""
    return instance.split("#", 1)[0]


_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def faces_shown(data: Any, faces: set[str]) -> Counter[str]:
    """How often each card face appears as a string anywhere in a JSON-able value."""
    text = json.dumps(data)
    # Between the quotes: every other piece of the text split at quotes, unless a string holds an escaped quote.
    every = Counter(_STRING.findall(text) if '\\"' in text else text.split('"')[1::2])
    return Counter({text: count for text, count in every.items() if text in faces})


def open_faces(state: GameState, viewer: int | None, every: list[str] | None = None) -> Counter[str]:
    """The faces of the copies in places open to ``viewer``, counted (``every``: all the instances, if known)."""
    hidden = state.hidden_from(viewer)
    if every is None:
        every = [card for cards in state.locations().values() for card in cards]
    return Counter(face(card) for card in every if card not in hidden)


def open_to_all(state: GameState, every: list[str] | None = None) -> dict[int | None, Counter[str]]:
    """:func:`open_faces` for every viewer (``every``: all the instances, if known)."""
    if every is None:
        every = [card for cards in state.locations().values() for card in cards]
    return {viewer: open_faces(state, viewer, every) for viewer in [None, *range(state.seats)]}


def check_cards(game: Game, state: GameState) -> list[str]:
    """Every card in exactly one place, the whole deck accounted for; returns every instance (for check_views)."""
    places = state.locations()
    every = [card for cards in places.values() for card in cards]
    assert len(every) == game.spec.deck_size, f"{len(every)} cards in play, the deck has {game.spec.deck_size}"
    duplicated = {card for card, copies in Counter(every).items() if copies > 1}
    assert not duplicated, f"cards in two places: {sorted(duplicated)}"
    return every


def check_views(
    state: GameState,
    events: list[Any],
    before: dict[int | None, Counter[str]] | None = None,
    played: Counter[str] | None = None,
    every: list[str] | None = None,
) -> dict[int | None, Counter[str]]:
    """No view or event shows ``viewer`` more copies of a face than are open to it; ``before``: what was open to
    each viewer before the move, and ``played``: the mover's own cards before it (an event may show a card the move
    played face up and then took out of sight). ``every``: every card instance now (check_cards'), read from the state
    when not given. Returns what is open to each viewer now (the next move's ``before``)."""
    if every is None:
        every = [card for cards in state.locations().values() for card in cards]
    faces = {face(card) for card in every}
    now = open_to_all(state, every)
    unredacted = [faces_shown(event.to_json(), faces) for event in events]  # (what most viewers see of an event)
    for viewer in [None, *range(state.seats)]:
        allowed = now[viewer]
        shown = faces_shown(state.view(viewer).to_json(), faces)
        leaked = {name: count for name, count in shown.items() if count > allowed[name]}
        assert not leaked, f"viewer {viewer}'s view shows hidden cards {leaked}"
        if before is not None:
            allowed |= before[viewer]
        if played is not None:
            allowed += played
        for event, whole in zip(events, unredacted, strict=True):
            redacted = event.for_viewer(viewer)
            shown = whole if redacted is event else faces_shown(redacted.to_json(), faces)
            leaked = {name: count for name, count in shown.items() if count > allowed[name]}
            assert not leaked, f"viewer {viewer} can see hidden cards {leaked} in {event.to_json()['type']}"
    return now


def round_trip(game: Game, state: GameState) -> tuple[GameState, dict[str, Any]]:
    """The state through its JSON form, checked unchanged: the copy, and its JSON (for the next comparison)."""
    data = state.to_json()
    copy = game.state_from_json(json.loads(json.dumps(data)))
    assert copy.to_json() == data, "the state changed through its JSON form"
    return copy, data


def play_checked(game: Game, seats: int, seed: int, options: dict[str, Any] | None = None) -> GameState:
    """One random game (with ``options``) with every check at every step; returns the finished state."""
    chooser = random.Random(seed)
    state = game.new_game(seats, options, seed)
    replica = game.new_game(seats, options, seed)
    log: list[tuple[int, Any]] = []
    before = check_views(state, [], every=check_cards(game, state))
    while acting := state.to_act():
        assert len(log) < MAX_MOVES, f"seed {seed}: no end after {MAX_MOVES} moves"
        seat = chooser.choice(acting)
        moves = state.legal_moves(seat)
        assert moves, f"seed {seed}: seat {seat} must act but has no legal move"
        # Sometimes the clock runs out instead: the table's move must be accepted too.
        by_table = chooser.random() < 0.05
        move = state.timeout_move(seat) if by_table else chooser.choice(moves)
        played = before[seat] - before[None]  # the mover's own cards: open to it, not to everyone
        events = state.apply(seat, move, by_table=by_table)
        wire = game.move_from_wire(move.to_wire())
        assert wire == move, f"wire form of {move!r} reads back as {wire!r}"
        replica.apply(seat, wire, by_table=by_table)
        log.append((seat, wire))
        before = check_views(state, events, before, played, check_cards(game, state))
        state, data = round_trip(game, state)
        assert replica.to_json() == data, f"seed {seed}: replica diverged at move {len(log)}"
    assert state.outcome() is not None
    assert game.replay(seats, options, seed, log).to_json() == state.to_json(), f"seed {seed}: replay differs"
    return state
