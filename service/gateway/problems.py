"""The one table from gRPC status codes to HTTP statuses, and RFC 9457 problem details for every refusal.

A problem carries ``type`` (a URN naming the reason), ``title``, ``status``, ``detail`` (the server's message) and
``reason`` (the google.rpc.ErrorInfo reason the gRPC status carried, e.g. ``no_match`` or ``stale_version``).
"""

from __future__ import annotations

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from litestar.plugins.problem_details import ProblemDetailsException

HTTP_STATUS: dict[grpc.StatusCode, int] = {
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.OUT_OF_RANGE: 400,
    grpc.StatusCode.UNAUTHENTICATED: 401,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.ALREADY_EXISTS: 409,
    grpc.StatusCode.ABORTED: 409,
    grpc.StatusCode.FAILED_PRECONDITION: 409,  # the move or request conflicts with the room as it stands
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,
    grpc.StatusCode.CANCELLED: 499,
    grpc.StatusCode.UNIMPLEMENTED: 501,
    grpc.StatusCode.UNAVAILABLE: 503,
    grpc.StatusCode.DEADLINE_EXCEEDED: 504,
}

TITLE: dict[int, str] = {
    400: "Bad request",
    401: "Seat token missing or invalid",
    403: "Not allowed",
    404: "Not found",
    409: "Conflict with the room's state",
    429: "Too many requests",
    499: "Request cancelled",
    500: "Internal error",
    501: "Not implemented",
    503: "Game server unavailable",
    504: "Game server did not answer in time",
}


def _error_info(error: grpc.aio.AioRpcError) -> error_details_pb2.ErrorInfo | None:
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    if status is not None:
        for detail in status.details:
            info = error_details_pb2.ErrorInfo()
            if detail.Unpack(info):
                return info
    return None


def problem(status: int, detail: str, reason: str, cards: list[str] | None = None) -> ProblemDetailsException:
    extra: dict[str, object] = {"reason": reason}
    if cards:
        extra["cards"] = cards  # the cards a refused move concerns (the mover's own answer only)
    return ProblemDetailsException(
        status_code=status,
        title=TITLE.get(status, "Error"),
        detail=detail,
        type_=f"urn:kickoff:problem:{reason}",
        extra=extra,
    )


def rpc_error_to_problem(error: grpc.aio.AioRpcError) -> ProblemDetailsException:
    status = HTTP_STATUS.get(error.code(), 500)
    detail = error.details() or error.code().name
    if status == 503:
        detail = "the game server cannot be reached; try again shortly"
    info = _error_info(error)
    if info is None:
        return problem(status, detail, error.code().name.lower())
    return problem(status, detail, info.reason, info.metadata["cards"].split() if "cards" in info.metadata else None)


class BadRequest(ProblemDetailsException):
    """A body or parameter the gateway cannot read (the message names the field)."""

    def __init__(self, detail: str) -> None:
        super().__init__(
            status_code=400,
            title=TITLE[400],
            detail=detail,
            type_="urn:kickoff:problem:bad_request",
            extra={"reason": "bad_request"},
        )
