import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SeatKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_KIND_UNSPECIFIED: _ClassVar[SeatKind]
    SEAT_KIND_PERSON: _ClassVar[SeatKind]
    SEAT_KIND_SYSTEM: _ClassVar[SeatKind]

class RoomStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROOM_STATUS_UNSPECIFIED: _ClassVar[RoomStatus]
    ROOM_STATUS_WAITING: _ClassVar[RoomStatus]
    ROOM_STATUS_PLAYING: _ClassVar[RoomStatus]
    ROOM_STATUS_FINISHED: _ClassVar[RoomStatus]

class RoomMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROOM_MODE_UNSPECIFIED: _ClassVar[RoomMode]
    ROOM_MODE_ONLINE: _ClassVar[RoomMode]
    ROOM_MODE_SOLO: _ClassVar[RoomMode]

class SeatResult(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_RESULT_UNSPECIFIED: _ClassVar[SeatResult]
    SEAT_RESULT_WON: _ClassVar[SeatResult]
    SEAT_RESULT_LOST: _ClassVar[SeatResult]
    SEAT_RESULT_DRAWN: _ClassVar[SeatResult]
    SEAT_RESULT_SHARED_WIN: _ClassVar[SeatResult]
SEAT_KIND_UNSPECIFIED: SeatKind
SEAT_KIND_PERSON: SeatKind
SEAT_KIND_SYSTEM: SeatKind
ROOM_STATUS_UNSPECIFIED: RoomStatus
ROOM_STATUS_WAITING: RoomStatus
ROOM_STATUS_PLAYING: RoomStatus
ROOM_STATUS_FINISHED: RoomStatus
ROOM_MODE_UNSPECIFIED: RoomMode
ROOM_MODE_ONLINE: RoomMode
ROOM_MODE_SOLO: RoomMode
SEAT_RESULT_UNSPECIFIED: SeatResult
SEAT_RESULT_WON: SeatResult
SEAT_RESULT_LOST: SeatResult
SEAT_RESULT_DRAWN: SeatResult
SEAT_RESULT_SHARED_WIN: SeatResult

class Seat(_message.Message):
    __slots__ = ("seat", "kind", "taken", "name", "team", "choice", "player_id", "stand_in", "seed")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    STAND_IN_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: SeatKind
    taken: bool
    name: str
    team: int
    choice: str
    player_id: str
    stand_in: str
    seed: str
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[SeatKind, str]] = ..., taken: _Optional[bool] = ..., name: _Optional[str] = ..., team: _Optional[int] = ..., choice: _Optional[str] = ..., player_id: _Optional[str] = ..., stand_in: _Optional[str] = ..., seed: _Optional[str] = ...) -> None: ...

class Deal(_message.Message):
    __slots__ = ("scheme", "subject", "commitment", "seeds", "secret")
    SCHEME_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    SEEDS_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    scheme: str
    subject: str
    commitment: str
    seeds: _containers.RepeatedScalarFieldContainer[str]
    secret: str
    def __init__(self, scheme: _Optional[str] = ..., subject: _Optional[str] = ..., commitment: _Optional[str] = ..., seeds: _Optional[_Iterable[str]] = ..., secret: _Optional[str] = ...) -> None: ...

class Outcome(_message.Message):
    __slots__ = ("winners", "reason", "points", "winning_teams", "team_points", "results")
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    WINNING_TEAMS_FIELD_NUMBER: _ClassVar[int]
    TEAM_POINTS_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    reason: str
    points: _containers.RepeatedScalarFieldContainer[int]
    winning_teams: _containers.RepeatedScalarFieldContainer[int]
    team_points: _containers.RepeatedScalarFieldContainer[int]
    results: _containers.RepeatedScalarFieldContainer[SeatResult]
    def __init__(self, winners: _Optional[_Iterable[int]] = ..., reason: _Optional[str] = ..., points: _Optional[_Iterable[int]] = ..., winning_teams: _Optional[_Iterable[int]] = ..., team_points: _Optional[_Iterable[int]] = ..., results: _Optional[_Iterable[_Union[SeatResult, str]]] = ...) -> None: ...

class TurnClock(_message.Message):
    __slots__ = ("seat", "deadline", "turn_seconds")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    TURN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    deadline: _timestamp_pb2.Timestamp
    turn_seconds: int
    def __init__(self, seat: _Optional[int] = ..., deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., turn_seconds: _Optional[int] = ...) -> None: ...
