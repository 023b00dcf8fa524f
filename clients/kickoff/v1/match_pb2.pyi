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

class TicketStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TICKET_STATUS_UNSPECIFIED: _ClassVar[TicketStatus]
    TICKET_STATUS_SEARCHING: _ClassVar[TicketStatus]
    TICKET_STATUS_PROPOSED: _ClassVar[TicketStatus]
    TICKET_STATUS_MATCHED: _ClassVar[TicketStatus]
    TICKET_STATUS_CANCELLED: _ClassVar[TicketStatus]
    TICKET_STATUS_EXPIRED: _ClassVar[TicketStatus]
    TICKET_STATUS_FORMING: _ClassVar[TicketStatus]
TICKET_STATUS_UNSPECIFIED: TicketStatus
TICKET_STATUS_SEARCHING: TicketStatus
TICKET_STATUS_PROPOSED: TicketStatus
TICKET_STATUS_MATCHED: TicketStatus
TICKET_STATUS_CANCELLED: TicketStatus
TICKET_STATUS_EXPIRED: TicketStatus
TICKET_STATUS_FORMING: TicketStatus

class Ticket(_message.Message):
    __slots__ = ("ticket_id", "game", "status", "seat_counts", "options", "members", "rating", "create_time", "expire_time", "table", "version", "reason", "returned", "mode")
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SEAT_COUNTS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    MEMBERS_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RETURNED_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    game: str
    status: TicketStatus
    seat_counts: _containers.RepeatedScalarFieldContainer[int]
    options: _struct_pb2.Struct
    members: _containers.RepeatedCompositeFieldContainer[TicketMember]
    rating: float
    create_time: _timestamp_pb2.Timestamp
    expire_time: _timestamp_pb2.Timestamp
    table: MatchedTable
    version: int
    reason: str
    returned: int
    mode: _common_pb2.RoomMode
    def __init__(self, ticket_id: _Optional[str] = ..., game: _Optional[str] = ..., status: _Optional[_Union[TicketStatus, str]] = ..., seat_counts: _Optional[_Iterable[int]] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., members: _Optional[_Iterable[_Union[TicketMember, _Mapping]]] = ..., rating: _Optional[float] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., table: _Optional[_Union[MatchedTable, _Mapping]] = ..., version: _Optional[int] = ..., reason: _Optional[str] = ..., returned: _Optional[int] = ..., mode: _Optional[_Union[_common_pb2.RoomMode, str]] = ...) -> None: ...

class TicketMember(_message.Message):
    __slots__ = ("player_id", "name", "accepted", "joined")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    JOINED_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    name: str
    accepted: bool
    joined: bool
    def __init__(self, player_id: _Optional[str] = ..., name: _Optional[str] = ..., accepted: _Optional[bool] = ..., joined: _Optional[bool] = ...) -> None: ...

class MatchedTable(_message.Message):
    __slots__ = ("room_id", "seats", "table_seats", "seat", "seat_token", "take_up_time", "system_player", "rating_spread")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TABLE_SEATS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TAKE_UP_TIME_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_PLAYER_FIELD_NUMBER: _ClassVar[int]
    RATING_SPREAD_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    seats: int
    table_seats: _containers.RepeatedCompositeFieldContainer[TableSeat]
    seat: int
    seat_token: str
    take_up_time: _timestamp_pb2.Timestamp
    system_player: str
    rating_spread: float
    def __init__(self, room_id: _Optional[str] = ..., seats: _Optional[int] = ..., table_seats: _Optional[_Iterable[_Union[TableSeat, _Mapping]]] = ..., seat: _Optional[int] = ..., seat_token: _Optional[str] = ..., take_up_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., system_player: _Optional[str] = ..., rating_spread: _Optional[float] = ...) -> None: ...

class TableSeat(_message.Message):
    __slots__ = ("seat", "kind", "player_id", "name", "accepted", "team")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: _common_pb2.SeatKind
    player_id: str
    name: str
    accepted: bool
    team: int
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[_common_pb2.SeatKind, str]] = ..., player_id: _Optional[str] = ..., name: _Optional[str] = ..., accepted: _Optional[bool] = ..., team: _Optional[int] = ...) -> None: ...

class EnqueueRequest(_message.Message):
    __slots__ = ("game", "seat_counts", "mode", "options", "party", "request_id")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_COUNTS_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PARTY_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    game: str
    seat_counts: _containers.RepeatedScalarFieldContainer[int]
    mode: _common_pb2.RoomMode
    options: _struct_pb2.Struct
    party: _containers.RepeatedScalarFieldContainer[str]
    request_id: str
    def __init__(self, game: _Optional[str] = ..., seat_counts: _Optional[_Iterable[int]] = ..., mode: _Optional[_Union[_common_pb2.RoomMode, str]] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., party: _Optional[_Iterable[str]] = ..., request_id: _Optional[str] = ...) -> None: ...

class EnqueueResponse(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: Ticket
    def __init__(self, ticket: _Optional[_Union[Ticket, _Mapping]] = ...) -> None: ...

class GetTicketRequest(_message.Message):
    __slots__ = ("ticket_id",)
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    def __init__(self, ticket_id: _Optional[str] = ...) -> None: ...

class GetTicketResponse(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: Ticket
    def __init__(self, ticket: _Optional[_Union[Ticket, _Mapping]] = ...) -> None: ...

class JoinTicketRequest(_message.Message):
    __slots__ = ("ticket_id", "party_token")
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    PARTY_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    party_token: str
    def __init__(self, ticket_id: _Optional[str] = ..., party_token: _Optional[str] = ...) -> None: ...

class JoinTicketResponse(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: Ticket
    def __init__(self, ticket: _Optional[_Union[Ticket, _Mapping]] = ...) -> None: ...

class FollowTicketRequest(_message.Message):
    __slots__ = ("ticket_id",)
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    def __init__(self, ticket_id: _Optional[str] = ...) -> None: ...

class FollowTicketResponse(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: Ticket
    def __init__(self, ticket: _Optional[_Union[Ticket, _Mapping]] = ...) -> None: ...

class AcceptMatchRequest(_message.Message):
    __slots__ = ("ticket_id", "seed")
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    seed: str
    def __init__(self, ticket_id: _Optional[str] = ..., seed: _Optional[str] = ...) -> None: ...

class AcceptMatchResponse(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: Ticket
    def __init__(self, ticket: _Optional[_Union[Ticket, _Mapping]] = ...) -> None: ...

class CancelTicketRequest(_message.Message):
    __slots__ = ("ticket_id",)
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    def __init__(self, ticket_id: _Optional[str] = ...) -> None: ...

class CancelTicketResponse(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: Ticket
    def __init__(self, ticket: _Optional[_Union[Ticket, _Mapping]] = ...) -> None: ...

class ListMyTicketsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListMyTicketsResponse(_message.Message):
    __slots__ = ("tickets",)
    TICKETS_FIELD_NUMBER: _ClassVar[int]
    tickets: _containers.RepeatedCompositeFieldContainer[Ticket]
    def __init__(self, tickets: _Optional[_Iterable[_Union[Ticket, _Mapping]]] = ...) -> None: ...

class DeclineTicketRequest(_message.Message):
    __slots__ = ("ticket_id",)
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    def __init__(self, ticket_id: _Optional[str] = ...) -> None: ...

class DeclineTicketResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PartyLink(_message.Message):
    __slots__ = ("link_id", "ticket_id", "max_uses", "uses", "create_time", "expire_time", "revoked")
    LINK_ID_FIELD_NUMBER: _ClassVar[int]
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    MAX_USES_FIELD_NUMBER: _ClassVar[int]
    USES_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    REVOKED_FIELD_NUMBER: _ClassVar[int]
    link_id: str
    ticket_id: str
    max_uses: int
    uses: int
    create_time: _timestamp_pb2.Timestamp
    expire_time: _timestamp_pb2.Timestamp
    revoked: bool
    def __init__(self, link_id: _Optional[str] = ..., ticket_id: _Optional[str] = ..., max_uses: _Optional[int] = ..., uses: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., revoked: _Optional[bool] = ...) -> None: ...

class CreatePartyLinkRequest(_message.Message):
    __slots__ = ("ticket_id", "max_uses", "expires_in_seconds")
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    MAX_USES_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    max_uses: int
    expires_in_seconds: int
    def __init__(self, ticket_id: _Optional[str] = ..., max_uses: _Optional[int] = ..., expires_in_seconds: _Optional[int] = ...) -> None: ...

class CreatePartyLinkResponse(_message.Message):
    __slots__ = ("link", "token")
    LINK_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    link: PartyLink
    token: str
    def __init__(self, link: _Optional[_Union[PartyLink, _Mapping]] = ..., token: _Optional[str] = ...) -> None: ...

class RevokePartyLinkRequest(_message.Message):
    __slots__ = ("ticket_id", "link_id")
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    LINK_ID_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    link_id: str
    def __init__(self, ticket_id: _Optional[str] = ..., link_id: _Optional[str] = ...) -> None: ...

class RevokePartyLinkResponse(_message.Message):
    __slots__ = ("link",)
    LINK_FIELD_NUMBER: _ClassVar[int]
    link: PartyLink
    def __init__(self, link: _Optional[_Union[PartyLink, _Mapping]] = ...) -> None: ...
