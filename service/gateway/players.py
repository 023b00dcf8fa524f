"""The REST routes of the PlayerService: sign-in and sessions, profiles, a player's rooms and seats, leaderboards and
history. Each calls the gRPC method of the same name (the access token travels as the Authorization header); the
bodies and replies are the proto3 JSON mapping of its messages, refusals problem details."""

from __future__ import annotations

from typing import Any

from litestar import Request, delete, get, patch, post
from litestar.datastructures import CacheControlHeader, State
from litestar.params import FromPath, FromQuery

from kickoff.v1 import player_pb2
from service.gateway.calls import body, metadata, to_json, upstream
from service.gateway.calls import page_size as bounded_page
from service.gateway.openapi import PLAYER, PLAYER_OR_ANYONE, operation

ME = "me"  # in a path: the caller (their access token names them)
SESSION_EXAMPLE = {"session": {"accessToken": "eyJ...", "refreshToken": "kr1_...", "player": {"name": "Ann"}}}
PRIVATE = CacheControlHeader(no_store=True, private=True)  # sessions and a player's own data are never cached


def _stub(state: State) -> Any:
    up = upstream(state)
    assert up.players is not None
    return up.players, up.timeout


def _player_id(player_id: str) -> str:
    """A path's player: ``me`` is the caller (the empty id the gRPC call takes for them)."""
    return "" if player_id == ME else player_id


@post(
    "/v1/players/guest",
    operation_id="SignInAsGuest",
    operation_class=operation(
        player_pb2.SignInAsGuestResponse, request=player_pb2.SignInAsGuestRequest, status="201", example={"name": "Ann"}
    ),
    summary="Sign in as a guest; returns a session",
    description='Body: {"deviceId": "...", "name": "Ann"} (both optional; the same device id signs the same player '
    "in again).",
    cache_control=PRIVATE,
    tags=["players"],
)
async def sign_in_as_guest(request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = await body(request, player_pb2.SignInAsGuestRequest())
    return to_json(await stub.SignInAsGuest(message, metadata=metadata(request), timeout=timeout))


@post(
    "/v1/players/sign-in",
    operation_id="SignInWithToken",
    operation_class=operation(
        player_pb2.SignInWithTokenResponse,
        request=player_pb2.SignInWithTokenRequest,
        status="201",
        example={"idToken": "eyJ..."},
    ),
    summary="Sign in with an identity provider's ID token; returns a session",
    cache_control=PRIVATE,
    tags=["players"],
)
async def sign_in_with_token(request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = await body(request, player_pb2.SignInWithTokenRequest())
    return to_json(await stub.SignInWithToken(message, metadata=metadata(request), timeout=timeout))


@post(
    "/v1/sessions/refresh",
    operation_id="RefreshSession",
    operation_class=operation(
        player_pb2.RefreshSessionResponse, request=player_pb2.RefreshSessionRequest, example={"refreshToken": "kr1_..."}
    ),
    summary="Trade a refresh token for new tokens (the one sent is used up)",
    status_code=200,
    cache_control=PRIVATE,
    tags=["players"],
)
async def refresh_session(request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = await body(request, player_pb2.RefreshSessionRequest())
    return to_json(await stub.RefreshSession(message, metadata=metadata(request), timeout=timeout))


@post(
    "/v1/sessions/sign-out",
    operation_id="SignOut",
    operation_class=operation(player_pb2.SignOutResponse, request=player_pb2.SignOutRequest, example={}),
    summary="End the session (the access token's, or the refresh token's in the body)",
    status_code=200,
    security=PLAYER_OR_ANYONE,
    tags=["players"],
)
async def sign_out(request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = await body(request, player_pb2.SignOutRequest())
    return to_json(await stub.SignOut(message, metadata=metadata(request), timeout=timeout))


@post(
    "/v1/players/me/identities",
    operation_id="LinkIdentity",
    operation_class=operation(
        player_pb2.Player, request=player_pb2.LinkIdentityRequest, status="201", example={"idToken": "eyJ..."}
    ),
    summary="Link an identity provider's account to the caller",
    security=PLAYER,
    cache_control=PRIVATE,
    tags=["players"],
)
async def link_identity(request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = await body(request, player_pb2.LinkIdentityRequest())
    return to_json((await stub.LinkIdentity(message, metadata=metadata(request), timeout=timeout)).player)


@get(
    "/v1/players/{player_id:str}",
    operation_id="GetPlayer",
    operation_class=operation(player_pb2.Player, example={"playerId": "3f2a9c1d4e5b6a708192", "name": "Ann"}),
    summary="A player: their name and ratings",
    security=PLAYER_OR_ANYONE,
    cache_control=PRIVATE,
    tags=["players"],
)
async def get_player(player_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = player_pb2.GetPlayerRequest(player_id=player_id)
    return to_json((await stub.GetPlayer(message, metadata=metadata(request), timeout=timeout)).player)


@get(
    "/v1/players/me",
    operation_id="GetMe",
    operation_class=operation(player_pb2.Player, example={"playerId": "3f2a9c1d4e5b6a708192", "name": "Ann"}),
    summary="The caller, with their identities",
    security=PLAYER,
    cache_control=PRIVATE,
    tags=["players"],
)
async def get_me(request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = player_pb2.GetPlayerRequest()
    return to_json((await stub.GetPlayer(message, metadata=metadata(request), timeout=timeout)).player)


@patch(
    "/v1/players/me",
    operation_id="UpdatePlayer",
    operation_class=operation(player_pb2.Player, request=player_pb2.UpdatePlayerRequest, example={"name": "Ann"}),
    summary="Rename the caller",
    security=PLAYER,
    cache_control=PRIVATE,
    tags=["players"],
)
async def update_player(request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = await body(request, player_pb2.UpdatePlayerRequest())
    return to_json((await stub.UpdatePlayer(message, metadata=metadata(request), timeout=timeout)).player)


@delete(
    "/v1/players/me",
    operation_id="DeletePlayer",
    operation_class=operation(player_pb2.DeletePlayerResponse, example={}),
    summary="Delete the caller (refused while they hold a seat in a game not finished)",
    status_code=200,
    security=PLAYER,
    tags=["players"],
)
async def delete_player(request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = player_pb2.DeletePlayerRequest()
    return to_json(await stub.DeletePlayer(message, metadata=metadata(request), timeout=timeout))


@get(
    "/v1/players/me/rooms",
    operation_id="ListMyRooms",
    operation_class=operation(player_pb2.ListMyRoomsResponse, example={"rooms": [], "nextPageToken": ""}),
    summary="The caller's rooms: their turn first, then live, waiting, finished",
    security=PLAYER,
    cache_control=PRIVATE,
    tags=["players"],
)
async def list_my_rooms(
    request: Request[Any, Any, Any], state: State, page_size: FromQuery[int] = 0, page_token: FromQuery[str] = ""
) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = player_pb2.ListMyRoomsRequest(page_size=bounded_page(page_size), page_token=page_token)
    return to_json(await stub.ListMyRooms(message, metadata=metadata(request), timeout=timeout))


@get(
    "/v1/players/me/turns",
    operation_id="ListMyTurns",
    operation_class=operation(
        player_pb2.ListMyTurnsResponse,
        example={
            "turns": [
                {
                    "roomId": "9cde6c191823ba5c",
                    "game": "soker",
                    "seat": 0,
                    "deadline": "2027-01-15T08:00:00Z",
                    "correspondenceHours": 24,
                }
            ]
        },
    ),
    summary="The rooms waiting for the caller (their turn), the nearest deadline first",
    description="Read from the store: it wakes no correspondence room that rests. Rooms without a clock come last; at "
    "most page_size rooms (default 50, at most 500).",
    security=PLAYER,
    cache_control=PRIVATE,
    tags=["players"],
)
async def list_my_turns(request: Request[Any, Any, Any], state: State, page_size: FromQuery[int] = 0) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = player_pb2.ListMyTurnsRequest(page_size=bounded_page(page_size))
    return to_json(await stub.ListMyTurns(message, metadata=metadata(request), timeout=timeout))


@post(
    "/v1/rooms/{room_id:str}/my-seat",
    operation_id="TakeSeat",
    operation_class=operation(player_pb2.TakeSeatResponse, example={"seat": 0, "seatToken": "..."}),
    summary="A fresh seat token for the seat the caller holds (another device takes the game up)",
    status_code=200,
    security=PLAYER,
    cache_control=PRIVATE,
    tags=["players"],
)
async def take_seat(room_id: FromPath[str], request: Request[Any, Any, Any], state: State) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = player_pb2.TakeSeatRequest(room_id=room_id)
    return to_json(await stub.TakeSeat(message, metadata=metadata(request), timeout=timeout))


@get(
    "/v1/games/{game:str}/leaderboard",
    operation_id="GetLeaderboard",
    operation_class=operation(player_pb2.GetLeaderboardResponse, example={"lines": [], "minGames": 5}),
    summary="A game's leaderboard, best first, a page at a time",
    tags=["players"],
)
async def get_leaderboard(
    game: FromPath[str], state: State, page_size: FromQuery[int] = 0, page_token: FromQuery[str] = ""
) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = player_pb2.GetLeaderboardRequest(game=game, page_size=bounded_page(page_size), page_token=page_token)
    return to_json(await stub.GetLeaderboard(message, timeout=timeout))


@get(
    "/v1/games/{game:str}/leaderboard/{player_id:str}",
    operation_id="GetRank",
    operation_class=operation(player_pb2.GetRankResponse, example={"line": {"rank": 7}, "above": [], "below": []}),
    summary="A player's place on a game's leaderboard, with neighbours (me: the caller)",
    security=PLAYER_OR_ANYONE,
    tags=["players"],
)
async def get_rank(
    game: FromPath[str],
    player_id: FromPath[str],
    request: Request[Any, Any, Any],
    state: State,
    neighbours: FromQuery[int] = 0,
) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = player_pb2.GetRankRequest(game=game, player_id=_player_id(player_id), neighbours=neighbours)
    return to_json(await stub.GetRank(message, metadata=metadata(request), timeout=timeout))


@get(
    "/v1/players/{player_id:str}/ratings/{game:str}/changes",
    operation_id="ListRatingChanges",
    operation_class=operation(player_pb2.ListRatingChangesResponse, example={"changes": [], "nextPageToken": ""}),
    summary="A player's rating changes in a game, newest first (me: the caller)",
    security=PLAYER_OR_ANYONE,
    tags=["players"],
)
async def list_rating_changes(
    player_id: FromPath[str],
    game: FromPath[str],
    request: Request[Any, Any, Any],
    state: State,
    page_size: FromQuery[int] = 0,
    page_token: FromQuery[str] = "",
) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = player_pb2.ListRatingChangesRequest(
        player_id=_player_id(player_id), game=game, page_size=bounded_page(page_size), page_token=page_token
    )
    return to_json(await stub.ListRatingChanges(message, metadata=metadata(request), timeout=timeout))


@get(
    "/v1/players/{player_id:str}/games",
    operation_id="ListPlayerGames",
    operation_class=operation(player_pb2.ListPlayerGamesResponse, example={"games": [], "played": 0, "won": 0}),
    summary="A player's finished games with their outcome, newest first (me: the caller)",
    security=PLAYER_OR_ANYONE,
    tags=["players"],
)
async def list_player_games(
    player_id: FromPath[str],
    request: Request[Any, Any, Any],
    state: State,
    game: FromQuery[str] = "",
    page_size: FromQuery[int] = 0,
    page_token: FromQuery[str] = "",
) -> dict[str, Any]:
    stub, timeout = _stub(state)
    message = player_pb2.ListPlayerGamesRequest(
        player_id=_player_id(player_id), game=game, page_size=bounded_page(page_size), page_token=page_token
    )
    return to_json(await stub.ListPlayerGames(message, metadata=metadata(request), timeout=timeout))


PLAYER_ROUTES = [
    sign_in_as_guest,
    sign_in_with_token,
    refresh_session,
    sign_out,
    link_identity,
    list_my_rooms,
    list_my_turns,
    get_me,
    update_player,
    delete_player,
    get_player,
    take_seat,
    get_leaderboard,
    get_rank,
    list_rating_changes,
    list_player_games,
]
