import datetime

from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.rpc import status_pb2 as _status_pb2
from kickoff.v1 import age_of_soccer_pb2 as _age_of_soccer_pb2
from kickoff.v1 import carta_pb2 as _carta_pb2
from kickoff.v1 import chat_pb2 as _chat_pb2
from kickoff.v1 import common_pb2 as _common_pb2
from kickoff.v1 import limits_pb2 as _limits_pb2
from kickoff.v1 import room_pb2 as _room_pb2
from kickoff.v1 import soker_pb2 as _soker_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Move(_message.Message):
    __slots__ = ("soker", "age_of_soccer", "carta", "generic")
    SOKER_FIELD_NUMBER: _ClassVar[int]
    AGE_OF_SOCCER_FIELD_NUMBER: _ClassVar[int]
    CARTA_FIELD_NUMBER: _ClassVar[int]
    GENERIC_FIELD_NUMBER: _ClassVar[int]
    soker: _soker_pb2.SokerMove
    age_of_soccer: _age_of_soccer_pb2.AgeOfSoccerMove
    carta: _carta_pb2.CartaMove
    generic: GenericMove
    def __init__(self, soker: _Optional[_Union[_soker_pb2.SokerMove, _Mapping]] = ..., age_of_soccer: _Optional[_Union[_age_of_soccer_pb2.AgeOfSoccerMove, _Mapping]] = ..., carta: _Optional[_Union[_carta_pb2.CartaMove, _Mapping]] = ..., generic: _Optional[_Union[GenericMove, _Mapping]] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("soker", "age_of_soccer", "carta", "generic")
    SOKER_FIELD_NUMBER: _ClassVar[int]
    AGE_OF_SOCCER_FIELD_NUMBER: _ClassVar[int]
    CARTA_FIELD_NUMBER: _ClassVar[int]
    GENERIC_FIELD_NUMBER: _ClassVar[int]
    soker: _soker_pb2.SokerView
    age_of_soccer: _age_of_soccer_pb2.AgeOfSoccerView
    carta: _carta_pb2.CartaView
    generic: GenericView
    def __init__(self, soker: _Optional[_Union[_soker_pb2.SokerView, _Mapping]] = ..., age_of_soccer: _Optional[_Union[_age_of_soccer_pb2.AgeOfSoccerView, _Mapping]] = ..., carta: _Optional[_Union[_carta_pb2.CartaView, _Mapping]] = ..., generic: _Optional[_Union[GenericView, _Mapping]] = ...) -> None: ...

class GameEvent(_message.Message):
    __slots__ = ("soker", "age_of_soccer", "carta", "generic")
    SOKER_FIELD_NUMBER: _ClassVar[int]
    AGE_OF_SOCCER_FIELD_NUMBER: _ClassVar[int]
    CARTA_FIELD_NUMBER: _ClassVar[int]
    GENERIC_FIELD_NUMBER: _ClassVar[int]
    soker: _soker_pb2.SokerEvent
    age_of_soccer: _age_of_soccer_pb2.AgeOfSoccerEvent
    carta: _carta_pb2.CartaEvent
    generic: GenericEvent
    def __init__(self, soker: _Optional[_Union[_soker_pb2.SokerEvent, _Mapping]] = ..., age_of_soccer: _Optional[_Union[_age_of_soccer_pb2.AgeOfSoccerEvent, _Mapping]] = ..., carta: _Optional[_Union[_carta_pb2.CartaEvent, _Mapping]] = ..., generic: _Optional[_Union[GenericEvent, _Mapping]] = ...) -> None: ...

class GenericMove(_message.Message):
    __slots__ = ("wire",)
    WIRE_FIELD_NUMBER: _ClassVar[int]
    wire: str
    def __init__(self, wire: _Optional[str] = ...) -> None: ...

class GenericView(_message.Message):
    __slots__ = ("data",)
    DATA_FIELD_NUMBER: _ClassVar[int]
    data: _struct_pb2.Struct
    def __init__(self, data: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class GenericEvent(_message.Message):
    __slots__ = ("data",)
    DATA_FIELD_NUMBER: _ClassVar[int]
    data: _struct_pb2.Struct
    def __init__(self, data: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class RoomEvent(_message.Message):
    __slots__ = ("seat_taken", "seat_left", "game_started", "game", "game_ended", "stand_in")
    SEAT_TAKEN_FIELD_NUMBER: _ClassVar[int]
    SEAT_LEFT_FIELD_NUMBER: _ClassVar[int]
    GAME_STARTED_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    STAND_IN_FIELD_NUMBER: _ClassVar[int]
    seat_taken: SeatTaken
    seat_left: SeatLeft
    game_started: GameStarted
    game: GameEvent
    game_ended: GameEnded
    stand_in: StandIn
    def __init__(self, seat_taken: _Optional[_Union[SeatTaken, _Mapping]] = ..., seat_left: _Optional[_Union[SeatLeft, _Mapping]] = ..., game_started: _Optional[_Union[GameStarted, _Mapping]] = ..., game: _Optional[_Union[GameEvent, _Mapping]] = ..., game_ended: _Optional[_Union[GameEnded, _Mapping]] = ..., stand_in: _Optional[_Union[StandIn, _Mapping]] = ...) -> None: ...

class StandIn(_message.Message):
    __slots__ = ("seat", "level")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    level: str
    def __init__(self, seat: _Optional[int] = ..., level: _Optional[str] = ...) -> None: ...

class SeatTaken(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: _common_pb2.Seat
    def __init__(self, seat: _Optional[_Union[_common_pb2.Seat, _Mapping]] = ...) -> None: ...

class SeatLeft(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class GameStarted(_message.Message):
    __slots__ = ("first_seat", "deal")
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    first_seat: int
    deal: _common_pb2.Deal
    def __init__(self, first_seat: _Optional[int] = ..., deal: _Optional[_Union[_common_pb2.Deal, _Mapping]] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("outcome", "deal_secret")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    DEAL_SECRET_FIELD_NUMBER: _ClassVar[int]
    outcome: _common_pb2.Outcome
    deal_secret: str
    def __init__(self, outcome: _Optional[_Union[_common_pb2.Outcome, _Mapping]] = ..., deal_secret: _Optional[str] = ...) -> None: ...

class RoomUpdate(_message.Message):
    __slots__ = ("room_id", "version", "events", "status", "to_act", "clock", "viewer", "time", "legal_moves", "clocks")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    LEGAL_MOVES_FIELD_NUMBER: _ClassVar[int]
    CLOCKS_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    version: int
    events: _containers.RepeatedCompositeFieldContainer[RoomEvent]
    status: _common_pb2.RoomStatus
    to_act: _containers.RepeatedScalarFieldContainer[int]
    clock: _common_pb2.TurnClock
    viewer: int
    time: _timestamp_pb2.Timestamp
    legal_moves: _containers.RepeatedCompositeFieldContainer[Move]
    clocks: _containers.RepeatedCompositeFieldContainer[_common_pb2.TurnClock]
    def __init__(self, room_id: _Optional[str] = ..., version: _Optional[int] = ..., events: _Optional[_Iterable[_Union[RoomEvent, _Mapping]]] = ..., status: _Optional[_Union[_common_pb2.RoomStatus, str]] = ..., to_act: _Optional[_Iterable[int]] = ..., clock: _Optional[_Union[_common_pb2.TurnClock, _Mapping]] = ..., viewer: _Optional[int] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., legal_moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., clocks: _Optional[_Iterable[_Union[_common_pb2.TurnClock, _Mapping]]] = ...) -> None: ...

class GetViewRequest(_message.Message):
    __slots__ = ("room_id", "invitation_token")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    INVITATION_TOKEN_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    invitation_token: str
    def __init__(self, room_id: _Optional[str] = ..., invitation_token: _Optional[str] = ...) -> None: ...

class GetViewResponse(_message.Message):
    __slots__ = ("version", "viewer", "view", "to_act", "clock", "clocks")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    CLOCKS_FIELD_NUMBER: _ClassVar[int]
    version: int
    viewer: int
    view: View
    to_act: _containers.RepeatedScalarFieldContainer[int]
    clock: _common_pb2.TurnClock
    clocks: _containers.RepeatedCompositeFieldContainer[_common_pb2.TurnClock]
    def __init__(self, version: _Optional[int] = ..., viewer: _Optional[int] = ..., view: _Optional[_Union[View, _Mapping]] = ..., to_act: _Optional[_Iterable[int]] = ..., clock: _Optional[_Union[_common_pb2.TurnClock, _Mapping]] = ..., clocks: _Optional[_Iterable[_Union[_common_pb2.TurnClock, _Mapping]]] = ...) -> None: ...

class ListLegalMovesRequest(_message.Message):
    __slots__ = ("room_id",)
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    def __init__(self, room_id: _Optional[str] = ...) -> None: ...

class ListLegalMovesResponse(_message.Message):
    __slots__ = ("version", "moves")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    version: int
    moves: _containers.RepeatedCompositeFieldContainer[Move]
    def __init__(self, version: _Optional[int] = ..., moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ...) -> None: ...

class SubmitMoveRequest(_message.Message):
    __slots__ = ("room_id", "move", "request_id", "expected_version")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    move: Move
    request_id: str
    expected_version: int
    def __init__(self, room_id: _Optional[str] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., request_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class SubmitMoveResponse(_message.Message):
    __slots__ = ("version", "update")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    UPDATE_FIELD_NUMBER: _ClassVar[int]
    version: int
    update: RoomUpdate
    def __init__(self, version: _Optional[int] = ..., update: _Optional[_Union[RoomUpdate, _Mapping]] = ...) -> None: ...

class StreamEventsRequest(_message.Message):
    __slots__ = ("room_id", "after_version", "ticket", "invitation_token", "after_chat_seq")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_VERSION_FIELD_NUMBER: _ClassVar[int]
    TICKET_FIELD_NUMBER: _ClassVar[int]
    INVITATION_TOKEN_FIELD_NUMBER: _ClassVar[int]
    AFTER_CHAT_SEQ_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    after_version: int
    ticket: str
    invitation_token: str
    after_chat_seq: int
    def __init__(self, room_id: _Optional[str] = ..., after_version: _Optional[int] = ..., ticket: _Optional[str] = ..., invitation_token: _Optional[str] = ..., after_chat_seq: _Optional[int] = ...) -> None: ...

class CreateStreamTicketRequest(_message.Message):
    __slots__ = ("room_id",)
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    def __init__(self, room_id: _Optional[str] = ...) -> None: ...

class CreateStreamTicketResponse(_message.Message):
    __slots__ = ("ticket", "expire_time")
    TICKET_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    ticket: str
    expire_time: _timestamp_pb2.Timestamp
    def __init__(self, ticket: _Optional[str] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class StreamEventsResponse(_message.Message):
    __slots__ = ("update", "chat")
    UPDATE_FIELD_NUMBER: _ClassVar[int]
    CHAT_FIELD_NUMBER: _ClassVar[int]
    update: RoomUpdate
    chat: _chat_pb2.ChatMessage
    def __init__(self, update: _Optional[_Union[RoomUpdate, _Mapping]] = ..., chat: _Optional[_Union[_chat_pb2.ChatMessage, _Mapping]] = ...) -> None: ...

class PlayRequest(_message.Message):
    __slots__ = ("hello", "move")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    hello: PlayHello
    move: SubmitMoveRequest
    def __init__(self, hello: _Optional[_Union[PlayHello, _Mapping]] = ..., move: _Optional[_Union[SubmitMoveRequest, _Mapping]] = ...) -> None: ...

class PlayHello(_message.Message):
    __slots__ = ("room_id", "after_version", "after_chat_seq")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_VERSION_FIELD_NUMBER: _ClassVar[int]
    AFTER_CHAT_SEQ_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    after_version: int
    after_chat_seq: int
    def __init__(self, room_id: _Optional[str] = ..., after_version: _Optional[int] = ..., after_chat_seq: _Optional[int] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("update", "result", "chat")
    UPDATE_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    CHAT_FIELD_NUMBER: _ClassVar[int]
    update: RoomUpdate
    result: MoveResult
    chat: _chat_pb2.ChatMessage
    def __init__(self, update: _Optional[_Union[RoomUpdate, _Mapping]] = ..., result: _Optional[_Union[MoveResult, _Mapping]] = ..., chat: _Optional[_Union[_chat_pb2.ChatMessage, _Mapping]] = ...) -> None: ...

class MoveResult(_message.Message):
    __slots__ = ("request_id", "accepted", "version", "error")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    accepted: bool
    version: int
    error: _status_pb2.Status
    def __init__(self, request_id: _Optional[str] = ..., accepted: _Optional[bool] = ..., version: _Optional[int] = ..., error: _Optional[_Union[_status_pb2.Status, _Mapping]] = ...) -> None: ...

class GetReplayRequest(_message.Message):
    __slots__ = ("room_id", "after_version", "page_size", "invitation_token")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_VERSION_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    INVITATION_TOKEN_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    after_version: int
    page_size: int
    invitation_token: str
    def __init__(self, room_id: _Optional[str] = ..., after_version: _Optional[int] = ..., page_size: _Optional[int] = ..., invitation_token: _Optional[str] = ...) -> None: ...

class ReplayStep(_message.Message):
    __slots__ = ("update", "view", "hands", "move")
    UPDATE_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    update: RoomUpdate
    view: View
    hands: _containers.RepeatedCompositeFieldContainer[View]
    move: ReplayMove
    def __init__(self, update: _Optional[_Union[RoomUpdate, _Mapping]] = ..., view: _Optional[_Union[View, _Mapping]] = ..., hands: _Optional[_Iterable[_Union[View, _Mapping]]] = ..., move: _Optional[_Union[ReplayMove, _Mapping]] = ...) -> None: ...

class ReplayMove(_message.Message):
    __slots__ = ("seat", "text", "by_table")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    BY_TABLE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    text: str
    by_table: bool
    def __init__(self, seat: _Optional[int] = ..., text: _Optional[str] = ..., by_table: _Optional[bool] = ...) -> None: ...

class GetReplayResponse(_message.Message):
    __slots__ = ("room", "steps", "revealed", "last_version", "next_after_version", "rematch_room_id", "chat")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    REVEALED_FIELD_NUMBER: _ClassVar[int]
    LAST_VERSION_FIELD_NUMBER: _ClassVar[int]
    NEXT_AFTER_VERSION_FIELD_NUMBER: _ClassVar[int]
    REMATCH_ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    CHAT_FIELD_NUMBER: _ClassVar[int]
    room: _room_pb2.Room
    steps: _containers.RepeatedCompositeFieldContainer[ReplayStep]
    revealed: bool
    last_version: int
    next_after_version: int
    rematch_room_id: str
    chat: _containers.RepeatedCompositeFieldContainer[_chat_pb2.ChatMessage]
    def __init__(self, room: _Optional[_Union[_room_pb2.Room, _Mapping]] = ..., steps: _Optional[_Iterable[_Union[ReplayStep, _Mapping]]] = ..., revealed: _Optional[bool] = ..., last_version: _Optional[int] = ..., next_after_version: _Optional[int] = ..., rematch_room_id: _Optional[str] = ..., chat: _Optional[_Iterable[_Union[_chat_pb2.ChatMessage, _Mapping]]] = ...) -> None: ...
