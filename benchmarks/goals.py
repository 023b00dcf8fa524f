"""`kickoff bench goals`: every per-move goal of the server, each a ratio inside one run, with its figure and pass/fail.

Each comparison alternates its two sides round after round under the same load from the same client code; a goal's
figure is the median of the rounds' ratios (each round's two sides ran back to back, so a slow spell of the shared
machine hits both alike), and the detail quotes each side's median:

* stream, memory store, against the bare fan-out server (baseline.py, which serialises each update once and sends
  bytes, as kickoff does: the cheapest honest fan-out): server CPU a move <= 2.0x, moves/s >= 0.6x;
* unary moves, memory store, against the bare server's unary form: moves/s >= 0.5x (restated with the stream's when
  the floor became the cheapest fan-out: it was 0.67x against the old floor, which was 1.29x slower in unary moves);
* stream on the default SQLite store against the memory store: moves/s >= 0.5x;
* REST against unary moves (memory store): moves/s >= 0.4x;
* REST against its floor, the bare REST relay (rest_floor.py) in front of the bare server: the gateway's CPU a move
  <= 2.0x the relay's, and moves/s (the whole path, server and gateway) >= 0.6x;
* open-loop latency at half the capacity measured above: stream p99 < 25 ms, REST p99 < 40 ms;
* tracing, the stream on the memory store: with the deploy guide's sampler (parent-based, 10%: a tenth of the rooms
  traced whole, the others' moves making no SDK call) the server's CPU a move rises <= 3%; with every move traced,
  < 25%; and with the same sampler keeping nothing (ratio 0), within the noise of tracing off's own rounds (the
  median distance of off's rounds from their median, in %). A 3% goal is finer than one run's noise here (a run's CPU
  a move swings by 3-5% from one run to the next), so these sides alternate ``tracing_rounds`` times (more than the
  other comparisons' ``rounds``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benchmarks.harness import BaselineProcess, RestFloorProcess, ServerProcess
from benchmarks.load import measure

SAMPLED = {"OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.1"}
SERVER_CPU, GATEWAY_CPU = "server_cpu_us_per_move", "gateway_cpu_us_per_move"
NOTHING = {**SAMPLED, "OTEL_TRACES_SAMPLER_ARG": "0"}  # the same sampler keeping nothing (no call carries a parent)


@dataclass(frozen=True)
class Goal:
    name: str
    figure: float
    limit: float
    at_most: bool  # the figure must be <= limit (else >=)
    detail: str

    @property
    def met(self) -> bool:
        return self.figure <= self.limit if self.at_most else self.figure >= self.limit

    def to_json(self) -> dict[str, Any]:
        return {
            "goal": self.name,
            "figure": self.figure,
            "limit": ("<= " if self.at_most else ">= ") + str(self.limit),
            "met": self.met,
            "detail": self.detail,
        }


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


class Runs:
    """Each side's runs of one comparison, round by round: the median of a figure per side, and the median of the
    rounds' ratios of two sides (each round's pair ran back to back)."""

    def __init__(self, runs: dict[str, list[dict[str, float]]]) -> None:
        self.runs = runs

    def __getitem__(self, side: str) -> dict[str, float]:
        """The median of each of ``side``'s figures."""
        results = self.runs[side]
        return {key: _median([run[key] for run in results]) for key in results[0]}

    def ratio(self, side: str, base: str, key: str) -> float:
        """The median over the rounds of ``side``'s ``key`` over ``base``'s."""
        return _median([ours[key] / theirs[key] for ours, theirs in zip(self.runs[side], self.runs[base], strict=True)])


def _alternate(sides: dict[str, Callable[[int], dict[str, float]]], rounds: int) -> Runs:
    """Each side once per round, in turn."""
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
    for index in range(rounds):
        for name, run in sides.items():
            runs[name].append(run(index))
    return Runs(runs)


def _cpu(name: str, runs: Runs, ours: str, theirs: str, key: str, limit: float, detail: str = "") -> Goal:
    """The goal that side ``ours``' CPU a move (``key``) be at most ``limit`` times side ``theirs``'."""
    figures = f"{runs[ours][key]:.0f} / {runs[theirs][key]:.0f} µs"
    return Goal(name, round(runs.ratio(ours, theirs, key), 2), limit, True, figures + detail)


def _throughput(name: str, runs: Runs, ours: str, theirs: str, limit: float) -> Goal:
    """The goal that side ``ours``' moves/s be at least ``limit`` times side ``theirs``'."""
    detail = f"{runs[ours]['moves_per_s']:,.0f} / {runs[theirs]['moves_per_s']:,.0f} moves/s"
    return Goal(name, round(runs.ratio(ours, theirs, "moves_per_s"), 2), limit, False, detail)


def _server(rooms: int, seconds: float, seed: int) -> Callable[..., Callable[[int], dict[str, float]]]:
    """``kickoff(transport, database_url, env, rate)``: one run of kickoff's server a round (``env`` not None: traced,
    the spans dropped, with the sampler that ``env`` sets)."""

    def kickoff(transport: str, database_url: str = "memory", env: dict[str, str] | None = None, rate: float = 0):
        def run(index: int) -> dict[str, float]:
            server = ServerProcess(database_url, tracing=env is not None, env=env or {})
            return measure(server, rooms, seconds, transport, 0, seed + index, tracing=False, rate=rate)

        return run

    return kickoff


def tracing_goals(rooms: int = 200, seconds: float = 15.0, rounds: int = 7, seed: int = 0) -> list[Goal]:
    """Tracing's cost on the stream (memory store): off, a sampler keeping nothing, a tenth of the rooms traced, every
    move traced."""
    kickoff = _server(rooms, seconds, seed)
    tracing = _alternate(
        {
            "off": kickoff("stream"),
            "nothing": kickoff("stream", env=NOTHING),
            "sampled": kickoff("stream", env=SAMPLED),
            "all": kickoff("stream", env={}),
        },
        rounds,
    )
    off = tracing["off"]["server_cpu_us_per_move"]
    goals = []
    for side, name, limit in (("sampled", "10% of the rooms", 3.0), ("all", "every move", 25.0)):
        cpu = tracing[side]["server_cpu_us_per_move"]
        goals.append(
            Goal(
                f"tracing ({name}): server CPU a move, % more",
                round((tracing.ratio(side, "off", "server_cpu_us_per_move") - 1) * 100, 1),
                limit,
                True,
                f"{off:.0f} -> {cpu:.0f} µs, {rounds} rounds",
            )
        )
    # A sampler keeping nothing must cost nothing measurable: its median ratio to off no farther from 1 than off's own
    # rounds lie from their median (their median absolute deviation, in %).
    offs = [run["server_cpu_us_per_move"] for run in tracing.runs["off"]]
    noise = _median([abs(value - off) for value in offs]) / off * 100
    nothing = tracing["nothing"]["server_cpu_us_per_move"]
    goals.append(
        Goal(
            "tracing (a sampler keeping nothing): server CPU a move, % more, within off's noise",
            round((tracing.ratio("nothing", "off", "server_cpu_us_per_move") - 1) * 100, 1),
            round(max(noise, 0.1), 1),
            True,
            f"{off:.0f} -> {nothing:.0f} µs; off's rounds {min(offs):.0f}-{max(offs):.0f} µs, {rounds} rounds",
        )
    )
    return goals


def bench_goals(
    rooms: int = 200, seconds: float = 15.0, rounds: int = 3, seed: int = 0, tracing_rounds: int = 7
) -> dict[str, Any]:
    goals: list[Goal] = []
    kickoff = _server(rooms, seconds, seed)

    update_bytes: list[int] = []

    def bare(transport: str) -> Callable[[int], dict[str, float]]:
        """The floor: the bare server (and for REST, the bare REST relay before it)."""

        def run(index: int) -> dict[str, float]:
            server = BaselineProcess(update_bytes[0] if update_bytes else 110)
            relay = RestFloorProcess if transport == "rest" else None
            return measure(server, rooms, seconds, transport, 0, seed + index, gateway=relay)

        return run

    def measured_first(run: Callable[[int], dict[str, float]]) -> Callable[[int], dict[str, float]]:
        def wrapped(index: int) -> dict[str, float]:
            figures = run(index)
            if not update_bytes:
                update_bytes.append(int(figures["update_bytes"]))
            return figures

        return wrapped

    stream = _alternate({"kickoff": measured_first(kickoff("stream")), "bare": bare("stream")}, rounds)
    goals.append(_cpu("stream: server CPU a move / bare fan-out", stream, "kickoff", "bare", SERVER_CPU, 2.0))
    goals.append(_throughput("stream: moves/s / bare fan-out", stream, "kickoff", "bare", 0.6))
    unary = _alternate({"kickoff": kickoff("unary"), "bare": bare("unary")}, rounds)
    goals.append(_throughput("unary: moves/s / bare unary fan-out", unary, "kickoff", "bare", 0.5))
    sqlite = _alternate({"sqlite": kickoff("stream", database_url=""), "memory": kickoff("stream")}, rounds)
    goals.append(_throughput("stream: SQLite store / memory store, moves/s", sqlite, "sqlite", "memory", 0.5))
    rest = _alternate({"rest": kickoff("rest"), "unary": kickoff("unary"), "floor": bare("rest")}, rounds)
    goals.append(_throughput("REST / unary, moves/s", rest, "rest", "unary", 0.4))
    servers = f" (servers {rest['rest'][SERVER_CPU]:.0f} / {rest['floor'][SERVER_CPU]:.0f} µs)"
    goals.append(_cpu("REST: gateway CPU a move / bare REST relay", rest, "rest", "floor", GATEWAY_CPU, 2.0, servers))
    goals.append(_throughput("REST: moves/s / bare REST relay and server", rest, "rest", "floor", 0.6))
    for transport, capacity, limit in (
        ("stream", stream["kickoff"]["moves_per_s"], 25.0),
        ("rest", rest["rest"]["moves_per_s"], 40.0),
    ):
        rate = round(capacity / 2)
        loaded = _alternate({"open": kickoff(transport, rate=rate)}, rounds)["open"]
        goals.append(
            Goal(
                f"{transport}: p99 latency at half capacity (open-loop), ms",
                loaded["p99_ms"],
                limit,
                True,
                f"{rate:,} moves/s asked, {loaded['moves_per_s']:,.0f} made; p50 {loaded['p50_ms']} ms",
            )
        )
    goals.extend(tracing_goals(rooms, seconds, tracing_rounds, seed))
    return {
        "rooms": rooms,
        "seconds": seconds,
        "rounds": rounds,
        "tracing_rounds": tracing_rounds,
        "cpu_count": os.cpu_count(),
        "goals": [goal.to_json() for goal in goals],
        "met": sum(goal.met for goal in goals),
        "of": len(goals),
    }


BEGIN, END = "<!-- kickoff bench goals: begin -->", "<!-- kickoff bench goals: end -->"


def write_into(path: str, text: str, begin: str = BEGIN, end: str = END) -> None:
    """Replace what stands between the two markers in ``path`` (docs/benchmarks.md) with ``text`` (by default this
    benchmark's markers; players.py passes its own)."""
    with open(path, encoding="utf-8") as file:
        content = file.read()
    start, stop = content.find(begin), content.find(end)
    if start < 0 or stop < start:
        raise ValueError(f"{path} has no '{begin}' ... '{end}' block")
    with open(path, "w", encoding="utf-8") as file:
        file.write(content[: start + len(begin)] + "\n" + text + "\n" + content[stop:])


def table(figures: dict[str, Any]) -> str:
    """The goals as a Markdown table (docs/benchmarks.md quotes it)."""
    lines = ["| goal | figure | limit | met | measured |", "|---|---|---|---|---|"]
    for goal in figures["goals"]:
        met = "yes" if goal["met"] else "**no**"
        lines.append(f"| {goal['goal']} | {goal['figure']} | {goal['limit']} | {met} | {goal['detail']} |")
    lines.append(
        f"\n{figures['met']} of {figures['of']} goals met: {figures['rooms']} rooms, {figures['seconds']:g} s a run, "
        f"medians of {figures['rounds']} alternating rounds ({figures.get('tracing_rounds', figures['rounds'])} for "
        f"tracing), each figure the median of the rounds' ratios, {figures['cpu_count']} cores."
    )
    return "\n".join(lines)
