"""A server with players, friends, webhooks and the players' inboxes on both stores (tests/servers.py's), its
invitations' bounds small enough to reach in a few calls, and helpers that invite, answer and list as players do."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from google.protobuf import json_format
from sqlalchemy import select

from kickoff.v1 import common_pb2, inbox_pb2, inbox_pb2_grpc, player_pb2, room_pb2
from service.settings import FriendSettings, InboxSettings, RoomInvitationSettings
from service.store.database import create_engine
from service.store.journal import SqlJournal
from service.store.models import WebhookDeliveryRow
from tests.friends.conftest import Circle
from tests.ops.conftest import operator_keys
from tests.server.conftest import auth
from tests.servers import Start
from tests.webhooks.conftest import SERVER_SETTINGS

SMALL = RoomInvitationSettings(per_room=2, per_player=2)
FRIENDS = FriendSettings(code_lookups=None)  # (friends as many as the tests make, their codes looked up freely)
INBOX = InboxSettings(keep_days=30, max_items=1000, page_size=100, max_followers=100)


@dataclass
class Hosts(Circle):
    """FriendService (Circle's helpers) and the room invitation calls, as players make them."""

    async def table(self, owner: player_pb2.Session, *, seats: int = 2, unlisted: bool = True) -> str:
        """The owner's room (they are seated at once); its id."""
        created = await self.harness.rooms.CreateRoom(
            room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=seats, unlisted=unlisted),
            metadata=auth(owner.access_token),
        )
        return created.room.room_id

    def invite(self, session: player_pb2.Session, room_id: str, other: player_pb2.Session | str) -> Any:
        player_id = other if isinstance(other, str) else other.player.player_id
        request = room_pb2.InviteToRoomRequest(room_id=room_id, player_id=player_id)
        return self.harness.rooms.InviteToRoom(request, metadata=auth(session.access_token))

    def answer(self, method: str, session: player_pb2.Session, room_id: str) -> Any:
        """AcceptRoomInvitation or DeclineRoomInvitation."""
        request = getattr(room_pb2, f"{method}Request")(room_id=room_id)
        return getattr(self.harness.rooms, method)(request, metadata=auth(session.access_token))

    def withdraw(self, session: player_pb2.Session, room_id: str, other: player_pb2.Session) -> Any:
        request = room_pb2.WithdrawRoomInvitationRequest(room_id=room_id, player_id=other.player.player_id)
        return self.harness.rooms.WithdrawRoomInvitation(request, metadata=auth(session.access_token))

    async def invitations(self, session: player_pb2.Session) -> dict[str, list[tuple[str, str]]]:
        """The player's pending invitations: received as (room, inviter's name), sent as (room, invitee's name)."""
        listed = await self.harness.rooms.ListRoomInvitations(
            room_pb2.ListRoomInvitationsRequest(), metadata=auth(session.access_token)
        )
        return {
            "received": [(i.room_id, i.from_name) for i in listed.received],
            "sent": [(i.room_id, i.name) for i in listed.sent],
        }

    async def inbox(self, session: player_pb2.Session) -> list[tuple[str, dict[str, Any]]]:
        """The player's inbox items, newest first: (kind, data)."""
        stub = inbox_pb2_grpc.InboxServiceStub(self.harness.channel)
        listed = await stub.ListInbox(inbox_pb2.ListInboxRequest(), metadata=auth(session.access_token))
        return [(item.kind, json_format.MessageToDict(item.data)) for item in listed.items]

    async def room_invited(self) -> list[dict[str, Any]]:
        """The room.invited deliveries' data, oldest first."""
        async with self.harness.player_store.engine.connect() as connection:
            rows = await connection.execute(
                select(WebhookDeliveryRow.payload)
                .where(WebhookDeliveryRow.event == "room.invited")
                .order_by(WebhookDeliveryRow.created_at)
            )
            return [json.loads(row.payload)["data"] for row in rows]


@pytest.fixture
async def hosts(start: Start, database_url: str) -> Hosts:
    """Players with friends, room invitations (SMALL bounds), webhooks, inboxes and the operators' API (the operator
    key of tests/ops/conftest.py), on both stores."""
    harness = await start(
        journal=SqlJournal(create_engine(database_url)),
        operator_keys=operator_keys(),
        webhooks=SERVER_SETTINGS,
        friends=FRIENDS,
        invitations=SMALL,
        inbox=INBOX,
    )
    return Hosts(harness)
