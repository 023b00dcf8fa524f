"""Private tables: who may see and join an unlisted room, and its invitation links.

An unlisted room (CreateRoomRequest.unlisted) is in no listing (the store leaves it out of every page), and for anyone
:func:`may_enter` does not let in it does not exist: the transports answer NOT_FOUND (room_not_found), exactly as for
a room never made. :func:`may_enter` is the one place that decides: its seated players (a seat token of the room, or
the access token of a player seated there), the holders of one of its links that opens it now, and the friends a
seated player invited to it while their invitation is pending (service/rooms/invitations.py).

**Links.** :class:`InvitationLinks` makes them for a room's seated players, lists and revokes them: signed, expiring,
counted links (service/links.py, which a matchmaking party's links share) whose target is the room, under the
audience ``kickoff-invitation``. A link lets its holder watch and replay while it is neither revoked nor expired
(watching uses nothing); each join it lets in is one use, counted atomically as the join is made.

**Counted.** The kickoff.room.invitation_links counter (kickoff.link.outcome) counts each link ``made`` (once the store
holds it), each seat taken with one (``joined``, by the transport once the join is committed), each events stream a
link opens for someone with no seat there (``watched``), and each refusal of one by its reason (``link_invalid``,
``link_revoked``, ``link_expired``, ``link_used_up``), on the node that refuses it, once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from service.errors import NotFound, PreconditionFailed
from service.links import DEFAULT_SECONDS, LinkKind, LinkRefused, SignedLinks
from service.rooms.room import Room
from service.settings import PrivateRoomSettings
from service.store.links import LinkRecord, MemoryLinks, SqlLinks
from service.telemetry import Telemetry

__all__ = ["DEFAULT_SECONDS", "InvitationLinks", "LinkRefused", "Visitor", "hidden", "may_enter"]

AUDIENCE = "kickoff-invitation"


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


class InvitationLinks(SignedLinks):
    """An unlisted room's invitation links (see the module docstring). ``store``: SqlLinks or MemoryLinks; ``key``:
    the signing key; ``now``: the rooms' clock; ``settings``: their bounds; ``telemetry``: where they are counted
    (see the module docstring)."""

    def __init__(
        self,
        store: MemoryLinks | SqlLinks,
        key: bytes,
        now: Callable[[], float],
        settings: PrivateRoomSettings | None = None,
        telemetry: Telemetry | None = None,
    ) -> None:
        self.settings = settings = settings or PrivateRoomSettings()
        self.counted = (telemetry or Telemetry()).instruments.invitation_links
        super().__init__(
            store,
            key,
            now,
            LinkKind(
                audience=AUDIENCE,
                per_target=settings.links_per_room,
                max_seconds=settings.max_seconds,
                max_uses=settings.max_uses,
                noun="invitation link",
                kind="invitation_link",
            ),
        )

    async def create(self, room: Room, max_uses: int, expires_in: int) -> tuple[LinkRecord, str]:
        """A new link to ``room`` and its token. The caller is a seated player (the transport checked)."""
        if not room.unlisted:
            raise PreconditionFailed("this room is in the lobby: anyone may join it without a link", code="room_listed")
        made = await self.make(room.room_id, max_uses, expires_in)
        self.used("made")
        return made

    def used(self, outcome: str) -> None:
        """Count ``outcome`` of a link: made, joined, watched (see the module docstring)."""
        self.counted.add(1, {"kickoff.link.outcome": outcome})

    def _refused(self, why: str, message: str = "") -> LinkRefused:
        self.used(why)
        return super()._refused(why, message)

    async def of_room(self, room_id: str) -> list[LinkRecord]:
        return await self.of_target(room_id)
