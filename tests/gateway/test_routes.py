"""The gateway's routes come from the contract: every RPC REST serves has its google.api.http binding in proto/, and a
new RPC needs nothing in the gateway but that annotation to be served and documented (routes.py).

The new RPC here is made up for the test (kickoff.test.RivalService, in a file descriptor of its own), and its stub
is a fake that records what it was asked: the route is read from the annotation alone, with the defaults of
operations.py (its tag from the service, its summary from its name)."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from google.api import annotations_pb2
from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.descriptor import ServiceDescriptor
from google.protobuf.message_factory import GetMessageClass
from litestar import Litestar, get
from litestar.plugins.problem_details import ProblemDetailsConfig, ProblemDetailsPlugin
from litestar.testing import AsyncTestClient

from service.gateway import openapi
from service.gateway.calls import Upstream
from service.gateway.openapi import add_components
from service.gateway.routes import bindings, routes, services

PROTO = Path(__file__).parents[2] / "proto" / "kickoff" / "v1"
F = descriptor_pb2.FieldDescriptorProto


@pytest.fixture(autouse=True)
def own_schemas(monkeypatch: pytest.MonkeyPatch) -> None:
    """The made-up messages' schemas go into copies of the registries, not into the gateway's document: the schemas
    themselves copied too, since building a document marks their required fields (a test's app, with only its own
    requests, would otherwise leave the real document's schemas marked as its own)."""
    for name in ("_NAMED", "_MESSAGES", "_REQUESTS"):
        monkeypatch.setattr(openapi, name, dict(getattr(openapi, name)))
    monkeypatch.setattr(openapi, "SCHEMAS", copy.deepcopy(openapi.SCHEMAS))


def test_every_rpc_has_a_binding_or_says_it_is_grpc_only() -> None:
    """An RPC REST does not serve says so in its comment, so that leaving one out is a choice, never forgotten."""
    texts = {path.name: path.read_text() for path in PROTO.glob("*.proto")}
    unbound = []
    for service in services():
        for method in service.methods:
            if bindings(method):
                continue
            text = texts[service.file.name.rsplit("/", 1)[-1]]
            comment = re.search(r"((?:\n  //[^\n]*)+)\n  rpc " + method.name + r"\(", text)
            if comment is None or "gRPC-only" not in comment.group(1):
                unbound.append(method.full_name)
    assert unbound == []
    bound = [method.name for service in services() for method in service.methods if bindings(method)]
    assert len(bound) >= 57 and "CreateRoom" in bound and "Play" not in bound


def rival_service(stream: bool = False) -> ServiceDescriptor:
    """kickoff.test.RivalService: ListRivals bound to GET /v1/players/{player_id}/rivals (and, with ``stream``, a
    server stream bound to GET /v1/players/{player_id}/rivals/events)."""
    name = f"kickoff/test/rival{'_stream' if stream else ''}.proto"
    pool = descriptor_pool.Default()
    try:
        return pool.FindFileByName(name).services_by_name["RivalService"]
    except KeyError:
        pass
    file = descriptor_pb2.FileDescriptorProto(
        name=name, package=f"kickoff.test{'.stream' if stream else ''}", syntax="proto3"
    )
    file.dependency.append("google/api/annotations.proto")
    status = file.enum_type.add(name="RivalStatus")
    for number, value in enumerate(("FRIEND_STATUS_UNSPECIFIED", "FRIEND_STATUS_ONLINE", "FRIEND_STATUS_AWAY")):
        status.value.add(name=value, number=number)
    request = file.message_type.add(name="ListRivalsRequest")
    request.field.add(name="player_id", number=1, type=F.TYPE_STRING, json_name="playerId")
    request.field.add(name="page_size", number=2, type=F.TYPE_INT32, json_name="pageSize")
    request.field.add(
        name="status", number=3, type=F.TYPE_ENUM, type_name=f".{file.package}.RivalStatus", json_name="status"
    )
    reply = file.message_type.add(name="ListRivalsResponse")
    reply.field.add(name="names", number=1, type=F.TYPE_STRING, label=F.LABEL_REPEATED, json_name="names")
    service = file.service.add(name="RivalService")
    method = service.method.add(
        name="ListRivals",
        input_type=f".{file.package}.ListRivalsRequest",
        output_type=f".{file.package}.ListRivalsResponse",
    )
    method.options.Extensions[annotations_pb2.http].get = "/v1/players/{player_id}/rivals"
    if stream:
        follow = service.method.add(
            name="FollowRivals",
            input_type=f".{file.package}.ListRivalsRequest",
            output_type=f".{file.package}.ListRivalsResponse",
            server_streaming=True,
        )
        follow.options.Extensions[annotations_pb2.http].get = "/v1/players/{player_id}/rivals/events"
    pool.Add(file)
    return pool.FindFileByName(name).services_by_name["RivalService"]


class FakeRivals:
    def __init__(self) -> None:
        self.asked: list[Any] = []

    async def ListRivals(self, request: Any, metadata: Any = None, timeout: float = 0) -> Any:
        self.asked.append(request)
        return GetMessageClass(rival_service().methods_by_name["ListRivals"].output_type)(names=["bob", "cy"])


async def test_a_new_rpc_is_served_and_documented_from_its_annotation_alone() -> None:
    service = rival_service()
    fake = FakeRivals()
    app = Litestar(
        route_handlers=routes(of=[service]),
        plugins=[ProblemDetailsPlugin(ProblemDetailsConfig(enable_for_all_http_exceptions=True))],
    )
    app.state.upstream = Upstream(None, None, None, None, None, 1.0, made={service.full_name: fake})  # type: ignore[arg-type]
    add_components(app)
    async with AsyncTestClient(app) as http:
        answer = await http.get("/v1/players/ann/rivals", params={"page_size": 3, "status": "online"})
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"names": ["bob", "cy"]}
        (asked,) = fake.asked
        assert (asked.player_id, asked.page_size, asked.status) == ("ann", 3, 1)
        assert (await http.get("/v1/players/me/rivals")).status_code == 200
        assert fake.asked[-1].player_id == ""  # (me: the caller)
        too_many = await http.get("/v1/players/ann/rivals", params={"page_size": 501})
        assert too_many.status_code == 400 and too_many.json()["field"] == "page_size"
        unknown = await http.get("/v1/players/ann/rivals", params={"status": "asleep"})
        assert unknown.status_code == 400 and unknown.json()["detail"] == "status must be one of online, away"
        document = (await http.get("/schema/openapi.json")).json()
    operation = document["paths"]["/v1/players/{player_id}/rivals"]["get"]
    assert operation["operationId"] == "ListRivals" and operation["tags"] == ["rivals"]
    assert operation["summary"] == "List rivals"
    assert [(p["name"], p["in"]) for p in operation["parameters"]] == [
        ("player_id", "path"),
        ("page_size", "query"),
        ("status", "query"),
    ]
    assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ListRivalsResponse"
    }


def test_a_stream_bound_without_its_hand_written_route_stops_the_gateway_from_starting() -> None:
    service = rival_service(stream=True)
    with pytest.raises(
        ValueError, match=re.escape("FollowRivals: a stream bound to get /v1/players/{player_id}/rivals/events")
    ):
        routes(of=[service])

    @get("/v1/players/{player_id:str}/rivals/events")
    async def follow_rivals(player_id: str) -> None: ...

    made = routes([follow_rivals], of=[service])
    assert [sorted(handler.paths) for handler in made] == [["/v1/players/{player_id:str}/rivals"]]
