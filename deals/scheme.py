"""The fair-deal scheme, version ``kickoff-deal-1``: how a deal is committed to and how a game's seed follows from it.

When a game's seed is to be chosen the server draws a **secret** (32 random bytes) and publishes its **commitment**
before any card is dealt::

    commitment = SHA-256(scheme 0x00 subject 0x00 game 0x00 secret)          (hex, 64 characters)

``subject`` is what the deal belongs to: the room's id, or ``<tournament id>/deal/<n>`` for a deal a duplicate
tournament plays again with the seats rotated. Every seat may add a **seed** of its own (a short text, published as
it is given); the game's seed is then::

    digest = HMAC-SHA256(key=secret,
                         msg=scheme 0x00 "deal" 0x00 subject 0x00 game 0x00 count 0x00 seed_0 ... 0x00 seed_n-1)
    game seed = the first 8 bytes of digest, as a big-endian unsigned integer

with ``count`` the number of seeds in decimal and the seeds in seat order (a duplicate tournament: its players' entry
order). Every text is UTF-8; none may hold a NUL, so the fields cannot run into each other. The engines take that
integer as every game's seed today: it drives every shuffle, reshuffle, blind pick and coin toss of the game.

A system player's own choices draw from ``player_seed`` (another HMAC of the secret, under the label "player"), which
says nothing of the game's seed. When the game is over (or its room closes) the secret is revealed, and anyone can
check the commitment, derive the seed, deal again and replay every move (:mod:`deals.verify`).

Standard library only: this module is what a third party's verifier needs besides the engines.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence

SCHEME = "kickoff-deal-1"
SCHEMES = (SCHEME,)  # the versions a verifier of this release checks
SECRET_BYTES = 32
SEAT_SEED_MAX = 64  # characters
_SEAT_SEED = re.compile(r"[\x21-\x7e]*")  # printable ASCII without spaces


class SchemeError(ValueError):
    """A scheme, secret or seed this release cannot use (the message says which and why)."""


def new_secret() -> bytes:
    """A fresh secret: 32 bytes from the operating system's generator."""
    return secrets.token_bytes(SECRET_BYTES)


def _fields(*parts: str) -> bytes:
    for part in parts:
        if "\x00" in part:
            raise SchemeError("a field of the scheme holds a NUL character")
    return b"\x00".join(part.encode() for part in parts)


def _known(scheme: str) -> None:
    if scheme not in SCHEMES:
        raise SchemeError(f"unknown deal scheme {scheme!r} (this release checks {', '.join(SCHEMES)})")


def commitment(secret: bytes, subject: str, game: str, scheme: str = SCHEME) -> str:
    """The commitment to ``secret`` for ``subject``'s ``game``: SHA-256, as 64 lowercase hex characters."""
    _known(scheme)
    return hashlib.sha256(_fields(scheme, subject, game) + b"\x00" + secret).hexdigest()


def game_seed(secret: bytes, subject: str, game: str, seeds: Sequence[str], scheme: str = SCHEME) -> int:
    """The game's seed: from the secret and every seat's seed (seat order; "" for a seat that added none)."""
    _known(scheme)
    message = _fields(scheme, "deal", subject, game, str(len(seeds)), *seeds)
    return int.from_bytes(hmac.new(secret, message, hashlib.sha256).digest()[:8], "big")


def player_seed(secret: bytes, subject: str, game: str, seat: int, scheme: str = SCHEME) -> int:
    """A system player's own random choices at ``seat``: independent of the game's seed, which it cannot recover."""
    _known(scheme)
    message = _fields(scheme, "player", subject, game, str(seat))
    return int.from_bytes(hmac.new(secret, message, hashlib.sha256).digest()[:8], "big")


def system_seat_seed(secret: bytes, subject: str, game: str, seat: int, scheme: str = SCHEME) -> str:
    """The seed the server publishes for a system player's seat as it is taken (16 hex characters)."""
    _known(scheme)
    message = _fields(scheme, "seat", subject, game, str(seat))
    return hmac.new(secret, message, hashlib.sha256).hexdigest()[:16]


def check_seat_seed(seed: str) -> str:
    """``seed`` if a seat may add it: at most 64 printable ASCII characters without spaces (an empty one adds
    nothing)."""
    if len(seed) > SEAT_SEED_MAX or not _SEAT_SEED.fullmatch(seed):
        raise SchemeError(f"a seat's seed is at most {SEAT_SEED_MAX} printable ASCII characters without spaces")
    return seed


def secret_from_hex(text: str) -> bytes:
    """A revealed secret (64 hex characters) as bytes."""
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        raise SchemeError("the secret is not hex") from None
    if len(secret) != SECRET_BYTES:
        raise SchemeError(f"the secret is {len(secret)} bytes, not {SECRET_BYTES}")
    return secret
