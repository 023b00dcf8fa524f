"""The conformance checks can fail: each hand-made mutant of a game (a leak, a lost card, a state its JSON form does
not rebuild, a replica that drifts...) makes play_checked fail with the message that names it, within a few seeds.

What it buys: the playouts in test_conformance.py are made cheap by counting faces cleverly (conformance.py); a
shortcut there that stopped seeing a leak would pass those playouts silently. Each case stops at the first failure,
a few moves into the first game (the replay mutant plays one game whole): 46 cases (Relay included) in
about 0.6 s together.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from engine.core import Event, Game, GameState
from engine.registry import GAMES
from tests.engine import conformance
from tests.engine.conformance import face
from tests.engine.test_conformance import OPTIONS

SEEDS = 4  # a mutant must be caught within this many games


class Shown:
    """A view as the mutant shows it: the real one with ``extra`` faces under a key of its own."""

    def __init__(self, view: Any, extra: list[str]) -> None:
        self.view, self.extra = view, extra

    def to_json(self) -> dict[str, Any]:
        return {**self.view.to_json(), "peek": self.extra}


class Unredacted:
    """An event that forgets to hide its private cards from anyone."""

    def __init__(self, event: Any) -> None:
        self.event = event

    def to_json(self) -> dict[str, Any]:
        return self.event.to_json()

    def for_viewer(self, viewer: int | None) -> Unredacted:
        return self


def viewers(state: GameState) -> list[int | None]:
    return [None, *range(state.seats)]


def in_every_deck(state: GameState) -> set[str]:
    """The instances hidden from every viewer."""
    return set.intersection(*(set(state.hidden_from(viewer)) for viewer in viewers(state)))


def view_shows_hidden(monkeypatch: pytest.MonkeyPatch, game: Game, cls: type) -> None:
    view = cls.view
    monkeypatch.setattr(cls, "view", lambda self, viewer: Shown(view(self, viewer), hidden_faces(self, viewer)))


def hidden_faces(state: GameState, viewer: int | None) -> list[str]:
    return sorted(face(card) for card in state.hidden_from(viewer))


def spectator_sees_a_hand(monkeypatch: pytest.MonkeyPatch, game: Game, cls: type) -> None:
    view = cls.view

    def peek(self: GameState, viewer: int | None) -> Any:
        if viewer is not None:
            return view(self, viewer)
        hand = set(self.hidden_from(None)) - set(self.hidden_from(0))  # seat 0's own cards
        return Shown(view(self, viewer), sorted(map(face, hand)))

    monkeypatch.setattr(cls, "view", peek)


def wrap_apply(monkeypatch: pytest.MonkeyPatch, cls: type, after: Callable[[GameState, list[Any]], list[Any]]) -> None:
    apply = cls.apply

    def mutant(self: GameState, seat: int, move: Any, *, by_table: bool = False) -> list[Any]:
        return after(self, apply(self, seat, move, by_table=by_table))

    monkeypatch.setattr(cls, "apply", mutant)


def events_unredacted(monkeypatch: pytest.MonkeyPatch, game: Game, cls: type) -> None:
    wrap_apply(monkeypatch, cls, lambda state, events: [Unredacted(event) for event in events])


def event_shows_the_deck(monkeypatch: pytest.MonkeyPatch, game: Game, cls: type) -> None:
    def peek(state: GameState, events: list[Any]) -> list[Any]:
        return [*events, Event("peek", cards=tuple(sorted(map(face, in_every_deck(state)))))]

    wrap_apply(monkeypatch, cls, peek)


def card_goes_missing(monkeypatch: pytest.MonkeyPatch, game: Game, cls: type) -> None:
    locations = cls.locations

    def mutant(self: GameState) -> dict[str, list[str]]:
        places = {name: list(cards) for name, cards in locations(self).items()}
        biggest = max(places, key=lambda name: len(places[name]))
        places[biggest].pop()
        return places

    monkeypatch.setattr(cls, "locations", mutant)


def card_in_two_places(monkeypatch: pytest.MonkeyPatch, game: Game, cls: type) -> None:
    locations = cls.locations

    def mutant(self: GameState) -> dict[str, list[str]]:
        places = {name: list(cards) for name, cards in locations(self).items()}
        full = [name for name in places if places[name]]
        first, last = full[0], full[-1]
        if first == last:
            places[first][-1] = places[first][0]
        else:
            places[last][-1] = places[first][0]
        return places

    monkeypatch.setattr(cls, "locations", mutant)


def json_forgets_the_version(monkeypatch: pytest.MonkeyPatch, game: Game, cls: type) -> None:
    read = game.state_from_json

    def mutant(data: Any) -> GameState:
        state = read(data)
        state.version = 0
        return state

    monkeypatch.setattr(game, "state_from_json", mutant)


def replica_drifts(monkeypatch: pytest.MonkeyPatch, game: Game, cls: type) -> None:
    calls = itertools.count()

    def drift(state: GameState, events: list[Any]) -> list[Any]:
        if next(calls) == 5:  # (the game's and the replica's moves alternate: one of them only)
            state.version += 1
        return events

    wrap_apply(monkeypatch, cls, drift)


def replay_skips_a_move(monkeypatch: pytest.MonkeyPatch, game: Game, cls: type) -> None:
    replay = game.replay
    monkeypatch.setattr(game, "replay", lambda seats, options, seed, log: replay(seats, options, seed, list(log)[:-1]))


def no_legal_move(monkeypatch: pytest.MonkeyPatch, game: Game, cls: type) -> None:
    legal = cls.legal_moves
    monkeypatch.setattr(cls, "legal_moves", lambda self, seat: [] if self.version >= 3 else legal(self, seat))


def no_end(monkeypatch: pytest.MonkeyPatch, game: Game, cls: type) -> None:
    monkeypatch.setattr(conformance, "MAX_MOVES", 3)


def event_shows_a_card_seen_long_ago(monkeypatch: pytest.MonkeyPatch, game: Game, cls: type) -> None:
    """An event shows everyone a face that everyone saw once (a card played face up, since taken back into a hand or
    a deck) but that is hidden from spectators before the move and after it, and is not the mover's: nothing open
    to a spectator allows it."""
    apply = cls.apply
    seen: set[str] = set()

    def hidden_faces(state: GameState, viewer: int | None) -> set[str]:
        hidden = state.hidden_from(viewer)
        every = [card for cards in state.locations().values() for card in cards]
        shown = {face(card) for card in every if card not in hidden}
        return {face(card) for card in every} - shown

    def mutant(self: GameState, seat: int, move: Any, *, by_table: bool = False) -> list[Any]:
        if self.version == 0:
            seen.clear()
        before = hidden_faces(self, None) & hidden_faces(self, seat)
        events = apply(self, seat, move, by_table=by_table)
        gone = sorted(seen & before & hidden_faces(self, None))
        seen.update(
            set(map(face, (card for cards in self.locations().values() for card in cards))) - hidden_faces(self, None)
        )
        return [*events, Event("peek", cards=(gone[0],))] if gone else events

    monkeypatch.setattr(cls, "apply", mutant)


# name: (the mutant, what the failure says, the games it applies to: None for all)
MUTANTS: dict[str, tuple[Callable[..., None], str, set[str] | None]] = {
    "view shows hidden cards": (view_shows_hidden, "view shows hidden cards", None),
    "a spectator sees a hand": (spectator_sees_a_hand, "viewer None's view shows hidden cards", None),
    "events unredacted": (events_unredacted, "can see hidden cards", None),
    "an event shows the deck": (event_shows_the_deck, "can see hidden cards", None),
    "a card goes missing": (card_goes_missing, "cards in play", None),
    "a card in two places": (card_in_two_places, "cards in two places", None),
    "the JSON form forgets the version": (json_forgets_the_version, "changed through its JSON form", None),
    "the replica drifts": (replica_drifts, "replica diverged", None),
    "the replay skips a move": (replay_skips_a_move, "replay differs", None),
    "no legal move": (no_legal_move, "has no legal move", None),
    "no end": (no_end, "no end after", None),
    # (Soker and Relay take no card everyone saw out of everyone's sight within a few games)
    "an event shows a card seen long ago": (
        event_shows_a_card_seen_long_ago,
        "can see hidden cards",
        {"age-of-soccer", "carta-futbol-club"},
    ),
}


@pytest.mark.parametrize(
    ("name", "mutant"),
    [
        (name, mutant)
        for name in sorted(GAMES)
        for mutant, (*_, games) in MUTANTS.items()
        if games is None or name in games
    ],
)
def test_each_mutant_fails_the_playouts(monkeypatch: pytest.MonkeyPatch, name: str, mutant: str) -> None:
    game = GAMES[name]
    spec = game.spec
    patch, message, _ = MUTANTS[mutant]
    patch(monkeypatch, game, type(game.new_game(spec.seat_counts[0], None, 0)))
    options = OPTIONS.get(name, lambda seed: None)
    for seed in range(SEEDS):
        try:
            conformance.play_checked(game, spec.seat_counts[seed % len(spec.seat_counts)], seed, options(seed))
        except AssertionError as error:
            assert message in str(error), f"seed {seed}: caught, but as {error}"
            return
    pytest.fail(f"the mutant passed {SEEDS} games")
