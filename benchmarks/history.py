"""`kickoff bench history`: what a server keeps of games that are over.

Two figures, each a process of its own on a fresh SQLite store:

* **memory**: tournaments of four system players (thinking 0 s) play games until ``games`` have finished; the server's
  resident memory (VmRSS) is read after each quarter of them. A server that keeps finished games in memory grows with
  each; one that does not stays flat once its caches are full.
* **start-up**: a store is filled with ``stored`` finished rooms (whole Soker games between system players, written
  through the journal as a server would), and ``kickoff grpc`` is timed from its start to its first answer. A server
  that replays finished rooms at start takes longer with each; one that loads them when asked does not.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

import grpc

from benchmarks.harness import UNLIMITED, ServerProcess, free_port
from engine.registry import get_game
from kickoff.v1 import common_pb2, game_pb2, game_pb2_grpc, tournament_pb2, tournament_pb2_grpc
from service.store.database import create_engine, upgrade
from service.store.journal import SqlJournal
from service.store.records import LogEntry, RoomRecord

GAMES_PER_TOURNAMENT = 8


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def _finish_tournaments(target: str, count: int) -> None:
    """``count`` tournaments of four system players, all at once, until every one is over."""
    async with grpc.aio.insecure_channel(target) as channel:
        stub = tournament_pb2_grpc.TournamentServiceStub(channel)
        request = tournament_pb2.CreateTournamentRequest(
            game="soker", mode=common_pb2.ROOM_MODE_ONLINE, system_players=4, think_seconds=0
        )
        created = [(await stub.CreateTournament(request)).tournament for _ in range(count)]

        async def until_over(tournament_id: str) -> None:
            call = stub.StreamTournament(tournament_pb2.StreamTournamentRequest(tournament_id=tournament_id))
            async for response in call:
                if response.update.tournament.status == tournament_pb2.TOURNAMENT_STATUS_FINISHED:
                    break
            call.cancel()

        await asyncio.gather(*(until_over(t.tournament_id) for t in created))


def memory(games: int, steps: int = 4) -> list[dict[str, float]]:
    """Server RSS after every ``games / steps`` finished games."""
    server = ServerProcess()
    try:
        readings = [{"games": 0, "rss_mb": round(_rss_mb(server.process.pid), 1)}]
        per_step = max(1, games // steps // GAMES_PER_TOURNAMENT)
        played = 0
        for _ in range(steps):
            asyncio.run(_finish_tournaments(server.target, per_step))
            played += per_step * GAMES_PER_TOURNAMENT
            readings.append({"games": played, "rss_mb": round(_rss_mb(server.process.pid), 1)})
        return readings
    finally:
        server.stop()


async def _write_log(journal: SqlJournal, entries: list[LogEntry]) -> None:
    for version, entry in enumerate(entries, start=1):
        status = "finished" if version == len(entries) else "playing"
        await journal.append("room", LogEntry(**{**entry.__dict__, "version": version, "time": time.time()}), status)


def _started_in(url: str) -> float:
    """Seconds from starting ``kickoff grpc`` on the store at ``url`` to its first answer."""
    port = free_port()
    began = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "cli", "grpc", "--port", str(port), "--database-url", url],
        env={**os.environ, **UNLIMITED},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = game_pb2_grpc.GameServiceStub(channel)
            while True:
                try:
                    stub.ListGames(game_pb2.ListGamesRequest(), timeout=1)
                    return time.perf_counter() - began
                except grpc.RpcError:
                    if process.poll() is not None:
                        raise RuntimeError("the server exited") from None
                    time.sleep(0.02)
    finally:
        process.terminate()
        process.wait(timeout=30)


def startup(stored: list[int], starts: int = 3) -> list[dict[str, float]]:
    """Start-up time of a server whose store holds each count of finished rooms (the median of ``starts``)."""
    readings = []
    with tempfile.TemporaryDirectory(prefix="kickoff-bench-") as folder:
        url = f"sqlite+aiosqlite:///{folder}/history.db"
        upgrade(url)
        filled = 0
        for count in sorted(stored):
            asyncio.run(_fill_more(url, filled, count))
            filled = count
            times = sorted(_started_in(url) for _ in range(starts))
            readings.append({"finished_rooms": count, "startup_s": round(times[len(times) // 2], 2)})
    return readings


async def _fill_more(url: str, have: int, want: int) -> None:
    if want > have:
        await _fill_offset(url, have, want - have)


async def _fill_offset(url: str, first: int, rooms: int) -> None:
    """As :func:`_fill`, numbering the rooms from ``first``."""
    game = get_game("soker")
    journal = SqlJournal(create_engine(url))
    now = time.time()
    try:
        for start in range(first, first + rooms, 200):
            batch: list[tuple[RoomRecord, list[LogEntry]]] = []
            for number in range(start, min(start + 200, first + rooms)):
                batch.append(_finished_room(game, number, now))
            await asyncio.gather(*(journal.create("room", record) for record, _ in batch))
            await asyncio.gather(*(_write_log(journal, entries) for _, entries in batch))
    finally:
        await journal.close()


def _finished_room(game: Any, number: int, now: float) -> tuple[RoomRecord, list[LogEntry]]:
    room_id = f"{number:016x}"
    state = game.new_game(4, None, number)
    bots = [game.new_bot("random", number + seat) for seat in range(4)]
    record = RoomRecord(room_id, "soker", "solo", 4, (0, 1, 2, 3), "random", 0.0, state.options, number, now, "waiting")
    entries = [LogEntry(room_id, 0, "start", -1)]
    while acting := state.to_act():
        move = bots[acting[0]].choose(state, acting[0])
        state.apply(acting[0], move)
        entries.append(LogEntry(room_id, 0, "move", acting[0], move=move.to_wire()))
    return record, entries


def bench_history(games: int, stored: list[int], starts: int = 3) -> dict[str, Any]:
    return {"memory": memory(games), "startup": startup(stored, starts)}


def history_report(figures: dict[str, Any]) -> str:
    memory = ", ".join(f"{r['games']:,} games {r['rss_mb']} MB" for r in figures["memory"])
    starts = ", ".join(f"{r['finished_rooms']:,} finished rooms {r['startup_s']} s" for r in figures["startup"])
    return f"server RSS: {memory}; start-up: {starts}"
