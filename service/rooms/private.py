"""Private tables: who may see and join an unlisted room, and its invitation links.

An unlisted room (CreateRoomRequest.unlisted) is in no listing (the store leaves it out of every page), and for anyone
:func:`may_enter` does not let in it does not exist: the transports answer NOT_FOUND (room_not_found), exactly as for
a room never made. :func:`may_enter` is the one place that decides: its seated players (a seat token of the room, or
the access token of a player seated there), the holders of one of its links that opens it now, and the friends a
seated player invited to it while their invitation is pending (service/rooms/invitations.py).

**Links.** :class:`InvitationLinks` makes them for a room's seated players, lists and revokes them. A link's token is
a JWT (HS256) signed with a key derived from the server's secret, naming the link and its room; the store
(service/store/links.py) keeps the link's expiry, uses and revocation, so they hold on every node and after a restart.
The token is checked in this order, so that nothing is said about a room to someone who does not hold one of its
links: a token that is malformed, not signed here or for another room is ``link_invalid`` whatever the room (decided
from the token and the room id asked for alone); then the store says ``link_revoked``, ``link_expired`` or, for a
join, ``link_used_up``. A link lets its holder watch and replay while it is neither revoked nor expired (watching uses
nothing); each join it lets in is one use, counted atomically as the join is made (:meth:`InvitationLinks.claim`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

import jwt

from service.errors import InvalidRequest, NotFound, PreconditionFailed, ResourceExhausted
from service.rooms.room import Room
from service.settings import PrivateRoomSettings
from service.store.links import LinkRecord, MemoryLinks, SqlLinks, refusal

__all__ = ["DEFAULT_SECONDS", "InvitationLinks", "LinkRefused", "Visitor", "hidden", "may_enter"]

DEFAULT_SECONDS = 24 * 3600  # a link asked without an expiry lasts a day (or the longest allowed, when shorter)
ALGORITHM = "HS256"
AUDIENCE = "kickoff-invitation"


class LinkRefused(PreconditionFailed):
    """An invitation link that opens nothing: ``code`` says why (link_invalid, link_revoked, link_expired,
    link_used_up)."""


@dataclass(frozen=True)
class Visitor:
    """What a caller brings to a room: the seat a seat token (or stream ticket) of this room proves, the player an
    access token signs in, whether they hold a link of the room that opens it now, and whether that player has an
    invitation to it pending (from a friend)."""

    seat: int | None = None
    player_id: str = ""
    link: LinkRecord | None = None
    invited: bool = False


def may_enter(room: Room, visitor: Visitor) -> bool:
    """Whether ``visitor`` may see, watch and join ``room`` (every room but an unlisted one: anyone)."""
    if not room.unlisted:
        return True
    if visitor.seat is not None or visitor.link is not None:
        return True
    if visitor.invited and visitor.player_id:
        return True
    return bool(visitor.player_id) and room.seat_of(visitor.player_id) is not None


def hidden(room_kind: str = "room") -> NotFound:
    """The refusal for a room hidden from the caller: the very one a room never made gets."""
    return NotFound(room_kind, f"no such {room_kind}")


class InvitationLinks:
    """Makes, checks, counts and revokes invitation links (see the module docstring). ``store``: SqlLinks or
    MemoryLinks; ``key``: the signing key (derived from the server's secret: every node derives the same);
    ``now``: the rooms' clock."""

    def __init__(
        self,
        store: MemoryLinks | SqlLinks,
        key: bytes,
        now: Callable[[], float],
        settings: PrivateRoomSettings | None = None,
    ) -> None:
        self.store = store
        self._key = key
        self.now = now
        self.settings = settings or PrivateRoomSettings()

    async def create(self, room: Room, max_uses: int, expires_in: int) -> tuple[LinkRecord, str]:
        """A new link to ``room`` and its token. The caller is a seated player (the transport checked)."""
        settings = self.settings
        if not room.unlisted:
            raise PreconditionFailed("this room is in the lobby: anyone may join it without a link", code="room_listed")
        if not 0 <= max_uses <= settings.max_uses:
            raise InvalidRequest(
                f"max_uses must be 0-{settings.max_uses} (1: a single use; 0: {settings.max_uses})",
                code="bad_max_uses",
                field="max_uses",
            )
        longest = int(settings.max_seconds)
        if not 0 <= expires_in <= longest:
            raise InvalidRequest(
                f"expires_in_seconds must be 0-{longest} (0: a day)", code="bad_expires_in", field="expires_in_seconds"
            )
        now = self.now()
        seconds = expires_in or min(DEFAULT_SECONDS, longest)
        link = LinkRecord(
            link_id=secrets.token_hex(8),
            room_id=room.room_id,
            created_at=now,
            expires_at=now + seconds,
            max_uses=max_uses or settings.max_uses,
        )
        if not await self.store.add(link, settings.links_per_room):
            raise ResourceExhausted(
                f"this room has had its most invitation links ({settings.links_per_room})", code="too_many_links"
            )
        token = jwt.encode({"lid": link.link_id, "rid": room.room_id, "aud": AUDIENCE}, self._key, algorithm=ALGORITHM)
        return link, token

    def link_id_of(self, token: str, room_id: str) -> str:
        """The link a token names, when it is signed here for ``room_id``; LinkRefused (link_invalid) otherwise.
        Decided from the token alone: it says nothing of the room."""
        try:
            claims = jwt.decode(token, self._key, algorithms=[ALGORITHM], audience=AUDIENCE)
        except jwt.PyJWTError:
            raise LinkRefused("the invitation link is not valid", code="link_invalid") from None
        link_id, link_room = claims.get("lid"), claims.get("rid")
        if not isinstance(link_id, str) or link_room != room_id:
            raise LinkRefused("the invitation link is not valid for this room", code="link_invalid")
        return link_id

    async def check(self, token: str, room_id: str, *, joining: bool = False) -> LinkRecord:
        """The link a token names, when it opens ``room_id`` now (and, ``joining``, has a use left); LinkRefused
        naming why not."""
        link = await self.store.get(self.link_id_of(token, room_id))
        if link is not None and link.room_id != room_id:
            link = None
        why = refusal(link, self.now(), joining=joining)
        if why:
            raise LinkRefused(_MESSAGES[why], code=why)
        assert link is not None
        return link

    async def claim(self, link: LinkRecord) -> None:
        """Count one use of ``link`` for a join about to be made; LinkRefused when none is left (another join took the
        last) or it stopped opening the room meanwhile."""
        why = await self.store.claim(link.link_id, self.now())
        if why:
            raise LinkRefused(_MESSAGES[why], code=why)

    async def release(self, link: LinkRecord) -> None:
        """Give back the use :meth:`claim` counted, the join having failed."""
        await self.store.release(link.link_id)

    async def of_room(self, room_id: str) -> list[LinkRecord]:
        return await self.store.of_room(room_id)

    async def revoke(self, room_id: str, link_id: str) -> LinkRecord:
        link = await self.store.revoke(room_id, link_id)
        if link is None:
            raise NotFound("invitation_link", "no such invitation link in this room")
        return link


_MESSAGES = {
    "link_invalid": "the invitation link is not valid",
    "link_revoked": "the invitation link was revoked",
    "link_expired": "the invitation link has expired",
    "link_used_up": "the invitation link has no uses left",
}
