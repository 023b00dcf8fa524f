"""A server with players and rooms' chat on a real database (SQLite and PostgreSQL), and helpers to sign people in,
seat them, chat and read what each of them gets."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from typing import Any

import grpc
import pytest

from kickoff.v1 import chat_pb2, chat_pb2_grpc, common_pb2, player_pb2, room_pb2
from service.settings import ChatSettings
from service.store.database import create_engine
from service.store.journal import SqlJournal
from tests.private.conftest import reason_of
from tests.server.conftest import Harness
from tests.servers import Start

CHAT = ChatSettings(max_length=300, history=200, keep_days=7, player_per_minute=20, room_per_minute=120)
PLAYERS, SPECTATORS, TEAM = (
    chat_pb2.CHAT_CHANNEL_PLAYERS,
    chat_pb2.CHAT_CHANNEL_SPECTATORS,
    chat_pb2.CHAT_CHANNEL_TEAM,
)


def auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


async def refused(call: Any, code: grpc.StatusCode) -> str:
    """The reason a call was refused with ``code``."""
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await call
    assert error.value.code() == code, (error.value.code(), error.value.details())
    return reason_of(error.value)


@dataclass
class Table:
    """A server with chat, and its harness."""

    harness: Harness
    seat_tokens: dict[tuple[str, str], str] = field(default_factory=dict)  # (room, player) -> the seat's token

    @property
    def stub(self) -> chat_pb2_grpc.ChatServiceStub:
        return chat_pb2_grpc.ChatServiceStub(self.harness.channel)

    async def guest(self, name: str) -> player_pb2.Session:
        request = player_pb2.SignInAsGuestRequest(name=name)
        return (await self.harness.players.SignInAsGuest(request)).session

    async def room(
        self, creator: player_pb2.Session, *others: player_pb2.Session, game: str = "soker", **fields: Any
    ) -> str:
        """A room of ``creator``'s with each of ``others`` seated (the game starts once every seat is taken)."""
        request = room_pb2.CreateRoomRequest(
            game=game, mode=common_pb2.ROOM_MODE_ONLINE, seats=1 + len(others), think_seconds=0, **fields
        )
        made = await self.harness.rooms.CreateRoom(request, metadata=auth(creator.access_token))
        room_id = made.room.room_id
        self.seat_tokens[room_id, creator.player.player_id] = made.seat_token
        for other in others:
            join = room_pb2.JoinRoomRequest(room_id=room_id)
            joined = await self.harness.rooms.JoinRoom(join, metadata=auth(other.access_token))
            self.seat_tokens[room_id, other.player.player_id] = joined.seat_token
        return room_id

    async def say(
        self, session: player_pb2.Session | str, room_id: str, text: str = "", **fields: Any
    ) -> chat_pb2.ChatMessage:
        token = session if isinstance(session, str) else session.access_token
        request = chat_pb2.SendChatMessageRequest(room_id=room_id, text=text, **fields)
        return (await self.stub.SendChatMessage(request, metadata=auth(token))).message

    def send(self, session: player_pb2.Session | str | None, room_id: str, text: str = "", **fields: Any) -> Any:
        """The send as a call (for a refusal), as ``session`` (a session, a seat token, or None: nobody)."""
        token = session if isinstance(session, str) or session is None else session.access_token
        request = chat_pb2.SendChatMessageRequest(room_id=room_id, text=text, **fields)
        return self.stub.SendChatMessage(request, metadata=auth(token) if token else ())

    async def read(
        self, session: player_pb2.Session | str | None, room_id: str, **fields: Any
    ) -> list[chat_pb2.ChatMessage]:
        token = session if isinstance(session, str) or session is None else session.access_token
        request = chat_pb2.ListChatMessagesRequest(room_id=room_id, **fields)
        answer = await self.stub.ListChatMessages(request, metadata=auth(token) if token else ())
        return list(answer.messages)

    def follow(self, session: player_pb2.Session | str | None, room_id: str, after: int = 0, **fields: Any) -> Any:
        token = session if isinstance(session, str) or session is None else session.access_token
        request = chat_pb2.FollowChatRequest(room_id=room_id, after_seq=after, **fields)
        return self.stub.FollowChat(request, metadata=auth(token) if token else ())


def texts(messages: list[chat_pb2.ChatMessage]) -> list[str]:
    return [message.text or chat_pb2.ChatReaction.Name(message.reaction) for message in messages]


async def taken(call: Any, count: int) -> list[chat_pb2.ChatMessage]:
    """The next ``count`` messages of a FollowChat call (a stream that stays silent fails the test in 10 s)."""
    return [(await asyncio.wait_for(call.read(), 10)).message for _ in range(count)]


@pytest.fixture
async def table(start: Start, database_url: str) -> AsyncIterator[Table]:
    journal = SqlJournal(create_engine(database_url))
    yield Table(await start(journal=journal, chat=CHAT))  # (the server stops, closes the journal)


@pytest.fixture
async def tables(start: Start, database_url: str) -> Any:
    """Makes a Table whose chat has these settings over CHAT's (and the server these ``operator_keys``)."""

    async def make(operator_keys: Any = None, **settings: Any) -> Table:
        journal = SqlJournal(create_engine(database_url))
        return Table(await start(journal=journal, chat=replace(CHAT, **settings), operator_keys=operator_keys))

    return make
