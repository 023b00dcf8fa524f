"""The REST gateway: a Litestar app that serves web and mobile clients by calling the gRPC server's stubs.

It holds no game rules and imports nothing from engine/ or service/rooms/: request bodies are the proto3 JSON mapping
of the gRPC request messages, responses the mapping of the replies (a resource itself where the gRPC reply only wraps
one: a Room, a Tournament, a RuleSet, Standings), live events the same redacted RoomUpdate messages (a tournament's
and a matchmaking ticket's changes alike) as server-sent events (streams.py). The players' and matchmaking routes are
players.py's and matches.py's. The seat token travels as ``Authorization: Bearer ...`` and is passed on as gRPC
metadata, with the caller's API key (``X-API-Key``) and address (``x-forwarded-for``: the server counts rates and
streams per caller, and believes this gateway's word where KICKOFF_TRUSTED_PROXIES names it). Every call carries a
deadline; refusals become RFC 9457 problem details through the one table in problems.py. Request bodies are bounded
(413) and JSON (415), changes from pages on other origins are refused (guard.py), so is a Host that is not one of
the gateway's names (hosts.py), every integer in a path or query is checked against the proto field it fills
(numbers.py), and the gRPC channel's message sizes match the server's. A request that fails in the gateway itself is
a 500 problem that says nothing of the error, which goes to the log with the request's trace id (problems.py).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import grpc
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2, health_pb2_grpc
from litestar import Litestar, Request, Response, delete, get, post
from litestar.datastructures import CacheControlHeader, State
from litestar.exceptions import ValidationException
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.middleware import DefineMiddleware
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import ScalarRenderPlugin
from litestar.openapi.spec import Components
from litestar.params import FromPath, FromQuery, QueryParameter
from litestar.plugins.problem_details import ProblemDetailsConfig, ProblemDetailsPlugin
from litestar.response import ServerSentEvent
from litestar.static_files import create_static_files_router
from opentelemetry import trace
from opentelemetry.instrumentation.grpc import aio_client_interceptors

from kickoff.v1 import (
    common_pb2,
    game_pb2,
    game_pb2_grpc,
    match_pb2_grpc,
    move_pb2,
    move_pb2_grpc,
    player_pb2_grpc,
    room_pb2,
    room_pb2_grpc,
    tournament_pb2,
    tournament_pb2_grpc,
    webhook_pb2_grpc,
)
from service.gateway.calls import (
    HEARTBEAT_SECONDS,
    ROUTE,
    Owners,
    Upstream,
)
from service.gateway.calls import body as _body
from service.gateway.calls import metadata as _metadata
from service.gateway.calls import page_size as _page_size
from service.gateway.calls import status_filter as _status
from service.gateway.calls import to_json as _to_json
from service.gateway.calls import upstream as _upstream
from service.gateway.cors import CorsMiddleware, CorsPolicy
from service.gateway.guard import ChangeGuard
from service.gateway.hosts import ANY_HOST, HostGuard, HostPolicy
from service.gateway.matches import MATCH_ROUTES
from service.gateway.numbers import IntegerGuard, integer_parameters
from service.gateway.openapi import (
    CREATOR,
    CREATOR_OR_PLAYER,
    PLAYER_OR_ANYONE,
    SEAT,
    SEAT_OR_SPECTATOR,
    SECURITY_SCHEMES,
    add_components,
    operation,
)
from service.gateway.operators import OPERATOR_ROUTES, ops_router
from service.gateway.players import PLAYER_ROUTES
from service.gateway.problems import bad_parameters, body_too_large, internal_error, problem, rpc_error_to_problem
from service.gateway.streams import event_stream as _event_stream
from service.gateway.streams import last_version as _last_version
from service.gateway.webhooks import WEBHOOK_ROUTES
from service.telemetry import Telemetry, traced_call

M = TypeVar("M", bound=Message)
log = logging.getLogger(__name__)
TICKET = (
    "A stream ticket (POST /v1/rooms/{room_id}/stream-tickets) that opens the stream as its seat, for a browser's "
    "EventSource, which cannot send the Authorization header. Send a ticket or a seat token, not both; with neither "
    "the events are a spectator's."
)
MAX_BODY_BYTES = 64 * 1024  # a request body (the largest a client has reason to send is under 2 KB)
READY_TIMEOUT = 2.0  # seconds /readyz waits for the gRPC server's health check (at most the gateway's deadline)
# The browser front-end (service/gateway/web/): plain HTML, CSS and JavaScript modules served as they are, at /play.
WEB_DIRECTORY = Path(__file__).parent / "web"
WEB_PATH = "/play"
# The page loads nothing from anywhere else and talks to this gateway only.
WEB_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
# The server takes requests of at most 64 KiB and answers with at most 4 MiB (service/grpc/server.py).
CHANNEL_OPTIONS = [
    ("grpc.max_send_message_length", 64 * 1024),
    ("grpc.max_receive_message_length", 4 * 1024 * 1024),
    ("grpc.initial_reconnect_backoff_ms", 100),  # come back quickly when the server returns
    ("grpc.max_reconnect_backoff_ms", 1000),
    # Several nodes behind one target (a DNS name with an address per node, or a list of addresses): each call goes
    # to the next node that is up, and a node that goes away is left out until it is back. Any node serves any room.
    ("grpc.lb_policy_name", "round_robin"),
]
# A node that stops answering without closing its connections (SIGSTOP, a stalled machine) must not hold an event
# stream for ever: the heartbeats this gateway sends would keep the client's answer alive. The channels ping every
# KEEPALIVE_MS on a connection with calls (idle streams too) and drop one whose ping is not answered within
# PING_TIMEOUT_MS: its streams end, and their clients come back through another node. The servers accept pings this
# often (service/grpc/server.py, MIN_PING_MS).
KEEPALIVE_MS = 10_000
PING_TIMEOUT_MS = 5_000


def channel_options() -> list[tuple[str, Any]]:
    return [
        *CHANNEL_OPTIONS,
        ("grpc.keepalive_time_ms", KEEPALIVE_MS),
        ("grpc.keepalive_timeout_ms", PING_TIMEOUT_MS),
        # (a ping already in flight when the node froze would otherwise hold the keepalive back for a minute)
        ("grpc.http2.ping_timeout_ms", PING_TIMEOUT_MS),
        ("grpc.http2.max_pings_without_data", 0),  # (an idle stream is pinged too, not only twice)
    ]


def upstream_target(target: str) -> str:
    """The gRPC target for ``--grpc-target``: as given (host:port, dns:///name:port...), or a comma-separated list
    of IP addresses with ports (the nodes of a cluster), which grpc reads with the ipv4: or ipv6: scheme."""
    if "," not in target:
        return target
    return ("ipv6:" if target.startswith("[") else "ipv4:") + target


async def _room_call(up: Upstream, room_id: str, method: Callable[[Any], Any], request: Any, metadata: Any = ()) -> Any:
    """A unary call for one room: sent to the room's owner when the gateway knows it (Owners), else to the target,
    asking the node it reaches to name the owner if it forwards (the room's next calls then go there)."""
    owners = up.owners
    stubs = owners.stubs(room_id) if owners is not None else None
    call = method(stubs or up)(request, metadata=(*metadata, ROUTE), timeout=up.timeout)
    try:
        reply = await call
    except grpc.aio.AioRpcError as error:
        if stubs is not None:
            owners.failed(room_id, error)  # type: ignore[union-attr]  # (it drains, lost the room or is gone)
        raise
    if owners is not None:  # (an owner the gateway knew may have forwarded it: the room moved, it names the new one)
        owners.learn(room_id, await call.trailing_metadata())
    return reply


@get(
    "/v1/games",
    operation_id="ListGames",
    operation_class=operation(
        game_pb2.ListGamesResponse, example={"games": [{"name": "soker", "title": "Soker", "seatCounts": [2, 3, 4]}]}
    ),
    summary="List the games hosted",
    tags=["games"],
)
async def list_games(state: State) -> dict[str, Any]:
    up = _upstream(state)
    return _to_json(await up.games.ListGames(game_pb2.ListGamesRequest(), timeout=up.timeout))


@get(
    "/v1/games/{game:str}/rules",
    operation_id="GetRules",
    operation_class=operation(
        game_pb2.RuleSet, example={"game": "soker", "deckSize": 58, "options": [{"name": "turn_seconds", "value": 30}]}
    ),
    summary="A game's rules in force",
    tags=["games"],
)
async def get_rules(game: FromPath[str], state: State) -> dict[str, Any]:
    up = _upstream(state)
    return _to_json((await up.games.GetRules(game_pb2.GetRulesRequest(game=game), timeout=up.timeout)).rules)


@get(
    "/v1/games/{game:str}/cards",
    operation_id="ListCards",
    operation_class=operation(
        game_pb2.ListCardsResponse,
        example={
            "game": "soker",
            "cards": [
                {
                    "code": "JUV-FRW",
                    "name": "Juventus Forward",
                    "kind": "player",
                    "copies": 1,
                    "soker": {"country": "Italy", "countryColour": "green", "club": "JUV", "ringColour": "black"},
                }
            ],
        },
    ),
    summary="Every face of a game's cards, with what a front-end needs to draw it",
    tags=["games"],
)
async def list_cards(game: FromPath[str], state: State) -> dict[str, Any]:
    up = _upstream(state)
    return _to_json(await up.games.ListCards(game_pb2.ListCardsRequest(game=game), timeout=up.timeout))


@post(
    "/v1/rooms",
    operation_id="CreateRoom",
    operation_class=operation(
        room_pb2.Room,
        request=room_pb2.CreateRoomRequest,
        status="201",
        example={"game": "soker", "mode": "ROOM_MODE_SOLO", "seats": 4, "systemPlayers": 3},
    ),
    summary="Create a room",
    description='Body: CreateRoomRequest, e.g. {"game": "soker", "mode": "ROOM_MODE_SOLO", "seats": 4, '
    '"systemPlayers": 3}; a correspondence room (online, every turn and answer lasting hours, 1-336) adds '
    '"correspondenceHours": 24; "standIns": true lets a system player play for a person the clock played for twice '
    'in a row, until the person moves again. "requestId" makes a retry safe: sent again with the same body, it answers '
    "the same room and makes none more (without a player's token, at least 16 characters: a UUID).",
    security=CREATOR_OR_PLAYER,
    tags=["rooms"],
)
async def create_room(request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    up = _upstream(state)
    message = await _body(request, room_pb2.CreateRoomRequest())
    return _to_json((await up.rooms.CreateRoom(message, metadata=_metadata(request), timeout=up.timeout)).room)


@get(
    "/v1/rooms",
    operation_id="ListRooms",
    operation_class=operation(room_pb2.ListRoomsResponse, example={"rooms": [], "nextPageToken": ""}),
    summary="List rooms, newest first, a page at a time",
    tags=["rooms"],
)
async def list_rooms(
    state: State,
    game: FromQuery[str] = "",
    status: FromQuery[str] = "",
    page_size: FromQuery[int] = 0,
    page_token: FromQuery[str] = "",
) -> dict[str, Any]:
    up = _upstream(state)
    request = room_pb2.ListRoomsRequest(game=game, page_size=_page_size(page_size), page_token=page_token)
    if status:
        request.status = _status(common_pb2.RoomStatus, "ROOM_STATUS_", status)
    return _to_json(await up.rooms.ListRooms(request, timeout=up.timeout))


@get(
    "/v1/rooms/{room_id:str}",
    operation_id="GetRoom",
    operation_class=operation(
        room_pb2.Room, example={"roomId": "3f2a9c1d4e5b6a70", "game": "soker", "status": "ROOM_STATUS_WAITING"}
    ),
    summary="One room",
    tags=["rooms"],
)
async def get_room(room_id: FromPath[str], state: State) -> dict[str, Any]:
    up = _upstream(state)
    reply = await _room_call(up, room_id, lambda s: s.rooms.GetRoom, room_pb2.GetRoomRequest(room_id=room_id))
    return _to_json(reply.room)


@post(
    "/v1/rooms/{room_id:str}/seats",
    operation_id="JoinRoom",
    operation_class=operation(
        room_pb2.JoinRoomResponse, request=room_pb2.JoinRoomRequest, status="201", example={"name": "ann"}
    ),
    summary="Take a seat; returns its bearer token",
    description='Body: {"seat": 1, "name": "ann", "requestId": "7c9e6679-7425-40de-944b-e07fc1f90ae7"} (each '
    'optional). "requestId" makes a retry safe: sent again with the same body, it answers the same seat and token and '
    "takes none more (without a player's token, at least 16 characters: a UUID).",
    security=PLAYER_OR_ANYONE,
    tags=["seats"],
)
async def join_room(room_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    up = _upstream(state)
    message = await _body(request, room_pb2.JoinRoomRequest())
    message.room_id = room_id
    return _to_json(await _room_call(up, room_id, lambda s: s.rooms.JoinRoom, message, _metadata(request)))


@delete(
    "/v1/rooms/{room_id:str}/seat",
    operation_id="LeaveRoom",
    operation_class=operation(room_pb2.LeaveRoomResponse, example={"room": {"roomId": "3f2a9c1d4e5b6a70"}}),
    summary="Give the caller's seat back (while the room waits)",
    status_code=200,
    security=SEAT,
    tags=["seats"],
)
async def leave_room(room_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    up = _upstream(state)
    reply = await _room_call(
        up, room_id, lambda s: s.rooms.LeaveRoom, room_pb2.LeaveRoomRequest(room_id=room_id), _metadata(request)
    )
    return _to_json(reply)


@get(
    "/v1/rooms/{room_id:str}/view",
    operation_id="GetView",
    operation_class=operation(
        move_pb2.GetViewResponse,
        example={"version": "5", "viewer": 0, "view": {"soker": {"hand": ["JUV-GKP"], "topCard": "INT-FRW"}}},
    ),
    summary="What the caller's seat sees",
    security=SEAT_OR_SPECTATOR,
    tags=["play"],
)
async def get_view(room_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    up = _upstream(state)
    reply = await _room_call(
        up, room_id, lambda s: s.moves.GetView, move_pb2.GetViewRequest(room_id=room_id), _metadata(request)
    )
    return _to_json(reply)


@get(
    "/v1/rooms/{room_id:str}/replay",
    operation_id="GetReplay",
    operation_class=operation(
        move_pb2.GetReplayResponse,
        example={"revealed": True, "lastVersion": "212", "nextAfterVersion": "50", "steps": [{"update": {}}]},
    ),
    summary="A room's game again, a page of versions at a time",
    description="Until the game is over each step is what a spectator saw; once it is over every hand is shown (each "
    "step's `hands`, by seat, and the cards drawn in its events). Pass `nextAfterVersion` as `after_version` for the "
    "next page. Every page's steps in one answer make the replay file `kickoff replay FILE` reads.",
    tags=["play"],
)
async def get_replay(
    room_id: FromPath[str], state: State, after_version: FromQuery[int] = 0, page_size: FromQuery[int] = 0
) -> dict[str, Any]:
    up = _upstream(state)
    request = move_pb2.GetReplayRequest(room_id=room_id, after_version=after_version, page_size=_page_size(page_size))
    return _to_json(await _room_call(up, room_id, lambda s: s.moves.GetReplay, request))


@get(
    "/v1/rooms/{room_id:str}/legal-moves",
    operation_id="ListLegalMoves",
    operation_class=operation(
        move_pb2.ListLegalMovesResponse, example={"version": "5", "moves": [{"soker": {"draw": {}}}]}
    ),
    summary="The caller's legal moves",
    security=SEAT,
    tags=["play"],
)
async def list_legal_moves(room_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    up = _upstream(state)
    legal = move_pb2.ListLegalMovesRequest(room_id=room_id)
    reply = await _room_call(up, room_id, lambda s: s.moves.ListLegalMoves, legal, _metadata(request))
    return _to_json(reply)


@post(
    "/v1/rooms/{room_id:str}/moves",
    operation_id="SubmitMove",
    operation_class=operation(
        move_pb2.SubmitMoveResponse,
        request=move_pb2.SubmitMoveRequest,
        status="201",
        example={"move": {"soker": {"play": {"cards": ["JUV-GKP"]}}}, "requestId": "1", "expectedVersion": "7"},
    ),
    summary="Submit a move for the caller's seat",
    description='Body: {"move": {"soker": {"play": {"cards": ["JUV-GKP"]}}}, "requestId": "1", '
    '"expectedVersion": "7"}.',
    security=SEAT,
    tags=["play"],
)
async def submit_move(room_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    up = _upstream(state)
    message = await _body(request, move_pb2.SubmitMoveRequest())
    message.room_id = room_id
    return _to_json(await _room_call(up, room_id, lambda s: s.moves.SubmitMove, message, _metadata(request)))


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
) -> ServerSentEvent | Response[None]:
    up = _upstream(state)
    after = _last_version(request)
    owners = up.owners
    stubs = owners.stubs(room_id) if owners is not None else None
    stream = stubs.stream_moves if stubs is not None else (up.stream_moves or up.moves)
    asked = move_pb2.StreamEventsRequest(room_id=room_id, after_version=after, ticket=ticket)
    metadata = (*_metadata(request), ROUTE)
    call = stream.StreamEvents(asked, metadata=metadata)
    if owners is None:
        return await _event_stream(call, up.heartbeat)
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
            call = stubs.stream_moves.StreamEvents(asked, metadata=metadata)

    async def opened() -> None:  # (a relayed stream names the owner as it starts: the room's next calls go there)
        owners.learn(room_id, await call.initial_metadata())

    try:
        return await _event_stream(
            call, up.heartbeat, opened=opened, broke=(lambda: owners.forget(room_id)) if stubs is not None else None
        )
    except grpc.aio.AioRpcError as error:  # (refused as it opened: an owner gone is forgotten, as for a unary call)
        if stubs is not None:
            owners.failed(room_id, error)
        raise


@post(
    "/v1/rooms/{room_id:str}/stream-tickets",
    operation_id="CreateStreamTicket",
    operation_class=operation(
        move_pb2.CreateStreamTicketResponse,
        status="201",
        example={"ticket": "cm9vbToxOmFi...Q.mX0c...", "expireTime": "2026-12-01T12:01:00Z"},
    ),
    summary="A short-lived ticket that opens this room's event stream as the caller's seat",
    description="For a browser's EventSource, which cannot send the seat token as a header: "
    "`new EventSource('/v1/rooms/ROOM/events?ticket=' + ticket)`. A ticket opens this room's streams only, never "
    "moves, for a minute; a stream it opened goes on after that. Ask for a new one to reconnect later.",
    security=SEAT,
    tags=["play"],
)
async def create_stream_ticket(room_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    up = _upstream(state)
    ticket = move_pb2.CreateStreamTicketRequest(room_id=room_id)
    reply = await _room_call(up, room_id, lambda s: s.moves.CreateStreamTicket, ticket, _metadata(request))
    return _to_json(reply)


@post(
    "/v1/tournaments",
    operation_id="CreateTournament",
    operation_class=operation(
        tournament_pb2.Tournament,
        request=tournament_pb2.CreateTournamentRequest,
        status="201",
        example={"game": "soker", "mode": "ROOM_MODE_SOLO", "systemPlayers": 3},
    ),
    summary="Create a Soker tournament of four seats",
    description='Body: CreateTournamentRequest, e.g. {"game": "soker", "mode": "ROOM_MODE_ONLINE", '
    '"systemPlayers": 2}. People then join it; with every seat taken the first of its eight games starts. '
    '"requestId" makes a retry safe: sent again with the same body, it answers the same tournament and makes none '
    "more (without a player's token, at least 16 characters: a UUID).",
    security=CREATOR,
    tags=["tournaments"],
)
async def create_tournament(request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    up = _upstream(state)
    message = await _body(request, tournament_pb2.CreateTournamentRequest())
    created = await up.tournaments.CreateTournament(message, metadata=_metadata(request), timeout=up.timeout)
    return _to_json(created.tournament)


@get(
    "/v1/tournaments",
    operation_id="ListTournaments",
    operation_class=operation(tournament_pb2.ListTournamentsResponse, example={"tournaments": [], "nextPageToken": ""}),
    summary="List tournaments, newest first, a page at a time",
    tags=["tournaments"],
)
async def list_tournaments(
    state: State, status: FromQuery[str] = "", page_size: FromQuery[int] = 0, page_token: FromQuery[str] = ""
) -> dict[str, Any]:
    up = _upstream(state)
    request = tournament_pb2.ListTournamentsRequest(page_size=_page_size(page_size), page_token=page_token)
    if status:
        request.status = _status(tournament_pb2.TournamentStatus, "TOURNAMENT_STATUS_", status)
    return _to_json(await up.tournaments.ListTournaments(request, timeout=up.timeout))


@get(
    "/v1/tournaments/{tournament_id:str}",
    operation_id="GetTournament",
    operation_class=operation(
        tournament_pb2.Tournament,
        example={"tournamentId": "8c1f0e2d3b4a5968", "game": "soker", "games": 8, "gamesPlayed": 3},
    ),
    summary="One tournament: its seats, games and standings",
    tags=["tournaments"],
)
async def get_tournament(tournament_id: FromPath[str], state: State) -> dict[str, Any]:
    up = _upstream(state)
    request = tournament_pb2.GetTournamentRequest(tournament_id=tournament_id)
    return _to_json((await up.tournaments.GetTournament(request, timeout=up.timeout)).tournament)


@post(
    "/v1/tournaments/{tournament_id:str}/seats",
    operation_id="JoinTournament",
    operation_class=operation(
        tournament_pb2.JoinTournamentResponse,
        request=tournament_pb2.JoinTournamentRequest,
        status="201",
        example={"name": "ann"},
    ),
    summary="Take a tournament seat; its bearer token plays every game of the tournament",
    description='Body: {"seat": 0, "name": "ann", "requestId": "7c9e6679-7425-40de-944b-e07fc1f90ae7"} (each '
    'optional). "requestId" makes a retry safe: sent again with the same body, it answers the same seat and token and '
    "takes none more (without a player's token, at least 16 characters: a UUID).",
    security=PLAYER_OR_ANYONE,
    tags=["tournaments"],
)
async def join_tournament(
    tournament_id: FromPath[str], request: Request[Any, Any, Any], state: State
) -> dict[str, Any]:
    up = _upstream(state)
    message = await _body(request, tournament_pb2.JoinTournamentRequest())
    message.tournament_id = tournament_id
    return _to_json(await up.tournaments.JoinTournament(message, metadata=_metadata(request), timeout=up.timeout))


@delete(
    "/v1/tournaments/{tournament_id:str}/seat",
    operation_id="LeaveTournament",
    operation_class=operation(
        tournament_pb2.LeaveTournamentResponse, example={"tournament": {"tournamentId": "8c1f0e2d3b4a5968"}}
    ),
    summary="Give the caller's tournament seat back (while the tournament waits)",
    status_code=200,
    security=SEAT,
    tags=["tournaments"],
)
async def leave_tournament(
    tournament_id: FromPath[str], request: Request[Any, Any, Any], state: State
) -> dict[str, Any]:
    up = _upstream(state)
    reply = await up.tournaments.LeaveTournament(
        tournament_pb2.LeaveTournamentRequest(tournament_id=tournament_id),
        metadata=_metadata(request),
        timeout=up.timeout,
    )
    return _to_json(reply)


@get(
    "/v1/tournaments/{tournament_id:str}/standings",
    operation_id="GetStandings",
    operation_class=operation(
        tournament_pb2.Standings,
        example={"lines": [{"place": 1, "seat": 2, "points": 41, "gamesWon": 2, "name": "ann"}], "final": False},
    ),
    summary="The standings: points, then games won, then country wins; equal on all three share the place",
    tags=["tournaments"],
)
async def get_standings(tournament_id: FromPath[str], state: State) -> dict[str, Any]:
    up = _upstream(state)
    request = tournament_pb2.GetStandingsRequest(tournament_id=tournament_id)
    return _to_json((await up.tournaments.GetStandings(request, timeout=up.timeout)).standings)


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
) -> ServerSentEvent | Response[None]:
    up = _upstream(state)
    call = (up.stream_tournaments or up.tournaments).StreamTournament(
        tournament_pb2.StreamTournamentRequest(tournament_id=tournament_id, after_version=_last_version(request)),
        metadata=_metadata(request),
    )
    return await _event_stream(call, up.heartbeat)


# The probes answer whatever the request's Host (hosts.py): kubelets call them by the pod's address.
@get("/healthz", include_in_schema=False, cache_control=CacheControlHeader(no_store=True), opt={ANY_HOST: True})
async def healthz() -> dict[str, str]:
    """Liveness: the gateway's process answers HTTP. It asks nothing of the gRPC server, so a server that is away
    (or draining) never gets the gateways restarted."""
    return {"status": "ok"}


@get("/readyz", include_in_schema=False, cache_control=CacheControlHeader(no_store=True), opt={ANY_HOST: True})
async def readyz(state: State) -> dict[str, str]:
    """Readiness: the gRPC server behind the gateway answers its health check SERVING ("": the server as a whole);
    else 503 problem details, so a load balancer stops sending requests here while no node can take them."""
    up = _upstream(state)
    stub = up.health or health_pb2_grpc.HealthStub(up.channel)
    try:
        reply = await stub.Check(health_pb2.HealthCheckRequest(), timeout=min(up.timeout, READY_TIMEOUT))
    except grpc.aio.AioRpcError as error:
        detail = f"the game server did not answer its health check: {error.code().name}"
        raise problem(503, detail, "not_ready") from None
    if reply.status != health_pb2.HealthCheckResponse.SERVING:
        status = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
        raise problem(503, f"the game server reports {status}", "not_ready")
    return {"status": "ok"}


def _name_span(request: Request[Any, Any, Any]) -> None:
    """Name the request's span after its route (``POST /v1/rooms/{room_id}/moves``), once routing has found it:
    the path itself (with room ids) would make every room's requests a different operation."""
    span = trace.get_current_span()
    template = request.scope.get("path_template")  # type: ignore[typeddict-item]
    if span.is_recording() and template:
        route = re.sub(r"\{(\w+):\w+\}", r"{\1}", template)
        span.update_name(f"{request.method} {route}")
        span.set_attribute("http.route", route)


def _web_headers(response: Response[Any]) -> Response[Any]:
    response.headers.update(WEB_HEADERS)
    return response


def web_router() -> Any:
    """The browser front-end at /play: the page and its modules, as static files (no build step); the page holds no
    game rules and calls the routes above like any other client. Revalidated on every load, so a new release's files
    are used at once."""
    return create_static_files_router(
        path=WEB_PATH,
        directories=[WEB_DIRECTORY],
        html_mode=True,
        name="web",
        cache_control=CacheControlHeader(no_cache=True),
        after_request=_web_headers,
    )


def _telemetry_plugins(telemetry: Telemetry) -> list[Any]:
    if not telemetry.enabled:
        return []
    from litestar.plugins.opentelemetry import OpenTelemetryConfig, OpenTelemetryPlugin

    # One span per request: the ASGI layer's extra spans for each receive and send cost more than they tell. Event
    # streams get none, as their gRPC calls get none: they last as long as the client stays, and wrapping each event
    # they send would tax every move. The probes (/healthz, /readyz) get none either: a span every few seconds from
    # each kubelet would say nothing.
    config = OpenTelemetryConfig(
        tracer_provider=telemetry.tracer_provider,
        meter_provider=telemetry.meter_provider,
        exclude_spans=["receive", "send"],
        exclude=[
            r"^/v1/rooms/[^/]+/events$",
            r"^/v1/tournaments/[^/]+/events$",
            r"^/v1/tickets/[^/]+/events$",
            r"^/healthz$",
            r"^/readyz$",
        ],
    )
    return [OpenTelemetryPlugin(config)]


DESCRIPTION = """HTTP/JSON for web and mobile clients: bodies and replies are the proto3 JSON mapping of the kickoff.v1
messages, each one schema in `components.schemas` named after its message.

- Replies send every field, zero values included (0, false, "", [], {}, the enum's first name): in a message only
  replies carry, those fields are `required`. Only a field with presence (a message, an optional number, a oneof's
  member) is left out, and then it is unset. A field a request leaves out holds the zero value its `default` names.
- 64-bit integers (versions, bounds) travel as decimal strings (`type: string, format: int64`), as the proto3 JSON
  mapping writes them: a JavaScript number is exact only up to 2^53. Requests may send them as strings or numbers.
- Enums travel by name (`ROOM_MODE_SOLO`); unknown fields in a request are refused.
- The seat token from joining a room or tournament is the bearer token (`bearerAuth`); creating rooms and tournaments
  takes an API key (`apiKey`, `X-API-Key`) where the server requires one.
- Every refusal is RFC 9457 problem details (`ProblemDetails`, `application/problem+json`), with a machine-readable
  `reason`.
- A request body is `application/json` (any other `Content-Type`, or a body without one: 415,
  `unsupported_media_type`); a request without a body needs no `Content-Type`. A POST or DELETE from a browser page
  whose `Origin` is neither the gateway's own nor one it lists is refused 403 (`origin_not_allowed`).
- A request whose `Host` is not one of the gateway's names is refused 400 (`host_not_allowed`). An integer in a path
  or a query outside the range of the field it fills (int32, int64), or not a number, is refused 400 (`bad_request`,
  `field` naming it).
- The event streams are server-sent events: `update` events (data: a RoomUpdate, a TournamentUpdate or a
  matchmaking Ticket, id: its version; resume with Last-Event-ID), then one `end` event (data: a StreamEnd) when the
  updates are over, or one `problem` event (data: ProblemDetails) when the server ends the stream for good
  (`seat_released`: the seat it was opened as was given back). A stream's schema is each event's data, as SSE
  readers yield it.
- Matchmaking (`/v1/tickets`: join a game's queue, follow the ticket, take the seat found up) is a signed-in
  player's: every route takes the access token (`playerAuth`), and a ticket is seen by its members only."""


def create_app(
    grpc_target: str,
    *,
    timeout: float = 5.0,
    heartbeat: float = HEARTBEAT_SECONDS,
    telemetry: Telemetry | None = None,
    max_body_bytes: int = MAX_BODY_BYTES,
    cors: CorsPolicy | None = None,
    hosts: HostPolicy | None = None,
    web: bool = True,
) -> Litestar:
    """The gateway app, calling the gRPC server at ``grpc_target`` with a ``timeout`` deadline per call; a request
    body over ``max_body_bytes`` is refused with 413. With ``web`` it also serves the browser front-end at /play.

    With ``telemetry`` on, each request gets Litestar's own OpenTelemetry span and HTTP metrics, and each gRPC call a
    client span whose context travels to the server in the call's metadata. ``cors`` says which pages on other
    origins may call it (cors.py; none by default), ``hosts`` the host names it answers to (hosts.py; by default the
    loopback names)."""
    telemetry = telemetry or Telemetry()
    hosts = hosts or HostPolicy()
    integers = IntegerGuard()

    async def connect(app: Litestar) -> None:
        interceptors = (
            aio_client_interceptors(tracer_provider=telemetry.tracer_provider, filter_=traced_call())
            if telemetry.tracing
            else None
        )
        target = upstream_target(grpc_target)
        options = channel_options()
        channel = grpc.aio.insecure_channel(target, options=options, interceptors=interceptors)
        streams = grpc.aio.insecure_channel(target, options=options) if interceptors else channel

        def connect_node(address: str) -> tuple[grpc.aio.Channel, grpc.aio.Channel]:
            """Channels to one node (a room's owner), made as the target's are."""
            calls = grpc.aio.insecure_channel(address, options=options, interceptors=interceptors)
            return calls, grpc.aio.insecure_channel(address, options=options) if interceptors else calls

        app.state.upstream = Upstream(
            channel,
            game_pb2_grpc.GameServiceStub(channel),
            room_pb2_grpc.RoomServiceStub(channel),
            move_pb2_grpc.MoveServiceStub(channel),
            tournament_pb2_grpc.TournamentServiceStub(channel),
            timeout,
            heartbeat,
            streams,
            move_pb2_grpc.MoveServiceStub(streams),
            tournament_pb2_grpc.TournamentServiceStub(streams),
            health_pb2_grpc.HealthStub(channel),
            player_pb2_grpc.PlayerServiceStub(channel),
            match_pb2_grpc.MatchServiceStub(channel),
            match_pb2_grpc.MatchServiceStub(streams),
            webhook_pb2_grpc.WebhookServiceStub(channel),
            owners=Owners(connect_node),
        )

    async def disconnect(app: Litestar) -> None:
        up = app.state.upstream
        if up.owners is not None:
            await up.owners.close()
        await up.channel.close()
        if up.stream_channel is not None and up.stream_channel is not up.channel:
            await up.stream_channel.close()

    app = Litestar(
        route_handlers=[
            list_games,
            get_rules,
            list_cards,
            create_room,
            list_rooms,
            get_room,
            join_room,
            leave_room,
            get_view,
            get_replay,
            list_legal_moves,
            submit_move,
            stream_events,
            create_stream_ticket,
            create_tournament,
            list_tournaments,
            get_tournament,
            join_tournament,
            leave_tournament,
            get_standings,
            stream_tournament,
            *PLAYER_ROUTES,
            *MATCH_ROUTES,
            *WEBHOOK_ROUTES,
            *OPERATOR_ROUTES,
            healthz,
            readyz,
            *([web_router(), ops_router()] if web else []),
        ],
        on_startup=[connect],
        middleware=[DefineMiddleware(CorsMiddleware, policy=cors)] if cors is not None and cors.enabled else [],
        # One of the gateway's host names (hosts.py); a change needs a JSON body and an origin allowed (guard.py);
        # every integer in range (numbers.py).
        guards=[HostGuard(hosts), ChangeGuard(cors, hosts), integers],
        before_request=_name_span if telemetry.tracing else None,
        on_shutdown=[disconnect],
        plugins=[
            *_telemetry_plugins(telemetry),
            ProblemDetailsPlugin(
                ProblemDetailsConfig(
                    enable_for_all_http_exceptions=True,
                    exception_to_problem_detail_map={
                        grpc.aio.AioRpcError: rpc_error_to_problem,
                        RequestEntityTooLarge: body_too_large,
                        ValidationException: bad_parameters,
                    },
                )
            ),
        ],
        exception_handlers={Exception: internal_error},  # (the others, refusals, are the plugin's above)
        request_max_body_size=max_body_bytes,
        openapi_config=OpenAPIConfig(
            title="kickoff REST gateway",
            version="1.0.0",
            description=DESCRIPTION,
            path="/schema",
            render_plugins=[ScalarRenderPlugin()],
            components=Components(security_schemes=SECURITY_SCHEMES),
        ),
    )
    integers.table = integer_parameters(app.routes)
    add_components(app)
    return app
