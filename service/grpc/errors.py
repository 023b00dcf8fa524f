"""The one place where typed errors become gRPC statuses, with google.rpc.Status details.

Every refusal carries a google.rpc.ErrorInfo whose ``reason`` is the error's stable code (``no_match``,
``not_your_turn``, ``stale_version``...), so clients can act on it without parsing messages.

Each refusal is counted here too, where its ErrorInfo is built (the kickoff.refusals counter, by reason and status
code): one counter add for a refused call, nothing for an accepted one.
"""

from __future__ import annotations

from typing import NoReturn

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status
from opentelemetry.metrics import Counter, NoOpCounter

from engine.core import GameOver, IllegalMove, InvalidOptions, MalformedMove, NotYourTurn, RuleError, UnknownGame
from service.errors import (
    Conflict,
    EndpointNotFound,
    InvalidRequest,
    Moved,
    NotFound,
    PermissionDenied,
    PlayerNotFound,
    PreconditionFailed,
    ResourceExhausted,
    SeatTaken,
    ServiceError,
    StaleVersion,
    StoreRefused,
    StoreUnavailable,
    TicketNotFound,
    Unauthenticated,
    Unavailable,
)

DOMAIN = "kickoff.v1"

STATUS_OF: dict[type[Exception], grpc.StatusCode] = {
    NotYourTurn: grpc.StatusCode.FAILED_PRECONDITION,
    IllegalMove: grpc.StatusCode.FAILED_PRECONDITION,
    GameOver: grpc.StatusCode.FAILED_PRECONDITION,
    MalformedMove: grpc.StatusCode.INVALID_ARGUMENT,
    InvalidOptions: grpc.StatusCode.INVALID_ARGUMENT,
    UnknownGame: grpc.StatusCode.NOT_FOUND,
    NotFound: grpc.StatusCode.NOT_FOUND,
    InvalidRequest: grpc.StatusCode.INVALID_ARGUMENT,
    Unauthenticated: grpc.StatusCode.UNAUTHENTICATED,
    PermissionDenied: grpc.StatusCode.PERMISSION_DENIED,
    StaleVersion: grpc.StatusCode.ABORTED,
    SeatTaken: grpc.StatusCode.ALREADY_EXISTS,
    Unavailable: grpc.StatusCode.FAILED_PRECONDITION,
    StoreUnavailable: grpc.StatusCode.UNAVAILABLE,
    Moved: grpc.StatusCode.UNAVAILABLE,
    StoreRefused: grpc.StatusCode.INVALID_ARGUMENT,
    ResourceExhausted: grpc.StatusCode.RESOURCE_EXHAUSTED,
    PlayerNotFound: grpc.StatusCode.NOT_FOUND,
    TicketNotFound: grpc.StatusCode.NOT_FOUND,
    EndpointNotFound: grpc.StatusCode.NOT_FOUND,
    Conflict: grpc.StatusCode.ALREADY_EXISTS,
    PreconditionFailed: grpc.StatusCode.FAILED_PRECONDITION,
}
MESSAGE_LIMIT = 300  # characters of a status message: messages say what is wrong, they never carry the input back

KickoffError = (RuleError, ServiceError)

# Where refusals are counted: create_server points it at its telemetry's kickoff.refusals. A process serves one
# server; where tests run several in one process, the last one made counts the refusals of all.
_refusals: Counter = NoOpCounter("kickoff.refusals")


def count_refusals(counter: Counter) -> None:
    """Count every refusal from now on in ``counter`` (by ``kickoff.reason`` and ``kickoff.grpc.code``)."""
    global _refusals
    _refusals = counter


def status_code(error: Exception) -> grpc.StatusCode:
    for kind in type(error).__mro__:
        if kind in STATUS_OF:
            return STATUS_OF[kind]
    return grpc.StatusCode.INTERNAL


def to_status(error: Exception) -> status_pb2.Status:
    """The google.rpc.Status for a typed error: its code, its message (cut to MESSAGE_LIMIT characters), an ErrorInfo
    with its reason (and the ``field`` at fault), and a RetryInfo when trying again later may succeed."""
    code = status_code(error)
    info = any_pb2.Any()
    reason = getattr(error, "code", "internal")
    _refusals.add(1, {"kickoff.reason": reason, "kickoff.grpc.code": code.name})
    detail = error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN)
    cards = getattr(error, "cards", ())
    if cards:  # the cards a refusal concerns: in the details for the mover, never in the message (see RuleError)
        detail.metadata["cards"] = " ".join(cards)
    field = getattr(error, "field", "")
    if field:
        detail.metadata["field"] = field
    for key, value in (getattr(error, "metadata", None) or {}).items():  # (what a refusal says besides: muted's until)
        detail.metadata[key] = value
    info.Pack(detail)
    details = [info]
    retry_after = getattr(error, "retry_after", None)
    if retry_after is not None:
        delay = duration_pb2.Duration()
        delay.FromNanoseconds(round(retry_after * 1e9))
        retry = any_pb2.Any()
        retry.Pack(error_details_pb2.RetryInfo(retry_delay=delay))
        details.append(retry)
    message = str(error)
    if len(message) > MESSAGE_LIMIT:
        message = message[: MESSAGE_LIMIT - 1] + "…"
    return status_pb2.Status(code=getattr(code_pb2, code.name), message=message, details=details)


async def abort(context: grpc.aio.ServicerContext, error: Exception) -> NoReturn:
    await context.abort_with_status(rpc_status.to_status(to_status(error)))
    raise AssertionError("abort_with_status returns only by raising")  # pragma: no cover
