import datetime

from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from kickoff.v1 import common_pb2 as _common_pb2
from kickoff.v1 import limits_pb2 as _limits_pb2
from kickoff.v1 import room_pb2 as _room_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Player(_message.Message):
    __slots__ = ("player_id", "name", "created_at", "ratings", "identities", "kind")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    RATINGS_FIELD_NUMBER: _ClassVar[int]
    IDENTITIES_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    name: str
    created_at: _timestamp_pb2.Timestamp
    ratings: _containers.RepeatedCompositeFieldContainer[Rating]
    identities: _containers.RepeatedCompositeFieldContainer[Identity]
    kind: _common_pb2.SeatKind
    def __init__(self, player_id: _Optional[str] = ..., name: _Optional[str] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., ratings: _Optional[_Iterable[_Union[Rating, _Mapping]]] = ..., identities: _Optional[_Iterable[_Union[Identity, _Mapping]]] = ..., kind: _Optional[_Union[_common_pb2.SeatKind, str]] = ...) -> None: ...

class Identity(_message.Message):
    __slots__ = ("issuer", "subject", "linked_at")
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    LINKED_AT_FIELD_NUMBER: _ClassVar[int]
    issuer: str
    subject: str
    linked_at: _timestamp_pb2.Timestamp
    def __init__(self, issuer: _Optional[str] = ..., subject: _Optional[str] = ..., linked_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Rating(_message.Message):
    __slots__ = ("game", "mu", "sigma", "display", "games", "wins")
    GAME_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    game: str
    mu: float
    sigma: float
    display: float
    games: int
    wins: int
    def __init__(self, game: _Optional[str] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., display: _Optional[float] = ..., games: _Optional[int] = ..., wins: _Optional[int] = ...) -> None: ...

class Session(_message.Message):
    __slots__ = ("access_token", "access_expire_time", "refresh_token", "refresh_expire_time", "player")
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ACCESS_EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    REFRESH_EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    access_token: str
    access_expire_time: _timestamp_pb2.Timestamp
    refresh_token: str
    refresh_expire_time: _timestamp_pb2.Timestamp
    player: Player
    def __init__(self, access_token: _Optional[str] = ..., access_expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., refresh_token: _Optional[str] = ..., refresh_expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., player: _Optional[_Union[Player, _Mapping]] = ...) -> None: ...

class SignInAsGuestRequest(_message.Message):
    __slots__ = ("device_id", "name")
    DEVICE_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    device_id: str
    name: str
    def __init__(self, device_id: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class SignInAsGuestResponse(_message.Message):
    __slots__ = ("session", "created")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    session: Session
    created: bool
    def __init__(self, session: _Optional[_Union[Session, _Mapping]] = ..., created: _Optional[bool] = ...) -> None: ...

class SignInWithTokenRequest(_message.Message):
    __slots__ = ("id_token", "name")
    ID_TOKEN_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    id_token: str
    name: str
    def __init__(self, id_token: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class SignInWithTokenResponse(_message.Message):
    __slots__ = ("session", "created")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    session: Session
    created: bool
    def __init__(self, session: _Optional[_Union[Session, _Mapping]] = ..., created: _Optional[bool] = ...) -> None: ...

class RefreshSessionRequest(_message.Message):
    __slots__ = ("refresh_token",)
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    refresh_token: str
    def __init__(self, refresh_token: _Optional[str] = ...) -> None: ...

class RefreshSessionResponse(_message.Message):
    __slots__ = ("session",)
    SESSION_FIELD_NUMBER: _ClassVar[int]
    session: Session
    def __init__(self, session: _Optional[_Union[Session, _Mapping]] = ...) -> None: ...

class SignOutRequest(_message.Message):
    __slots__ = ("refresh_token",)
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    refresh_token: str
    def __init__(self, refresh_token: _Optional[str] = ...) -> None: ...

class SignOutResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class LinkIdentityRequest(_message.Message):
    __slots__ = ("id_token",)
    ID_TOKEN_FIELD_NUMBER: _ClassVar[int]
    id_token: str
    def __init__(self, id_token: _Optional[str] = ...) -> None: ...

class LinkIdentityResponse(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: Player
    def __init__(self, player: _Optional[_Union[Player, _Mapping]] = ...) -> None: ...

class GetPlayerRequest(_message.Message):
    __slots__ = ("player_id",)
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    def __init__(self, player_id: _Optional[str] = ...) -> None: ...

class GetPlayerResponse(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: Player
    def __init__(self, player: _Optional[_Union[Player, _Mapping]] = ...) -> None: ...

class UpdatePlayerRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class UpdatePlayerResponse(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: Player
    def __init__(self, player: _Optional[_Union[Player, _Mapping]] = ...) -> None: ...

class DeletePlayerRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DeletePlayerResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListMyRoomsRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class MyRoom(_message.Message):
    __slots__ = ("room", "seat", "my_turn")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MY_TURN_FIELD_NUMBER: _ClassVar[int]
    room: _room_pb2.Room
    seat: int
    my_turn: bool
    def __init__(self, room: _Optional[_Union[_room_pb2.Room, _Mapping]] = ..., seat: _Optional[int] = ..., my_turn: _Optional[bool] = ...) -> None: ...

class ListMyRoomsResponse(_message.Message):
    __slots__ = ("rooms", "next_page_token")
    ROOMS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    rooms: _containers.RepeatedCompositeFieldContainer[MyRoom]
    next_page_token: str
    def __init__(self, rooms: _Optional[_Iterable[_Union[MyRoom, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ListMyTurnsRequest(_message.Message):
    __slots__ = ("page_size",)
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    def __init__(self, page_size: _Optional[int] = ...) -> None: ...

class MyTurn(_message.Message):
    __slots__ = ("room_id", "game", "seat", "deadline", "correspondence_hours")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    CORRESPONDENCE_HOURS_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    game: str
    seat: int
    deadline: _timestamp_pb2.Timestamp
    correspondence_hours: int
    def __init__(self, room_id: _Optional[str] = ..., game: _Optional[str] = ..., seat: _Optional[int] = ..., deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., correspondence_hours: _Optional[int] = ...) -> None: ...

class ListMyTurnsResponse(_message.Message):
    __slots__ = ("turns",)
    TURNS_FIELD_NUMBER: _ClassVar[int]
    turns: _containers.RepeatedCompositeFieldContainer[MyTurn]
    def __init__(self, turns: _Optional[_Iterable[_Union[MyTurn, _Mapping]]] = ...) -> None: ...

class TakeSeatRequest(_message.Message):
    __slots__ = ("room_id",)
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    def __init__(self, room_id: _Optional[str] = ...) -> None: ...

class TakeSeatResponse(_message.Message):
    __slots__ = ("room", "seat", "seat_token")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    room: _room_pb2.Room
    seat: int
    seat_token: str
    def __init__(self, room: _Optional[_Union[_room_pb2.Room, _Mapping]] = ..., seat: _Optional[int] = ..., seat_token: _Optional[str] = ...) -> None: ...

class GetLeaderboardRequest(_message.Message):
    __slots__ = ("game", "page_size", "page_token")
    GAME_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game: str
    page_size: int
    page_token: str
    def __init__(self, game: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class LeaderboardLine(_message.Message):
    __slots__ = ("rank", "player_id", "name", "rating")
    RANK_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    rank: int
    player_id: str
    name: str
    rating: Rating
    def __init__(self, rank: _Optional[int] = ..., player_id: _Optional[str] = ..., name: _Optional[str] = ..., rating: _Optional[_Union[Rating, _Mapping]] = ...) -> None: ...

class GetLeaderboardResponse(_message.Message):
    __slots__ = ("lines", "next_page_token", "min_games")
    LINES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    MIN_GAMES_FIELD_NUMBER: _ClassVar[int]
    lines: _containers.RepeatedCompositeFieldContainer[LeaderboardLine]
    next_page_token: str
    min_games: int
    def __init__(self, lines: _Optional[_Iterable[_Union[LeaderboardLine, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., min_games: _Optional[int] = ...) -> None: ...

class GetRankRequest(_message.Message):
    __slots__ = ("game", "player_id", "neighbours")
    GAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NEIGHBOURS_FIELD_NUMBER: _ClassVar[int]
    game: str
    player_id: str
    neighbours: int
    def __init__(self, game: _Optional[str] = ..., player_id: _Optional[str] = ..., neighbours: _Optional[int] = ...) -> None: ...

class GetRankResponse(_message.Message):
    __slots__ = ("line", "above", "below", "ranked", "min_games", "rated_games", "games_to_play")
    LINE_FIELD_NUMBER: _ClassVar[int]
    ABOVE_FIELD_NUMBER: _ClassVar[int]
    BELOW_FIELD_NUMBER: _ClassVar[int]
    RANKED_FIELD_NUMBER: _ClassVar[int]
    MIN_GAMES_FIELD_NUMBER: _ClassVar[int]
    RATED_GAMES_FIELD_NUMBER: _ClassVar[int]
    GAMES_TO_PLAY_FIELD_NUMBER: _ClassVar[int]
    line: LeaderboardLine
    above: _containers.RepeatedCompositeFieldContainer[LeaderboardLine]
    below: _containers.RepeatedCompositeFieldContainer[LeaderboardLine]
    ranked: int
    min_games: int
    rated_games: int
    games_to_play: int
    def __init__(self, line: _Optional[_Union[LeaderboardLine, _Mapping]] = ..., above: _Optional[_Iterable[_Union[LeaderboardLine, _Mapping]]] = ..., below: _Optional[_Iterable[_Union[LeaderboardLine, _Mapping]]] = ..., ranked: _Optional[int] = ..., min_games: _Optional[int] = ..., rated_games: _Optional[int] = ..., games_to_play: _Optional[int] = ...) -> None: ...

class ListRatingChangesRequest(_message.Message):
    __slots__ = ("player_id", "game", "page_size", "page_token")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    game: str
    page_size: int
    page_token: str
    def __init__(self, player_id: _Optional[str] = ..., game: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class RatingChange(_message.Message):
    __slots__ = ("room_id", "game", "time", "before", "after", "place")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    BEFORE_FIELD_NUMBER: _ClassVar[int]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    game: str
    time: _timestamp_pb2.Timestamp
    before: Rating
    after: Rating
    place: int
    def __init__(self, room_id: _Optional[str] = ..., game: _Optional[str] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., before: _Optional[_Union[Rating, _Mapping]] = ..., after: _Optional[_Union[Rating, _Mapping]] = ..., place: _Optional[int] = ...) -> None: ...

class ListRatingChangesResponse(_message.Message):
    __slots__ = ("changes", "next_page_token")
    CHANGES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    changes: _containers.RepeatedCompositeFieldContainer[RatingChange]
    next_page_token: str
    def __init__(self, changes: _Optional[_Iterable[_Union[RatingChange, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ListPlayerGamesRequest(_message.Message):
    __slots__ = ("player_id", "game", "page_size", "page_token")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    game: str
    page_size: int
    page_token: str
    def __init__(self, player_id: _Optional[str] = ..., game: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class PlayerGame(_message.Message):
    __slots__ = ("room_id", "game", "ended_at", "seat", "place", "won", "rated", "outcome", "seats", "unrated_reason")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    ENDED_AT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    WON_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    UNRATED_REASON_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    game: str
    ended_at: _timestamp_pb2.Timestamp
    seat: int
    place: int
    won: bool
    rated: bool
    outcome: _common_pb2.Outcome
    seats: _containers.RepeatedCompositeFieldContainer[_common_pb2.Seat]
    unrated_reason: str
    def __init__(self, room_id: _Optional[str] = ..., game: _Optional[str] = ..., ended_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., seat: _Optional[int] = ..., place: _Optional[int] = ..., won: _Optional[bool] = ..., rated: _Optional[bool] = ..., outcome: _Optional[_Union[_common_pb2.Outcome, _Mapping]] = ..., seats: _Optional[_Iterable[_Union[_common_pb2.Seat, _Mapping]]] = ..., unrated_reason: _Optional[str] = ...) -> None: ...

class ListPlayerGamesResponse(_message.Message):
    __slots__ = ("games", "next_page_token", "played", "won")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    WON_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[PlayerGame]
    next_page_token: str
    played: int
    won: int
    def __init__(self, games: _Optional[_Iterable[_Union[PlayerGame, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., played: _Optional[int] = ..., won: _Optional[int] = ...) -> None: ...
