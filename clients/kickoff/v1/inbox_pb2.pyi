import datetime

from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from kickoff.v1 import limits_pb2 as _limits_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class InboxItem(_message.Message):
    __slots__ = ("item_id", "kind", "create_time", "read", "data")
    ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    READ_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    item_id: int
    kind: str
    create_time: _timestamp_pb2.Timestamp
    read: bool
    data: _struct_pb2.Struct
    def __init__(self, item_id: _Optional[int] = ..., kind: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., read: _Optional[bool] = ..., data: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class ListInboxRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "unread_only")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    UNREAD_ONLY_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    unread_only: bool
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., unread_only: _Optional[bool] = ...) -> None: ...

class ListInboxResponse(_message.Message):
    __slots__ = ("items", "next_page_token", "unread_count")
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    UNREAD_COUNT_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[InboxItem]
    next_page_token: str
    unread_count: int
    def __init__(self, items: _Optional[_Iterable[_Union[InboxItem, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., unread_count: _Optional[int] = ...) -> None: ...

class MarkInboxReadRequest(_message.Message):
    __slots__ = ("item_ids", "up_to_item_id")
    ITEM_IDS_FIELD_NUMBER: _ClassVar[int]
    UP_TO_ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    item_ids: _containers.RepeatedScalarFieldContainer[int]
    up_to_item_id: int
    def __init__(self, item_ids: _Optional[_Iterable[int]] = ..., up_to_item_id: _Optional[int] = ...) -> None: ...

class MarkInboxReadResponse(_message.Message):
    __slots__ = ("unread_count",)
    UNREAD_COUNT_FIELD_NUMBER: _ClassVar[int]
    unread_count: int
    def __init__(self, unread_count: _Optional[int] = ...) -> None: ...

class DeleteInboxItemRequest(_message.Message):
    __slots__ = ("item_id",)
    ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    item_id: int
    def __init__(self, item_id: _Optional[int] = ...) -> None: ...

class DeleteInboxItemResponse(_message.Message):
    __slots__ = ("unread_count",)
    UNREAD_COUNT_FIELD_NUMBER: _ClassVar[int]
    unread_count: int
    def __init__(self, unread_count: _Optional[int] = ...) -> None: ...

class FollowInboxRequest(_message.Message):
    __slots__ = ("after_item_id",)
    AFTER_ITEM_ID_FIELD_NUMBER: _ClassVar[int]
    after_item_id: int
    def __init__(self, after_item_id: _Optional[int] = ...) -> None: ...

class FollowInboxResponse(_message.Message):
    __slots__ = ("item",)
    ITEM_FIELD_NUMBER: _ClassVar[int]
    item: InboxItem
    def __init__(self, item: _Optional[_Union[InboxItem, _Mapping]] = ...) -> None: ...
