"""A bare REST relay: the floor under kickoff's REST gateway, for the REST load of benchmarks/load.py.

It answers the two routes the REST load uses (benchmarks/load.py ``_rest_seat``), and relays each to a gRPC server
(the bare fan-out server of baseline.py) over one grpc.aio channel, made when the app starts, on its event loop:

- ``GET /v1/rooms/{room_id}/events?after_version=N`` opens MoveService.StreamEvents with the caller's Authorization
  header as ``authorization`` metadata, and answers server-sent events: each message's update is an ``update`` event
  whose ``id`` is its version and whose data is its JSON on one line. The answer ends when the gRPC stream ends; a
  stream refused before its first message answers 502.
- ``POST /v1/rooms/{room_id}/moves`` reads the JSON body into a SubmitMoveRequest (the room's id from the path), calls
  MoveService.SubmitMove with the same metadata, and answers 201 with the SubmitMoveResponse's JSON. gRPC's ABORTED
  (a stale move) answers 409, any other error 502, each with a short JSON body; a body or query that does not parse
  answers 400.

JSON is the proto3 JSON mapping with every field sent, as kickoff's gateway writes it
(``MessageToDict(..., always_print_fields_with_no_presence=True)``), dumped compactly by msgspec, and a move's body
read by msgspec too: on the bare server's updates msgspec dumps one in 0.4-0.8 µs where the json module's compact
dumps takes 4.5-8 µs (and reads a body in 1-1.5 µs against 3.5-5 µs); building the dict, which both need, takes
17-38 µs. An event's lines are written as bytes, the same bytes Litestar's ServerSentEventMessage encodes (0.25 µs
against its 5 µs).

It is a bare Litestar app (no middleware, no OpenAPI schema, no plugins of its own, no guards, no problem details)
served by uvicorn with the gateway's settings (asyncio loop, httptools, no access log), but uvicorn's own httptools
protocol. What it leaves out is what makes kickoff's gateway a product: no limits on heads, bodies, connections or
fields, no checks of a token or a room id, no CORS, no tracing, no heartbeat comments, no resuming with
Last-Event-ID, no ``end`` or ``problem`` events, no stream tickets, no routing to a room's owner, and no other route.

It is the honest floor because any REST gateway in front of gRPC must do at least this much for each move: parse an
HTTP request, relay it to gRPC as a call with the caller's credentials, and map the protobuf answers to JSON, for the
move's answer and for every update it streams. A gateway's CPU a move above this relay's is what it spends on more.

    python -m benchmarks.rest_floor --port 8081 --grpc-target 127.0.0.1:50555
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import grpc
import msgspec
import uvicorn
from google.protobuf import json_format
from litestar import Litestar, Request, Response, get, post
from litestar.response import Stream

from kickoff.v1 import move_pb2, move_pb2_grpc

_encode = msgspec.json.encode
_decode = msgspec.json.decode


def to_json(message: Any) -> bytes:
    """The message's JSON on one line, every field sent (the gateway's mapping, without its whole-number touch)."""
    return _encode(json_format.MessageToDict(message, always_print_fields_with_no_presence=True))


def _error(status: int, reason: str, detail: str) -> Response[bytes]:
    return Response(_encode({"error": reason, "detail": detail}), status_code=status, media_type="application/json")


def make_app(grpc_target: str) -> Litestar:
    """The relay's app, relaying to ``grpc_target``."""
    upstream: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def channel(app: Litestar) -> AsyncIterator[None]:
        async with grpc.aio.insecure_channel(grpc_target) as opened:
            upstream["moves"] = move_pb2_grpc.MoveServiceStub(opened)
            yield

    def metadata(request: Request[Any, Any, Any]) -> tuple[tuple[str, str], ...]:
        token = request.headers.get("authorization")
        return (("authorization", token),) if token else ()

    @get("/v1/rooms/{room_id:str}/events")
    async def events(request: Request[Any, Any, Any]) -> Response[Any]:
        try:
            after = int(request.query_params.get("after_version") or 0)
        except ValueError:
            return _error(400, "bad_request", "after_version is a whole number")
        call = upstream["moves"].StreamEvents(
            move_pb2.StreamEventsRequest(room_id=request.path_params["room_id"], after_version=after),
            metadata=metadata(request),
        )
        try:
            first = await call.read()
        except grpc.aio.AioRpcError as error:
            return _error(502, error.code().name.lower(), error.details() or "")

        async def stream() -> AsyncIterator[bytes]:
            response = first
            try:
                while response is not grpc.aio.EOF:
                    update = response.update
                    yield b"id: %d\r\nevent: update\r\ndata: %s\r\n\r\n" % (update.version, to_json(update))
                    response = await call.read()
            except grpc.aio.AioRpcError:
                return  # the answer ends: the client sees the stream close
            finally:
                call.cancel()

        return Stream(stream(), media_type="text/event-stream", headers={"cache-control": "no-cache"})

    @post("/v1/rooms/{room_id:str}/moves")
    async def submit(request: Request[Any, Any, Any]) -> Response[bytes]:
        move = move_pb2.SubmitMoveRequest()
        try:
            json_format.ParseDict(_decode(await request.body()), move)
        except (msgspec.DecodeError, json_format.ParseError) as error:
            return _error(400, "bad_request", str(error))
        move.room_id = request.path_params["room_id"]
        try:
            answer = await upstream["moves"].SubmitMove(move, metadata=metadata(request))
        except grpc.aio.AioRpcError as error:
            status = 409 if error.code() == grpc.StatusCode.ABORTED else 502
            return _error(status, error.code().name.lower(), error.details() or "")
        return Response(to_json(answer), status_code=201, media_type="application/json")

    return Litestar(route_handlers=[events, submit], openapi_config=None, lifespan=[channel])


class _Announcing(uvicorn.Server):
    """uvicorn's server, printing one line with its address once it listens (the benchmark waits for it)."""

    async def startup(self, sockets: Any = None) -> None:
        await super().startup(sockets)
        if self.started:
            port = self.servers[0].sockets[0].getsockname()[1]
            print(f"bare REST relay on 127.0.0.1:{port}", flush=True)


def config(grpc_target: str, port: int) -> uvicorn.Config:
    """The gateway's uvicorn settings, with uvicorn's own httptools protocol."""
    app = make_app(grpc_target)
    return uvicorn.Config(
        app, host="127.0.0.1", port=port, loop="asyncio", http="httptools", access_log=False, log_level="warning"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True, help="0: any free port (the line printed names it)")
    parser.add_argument("--grpc-target", required=True, help="HOST:PORT of the gRPC server (benchmarks/baseline.py)")
    args = parser.parse_args()
    asyncio.run(_Announcing(config(args.grpc_target, args.port)).serve())


if __name__ == "__main__":
    main()
