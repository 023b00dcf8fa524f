"""The proof of the cluster, with real processes on the throwaway PostgreSQL: three `kickoff grpc` nodes and a REST
gateway in front of all three; 60 rooms (each a person and three system players: 30 people on Play streams, 15 on
unary moves with an event stream, 15 over REST with server-sent events) and a tournament of system players. While
moves are in flight, one node is killed with SIGKILL at a seeded moment; later another is stopped with SIGTERM (it
drains). Every room and the tournament finish on what is left, every acknowledged move is in its room's log exactly
once, every client's updates come without gap or repeat across its reconnections, no client hears any error but a
retriable UNAVAILABLE (503 over REST), and every log's epochs never go down (no room ever had two writers)."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import httpx
from sqlalchemy import text

from kickoff.v1 import move_pb2, move_pb2_grpc, room_pb2, room_pb2_grpc, tournament_pb2, tournament_pb2_grpc
from service.store.database import create_engine, upgrade_in_thread
from tests.cluster.nodes import Node
from tests.cluster.nodes import start_node as start_cluster_node
from tests.conftest import empty_database
from tests.processes import free_port

SEED = 2026
STREAM_ROOMS, UNARY_ROOMS, REST_ROOMS = 30, 15, 15
HAND = 11
FINISHED = 3  # ROOM_STATUS_FINISHED / TOURNAMENT_STATUS_FINISHED
NODE_ENV = {
    "KICKOFF_LEASE_SECONDS": "2",
    "KICKOFF_RENEW_SECONDS": "0.5",
    "KICKOFF_CREATE_RATE": "off",
    "KICKOFF_JOIN_RATE": "off",
    "KICKOFF_STREAMS_PER_CALLER": "0",
    "KICKOFF_GRACE_SECONDS": "5",
}


def auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def raced_write(error: grpc.aio.AioRpcError) -> bool:
    """grpcio's client reports INTERNAL ("Internal error from Core"), in place of the status the server sent, when
    one of the client's own operations on a stream (a write, its half-close) crosses the server's end of the stream:
    the operation fails in the core (grpc/grpc issue 36066). Its debug string most often names the batch that failed
    ('Failed "execute_batch"'), and sometimes only repeats the code and the text ("INTERNAL:Internal error from
    Core"). The server said UNAVAILABLE (it moved the room); the client knows only that the stream ended, and comes
    back, as after UNAVAILABLE. This server's own INTERNAL reads otherwise ("internal error: the server logged it"),
    so it is still an error here."""
    return error.code() == grpc.StatusCode.INTERNAL and error.details() == "Internal error from Core"


def retry_delay(tries: int) -> float:
    """A client's backoff after a retriable refusal: 20 ms, doubling, at most 400 ms."""
    return min(0.02 * 2**tries, 0.4)


def start_node(name: str, url: str, tmp: Path) -> Node:
    return start_cluster_node(name, url, tmp, NODE_ENV)


def start_gateway(targets: list[str], tmp: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    log = tmp / "gateway.log"
    command = [sys.executable, "-m", "cli", "gateway", "--port", str(port)]
    command += ["--grpc-target", ",".join(targets), "--timeout", "10"]
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:  # (a process starting: nothing to be told by, but its port)
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return process, port
        assert process.poll() is None, log.read_text()
        time.sleep(0.05)
    raise AssertionError("the gateway did not start")


@dataclass
class Player:
    """One person's seat and what its client saw: every update's version in order, its acknowledged moves, and any
    error that was not a retriable UNAVAILABLE."""

    room_id: str
    token: str
    seat: int
    versions: list[int] = field(default_factory=list)
    acks: dict[str, int] = field(default_factory=dict)  # request id -> version
    errors: list[str] = field(default_factory=list)
    reconnects: int = 0
    times: list[float] = field(default_factory=list)  # when each update arrived (monotonic)
    connections: list[float] = field(default_factory=list)  # when each of its streams was opened
    tries: int = 0  # reconnections since the last update
    finished: bool = False
    moves: int = 0
    raced: int = 0  # streams that grpcio ended with its own INTERNAL for a write that crossed the server's status
    cancelled: list[tuple[int, float]] = field(default_factory=list)  # (node, when) of each CANCELLED heard

    def retriable(self, error: grpc.aio.AioRpcError, node: int) -> bool:
        """Whether the client comes back after ``error`` (through the next node): UNAVAILABLE; the INTERNAL of a
        write that crossed the end of its stream; CANCELLED, which grpc answers to the calls that reach a server as
        it stops (grpc/grpc issue 41785: the server is unavailable, it did not act on them). Each CANCELLED is noted
        with where and when it was heard: the test checks that only the node it stopped said it, as it stopped."""
        if raced_write(error):
            self.raced += 1
            return True
        if error.code() == grpc.StatusCode.CANCELLED:
            self.cancelled.append((node, time.monotonic()))
            return True
        return error.code() == grpc.StatusCode.UNAVAILABLE

    progress: Progress | None = None

    @property
    def last(self) -> int:
        return self.versions[-1] if self.versions else 0

    def connected(self) -> None:
        self.connections.append(time.monotonic())

    async def come_back(self, node: int, nodes: int) -> int:
        """After a stream ended early: wait (backing off while nothing comes) and take the next node."""
        self.reconnects += 1
        await asyncio.sleep(retry_delay(self.tries))
        self.tries += 1
        return (node + 1) % nodes

    def served_again(self, since: float) -> float | None:
        """When the first update came on a stream opened after ``since`` (None: none did)."""
        opened = [t for t in self.connections if t > since]
        return min((t for t in self.times if t > opened[0]), default=None) if opened else None

    def saw(self, version: int) -> None:
        self.tries = 0
        self.versions.append(version)
        self.times.append(time.monotonic())
        if self.progress is not None:
            self.progress.changed()

    def next_request_id(self) -> str:
        self.moves += 1
        return f"{self.room_id[:6]}-{self.moves}"


class Progress:
    """Counts acknowledged moves and wakes whoever waits for something the clients saw (checked at every update and
    every acknowledgment)."""

    def __init__(self) -> None:
        self.acks = 0
        self._waiting: list[tuple[Callable[[], bool], asyncio.Future[None]]] = []

    def ack(self, player: Player, request_id: str, version: int) -> None:
        known = player.acks.setdefault(request_id, version)
        if known != version:
            player.errors.append(f"{request_id} acknowledged as {known} and as {version}")
        self.acks += 1
        self.changed()

    def changed(self) -> None:
        for test, future in self._waiting:
            if not future.done() and test():
                future.set_result(None)

    async def until(self, test: Callable[[], bool]) -> None:
        if test():
            return
        future = asyncio.get_running_loop().create_future()
        self._waiting.append((test, future))
        await future


async def play_stream(player: Player, channels: list[grpc.aio.Channel], start: int, progress: Progress) -> None:
    """A person on a Play stream: a move whenever its seat must act; on UNAVAILABLE, the next node, resuming after
    the last version seen and sending its move in flight again (the same request id)."""
    node = start
    pending: move_pb2.SubmitMoveRequest | None = None
    latest: move_pb2.RoomUpdate | None = None

    def choose(update: move_pb2.RoomUpdate) -> move_pb2.SubmitMoveRequest | None:
        if player.seat not in update.to_act or not update.legal_moves:
            return None
        return move_pb2.SubmitMoveRequest(
            room_id=player.room_id,
            move=update.legal_moves[0],
            request_id=player.next_request_id(),
            expected_version=update.version,
        )

    while not player.finished:
        outbox: asyncio.Queue[move_pb2.PlayRequest] = asyncio.Queue()
        if pending is None and latest is not None:
            pending = choose(latest)
        if pending is not None:
            outbox.put_nowait(move_pb2.PlayRequest(move=pending))

        async def requests(after: int = player.last, outbox=outbox):
            yield move_pb2.PlayRequest(hello=move_pb2.PlayHello(room_id=player.room_id, after_version=after))
            while (request := await outbox.get()) is not None:  # (None: the stream is over)
                yield request

        player.connected()
        call = move_pb2_grpc.MoveServiceStub(channels[node]).Play(requests(), metadata=auth(player.token))
        try:
            async for message in call:
                if message.HasField("update"):
                    update = message.update
                    if update.version != player.last + 1:
                        player.errors.append(f"update {update.version} after {player.last}")
                    player.saw(update.version)
                    latest = update
                    if message.HasField("result") and message.result.accepted:
                        progress.ack(player, message.result.request_id, message.result.version)
                        if pending is not None and pending.request_id == message.result.request_id:
                            pending = None
                    if update.status == FINISHED:
                        player.finished = True
                        break
                    if pending is None:
                        pending = choose(update)
                        if pending is not None:
                            outbox.put_nowait(move_pb2.PlayRequest(move=pending))
                    continue
                result = message.result  # an answer of the stream's own: a refusal, or a retried move's answer
                if result.accepted:
                    progress.ack(player, result.request_id, result.version)
                    pending = None
                elif result.error.code == grpc.StatusCode.UNAVAILABLE.value[0]:
                    break  # the room is moving: come back (through the next node)
                else:  # stale (a system player moved first): the next update brings the seat's turn again
                    pending = None
                    if latest is not None and latest.version == result.version:
                        pending = choose(latest)
                        if pending is not None:
                            outbox.put_nowait(move_pb2.PlayRequest(move=pending))
        except grpc.aio.AioRpcError as error:
            if not player.retriable(error, node):
                player.errors.append(
                    f"play stream: {error.code().name}: {error.details()} ({error.debug_error_string()})"
                )
                return
        finally:
            outbox.put_nowait(None)
            call.cancel()
        if not player.finished:
            node = await player.come_back(node, len(channels))


async def watch_tournament(watcher: Player, channels: list[grpc.aio.Channel]) -> None:
    """A spectator of the tournament's stream, to its end: through the next node on UNAVAILABLE, resuming after the
    last version seen."""
    node = 0
    while not watcher.finished:
        stream = tournament_pb2_grpc.TournamentServiceStub(channels[node]).StreamTournament(
            tournament_pb2.StreamTournamentRequest(tournament_id=watcher.room_id, after_version=watcher.last)
        )
        try:
            async for message in stream:
                if message.update.version != watcher.last + 1:
                    watcher.errors.append(f"update {message.update.version} after {watcher.last}")
                watcher.saw(message.update.version)
                if message.update.tournament.status == FINISHED:
                    watcher.finished = True
        except grpc.aio.AioRpcError as error:
            if not watcher.retriable(error, node):
                watcher.errors.append(f"tournament stream: {error.code().name}: {error.details()}")
                return
        finally:
            stream.cancel()
        if not watcher.finished:
            node = await watcher.come_back(node, len(channels))


async def play_unary(player: Player, channels: list[grpc.aio.Channel], start: int, progress: Progress) -> None:
    """A person on unary moves, told of the room's updates by an event stream (both through the same node, the next
    one on UNAVAILABLE, where it first sends the move it was about to send, or owes)."""
    node = start
    pending: move_pb2.SubmitMoveRequest | None = None
    latest: move_pb2.RoomUpdate | None = None

    async def submit(moves: move_pb2_grpc.MoveServiceStub) -> None:
        nonlocal pending
        if pending is None and latest is not None and player.seat in latest.to_act and latest.legal_moves:
            pending = move_pb2.SubmitMoveRequest(
                room_id=player.room_id,
                move=latest.legal_moves[0],
                request_id=player.next_request_id(),
                expected_version=latest.version,
            )
        if pending is None:
            return
        try:
            answer = await moves.SubmitMove(pending, metadata=auth(player.token))
            progress.ack(player, pending.request_id, answer.version)
        except grpc.aio.AioRpcError as error:
            if player.retriable(error, node):
                raise  # (the same request again, through the next node)
            if error.code() not in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION):
                player.errors.append(f"submit: {error.code().name}: {error.details()}")
        pending = None

    while not player.finished and not player.errors:
        moves = move_pb2_grpc.MoveServiceStub(channels[node])
        player.connected()
        stream = moves.StreamEvents(
            move_pb2.StreamEventsRequest(room_id=player.room_id, after_version=player.last),
            metadata=auth(player.token),
        )
        try:
            await submit(moves)
            async for message in stream:
                update = message.update
                if update.version != player.last + 1:
                    player.errors.append(f"update {update.version} after {player.last}")
                player.saw(update.version)
                latest = update
                if update.status == FINISHED:
                    player.finished = True
                    break
                await submit(moves)
        except grpc.aio.AioRpcError as error:
            if not player.retriable(error, node):
                player.errors.append(f"event stream: {error.code().name}: {error.details()}")
                return
        finally:
            stream.cancel()
        if not player.finished:
            node = await player.come_back(node, len(channels))


async def play_rest(player: Player, http: httpx.AsyncClient, progress: Progress) -> None:
    """A person over REST: the room's server-sent events (resuming with Last-Event-ID) and POSTed moves, each sent
    again with its request id while the gateway answers 503."""
    headers = {"authorization": f"Bearer {player.token}"}
    while not player.finished:
        try:
            player.connected()
            async with http.stream(
                "GET",
                f"/v1/rooms/{player.room_id}/events",
                headers={**headers, "last-event-id": str(player.last)},
                timeout=httpx.Timeout(30, read=None),
            ) as answer:
                if answer.status_code == 503:
                    raise ConnectionResetError("503")
                if answer.status_code == 204:
                    player.finished = True
                    break
                if answer.status_code != 200:
                    player.errors.append(f"events: {answer.status_code}: {(await answer.aread())[:200]!r}")
                    return
                event, data = "", ""
                async for line in answer.aiter_lines():
                    if line.startswith("event:"):
                        event = line[6:].strip()
                    elif line.startswith("data:"):
                        data = line[5:].strip()
                    elif line == "" and data:
                        if event == "end":
                            player.finished = True
                            break
                        update = json.loads(data)
                        event, data = "", ""
                        version = int(update["version"])
                        if version != player.last + 1:
                            player.errors.append(f"update {version} after {player.last}")
                        player.saw(version)
                        if update.get("status") == "ROOM_STATUS_FINISHED":
                            player.finished = True
                            break
                        if player.seat in update.get("toAct", []) and update.get("legalMoves"):
                            await post_move(player, http, headers, update, progress)
        except (httpx.TransportError, ConnectionResetError):
            pass
        if not player.finished:
            await player.come_back(0, 1)  # (the gateway picks the node)


async def post_move(
    player: Player, http: httpx.AsyncClient, headers: dict[str, str], update: dict, progress: Progress
) -> None:
    body = {
        "move": update["legalMoves"][0],
        "requestId": player.next_request_id(),
        "expectedVersion": update["version"],
    }
    for tries in range(200):
        try:
            answer = await http.post(f"/v1/rooms/{player.room_id}/moves", json=body, headers=headers)
        except httpx.TransportError:
            answer = None
        if answer is not None and answer.status_code == 201:
            progress.ack(player, body["requestId"], int(answer.json()["version"]))
            return
        if answer is not None and answer.status_code == 409:
            return  # a system player moved first: the next update says what now
        if answer is not None and answer.status_code != 503:
            player.errors.append(f"move: {answer.status_code}: {answer.text[:200]}")
            return
        await asyncio.sleep(retry_delay(tries))
    player.errors.append("move: 503 for ever")


async def test_a_killed_node_and_a_drained_node_lose_nothing(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    url = await empty_database("postgresql", tmp_path)
    await upgrade_in_thread(url)
    nodes = [start_node(f"n{i}", url, tmp_path) for i in range(3)]
    gateway, http_port = start_gateway([node.target for node in nodes], tmp_path)
    channels = [
        grpc.aio.insecure_channel(node.target, options=[("grpc.use_local_subchannel_pool", 1)]) for node in nodes
    ]
    http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{http_port}", timeout=30)
    victim, drained = rng.sample(range(3), 2)
    try:
        # The tournament starts on the node that will be killed; rooms are created on every node in turn.
        tournaments = tournament_pb2_grpc.TournamentServiceStub(channels[victim])
        created = await tournaments.CreateTournament(
            tournament_pb2.CreateTournamentRequest(game="soker", mode=1, system_players=4, think_seconds=0.005)
        )
        tournament_id = created.tournament.tournament_id
        players: list[tuple[str, Player, int]] = []
        progress = Progress()
        kinds = ["stream"] * STREAM_ROOMS + ["unary"] * UNARY_ROOMS + ["rest"] * REST_ROOMS
        for number, kind in enumerate(kinds):
            rooms = room_pb2_grpc.RoomServiceStub(channels[number % 3])
            request = room_pb2.CreateRoomRequest(game="soker", mode=1, seats=4, system_players=3, think_seconds=0)
            request.options.update({"hand_size": HAND})  # (longer games: some 1,000 moves of people in all)
            room = (await rooms.CreateRoom(request)).room
            joined = await rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room.room_id, name=f"p{number}"))
            player = Player(room.room_id, joined.seat_token, joined.seat, progress=progress)
            players.append((kind, player, number % 3))
        owned_by_victim = await owners(url, nodes[victim].name)
        tasks = []
        for kind, player, node in players:
            if kind == "stream":
                tasks.append(play_stream(player, channels, node, progress))
            elif kind == "unary":
                tasks.append(play_unary(player, channels, node, progress))
            else:
                tasks.append(play_rest(player, http, progress))
        watcher = Player(tournament_id, "", -1, progress=progress)
        tasks.append(watch_tournament(watcher, channels))
        playing = asyncio.ensure_future(asyncio.gather(*tasks))

        async def until(test: Callable[[], bool], what: str) -> None:
            """Until ``test`` holds (the games are not over by then: with 11 cards a hand, a game is some 15 moves
            of its person, so the 60 rooms make about 1,000)."""
            reached = asyncio.ensure_future(progress.until(test))
            await asyncio.wait([reached, playing], return_when=asyncio.FIRST_COMPLETED)
            reached.cancel()
            errors = [p.errors for _, p, _ in players if p.errors]
            assert test(), f"the games ended after {progress.acks} moves, before {what}; errors: {errors}"

        # SIGKILL at a seeded moment, while moves are in flight; once the survivors have claimed the killed node's
        # rooms, SIGTERM to one of them: it drains, handing over its own rooms and those it just claimed.
        kill_at = rng.randint(100, 200)
        await until(lambda: progress.acks >= kill_at, f"move {kill_at}")
        nodes[victim].process.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        await claimed_from(url, nodes[victim].name)
        drain_at = progress.acks + rng.randint(1, 10)
        await until(lambda: progress.acks >= drain_at, f"move {drain_at}")
        nodes[drained].process.send_signal(signal.SIGTERM)
        drained_at = time.monotonic()
        done, _ = await asyncio.wait([playing], timeout=240)
        stuck = [(kind, p.room_id, p.last, p.reconnects, p.errors) for kind, p, _ in players if not p.finished]
        assert done and not stuck and watcher.finished, f"unfinished after 240 s: {stuck}, tournament {watcher.last}"
        assert nodes[drained].process.wait(timeout=30) == 0  # drained and stopped by itself

        everyone = [player for _, player, _ in players]
        errors = [p.errors for p in [*everyone, watcher] if p.errors]
        assert not errors, errors
        cancelled = [heard for p in [*everyone, watcher] for heard in p.cancelled]
        assert all(node == drained and when >= drained_at for node, when in cancelled), cancelled
        assert watcher.finished and watcher.versions == list(range(1, watcher.last + 1))
        for player in everyone:
            assert player.finished and player.versions == list(range(1, player.last + 1)), player.room_id

        engine = create_engine(url)
        async with engine.connect() as connection:
            for player in everyone:
                log = (
                    await connection.execute(
                        text("SELECT version, request_id, epoch FROM room_log WHERE room_id = :r ORDER BY version"),
                        {"r": player.room_id},
                    )
                ).all()
                assert [line.version for line in log] == list(range(1, player.last + 1))
                epochs = [line.epoch for line in log]
                assert epochs == sorted(epochs), f"two writers in room {player.room_id}: {epochs}"
                stored = [line.request_id for line in log if line.request_id]
                assert len(stored) == len(set(stored))  # no request applied twice
                for request_id, version in player.acks.items():
                    assert log[version - 1].request_id == request_id  # every acknowledged move, where it was told
            status = (
                await connection.execute(
                    text("SELECT status FROM tournaments WHERE tournament_id = :t"), {"t": tournament_id}
                )
            ).scalar_one()
            results = (
                await connection.execute(
                    text("SELECT epoch FROM tournament_log WHERE tournament_id = :t ORDER BY version"),
                    {"t": tournament_id},
                )
            ).all()
            game_rooms = (
                await connection.execute(
                    text("SELECT room_id, status FROM rooms WHERE tournament_id = :t"), {"t": tournament_id}
                )
            ).all()
            leases = (await connection.execute(text("SELECT count(*) FROM leases"))).scalar_one()
        await engine.dispose()
        assert status == "finished" and len(game_rooms) == 8 and {r.status for r in game_rooms} == {"finished"}
        assert [r.epoch for r in results] == sorted(r.epoch for r in results)
        assert leases == 0  # every room and the tournament finished: no lease is left

        # Figures: how long the killed node's rooms went without an update, and what the clients went through.
        served = [p.served_again(killed) for p in everyone if p.room_id in owned_by_victim]
        gaps = [when - killed for when in served if when is not None]
        print(
            f"\nfailover: {len(gaps)} rooms of the killed node served again {max(gaps):.2f} s after the kill at most "
            f"(median {sorted(gaps)[len(gaps) // 2]:.2f} s; lease 2 s, renewed every 0.5 s); "
            f"{progress.acks} moves acknowledged; reconnections {sum(p.reconnects for p in everyone)} "
            f"({sum(p.raced for p in everyone)} after a write crossed the end of a stream, {len(cancelled)} after a "
            "CANCELLED from the stopping node); "
            f"drain at +{drained_at - killed:.1f} s"
        )
    finally:
        await http.aclose()
        for channel in channels:
            await channel.close()
        gateway.terminate()
        for node in nodes:
            if node.process.poll() is None:
                node.process.kill()
        for process in [gateway, *(node.process for node in nodes)]:
            process.wait(timeout=30)


async def claimed_from(url: str, node_id: str) -> None:
    """Until no lease names ``node_id`` (the other nodes claimed everything it held), asking the store every 50 ms:
    the nodes are other processes, and the store is where they say what they did."""
    deadline = time.monotonic() + 60
    while await owners(url, node_id):
        assert time.monotonic() < deadline, f"nothing claimed node {node_id}'s rooms in 60 s"
        await asyncio.sleep(0.05)


async def owners(url: str, node_id: str) -> set[str]:
    engine = create_engine(url)
    async with engine.connect() as connection:
        rows = await connection.execute(text("SELECT target_id FROM leases WHERE node_id = :n"), {"n": node_id})
        found = {row.target_id for row in rows}
    await engine.dispose()
    return found
