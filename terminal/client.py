"""Every call the terminal client makes to a kickoff server, and the only place that reads their responses.

The client is a client like any third party's: it speaks the contracts (proto/kickoff/v1) through the generated stubs
and imports nothing from the engine or the server. The rest of the client (the screens, the table renderers) sees only
what this module hands out: the contract's inner messages (``Room``, ``RoomUpdate``, ``View``, ``Move``, ``Outcome``)
and the small classes below. So when an RPC's response message changes shape (``CreateRoom`` returning a
``CreateRoomResponse`` that holds the ``room``, ``StreamEvents`` streaming messages that hold an ``update``), this is
the one file to edit.

A failed call raises :class:`CallFailed`, whose :class:`Refusal` carries the gRPC status, the message and the
``google.rpc.ErrorInfo`` reason; a move refused on the play stream comes back as a :class:`PlayItem` with the same
:class:`Refusal`.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf import struct_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from kickoff.v1 import (
    common_pb2,
    game_pb2,
    game_pb2_grpc,
    move_pb2,
    move_pb2_grpc,
    room_pb2,
    room_pb2_grpc,
)

_CODE_NAMES = {code.value[0]: code.name for code in grpc.StatusCode}


@dataclass(frozen=True)
class Refusal:
    """Why the server refused a call or a move: the gRPC status's name, its message, and the ErrorInfo reason."""

    code: str
    message: str
    reason: str = ""
    request_id: str = ""

    def __str__(self) -> str:
        reason = f" ({self.reason})" if self.reason else ""
        return f"{self.code}{reason}: {self.message}"


class CallFailed(Exception):
    """A call (or a stream) the server refused, or that could not reach it."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


def _reason(details: Iterable[Any]) -> str:
    info = error_details_pb2.ErrorInfo()
    for detail in details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR) and detail.Unpack(info):
            return info.reason
    return ""


def refusal_from_error(error: grpc.aio.AioRpcError, request_id: str = "") -> Refusal:
    """A failed call's refusal: its status and message, and the reason from the rich status in its trailers."""
    try:
        status = rpc_status.from_call(error)
    except ValueError:  # a rich status that does not match the call's own: keep the call's
        status = None
    reason = _reason(status.details) if status is not None else ""
    return Refusal(error.code().name, error.details() or "", reason, request_id)


def refusal_from_status(status: status_pb2.Status, request_id: str = "") -> Refusal:
    """A refusal from a google.rpc.Status, as a move refused on the play stream carries it."""
    return Refusal(_CODE_NAMES.get(status.code, str(status.code)), status.message, _reason(status.details), request_id)


def new_request_id() -> str:
    return uuid.uuid4().hex


@dataclass(frozen=True)
class Ticket:
    """A seat taken: the room after the join, the seat, and its bearer token."""

    room: room_pb2.Room
    seat: int
    token: str


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
    the request id of the move the update answers; ``refusal``: a move refused, with no update)."""

    update: move_pb2.RoomUpdate | None = None
    accepted: str = ""
    refusal: Refusal | None = None


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
    """An async client of one kickoff server: the channel, the three services' stubs, and every call the terminal
    client makes. Seat tokens travel as ``authorization: Bearer <token>`` metadata; an API key (for servers that
    require one to create rooms) as ``x-api-key``."""

    def __init__(self, target: str, *, api_key: str = "", timeout: float = 10.0) -> None:
        self.target = target
        self.timeout = timeout
        self._api_key = api_key
        self._channel = grpc.aio.insecure_channel(target)
        self._games = game_pb2_grpc.GameServiceStub(self._channel)
        self._rooms = room_pb2_grpc.RoomServiceStub(self._channel)
        self._moves = move_pb2_grpc.MoveServiceStub(self._channel)

    async def close(self) -> None:
        await self._channel.close()

    @staticmethod
    def _auth(token: str | None) -> tuple[tuple[str, str], ...]:
        return (("authorization", f"Bearer {token}"),) if token else ()

    async def _unary(self, method: Any, request: Any, metadata: tuple[tuple[str, str], ...] = ()) -> Any:
        try:
            return await method(request, metadata=metadata, timeout=self.timeout)
        except grpc.aio.AioRpcError as error:
            raise CallFailed(refusal_from_error(error)) from None

    # -- games and rooms ----------------------------------------------------------------------------------------------

    async def list_games(self) -> list[game_pb2.GameInfo]:
        response = await self._unary(self._games.ListGames, game_pb2.ListGamesRequest())
        return list(response.games)

    async def list_rooms(self, *, game: str = "", page_size: int = 50) -> list[room_pb2.Room]:
        """The newest rooms (one page), the waiting ones first, then those being played, then the finished ones."""
        response = await self._unary(self._rooms.ListRooms, room_pb2.ListRoomsRequest(game=game, page_size=page_size))
        order = {common_pb2.ROOM_STATUS_WAITING: 0, common_pb2.ROOM_STATUS_PLAYING: 1}
        return sorted(response.rooms, key=lambda room: order.get(room.status, 2))

    async def get_room(self, room_id: str) -> room_pb2.Room:
        return (await self._unary(self._rooms.GetRoom, room_pb2.GetRoomRequest(room_id=room_id))).room

    async def create_room(
        self,
        game: str,
        *,
        seats: int,
        solo: bool,
        system_players: int,
        options: Mapping[str, Any] | None = None,
        think_seconds: float | None = None,
    ) -> room_pb2.Room:
        request = room_pb2.CreateRoomRequest(
            game=game,
            mode=common_pb2.ROOM_MODE_SOLO if solo else common_pb2.ROOM_MODE_ONLINE,
            seats=seats,
            system_players=system_players,
        )
        if options:
            request.options.CopyFrom(options_struct(options))
        if think_seconds is not None:
            request.think_seconds = think_seconds
        metadata = (("x-api-key", self._api_key),) if self._api_key else ()
        return (await self._unary(self._rooms.CreateRoom, request, metadata)).room

    async def join_room(self, room_id: str, *, name: str = "", choice: str = "", seat: int | None = None) -> Ticket:
        request = room_pb2.JoinRoomRequest(room_id=room_id, name=name, choice=choice)
        if seat is not None:
            request.seat = seat
        response = await self._unary(self._rooms.JoinRoom, request)
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

    async def play(self, room_id: str, token: str, after_version: int = 0) -> RoomStream:
        """Open the seat's play stream: every update after ``after_version``, then each new one, and the answers to
        the moves sent on it."""
        call = self._moves.Play(metadata=self._auth(token))
        stream = RoomStream(room_id, call, True)
        try:
            await call.write(
                move_pb2.PlayRequest(hello=move_pb2.PlayHello(room_id=room_id, after_version=after_version))
            )
        except grpc.aio.AioRpcError as error:
            raise CallFailed(refusal_from_error(error)) from None
        return stream

    async def watch(self, room_id: str, after_version: int = 0, token: str | None = None) -> RoomStream:
        """Follow a room's updates (as a spectator without a token)."""
        call = self._moves.StreamEvents(
            move_pb2.StreamEventsRequest(room_id=room_id, after_version=after_version), metadata=self._auth(token)
        )
        return RoomStream(room_id, call, False)
