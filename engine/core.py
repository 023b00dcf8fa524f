"""The game interface every rulebook fits, and what all games share.

A game is two things:

* a :class:`Game` - the rule set's fixed facts (its :class:`GameSpec`) and the factories: a new game from a number of
  seats, options and a seed; a state from its JSON form; a move from its wire form; the system players it offers;
* a :class:`GameState` - one game in progress. It answers who must act now (one seat, several seats in a response
  window, or nobody once the game is over), the legal moves of a seat, applies a seat's move and returns the events it
  caused, renders the view of one seat or of a spectator, reports the outcome and the move the table makes for a seat
  whose clock ran out, and serialises itself to plain JSON-able data.

The seeded random number generator lives in the state, so the same seed and the same moves always give the same game,
and :meth:`Game.replay` rebuilds a game exactly from its seed and move log. Nothing here performs I/O, reads a clock or
logs: the engine is pure, and a test enforces its import boundary.

Moves and events are values: :class:`Move` (a kind and its arguments, with its text form) and :class:`Event` (a kind
with its seats, cards and data, redacted for each viewer) are the vocabulary the games share, each game subclassing
them for what is its own (the kinds it knows, how it spells an argument); a game may type its own instead (Soker, whose
moves hold card ids and whose events are typed), as long as they answer the same methods.

Teams are part of the interface from the start: :meth:`GameState.team_of` maps a seat to its team (every seat is its own
team in Soker; Carta Futbol Club plays two teams), and an :class:`Outcome` names every winning seat.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple, Protocol, Self

__all__ = [
    "Bot",
    "CardFace",
    "Event",
    "Game",
    "GameOver",
    "GameSpec",
    "GameState",
    "IllegalMove",
    "InvalidOptions",
    "MalformedMove",
    "Move",
    "NotYourTurn",
    "OptionSpec",
    "Outcome",
    "Rng",
    "RuleError",
    "SeatResult",
    "Standing",
    "UnknownGame",
    "View",
]


# --------------------------------------------------------------------------------------------------------------------
# Typed rule errors: each says exactly what went wrong; the service maps them to status codes in one place.


class RuleError(Exception):
    """A request the rules refuse. ``code`` is a stable machine-readable reason; the message is for people.

    The message never names a card: it travels and is recorded widely (status messages, traces, logs), and a card in
    a hand must reach nobody else. The cards a refusal concerns are in ``cards``, for the mover's answer only.
    """

    code = "rule_error"

    def __init__(self, message: str, *, code: str | None = None, cards: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.cards = cards


class NotYourTurn(RuleError):
    """The seat may not act now."""

    code = "not_your_turn"


class IllegalMove(RuleError):
    """The move is well formed but the rules forbid it here."""

    code = "illegal_move"


class GameOver(RuleError):
    """The game has ended; nothing more can be played."""

    code = "game_over"


class MalformedMove(RuleError):
    """The move's wire form cannot be read (unknown kind, unknown card, bad syntax)."""

    code = "malformed_move"


class InvalidOptions(RuleError):
    """Options or a seat count outside what the game's spec allows."""

    code = "invalid_options"


class ChoiceTaken(InvalidOptions):
    """A choice made on taking a seat (a team) that another seat already made."""

    code = "choice_taken"


class UnknownGame(RuleError):
    """No game of that name is registered."""

    code = "unknown_game"


# --------------------------------------------------------------------------------------------------------------------
# The seeded generator. A small, portable splitmix64: its whole state is one integer, so it serialises to JSON and is
# identical on every Python version (``random.Random`` promises neither).

_MASK64 = (1 << 64) - 1


class Rng:
    """Seeded pseudo-random numbers whose state is one 64-bit integer (splitmix64)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next_u64(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any], count: int | None = None) -> None:
        """Shuffle ``items`` in place (Fisher-Yates), exactly uniform. ``count``: only the first ``count`` steps, which
        move a uniformly random choice of ``count`` items, in random order, to the end (the rest stay in front, in no
        particular order): a random draw of ``count`` cards, for a search's sample of hidden hands.

        Dealing and reshuffling are most of a game's random numbers, so for the short lists of card games each index is
        drawn from one byte of a 64-bit output (eight indices per output), rejecting the few bytes that would bias it.
        """
        stop = 0 if count is None else max(len(items) - 1 - count, 0)
        if len(items) > 256:
            below = self.below
            for i in range(len(items) - 1, stop, -1):
                j = below(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        z = self.state
        pool = left = 0
        for i in range(len(items) - 1, stop, -1):
            n = i + 1
            limit = 256 - 256 % n
            while True:
                if not left:
                    z = (z + 0x9E3779B97F4A7C15) & _MASK64
                    pool = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                    pool = ((pool ^ (pool >> 27)) * 0x94D049BB133111EB) & _MASK64
                    pool ^= pool >> 31
                    left = 8
                byte = pool & 0xFF
                pool >>= 8
                left -= 1
                if byte < limit:
                    break
            j = byte % n
            items[i], items[j] = items[j], items[i]
        self.state = z

    def to_json(self) -> str:
        return format(self.state, "016x")

    @classmethod
    def from_json(cls, text: str) -> Rng:
        return cls(int(text, 16))


# --------------------------------------------------------------------------------------------------------------------
# Specs and outcomes.


_KIND = {bool: "true or false", int: "a whole number", str: "text"}  # (an option's kind, for refusals)


@dataclass(frozen=True)
class OptionSpec:
    """One option of a rule set: its name, default, allowed range and what it means."""

    name: str
    default: int | bool | str
    description: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    def check(self, value: Any) -> int | bool | str:
        """The value if it fits this option; raises :class:`InvalidOptions` naming the option otherwise."""
        expected = type(self.default)
        # bool is an int subclass: keep the two apart so that ``True`` is not taken for 1 and vice versa.
        if type(value) is not expected and not (expected is int and type(value) is float and value.is_integer()):
            raise InvalidOptions(f"option {self.name!r} must be {_KIND[expected]}")
        if expected is int:
            value = int(value)
            if self.minimum is not None and value < self.minimum:
                raise InvalidOptions(f"option {self.name!r} must be at least {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise InvalidOptions(f"option {self.name!r} must be at most {self.maximum}")
        if self.choices and value not in self.choices:
            raise InvalidOptions(f"option {self.name!r} must be one of {', '.join(self.choices)}")
        return value


@dataclass(frozen=True)
class GameSpec:
    """A game's fixed facts: its name, how many seats it takes and its options with their defaults."""

    name: str
    title: str
    seat_counts: tuple[int, ...]  # the table sizes it takes (Carta Futbol Club: 2, 4 or 6 - two equal teams)
    options: tuple[OptionSpec, ...] = ()
    deck_size: int = 0
    summary: str = ""
    seat_choice: str = ""  # what a person may choose on taking a seat, for people ("": nothing; see Game.with_choices)

    @property
    def min_seats(self) -> int:
        return min(self.seat_counts)

    @property
    def max_seats(self) -> int:
        return max(self.seat_counts)

    def defaults(self) -> dict[str, Any]:
        return {option.name: option.default for option in self.options}

    def resolve(self, seats: int, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The complete option set in force: defaults overlaid with ``options``, every value checked.

        Raises :class:`InvalidOptions` for a seat count outside the spec, an unknown option or a bad value.
        """
        if type(seats) is not int or seats not in self.seat_counts:
            counts = ", ".join(map(str, self.seat_counts[:-1])) + f" or {self.seat_counts[-1]}"
            raise InvalidOptions(f"{self.title} takes {counts} seats")
        known = {option.name: option for option in self.options}
        resolved = self.defaults()
        for name, value in (options or {}).items():
            if name not in known:
                raise InvalidOptions(f"{self.title} has no such option (known: {', '.join(sorted(known))})")
            resolved[name] = known[name].check(value)
        return resolved


class SeatResult(StrEnum):
    """One seat's result, as a player would say it. ``won``: the seat won alone or with its own team (a team game's
    teammates win together); ``shared_win``: it is among several winners who are not one team (Age of Soccer's "most
    shields won wins, ties shared"); ``drawn``: nobody won (Soker's stalemate, Carta's drawn match) or every seat is a
    winner (an Age of Soccer game ended on the turn limit with the shields level); ``lost``: another seat won."""

    WON = "won"
    LOST = "lost"
    DRAWN = "drawn"
    SHARED_WIN = "shared_win"


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winners`` holds every winning seat (empty: nobody won; a team game names the whole team)
    and ``points`` each seat's points. A team game also gives its teams' results: ``winning_teams`` and
    ``team_points`` (one per team, e.g. goals); a game that does not gets them from its seats' (:meth:`for_teams`)."""

    winners: tuple[int, ...]
    reason: str
    points: tuple[int, ...] = field(default=())
    winning_teams: tuple[int, ...] = field(default=())
    team_points: tuple[int, ...] = field(default=())

    def for_teams(self, teams: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(winning teams, points per team) for a table whose seat ``s`` plays for team ``teams[s]``: the game's own
        when it gave them, else the teams of the winning seats and the sum of each team's seats' points."""
        if self.team_points or self.winning_teams:
            return self.winning_teams, self.team_points
        count = max(teams, default=-1) + 1
        points = [0] * count
        for seat, scored in enumerate(self.points):
            points[teams[seat]] += scored
        return tuple(sorted({teams[seat] for seat in self.winners})), tuple(points)

    def results(self, teams: Sequence[int]) -> tuple[SeatResult, ...]:
        """Each seat's :class:`SeatResult` at a table whose seat ``s`` plays for team ``teams[s]`` (one team per seat
        where the game has no teams). Decided from the winners alone, the same for every game: no winner, or every
        seat a winner, is a draw; winners of one team won; winners of several teams share the win."""
        seats = max(len(teams), len(self.points), max(self.winners, default=-1) + 1)
        winners = set(self.winners)
        if not winners or winners >= set(range(seats)):
            return (SeatResult.DRAWN,) * seats
        team_of = [teams[seat] if seat < len(teams) else -1 - seat for seat in range(seats)]
        won = SeatResult.WON if len({team_of[seat] for seat in winners}) == 1 else SeatResult.SHARED_WIN
        return tuple(won if seat in winners else SeatResult.LOST for seat in range(seats))

    def places(self, teams: Sequence[int]) -> list[int]:
        """Each team's place (1 is the best) at a table whose seat ``s`` plays for team ``teams[s]``: the winning
        teams first, then by points; teams equal on both share the place, and the next place is skipped (1, 1, 3)."""
        winning, points = self.for_teams(teams)
        count = max(teams, default=-1) + 1
        keys = [(team in winning, points[team] if team < len(points) else 0) for team in range(count)]
        return [1 + sum(other > key for other in keys) for key in keys]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"winners": list(self.winners), "reason": self.reason, "points": list(self.points)}
        if self.winning_teams or self.team_points:
            data["winning_teams"] = list(self.winning_teams)
            data["team_points"] = list(self.team_points)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(
            tuple(data["winners"]),
            data["reason"],
            tuple(data["points"]),
            tuple(data.get("winning_teams", ())),
            tuple(data.get("team_points", ())),
        )


@dataclass(frozen=True)
class Standing:
    """One seat's line in a tournament's table: its place (seats equal on every key share it), points and games won,
    and the game's own tallies that order the table after those two, in order (Soker: country wins)."""

    place: int
    seat: int
    points: int
    games_won: int
    tallies: tuple[tuple[str, int], ...] = ()


class TournamentRules(Protocol):
    """A series of games among the same seats: who starts each, how a game scores, and the table of results. The
    service runs any game's tournament through this alone."""

    players: int
    games: int
    results: list[Outcome]

    @property
    def finished(self) -> bool: ...

    def first_seat(self, index: int) -> int:
        """The seat that starts game ``index`` (0-based)."""
        ...

    def next_options(self) -> dict[str, Any]:
        """The game options for the next game (e.g. who starts it); a tournament's creator may not set these."""
        ...

    def record(self, outcome: Outcome) -> None: ...

    def standings(self) -> Sequence[Standing]:
        """The table, best first."""
        ...


# --------------------------------------------------------------------------------------------------------------------
# Moves, events and views. A game whose moves are a kind and a few words, and whose events are a kind with its seats,
# cards and data, uses the vocabulary below (Age of Soccer, Carta Fútbol Club); a game may type its own instead
# (Soker, whose moves hold card ids), as long as its values answer the same methods.


class Move(NamedTuple):
    """A move: its kind and its arguments, card codes and seat numbers as text (``play B-JOKER-8 pass``: kind
    ``play``, args ``B-JOKER-8 pass``). ``to_wire()`` is its text form; ``game.move_from_wire(m.to_wire()) == m``.

    A game subclasses it (``__slots__ = ()``) with the kinds it knows and how it spells an argument; its ``apply``
    takes only its own subclass, so another game's move is malformed there."""

    kind: str
    args: tuple[str, ...] = ()

    kinds = frozenset[str]()  # (a class attribute: the kinds a game's subclass knows, its table's timeout included)

    def to_wire(self) -> str:
        return " ".join((self.kind, *self.args))

    @staticmethod
    def spell(word: str) -> str:
        """An argument as the game writes it (a game's subclass says; as typed by default)."""
        return word

    @classmethod
    def parse(cls, text: str) -> Self:
        """The move whose wire form is ``text``: the first word its kind (one of ``kinds``, in any case), the others
        its arguments as ``spell`` writes them. Raises :class:`MalformedMove` when it cannot be read."""
        if not isinstance(text, str):
            raise MalformedMove(f"a move is text, got {type(text).__name__}")
        words = text.split()
        if not words or words[0].lower() not in cls.kinds:
            # the table's timeout is nobody's to send: not offered as known
            raise MalformedMove(f"unknown move (known: {', '.join(sorted(cls.kinds - {'timeout'}))})")
        return cls(words[0].lower(), tuple(map(cls.spell, words[1:])))


@dataclass(frozen=True)
class Event:
    """Something that happened, as the engine saw it: ``kind`` names it; ``seat`` who did it; ``cards`` the faces it
    shows everyone (``private`` faces only to ``seat`` and ``other``: a card drawn, a card stolen); ``target`` a second
    seat; ``count`` a number; ``data`` the rest, as (key, value) pairs. It may hold secrets: ``for_viewer`` before
    sending. -1 is no seat, and a field left at its default is not written."""

    kind: str
    seat: int = -1
    cards: tuple[str, ...] = ()
    target: int = -1
    private: tuple[str, ...] = ()
    other: int = -1
    count: int = 0
    data: tuple[tuple[str, Any], ...] = ()

    def for_viewer(self, viewer: int | None) -> Self:
        """This event as ``viewer`` (a seat, or ``None`` for a spectator) may see it: without its private cards
        unless the viewer is its ``seat`` or ``other``."""
        if self.private and viewer != self.seat and (viewer is None or viewer != self.other):
            return type(self)(self.kind, self.seat, self.cards, self.target, (), self.other, self.count, self.data)
        return self

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.kind}
        if self.seat >= 0:
            data["seat"] = self.seat
        if self.target >= 0:
            data["target"] = self.target
        if self.other >= 0:
            data["other"] = self.other
        if self.cards:
            data["cards"] = list(self.cards)
        if self.private:
            data["private"] = list(self.private)
        if self.count:
            data["count"] = self.count
        data.update(self.data)
        return data

    def describe(self) -> str:
        """One readable line, for logs of finished games and the command line."""
        text = f"{self.kind}" + (f" seat {self.seat}" if self.seat >= 0 else "")
        if self.target >= 0:
            text += f" -> seat {self.target}"
        shown = (*self.cards, *self.private)
        extra = " ".join(f"{key}={value}" for key, value in self.data)
        return text + (f": {' '.join(shown)}" if shown else "") + (f" ({extra})" if extra else "")


@dataclass(frozen=True, slots=True)
class CardFace:
    """One face of a game's cards, with what a front-end needs to draw it and a person needs to read it, so that no
    front-end keeps card data of its own. ``code`` is the face as moves, views and events write it; ``copies`` the
    cards that show it (copies that look alike share one face); ``text`` what the card does, where it does more than
    its kind says ("" for a plain card); ``details`` the game's own fields (a country and its colour, a team's attack
    and defence...), plain JSON values that each game's docs name."""

    code: str
    name: str
    kind: str
    copies: int = 1
    text: str = ""
    details: Mapping[str, str | int | bool | tuple[str, ...]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "kind": self.kind,
            "copies": self.copies,
            "text": self.text,
            "details": {key: list(value) if isinstance(value, tuple) else value for key, value in self.details.items()},
        }


class View(Protocol):
    """What one seat (or a spectator) may know of a game."""

    def to_json(self) -> dict[str, Any]: ...


class Bot(Protocol):
    """A system player. ``choose`` reads only ``state.view(seat)`` and ``state.legal_moves(seat)``: it never peeks.
    It returns one of those moves (a :class:`Move`, or the game's own typed move)."""

    def choose(self, state: GameState, seat: int) -> Any: ...


# --------------------------------------------------------------------------------------------------------------------
# The interface.


class GameState(ABC):
    """One game in progress. Mutable: :meth:`apply` changes it in place and returns the events it caused."""

    __slots__ = ()

    seats: int
    version: int  # the number of moves applied so far
    options: dict[str, Any]  # the options in force

    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now: one seat, several in a response window, none once the game is over."""

    @abstractmethod
    def legal_moves(self, seat: int) -> list[Any]:
        """Every move ``seat`` may choose now (empty when it may not act). Does not list the table's timeout move."""

    @abstractmethod
    def apply(self, seat: int, move: Any, *, by_table: bool = False) -> list[Any]:
        """Check ``move`` for ``seat`` and play it; returns the events it caused.

        Trusts nothing: raises :class:`GameOver`, :class:`NotYourTurn`, :class:`IllegalMove` or
        :class:`MalformedMove` and then leaves the state untouched. Accepts the seat's legal moves; with
        ``by_table=True`` (the clock ran out, or a log already judged is replayed) also the table's
        :meth:`timeout_move`.
        """

    @abstractmethod
    def timeout_move(self, seat: int) -> Any:
        """The move the table makes for ``seat`` when its clock runs out."""

    @abstractmethod
    def view(self, viewer: int | None) -> View:
        """What ``viewer`` may see: a seat's own view, or the public view when ``viewer`` is None."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""

    def describe(self) -> str:
        """One line about the table as everyone sees it, for people (``kickoff play`` starts with it)."""
        return ""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole state (RNG included) as plain JSON-able data; ``game.state_from_json`` reads it back."""

    @abstractmethod
    def locations(self) -> dict[str, list[str]]:
        """Where every card is: place name -> card codes. For audits: each card is in exactly one place."""

    @abstractmethod
    def hidden_from(self, viewer: int | None) -> set[str]:
        """The codes of the cards ``viewer`` must not see now (other hands, the deck)."""

    def clock_key(self, seat: int) -> Any:
        """A value that changes whenever a new clocked period of ``seat`` begins: its turn, its part in a response
        window. An online room gives each seat in :meth:`to_act` a clock of its own and restarts it only when this
        changes, so in a window one responder's move leaves the others' clocks running. By default every move
        restarts every acting seat's clock."""
        return self.version

    def clock_seconds(self, seat: int) -> float | None:
        """How long ``seat`` has for its clocked period, for an online clock (None: no clock)."""
        seconds = self.options.get("turn_seconds")
        return float(seconds) if seconds else None

    def team_of(self, seat: int) -> int:
        """The team a seat plays for. Every seat is its own team unless a game says otherwise."""
        return seat

    def is_over(self) -> bool:
        return self.outcome() is not None


class Game(ABC):
    """A rule set: its spec and the factories for its states, moves and system players."""

    spec: GameSpec
    bots: Mapping[str, Callable[[int], Bot]]  # bot name -> factory taking a seed
    search: Any = None  # how its ``hard`` players search (an engine.search.SearchSettings; engine.levels sets it)

    @abstractmethod
    def new_game(self, seats: int, options: Mapping[str, Any] | None, seed: int) -> GameState:
        """A fresh game, dealt from ``seed``. Raises :class:`InvalidOptions` for a bad seat count or option."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> GameState:
        """The state that ``to_json`` wrote."""

    @abstractmethod
    def move_from_wire(self, text: str) -> Any:
        """The move whose wire form is ``text``; raises :class:`MalformedMove` when it cannot be read."""

    def sample(self, view: View, seed: int) -> GameState:
        """A whole state that a seat's ``view`` (``state.view(seat)``) could have come from, for a system player that
        searches: everything the view shows as it shows it (the viewer's own cards, every public card and count, whose
        turn it is), and every card it hides dealt from ``Rng(seed)`` among the places it hides (the other hands, the
        decks, face-down cards) with the sizes it shows. Anything else the view does not show (the game's own RNG) is
        drawn from ``seed`` too. Reads only ``view``: the same view and seed give the same state, whatever state the
        view came from, and ``sample(view, seed).view(view.viewer) == view``."""
        raise NotImplementedError(f"{self.spec.title} cannot sample a state from a view")

    def replay(
        self, seats: int, options: Mapping[str, Any] | None, seed: int, log: Iterable[tuple[int, Any]]
    ) -> GameState:
        """Rebuild a game from its seed and its move log of ``(seat, move)`` pairs (the table's moves included)."""
        state = self.new_game(seats, options, seed)
        for seat, move in log:
            state.apply(seat, move, by_table=True)
        return state

    def with_choices(self, seats: int, options: Mapping[str, Any] | None, choices: Mapping[int, str]) -> dict[str, Any]:
        """The options for a game whose people made ``choices`` on taking their seats (seat -> choice, as
        ``spec.seat_choice`` describes; some seats may not have chosen). A room checks each choice with it when a
        seat is taken, and deals with what it returns. Raises :class:`InvalidOptions` for a choice the game does not
        offer and :class:`ChoiceTaken` for one another seat made. A game without choices takes none."""
        if choices:
            raise InvalidOptions(f"{self.spec.title} offers nothing to choose on taking a seat")
        return dict(options or {})

    def teams(self, seats: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        """The team each seat plays for at a table of ``seats`` (known before the deal: a waiting room shows it).
        Every seat is its own team unless a game says otherwise; it agrees with ``GameState.team_of``."""
        return tuple(range(seats))

    def catalogue(self) -> tuple[CardFace, ...]:
        """Every face of the game's cards, in the game's own order (a game without cards to draw has none). Each
        code a view, move or event of the game writes is one face's code; the copies add up to ``spec.deck_size``."""
        return ()

    def new_bot(self, name: str, seed: int) -> Bot:
        try:
            factory = self.bots[name]
        except KeyError:
            known = ", ".join(self.bots)
            raise InvalidOptions(f"{self.spec.title} has no such system player (known: {known})") from None
        return factory(seed)


def play_out(state: GameState, bots: Sequence[Bot], max_moves: int = 100_000) -> list[tuple[int, Any]]:
    """Let ``bots`` (one per seat) play ``state`` to its end; returns the move log. Raises if it never ends."""
    log: list[tuple[int, Any]] = []
    while True:
        acting = state.to_act()
        if not acting:
            return log
        if len(log) >= max_moves:
            raise RuntimeError(f"game did not end within {max_moves} moves")
        seat = acting[0]
        move = bots[seat].choose(state, seat)
        state.apply(seat, move)
        log.append((seat, move))
