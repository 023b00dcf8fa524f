"""Matchmaking parties' links: the player who enqueued a ticket makes a signed, expiring, revocable link to it, and
anyone holding its token may join the party (MatchService JoinTicket with ``party_token``), friend or not, unless a
block stands between them and one of the party (either way: they are refused ``link_invalid``, exactly as for a token
not signed here, so that nothing tells them they are blocked).

The links are service/links.py's, shared with unlisted rooms' invitation links: signed with a key derived from the
server's secret under the audience ``kickoff-party`` (a room's link never opens a party), their expiry, uses and
revocation kept by the same store (service/store/links.py: the table ``invitation_links``, the row naming the ticket
where a room's names its room), so that they hold on every node and after a restart. A holder joining is added to the
ticket's members and joined at once; the ticket keeps its place in the queue (a forming one searches once everyone
invited by name joined), and takes only the table sizes its larger party still fits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.registry import get_game
from service.errors import PreconditionFailed, TicketNotFound
from service.links import LinkKind, SignedLinks
from service.matches.matchmaker import MAX_PARTY, Matchmaker, largest_team
from service.matches.store import FORMING, SEARCHING, TicketInfo
from service.settings import RoomInvitationSettings
from service.store.links import LinkRecord, MemoryLinks, SqlLinks

AUDIENCE = "kickoff-party"


class PartyLinks(SignedLinks):
    """A matchmaking ticket's party links (see the module docstring)."""

    def __init__(
        self,
        store: MemoryLinks | SqlLinks,
        key: bytes,
        now: Callable[[], float],
        settings: RoomInvitationSettings | None = None,
    ) -> None:
        settings = settings or RoomInvitationSettings()
        super().__init__(
            store,
            key,
            now,
            LinkKind(
                audience=AUDIENCE,
                per_target=settings.party_links,
                max_seconds=settings.party_link_seconds,
                max_uses=MAX_PARTY,
                noun="party link",
                kind="party_link",
            ),
        )

    async def create(
        self, matchmaker: Matchmaker, ticket_id: str, player_id: str, max_uses: int, expires_in: int
    ) -> tuple[LinkRecord, str]:
        """A new link to the ticket, for the player who enqueued it (TicketNotFound for anyone not in it,
        PreconditionFailed not_party_leader for another member, ticket_ended once it is no longer forming or
        searching). Asked without an expiry, it lasts the longest allowed."""
        ticket = await self._leads(matchmaker, ticket_id, player_id)
        if ticket.status not in (FORMING, SEARCHING):
            raise PreconditionFailed(f"the ticket is {ticket.status} already", code="ticket_ended")
        return await self.make(ticket_id, max_uses, expires_in or int(self.max_seconds))

    async def revoke_for(self, matchmaker: Matchmaker, ticket_id: str, player_id: str, link_id: str) -> LinkRecord:
        await self._leads(matchmaker, ticket_id, player_id)
        return await self.revoke(ticket_id, link_id)

    @staticmethod
    async def _leads(matchmaker: Matchmaker, ticket_id: str, player_id: str) -> TicketInfo:
        ticket, _ = await matchmaker.ticket(ticket_id, player_id)
        if ticket.members[0] != player_id:
            raise PreconditionFailed("only the player who enqueued the ticket may do this", code="not_party_leader")
        return ticket

    async def join(self, matchmaker: Matchmaker, ticket_id: str, player_id: str, token: str) -> TicketInfo:
        """The token's holder joins the party: one of the link's uses, given back if the join fails."""
        link = await self.check(token, ticket_id, joining=True)
        info = await matchmaker.players.player(player_id)
        if info is None:
            raise TicketNotFound("no such ticket")
        await self.claim(link)
        try:
            ticket = await matchmaker.store.join_by_link(ticket_id, player_id, info.name, fitting)
        except BaseException:
            await self.release(link)
            raise
        matchmaker.watch.changed([ticket_id])
        return ticket


def fitting(game: str, size: int, options: Mapping[str, Any]) -> list[int]:
    """The table sizes of ``game`` a party of ``size`` fits (on one team where the game has teams)."""
    rules = get_game(game)
    return [count for count in rules.spec.seat_counts if size <= largest_team(rules, count, options)]
