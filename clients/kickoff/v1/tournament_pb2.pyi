import datetime

from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from kickoff.v1 import common_pb2 as _common_pb2
from kickoff.v1 import limits_pb2 as _limits_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TournamentStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOURNAMENT_STATUS_UNSPECIFIED: _ClassVar[TournamentStatus]
    TOURNAMENT_STATUS_WAITING: _ClassVar[TournamentStatus]
    TOURNAMENT_STATUS_PLAYING: _ClassVar[TournamentStatus]
    TOURNAMENT_STATUS_FINISHED: _ClassVar[TournamentStatus]
TOURNAMENT_STATUS_UNSPECIFIED: TournamentStatus
TOURNAMENT_STATUS_WAITING: TournamentStatus
TOURNAMENT_STATUS_PLAYING: TournamentStatus
TOURNAMENT_STATUS_FINISHED: TournamentStatus

class CreateTournamentRequest(_message.Message):
    __slots__ = ("game", "system_players", "mode", "options", "system_player", "think_seconds", "request_id", "duplicate")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_PLAYER_FIELD_NUMBER: _ClassVar[int]
    THINK_SECONDS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    game: str
    system_players: int
    mode: _common_pb2.RoomMode
    options: _struct_pb2.Struct
    system_player: str
    think_seconds: float
    request_id: str
    duplicate: bool
    def __init__(self, game: _Optional[str] = ..., system_players: _Optional[int] = ..., mode: _Optional[_Union[_common_pb2.RoomMode, str]] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., system_player: _Optional[str] = ..., think_seconds: _Optional[float] = ..., request_id: _Optional[str] = ..., duplicate: _Optional[bool] = ...) -> None: ...

class CreateTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class TournamentGame(_message.Message):
    __slots__ = ("index", "room_id", "first_seat", "status", "outcome", "deal", "table_seats")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    TABLE_SEATS_FIELD_NUMBER: _ClassVar[int]
    index: int
    room_id: str
    first_seat: int
    status: _common_pb2.RoomStatus
    outcome: _common_pb2.Outcome
    deal: int
    table_seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, index: _Optional[int] = ..., room_id: _Optional[str] = ..., first_seat: _Optional[int] = ..., status: _Optional[_Union[_common_pb2.RoomStatus, str]] = ..., outcome: _Optional[_Union[_common_pb2.Outcome, _Mapping]] = ..., deal: _Optional[int] = ..., table_seats: _Optional[_Iterable[int]] = ...) -> None: ...

class Tournament(_message.Message):
    __slots__ = ("tournament_id", "game", "games", "games_played", "current_room_id", "standings", "created_at", "status", "mode", "seats", "game_list", "options", "version", "duplicate", "deals")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    GAMES_PLAYED_FIELD_NUMBER: _ClassVar[int]
    CURRENT_ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    GAME_LIST_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    game: str
    games: int
    games_played: int
    current_room_id: str
    standings: Standings
    created_at: _timestamp_pb2.Timestamp
    status: TournamentStatus
    mode: _common_pb2.RoomMode
    seats: _containers.RepeatedCompositeFieldContainer[_common_pb2.Seat]
    game_list: _containers.RepeatedCompositeFieldContainer[TournamentGame]
    options: _struct_pb2.Struct
    version: int
    duplicate: bool
    deals: _containers.RepeatedCompositeFieldContainer[_common_pb2.Deal]
    def __init__(self, tournament_id: _Optional[str] = ..., game: _Optional[str] = ..., games: _Optional[int] = ..., games_played: _Optional[int] = ..., current_room_id: _Optional[str] = ..., standings: _Optional[_Union[Standings, _Mapping]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., status: _Optional[_Union[TournamentStatus, str]] = ..., mode: _Optional[_Union[_common_pb2.RoomMode, str]] = ..., seats: _Optional[_Iterable[_Union[_common_pb2.Seat, _Mapping]]] = ..., game_list: _Optional[_Iterable[_Union[TournamentGame, _Mapping]]] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., version: _Optional[int] = ..., duplicate: _Optional[bool] = ..., deals: _Optional[_Iterable[_Union[_common_pb2.Deal, _Mapping]]] = ...) -> None: ...

class GetTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class GetTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class ListTournamentsRequest(_message.Message):
    __slots__ = ("status", "page_size", "page_token")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    status: TournamentStatus
    page_size: int
    page_token: str
    def __init__(self, status: _Optional[_Union[TournamentStatus, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListTournamentsResponse(_message.Message):
    __slots__ = ("tournaments", "next_page_token")
    TOURNAMENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournaments: _containers.RepeatedCompositeFieldContainer[Tournament]
    next_page_token: str
    def __init__(self, tournaments: _Optional[_Iterable[_Union[Tournament, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class JoinTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "seat", "name", "request_id", "seed")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    seat: int
    name: str
    request_id: str
    seed: str
    def __init__(self, tournament_id: _Optional[str] = ..., seat: _Optional[int] = ..., name: _Optional[str] = ..., request_id: _Optional[str] = ..., seed: _Optional[str] = ...) -> None: ...

class JoinTournamentResponse(_message.Message):
    __slots__ = ("tournament", "seat", "seat_token")
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    seat: int
    seat_token: str
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ..., seat: _Optional[int] = ..., seat_token: _Optional[str] = ...) -> None: ...

class LeaveTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class LeaveTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class GetStandingsRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class GetStandingsResponse(_message.Message):
    __slots__ = ("standings",)
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    standings: Standings
    def __init__(self, standings: _Optional[_Union[Standings, _Mapping]] = ...) -> None: ...

class Standings(_message.Message):
    __slots__ = ("lines", "final", "hands")
    LINES_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    lines: _containers.RepeatedCompositeFieldContainer[Standing]
    final: bool
    hands: _containers.RepeatedCompositeFieldContainer[HandComparison]
    def __init__(self, lines: _Optional[_Iterable[_Union[Standing, _Mapping]]] = ..., final: _Optional[bool] = ..., hands: _Optional[_Iterable[_Union[HandComparison, _Mapping]]] = ...) -> None: ...

class HandComparison(_message.Message):
    __slots__ = ("deal", "table_seat", "plays")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    TABLE_SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    deal: int
    table_seat: int
    plays: _containers.RepeatedCompositeFieldContainer[HandPlay]
    def __init__(self, deal: _Optional[int] = ..., table_seat: _Optional[int] = ..., plays: _Optional[_Iterable[_Union[HandPlay, _Mapping]]] = ...) -> None: ...

class HandPlay(_message.Message):
    __slots__ = ("seat", "name", "game", "points", "won")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    WON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    game: int
    points: int
    won: bool
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., game: _Optional[int] = ..., points: _Optional[int] = ..., won: _Optional[bool] = ...) -> None: ...

class Standing(_message.Message):
    __slots__ = ("place", "seat", "points", "games_won", "country_wins", "name", "tallies")
    PLACE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    GAMES_WON_FIELD_NUMBER: _ClassVar[int]
    COUNTRY_WINS_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TALLIES_FIELD_NUMBER: _ClassVar[int]
    place: int
    seat: int
    points: int
    games_won: int
    country_wins: int
    name: str
    tallies: _containers.RepeatedCompositeFieldContainer[Tally]
    def __init__(self, place: _Optional[int] = ..., seat: _Optional[int] = ..., points: _Optional[int] = ..., games_won: _Optional[int] = ..., country_wins: _Optional[int] = ..., name: _Optional[str] = ..., tallies: _Optional[_Iterable[_Union[Tally, _Mapping]]] = ...) -> None: ...

class Tally(_message.Message):
    __slots__ = ("name", "value")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    name: str
    value: int
    def __init__(self, name: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...

class StreamTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "after_version")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_VERSION_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    after_version: int
    def __init__(self, tournament_id: _Optional[str] = ..., after_version: _Optional[int] = ...) -> None: ...

class StreamTournamentResponse(_message.Message):
    __slots__ = ("update",)
    UPDATE_FIELD_NUMBER: _ClassVar[int]
    update: TournamentUpdate
    def __init__(self, update: _Optional[_Union[TournamentUpdate, _Mapping]] = ...) -> None: ...

class TournamentSeatTaken(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: _common_pb2.Seat
    def __init__(self, seat: _Optional[_Union[_common_pb2.Seat, _Mapping]] = ...) -> None: ...

class TournamentSeatLeft(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class TournamentGameStarted(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: TournamentGame
    def __init__(self, game: _Optional[_Union[TournamentGame, _Mapping]] = ...) -> None: ...

class TournamentGameEnded(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: TournamentGame
    def __init__(self, game: _Optional[_Union[TournamentGame, _Mapping]] = ...) -> None: ...

class StandingsChanged(_message.Message):
    __slots__ = ("standings",)
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    standings: Standings
    def __init__(self, standings: _Optional[_Union[Standings, _Mapping]] = ...) -> None: ...

class TournamentEnded(_message.Message):
    __slots__ = ("standings",)
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    standings: Standings
    def __init__(self, standings: _Optional[_Union[Standings, _Mapping]] = ...) -> None: ...

class TournamentEvent(_message.Message):
    __slots__ = ("seat_taken", "seat_left", "game_started", "game_ended", "standings_changed", "tournament_ended")
    SEAT_TAKEN_FIELD_NUMBER: _ClassVar[int]
    SEAT_LEFT_FIELD_NUMBER: _ClassVar[int]
    GAME_STARTED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_CHANGED_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ENDED_FIELD_NUMBER: _ClassVar[int]
    seat_taken: TournamentSeatTaken
    seat_left: TournamentSeatLeft
    game_started: TournamentGameStarted
    game_ended: TournamentGameEnded
    standings_changed: StandingsChanged
    tournament_ended: TournamentEnded
    def __init__(self, seat_taken: _Optional[_Union[TournamentSeatTaken, _Mapping]] = ..., seat_left: _Optional[_Union[TournamentSeatLeft, _Mapping]] = ..., game_started: _Optional[_Union[TournamentGameStarted, _Mapping]] = ..., game_ended: _Optional[_Union[TournamentGameEnded, _Mapping]] = ..., standings_changed: _Optional[_Union[StandingsChanged, _Mapping]] = ..., tournament_ended: _Optional[_Union[TournamentEnded, _Mapping]] = ...) -> None: ...

class TournamentUpdate(_message.Message):
    __slots__ = ("tournament", "version", "events", "time")
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    version: int
    events: _containers.RepeatedCompositeFieldContainer[TournamentEvent]
    time: _timestamp_pb2.Timestamp
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ..., version: _Optional[int] = ..., events: _Optional[_Iterable[_Union[TournamentEvent, _Mapping]]] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
