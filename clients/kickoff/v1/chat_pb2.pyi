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

class ChatChannel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHAT_CHANNEL_UNSPECIFIED: _ClassVar[ChatChannel]
    CHAT_CHANNEL_PLAYERS: _ClassVar[ChatChannel]
    CHAT_CHANNEL_SPECTATORS: _ClassVar[ChatChannel]
    CHAT_CHANNEL_TEAM: _ClassVar[ChatChannel]

class ChatReaction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHAT_REACTION_UNSPECIFIED: _ClassVar[ChatReaction]
    CHAT_REACTION_GOOD_GAME: _ClassVar[ChatReaction]
    CHAT_REACTION_WELL_PLAYED: _ClassVar[ChatReaction]
    CHAT_REACTION_OOPS: _ClassVar[ChatReaction]
    CHAT_REACTION_THANKS: _ClassVar[ChatReaction]
    CHAT_REACTION_HURRY_UP: _ClassVar[ChatReaction]
    CHAT_REACTION_ONE_MORE: _ClassVar[ChatReaction]

class ChatMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHAT_MODE_UNSPECIFIED: _ClassVar[ChatMode]
    CHAT_MODE_ON: _ClassVar[ChatMode]
    CHAT_MODE_REACTIONS: _ClassVar[ChatMode]
    CHAT_MODE_OFF: _ClassVar[ChatMode]
CHAT_CHANNEL_UNSPECIFIED: ChatChannel
CHAT_CHANNEL_PLAYERS: ChatChannel
CHAT_CHANNEL_SPECTATORS: ChatChannel
CHAT_CHANNEL_TEAM: ChatChannel
CHAT_REACTION_UNSPECIFIED: ChatReaction
CHAT_REACTION_GOOD_GAME: ChatReaction
CHAT_REACTION_WELL_PLAYED: ChatReaction
CHAT_REACTION_OOPS: ChatReaction
CHAT_REACTION_THANKS: ChatReaction
CHAT_REACTION_HURRY_UP: ChatReaction
CHAT_REACTION_ONE_MORE: ChatReaction
CHAT_MODE_UNSPECIFIED: ChatMode
CHAT_MODE_ON: ChatMode
CHAT_MODE_REACTIONS: ChatMode
CHAT_MODE_OFF: ChatMode

class ChatMessage(_message.Message):
    __slots__ = ("room_id", "seq", "channel", "text", "reaction", "player_id", "name", "seat", "team", "create_time", "withdrawn", "withdraws_seq")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    REACTION_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    WITHDRAWN_FIELD_NUMBER: _ClassVar[int]
    WITHDRAWS_SEQ_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    seq: int
    channel: ChatChannel
    text: str
    reaction: ChatReaction
    player_id: str
    name: str
    seat: int
    team: int
    create_time: _timestamp_pb2.Timestamp
    withdrawn: bool
    withdraws_seq: int
    def __init__(self, room_id: _Optional[str] = ..., seq: _Optional[int] = ..., channel: _Optional[_Union[ChatChannel, str]] = ..., text: _Optional[str] = ..., reaction: _Optional[_Union[ChatReaction, str]] = ..., player_id: _Optional[str] = ..., name: _Optional[str] = ..., seat: _Optional[int] = ..., team: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., withdrawn: _Optional[bool] = ..., withdraws_seq: _Optional[int] = ...) -> None: ...

class SendChatMessageRequest(_message.Message):
    __slots__ = ("room_id", "channel", "text", "reaction", "request_id", "invitation_token")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    REACTION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    INVITATION_TOKEN_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    channel: ChatChannel
    text: str
    reaction: ChatReaction
    request_id: str
    invitation_token: str
    def __init__(self, room_id: _Optional[str] = ..., channel: _Optional[_Union[ChatChannel, str]] = ..., text: _Optional[str] = ..., reaction: _Optional[_Union[ChatReaction, str]] = ..., request_id: _Optional[str] = ..., invitation_token: _Optional[str] = ...) -> None: ...

class SendChatMessageResponse(_message.Message):
    __slots__ = ("message",)
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: ChatMessage
    def __init__(self, message: _Optional[_Union[ChatMessage, _Mapping]] = ...) -> None: ...

class ListChatMessagesRequest(_message.Message):
    __slots__ = ("room_id", "channel", "after_seq", "page_size", "invitation_token")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    AFTER_SEQ_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    INVITATION_TOKEN_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    channel: ChatChannel
    after_seq: int
    page_size: int
    invitation_token: str
    def __init__(self, room_id: _Optional[str] = ..., channel: _Optional[_Union[ChatChannel, str]] = ..., after_seq: _Optional[int] = ..., page_size: _Optional[int] = ..., invitation_token: _Optional[str] = ...) -> None: ...

class ListChatMessagesResponse(_message.Message):
    __slots__ = ("messages", "next_after_seq")
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    NEXT_AFTER_SEQ_FIELD_NUMBER: _ClassVar[int]
    messages: _containers.RepeatedCompositeFieldContainer[ChatMessage]
    next_after_seq: int
    def __init__(self, messages: _Optional[_Iterable[_Union[ChatMessage, _Mapping]]] = ..., next_after_seq: _Optional[int] = ...) -> None: ...

class FollowChatRequest(_message.Message):
    __slots__ = ("room_id", "channel", "after_seq", "invitation_token")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    AFTER_SEQ_FIELD_NUMBER: _ClassVar[int]
    INVITATION_TOKEN_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    channel: ChatChannel
    after_seq: int
    invitation_token: str
    def __init__(self, room_id: _Optional[str] = ..., channel: _Optional[_Union[ChatChannel, str]] = ..., after_seq: _Optional[int] = ..., invitation_token: _Optional[str] = ...) -> None: ...

class FollowChatResponse(_message.Message):
    __slots__ = ("message",)
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: ChatMessage
    def __init__(self, message: _Optional[_Union[ChatMessage, _Mapping]] = ...) -> None: ...

class ReportChatMessageRequest(_message.Message):
    __slots__ = ("room_id", "seq", "reason", "invitation_token")
    ROOM_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    INVITATION_TOKEN_FIELD_NUMBER: _ClassVar[int]
    room_id: str
    seq: int
    reason: str
    invitation_token: str
    def __init__(self, room_id: _Optional[str] = ..., seq: _Optional[int] = ..., reason: _Optional[str] = ..., invitation_token: _Optional[str] = ...) -> None: ...

class ReportChatMessageResponse(_message.Message):
    __slots__ = ("report_id",)
    REPORT_ID_FIELD_NUMBER: _ClassVar[int]
    report_id: str
    def __init__(self, report_id: _Optional[str] = ...) -> None: ...
