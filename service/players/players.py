"""Players as the transports use them: sign-in (as a guest, or with an identity provider's token), sessions, the
caller an access token speaks for, and what a player may do with their seats. The store (store.py) keeps everything;
nothing here is node-local, so a session made on one node works on every other."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.errors import InvalidRequest, PlayerNotFound, Unauthenticated
from service.players.identity import ExternalIdentity, ExternalTokens
from service.players.sessions import (
    REFRESH_SECONDS,
    SESSION_SECONDS,
    AccessTokens,
    Caller,
    Tokens,
    looks_like_access_token,
    new_refresh_token,
    refresh_hash,
)
from service.players.store import PlayerInfo, PlayerStore


def page_key(secret: bytes) -> bytes:
    """The key of the leaderboard's page tokens (PlayerStore's ``page_key``), derived from the seat tokens' secret:
    the same on every node, so that each node's page tokens are good on every other."""
    return hmac.new(secret, b"kickoff leaderboard pages", hashlib.sha256).digest()


DEVICE_ID_LENGTH = (16, 128)  # a guest's device id, in characters


@dataclass(frozen=True)
class SignedIn:
    tokens: Tokens
    player: PlayerInfo
    created: bool = False


class Players:
    """Sign-in and sessions over ``store``; ``secret`` is the server's shared secret (every node derives the same keys
    from it: the access tokens' and the device ids')."""

    def __init__(
        self,
        store: PlayerStore,
        secret: bytes,
        external: ExternalTokens | None = None,
        *,
        clock: Callable[[], float] | None = None,
        refresh_seconds: float = REFRESH_SECONDS,
        session_seconds: float = SESSION_SECONDS,
        presence: Any = None,
    ) -> None:
        self.store = store
        # (issue 48) this node's presence (service/presence): a call with an access token keeps its player online
        # for a while, and the streams of a signed-in player hold their state there. None: no presence.
        self.presence = presence
        self.clock = clock or store.clock
        self.access = AccessTokens(hmac.new(secret, b"kickoff access tokens", hashlib.sha256).digest(), self.clock)
        self._device_key = hmac.new(secret, b"kickoff guest devices", hashlib.sha256).digest()
        self._origin_key = hmac.new(secret, b"kickoff seat origins", hashlib.sha256).digest()
        self.external = external or ExternalTokens(())
        self.refresh_seconds = refresh_seconds
        self.session_seconds = session_seconds

    # -- signing in -------------------------------------------------------------------------------------------------

    async def sign_in_as_guest(self, device_id: str, name: str) -> SignedIn:
        device_hash = None
        if device_id:
            low, high = DEVICE_ID_LENGTH
            if not low <= len(device_id) <= high:
                raise InvalidRequest(f"device_id must be {low}-{high} characters", field="device_id")
            device_hash = hmac.new(self._device_key, device_id.encode(), hashlib.sha256).hexdigest()
        player, created = await self.store.guest(device_hash, name)
        return SignedIn(await self._open(player), player, created)

    async def sign_in_with_token(self, id_token: str, name: str) -> SignedIn:
        identity = await self._identity(id_token)
        player, created = await self.store.for_identity(identity.issuer, identity.subject, name)
        return SignedIn(await self._open(player), player, created)

    async def _identity(self, id_token: str) -> ExternalIdentity:
        if not id_token:
            raise InvalidRequest("id_token is required", field="id_token", code="missing_id_token")
        if not self.external.configured:
            raise Unauthenticated(
                "this server trusts no identity provider (KICKOFF_IDENTITY_PROVIDERS)", code="unknown_issuer"
            )
        return await self.external.verify(id_token)

    async def _open(self, player: PlayerInfo) -> Tokens:
        now = self.clock()
        refresh = new_refresh_token()
        refresh_expires = now + self.refresh_seconds
        session_id = await self.store.open_session(
            player.player_id, refresh_hash(refresh), refresh_expires, now + self.session_seconds
        )
        access, access_expires = self.access.issue(Caller(player.player_id, session_id))
        return Tokens(access, access_expires, refresh, refresh_expires)

    async def refresh(self, refresh_token: str) -> SignedIn:
        if not refresh_token:
            raise InvalidRequest("refresh_token is required", field="refresh_token", code="missing_refresh_token")
        refresh = new_refresh_token()
        player_id, session_id, expires = await self.store.rotate(
            refresh_hash(refresh_token), refresh_hash(refresh), self.refresh_seconds
        )
        player = await self.store.player(player_id)
        if player is None:
            raise Unauthenticated("the session's player is gone", code="session_revoked")
        access, access_expires = self.access.issue(Caller(player_id, session_id))
        return SignedIn(Tokens(access, access_expires, refresh, expires), player)

    async def sign_out(self, caller: Caller | None, refresh_token: str) -> None:
        """End the session of ``refresh_token`` when one is given, else the caller's."""
        if refresh_token:
            session_id = await self.store.session_of_refresh(refresh_hash(refresh_token))
            if session_id is None:
                raise Unauthenticated("the refresh token is not one this service gave", code="refresh_unknown")
        elif caller is not None:
            session_id = caller.session_id
        else:
            raise Unauthenticated("sign out needs a session: an access token or a refresh token", code="no_session")
        await self.store.revoke(session_id, "signed_out")

    async def link(self, caller: Caller, id_token: str) -> None:
        identity = await self._identity(id_token)
        await self.store.link(caller.player_id, identity.issuer, identity.subject)

    def origin(self, network: str) -> str:
        """What a seat keeps of the network its holder joined from (service/rooms/room.py, same_address): an HMAC
        of it under a key every node derives from the shared secret, so two seats taken from one network compare
        equal on every node and the address itself is never stored."""
        return hmac.new(self._origin_key, network.encode(), hashlib.sha256).hexdigest()[:32]

    # -- callers ----------------------------------------------------------------------------------------------------

    async def caller(self, token: str | None) -> Caller:
        """Who an access token speaks for (its session live); Unauthenticated otherwise."""
        if token is None:
            raise Unauthenticated(
                "this call needs a player's session: send 'authorization: Bearer <access token>'", code="no_session"
            )
        if not looks_like_access_token(token):
            raise Unauthenticated("this call needs an access token, not a seat token", code="not_an_access_token")
        caller = self.access.verify(token)
        await self.store.check_session(caller.session_id, caller.player_id)
        if self.presence is not None:
            self.presence.touch(caller.player_id)
        return caller

    async def optional_caller(self, token: str | None) -> Caller | None:
        """The caller of a call that a player may make or anyone (a seat token, or no token: None)."""
        if token is None or not looks_like_access_token(token):
            return None
        return await self.caller(token)

    async def me(self, caller: Caller) -> PlayerInfo:
        player = await self.store.player(caller.player_id)
        if player is None:
            raise PlayerNotFound("the player is gone")
        return player
