"""Every call the terminal client makes to a kickoff server, and the only place that reads their responses.

The client is a client like any third party's: it speaks the contracts (proto/kickoff/v1) through the generated stubs
and imports nothing from the engine or the server. The rest of the client (the screens, the table renderers) sees only
what this module hands out: the contract's inner messages (``Room``, ``RoomUpdate``, ``View``, ``Move``, ``Outcome``)
and the small classes below (a matchmaking ticket is the contract's ``Ticket`` of match.proto; this module's own
:class:`Ticket` is a seat taken in a room). So when an RPC's response message changes shape (``CreateRoom`` returning a
``CreateRoomResponse`` that holds the ``room``, ``StreamEvents`` streaming messages that hold an ``update``), this is
the one file to edit.

A failed call raises :class:`CallFailed`, whose :class:`Refusal` carries the gRPC status, the message and the
``google.rpc.ErrorInfo`` reason; a move refused on the play stream comes back as a :class:`PlayItem` with the same
:class:`Refusal`.

A player's session (``sign_in_as_guest``) is kept in memory for the run: its access token goes as ``authorization:
Bearer`` on the PlayerService's and the MatchService's calls and on CreateRoom and JoinRoom (which then seat the
player); it is refreshed with the refresh token shortly before it expires by the client's clock, or once when the
server answers ``token_expired``, and the new pair replaces the old (a refresh token is good once, so refreshes never
overlap). When the server says the session is over (``refresh_reused``, ``session_revoked``...) the client forgets it
and raises :class:`SessionEnded`.

Every call that seats a person (JoinRoom, AcceptMatch, AcceptRoomInvitation, AnswerRematch accepting) sends a seed of
the seat's own for the fair deal (docs/guides/fair-deals.md): 16 hex characters from :func:`new_seat_seed` unless the
caller gives one.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import json
import re
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

import grpc
from google.protobuf import struct_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from kickoff.v1 import (
    chat_pb2,
    chat_pb2_grpc,
    common_pb2,
    friend_pb2,
    friend_pb2_grpc,
    game_pb2,
    game_pb2_grpc,
    inbox_pb2,
    inbox_pb2_grpc,
    match_pb2,
    match_pb2_grpc,
    move_pb2,
    move_pb2_grpc,
    player_pb2,
    player_pb2_grpc,
    presence_pb2,
    presence_pb2_grpc,
    room_pb2,
    room_pb2_grpc,
)

_CODE_NAMES = {code.value[0]: code.name for code in grpc.StatusCode}
REFRESH_MARGIN = 60.0  # seconds before the access token's expiry (by the client's clock) that it is refreshed
# The reasons a player's call is refused for that mean the session is over (sign in again).
SESSION_OVER = frozenset({"session_revoked", "session_unknown", "refresh_reused", "refresh_expired", "refresh_unknown"})


@dataclass(frozen=True)
class Refusal:
    """Why the server refused a call or a move: the gRPC status's name, its message, and the ErrorInfo reason."""

    code: str
    message: str
    reason: str = ""
    request_id: str = ""
    metadata: tuple[tuple[str, str], ...] = ()  # what the ErrorInfo says besides (muted's "until")

    def detail(self, key: str) -> str:
        """One of the ErrorInfo's metadata ("" when it has none by that name)."""
        return dict(self.metadata).get(key, "")

    def __str__(self) -> str:
        reason = f" ({self.reason})" if self.reason else ""
        return f"{self.code}{reason}: {self.message}"


class CallFailed(Exception):
    """A call (or a stream) the server refused, or that could not reach it."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


class SessionEnded(CallFailed):
    """The player's session is over (revoked, its refresh token reused or expired): the client has forgotten it."""


def _info(details: Iterable[Any]) -> error_details_pb2.ErrorInfo:
    info = error_details_pb2.ErrorInfo()
    for detail in details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR) and detail.Unpack(info):
            return info
    return error_details_pb2.ErrorInfo()


def _reason(details: Iterable[Any]) -> str:
    return str(_info(details).reason)


def refusal_from_error(error: grpc.aio.AioRpcError, request_id: str = "") -> Refusal:
    """A failed call's refusal: its status and message, and the reason from the rich status in its trailers."""
    try:
        status = rpc_status.from_call(error)
    except ValueError:  # a rich status that does not match the call's own: keep the call's
        status = None
    info = _info(status.details) if status is not None else error_details_pb2.ErrorInfo()
    metadata = tuple(sorted(info.metadata.items()))
    return Refusal(error.code().name, error.details() or "", info.reason, request_id, metadata)


def refusal_from_status(status: status_pb2.Status, request_id: str = "") -> Refusal:
    """A refusal from a google.rpc.Status, as a move refused on the play stream carries it."""
    return Refusal(_CODE_NAMES.get(status.code, str(status.code)), status.message, _reason(status.details), request_id)


LOST_ANSWER = ("UNAVAILABLE", "DEADLINE_EXCEEDED")  # a call that may have been made although its answer never came


def new_request_id() -> str:
    return uuid.uuid4().hex


def new_seat_seed() -> str:
    """A seat's own seed for the fair deal: 16 hex characters from the operating system's generator."""
    return secrets.token_hex(8)


LINK_TOKEN_MAX = 512  # the most characters an invitation link's token may have (the contract's bound)
_TOKEN_CHARACTERS = re.compile(r"[A-Za-z0-9._~+/=-]+")
_ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def link_token(text: str) -> str:
    """The invitation token in what a person pasted: a whole link (``.../play#join=<token>``), the ``join=`` part,
    or the token alone. ValueError, saying why, for text that holds none."""
    text = text.strip()
    if "join=" in text:
        text = unquote(text.rsplit("join=", 1)[1].split("&", 1)[0])
    if not text:
        raise ValueError("paste an invitation link, or its token")
    if len(text) > LINK_TOKEN_MAX:
        raise ValueError(f"an invitation token has at most {LINK_TOKEN_MAX} characters; this has {len(text)}")
    if not _TOKEN_CHARACTERS.fullmatch(text) or text.count(".") != 2:
        raise ValueError("this is not an invitation link: its token is three parts joined by dots")
    return text


def link_room(token: str) -> str:
    """The room an invitation link's token opens (its ``rid`` claim; the server checks the token, the client only
    reads where it leads), or "" when the token does not say."""
    try:
        part = token.split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    except (IndexError, ValueError, binascii.Error):
        return ""
    room_id = claims.get("rid") if isinstance(claims, dict) else None
    return room_id if isinstance(room_id, str) and _ROOM_ID.fullmatch(room_id) else ""


@dataclass(frozen=True)
class Ticket:
    """A seat taken: the room after the join, the seat, and its bearer token."""

    room: room_pb2.Room
    seat: int
    token: str

    @property
    def player_id(self) -> str:
        """The player holding the seat ("" for an anonymous seat)."""
        seats = [seat for seat in self.room.seats if seat.seat == self.seat]
        return seats[0].player_id if seats else ""


@dataclass(frozen=True)
class NewRoom:
    """A room created, and the creator's seat when a signed-in player created it (None: join it like anyone)."""

    room: room_pb2.Room
    ticket: Ticket | None = None


@dataclass(frozen=True)
class PlayerSession:
    """A signed-in player's session as the client keeps it: who, the access token and when it expires (the server's
    time, seconds since the epoch), and the refresh token (good once)."""

    player: player_pb2.Player
    access_token: str
    access_expires: float
    refresh_token: str
    refresh_expires: float
    # Whether the client's clock already read the access token as (nearly) expired when it arrived: a clock ahead of
    # the server's. Then only the server's token_expired makes the client refresh (else it would refresh every call).
    clock_ahead: bool = False

    @property
    def player_id(self) -> str:
        return self.player.player_id

    @property
    def name(self) -> str:
        return self.player.name


@dataclass(frozen=True)
class InboxPage:
    """A page of the signed-in player's inbox (newest first), the next page's token, and all their unread items."""

    items: list[inbox_pb2.InboxItem]
    next_token: str
    unread: int


@dataclass(frozen=True)
class FriendsPresence:
    """The player's friends' presence now (one page), by player id, and who sees the player's own presence
    (``presence_pb2.PRESENCE_VISIBILITY_FRIENDS`` or ``..._NOBODY``)."""

    friends: dict[str, presence_pb2.FriendPresence]
    visibility: int


@dataclass(frozen=True)
class MyRoomsPage:
    """A page of the signed-in player's rooms (the server's order: their turn first), and the next page's token."""

    rooms: list[player_pb2.MyRoom]
    next_page_token: str


@dataclass(frozen=True)
class LeaderboardPage:
    """A page of a game's leaderboard (best first), the next page's token, and the rated games needed to be on it."""

    lines: list[player_pb2.LeaderboardLine]
    next_page_token: str
    min_games: int


@dataclass(frozen=True)
class Rank:
    """A player's place on a game's leaderboard (``line`` None while they have too few rated games), the lines just
    above and below, how many players are on it, the rated games needed, the player's rated games, and the rated games
    they have still to play to appear (0 once on it)."""

    line: player_pb2.LeaderboardLine | None
    above: list[player_pb2.LeaderboardLine]
    below: list[player_pb2.LeaderboardLine]
    ranked: int
    min_games: int
    rated_games: int = 0
    games_to_play: int = 0


@dataclass(frozen=True)
class ViewSnapshot:
    """What a seat (or a spectator: ``viewer`` None) sees at a version of the room."""

    version: int
    viewer: int | None
    view: move_pb2.View
    to_act: tuple[int, ...]
    clocks: tuple[common_pb2.TurnClock, ...]


@dataclass(frozen=True)
class PlayItem:
    """One message out of a room's stream: an update, and/or the answer to one of the client's moves (``accepted``:
    the request id of the move the update answers; ``refusal``: a move refused, with no update), or a message of the
    room's chat (``chat``, alone), on a stream that asked for chat."""

    update: move_pb2.RoomUpdate | None = None
    accepted: str = ""
    refusal: Refusal | None = None
    chat: chat_pb2.ChatMessage | None = None


@dataclass
class RoomStream:
    """A room's updates as one viewer receives them: a seat's play stream (which also takes its moves) or a
    spectator's event stream. Iterate it for :class:`PlayItem` s; ``close()`` ends it."""

    room_id: str
    _call: Any
    _moves: bool
    _closed: bool = field(default=False)

    @property
    def takes_moves(self) -> bool:
        return self._moves

    async def __aiter__(self) -> AsyncIterator[PlayItem]:
        try:
            if self._moves:
                while (response := await self._call.read()) is not grpc.aio.EOF:
                    yield _play_item(response)
            else:
                async for message in self._call:
                    if message.HasField("chat"):
                        yield PlayItem(chat=message.chat)
                    else:
                        yield PlayItem(update=message.update)
        except grpc.aio.AioRpcError as error:
            if self._closed and error.code() == grpc.StatusCode.CANCELLED:
                return
            raise CallFailed(refusal_from_error(error)) from None

    async def send(self, move: move_pb2.Move, request_id: str, expected_version: int | None = None) -> None:
        """Send a move for the stream's seat; its answer comes out of the stream."""
        if not self._moves:
            raise CallFailed(Refusal("FAILED_PRECONDITION", "a spectator cannot move"))
        request = move_pb2.SubmitMoveRequest(room_id=self.room_id, move=move, request_id=request_id)
        if expected_version is not None:
            request.expected_version = expected_version
        try:
            await self._call.write(move_pb2.PlayRequest(move=request))
        except grpc.aio.AioRpcError as error:
            raise CallFailed(refusal_from_error(error, request_id)) from None
        except Exception as error:  # the stream is over (the server ended it, or we closed it)
            closed = Refusal(
                "UNAVAILABLE", f"the play stream is closed ({error or type(error).__name__})", "", request_id
            )
            raise CallFailed(closed) from None

    async def close(self) -> None:
        """End the stream: a play stream stops sending (the server then ends it) and is cancelled."""
        if self._closed:
            return
        self._closed = True
        if self._moves:
            with contextlib.suppress(Exception):  # already over
                await self._call.done_writing()
        self._call.cancel()


def _play_item(response: move_pb2.PlayResponse) -> PlayItem:
    if response.HasField("chat"):
        return PlayItem(chat=response.chat)
    update = response.update if response.HasField("update") else None
    result = response.result if response.HasField("result") else None
    if result is None:
        return PlayItem(update=update)
    if result.accepted:
        return PlayItem(update=update, accepted=result.request_id)
    return PlayItem(update=update, refusal=refusal_from_status(result.error, result.request_id))


def options_struct(options: Mapping[str, Any]) -> struct_pb2.Struct:
    struct = struct_pb2.Struct()
    struct.update(dict(options))
    return struct


class KickoffClient:
    """An async client of one kickoff server: the channel, the services' stubs, and every call the terminal client
    makes. Seat tokens travel as ``authorization: Bearer <token>`` metadata, and so does a signed-in player's access
    token on the calls that act for the player; an API key (for servers that require one to create rooms) as
    ``x-api-key``.

    ``clock``: the wall clock (seconds since the epoch) the access token's expiry is read by; ``on_session_ended``
    is told why, when the client forgets the session because the server ended it."""

    def __init__(
        self,
        target: str,
        *,
        api_key: str = "",
        timeout: float = 10.0,
        clock: Callable[[], float] = time.time,
        on_session_ended: Callable[[Refusal], None] | None = None,
    ) -> None:
        self.target = target
        self.timeout = timeout
        self.clock = clock
        self.on_session_ended = on_session_ended
        self.session: PlayerSession | None = None
        self.session_ended: Refusal | None = None  # why the last session was forgotten (None: signed out, or never in)
        self.refreshes = 0  # how many times this client refreshed a session
        self._api_key = api_key
        self._channel = grpc.aio.insecure_channel(target)
        self._games = game_pb2_grpc.GameServiceStub(self._channel)
        self._rooms = room_pb2_grpc.RoomServiceStub(self._channel)
        self._moves = move_pb2_grpc.MoveServiceStub(self._channel)
        self._players = player_pb2_grpc.PlayerServiceStub(self._channel)
        self._matches = match_pb2_grpc.MatchServiceStub(self._channel)
        self._inbox = inbox_pb2_grpc.InboxServiceStub(self._channel)
        self._friends = friend_pb2_grpc.FriendServiceStub(self._channel)
        self._presence = presence_pb2_grpc.PresenceServiceStub(self._channel)
        self._chat = chat_pb2_grpc.ChatServiceStub(self._channel)
        self._refreshing = asyncio.Lock()
        self._known: dict[str, player_pb2.Player] = {}  # players looked up by id, for the run

    async def close(self) -> None:
        await self._channel.close()

    @staticmethod
    def _auth(token: str | None) -> tuple[tuple[str, str], ...]:
        return (("authorization", f"Bearer {token}"),) if token else ()

    @staticmethod
    async def _once(send: Callable[[], Awaitable[Any]]) -> Any:
        """A call that creates or takes something, whose request carries a request id: sent again, with the same id,
        when its answer was lost (UNAVAILABLE, DEADLINE_EXCEEDED), so that it is made once: the server answers the
        retry as the first time (the same room, the same seat and token, the same ticket)."""
        try:
            return await send()
        except CallFailed as failed:
            if failed.refusal.code not in LOST_ANSWER:
                raise
        return await send()

    async def _unary(self, method: Any, request: Any, metadata: tuple[tuple[str, str], ...] = ()) -> Any:
        try:
            return await method(request, metadata=metadata, timeout=self.timeout)
        except grpc.aio.AioRpcError as error:
            raise CallFailed(refusal_from_error(error)) from None

    # -- the player's session -----------------------------------------------------------------------------------------

    @property
    def signed_in(self) -> bool:
        return self.session is not None

    def _keep(self, session: player_pb2.Session) -> PlayerSession:
        expires = _seconds(session.access_expire_time)
        kept = PlayerSession(
            player=session.player,
            access_token=session.access_token,
            access_expires=expires,
            refresh_token=session.refresh_token,
            refresh_expires=_seconds(session.refresh_expire_time),
            clock_ahead=self.clock() >= expires - REFRESH_MARGIN,
        )
        self.session = kept
        self.session_ended = None
        return kept

    def _forget(self, refusal: Refusal) -> SessionEnded:
        """Forget the session the server ended; the error to raise."""
        self.session = None
        self.session_ended = refusal
        if self.on_session_ended is not None:
            self.on_session_ended(refusal)
        return SessionEnded(refusal)

    async def sign_in_as_guest(self, name: str = "", device_id: str = "") -> PlayerSession:
        """Sign in as a guest (a new player, unless ``device_id`` names one) and keep the session."""
        request = player_pb2.SignInAsGuestRequest(name=name, device_id=device_id)
        response = await self._unary(self._players.SignInAsGuest, request)
        return self._keep(response.session)

    async def sign_out(self) -> None:
        """End the session on the server (by its refresh token: no access token needed) and forget it here, even when
        the server cannot be told (CallFailed then says why)."""
        session, self.session, self.session_ended = self.session, None, None
        if session is not None:
            request = player_pb2.SignOutRequest(refresh_token=session.refresh_token)
            await self._unary(self._players.SignOut, request)

    async def refresh_session(self) -> PlayerSession:
        """Trade the refresh token for a new pair now."""
        if self.session is None:
            raise CallFailed(Refusal("UNAUTHENTICATED", "sign in first", "no_session"))
        return await self._refresh(self.session)

    async def _refresh(self, stale: PlayerSession) -> PlayerSession:
        """A fresh pair for ``stale``: one refresh at a time, and none where another already replaced the pair."""
        async with self._refreshing:
            current = self.session
            if current is None:
                raise SessionEnded(self.session_ended or Refusal("UNAUTHENTICATED", "signed out", "no_session"))
            if current is not stale:  # refreshed (or signed in again) while this call waited
                return current
            request = player_pb2.RefreshSessionRequest(refresh_token=stale.refresh_token)
            try:
                response = await self._unary(self._players.RefreshSession, request)
            except CallFailed as failed:
                if failed.refusal.code == "UNAUTHENTICATED":
                    raise self._forget(failed.refusal) from None
                raise
            self.refreshes += 1
            return self._keep(response.session)

    async def _current(self, *, required: bool) -> PlayerSession | None:
        """The session to send (refreshed first when its access token is about to expire); None when not signed in
        and the call does not need a player."""
        session = self.session
        if session is None:
            if required:
                raise CallFailed(Refusal("UNAUTHENTICATED", "sign in first", "no_session"))
            return None
        if not session.clock_ahead and self.clock() >= session.access_expires - REFRESH_MARGIN:
            session = await self._refresh(session)
        return session

    async def _as_player(
        self, method: Any, request: Any, *, required: bool = True, metadata: tuple[tuple[str, str], ...] = ()
    ) -> Any:
        """A call that acts for the signed-in player (``required``: only for one; else anyone, the player if signed
        in): refreshed and tried once more on token_expired; a session the server ended is forgotten."""
        session = await self._current(required=required)
        if session is None:
            return await self._unary(method, request, metadata)
        for attempt in (1, 2):
            try:
                return await self._unary(method, request, self._auth(session.access_token) + metadata)
            except CallFailed as failed:
                reason = failed.refusal.reason
                if reason == "token_expired" and attempt == 1:
                    session = await self._refresh(session)
                    continue
                if reason in SESSION_OVER and self.session is session:
                    raise self._forget(failed.refusal) from None
                raise
        raise AssertionError("unreachable")

    async def me(self) -> player_pb2.Player:
        """The signed-in player, as the server has them now (with their ratings and identities)."""
        response = await self._as_player(self._players.GetPlayer, player_pb2.GetPlayerRequest())
        return response.player

    async def get_player(self, player_id: str, *, fresh: bool = False) -> player_pb2.Player:
        """Any player as others see them (their name and ratings); kept for the run unless ``fresh``."""
        if fresh or player_id not in self._known:
            response = await self._unary(self._players.GetPlayer, player_pb2.GetPlayerRequest(player_id=player_id))
            self._known[player_id] = response.player
        return self._known[player_id]

    async def list_my_rooms(self, *, page_size: int = 50, page_token: str = "") -> MyRoomsPage:
        """A page of the signed-in player's rooms: their turn first, then the live, the waiting, the finished ones."""
        request = player_pb2.ListMyRoomsRequest(page_size=page_size, page_token=page_token)
        response = await self._as_player(self._players.ListMyRooms, request)
        return MyRoomsPage(list(response.rooms), response.next_page_token)

    async def take_seat(self, room_id: str) -> Ticket:
        """A fresh token for the seat the signed-in player holds in a room (NOT_FOUND no_seat where none)."""
        response = await self._as_player(self._players.TakeSeat, player_pb2.TakeSeatRequest(room_id=room_id))
        return Ticket(response.room, response.seat, response.seat_token)

    async def leaderboard(self, game: str, *, page_size: int = 50, page_token: str = "") -> LeaderboardPage:
        request = player_pb2.GetLeaderboardRequest(game=game, page_size=page_size, page_token=page_token)
        response = await self._unary(self._players.GetLeaderboard, request)
        return LeaderboardPage(list(response.lines), response.next_page_token, response.min_games)

    async def rank(self, game: str, player_id: str = "", *, neighbours: int = 0) -> Rank:
        """A player's place on a game's leaderboard (``player_id`` empty: the signed-in player's)."""
        request = player_pb2.GetRankRequest(game=game, player_id=player_id, neighbours=neighbours)
        if player_id:
            response = await self._unary(self._players.GetRank, request)
        else:
            response = await self._as_player(self._players.GetRank, request)
        line = response.line if response.HasField("line") else None
        return Rank(
            line,
            list(response.above),
            list(response.below),
            response.ranked,
            response.min_games,
            response.rated_games,
            response.games_to_play,
        )

    # -- matchmaking --------------------------------------------------------------------------------------------------

    async def enqueue(self, game: str, *, seat_counts: Iterable[int] = ()) -> match_pb2.Ticket:
        """Join a game's queue as the signed-in player: a ticket searching for a table of one of ``seat_counts``
        (empty: any size the game takes). ALREADY_EXISTS (already_queued) when the player is in that queue already.
        Sent with a request id, and once more with the same id when the answer was lost (:meth:`_once`): the retry
        answers the ticket the first call made."""
        request = match_pb2.EnqueueRequest(
            game=game,
            seat_counts=list(seat_counts),
            mode=common_pb2.ROOM_MODE_ONLINE,
            request_id=new_request_id(),
        )
        return (await self._once(lambda: self._as_player(self._matches.Enqueue, request))).ticket

    async def get_ticket(self, ticket_id: str) -> match_pb2.Ticket:
        """A ticket of the signed-in player's, as it stands (NOT_FOUND for anyone else's)."""
        request = match_pb2.GetTicketRequest(ticket_id=ticket_id)
        return (await self._as_player(self._matches.GetTicket, request)).ticket

    async def my_tickets(self) -> list[match_pb2.Ticket]:
        """The signed-in player's live tickets, oldest first."""
        response = await self._as_player(self._matches.ListMyTickets, match_pb2.ListMyTicketsRequest())
        return list(response.tickets)

    async def follow_ticket(self, ticket_id: str) -> AsyncIterator[match_pb2.Ticket]:
        """A ticket of the signed-in player's now and at each change, until it ends (matched, cancelled, expired).
        The stream opens with the session's access token (refreshed first, like any player's call, and once more on
        token_expired before anything came); cancelling the task that reads it ends it."""
        request = match_pb2.FollowTicketRequest(ticket_id=ticket_id)
        session = await self._current(required=True)
        assert session is not None
        for attempt in (1, 2):
            call = self._matches.FollowTicket(request, metadata=self._auth(session.access_token))
            heard = False
            try:
                async for message in call:
                    heard = True
                    yield message.ticket
                return
            except grpc.aio.AioRpcError as error:
                refusal = refusal_from_error(error)
                if refusal.reason == "token_expired" and attempt == 1 and not heard:
                    session = await self._refresh(session)
                    continue
                if refusal.reason in SESSION_OVER and self.session is session:
                    raise self._forget(refusal) from None
                raise CallFailed(refusal) from None
            finally:
                call.cancel()

    async def accept_match(self, ticket_id: str, *, seed: str | None = None) -> match_pb2.Ticket:
        """Take up the signed-in player's seat at the table the ticket was proposed (FAILED_PRECONDITION not_proposed
        when it is not), with the seat's ``seed`` (None: a new one); the ticket after it, matched when the player was
        the last to take up."""
        request = match_pb2.AcceptMatchRequest(ticket_id=ticket_id, seed=new_seat_seed() if seed is None else seed)
        return (await self._as_player(self._matches.AcceptMatch, request)).ticket

    async def cancel_ticket(self, ticket_id: str) -> match_pb2.Ticket:
        """End a live ticket of the signed-in player's: it leaves the queue, or the table it was proposed; the ticket,
        cancelled (FAILED_PRECONDITION when it had ended already)."""
        request = match_pb2.CancelTicketRequest(ticket_id=ticket_id)
        return (await self._as_player(self._matches.CancelTicket, request)).ticket

    async def matched_seat(self, ticket: match_pb2.Ticket) -> Ticket:
        """The seat a matched ticket gives the player: its room (read now), the seat, and the seat's token, as
        joining the room would have given them."""
        table = ticket.table
        if ticket.status != match_pb2.TICKET_STATUS_MATCHED or not table.seat_token:
            raise CallFailed(Refusal("FAILED_PRECONDITION", "the ticket is not matched", "not_matched"))
        return Ticket(await self.get_room(table.room_id), table.seat, table.seat_token)

    # -- the player's inbox, friends and their presence (issue 48) -----------------------------------------------------

    async def list_inbox(self, *, page_size: int = 50, page_token: str = "") -> InboxPage:
        """A page of the signed-in player's inbox, newest first, and how many of all their items are unread."""
        request = inbox_pb2.ListInboxRequest(page_size=page_size, page_token=page_token)
        response = await self._as_player(self._inbox.ListInbox, request)
        return InboxPage(list(response.items), response.next_page_token, response.unread_count)

    async def mark_inbox_read(self, item_ids: Iterable[int] = (), *, up_to: int = 0) -> int:
        """Mark the items named (or every item up to ``up_to``) read; the player's unread count after it."""
        request = inbox_pb2.MarkInboxReadRequest(item_ids=list(item_ids), up_to_item_id=up_to)
        return int((await self._as_player(self._inbox.MarkInboxRead, request)).unread_count)

    async def delete_inbox_item(self, item_id: int) -> int:
        """Delete one item of the player's inbox; their unread count after it."""
        request = inbox_pb2.DeleteInboxItemRequest(item_id=item_id)
        return int((await self._as_player(self._inbox.DeleteInboxItem, request)).unread_count)

    async def friend_code(self) -> str:
        """The signed-in player's friend code (made on first asking), which others add them by."""
        response = await self._as_player(self._friends.GetFriendCode, friend_pb2.GetFriendCodeRequest())
        return str(response.friend_code)

    async def add_friend(self, code: str) -> friend_pb2.SendFriendRequestResponse:
        """Ask the player whose friend code this is to be friends: the request sent, or the friend at once where they
        had asked the caller already."""
        request = friend_pb2.SendFriendRequestRequest(friend_code=code)
        return await self._as_player(self._friends.SendFriendRequest, request)

    async def list_friends(self, *, page_size: int = 0, page_token: str = "") -> friend_pb2.ListFriendsResponse:
        """The player's friends (a page), and the requests they received and sent."""
        request = friend_pb2.ListFriendsRequest(page_size=page_size, page_token=page_token)
        return await self._as_player(self._friends.ListFriends, request)

    async def accept_friend(self, player_id: str) -> None:
        await self._as_player(
            self._friends.AcceptFriendRequest, friend_pb2.AcceptFriendRequestRequest(player_id=player_id)
        )

    async def decline_friend(self, player_id: str) -> None:
        request = friend_pb2.DeclineFriendRequestRequest(player_id=player_id)
        await self._as_player(self._friends.DeclineFriendRequest, request)

    async def remove_friend(self, player_id: str) -> None:
        await self._as_player(self._friends.RemoveFriend, friend_pb2.RemoveFriendRequest(player_id=player_id))

    async def block(self, player_id: str) -> None:
        """Block a player: a friendship or request between the two ends, and they can ask no more."""
        await self._as_player(self._friends.BlockPlayer, friend_pb2.BlockPlayerRequest(player_id=player_id))

    async def presence(self, *, page_size: int = 0) -> dict[str, presence_pb2.FriendPresence]:
        """The player's friends' presence now (one page, of the server's size), by player id."""
        return (await self.friends_presence(page_size=page_size)).friends

    async def friends_presence(self, *, page_size: int = 0) -> FriendsPresence:
        """The player's friends' presence now (one page, of the server's size), and who sees the player's own."""
        request = presence_pb2.GetPresenceRequest(page_size=page_size)
        response = await self._as_player(self._presence.GetPresence, request)
        return FriendsPresence({friend.player_id: friend for friend in response.friends}, response.visibility)

    async def set_presence_visibility(self, *, to_friends: bool) -> int:
        """Let the player's friends see their presence, or nobody (then every friend sees them away); who sees it
        now."""
        visibility = presence_pb2.PRESENCE_VISIBILITY_FRIENDS if to_friends else presence_pb2.PRESENCE_VISIBILITY_NOBODY
        request = presence_pb2.SetPresenceVisibilityRequest(visibility=visibility)
        return int((await self._as_player(self._presence.SetPresenceVisibility, request)).visibility)

    # -- private tables: invitation links, and friends invited to a room ----------------------------------------------

    async def create_invitation_link(
        self, room_id: str, token: str, *, max_uses: int = 1, expires_in_seconds: int = 0
    ) -> room_pb2.CreateInvitationLinkResponse:
        """An invitation link to an unlisted room, made with a seat's token: the link (``max_uses`` 1: single use;
        0: the server's most), its token (shown once) and the web page's path for it."""
        request = room_pb2.CreateInvitationLinkRequest(
            room_id=room_id, max_uses=max_uses, expires_in_seconds=expires_in_seconds
        )
        return await self._unary(self._rooms.CreateInvitationLink, request, self._auth(token))

    async def invite_to_room(self, room_id: str, player_id: str) -> room_pb2.RoomInvitation:
        """Invite a friend to a waiting room the signed-in player is seated in."""
        request = room_pb2.InviteToRoomRequest(room_id=room_id, player_id=player_id)
        return (await self._as_player(self._rooms.InviteToRoom, request)).invitation

    async def room_invitations(self) -> room_pb2.ListRoomInvitationsResponse:
        """The signed-in player's pending room invitations: ``received`` from friends and ``sent``, latest first."""
        return await self._as_player(self._rooms.ListRoomInvitations, room_pb2.ListRoomInvitationsRequest())

    async def accept_room_invitation(self, room_id: str, *, seed: str | None = None) -> Ticket:
        """Accept an invitation to a room: the player is seated there, as joining would seat them (with the seat's
        ``seed``; None: a new one)."""
        request = room_pb2.AcceptRoomInvitationRequest(room_id=room_id, seed=new_seat_seed() if seed is None else seed)
        response = await self._as_player(self._rooms.AcceptRoomInvitation, request)
        return Ticket(response.room, response.seat, response.seat_token)

    async def decline_room_invitation(self, room_id: str) -> None:
        request = room_pb2.DeclineRoomInvitationRequest(room_id=room_id)
        await self._as_player(self._rooms.DeclineRoomInvitation, request)

    async def withdraw_room_invitation(self, room_id: str, player_id: str) -> None:
        request = room_pb2.WithdrawRoomInvitationRequest(room_id=room_id, player_id=player_id)
        await self._as_player(self._rooms.WithdrawRoomInvitation, request)

    # -- rematches ----------------------------------------------------------------------------------------------------

    async def propose_rematch(self, room_id: str, token: str) -> room_pb2.Room:
        """Propose a rematch of a finished room with the seat's token (the proposer has accepted); the room with its
        rematch."""
        request = room_pb2.ProposeRematchRequest(room_id=room_id, seed=new_seat_seed())
        return (await self._unary(self._rooms.ProposeRematch, request, self._auth(token))).room

    async def answer_rematch(
        self, room_id: str, token: str, *, accept: bool, seed: str | None = None
    ) -> tuple[room_pb2.Room, Ticket | None]:
        """Accept or decline a finished room's rematch with the seat's token: the room with its rematch, and, once the
        rematch is made and the seat accepted, the seat in the new room. Accepting sends the seat's ``seed`` for the
        rematch's deal (None: a new one)."""
        request = room_pb2.AnswerRematchRequest(room_id=room_id, accept=accept)
        if accept:
            request.seed = new_seat_seed() if seed is None else seed
        response = await self._unary(self._rooms.AnswerRematch, request, self._auth(token))
        if not response.HasField("seat") or not response.seat_token:
            return response.room, None
        new_room = await self.get_room(response.room.rematch.room_id, response.seat_token)
        return response.room, Ticket(new_room, response.seat, response.seat_token)

    # -- games and rooms ----------------------------------------------------------------------------------------------

    async def list_games(self) -> list[game_pb2.GameInfo]:
        response = await self._unary(self._games.ListGames, game_pb2.ListGamesRequest())
        return list(response.games)

    async def list_rooms(self, *, game: str = "", page_size: int = 50) -> list[room_pb2.Room]:
        """The newest rooms (one page), the waiting ones first, then those being played, then the finished ones."""
        response = await self._unary(self._rooms.ListRooms, room_pb2.ListRoomsRequest(game=game, page_size=page_size))
        order = {common_pb2.ROOM_STATUS_WAITING: 0, common_pb2.ROOM_STATUS_PLAYING: 1}
        return sorted(response.rooms, key=lambda room: order.get(room.status, 2))

    async def replay(
        self, room_id: str, token: str | None = None, *, page_size: int = 500
    ) -> move_pb2.GetReplayResponse:
        """A room's whole replay so far: every page's steps in one answer (the room as of the last page), the form
        of a replay file (terminal/replay.py). Asked with the seat's ``token``, or else as the signed-in player (if
        any): whoever sat at the table gets its players' chat too (the first page's)."""
        whole = move_pb2.GetReplayResponse()
        after = 0
        while True:
            request = move_pb2.GetReplayRequest(room_id=room_id, after_version=after, page_size=page_size)
            if token:
                page = await self._unary(self._moves.GetReplay, request, self._auth(token))
            else:
                page = await self._as_player(self._moves.GetReplay, request, required=False)
            if not after:
                whole.chat.extend(page.chat)
            whole.steps.extend(page.steps)
            whole.room.CopyFrom(page.room)
            whole.revealed, whole.last_version = page.revealed, page.last_version
            after = page.next_after_version
            if not after:
                return whole

    async def get_room(self, room_id: str, token: str | None = None, *, invitation_token: str = "") -> room_pb2.Room:
        """A room; an unlisted one only with a seat's ``token`` (or the token of one of its invitation links)."""
        request = room_pb2.GetRoomRequest(room_id=room_id, invitation_token=invitation_token)
        return (await self._unary(self._rooms.GetRoom, request, self._auth(token))).room

    async def create_room(
        self,
        game: str,
        *,
        seats: int,
        solo: bool,
        system_players: int,
        options: Mapping[str, Any] | None = None,
        think_seconds: float | None = None,
        as_player: bool = True,
        choice: str = "",
        system_player: str = "",
        unlisted: bool = False,
        chat: int = 0,
        team_chat: bool = False,
    ) -> NewRoom:
        """Create a room; a signed-in player (unless not ``as_player``) is seated in it at once (``NewRoom.ticket``),
        with ``choice`` for the seat where the game offers one. Anyone else joins after, with their choice.
        ``unlisted``: a private table, in nobody's lobby (a signed-in player's only). ``chat``: a
        ``chat_pb2.ChatMode`` (0: on); ``team_chat``: a channel for each team (team games only). Sent with a request
        id, and once more with the same id when the answer was lost (:meth:`_once`)."""
        request = room_pb2.CreateRoomRequest(
            game=game,
            mode=common_pb2.ROOM_MODE_SOLO if solo else common_pb2.ROOM_MODE_ONLINE,
            seats=seats,
            system_players=system_players,
            system_player=system_player,
            request_id=new_request_id(),
            unlisted=unlisted,
            chat=chat,  # type: ignore[arg-type]
            team_chat=team_chat,
        )
        if options:
            request.options.CopyFrom(options_struct(options))
        if think_seconds is not None:
            request.think_seconds = think_seconds
        metadata = (("x-api-key", self._api_key),) if self._api_key else ()
        if not as_player:
            return NewRoom((await self._once(lambda: self._unary(self._rooms.CreateRoom, request, metadata))).room)
        if self.signed_in:
            request.choice = choice  # (an anonymous creator's choice would be refused: they choose on joining)
            request.seed = new_seat_seed()  # (the seat they are given: its seed for the fair deal)
        response = await self._once(
            lambda: self._as_player(self._rooms.CreateRoom, request, required=False, metadata=metadata)
        )
        ticket = Ticket(response.room, response.seat, response.seat_token) if response.HasField("seat") else None
        return NewRoom(response.room, ticket)

    async def join_room(
        self,
        room_id: str,
        *,
        name: str = "",
        choice: str = "",
        seat: int | None = None,
        as_player: bool = True,
        invitation_token: str = "",
        seed: str | None = None,
    ) -> Ticket:
        """Take a seat: the signed-in player's (unless not ``as_player``), else an anonymous one; an unlisted room's
        with one of its links' ``invitation_token``; with the seat's ``seed`` for the fair deal (None: a new one).
        Sent with a request id, and once more with the same id when the answer was lost (:meth:`_once`)."""
        request = room_pb2.JoinRoomRequest(
            room_id=room_id,
            name=name,
            choice=choice,
            request_id=new_request_id(),
            invitation_token=invitation_token,
            seed=new_seat_seed() if seed is None else seed,
        )
        if seat is not None:
            request.seat = seat
        if as_player:
            response = await self._once(lambda: self._as_player(self._rooms.JoinRoom, request, required=False))
        else:
            response = await self._once(lambda: self._unary(self._rooms.JoinRoom, request))
        return Ticket(response.room, response.seat, response.seat_token)

    async def leave_room(self, room_id: str, token: str) -> room_pb2.Room:
        response = await self._unary(
            self._rooms.LeaveRoom, room_pb2.LeaveRoomRequest(room_id=room_id), self._auth(token)
        )
        return response.room

    # -- playing ------------------------------------------------------------------------------------------------------

    async def get_view(self, room_id: str, token: str | None = None) -> ViewSnapshot:
        """What the token's seat (or, without one, a spectator) sees now."""
        response = await self._unary(self._moves.GetView, move_pb2.GetViewRequest(room_id=room_id), self._auth(token))
        return ViewSnapshot(
            version=response.version,
            viewer=response.viewer if response.HasField("viewer") else None,
            view=response.view,
            to_act=tuple(response.to_act),
            clocks=tuple(response.clocks),
        )

    async def legal_moves(self, room_id: str, token: str) -> tuple[int, list[move_pb2.Move]]:
        """The room's version and the seat's legal moves at it."""
        response = await self._unary(
            self._moves.ListLegalMoves, move_pb2.ListLegalMovesRequest(room_id=room_id), self._auth(token)
        )
        return response.version, list(response.moves)

    async def submit_move(
        self, room_id: str, token: str, move: move_pb2.Move, request_id: str, expected_version: int | None = None
    ) -> move_pb2.RoomUpdate:
        """Submit one move outside a play stream; returns the update it caused (CallFailed when refused)."""
        request = move_pb2.SubmitMoveRequest(room_id=room_id, move=move, request_id=request_id)
        if expected_version is not None:
            request.expected_version = expected_version
        try:
            response = await self._moves.SubmitMove(request, metadata=self._auth(token), timeout=self.timeout)
        except grpc.aio.AioRpcError as error:
            raise CallFailed(refusal_from_error(error, request_id)) from None
        return response.update

    async def play(
        self, room_id: str, token: str, after_version: int = 0, *, after_chat_seq: int | None = None
    ) -> RoomStream:
        """Open the seat's play stream: every update after ``after_version``, then each new one, and the answers to
        the moves sent on it; with ``after_chat_seq``, the room's chat after that seq too (0: every kept message)."""
        call = self._moves.Play(metadata=self._auth(token))
        stream = RoomStream(room_id, call, True)
        hello = move_pb2.PlayHello(room_id=room_id, after_version=after_version)
        if after_chat_seq is not None:
            hello.after_chat_seq = after_chat_seq
        try:
            await call.write(move_pb2.PlayRequest(hello=hello))
        except grpc.aio.AioRpcError as error:
            raise CallFailed(refusal_from_error(error)) from None
        return stream

    async def watch(
        self, room_id: str, after_version: int = 0, token: str | None = None, *, after_chat_seq: int | None = None
    ) -> RoomStream:
        """Follow a room's updates (as a spectator without a token); with ``after_chat_seq``, the spectators' chat
        after that seq too."""
        request = move_pb2.StreamEventsRequest(room_id=room_id, after_version=after_version)
        if after_chat_seq is not None:
            request.after_chat_seq = after_chat_seq
        call = self._moves.StreamEvents(request, metadata=self._auth(token))
        return RoomStream(room_id, call, False)

    # -- a room's chat (issue 49) -------------------------------------------------------------------------------------
    # A seat's calls go with its seat token (a player's seat writes text; an anonymous seat, reactions only); anyone
    # else's with the signed-in player's access token (a spectator), or with nothing (an anonymous spectator reads).

    async def _chat_call(self, method: Any, request: Any, seat_token: str | None) -> Any:
        if seat_token:
            return await self._unary(method, request, self._auth(seat_token))
        return await self._as_player(method, request, required=False)

    async def send_chat(
        self,
        room_id: str,
        seat_token: str | None,
        *,
        text: str = "",
        reaction: int = 0,
        channel: int = chat_pb2.CHAT_CHANNEL_UNSPECIFIED,
    ) -> chat_pb2.ChatMessage:
        """Say something in a room (text, or a ``chat_pb2.ChatReaction``): the message as stored, with its seq. Sent
        with a request id, and once more with the same id when the answer was lost (:meth:`_once`)."""
        request = chat_pb2.SendChatMessageRequest(
            room_id=room_id, text=text, reaction=reaction, channel=channel, request_id=new_request_id()
        )
        response = await self._once(lambda: self._chat_call(self._chat.SendChatMessage, request, seat_token))
        return response.message

    async def list_chat(
        self, room_id: str, seat_token: str | None, *, after_seq: int = 0, page_size: int = 0
    ) -> tuple[list[chat_pb2.ChatMessage], int]:
        """A page of the room's kept messages after ``after_seq`` that the caller reads, oldest first, and the seq to
        ask the next page after (0: the last page)."""
        request = chat_pb2.ListChatMessagesRequest(room_id=room_id, after_seq=after_seq, page_size=page_size)
        response = await self._chat_call(self._chat.ListChatMessages, request, seat_token)
        return list(response.messages), response.next_after_seq

    async def follow_chat(
        self, room_id: str, seat_token: str | None, after_seq: int = 0
    ) -> AsyncIterator[chat_pb2.ChatMessage]:
        """The room's messages after ``after_seq`` that the caller reads, then each new one (the table follows it once
        the room's stream ended with the game); cancelling the task that reads it ends it."""
        request = chat_pb2.FollowChatRequest(room_id=room_id, after_seq=after_seq)
        token = seat_token
        if not token:
            session = await self._current(required=False)
            token = session.access_token if session is not None else None
        call = self._chat.FollowChat(request, metadata=self._auth(token))
        try:
            async for response in call:
                yield response.message
        except grpc.aio.AioRpcError as error:
            raise CallFailed(refusal_from_error(error)) from None
        finally:
            call.cancel()

    async def report_chat(self, room_id: str, seat_token: str | None, seq: int, reason: str = "") -> str:
        """Report a message the caller reads to the service's moderators (a signed-in player's): the report's id."""
        request = chat_pb2.ReportChatMessageRequest(room_id=room_id, seq=seq, reason=reason)
        return str((await self._chat_call(self._chat.ReportChatMessage, request, seat_token)).report_id)


def _seconds(stamp: Any) -> float:
    return float(stamp.seconds + stamp.nanos / 1e9)
