"""Rematches on a server with players and inboxes (SQLite and PostgreSQL): a finished Soker game of short hands
between guests, and helpers to propose and answer as a seat."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from google.protobuf import struct_pb2

from kickoff.v1 import common_pb2, player_pb2, room_pb2
from service.players.identity import Issuer
from service.settings import InboxSettings
from service.store.database import create_engine
from service.store.journal import SqlJournal
from tests.players.conftest import AUDIENCE, ISSUER, Served, auth, key_file
from tests.servers import Start

INBOX = InboxSettings(keep_days=30, max_items=1000, page_size=100, max_followers=100)
SYSTEM = room_pb2.REMATCH_FILL_SYSTEM_PLAYER
NO_REMATCH = room_pb2.REMATCH_FILL_NO_REMATCH


@dataclass
class Finished:
    """A finished room: its id, each person's session and seat token by seat."""

    room_id: str
    sessions: dict[int, player_pb2.Session] = field(default_factory=dict)
    tokens: dict[int, str] = field(default_factory=dict)


async def start_served(start: Start, database_url: str, tmp_path: Path) -> Served:
    issuer = Issuer(ISSUER, (AUDIENCE,), jwks_file=str(key_file(tmp_path / "jwks.json")))
    return Served(await start(journal=SqlJournal(create_engine(database_url)), issuers=(issuer,), inbox=INBOX))


@pytest.fixture
async def served(start: Start, database_url: str, tmp_path: Path) -> AsyncIterator[Served]:
    yield await start_served(start, database_url, tmp_path)


async def finished(
    served: Served,
    people: int = 2,
    *,
    fill: int = 0,
    system_players: int = 0,
    correspondence_hours: int = 0,
) -> Finished:
    """A Soker game of one-card hands among ``people`` guests (and ``system_players``), played to its end."""
    options = struct_pb2.Struct()
    options.update({"hand_size": 1})
    sessions = {seat: await served.guest(f"P{seat}") for seat in range(people)}
    created = await served.harness.rooms.CreateRoom(
        room_pb2.CreateRoomRequest(
            game="soker",
            mode=common_pb2.ROOM_MODE_ONLINE,
            seats=people + system_players,
            system_players=system_players,
            options=options,
            think_seconds=0,
            rematch_fill=fill,
            correspondence_hours=correspondence_hours,
        ),
        metadata=auth(sessions[0].access_token),
    )
    room_id = created.room.room_id
    tokens = {0: created.seat_token}
    for seat in range(1, people):
        tokens[seat] = (await served.join(room_id, sessions[seat])).seat_token
    ended = await served.play_out(room_id, tokens)
    assert ended.status == common_pb2.ROOM_STATUS_FINISHED
    return Finished(room_id, sessions, tokens)


async def propose(served: Served, room_id: str, token: str) -> room_pb2.Room:
    answer = await served.harness.rooms.ProposeRematch(
        room_pb2.ProposeRematchRequest(room_id=room_id), metadata=auth(token)
    )
    return answer.room


async def answer(served: Served, room_id: str, token: str, accept: bool) -> room_pb2.AnswerRematchResponse:
    return await served.harness.rooms.AnswerRematch(
        room_pb2.AnswerRematchRequest(room_id=room_id, accept=accept), metadata=auth(token)
    )


async def room(served: Served, room_id: str) -> room_pb2.Room:
    return (await served.harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
