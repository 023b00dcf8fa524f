"""OpenAPI for the gateway, derived from the proto messages themselves.

Each request and response body is the proto3 JSON mapping of a kickoff.v1 message, so its schema is built from the
message's descriptor: camelCase field names, 64-bit integers as decimal strings (``format: int64``), enums by name,
unknown fields refused, and each request field's bounds (the ``(kickoff.v1.limit)`` option the server enforces) as
maxLength, maxItems and maxProperties. A field that the mapping leaves out when it holds its zero value (0, false, "",
[], {}, the enum's first name) says so with its ``default``, so a client knows what a missing field means; a field with
presence (a message, a proto3 ``optional``, a oneof member) has none: missing means unset.

Every message and enum is one named schema in ``components.schemas`` (``Room``, ``RoomUpdate``,
``CreateRoomRequest``, ``RoomMode``...), referenced with ``$ref`` from the operations and from other schemas, so code
generators make one model per message; only the well-known types (Timestamp, Struct, Value, Any) are inlined. Every
refusal of every operation is the one ``ProblemDetails`` schema (RFC 9457). The event streams describe each event: an
``update`` whose data is the message (``RoomUpdateEvent``, ``TournamentUpdateEvent``), and the ``end``.

Litestar fills ``components.schemas`` from its own registry when it builds the document (empty here: the handlers
return plain dicts), so :func:`add_components` puts these schemas in afterwards; :data:`SECURITY_SCHEMES` go through
``OpenAPIConfig`` as usual.
"""

from __future__ import annotations

from typing import Any

from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message
from litestar import Litestar
from litestar.openapi.spec import (
    Discriminator,
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    Parameter,
    Reference,
    RequestBody,
    Schema,
    SecurityRequirement,
    SecurityScheme,
)

from kickoff.v1 import limits_pb2

SCHEMAS: dict[str, Schema] = {}  # the document's components.schemas: each message and enum once, by its name
_NAMED: dict[str, str] = {}  # component name -> the full proto name it stands for (two never share a name)

INT64 = (
    "a 64-bit integer as a decimal string, as the proto3 JSON mapping writes it (a JavaScript number is exact only "
    "up to 2^53); requests may send it as a string or a number"
)

SECURITY_SCHEMES: dict[str, SecurityScheme | Reference] = {
    "bearerAuth": SecurityScheme(
        type="http",
        scheme="bearer",
        description="The seat token from joining a room or tournament (the `seatToken` of JoinRoom or JoinTournament), "
        "as `Authorization: Bearer <token>`. A tournament seat's token plays every game of the tournament.",
    ),
    "apiKey": SecurityScheme(
        type="apiKey",
        name="X-API-Key",
        security_scheme_in="header",
        description="An API key (`kickoff keys`), for creating rooms and tournaments where the server requires one; "
        "a caller that sends one is counted (rates, streams) as that key's holder.",
    ),
}
# What each kind of route takes: the seat token (required or optional), or an API key where the server asks for one.
SEAT: list[SecurityRequirement] = [{"bearerAuth": []}]
SEAT_OR_SPECTATOR: list[SecurityRequirement] = [{}, {"bearerAuth": []}]
CREATOR: list[SecurityRequirement] = [{}, {"apiKey": []}]

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
    "google.protobuf.Timestamp": lambda: Schema(
        type=OpenAPIType.STRING,
        format="date-time",  # type: ignore[arg-type]
        description="an RFC 3339 time",
    ),
    "google.protobuf.Struct": lambda: Schema(type=OpenAPIType.OBJECT, description="any JSON object"),
    "google.protobuf.Value": lambda: Schema(description="any JSON value"),
    "google.protobuf.Any": lambda: Schema(type=OpenAPIType.OBJECT, description="a typed detail (@type names it)"),
}


def ref(name: str) -> Reference:
    """A reference to the component schema ``name``."""
    return Reference(ref=f"#/components/schemas/{name}")


def _register(name: str, full_name: str) -> bool:
    """Claim the component ``name`` for ``full_name``; False if it has it already."""
    owner = _NAMED.setdefault(name, full_name)
    if owner != full_name:
        raise ValueError(f"the schema name {name} stands for {owner}; {full_name} needs another")
    return name not in SCHEMAS


def _name(full_name: str) -> str:
    return full_name.rsplit(".", 1)[-1] if full_name.startswith("kickoff.") else full_name.replace(".", "_")


def message_schema(descriptor: Descriptor) -> Schema | Reference:
    """A reference to the message's component schema (built once, named after the message); a well-known type's
    schema itself."""
    if descriptor.full_name in _WELL_KNOWN:
        return _WELL_KNOWN[descriptor.full_name]()
    name = _name(descriptor.full_name)
    if _register(name, descriptor.full_name):
        oneofs = [
            f"at most one of {', '.join(f.json_name for f in o.fields)}"
            for o in descriptor.oneofs
            if not o.name.startswith("_")
        ]
        schema = Schema(
            type=OpenAPIType.OBJECT,
            title=name,
            description=f"{descriptor.full_name}, in the proto3 JSON mapping"
            + (f" ({'; '.join(oneofs)})" if oneofs else ""),
            additional_properties=False,
        )
        SCHEMAS[name] = schema  # before its fields: a message that holds itself refers to itself, and the walk ends
        schema.properties = {field.json_name: _field_schema(field) for field in descriptor.fields}
    return ref(name)


def enum_schema(descriptor: EnumDescriptor) -> Reference:
    """A reference to the enum's component schema: its value names."""
    name = _name(descriptor.full_name)
    if _register(name, descriptor.full_name):
        SCHEMAS[name] = Schema(
            type=OpenAPIType.STRING,
            title=name,
            description=f"{descriptor.full_name}, by name",
            enum=[value.name for value in descriptor.values],
        )
    return ref(name)


_PATTERNS = {limits_pb2.TEXT_KIND_IDENTIFIER: "^[A-Za-z0-9_-]*$", limits_pb2.TEXT_KIND_TOKEN: "^[!-~]*$"}


def _field_schema(field: FieldDescriptor) -> Schema | Reference:
    schema = _bounded(field)
    if field.has_presence:  # a message, a proto3 optional, a oneof member: missing means unset
        return schema
    default = _zero(field)
    if isinstance(schema, Reference):  # an enum: its default goes beside the reference
        return Schema(all_of=[schema], default=default)
    schema.default = default
    return schema


def _zero(field: FieldDescriptor) -> Any:
    """The value a field holds when the proto3 JSON mapping leaves it out."""
    if field.message_type is not None and field.message_type.GetOptions().map_entry:
        return {}
    if field.is_repeated:
        return []
    kind = field.type
    if kind == FieldDescriptor.TYPE_ENUM:
        return field.enum_type.values_by_number[0].name
    if kind in _INT64:
        return "0"
    if kind == FieldDescriptor.TYPE_BOOL:
        return False
    if kind in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES):
        return ""
    return 0


def _bounded(field: FieldDescriptor) -> Schema | Reference:
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


def _int64(description: str = INT64) -> Schema:
    return Schema(type=OpenAPIType.STRING, format="int64", pattern="^-?[0-9]+$", description=description)


def _single(field: FieldDescriptor) -> Schema | Reference:
    kind = field.type
    if kind == FieldDescriptor.TYPE_MESSAGE:
        return message_schema(field.message_type)
    if kind == FieldDescriptor.TYPE_ENUM:
        return enum_schema(field.enum_type)
    if kind in _INT64:
        return _int64()
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
    description="RFC 9457 problem details: every refusal of every operation",
    properties={
        "type": Schema(type=OpenAPIType.STRING, description="urn:kickoff:problem:<reason>", default="about:blank"),
        "title": Schema(
            type=OpenAPIType.STRING, description="the status's meaning, e.g. Conflict with the room's state"
        ),
        "status": Schema(type=OpenAPIType.INTEGER, description="the HTTP status"),
        "detail": Schema(type=OpenAPIType.STRING, description="what is wrong (never the input echoed back)"),
        "reason": Schema(
            type=OpenAPIType.STRING,
            description="the machine-readable reason (the gRPC ErrorInfo reason), e.g. stale_version or no_match",
        ),
        "field": Schema(type=OpenAPIType.STRING, description="the request field at fault, where one is"),
        "cards": Schema(
            type=OpenAPIType.ARRAY,
            items=Schema(type=OpenAPIType.STRING),
            description="the cards a refused move concerns (the mover's own answer only)",
        ),
    },
    required=["status", "title"],
)
_NAMED["ProblemDetails"] = "ProblemDetails"
_PROBLEM = OpenAPIMediaType(schema=ref("ProblemDetails"))

SCHEMAS["StreamEnd"] = Schema(
    type=OpenAPIType.OBJECT,
    title="StreamEnd",
    description="the data of an event stream's `end` event",
    properties={"version": _int64(f"the last version the stream sent, absent when it sent none; {INT64}")},
    additional_properties=False,
)
SCHEMAS["StreamEndEvent"] = Schema(
    type=OpenAPIType.OBJECT,
    title="StreamEndEvent",
    description="a server-sent event named `end`: the updates are over (the game or tournament ended) and the stream "
    "closes; reconnecting answers 204 No Content",
    properties={
        "event": Schema(type=OpenAPIType.STRING, const="end", description="the event's name"),
        "data": ref("StreamEnd"),
    },
    required=["event", "data"],
)
_NAMED.update(StreamEnd="StreamEnd", StreamEndEvent="StreamEndEvent")


def _event_schema(message: type[Message]) -> Schema:
    """An event stream's events: ``update`` events whose data is the message, then one ``end``."""
    name = message.DESCRIPTOR.name
    event = f"{name}Event"
    if _register(event, event):
        SCHEMAS[event] = Schema(
            type=OpenAPIType.OBJECT,
            title=event,
            description=f"a server-sent event named `update`: its `data` is a {name} in the proto3 JSON mapping (one "
            "line of JSON), its `id` the version it brings the stream to (send it back as Last-Event-ID to resume)",
            properties={
                "event": Schema(type=OpenAPIType.STRING, const="update", description="the event's name"),
                "id": _int64(f"the version; {INT64}"),
                "data": message_schema(message.DESCRIPTOR),
            },
            required=["event", "id", "data"],
        )
    return Schema(
        one_of=[ref(event), ref("StreamEndEvent")],
        discriminator=Discriminator(
            property_name="event",
            mapping={"update": f"#/components/schemas/{event}", "end": "#/components/schemas/StreamEndEvent"},
        ),
        description="one server-sent event; between events the stream sends comment lines (`: heartbeat`) that "
        "carry nothing, and a `retry:` line first",
    )


_READING = (
    "Read it with a server-sent events reader (a browser's EventSource, or an SSE library): each event's `data` is "
    "one line of JSON, the message its schema names. A request/response client generated from this document cannot "
    "read a stream, but its models (RoomUpdate, TournamentUpdate, StreamEnd) parse each event's data."
)
_VERSION = Schema(type=OpenAPIType.STRING, format="int64", pattern="^[0-9]+$", description=INT64)
_RESUME = [
    Parameter(
        name="Last-Event-ID",
        param_in="header",
        schema=_VERSION,
        description="resume after this version: an EventSource sends the last event's id when it reconnects",
    ),
    Parameter(
        name="after_version",
        param_in="query",
        schema=_VERSION,
        description="resume after this version, as Last-Event-ID does (the header wins where both are sent)",
    ),
]


def operation(
    response: type[Message],
    *,
    request: type[Message] | None = None,
    example: dict[str, Any] | None = None,
    status: str = "200",
    media_type: str = "application/json",
) -> type[Operation]:
    """An Operation class whose request and response bodies are references to the named messages' schemas, and
    whose refusals are ProblemDetails."""
    request_schema = message_schema(request.DESCRIPTOR) if request is not None else None
    stream = media_type == "text/event-stream"
    response_schema = _event_schema(response) if stream else message_schema(response.DESCRIPTOR)
    if stream and example is not None:  # the example is the message: show the event that carries it
        example = {"event": "update", "id": example.get("version", "1"), "data": example}

    class MessageOperation(Operation):
        def __init__(self, **fields: Any) -> None:
            super().__init__(**fields)
            if request_schema is not None:
                self.request_body = RequestBody(
                    content={"application/json": OpenAPIMediaType(schema=request_schema, example=example)},
                    required=False,
                    description=f"a {request.__name__} (the room id comes from the path)",  # type: ignore[union-attr]
                )
            described = f"{response.__name__} events" if stream else f"a {response.__name__}"
            responses: dict[str, OpenAPIResponse | Reference] = {
                status: OpenAPIResponse(
                    description=described,
                    content={
                        media_type: OpenAPIMediaType(
                            schema=response_schema, example=example if request_schema is None else None
                        )
                    },
                ),
            }
            if stream:
                self.description = f"{self.description or ''}\n\n{_READING}".strip()
                responses["204"] = OpenAPIResponse(
                    description="nothing is left after the version asked for, and the updates are over (an "
                    "EventSource stops reconnecting)"
                )
                self.parameters = [*(self.parameters or []), *_RESUME]
            for code, meaning in (("4XX", "refused: problem details"), ("5XX", "the game server failed or is away")):
                responses[code] = OpenAPIResponse(description=meaning, content={"application/problem+json": _PROBLEM})
            self.responses = responses

    return MessageOperation


def add_components(app: Litestar) -> None:
    """Put the messages' schemas into the app's document, beside whatever Litestar's own registry named.

    Litestar builds the document once, on first use, and sets ``components.schemas`` to its registry's schemas; this
    builds it now and adds ours, before any request reads it."""
    components = app.openapi_schema.components
    clash = set(components.schemas) & set(SCHEMAS)
    if clash:
        raise ValueError(f"schema names taken by Litestar's own schemas: {sorted(clash)}")
    components.schemas = {**components.schemas, **dict(sorted(SCHEMAS.items()))}
