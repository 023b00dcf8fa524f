"""OpenAPI for the gateway, derived from the proto messages themselves.

Each request and response body is the proto3 JSON mapping of a kickoff.v1 message, so its schema is built from the
message's descriptor and named after it (``CreateRoomRequest``, ``Room``, ``RoomUpdate``...): camelCase field
names, 64-bit integers as strings, enums by name, unknown fields refused, and each request field's bounds (the
``(kickoff.v1.limit)`` option the server enforces) as maxLength, maxItems and maxProperties. Refusals share one
``ProblemDetails`` schema (RFC 9457).
"""

from __future__ import annotations

from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from litestar.openapi.spec import (
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    Reference,
    RequestBody,
    Schema,
)

from kickoff.v1 import limits_pb2

SCHEMAS: dict[str, Schema] = {}  # message name -> schema (inlined where used; Litestar owns the components)

_INT64 = {
    FieldDescriptor.TYPE_INT64,
    FieldDescriptor.TYPE_UINT64,
    FieldDescriptor.TYPE_SINT64,
    FieldDescriptor.TYPE_FIXED64,
    FieldDescriptor.TYPE_SFIXED64,
}
_INT32 = {
    FieldDescriptor.TYPE_INT32,
    FieldDescriptor.TYPE_UINT32,
    FieldDescriptor.TYPE_SINT32,
    FieldDescriptor.TYPE_FIXED32,
    FieldDescriptor.TYPE_SFIXED32,
}
_WELL_KNOWN = {
    "google.protobuf.Timestamp": Schema(type=OpenAPIType.STRING, format="date-time", description="RFC 3339 time"),  # type: ignore[arg-type]
    "google.protobuf.Struct": Schema(type=OpenAPIType.OBJECT, description="any JSON object"),
    "google.protobuf.Value": Schema(description="any JSON value"),
    "google.protobuf.Any": Schema(type=OpenAPIType.OBJECT, description="a typed detail (@type names it)"),
}


def message_schema(descriptor: Descriptor) -> Schema:
    """The schema of a message, titled with its name (built once and kept)."""
    if descriptor.full_name in _WELL_KNOWN:
        return _WELL_KNOWN[descriptor.full_name]
    name = descriptor.name if descriptor.full_name.startswith("kickoff.") else descriptor.full_name.replace(".", "_")
    if name not in SCHEMAS:
        oneofs = [
            f"at most one of {', '.join(f.json_name for f in o.fields)}"
            for o in descriptor.oneofs
            if not o.name.startswith("_")
        ]
        SCHEMAS[name] = Schema(
            type=OpenAPIType.OBJECT,
            title=name,
            description=f"{descriptor.full_name}, in the proto3 JSON mapping"
            + (f" ({'; '.join(oneofs)})" if oneofs else ""),
            properties={field.json_name: _field_schema(field) for field in descriptor.fields},
            additional_properties=False,
        )
    return SCHEMAS[name]


_PATTERNS = {limits_pb2.TEXT_KIND_IDENTIFIER: "^[A-Za-z0-9_-]*$", limits_pb2.TEXT_KIND_TOKEN: "^[!-~]*$"}


def _field_schema(field: FieldDescriptor) -> Schema | Reference:
    if field.message_type is not None and field.message_type.GetOptions().map_entry:
        return Schema(
            type=OpenAPIType.OBJECT, additional_properties=_single(field.message_type.fields_by_name["value"])
        )
    single = _single(field)
    options = field.GetOptions()
    if not options.HasExtension(limits_pb2.limit):
        return Schema(type=OpenAPIType.ARRAY, items=single) if field.is_repeated else single
    limit = options.Extensions[limits_pb2.limit]
    if limit.max_length and isinstance(single, Schema):
        single = Schema(
            type=single.type,
            max_length=limit.max_length,
            pattern=_PATTERNS.get(limit.text),
            description="normalised (NFKC, spaces trimmed and collapsed); no control characters"
            if limit.text == limits_pb2.TEXT_KIND_NAME
            else None,
        )
    if field.is_repeated:
        return Schema(type=OpenAPIType.ARRAY, items=single, max_items=limit.max_items or None)
    if field.message_type is not None and limit.max_items:  # a Struct: its keys
        return Schema(
            type=OpenAPIType.OBJECT,
            max_properties=limit.max_items,
            description="keys: identifiers of at most 32 characters; values: numbers, true/false or strings of at "
            "most 32 characters",
        )
    return single


def _single(field: FieldDescriptor) -> Schema | Reference:
    kind = field.type
    if kind == FieldDescriptor.TYPE_MESSAGE:
        return message_schema(field.message_type)
    if kind == FieldDescriptor.TYPE_ENUM:
        return Schema(type=OpenAPIType.STRING, enum=[value.name for value in field.enum_type.values])
    if kind in _INT64:
        return Schema(type=OpenAPIType.STRING, format="int64", pattern="^-?[0-9]+$", description="a 64-bit integer")
    if kind in _INT32:
        return Schema(type=OpenAPIType.INTEGER, format="int32")
    if kind in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return Schema(type=OpenAPIType.NUMBER)
    if kind == FieldDescriptor.TYPE_BOOL:
        return Schema(type=OpenAPIType.BOOLEAN)
    if kind == FieldDescriptor.TYPE_BYTES:
        return Schema(type=OpenAPIType.STRING, format="byte")
    return Schema(type=OpenAPIType.STRING)


SCHEMAS["ProblemDetails"] = Schema(
    type=OpenAPIType.OBJECT,
    title="ProblemDetails",
    description="RFC 9457 problem details",
    properties={
        "type": Schema(type=OpenAPIType.STRING, description="urn:kickoff:problem:<reason>"),
        "title": Schema(type=OpenAPIType.STRING),
        "status": Schema(type=OpenAPIType.INTEGER),
        "detail": Schema(type=OpenAPIType.STRING),
        "reason": Schema(type=OpenAPIType.STRING, description="the machine-readable reason, e.g. no_match"),
    },
    required=["status", "title"],
)

_PROBLEM = OpenAPIMediaType(schema=SCHEMAS["ProblemDetails"])


def operation(
    response: type[Message],
    *,
    request: type[Message] | None = None,
    example: dict[str, Any] | None = None,
    status: str = "200",
    media_type: str = "application/json",
) -> type[Operation]:
    """An Operation class whose request and response bodies are the named messages' schemas."""
    request_schema = message_schema(request.DESCRIPTOR) if request is not None else None
    response_schema = message_schema(response.DESCRIPTOR)
    if media_type == "text/event-stream":  # each event: its id (the version), its name, and the message as JSON
        response_schema = Schema(
            type=OpenAPIType.OBJECT,
            title=f"{response.__name__}Event",
            description=f"a server-sent event whose data is a {response.__name__} in the proto3 JSON mapping",
            properties={
                "event": Schema(
                    type=OpenAPIType.STRING,
                    enum=["update", "end"],
                    description="update: data is the message; end: the updates are over (data: the last version)",
                ),
                "id": Schema(type=OpenAPIType.STRING, description="the room version"),
                "data": Schema(
                    type=OpenAPIType.STRING, content_media_type="application/json", content_schema=response_schema
                ),
            },
        )

    class MessageOperation(Operation):
        def __init__(self, **fields: Any) -> None:
            super().__init__(**fields)
            if request_schema is not None:
                self.request_body = RequestBody(
                    content={"application/json": OpenAPIMediaType(schema=request_schema, example=example)},
                    required=False,
                    description=f"a {request.__name__} (the room id comes from the path)",  # type: ignore[union-attr]
                )
            responses: dict[str, OpenAPIResponse | Reference] = {
                status: OpenAPIResponse(
                    description=f"a {response.__name__}",
                    content={
                        media_type: OpenAPIMediaType(
                            schema=response_schema, example=example if request_schema is None else None
                        )
                    },
                ),
            }
            for code, meaning in (("4XX", "refused: problem details"), ("5XX", "the game server failed or is away")):
                responses[code] = OpenAPIResponse(description=meaning, content={"application/problem+json": _PROBLEM})
            self.responses = responses

    return MessageOperation
