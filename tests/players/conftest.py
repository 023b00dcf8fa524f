"""A server with players on a real database (SQLite and PostgreSQL), an identity provider whose key set is a file
the test writes, and small helpers to sign in, join and play."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from kickoff.v1 import common_pb2, move_pb2, player_pb2, room_pb2
from service.players.identity import Issuer
from service.store.database import create_engine
from service.store.journal import SqlJournal
from tests.server.conftest import Harness
from tests.servers import Start

ISSUER = "https://id.example.com/"
AUDIENCE = "kickoff-game"
KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)


def auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def calling_from(address: str) -> tuple[tuple[str, str], ...]:
    """The address a trusted proxy (a gateway on loopback: KICKOFF_TRUSTED_PROXIES) says a call comes from; none
    when ``address`` is empty."""
    return (("x-forwarded-for", address),) if address else ()


def id_token(subject: str, now: float, **changes: Any) -> str:
    claims = {"iss": ISSUER, "aud": AUDIENCE, "sub": subject, "iat": int(now), "exp": int(now) + 300, **changes}
    return jwt.encode(claims, KEY, algorithm="RS256", headers={"kid": "k1"})


@dataclass
class Served:
    """A server with players, and its harness."""

    harness: Harness

    @property
    def now(self) -> float:
        return self.harness.clock.now()

    async def guest(self, name: str = "", device_id: str = "", address: str = "") -> player_pb2.Session:
        answer = await self.harness.players.SignInAsGuest(
            player_pb2.SignInAsGuestRequest(name=name, device_id=device_id), metadata=calling_from(address)
        )
        return answer.session

    async def create(
        self,
        session: player_pb2.Session | None,
        *,
        seats: int = 2,
        system_players: int = 0,
        game: str = "soker",
        solo: bool = False,
        rated: bool | None = None,
        address: str = "",
    ) -> room_pb2.CreateRoomResponse:
        request = room_pb2.CreateRoomRequest(
            game=game,
            mode=common_pb2.ROOM_MODE_SOLO if solo else common_pb2.ROOM_MODE_ONLINE,
            seats=seats,
            system_players=system_players,
            think_seconds=0,
        )
        if rated is not None:
            request.rated = rated
        metadata = (auth(session.access_token) if session else ()) + calling_from(address)
        return await self.harness.rooms.CreateRoom(request, metadata=metadata)

    async def join(
        self, room_id: str, session: player_pb2.Session | None, seat: int | None = None, address: str = ""
    ) -> room_pb2.JoinRoomResponse:
        """``address``: where the call comes from, as a trusted proxy names it (only a server trusting loopback's
        x-forwarded-for believes it)."""
        request = room_pb2.JoinRoomRequest(room_id=room_id)
        if seat is not None:
            request.seat = seat
        metadata = (auth(session.access_token) if session else ()) + calling_from(address)
        return await self.harness.rooms.JoinRoom(request, metadata=metadata)

    async def play_out(self, room_id: str, tokens: dict[int, str], moves: int = 10_000) -> room_pb2.Room:
        """Play every person's seat (the last legal move each time) until the game ends; the room as it ended."""
        for _ in range(moves):
            view = await self.harness.moves.GetView(move_pb2.GetViewRequest(room_id=room_id))
            if not view.to_act:
                break
            seat = next((s for s in view.to_act if s in tokens), None)
            if seat is None:
                await self.harness.directory.get(room_id).actor.settle()
                continue
            legal = await self.harness.moves.ListLegalMoves(
                move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(tokens[seat])
            )
            try:
                await self.harness.moves.SubmitMove(
                    move_pb2.SubmitMoveRequest(room_id=room_id, move=legal.moves[-1], expected_version=legal.version),
                    metadata=auth(tokens[seat]),
                )
            except grpc.aio.AioRpcError as error:
                if error.code() not in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION):
                    raise
        return (await self.harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room


def key_file(path: Path) -> Path:
    data = RSAAlgorithm.to_jwk(KEY.public_key(), as_dict=True)
    path.write_text(json.dumps({"keys": [{**data, "kid": "k1", "use": "sig", "alg": "RS256"}]}))
    return path


@pytest.fixture
async def served(start: Start, database_url: str, tmp_path: Path) -> AsyncIterator[Served]:
    journal = SqlJournal(create_engine(database_url))
    issuer = Issuer(ISSUER, (AUDIENCE,), jwks_file=str(key_file(tmp_path / "jwks.json")))
    yield Served(await start(journal=journal, issuers=(issuer,)))  # (the server stops, and closes the journal)
