"""Nodes of a cluster in this process, on one fresh PostgreSQL database: each a gRPC server on port 0 with its own
directories, journal and lease node. Their lease loops do not run: a test renews, sweeps and "kills" nodes itself
(a node is dead once its row has expired: :meth:`Cluster.expire`), so nothing waits on a real lease to run out."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest
from sqlalchemy import make_url, text

from kickoff.v1 import move_pb2, move_pb2_grpc, player_pb2_grpc, room_pb2, room_pb2_grpc, tournament_pb2_grpc
from service.actors.runtime import Runtime
from service.chat.chat import Chat
from service.cluster.node import Node
from service.friends.store import FriendStore
from service.grpc.server import KickoffServer, create_server
from service.grpc.tokens import SeatTokens
from service.inbox.inbox import Inbox
from service.players.identity import ExternalTokens
from service.players.players import Players, page_key
from service.players.store import PlayerStore
from service.rooms.clock import ManualClock
from service.rooms.directory import RoomDirectory
from service.settings import ChatSettings, FriendSettings, InboxSettings, NodeSettings, WebhookSettings
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from service.store.leases import NOW
from service.store.records import LogEntry
from service.tournaments.directory import TournamentDirectory
from service.webhooks.outbox import Outbox
from tests.conftest import empty_database
from tests.freeze import Freezer
from tests.room_ids import room_ids_for_test

SECRET = b"a test secret of 32 bytes......."


def auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


@dataclass
class Member:
    """One node: its server, directories, journal (rating players' games), lease node and runtime, and a channel to
    it."""

    node: Node
    server: KickoffServer
    rooms: RoomDirectory
    tournaments: TournamentDirectory
    journal: SqlJournal
    channel: grpc.aio.Channel
    freezer: Freezer | None = None  # in front of the node's port, for the other nodes (see tests/freeze.py)
    store: Freezer | None = None  # between the node and PostgreSQL: cuts it from the store (see tests/freeze.py)
    inbox: Inbox | None = None  # the players' inboxes, on a node started ``social`` (its watch looks when told)

    @property
    def runtime(self) -> Runtime:
        return self.rooms.runtime

    @property
    def room_stub(self) -> room_pb2_grpc.RoomServiceStub:
        return room_pb2_grpc.RoomServiceStub(self.channel)

    @property
    def move_stub(self) -> move_pb2_grpc.MoveServiceStub:
        return move_pb2_grpc.MoveServiceStub(self.channel)

    @property
    def player_stub(self) -> player_pb2_grpc.PlayerServiceStub:
        return player_pb2_grpc.PlayerServiceStub(self.channel)

    @property
    def tournament_stub(self) -> tournament_pb2_grpc.TournamentServiceStub:
        return tournament_pb2_grpc.TournamentServiceStub(self.channel)


class Monotonic:
    """A node's monotonic clock, what its lease is measured by (Node.lapsed), that moves only when a test moves it:
    the nodes' lease loops do not run here, so by the real clock every node would seem to have stopped renewing."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Cluster:
    url: str
    clock: ManualClock = field(default_factory=ManualClock)
    leases: Monotonic = field(default_factory=Monotonic)  # every node's, unless a test gives one its own
    members: dict[str, Member] = field(default_factory=dict)
    _seeds: itertools.count = field(default_factory=lambda: itertools.count(1))

    async def start(
        self,
        node_id: str,
        lease_seconds: float = 30.0,
        *,
        freezable: bool = False,
        cuttable: bool = False,
        monotonic: Callable[[], float] | None = None,
        max_live_rooms: int | None = None,
        max_live_tournaments: int | None = None,
        social: bool = False,
        chat: bool = False,
        **journal_options: Any,
    ) -> Member:
        """A node; ``freezable``: the other nodes reach it through a :class:`Freezer` (``member.freezer``);
        ``cuttable``: it reaches PostgreSQL through one (``member.store``); ``monotonic``: what its lease is measured
        by (``cluster.leases`` unless given); ``max_live_rooms``, ``max_live_tournaments``: its caps on live rooms
        and tournaments (none by default); ``social``: a whole node of issue 48, with the players' inboxes
        (``member.inbox``, written through the outbox in the journal's transactions, as a server assembles it; its
        watch looks only when the test calls ``member.inbox.watch.look()``) and FriendService; ``chat``: rooms' chat
        (issue 49; its settings the defaults, its time the cluster's clock); ``journal_options``: its journal's
        (``retry_seconds``, ``try_seconds``)."""
        store = None
        url = self.url
        if cuttable:
            address = make_url(self.url)
            store = await Freezer(f"{address.host}:{address.port}").start()
            host, port = store.address.rsplit(":", 1)
            url = address.set(host=host, port=int(port)).render_as_string(hide_password=False)
        engine = create_engine(url)
        players = PlayerStore(engine, self.clock.now, min_games=1, page_key=page_key(SECRET))
        journal = SqlJournal(engine, node_id=node_id, rater=players.rate, **journal_options)
        settings = NodeSettings(node_id=node_id, lease_seconds=lease_seconds, renew_seconds=lease_seconds / 4)
        node = Node.for_engine(engine, settings, "", monotonic=monotonic or self.leases)
        rooms = RoomDirectory(
            clock=self.clock,
            journal=journal,
            seed_source=lambda: next(self._seeds),
            default_think_seconds=0,
            max_live_rooms=max_live_rooms,
            room_ids=room_ids_for_test(),
            runtime=Runtime(node),
            rates=True,
        )
        tournaments = TournamentDirectory(rooms, max_live=max_live_tournaments)
        signing = Players(players, SECRET, ExternalTokens((), clock=self.clock.now))  # (every node: the same secret)
        inbox = friends = None
        if social:  # (as service/grpc/server.py's Assembly wires them: the outbox writes each event's inbox items)
            inbox = Inbox(engine, InboxSettings(), now=self.clock.now)
            outbox = Outbox(engine, WebhookSettings(), now=self.clock.now, inbox=inbox)
            journal.outbox = outbox
            friends = FriendStore(engine, self.clock.now, FriendSettings(), outbox)
        talk = Chat(engine, ChatSettings(), now=self.clock.now, clustered=True) if chat else None
        server = await create_server(
            rooms, SeatTokens(SECRET), tournaments=tournaments, players=signing, inbox=inbox, friends=friends, chat=talk
        )
        node.address = node.table.address = f"127.0.0.1:{server.port}"  # (known once the port is bound)
        freezer = await Freezer(node.address).start() if freezable else None
        if freezer is not None:
            node.address = node.table.address = freezer.address
        try:
            await node.join()
        except BaseException:
            await server.server.stop(0)
            await journal.close()
            raise
        await rooms.runtime.sweep()
        member = Member(
            node,
            server,
            rooms,
            tournaments,
            journal,
            grpc.aio.insecure_channel(f"127.0.0.1:{server.port}"),
            freezer,
            store,
            inbox,
        )
        self.members[f"{node_id}#{len(self.members)}"] = member
        return member

    async def start_again(self, node_id: str, lease_seconds: float = 30.0) -> Member:
        """Another process under a node id used before (the one before it died, or is still running)."""
        return await self.start(node_id, lease_seconds)

    async def expire(self, node_id: str) -> None:
        """The node's lease has run out (it died, or stalled): the others may claim its rooms."""
        async with self._direct().journal.engine.begin() as connection:
            await connection.execute(
                text(f"UPDATE nodes SET expires_at = {NOW} - 0.001 WHERE node_id = :id"), {"id": node_id}
            )

    async def log(self, room_id: str) -> list[LogEntry]:
        return await self._direct().journal.load("room", room_id)

    def _direct(self) -> Member:
        """A node that reaches the store directly (not through a relay that may cut it), where there is one."""
        members = list(self.members.values())
        return next((member for member in members if member.store is None), members[0])

    async def close(self) -> None:
        for member in self.members.values():
            member.runtime.stop()  # (a test that started a node's lease loops)
            await member.channel.close()
            await member.server.server.stop(0)
            await member.tournaments.close()
            await member.rooms.close()
            if member.server.forwarder is not None:
                await member.server.forwarder.close()
            if member.store is not None:
                member.store.thaw()
                member.store.refusing = False
            await member.journal.close()
            for relay in (member.freezer, member.store):
                if relay is not None:
                    await relay.close()


@pytest.fixture
async def cluster(tmp_path) -> AsyncIterator[Cluster]:
    url = await empty_database("postgresql", tmp_path)
    await upgrade_in_thread(url)
    running = Cluster(url)
    yield running
    await running.close()


async def create_room(member: Member, seats: int = 4, system_players: int = 3) -> room_pb2.Room:
    request = room_pb2.CreateRoomRequest(
        game="soker", mode=1, seats=seats, system_players=system_players, think_seconds=0
    )
    return (await member.room_stub.CreateRoom(request)).room


async def play_turn(member: Member, room_id: str, token: str, request_id: str) -> move_pb2.SubmitMoveResponse:
    """The person's first legal move, through ``member``."""
    legal = await member.move_stub.ListLegalMoves(move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(token))
    request = move_pb2.SubmitMoveRequest(
        room_id=room_id, move=legal.moves[0], request_id=request_id, expected_version=legal.version
    )
    return await member.move_stub.SubmitMove(request, metadata=auth(token))
