"""`kickoff bench cluster`: what leases and routing cost, as moves a second of 1, 2 and 3 nodes on one PostgreSQL.

Each run starts the nodes (`kickoff grpc --node-id ...`) on a fresh database of the PostgreSQL named, and drives the
same closed-loop load as `kickoff bench server` (scripted seats on play streams). Each room is created through a node
chosen at random and played through the node its slot's channel goes to, as behind a balancer that knows nothing of
rooms: with n nodes, (n - 1) / n of the calls are forwarded to their room's owner. Rounds alternate the node counts;
the figures are medians. With --local, each room is played through the node that owns it instead: what the leases
cost without forwarding. With --follow, the seats join through a node at random asking to follow the owner
(``kickoff-route: owner``): the forwarded join names the owner, and the seats play there, as the gateway and any
client that follows owners do. With --transport rest, the seats play through one REST gateway (`kickoff gateway`)
whose gRPC target is every node (round robin), as a deployment's gateway behind the nodes is: it learns each room's
owner from the first forwarded call and sends the room's calls there (service/gateway/calls.py, Owners); the rooms
are created on a node at random and joined through the slot's node, as above. On a machine of two cores, the nodes
(and the gateway) and the load share the same cores: the figures say what leases and forwarding cost, not how a
cluster of machines scales.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from typing import Any

from benchmarks.harness import GatewayProcess, ServerProcess, database
from benchmarks.load import drive

LEASE = {"KICKOFF_LEASE_SECONDS": "10", "KICKOFF_RENEW_SECONDS": "3"}


def _store_cpu_seconds() -> float:
    """CPU time of every PostgreSQL process on this machine (the store the bench's database lives in, when it runs
    here, as `make bench` runs it); 0 when there is none."""
    total = 0.0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as stat:
                text = stat.read()
        except OSError:
            continue
        name, rest = text.split("(", 1)[1].rsplit(")", 1)
        if name.startswith("postgres"):
            fields = rest.split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _nodes(url: str, count: int) -> list[ServerProcess]:
    nodes: list[ServerProcess] = []
    try:
        for index in range(count):
            nodes.append(ServerProcess(url, env=LEASE, node_id=f"bench-{index}"))
    except BaseException:
        for node in nodes:
            node.stop()
        raise
    return nodes


def _run(
    admin_url: str,
    count: int,
    rooms: int,
    seconds: float,
    seed: int,
    local: bool,
    follow: bool = False,
    transport: str = "stream",
) -> dict[str, float]:
    name = f"kickoff_bench_{uuid.uuid4().hex[:8]}"
    url = asyncio.run(database(admin_url, name))
    nodes = _nodes(url, count)
    gateway = None
    try:
        targets = ",".join(node.target for node in nodes)
        gateway = GatewayProcess(targets) if transport == "rest" else None
        cpu = [node.cpu_seconds() for node in nodes]
        gateway_cpu = gateway.cpu_seconds() if gateway else 0.0
        store = _store_cpu_seconds()
        stats, elapsed = asyncio.run(
            drive(
                targets, rooms, seconds, transport, 0, seed, gateway.url if gateway else "", local=local, follow=follow
            )
        )
        cpu = [node.cpu_seconds() - before for node, before in zip(nodes, cpu, strict=True)]
        gateway_cpu = gateway.cpu_seconds() - gateway_cpu if gateway else 0.0
        store = _store_cpu_seconds() - store
        rss = max(node.peak_rss_mb() for node in nodes)
    finally:
        if gateway is not None:
            gateway.stop()
        for node in nodes:
            node.stop()
        asyncio.run(database(admin_url, name, drop=True))
    figures = stats.figures(elapsed, rss)
    figures["server_cpu_us_per_move"] = round(sum(cpu) / max(1, stats.moves) * 1e6)
    figures["store_cpu_us_per_move"] = round(store / max(1, stats.moves) * 1e6)
    figures["gateway_cpu_us_per_move"] = round(gateway_cpu / max(1, stats.moves) * 1e6)
    return figures


def bench_cluster(
    admin_url: str,
    counts: list[int],
    rooms: int,
    seconds: float,
    rounds: int = 3,
    seed: int = 0,
    local: bool = False,
    follow: bool = False,
    transport: str = "stream",
) -> dict[str, Any]:
    """Moves a second and the nodes' CPU a move for each node count, in alternating rounds; medians, and each
    count's moves a second and CPU a move as ratios to the first count's. With ``local``, every room is played
    through the node that owns it (a balancer that knows where rooms live): the leases' cost alone, without
    forwarding. With ``transport`` "rest", the seats play through one REST gateway in front of every node."""
    if not admin_url.startswith("postgresql"):
        raise ValueError("--database-url must name a PostgreSQL database (the nodes' shared store)")
    if transport not in ("stream", "rest"):
        raise ValueError("--transport is stream or rest")
    if transport == "rest" and (local or follow):
        raise ValueError(
            "--transport rest plays through the gateway, which follows owners itself: no --local, --follow"
        )
    if not counts or any(count < 1 for count in counts):
        raise ValueError("--nodes is a list of node counts, each at least 1 (e.g. 1,2,3)")
    runs: dict[int, list[dict[str, float]]] = {count: [] for count in counts}
    for index in range(max(1, rounds)):
        order = counts if index % 2 == 0 else list(reversed(counts))
        for count in order:
            runs[count].append(_run(admin_url, count, rooms, seconds, seed + index, local, follow, transport))

    def median(count: int, key: str) -> float:
        values = sorted(run[key] for run in runs[count])
        return values[len(values) // 2]

    keys = (
        "moves_per_s",
        "server_cpu_us_per_move",
        "store_cpu_us_per_move",
        "gateway_cpu_us_per_move",
        "p50_ms",
        "p99_ms",
    )
    figures: dict[str, Any] = {f"nodes_{count}": {key: median(count, key) for key in keys} for count in counts}
    base, base_cpu = median(counts[0], "moves_per_s"), median(counts[0], "server_cpu_us_per_move")
    for count in counts:
        figures[f"nodes_{count}"]["moves_per_s_ratio"] = round(median(count, "moves_per_s") / base, 3)
        figures[f"nodes_{count}"]["cpu_per_move_ratio"] = round(median(count, "server_cpu_us_per_move") / base_cpu, 3)
    figures["rounds"] = {str(count): runs[count] for count in counts}
    return figures


def cluster_report(
    figures: dict[str, Any],
    counts: list[int],
    rooms: int,
    seconds: float,
    rounds: int,
    local: bool,
    follow: bool = False,
    transport: str = "stream",
) -> str:
    """:func:`bench_cluster`'s figures for people: what was run, then a line per node count."""
    rest = transport == "rest"
    lines = [
        f"{rooms} rooms of 4 scripted seats "
        + ("through one REST gateway in front of every node" if rest else "on play streams")
        + f", {seconds:g} s a run, medians of {rounds} alternating rounds; "
        + (
            "rooms owned by a node at random, the gateway sending each room's calls to its owner once named"
            if rest
            else "each room played on the node that owns it"
            if local
            else "rooms owned by a node at random, played on it once a forwarded join named it (kickoff-route: owner)"
            if follow
            else "rooms owned by a node at random"
        )
    ]
    for count in counts:
        line = figures[f"nodes_{count}"]
        lines.append(
            f"  {count} node{'s' if count > 1 else ' '}: {line['moves_per_s']:>8,.1f} moves/s "
            f"({line['moves_per_s_ratio']:.2f}x one node), {line['server_cpu_us_per_move']:>4} µs of "
            f"node CPU ({line['cpu_per_move_ratio']:.2f}x) and {line['store_cpu_us_per_move']:>3} µs of PostgreSQL CPU "
            + (f"and {line['gateway_cpu_us_per_move']:>4} µs of the gateway's " if rest else "")
            + f"a move, p50 {line['p50_ms']} ms, p99 {line['p99_ms']} ms"
        )
    return "\n".join(lines)
