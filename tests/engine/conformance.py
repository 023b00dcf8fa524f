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
from collections import Counter
from collections.abc import Callable
from itertools import chain, filterfalse
from typing import Any

from engine.core import Game, GameState

MAX_MOVES = 20_000


@functools.cache
def face(instance: str) -> str:
    """A card's face: its instance id without the copy number."""
    return instance.split("#", 1)[0]


_NUMBERS = (int, float)  # (bool is an int)


def faces_shown(data: Any, faces: set[str] | frozenset[str]) -> Counter[str]:
    """How often each card face appears as a string anywhere in a JSON-able value: as a string value or a key, at
    any depth. The value is walked, not written out (writing it as JSON text cost most of a conformance playout);
    what JSON cannot hold raises TypeError, as ``json.dumps`` would."""
    return Counter(_faces_in(data, faces))


def _faces_in(data: Any, faces: set[str] | frozenset[str]) -> list[str]:
    """:func:`faces_shown` as a list: each face as often as it appears."""
    found: list[str] = []
    stack = [data]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str:
            if item in faces:
                found.append(item)
        elif kind is dict:
            if not all(map(_IS_STR, item)):
                _check_keys(item)
            found.extend(filter(faces.__contains__, item))
            stack.extend(item.values())
        elif kind is list or kind is tuple:
            stack.extend(item)
        elif item is None or kind is int or kind is bool or kind is float:
            pass
        elif isinstance(item, str):
            if item in faces:
                found.append(str(item))
        elif isinstance(item, dict):
            stack.append(dict(item))
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif not isinstance(item, _NUMBERS):
            raise TypeError(f"Object of type {kind.__name__} is not JSON serializable")
    return found


_IS_STR = str.__instancecheck__


def _check_keys(mapping: dict[Any, Any]) -> None:
    """The keys JSON can write (json.dumps writes a number, a boolean or None as a string; faces are none of them)."""
    for key in mapping:
        if not (key is None or isinstance(key, str | int | float)):
            raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _instances(state: GameState) -> list[str]:
    return list(chain.from_iterable(state.locations().values()))


def open_faces(state: GameState, viewer: int | None, every: list[str] | None = None) -> Counter[str]:
    """The faces of the copies in places open to ``viewer``, counted (``every``: all the instances, if known)."""
    hidden = state.hidden_from(viewer)
    return Counter(map(face, filterfalse(hidden.__contains__, _instances(state) if every is None else every)))


def check_cards(game: Game, state: GameState) -> list[str]:
    """Every card in exactly one place, the whole deck accounted for; returns every instance (for check_views)."""
    every = _instances(state)
    assert len(every) == game.spec.deck_size, f"{len(every)} cards in play, the deck has {game.spec.deck_size}"
    if len(set(every)) != len(every):
        duplicated = {card for card, copies in Counter(every).items() if copies > 1}
        raise AssertionError(f"cards in two places: {sorted(duplicated)}")
    return every


class Open:
    """What is open to each viewer at one moment: the copies of each face, and which instances each viewer may not
    see. Counts are taken per face when a check asks (a view or an event shows a few faces; the deck has many)."""

    def __init__(self, state: GameState, every: list[str]) -> None:
        self.copies, self.single = _copies(frozenset(every))
        self.hidden = {viewer: state.hidden_from(viewer) for viewer in [None, *range(state.seats)]}

    def count(self, viewer: int | None, name: str) -> int:
        """How many copies of face ``name`` are in places open to ``viewer``."""
        copies = self.copies.get(name, ())
        hidden = self.hidden[viewer]
        if len(copies) == 1:
            return 0 if copies[0] in hidden else 1
        return len(copies) - sum(map(hidden.__contains__, copies))

    def over(self, viewer: int | None, found: list[str]) -> dict[str, int]:
        """The faces ``found`` (in ``viewer``'s view) more often than copies of them are open to ``viewer``. Faces
        found once that have one copy are checked together: none of those copies may be hidden from ``viewer``."""
        names = set(found)
        if len(names) == len(found):
            alone = names.intersection(self.single)
            if self.hidden[viewer].isdisjoint(map(self.single.__getitem__, alone)):
                return {name: 1 for name in names.difference(alone) if self.count(viewer, name) < 1}
        return {name: count for name, count in Counter(found).items() if count > self.count(viewer, name)}

    def own(self, seat: int, name: str) -> int:
        """How many copies of ``name`` are open to ``seat`` but not to everyone: the seat's own cards."""
        return max(0, self.count(seat, name) - self.count(None, name))


@functools.lru_cache(maxsize=16)
def _copies(instances: frozenset[str]) -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
    """The instances of each face, and the one instance of each face that has one (the same at every step of a game:
    the deck is the same cards throughout)."""
    copies: dict[str, list[str]] = {}
    for card in instances:
        copies.setdefault(face(card), []).append(card)
    return (
        {name: tuple(cards) for name, cards in copies.items()},
        {name: cards[0] for name, cards in copies.items() if len(cards) == 1},
    )


def _over(found: list[str], limit: Callable[[str], int]) -> dict[str, int]:
    """The faces ``found`` more often than ``limit`` allows, with how often."""
    if len(found) < 2:
        return {name: 1 for name in found if limit(name) < 1}
    return {name: count for name, count in Counter(found).items() if count > limit(name)}


class FaceCounter:
    """:func:`faces_shown` for the views of one moment, which share most of their parts: a top-level part equal to
    one already counted (the seats' public rows, the piles) is not walked again. Only for values taken from one state
    that does not change meanwhile."""

    def __init__(self, faces: set[str]) -> None:
        self.faces = faces
        self.parts: dict[str, tuple[Any, list[str]]] = {}

    def __call__(self, data: Any) -> list[str]:
        if type(data) is not dict:
            return _faces_in(data, self.faces)
        faces = self.faces
        found = list(filter(faces.__contains__, data))
        if not all(map(_IS_STR, data)):
            _check_keys(data)
        parts = self.parts
        for key, value in data.items():
            kind = type(value)
            if kind is str:
                if value in faces:
                    found.append(value)
            elif kind is int or kind is bool or value is None:
                pass
            else:
                seen = parts.get(key)
                if seen is None or not (seen[0] is value or seen[0] == value):
                    seen = parts[key] = (value, _faces_in(value, faces))
                found.extend(seen[1])
        return found


def check_views(
    state: GameState,
    events: list[Any],
    before: Open | None = None,
    mover: int | None = None,
    every: list[str] | None = None,
) -> Open:
    """No view or event shows ``viewer`` more copies of a face than are open to it; ``before``: what was open to
    each viewer before the move, and ``mover``: the seat that moved, whose own cards before it an event may also
    show (a move may play a card face up and then take it out of sight). ``every``: every card instance now
    (check_cards'), read from the state when not given. Returns what is open to each viewer now (the next move's
    ``before``)."""
    if every is None:
        every = _instances(state)
    now = Open(state, every)
    faces = set(now.copies)
    counted = FaceCounter(faces)
    unredacted = [_faces_in(event.to_json(), faces) for event in events]  # (what most viewers see of an event)
    for viewer in [None, *range(state.seats)]:
        leaked = now.over(viewer, counted(state.view(viewer).to_json()))
        assert not leaked, f"viewer {viewer}'s view shows hidden cards {leaked}"
        for event, whole in zip(events, unredacted, strict=True):
            redacted = event.for_viewer(viewer)
            shown = whole if redacted is event else _faces_in(redacted.to_json(), faces)
            leaked = _over(shown, functools.partial(allowed, now, before, mover, viewer))
            assert not leaked, f"viewer {viewer} can see hidden cards {leaked} in {event.to_json()['type']}"
    return now


def allowed(now: Open, before: Open | None, mover: int | None, viewer: int | None, name: str) -> int:
    """How many copies of ``name`` an event of the move may show ``viewer``: those open to it after the move or
    before it, and the mover's own before it."""
    if before is None:
        return now.count(viewer, name)
    own = before.own(mover, name) if mover is not None else 0
    return max(now.count(viewer, name), before.count(viewer, name)) + own


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
        events = state.apply(seat, move, by_table=by_table)
        wire = game.move_from_wire(move.to_wire())
        assert wire == move, f"wire form of {move!r} reads back as {wire!r}"
        replica.apply(seat, wire, by_table=by_table)
        log.append((seat, wire))
        before = check_views(state, events, before, seat, check_cards(game, state))
        state, data = round_trip(game, state)
        assert replica.to_json() == data, f"seed {seed}: replica diverged at move {len(log)}"
    assert state.outcome() is not None
    assert game.replay(seats, options, seed, log).to_json() == state.to_json(), f"seed {seed}: replay differs"
    return state
