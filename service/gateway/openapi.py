"""OpenAPI for the gateway, derived from the proto messages themselves.

Each request and response body is the proto3 JSON mapping of a kickoff.v1 message, so its schema is built from the
message's descriptor: camelCase field names, 64-bit integers as decimal strings (``format: int64``), enums by name,
unknown fields refused, and each request field's bounds (the ``(kickoff.v1.limit)`` option the server enforces) as
maxLength, maxItems and maxProperties. A field without presence says with its ``default`` what it holds when a request
leaves it out (0, false, "", [], {}, the enum's first name); a field with presence (a message, a proto3 ``optional``,
a oneof member) has none: missing means unset. The gateway's replies send every field without presence, zero values
included, so in a message only replies carry (not a request or a part of one) those fields are ``required``: a
generated client reads them as plain values, never as unset.

Every message and enum is one named schema in ``components.schemas`` (``Room``, ``RoomUpdate``,
``CreateRoomRequest``, ``RoomMode``...), referenced with ``$ref`` from the operations and from other schemas, so code
generators make one model per message; only the well-known types (Timestamp, Struct, Value, Any) are inlined. Every
refusal of every operation is the one ``ProblemDetails`` schema (RFC 9457). An event stream's schema is what an SSE
reader yields for each event, its ``data`` parsed (the message, or ``StreamEnd`` for the last): generated SSE clients
(@hey-api/openapi-ts) yield each event's data, typed by this schema; the event names and ids are in the description.

Litestar fills ``components.schemas`` from its own registry when it builds the document (empty here: the handlers
return plain dicts), so :func:`add_components` puts these schemas in afterwards; :data:`SECURITY_SCHEMES` go through
``OpenAPIConfig`` as usual.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message
from litestar import Litestar
from litestar.openapi.spec import (
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

DESCRIPTION = """HTTP/JSON for web and mobile clients: bodies and replies are the proto3 JSON mapping of the kickoff.v1
messages, each one schema in `components.schemas` named after its message.

- Replies send every field, zero values included (0, false, "", [], {}, the enum's first name): in a message only
  replies carry, those fields are `required`. Only a field with presence (a message, an optional number, a oneof's
  member) is left out, and then it is unset. A field a request leaves out holds the zero value its `default` names.
- 64-bit integers (versions, bounds) travel as decimal strings (`type: string, format: int64`), as the proto3 JSON
  mapping writes them: a JavaScript number is exact only up to 2^53. Requests may send them as strings or numbers.
- Enums travel by name (`ROOM_MODE_SOLO`); unknown fields in a request are refused.
- The seat token from joining a room or tournament is the bearer token (`bearerAuth`); creating rooms and tournaments
  takes an API key (`apiKey`, `X-API-Key`) where the server requires one.
- Every refusal is RFC 9457 problem details (`ProblemDetails`, `application/problem+json`), with a machine-readable
  `reason`.
- A request body is `application/json` (any other `Content-Type`, or a body without one: 415,
  `unsupported_media_type`); a request without a body needs no `Content-Type`. A POST or DELETE from a browser page
  whose `Origin` is neither the gateway's own nor one it lists is refused 403 (`origin_not_allowed`).
- A request whose `Host` is not one of the gateway's names is refused 400 (`host_not_allowed`). An integer in a path
  or a query outside the range of the field it fills (int32, int64), or not a number, is refused 400 (`bad_request`,
  `field` naming it).
- The event streams are server-sent events: `update` events (data: a RoomUpdate, a TournamentUpdate or a
  matchmaking Ticket, id: its version; resume with Last-Event-ID), then one `end` event (data: a StreamEnd) when the
  updates are over, or one `problem` event (data: ProblemDetails) when the server ends the stream for good
  (`seat_released`: the seat it was opened as was given back). A stream's schema is each event's data, as SSE
  readers yield it.
- Matchmaking (`/v1/tickets`: join a game's queue, follow the ticket, take the seat found up) is a signed-in
  player's: every route takes the access token (`playerAuth`), and a ticket is seen by its members only."""

SCHEMAS: dict[str, Schema] = {}  # the document's components.schemas: each message and enum once, by its name
_NAMED: dict[str, str] = {}  # component name -> the full proto name it stands for (two never share a name)
_MESSAGES: dict[str, Descriptor] = {}  # component name -> the message it is built from
_REQUESTS: dict[str, Descriptor] = {}  # the request bodies' messages, by full name

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
    "playerAuth": SecurityScheme(
        type="http",
        scheme="bearer",
        bearer_format="JWT",
        description="A player's access token (the `accessToken` of a session: POST /v1/players/guest, "
        "/v1/players/sign-in or /v1/sessions/refresh), as `Authorization: Bearer <token>`. On creating or joining a "
        "room or tournament it seats the player.",
    ),
    "apiKey": SecurityScheme(
        type="apiKey",
        name="X-API-Key",
        security_scheme_in="header",
        description="An API key (`kickoff keys`), for creating rooms and tournaments where the server requires one; "
        "a caller that sends one is counted (rates, streams) as that key's holder.",
    ),
    "operatorKey": SecurityScheme(
        type="apiKey",
        name="X-Operator-Key",
        security_scheme_in="header",
        description="An operator key (KICKOFF_OPERATOR_KEYS, or the webhooks' KICKOFF_OPERATOR_KEY), for the "
        "operators' APIs (/v1/ops, /v1/admin/webhooks); never an API key or a seat token.",
    ),
}
# What each kind of route takes: the seat token (required or optional), or an API key where the server asks for one.
SEAT: list[SecurityRequirement] = [{"bearerAuth": []}]
SEAT_OR_SPECTATOR: list[SecurityRequirement] = [{}, {"bearerAuth": []}]
SEAT_OR_PLAYER: list[SecurityRequirement] = [{"bearerAuth": []}, {"playerAuth": []}]  # a seat's, or a seated player's
CREATOR: list[SecurityRequirement] = [{}, {"apiKey": []}]
CREATOR_OR_PLAYER: list[SecurityRequirement] = [{}, {"apiKey": []}, {"playerAuth": []}]  # a player is seated
PLAYER: list[SecurityRequirement] = [{"playerAuth": []}]
PLAYER_OR_ANYONE: list[SecurityRequirement] = [{}, {"playerAuth": []}]
OPERATOR: list[SecurityRequirement] = [{"operatorKey": []}]

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
        _MESSAGES[name] = descriptor
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
    description="the data of an event stream's last event, named `end`: the updates are over (the game, the "
    "tournament or the matchmaking ticket ended) and the stream closes; reconnecting answers 204 No Content",
    properties={"version": _int64(f"the last version the stream sent, absent when it sent none; {INT64}")},
    additional_properties=False,
)
_NAMED["StreamEnd"] = "StreamEnd"


def _stream_schema(message: type[Message], marker: str) -> Schema:
    """What an SSE reader yields for each event of a stream: the event's data, parsed (the message; at the end a
    StreamEnd, or ProblemDetails where the server refused to go on). ``marker`` is a field the message always has and
    the other two never do, which tells them apart.

    That is what generated SSE clients yield (@hey-api/openapi-ts types its stream's items with this schema), so the
    stream is described as they read it; the events' names and ids, which they pass aside, are in the description."""
    name = message.DESCRIPTOR.name
    return Schema(
        one_of=[message_schema(message.DESCRIPTOR), ref("ProblemDetails"), ref("StreamEnd")],
        description=f"each event's data (one line of JSON): a {name} in each `update` event, whose id is the "
        "version it brings the stream to (send it back as Last-Event-ID to resume), then a StreamEnd in the one "
        "`end` event; or, where the server refuses to go on (the seat the stream was opened as changed hands), "
        f"ProblemDetails in a `problem` event, and the stream ends. A {name} always has `{marker}`, ProblemDetails "
        "`status` and `title`, a StreamEnd neither. Between events the stream sends comment lines (`: heartbeat`) "
        "that carry no data, and a `retry:` line first.",
    )


def _reading(name: str, marker: str) -> str:
    """How a client reads a stream of ``name`` messages (``marker``: a field only they have)."""
    return (
        "Read it with a server-sent events reader: a browser's EventSource (listen for `update` and `end`), an SSE "
        "library, or the SSE client of a generator such as @hey-api/openapi-ts, which yields each event's data "
        f"parsed, as the schema says: a {name} (it has `{marker}`), then the StreamEnd. A request/response client "
        f"generated from this document (openapi-python-client) cannot read a stream, but its models ({name}, "
        "StreamEnd) parse each event's data."
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
    marker: str = "events",
) -> type[Operation]:
    """An Operation class whose request and response bodies are references to the named messages' schemas, and
    whose refusals are ProblemDetails. An event stream (``media_type`` text/event-stream) is described by each event's
    data: ``response`` messages, told apart from the end and a problem by their field ``marker``."""
    request_schema = message_schema(request.DESCRIPTOR) if request is not None else None
    stream = media_type == "text/event-stream"
    if request is not None:
        _REQUESTS[request.DESCRIPTOR.full_name] = request.DESCRIPTOR
    response_schema = _stream_schema(response, marker) if stream else message_schema(response.DESCRIPTOR)

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
                self.description = f"{self.description or ''}\n\n{_reading(response.__name__, marker)}".strip()
                responses["204"] = OpenAPIResponse(
                    description="nothing is left after the version asked for, and the updates are over (an "
                    "EventSource stops reconnecting)"
                )
                self.parameters = [*(self.parameters or []), *_RESUME]
            refusals = [("4XX", "refused: problem details"), ("5XX", "the game server failed or is away")]
            if request_schema is not None:
                refusals.insert(0, ("415", "a body that is not `application/json` (`unsupported_media_type`)"))
            for code, meaning in refusals:
                responses[code] = OpenAPIResponse(description=meaning, content={"application/problem+json": _PROBLEM})
            self.responses = responses

    return MessageOperation


def _reachable(roots: Iterable[Descriptor]) -> set[str]:
    """The full names of the messages ``roots`` hold, themselves included, at any depth."""
    seen: set[str] = set()
    pending = list(roots)
    while pending:
        descriptor = pending.pop()
        if descriptor.full_name not in seen:
            seen.add(descriptor.full_name)
            pending.extend(f.message_type for f in descriptor.fields if f.message_type is not None)
    return seen


def mark_required() -> None:
    """Mark ``required`` the fields the replies always send: in each message that only replies carry (no request
    body holds it, at any depth), every field without presence, since the gateway sends those zero values included.
    A message that requests carry too (a Move: sent in SubmitMove, listed in the legal moves) marks none, as a request
    may leave such fields out; a field with presence is never required (missing means unset)."""
    in_requests = _reachable(_REQUESTS.values())
    for name, schema in SCHEMAS.items():
        descriptor = _MESSAGES.get(name)
        if descriptor is not None and descriptor.full_name not in in_requests:
            schema.required = [f.json_name for f in descriptor.fields if not f.has_presence] or None


def add_components(app: Litestar) -> None:
    """Put the messages' schemas into the app's document, beside whatever Litestar's own registry named.

    Litestar builds the document once, on first use, and sets ``components.schemas`` to its registry's schemas; this
    builds it now and adds ours, before any request reads it."""
    mark_required()
    components = app.openapi_schema.components
    clash = set(components.schemas) & set(SCHEMAS)
    if clash:
        raise ValueError(f"schema names taken by Litestar's own schemas: {sorted(clash)}")
    components.schemas = {**components.schemas, **dict(sorted(SCHEMAS.items()))}
