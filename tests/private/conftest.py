"""Private tables on a server with players (SQLite and PostgreSQL): a player's unlisted room, its links, and helpers
that call as a stranger, a seat or a link's holder."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

from kickoff.v1 import common_pb2, room_pb2
from service.players.identity import Issuer
from service.settings import PrivateRoomSettings
from service.store.database import create_engine
from service.store.journal import SqlJournal
from tests.players.conftest import AUDIENCE, ISSUER, Served, auth, key_file
from tests.servers import Start

SMALL = PrivateRoomSettings(links_per_room=3, max_seconds=7200, max_uses=5)


@pytest.fixture
async def served(start: Start, database_url: str, tmp_path: Path) -> AsyncIterator[Served]:
    journal = SqlJournal(create_engine(database_url))
    issuer = Issuer(ISSUER, (AUDIENCE,), jwks_file=str(key_file(tmp_path / "jwks.json")))
    yield Served(await start(journal=journal, issuers=(issuer,), private=SMALL))


async def unlisted(served: Served, seats: int = 2) -> tuple[room_pb2.CreateRoomResponse, str]:
    """A guest's unlisted room (the guest seated at once), and the guest's access token."""
    owner = await served.guest("Owner")
    created = await served.harness.rooms.CreateRoom(
        room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=seats, unlisted=True),
        metadata=auth(owner.access_token),
    )
    return created, owner.access_token


async def link(served: Served, room_id: str, token: str, max_uses: int = 0, seconds: int = 0) -> str:
    """A new link's token."""
    return (await made_link(served, room_id, token, max_uses, seconds)).token


async def made_link(
    served: Served, room_id: str, token: str, max_uses: int = 0, seconds: int = 0
) -> room_pb2.CreateInvitationLinkResponse:
    return await served.harness.rooms.CreateInvitationLink(
        room_pb2.CreateInvitationLinkRequest(room_id=room_id, max_uses=max_uses, expires_in_seconds=seconds),
        metadata=auth(token),
    )


def reason_of(error: grpc.aio.AioRpcError) -> str:
    """The ErrorInfo reason of a refusal."""
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            for detail in status_pb2.Status.FromString(value).details:
                if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    info = error_details_pb2.ErrorInfo()
                    detail.Unpack(info)
                    return info.reason
    return ""


async def refusal(call: Awaitable[object]) -> tuple[grpc.StatusCode, str]:
    """The status and ErrorInfo reason a call was refused with."""
    try:
        await call
    except grpc.aio.AioRpcError as error:
        return error.code(), reason_of(error)
    raise AssertionError("the call was not refused")
