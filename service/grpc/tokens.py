"""Seat tokens: bearer tokens signed with HMAC-SHA256, naming a room, a seat and the seat's current nonce."""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass

from service.rooms.errors import Unauthenticated


@dataclass(frozen=True)
class SeatClaim:
    room_id: str
    seat: int
    nonce: str


MAX_TOKEN_LENGTH = 256  # issued tokens are about 100 characters


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SeatTokens:
    """Issues and checks seat tokens with one secret key (keep it across restarts so tokens survive them)."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the token secret needs at least 16 bytes")
        self._secret = secret

    def _sign(self, payload: bytes) -> bytes:
        return hmac.new(self._secret, payload, hashlib.sha256).digest()

    def issue(self, room_id: str, seat: int, nonce: str) -> str:
        payload = f"{room_id}:{seat}:{nonce}".encode()
        return f"{_b64(payload)}.{_b64(self._sign(payload))}"

    def verify(self, token: str) -> SeatClaim:
        """The claim a token makes, or Unauthenticated when it is malformed or not signed by this server.

        Only the spelling :meth:`issue` writes is accepted: base64 decoders forgive padding, stray characters and the
        other alphabet, so a token is decoded, then encoded again and compared, and any other spelling is refused."""
        try:
            if len(token) > MAX_TOKEN_LENGTH:
                raise ValueError("too long")
            encoded, signature = token.split(".")
            payload = _unb64(encoded)
            if _b64(payload) != encoded or _b64(_unb64(signature)) != signature:
                raise ValueError("not the canonical spelling")
            if not hmac.compare_digest(_unb64(signature), self._sign(payload)):
                raise ValueError("bad signature")
            room_id, seat, nonce = payload.decode().split(":")
            if not seat.isdigit():
                raise ValueError("bad seat")
            return SeatClaim(room_id, int(seat), nonce)
        except (ValueError, UnicodeDecodeError):
            raise Unauthenticated("the seat token is not valid") from None
