"""`kickoff bench nemesis`: a bounded fault soak of a cluster, and the checks that say whether anything acknowledged
was lost.

Three nodes (`kickoff grpc --node-id ...`) share a fresh database beside the PostgreSQL named. Each reaches PostgreSQL
through a relay of its own, and the other nodes reach it through a second one (benchmarks/relay.py), so that a node can
be cut from the store or from its peers without touching the others: a cut freezes the relay (packets dropped: every
connection stays open, nothing passes, new ones hang), may first reset every connection (TCP RST both ways), or
refuses new ones. Players reach every node directly, as a balancer would.

While people play (``rooms`` two-seat Soker rooms at once, one person and one system player each, a new room as each
game ends; every move sent with a request id through a node at random, and sent again with the same id, through
another node, whenever the answer is lost or retriable), a fault strikes one node every ``every`` seconds (a seeded
choice): SIGKILL and a restart under its id, SIGSTOP for one to three leases, a cut from PostgreSQL (dropped; reset
then dropped; refused) or a cut from the other nodes, each for one to three leases. Then every fault is healed, the
people finish what they had in hand, and the store is read back:

- every acknowledged move is in its room's log exactly once, at the version its player was told, under its request id;
- no request id is in a room's log twice, each log's versions run 1, 2, 3... and its epochs never go down.

The run fails (exit status 1) when any check does. It is a soak, not a benchmark of speed: the figures are what it did
(moves acknowledged, answers that were retried, faults of each kind) and what it found.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from benchmarks.harness import UNLIMITED, database, free_port
from benchmarks.relay import Freezer
from kickoff.v1 import common_pb2, move_pb2, move_pb2_grpc, room_pb2, room_pb2_grpc

FAULTS = ("kill", "stop", "store-drop", "store-reset", "store-reject", "peers")
RETRIABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED)


@dataclass
class SoakNode:
    """One node: its process, the relay it reaches PostgreSQL through and the one its peers reach it through."""

    name: str
    port: int
    store: Freezer
    peers: Freezer
    url: str
    env: dict[str, str]
    log: Path
    process: subprocess.Popen | None = None
    stopped: bool = False

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def start(self) -> None:
        command = [sys.executable, "-m", "cli", "grpc", "--port", str(self.port), "--database-url", self.url]
        command += ["--node-id", self.name, "--advertise-address", self.peers.address]
        with self.log.open("a") as err:
            self.process = subprocess.Popen(
                command, env=self.env, stdout=subprocess.PIPE, stderr=err, text=True, start_new_session=True
            )
        assert self.process.stdout is not None
        line = await asyncio.to_thread(self.process.stdout.readline)  # (a restart first waits out its old lease)
        if f":{self.port}" not in line:
            self.process.kill()
            raise RuntimeError(f"node {self.name} did not start: {self.log.read_text()[-2000:]}")

    def signal(self, sig: int) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)

    async def kill(self) -> None:
        self.signal(signal.SIGKILL)
        if self.process is not None:
            await asyncio.to_thread(self.process.wait)

    async def stop_gracefully(self) -> None:
        if self.stopped:
            self.signal(signal.SIGCONT)
        self.signal(signal.SIGTERM)
        if self.process is not None:
            try:
                await asyncio.wait_for(asyncio.to_thread(self.process.wait), 30)
            except TimeoutError:
                self.process.kill()


@dataclass
class Tally:
    """What the people did and were told."""

    acknowledged: list[tuple[str, str, int]] = field(default_factory=list)  # (room, request id, version told)
    retried: int = 0  # requests sent again with the same id after a lost or retriable answer
    retried_answered: int = 0  # of those, answered OK in the end
    refused: int = 0  # moves refused for good (stale version, not the person's turn: the table moved first)
    given_up: int = 0  # requests whose retries ran out (their outcome unknown to the person; not counted as lost)
    rooms: int = 0  # rooms played
    games_finished: int = 0


async def _call(stub_call: Any, request: Any, **kwargs: Any) -> Any:
    return await stub_call(request, timeout=10, **kwargs)


@dataclass
class Deadline:
    """When the soak's play stops: the nemesis moves it on while a fault of its plan is still to strike, so that
    every planned fault strikes during play however slow the machine is."""

    at: float

    def passed(self) -> bool:
        return time.monotonic() >= self.at


class Person:
    """One seat, playing its room through nodes at random until ``until``, then finishing what it has in hand."""

    def __init__(self, targets: list[str], channels: dict[str, grpc.aio.Channel], rng: random.Random, tally: Tally):
        self.targets = targets
        self.channels = channels
        self.rng = rng
        self.tally = tally

    def _rooms(self) -> room_pb2_grpc.RoomServiceStub:
        return room_pb2_grpc.RoomServiceStub(self.channels[self.rng.choice(self.targets)])

    def _moves(self) -> move_pb2_grpc.MoveServiceStub:
        return move_pb2_grpc.MoveServiceStub(self.channels[self.rng.choice(self.targets)])

    async def _retrying(self, make: Any, give_up: float) -> Any:
        """``make()`` (a call through a node at random) until it answers something other than a retriable error."""
        delay = 0.1
        while True:
            try:
                return await make()
            except grpc.aio.AioRpcError as error:
                if error.code() not in RETRIABLE or time.monotonic() > give_up:
                    raise
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)

    async def play(self, until: Deadline, prefix: str) -> None:
        while not until.passed():
            await self._one_room(until, prefix)

    async def _one_room(self, until: Deadline, prefix: str) -> None:
        give_up = until.at + 60
        create = room_pb2.CreateRoomRequest(game="soker", mode=1, seats=2, system_players=1, think_seconds=0)
        try:
            room = (await self._retrying(lambda: _call(self._rooms().CreateRoom, create), give_up)).room
            join = room_pb2.JoinRoomRequest(room_id=room.room_id, name="nemesis")
            joined = await self._retrying(lambda: _call(self._rooms().JoinRoom, join), give_up)
        except grpc.aio.AioRpcError:
            await asyncio.sleep(0.5)
            return
        self.tally.rooms += 1
        seat = (("authorization", f"Bearer {joined.seat_token}"),)
        count = 0
        while not until.passed():
            try:
                legal = await self._retrying(
                    lambda: _call(
                        self._moves().ListLegalMoves,
                        move_pb2.ListLegalMovesRequest(room_id=room.room_id),
                        metadata=seat,
                    ),
                    give_up,
                )
            except grpc.aio.AioRpcError:
                return  # (a room that cannot be read for a minute, or over: the person leaves it)
            if not legal.moves:  # the system player's turn, or the game is over
                try:
                    status = (
                        await _call(self._rooms().GetRoom, room_pb2.GetRoomRequest(room_id=room.room_id))
                    ).room.status
                except grpc.aio.AioRpcError:
                    status = None
                if status == common_pb2.ROOM_STATUS_FINISHED:
                    self.tally.games_finished += 1
                    return
                await asyncio.sleep(0.05)
                continue
            count += 1
            request = move_pb2.SubmitMoveRequest(
                room_id=room.room_id,
                move=self.rng.choice(list(legal.moves)),
                request_id=f"{prefix}-{room.room_id}-{count}",
                expected_version=legal.version,
            )
            await self._submit(request, seat, give_up)

    async def _submit(self, request: move_pb2.SubmitMoveRequest, seat: Any, give_up: float) -> None:
        sent_again = False
        delay = 0.1
        while True:
            try:
                answer = await _call(self._moves().SubmitMove, request, metadata=seat)
            except grpc.aio.AioRpcError as error:
                if error.code() in RETRIABLE and time.monotonic() < give_up:
                    if not sent_again:
                        self.tally.retried += 1
                    sent_again = True
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 1.0)
                    continue
                if error.code() in RETRIABLE:
                    self.tally.given_up += 1
                else:
                    self.tally.refused += 1
                return
            self.tally.acknowledged.append((request.room_id, request.request_id, answer.version))
            self.tally.retried_answered += sent_again
            return


async def _nemesis(
    nodes: list[SoakNode],
    until: Deadline,
    every: tuple[float, float],
    lease: float,
    rng: random.Random,
    plan: tuple[str, ...],
    leases: tuple[float, float],
) -> dict[str, int]:
    """One fault at a time on a node at random, healed before the next (each of ``plan`` in turn, then at random);
    returns how many of each kind. Play goes on until every fault of ``plan`` has struck (``until`` moves on)."""
    struck: dict[str, int] = dict.fromkeys(FAULTS, 0)
    planned = list(plan)
    while True:
        await asyncio.sleep(rng.uniform(*every))
        if until.passed():
            if not planned:
                return struck
            until.at = time.monotonic() + every[1] + 2 * leases[1] * lease  # (play on through the fault to come)
        node = rng.choice(nodes)
        fault = planned.pop(0) if planned else rng.choice(FAULTS)
        struck[fault] += 1
        lasting = rng.uniform(*leases) * lease
        print(f"nemesis: {fault} {node.name} for {lasting:.1f} s", file=sys.stderr)
        if fault == "kill":
            await node.kill()
            await node.start()
        elif fault == "stop":
            node.signal(signal.SIGSTOP)
            node.stopped = True
            await asyncio.sleep(lasting)
            node.signal(signal.SIGCONT)
            node.stopped = False
        elif fault == "peers":
            node.peers.freeze()
            await asyncio.sleep(lasting)
            node.peers.thaw()
        else:
            if fault == "store-reject":
                node.store.refusing = True
            node.store.freeze()
            if fault in ("store-reset", "store-reject"):
                node.store.reset()
            await asyncio.sleep(lasting)
            node.store.refusing = False
            node.store.thaw()


async def _check(url: str, tally: Tally) -> dict[str, Any]:
    """Read every room's log back and hold it against what the people were told."""
    import asyncpg

    connection = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        rows = await connection.fetch(
            "SELECT room_id, version, request_id, epoch FROM room_log ORDER BY room_id, version"
        )
    finally:
        await connection.close()
    logs: dict[str, list[Any]] = {}
    for row in rows:
        logs.setdefault(row["room_id"], []).append(row)
    missing = []
    for room_id, request_id, version in tally.acknowledged:
        lines = logs.get(room_id, [])
        at = lines[version - 1] if 0 < version <= len(lines) else None
        if at is None or at["request_id"] != request_id:
            missing.append((room_id, request_id, version, at["request_id"] if at is not None else None))
    twice = gaps = epochs_back = 0
    for lines in logs.values():
        ids = [line["request_id"] for line in lines if line["request_id"]]
        twice += len(ids) - len(set(ids))
        gaps += [line["version"] for line in lines] != list(range(1, len(lines) + 1))
        epochs = [line["epoch"] for line in lines]
        epochs_back += epochs != sorted(epochs)
    return {
        "log_lines": len(rows),
        "lost": len(missing),
        "lost_examples": [list(item) for item in missing[:5]],
        "request_ids_twice": twice,
        "logs_with_gaps": gaps,
        "logs_with_epochs_going_back": epochs_back,
    }


async def soak(
    admin_url: str,
    *,
    nodes: int = 3,
    rooms: int = 24,
    seconds: float = 90.0,
    every: tuple[float, float] = (8.0, 15.0),
    lease: float = 4.0,
    renew: float = 1.0,
    seed: int = 0,
    plan: tuple[str, ...] = (),
    leases: tuple[float, float] = (1.0, 3.0),
) -> dict[str, Any]:
    """The soak (see the module docstring); its figures and findings, ``ok`` False when anything was lost. ``plan``:
    the first faults, in order (then the seed picks); ``leases``: how long a fault lasts, in leases (low, high)."""
    unknown = set(plan) - set(FAULTS)
    if unknown:
        raise ValueError(f"no such fault: {', '.join(sorted(unknown))} (faults: {', '.join(FAULTS)})")
    if not admin_url.startswith("postgresql"):
        raise ValueError("--database-url must name a PostgreSQL database (the nodes' shared store)")
    rng = random.Random(seed)
    name = f"kickoff_nemesis_{uuid.uuid4().hex[:8]}"
    url = await database(admin_url, name)
    scratch = tempfile.TemporaryDirectory(prefix="kickoff-nemesis-")
    env = {k: v for k, v in os.environ.items() if k not in ("KICKOFF_TOKEN_SECRET", "KICKOFF_DATABASE_URL")} | UNLIMITED
    env |= {"KICKOFF_LEASE_SECONDS": f"{lease:g}", "KICKOFF_RENEW_SECONDS": f"{renew:g}"}
    host, port = url.split("@", 1)[1].split("/", 1)[0].rsplit(":", 1)
    members: list[SoakNode] = []
    channels: dict[str, grpc.aio.Channel] = {}
    tally = Tally()
    started = time.monotonic()
    try:
        for index in range(nodes):
            node_port = free_port()
            store = await Freezer(f"{host}:{port}").start()
            peers = await Freezer(f"127.0.0.1:{node_port}").start()
            relay_host, relay_port = store.address.rsplit(":", 1)
            node_url = url.replace(f"{host}:{port}", f"{relay_host}:{relay_port}")
            log = Path(scratch.name) / f"node-{index}.log"
            members.append(SoakNode(f"nemesis-{index}", node_port, store, peers, node_url, env, log))
        await asyncio.gather(*(member.start() for member in members))
        targets = [member.target for member in members]
        channels = {target: grpc.aio.insecure_channel(target) for target in targets}
        until = Deadline(time.monotonic() + seconds)
        people = [Person(targets, channels, random.Random(rng.random()), tally) for _ in range(rooms)]
        playing = [asyncio.ensure_future(person.play(until, f"p{index}")) for index, person in enumerate(people)]
        struck = await _nemesis(members, until, every, lease, rng, plan, leases)
        await asyncio.gather(*playing)
        found = await _check(url, tally)
    finally:
        for member in members:
            member.store.refusing = False
            member.store.thaw()
            member.peers.thaw()
        await asyncio.gather(*(member.stop_gracefully() for member in members), return_exceptions=True)
        for channel in channels.values():
            await channel.close()
        for member in members:
            await member.store.close()
            await member.peers.close()
        with contextlib.suppress(Exception):
            await database(admin_url, name, drop=True)
        scratch.cleanup()
    ok = not (
        found["lost"] or found["request_ids_twice"] or found["logs_with_gaps"] or found["logs_with_epochs_going_back"]
    )
    return {
        "nodes": nodes,
        "rooms_at_once": rooms,
        "seconds": round(time.monotonic() - started, 1),
        "lease_seconds": lease,
        "faults": struck,
        "rooms_played": tally.rooms,
        "games_finished": tally.games_finished,
        "moves_acknowledged": len(tally.acknowledged),
        "sent_again": tally.retried,
        "sent_again_answered": tally.retried_answered,
        "refused": tally.refused,
        "given_up": tally.given_up,
        **found,
        "ok": ok,
    }


def nemesis_report(figures: dict[str, Any]) -> str:
    faults = ", ".join(f"{kind} {count}" for kind, count in figures["faults"].items() if count)
    lines = [
        f"nemesis: {figures['nodes']} nodes, {figures['rooms_at_once']} rooms at once, {figures['seconds']} s, "
        f"lease {figures['lease_seconds']:g} s; faults: {faults or 'none'}",
        f"  {figures['moves_acknowledged']} moves acknowledged in {figures['rooms_played']} rooms "
        f"({figures['games_finished']} games finished); {figures['sent_again']} sent again with the same id "
        f"({figures['sent_again_answered']} answered OK), {figures['refused']} refused, {figures['given_up']} given up",
        f"  log: {figures['log_lines']} lines; lost {figures['lost']}, "
        f"request ids twice {figures['request_ids_twice']}, logs with gaps {figures['logs_with_gaps']}, "
        f"logs whose epochs go back {figures['logs_with_epochs_going_back']}",
        "  OK: every acknowledged move is in its log exactly once, at its version" if figures["ok"] else "  FAILED",
    ]
    if figures["lost_examples"]:
        lines.append(f"  lost (room, request id, version told, what the log holds there): {figures['lost_examples']}")
    return "\n".join(lines)
