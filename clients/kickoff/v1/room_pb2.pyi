import datetime

from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from kickoff.v1 import chat_pb2 as _chat_pb2
from kickoff.v1 import common_pb2 as _common_pb2
from kickoff.v1 import limits_pb2 as _limits_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RematchFill(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REMATCH_FILL_UNSPECIFIED: _ClassVar[RematchFill]
    REMATCH_FILL_NO_REMATCH: _ClassVar[RematchFill]
    REMATCH_FILL_SYSTEM_PLAYER: _ClassVar[RematchFill]

class RematchStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REMATCH_STATUS_UNSPECIFIED: _ClassVar[RematchStatus]
    REMATCH_STATUS_OPEN: _ClassVar[RematchStatus]
    REMATCH_STATUS_MADE: _ClassVar[RematchStatus]
    REMATCH_STATUS_REFUSED: _ClassVar[RematchStatus]

class RematchAnswer(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REMATCH_ANSWER_UNSPECIFIED: _ClassVar[RematchAnswer]
    REMATCH_ANSWER_WAITING: _ClassVar[RematchAnswer]
    REMATCH_ANSWER_ACCEPTED: _ClassVar[RematchAnswer]
    REMATCH_ANSWER_DECLINED: _ClassVar[RematchAnswer]
    REMATCH_ANSWER_NO_ANSWER: _ClassVar[RematchAnswer]
REMATCH_FILL_UNSPECIFIED: RematchFill
REMATCH_FILL_NO_REMATCH: RematchFill
REMATCH_FILL_SYSTEM_PLAYER: RematchFill
REMATCH_STATUS_UNSPECIFIED: RematchStatus
REMATCH_STATUS_OPEN: RematchStatus
REMATCH_STATUS_MADE: RematchStatus
REMATCH_STATUS_REFUSED: RematchStatus
REMATCH_ANSWER_UNSPECIFIED: RematchAnswer
REMATCH_ANSWER_WAITING: RematchAnswer
REMATCH_ANSWER_ACCEPTED: RematchAnswer
REMATCH_ANSWER_DECLINED: RematchAnswer
REMATCH_ANSWER_NO_ANSWER: RematchAnswer

class Room(_message.Message):
    __slots__ = ("room_id", "game", "mode", "status", "seats", "options", "version", "outcome", "created_at", "clock", "to_act", "tournament_id", "tournament_game", "clocks", "rated", "correspondence_hours", "stand_ins", "unrated_reason", "unlisted", "rematch", "rematch_fill", "chat", "team_chat", "deal")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_GAME_FIELD_NUMBER: _ClassVar[int]
    CLOCKS_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    CORRESPONDENCE_HOURS_FIELD_NUMBER: _ClassVar[int]
    STAND_INS_FIELD_NUMBER: _ClassVar[int]
    UNRATED_REASON_FIELD_NUMBER: _ClassVar[int]
    UNLISTED_FIELD_NUMBER: _ClassVar[int]
    REMATCH_FIELD_NUMBER: _ClassVar[int]
    REMATCH_FILL_FIELD_NUMBER: _ClassVar[int]
    CHAT_FIELD_NUMBER: _ClassVar[int]
    TEAM_CHAT_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    game: str
    mode: _common_pb2.RoomMode
    status: _common_pb2.RoomStatus
    seats: _containers.RepeatedCompositeFieldContainer[_common_pb2.Seat]
    options: _struct_pb2.Struct
    version: int
    outcome: _common_pb2.Outcome
    created_at: _timestamp_pb2.Timestamp
    clock: _common_pb2.TurnClock
    to_act: _containers.RepeatedScalarFieldContainer[int]
    tournament_id: str
    tournament_game: int
    clocks: _containers.RepeatedCompositeFieldContainer[_common_pb2.TurnClock]
    rated: bool
    correspondence_hours: int
    stand_ins: bool
    unrated_reason: str
    unlisted: bool
    rematch: Rematch
    rematch_fill: RematchFill
    chat: _chat_pb2.ChatMode
    team_chat: bool
    deal: _common_pb2.Deal
    def __init__(self, room_id: _Optional[str] = ..., game: _Optional[str] = ..., mode: _Optional[_Union[_common_pb2.RoomMode, str]] = ..., status: _Optional[_Union[_common_pb2.RoomStatus, str]] = ..., seats: _Optional[_Iterable[_Union[_common_pb2.Seat, _Mapping]]] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., version: _Optional[int] = ..., outcome: _Optional[_Union[_common_pb2.Outcome, _Mapping]] = ..., created_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., clock: _Optional[_Union[_common_pb2.TurnClock, _Mapping]] = ..., to_act: _Optional[_Iterable[int]] = ..., tournament_id: _Optional[str] = ..., tournament_game: _Optional[int] = ..., clocks: _Optional[_Iterable[_Union[_common_pb2.TurnClock, _Mapping]]] = ..., rated: _Optional[bool] = ..., correspondence_hours: _Optional[int] = ..., stand_ins: _Optional[bool] = ..., unrated_reason: _Optional[str] = ..., unlisted: _Optional[bool] = ..., rematch: _Optional[_Union[Rematch, _Mapping]] = ..., rematch_fill: _Optional[_Union[RematchFill, str]] = ..., chat: _Optional[_Union[_chat_pb2.ChatMode, str]] = ..., team_chat: _Optional[bool] = ..., deal: _Optional[_Union[_common_pb2.Deal, _Mapping]] = ...) -> None: ...

class RematchSeat(_message.Message):
    __slots__ = ("seat", "answer", "filled")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    FILLED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    answer: RematchAnswer
    filled: bool
    def __init__(self, seat: _Optional[int] = ..., answer: _Optional[_Union[RematchAnswer, str]] = ..., filled: _Optional[bool] = ...) -> None: ...

class Rematch(_message.Message):
    __slots__ = ("status", "proposed_by", "seats", "deadline", "room_id", "reason")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PROPOSED_BY_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    status: RematchStatus
    proposed_by: int
    seats: _containers.RepeatedCompositeFieldContainer[RematchSeat]
    deadline: _timestamp_pb2.Timestamp
    room_id: str
    reason: str
    def __init__(self, status: _Optional[_Union[RematchStatus, str]] = ..., proposed_by: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[RematchSeat, _Mapping]]] = ..., deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., room_id: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class CreateRoomRequest(_message.Message):
    __slots__ = ("game", "mode", "seats", "system_players", "options", "system_player", "think_seconds", "system_seats", "rated", "choice", "correspondence_hours", "stand_ins", "request_id", "unlisted", "rematch_fill", "chat", "team_chat", "seed")
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_PLAYER_FIELD_NUMBER: _ClassVar[int]
    THINK_SECONDS_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_SEATS_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    CORRESPONDENCE_HOURS_FIELD_NUMBER: _ClassVar[int]
    STAND_INS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    UNLISTED_FIELD_NUMBER: _ClassVar[int]
    REMATCH_FILL_FIELD_NUMBER: _ClassVar[int]
    CHAT_FIELD_NUMBER: _ClassVar[int]
    TEAM_CHAT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    game: str
    mode: _common_pb2.RoomMode
    seats: int
    system_players: int
    options: _struct_pb2.Struct
    system_player: str
    think_seconds: float
    system_seats: _containers.RepeatedScalarFieldContainer[int]
    rated: bool
    choice: str
    correspondence_hours: int
    stand_ins: bool
    request_id: str
    unlisted: bool
    rematch_fill: RematchFill
    chat: _chat_pb2.ChatMode
    team_chat: bool
    seed: str
    def __init__(self, game: _Optional[str] = ..., mode: _Optional[_Union[_common_pb2.RoomMode, str]] = ..., seats: _Optional[int] = ..., system_players: _Optional[int] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., system_player: _Optional[str] = ..., think_seconds: _Optional[float] = ..., system_seats: _Optional[_Iterable[int]] = ..., rated: _Optional[bool] = ..., choice: _Optional[str] = ..., correspondence_hours: _Optional[int] = ..., stand_ins: _Optional[bool] = ..., request_id: _Optional[str] = ..., unlisted: _Optional[bool] = ..., rematch_fill: _Optional[_Union[RematchFill, str]] = ..., chat: _Optional[_Union[_chat_pb2.ChatMode, str]] = ..., team_chat: _Optional[bool] = ..., seed: _Optional[str] = ...) -> None: ...

class CreateRoomResponse(_message.Message):
    __slots__ = ("room", "seat", "seat_token")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    room: Room
    seat: int
    seat_token: str
    def __init__(self, room: _Optional[_Union[Room, _Mapping]] = ..., seat: _Optional[int] = ..., seat_token: _Optional[str] = ...) -> None: ...

class GetRoomRequest(_message.Message):
    __slots__ = ("room_id", "invitation_token")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    INVITATION_TOKEN_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    invitation_token: str
    def __init__(self, room_id: _Optional[str] = ..., invitation_token: _Optional[str] = ...) -> None: ...

class GetRoomResponse(_message.Message):
    __slots__ = ("room",)
    ROOM_FIELD_NUMBER: _ClassVar[int]
    room: Room
    def __init__(self, room: _Optional[_Union[Room, _Mapping]] = ...) -> None: ...

class ListRoomsRequest(_message.Message):
    __slots__ = ("game", "status", "page_size", "page_token")
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game: str
    status: _common_pb2.RoomStatus
    page_size: int
    page_token: str
    def __init__(self, game: _Optional[str] = ..., status: _Optional[_Union[_common_pb2.RoomStatus, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListRoomsResponse(_message.Message):
    __slots__ = ("rooms", "next_page_token")
    ROOMS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    rooms: _containers.RepeatedCompositeFieldContainer[Room]
    next_page_token: str
    def __init__(self, rooms: _Optional[_Iterable[_Union[Room, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class JoinRoomRequest(_message.Message):
    __slots__ = ("room_id", "seat", "name", "choice", "request_id", "invitation_token", "seed")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    INVITATION_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    seat: int
    name: str
    choice: str
    request_id: str
    invitation_token: str
    seed: str
    def __init__(self, room_id: _Optional[str] = ..., seat: _Optional[int] = ..., name: _Optional[str] = ..., choice: _Optional[str] = ..., request_id: _Optional[str] = ..., invitation_token: _Optional[str] = ..., seed: _Optional[str] = ...) -> None: ...

class JoinRoomResponse(_message.Message):
    __slots__ = ("room", "seat", "seat_token")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    room: Room
    seat: int
    seat_token: str
    def __init__(self, room: _Optional[_Union[Room, _Mapping]] = ..., seat: _Optional[int] = ..., seat_token: _Optional[str] = ...) -> None: ...

class LeaveRoomRequest(_message.Message):
    __slots__ = ("room_id",)
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    def __init__(self, room_id: _Optional[str] = ...) -> None: ...

class LeaveRoomResponse(_message.Message):
    __slots__ = ("room",)
    ROOM_FIELD_NUMBER: _ClassVar[int]
    room: Room
    def __init__(self, room: _Optional[_Union[Room, _Mapping]] = ...) -> None: ...

class InvitationLink(_message.Message):
    __slots__ = ("link_id", "room_id", "max_uses", "uses", "create_time", "expire_time", "revoked")
    LINK_ID_FIELD_NUMBER: _ClassVar[int]
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    MAX_USES_FIELD_NUMBER: _ClassVar[int]
    USES_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    REVOKED_FIELD_NUMBER: _ClassVar[int]
    link_id: str
    room_id: str
    max_uses: int
    uses: int
    create_time: _timestamp_pb2.Timestamp
    expire_time: _timestamp_pb2.Timestamp
    revoked: bool
    def __init__(self, link_id: _Optional[str] = ..., room_id: _Optional[str] = ..., max_uses: _Optional[int] = ..., uses: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., revoked: _Optional[bool] = ...) -> None: ...

class CreateInvitationLinkRequest(_message.Message):
    __slots__ = ("room_id", "max_uses", "expires_in_seconds")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    MAX_USES_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    max_uses: int
    expires_in_seconds: int
    def __init__(self, room_id: _Optional[str] = ..., max_uses: _Optional[int] = ..., expires_in_seconds: _Optional[int] = ...) -> None: ...

class CreateInvitationLinkResponse(_message.Message):
    __slots__ = ("link", "token", "url")
    LINK_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    link: InvitationLink
    token: str
    url: str
    def __init__(self, link: _Optional[_Union[InvitationLink, _Mapping]] = ..., token: _Optional[str] = ..., url: _Optional[str] = ...) -> None: ...

class ListInvitationLinksRequest(_message.Message):
    __slots__ = ("room_id",)
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    def __init__(self, room_id: _Optional[str] = ...) -> None: ...

class ListInvitationLinksResponse(_message.Message):
    __slots__ = ("links",)
    LINKS_FIELD_NUMBER: _ClassVar[int]
    links: _containers.RepeatedCompositeFieldContainer[InvitationLink]
    def __init__(self, links: _Optional[_Iterable[_Union[InvitationLink, _Mapping]]] = ...) -> None: ...

class RevokeInvitationLinkRequest(_message.Message):
    __slots__ = ("room_id", "link_id")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    LINK_ID_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    link_id: str
    def __init__(self, room_id: _Optional[str] = ..., link_id: _Optional[str] = ...) -> None: ...

class RevokeInvitationLinkResponse(_message.Message):
    __slots__ = ("link",)
    LINK_FIELD_NUMBER: _ClassVar[int]
    link: InvitationLink
    def __init__(self, link: _Optional[_Union[InvitationLink, _Mapping]] = ...) -> None: ...

class RoomInvitation(_message.Message):
    __slots__ = ("room_id", "game", "from_player_id", "from_name", "player_id", "name", "create_time")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    FROM_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_NAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    game: str
    from_player_id: str
    from_name: str
    player_id: str
    name: str
    create_time: _timestamp_pb2.Timestamp
    def __init__(self, room_id: _Optional[str] = ..., game: _Optional[str] = ..., from_player_id: _Optional[str] = ..., from_name: _Optional[str] = ..., player_id: _Optional[str] = ..., name: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class InviteToRoomRequest(_message.Message):
    __slots__ = ("room_id", "player_id")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    player_id: str
    def __init__(self, room_id: _Optional[str] = ..., player_id: _Optional[str] = ...) -> None: ...

class InviteToRoomResponse(_message.Message):
    __slots__ = ("invitation",)
    INVITATION_FIELD_NUMBER: _ClassVar[int]
    invitation: RoomInvitation
    def __init__(self, invitation: _Optional[_Union[RoomInvitation, _Mapping]] = ...) -> None: ...

class ListRoomInvitationsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListRoomInvitationsResponse(_message.Message):
    __slots__ = ("received", "sent")
    RECEIVED_FIELD_NUMBER: _ClassVar[int]
    SENT_FIELD_NUMBER: _ClassVar[int]
    received: _containers.RepeatedCompositeFieldContainer[RoomInvitation]
    sent: _containers.RepeatedCompositeFieldContainer[RoomInvitation]
    def __init__(self, received: _Optional[_Iterable[_Union[RoomInvitation, _Mapping]]] = ..., sent: _Optional[_Iterable[_Union[RoomInvitation, _Mapping]]] = ...) -> None: ...

class AcceptRoomInvitationRequest(_message.Message):
    __slots__ = ("room_id", "seed")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    seed: str
    def __init__(self, room_id: _Optional[str] = ..., seed: _Optional[str] = ...) -> None: ...

class ProposeRematchRequest(_message.Message):
    __slots__ = ("room_id", "seed")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    seed: str
    def __init__(self, room_id: _Optional[str] = ..., seed: _Optional[str] = ...) -> None: ...

class AcceptRoomInvitationResponse(_message.Message):
    __slots__ = ("room", "seat", "seat_token")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    room: Room
    seat: int
    seat_token: str
    def __init__(self, room: _Optional[_Union[Room, _Mapping]] = ..., seat: _Optional[int] = ..., seat_token: _Optional[str] = ...) -> None: ...

class DeclineRoomInvitationRequest(_message.Message):
    __slots__ = ("room_id",)
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    def __init__(self, room_id: _Optional[str] = ...) -> None: ...

class DeclineRoomInvitationResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class WithdrawRoomInvitationRequest(_message.Message):
    __slots__ = ("room_id", "player_id")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    player_id: str
    def __init__(self, room_id: _Optional[str] = ..., player_id: _Optional[str] = ...) -> None: ...

class WithdrawRoomInvitationResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ProposeRematchResponse(_message.Message):
    __slots__ = ("room",)
    ROOM_FIELD_NUMBER: _ClassVar[int]
    room: Room
    def __init__(self, room: _Optional[_Union[Room, _Mapping]] = ...) -> None: ...

class AnswerRematchRequest(_message.Message):
    __slots__ = ("room_id", "accept", "seed")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    ACCEPT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    accept: bool
    seed: str
    def __init__(self, room_id: _Optional[str] = ..., accept: _Optional[bool] = ..., seed: _Optional[str] = ...) -> None: ...

class AnswerRematchResponse(_message.Message):
    __slots__ = ("room", "seat", "seat_token")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    room: Room
    seat: int
    seat_token: str
    def __init__(self, room: _Optional[_Union[Room, _Mapping]] = ..., seat: _Optional[int] = ..., seat_token: _Optional[str] = ...) -> None: ...
