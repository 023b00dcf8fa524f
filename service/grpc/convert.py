"""Rooms, updates and rule sets -> proto messages; each game's own messages come from its codec (codecs.py)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from google.protobuf import json_format, struct_pb2, timestamp_pb2

from engine.core import Game, InvalidOptions, Outcome, SeatResult
from engine.levels import levels_of
from kickoff.v1 import chat_pb2, common_pb2, game_pb2, move_pb2, room_pb2
from service.errors import InvalidRequest
from service.grpc.codecs import Codec, codec_of
from service.rooms.clocks import Deadline
from service.rooms.room import (
    FINISHED,
    ONLINE,
    PERSON,
    PLAYING,
    SOLO,
    WAITING,
    GameEndedEvent,
    GameEvent,
    GameStartedEvent,
    ReplayStep,
    Room,
    SeatLeftEvent,
    SeatRecord,
    SeatTakenEvent,
    StandInEvent,
    Update,
)

T = TypeVar("T")
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
    stamp = timestamp_pb2.Timestamp()
    set_time(stamp, seconds)
    return stamp


def set_time(stamp: timestamp_pb2.Timestamp, seconds: float) -> None:
    """Set a Timestamp (a message's field, in place) to ``seconds`` since the epoch."""
    stamp.seconds, stamp.nanos = divmod(round(seconds * 1e9), 1_000_000_000)


def struct(values: Mapping[str, Any]) -> struct_pb2.Struct:
    data = struct_pb2.Struct()
    data.update(dict(values))
    return data


def options_from(message: struct_pb2.Struct) -> dict[str, Any]:
    """Struct -> dict. Numbers arrive as floats; the engine's option check turns whole ones into ints."""
    return json_format.MessageToDict(message)


SEAT_RESULT = {
    SeatResult.WON: common_pb2.SEAT_RESULT_WON,
    SeatResult.LOST: common_pb2.SEAT_RESULT_LOST,
    SeatResult.DRAWN: common_pb2.SEAT_RESULT_DRAWN,
    SeatResult.SHARED_WIN: common_pb2.SEAT_RESULT_SHARED_WIN,
}


def outcome_to_proto(outcome: Outcome, teams: Sequence[int]) -> common_pb2.Outcome:
    """The outcome with its teams' results (``teams``: each seat's team)."""
    winning_teams, team_points = outcome.for_teams(teams)
    return common_pb2.Outcome(
        winners=outcome.winners,
        reason=outcome.reason,
        points=outcome.points,
        winning_teams=winning_teams,
        team_points=team_points,
        results=[SEAT_RESULT[result] for result in outcome.results(teams)],
    )


def clock_to_proto(clock: Deadline) -> common_pb2.TurnClock:
    return common_pb2.TurnClock(seat=clock.seat, deadline=timestamp(clock.deadline), turn_seconds=round(clock.seconds))


def add_clocks(message: Any, clocks: Sequence[Deadline]) -> None:
    """Set a message's clocks (one per acting seat with a clock) and its single ``clock``, the first of them."""
    if clocks:
        message.clocks.extend(clock_to_proto(clock) for clock in clocks)
        message.clock.CopyFrom(message.clocks[0])


def seat_kind(kind: str) -> int:
    """A seat's (or a player's) kind, ``person`` or ``system``, as the contract's SeatKind."""
    return common_pb2.SEAT_KIND_PERSON if kind == PERSON else common_pb2.SEAT_KIND_SYSTEM


def seat_to_proto(record: SeatRecord) -> common_pb2.Seat:
    return common_pb2.Seat(
        seat=record.seat,
        kind=seat_kind(record.kind),
        taken=record.taken,
        name=record.name,
        team=record.team,
        choice=record.choice,
        player_id=record.player,
        stand_in=record.stand_in,
        seed=record.seed,
    )


def deal_to_proto(deal: Any) -> common_pb2.Deal:
    """A room's deal as shown (service/rooms/updates.py DealShown): never a secret the room has not revealed."""
    return common_pb2.Deal(
        scheme=deal.scheme, subject=deal.subject, commitment=deal.commitment, seeds=deal.seeds, secret=deal.secret
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
        rated=room.rated and published.status != "waiting",
        unrated_reason=room.why_unrated(),
        correspondence_hours=room.correspondence_hours,
        stand_ins=room.stand_ins,
        unlisted=room.unlisted,
        team_chat=room.team_chat,
    )
    if room.chat != "on":  # (unset: on)
        message.chat = CHAT_MODE[room.chat]
    if published.outcome is not None:
        message.outcome.CopyFrom(outcome_to_proto(published.outcome, room.teams))
    add_clocks(message, published.deadlines)
    if room.rematch_fill:
        message.rematch_fill = REMATCH_FILL.get(room.rematch_fill, room_pb2.REMATCH_FILL_UNSPECIFIED)
    if room.rematch is not None:
        message.rematch.CopyFrom(rematch_to_proto(room.rematch, room))
    deal = room.deal_shown(published)
    if deal is not None:
        message.deal.CopyFrom(deal_to_proto(deal))
    return message


CHAT_MODE = {"on": chat_pb2.CHAT_MODE_ON, "reactions": chat_pb2.CHAT_MODE_REACTIONS, "off": chat_pb2.CHAT_MODE_OFF}
CHAT_MODE_NAME = {chat_pb2.CHAT_MODE_UNSPECIFIED: "", **{value: name for name, value in CHAT_MODE.items()}}
REMATCH_FILL = {"system": room_pb2.REMATCH_FILL_SYSTEM_PLAYER, "no_rematch": room_pb2.REMATCH_FILL_NO_REMATCH}
REMATCH_FILL_NAME = {
    room_pb2.REMATCH_FILL_UNSPECIFIED: "",
    room_pb2.REMATCH_FILL_NO_REMATCH: "no_rematch",
    room_pb2.REMATCH_FILL_SYSTEM_PLAYER: "system",
}
_REMATCH_STATUS = {
    "open": room_pb2.REMATCH_STATUS_OPEN,
    "made": room_pb2.REMATCH_STATUS_MADE,
    "refused": room_pb2.REMATCH_STATUS_REFUSED,
}
_REMATCH_ANSWER = {
    "waiting": room_pb2.REMATCH_ANSWER_WAITING,
    "accepted": room_pb2.REMATCH_ANSWER_ACCEPTED,
    "declined": room_pb2.REMATCH_ANSWER_DECLINED,
    "no_answer": room_pb2.REMATCH_ANSWER_NO_ANSWER,
}


def rematch_to_proto(record: Any, room: Room) -> room_pb2.Rematch:
    """A finished room's rematch (service/store/rematches.py's RematchRecord) as every client sees it."""
    made = record.status == "made"
    return room_pb2.Rematch(
        status=_REMATCH_STATUS[record.status],
        proposed_by=record.proposed_by,
        seats=[
            room_pb2.RematchSeat(seat=seat, answer=_REMATCH_ANSWER[answer], filled=made and answer != "accepted")
            for seat, answer in sorted(record.answers.items())
        ],
        deadline=timestamp(record.deadline),
        room_id=record.new_room_id,
        reason=record.reason,
    )


KEPT = 8192  # built messages and pieces kept for the values that repeat (see _kept)


def _kept(build: Callable[[Any, Codec], T]) -> Callable[[Any, Codec], T]:
    """``build(value, codec)``, kept for values that repeat from room to room and turn to turn (seat 2's turn began;
    seat 1 drew a card it alone sees; a legal draw), the least recently used dropped past KEPT. Equal tuples of
    different types (two kinds of events) are kept apart; a value that cannot be a key is built every time."""
    cached = functools.lru_cache(maxsize=KEPT, typed=True)(build)

    def kept(value: Any, codec: Codec) -> T:
        try:
            return cached(value, codec)
        except TypeError:  # (not hashable)
            return build(value, codec)

    return kept


@_kept
def _game_event(event: Any, codec: Codec) -> move_pb2.RoomEvent | None:
    message = codec.event_to_proto(event)
    return None if message is None else move_pb2.RoomEvent(game=message)


def _room_event(event: Any, codec: Codec, teams: Sequence[int]) -> move_pb2.RoomEvent | None:
    kind = type(event)
    if kind is GameEvent:
        return _game_event(event.event, codec)
    if kind is SeatTakenEvent:
        return move_pb2.RoomEvent(seat_taken=move_pb2.SeatTaken(seat=seat_to_proto(event.seat)))
    if kind is SeatLeftEvent:
        return move_pb2.RoomEvent(seat_left=move_pb2.SeatLeft(seat=event.seat))
    if kind is GameStartedEvent:
        started = move_pb2.GameStarted(first_seat=event.first_seat)
        if event.deal is not None:
            started.deal.CopyFrom(deal_to_proto(event.deal))
        return move_pb2.RoomEvent(game_started=started)
    if kind is StandInEvent:
        return move_pb2.RoomEvent(stand_in=move_pb2.StandIn(seat=event.seat, level=event.level))
    if kind is GameEndedEvent:
        ended = move_pb2.GameEnded(outcome=outcome_to_proto(event.outcome, teams), deal_secret=event.deal_secret)
        return move_pb2.RoomEvent(game_ended=ended)
    raise TypeError(f"no proto for {event!r}")


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
        game=spec.name,
        title=spec.title,
        deck_size=spec.deck_size,
        seat_counts=spec.seat_counts,
        options=rules,
        levels=levels_of(game),
    )


def _value(value: Any) -> struct_pb2.Value:
    holder = struct_pb2.Struct()
    holder.update({"value": value})
    return holder.fields["value"]


# -- updates as bytes, for the streams ---------------------------------------------------------------------------------
#
# A stream sends each update to every seat, and the seats' messages differ only in a few fields: the viewer, the legal
# moves of a seat that must act, and an event that one seat sees unredacted (its own draw). Protobuf parses a message
# written as consecutive pieces as the message with all their fields (repeated fields in the order the pieces give
# them), so an update is serialised once in pieces: the fields every viewer shares, and each event on its own; a
# seat's message is those pieces joined with its own. Events and legal moves repeat from update to update and room to
# room, so their pieces are kept (_game_event_piece, _legal_move_piece).

_PIECES = "pieces"  # the rendered cache's key for an update's shared pieces
_STREAM_UPDATE_TAG = bytes([move_pb2.PlayResponse.DESCRIPTOR.fields_by_name["update"].number << 3 | 2])
assert move_pb2.StreamEventsResponse.DESCRIPTOR.fields_by_name["update"].number == 1  # (the same tag serves both)


def _varint(value: int) -> bytes:
    if value < len(_SHORT_VARINTS):
        return _SHORT_VARINTS[value]
    return _encode_varint(value)


def _encode_varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _event_piece(event: move_pb2.RoomEvent) -> bytes:
    return move_pb2.RoomUpdate(events=[event]).SerializeToString()


@_kept
def _game_event_piece(event: Any, codec: Codec) -> bytes:
    """A game event's piece (b'' for one the codec leaves out)."""
    message = _game_event(event, codec)
    return b"" if message is None else _event_piece(message)


@_kept
def _legal_move_piece(move: Any, codec: Codec) -> bytes:
    return move_pb2.RoomUpdate(legal_moves=[codec.move_to_proto(move)]).SerializeToString()


@functools.lru_cache(maxsize=64)
def _viewer_piece(viewer: int) -> bytes:
    return move_pb2.RoomUpdate(viewer=viewer).SerializeToString()


def _pieces(room: Room, update: Update, codec: Codec) -> tuple[bytes, list[bytes], list[tuple[int, int, Any]]]:
    """An update's shared pieces: its fields but the events, each event as a spectator sees it, and where each game
    event is (its index in the update, its position among the pieces, how a spectator sees it)."""
    head = move_pb2.RoomUpdate(
        room_id=room.room_id, version=update.version, status=STATUS[update.status], to_act=update.to_act
    )
    set_time(head.time, update.time)
    if update.deadlines:
        for clock in update.deadlines:
            into = head.clocks.add(seat=clock.seat, turn_seconds=round(clock.seconds))
            set_time(into.deadline, clock.deadline)
        head.clock.CopyFrom(head.clocks[0])
    events: list[bytes] = []
    slots: list[tuple[int, int, Any]] = []
    for index, event in enumerate(update.events):
        if type(event) is GameEvent:
            public = event.event.for_viewer(None)
            piece = _game_event_piece(public, codec)
            if piece:
                slots.append((index, len(events), public))
                events.append(piece)
        else:
            message = _room_event(event, codec, room.teams)
            if message is not None:
                events.append(_event_piece(message))
    return head.SerializeToString(), events, slots


def _shared_pieces(room: Room, update: Update, codec: Codec) -> tuple[bytes, list[bytes], list[tuple[int, int, Any]]]:
    """The update's shared pieces (_pieces), made once and kept with the update."""
    pieces = update.rendered.get(_PIECES)
    if pieces is None:
        pieces = update.rendered[_PIECES] = _pieces(room, update, codec)
    return pieces


def update_bytes(room: Room, update: Update, viewer: int | None) -> bytes:
    """The update as ``viewer`` may see it (a seat, or None for a spectator), serialised: a RoomUpdate with the room's
    events redacted for the viewer (Update.events_for), and a seat's number and its legal moves when it must act."""
    codec = codec_for(room)
    head, events, slots = _shared_pieces(room, update, codec)
    if viewer is None:
        return head + b"".join(events)
    mine = events
    for index, position, public in slots:
        own = update.events[index].event.for_viewer(viewer)
        if own is not public and own != public:
            if mine is events:
                mine = list(events)
            mine[position] = _game_event_piece(own, codec)
    legal = update.legal.get(viewer)
    tail = b"".join([_legal_move_piece(move, codec) for move in legal]) if legal else b""
    return b"".join((head, *mine, _viewer_piece(viewer), tail))


def replay_to_proto(room: Room, steps: Sequence[ReplayStep], revealed: bool, last: int) -> move_pb2.GetReplayResponse:
    """A page of the room's replay (Room.replay_steps): until the game is over each update and view as a spectator
    sees it; once it is over (``revealed``) each update's events as they happened and every seat's view too."""
    codec = codec_for(room)
    response = move_pb2.GetReplayResponse(room=room_to_proto(room), revealed=revealed, last_version=last)
    if room.rematch is not None and room.rematch.new_room_id:
        response.rematch_room_id = room.rematch.new_room_id
    for step in steps:
        into = response.steps.add()
        update = step.update
        shown = _replay_update(room, update, codec) if revealed else update_bytes(room, update, None)
        into.update.MergeFromString(shown)
        if step.view is not None:
            into.view.CopyFrom(codec.view_to_proto(step.view))
        into.hands.extend(codec.view_to_proto(view) for view in step.hands)
        if step.move is not None:
            into.move.CopyFrom(
                move_pb2.ReplayMove(seat=step.move.seat, text=step.move.text, by_table=step.move.by_table)
            )
    if steps and steps[-1].update.version < last:
        response.next_after_version = steps[-1].update.version
    return response


def _replay_update(room: Room, update: Update, codec: Codec) -> bytes:
    """The update with its events as they happened (a finished game's replay: nothing is hidden any more)."""
    events = (_room_event(event, codec, room.teams) for event in update.events)
    head = _shared_pieces(room, update, codec)[0]
    return head + b"".join(_event_piece(event) for event in events if event is not None)


_SHORT_VARINTS = tuple(_encode_varint(length) for length in range(4096))  # (most updates' lengths)


def stream_message(update: bytes, result: move_pb2.MoveResult | None = None) -> bytes:
    """A PlayResponse (or, without ``result``, a StreamEventsResponse) carrying the serialised ``update``."""
    message = _STREAM_UPDATE_TAG + _varint(len(update)) + update
    if result is not None:
        message += move_pb2.PlayResponse(result=result).SerializeToString()
    return message


_SUBMIT_UPDATE_TAG = bytes([move_pb2.SubmitMoveResponse.DESCRIPTOR.fields_by_name["update"].number << 3 | 2])


def submit_answer(version: int, update: bytes) -> bytes:
    """A SubmitMoveResponse: the version after the move and the serialised ``update`` (the mover's)."""
    return move_pb2.SubmitMoveResponse(version=version).SerializeToString() + (
        _SUBMIT_UPDATE_TAG + _varint(len(update)) + update
    )
