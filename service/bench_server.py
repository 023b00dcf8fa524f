"""`kickoff bench server` and `kickoff bench clocks`: the server in another process, driven over real gRPC on loopback.

bench server: N rooms of four seats play whole games one after another for S seconds. 4 - K seats are scripted
clients that choose a random legal move as soon as they may act; K are system players thinking 0 s. The clients
measure moves per second and the latency from sending a move to seeing its result.

bench clocks: the server holds N idle online rooms, each with its turn clock running, and the server's CPU is measured
over a quiet period. Then, among them, 200 more rooms start 5-second clocks at a steady pace (as turns begin on a busy
server); each notes when the table ended its turn, by the server's clock, against the deadline the server announced.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import grpc
import httpx

from kickoff.v1 import common_pb2, move_pb2, move_pb2_grpc, room_pb2, room_pb2_grpc
from service import collector

SEATS = 4


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# The load comes from one address: the per-caller limits that protect a public server would throttle it.
UNLIMITED = {
    "KICKOFF_CREATE_RATE": "off",
    "KICKOFF_JOIN_RATE": "off",
    "KICKOFF_STREAMS_PER_CALLER": "0",
    "KICKOFF_MAX_LIVE_ROOMS": "0",
}


class _Child:
    """A kickoff process this benchmark started."""

    process: subprocess.Popen

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the process has used so far."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        """SIGTERM (a graceful stop), then SIGKILL after 30 s."""
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


class ServerProcess(_Child):
    """`kickoff grpc` in a child process on a free port."""

    def __init__(
        self, database_url: str = "", *, tracing: bool = False, env: dict[str, str] | None = None, node_id: str = ""
    ) -> None:
        self.port = _free_port()
        self._scratch: tempfile.TemporaryDirectory[str] | None = None
        if not database_url:  # a fresh SQLite file
            self._scratch = tempfile.TemporaryDirectory(prefix="kickoff-bench-")
            database_url = f"sqlite+aiosqlite:///{self._scratch.name}/bench.db"
        self.database_url = database_url
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "grpc", "--port", str(self.port), "--database-url", database_url]
            + (["--discard-spans"] if tracing else [])
            + (["--node-id", node_id, "--advertise-address", f"127.0.0.1:{self.port}"] if node_id else []),
            env={**os.environ, **UNLIMITED, **(env or {})},
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        line = self.process.stdout.readline() if self.process.stdout else ""
        if f":{self.port}" not in line:
            self.process.kill()
            raise RuntimeError(f"the server did not start: {line!r}")

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def peak_rss_mb(self) -> float:
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def stop(self) -> None:
        super().stop()
        if self._scratch is not None:
            self._scratch.cleanup()


class BaselineProcess(ServerProcess):
    """The bare fan-out server (service/bench_baseline.py) in a child process on a free port."""

    def __init__(self, update_bytes: int, moves_per_game: int = 47) -> None:  # not ServerProcess.__init__: no store
        self.port = _free_port()
        self._scratch = None
        self.database_url = "none"
        command = [sys.executable, "-m", "service.bench_baseline", "--port", str(self.port)]
        command += ["--update-bytes", str(update_bytes), "--moves-per-game", str(moves_per_game)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline() if self.process.stdout else ""
        if f":{self.port}" not in line:
            self.process.kill()
            raise RuntimeError(f"the baseline server did not start: {line!r}")


class GatewayProcess(_Child):
    """`kickoff gateway` in a child process on a free port, in front of ``grpc_target``."""

    def __init__(self, grpc_target: str, *, tracing: bool = False) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "gateway", "--port", str(self.port), "--grpc-target", grpc_target]
            + ["--max-connections-per-client", "0"]  # every seat's connections come from this one address
            + (["--discard-spans"] if tracing else []),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(200):
            try:
                if httpx.get(f"{self.url}/v1/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.process.kill()
        raise RuntimeError("the gateway did not start")


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


def _auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


@dataclass
class Stats:
    moves: int = 0
    games: int = 0
    latencies: list[float] = field(default_factory=list)
    plain_updates: int = 0  # updates to a seat that does not act (no legal moves), and their bytes
    plain_bytes: int = 0
    warm_until: float = 0.0  # latencies before this time (perf_counter) are the start's: rooms still being made

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
) -> None:
    """One scripted seat on the play stream: a move whenever an update says it may act and no move is in flight."""
    outgoing: asyncio.Queue[move_pb2.PlayRequest | None] = asyncio.Queue()
    outgoing.put_nowait(move_pb2.PlayRequest(hello=move_pb2.PlayHello(room_id=room_id, after_version=after)))

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

    async for response in moves.Play(requests(), metadata=_auth(token)):
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
        move_pb2.StreamEventsRequest(room_id=room_id, after_version=after), metadata=_auth(token)
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
                    metadata=_auth(token),
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
) -> None:
    pacer = pacer or Pacer()
    if transport == "rest":
        assert gateway is not None
        await _play_rooms(channel, gateway, _rest_seat, bots, rng, stats, stop_at, pacer, creators)
    else:
        seat_player = _stream_seat if transport == "stream" else _unary_seat
        moves = move_pb2_grpc.MoveServiceStub(channel)
        await _play_rooms(channel, moves, seat_player, bots, rng, stats, stop_at, pacer, creators)


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
) -> None:
    """Whole games, one after another, in one room slot until the time is up. With ``creators`` (the nodes of a
    cluster), each room is created through one of them chosen at random, so it is owned there, and played through
    ``channel``: as behind a balancer that knows nothing of rooms."""
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
        joined = [await rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id)) for _ in range(SEATS - bots)]
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


async def _drive(
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
) -> tuple[Stats, float]:
    """The load: closed-loop (each seat moves as soon as it may), or open-loop at ``rate`` moves/s over the rooms.

    The load generator's garbage collector is set like the server's (service/collector.py) for the run: its pauses
    would otherwise be counted in the latencies it measures."""
    thresholds = gc.get_threshold()
    collector.settle()
    try:
        return await _load(target, rooms, seconds, transport, bots, seed, gateway, rate, local=local)
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
) -> tuple[Stats, float]:
    """The load against ``target``: one server, or the nodes of a cluster (comma-separated): each room created on a
    node chosen at random (see _play_rooms), or with ``local`` on the node it is played through."""
    # The first fifth of the run (at most 3 s) is its start: every room is being made and joined at once, and the
    # moves then due would measure that crowd, not the load. Its moves count; their latencies do not.
    stats = Stats(warm_until=time.perf_counter() + min(3.0, seconds / 5))
    interval = rooms / rate if rate else 0.0
    pacers = [Pacer(interval, random.Random(seed - i).uniform(0, interval)) for i in range(rooms)]
    targets = target.split(",")
    per_target = max(1, rooms // 50 // len(targets))
    channels = [grpc.aio.insecure_channel(node) for _ in range(per_target) for node in targets]
    creators = [grpc.aio.insecure_channel(node) for node in targets] if len(targets) > 1 and not local else None
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
            )
            for i in range(rooms)
        )
    )
    elapsed = max(seconds, time.monotonic() - start)
    for channel in [*channels, *(creators or [])]:
        await channel.close()
    return stats, elapsed


def bench_server(
    rooms: int,
    seconds: float,
    transport: str = "stream",
    bots: int = 0,
    seed: int = 0,
    database_url: str = "",
    *,
    tracing: bool = False,
    rate: float = 0,
) -> dict[str, float]:
    """Run the load for ``seconds``; ``database_url`` '' is a fresh SQLite file, 'memory' keeps nothing. With
    ``tracing`` the server (and gateway) trace every call and drop the spans. With ``rate``, the load is open-loop:
    that many moves a second over the rooms, each latency counted from when its move was due."""
    if transport not in ("stream", "unary", "rest"):
        raise ValueError("--transport is stream, unary or rest")
    if not 0 <= bots < SEATS:
        raise ValueError(f"--bots must be 0-{SEATS - 1}: at least one seat is a scripted client")
    if rate < 0:
        raise ValueError("--rate must be positive (or 0: closed-loop)")
    server = ServerProcess(database_url, tracing=tracing)
    return _measure(server, rooms, seconds, transport, bots, seed, tracing, rate)


def _measure(
    server: ServerProcess,
    rooms: int,
    seconds: float,
    transport: str,
    bots: int,
    seed: int,
    tracing: bool = False,
    rate: float = 0,
) -> dict[str, float]:
    """The load against a started server (stopped after); its figures."""
    gateway = GatewayProcess(server.target, tracing=tracing) if transport == "rest" else None
    try:
        cpu = [server.cpu_seconds(), gateway.cpu_seconds() if gateway else 0.0]
        stats, elapsed = asyncio.run(
            _drive(server.target, rooms, seconds, transport, bots, seed, gateway.url if gateway else "", rate)
        )
        cpu = [server.cpu_seconds() - cpu[0], (gateway.cpu_seconds() - cpu[1]) if gateway else 0.0]
        rss = server.peak_rss_mb()
    finally:
        if gateway is not None:
            gateway.stop()
        server.stop()
    figures = stats.figures(elapsed, rss)
    # CPU per move (rooms' setup included): steadier than moves/s on a machine whose speed swings.
    figures["server_cpu_us_per_move"] = round(cpu[0] / max(1, stats.moves) * 1e6)
    if gateway is not None:
        figures["gateway_cpu_us_per_move"] = round(cpu[1] / max(1, stats.moves) * 1e6)
    return figures


def bench_against_baseline(
    rooms: int, seconds: float, transport: str = "stream", seed: int = 0, database_url: str = "", rounds: int = 3
) -> dict[str, Any]:
    """kickoff and the bare fan-out server (bench_baseline.py) under the same load from the same client code, in
    alternating rounds; the medians of each and their ratios. The bare server's updates are as large as kickoff's
    were in the first round (a seat's update without legal moves, measured by the clients)."""
    if transport not in ("stream", "unary"):
        raise ValueError("--baseline compares the stream or unary transport (REST's goal is a ratio to unary)")
    runs: dict[str, list[dict[str, float]]] = {"kickoff": [], "baseline": []}
    update_bytes = 0
    for index in range(max(1, rounds)):
        runs["kickoff"].append(_measure(ServerProcess(database_url), rooms, seconds, transport, 0, seed + index))
        update_bytes = update_bytes or int(runs["kickoff"][0]["update_bytes"])
        runs["baseline"].append(_measure(BaselineProcess(update_bytes), rooms, seconds, transport, 0, seed + index))

    def median(side: str, key: str) -> float:
        values = sorted(run[key] for run in runs[side])
        return values[len(values) // 2]

    keys = ("moves_per_s", "server_cpu_us_per_move", "p50_ms", "p99_ms", "update_bytes")
    figures: dict[str, Any] = {side: {key: median(side, key) for key in keys} for side in runs}
    figures["rounds"] = runs
    figures["moves_per_s_ratio"] = round(median("kickoff", "moves_per_s") / median("baseline", "moves_per_s"), 3)
    figures["cpu_per_move_ratio"] = round(
        median("kickoff", "server_cpu_us_per_move") / median("baseline", "server_cpu_us_per_move"), 3
    )
    return figures


async def _clocks(target: str, rooms: int, quiet_seconds: float, server: ServerProcess) -> dict[str, float]:
    channel = grpc.aio.insecure_channel(target)
    room_stub = room_pb2_grpc.RoomServiceStub(channel)
    move_stub = move_pb2_grpc.MoveServiceStub(channel)

    async def online_room(turn_seconds: int) -> room_pb2.JoinRoomResponse:
        request = room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, system_players=1)
        request.options.update({"turn_seconds": turn_seconds})
        room = (await room_stub.CreateRoom(request)).room
        return await room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id))

    # 1. The idle rooms: each waits for its person, whose (long) clock runs. Measure the server while nothing happens.
    for start in range(0, rooms, 100):
        await asyncio.gather(*(online_room(600) for _ in range(min(100, rooms - start))))
    cpu_before, wall_before = server.cpu_seconds(), time.monotonic()
    await asyncio.sleep(quiet_seconds)
    idle_cpu = (server.cpu_seconds() - cpu_before) / (time.monotonic() - wall_before)

    # 2. Clock accuracy among them: rooms whose 5-second clocks start at a steady pace, as turns do on a busy server;
    # each watcher notes when the table ended the turn, by the server's own clock, against the deadline it announced.
    lateness: list[float] = []

    async def watch(turn_seconds: int) -> None:
        joined = await online_room(turn_seconds)
        deadline = joined.room.clock.deadline.ToNanoseconds() / 1e9
        stream = move_stub.StreamEvents(
            move_pb2.StreamEventsRequest(room_id=joined.room.room_id, after_version=joined.room.version),
            metadata=_auth(joined.seat_token),
        )
        async for response in stream:
            update = response.update
            if any(e.game.soker.WhichOneof("kind") == "turn_ended" for e in update.events):
                lateness.append(update.time.ToNanoseconds() / 1e9 - deadline)
                break
        stream.cancel()

    watchers = []
    for _ in range(CLOCK_SAMPLES):
        watchers.append(asyncio.create_task(watch(5)))
        await asyncio.sleep(5 / CLOCK_SAMPLES * 2)
    await asyncio.gather(*watchers)
    await channel.close()
    lateness.sort()
    return {
        "rooms": rooms,
        "idle_cpu_percent": round(idle_cpu * 100, 2),
        "late_p50_ms": round(lateness[len(lateness) // 2] * 1000, 1),
        "late_max_ms": round(lateness[-1] * 1000, 1),
        "rss_mb": round(server.peak_rss_mb(), 1),
    }


CLOCK_SAMPLES = 200


def bench_clocks(rooms: int, quiet_seconds: float = 10.0) -> dict[str, float]:
    server = ServerProcess()
    try:
        return asyncio.run(_clocks(server.target, rooms, quiet_seconds, server))
    finally:
        server.stop()
