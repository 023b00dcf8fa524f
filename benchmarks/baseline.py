"""A bare fan-out server: the floor under `kickoff bench server`, measured with `--baseline` in the same invocation.

It speaks the same contract the benchmark's clients use (RoomService.CreateRoom and JoinRoom; MoveService.Play,
SubmitMove and StreamEvents) with grpc.aio, and does only what any such server must: it takes a move from the seat to
act, and pushes one update to every seat's stream, each seat with an asyncio queue of its own, the seat to act with
its legal moves, the mover's answer riding on its update. It has no rules, no store, no seat tokens beyond the seat's
number, no limits and no telemetry. Its updates carry a padding event so that each is as large as kickoff's (the
benchmark measures kickoff's mean update size and passes it here); a game lasts as many moves as a random Soker game
(47 on average).

It is the cheapest such a fan-out can be, and uses the trick kickoff uses: an update is serialised once, the fields
every seat shares (the padding event's bytes made once a room), and each seat's message is those bytes joined with its
own few (its number, the legal moves' bytes, made once), sent as bytes that gRPC passes on without serialising again.

    python -m benchmarks.baseline --port 50555 --update-bytes 420 --moves-per-game 47
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
from collections.abc import AsyncIterator
from typing import Any

import grpc
from google.protobuf import struct_pb2

from kickoff.v1 import common_pb2, move_pb2, move_pb2_grpc, room_pb2, room_pb2_grpc

SEATS = 4
LEGAL_MOVES = 5  # about what a Soker seat may choose from
PLAYING, FINISHED = common_pb2.ROOM_STATUS_PLAYING, common_pb2.ROOM_STATUS_FINISHED


def _varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _field(number: int, body: bytes) -> bytes:
    """A length-delimited field ``number`` holding ``body``: how a message embeds another one's bytes."""
    return _varint(number << 3 | 2) + _varint(len(body)) + body


UPDATE_FIELD = move_pb2.PlayResponse.DESCRIPTOR.fields_by_name["update"].number  # (StreamEventsResponse's too)
SUBMIT_UPDATE_FIELD = move_pb2.SubmitMoveResponse.DESCRIPTOR.fields_by_name["update"].number
assert move_pb2.StreamEventsResponse.DESCRIPTOR.fields_by_name["update"].number == UPDATE_FIELD
LEGAL = b"".join(
    move_pb2.RoomUpdate(
        legal_moves=[move_pb2.Move(generic=move_pb2.GenericMove(wire=f"move {index}"))]
    ).SerializeToString()
    for index in range(LEGAL_MOVES)
)
VIEWERS = [move_pb2.RoomUpdate(viewer=seat).SerializeToString() for seat in range(SEATS)]


def padding_event(padding: str) -> bytes:
    """A RoomUpdate piece with one generic game event whose data is ``{"pad": padding}``."""
    pad = struct_pb2.Struct()
    pad.update({"pad": padding})
    update = move_pb2.RoomUpdate()
    update.events.add().game.generic.data.CopyFrom(pad)
    return update.SerializeToString()


class BareRoom:
    def __init__(self, room_id: str, moves_per_game: int, padding: bytes) -> None:
        self.room_id = room_id
        self.seats_taken = 0
        self.version = 0
        self.to_act = -1  # -1: waiting for seats
        self.moves_left = moves_per_game
        self.status = common_pb2.ROOM_STATUS_WAITING
        self.padding = padding  # the padding event's piece, made once
        self.queues: list[tuple[int | None, asyncio.Queue[Any]]] = []

    def shared(self) -> bytes:
        """The update's fields every viewer sees, serialised once."""
        head = move_pb2.RoomUpdate(room_id=self.room_id, version=self.version, status=self.status)
        if self.to_act >= 0:
            head.to_act.append(self.to_act)
        return head.SerializeToString() + self.padding

    def update(self, viewer: int | None, shared: bytes) -> bytes:
        """The RoomUpdate's bytes for ``viewer``: the shared bytes, and a seat's number and its legal moves."""
        if viewer is None:
            return shared
        if viewer == self.to_act and self.status == PLAYING:
            return shared + VIEWERS[viewer] + LEGAL
        return shared + VIEWERS[viewer]

    def publish(self, mover: int | None = None, request_id: str = "") -> bytes | None:
        """One update to every stream; the mover's answer rides on its own. Returns the mover's update."""
        mine = None
        shared = self.shared()
        finished = self.status == FINISHED
        for viewer, queue in self.queues:
            update = self.update(viewer, shared)
            result = b""
            if viewer is not None and viewer == mover:
                mine = update
                answer = move_pb2.MoveResult(request_id=request_id, accepted=True, version=self.version)
                result = move_pb2.PlayResponse(result=answer).SerializeToString()
            queue.put_nowait((update, result, finished))
        return mine

    def join(self) -> int:
        seat = self.seats_taken
        self.seats_taken += 1
        self.version += 1
        if self.seats_taken == SEATS:
            self.status, self.to_act = PLAYING, 0
        self.publish()
        return seat

    def move(self, seat: int, request_id: str) -> bytes | None:
        """The seat's move: None when it is not that seat's turn."""
        if self.status != PLAYING or seat != self.to_act:
            return None
        self.version += 1
        self.moves_left -= 1
        self.to_act = (self.to_act + 1) % SEATS
        if self.moves_left == 0:
            self.status, self.to_act = FINISHED, -1
        return self.publish(seat, request_id)


class Bare:
    def __init__(self, update_bytes: int, moves_per_game: int) -> None:
        self.rooms: dict[str, BareRoom] = {}
        self.ids = itertools.count(1)
        # The padding event's string, sized so that an update to a seat that does not act is about update_bytes.
        probe = BareRoom("r" * 16, moves_per_game, padding_event(""))
        probe.status, probe.to_act, probe.version = PLAYING, 1, 1000
        size = max(0, update_bytes - len(probe.update(0, probe.shared())))
        probe.padding = padding_event("x" * size)
        while size and len(probe.update(0, probe.shared())) > update_bytes:  # (the lengths' own bytes grow too)
            size -= 1
            probe.padding = padding_event("x" * size)
        self.padding = probe.padding
        self.moves_per_game = moves_per_game

    def seat_of(self, context: grpc.aio.ServicerContext) -> int | None:
        for key, value in context.invocation_metadata() or ():
            if key == "authorization":
                return int(value.rpartition(" ")[2])
        return None


class Rooms(room_pb2_grpc.RoomServiceServicer):
    def __init__(self, bare: Bare) -> None:
        self.bare = bare

    async def CreateRoom(self, request: Any, context: Any) -> room_pb2.CreateRoomResponse:
        room_id = f"{next(self.bare.ids):016x}"
        self.bare.rooms[room_id] = BareRoom(room_id, self.bare.moves_per_game, self.bare.padding)
        return room_pb2.CreateRoomResponse(room=room_pb2.Room(room_id=room_id, game=request.game, mode=request.mode))

    async def JoinRoom(self, request: Any, context: Any) -> room_pb2.JoinRoomResponse:
        room = self.bare.rooms[request.room_id]
        seat = room.join()
        return room_pb2.JoinRoomResponse(room=room_pb2.Room(room_id=room.room_id), seat=seat, seat_token=f"t {seat}")


class Moves(move_pb2_grpc.MoveServiceServicer):
    def __init__(self, bare: Bare) -> None:
        self.bare = bare

    def _follow(self, room: BareRoom, viewer: int | None) -> asyncio.Queue[Any]:
        queue: asyncio.Queue[Any] = asyncio.Queue()
        room.queues.append((viewer, queue))
        queue.put_nowait((room.update(viewer, room.shared()), b"", room.status == FINISHED))  # where the room stands
        return queue

    async def Play(self, request_iterator: Any, context: Any) -> AsyncIterator[bytes]:
        hello = await anext(request_iterator)
        room = self.bare.rooms[hello.hello.room_id]
        seat = self.bare.seat_of(context)
        queue = self._follow(room, seat)

        async def read_moves() -> None:
            async for request in request_iterator:
                if room.move(seat, request.move.request_id) is None:  # not its turn: refused at once
                    refused = move_pb2.MoveResult(request_id=request.move.request_id, version=room.version)
                    queue.put_nowait((None, move_pb2.PlayResponse(result=refused).SerializeToString(), False))

        reader = asyncio.create_task(read_moves())
        try:
            while True:
                update, result, finished = await queue.get()
                yield result if update is None else _field(UPDATE_FIELD, update) + result  # (a PlayResponse)
                if finished:
                    return
        finally:
            reader.cancel()
            room.queues.remove((seat, queue))

    async def SubmitMove(self, request: Any, context: Any) -> bytes:
        room = self.bare.rooms[request.room_id]
        update = room.move(self.bare.seat_of(context), request.request_id)  # type: ignore[arg-type]
        if update is None:
            await context.abort(grpc.StatusCode.ABORTED, "not this seat's turn")
        answer = move_pb2.SubmitMoveResponse(version=room.version).SerializeToString()
        return answer + _field(SUBMIT_UPDATE_FIELD, update)  # type: ignore[arg-type]

    async def StreamEvents(self, request: Any, context: Any) -> AsyncIterator[bytes]:
        room = self.bare.rooms[request.room_id]
        seat = self.bare.seat_of(context)
        queue = self._follow(room, seat)
        try:
            while True:
                update, _, finished = await queue.get()
                if update is None:
                    continue
                yield _field(UPDATE_FIELD, update)  # (a StreamEventsResponse)
                if finished:
                    return
        finally:
            room.queues.remove((seat, queue))


class _BytesAllowed:
    """Adds a servicer's handlers with response serializers that pass bytes on as they are (a message already
    serialised) and serialise anything else."""

    def __init__(self, server: grpc.aio.Server) -> None:
        self.server = server

    def add_generic_rpc_handlers(self, handlers: Any) -> None:
        """Ignored: the same handlers arrive through add_registered_method_handlers."""

    def add_registered_method_handlers(self, service: str, handlers: dict[str, Any]) -> None:
        def passing(serialize: Any) -> Any:
            return lambda message: message if type(message) is bytes else serialize(message)

        wrapped = {
            name: handler._replace(response_serializer=passing(handler.response_serializer))
            for name, handler in handlers.items()
        }
        self.server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, wrapped),))
        self.server.add_registered_method_handlers(service, wrapped)


async def serve(port: int, update_bytes: int, moves_per_game: int) -> None:
    bare = Bare(update_bytes, moves_per_game)
    server = grpc.aio.server()
    room_pb2_grpc.add_RoomServiceServicer_to_server(Rooms(bare), server)
    move_pb2_grpc.add_MoveServiceServicer_to_server(Moves(bare), _BytesAllowed(server))  # type: ignore[arg-type]
    bound = server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    print(f"bare fan-out server on 127.0.0.1:{bound}", flush=True)
    await server.wait_for_termination()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--update-bytes", type=int, default=400, help="the size of an update to a seat not acting")
    parser.add_argument("--moves-per-game", type=int, default=47)
    args = parser.parse_args()
    asyncio.run(serve(args.port, args.update_bytes, args.moves_per_game))


if __name__ == "__main__":
    main()
