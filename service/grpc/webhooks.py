"""WebhookService: the operators' admin API for webhook endpoints and their deliveries, behind the operator key
(``x-operator-key``). It reads requests and hands them to service/webhooks; it holds no rule of its own."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import grpc

from kickoff.v1 import webhook_pb2, webhook_pb2_grpc
from service.actors.directory import page_size_of
from service.actors.requests import operator_request_key
from service.errors import InvalidRequest
from service.grpc.admission import Admission
from service.grpc.convert import timestamp
from service.grpc.errors import KickoffError, abort
from service.grpc.limits import check_request
from service.grpc.servicers import internal, parameters_of
from service.telemetry import Telemetry
from service.webhooks.events import (
    CHAT_MESSAGE,
    CLOCK_RUNNING_OUT,
    FRIEND_ACCEPTED,
    FRIEND_REQUESTED,
    GAME_ENDED,
    MATCH_FOUND,
    REMATCH_PROPOSED,
    ROOM_INVITED,
    TOURNAMENT_GAME_READY,
    TURN_BEGAN,
)
from service.webhooks.store import Endpoint
from service.webhooks.webhooks import Webhooks

Response = TypeVar("Response")
WEBHOOK_SERVICE = webhook_pb2.DESCRIPTOR.services_by_name["WebhookService"].full_name
EVENT = {
    TURN_BEGAN: webhook_pb2.WEBHOOK_EVENT_TURN_BEGAN,
    MATCH_FOUND: webhook_pb2.WEBHOOK_EVENT_MATCH_FOUND,
    GAME_ENDED: webhook_pb2.WEBHOOK_EVENT_GAME_ENDED,
    TOURNAMENT_GAME_READY: webhook_pb2.WEBHOOK_EVENT_TOURNAMENT_GAME_READY,
    CLOCK_RUNNING_OUT: webhook_pb2.WEBHOOK_EVENT_CLOCK_RUNNING_OUT,
    FRIEND_REQUESTED: webhook_pb2.WEBHOOK_EVENT_FRIEND_REQUESTED,
    FRIEND_ACCEPTED: webhook_pb2.WEBHOOK_EVENT_FRIEND_ACCEPTED,
    ROOM_INVITED: webhook_pb2.WEBHOOK_EVENT_ROOM_INVITED,
    REMATCH_PROPOSED: webhook_pb2.WEBHOOK_EVENT_REMATCH_PROPOSED,
    CHAT_MESSAGE: webhook_pb2.WEBHOOK_EVENT_CHAT_MESSAGE,
}
EVENT_NAME = {value: name for name, value in EVENT.items()}
STATUS = {
    "pending": webhook_pb2.DELIVERY_STATUS_PENDING,
    "sending": webhook_pb2.DELIVERY_STATUS_SENDING,
    "delivered": webhook_pb2.DELIVERY_STATUS_DELIVERED,
    "dead": webhook_pb2.DELIVERY_STATUS_DEAD,
    "obsolete": webhook_pb2.DELIVERY_STATUS_OBSOLETE,
}
STATUS_NAME = {value: name for name, value in STATUS.items()}


def endpoint_to_proto(endpoint: Endpoint) -> webhook_pb2.WebhookEndpoint:
    return webhook_pb2.WebhookEndpoint(
        endpoint_id=endpoint.endpoint_id,
        url=endpoint.url,
        events=[EVENT[event] for event in endpoint.events if event in EVENT],
        description=endpoint.description,
        max_in_flight=endpoint.max_in_flight,
        timeout_seconds=endpoint.timeout_seconds,
        create_time=timestamp(endpoint.created_at),
        secret_hint=endpoint.secret_hint,
        backlog=endpoint.backlog,
        dead=endpoint.dead,
        chat_text=endpoint.chat_text,
    )


def delivery_to_proto(row: Any) -> webhook_pb2.WebhookDelivery:
    message = webhook_pb2.WebhookDelivery(
        delivery_id=row.delivery_id,
        endpoint_id=row.endpoint_id,
        event=EVENT.get(row.event, webhook_pb2.WEBHOOK_EVENT_UNSPECIFIED),
        status=STATUS.get(row.status, webhook_pb2.DELIVERY_STATUS_UNSPECIFIED),
        attempts=row.attempts,
        create_time=timestamp(row.created_at),
        last_error=row.last_error,
        last_status_code=row.last_status,
        payload=row.payload,
    )
    if row.status == "pending":
        message.next_attempt_time.CopyFrom(timestamp(row.next_attempt_at))
    return message


def operated(method: Callable[..., Awaitable[Response]]) -> Callable[..., Awaitable[Response]]:
    """A WebhookService call: the operator key first (throttled by address after wrong ones: Admission.operator),
    so that a caller without the key hears nothing of the request's fields; then the request's bounds, then the
    method. Typed refusals become statuses."""
    name = method.__name__

    @functools.wraps(method)
    async def wrapper(self: WebhookServicer, request: Any, context: grpc.aio.ServicerContext) -> Response:
        try:
            self.admission.operator(context, self.webhooks.operator, self.failed)
            check_request(request)
            return await method(self, request, context)
        except KickoffError as error:
            await abort(context, error)
        except grpc.aio.AbortError:
            raise
        except Exception:
            await internal(context, name)

    return wrapper


class WebhookServicer(webhook_pb2_grpc.WebhookServiceServicer):
    def __init__(self, webhooks: Webhooks, admission: Admission, telemetry: Telemetry) -> None:
        self.webhooks = webhooks
        self.admission = admission
        self.telemetry = telemetry

    def failed(self, throttled: bool) -> None:
        self.telemetry.instruments.operator_key_failures.add(1, {"kickoff.throttled": throttled})

    @operated
    async def AddEndpoint(self, request: webhook_pb2.AddEndpointRequest, context: Any) -> Any:
        events = []
        for event in request.events:
            if event not in EVENT_NAME:
                raise InvalidRequest(
                    "events: name each event wanted (not UNSPECIFIED)", code="bad_event", field="events"
                )
            events.append(EVENT_NAME[event])
        endpoint, secret = await self.webhooks.add(
            request.url,
            events,
            secret=request.secret,
            description=request.description,
            max_in_flight=request.max_in_flight,
            timeout_seconds=request.timeout_seconds,
            chat_text=request.chat_text,
            request=operator_request_key(request.request_id, parameters_of(request)),
        )
        return webhook_pb2.AddEndpointResponse(endpoint=endpoint_to_proto(endpoint), secret=secret)

    @operated
    async def ListEndpoints(self, request: webhook_pb2.ListEndpointsRequest, context: Any) -> Any:
        endpoints = await self.webhooks.store.list()
        return webhook_pb2.ListEndpointsResponse(endpoints=[endpoint_to_proto(e) for e in endpoints])

    @operated
    async def RemoveEndpoint(self, request: webhook_pb2.RemoveEndpointRequest, context: Any) -> Any:
        await self.webhooks.remove(request.endpoint_id)
        return webhook_pb2.RemoveEndpointResponse()

    @operated
    async def TestEndpoint(self, request: webhook_pb2.TestEndpointRequest, context: Any) -> Any:
        delivery_id, attempt = await self.webhooks.test(request.endpoint_id)
        return webhook_pb2.TestEndpointResponse(
            delivered=attempt.ok,
            status_code=attempt.status,
            error=attempt.error,
            seconds=attempt.seconds,
            delivery_id=delivery_id,
        )

    @operated
    async def ListDeliveries(self, request: webhook_pb2.ListDeliveriesRequest, context: Any) -> Any:
        rows, following = await self.webhooks.store.deliveries(
            endpoint_id=request.endpoint_id,
            status=STATUS_NAME.get(request.status, ""),
            size=page_size_of(request.page_size),
            after=request.page_token,
        )
        return webhook_pb2.ListDeliveriesResponse(
            deliveries=[delivery_to_proto(row) for row in rows], next_page_token=following
        )

    @operated
    async def RedeliverDeliveries(self, request: webhook_pb2.RedeliverDeliveriesRequest, context: Any) -> Any:
        count = await self.webhooks.redeliver(request.endpoint_id, list(request.delivery_ids))
        return webhook_pb2.RedeliverDeliveriesResponse(redelivered=count)
