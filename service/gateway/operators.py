"""The REST routes of the OperatorService, under /v1/ops (the nodes and their leases, the live rooms, a room's
timeline; closing a room, revoking a seat's token, draining a node), and the operators' page at /ops. Each route calls
the gRPC method of the same name with the operator key (the ``X-Operator-Key`` header, passed on as
``x-operator-key`` metadata); bodies and replies are the proto3 JSON mapping of its messages, refusals problem
details. No reply is cached."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from litestar import Request, Response, get, post
from litestar.datastructures import CacheControlHeader, State
from litestar.params import FromPath, FromQuery
from litestar.static_files import create_static_files_router

from kickoff.v1 import operator_pb2, operator_pb2_grpc
from service.gateway.calls import KEY_CHECK, body, key_first, metadata, to_json, upstream
from service.gateway.calls import page_size as bounded_page
from service.gateway.openapi import OPERATOR, operation
from service.gateway.players import PRIVATE

TAGS = ["operators"]
# The operators' page (service/gateway/ops/): plain HTML, CSS and a JavaScript module, no build step, nothing fetched
# from anywhere else; served as /play is, with the same headers.
OPS_DIRECTORY = Path(__file__).parent / "ops"
OPS_PATH = "/ops"
OPS_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
ROOM_EXAMPLE = {
    "roomId": "3f2a9c1d4e5b6a70",
    "game": "soker",
    "status": "ROOM_STATUS_PLAYING",
    "mode": "ROOM_MODE_ONLINE",
    "seats": 4,
    "nodeId": "kickoff-0",
    "epoch": "3",
    "tournamentId": "",
    "createTime": "2026-12-01T10:00:00Z",
}


def _stub(state: State) -> tuple[operator_pb2_grpc.OperatorServiceStub, float]:
    up = upstream(state)
    if up.operators is None:
        up.operators = operator_pb2_grpc.OperatorServiceStub(up.channel)
    return up.operators, up.timeout


def _key_check(request: Request[Any, Any, Any], state: State) -> Callable[[], Awaitable[Any]]:
    """The request's operator key, checked by the cheapest call of the service (see calls.key_first)."""
    stub, timeout = _stub(state)
    check = operator_pb2.ListNodesRequest(page_size=1)
    return lambda: stub.ListNodes(check, metadata=metadata(request), timeout=timeout)


@get(
    "/v1/ops/nodes",
    operation_id="ListNodes",
    operation_class=operation(
        operator_pb2.ListNodesResponse,
        example={"nodes": [{"nodeId": "kickoff-0", "alive": True, "leases": 12, "thisNode": True}], "cluster": True},
    ),
    summary="The cluster's nodes (a single server: itself), each with the leases it holds",
    security=OPERATOR,
    opt={KEY_CHECK: _key_check},
    cache_control=PRIVATE,
    tags=TAGS,
)
async def list_nodes(
    request: Request[Any, Any, Any], state: State, page_size: FromQuery[int] = 0, page_token: FromQuery[str] = ""
) -> dict[str, Any]:
    stub, timeout = _stub(state)
    async with key_first(_key_check(request, state)):
        message = operator_pb2.ListNodesRequest(page_size=bounded_page(page_size), page_token=page_token)
    return to_json(await stub.ListNodes(message, metadata=metadata(request), timeout=timeout))


@get(
    "/v1/ops/leases",
    operation_id="ListLeases",
    operation_class=operation(operator_pb2.ListLeasesResponse, example={"leases": [], "nextPageToken": ""}),
    summary="The leases of live rooms and tournaments, by kind and id: their node and epoch",
    security=OPERATOR,
    opt={KEY_CHECK: _key_check},
    cache_control=PRIVATE,
    tags=TAGS,
)
async def list_leases(
    request: Request[Any, Any, Any],
    state: State,
    node_id: FromQuery[str] = "",
    page_size: FromQuery[int] = 0,
    page_token: FromQuery[str] = "",
) -> dict[str, Any]:
    stub, timeout = _stub(state)
    async with key_first(_key_check(request, state)):
        size = bounded_page(page_size)
    message = operator_pb2.ListLeasesRequest(node_id=node_id, page_size=size, page_token=page_token)
    return to_json(await stub.ListLeases(message, metadata=metadata(request), timeout=timeout))


@get(
    "/v1/ops/rooms",
    operation_id="ListLiveRooms",
    operation_class=operation(
        operator_pb2.ListLiveRoomsResponse, example={"rooms": [ROOM_EXAMPLE], "nextPageToken": ""}
    ),
    summary="The rooms waiting or playing, newest first, with the node that owns each (filter by node and game)",
    security=OPERATOR,
    opt={KEY_CHECK: _key_check},
    cache_control=PRIVATE,
    tags=TAGS,
)
async def list_live_rooms(
    request: Request[Any, Any, Any],
    state: State,
    node_id: FromQuery[str] = "",
    game: FromQuery[str] = "",
    page_size: FromQuery[int] = 0,
    page_token: FromQuery[str] = "",
) -> dict[str, Any]:
    stub, timeout = _stub(state)
    async with key_first(_key_check(request, state)):
        size = bounded_page(page_size)
    message = operator_pb2.ListLiveRoomsRequest(node_id=node_id, game=game, page_size=size, page_token=page_token)
    return to_json(await stub.ListLiveRooms(message, metadata=metadata(request), timeout=timeout))


@get(
    "/v1/ops/rooms/{room_id:str}/timeline",
    operation_id="GetRoomTimeline",
    operation_class=operation(
        operator_pb2.GetRoomTimelineResponse,
        example={"room": {}, "updates": [{"version": "1", "events": []}], "lastVersion": "1", "nextAfterVersion": "0"},
    ),
    summary="A room's log as its updates, each as a spectator saw it (no hand, no hidden card), a page at a time",
    description="Pass `nextAfterVersion` as `after_version` for the next page (0: the last page).",
    security=OPERATOR,
    opt={KEY_CHECK: _key_check},
    cache_control=PRIVATE,
    tags=TAGS,
)
async def get_room_timeline(
    room_id: FromPath[str],
    request: Request[Any, Any, Any],
    state: State,
    after_version: FromQuery[int] = 0,
    page_size: FromQuery[int] = 0,
) -> dict[str, Any]:
    stub, timeout = _stub(state)
    async with key_first(_key_check(request, state)):
        size = bounded_page(page_size)
    message = operator_pb2.GetRoomTimelineRequest(room_id=room_id, after_version=after_version, page_size=size)
    return to_json(await stub.GetRoomTimeline(message, metadata=metadata(request), timeout=timeout))


@post(
    "/v1/ops/rooms/{room_id:str}/close",
    operation_id="CloseRoom",
    operation_class=operation(
        operator_pb2.CloseRoomResponse, request=operator_pb2.CloseRoomRequest, example={"reason": "maintenance"}
    ),
    summary="End a waiting or playing room now: its outcome's reason is `closed_by_operator: <reason>`",
    description='Body: {"reason": "..."} (required, at most 64 characters). Nobody wins and the game is not rated; '
    "the seats' event streams get the end. 409 `room_finished` for a room already over, `tournament_room` for a "
    "tournament's game.",
    status_code=200,
    security=OPERATOR,
    opt={KEY_CHECK: _key_check},
    cache_control=PRIVATE,
    tags=TAGS,
)
async def close_room(room_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    async with key_first(_key_check(request, state)):
        message = await body(request, operator_pb2.CloseRoomRequest())
    message.room_id = room_id
    return to_json(await stub.CloseRoom(message, metadata=metadata(request), timeout=timeout))


@post(
    "/v1/ops/rooms/{room_id:str}/seats/{seat:str}/revoke",  # (an int: {seat:str} lets numbers.py refuse "x")
    operation_id="RevokeSeatToken",
    operation_class=operation(operator_pb2.RevokeSeatTokenResponse, example={}),
    summary="Revoke a seat's token: it opens nothing any more, and the streams opened with it end (seat_released)",
    description="A waiting room's seat is given back; a playing room's stays its holder's, for a signed-in player "
    "to take up again with a fresh token (`POST /v1/rooms/{room_id}/my-seat`). 409 `seat_not_held` for a seat "
    "nobody holds.",
    status_code=200,
    security=OPERATOR,
    opt={KEY_CHECK: _key_check},
    cache_control=PRIVATE,
    tags=TAGS,
)
async def revoke_seat_token(
    room_id: FromPath[str], seat: FromPath[int], request: Request[Any, Any, Any], state: State
) -> dict[str, Any]:
    stub, timeout = _stub(state)
    async with key_first(_key_check(request, state)):
        message = operator_pb2.RevokeSeatTokenRequest(room_id=room_id, seat=seat)
    return to_json(await stub.RevokeSeatToken(message, metadata=metadata(request), timeout=timeout))


@post(
    "/v1/ops/nodes/{node_id:str}/drain",
    operation_id="DrainNode",
    operation_class=operation(
        operator_pb2.DrainNodeResponse, example={"nodeId": "kickoff-1", "rooms": 40, "tournaments": 1, "leases": 41}
    ),
    summary="Drain a node as SIGTERM does (its rooms handed over, its leases given back), leaving its process up",
    description="409 `not_a_cluster` on a single server, `node_not_alive` for a node gone; 404 `node_not_found`.",
    status_code=200,
    security=OPERATOR,
    opt={KEY_CHECK: _key_check},
    cache_control=PRIVATE,
    tags=TAGS,
)
async def drain_node(node_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = operator_pb2.DrainNodeRequest(node_id=node_id)
    return to_json(await stub.DrainNode(message, metadata=metadata(request), timeout=timeout + 30))


OPERATOR_ROUTES = [
    list_nodes,
    list_leases,
    list_live_rooms,
    get_room_timeline,
    close_room,
    revoke_seat_token,
    drain_node,
]


def _ops_headers(response: Response[Any]) -> Response[Any]:
    response.headers.update(OPS_HEADERS)
    return response


def ops_router() -> Any:
    """The operators' page at /ops: static files (no build step), read-only, calling the routes above with the key
    typed in (kept in the tab's sessionStorage, sent as X-Operator-Key); the page itself holds no secret."""
    return create_static_files_router(
        path=OPS_PATH,
        directories=[OPS_DIRECTORY],
        html_mode=True,
        name="ops",
        cache_control=CacheControlHeader(no_cache=True),
        after_request=_ops_headers,
    )
