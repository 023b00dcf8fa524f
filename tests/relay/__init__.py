"""Relay: a tiny game that lives only in the tests, to keep the service game-generic.

It has what Soker lacks and the next games need: a response window of two or three seats answering at once (each with a
clock of its own), two teams, and a deck of identical cards. The tests register it (:func:`register`); the product
never does. It travels in the generic form of the contract (moves as text, views and events as JSON).

Rules. Three or four seats; seat ``s`` plays for team ``s % 2``. The deck holds six ATK, six DEF and one STAR; each seat
is dealt two cards, seat 0 plays first. On its turn a seat may:

* ``attack`` with an ATK card: every other seat answers at once (the window). An opponent may ``block`` with a DEF
  card, which closes the window and scores 1 for the blocker's team; a teammate, or an opponent who will not, says
  ``pass``. When all have passed, the attack scores 1 for the attacker's team.
* ``star``: play the STAR, 1 point for its team at once;
* ``draw`` one card (once a turn, while the deck lasts), then ``end`` the turn (or attack, or play the STAR).

After an attack's window, or a star, or an end, the turn passes to the next seat. The first team to 3 points wins; a
game whose deck is empty and whose seats have all ended a turn without playing since ends by the points (level:
nobody wins). The clock: 30 s a turn (``turn_seconds``); 10 s for each opponent in a window (``response_seconds``) and
half that for a teammate, each on its own. At zero the table plays ``timeout``: a turn draws if it can and ends; a
responder passes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine import registry
from engine.core import (
    Game,
    GameOver,
    GameSpec,
    GameState,
    IllegalMove,
    MalformedMove,
    NotYourTurn,
    OptionSpec,
    Outcome,
    Rng,
    Standing,
)

FACES = ("ATK",) * 6 + ("DEF",) * 6 + ("STAR",)
# Identical cards are told apart by instance ids (ATK#1 ... ATK#6); nobody but the audits ever sees them.
INSTANCES = tuple(
    face if FACES.count(face) == 1 else f"{face}#{FACES[: i + 1].count(face)}" for i, face in enumerate(FACES)
)
WIN_POINTS = 3
MOVES = ("attack", "block", "pass", "star", "draw", "end", "timeout")

SPEC = GameSpec(
    name="relay",
    title="Relay",
    seat_counts=(3, 4),
    deck_size=len(INSTANCES),
    summary="A test game: attacks answered by every other seat at once, two teams, identical cards.",
    options=(
        OptionSpec("turn_seconds", 30, "online clock: seconds for a turn", 5, 600),
        OptionSpec("response_seconds", 10, "online clock: seconds for each responder in a window", 2, 600),
    ),
)


def face(instance: str) -> str:
    return instance.split("#", 1)[0]


class RelayMove(NamedTuple):
    kind: str

    def to_wire(self) -> str:
        return self.kind


MOVE = {kind: RelayMove(kind) for kind in MOVES}


@dataclass(frozen=True)
class Event:
    """Something that happened: ``kind`` with the seat, and a card face when it shows one (a draw shows it only to
    the drawer)."""

    kind: str  # turn_began, attacked, blocked, passed, starred, drew, ended_turn, scored, game_ended
    seat: int = -1
    card: str | None = None
    team: int = -1
    points: tuple[int, ...] = ()

    def for_viewer(self, viewer: int | None) -> Event:
        if self.kind == "drew" and viewer != self.seat and self.card is not None:
            return Event(self.kind, self.seat, None)
        return self

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.kind, "seat": self.seat}
        if self.card is not None:
            data["card"] = self.card
        if self.team >= 0:
            data["team"] = self.team
        if self.points:
            data["points"] = list(self.points)
        return data

    def describe(self) -> str:
        return f"{self.kind} seat {self.seat}" + (f" {self.card}" if self.card else "")


@dataclass(frozen=True)
class View:
    data: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return self.data


class RelayState(GameState):
    def __init__(self) -> None:
        self.seats = 0
        self.options: dict[str, Any] = {}
        self.version = 0
        self.hands: list[list[str]] = []
        self.deck: list[str] = []
        self.discard: list[str] = []
        self.score = [0, 0]
        self.played: list[int] = []
        self.current = 0
        self.drawn = False
        self.window: list[int] = []  # responders still to answer the attack in hand
        self.turn = 1
        self.windows = 0
        self.quiet = 0  # turns in a row ended with nothing played and nothing to draw
        self.result: Outcome | None = None
        self.rng = Rng(0)

    def to_act(self) -> tuple[int, ...]:
        if self.result is not None:
            return ()
        return tuple(self.window) if self.window else (self.current,)

    def team_of(self, seat: int) -> int:
        return seat % 2

    def legal_moves(self, seat: int) -> list[RelayMove]:
        if seat not in self.to_act():
            return []
        hand = [face(card) for card in self.hands[seat]]
        if self.window:
            attacker = self.current
            if self.team_of(seat) != self.team_of(attacker) and "DEF" in hand:
                return [MOVE["block"], MOVE["pass"]]
            return [MOVE["pass"]]
        moves = []
        if "ATK" in hand:
            moves.append(MOVE["attack"])
        if "STAR" in hand:
            moves.append(MOVE["star"])
        if self.deck and not self.drawn:
            moves.append(MOVE["draw"])
        else:
            moves.append(MOVE["end"])
        return moves

    def apply(self, seat: int, move: Any, *, by_table: bool = False) -> list[Any]:
        if self.result is not None:
            raise GameOver("the game is over")
        if seat not in self.to_act():
            raise NotYourTurn(f"seat {seat} may not act now")
        if type(move) is not RelayMove:
            raise MalformedMove(f"not a Relay move: {move!r}")
        if move.kind == "timeout":
            if not by_table:
                raise IllegalMove("only the table plays 'timeout'", code="table_only")
            return self._timeout(seat)
        if move not in self.legal_moves(seat):
            raise IllegalMove(f"'{move.kind}' is not allowed now", code="not_allowed")
        self.version += 1
        events: list[Any] = []
        if move.kind == "pass":
            self.window.remove(seat)
            events.append(Event("passed", seat))
            if not self.window:
                self._score(self.team_of(self.current), events)
                self._next_turn(events)
        elif move.kind == "block":
            self._play(seat, "DEF")
            self.window = []
            events.append(Event("blocked", seat, "DEF"))
            self._score(self.team_of(seat), events)
            self._next_turn(events)
        elif move.kind == "attack":
            self._play(seat, "ATK")
            self.windows += 1
            self.window = [(seat + i) % self.seats for i in range(1, self.seats)]
            events.append(Event("attacked", seat, "ATK"))
        elif move.kind == "star":
            self._play(seat, "STAR")
            events.append(Event("starred", seat, "STAR"))
            self._score(self.team_of(seat), events)
            self._next_turn(events)
        elif move.kind == "draw":
            self.drawn = True
            self._draw(seat, events)
        else:  # end
            events.append(Event("ended_turn", seat))
            self.quiet = self.quiet + 1 if not self.deck else 0
            self._next_turn(events)
        return events

    def _timeout(self, seat: int) -> list[Any]:
        self.version += 1
        events: list[Any] = []
        if self.window:
            self.window.remove(seat)
            events.append(Event("passed", seat))
            if not self.window:
                self._score(self.team_of(self.current), events)
                self._next_turn(events)
            return events
        if self.deck and not self.drawn:
            self._draw(seat, events)
        events.append(Event("ended_turn", seat))
        self.quiet = self.quiet + 1 if not self.deck else 0
        self._next_turn(events)
        return events

    def _play(self, seat: int, wanted: str) -> None:
        card = next(card for card in self.hands[seat] if face(card) == wanted)
        self.hands[seat].remove(card)
        self.discard.append(card)
        self.played[seat] += 1
        self.quiet = 0

    def _draw(self, seat: int, events: list[Any]) -> None:
        card = self.deck.pop()
        self.hands[seat].append(card)
        events.append(Event("drew", seat, face(card)))

    def _score(self, team: int, events: list[Any]) -> None:
        self.score[team] += 1
        events.append(Event("scored", team=team, points=tuple(self.score)))

    def _next_turn(self, events: list[Any]) -> None:
        if max(self.score) >= WIN_POINTS or self.quiet >= self.seats:
            level = self.score[0] == self.score[1]
            best = 0 if self.score[0] > self.score[1] else 1
            winners = () if level else tuple(s for s in range(self.seats) if s % 2 == best)
            self.result = Outcome(
                winners,
                "points" if max(self.score) >= WIN_POINTS else "no_cards",
                tuple(self.played),
                () if level else (best,),
                tuple(self.score),
            )
            events.append(Event("game_ended", points=tuple(self.score)))
            return
        self.current = (self.current + 1) % self.seats
        self.drawn = False
        self.turn += 1
        events.append(Event("turn_began", self.current))

    def timeout_move(self, seat: int) -> RelayMove:
        return MOVE["timeout"]

    def clock_key(self, seat: int) -> Any:
        return ("window", self.windows) if self.window else ("turn", self.turn)

    def clock_seconds(self, seat: int) -> float | None:
        if not self.window:
            return float(self.options["turn_seconds"])
        seconds = float(self.options["response_seconds"])
        return seconds / 2 if self.team_of(seat) == self.team_of(self.current) else seconds

    def view(self, viewer: int | None) -> View:
        data: dict[str, Any] = {
            "viewer": viewer,
            "hand_sizes": [len(hand) for hand in self.hands],
            "deck_size": len(self.deck),
            "discard": [face(card) for card in self.discard],
            "score": list(self.score),
            "current": self.current,
            "window": list(self.window),
        }
        if viewer is not None:
            data["hand"] = sorted(face(card) for card in self.hands[viewer])
        return View(data)

    def outcome(self) -> Outcome | None:
        return self.result

    def locations(self) -> dict[str, list[str]]:
        places = {"deck": list(self.deck), "discard": list(self.discard)}
        for seat, hand in enumerate(self.hands):
            places[f"hand:{seat}"] = list(hand)
        return places

    def hidden_from(self, viewer: int | None) -> set[str]:
        hidden = set(self.deck)
        for seat, hand in enumerate(self.hands):
            if seat != viewer:
                hidden.update(hand)
        return hidden

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "options": dict(self.options),
            "version": self.version,
            "hands": [list(hand) for hand in self.hands],
            "deck": list(self.deck),
            "discard": list(self.discard),
            "score": list(self.score),
            "played": list(self.played),
            "current": self.current,
            "drawn": self.drawn,
            "window": list(self.window),
            "turn": self.turn,
            "windows": self.windows,
            "quiet": self.quiet,
            "result": self.result.to_json() if self.result else None,
            "rng": self.rng.to_json(),
        }


class Relay(Game):
    spec = SPEC

    def __init__(self) -> None:
        self.bots = {"random": RandomBot, "normal": RandomBot, "heuristic": RandomBot}

    def teams(self, seats: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        return tuple(seat % 2 for seat in range(seats))

    def new_game(self, seats: int, options: Mapping[str, Any] | None, seed: int) -> RelayState:
        state = RelayState()
        state.seats = seats
        state.options = SPEC.resolve(seats, options)
        state.rng = Rng(seed)
        deck = list(INSTANCES)
        state.rng.shuffle(deck)
        state.hands = [[deck.pop(), deck.pop()] for _ in range(seats)]
        state.deck = deck
        state.played = [0] * seats
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> RelayState:
        state = RelayState()
        for name in ("seats", "version", "current", "drawn", "turn", "windows", "quiet"):
            setattr(state, name, data[name])
        state.options = dict(data["options"])
        state.hands = [list(hand) for hand in data["hands"]]
        state.deck, state.discard = list(data["deck"]), list(data["discard"])
        state.score, state.played, state.window = list(data["score"]), list(data["played"]), list(data["window"])
        state.result = Outcome.from_json(data["result"]) if data["result"] else None
        state.rng = Rng.from_json(data["rng"])
        return state

    def move_from_wire(self, text: str) -> RelayMove:
        move = MOVE.get(text.strip().lower()) if isinstance(text, str) else None
        if move is None:
            raise MalformedMove(f"unknown move (known: {', '.join(MOVES[:-1])})")
        return move


class RandomBot:
    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: RelayState, seat: int) -> RelayMove:
        moves = state.legal_moves(seat)
        return moves[self.rng.below(len(moves))]


class RelayTournament:
    """Three games among the same four seats, each started by the next seat. A seat scores its team's points in each
    game; the table orders by points, then games won, then the seat's own cards played ("cards", a tally of Relay's
    own)."""

    def __init__(self) -> None:
        self.players, self.games = 4, 3
        self.results: list[Outcome] = []

    @property
    def finished(self) -> bool:
        return len(self.results) >= self.games

    def first_seat(self, index: int) -> int:
        return index % self.players

    def next_options(self) -> dict[str, Any]:
        return {}

    def record(self, outcome: Outcome) -> None:
        self.results.append(outcome)

    def standings(self) -> list[Standing]:
        points, wins, cards = [0] * self.players, [0] * self.players, [0] * self.players
        for outcome in self.results:
            _, team_points = outcome.for_teams([seat % 2 for seat in range(self.players)])
            for seat in range(self.players):
                points[seat] += team_points[seat % 2]
                cards[seat] += outcome.points[seat]
            for seat in outcome.winners:
                wins[seat] += 1
        key = {seat: (points[seat], wins[seat], cards[seat]) for seat in range(self.players)}
        order = sorted(range(self.players), key=lambda seat: (tuple(-v for v in key[seat]), seat))
        table: list[Standing] = []
        for rank, seat in enumerate(order):
            place = table[-1].place if table and key[table[-1].seat] == key[seat] else rank + 1
            table.append(Standing(place, seat, points[seat], wins[seat], (("cards", cards[seat]),)))
        return table


RELAY = Relay()


def register() -> None:
    """Host Relay (the tests' game) and its tournament in this process (no codec: the generic form)."""
    registry.register(RELAY, tournament=RelayTournament)
