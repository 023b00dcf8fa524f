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

class WebhookEvent(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WEBHOOK_EVENT_UNSPECIFIED: _ClassVar[WebhookEvent]
    WEBHOOK_EVENT_TURN_BEGAN: _ClassVar[WebhookEvent]
    WEBHOOK_EVENT_MATCH_FOUND: _ClassVar[WebhookEvent]
    WEBHOOK_EVENT_GAME_ENDED: _ClassVar[WebhookEvent]
    WEBHOOK_EVENT_TOURNAMENT_GAME_READY: _ClassVar[WebhookEvent]
    WEBHOOK_EVENT_CLOCK_RUNNING_OUT: _ClassVar[WebhookEvent]
    WEBHOOK_EVENT_FRIEND_REQUESTED: _ClassVar[WebhookEvent]
    WEBHOOK_EVENT_FRIEND_ACCEPTED: _ClassVar[WebhookEvent]
    WEBHOOK_EVENT_ROOM_INVITED: _ClassVar[WebhookEvent]
    WEBHOOK_EVENT_REMATCH_PROPOSED: _ClassVar[WebhookEvent]
    WEBHOOK_EVENT_CHAT_MESSAGE: _ClassVar[WebhookEvent]

class DeliveryStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DELIVERY_STATUS_UNSPECIFIED: _ClassVar[DeliveryStatus]
    DELIVERY_STATUS_PENDING: _ClassVar[DeliveryStatus]
    DELIVERY_STATUS_SENDING: _ClassVar[DeliveryStatus]
    DELIVERY_STATUS_DELIVERED: _ClassVar[DeliveryStatus]
    DELIVERY_STATUS_DEAD: _ClassVar[DeliveryStatus]
    DELIVERY_STATUS_OBSOLETE: _ClassVar[DeliveryStatus]
WEBHOOK_EVENT_UNSPECIFIED: WebhookEvent
WEBHOOK_EVENT_TURN_BEGAN: WebhookEvent
WEBHOOK_EVENT_MATCH_FOUND: WebhookEvent
WEBHOOK_EVENT_GAME_ENDED: WebhookEvent
WEBHOOK_EVENT_TOURNAMENT_GAME_READY: WebhookEvent
WEBHOOK_EVENT_CLOCK_RUNNING_OUT: WebhookEvent
WEBHOOK_EVENT_FRIEND_REQUESTED: WebhookEvent
WEBHOOK_EVENT_FRIEND_ACCEPTED: WebhookEvent
WEBHOOK_EVENT_ROOM_INVITED: WebhookEvent
WEBHOOK_EVENT_REMATCH_PROPOSED: WebhookEvent
WEBHOOK_EVENT_CHAT_MESSAGE: WebhookEvent
DELIVERY_STATUS_UNSPECIFIED: DeliveryStatus
DELIVERY_STATUS_PENDING: DeliveryStatus
DELIVERY_STATUS_SENDING: DeliveryStatus
DELIVERY_STATUS_DELIVERED: DeliveryStatus
DELIVERY_STATUS_DEAD: DeliveryStatus
DELIVERY_STATUS_OBSOLETE: DeliveryStatus

class WebhookEndpoint(_message.Message):
    __slots__ = ("endpoint_id", "url", "events", "description", "max_in_flight", "timeout_seconds", "create_time", "secret_hint", "backlog", "dead", "chat_text")
    ENDPOINT_ID_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    MAX_IN_FLIGHT_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    SECRET_HINT_FIELD_NUMBER: _ClassVar[int]
    BACKLOG_FIELD_NUMBER: _ClassVar[int]
    DEAD_FIELD_NUMBER: _ClassVar[int]
    CHAT_TEXT_FIELD_NUMBER: _ClassVar[int]
    endpoint_id: str
    url: str
    events: _containers.RepeatedScalarFieldContainer[WebhookEvent]
    description: str
    max_in_flight: int
    timeout_seconds: float
    create_time: _timestamp_pb2.Timestamp
    secret_hint: str
    backlog: int
    dead: int
    chat_text: bool
    def __init__(self, endpoint_id: _Optional[str] = ..., url: _Optional[str] = ..., events: _Optional[_Iterable[_Union[WebhookEvent, str]]] = ..., description: _Optional[str] = ..., max_in_flight: _Optional[int] = ..., timeout_seconds: _Optional[float] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., secret_hint: _Optional[str] = ..., backlog: _Optional[int] = ..., dead: _Optional[int] = ..., chat_text: _Optional[bool] = ...) -> None: ...

class AddEndpointRequest(_message.Message):
    __slots__ = ("url", "events", "secret", "description", "max_in_flight", "timeout_seconds", "request_id", "chat_text")
    URL_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    MAX_IN_FLIGHT_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    CHAT_TEXT_FIELD_NUMBER: _ClassVar[int]
    url: str
    events: _containers.RepeatedScalarFieldContainer[WebhookEvent]
    secret: str
    description: str
    max_in_flight: int
    timeout_seconds: float
    request_id: str
    chat_text: bool
    def __init__(self, url: _Optional[str] = ..., events: _Optional[_Iterable[_Union[WebhookEvent, str]]] = ..., secret: _Optional[str] = ..., description: _Optional[str] = ..., max_in_flight: _Optional[int] = ..., timeout_seconds: _Optional[float] = ..., request_id: _Optional[str] = ..., chat_text: _Optional[bool] = ...) -> None: ...

class AddEndpointResponse(_message.Message):
    __slots__ = ("endpoint", "secret")
    ENDPOINT_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    endpoint: WebhookEndpoint
    secret: str
    def __init__(self, endpoint: _Optional[_Union[WebhookEndpoint, _Mapping]] = ..., secret: _Optional[str] = ...) -> None: ...

class ListEndpointsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListEndpointsResponse(_message.Message):
    __slots__ = ("endpoints",)
    ENDPOINTS_FIELD_NUMBER: _ClassVar[int]
    endpoints: _containers.RepeatedCompositeFieldContainer[WebhookEndpoint]
    def __init__(self, endpoints: _Optional[_Iterable[_Union[WebhookEndpoint, _Mapping]]] = ...) -> None: ...

class RemoveEndpointRequest(_message.Message):
    __slots__ = ("endpoint_id",)
    ENDPOINT_ID_FIELD_NUMBER: _ClassVar[int]
    endpoint_id: str
    def __init__(self, endpoint_id: _Optional[str] = ...) -> None: ...

class RemoveEndpointResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TestEndpointRequest(_message.Message):
    __slots__ = ("endpoint_id",)
    ENDPOINT_ID_FIELD_NUMBER: _ClassVar[int]
    endpoint_id: str
    def __init__(self, endpoint_id: _Optional[str] = ...) -> None: ...

class TestEndpointResponse(_message.Message):
    __slots__ = ("delivered", "status_code", "error", "seconds", "delivery_id")
    DELIVERED_FIELD_NUMBER: _ClassVar[int]
    STATUS_CODE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    delivered: bool
    status_code: int
    error: str
    seconds: float
    delivery_id: str
    def __init__(self, delivered: _Optional[bool] = ..., status_code: _Optional[int] = ..., error: _Optional[str] = ..., seconds: _Optional[float] = ..., delivery_id: _Optional[str] = ...) -> None: ...

class WebhookDelivery(_message.Message):
    __slots__ = ("delivery_id", "endpoint_id", "event", "status", "attempts", "create_time", "next_attempt_time", "last_error", "last_status_code", "payload")
    DELIVERY_ID_FIELD_NUMBER: _ClassVar[int]
    ENDPOINT_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    NEXT_ATTEMPT_TIME_FIELD_NUMBER: _ClassVar[int]
    LAST_ERROR_FIELD_NUMBER: _ClassVar[int]
    LAST_STATUS_CODE_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    delivery_id: str
    endpoint_id: str
    event: WebhookEvent
    status: DeliveryStatus
    attempts: int
    create_time: _timestamp_pb2.Timestamp
    next_attempt_time: _timestamp_pb2.Timestamp
    last_error: str
    last_status_code: int
    payload: str
    def __init__(self, delivery_id: _Optional[str] = ..., endpoint_id: _Optional[str] = ..., event: _Optional[_Union[WebhookEvent, str]] = ..., status: _Optional[_Union[DeliveryStatus, str]] = ..., attempts: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., next_attempt_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., last_error: _Optional[str] = ..., last_status_code: _Optional[int] = ..., payload: _Optional[str] = ...) -> None: ...

class ListDeliveriesRequest(_message.Message):
    __slots__ = ("endpoint_id", "status", "page_size", "page_token")
    ENDPOINT_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    endpoint_id: str
    status: DeliveryStatus
    page_size: int
    page_token: str
    def __init__(self, endpoint_id: _Optional[str] = ..., status: _Optional[_Union[DeliveryStatus, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListDeliveriesResponse(_message.Message):
    __slots__ = ("deliveries", "next_page_token")
    DELIVERIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    deliveries: _containers.RepeatedCompositeFieldContainer[WebhookDelivery]
    next_page_token: str
    def __init__(self, deliveries: _Optional[_Iterable[_Union[WebhookDelivery, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class RedeliverDeliveriesRequest(_message.Message):
    __slots__ = ("endpoint_id", "delivery_ids")
    ENDPOINT_ID_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_IDS_FIELD_NUMBER: _ClassVar[int]
    endpoint_id: str
    delivery_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, endpoint_id: _Optional[str] = ..., delivery_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class RedeliverDeliveriesResponse(_message.Message):
    __slots__ = ("redelivered",)
    REDELIVERED_FIELD_NUMBER: _ClassVar[int]
    redelivered: int
    def __init__(self, redelivered: _Optional[int] = ...) -> None: ...
