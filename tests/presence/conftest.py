"""Two nodes of one store, each a server with players, friends and presence (tests/servers.py's), whose presence
rounds run only when a test says (``node.presence.flush()`` writes what changed there, ``watch.look()`` reads what
its streams follow), and helpers that call PresenceService as a signed-in player."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import insert, update

from kickoff.v1 import friend_pb2, player_pb2, presence_pb2, presence_pb2_grpc
from service.presence.presence import Presence
from service.settings import PresenceSettings
from service.store.database import create_engine
from service.store.journal import SqlJournal
from service.store.models import NodeRow
from tests.server.conftest import Harness, auth
from tests.servers import Start

SETTINGS = PresenceSettings(online_seconds=60, poll_seconds=1, max_followers=3, page_size=5)
TIMEOUT = 10.0  # (a stream's next message: it comes once a round has run; this only bounds a broken test)


@dataclass
class Node:
    """One node: its server (and harness) and presence."""

    harness: Harness
    node_id: str

    @property
    def presence(self) -> Presence:
        return self.harness.presence  # type: ignore[no-any-return]

    @property
    def stub(self) -> presence_pb2_grpc.PresenceServiceStub:
        return presence_pb2_grpc.PresenceServiceStub(self.harness.channel)

    async def guest(self, name: str) -> player_pb2.Session:
        request = player_pb2.SignInAsGuestRequest(name=name)
        return (await self.harness.players.SignInAsGuest(request)).session

    async def get(self, session: player_pb2.Session, **fields: Any) -> presence_pb2.GetPresenceResponse:
        request = presence_pb2.GetPresenceRequest(**fields)
        return await self.stub.GetPresence(request, metadata=auth(session.access_token))

    def follow(self, session: player_pb2.Session, after: int = 0) -> Any:
        request = presence_pb2.FollowPresenceRequest(after_cursor=after)
        return self.stub.FollowPresence(request, metadata=auth(session.access_token))

    async def until(self, check: Callable[[], bool]) -> None:
        """Wait until this node's presence says ``check`` (a stream's server side opened or closed): each change
        here sets ``presence.kick``."""
        async with asyncio.timeout(TIMEOUT):
            while True:
                self.presence.kick.clear()
                if check():
                    return
                await self.presence.kick.wait()


@dataclass
class Pair:
    """Two nodes on one database."""

    a: Node
    b: Node

    async def befriend(self, one: player_pb2.Session, other: player_pb2.Session) -> None:
        """``one`` (on node a) asks ``other`` by friend code (read on node b); ``other`` accepts on node b."""
        friends_a, friends_b = self.a.harness.friends, self.b.harness.friends
        code = await friends_b.GetFriendCode(friend_pb2.GetFriendCodeRequest(), metadata=auth(other.access_token))
        request = friend_pb2.SendFriendRequestRequest(friend_code=code.friend_code)
        await friends_a.SendFriendRequest(request, metadata=auth(one.access_token))
        accept = friend_pb2.AcceptFriendRequestRequest(player_id=one.player.player_id)
        await friends_b.AcceptFriendRequest(accept, metadata=auth(other.access_token))

    async def kill(self, node: Node) -> None:
        """The node's lease ran out (it died): its row expired in the store."""
        async with node.presence.engine.begin() as connection:
            await connection.execute(update(NodeRow).where(NodeRow.node_id == node.node_id).values(expires_at=1.0))


async def live_nodes(url: str, *node_ids: str) -> None:
    """Nodes' rows, alive for an hour (these tests renew no lease: service/cluster's loops do not run)."""
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            rows = [
                {"node_id": n, "address": "", "incarnation": "x", "expires_at": time.time() + 3600, "started_at": 0.0}
                for n in node_ids
            ]
            await connection.execute(insert(NodeRow), rows)
    finally:
        await engine.dispose()


async def next_presence(call: Any) -> presence_pb2.FriendPresence:
    async with asyncio.timeout(TIMEOUT):
        return (await call.read()).presence


@pytest.fixture
async def pair(start: Start, database_url: str) -> AsyncIterator[Pair]:
    await live_nodes(database_url, "a", "b")
    nodes = []
    for node_id in ("a", "b"):
        journal = SqlJournal(create_engine(database_url))
        nodes.append(Node(await start(journal=journal, presence=SETTINGS, node_id=node_id), node_id))
    yield Pair(*nodes)
