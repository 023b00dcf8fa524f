"""The gateway's event streams: a gRPC server stream of versioned messages (a room's RoomUpdates, a tournament's
TournamentUpdates, a matchmaking ticket's Tickets) answered as server-sent events, resumable with Last-Event-ID.

Each message is an ``update`` event whose ``id`` is its version and whose data is the message's JSON on one line; an
``end`` event (a StreamEnd) says the server's stream is over; a ``problem`` event (ProblemDetails) says the server
ended it for good. Comment lines keep an idle answer open through proxies.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any

import grpc
import msgspec
from litestar import Request, Response, get
from litestar.datastructures import State
from litestar.params import FromPath, QueryParameter
from litestar.response import Stream

from kickoff.v1 import (
    chat_pb2,
    chat_pb2_grpc,
    inbox_pb2,
    inbox_pb2_grpc,
    match_pb2,
    move_pb2,
    presence_pb2,
    presence_pb2_grpc,
    tournament_pb2,
)
from service.gateway.calls import PRIVATE, ROUTE, metadata, to_json, upstream
from service.gateway.openapi import PLAYER, SEAT_OR_SPECTATOR, operation
from service.gateway.operations import CHAT_MESSAGE_EXAMPLE, INBOX_ITEM_EXAMPLE, MATCHED_EXAMPLE, PRESENCE_EXAMPLE
from service.gateway.problems import BadRequest, rpc_error_to_problem

log = logging.getLogger(__name__)
TICKET = (
    "A stream ticket (POST /v1/rooms/{room_id}/stream-tickets) that opens the stream as its seat, for a browser's "
    "EventSource, which cannot send the Authorization header. Send a ticket or a seat token, not both; with neither "
    "the events are a spectator's."
)
INVITATION = (
    "An invitation link's token (POST /v1/rooms/{room_id}/invitation-links), for an unlisted room: its holder watches "
    "as a spectator. Without one (or a seat of the room) an unlisted room answers 404, as a room never made."
)
AFTER_CHAT = (
    "The room's chat too, after this seq (0: every kept message): each message a `chat` event, and every event's id "
    "`<version>:<chat seq>`, which an EventSource sends back as Last-Event-ID to resume both. Absent: no chat."
)
RETRY_MILLISECONDS = 3000  # how long an EventSource waits before it reconnects
# Each event's JSON on one line, compact, by msgspec (Litestar's own encoder): the json module's dumps took 4.5-8 µs
# an update, msgspec under 1.
encode_json = msgspec.json.encode
# An event stream's headers (Litestar's ServerSentEvent's) and its fixed lines: its first (a comment, and how long an
# EventSource waits before it reconnects) and a heartbeat (a comment only: no event).
SSE_HEADERS = {"Cache-Control": "no-cache", "Connection": "keep-alive", "X-Accel-Buffering": "no"}
OPEN = b": open\r\nretry: %d\r\n\r\n" % RETRY_MILLISECONDS
HEARTBEAT = b": heartbeat\r\n\r\n"
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


def last_version(request: Request[Any, Any, Any], query: str = "after_version") -> int:
    """Where an event stream resumes: the Last-Event-ID header (an EventSource reconnecting) or ?after_version=
    (``query``)."""
    return last_ids(request, query)[0]


def last_ids(request: Request[Any, Any, Any], query: str = "after_version") -> tuple[int, int | None]:
    """As :func:`last_version`, and the chat's seq where the Last-Event-ID names one: a room's event stream that
    carries chat ids its events ``<version>:<chat seq>`` (None: the id names none)."""
    last = request.headers.get("last-event-id") or request.query_params.get(query) or "0"
    version, colon, seq = last.partition(":")
    if not all(_number(part) for part in ((version, seq) if colon else (version,))):
        raise BadRequest(
            f"Last-Event-ID must be a version number, 0-{MAX_VERSION} (a room's stream with chat: <version>:<seq>)",
            field="Last-Event-ID",
        )
    return int(version), int(seq) if colon else None


def _number(text: str) -> bool:
    return text.isdigit() and len(text) <= 19 and int(text) <= MAX_VERSION


def sse(event: bytes, data: bytes, event_id: int | str | None = None) -> bytes:
    """One server-sent event's bytes, as Litestar's ServerSentEventMessage writes them (id, event, data), without its
    per-line scans: an id is a number or ``<number>:<number>``, an event a fixed word, and the data one line of JSON
    (the encoders escape every line break inside strings)."""
    if event_id is None:
        return b"event: %s\r\ndata: %s\r\n\r\n" % (event, data)
    return b"id: %s\r\nevent: %s\r\ndata: %s\r\n\r\n" % (str(event_id).encode(), event, data)


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


async def _read_after(call: Any, part: str, after: int, key: str = "version", chat: bool = False) -> Any:
    """The stream's next message newer than version ``after`` (or EOF). A room's or tournament's stream starts after
    the version asked for by itself; a ticket's sends the ticket as it stands first, which a client coming back may
    have seen already. (``key``: the message's field that is its version: an inbox item's is its id; ``chat``: a room
    stream that carries chat, whose chat items have a sequence of their own and always pass.)"""
    while True:
        response = await call.read()
        if response is grpc.aio.EOF or getattr(getattr(response, part), key) > after:
            return response
        if chat and response.HasField("chat"):
            return response


async def event_stream(
    call: Any,
    heartbeat: float,
    *,
    part: str = "update",
    after: int = 0,
    opened: Callable[[], Awaitable[None]] | None = None,
    broke: Callable[[], None] | None = None,
    key: str = "version",
    chat_after: int | None = None,
) -> Stream | Response[None]:
    """A gRPC server stream of versioned messages as server-sent events: each response's ``part`` (a message with a
    ``version``) newer than ``after`` is an ``update`` event (``id`` is the version), with a comment line after
    ``heartbeat`` seconds of silence so proxies keep the connection open.

    The answer's head and a first line (the reconnection delay) go out at once, even when nothing is newer than the
    version asked for. When the server's stream ends (the room, tournament or ticket is over), an ``end`` event says
    so and the answer closes; a request with nothing left to send answers 204 No Content, which stops an EventSource
    from reconnecting for ever. ``opened`` runs once the server accepted the stream; ``broke`` when it breaks off
    after it began (the gateway then forgets the room's owner: the client's next try goes through any node).

    ``chat_after``: a room's stream that carries chat after this seq: each chat message is a ``chat`` event, and
    every event's id is ``<version>:<chat seq>`` (the last of each the stream sent), so that an EventSource coming
    back resumes both."""
    # Wait for the stream's start (or its refusal) so that errors answer as problem details, not as a broken stream.
    await call.wait_for_connection()
    if opened is not None:
        await opened()
    first = asyncio.ensure_future(_read_after(call, part, after, key, chat_after is not None))
    done, _ = await asyncio.wait({first}, timeout=FIRST_READ_SECONDS)
    if done and first.exception() is not None:
        raise first.exception()  # type: ignore[misc]
    if done and first.result() is grpc.aio.EOF:
        return Response(content=None, status_code=204)

    async def events() -> AsyncIterator[bytes]:
        last = None
        seq = chat_after
        # One task reads the server's stream for the answer's whole life and hands each message (or the error that
        # broke the stream) over a queue of one place, so at most a message or two are read ahead of what was sent
        # (gRPC's flow control holds the rest); the answer waits with a timer only when no message is there. (Not a
        # task and a wait for each message: those cost more than the rest of a message's relay but its JSON.)
        ready: asyncio.Queue[Any] = asyncio.Queue(1)

        async def read() -> None:
            try:
                response = await first
                while True:
                    await ready.put(response)
                    if response is grpc.aio.EOF:
                        return
                    response = await _read_after(call, part, after, key, chat_after is not None)
            except Exception as error:  # (handed to the answer, which ends with it)
                await ready.put(error)

        reader = asyncio.ensure_future(read())
        yield OPEN  # the head and a line, at once
        try:
            while True:
                if ready.empty():
                    try:
                        async with asyncio.timeout(heartbeat):
                            response = await ready.get()
                    except TimeoutError:
                        yield HEARTBEAT
                        continue
                else:
                    response = ready.get_nowait()
                if isinstance(response, grpc.aio.AioRpcError):
                    # The stream broke after it began. Its room moved to another node, or a node stopped: the answer
                    # ends without an `end` event, and the client comes back with the last event's id, as an
                    # EventSource does by itself. The server refused to go on (the seat it was opened as changed
                    # hands: `seat_released`): a `problem` event says why, and coming back is refused the same way.
                    log.info("an event stream ended early: %s", response.code().name)
                    if broke is not None:
                        broke()
                    if response.code() not in RECONNECTABLE:
                        yield sse(b"problem", encode_json(problem_data(response)))
                    return
                if isinstance(response, Exception):
                    raise response
                if response is grpc.aio.EOF:
                    yield sse(b"end", encode_json({"version": str(last)} if last is not None else {}))
                    return
                if seq is not None and response.HasField("chat"):
                    seq = response.chat.seq
                    data = encode_json(to_json(response.chat))
                    yield sse(b"chat", data, f"{after if last is None else last}:{seq}")
                else:
                    message = getattr(response, part)
                    last = getattr(message, key)
                    data = encode_json(to_json(message))
                    yield sse(b"update", data, last if seq is None else f"{last}:{seq}")
        finally:
            reader.cancel()
            first.cancel()
            call.cancel()

    # (a plain Stream of bytes: Litestar's ServerSentEvent encodes each message through a StringIO and regular
    # expressions, and first asks a worker thread for its own header lines, once for each answer)
    return Stream(events(), media_type="text/event-stream", headers=SSE_HEADERS)


# The routes of the server-streaming RPCs, written by hand: the gateway's one kind of route its bindings do not make
# (routes.py checks that each stream's google.api.http binding is served by one of these). A room's stream is opened
# at the room's owner, a ticket's sends only what is newer than the version asked for.


@get(
    "/v1/rooms/{room_id:str}/events",
    operation_id="StreamEvents",
    operation_class=operation(
        move_pb2.RoomUpdate,
        media_type="text/event-stream",
        example={"version": "6", "events": [{"game": {"soker": {"turnBegan": {"seat": 1}}}}]},
    ),
    summary="The room's updates as server-sent events, resumable with Last-Event-ID",
    description="As the seat of the `Authorization` token, or of a stream ticket in `?ticket=` (POST "
    "/v1/rooms/{room_id}/stream-tickets: for a browser's EventSource, which cannot send headers), or a spectator's. "
    "The answer starts at once; an `end` event says the room's updates are over (the game ended) and the stream "
    "closes. Reconnecting after that answers 204 No Content, which tells an EventSource to stop.",
    security=SEAT_OR_SPECTATOR,
    tags=["play"],
)
async def stream_events(
    room_id: FromPath[str],
    request: Request[Any, Any, Any],
    state: State,
    ticket: Annotated[str, QueryParameter(description=TICKET)] = "",
    invitation_token: Annotated[str, QueryParameter(description=INVITATION)] = "",
    after_chat_seq: Annotated[int | None, QueryParameter(description=AFTER_CHAT, ge=0, le=MAX_VERSION)] = None,
) -> Stream | Response[None]:
    up = upstream(state)
    after, seen = last_ids(request)
    chat = None if after_chat_seq is None and seen is None else max(after_chat_seq or 0, seen or 0)
    owners = up.owners
    stubs = owners.stubs(room_id) if owners is not None else None
    stream = stubs.stream_moves if stubs is not None else (up.stream_moves or up.moves)
    asked = move_pb2.StreamEventsRequest(
        room_id=room_id, after_version=after, ticket=ticket, invitation_token=invitation_token, after_chat_seq=chat
    )
    carried = (*metadata(request), ROUTE)
    call = stream.StreamEvents(asked, metadata=carried)
    if owners is None:
        return await event_stream(call, up.heartbeat, chat_after=chat)
    if stubs is None:
        # The owner was not known, so the stream went to any node. A node that does not own the room relays every
        # update of it from the owner for as long as the stream lasts (a second process's work for each, the whole
        # game long); it names the owner as the stream opens, before any update, so the stream is opened at the
        # owner instead and the relayed one closed, nothing read from it. (A refusal names nobody: it is answered
        # below as before.)
        owners.learn(room_id, await call.initial_metadata())
        stubs = owners.stubs(room_id)
        if stubs is not None:
            call.cancel()
            call = stubs.stream_moves.StreamEvents(asked, metadata=carried)

    async def opened() -> None:  # (a relayed stream names the owner as it starts: the room's next calls go there)
        owners.learn(room_id, await call.initial_metadata())

    try:
        return await event_stream(
            call,
            up.heartbeat,
            opened=opened,
            broke=(lambda: owners.forget(room_id)) if stubs is not None else None,
            chat_after=chat,
        )
    except grpc.aio.AioRpcError as error:  # (refused as it opened: an owner gone is forgotten, as for a unary call)
        if stubs is not None:
            owners.failed(room_id, error)
        raise


@get(
    "/v1/tournaments/{tournament_id:str}/events",
    operation_id="StreamTournament",
    operation_class=operation(
        tournament_pb2.TournamentUpdate,
        media_type="text/event-stream",
        example={"version": "3", "events": [{"gameStarted": {"game": {"index": 1, "roomId": "3f2a9c1d4e5b6a70"}}}]},
    ),
    summary="The tournament's updates as server-sent events, resumable with Last-Event-ID",
    tags=["tournaments"],
)
async def stream_tournament(
    tournament_id: FromPath[str], request: Request[Any, Any, Any], state: State
) -> Stream | Response[None]:
    up = upstream(state)
    call = (up.stream_tournaments or up.tournaments).StreamTournament(
        tournament_pb2.StreamTournamentRequest(tournament_id=tournament_id, after_version=last_version(request)),
        metadata=metadata(request),
    )
    return await event_stream(call, up.heartbeat)


@get(
    "/v1/tickets/{ticket_id:str}/events",
    operation_id="FollowTicket",
    operation_class=operation(
        match_pb2.Ticket, media_type="text/event-stream", marker="ticketId", example=MATCHED_EXAMPLE
    ),
    summary="A ticket of the caller's now and at every change, as server-sent events, until it ends",
    description="As the player of the `Authorization` access token (a browser reads it with fetch, which can send "
    "the header; an EventSource cannot). The first `update` event is the ticket as it stands, then one at each "
    "change (its id the ticket's version); once the ticket is matched, cancelled or expired, an `end` event follows "
    "and the stream closes. Coming back with the last event's id (Last-Event-ID) sends only what is newer; after "
    "the end it answers 204 No Content.",
    security=PLAYER,
    cache_control=PRIVATE,
    tags=["matchmaking"],
)
async def follow_ticket(
    ticket_id: FromPath[str], request: Request[Any, Any, Any], state: State
) -> Stream | Response[None]:
    up = upstream(state)
    assert up.matches is not None
    after = last_version(request)
    call = (up.stream_matches or up.matches).FollowTicket(
        match_pb2.FollowTicketRequest(ticket_id=ticket_id), metadata=metadata(request)
    )
    return await event_stream(call, up.heartbeat, part="ticket", after=after)


def _stream_stub(up: Any, service: str, make: Any) -> Any:
    """``service``'s stub on the event streams' channel, made on first use and kept."""
    key = "stream:" + service
    if key not in up.made:
        up.made[key] = make(up.stream_channel or up.channel)
    return up.made[key]


# -- the inbox (issue 48) --------------------------------------------------------------------------------------------
@get(
    "/v1/inbox/events",
    operation_id="FollowInbox",
    operation_class=operation(
        inbox_pb2.InboxItem, media_type="text/event-stream", marker="itemId", example=INBOX_ITEM_EXAMPLE
    ),
    summary="The caller's new inbox items as server-sent events, resumable with Last-Event-ID",
    description="As the player of the `Authorization` access token. Each `update` event is one item (its id the "
    "item's id), as it is written; the stream does not end by itself. Coming back with the last event's id "
    "(Last-Event-ID, or `?after_item_id=`) sends the items written after it first, oldest first. 429 "
    "`too_many_followers` when the node serves as many inbox streams as it may.",
    security=PLAYER,
    cache_control=PRIVATE,
    tags=["inbox"],
)
async def follow_inbox(request: Request[Any, Any, Any], state: State) -> Stream | Response[None]:
    up = upstream(state)
    after = last_version(request, "after_item_id")
    stub = _stream_stub(up, "kickoff.v1.InboxService", inbox_pb2_grpc.InboxServiceStub)
    call = stub.FollowInbox(inbox_pb2.FollowInboxRequest(after_item_id=after), metadata=metadata(request))
    return await event_stream(call, up.heartbeat, part="item", after=after, key="item_id")


# -- presence (issue 48) ---------------------------------------------------------------------------------------------
@get(
    "/v1/presence/events",
    operation_id="FollowPresence",
    operation_class=operation(
        presence_pb2.FriendPresence, media_type="text/event-stream", marker="cursor", example=PRESENCE_EXAMPLE
    ),
    summary="The caller's friends' presence now and at every change, as server-sent events, resumable",
    description="As the player of the `Authorization` access token. The first `update` events are each friend's "
    "presence now, then one at each change (its id the presence's cursor); a friend no longer a friend comes once "
    "with `removed: true`. The stream does not end by itself. Coming back with the last event's id (Last-Event-ID, "
    "or `?after_cursor=`) sends the friends whose presence changed since (and those shown without a time) first. 429 "
    "`too_many_followers` when the node serves as many presence streams as it may.",
    security=PLAYER,
    cache_control=PRIVATE,
    tags=["presence"],
)
async def follow_presence(request: Request[Any, Any, Any], state: State) -> Stream | Response[None]:
    up = upstream(state)
    after = last_version(request, "after_cursor")
    stub = _stream_stub(up, "kickoff.v1.PresenceService", presence_pb2_grpc.PresenceServiceStub)
    call = stub.FollowPresence(presence_pb2.FollowPresenceRequest(after_cursor=after), metadata=metadata(request))
    # (every message the server sends is news: it resumes by itself, so nothing is filtered here; after=-1 lets through
    # a friend shown with no time, hidden or never seen, whose cursor is 0)
    return await event_stream(call, up.heartbeat, part="presence", key="cursor", after=-1)


# -- table talk (issue 49) -------------------------------------------------------------------------------------------
@get(
    "/v1/rooms/{room_id:str}/chat/events",
    operation_id="FollowChat",
    operation_class=operation(
        chat_pb2.ChatMessage, media_type="text/event-stream", marker="seq", example=CHAT_MESSAGE_EXAMPLE
    ),
    summary="The room's chat messages as server-sent events, resumable with Last-Event-ID",
    description="The channels the caller may read: a seated person's (the `Authorization` seat token or a player's "
    "access token) the players' channel and their team's, anyone else's the spectators'. Each `update` event is one "
    "message (its id the message's seq): the kept ones first, then each new one; the stream does not end by itself. "
    "Coming back with the last event's id (Last-Event-ID, or `?after_seq=`) sends the messages after it.",
    security=[{}, {"bearerAuth": []}, {"playerAuth": []}],
    cache_control=PRIVATE,
    tags=["chat"],
)
async def follow_chat(
    room_id: FromPath[str],
    request: Request[Any, Any, Any],
    state: State,
    invitation_token: Annotated[str, QueryParameter(description=INVITATION)] = "",
) -> Stream | Response[None]:
    up = upstream(state)
    after = last_version(request, "after_seq")
    stub = _stream_stub(up, "kickoff.v1.ChatService", chat_pb2_grpc.ChatServiceStub)
    asked = chat_pb2.FollowChatRequest(room_id=room_id, after_seq=after, invitation_token=invitation_token)
    call = stub.FollowChat(asked, metadata=metadata(request))
    return await event_stream(call, up.heartbeat, part="message", after=after, key="seq")


STREAM_ROUTES = [stream_events, stream_tournament, follow_ticket, follow_inbox, follow_presence, follow_chat]
