"""Rooms, updates and rule sets -> proto messages; each game's own messages come from its codec (codecs.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from google.protobuf import json_format, struct_pb2, timestamp_pb2

from engine.core import Game, InvalidOptions, Outcome
from kickoff.v1 import common_pb2, game_pb2, move_pb2, room_pb2
from service.grpc import age_of_soccer_codec, carta_codec, soker_codec  # noqa: F401 (register the games' own codecs)
from service.grpc.codecs import Codec, codec_of
from service.rooms.errors import InvalidRequest
from service.rooms.room import (
    FINISHED,
    ONLINE,
    PERSON,
    PLAYING,
    SOLO,
    WAITING,
    ClockInfo,
    GameEndedEvent,
    GameEvent,
    GameStartedEvent,
    Room,
    SeatLeftEvent,
    SeatRecord,
    SeatTakenEvent,
    Update,
)

STATUS = {
    WAITING: common_pb2.ROOM_STATUS_WAITING,
    PLAYING: common_pb2.ROOM_STATUS_PLAYING,
    FINISHED: common_pb2.ROOM_STATUS_FINISHED,
}
STATUS_NAME = {value: name for name, value in STATUS.items()}
MODE = {ONLINE: common_pb2.ROOM_MODE_ONLINE, SOLO: common_pb2.ROOM_MODE_SOLO}
MODE_NAME = {value: name for name, value in MODE.items()}


def codec_for(room: Room) -> Codec:
    return codec_of(room.game)


def timestamp(seconds: float) -> timestamp_pb2.Timestamp:
    nanos = round(seconds * 1e9)
    return timestamp_pb2.Timestamp(seconds=nanos // 1_000_000_000, nanos=nanos % 1_000_000_000)


def struct(values: Mapping[str, Any]) -> struct_pb2.Struct:
    data = struct_pb2.Struct()
    data.update(dict(values))
    return data


def options_from(message: struct_pb2.Struct) -> dict[str, Any]:
    """Struct -> dict. Numbers arrive as floats; the engine's option check turns whole ones into ints."""
    return json_format.MessageToDict(message)


def outcome_to_proto(outcome: Outcome, teams: Sequence[int]) -> common_pb2.Outcome:
    """The outcome with its teams' results (``teams``: each seat's team)."""
    winning_teams, team_points = outcome.for_teams(teams)
    return common_pb2.Outcome(
        winners=outcome.winners,
        reason=outcome.reason,
        points=outcome.points,
        winning_teams=winning_teams,
        team_points=team_points,
    )


def clock_to_proto(clock: ClockInfo) -> common_pb2.TurnClock:
    return common_pb2.TurnClock(seat=clock.seat, deadline=timestamp(clock.deadline), turn_seconds=round(clock.seconds))


def add_clocks(message: Any, clocks: Sequence[ClockInfo]) -> None:
    """Set a message's clocks (one per acting seat with a clock) and its single ``clock``, the first of them."""
    if clocks:
        message.clocks.extend(clock_to_proto(clock) for clock in clocks)
        message.clock.CopyFrom(message.clocks[0])


def seat_to_proto(record: SeatRecord) -> common_pb2.Seat:
    kind = common_pb2.SEAT_KIND_PERSON if record.kind == PERSON else common_pb2.SEAT_KIND_SYSTEM
    return common_pb2.Seat(
        seat=record.seat, kind=kind, taken=record.taken, name=record.name, team=record.team, choice=record.choice
    )


def room_to_proto(room: Room) -> room_pb2.Room:
    """The room as of its last stored update (never a change still being written, nor one the store did not take)."""
    published = room.published
    message = room_pb2.Room(
        room_id=room.room_id,
        game=room.game.spec.name,
        mode=MODE[room.mode],
        status=STATUS[published.status],
        seats=[seat_to_proto(record) for record in published.seats],
        options=struct(room.options),
        version=published.version,
        created_at=timestamp(room.created_at),
        to_act=published.to_act,
        tournament_id=room.tournament_id,
        tournament_game=room.tournament_game or 0,
    )
    if published.outcome is not None:
        message.outcome.CopyFrom(outcome_to_proto(published.outcome, room.teams))
    add_clocks(message, published.clocks)
    return message


# A game's events repeat from room to room and turn to turn (seat 2's turn began; seat 1 drew a card it alone sees):
# each one's message is built once and copied into every update that carries it. Keys are (codec, type, event), since
# equal tuples of different event types compare equal; an event that cannot be a key is built every time.
_GAME_EVENTS_KEPT = 8192
_game_events: dict[tuple[str, type, Any], move_pb2.RoomEvent | None] = {}


def _game_event(event: Any, codec: Codec) -> move_pb2.RoomEvent | None:
    key = (codec.name, type(event), event)
    try:
        return _game_events[key]
    except KeyError:
        pass
    except TypeError:  # (not hashable)
        message = codec.event_to_proto(event)
        return None if message is None else move_pb2.RoomEvent(game=message)
    if len(_game_events) >= _GAME_EVENTS_KEPT:
        _game_events.clear()
    message = codec.event_to_proto(event)
    built = _game_events[key] = None if message is None else move_pb2.RoomEvent(game=message)
    return built


def _room_event(event: Any, codec: Codec, teams: Sequence[int]) -> move_pb2.RoomEvent | None:
    kind = type(event)
    if kind is GameEvent:
        return _game_event(event.event, codec)
    if kind is SeatTakenEvent:
        return move_pb2.RoomEvent(seat_taken=move_pb2.SeatTaken(seat=seat_to_proto(event.seat)))
    if kind is SeatLeftEvent:
        return move_pb2.RoomEvent(seat_left=move_pb2.SeatLeft(seat=event.seat))
    if kind is GameStartedEvent:
        return move_pb2.RoomEvent(game_started=move_pb2.GameStarted(first_seat=event.first_seat))
    if kind is GameEndedEvent:
        return move_pb2.RoomEvent(game_ended=move_pb2.GameEnded(outcome=outcome_to_proto(event.outcome, teams)))
    raise TypeError(f"no proto for {event!r}")


_GAME_EVENTS = "game events"  # the rendered cache's key for where each game event landed in the message


def update_to_proto(
    room: Room, update: Update, viewer: int | None, into: move_pb2.RoomUpdate | None = None
) -> move_pb2.RoomUpdate:
    """The update as ``viewer`` may see it, built once per viewer and kept with the update; or, with ``into`` (the
    field of the message a stream is about to send), written there and not kept, which spares a copy.

    The spectator's rendering is built first; a seat's copies it and replaces only the events the seat sees
    differently (its own draws) and adds its legal moves, so four seats cost little more than one.
    """
    cached = update.rendered.get(viewer)
    if cached is not None:
        if into is None:
            return cached
        into.CopyFrom(cached)
        return into
    codec = codec_for(room)
    public = update.rendered.get(None)
    if public is None:
        events, slots = [], []
        for index, event in enumerate(update.events_for(None)):
            rendered = _room_event(event, codec, room.teams)
            if rendered is not None:  # (the codec leaves out what the room reports itself)
                if type(event) is GameEvent:
                    slots.append((index, len(events), event.event))  # where it landed, and how a spectator sees it
                events.append(rendered)
        public = move_pb2.RoomUpdate(
            room_id=room.room_id,
            version=update.version,
            events=events,
            status=STATUS[update.status],
            to_act=update.to_act,
            time=timestamp(update.time),
        )
        add_clocks(public, update.clocks)
        update.rendered[None] = public
        update.rendered[_GAME_EVENTS] = slots
        if viewer is None and into is None:
            return public
    message = into if into is not None else move_pb2.RoomUpdate()
    message.CopyFrom(public)
    if viewer is None:
        return message
    message.viewer = viewer
    for index, position, public_event in update.rendered[_GAME_EVENTS]:
        mine = update.events[index].event.for_viewer(viewer)
        if mine is not public_event and mine != public_event:
            message.events[position].CopyFrom(_room_event(GameEvent(mine), codec, room.teams))
    if viewer in update.legal:
        message.legal_moves.extend(codec.move_to_proto(move) for move in update.legal[viewer])
    if into is None:
        update.rendered[viewer] = message
    return message


def rules_to_proto(game: Game, options: Mapping[str, Any]) -> game_pb2.RuleSet:
    spec = game.spec
    try:
        resolved = spec.resolve(spec.max_seats, options)
    except InvalidOptions as exc:
        raise InvalidRequest(str(exc), code="invalid_options") from None
    rules = []
    for option in spec.options:
        entry = game_pb2.RuleOption(name=option.name, description=option.description)
        entry.value.CopyFrom(_value(resolved[option.name]))
        entry.default_value.CopyFrom(_value(option.default))
        if option.minimum is not None:
            entry.minimum = option.minimum
        if option.maximum is not None:
            entry.maximum = option.maximum
        rules.append(entry)
    return game_pb2.RuleSet(
        game=spec.name, title=spec.title, deck_size=spec.deck_size, seat_counts=spec.seat_counts, options=rules
    )


def _value(value: Any) -> struct_pb2.Value:
    holder = struct_pb2.Struct()
    holder.update({"value": value})
    return holder.fields["value"]
