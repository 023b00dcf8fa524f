"""Check a finished game's replay file against its deal: :func:`verify` (``kickoff verify FILE`` calls it).

A replay file is a room's whole replay in GetReplayResponse's JSON form, as ``kickoff replay --room ID --save FILE``
writes it: ``room`` (its ``game``, ``seats``, ``options``, ``deal`` and ``outcome``) and ``steps`` in version order,
each with ``update.version``, ``view`` (what a spectator saw after it), ``hands`` (what each seat saw) and ``move``
(the move the version applied). :func:`verify` checks, in this order, and stops at the first thing that differs:

1. the deal's scheme is one this release knows (:data:`deals.scheme.SCHEMES`);
2. the secret is revealed (a game still in play has none yet: nothing can be checked);
3. the commitment of the secret for the subject and the game is the one published;
4. the subject is the room's id, or ``<its tournament id>/deal/<n>`` for a duplicate tournament's deal;
5. there is one seed per seat (a duplicate tournament's deal has its players' seeds instead), each seat's own, and a
   system player's seat has the seed the secret fixes for it (:func:`deals.scheme.system_seat_seed`);
6. the game's seed follows from the secret and the seeds; the game is dealt again from it through the engine;
7. step by step: the versions follow one another from 1 with none missing; a step's move is played through the
   engine (a table's move as the table's, any other as its seat's own, so an illegal one is refused); after each step
   the spectator's view and every seat's view equal the file's;
8. at the end the game is over and its outcome is the room's (or the room ended the game before its end: closed or
   abandoned, with nobody winning).

Views are compared through one normal form per game (:data:`NORMAL_FORMS`): the file holds each game's view message in
proto JSON, the engine its view's ``to_json()``; both become the same plain data (snake_case keys, a field at its
default left out on both sides, as proto3 JSON leaves it out). What the message does not carry cannot be compared:
the normal forms say where.

Needs the engines and the standard library only (no protobuf, nothing of the server): a third party can run it.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deals import scheme
from engine.core import Game, GameState, RuleError
from engine.registry import GAMES

__all__ = ["NORMAL_FORMS", "Verdict", "read_file", "verify", "verify_file"]

MAX_FILE_BYTES = 64 * 1024 * 1024  # a file larger than this is refused unread (as `kickoff replay` refuses it)


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify` found. ``ok``: every check passed. Otherwise ``reason`` says, in plain words, what differs
    and ``version`` names the step where it does (None: the deal itself, before the first step). ``readable`` is false
    when nothing could be checked: not a replay, a game this release does not know, or no secret yet."""

    ok: bool
    reason: str = ""
    version: int | None = None
    readable: bool = True
    game: str = ""
    room_id: str = ""
    versions: int = 0  # the steps checked
    commitment: str = ""
    note: str = ""  # a verified game's remark (the room ended it before its end)

    def describe(self) -> str:
        """One line: ``verified: ...`` or where and why the replay differs (or cannot be read)."""
        if self.ok:
            line = f"verified: {self.game} {self.room_id}, {self.versions} versions, deal {self.commitment}"
            return line + (f" ({self.note})" if self.note else "")
        if not self.readable:
            return f"cannot verify: {self.reason}"
        where = "the deal" if self.version is None else f"version {self.version}"
        return f"differs at {where}: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return {
            "verified": self.ok,
            "readable": self.readable,
            "game": self.game,
            "room_id": self.room_id,
            "versions": self.versions,
            "commitment": self.commitment,
            "version": self.version,
            "reason": self.reason,
            "note": self.note,
        }


class _Unreadable(Exception):
    """Not a replay this module can read (the message says why)."""


class _Differs(Exception):
    """The replay differs from its deal (``version``: where; None: the deal)."""

    def __init__(self, reason: str, version: int | None = None) -> None:
        super().__init__(reason)
        self.version = version


# --------------------------------------------------------------------------------------------------------------------
# Reading the file's proto JSON. MessageToJson writes camelCase names (``roomId``); a file written with the proto's own
# names (``room_id``) is read too.

_CAPITAL = re.compile(r"(?<!^)(?=[A-Z])")


@functools.lru_cache(maxsize=4096)
def _snake(name: str) -> str:
    return _CAPITAL.sub("_", name).lower()


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word.capitalize() for word in rest)


def _field(message: Mapping[str, Any], name: str, default: Any = None) -> Any:
    """A field of a message in proto JSON: ``name`` in its JSON spelling or its own."""
    if _camel(name) in message:
        return message[_camel(name)]
    return message.get(name, default)


def _message(value: Any, what: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise _Unreadable(f"{what} is not an object")
    return value


def _text(value: Any, what: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise _Unreadable(f"{what} is not text")
    return value


def _integer(value: Any, what: str, default: int = 0) -> int:
    """An integer field (proto JSON writes an int64 as a string)."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise _Unreadable(f"{what} is not a whole number")
    try:
        return int(value)
    except ValueError:
        raise _Unreadable(f"{what} is not a whole number") from None


def _list(value: Any, what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _Unreadable(f"{what} is not a list")
    return value


@dataclass(frozen=True)
class _Step:
    version: int
    view: Mapping[str, Any] | None
    hands: list[Any]
    move: tuple[int, str, bool] | None  # (seat, text, by the table)


@dataclass(frozen=True)
class _Seat:
    system: bool
    seed: str
    choice: str


@dataclass(frozen=True)
class _Replay:
    game: str
    room_id: str
    tournament_id: str
    seats: list[_Seat]
    options: Mapping[str, Any]
    deal: Mapping[str, Any] | None
    outcome: Mapping[str, Any] | None
    room_version: int
    steps: list[_Step]


def _read(replay: Any) -> _Replay:
    """The parts of a replay the checks need; :class:`_Unreadable` when it is not a replay."""
    if not isinstance(replay, Mapping) or "room" not in replay or "steps" not in replay:
        raise _Unreadable("not a replay: a replay file is an object with the room and its steps")
    room = _message(replay["room"], "room")
    seats = []
    for index, seat in enumerate(_list(_field(room, "seats"), "room.seats")):
        seat = _message(seat, f"seat {index}")
        seats.append(
            _Seat(
                _field(seat, "kind") == "SEAT_KIND_SYSTEM",
                _text(_field(seat, "seed"), f"seat {index}'s seed"),
                _text(_field(seat, "choice"), f"seat {index}'s choice"),
            )
        )
    steps = []
    for index, step in enumerate(_list(replay["steps"], "steps")):
        step = _message(step, f"step {index}")
        update = _message(_field(step, "update"), f"step {index}'s update")
        version = _integer(_field(update, "version"), f"step {index}'s version")
        view = _field(step, "view")
        move = _field(step, "move")
        if move is not None:
            move = _message(move, f"version {version}'s move")
            by_table = _field(move, "by_table", False)
            move = (
                _integer(_field(move, "seat"), f"version {version}'s move's seat"),
                _text(_field(move, "text"), f"version {version}'s move's text"),
                by_table is True,
            )
        hands = _list(_field(step, "hands"), f"version {version}'s hands")
        steps.append(_Step(version, None if view is None else _message(view, f"version {version}'s view"), hands, move))
    deal = _field(room, "deal")
    outcome = _field(room, "outcome")
    return _Replay(
        game=_text(_field(room, "game"), "room.game"),
        room_id=_text(_field(room, "room_id"), "room.roomId"),
        tournament_id=_text(_field(room, "tournament_id"), "room.tournamentId"),
        seats=seats,
        options=_message(_field(room, "options"), "room.options"),
        deal=None if deal is None else _message(deal, "room.deal"),
        outcome=None if outcome is None else _message(outcome, "room.outcome"),
        room_version=_integer(_field(room, "version"), "room.version"),
        steps=steps,
    )


# --------------------------------------------------------------------------------------------------------------------
# Normal forms: a view as the engine gives it and as the file holds it (each game's view message in proto JSON), made
# the same plain data. The server's codecs (service/grpc/<game>_codec.py) map the engine's to_json() to the message;
# each normal form below undoes what its codec reshapes and drops what the message does not carry.


def _plain(value: Any, keep: frozenset[str] = frozenset(), snake: bool = False) -> Any:
    """``value`` with every object's default fields left out (None, false, 0, "" and empty lists: proto3 JSON leaves a
    field at its default out), except the fields in ``keep`` (the message's ``optional`` ones, whose 0 is written).
    Objects stay, even empty: a message that is set shows as ``{}``. A list keeps every item. ``snake``: the keys in
    proto JSON's camelCase are written in snake_case."""
    if isinstance(value, Mapping):
        plain = {}
        for key, item in value.items():
            if snake:
                key = _snake(key)
            if item or key in keep or isinstance(item, Mapping):
                plain[key] = _plain(item, keep, snake)
        return plain
    if isinstance(value, list | tuple):
        # (the lists of a view are of one kind each: a list of plain values is taken as it is)
        if value and isinstance(value[0], Mapping | list | tuple):
            return [_plain(item, keep, snake) for item in value]
        return list(value)
    return value


@dataclass(frozen=True)
class NormalForm:
    """How one game's views are compared: ``field`` is the View message's field for the game (proto JSON spelling
    and its own), ``engine`` turns the engine's ``to_json()`` into the message's shape, ``keep`` names the message's
    optional fields (written even at 0)."""

    field: str
    engine: Callable[[dict[str, Any]], dict[str, Any]]
    keep: frozenset[str] = frozenset()

    def of_engine(self, data: Mapping[str, Any]) -> Any:
        return _plain(self.engine(dict(data)), self.keep)

    def of_file(self, view: Mapping[str, Any]) -> Any:
        return _plain(view, self.keep, snake=True)


_SOKER_FIELDS = ("hand", "hand_sizes", "joker_as_club", "deck_size", "discard_size", "current", "drawn", "points")


def _soker(data: dict[str, Any]) -> dict[str, Any]:
    # SokerView carries neither the pile under the top card (discard_under) nor the stalemate count (idle_turns,
    # idle_start), nor the version and outcome the room says; "top" is its top_card.
    return {"top_card": data["top"], **{name: data[name] for name in _SOKER_FIELDS if name in data}}


def _age_of_soccer(data: dict[str, Any]) -> dict[str, Any]:
    # AgeOfSoccerView carries every field but the viewer and the outcome (the room's Outcome says it).
    data.pop("viewer", None)
    data.pop("outcome", None)
    return data


def _carta(data: dict[str, Any]) -> dict[str, Any]:
    # CartaView: no viewer or outcome; a seat or team of -1 (none) is left unset, and so is the seat to act once the
    # match is over; each Luck deck's bottom cards are a CartaCards message.
    data.pop("viewer", None)
    data.pop("outcome", None)
    coin = dict(data["coin"])
    if coin.get("winner", -1) < 0:
        coin.pop("winner", None)
    data["coin"] = coin
    for name in ("starter", "ball"):
        if data.get(name, -1) < 0:
            data.pop(name, None)
    if data.get("phase") == "over":
        data.pop("actor", None)
    data["luck_bottom"] = [{"cards": list(cards)} for cards in data.get("luck_bottom", ())]
    return data


NORMAL_FORMS: dict[str, NormalForm] = {
    "soker": NormalForm("soker", _soker),
    "age-of-soccer": NormalForm("age_of_soccer", _age_of_soccer),
    "carta-futbol-club": NormalForm("carta", _carta, frozenset({"starter", "ball", "actor", "winner"})),
}


def _generic_numbers(value: Any) -> Any:
    """A Struct's numbers are doubles: 3 and 3.0 are one number there."""
    if isinstance(value, Mapping):
        return {key: _generic_numbers(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_generic_numbers(item) for item in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _normal(game: str, view: Mapping[str, Any], engine_view: Any) -> tuple[Any, Any]:
    """(the file's view, the engine's view) in the game's normal form; a game without one travels as its JSON in
    GenericView.data (a Struct), compared as JSON."""
    form = NORMAL_FORMS.get(game)
    if form is None:
        generic = _message(_field(view, "generic"), "a view's generic form")
        data = json.loads(json.dumps(engine_view.to_json()))
        return _generic_numbers(_field(generic, "data", {})), _generic_numbers(data)
    if set(view) - {form.field, _camel(form.field)}:
        raise _Differs(f"holds a view of another game ({', '.join(sorted(view))}), not {game}'s")
    return form.of_file(_message(_field(view, form.field), "a view")), form.of_engine(engine_view.to_json())


def _first_difference(found: Any, expected: Any, path: str = "") -> str | None:
    """Where ``found`` (the file's) first differs from ``expected`` (the game's as played again), in words."""
    if type(found) is type(expected) and found == expected:
        return None
    if isinstance(found, Mapping) and isinstance(expected, Mapping):
        for key in [*expected, *(key for key in found if key not in expected)]:
            where = f"{path}.{key}" if path else key
            if key not in found:
                return f"{where} is missing from the file (played again: {json.dumps(expected[key])})"
            if key not in expected:
                return f"{where} is {json.dumps(found[key])} in the file, unset when played again"
            difference = _first_difference(found[key], expected[key], where)
            if difference:
                return difference
        return None
    if isinstance(found, list) and isinstance(expected, list):
        for index, (one, other) in enumerate(zip(found, expected, strict=False)):
            difference = _first_difference(one, other, f"{path}[{index}]")
            if difference:
                return difference
        if len(found) != len(expected):
            return f"{path} has {len(found)} items in the file, {len(expected)} when played again"
        return None
    if found != expected or type(found) is not type(expected):
        return f"{path or 'the view'} is {json.dumps(found)} in the file, {json.dumps(expected)} when played again"
    return None


# --------------------------------------------------------------------------------------------------------------------
# The checks.

_SUBJECT_DEAL = re.compile(r"(?P<tournament>.+)/deal/(?P<n>0|[1-9][0-9]*)")


def _check_deal(replay: _Replay) -> tuple[str, bytes, str, list[str]]:
    """Checks 1-5: (scheme, secret, commitment, seeds)."""
    deal = replay.deal
    if deal is None:
        raise _Unreadable(f"room {replay.room_id} has no deal (a room made before deals were committed)")
    name = _text(_field(deal, "scheme"), "deal.scheme")
    commitment = _text(_field(deal, "commitment"), "deal.commitment")
    subject = _text(_field(deal, "subject"), "deal.subject")
    seeds = [_text(seed, "a deal's seed") for seed in _list(_field(deal, "seeds"), "deal.seeds")]
    if name not in scheme.SCHEMES:
        raise _Differs(f"unknown deal scheme {name!r}: this release checks {', '.join(scheme.SCHEMES)}")
    secret_hex = _text(_field(deal, "secret"), "deal.secret")
    if not secret_hex:
        raise _Unreadable(f"the deal's secret is not revealed yet: room {replay.room_id}'s game is not over")
    try:
        secret = scheme.secret_from_hex(secret_hex)
        published = scheme.commitment(secret, subject, replay.game, name)
    except scheme.SchemeError as error:
        raise _Differs(f"the deal's secret or subject cannot be used: {error}") from None
    if published != commitment:
        raise _Differs(
            f"the secret does not match the commitment: SHA-256 of it for {subject} and {replay.game} is {published}, "
            f"the commitment published was {commitment or '(none)'}"
        )
    tournament = _SUBJECT_DEAL.fullmatch(subject)
    duplicate = (
        bool(replay.tournament_id) and tournament is not None and tournament["tournament"] == replay.tournament_id
    )
    if subject != replay.room_id and not duplicate:
        raise _Differs(f"the deal is for {subject!r}: neither this room ({replay.room_id}) nor its tournament's deal")
    if not duplicate:
        if len(seeds) != len(replay.seats):
            raise _Differs(f"the deal has {len(seeds)} seeds for {len(replay.seats)} seats")
        for index, (seed, seat) in enumerate(zip(seeds, replay.seats, strict=True)):
            if seed != seat.seed:
                raise _Differs(f"the deal's seed {index} is {seed!r}, but seat {index}'s seed is {seat.seed!r}")
            if seat.system:
                fixed = scheme.system_seat_seed(secret, subject, replay.game, index, name)
                if seed != fixed:
                    raise _Differs(
                        f"seat {index} is a system player's, whose seed the secret fixes as {fixed!r}, not {seed!r}"
                    )
    return name, secret, commitment, seeds


def _deal(replay: _Replay, game: Game, name: str, secret: bytes, seeds: list[str]) -> GameState:
    """Check 6: the game dealt again from the derived seed, with the room's options and the seats' choices."""
    try:
        seed = scheme.game_seed(secret, _text(_field(replay.deal or {}, "subject"), ""), replay.game, seeds, name)
    except scheme.SchemeError as error:
        raise _Differs(f"the game's seed cannot be derived: {error}") from None
    seats = len(replay.seats)
    choices = {index: seat.choice for index, seat in enumerate(replay.seats) if seat.choice}
    try:
        options = game.with_choices(seats, replay.options, choices) if choices else dict(replay.options)
        return game.new_game(seats, options, seed)
    except RuleError as error:
        raise _Differs(f"the room's options and seats do not make a game of {replay.game}: {error}") from None


def _compare(game: str, step: _Step, state: GameState) -> None:
    assert step.view is not None
    found, expected = _normal(game, step.view, state.view(None))
    difference = _first_difference(found, expected)
    if difference:
        raise _Differs(f"the spectator's view differs: {difference}", step.version)
    if len(step.hands) != state.seats:
        raise _Differs(f"the file shows {len(step.hands)} seats' views, the table has {state.seats}", step.version)
    for seat, hand in enumerate(step.hands):
        try:
            found, expected = _normal(game, _message(hand, f"seat {seat}'s view"), state.view(seat))
        except _Differs as error:
            raise _Differs(f"seat {seat}'s view {error}", step.version) from None
        difference = _first_difference(found, expected)
        if difference:
            raise _Differs(f"seat {seat}'s view differs: {difference}", step.version)


def _play(step: _Step, game: Game, state: GameState) -> None:
    assert step.move is not None
    seat, text, by_table = step.move
    who = f"the table's move for seat {seat}" if by_table else f"seat {seat}'s move"
    if not 0 <= seat < state.seats:
        raise _Differs(f"a move for seat {seat}, at a table of {state.seats} seats", step.version)
    try:
        move = game.move_from_wire(text)
    except RuleError as error:
        raise _Differs(f"{who} {text!r} cannot be read: {error}", step.version) from None
    try:
        state.apply(seat, move, by_table=by_table)
    except RuleError as error:
        raise _Differs(f"{who} {text!r} is refused by the rules: {error}", step.version) from None


def _check_steps(replay: _Replay, game: Game, state: GameState) -> str:
    """Checks 7 and 8; returns the verdict's note ("" or how the room ended the game before its end)."""
    expected, started, ended_by_room = 1, False, False
    for step in replay.steps:
        if step.version != expected:
            gap = f"version {expected}" if step.version == expected + 1 else f"versions {expected}-{step.version - 1}"
            if step.version < expected:
                raise _Differs(f"version {step.version} comes after version {expected - 1}", step.version)
            raise _Differs(f"{gap} missing: the versions skip from {expected - 1} to {step.version}", step.version)
        expected += 1
        if step.view is None:
            if step.move is not None:
                raise _Differs("the step plays a move but shows no table after it", step.version)
            ended_by_room = started  # (a step without a table once the game began: the room ended it)
            continue
        if ended_by_room:
            raise _Differs("the step shows a table after the room had ended the game", step.version)
        started = True
        if step.move is not None:
            _play(step, game, state)
        _compare(replay.game, step, state)
    last = replay.steps[-1].version if replay.steps else 0
    if replay.room_version and last != replay.room_version:
        raise _Differs(f"the replay ends at version {last}, but the room is at version {replay.room_version}", last)
    room = replay.outcome
    outcome = state.outcome()
    if outcome is None:
        if ended_by_room and room is not None and not _field(room, "winners"):
            reason = _text(_field(room, "reason"), "the outcome's reason")
            return f"the room ended the game before its end, {reason}: every move up to then verified"
        raise _Differs("the game is not over after the replay's last version", last)
    if room is None:
        raise _Differs("the game is over, but the room has no outcome", last)
    teams = [state.team_of(seat) for seat in range(state.seats)]
    winning_teams, team_points = outcome.for_teams(teams)
    played = {
        "winners": list(outcome.winners),
        "reason": outcome.reason,
        "points": list(outcome.points),
        "winning_teams": list(winning_teams),
        "team_points": list(team_points),
        "results": [f"SEAT_RESULT_{result.value.upper()}" for result in outcome.results(teams)],
    }
    difference = _first_difference(_plain(room, snake=True), _plain(played), "outcome")
    if difference:
        raise _Differs(f"the room's outcome differs: {difference}", last)
    return ""


def verify(replay: Mapping[str, Any]) -> Verdict:
    """Check a replay (the file's JSON, parsed) against its deal: a :class:`Verdict` with the first thing that
    differs, in the order the module's docstring gives."""
    try:
        facts = _read(replay)
    except _Unreadable as error:
        return Verdict(False, str(error), readable=False)
    base = {"game": facts.game, "room_id": facts.room_id, "versions": len(facts.steps)}
    try:
        game = GAMES.get(facts.game)
        if game is None:
            raise _Unreadable(f"no game {facts.game!r} in this release (known: {', '.join(sorted(GAMES))})")
        name, secret, commitment, seeds = _check_deal(facts)
        base["commitment"] = commitment
        if not any(step.view is not None for step in facts.steps):
            raise _Unreadable(f"room {facts.room_id}'s game never began: nothing was dealt to verify")
        state = _deal(facts, game, name, secret, seeds)
        note = _check_steps(facts, game, state)
    except _Unreadable as error:
        return Verdict(False, str(error), readable=False, **base)
    except _Differs as error:
        return Verdict(False, str(error), error.version, **base)
    return Verdict(True, note=note, **base)


def read_file(path: str | Path) -> Any:
    """A replay file's JSON; ValueError when it cannot be read as JSON (too large, not UTF-8, not JSON)."""
    path = Path(path)
    if path.stat().st_size > MAX_FILE_BYTES:
        raise ValueError(f"{path} is over {MAX_FILE_BYTES // 2**20} MiB: not a replay file")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{path} is not JSON: {error}") from None


def verify_file(path: str | Path) -> Verdict:
    """:func:`verify` of a replay file; a file that is not JSON is an unreadable verdict."""
    try:
        replay = read_file(path)
    except (OSError, ValueError) as error:
        return Verdict(False, str(error), readable=False)
    return verify(replay)
