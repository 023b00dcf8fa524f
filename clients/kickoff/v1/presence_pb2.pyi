import datetime

from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from kickoff.v1 import limits_pb2 as _limits_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class PresenceState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PRESENCE_STATE_UNSPECIFIED: _ClassVar[PresenceState]
    PRESENCE_STATE_AWAY: _ClassVar[PresenceState]
    PRESENCE_STATE_ONLINE: _ClassVar[PresenceState]
    PRESENCE_STATE_SEARCHING: _ClassVar[PresenceState]
    PRESENCE_STATE_AT_TABLE: _ClassVar[PresenceState]

class PresenceVisibility(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PRESENCE_VISIBILITY_UNSPECIFIED: _ClassVar[PresenceVisibility]
    PRESENCE_VISIBILITY_FRIENDS: _ClassVar[PresenceVisibility]
    PRESENCE_VISIBILITY_NOBODY: _ClassVar[PresenceVisibility]
PRESENCE_STATE_UNSPECIFIED: PresenceState
PRESENCE_STATE_AWAY: PresenceState
PRESENCE_STATE_ONLINE: PresenceState
PRESENCE_STATE_SEARCHING: PresenceState
PRESENCE_STATE_AT_TABLE: PresenceState
PRESENCE_VISIBILITY_UNSPECIFIED: PresenceVisibility
PRESENCE_VISIBILITY_FRIENDS: PresenceVisibility
PRESENCE_VISIBILITY_NOBODY: PresenceVisibility

class FriendPresence(_message.Message):
    __slots__ = ("player_id", "name", "state", "room_id", "since_time", "last_seen_time", "cursor", "removed")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    SINCE_TIME_FIELD_NUMBER: _ClassVar[int]
    LAST_SEEN_TIME_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    REMOVED_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    name: str
    state: PresenceState
    room_id: str
    since_time: _timestamp_pb2.Timestamp
    last_seen_time: _timestamp_pb2.Timestamp
    cursor: int
    removed: bool
    def __init__(self, player_id: _Optional[str] = ..., name: _Optional[str] = ..., state: _Optional[_Union[PresenceState, str]] = ..., room_id: _Optional[str] = ..., since_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., last_seen_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., cursor: _Optional[int] = ..., removed: _Optional[bool] = ...) -> None: ...

class GetPresenceRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class GetPresenceResponse(_message.Message):
    __slots__ = ("friends", "next_page_token", "visibility")
    FRIENDS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    friends: _containers.RepeatedCompositeFieldContainer[FriendPresence]
    next_page_token: str
    visibility: PresenceVisibility
    def __init__(self, friends: _Optional[_Iterable[_Union[FriendPresence, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., visibility: _Optional[_Union[PresenceVisibility, str]] = ...) -> None: ...

class FollowPresenceRequest(_message.Message):
    __slots__ = ("after_cursor",)
    AFTER_CURSOR_FIELD_NUMBER: _ClassVar[int]
    after_cursor: int
    def __init__(self, after_cursor: _Optional[int] = ...) -> None: ...

class FollowPresenceResponse(_message.Message):
    __slots__ = ("presence",)
    PRESENCE_FIELD_NUMBER: _ClassVar[int]
    presence: FriendPresence
    def __init__(self, presence: _Optional[_Union[FriendPresence, _Mapping]] = ...) -> None: ...

class SetPresenceVisibilityRequest(_message.Message):
    __slots__ = ("visibility",)
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    visibility: PresenceVisibility
    def __init__(self, visibility: _Optional[_Union[PresenceVisibility, str]] = ...) -> None: ...

class SetPresenceVisibilityResponse(_message.Message):
    __slots__ = ("visibility",)
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    visibility: PresenceVisibility
    def __init__(self, visibility: _Optional[_Union[PresenceVisibility, str]] = ...) -> None: ...
