"""`kickoff bench server` and `kickoff bench clocks`: the server in another process, driven over real gRPC on loopback.

bench server: N rooms of four seats play whole games one after another for S seconds. 4 - K seats are scripted
clients that choose a random legal move as soon as they may act; K are system players thinking 0 s. The clients
measure moves per second and the latency from sending a move to seeing its result.

bench clocks: the server holds N idle online rooms, each with its turn clock running, and the server's CPU is measured
over a quiet period. Then, among them, 200 more rooms start 5-second clocks at a steady pace (as turns begin on a busy
server); each notes when the table ended its turn, by the server's clock, against the deadline the server announced.

The load itself (scripted seats on play streams, unary moves or REST) is load.py's; the processes are harness.py's.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import grpc

from benchmarks.harness import BaselineProcess, ServerProcess
from benchmarks.load import SEATS, measure, seat_metadata
from kickoff.v1 import common_pb2, move_pb2, move_pb2_grpc, room_pb2, room_pb2_grpc


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
    return measure(server, rooms, seconds, transport, bots, seed, tracing, rate)


def bench_against_baseline(
    rooms: int, seconds: float, transport: str = "stream", seed: int = 0, database_url: str = "", rounds: int = 3
) -> dict[str, Any]:
    """kickoff and the bare fan-out server (baseline.py) under the same load from the same client code, in
    alternating rounds; the medians of each and their ratios. The bare server's updates are as large as kickoff's
    were in the first round (a seat's update without legal moves, measured by the clients)."""
    if transport not in ("stream", "unary"):
        raise ValueError("--baseline compares the stream or unary transport (REST's goal is a ratio to unary)")
    runs: dict[str, list[dict[str, float]]] = {"kickoff": [], "baseline": []}
    update_bytes = 0
    for index in range(max(1, rounds)):
        runs["kickoff"].append(measure(ServerProcess(database_url), rooms, seconds, transport, 0, seed + index))
        update_bytes = update_bytes or int(runs["kickoff"][0]["update_bytes"])
        runs["baseline"].append(measure(BaselineProcess(update_bytes), rooms, seconds, transport, 0, seed + index))

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


def bench_tracing(
    rooms: int, seconds: float, transport: str, bots: int, seed: int, database_url: str, rounds: int
) -> tuple[dict[str, Any], dict[str, tuple[float, float]]]:
    """Tracing off, then on (every call traced, the spans dropped), alternating ``rounds`` times so that a slow spell
    of the machine hits both alike. The figures: the median run of each side (by moves/s) and the cost in moves/s;
    and, for the server and (with REST) the gateway, the median CPU a move with tracing off and on."""
    runs: dict[str, list[dict[str, float]]] = {"off": [], "on": []}
    for _ in range(rounds):
        for mode in ("off", "on"):
            runs[mode].append(bench_server(rooms, seconds, transport, bots, seed, database_url, tracing=mode == "on"))
    off, on = (sorted(runs[m], key=lambda r: r["moves_per_s"])[len(runs[m]) // 2] for m in ("off", "on"))
    cost = 1 - on["moves_per_s"] / off["moves_per_s"]
    cpu = {
        side: (
            sorted(r[f"{side}_cpu_us_per_move"] for r in runs["off"])[rounds // 2],
            sorted(r[f"{side}_cpu_us_per_move"] for r in runs["on"])[rounds // 2],
        )
        for side in ("server", "gateway")
        if f"{side}_cpu_us_per_move" in off
    }
    return {"off": off, "on": on, "cost_percent": round(cost * 100, 1), "rounds": rounds}, cpu


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
            metadata=seat_metadata(joined.seat_token),
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


# --- the reports: one line for people (`kickoff bench server` and `kickoff bench clocks` without --json) ----------


def server_report(
    figures: dict[str, float], database_url: str, rooms: int, transport: str, bots: int, rate: float
) -> str:
    return (
        f"server ({database_url or 'fresh SQLite file'}), {rooms} rooms, {transport}, "
        f"{bots} system players a room"
        + (f", open-loop at {rate:,.0f} moves/s" if rate else "")
        + f": {figures['moves_per_s']:,.0f} moves/s, p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms, "
        f"{figures['games']} games, server peak RSS {figures['rss_mb']} MB"
    )


def baseline_report(figures: dict[str, Any], database_url: str, rooms: int, transport: str, rounds: int) -> str:
    """:func:`bench_against_baseline`'s figures."""
    ours, bare = figures["kickoff"], figures["baseline"]
    return (
        f"server ({database_url or 'fresh SQLite file'}), {rooms} rooms, {transport}, "
        f"median of {rounds} alternating rounds: kickoff {ours['moves_per_s']:,.0f} moves/s, "
        f"{ours['server_cpu_us_per_move']:,.0f} µs server CPU a move, p99 {ours['p99_ms']} ms; "
        f"bare fan-out {bare['moves_per_s']:,.0f} moves/s, {bare['server_cpu_us_per_move']:,.0f} µs, "
        f"p99 {bare['p99_ms']} ms (updates of {ours['update_bytes']} / {bare['update_bytes']} bytes); "
        f"ratios: moves/s {figures['moves_per_s_ratio']:.2f}, "
        f"CPU a move {figures['cpu_per_move_ratio']:.2f}"
    )


def tracing_report(
    figures: dict[str, Any], cpu: dict[str, tuple[float, float]], database_url: str, rooms: int, transport: str
) -> str:
    """:func:`bench_tracing`'s figures and CPU medians."""
    off, on, rounds = figures["off"], figures["on"], figures["rounds"]
    cost = 1 - on["moves_per_s"] / off["moves_per_s"]
    cpu_text = ", ".join(f"{side} CPU {a} -> {b} µs a move" for side, (a, b) in cpu.items())
    return (
        f"server ({database_url or 'fresh SQLite file'}), {rooms} rooms, {transport}, "
        f"median of {rounds}: tracing off {off['moves_per_s']:,.0f} moves/s (p99 {off['p99_ms']} ms), "
        f"on {on['moves_per_s']:,.0f} moves/s (p99 {on['p99_ms']} ms): {cost:.1%} fewer moves/s; "
        f"{cpu_text}"
    )


def clocks_report(figures: dict[str, float], rooms: int) -> str:
    return (
        f"clocks, {rooms} idle online rooms: server CPU {figures['idle_cpu_percent']}% of one core; "
        f"clocks fired {figures['late_p50_ms']} ms late (median), {figures['late_max_ms']} ms at most; "
        f"server peak RSS {figures['rss_mb']} MB"
    )
