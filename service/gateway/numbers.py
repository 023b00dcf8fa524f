"""Every integer a route takes in its path or query, checked in one place against the proto field it fills.

Litestar reads ``?after_version=9223372036854775808`` as a Python int, which has no bound, and the handler then puts
it into an int64 field, which has one: protobuf raised ValueError and the client got a bare 500. So as the app is
made, each route's integer parameters are looked up in its gRPC request message (a route's operation id is the name
of the gRPC method it calls, a parameter's name the name of the field it fills), and the field's type gives the
range: int32, sint32 and sfixed32 take -2^31 to 2^31-1, the 64-bit ones -2^63 to 2^63-1, uint32 and fixed32 0 to
2^32-1, uint64 and fixed64 0 to 2^64-1. A request whose value is outside that range, or is not a whole number written
in decimal digits, is refused 400 (``bad_request``) naming the parameter, before the handler runs (a guard: Litestar
runs guards before it reads any parameter). Narrower bounds are the handler's own (``page_size``: 0-500).

A route whose integer parameter names no field of its request message cannot be checked, so the app refuses to be
made with one. An integer in a path is declared ``{name:str}`` in the route's path (the handler still takes an int,
and the OpenAPI document says integer): Litestar's router answers 404 for a path segment an ``{name:int}`` cannot
read, and a non-number is a bad request, not a missing resource.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler, HTTPRouteHandler
from litestar.routes import HTTPRoute

from kickoff.v1 import (
    friend_pb2,
    game_pb2,
    match_pb2,
    move_pb2,
    operator_pb2,
    player_pb2,
    room_pb2,
    tournament_pb2,
    webhook_pb2,
)
from service.gateway.calls import KEY_CHECK
from service.gateway.problems import BadRequest

_MODULES = (friend_pb2, game_pb2, match_pb2, move_pb2, operator_pb2, player_pb2, room_pb2, tournament_pb2, webhook_pb2)
_T = FieldDescriptor
# The proto scalar types an integer parameter may fill: (the type's name, lowest, highest).
RANGES: dict[int, tuple[str, int, int]] = {
    _T.TYPE_INT32: ("int32", -(2**31), 2**31 - 1),
    _T.TYPE_SINT32: ("sint32", -(2**31), 2**31 - 1),
    _T.TYPE_SFIXED32: ("sfixed32", -(2**31), 2**31 - 1),
    _T.TYPE_INT64: ("int64", -(2**63), 2**63 - 1),
    _T.TYPE_SINT64: ("sint64", -(2**63), 2**63 - 1),
    _T.TYPE_SFIXED64: ("sfixed64", -(2**63), 2**63 - 1),
    _T.TYPE_UINT32: ("uint32", 0, 2**32 - 1),
    _T.TYPE_FIXED32: ("fixed32", 0, 2**32 - 1),
    _T.TYPE_UINT64: ("uint64", 0, 2**64 - 1),
    _T.TYPE_FIXED64: ("fixed64", 0, 2**64 - 1),
}
DIGITS = re.compile(r"[+-]?[0-9]{1,40}")  # (more digits than any of the types holds is out of range anyway)


@dataclass(frozen=True)
class Integer:
    """One integer parameter of a route: where it travels (``path`` or ``query``), its name, and its field's range."""

    source: str
    name: str
    proto_type: str
    lowest: int
    highest: int

    def check(self, text: str) -> None:
        if DIGITS.fullmatch(text.strip()) and self.lowest <= int(text) <= self.highest:
            return
        raise BadRequest(
            f"the {self.source} parameter {self.name} must be an integer from {self.lowest} to {self.highest} "
            f"({self.proto_type})",
            field=self.name,
        )


def request_messages() -> dict[str, Descriptor]:
    """Each kickoff.v1 gRPC method's request message, by the method's name (a route's operation id)."""
    found: dict[str, Descriptor] = {}
    for module in _MODULES:
        for service in module.DESCRIPTOR.services_by_name.values():
            for method in service.methods:
                found[method.name] = method.input_type
    return found


def _integers(route: HTTPRoute, handler: HTTPRouteHandler, messages: dict[str, Descriptor]) -> Iterator[Integer]:
    for name, parameter in handler.parsed_fn_signature.parameters.items():
        if parameter.annotation is not int:
            continue
        where = f"{'/'.join(sorted(handler.http_methods))} {route.path}"
        path = route.path_parameters.get(name)
        if path is not None and path.type is not str:
            raise ValueError(f"{where}: declare the integer path parameter {name} as {{{name}:str}} (see numbers.py)")
        message = messages.get(handler.operation_id) if isinstance(handler.operation_id, str) else None
        field = message.fields_by_name.get(name) if message is not None else None
        if field is None or field.type not in RANGES or field.is_repeated:
            raise ValueError(f"{where}: the integer parameter {name} fills no integer field of its gRPC request")
        proto_type, lowest, highest = RANGES[field.type]
        yield Integer("path" if path is not None else "query", name, proto_type, lowest, highest)


def integer_parameters(routes: Iterable[Any]) -> dict[Any, tuple[Integer, ...]]:
    """The function of every route handler that takes an integer, with those integers (ValueError for one that cannot
    be checked). (By function: Litestar hands each guard a copy of the handler.)"""
    messages = request_messages()
    table: dict[Any, tuple[Integer, ...]] = {}
    for route in routes:
        if not isinstance(route, HTTPRoute):
            continue
        for handler in route.route_handlers:
            integers = tuple(_integers(route, handler, messages))
            if integers:
                table[handler.fn] = integers
    return table


class IntegerGuard:
    """The Litestar guard that checks a request's integers against ``table`` (:func:`integer_parameters`)."""

    def __init__(self) -> None:
        self.table: dict[Any, tuple[Integer, ...]] = {}

    async def __call__(self, connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
        for integer in self.table.get(handler.fn, ()):
            if integer.source == "path":
                values = [str(connection.path_params.get(integer.name, ""))]
            else:
                values = connection.query_params.getall(integer.name, [])
            for value in values:
                try:
                    integer.check(value)
                except BadRequest:
                    # An operator's route: the key's refusal comes before any field's (calls.key_first).
                    key_check = handler.opt.get(KEY_CHECK)
                    if key_check is not None:
                        await key_check(connection, connection.app.state)()
                    raise
