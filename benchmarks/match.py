"""`kickoff bench match`: matchmaking under tickets arriving at a steady rate. How long from enqueue to a room, what
the matchmaker's work costs the server a ticket, and how close in rating the tables it makes are.

One `kickoff grpc` in another process on loopback, on a fresh store (a SQLite file, or a database made beside the
PostgreSQL one named, dropped after), its matchmaker turning the queues on its own every ``interval`` seconds, system
players filling a table after ``fill_seconds``, tickets searching for an hour (none expires in a run) and no quota in
the way (KICKOFF_TICKETS_PER_CALLER and KICKOFF_MAX_QUEUE high: the load comes from one address).

* **Players.** ``players`` guests sign in through PlayerService first; then each gets a rating in the game, written
  straight into the store's ratings table (mu drawn from N(25, 5), seeded; cheaper than playing rated games, and the
  matchmaker reads ratings from that table either way), so that the rating window matters.
* **The load.** Each player enqueues one ticket (Enqueue, every table size of the game), one every 1/``rate`` seconds
  whether or not earlier ones were answered (open loop), and follows it (FollowTicket: the server sends each change
  as it makes it, so the client hears its table at once, without polling). As soon as the ticket is PROPOSED the
  player takes the seat up (AcceptMatch); the ticket is done when the client hears it MATCHED (from AcceptMatch's
  answer for the last to take up, from the stream for the others), or it ends otherwise. A ticket not ended
  ``PATIENCE`` seconds after its enqueue is cancelled (CancelTicket) and counted so. The tickets ask for a turn clock
  of ``TURN_SECONDS`` (the most a game allows), so the matched rooms, which nobody plays, stay idle through the run
  instead of playing timed-out moves: the rooms' games are not what is measured.
* **Waits.** Enqueue to MATCHED as the client saw it (from sending Enqueue), and the store's own (a ticket's
  ``created_at`` to its ``ended_at``, when its table was marked started): p50, p99, max.
* **CPU.** The server's CPU (user + system, /proc) from the first enqueue to the last ticket's end, a ticket: all
  the server did for the tickets (the calls, the streams, the ticks, the rooms made), split into its main thread
  (the event loop: gRPC handlers, SQLAlchemy, the matchmaker) and its other threads (SQLite's work runs on aiosqlite's
  threads; gRPC's own); on PostgreSQL, the database's processes' CPU too (when it runs on this machine). Inside that,
  the matchmaker's own share is timed in the server: it runs with each of its entry points (Matchmaker.tick, enqueue,
  accept, ticket, cancel, making a room, the rules' planner, and the followers' version reads) wrapped in a counter
  that adds up the main thread's CPU (``time.thread_time``) of that coroutine's own steps, so what other tasks do
  while it waits is not counted in it (what the database does for it, on another thread or process, is not either).
  The matching CPU a ticket is the ticks' CPU (planner, store queries, rooms made) over the tickets; enqueue, take-up
  (with the rooms it makes) and reads are given beside it, and the matchmaker in all: the sum of its entry points'
  (rooms made and the planner run inside a tick or a take-up). An idle tick's cost (empty queues, measured during
  the sign-in) is given too.
* **Tables.** From the matches table: the started tables' mean rating spread (highest ticket rating less lowest),
  their mean size and system players a table.
* **Trouble.** How many times a room was made (Matchmaker._room called) for each table started, the creations the
  store refused as made already and the other errors in the server's log, the queue turns a tick skipped because
  another transaction held the game's queue row (PostgreSQL's SKIP LOCKED), each tick's wall time, and the calls
  that failed. The default rate (RATE) is one this 2-core machine sustains on both stores, with the client on the
  same cores. (Before a table was claimed for starting, each last take-up started every ready table of its game,
  racing the tick and the other take-ups: past 15-20 tickets a second rooms were made many times over and the queue
  fell behind for good. These counters are how that was seen.)

The instrumented server is this module run as a program (``python -m benchmarks.match serve PORT DATABASE_URL``:
the server `kickoff grpc` runs, with the counters); it writes them as JSON to the file KICKOFF_BENCH_COUNTERS names
whenever it gets SIGUSR1.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf import struct_pb2
from sqlalchemy import func, insert, select

from benchmarks.harness import UNLIMITED, ServerProcess, free_port, fresh_store
from engine.registry import GAMES
from kickoff.v1 import match_pb2, match_pb2_grpc, player_pb2, player_pb2_grpc

TURN_SECONDS = 600  # the matched rooms' turn clock: they stay idle through a run (the most a game allows)
PATIENCE = 120.0  # a ticket not ended this long after its enqueue is cancelled
TICKET_SECONDS = 3600  # how long a ticket searches: none expires in a run
CHANNELS = 4  # client channels the tickets are spread over
SIGN_IN_AT_ONCE = 16  # sign-ins in flight at once
REFRESH_AFTER = 600.0  # a session older than this is refreshed before its enqueue (access tokens last 15 minutes)
MU, MU_SD, SIGMA = 25.0, 5.0, 2.0  # the players' ratings: mu drawn from N(MU, MU_SD)
# Tickets a second by default: what this 2-core machine sustains on SQLite and PostgreSQL with the client beside the
# server (at 30 a second the server keeps some 0.8 of a core busy).
RATE = 30.0
ENTRY_POINTS = ("enqueue", "tick", "accept", "ticket", "cancel", "versions")  # (none inside another)

SEARCHING, PROPOSED, MATCHED = (
    match_pb2.TICKET_STATUS_SEARCHING,
    match_pb2.TICKET_STATUS_PROPOSED,
    match_pb2.TICKET_STATUS_MATCHED,
)
CANCELLED, EXPIRED = match_pb2.TICKET_STATUS_CANCELLED, match_pb2.TICKET_STATUS_EXPIRED


# -- the instrumented server (runs in the server's process) --------------------------------------------------------


@dataclass
class _Counter:
    calls: int = 0
    cpu: float = 0.0  # the main thread's CPU in the coroutine's own steps
    wall: float = 0.0  # from its start to its end, waits included
    none: int = 0  # the calls that returned None (a store tick that found its queue held by another transaction)
    each: list[tuple[float, float]] | None = None  # (cpu, wall) of every call, where kept


class _Stepped:
    """Awaits ``coroutine``, adding the main thread's CPU of each of its steps (and its wall time) to ``counter``:
    between steps the coroutine waits, and what other tasks do meanwhile is theirs."""

    __slots__ = ("coroutine", "counter")

    def __init__(self, coroutine: Any, counter: _Counter) -> None:
        self.coroutine, self.counter = coroutine, counter

    def __await__(self) -> Any:
        coroutine, counter = self.coroutine, self.counter
        began, cpu = time.perf_counter(), 0.0
        value: Any = None
        error: BaseException | None = None
        try:
            while True:
                start = time.thread_time()
                try:
                    future = coroutine.send(value) if error is None else coroutine.throw(error)
                except StopIteration as stop:
                    counter.none += stop.value is None
                    return stop.value
                finally:
                    cpu += time.thread_time() - start
                value, error = None, None
                try:
                    value = yield future
                except BaseException as thrown:  # (cancellation: the coroutine hears it)
                    error = thrown
        finally:
            wall = time.perf_counter() - began
            counter.calls += 1
            counter.cpu += cpu
            counter.wall += wall
            if counter.each is not None:
                counter.each.append((cpu, wall))


def _instrument() -> dict[str, _Counter]:
    """Wrap the matchmaker's entry points in counters (see the module docstring); returns them by name."""
    from service.matches.matchmaker import Matchmaker
    from service.matches.store import MatchStore

    counters: dict[str, _Counter] = {}

    def stepped(owner: type, name: str, label: str, keep: bool = False) -> None:
        counter = counters[label] = _Counter(each=[] if keep else None)
        function = getattr(owner, name)

        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> _Stepped:
            return _Stepped(function(*args, **kwargs), counter)

        setattr(owner, name, wrapper)

    stepped(Matchmaker, "tick", "tick", keep=True)
    stepped(Matchmaker, "enqueue", "enqueue", keep=True)
    stepped(Matchmaker, "accept", "accept")
    stepped(Matchmaker, "ticket", "ticket")
    stepped(Matchmaker, "cancel", "cancel")
    stepped(Matchmaker, "_room", "room")
    stepped(MatchStore, "versions", "versions")
    stepped(MatchStore, "tick", "store_tick")  # (inside Matchmaker.tick: one a game; counted for its skips)
    planner = Matchmaker._planner
    counter = counters["planner"] = _Counter()

    @functools.wraps(planner)
    def planned(*args: Any, **kwargs: Any) -> Any:
        began, start = time.perf_counter(), time.thread_time()
        try:
            return planner(*args, **kwargs)
        finally:
            counter.calls += 1
            counter.cpu += time.thread_time() - start
            counter.wall += time.perf_counter() - began

    Matchmaker._planner = planned  # type: ignore[method-assign]
    return counters


def _serve(port: int, database_url: str) -> int:
    """The gRPC server on ``port`` and ``database_url`` (what `kickoff grpc --port --database-url` runs, with the
    settings of the environment) with the matchmaker's counters, written to $KICKOFF_BENCH_COUNTERS at each SIGUSR1.
    (It calls the service itself, not the CLI: the CLI is the top of the house, and imports the benchmarks.)"""
    import dataclasses
    import logging

    from service.grpc.server import serve
    from service.settings import GrpcSettings, Settings, StoreSettings
    from service.store.database import upgrade

    counters = _instrument()
    path = os.environ["KICKOFF_BENCH_COUNTERS"]
    dumps = 0

    def dump(_signal: int, _frame: Any) -> None:
        nonlocal dumps
        dumps += 1
        snapshot: dict[str, Any] = {
            name: {"calls": c.calls, "cpu": c.cpu, "wall": c.wall, "none": c.none}
            | ({"each": c.each} if c.each is not None else {})
            for name, c in counters.items()
        }
        snapshot["dump"] = dumps  # (the reader waits for the one it asked for)
        with open(path + ".tmp", "w") as file:
            json.dump(snapshot, file)
        os.replace(path + ".tmp", path)

    signal.signal(signal.SIGUSR1, dump)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    upgrade(database_url)
    grpc_settings = dataclasses.replace(GrpcSettings(), port=port)
    asyncio.run(serve(Settings.from_environment(grpc=grpc_settings, store=StoreSettings(database_url=database_url))))
    return 0


class MatchServer(ServerProcess):
    """`kickoff grpc` with the matchmaker's counters (``python -m benchmarks.match serve``) on a free port."""

    def __init__(self, database_url: str, env: dict[str, str], log: str = "") -> None:  # (not ServerProcess's)
        self.port = free_port()
        self._scratch = None
        self.database_url = database_url
        self._folder = tempfile.TemporaryDirectory(prefix="kickoff-bench-match-")
        self._counters = os.path.join(self._folder.name, "counters.json")
        self.log = log or os.path.join(self._folder.name, "server.log")  # (its stderr: the log)
        self._dumps = 0
        self._stderr = open(self.log, "w")  # noqa: SIM115 (the child writes it until it stops)
        command = [sys.executable, "-m", "benchmarks.match", "serve", str(self.port), database_url]
        self.process = subprocess.Popen(
            command,
            env={**os.environ, **UNLIMITED, **env, "KICKOFF_BENCH_COUNTERS": self._counters},
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
        )
        line = self.process.stdout.readline() if self.process.stdout else ""
        if f":{self.port}" not in line:
            self.process.kill()
            self._stderr.close()
            self._folder.cleanup()
            raise RuntimeError(f"the server did not start: {line!r}")

    def counters(self) -> dict[str, Any]:
        """The matchmaker's counters now, as the server writes them at SIGUSR1."""
        self._dumps += 1
        self.process.send_signal(signal.SIGUSR1)
        for _ in range(1000):
            if os.path.exists(self._counters):
                with open(self._counters) as file:
                    counters: dict[str, Any] = json.load(file)
                if counters["dump"] == self._dumps:
                    return counters
            time.sleep(0.01)
        raise RuntimeError("the server wrote no counters")

    def threads_cpu(self) -> tuple[float, float]:
        """The process's CPU so far (user + system, every thread, ended ones too) and its main thread's."""
        with open(f"/proc/{self.process.pid}/task/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return self.cpu_seconds(), (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def logged(self) -> dict[str, Any]:
        """What the server's log says went wrong: its errors, how many were a room's creation the store refused (the
        room was made already) or a busy SQLite ("database is locked"), and the first other error's lines."""
        with open(self.log, errors="replace") as file:
            lines = file.read().splitlines()
        errors = [index for index, line in enumerate(lines) if " ERROR " in line]
        refused = sum(1 for index in errors if "refused a creation of room" in lines[index])
        other = next((i for i in errors if "refused a creation of room" not in lines[i]), None)
        return {
            "errors": len(errors),
            "room_creations_refused": refused,
            "database_locked": sum(
                1 for line in lines if line.startswith("sqlalchemy.exc.OperationalError") and "locked" in line
            ),
            "first_other_error": [] if other is None else lines[other : other + 40],
        }

    def stop(self) -> None:
        super().stop()
        self._stderr.close()
        self._folder.cleanup()


# -- players ------------------------------------------------------------------------------------------------------


def _auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


@dataclass
class _Player:
    session: player_pb2.Session
    signed_at: float


async def _sign_in(channels: Sequence[grpc.aio.Channel], count: int) -> list[_Player]:
    """``count`` guests, SIGN_IN_AT_ONCE at a time."""
    stubs = [player_pb2_grpc.PlayerServiceStub(channel) for channel in channels]
    players: list[_Player | None] = [None] * count
    numbers = iter(range(count))

    async def worker() -> None:
        for number in numbers:
            request = player_pb2.SignInAsGuestRequest(name=f"Bench {number}")
            answer = await stubs[number % len(stubs)].SignInAsGuest(request)
            players[number] = _Player(answer.session, time.monotonic())

    await asyncio.gather(*(worker() for _ in range(min(SIGN_IN_AT_ONCE, count))))
    return [player for player in players if player is not None]


async def _write_ratings(url: str, game: str, players: Sequence[_Player], seed: int) -> list[float]:
    """Each player's rating in ``game``, as rows of the ratings table (as if they had played); returns their mu."""
    from service.store.database import create_engine
    from service.store.models import RatingRow

    rng = random.Random(seed)
    now = time.time()
    mus = [round(rng.gauss(MU, MU_SD), 3) for _ in players]
    rows = [
        {"game": game, "player_id": player.session.player.player_id, "kind": "person", "mu": mu, "sigma": SIGMA}
        | {"display": mu - 3 * SIGMA, "games": 10, "wins": 5, "updated_at": now}
        for player, mu in zip(players, mus, strict=True)
    ]
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            for start in range(0, len(rows), 5_000):
                await connection.execute(insert(RatingRow), rows[start : start + 5_000])
    finally:
        await engine.dispose()
    return mus


# -- the load -----------------------------------------------------------------------------------------------------


@dataclass
class _Seen:
    """One ticket as its client saw it (perf_counter times)."""

    due: float
    sent: float = 0.0
    enqueued: float = 0.0  # Enqueue answered
    proposed: float = 0.0  # first heard PROPOSED
    ended: float = 0.0  # heard MATCHED, or another end
    status: int = 0
    takes: int = 0  # AcceptMatch calls
    takes_seconds: list[float] = field(default_factory=list)
    room_id: str = ""
    seat_token: bool = False
    errors: list[str] = field(default_factory=list)  # the calls that failed ("AcceptMatch INTERNAL")


async def _ticket(
    stubs: tuple[match_pb2_grpc.MatchServiceStub, player_pb2_grpc.PlayerServiceStub],
    player: _Player,
    game: str,
    seen: _Seen,
) -> None:
    """One player's ticket: enqueued when due, followed, its seat taken up as soon as it is proposed. A call that
    fails is counted in ``seen.errors`` and the ticket goes on (a stream that breaks is followed again); one not
    ended after PATIENCE seconds is cancelled."""
    matches, players = stubs
    await asyncio.sleep(max(0.0, seen.due - time.perf_counter()))
    if time.monotonic() - player.signed_at > REFRESH_AFTER:  # (before the enqueue, outside the wait measured)
        refresh = player_pb2.RefreshSessionRequest(refresh_token=player.session.refresh_token)
        player.session, player.signed_at = (await players.RefreshSession(refresh)).session, time.monotonic()
    metadata = _auth(player.session.access_token)
    options = struct_pb2.Struct()
    options.update({"turn_seconds": TURN_SECONDS})
    seen.sent = time.perf_counter()
    try:
        answer = await matches.Enqueue(match_pb2.EnqueueRequest(game=game, options=options), metadata=metadata)
    except grpc.aio.AioRpcError as error:  # (no ticket)
        seen.errors.append(f"Enqueue {error.code().name}")
        return
    seen.enqueued = time.perf_counter()
    ticket_id = answer.ticket.ticket_id

    def done(ticket: match_pb2.Ticket) -> bool:
        if ticket.status in (MATCHED, CANCELLED, EXPIRED):
            seen.ended, seen.status = time.perf_counter(), ticket.status
            seen.room_id, seen.seat_token = ticket.table.room_id, bool(ticket.table.seat_token)
            return True
        return False

    async def take_up(ticket: match_pb2.Ticket) -> bool:
        seen.proposed = seen.proposed or time.perf_counter()
        seen.takes += 1
        began = time.perf_counter()
        try:
            answer = await matches.AcceptMatch(match_pb2.AcceptMatchRequest(ticket_id=ticket_id), metadata=metadata)
        except grpc.aio.AioRpcError as error:
            if error.code() != grpc.StatusCode.FAILED_PRECONDITION:  # (else put back meanwhile: the stream says so)
                seen.errors.append(f"AcceptMatch {error.code().name}")
                taken.discard(ticket.table.room_id)  # (tried again at the table's next change)
            return False
        seen.takes_seconds.append(time.perf_counter() - began)
        return done(answer.ticket)

    taken: set[str] = set()
    try:
        async with asyncio.timeout(PATIENCE - (seen.enqueued - seen.sent)):
            while True:
                call = matches.FollowTicket(match_pb2.FollowTicketRequest(ticket_id=ticket_id), metadata=metadata)
                try:
                    async for response in call:
                        ticket = response.ticket
                        if done(ticket):
                            return
                        if ticket.status == PROPOSED and ticket.table.room_id not in taken:
                            taken.add(ticket.table.room_id)
                            if await take_up(ticket):
                                return
                except grpc.aio.AioRpcError as error:
                    seen.errors.append(f"FollowTicket {error.code().name}")
                    await asyncio.sleep(0.5)
                finally:
                    call.cancel()
    except TimeoutError:
        try:
            done(
                (
                    await matches.CancelTicket(match_pb2.CancelTicketRequest(ticket_id=ticket_id), metadata=metadata)
                ).ticket
            )
        except grpc.aio.AioRpcError as error:  # (ended meanwhile, or its room is being made)
            seen.errors.append(f"CancelTicket {error.code().name}")


async def _load(
    channels: Sequence[grpc.aio.Channel], players: Sequence[_Player], game: str, rate: float
) -> list[_Seen]:
    """Every player's ticket, the k-th due k / ``rate`` seconds after the start."""
    stubs = [
        (match_pb2_grpc.MatchServiceStub(channel), player_pb2_grpc.PlayerServiceStub(channel)) for channel in channels
    ]
    start = time.perf_counter() + 0.05
    seen = [_Seen(due=start + index / rate) for index in range(len(players))]
    tasks = [
        asyncio.ensure_future(_ticket(stubs[index % len(stubs)], player, game, seen[index]))
        for index, player in enumerate(players)
    ]
    await asyncio.gather(*tasks)
    return seen


# -- figures ------------------------------------------------------------------------------------------------------


def _quantiles(values: Sequence[float], scale: float = 1.0, digits: int = 3) -> dict[str, float]:
    ordered = sorted(values) or [0.0]

    def at(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))] * scale, digits)

    return {
        "p50": at(0.5),
        "p99": at(0.99),
        "max": round(ordered[-1] * scale, digits),
        "mean": round(statistics.fmean(ordered) * scale, digits),
    }


async def _stored(url: str) -> dict[str, Any]:
    """What the store says: the tickets' ends and waits, and the tables made."""
    from service.store.database import create_engine
    from service.store.models import MatchRow, RoomRow, TicketRow

    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            tickets = (
                await connection.execute(
                    select(TicketRow.status, TicketRow.created_at, TicketRow.ended_at, TicketRow.returned)
                )
            ).all()
            tables = (
                await connection.execute(select(MatchRow.status, MatchRow.size, MatchRow.seats, MatchRow.spread))
            ).all()
            rooms = (await connection.execute(select(func.count()).select_from(RoomRow))).scalar_one()
    finally:
        await engine.dispose()
    statuses: dict[str, int] = {}
    for row in tickets:
        statuses[row.status] = statuses.get(row.status, 0) + 1
    waits = [row.ended_at - row.created_at for row in tickets if row.status == "matched"]
    started = [row for row in tables if row.status == "started"]
    bots = [sum(1 for seat in row.seats if seat.get("bot")) for row in started]
    sizes: dict[int, int] = {}
    for row in started:
        sizes[row.size] = sizes.get(row.size, 0) + 1
    mean = statistics.fmean
    return {
        "statuses": statuses,
        "returned": sum(row.returned for row in tickets),
        "wait_s": _quantiles(waits),
        "rooms": rooms,
        "tables": {
            "started": len(started),
            "not_started": len(tables) - len(started),
            "mean_spread": round(mean([row.spread for row in started]), 3) if started else 0.0,
            "spread_p99": _quantiles([row.spread for row in started])["p99"],
            "mean_size": round(mean([row.size for row in started]), 3) if started else 0.0,
            "mean_system_players": round(mean(bots), 3) if started else 0.0,
            "with_system_players": sum(1 for count in bots if count),
            "sizes": {str(size): sizes[size] for size in sorted(sizes)},
        },
    }


def _matchmaker_cpu(before: dict[str, Any], after: dict[str, Any], tickets: int) -> dict[str, Any]:
    """Each counter's calls and main-thread CPU between two snapshots, in ms a ticket (and a call)."""
    figures: dict[str, Any] = {}
    for name, last in after.items():
        if not isinstance(last, dict):
            continue
        first = before[name]
        calls, cpu, wall = last["calls"] - first["calls"], last["cpu"] - first["cpu"], last["wall"] - first["wall"]
        figures[name] = {
            "calls": calls,
            "cpu_ms_per_ticket": round(cpu / tickets * 1000, 3),
            "cpu_ms_per_call": round(cpu / calls * 1000, 3) if calls else 0.0,
            "wall_ms_per_call": round(wall / calls * 1000, 3) if calls else 0.0,
        }
    figures["store_tick"]["skipped"] = after["store_tick"]["none"] - before["store_tick"]["none"]
    ticks = after["tick"]["each"][before["tick"]["calls"] :]
    figures["tick"]["cpu_ms"] = _quantiles([cpu for cpu, _ in ticks], 1000, 2)
    figures["tick"]["wall_ms"] = _quantiles([wall for _, wall in ticks], 1000, 2)
    enqueues = after["enqueue"]["each"][before["enqueue"]["calls"] :]
    tenth = max(1, len(enqueues) // 10)
    for index, what in ((0, "cpu"), (1, "wall")):  # (does an enqueue cost more as the tickets table grows?)
        for part, calls in (("first", enqueues[:tenth]), ("last", enqueues[-tenth:])):
            mean = statistics.fmean(call[index] for call in calls) * 1000 if calls else 0.0
            figures["enqueue"][f"{what}_ms_{part}_tenth"] = round(mean, 3)
    return figures


async def _run(server: MatchServer, url: str, game: str, count: int, rate: float, seed: int) -> dict[str, Any]:
    """Sign in, rate, then the load; the figures of the run (CPU between the first enqueue and the last end)."""
    from benchmarks.cluster import _store_cpu_seconds

    postgres = url.startswith("postgresql")
    channels = [grpc.aio.insecure_channel(server.target) for _ in range(CHANNELS)]
    try:
        idle_before = await asyncio.to_thread(server.counters)
        began = time.perf_counter()
        players = await _sign_in(channels, count)
        signed = time.perf_counter() - began
        idle_after = await asyncio.to_thread(server.counters)
        began = time.perf_counter()
        mus = await _write_ratings(url, game, players, seed)
        rated = time.perf_counter() - began
        before = await asyncio.to_thread(server.counters)
        (cpu_before, main_before), client_before = server.threads_cpu(), os.times()
        store_before = _store_cpu_seconds() if postgres else 0.0
        began = time.perf_counter()
        seen = await _load(channels, players, game, rate)
        took = time.perf_counter() - began
        (cpu_after, main_after), client_after = server.threads_cpu(), os.times()
        store_after = _store_cpu_seconds() if postgres else 0.0
        after = await asyncio.to_thread(server.counters)
    finally:
        for channel in channels:
            await channel.close()
    tickets = len(seen)
    idle_ticks = idle_after["tick"]["calls"] - idle_before["tick"]["calls"]
    idle_cpu = idle_after["tick"]["cpu"] - idle_before["tick"]["cpu"]
    server_cpu, main_cpu = cpu_after - cpu_before, main_after - main_before
    client_cpu = (client_after.user - client_before.user) + (client_after.system - client_before.system)
    matched = [s for s in seen if s.status == MATCHED]
    sent = sorted(s.sent for s in seen)
    errors: dict[str, int] = {}
    for one in seen:
        for error in one.errors:
            errors[error] = errors.get(error, 0) + 1
    cpu: dict[str, Any] = {
        "server_ms_per_ticket": round(server_cpu / tickets * 1000, 3),
        "server_main_thread_ms_per_ticket": round(main_cpu / tickets * 1000, 3),
        "server_other_threads_ms_per_ticket": round((server_cpu - main_cpu) / tickets * 1000, 3),
        "server_cores_busy": round(server_cpu / took, 3),
        "client_ms_per_ticket": round(client_cpu / tickets * 1000, 3),
        "matchmaker": _matchmaker_cpu(before, after, tickets),
        "idle_tick_ms": round(idle_cpu / idle_ticks * 1000, 3) if idle_ticks else 0.0,
    }
    if postgres:
        cpu["postgres_ms_per_ticket"] = round((store_after - store_before) / tickets * 1000, 3)
    cpu["matching_ms_per_ticket"] = cpu["matchmaker"]["tick"]["cpu_ms_per_ticket"]
    cpu["matchmaker_ms_per_ticket"] = round(  # (the room made and the planner are inside a tick or a take-up)
        sum(cpu["matchmaker"][name]["cpu_ms_per_ticket"] for name in ENTRY_POINTS), 3
    )
    return {
        "tickets": tickets,
        "matched": len(matched),
        "cancelled": sum(1 for s in seen if s.status == CANCELLED),
        "expired": sum(1 for s in seen if s.status == EXPIRED),
        "not_ended": sum(1 for s in seen if not s.status),
        "not_enqueued": sum(1 for s in seen if not s.enqueued),
        "errors": errors,
        "matched_without_seat_token": sum(1 for s in matched if not (s.room_id and s.seat_token)),
        "rate_asked": rate,
        "rate_sent": round((tickets - 1) / (sent[-1] - sent[0]), 2) if tickets > 1 and sent[-1] > sent[0] else 0.0,
        "send_lag_ms": _quantiles([s.sent - s.due for s in seen], 1000, 1),
        "run_seconds": round(took, 1),
        "sign_in_seconds": round(signed, 1),
        "ratings_seconds": round(rated, 1),
        "ratings": {"mu_mean": round(statistics.fmean(mus), 2), "mu_sd": round(statistics.pstdev(mus), 2)},
        "client": {
            "matched_s": _quantiles([s.ended - s.sent for s in matched]),
            "proposed_s": _quantiles([s.proposed - s.sent for s in seen if s.proposed]),
            "enqueue_ms": _quantiles([s.enqueued - s.sent for s in seen], 1000, 2),
            "accept_ms": _quantiles([t for s in seen for t in s.takes_seconds], 1000, 2),
            "takes_per_ticket": round(sum(s.takes for s in seen) / tickets, 3),
        },
        "cpu": cpu,
    }


def bench_match(
    players: int = 10_000,
    rate: float = RATE,
    game: str = "soker",
    interval: float = 0.5,
    fill_seconds: float = 10.0,
    database_url: str = "",
    seed: int = 0,
    server_log: str = "",
) -> dict[str, Any]:
    """See the module docstring: ``players`` guests, one ticket each, ``rate`` tickets a second. ``server_log``: a
    file to keep the server's log in (else it goes with the run; the figures count its errors)."""
    if game not in GAMES:
        raise ValueError(f"--game is one of {', '.join(sorted(GAMES))}")
    if players < 2 or rate <= 0 or interval <= 0 or fill_seconds <= 0:
        raise ValueError("--players must be at least 2, --rate, --interval and --fill-seconds positive")
    url, remove = fresh_store(database_url, "match")
    env = {
        "KICKOFF_SIGN_IN_RATE": "off",
        "KICKOFF_MATCH_INTERVAL": str(interval),
        "KICKOFF_MATCH_FILL_SECONDS": str(fill_seconds),
        "KICKOFF_TICKET_SECONDS": str(TICKET_SECONDS),
        "KICKOFF_TICKETS_PER_CALLER": str(players + 1000),
        "KICKOFF_MAX_QUEUE": str(players + 1000),
        "KICKOFF_MAX_FOLLOWERS": str(players + 1000),
    }
    try:
        server = MatchServer(url, env, server_log)
        try:
            figures = asyncio.run(_run(server, url, game, players, rate, seed))
            figures["store"] = asyncio.run(_stored(url))
            figures["server_log"] = server.logged()
        finally:
            server.stop()
    finally:
        remove()
    figures |= {
        "database": "postgresql" if url.startswith("postgresql") else "sqlite",
        "game": game,
        "players": players,
        "interval_seconds": interval,
        "fill_seconds": fill_seconds,
        "patience_seconds": PATIENCE,
        "ratings_from": "rows written into the ratings table (mu ~ N(25, 5))",
        "take_up_by": "FollowTicket (each change streamed), AcceptMatch at PROPOSED",
        "cpu_count": os.cpu_count(),
    }
    figures["ended"] = figures["tickets"] - figures["not_ended"]
    started = figures["store"]["tables"]["started"]
    figures["room_calls_per_table"] = (
        round(figures["cpu"]["matchmaker"]["room"]["calls"] / started, 2) if started else 0
    )
    return figures


def match_report(figures: dict[str, Any]) -> str:
    """The figures for people: a few lines."""
    client, store, tables = figures["client"], figures["store"], figures["store"]["tables"]
    cpu, mm = figures["cpu"], figures["cpu"]["matchmaker"]
    lines = [
        f"{figures['tickets']:,} tickets of {figures['game']} on {figures['database']} at {figures['rate_asked']:g}/s "
        f"(sent at {figures['rate_sent']:g}/s, lag p99 {figures['send_lag_ms']['p99']} ms), ticks every "
        f"{figures['interval_seconds']:g} s, system players after {figures['fill_seconds']:g} s: "
        f"{figures['ended']:,} ended ({figures['matched']:,} matched, {figures['expired']} expired, "
        f"{figures['cancelled']} cancelled), {store['returned']} put back; {figures['run_seconds']} s",
        f"enqueue -> matched, as the client saw it: p50 {client['matched_s']['p50']} s, p99 "
        f"{client['matched_s']['p99']} s (max {client['matched_s']['max']} s; proposed p50 "
        f"{client['proposed_s']['p50']} s); the store's created -> matched: p50 {store['wait_s']['p50']} s, p99 "
        f"{store['wait_s']['p99']} s",
        f"matching CPU (the ticks, main thread): {cpu['matching_ms_per_ticket']} ms a ticket ({mm['tick']['calls']} "
        f"ticks, p50 {mm['tick']['cpu_ms']['p50']} ms, p99 {mm['tick']['cpu_ms']['p99']} ms a tick; the rules' "
        f"planner {mm['planner']['cpu_ms_per_ticket']} ms, rooms made {mm['room']['cpu_ms_per_ticket']} ms a ticket; "
        f"an idle tick {cpu['idle_tick_ms']} ms); enqueue {mm['enqueue']['cpu_ms_per_ticket']}, take-up "
        f"{mm['accept']['cpu_ms_per_ticket']}, reads {mm['ticket']['cpu_ms_per_ticket']} ms a ticket",
        f"the matchmaker in all (enqueue, ticks, take-ups, reads, cancels): {cpu['matchmaker_ms_per_ticket']} ms a "
        f"ticket; rooms made {figures['room_calls_per_table']} times a table started "
        f"({figures['server_log']['room_creations_refused']} creations refused by the store as made already); "
        f"{mm['store_tick']['skipped']} of {mm['store_tick']['calls']} queue turns skipped (held by another "
        f"transaction); tick wall p99 {mm['tick']['wall_ms']['p99']} ms, max {mm['tick']['wall_ms']['max']} ms; "
        f"{figures['server_log']['errors']} errors logged ({figures['server_log']['database_locked']} 'database is "
        f"locked'), calls failed: {figures['errors'] or 'none'}",
        f"server CPU, all of it: {cpu['server_ms_per_ticket']} ms a ticket (main thread "
        f"{cpu['server_main_thread_ms_per_ticket']}, other threads {cpu['server_other_threads_ms_per_ticket']}"
        + (f"; PostgreSQL {cpu['postgres_ms_per_ticket']} ms" if "postgres_ms_per_ticket" in cpu else "")
        + f"), {cpu['server_cores_busy']} cores busy; the client {cpu['client_ms_per_ticket']} ms a ticket",
        f"{tables['started']:,} tables started: mean rating spread {tables['mean_spread']} (p99 "
        f"{tables['spread_p99']}), mean size {tables['mean_size']} (sizes {tables['sizes']}), "
        f"{tables['mean_system_players']} system players a table; ratings: {figures['ratings_from']}; "
        f"{figures['players']:,} guests signed in first ({figures['sign_in_seconds']} s); take-up: "
        f"{figures['take_up_by']}; {figures['cpu_count']} cores.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":  # the instrumented server: python -m benchmarks.match serve PORT DATABASE_URL
    if sys.argv[1:2] != ["serve"] or len(sys.argv) != 4 or not sys.argv[2].isdigit():
        sys.exit("usage: python -m benchmarks.match serve PORT DATABASE_URL")
    sys.exit(_serve(int(sys.argv[2]), sys.argv[3]))
