"""A server with players, matchmaking and the players' inboxes on a real database (SQLite and PostgreSQL; its queues
turned by the test), and helpers to sign in, put items in an inbox as a change's transaction would, and read them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from kickoff.v1 import inbox_pb2, inbox_pb2_grpc, player_pb2
from service.inbox.inbox import Inbox
from service.settings import InboxSettings
from service.store.database import create_engine
from service.store.journal import SqlJournal
from service.webhooks.events import Event
from tests.matches.conftest import SETTINGS
from tests.server.conftest import Harness
from tests.servers import Start

INBOX = InboxSettings(keep_days=30, max_items=1000, page_size=100, max_followers=100)


def auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


@dataclass
class Boxed:
    """A server with inboxes, and its harness."""

    harness: Harness

    @property
    def inbox(self) -> Inbox:
        return self.harness.inbox  # type: ignore[no-any-return]

    @property
    def stub(self) -> inbox_pb2_grpc.InboxServiceStub:
        return inbox_pb2_grpc.InboxServiceStub(self.harness.channel)

    async def guest(self, name: str) -> player_pb2.Session:
        request = player_pb2.SignInAsGuestRequest(name=name)
        return (await self.harness.players.SignInAsGuest(request)).session

    async def put(self, player: player_pb2.Session | str, count: int = 1, kind: str = "friend.requested", **data: Any):
        """``count`` items for ``player`` written as a change's transaction writes them (the outbox's seam)."""
        await put(self.inbox, player, count, kind, **data)

    async def list(self, session: player_pb2.Session, **fields: Any) -> inbox_pb2.ListInboxResponse:
        return await self.stub.ListInbox(inbox_pb2.ListInboxRequest(**fields), metadata=auth(session.access_token))


async def put(
    inbox: Inbox, player: player_pb2.Session | str, count: int = 1, kind: str = "friend.requested", **data: Any
) -> None:
    player_id = player if isinstance(player, str) else player.player.player_id
    events: Sequence[Event] = [Event(kind, inbox.now(), {"player_id": player_id, "n": n, **data}) for n in range(count)]
    async with inbox.engine.begin() as connection:
        await inbox.write(connection, events)


@pytest.fixture
async def boxed(start: Start, database_url: str) -> AsyncIterator[Boxed]:
    journal = SqlJournal(create_engine(database_url))
    yield Boxed(await start(journal=journal, match=SETTINGS, inbox=INBOX))  # (the server stops, closes the journal)
