import datetime

from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from kickoff.v1 import chat_pb2 as _chat_pb2
from kickoff.v1 import common_pb2 as _common_pb2
from kickoff.v1 import limits_pb2 as _limits_pb2
from kickoff.v1 import move_pb2 as _move_pb2
from kickoff.v1 import room_pb2 as _room_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ClusterNode(_message.Message):
    __slots__ = ("node_id", "address", "alive", "expire_time", "start_time", "leases", "this_node")
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    ALIVE_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    LEASES_FIELD_NUMBER: _ClassVar[int]
    THIS_NODE_FIELD_NUMBER: _ClassVar[int]
    node_id: str
    address: str
    alive: bool
    expire_time: _timestamp_pb2.Timestamp
    start_time: _timestamp_pb2.Timestamp
    leases: int
    this_node: bool
    def __init__(self, node_id: _Optional[str] = ..., address: _Optional[str] = ..., alive: _Optional[bool] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., start_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., leases: _Optional[int] = ..., this_node: _Optional[bool] = ...) -> None: ...

class ListNodesRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListNodesResponse(_message.Message):
    __slots__ = ("nodes", "next_page_token", "cluster")
    NODES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    CLUSTER_FIELD_NUMBER: _ClassVar[int]
    nodes: _containers.RepeatedCompositeFieldContainer[ClusterNode]
    next_page_token: str
    cluster: bool
    def __init__(self, nodes: _Optional[_Iterable[_Union[ClusterNode, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., cluster: _Optional[bool] = ...) -> None: ...

class Lease(_message.Message):
    __slots__ = ("kind", "target_id", "node_id", "epoch", "tournament_id", "claim_time", "orphaned")
    KIND_FIELD_NUMBER: _ClassVar[int]
    TARGET_ID_FIELD_NUMBER: _ClassVar[int]
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    EPOCH_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    CLAIM_TIME_FIELD_NUMBER: _ClassVar[int]
    ORPHANED_FIELD_NUMBER: _ClassVar[int]
    kind: str
    target_id: str
    node_id: str
    epoch: int
    tournament_id: str
    claim_time: _timestamp_pb2.Timestamp
    orphaned: bool
    def __init__(self, kind: _Optional[str] = ..., target_id: _Optional[str] = ..., node_id: _Optional[str] = ..., epoch: _Optional[int] = ..., tournament_id: _Optional[str] = ..., claim_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., orphaned: _Optional[bool] = ...) -> None: ...

class ListLeasesRequest(_message.Message):
    __slots__ = ("node_id", "page_size", "page_token")
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    node_id: str
    page_size: int
    page_token: str
    def __init__(self, node_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListLeasesResponse(_message.Message):
    __slots__ = ("leases", "next_page_token")
    LEASES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    leases: _containers.RepeatedCompositeFieldContainer[Lease]
    next_page_token: str
    def __init__(self, leases: _Optional[_Iterable[_Union[Lease, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class LiveRoom(_message.Message):
    __slots__ = ("room_id", "game", "status", "mode", "seats", "node_id", "epoch", "tournament_id", "create_time")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    EPOCH_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    game: str
    status: _common_pb2.RoomStatus
    mode: _common_pb2.RoomMode
    seats: int
    node_id: str
    epoch: int
    tournament_id: str
    create_time: _timestamp_pb2.Timestamp
    def __init__(self, room_id: _Optional[str] = ..., game: _Optional[str] = ..., status: _Optional[_Union[_common_pb2.RoomStatus, str]] = ..., mode: _Optional[_Union[_common_pb2.RoomMode, str]] = ..., seats: _Optional[int] = ..., node_id: _Optional[str] = ..., epoch: _Optional[int] = ..., tournament_id: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListLiveRoomsRequest(_message.Message):
    __slots__ = ("node_id", "game", "page_size", "page_token")
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    node_id: str
    game: str
    page_size: int
    page_token: str
    def __init__(self, node_id: _Optional[str] = ..., game: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListLiveRoomsResponse(_message.Message):
    __slots__ = ("rooms", "next_page_token")
    ROOMS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    rooms: _containers.RepeatedCompositeFieldContainer[LiveRoom]
    next_page_token: str
    def __init__(self, rooms: _Optional[_Iterable[_Union[LiveRoom, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetRoomTimelineRequest(_message.Message):
    __slots__ = ("room_id", "after_version", "page_size")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_VERSION_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    after_version: int
    page_size: int
    def __init__(self, room_id: _Optional[str] = ..., after_version: _Optional[int] = ..., page_size: _Optional[int] = ...) -> None: ...

class GetRoomTimelineResponse(_message.Message):
    __slots__ = ("room", "updates", "last_version", "next_after_version")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    UPDATES_FIELD_NUMBER: _ClassVar[int]
    LAST_VERSION_FIELD_NUMBER: _ClassVar[int]
    NEXT_AFTER_VERSION_FIELD_NUMBER: _ClassVar[int]
    room: _room_pb2.Room
    updates: _containers.RepeatedCompositeFieldContainer[_move_pb2.RoomUpdate]
    last_version: int
    next_after_version: int
    def __init__(self, room: _Optional[_Union[_room_pb2.Room, _Mapping]] = ..., updates: _Optional[_Iterable[_Union[_move_pb2.RoomUpdate, _Mapping]]] = ..., last_version: _Optional[int] = ..., next_after_version: _Optional[int] = ...) -> None: ...

class CloseRoomRequest(_message.Message):
    __slots__ = ("room_id", "reason")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    reason: str
    def __init__(self, room_id: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class CloseRoomResponse(_message.Message):
    __slots__ = ("room",)
    ROOM_FIELD_NUMBER: _ClassVar[int]
    room: _room_pb2.Room
    def __init__(self, room: _Optional[_Union[_room_pb2.Room, _Mapping]] = ...) -> None: ...

class RevokeSeatTokenRequest(_message.Message):
    __slots__ = ("room_id", "seat")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    seat: int
    def __init__(self, room_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class RevokeSeatTokenResponse(_message.Message):
    __slots__ = ("room", "released")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    RELEASED_FIELD_NUMBER: _ClassVar[int]
    room: _room_pb2.Room
    released: bool
    def __init__(self, room: _Optional[_Union[_room_pb2.Room, _Mapping]] = ..., released: _Optional[bool] = ...) -> None: ...

class DrainNodeRequest(_message.Message):
    __slots__ = ("node_id",)
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    node_id: str
    def __init__(self, node_id: _Optional[str] = ...) -> None: ...

class DrainNodeResponse(_message.Message):
    __slots__ = ("node_id", "rooms", "tournaments", "leases")
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    ROOMS_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENTS_FIELD_NUMBER: _ClassVar[int]
    LEASES_FIELD_NUMBER: _ClassVar[int]
    node_id: str
    rooms: int
    tournaments: int
    leases: int
    def __init__(self, node_id: _Optional[str] = ..., rooms: _Optional[int] = ..., tournaments: _Optional[int] = ..., leases: _Optional[int] = ...) -> None: ...

class GetPlayerSocialRequest(_message.Message):
    __slots__ = ("player_id",)
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    def __init__(self, player_id: _Optional[str] = ...) -> None: ...

class SocialPlayer(_message.Message):
    __slots__ = ("player_id", "name", "create_time", "delivered")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    DELIVERED_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    name: str
    create_time: _timestamp_pb2.Timestamp
    delivered: bool
    def __init__(self, player_id: _Optional[str] = ..., name: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., delivered: _Optional[bool] = ...) -> None: ...

class SocialInvitation(_message.Message):
    __slots__ = ("invitation", "delivered")
    INVITATION_FIELD_NUMBER: _ClassVar[int]
    DELIVERED_FIELD_NUMBER: _ClassVar[int]
    invitation: _room_pb2.RoomInvitation
    delivered: bool
    def __init__(self, invitation: _Optional[_Union[_room_pb2.RoomInvitation, _Mapping]] = ..., delivered: _Optional[bool] = ...) -> None: ...

class GetPlayerSocialResponse(_message.Message):
    __slots__ = ("player_id", "name", "blocks", "blocked_by", "friend_requests_received", "friend_requests_sent", "room_invitations_received", "room_invitations_sent")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BLOCKS_FIELD_NUMBER: _ClassVar[int]
    BLOCKED_BY_FIELD_NUMBER: _ClassVar[int]
    FRIEND_REQUESTS_RECEIVED_FIELD_NUMBER: _ClassVar[int]
    FRIEND_REQUESTS_SENT_FIELD_NUMBER: _ClassVar[int]
    ROOM_INVITATIONS_RECEIVED_FIELD_NUMBER: _ClassVar[int]
    ROOM_INVITATIONS_SENT_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    name: str
    blocks: _containers.RepeatedCompositeFieldContainer[SocialPlayer]
    blocked_by: _containers.RepeatedCompositeFieldContainer[SocialPlayer]
    friend_requests_received: _containers.RepeatedCompositeFieldContainer[SocialPlayer]
    friend_requests_sent: _containers.RepeatedCompositeFieldContainer[SocialPlayer]
    room_invitations_received: _containers.RepeatedCompositeFieldContainer[SocialInvitation]
    room_invitations_sent: _containers.RepeatedCompositeFieldContainer[SocialInvitation]
    def __init__(self, player_id: _Optional[str] = ..., name: _Optional[str] = ..., blocks: _Optional[_Iterable[_Union[SocialPlayer, _Mapping]]] = ..., blocked_by: _Optional[_Iterable[_Union[SocialPlayer, _Mapping]]] = ..., friend_requests_received: _Optional[_Iterable[_Union[SocialPlayer, _Mapping]]] = ..., friend_requests_sent: _Optional[_Iterable[_Union[SocialPlayer, _Mapping]]] = ..., room_invitations_received: _Optional[_Iterable[_Union[SocialInvitation, _Mapping]]] = ..., room_invitations_sent: _Optional[_Iterable[_Union[SocialInvitation, _Mapping]]] = ...) -> None: ...

class ReportedChatLine(_message.Message):
    __slots__ = ("seq", "channel", "player_id", "name", "text", "send_time", "deleted")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    SEND_TIME_FIELD_NUMBER: _ClassVar[int]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    seq: int
    channel: _chat_pb2.ChatChannel
    player_id: str
    name: str
    text: str
    send_time: _timestamp_pb2.Timestamp
    deleted: bool
    def __init__(self, seq: _Optional[int] = ..., channel: _Optional[_Union[_chat_pb2.ChatChannel, str]] = ..., player_id: _Optional[str] = ..., name: _Optional[str] = ..., text: _Optional[str] = ..., send_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., deleted: _Optional[bool] = ...) -> None: ...

class ChatReport(_message.Message):
    __slots__ = ("report_id", "room_id", "reporter_id", "reason", "message", "context", "create_time", "open", "close_time", "closed_by", "note")
    REPORT_ID_FIELD_NUMBER: _ClassVar[int]
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    REPORTER_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    CLOSE_TIME_FIELD_NUMBER: _ClassVar[int]
    CLOSED_BY_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    report_id: str
    room_id: str
    reporter_id: str
    reason: str
    message: ReportedChatLine
    context: _containers.RepeatedCompositeFieldContainer[ReportedChatLine]
    create_time: _timestamp_pb2.Timestamp
    open: bool
    close_time: _timestamp_pb2.Timestamp
    closed_by: str
    note: str
    def __init__(self, report_id: _Optional[str] = ..., room_id: _Optional[str] = ..., reporter_id: _Optional[str] = ..., reason: _Optional[str] = ..., message: _Optional[_Union[ReportedChatLine, _Mapping]] = ..., context: _Optional[_Iterable[_Union[ReportedChatLine, _Mapping]]] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., open: _Optional[bool] = ..., close_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., closed_by: _Optional[str] = ..., note: _Optional[str] = ...) -> None: ...

class ListChatReportsRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListChatReportsResponse(_message.Message):
    __slots__ = ("reports", "next_page_token")
    REPORTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    reports: _containers.RepeatedCompositeFieldContainer[ChatReport]
    next_page_token: str
    def __init__(self, reports: _Optional[_Iterable[_Union[ChatReport, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetChatReportRequest(_message.Message):
    __slots__ = ("report_id",)
    REPORT_ID_FIELD_NUMBER: _ClassVar[int]
    report_id: str
    def __init__(self, report_id: _Optional[str] = ...) -> None: ...

class GetChatReportResponse(_message.Message):
    __slots__ = ("report",)
    REPORT_FIELD_NUMBER: _ClassVar[int]
    report: ChatReport
    def __init__(self, report: _Optional[_Union[ChatReport, _Mapping]] = ...) -> None: ...

class CloseChatReportRequest(_message.Message):
    __slots__ = ("report_id", "note")
    REPORT_ID_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    report_id: str
    note: str
    def __init__(self, report_id: _Optional[str] = ..., note: _Optional[str] = ...) -> None: ...

class CloseChatReportResponse(_message.Message):
    __slots__ = ("report",)
    REPORT_FIELD_NUMBER: _ClassVar[int]
    report: ChatReport
    def __init__(self, report: _Optional[_Union[ChatReport, _Mapping]] = ...) -> None: ...

class DeleteChatMessageRequest(_message.Message):
    __slots__ = ("room_id", "seq")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    seq: int
    def __init__(self, room_id: _Optional[str] = ..., seq: _Optional[int] = ...) -> None: ...

class DeleteChatMessageResponse(_message.Message):
    __slots__ = ("deleted",)
    DELETED_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    def __init__(self, deleted: _Optional[bool] = ...) -> None: ...

class ChatMute(_message.Message):
    __slots__ = ("player_id", "until", "reason", "create_time", "created_by", "end_time", "ended_by", "active")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    UNTIL_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    CREATED_BY_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    ENDED_BY_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    until: _timestamp_pb2.Timestamp
    reason: str
    create_time: _timestamp_pb2.Timestamp
    created_by: str
    end_time: _timestamp_pb2.Timestamp
    ended_by: str
    active: bool
    def __init__(self, player_id: _Optional[str] = ..., until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., reason: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., created_by: _Optional[str] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., ended_by: _Optional[str] = ..., active: _Optional[bool] = ...) -> None: ...

class MutePlayerRequest(_message.Message):
    __slots__ = ("player_id", "seconds", "until_ended", "reason")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    UNTIL_ENDED_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    seconds: int
    until_ended: bool
    reason: str
    def __init__(self, player_id: _Optional[str] = ..., seconds: _Optional[int] = ..., until_ended: _Optional[bool] = ..., reason: _Optional[str] = ...) -> None: ...

class MutePlayerResponse(_message.Message):
    __slots__ = ("mute",)
    MUTE_FIELD_NUMBER: _ClassVar[int]
    mute: ChatMute
    def __init__(self, mute: _Optional[_Union[ChatMute, _Mapping]] = ...) -> None: ...

class EndMuteRequest(_message.Message):
    __slots__ = ("player_id",)
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    def __init__(self, player_id: _Optional[str] = ...) -> None: ...

class EndMuteResponse(_message.Message):
    __slots__ = ("mute",)
    MUTE_FIELD_NUMBER: _ClassVar[int]
    mute: ChatMute
    def __init__(self, mute: _Optional[_Union[ChatMute, _Mapping]] = ...) -> None: ...

class ListMutesRequest(_message.Message):
    __slots__ = ("include_ended", "page_size", "page_token")
    INCLUDE_ENDED_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    include_ended: bool
    page_size: int
    page_token: str
    def __init__(self, include_ended: _Optional[bool] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListMutesResponse(_message.Message):
    __slots__ = ("mutes", "next_page_token")
    MUTES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    mutes: _containers.RepeatedCompositeFieldContainer[ChatMute]
    next_page_token: str
    def __init__(self, mutes: _Optional[_Iterable[_Union[ChatMute, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...
