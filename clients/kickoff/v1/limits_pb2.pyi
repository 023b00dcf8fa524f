from google.protobuf import descriptor_pb2 as _descriptor_pb2
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TextKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TEXT_KIND_UNSPECIFIED: _ClassVar[TextKind]
    TEXT_KIND_IDENTIFIER: _ClassVar[TextKind]
    TEXT_KIND_NAME: _ClassVar[TextKind]
    TEXT_KIND_TOKEN: _ClassVar[TextKind]
TEXT_KIND_UNSPECIFIED: TextKind
TEXT_KIND_IDENTIFIER: TextKind
TEXT_KIND_NAME: TextKind
TEXT_KIND_TOKEN: TextKind
LIMIT_FIELD_NUMBER: _ClassVar[int]
limit: _descriptor.FieldDescriptor

class FieldLimit(_message.Message):
    __slots__ = ("max_length", "max_items", "text")
    MAX_LENGTH_FIELD_NUMBER: _ClassVar[int]
    MAX_ITEMS_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    max_length: int
    max_items: int
    text: TextKind
    def __init__(self, max_length: _Optional[int] = ..., max_items: _Optional[int] = ..., text: _Optional[_Union[TextKind, str]] = ...) -> None: ...
