"""A server with players and matchmaking on a real database (SQLite and PostgreSQL), its queues turned by the test
with the manual clock, and helpers to sign players in, give them ratings, enqueue, take seats up and turn the
queues."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest
from sqlalchemy import insert

from kickoff.v1 import match_pb2, player_pb2
from service.matches.store import TickReport
from service.settings import MatchSettings
from service.store.database import create_engine
from service.store.journal import SqlJournal
from service.store.models import FriendshipRow, RatingRow
from tests.server.conftest import Harness
from tests.servers import Start

SETTINGS = MatchSettings(fill_seconds=30, take_up_seconds=20, ticket_seconds=300, per_caller=1000)


def auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


async def befriend(harness: Harness, *player_ids: str) -> None:
    """Make every two of the players friends, straight in the store (only friends may be invited to a party:
    FriendService's own tests ask and accept)."""
    rows = [
        {"player_id": one, "friend_id": other, "since": harness.clock.now()}
        for one in player_ids
        for other in player_ids
        if one != other
    ]
    async with harness.player_store.engine.begin() as connection:
        await connection.execute(insert(FriendshipRow), rows)


@dataclass
class Queue:
    harness: Harness

    @property
    def stub(self) -> Any:
        return self.harness.matches

    async def players(self, count: int, prefix: str = "p") -> list[player_pb2.Session]:
        return [
            (await self.harness.players.SignInAsGuest(player_pb2.SignInAsGuestRequest(name=f"{prefix}{i}"))).session
            for i in range(count)
        ]

    async def befriend(self, *sessions: player_pb2.Session) -> None:
        await befriend(self.harness, *(session.player.player_id for session in sessions))

    async def rate(self, game: str, session: player_pb2.Session, mu: float, sigma: float = 2.0) -> None:
        """Give a player a rating in ``game`` (as if they had played)."""
        engine = self.harness.player_store.engine
        async with engine.begin() as connection:
            row = {"game": game, "player_id": session.player.player_id, "kind": "person", "mu": mu, "sigma": sigma}
            row |= {"display": mu - 3 * sigma, "games": 10, "wins": 5, "updated_at": self.harness.clock.now()}
            await connection.execute(insert(RatingRow), [row])

    async def enqueue(
        self, session: player_pb2.Session, game: str = "soker", counts: Sequence[int] = (), party=(), **fields: Any
    ) -> match_pb2.Ticket:
        request = match_pb2.EnqueueRequest(
            game=game, seat_counts=list(counts), party=[p.player.player_id for p in party]
        )
        for name, value in fields.items():
            setattr(request, name, value)
        return (await self.stub.Enqueue(request, metadata=auth(session.access_token))).ticket

    async def get(self, session: player_pb2.Session, ticket_id: str) -> match_pb2.Ticket:
        request = match_pb2.GetTicketRequest(ticket_id=ticket_id)
        return (await self.stub.GetTicket(request, metadata=auth(session.access_token))).ticket

    async def accept(self, session: player_pb2.Session, ticket_id: str) -> match_pb2.Ticket:
        request = match_pb2.AcceptMatchRequest(ticket_id=ticket_id)
        return (await self.stub.AcceptMatch(request, metadata=auth(session.access_token))).ticket

    async def cancel(self, session: player_pb2.Session, ticket_id: str) -> match_pb2.Ticket:
        request = match_pb2.CancelTicketRequest(ticket_id=ticket_id)
        return (await self.stub.CancelTicket(request, metadata=auth(session.access_token))).ticket

    async def turn(self, seconds: float = 1.0) -> list[TickReport]:
        """Let ``seconds`` pass, then turn every queue once."""
        self.harness.clock.advance(seconds)
        return await self.harness.matchmaker.tick()


@pytest.fixture
async def queue(start: Start, database_url: str) -> AsyncIterator[Queue]:
    journal = SqlJournal(create_engine(database_url))
    yield Queue(await start(journal=journal, match=SETTINGS))  # (the server stops, and closes the journal)


@pytest.fixture
async def unfilled(start: Start, database_url: str) -> AsyncIterator[Queue]:
    """A queue whose system players never fill a table (KICKOFF_MATCH_FILL_SECONDS=0): tickets can expire."""
    journal = SqlJournal(create_engine(database_url))
    yield Queue(await start(journal=journal, match=replace(SETTINGS, fill_seconds=0)))
