"""Seat tokens: bearer tokens signed with HMAC-SHA256, naming a room, a seat and the seat's current nonce; and stream
tickets: the same claim for one room's event streams only, until a time, signed with a key of their own (so neither
passes for the other)."""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass

from service.errors import Unauthenticated


@dataclass(frozen=True)
class SeatClaim:
    room_id: str
    seat: int
    nonce: str


MAX_TOKEN_LENGTH = 256  # issued tokens are about 100 characters
TICKET_SECONDS = 60  # how long a stream ticket opens streams


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
        self._ticket_key = self.derived_key(b"kickoff stream tickets")

    def derived_key(self, purpose: bytes) -> bytes:
        """A key of its own for ``purpose``, from the secret (every node that shares the secret derives the same)."""
        return hmac.new(self._secret, purpose, hashlib.sha256).digest()

    def _sign(self, payload: bytes, key: bytes | None = None) -> bytes:
        return hmac.new(key or self._secret, payload, hashlib.sha256).digest()

    def issue(self, room_id: str, seat: int, nonce: str) -> str:
        payload = f"{room_id}:{seat}:{nonce}".encode()
        return f"{_b64(payload)}.{_b64(self._sign(payload))}"

    def issue_ticket(self, claim: SeatClaim, expires: int) -> str:
        """A stream ticket for ``claim``'s seat in ``claim.room_id``, good until ``expires`` (Unix seconds)."""
        payload = f"{claim.room_id}:{claim.seat}:{claim.nonce}:{expires}".encode()
        return f"{_b64(payload)}.{_b64(self._sign(payload, self._ticket_key))}"

    def verify_ticket(self, ticket: str, now: float) -> SeatClaim:
        """The claim of a ticket issued here and not expired at ``now``; Unauthenticated otherwise."""
        room_id, seat, nonce, expires = self._open(ticket, self._ticket_key, 4, "the stream ticket is not valid")
        if not expires.isdigit() or now >= int(expires):
            raise Unauthenticated("the stream ticket has expired: ask for a new one")
        return SeatClaim(room_id, int(seat), nonce)

    def verify(self, token: str) -> SeatClaim:
        """The claim a token makes, or Unauthenticated when it is malformed or not signed by this server.

        Only the spelling :meth:`issue` writes is accepted: base64 decoders forgive padding, stray characters and the
        other alphabet, so a token is decoded, then encoded again and compared, and any other spelling is refused."""
        room_id, seat, nonce = self._open(token, self._secret, 3, "the seat token is not valid")
        return SeatClaim(room_id, int(seat), nonce)

    def _open(self, token: str, key: bytes, parts: int, refusal: str) -> list[str]:
        """The fields of a token signed with ``key`` (its seat checked to be a number), or Unauthenticated."""
        try:
            if len(token) > MAX_TOKEN_LENGTH:
                raise ValueError("too long")
            encoded, signature = token.split(".")
            payload = _unb64(encoded)
            if _b64(payload) != encoded or _b64(_unb64(signature)) != signature:
                raise ValueError("not the canonical spelling")
            if not hmac.compare_digest(_unb64(signature), self._sign(payload, key)):
                raise ValueError("bad signature")
            fields = payload.decode().split(":")
            if len(fields) != parts or not fields[1].isdigit():
                raise ValueError("bad fields")
            return fields
        except (ValueError, UnicodeDecodeError):
            raise Unauthenticated(refusal) from None
