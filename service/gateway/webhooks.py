"""The REST routes of the WebhookService, the operators' admin API: endpoints registered, listed, removed and
tested, and their deliveries listed (the dead letters: ``?status=dead``) and sent again. Each calls the gRPC method
of the same name with the operator key (the ``X-Operator-Key`` header); bodies and replies are the proto3 JSON
mapping of its messages, refusals problem details. No reply is cached (one holds a secret, shown once)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from litestar import Request, delete, get, post
from litestar.datastructures import State
from litestar.params import FromPath, FromQuery

from kickoff.v1 import webhook_pb2
from service.gateway.calls import KEY_CHECK, body, key_first, metadata, status_filter, to_json, upstream
from service.gateway.calls import page_size as bounded_page
from service.gateway.openapi import OPERATOR, operation
from service.gateway.players import PRIVATE

ENDPOINT_EXAMPLE = {
    "endpointId": "we_3f2a9c1d4e5b6a70",
    "url": "https://push.example.com/kickoff",
    "events": ["WEBHOOK_EVENT_TURN_BEGAN", "WEBHOOK_EVENT_GAME_ENDED"],
    "description": "the app's push service",
    "maxInFlight": 4,
    "timeoutSeconds": 10.0,
    "secretHint": "whsec_Mfkq...",
    "backlog": "0",
    "dead": "0",
}
TAGS = ["operators"]


def _stub(state: State) -> Any:
    up = upstream(state)
    assert up.webhooks is not None
    return up.webhooks, up.timeout


def _key_check(request: Request[Any, Any, Any], state: State) -> Callable[[], Awaitable[Any]]:
    """The request's operator key, checked by the cheapest call of the service (see calls.key_first)."""
    stub, timeout = _stub(state)
    return lambda: stub.ListEndpoints(webhook_pb2.ListEndpointsRequest(), metadata=metadata(request), timeout=timeout)


@post(
    "/v1/admin/webhooks",
    operation_id="AddEndpoint",
    operation_class=operation(
        webhook_pb2.AddEndpointResponse,
        request=webhook_pb2.AddEndpointRequest,
        status="201",
        example={"url": "https://push.example.com/kickoff", "events": ["WEBHOOK_EVENT_TURN_BEGAN"]},
    ),
    summary="Register a webhook endpoint; the reply holds its signing secret, shown only this once (and to a retry)",
    description="422 `address_refused` for a URL whose host is, or resolves to, an address the server refuses "
    "(loopback, link-local, private, metadata) unless KICKOFF_WEBHOOK_ALLOW allows it; `bad_url` for one that is "
    "not http(s). With `requestId`, the same body sent again answers the endpoint the first one registered, with its "
    "secret (the first reply was lost); the same id with another body is 409 `request_id_reused`.",
    security=OPERATOR,
    opt={KEY_CHECK: _key_check},
    cache_control=PRIVATE,
    tags=TAGS,
)
async def add_endpoint(request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    async with key_first(_key_check(request, state)):
        message = await body(request, webhook_pb2.AddEndpointRequest())
    return to_json(await stub.AddEndpoint(message, metadata=metadata(request), timeout=timeout))


@get(
    "/v1/admin/webhooks",
    operation_id="ListEndpoints",
    operation_class=operation(webhook_pb2.ListEndpointsResponse, example={"endpoints": [ENDPOINT_EXAMPLE]}),
    summary="Every webhook endpoint, oldest first, with its backlog and dead letters",
    security=OPERATOR,
    opt={KEY_CHECK: _key_check},
    cache_control=PRIVATE,
    tags=TAGS,
)
async def list_endpoints(request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = webhook_pb2.ListEndpointsRequest()
    return to_json(await stub.ListEndpoints(message, metadata=metadata(request), timeout=timeout))


@delete(
    "/v1/admin/webhooks/{endpoint_id:str}",
    operation_id="RemoveEndpoint",
    operation_class=operation(webhook_pb2.RemoveEndpointResponse, example={}),
    summary="Remove a webhook endpoint and what it had still to be sent",
    status_code=200,
    security=OPERATOR,
    opt={KEY_CHECK: _key_check},
    cache_control=PRIVATE,
    tags=TAGS,
)
async def remove_endpoint(endpoint_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = webhook_pb2.RemoveEndpointRequest(endpoint_id=endpoint_id)
    return to_json(await stub.RemoveEndpoint(message, metadata=metadata(request), timeout=timeout))


@post(
    "/v1/admin/webhooks/{endpoint_id:str}/test",
    operation_id="TestEndpoint",
    operation_class=operation(
        webhook_pb2.TestEndpointResponse,
        example={"delivered": True, "statusCode": 204, "error": "", "seconds": 0.012, "deliveryId": "msg_..."},
    ),
    summary="Send the endpoint a signed webhook.test event now, and say how the receiver answered",
    status_code=200,
    security=OPERATOR,
    opt={KEY_CHECK: _key_check},
    cache_control=PRIVATE,
    tags=TAGS,
)
async def test_endpoint(endpoint_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = webhook_pb2.TestEndpointRequest(endpoint_id=endpoint_id)
    return to_json(await stub.TestEndpoint(message, metadata=metadata(request), timeout=timeout + 30))


@get(
    "/v1/admin/webhooks/deliveries",
    operation_id="ListDeliveries",
    operation_class=operation(webhook_pb2.ListDeliveriesResponse, example={"deliveries": [], "nextPageToken": ""}),
    summary="Webhook deliveries, newest first: an endpoint's, and those in one status (dead: the dead letters)",
    description="`status`: pending, sending, delivered, dead or obsolete (or the enum's own name).",
    security=OPERATOR,
    opt={KEY_CHECK: _key_check},
    cache_control=PRIVATE,
    tags=TAGS,
)
async def list_deliveries(
    request: Request[Any, Any, Any],
    state: State,
    endpoint_id: FromQuery[str] = "",
    status: FromQuery[str] = "",
    page_size: FromQuery[int] = 0,
    page_token: FromQuery[str] = "",
) -> dict[str, Any]:
    stub, timeout = _stub(state)
    async with key_first(_key_check(request, state)):
        wanted = status_filter(webhook_pb2.DeliveryStatus, "DELIVERY_STATUS_", status) if status else 0
        message = webhook_pb2.ListDeliveriesRequest(
            endpoint_id=endpoint_id, status=wanted, page_size=bounded_page(page_size), page_token=page_token
        )
    return to_json(await stub.ListDeliveries(message, metadata=metadata(request), timeout=timeout))


@post(
    "/v1/admin/webhooks/{endpoint_id:str}/redeliver",
    operation_id="RedeliverDeliveries",
    operation_class=operation(
        webhook_pb2.RedeliverDeliveriesResponse,
        request=webhook_pb2.RedeliverDeliveriesRequest,
        example={"deliveryIds": []},
    ),
    summary="Send an endpoint's dead letters again (those named, or all), each with its own webhook-id",
    status_code=200,
    security=OPERATOR,
    opt={KEY_CHECK: _key_check},
    cache_control=PRIVATE,
    tags=TAGS,
)
async def redeliver(endpoint_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    async with key_first(_key_check(request, state)):
        message = await body(request, webhook_pb2.RedeliverDeliveriesRequest())
    message.endpoint_id = endpoint_id
    return to_json(await stub.RedeliverDeliveries(message, metadata=metadata(request), timeout=timeout))


WEBHOOK_ROUTES = [add_endpoint, list_endpoints, remove_endpoint, test_endpoint, list_deliveries, redeliver]
