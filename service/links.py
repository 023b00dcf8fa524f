"""Signed, expiring, revocable links that let their holders in, each join counted: what an unlisted room's invitation
links (service/rooms/private.py) and a matchmaking party's links (service/matches/party.py) share.

A link opens one **target** (a room, a party's ticket). Its token is a JWT (HS256) signed with a key derived from the
server's secret, naming the link and its target, under an audience of the link's kind, so that a room's link never
opens a party nor the other way round. The store (service/store/links.py) keeps the link's expiry, uses and
revocation, so they hold on every node and after a restart. A token is checked in this order, so that nothing is said
about a target to someone who does not hold one of its links: a token that is malformed, not signed here, of another
kind or for another target is ``link_invalid`` (decided from the token and the target asked for alone); then the store
says ``link_revoked``, ``link_expired`` or, for a join, ``link_used_up``. Each join a link lets in is one use, counted
atomically as the join is made (:meth:`SignedLinks.claim`) and given back if the join fails
(:meth:`SignedLinks.release`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

import jwt

from service.errors import InvalidRequest, NotFound, PreconditionFailed, ResourceExhausted
from service.store.links import LinkRecord, MemoryLinks, SqlLinks, refusal

__all__ = ["DEFAULT_SECONDS", "LinkKind", "LinkRefused", "SignedLinks"]

DEFAULT_SECONDS = 24 * 3600  # a link asked without an expiry lasts a day (or the longest allowed, when shorter)
ALGORITHM = "HS256"


class LinkRefused(PreconditionFailed):
    """A link that opens nothing: ``code`` says why (link_invalid, link_revoked, link_expired, link_used_up)."""


MESSAGES = {
    "link_invalid": "the {noun} is not valid",
    "link_revoked": "the {noun} was revoked",
    "link_expired": "the {noun} has expired",
    "link_used_up": "the {noun} has no uses left",
}


@dataclass(frozen=True)
class LinkKind:
    """One kind of link: its JWT ``audience``; its bounds (``per_target`` links a target at once, ``max_seconds`` of
    life, ``max_uses``); ``noun``: how refusals name it ("invitation link", "party link"); ``kind``: what a missing one
    is called (its NotFound's ``<kind>_not_found``)."""

    audience: str
    per_target: int
    max_seconds: float
    max_uses: int
    noun: str
    kind: str


class SignedLinks:
    """Makes, checks, counts and revokes one kind of link (see the module docstring). ``store``: SqlLinks or
    MemoryLinks; ``key``: the signing key (derived from the server's secret: every node derives the same);
    ``now``: the clock; ``of``: the kind of link, with its bounds."""

    def __init__(self, store: MemoryLinks | SqlLinks, key: bytes, now: Callable[[], float], of: LinkKind) -> None:
        self.store = store
        self._key = key
        self.now = now
        self.audience = of.audience
        self.per_target = of.per_target
        self.max_seconds = of.max_seconds
        self.max_uses = of.max_uses
        self.noun = of.noun
        self.kind = of.kind

    def _refused(self, why: str, message: str = "") -> LinkRefused:
        """The refusal of a link for ``why`` (every refusal of a link is made here: a kind may count them)."""
        return LinkRefused((message or MESSAGES[why]).format(noun=self.noun), code=why)

    async def make(self, target_id: str, max_uses: int, expires_in: int) -> tuple[LinkRecord, str]:
        """A new link to ``target_id`` and its token (the caller checked who may make one)."""
        if not 0 <= max_uses <= self.max_uses:
            raise InvalidRequest(
                f"max_uses must be 0-{self.max_uses} (1: a single use; 0: {self.max_uses})",
                code="bad_max_uses",
                field="max_uses",
            )
        longest = int(self.max_seconds)
        if not 0 <= expires_in <= longest:
            raise InvalidRequest(
                f"expires_in_seconds must be 0-{longest} (0: a day)", code="bad_expires_in", field="expires_in_seconds"
            )
        now = self.now()
        link = LinkRecord(
            link_id=secrets.token_hex(8),
            room_id=target_id,
            created_at=now,
            expires_at=now + (expires_in or min(DEFAULT_SECONDS, longest)),
            max_uses=max_uses or self.max_uses,
        )
        if not await self.store.add(link, self.per_target):
            raise ResourceExhausted(f"this has had its most {self.noun}s ({self.per_target})", code="too_many_links")
        claims = {"lid": link.link_id, "rid": target_id, "aud": self.audience}
        return link, jwt.encode(claims, self._key, algorithm=ALGORITHM)

    def link_id_of(self, token: str, target_id: str) -> str:
        """The link a token names, when it is signed here, of this kind, for ``target_id``; LinkRefused
        (link_invalid) otherwise. Decided from the token alone: it says nothing of the target."""
        try:
            claims = jwt.decode(token, self._key, algorithms=[ALGORITHM], audience=self.audience)
        except jwt.PyJWTError:
            raise self._refused("link_invalid") from None
        link_id, target = claims.get("lid"), claims.get("rid")
        if not isinstance(link_id, str) or target != target_id:
            raise self._refused("link_invalid", "the {noun} is not valid for this")
        return link_id

    async def check(self, token: str, target_id: str, *, joining: bool = False) -> LinkRecord:
        """The link a token names, when it opens ``target_id`` now (and, ``joining``, has a use left); LinkRefused
        naming why not."""
        link = await self.store.get(self.link_id_of(token, target_id))
        if link is not None and link.room_id != target_id:
            link = None
        why = refusal(link, self.now(), joining=joining)
        if why:
            raise self._refused(why)
        assert link is not None
        return link

    async def claim(self, link: LinkRecord) -> None:
        """Count one use of ``link`` for a join about to be made; LinkRefused when none is left (another join took the
        last) or it stopped opening its target meanwhile."""
        why = await self.store.claim(link.link_id, self.now())
        if why:
            raise self._refused(why)

    async def release(self, link: LinkRecord) -> None:
        """Give back the use :meth:`claim` counted, the join having failed."""
        await self.store.release(link.link_id)

    async def of_target(self, target_id: str) -> list[LinkRecord]:
        return await self.store.of_room(target_id)

    async def revoke(self, target_id: str, link_id: str) -> LinkRecord:
        link = await self.store.revoke(target_id, link_id)
        if link is None:
            raise NotFound(self.kind, f"no such {self.noun} here")
        return link
