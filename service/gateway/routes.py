"""The REST routes, built at start-up from the contract: one Litestar route handler per ``google.api.http`` binding
of the kickoff.v1 RPCs (proto/), so that adding an RPC to REST is one annotation.

A binding gives the method and the path template (``/v1/rooms/{room_id}``: each ``{field}`` fills that field of the
request message); its ``body`` says where the request body goes (``*``: the whole message, a field's name: that
field, none: no body is read); for a GET the request message's other fields (numbers, strings, enums) are query
parameters of the same name; ``response_body`` names the reply's field a route answers (CreateRoom answers the Room,
not ``{"room": ...}``). A path field is set after the body is read, so the path wins. Query parameters are read as
they always were: ``page_size`` bounded 0-500 (calls.page_size), an enum by its short name or its own
(calls.status_filter), an integer checked against its field's range before the handler runs (numbers.py; an integer
in a path is declared ``{name:str}`` in the route for that). What a binding cannot say (words, examples, security,
201 for a creation, caching, the caller's metadata) is operations.py's declared table.

Each route calls its RPC on the service's stub with the call's deadline: a RoomService or MoveService call that
addresses a room goes to the room's owner (calls.room_call); an operator's route reads its fields inside
calls.key_first, so that a caller without the right key hears the key's refusal first. The server-streaming RPCs
(the event streams) keep their hand-written routes (streams.py): :func:`routes` checks that each binding of one is
served by one of them, at its path and method.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from google.api import annotations_pb2, http_pb2
from google.protobuf.descriptor import FieldDescriptor, MethodDescriptor, ServiceDescriptor
from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper
from google.protobuf.message_factory import GetMessageClass
from litestar import Request
from litestar.datastructures import State
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath, FromQuery

import kickoff.v1
from service.gateway.calls import (
    KEY_CHECK,
    PRIVATE,
    body,
    key_first,
    metadata,
    page_size,
    room_call,
    status_filter,
    to_json,
    upstream,
)
from service.gateway.openapi import operation
from service.gateway.operations import BINDING_IDS, ME, OPERATIONS, SERVICES, Rest, Service, default_service, summary

_TEMPLATE = re.compile(r"\{(\w+)\}")
_INTEGERS = {
    FieldDescriptor.TYPE_INT32,
    FieldDescriptor.TYPE_INT64,
    FieldDescriptor.TYPE_SINT32,
    FieldDescriptor.TYPE_SINT64,
    FieldDescriptor.TYPE_SFIXED32,
    FieldDescriptor.TYPE_SFIXED64,
    FieldDescriptor.TYPE_UINT32,
    FieldDescriptor.TYPE_UINT64,
    FieldDescriptor.TYPE_FIXED32,
    FieldDescriptor.TYPE_FIXED64,
}
_QUERY_TYPES = _INTEGERS | {FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_ENUM, FieldDescriptor.TYPE_BOOL}


def services() -> Iterator[ServiceDescriptor]:
    """Every kickoff.v1 service, from the generated modules in clients/kickoff/v1."""
    for module in pkgutil.iter_modules(kickoff.v1.__path__):
        if module.name.endswith("_pb2"):
            yield from importlib.import_module(f"kickoff.v1.{module.name}").DESCRIPTOR.services_by_name.values()


def bindings(method: MethodDescriptor) -> list[http_pb2.HttpRule]:
    """The method's HTTP bindings: its google.api.http rule and that rule's additional bindings (none: gRPC-only)."""
    options = method.GetOptions()
    if not options.HasExtension(annotations_pb2.http):
        return []
    rule = options.Extensions[annotations_pb2.http]
    return [rule, *rule.additional_bindings]


def verb_and_path(rule: http_pb2.HttpRule) -> tuple[str, str]:
    kind = rule.WhichOneof("pattern")
    if kind not in ("get", "post", "put", "patch", "delete"):
        raise ValueError(f"the HTTP binding {rule} is not one the gateway serves (get, post, put, patch, delete)")
    return kind, getattr(rule, kind)


@dataclass(frozen=True)
class Binding:
    """One binding of one RPC, read once at start-up: what its handler does with each request."""

    method: MethodDescriptor
    request: Any  # the request message's class
    service: Service
    rest: Rest
    body: str
    response_body: str
    path_fields: tuple[FieldDescriptor, ...]
    query_fields: tuple[FieldDescriptor, ...]

    @property
    def caller(self) -> bool:
        return self.rest.caller if self.rest.caller is not None else self.rest.security is not None

    async def message(self, request: Request[Any, Any, Any], values: dict[str, Any]) -> Any:
        """The gRPC request: the body where the binding maps one, then the path's fields, then the query's."""
        message = self.request()
        if self.body == "*":
            message = await body(request, message)
        elif self.body:
            part = getattr(message, self.body)
            part.CopyFrom(await body(request, type(part)()))
        for field in self.path_fields:
            value = values[field.name]
            setattr(message, field.name, "" if (field.name, value) == ME else value)
        for field in self.query_fields:
            value = values[field.name]
            if field.name == "page_size":
                value = page_size(value)
            elif field.type == FieldDescriptor.TYPE_ENUM:
                if not value:
                    continue
                prefix = field.enum_type.values[0].name.removesuffix("UNSPECIFIED")
                value = status_filter(EnumTypeWrapper(field.enum_type), prefix, value, name=field.name)
            setattr(message, field.name, value)
        return message

    async def answer(self, request: Request[Any, Any, Any], state: State, values: dict[str, Any]) -> dict[str, Any]:
        up = upstream(state)
        if self.service.key_check is None:
            message = await self.message(request, values)
        else:
            async with key_first(self.key_check(request, state)):
                message = await self.message(request, values)
        carried = metadata(request) if self.caller else None
        name, attribute = self.method.name, self.service.stub
        if self.service.owner and "room_id" in values:
            method = lambda stubs: getattr(getattr(stubs, attribute), name)  # noqa: E731
            reply = await room_call(up, values["room_id"], method, message, carried or ())
        else:
            stub = up.stub(attribute, self.method.containing_service)
            timeout = up.timeout + self.rest.extra_seconds
            reply = await getattr(stub, name)(message, metadata=carried, timeout=timeout)
        return to_json(getattr(reply, self.response_body) if self.response_body else reply)

    def key_check(self, request: Request[Any, Any, Any], state: State) -> Callable[[], Awaitable[Any]]:
        """The request's operator key, checked by the service's cheapest call (see calls.key_first)."""
        assert self.service.key_check is not None
        name, fields = self.service.key_check
        service = self.method.containing_service
        up = upstream(state)
        call = getattr(up.stub(self.service.stub, service), name)
        check = GetMessageClass(service.methods_by_name[name].input_type)(**fields)
        return lambda: call(check, metadata=metadata(request), timeout=up.timeout)


def _binding(method: MethodDescriptor, rule: http_pb2.HttpRule, rest: Rest, service: Service) -> Binding:
    verb, template = verb_and_path(rule)
    fields = method.input_type.fields_by_name
    named = _TEMPLATE.findall(template)
    if template.count("{") != len(named):
        raise ValueError(f"{method.full_name}: {template}: the gateway reads only {{field}} in a path, no pattern")
    for name in named:
        if name not in fields or fields[name].is_repeated or fields[name].type not in _QUERY_TYPES:
            raise ValueError(f"{method.full_name}: {template} names {name}, no string or number of its request")
    if rule.body not in ("", "*") and (rule.body not in fields or fields[rule.body].message_type is None):
        raise ValueError(f"{method.full_name}: its body {rule.body} is no message field of its request")
    if rule.response_body and rule.response_body not in method.output_type.fields_by_name:
        raise ValueError(f"{method.full_name}: its response_body {rule.response_body} is no field of its reply")
    query = ()
    if verb == "get" and rest.query:
        query = tuple(
            f for f in method.input_type.fields if f.name not in named and not f.is_repeated and f.type in _QUERY_TYPES
        )
    request = GetMessageClass(method.input_type)
    return Binding(
        method, request, service, rest, rule.body, rule.response_body, tuple(fields[n] for n in named), query
    )


def _handler(binding: Binding, verb: str, template: str, operation_id: str) -> HTTPRouteHandler:
    """The Litestar route handler of one binding: its signature names the path and query parameters (Litestar reads
    and documents them from it, as for a handler written by hand), its operation the request and reply messages."""

    async def handle(request: Request[Any, Any, Any], state: State, **values: Any) -> dict[str, Any]:
        return await binding.answer(request, state, values)

    annotations: dict[str, Any] = {"request": Request[Any, Any, Any], "state": State}
    defaults: dict[str, Any] = {}
    for field in binding.path_fields:
        annotations[field.name] = FromPath[int] if field.type in _INTEGERS else FromPath[str]  # type: ignore[valid-type]
    for field in binding.query_fields:
        if field.type == FieldDescriptor.TYPE_BOOL:  # (true or false, as Litestar reads them)
            annotations[field.name], defaults[field.name] = FromQuery[bool], False  # type: ignore[valid-type]
            continue
        integer = field.type in _INTEGERS
        annotations[field.name] = FromQuery[int] if integer else FromQuery[str]  # type: ignore[valid-type]
        defaults[field.name] = 0 if integer else ""
    keyword = inspect.Parameter.KEYWORD_ONLY
    handle.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter(n, keyword, annotation=a, default=defaults.get(n, inspect.Parameter.empty))
            for n, a in annotations.items()
        ],
        return_annotation=dict[str, Any],
    )
    handle.__annotations__ = {**annotations, "return": dict[str, Any]}
    handle.__name__ = handle.__qualname__ = re.sub(r"(?<!^)([A-Z])", r"_\1", operation_id).lower()
    rest, service = binding.rest, binding.service
    reply = binding.method.output_type
    if binding.response_body:
        reply = reply.fields_by_name[binding.response_body].message_type
    private = rest.private if rest.private is not None else service.private
    return HTTPRouteHandler(
        path=_TEMPLATE.sub(r"{\1:str}", template),  # (an integer too: numbers.py refuses one that is not a number)
        http_method=verb.upper(),
        status_code=201 if rest.created else 200,
        operation_id=operation_id,
        operation_class=operation(
            GetMessageClass(reply),
            request=binding.request if binding.body else None,
            status="201" if rest.created else "200",
            example=rest.example,
        ),
        summary=rest.summary or summary(operation_id),
        description=rest.description,
        security=rest.security,
        tags=[rest.tag or service.tag],
        cache_control=PRIVATE if private else None,
        opt={KEY_CHECK: binding.key_check} if service.key_check is not None else {},
    )(handle)


def _served(handlers: Iterable[HTTPRouteHandler]) -> set[tuple[str, str]]:
    """(method, path template) of hand-written handlers, ``{name:type}`` read as ``{name}``."""
    return {
        (verb.lower(), re.sub(r"\{(\w+):\w+\}", r"{\1}", path))
        for handler in handlers
        for verb in handler.http_methods
        for path in handler.paths
    }


def routes(
    hand_written: Iterable[HTTPRouteHandler] = (), of: Iterable[ServiceDescriptor] | None = None
) -> list[HTTPRouteHandler]:
    """A route handler for every binding of every unary RPC of the services ``of`` (by default every kickoff.v1
    service). A streaming RPC's bindings must be served by one of the ``hand_written`` handlers (the event streams):
    ValueError names one that is not, as for a binding that names no field of its request."""
    served = _served(hand_written)
    made: list[HTTPRouteHandler] = []
    for service_descriptor in services() if of is None else of:
        service = SERVICES.get(service_descriptor.full_name) or default_service(service_descriptor.full_name)
        for method in service_descriptor.methods:
            for index, rule in enumerate(bindings(method)):
                verb, template = verb_and_path(rule)
                if method.server_streaming or method.client_streaming:
                    if (verb, template) not in served:
                        raise ValueError(
                            f"{method.full_name}: a stream bound to {verb} {template} that no hand-written route serves"
                        )
                    continue
                operation_id = method.name if index == 0 else BINDING_IDS[f"{verb.upper()} {template}"]
                rest = OPERATIONS.get(operation_id, Rest())
                made.append(_handler(_binding(method, rule, rest, service), verb, template, operation_id))
    return made
