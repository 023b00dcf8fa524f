"""MatchService: matchmaking over gRPC. It reads requests and hands them to the matchmaker (service/matches/); the
one thing it adds is the caller's own seat token, once the ticket is matched (no one else's is ever sent). An Enqueue
with a request id is keyed to the signed-in player (service/actors/requests.py); JoinTicket and AcceptMatch need none:
sent again, each answers the ticket as it stands and changes nothing (a member joined already, a seat taken up
already)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc

from kickoff.v1 import common_pb2, match_pb2, match_pb2_grpc
from service.actors.requests import request_key
from service.errors import InvalidRequest
from service.grpc.admission import Admission
from service.grpc.convert import MODE, MODE_NAME, options_from, struct, timestamp
from service.grpc.errors import KickoffError, abort
from service.grpc.limits import check_request
from service.grpc.servicers import RoomAccess, bearer_token, internal, parameters_of, seat_origin, unary
from service.matches.matchmaker import Matchmaker
from service.matches.party import PartyLinks
from service.matches.store import CANCELLED, EXPIRED, FORMING, MATCHED, PROPOSED, SEARCHING, MatchInfo, TicketInfo
from service.players.players import Players
from service.presence.presence import SEARCHING as LOOKING
from service.presence.presence import holding
from service.rooms.deals import seat_seed
from service.rooms.room import ONLINE
from service.store.links import LinkRecord, MemoryLinks

MATCH_SERVICE = match_pb2.DESCRIPTOR.services_by_name["MatchService"].full_name
TICKET_STATUS = {
    FORMING: match_pb2.TICKET_STATUS_FORMING,
    SEARCHING: match_pb2.TICKET_STATUS_SEARCHING,
    PROPOSED: match_pb2.TICKET_STATUS_PROPOSED,
    MATCHED: match_pb2.TICKET_STATUS_MATCHED,
    CANCELLED: match_pb2.TICKET_STATUS_CANCELLED,
    EXPIRED: match_pb2.TICKET_STATUS_EXPIRED,
}


def ticket_to_proto(ticket: TicketInfo, match: MatchInfo | None, viewer: str, access: RoomAccess) -> match_pb2.Ticket:
    """The ticket as ``viewer`` (one of its members) sees it: with the viewer's own seat token once matched."""
    accepted = set()
    message = match_pb2.Ticket(
        ticket_id=ticket.ticket_id,
        game=ticket.game,
        status=TICKET_STATUS[ticket.status],
        seat_counts=list(ticket.counts),
        options=struct(ticket.options),
        rating=ticket.rating,
        create_time=timestamp(ticket.created_at),
        version=ticket.version,
        reason=ticket.reason,
        returned=ticket.returned,
        mode=MODE[ticket.mode],
    )
    if ticket.status in (FORMING, SEARCHING):
        message.expire_time.CopyFrom(timestamp(ticket.expires_at))
    if match is not None and ticket.status in (PROPOSED, MATCHED) and ticket.match_id == match.match_id:
        table = message.table
        table.room_id, table.seats, table.system_player = match.room_id, match.size, match.system_player
        table.rating_spread = match.spread
        for seat in match.seats:
            line = table.table_seats.add(seat=seat["seat"], team=seat.get("team", seat["seat"]))
            if seat.get("bot"):
                line.kind = common_pb2.SEAT_KIND_SYSTEM
                line.name = f"{match.system_player} bot"
            elif seat.get("ticket"):
                line.kind = common_pb2.SEAT_KIND_PERSON
                line.player_id, line.name, line.accepted = seat["player"], seat["name"], bool(seat.get("accepted"))
                if seat.get("accepted") and seat["ticket"] == ticket.ticket_id:
                    accepted.add(seat["player"])
            if seat.get("player") == viewer and seat.get("ticket") == ticket.ticket_id:
                table.seat = seat["seat"]
                if ticket.status == MATCHED:
                    table.seat_token = access.tokens.issue(match.room_id, seat["seat"], seat["nonce"])
                elif not seat.get("accepted"):
                    table.take_up_time.CopyFrom(timestamp(seat["by"]))
    for player, name in zip(ticket.members, ticket.names, strict=True):
        message.members.add(
            player_id=player,
            name=name,
            accepted=player in accepted or ticket.status == MATCHED,
            joined=player in ticket.joined,
        )
    return message


def party_link_to_proto(link: LinkRecord) -> match_pb2.PartyLink:
    """A party link as its ticket's leader sees it (never its token)."""
    return match_pb2.PartyLink(
        link_id=link.link_id,
        ticket_id=link.room_id,
        max_uses=link.max_uses,
        uses=link.uses,
        create_time=timestamp(link.created_at),
        expire_time=timestamp(link.expires_at),
        revoked=link.revoked,
    )


class MatchServicer(match_pb2_grpc.MatchServiceServicer):
    SERVICE = MATCH_SERVICE

    def __init__(
        self,
        matchmaker: Matchmaker,
        players: Players,
        access: RoomAccess,
        admission: Admission,
        party_links: PartyLinks | None = None,
    ) -> None:
        self.matchmaker = matchmaker
        self.party_links = party_links or PartyLinks(
            MemoryLinks(), access.tokens.derived_key(b"kickoff party links"), matchmaker.store.clock
        )
        self.players = players
        self.access = access
        self.admission = admission

    async def _player(self, context: Any) -> str:
        return (await self.players.caller(bearer_token(context))).player_id

    def _ticket_id(self, request: Any) -> str:
        if not request.ticket_id:
            raise InvalidRequest("ticket_id is required", code="missing_ticket_id", field="ticket_id")
        return request.ticket_id  # type: ignore[no-any-return]

    async def _view(self, ticket_id: str, player: str) -> match_pb2.Ticket:
        ticket, match = await self.matchmaker.ticket(ticket_id, player)
        return ticket_to_proto(ticket, match, player, self.access)

    @unary
    async def Enqueue(self, request: match_pb2.EnqueueRequest, context: Any) -> match_pb2.EnqueueResponse:
        player = await self._player(context)
        caller = self.admission.admit(context, "join")
        self.admission.invite(player, len(request.party))
        mode = MODE_NAME.get(request.mode, ONLINE) if request.mode else ONLINE
        key = request_key(request.request_id, player, parameters_of(request))  # (a player's: any id will do)
        ticket = await self.matchmaker.enqueue(
            player,
            game=request.game,
            counts=list(request.seat_counts),
            mode=mode,
            options=options_from(request.options) if request.HasField("options") else {},
            party=list(request.party),
            caller=caller.identity,
            request=key,
        )
        if key is not None:  # (a retry: the ticket as it stands now, with its table once it has one)
            return match_pb2.EnqueueResponse(ticket=await self._view(ticket.ticket_id, player))
        return match_pb2.EnqueueResponse(ticket=ticket_to_proto(ticket, None, player, self.access))

    @unary
    async def GetTicket(self, request: match_pb2.GetTicketRequest, context: Any) -> match_pb2.GetTicketResponse:
        player = await self._player(context)
        return match_pb2.GetTicketResponse(ticket=await self._view(self._ticket_id(request), player))

    @unary
    async def JoinTicket(self, request: match_pb2.JoinTicketRequest, context: Any) -> match_pb2.JoinTicketResponse:
        ticket_id = self._ticket_id(request)
        if request.party_token:  # (a link that is not this ticket's says nothing of the ticket: before it is found)
            self.party_links.link_id_of(request.party_token, ticket_id)
        player = await self._player(context)
        if request.party_token:
            await self.party_links.join(self.matchmaker, ticket_id, player, request.party_token)
        else:
            await self.matchmaker.join(ticket_id, player)
        return match_pb2.JoinTicketResponse(ticket=await self._view(ticket_id, player))

    @unary
    async def CreatePartyLink(
        self, request: match_pb2.CreatePartyLinkRequest, context: Any
    ) -> match_pb2.CreatePartyLinkResponse:
        player = await self._player(context)
        link, token = await self.party_links.create(
            self.matchmaker, self._ticket_id(request), player, request.max_uses, request.expires_in_seconds
        )
        return match_pb2.CreatePartyLinkResponse(link=party_link_to_proto(link), token=token)

    @unary
    async def RevokePartyLink(
        self, request: match_pb2.RevokePartyLinkRequest, context: Any
    ) -> match_pb2.RevokePartyLinkResponse:
        player = await self._player(context)
        if not request.link_id:
            raise InvalidRequest("link_id is required", code="missing_link_id", field="link_id")
        link = await self.party_links.revoke_for(self.matchmaker, self._ticket_id(request), player, request.link_id)
        return match_pb2.RevokePartyLinkResponse(link=party_link_to_proto(link))

    @unary
    async def AcceptMatch(self, request: match_pb2.AcceptMatchRequest, context: Any) -> match_pb2.AcceptMatchResponse:
        player = await self._player(context)
        ticket_id = self._ticket_id(request)
        origin = seat_origin(self.access, self.admission, context)
        await self.matchmaker.accept(ticket_id, player, origin, seat_seed(request.seed))
        return match_pb2.AcceptMatchResponse(ticket=await self._view(ticket_id, player))

    @unary
    async def CancelTicket(
        self, request: match_pb2.CancelTicketRequest, context: Any
    ) -> match_pb2.CancelTicketResponse:
        player = await self._player(context)
        ticket_id = self._ticket_id(request)
        await self.matchmaker.cancel(ticket_id, player)
        return match_pb2.CancelTicketResponse(ticket=await self._view(ticket_id, player))

    @unary
    async def DeclineTicket(
        self, request: match_pb2.DeclineTicketRequest, context: Any
    ) -> match_pb2.DeclineTicketResponse:
        player = await self._player(context)
        await self.matchmaker.decline(self._ticket_id(request), player)
        return match_pb2.DeclineTicketResponse()

    @unary
    async def ListMyTickets(
        self, request: match_pb2.ListMyTicketsRequest, context: Any
    ) -> match_pb2.ListMyTicketsResponse:
        player = await self._player(context)
        answer = match_pb2.ListMyTicketsResponse()
        for ticket in await self.matchmaker.store.live_of(player):
            answer.tickets.append(await self._view(ticket.ticket_id, player))
        return answer

    async def FollowTicket(
        self, request: match_pb2.FollowTicketRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[match_pb2.FollowTicketResponse]:
        try:
            check_request(request)
            player = await self._player(context)
            ticket_id = self._ticket_id(request)
            ticket, _ = await self.matchmaker.ticket(ticket_id, player)  # (NOT_FOUND before the stream is accepted)
            watch = self.matchmaker.watch
            with (
                self.admission.stream(context),
                watch.follow(ticket_id) as changed,
                self.access.directory.telemetry.instruments.stream("ticket"),
                holding(self.players, player, LOOKING),  # (issue 48: presence)
            ):
                await context.send_initial_metadata(())
                sent = 0
                while True:
                    changed.clear()
                    ticket, match = await self.matchmaker.ticket(ticket_id, player)
                    watch.seen(ticket_id, ticket.version)
                    if ticket.version > sent:
                        sent = ticket.version
                        yield match_pb2.FollowTicketResponse(ticket=ticket_to_proto(ticket, match, player, self.access))
                    if not ticket.live:
                        return
                    await changed.wait()
        except KickoffError as error:
            await abort(context, error)
        except grpc.aio.AbortError:
            raise
        except Exception:
            await internal(context, "FollowTicket")
