"""The one table from gRPC status codes to HTTP statuses, and RFC 9457 problem details for every refusal.

A problem carries ``type`` (a URN naming the reason), ``title``, ``status``, ``detail`` (the server's message) and
``reason`` (the google.rpc.ErrorInfo reason the gRPC status carried, e.g. ``no_match`` or ``stale_version``), and
``field`` when one request field is at fault. A refusal that may succeed later (a rate limit, a store that is away)
carries ``Retry-After`` (whole seconds, from the status's google.rpc.RetryInfo).

A 500 is a bug (the gateway's, or the server's when it answers INTERNAL, UNKNOWN or DATA_LOSS): the client's problem
says only that, and the gateway's log has the whole of it, with the trace id of the request's span, so that the one
can be found from the other (the trace id is ``none`` where tracing is off).
"""

from __future__ import annotations

import logging
import math
from typing import Any

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from litestar import Request, Response
from litestar.exceptions import ValidationException
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.plugins.problem_details import ProblemDetailsException
from opentelemetry import trace

log = logging.getLogger(__name__)

HTTP_STATUS: dict[grpc.StatusCode, int] = {
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.OUT_OF_RANGE: 400,
    grpc.StatusCode.UNAUTHENTICATED: 401,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.ALREADY_EXISTS: 409,
    grpc.StatusCode.ABORTED: 409,
    grpc.StatusCode.FAILED_PRECONDITION: 409,  # the move or request conflicts with the room as it stands
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,  # the caller's rate or streams; see SERVER_REASONS for the others
    # The gateway cancels a call only when its HTTP client has gone (no answer is sent then): a call it hears
    # cancelled was cancelled by the server, which grpc does to the calls that reach a server as it stops (grpc/grpc
    # issue 41785): the server is unavailable, and the same request may be sent again.
    grpc.StatusCode.CANCELLED: 503,
    grpc.StatusCode.UNIMPLEMENTED: 501,
    grpc.StatusCode.UNAVAILABLE: 503,
    grpc.StatusCode.DEADLINE_EXCEEDED: 504,
}

# RESOURCE_EXHAUSTED reasons that are the server's, not the caller's: the node is full.
SERVER_REASONS = {"server_full": 503}
DETAIL_LIMIT = 300  # characters of a detail: it says what is wrong, it never carries the input back

TITLE: dict[int, str] = {
    400: "Bad request",
    401: "Token missing or invalid",  # a seat token, an access token or a refresh token: the reason says which
    403: "Not allowed",
    404: "Not found",
    409: "Conflict with the room's state",
    413: "Request body too large",
    415: "Unsupported media type",
    429: "Too many requests",
    500: "Internal error",
    501: "Not implemented",
    503: "Game server unavailable",
    504: "Game server did not answer in time",
}


def _details(error: grpc.aio.AioRpcError) -> tuple[error_details_pb2.ErrorInfo | None, float | None]:
    """The status's ErrorInfo and RetryInfo delay (seconds), where it carries them."""
    info, retry = None, None
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    for detail in status.details if status is not None else ():
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
        elif detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            delay = error_details_pb2.RetryInfo()
            detail.Unpack(delay)
            retry = delay.retry_delay.ToNanoseconds() / 1e9
    return info, retry


def _brief(text: str) -> str:
    return text if len(text) <= DETAIL_LIMIT else text[: DETAIL_LIMIT - 1] + "…"


def problem(
    status: int,
    detail: str,
    reason: str,
    cards: list[str] | None = None,
    *,
    field: str = "",
    retry_after: float | None = None,
) -> ProblemDetailsException:
    extra: dict[str, object] = {"reason": reason}
    if cards:
        extra["cards"] = cards  # the cards a refused move concerns (the mover's own answer only)
    if field:
        extra["field"] = field
    headers = {"Retry-After": str(max(1, math.ceil(retry_after)))} if retry_after is not None else None
    return ProblemDetailsException(
        status_code=status,
        title=TITLE.get(status, "Error"),
        detail=_brief(detail),
        type_=f"urn:kickoff:problem:{reason}",
        extra=extra,
        headers=headers,
    )


def trace_id() -> str:
    """The trace id of the current span (32 hex digits, as trace viewers show it), or ``none``."""
    context = trace.get_current_span().get_span_context()
    return trace.format_trace_id(context.trace_id) if context.is_valid else "none"


def internal_error(request: Request[Any, Any, Any], error: Exception) -> Response[Any]:
    """Anything a route raised that is not a refusal: logged whole, with the trace id; the client's 500 problem says
    nothing of it."""
    route = request.scope.get("path_template") or request.scope.get("path", "")  # type: ignore[typeddict-item]
    log.error("%s %s failed (trace id %s)", request.method, route, trace_id(), exc_info=error)
    return problem(500, "the gateway failed to answer this request; its log has the error", "internal").to_response(
        request
    )


def rpc_error_to_problem(error: grpc.aio.AioRpcError) -> ProblemDetailsException:
    code = error.code()
    status = HTTP_STATUS.get(code, 500)
    detail = error.details() or code.name
    if status == 500:
        log.error("the game server answered %s: %s (trace id %s)", code.name, _brief(detail), trace_id())
    info, retry_after = _details(error)
    if info is None:
        if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED):
            detail = "the game server cannot be reached; try again shortly"
            retry_after = 1.0
            code = grpc.StatusCode.UNAVAILABLE
        elif code == grpc.StatusCode.RESOURCE_EXHAUSTED:  # grpc's own: a message over the size limit
            return problem(413, "the request is larger than the server takes", "too_large")
        return problem(status, detail, code.name.lower(), retry_after=retry_after)
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
        status = SERVER_REASONS.get(info.reason, status)
    metadata = info.metadata
    cards = metadata["cards"].split() if "cards" in metadata else None
    refusal = problem(status, detail, info.reason, cards, field=metadata.get("field", ""), retry_after=retry_after)
    if "until" in metadata and isinstance(refusal.extra, dict):
        refusal.extra["until"] = metadata["until"]  # when a chat mute ends (RFC 3339; "" until an operator ends it)
    return refusal


def body_too_large(error: RequestEntityTooLarge) -> ProblemDetailsException:
    return problem(413, "the request body is larger than the gateway takes", "body_too_large")


def bad_parameters(error: ValidationException) -> ProblemDetailsException:
    """A path, query or header parameter Litestar could not read (``?page_size=abc``): a bad_request problem naming
    the parameter and its type, never the URL or the value (Litestar's own title carries the whole query back)."""
    faults = [e for e in error.extra if isinstance(e, dict)] if isinstance(error.extra, list) else []
    first = faults[0] if faults else {}
    name = str(first.get("key", ""))[:64]
    why = "must be an integer" if "int" in str(first.get("message", "")) else "is not valid here"
    detail = f"the {first.get('source', 'request')} parameter {name} {why}" if name else "a parameter is not valid"
    return BadRequest(detail, field=name)


class BadRequest(ProblemDetailsException):
    """A body or parameter the gateway cannot read (the message names the field, never echoes much of the input)."""

    def __init__(self, detail: str, field: str = "") -> None:
        super().__init__(
            status_code=400,
            title=TITLE[400],
            detail=_brief(detail),
            type_="urn:kickoff:problem:bad_request",
            extra={"reason": "bad_request", **({"field": field} if field else {})},
        )
