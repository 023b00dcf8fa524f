import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from kickoff.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CreateTournamentRequest(_message.Message):
    __slots__ = ("game", "system_players", "mode")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    game: str
    system_players: int
    mode: _common_pb2.RoomMode
    def __init__(self, game: _Optional[str] = ..., system_players: _Optional[int] = ..., mode: _Optional[_Union[_common_pb2.RoomMode, str]] = ...) -> None: ...

class Tournament(_message.Message):
    __slots__ = ("tournament_id", "game", "games", "games_played", "current_room_id", "standings", "created_at")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    GAMES_PLAYED_FIELD_NUMBER: _ClassVar[int]
    CURRENT_ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    game: str
    games: int
    games_played: int
    current_room_id: str
    standings: Standings
    created_at: _timestamp_pb2.Timestamp
    def __init__(self, tournament_id: _Optional[str] = ..., game: _Optional[str] = ..., games: _Optional[int] = ..., games_played: _Optional[int] = ..., current_room_id: _Optional[str] = ..., standings: _Optional[_Union[Standings, _Mapping]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class GetStandingsRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class Standings(_message.Message):
    __slots__ = ("lines",)
    LINES_FIELD_NUMBER: _ClassVar[int]
    lines: _containers.RepeatedCompositeFieldContainer[Standing]
    def __init__(self, lines: _Optional[_Iterable[_Union[Standing, _Mapping]]] = ...) -> None: ...

class Standing(_message.Message):
    __slots__ = ("place", "seat", "points", "games_won", "country_wins")
    PLACE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    GAMES_WON_FIELD_NUMBER: _ClassVar[int]
    COUNTRY_WINS_FIELD_NUMBER: _ClassVar[int]
    place: int
    seat: int
    points: int
    games_won: int
    country_wins: int
    def __init__(self, place: _Optional[int] = ..., seat: _Optional[int] = ..., points: _Optional[int] = ..., games_won: _Optional[int] = ..., country_wins: _Optional[int] = ...) -> None: ...

class StreamTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class TournamentUpdate(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...
