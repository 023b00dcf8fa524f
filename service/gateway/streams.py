"""The gateway's event streams: a gRPC server stream of versioned messages (a room's RoomUpdates, a tournament's
TournamentUpdates, a matchmaking ticket's Tickets) answered as server-sent events, resumable with Last-Event-ID.

Each message is an ``update`` event whose ``id`` is its version and whose data is the message's JSON on one line; an
``end`` event (a StreamEnd) says the server's stream is over; a ``problem`` event (ProblemDetails) says the server
ended it for good. Comment lines keep an idle answer open through proxies.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
from litestar import Request, Response
from litestar.response import ServerSentEvent
from litestar.response.sse import ServerSentEventMessage

from service.gateway.calls import to_json
from service.gateway.problems import BadRequest, rpc_error_to_problem

log = logging.getLogger(__name__)
RETRY_MILLISECONDS = 3000  # how long an EventSource waits before it reconnects
MAX_VERSION = 2**63 - 1  # versions are int64
FIRST_READ_SECONDS = 0.05  # how long the answer waits for the stream's first message before its head goes out

# Statuses that end an event stream for a moment only: the client comes back (an EventSource does by itself).
RECONNECTABLE = frozenset(
    {
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.CANCELLED,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.INTERNAL,
    }
)


def last_version(request: Request[Any, Any, Any]) -> int:
    """Where an event stream resumes: the Last-Event-ID header (an EventSource reconnecting) or ?after_version=."""
    last = request.headers.get("last-event-id") or request.query_params.get("after_version") or "0"
    if not last.isdigit() or len(last) > 19 or int(last) > MAX_VERSION:
        raise BadRequest(f"Last-Event-ID must be a version number, 0-{MAX_VERSION}", field="Last-Event-ID")
    return int(last)


def problem_data(error: grpc.aio.AioRpcError) -> dict[str, Any]:
    """The problem details a refusal would answer, as a `problem` event's data."""
    refusal = rpc_error_to_problem(error)
    extra = refusal.extra if isinstance(refusal.extra, dict) else {}
    return {
        "type": refusal.type_,
        "title": refusal.title,
        "status": refusal.status_code,
        "detail": refusal.detail,
        **extra,
    }


async def _read_after(call: Any, part: str, after: int) -> Any:
    """The stream's next message newer than version ``after`` (or EOF). A room's or tournament's stream starts after
    the version asked for by itself; a ticket's sends the ticket as it stands first, which a client coming back may
    have seen already."""
    while True:
        response = await call.read()
        if response is grpc.aio.EOF or getattr(response, part).version > after:
            return response


async def event_stream(
    call: Any,
    heartbeat: float,
    *,
    part: str = "update",
    after: int = 0,
    opened: Callable[[], Awaitable[None]] | None = None,
    broke: Callable[[], None] | None = None,
) -> ServerSentEvent | Response[None]:
    """A gRPC server stream of versioned messages as server-sent events: each response's ``part`` (a message with a
    ``version``) newer than ``after`` is an ``update`` event (``id`` is the version), with a comment line after
    ``heartbeat`` seconds of silence so proxies keep the connection open.

    The answer's head and a first line (the reconnection delay) go out at once, even when nothing is newer than the
    version asked for. When the server's stream ends (the room, tournament or ticket is over), an ``end`` event says
    so and the answer closes; a request with nothing left to send answers 204 No Content, which stops an EventSource
    from reconnecting for ever. ``opened`` runs once the server accepted the stream; ``broke`` when it breaks off
    after it began (the gateway then forgets the room's owner: the client's next try goes through any node)."""
    # Wait for the stream's start (or its refusal) so that errors answer as problem details, not as a broken stream.
    await call.wait_for_connection()
    if opened is not None:
        await opened()
    first = asyncio.ensure_future(_read_after(call, part, after))
    done, _ = await asyncio.wait({first}, timeout=FIRST_READ_SECONDS)
    if done and first.exception() is not None:
        raise first.exception()  # type: ignore[misc]
    if done and first.result() is grpc.aio.EOF:
        return Response(content=None, status_code=204)

    async def events() -> AsyncIterator[ServerSentEventMessage]:
        pending: asyncio.Future[Any] = first
        last = None
        yield ServerSentEventMessage(
            comment="open", data=None, retry=RETRY_MILLISECONDS
        )  # the head and a line, at once
        try:
            while True:
                done, _ = await asyncio.wait({pending}, timeout=heartbeat)
                if not done:
                    yield ServerSentEventMessage(comment="heartbeat", data=None)  # a comment only: no event
                    continue
                try:
                    response = pending.result()
                except grpc.aio.AioRpcError as error:
                    # The stream broke after it began. Its room moved to another node, or a node stopped: the answer
                    # ends without an `end` event, and the client comes back with the last event's id, as an
                    # EventSource does by itself. The server refused to go on (the seat it was opened as changed
                    # hands: `seat_released`): a `problem` event says why, and coming back is refused the same way.
                    log.info("an event stream ended early: %s", error.code().name)
                    if broke is not None:
                        broke()
                    if error.code() not in RECONNECTABLE:
                        yield ServerSentEventMessage(data=json.dumps(problem_data(error)), event="problem")
                    return
                if response is grpc.aio.EOF:
                    yield ServerSentEventMessage(
                        data=json.dumps({"version": str(last)} if last is not None else {}), event="end"
                    )
                    return
                message = getattr(response, part)
                last = message.version
                yield ServerSentEventMessage(
                    data=json.dumps(to_json(message), separators=(",", ":")),
                    event="update",
                    id=message.version,
                )
                pending = asyncio.ensure_future(_read_after(call, part, after))
        finally:
            pending.cancel()
            call.cancel()

    return ServerSentEvent(events())
