"""Every integer a route takes in its path or query is checked against the range of the proto field it fills: a value
outside it, or not a number, is a 400 problem naming the parameter (it was an unlogged 500 for after_version=2**63).
The routes are found in the OpenAPI document, not listed here, and the ranges come from the proto descriptors. A 500
the gateway answers is logged with the request's trace id, and tells the client nothing of the error."""

from __future__ import annotations

import logging
import re
from typing import Any

import grpc
import pytest
from google.protobuf.descriptor import FieldDescriptor
from litestar import Litestar, get
from litestar.params import FromPath, FromQuery
from litestar.testing import AsyncTestClient
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

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
from service.gateway.app import create_app
from service.gateway.numbers import RANGES, Integer
from service.gateway.numbers import integer_parameters as integer_parameters_of
from service.gateway.problems import BadRequest
from service.telemetry import build

UNSIGNED = {FieldDescriptor.TYPE_UINT32: 32, FieldDescriptor.TYPE_FIXED32: 32}
UNSIGNED |= {FieldDescriptor.TYPE_UINT64: 64, FieldDescriptor.TYPE_FIXED64: 64}
BITS_32 = {FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_SFIXED32}


def proto_range(operation_id: str, name: str) -> tuple[int, int]:
    """The range of the field ``name`` of the request message of the gRPC method ``operation_id``, from its type."""
    modules = (
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
    methods = [
        method
        for module in modules
        for service in module.DESCRIPTOR.services_by_name.values()
        for method in service.methods
        if method.name == operation_id
    ]
    assert len(methods) == 1, f"{operation_id} is one gRPC method"
    field = methods[0].input_type.fields_by_name[name]
    if field.type in UNSIGNED:
        return 0, 2 ** UNSIGNED[field.type] - 1
    bits = 32 if field.type in BITS_32 else 64
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


def integer_parameters(document: dict[str, Any]) -> list[tuple[str, str, str, str, str]]:
    """(method, path, operation id, parameter, where) for every integer parameter of every route in the document."""
    found = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", ()):
                if parameter.get("schema", {}).get("type") == "integer":
                    found.append((method.upper(), path, operation["operationId"], parameter["name"], parameter["in"]))
    return found


def operator_keyed(document: dict[str, Any]) -> set[str]:
    """The operation ids of the routes that take an operator key (their key is checked before any field)."""
    return {
        operation["operationId"]
        for operations in document["paths"].values()
        for operation in operations.values()
        if any("operatorKey" in requirement for requirement in operation.get("security", ()))
    }


def url(path: str, name: str, where: str, value: str) -> str:
    """The route's path with every path parameter filled (``value`` for ``name``, else a placeholder)."""
    filled = re.sub(r"\{(\w+)\}", lambda m: value if m[1] == name else "0" if m[1] == "seat" else "x1", path)
    return filled if where == "path" else f"{filled}?{name}={value}"


async def test_every_integer_parameter_out_of_its_fields_range_or_not_a_number_is_a_400_naming_it() -> None:
    app = create_app("127.0.0.1:1", timeout=1.0, web=False)  # (nothing listens there: no call gets that far)
    document = app.openapi_schema.to_schema()
    parameters = integer_parameters(document)
    keyed = operator_keyed(document)
    assert {"GetRoomTimeline", "RevokeSeatToken", "ListDeliveries"} <= keyed
    assert {("GetReplay", "after_version"), ("GetRoomTimeline", "after_version"), ("RevokeSeatToken", "seat")} <= {
        (operation, name) for _, _, operation, name, _ in parameters
    }, "the routes the attacker named are among those found"
    answers: dict[tuple[str, str, str], tuple[int, str, str]] = {}
    async with AsyncTestClient(app, base_url="http://127.0.0.1:8080") as http:
        for method, path, operation, name, where in parameters:
            lowest, highest = proto_range(operation, name)
            bad = [str(highest + 1), "2" * 30, "x", "1.5", "", "0x10"] + ([str(lowest - 1)] if lowest == 0 else [])
            for value in [str(2**63), *bad]:
                if value == "" and where == "path":
                    continue  # (an empty path segment is another route)
                response = await http.request(method, url(path, name, where, value))
                body = response.json()
                answers[operation, name, value] = (response.status_code, body.get("reason"), body.get("field"))
    # An operator's route asks the service about the key first (calls.key_first; tests/ops/test_rest.py has the 400
    # with the right key): nothing listens here, so the refusal is the service's absence, never a 500.
    wrong = {
        key: answer
        for key, answer in answers.items()
        if answer != ((503, "unavailable", None) if key[0] in keyed else (400, "bad_request", key[1]))
    }
    assert not wrong, "each is refused 400 naming the parameter (an operator's route: after its key)"
    assert answers[("GetReplay", "after_version", str(2**63))] == (400, "bad_request", "after_version")


async def test_a_value_at_the_edge_of_its_fields_range_is_not_refused_by_the_check() -> None:
    app = create_app("127.0.0.1:1", timeout=1.0, web=False)
    async with AsyncTestClient(app, base_url="http://127.0.0.1:8080") as http:
        too_far = await http.get(f"/v1/rooms/x1/replay?after_version={2**63}")
        assert too_far.status_code == 400 and "int64" in too_far.json()["detail"]
        for value in (2**63 - 1, -(2**63)):
            response = await http.get(f"/v1/rooms/x1/replay?after_version={value}")
            assert response.json()["reason"] != "bad_request", "the call goes on to the server (which is away: 503)"
            assert response.status_code == 503


class Failing:
    """A stub whose calls fail the way the server or a bug would make them fail."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    async def ListGames(self, *args: Any, **kwargs: Any) -> Any:
        raise self.error


@pytest.mark.parametrize(
    ("error", "logged"),
    [
        (RuntimeError("internal detail 7f3a"), "GET /v1/games failed"),
        (
            grpc.aio.AioRpcError(grpc.StatusCode.INTERNAL, grpc.aio.Metadata(), grpc.aio.Metadata(), "a bug 7f3a"),
            "the game server answered INTERNAL",
        ),
    ],
    ids=["the gateway's own error", "the server's INTERNAL"],
)
async def test_a_500_is_logged_with_the_requests_trace_id_and_tells_the_client_nothing_of_the_error(
    caplog: pytest.LogCaptureFixture, error: Exception, logged: str
) -> None:
    caplog.set_level(logging.ERROR)
    spans = InMemorySpanExporter()
    telemetry = build("kickoff-gateway", span_processors=[SimpleSpanProcessor(spans)])
    app = create_app("127.0.0.1:1", timeout=1.0, web=False, telemetry=telemetry)
    # (Litestar's logging configuration, applied as the app is made, replaces the root logger's handlers: caplog's
    # goes on the gateway's logger)
    logger = logging.getLogger("service.gateway")
    logger.addHandler(caplog.handler)
    try:
        async with AsyncTestClient(app, base_url="http://127.0.0.1:8080") as http:
            app.state.upstream.games = Failing(error)  # (the app's stubs, made as it started)
            response = await http.get("/v1/games")
    finally:
        logger.removeHandler(caplog.handler)
    assert response.status_code == 500
    assert response.headers["content-type"].startswith("application/problem+json")
    if isinstance(error, RuntimeError):
        assert response.json()["reason"] == "internal"
        assert "7f3a" not in response.text and "RuntimeError" not in response.text, "no internals reach the client"
    (span,) = [span for span in spans.get_finished_spans() if span.name == "GET /v1/games"]
    trace_id = format(span.context.trace_id, "032x")
    lines = [record for record in caplog.records if record.levelno >= logging.ERROR and logged in record.getMessage()]
    assert len(lines) == 1, "the 500 is logged once"
    assert trace_id in lines[0].getMessage(), "with the request's trace id"
    if isinstance(error, RuntimeError):
        assert lines[0].exc_info is not None and lines[0].exc_info[1] is error, "and the whole error"
    telemetry.shutdown()


def test_a_route_whose_integer_cannot_be_checked_stops_the_app_from_being_made() -> None:
    @get("/v1/rooms/{room_id:str}/replay", operation_id="GetReplay")
    async def unknown_field(room_id: FromPath[str], after: FromQuery[int] = 0) -> None: ...

    @get("/v1/ops/rooms/{room_id:str}/seats/{seat:int}", operation_id="RevokeSeatToken")
    async def int_in_path(room_id: FromPath[str], seat: FromPath[int]) -> None: ...

    @get("/v1/things", operation_id="NoSuchMethod")
    async def unknown_method(page_size: FromQuery[int] = 0) -> None: ...

    with pytest.raises(ValueError, match="after fills no integer field"):
        integer_parameters_of(Litestar([unknown_field]).routes)
    with pytest.raises(ValueError, match=r"declare the integer path parameter seat as \{seat:str\}"):
        integer_parameters_of(Litestar([int_in_path]).routes)
    with pytest.raises(ValueError, match="page_size fills no integer field"):
        integer_parameters_of(Litestar([unknown_method]).routes)


def test_an_unsigned_field_refuses_a_negative_number() -> None:
    # (no route takes an unsigned integer today: the check itself, with the range numbers.py gives uint32 and uint64)
    for proto_type in (FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED32):
        name, lowest, highest = RANGES[proto_type]
        unsigned = Integer("query", "count", name, lowest, highest)
        unsigned.check("0")
        unsigned.check(str(highest))
        for value in ("-1", str(highest + 1)):
            with pytest.raises(BadRequest) as refused:
                unsigned.check(value)
            assert refused.value.status_code == 400 and refused.value.extra["field"] == "count"
            assert f"from 0 to {highest} ({name})" in refused.value.detail
