import datetime

from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from kickoff.v1 import limits_pb2 as _limits_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GetFriendCodeRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetFriendCodeResponse(_message.Message):
    __slots__ = ("friend_code", "create_time")
    FRIEND_CODE_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    friend_code: str
    create_time: _timestamp_pb2.Timestamp
    def __init__(self, friend_code: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class RotateFriendCodeRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RotateFriendCodeResponse(_message.Message):
    __slots__ = ("friend_code", "create_time")
    FRIEND_CODE_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    friend_code: str
    create_time: _timestamp_pb2.Timestamp
    def __init__(self, friend_code: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class SendFriendRequestRequest(_message.Message):
    __slots__ = ("friend_code", "player_id")
    FRIEND_CODE_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    friend_code: str
    player_id: str
    def __init__(self, friend_code: _Optional[str] = ..., player_id: _Optional[str] = ...) -> None: ...

class SendFriendRequestResponse(_message.Message):
    __slots__ = ("request", "friend")
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    FRIEND_FIELD_NUMBER: _ClassVar[int]
    request: FriendRequest
    friend: Friend
    def __init__(self, request: _Optional[_Union[FriendRequest, _Mapping]] = ..., friend: _Optional[_Union[Friend, _Mapping]] = ...) -> None: ...

class Friend(_message.Message):
    __slots__ = ("player_id", "name", "since_time")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SINCE_TIME_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    name: str
    since_time: _timestamp_pb2.Timestamp
    def __init__(self, player_id: _Optional[str] = ..., name: _Optional[str] = ..., since_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class FriendRequest(_message.Message):
    __slots__ = ("player_id", "name", "create_time")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    name: str
    create_time: _timestamp_pb2.Timestamp
    def __init__(self, player_id: _Optional[str] = ..., name: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class AcceptFriendRequestRequest(_message.Message):
    __slots__ = ("player_id",)
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    def __init__(self, player_id: _Optional[str] = ...) -> None: ...

class AcceptFriendRequestResponse(_message.Message):
    __slots__ = ("friend",)
    FRIEND_FIELD_NUMBER: _ClassVar[int]
    friend: Friend
    def __init__(self, friend: _Optional[_Union[Friend, _Mapping]] = ...) -> None: ...

class DeclineFriendRequestRequest(_message.Message):
    __slots__ = ("player_id",)
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    def __init__(self, player_id: _Optional[str] = ...) -> None: ...

class DeclineFriendRequestResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class CancelFriendRequestRequest(_message.Message):
    __slots__ = ("player_id",)
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    def __init__(self, player_id: _Optional[str] = ...) -> None: ...

class CancelFriendRequestResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RemoveFriendRequest(_message.Message):
    __slots__ = ("player_id",)
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    def __init__(self, player_id: _Optional[str] = ...) -> None: ...

class RemoveFriendResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListFriendsRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListFriendsResponse(_message.Message):
    __slots__ = ("friends", "next_page_token", "received", "sent")
    FRIENDS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    RECEIVED_FIELD_NUMBER: _ClassVar[int]
    SENT_FIELD_NUMBER: _ClassVar[int]
    friends: _containers.RepeatedCompositeFieldContainer[Friend]
    next_page_token: str
    received: _containers.RepeatedCompositeFieldContainer[FriendRequest]
    sent: _containers.RepeatedCompositeFieldContainer[FriendRequest]
    def __init__(self, friends: _Optional[_Iterable[_Union[Friend, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., received: _Optional[_Iterable[_Union[FriendRequest, _Mapping]]] = ..., sent: _Optional[_Iterable[_Union[FriendRequest, _Mapping]]] = ...) -> None: ...

class BlockPlayerRequest(_message.Message):
    __slots__ = ("player_id",)
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    def __init__(self, player_id: _Optional[str] = ...) -> None: ...

class BlockPlayerResponse(_message.Message):
    __slots__ = ("blocked",)
    BLOCKED_FIELD_NUMBER: _ClassVar[int]
    blocked: BlockedPlayer
    def __init__(self, blocked: _Optional[_Union[BlockedPlayer, _Mapping]] = ...) -> None: ...

class BlockedPlayer(_message.Message):
    __slots__ = ("player_id", "name", "create_time")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    name: str
    create_time: _timestamp_pb2.Timestamp
    def __init__(self, player_id: _Optional[str] = ..., name: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class UnblockPlayerRequest(_message.Message):
    __slots__ = ("player_id",)
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    def __init__(self, player_id: _Optional[str] = ...) -> None: ...

class UnblockPlayerResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListBlocksRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListBlocksResponse(_message.Message):
    __slots__ = ("blocks", "next_page_token")
    BLOCKS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    blocks: _containers.RepeatedCompositeFieldContainer[BlockedPlayer]
    next_page_token: str
    def __init__(self, blocks: _Optional[_Iterable[_Union[BlockedPlayer, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...
