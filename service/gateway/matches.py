"""The REST routes of the MatchService: a signed-in player joins a game's queue with a ticket (a party's invited
members join it), follows it (server-sent events), takes up the seat found, cancels it, and lists their live tickets.
Each calls the gRPC method of the same name with the player's access token (the Authorization header); bodies and
replies are the proto3 JSON mapping of its messages, refusals problem details.

Every reply but the event stream's is the gRPC reply itself, ``{"ticket": ...}`` (``{"tickets": [...]}`` for the
list), so a client reads a ticket the same way from each of them. A ticket is its members' only (NOT_FOUND, 404, for
anyone else's), and the one that is matched carries the caller's own seat token: no reply is ever cached.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, delete, get, post
from litestar.datastructures import State
from litestar.params import FromPath
from litestar.response import ServerSentEvent

from kickoff.v1 import match_pb2
from service.gateway.calls import body, metadata, to_json, upstream
from service.gateway.openapi import PLAYER, operation
from service.gateway.players import PRIVATE
from service.gateway.streams import event_stream, last_version

TICKET_EXAMPLE = {
    "ticketId": "9b2f0c1d4e5a6b7c",
    "game": "soker",
    "status": "TICKET_STATUS_SEARCHING",
    "seatCounts": [2, 4],
    "members": [{"playerId": "3f2a9c1d4e5b6a708192", "name": "Ann", "accepted": False}],
    "version": "1",
}
MATCHED_EXAMPLE = {
    **TICKET_EXAMPLE,
    "status": "TICKET_STATUS_MATCHED",
    "members": [{"playerId": "3f2a9c1d4e5b6a708192", "name": "Ann", "accepted": True}],
    "table": {"roomId": "3f2a9c1d4e5b6a70", "seats": 2, "seat": 0, "seatToken": "cm9vbToxOmFi..."},
    "version": "4",
}


def _stub(state: State) -> Any:
    up = upstream(state)
    assert up.matches is not None
    return up.matches, up.timeout


@post(
    "/v1/tickets",
    operation_id="Enqueue",
    operation_class=operation(
        match_pb2.EnqueueResponse,
        request=match_pb2.EnqueueRequest,
        status="201",
        example={"game": "soker", "seatCounts": [2, 4], "party": []},
    ),
    summary="Join a game's queue; returns the ticket, searching",
    description='Body: EnqueueRequest, e.g. {"game": "soker", "seatCounts": [2, 4], "party": ["<player id>"]} '
    "(seatCounts empty: every size the game takes; party: other players, invited to the ticket, who sit at the "
    "caller's table once each joined it: POST /v1/tickets/{ticket_id}/join). 409 "
    "`already_queued` for a player in that queue already; 429 for a quota (`tickets_per_player`, "
    "`tickets_per_caller`, `queue_full`), with Retry-After. With `requestId`, the same body sent again answers the "
    "ticket the first one made, as it stands (not `already_queued`); the same id with another body is 409 "
    "`request_id_reused`.",
    security=PLAYER,
    cache_control=PRIVATE,
    tags=["matchmaking"],
)
async def enqueue(request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = await body(request, match_pb2.EnqueueRequest())
    return to_json(await stub.Enqueue(message, metadata=metadata(request), timeout=timeout))


@get(
    "/v1/tickets",
    operation_id="ListMyTickets",
    operation_class=operation(match_pb2.ListMyTicketsResponse, example={"tickets": [TICKET_EXAMPLE]}),
    summary="The caller's live tickets, and those they are invited to, oldest first",
    security=PLAYER,
    cache_control=PRIVATE,
    tags=["matchmaking"],
)
async def list_my_tickets(request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = match_pb2.ListMyTicketsRequest()
    return to_json(await stub.ListMyTickets(message, metadata=metadata(request), timeout=timeout))


@get(
    "/v1/tickets/{ticket_id:str}",
    operation_id="GetTicket",
    operation_class=operation(match_pb2.GetTicketResponse, example={"ticket": TICKET_EXAMPLE}),
    summary="A ticket of the caller's, as it stands",
    security=PLAYER,
    cache_control=PRIVATE,
    tags=["matchmaking"],
)
async def get_ticket(ticket_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = match_pb2.GetTicketRequest(ticket_id=ticket_id)
    return to_json(await stub.GetTicket(message, metadata=metadata(request), timeout=timeout))


@post(
    "/v1/tickets/{ticket_id:str}/join",
    operation_id="JoinTicket",
    operation_class=operation(match_pb2.JoinTicketResponse, example={"ticket": TICKET_EXAMPLE}),
    summary="Join a party's ticket the caller is invited to; the last to join puts it in the queue",
    description="409 `already_queued` for a player in that game's queue already.",
    status_code=200,
    security=PLAYER,
    cache_control=PRIVATE,
    tags=["matchmaking"],
)
async def join_ticket(ticket_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = match_pb2.JoinTicketRequest(ticket_id=ticket_id)
    return to_json(await stub.JoinTicket(message, metadata=metadata(request), timeout=timeout))


@post(
    "/v1/tickets/{ticket_id:str}/decline",
    operation_id="DeclineTicket",
    operation_class=operation(match_pb2.DeclineTicketResponse, example={}),
    summary="Decline an invitation to a party's ticket: the caller leaves it, and the party goes on without them",
    description="409 `already_joined` for a member who joined (cancel the ticket instead), `ticket_ended` for a "
    "ticket that ended; 404 for a ticket the caller is not invited to.",
    status_code=200,
    security=PLAYER,
    cache_control=PRIVATE,
    tags=["matchmaking"],
)
async def decline_ticket(ticket_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = match_pb2.DeclineTicketRequest(ticket_id=ticket_id)
    return to_json(await stub.DeclineTicket(message, metadata=metadata(request), timeout=timeout))


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
) -> ServerSentEvent | Response[None]:
    up = upstream(state)
    assert up.matches is not None
    after = last_version(request)
    call = (up.stream_matches or up.matches).FollowTicket(
        match_pb2.FollowTicketRequest(ticket_id=ticket_id), metadata=metadata(request)
    )
    return await event_stream(call, up.heartbeat, part="ticket", after=after)


@post(
    "/v1/tickets/{ticket_id:str}/accept",
    operation_id="AcceptMatch",
    operation_class=operation(match_pb2.AcceptMatchResponse, example={"ticket": MATCHED_EXAMPLE}),
    summary="Take up the caller's seat at the table the ticket was proposed",
    description="Matched once every person at the table took up: the ticket then carries the room's id and the "
    "caller's seat token. 409 `not_proposed` for a ticket with no table to take up.",
    status_code=200,
    security=PLAYER,
    cache_control=PRIVATE,
    tags=["matchmaking"],
)
async def accept_match(ticket_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = match_pb2.AcceptMatchRequest(ticket_id=ticket_id)
    return to_json(await stub.AcceptMatch(message, metadata=metadata(request), timeout=timeout))


@delete(
    "/v1/tickets/{ticket_id:str}",
    operation_id="CancelTicket",
    operation_class=operation(
        match_pb2.CancelTicketResponse,
        example={"ticket": {**TICKET_EXAMPLE, "status": "TICKET_STATUS_CANCELLED", "reason": "cancelled"}},
    ),
    summary="Cancel a live ticket (any member may); returns it, cancelled",
    description="It leaves the queue, or the table it was proposed (whose others keep their seats). 409 "
    "`ticket_ended` for a ticket ended already.",
    status_code=200,
    security=PLAYER,
    cache_control=PRIVATE,
    tags=["matchmaking"],
)
async def cancel_ticket(ticket_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = match_pb2.CancelTicketRequest(ticket_id=ticket_id)
    return to_json(await stub.CancelTicket(message, metadata=metadata(request), timeout=timeout))


MATCH_ROUTES = [
    enqueue,
    list_my_tickets,
    get_ticket,
    join_ticket,
    decline_ticket,
    follow_ticket,
    accept_match,
    cancel_ticket,
]
