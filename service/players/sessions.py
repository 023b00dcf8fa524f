"""kickoff's own session tokens.

A sign-in opens a session: a short-lived **access token** (a JWT, HS256 with a key every node derives from the
server's shared secret, so a session minted on one node works on every other) and a **refresh token** (random, good
once, stored as its SHA-256 only). Refreshing trades the refresh token for a new pair; the old one is used up, and
presenting it again means it was stolen or replayed, so the whole session (its family of refresh tokens, and the
access tokens that name it) is revoked. Signing out, deleting the player and a reuse revoke a session; every access
token is checked against its session's row, so a revoked session stops at once on every node.

PyJWT signs and checks the tokens (no hand-written JWT code); times are checked against the injected clock.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass

import jwt

from service.errors import Unauthenticated

ACCESS_SECONDS = 15 * 60  # an access token's life
REFRESH_SECONDS = 30 * 24 * 3600  # a refresh token's, from its issue
SESSION_SECONDS = 90 * 24 * 3600  # a session's, from its sign-in: no refresh past it
ISSUER, AUDIENCE = "kickoff", "kickoff:access"
ALGORITHM = "HS256"
MAX_ACCESS_TOKEN = 1024  # characters (issued ones are about 300)
REFRESH_PREFIX = "kr1_"


@dataclass(frozen=True)
class Caller:
    """Who an access token speaks for."""

    player_id: str
    session_id: str


@dataclass(frozen=True)
class Tokens:
    access_token: str
    access_expires: float
    refresh_token: str
    refresh_expires: float


def looks_like_access_token(token: str) -> bool:
    """Whether a bearer token is an access token (a JWT: three parts) rather than a seat token (two)."""
    return token.count(".") == 2


def refresh_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_refresh_token() -> str:
    return REFRESH_PREFIX + secrets.token_urlsafe(32)


class AccessTokens:
    """Signs and checks access tokens with ``key`` (derived from the server's secret: the same on every node)."""

    def __init__(self, key: bytes, clock: Callable[[], float], *, seconds: float = ACCESS_SECONDS) -> None:
        if len(key) < 32:
            raise ValueError("the access token key needs at least 32 bytes")
        self._key = key
        self._clock = clock
        self.seconds = seconds

    def issue(self, caller: Caller) -> tuple[str, float]:
        now = self._clock()
        expires = now + self.seconds
        claims = {
            "iss": ISSUER,
            "aud": AUDIENCE,
            "sub": caller.player_id,
            "sid": caller.session_id,
            "iat": int(now),
            "exp": int(expires),
        }
        return jwt.encode(claims, self._key, algorithm=ALGORITHM), float(int(expires))

    def verify(self, token: str) -> Caller:
        """The caller an access token issued here speaks for; Unauthenticated (with its reason) otherwise. The session
        it names is checked by the caller of this (it may have been revoked)."""
        if len(token) > MAX_ACCESS_TOKEN:
            raise Unauthenticated("the access token is not valid", code="token_malformed")
        try:
            claims = jwt.decode(
                token,
                self._key,
                algorithms=[ALGORITHM],
                audience=AUDIENCE,
                issuer=ISSUER,
                options={"require": ["exp", "iat", "sub", "sid"], "verify_exp": False, "verify_iat": False},
            )
        except jwt.InvalidSignatureError:
            raise Unauthenticated("the access token is not signed by this service", code="bad_signature") from None
        except jwt.InvalidAlgorithmError:
            raise Unauthenticated("the access token's algorithm is not accepted", code="bad_algorithm") from None
        except jwt.PyJWTError:
            raise Unauthenticated("the access token is not valid", code="token_malformed") from None
        exp, sub, sid = claims["exp"], claims["sub"], claims["sid"]
        if not isinstance(exp, int | float) or not isinstance(sub, str) or not isinstance(sid, str):
            raise Unauthenticated("the access token is not valid", code="token_malformed")
        if self._clock() >= exp:
            raise Unauthenticated("the access token has expired: refresh the session", code="token_expired")
        return Caller(sub, sid)
