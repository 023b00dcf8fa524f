"""`kickoff bench chat`: what table talk costs a server whose rooms are playing (issue 49).

N rooms of four signed-in guests play whole Soker games, one after another, against `kickoff grpc` in another process
on loopback (a fresh SQLite file a round by default; or a database made beside the PostgreSQL one named), each seat a
scripted client on the play stream that moves at random as soon as it may (the load of `kickoff bench server`,
benchmarks/load.py). Rounds alternate chat on and chat off, on the same kind of rooms (chat on, the default):

* **on**: each room's people send one text message a second between them (the seats take turns, so each sends one
  every four seconds: 15 a minute, under the per-sender limit of 20; the room's 60 a minute are under its 120), by
  SendChatMessage with their access token, and each seat's play stream asks for the room's chat
  (``PlayHello.after_chat_seq``), so each message reaches the room's four seated people;
* **off**: the same rooms play with no message sent, and the streams do not ask for chat.

Each round runs a fresh server; the guests sign in before the round's clock starts (their cost is not counted). The
figures of a round: the server's CPU a move (its process's user + system seconds over the round, /proc, rooms' making
included, divided by the moves accepted), move latency p50 and p99 as the players' clients see it (a move sent to its
acknowledgement; the round's first fifth, at most 3 s, while every room is being made, is not counted), and, in an
on round, the chat messages sent a second and delivered a second (messages the followers' streams carried / the
round's seconds; sent a second against the rooms' one a second asked: a send is answered once its message is
stored, so a server that cannot keep up sends fewer). The client's own CPU is reported too: when it is near one
whole core, the one client process is what limits the load, not the server.

The goals compare each on round with the off round beside it (run back to back, so a slow spell of the shared machine
hits both alike), the figure being the median of the rounds' ratios: server CPU a move at most 1.10x, move latency
p99 at most 1.2x.
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import statistics
import time
from typing import Any

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from benchmarks.harness import ServerProcess, fresh_store
from benchmarks.load import SEATS, Pacer, Stats, _stream_seat
from kickoff.v1 import (
    chat_pb2,
    chat_pb2_grpc,
    common_pb2,
    move_pb2_grpc,
    player_pb2,
    player_pb2_grpc,
    room_pb2,
    room_pb2_grpc,
)
from service import collector

GOAL_CPU = 1.10  # server CPU a move, chat on / off, at most
GOAL_P99 = 1.2  # move latency p99, chat on / off, at most
ENV = {"KICKOFF_SIGN_IN_RATE": "off"}  # (every guest signs in from this one address)
SAY = ("good luck", "your turn, I'm waiting", "one more?", "nice move", "oops", "well played", "hurry up, please")
AT_ONCE = 32  # sign-ins in flight before a round


def _auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def _reason(error: grpc.aio.AioRpcError) -> str:
    """A refusal's reason (its ErrorInfo), or ''."""
    status = rpc_status.from_call(error)
    for detail in status.details if status else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info.reason
    return ""


class Talk:
    """A round's chat, as the clients count it."""

    def __init__(self) -> None:
        self.sent = 0
        self.refused: dict[str, int] = {}


async def _guests(channel: grpc.aio.Channel, count: int) -> list[str]:
    """``count`` guests signed in; their access tokens."""
    stub = player_pb2_grpc.PlayerServiceStub(channel)
    numbers = iter(range(count))
    tokens: list[str] = [""] * count

    async def worker() -> None:
        for number in numbers:
            answer = await stub.SignInAsGuest(player_pb2.SignInAsGuestRequest(name=f"Bench {number}"))
            tokens[number] = answer.session.access_token

    await asyncio.gather(*(worker() for _ in range(AT_ONCE)))
    return tokens


async def _slot(
    channel: grpc.aio.Channel,
    people: list[str],
    chat: bool,
    rng: random.Random,
    stats: Stats,
    talk: Talk,
    stop_at: float,
) -> None:
    """One room slot: whole games one after another, each in a new room joined by the slot's four guests; with
    ``chat``, the room's people send a message a second between them while a game is played."""
    rooms = room_pb2_grpc.RoomServiceStub(channel)
    moves = move_pb2_grpc.MoveServiceStub(channel)
    playing: list[str] = []  # the room being played (empty between games)
    talking = random.Random(rng.random())  # (drawn on both sides, so that the seats' moves are the same draws)
    talker = asyncio.create_task(_talk(channel, people, playing, talking, talk, stop_at)) if chat else None
    pacer = Pacer()
    try:
        while time.monotonic() < stop_at:
            request = room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=SEATS)
            room = (await rooms.CreateRoom(request)).room
            joined = [
                await rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id), metadata=_auth(token))
                for token in people
            ]
            after = joined[-1].room.version - 1
            seats = [
                asyncio.create_task(
                    _stream_seat(moves, room.room_id, after, j.seat_token, rng, stats, pacer, with_chat=chat)
                )
                for j in joined
            ]
            playing[:] = [room.room_id]
            _, unfinished = await asyncio.wait(seats, timeout=max(0.0, stop_at - time.monotonic()))
            playing.clear()
            for seat in unfinished:  # time is up: the game in progress is abandoned
                seat.cancel()
            results = await asyncio.gather(*seats, return_exceptions=True)
            failures = [r for r in results if isinstance(r, Exception) and not isinstance(r, asyncio.CancelledError)]
            if failures:
                raise failures[0]
            if not unfinished:
                stats.games += 1
    finally:
        if talker is not None:
            talker.cancel()
            await asyncio.gather(talker, return_exceptions=True)


async def _talk(
    channel: grpc.aio.Channel, people: list[str], playing: list[str], rng: random.Random, talk: Talk, stop_at: float
) -> None:
    """A message a second to the room being played, from its people in turn; the first at a random moment of the
    first second, so that the rooms' messages are spread over each second. A message that falls due between two
    games is not sent."""
    stub = chat_pb2_grpc.ChatServiceStub(channel)
    due = time.monotonic() + rng.random()
    turn = 0
    while due < stop_at:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        due += 1.0
        if not playing:
            continue
        token = people[turn % len(people)]
        turn += 1
        request = chat_pb2.SendChatMessageRequest(room_id=playing[0], text=SAY[turn % len(SAY)], request_id=f"m{turn}")
        try:
            await stub.SendChatMessage(request, metadata=_auth(token))
            talk.sent += 1
        except grpc.aio.AioRpcError as error:
            reason = _reason(error) or error.code().name.lower()
            talk.refused[reason] = talk.refused.get(reason, 0) + 1


async def _round(server: ServerProcess, rooms: int, seconds: float, chat: bool, seed: int) -> dict[str, Any]:
    channels = [grpc.aio.insecure_channel(server.target) for _ in range(max(1, rooms // 50))]
    try:
        tokens = await _guests(channels[0], SEATS * rooms)
        stats, talk = Stats(), Talk()
        client, cpu = time.process_time(), server.cpu_seconds()
        start = time.monotonic()
        # The first fifth of the round (at most 3 s) is its start, every room being made at once: its moves count,
        # their latencies do not (as in benchmarks/load.py).
        stats.warm_until = time.perf_counter() + min(3.0, seconds / 5)
        await asyncio.gather(
            *(
                _slot(
                    channels[i % len(channels)],
                    tokens[SEATS * i : SEATS * i + SEATS],
                    chat,
                    random.Random(seed + i),
                    stats,
                    talk,
                    start + seconds,
                )
                for i in range(rooms)
            )
        )
        elapsed = max(seconds, time.monotonic() - start)
        cpu, client = server.cpu_seconds() - cpu, time.process_time() - client
    finally:
        for channel in channels:
            await channel.close()
    if not stats.moves:
        raise RuntimeError("no move was accepted in a round")
    figures = stats.figures(elapsed, server.peak_rss_mb())
    del figures["update_bytes"]
    return {
        "chat": chat,
        **figures,
        "moves": stats.moves,
        "server_cpu_us_per_move": round(cpu / stats.moves * 1e6),
        "server_cpu_percent": round(cpu / elapsed * 100, 1),
        "client_cpu_percent": round(client / elapsed * 100, 1),
        "chat_asked_per_s": float(rooms if chat else 0),  # (a message a second a room)
        "chat_sent": talk.sent,
        "chat_sent_per_s": round(talk.sent / elapsed, 1),
        "chat_refused": dict(talk.refused),
        "chat_delivered": stats.chat_heard,
        "chat_delivered_per_s": round(stats.chat_heard / elapsed, 1),
    }


def _one_round(rooms: int, seconds: float, chat: bool, database_url: str, seed: int) -> dict[str, Any]:
    """One round on a fresh store and server. The load's garbage collector is set like the server's
    (service/collector.py) for the round, as benchmarks/load.py does: its pauses would count in the latencies."""
    url, remove = fresh_store(database_url, "chat")
    try:
        server = ServerProcess(url, env=ENV)
        thresholds = gc.get_threshold()
        collector.settle()
        try:
            return asyncio.run(_round(server, rooms, seconds, chat, seed))
        finally:
            gc.unfreeze()
            gc.set_threshold(*thresholds)
            server.stop()
    finally:
        remove()


def bench_chat(
    rooms: int = 200, seconds: float = 15.0, rounds: int = 3, database_url: str = "", seed: int = 0
) -> dict[str, Any]:
    """``rounds`` rounds of chat on and chat off, alternating (on first); each side's medians, the medians of the
    rounds' ratios against the goals, and every round's figures."""
    if rooms < 1 or seconds <= 0 or rounds < 1:
        raise ValueError("--rooms, --seconds and --rounds must be positive")
    runs: dict[str, list[dict[str, Any]]] = {"on": [], "off": []}
    for index in range(rounds):
        for side in ("on", "off"):
            runs[side].append(_one_round(rooms, seconds, side == "on", database_url, seed + index))

    def median(side: str, key: str) -> float:
        return statistics.median(run[key] for run in runs[side])

    def ratio(key: str) -> float:
        pairs = zip(runs["on"], runs["off"], strict=True)
        return round(statistics.median(on[key] / max(off[key], 1e-9) for on, off in pairs), 3)

    keys = (
        "moves_per_s",
        "server_cpu_us_per_move",
        "p50_ms",
        "p99_ms",
        "server_cpu_percent",
        "client_cpu_percent",
        "chat_asked_per_s",
        "chat_sent_per_s",
        "chat_delivered_per_s",
    )
    cpu, p99 = ratio("server_cpu_us_per_move"), ratio("p99_ms")
    goals = {"cpu_per_move": cpu <= GOAL_CPU, "p99": p99 <= GOAL_P99}
    # Every on round delivered chat, and no off round did (a stream that does not ask for chat gets none).
    delivered = all(run["chat_delivered"] > 0 for run in runs["on"]) and not any(
        run["chat_delivered"] for run in runs["off"]
    )
    return {
        "store": "postgresql" if database_url.startswith("postgresql") else "sqlite",
        "rooms": rooms,
        "seconds": seconds,
        "rounds": rounds,
        "cpu_count": os.cpu_count(),
        **{side: {key: median(side, key) for key in keys} for side in runs},
        "cpu_per_move_ratio": cpu,
        "p99_ratio": p99,
        "goals": goals,
        "delivered_as_asked": delivered,
        "met": all(goals.values()) and delivered,
        "runs": runs,
    }


def chat_report(figures: dict[str, Any]) -> str:
    """:func:`bench_chat`'s figures, for people: each side's medians, the ratios against the goals and a verdict."""
    on, off = figures["on"], figures["off"]

    def side(name: str, run: dict[str, float]) -> str:
        return (
            f"chat {name}: {run['moves_per_s']:,.0f} moves/s, {run['server_cpu_us_per_move']:,.0f} µs server CPU a "
            f"move ({run['server_cpu_percent']:.0f}% of a core; client {run['client_cpu_percent']:.0f}%), "
            f"p50 {run['p50_ms']} ms, p99 {run['p99_ms']} ms"
        )

    cpu, p99 = figures["cpu_per_move_ratio"], figures["p99_ratio"]
    missed = [
        text
        for text, met in (
            (f"CPU a move {cpu:.2f}x > {GOAL_CPU}x", figures["goals"]["cpu_per_move"]),
            (f"p99 {p99:.2f}x > {GOAL_P99}x", figures["goals"]["p99"]),
            (
                "chat not delivered as asked (none in an on round, or some in an off round)",
                figures["delivered_as_asked"],
            ),
        )
        if not met
    ]
    verdict = "all goals met" if not missed else "MISSED: " + "; ".join(missed)
    return (
        f"chat ({figures['store']}), {figures['rooms']} rooms of 4 signed-in people, {figures['seconds']:g} s a "
        f"round, medians of {figures['rounds']} alternating rounds; "
        f"{side('on', on)}; {on['chat_sent_per_s']:,.0f} messages sent/s (of {on['chat_asked_per_s']:,.0f} asked), "
        f"{on['chat_delivered_per_s']:,.0f} delivered/s to the seats' streams; "
        f"{side('off', off)}; {off['chat_delivered_per_s']:,.0f} delivered/s\n"
        f"ratios, chat on / off: server CPU a move {cpu:.2f}x (goal <= {GOAL_CPU}x), "
        f"move p99 {p99:.2f}x (goal <= {GOAL_P99}x)\n"
        f"verdict: {verdict}"
    )


# -- what one call costs ---------------------------------------------------------------------------------------------

CALLS = ("GetRoom", "SendChatMessage", "ListChatMessages")


async def _calls(server: ServerProcess, count: int, in_flight: int) -> dict[str, float]:
    """The server's CPU a call (µs) of ``count`` calls of each of :data:`CALLS`, ``in_flight`` at a time, on rooms of
    two signed-in guests (each call made as one of them), after a warm-up of 50."""
    channel = grpc.aio.insecure_channel(server.target)
    rooms = room_pb2_grpc.RoomServiceStub(channel)
    chat = chat_pb2_grpc.ChatServiceStub(channel)
    try:
        tokens = await _guests(channel, 2)
        room_ids = []
        for _ in range(20):
            request = room_pb2.CreateRoomRequest(
                game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, think_seconds=0
            )
            made = await rooms.CreateRoom(request, metadata=_auth(tokens[0]))
            await rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=made.room.room_id), metadata=_auth(tokens[1]))
            room_ids.append(made.room.room_id)
        sent = iter(range(10**9))

        def call(name: str, index: int) -> Any:
            room_id, token = room_ids[index % len(room_ids)], tokens[index % 2]
            if name == "GetRoom":
                return rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id), metadata=_auth(token))
            if name == "SendChatMessage":
                text = f"message {next(sent)}"
                request = chat_pb2.SendChatMessageRequest(room_id=room_id, text=text, request_id=text.replace(" ", "-"))
                return chat.SendChatMessage(request, metadata=_auth(token))
            request = chat_pb2.ListChatMessagesRequest(room_id=room_id, page_size=5)
            return chat.ListChatMessages(request, metadata=_auth(token))

        costs = {}
        for name in CALLS:
            await asyncio.gather(*(call(name, index) for index in range(50)))
            gate = asyncio.Semaphore(in_flight)

            async def one(index: int, name: str = name, gate: asyncio.Semaphore = gate) -> None:
                async with gate:
                    await call(name, index)

            before = server.cpu_seconds()
            await asyncio.gather(*(one(index) for index in range(count)))
            costs[name] = 1e6 * (server.cpu_seconds() - before) / count
        return costs
    finally:
        await channel.close()


def bench_calls(count: int = 1000, in_flight: int = 4, database_url: str = "") -> dict[str, Any]:
    """The server's CPU a call of :data:`CALLS` on a quiet server of its own (no rate limits on chat)."""
    url, remove = fresh_store(database_url, "chat")
    try:
        env = {**ENV, "KICKOFF_CHAT_PLAYER_PER_MINUTE": "1000000", "KICKOFF_CHAT_ROOM_PER_MINUTE": "1000000"}
        server = ServerProcess(url, env=env)
        try:
            costs = asyncio.run(_calls(server, count, in_flight))
        finally:
            server.stop()
    finally:
        remove()
    store = "postgresql" if database_url else "sqlite"
    return {"store": store, "calls": count, "in_flight": in_flight, "cpu_us": costs}


def calls_report(figures: dict[str, Any]) -> str:
    costs = ", ".join(f"{name} {figures['cpu_us'][name]:,.0f} µs" for name in CALLS)
    return (
        f"chat calls ({figures['store']}), {figures['calls']} of each, {figures['in_flight']} in flight, on a quiet "
        f"server: server CPU a call: {costs}"
    )
