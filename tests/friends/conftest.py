"""A server with players, matchmaking, friends and webhooks on both stores (tests/servers.py's), its friends' bounds
small enough to reach in a few calls, and helpers that call FriendService as a signed-in player."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import select

from kickoff.v1 import friend_pb2, player_pb2, room_pb2
from service.settings import FriendSettings, Rate
from service.store.database import create_engine
from service.store.journal import SqlJournal
from service.store.models import WebhookDeliveryRow
from tests.server.conftest import Harness, auth
from tests.servers import Start
from tests.webhooks.conftest import SERVER_SETTINGS, add_endpoint

# Small bounds, so that each is reached in a few calls.
SMALL = FriendSettings(
    max_friends=2,
    max_pending_out=2,
    max_pending_in=2,
    max_blocks=2,
    per_day=4,
    code_lookups=Rate(3, 60.0),
)


@dataclass
class Circle:
    """FriendService as players call it."""

    harness: Harness

    @property
    def stub(self) -> Any:
        return self.harness.friends

    async def guest(self, name: str) -> player_pb2.Session:
        request = player_pb2.SignInAsGuestRequest(name=name)
        return (await self.harness.players.SignInAsGuest(request)).session

    async def guests(self, *names: str) -> list[player_pb2.Session]:
        return [await self.guest(name) for name in names]

    async def code(self, session: player_pb2.Session) -> str:
        answer = await self.stub.GetFriendCode(friend_pb2.GetFriendCodeRequest(), metadata=auth(session.access_token))
        return answer.friend_code

    def send(self, session: player_pb2.Session, *, code: str = "", player_id: str = "") -> Any:
        request = friend_pb2.SendFriendRequestRequest(friend_code=code, player_id=player_id)
        return self.stub.SendFriendRequest(request, metadata=auth(session.access_token))

    async def ask(self, session: player_pb2.Session, other: player_pb2.Session) -> Any:
        """``session`` asks ``other`` by ``other``'s friend code."""
        return await self.send(session, code=await self.code(other))

    def accept(self, session: player_pb2.Session, sender: player_pb2.Session) -> Any:
        request = friend_pb2.AcceptFriendRequestRequest(player_id=sender.player.player_id)
        return self.stub.AcceptFriendRequest(request, metadata=auth(session.access_token))

    async def befriend(self, one: player_pb2.Session, other: player_pb2.Session) -> None:
        await self.ask(one, other)
        await self.accept(other, one)

    def block(self, session: player_pb2.Session, other: player_pb2.Session) -> Any:
        request = friend_pb2.BlockPlayerRequest(player_id=other.player.player_id)
        return self.stub.BlockPlayer(request, metadata=auth(session.access_token))

    def call(self, method: str, session: player_pb2.Session, other: player_pb2.Session) -> Any:
        """One of the calls that name the other player by id (Decline, Cancel, Remove, Unblock...)."""
        request = getattr(friend_pb2, f"{method}Request")(player_id=other.player.player_id)
        return getattr(self.stub, method)(request, metadata=auth(session.access_token))

    async def lists(self, session: player_pb2.Session) -> dict[str, list[str]]:
        """The names in the player's lists: friends, received, sent, blocks."""
        metadata = auth(session.access_token)
        listed = await self.stub.ListFriends(friend_pb2.ListFriendsRequest(), metadata=metadata)
        blocks = await self.stub.ListBlocks(friend_pb2.ListBlocksRequest(), metadata=metadata)
        return {
            "friends": [f.name for f in listed.friends],
            "received": [r.name for r in listed.received],
            "sent": [r.name for r in listed.sent],
            "blocks": [b.name for b in blocks.blocks],
        }

    async def seat_together(self, *sessions: player_pb2.Session) -> str:
        """Seat the players in one room (each with their access token); its id."""
        room = await self.harness.create(seats=len(sessions))
        for session in sessions:
            request = room_pb2.JoinRoomRequest(room_id=room.room_id)
            await self.harness.rooms.JoinRoom(request, metadata=auth(session.access_token))
        await self.harness.settle(room.room_id)
        return room.room_id

    async def listen(self, *events: str) -> None:
        """An endpoint that wants ``events``, known to the outbox."""
        await add_endpoint(self.harness.player_store.engine, "http://127.0.0.1:9/hook", events=events)
        await self.harness.webhooks.outbox.refresh()

    async def deliveries(self) -> list[tuple[str, str]]:
        """Each delivery row's (event, payload), oldest first."""
        async with self.harness.player_store.engine.connect() as connection:
            rows = await connection.execute(
                select(WebhookDeliveryRow.event, WebhookDeliveryRow.payload).order_by(WebhookDeliveryRow.created_at)
            )
            return [(row.event, row.payload) for row in rows]


@pytest.fixture
async def circle(start: Start, database_url: str) -> Circle:
    """Players with friends on both stores, with the SMALL bounds and webhooks (no endpoint until a test adds one)."""
    harness = await start(journal=SqlJournal(create_engine(database_url)), webhooks=SERVER_SETTINGS, friends=SMALL)
    return Circle(harness)
