"""The load of `kickoff bench server`, `goals` and `cluster`: scripted seats playing whole games over real gRPC.

N rooms of four seats play whole games one after another for S seconds. 4 - K seats are scripted clients that choose
a random legal move as soon as they may act (or, open-loop, when their move is due); K are system players thinking
0 s. The clients measure moves per second and the latency from sending a move to seeing its result.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
import httpx

from benchmarks.harness import Child, GatewayProcess, ServerProcess
from kickoff.v1 import common_pb2, move_pb2, move_pb2_grpc, room_pb2, room_pb2_grpc
from service import collector
from service.grpc.forward import FOLLOW, OWNER, ROUTE

SEATS = 4


class Pacer:
    """Open-loop pacing of one room slot (``--rate``): the game's k-th move is due at its start + k * ``interval``,
    whether or not the earlier moves were answered, and its latency counts from when it was due, so the time a move
    waits behind a slow server is not hidden. Without a rate (``interval`` 0) a move is due when it is sent."""

    def __init__(self, interval: float = 0.0, offset: float = 0.0) -> None:
        self.interval, self.offset = interval, offset
        self.base, self.count = 0.0, 0

    def restart(self) -> None:
        """A new game in the slot: its first move is due ``offset`` from now."""
        self.base, self.count = time.perf_counter() + self.offset, 0

    async def wait_turn(self) -> float:
        """Waits until the slot's next move is due (at once when it is late or unpaced); returns when it was due."""
        now = time.perf_counter()
        if not self.interval:
            return now
        due = self.base + self.count * self.interval
        self.count += 1
        if due > now:
            await asyncio.sleep(due - now)
        return due


def seat_metadata(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


@dataclass
class Stats:
    moves: int = 0
    games: int = 0
    latencies: list[float] = field(default_factory=list)
    plain_updates: int = 0  # updates to a seat that does not act (no legal moves), and their bytes
    plain_bytes: int = 0
    warm_until: float = 0.0  # latencies before this time (perf_counter) are the start's: rooms still being made
    chat_heard: int = 0  # chat messages the seats' streams carried (bench chat: streams that asked for chat)

    def answered(self, due: float) -> None:
        """A move accepted now that was due (or sent) at ``due``."""
        self.moves += 1
        if due >= self.warm_until:
            self.latencies.append(time.perf_counter() - due)

    def saw(self, update: move_pb2.RoomUpdate) -> None:
        if not update.legal_moves:
            self.plain_updates += 1
            self.plain_bytes += update.ByteSize()

    def figures(self, seconds: float, rss_mb: float) -> dict[str, float]:
        ordered = sorted(self.latencies) or [0.0]

        def percentile(p: float) -> float:
            return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000, 2)

        return {
            "update_bytes": round(self.plain_bytes / max(1, self.plain_updates)),
            "moves_per_s": round(self.moves / seconds, 1),
            "p50_ms": percentile(0.50),
            "p99_ms": percentile(0.99),
            "games": self.games,
            "rss_mb": round(rss_mb, 1),
        }


async def _stream_seat(
    moves: move_pb2_grpc.MoveServiceStub,
    room_id: str,
    after: int,
    token: str,
    rng: random.Random,
    stats: Stats,
    pacer: Pacer,
    *,
    with_chat: bool = False,
) -> None:
    """One scripted seat on the play stream: a move whenever an update says it may act and no move is in flight.
    ``with_chat``: the stream asks for the room's chat too (every message from the first), and counts what it hears."""
    outgoing: asyncio.Queue[move_pb2.PlayRequest | None] = asyncio.Queue()
    hello = move_pb2.PlayHello(room_id=room_id, after_version=after)
    if with_chat:
        hello.after_chat_seq = 0
    outgoing.put_nowait(move_pb2.PlayRequest(hello=hello))

    async def requests() -> Any:
        while (message := await outgoing.get()) is not None:
            yield message

    latest: move_pb2.RoomUpdate | None = None
    sending: list[asyncio.Future[None]] = []
    sent_at = 0.0
    pending = False
    closed = False
    counter = 0

    async def send(request: move_pb2.PlayRequest) -> None:
        nonlocal sent_at
        sent_at = await pacer.wait_turn()
        outgoing.put_nowait(request)

    def maybe_move() -> None:
        nonlocal pending, counter
        if pending or closed or latest is None or not latest.legal_moves:
            return
        counter += 1
        move = latest.legal_moves[int(rng.random() * len(latest.legal_moves))]
        pending = True
        request = move_pb2.SubmitMoveRequest(move=move, request_id=str(counter), expected_version=latest.version)
        sending.append(asyncio.ensure_future(send(move_pb2.PlayRequest(move=request))))
        if len(sending) > 8:
            del sending[:-1]

    async for response in moves.Play(requests(), metadata=seat_metadata(token)):
        if response.HasField("chat"):
            stats.chat_heard += 1
            continue
        if response.HasField("update"):
            latest = response.update
            stats.saw(latest)
            if latest.status == common_pb2.ROOM_STATUS_FINISHED and not closed:
                closed = True
                outgoing.put_nowait(None)
        if response.HasField("result"):
            pending = False
            if response.result.accepted:
                stats.answered(sent_at)
        maybe_move()
    for task in sending:
        task.cancel()


async def _unary_seat(
    moves: move_pb2_grpc.MoveServiceStub,
    room_id: str,
    after: int,
    token: str,
    rng: random.Random,
    stats: Stats,
    pacer: Pacer,
) -> None:
    """One scripted seat with unary moves, following the room on its event stream."""
    events = moves.StreamEvents(
        move_pb2.StreamEventsRequest(room_id=room_id, after_version=after), metadata=seat_metadata(token)
    )
    counter = 0
    try:
        async for response in events:
            update = response.update
            stats.saw(update)
            if update.status == common_pb2.ROOM_STATUS_FINISHED:
                break
            # Only the newest update counts: skip ones already superseded in the stream's buffer.
            if not update.legal_moves:
                continue
            counter += 1
            move = update.legal_moves[int(rng.random() * len(update.legal_moves))]
            sent = await pacer.wait_turn()
            try:
                await moves.SubmitMove(
                    move_pb2.SubmitMoveRequest(
                        room_id=room_id, move=move, request_id=str(counter), expected_version=update.version
                    ),
                    metadata=seat_metadata(token),
                )
            except grpc.aio.AioRpcError as error:
                if error.code() != grpc.StatusCode.ABORTED:  # a stale version: a newer update is on its way
                    raise
                continue
            stats.answered(sent)
    finally:
        events.cancel()


class _Http:
    """A minimal HTTP/1.1 client on one keep-alive connection: the load generator must cost less than the gateway."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str) -> None:
        self.reader, self.writer, self.host = reader, writer, host

    @classmethod
    async def open(cls, host: str, port: int) -> _Http:
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer, host)

    def send(self, method: str, path: str, headers: str, body: bytes = b"") -> None:
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n{headers}"
        if body:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + body)

    async def head(self) -> tuple[int, dict[str, str]]:
        line = await self.reader.readline()
        if not line:
            raise ConnectionResetError("the server closed the connection")
        status = int(line.split()[1])
        headers = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            headers[name.strip().lower()] = value.strip()
        return status, headers

    async def response(self) -> tuple[int, bytes]:
        status, headers = await self.head()
        return status, await self.reader.readexactly(int(headers.get("content-length", "0")))

    async def chunks(self) -> Any:
        """The body of a chunked response, chunk by chunk."""
        while True:
            size = int((await self.reader.readline()).strip() or b"0", 16)
            if size == 0:
                return
            yield await self.reader.readexactly(size)
            await self.reader.readline()

    def close(self) -> None:
        self.writer.close()


async def _rest_seat(
    address: tuple[str, int], room_id: str, after: int, token: str, rng: random.Random, stats: Stats, pacer: Pacer
) -> None:
    """One scripted seat over the REST gateway: updates by server-sent events, moves by POST."""
    auth = f"Authorization: Bearer {token}\r\n"
    events, moves = await _Http.open(*address), await _Http.open(*address)
    try:
        events.send("GET", f"/v1/rooms/{room_id}/events?after_version={after}", auth + "Accept: text/event-stream\r\n")
        status, _ = await events.head()
        if status != 200:
            raise RuntimeError(f"the event stream answered {status}")
        counter, buffer = 0, b""
        async for chunk in events.chunks():
            buffer += chunk
            while b"\r\n\r\n" in buffer:
                message, buffer = buffer.split(b"\r\n\r\n", 1)
                data = [line[6:] for line in message.split(b"\r\n") if line.startswith(b"data: ")]
                if not data:
                    continue  # a heartbeat
                update = json.loads(b"".join(data))
                if update.get("status") == "ROOM_STATUS_FINISHED":
                    return
                legal = update.get("legalMoves")
                if not legal:
                    continue
                counter += 1
                body = json.dumps(
                    {
                        "move": legal[int(rng.random() * len(legal))],
                        "requestId": str(counter),
                        "expectedVersion": update["version"],
                    }
                ).encode()
                sent = await pacer.wait_turn()
                try:
                    moves.send("POST", f"/v1/rooms/{room_id}/moves", auth, body)
                    status, answer = await moves.response()
                except (ConnectionError, asyncio.IncompleteReadError):
                    status, answer = 0, b""
                if status in (0, 408):
                    # The gateway closed the idle keep-alive connection (with a 408 when it waited for a request
                    # head too long): send again on a new one (the request id makes the retry harmless).
                    moves.close()
                    moves = await _Http.open(*address)
                    moves.send("POST", f"/v1/rooms/{room_id}/moves", auth, body)
                    status, answer = await moves.response()
                if status == 201:
                    stats.answered(sent)
                elif status != 409:  # 409: a newer update is on its way
                    raise RuntimeError(f"move refused: {status} {answer[:200]!r}")
    finally:
        events.close()
        moves.close()


async def _room_loop(
    channel: grpc.aio.Channel,
    transport: str,
    bots: int,
    rng: random.Random,
    stats: Stats,
    stop_at: float,
    gateway: tuple[str, int] | None = None,
    pacer: Pacer | None = None,
    creators: list[grpc.aio.Channel] | None = None,
    owners: dict[str, grpc.aio.Channel] | None = None,
) -> None:
    pacer = pacer or Pacer()
    if transport == "rest":
        assert gateway is not None
        await _play_rooms(channel, gateway, _rest_seat, bots, rng, stats, stop_at, pacer, creators)
    else:
        seat_player = _stream_seat if transport == "stream" else _unary_seat
        moves = move_pb2_grpc.MoveServiceStub(channel)
        await _play_rooms(channel, moves, seat_player, bots, rng, stats, stop_at, pacer, creators, owners)


async def _play_rooms(
    channel: grpc.aio.Channel,
    moves: Any,
    seat_player: Any,
    bots: int,
    rng: random.Random,
    stats: Stats,
    stop_at: float,
    pacer: Pacer,
    creators: list[grpc.aio.Channel] | None = None,
    owners: dict[str, grpc.aio.Channel] | None = None,
) -> None:
    """Whole games, one after another, in one room slot until the time is up. With ``creators`` (the nodes of a
    cluster), each room is created through one of them chosen at random, so it is owned there, and played through
    ``channel``: as behind a balancer that knows nothing of rooms. With ``owners`` (channels by address, shared), the
    seats join through ``channel`` asking to follow the owner (``kickoff-route: owner``) and play on the node a
    forwarded join names."""
    rooms = room_pb2_grpc.RoomServiceStub(channel)
    while time.monotonic() < stop_at:
        creator = room_pb2_grpc.RoomServiceStub(rng.choice(creators)) if creators else rooms
        room = (
            await creator.CreateRoom(
                room_pb2.CreateRoomRequest(
                    game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=SEATS, system_players=bots, think_seconds=0
                )
            )
        ).room
        if owners is None:
            joined = [await rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id)) for _ in range(SEATS - bots)]
        else:
            joined, owner = [], ""
            for _ in range(SEATS - bots):
                call = rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id), metadata=((ROUTE, FOLLOW),))
                joined.append(await call)
                owner = dict(await call.trailing_metadata() or ()).get(OWNER, owner)
            if owner:  # (none: the slot's node owns the room)
                if owner not in owners:
                    owners[owner] = grpc.aio.insecure_channel(owner)
                moves = move_pb2_grpc.MoveServiceStub(owners[owner])
            else:
                moves = move_pb2_grpc.MoveServiceStub(channel)
        pacer.restart()
        # Each seat's stream starts with the update of the last join, which started the game (as a client that knows
        # the room's version from its join asks): the joins before it are not sent again to every seat.
        after = joined[-1].room.version - 1 if joined else 0
        players = [
            asyncio.create_task(seat_player(moves, room.room_id, after, j.seat_token, rng, stats, pacer))
            for j in joined
        ]
        _, unfinished = await asyncio.wait(players, timeout=max(0.0, stop_at - time.monotonic()))
        for player in unfinished:  # time is up: the game in progress is abandoned
            player.cancel()
        results = await asyncio.gather(*players, return_exceptions=True)
        failures = [r for r in results if isinstance(r, Exception) and not isinstance(r, asyncio.CancelledError)]
        if failures:
            raise failures[0]
        if not unfinished:
            stats.games += 1


async def drive(
    target: str,
    rooms: int,
    seconds: float,
    transport: str,
    bots: int,
    seed: int,
    gateway: str = "",
    rate: float = 0,
    *,
    local: bool = False,
    follow: bool = False,
) -> tuple[Stats, float]:
    """The load: closed-loop (each seat moves as soon as it may), or open-loop at ``rate`` moves/s over the rooms.

    The load generator's garbage collector is set like the server's (service/collector.py) for the run: its pauses
    would otherwise be counted in the latencies it measures."""
    thresholds = gc.get_threshold()
    collector.settle()
    try:
        return await _load(target, rooms, seconds, transport, bots, seed, gateway, rate, local=local, follow=follow)
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


async def _load(
    target: str,
    rooms: int,
    seconds: float,
    transport: str,
    bots: int,
    seed: int,
    gateway: str,
    rate: float,
    *,
    local: bool = False,
    follow: bool = False,
) -> tuple[Stats, float]:
    """The load against ``target``: one server, or the nodes of a cluster (comma-separated): each room created on a
    node chosen at random (see _play_rooms), or with ``local`` on the node it is played through; with ``follow``,
    created at random and played on its owner once a forwarded join has named it."""
    # The first fifth of the run (at most 3 s) is its start: every room is being made and joined at once, and the
    # moves then due would measure that crowd, not the load. Its moves count; their latencies do not.
    stats = Stats(warm_until=time.perf_counter() + min(3.0, seconds / 5))
    interval = rooms / rate if rate else 0.0
    pacers = [Pacer(interval, random.Random(seed - i).uniform(0, interval)) for i in range(rooms)]
    targets = target.split(",")
    per_target = max(1, rooms // 50 // len(targets))
    channels = [grpc.aio.insecure_channel(node) for _ in range(per_target) for node in targets]
    creators = [grpc.aio.insecure_channel(node) for node in targets] if len(targets) > 1 and not local else None
    owners: dict[str, grpc.aio.Channel] | None = {} if follow else None
    address = (httpx.URL(gateway).host, httpx.URL(gateway).port or 80) if gateway else None
    start = time.monotonic()
    stop_at = start + seconds
    await asyncio.gather(
        *(
            _room_loop(
                channels[i % len(channels)],
                transport,
                bots,
                random.Random(seed + i),
                stats,
                stop_at,
                address,
                pacers[i],
                creators,
                owners,
            )
            for i in range(rooms)
        )
    )
    elapsed = max(seconds, time.monotonic() - start)
    for channel in [*channels, *(creators or []), *(owners or {}).values()]:
        await channel.close()
    return stats, elapsed


def measure(
    server: ServerProcess,
    rooms: int,
    seconds: float,
    transport: str,
    bots: int,
    seed: int,
    tracing: bool = False,
    rate: float = 0,
    *,
    gateway: Callable[[str], Child] | None = None,
) -> dict[str, float]:
    """The load against a started server (stopped after); its figures. A REST load goes through what ``gateway``
    starts in front of the server's target (a :class:`~benchmarks.harness.RestFloorProcess`, say), by default
    kickoff's gateway (with tracing as ``tracing`` says); it is stopped after too."""
    if transport == "rest":
        start_gateway = gateway or (lambda target: GatewayProcess(target, tracing=tracing))
        relay: Any = start_gateway(server.target)
    else:
        relay = None
    try:
        cpu = [server.cpu_seconds(), relay.cpu_seconds() if relay else 0.0]
        stats, elapsed = asyncio.run(
            drive(server.target, rooms, seconds, transport, bots, seed, relay.url if relay else "", rate)
        )
        cpu = [server.cpu_seconds() - cpu[0], (relay.cpu_seconds() - cpu[1]) if relay else 0.0]
        rss = server.peak_rss_mb()
    finally:
        if relay is not None:
            relay.stop()
        server.stop()
    figures = stats.figures(elapsed, rss)
    # CPU per move (rooms' setup included): steadier than moves/s on a machine whose speed swings.
    figures["server_cpu_us_per_move"] = round(cpu[0] / max(1, stats.moves) * 1e6)
    if relay is not None:
        figures["gateway_cpu_us_per_move"] = round(cpu[1] / max(1, stats.moves) * 1e6)
    return figures
