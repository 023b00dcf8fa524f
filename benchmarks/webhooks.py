"""`kickoff bench webhooks`: what webhooks cost and how fast they go, and what idle correspondence rooms cost.

One `kickoff grpc` in another process on loopback, on a fresh SQLite file (or a database made beside the PostgreSQL
one named), with an operator key and loopback allowed for endpoints (KICKOFF_WEBHOOK_ALLOW=127.0.0.0/8). The
receiver runs in this process: a bare HTTP/1.1 server on asyncio that answers 204 to every POST, checks every
signature with the ``standardwebhooks`` library, and counts each webhook-id once.

* **Deliveries a second.** ``deliveries`` events are put in the outbox at once (a delivery row each, due now, as the
  outbox writes them) for one endpoint allowed ``IN_FLIGHT`` deliveries at once; the figure is how many the server's
  dispatcher delivered a second, from the first to arrive to the last, with the server's CPU a delivery.
* **CPU a move.** ``rooms`` rooms of Soker, two signed-in guests each, are played by their players in a closed loop
  (each seat: read its legal moves, play one at random, at once) for ``seconds`` a round; rounds alternate between
  an endpoint that wants every player's turn and every game's end (every move makes a delivery: the next seat's turn
  began) and none (no endpoint registered: the outbox looks, finds nobody, writes nothing), ``rounds`` of each. The
  figure is the server's CPU a move (user + system, /proc) in each, the median of each side's rounds, and their
  difference: what writing a move's delivery in its transaction, and sending it, costs the server.
* **Idle correspondence rooms.** ``idle`` rooms with a 24-hour clock, each with its two players seated and its game
  begun, then left alone. Measured: the server's resident memory and CPU while they are all in memory (before they
  rest), and after they rested (each idle for KICKOFF_REST_SECONDS, here 5 s, with no stream open: they leave memory,
  their deadlines stored), and after a restart of the server on the same store (which loads none of them: the sweep
  wakes each only when its deadline comes near). Idle CPU is the server's over ``quiet`` seconds, as a share of one
  core, beside the same server's with no room at all (its matchmaker's queues turning, its sweeps, its outbox
  looked at every second). Resident memory after resting shows what Python keeps of freed memory (it seldom gives
  it back); after the restart, what the rooms cost a server that holds them resting.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

import grpc
from sqlalchemy import insert

from benchmarks.harness import ServerProcess, fresh_store
from kickoff.v1 import (
    common_pb2,
    move_pb2,
    move_pb2_grpc,
    player_pb2,
    player_pb2_grpc,
    room_pb2,
    room_pb2_grpc,
    webhook_pb2,
    webhook_pb2_grpc,
)

OPERATOR_KEY = "bench-operator-key-" + "x" * 24
IN_FLIGHT = 16
ENV = {
    "KICKOFF_OPERATOR_KEY": OPERATOR_KEY,
    "KICKOFF_WEBHOOK_ALLOW": "127.0.0.0/8",
    "KICKOFF_REST_SECONDS": "5",
    "KICKOFF_WAKE_SECONDS": "5",
    "KICKOFF_SIGN_IN_RATE": "off",  # (every guest signs in from this one address)
}
OPERATOR = (("x-operator-key", OPERATOR_KEY),)
AT_ONCE = 32  # calls in flight while rooms are made
ROOMS_PER_PLAYER = 100  # rooms not finished a player may hold seats in (the server's own bound)


class Receiver:
    """A bare HTTP/1.1 receiver on loopback: 204 to every POST; every signature checked; each webhook-id counted once
    (``repeats`` counts the others)."""

    def __init__(self, secret: str = "") -> None:
        self.secret = secret
        self.seen: set[str] = set()
        self.repeats = 0
        self.bad = 0
        self.first = self.last = 0.0
        self.server: asyncio.Server | None = None
        self.port = 0
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hooks"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        from standardwebhooks import Webhook

        self._writers.add(writer)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                headers = {
                    k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)
                }
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                try:
                    if self.secret:
                        Webhook(self.secret).verify(body, headers)
                except Exception:
                    self.bad += 1
                delivery = headers.get("webhook-id", "")
                if delivery in self.seen:
                    self.repeats += 1
                else:
                    self.seen.add(delivery)
                    self.last = time.perf_counter()
                    self.first = self.first or self.last
                writer.write(b"HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self._writers.discard(writer)
            writer.close()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for writer in list(self._writers):  # (their handlers read the end, and finish)
            writer.close()
        await asyncio.sleep(0.05)


def _auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


async def _endpoint(channel: grpc.aio.Channel, receiver: Receiver, events: Sequence[int]) -> str:
    stub = webhook_pb2_grpc.WebhookServiceStub(channel)
    request = webhook_pb2.AddEndpointRequest(url=receiver.url, events=list(events), max_in_flight=IN_FLIGHT)
    answer = await stub.AddEndpoint(request, metadata=OPERATOR)
    receiver.secret = answer.secret
    return answer.endpoint.endpoint_id


async def _remove(channel: grpc.aio.Channel, endpoint_id: str) -> None:
    stub = webhook_pb2_grpc.WebhookServiceStub(channel)
    await stub.RemoveEndpoint(webhook_pb2.RemoveEndpointRequest(endpoint_id=endpoint_id), metadata=OPERATOR)


async def _guests(channel: grpc.aio.Channel, count: int) -> list[player_pb2.Session]:
    stub = player_pb2_grpc.PlayerServiceStub(channel)
    return [
        (await stub.SignInAsGuest(player_pb2.SignInAsGuestRequest(name=f"Bench {number}"))).session
        for number in range(count)
    ]


async def _table(
    rooms: room_pb2_grpc.RoomServiceStub, pair: Sequence[player_pb2.Session], hours: int = 0
) -> tuple[str, dict[int, str]]:
    """A Soker room of two seats made by the first player (seated at once), joined by the second: its game begins."""
    request = room_pb2.CreateRoomRequest(
        game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, correspondence_hours=hours
    )
    if not hours:
        request.options.update({"turn_seconds": 600})  # (nobody's clock runs out during a round)
    made = await rooms.CreateRoom(request, metadata=_auth(pair[0].access_token))
    joined = await rooms.JoinRoom(
        room_pb2.JoinRoomRequest(room_id=made.room.room_id), metadata=_auth(pair[1].access_token)
    )
    return made.room.room_id, {made.seat: made.seat_token, joined.seat: joined.seat_token}


# -- deliveries a second ------------------------------------------------------------------------------------------


async def _throughput(server: ServerProcess, url: str, count: int) -> dict[str, Any]:
    from service.store.database import create_engine
    from service.store.models import WebhookDeliveryRow

    receiver = Receiver()
    await receiver.start()
    try:
        async with grpc.aio.insecure_channel(server.target) as channel:
            endpoint_id = await _endpoint(channel, receiver, [webhook_pb2.WEBHOOK_EVENT_TURN_BEGAN])
            engine = create_engine(url)
            now = time.time()
            body = json.dumps({"type": "turn.began", "timestamp": "", "data": {"room_id": "bench", "seat": 0}})
            rows = [
                {
                    "delivery_id": f"msg_bench{number:012d}",
                    "endpoint_id": endpoint_id,
                    "event": "turn.began",
                    "payload": body,
                    "created_at": now,
                    "retry_from": now,
                    "next_attempt_at": now,
                    "attempts": 0,
                    "status": "pending",
                }
                for number in range(count)
            ]
            cpu = server.cpu_seconds()
            async with engine.begin() as connection:
                await connection.execute(insert(WebhookDeliveryRow), rows)
            await engine.dispose()
            deadline = time.monotonic() + 60 + count / 50
            while len(receiver.seen) < count and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            cpu = server.cpu_seconds() - cpu
            await _remove(channel, endpoint_id)
        delivered = len(receiver.seen)
        seconds = max(receiver.last - receiver.first, 1e-9)
        return {
            "deliveries": count,
            "delivered": delivered,
            "deliveries_per_s": round(delivered / seconds, 1),
            "server_cpu_ms_per_delivery": round(cpu / max(delivered, 1) * 1000, 3),
            "bad_signatures": receiver.bad,
            "repeats": receiver.repeats,
        }
    finally:
        await receiver.close()


# -- CPU a move -----------------------------------------------------------------------------------------------------


async def _play(
    channel: grpc.aio.Channel, guests: Sequence[player_pb2.Session], slots: int, seconds: float, seed: int
) -> int:
    """``slots`` tables played at once for ``seconds``, each by its two players at random, a new table for the same
    pair as soon as a game ends; the moves accepted."""
    moves = 0
    stop = time.monotonic() + seconds
    rooms, stub = room_pb2_grpc.RoomServiceStub(channel), move_pb2_grpc.MoveServiceStub(channel)

    async def slot(pair: Sequence[player_pb2.Session], chooser: random.Random) -> None:
        nonlocal moves
        room_id, tokens = await _table(rooms, pair)
        while time.monotonic() < stop:
            view = await stub.GetView(move_pb2.GetViewRequest(room_id=room_id))
            if not view.to_act:  # (the game ended)
                room_id, tokens = await _table(rooms, pair)
                continue
            token = tokens[view.to_act[0]]
            legal = await stub.ListLegalMoves(move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=_auth(token))
            if not legal.moves:
                continue
            try:
                request = move_pb2.SubmitMoveRequest(
                    room_id=room_id, move=chooser.choice(legal.moves), expected_version=legal.version
                )
                await stub.SubmitMove(request, metadata=_auth(token))
                moves += 1
            except grpc.aio.AioRpcError as error:
                if error.code() not in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ABORTED):
                    raise

    chooser = random.Random(seed)
    await asyncio.gather(*(slot(guests[2 * i : 2 * i + 2], random.Random(chooser.random())) for i in range(slots)))
    return moves


async def _cpu_a_move(server: ServerProcess, rooms: int, seconds: float, rounds: int, seed: int) -> dict[str, Any]:
    receiver = Receiver()
    await receiver.start()
    sides: dict[str, list[float]] = {"deliveries": [], "none": []}
    made = 0
    try:
        async with grpc.aio.insecure_channel(server.target) as channel:
            guests = await _guests(channel, 2 * rooms)
            for number in range(2 * rounds):
                side = "deliveries" if number % 2 == 0 else "none"
                endpoint_id = ""
                if side == "deliveries":
                    events = [webhook_pb2.WEBHOOK_EVENT_TURN_BEGAN, webhook_pb2.WEBHOOK_EVENT_GAME_ENDED]
                    endpoint_id = await _endpoint(channel, receiver, events)
                cpu = server.cpu_seconds()
                moves = await _play(channel, guests, rooms, seconds, seed + number)
                if side == "deliveries":  # (the deliveries the round made are sent: their CPU is the round's)
                    await _settled(receiver)
                cpu = server.cpu_seconds() - cpu
                sides[side].append(cpu / max(moves, 1) * 1e6)
                made += moves if side == "deliveries" else 0
                if endpoint_id:
                    await _remove(channel, endpoint_id)
    finally:
        await receiver.close()
    with_deliveries, without = statistics.median(sides["deliveries"]), statistics.median(sides["none"])
    return {
        "rooms": rooms,
        "rounds": rounds,
        "server_cpu_us_per_move_with_deliveries": round(with_deliveries),
        "server_cpu_us_per_move_without": round(without),
        "extra_us_per_move": round(with_deliveries - without),
        "extra_ratio": round(with_deliveries / without, 3),
        "moves_with_deliveries": made,
        "deliveries": len(receiver.seen),
        "bad_signatures": receiver.bad,
    }


async def _settled(receiver: Receiver, quiet: float = 1.5) -> None:
    """Until the receiver heard nothing new for ``quiet`` seconds."""
    seen = -1
    while len(receiver.seen) != seen:
        seen = len(receiver.seen)
        await asyncio.sleep(quiet)


# -- idle correspondence rooms --------------------------------------------------------------------------------------


def _rss_mb(server: ServerProcess) -> float:
    with open(f"/proc/{server.process.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


async def _idle_cpu(server: ServerProcess, quiet: float) -> float:
    cpu = server.cpu_seconds()
    await asyncio.sleep(quiet)
    return round((server.cpu_seconds() - cpu) / quiet * 100, 2)


async def _make_idle(target: str, count: int) -> None:
    """``count`` correspondence rooms, each with its two players seated (a player holds at most ROOMS_PER_PLAYER
    rooms not finished: enough pairs of guests for them all)."""
    async with grpc.aio.insecure_channel(target) as channel:
        room_stub = room_pb2_grpc.RoomServiceStub(channel)
        pairs = -(-count // ROOMS_PER_PLAYER)
        guests = await _guests(channel, 2 * pairs)
        numbers = iter(range(count))

        async def worker() -> None:
            for number in numbers:
                pair = number % pairs
                await _table(room_stub, guests[2 * pair : 2 * pair + 2], hours=24)

        await asyncio.gather(*(worker() for _ in range(AT_ONCE)))


def _idle(database_url: str, count: int, quiet: float, rest: float) -> dict[str, Any]:
    url, remove = fresh_store(database_url, "idle")
    env = {**ENV, "KICKOFF_REST_SECONDS": str(rest), "KICKOFF_WAKE_SECONDS": str(rest)}
    server = ServerProcess(url, env=env)
    try:
        empty = _rss_mb(server)
        empty_cpu = asyncio.run(_idle_cpu(server, quiet))  # (what a server does with no room: its queues, its sweeps)
        started = time.perf_counter()
        asyncio.run(_make_idle(server.target, count))
        made_in = time.perf_counter() - started
        held = _rss_mb(server)
        held_cpu = asyncio.run(_idle_cpu(server, 2.0))  # (before KICKOFF_REST_SECONDS have passed)
        time.sleep(3 * rest)  # (idle for ``rest``, then a sweep lets them rest)
        rested_cpu = asyncio.run(_idle_cpu(server, quiet))
        rested = _rss_mb(server)
        server.stop()
        server = ServerProcess(url, env=env)  # (a restart: it loads none of them)
        restarted = _rss_mb(server)
        restarted_cpu = asyncio.run(_idle_cpu(server, quiet))
        return {
            "rooms": count,
            "made_in_s": round(made_in, 1),
            "rss_mb_empty": empty,
            "rss_mb_in_memory": held,
            "rss_mb_rested": rested,
            "rss_mb_restarted": restarted,
            "kb_per_room_in_memory": round((held - empty) * 1024 / count, 1),
            "idle_cpu_percent_empty": empty_cpu,
            "idle_cpu_percent_in_memory": held_cpu,
            "idle_cpu_percent_rested": rested_cpu,
            "idle_cpu_percent_restarted": restarted_cpu,
        }
    finally:
        server.stop()
        remove()


def bench_webhooks(
    *,
    deliveries: int = 5000,
    rooms: int = 40,
    seconds: float = 8.0,
    rounds: int = 3,
    idle: int = 10_000,
    quiet: float = 10.0,
    database_url: str = "",
    seed: int = 0,
    rest: float = 5.0,
) -> dict[str, Any]:
    """The three figures of the module docstring."""
    url, remove = fresh_store(database_url, "webhooks")
    server = ServerProcess(url, env=ENV)
    try:
        figures: dict[str, Any] = {"store": "postgresql" if url.startswith("postgresql") else "sqlite"}
        figures["throughput"] = asyncio.run(_throughput(server, url, deliveries))
        figures["cpu"] = asyncio.run(_cpu_a_move(server, rooms, seconds, rounds, seed))
    finally:
        server.stop()
        remove()
    figures["idle"] = _idle(database_url, idle, quiet, rest) if idle else {}
    return figures


def webhooks_report(figures: dict[str, Any]) -> str:
    through, cpu, idle = figures["throughput"], figures["cpu"], figures["idle"]
    text = (
        f"webhooks ({figures['store']}): {through['deliveries_per_s']:,.0f} deliveries/s to a loopback receiver "
        f"({through['delivered']}/{through['deliveries']} delivered, {through['server_cpu_ms_per_delivery']} ms "
        f"server CPU each, {through['bad_signatures']} bad signatures, {through['repeats']} repeats); server CPU a "
        f"move, median of {cpu['rounds']} alternating rounds of {cpu['rooms']} rooms: "
        f"{cpu['server_cpu_us_per_move_with_deliveries']} µs with a delivery a move, "
        f"{cpu['server_cpu_us_per_move_without']} µs without (+{cpu['extra_us_per_move']} µs, "
        f"{cpu['extra_ratio']:.2f}x; {cpu['deliveries']} deliveries)"
    )
    if idle:
        text += (
            f"; {idle['rooms']:,} idle correspondence rooms (an empty server: {idle['idle_cpu_percent_empty']}% CPU): "
            f"in memory {idle['rss_mb_in_memory']} MB RSS "
            f"({idle['kb_per_room_in_memory']} KB a room over {idle['rss_mb_empty']} MB empty), "
            f"{idle['idle_cpu_percent_in_memory']}% CPU; rested {idle['rss_mb_rested']} MB, "
            f"{idle['idle_cpu_percent_rested']}% CPU; after a restart {idle['rss_mb_restarted']} MB, "
            f"{idle['idle_cpu_percent_restarted']}% CPU"
        )
    return text
