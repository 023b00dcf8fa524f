"""The servicers: they read requests, find the room and the caller's seat, and hand the work to the room.

They hold no game rules: moves go to the room (and so to the engine) as the game's codec reads them, and refusals come
back typed and leave through service/grpc/errors.py. Every request is checked against its bounds first
(service/grpc/limits.py), and creating, joining and streaming pass the caller's admission (admission.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import grpc
from google.protobuf import timestamp_pb2

from engine.core import Game, UnknownGame
from engine.levels import levels_of
from engine.registry import GAMES, get_game
from kickoff.v1 import chat_pb2, common_pb2, game_pb2, game_pb2_grpc, move_pb2, move_pb2_grpc, room_pb2, room_pb2_grpc
from service.actors.directory import page_size_of
from service.actors.feed import Feed
from service.actors.requests import RequestKey, request_key
from service.actors.runtime import Remote
from service.chat.chat import Chat
from service.errors import (
    Conflict,
    InvalidRequest,
    NotFound,
    PermissionDenied,
    PreconditionFailed,
    StoreUnavailable,
    Unauthenticated,
)
from service.grpc.admission import Admission
from service.grpc.chat_stream import at_table, message_to_proto, reader_of, with_chat
from service.grpc.codecs import codec_of
from service.grpc.convert import (
    CHAT_MODE_NAME,
    MODE_NAME,
    REMATCH_FILL_NAME,
    STATUS_NAME,
    add_clocks,
    codec_for,
    options_from,
    replay_to_proto,
    room_to_proto,
    rules_to_proto,
    stream_message,
    submit_answer,
    update_bytes,
)
from service.grpc.errors import KickoffError, abort, to_status
from service.grpc.forward import Forwarder
from service.grpc.limits import check_request
from service.grpc.tokens import TICKET_SECONDS, SeatClaim, SeatTokens
from service.players.players import Players
from service.players.store import PlayerInfo as Player
from service.presence.presence import AT_TABLE, holding, seat_player
from service.rooms.deals import seat_seed
from service.rooms.directory import NewRoom, RoomDirectory
from service.rooms.invitations import ACCEPTED, DECLINED, Invitation, RoomInvitations
from service.rooms.private import InvitationLinks, Visitor, hidden, may_enter
from service.rooms.rematches import Rematches, seat_of_caller
from service.rooms.room import Room, Update
from service.rooms.seats import PERSON
from service.rooms.updates import WAITING
from service.store.database import store_away
from service.store.links import LinkRecord, MemoryLinks

Response = TypeVar("Response")
log = logging.getLogger(__name__)


def unary(method: Callable[..., Awaitable[Response]]) -> Callable[..., Awaitable[Response]]:
    """Check the request against its bounds, then run the method; turn the typed errors it raises into statuses."""
    name = method.__name__

    @functools.wraps(method)
    async def wrapper(self: Any, request: Any, context: grpc.aio.ServicerContext) -> Response:
        try:
            check_request(request)
            return await method(self, request, context)
        except KickoffError as error:
            await abort(context, error)
        except grpc.aio.AbortError:  # (a forwarded call's status, already set)
            raise
        except Exception:
            await internal(context, name)

    return wrapper


def routed(method: Callable[..., Awaitable[Response]]) -> Callable[..., Awaitable[Response]]:
    """A :func:`unary` call that names a room or a tournament: the servicer's ``locate`` finds it, and the method is
    handed what it found. One that another node of the cluster owns (Remote) is forwarded there whole instead
    (service/grpc/forward.py): the method never runs here."""
    name = method.__name__

    @functools.wraps(method)
    async def wrapper(self: Any, request: Any, context: grpc.aio.ServicerContext) -> Response:
        self.access.check_link(request)  # (a link that is not this room's says nothing of the room: before it is found)
        found = await self.locate(request)
        if isinstance(found, Remote):
            return await self.access.forwarder.unary(f"/{self.SERVICE}/{name}", request, context, found)
        # (JoinRoom counts the link's use; an invitation's answer says why an invitation ended, to its invitee only)
        if isinstance(found, Room) and found.unlisted and name not in ANSWERS:
            await self.access.enter(found, context, getattr(request, "invitation_token", ""))
        return await method(self, request, context, found)

    return unary(wrapper)


ANSWERS = frozenset({"JoinRoom", "AcceptRoomInvitation", "DeclineRoomInvitation"})


async def internal(context: grpc.aio.ServicerContext, name: str) -> None:
    """An error nothing on the call's way turned into a refusal. A store that cannot be reached (its driver's own
    errors, from any query on the way: finding a room's owner, claiming it, reading it back) is the documented
    retriable answer, UNAVAILABLE ``store_unavailable``, logged in one line; anything else is a bug: logged whole, and
    the client told no internals."""
    error = sys.exc_info()[1]
    if error is not None and store_away(error):
        log.warning("%s: the store is unavailable: %s", name, type(error).__name__)
        await abort(context, StoreUnavailable("the store is unavailable; try again shortly"))
    log.exception("%s failed", name)
    await context.abort(grpc.StatusCode.INTERNAL, "internal error: the server logged it")


def bearer_token(context: grpc.aio.ServicerContext) -> str | None:
    """The seat token from ``authorization: Bearer <token>`` metadata, or None when there is none."""
    for key, value in context.invocation_metadata() or ():
        if key == "authorization":
            scheme, _, token = value.partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise Unauthenticated("authorization metadata must be 'Bearer <seat token>'")
            return token.strip()
    return None


def parameters_of(request: Any) -> bytes:
    """A request's parameters but its request id, serialised the same way every time (for its request key)."""
    copy = type(request)()
    copy.CopyFrom(request)
    copy.ClearField("request_id")
    return copy.SerializeToString(deterministic=True)


def _room_id(request: Any) -> str:
    if not request.room_id:
        raise InvalidRequest("room_id is required", code="missing_room_id")
    return request.room_id


class RoomAccess:
    """What a call may reach: the room it names (here, or Remote: on the node that owns it), and what the caller's
    tokens give them there (the seat a seat token or a stream ticket names, the player an access token signs in)."""

    def __init__(
        self,
        directory: RoomDirectory,
        tokens: SeatTokens,
        forwarder: Forwarder | None = None,
        players: Players | None = None,
        links: InvitationLinks | None = None,
        invitations: RoomInvitations | None = None,
        rematches: Rematches | None = None,
        chat: Chat | None = None,
    ) -> None:
        self.directory = directory
        self.chat = chat  # rooms' chat (None: a store in memory, no chat), which the room streams carry when asked
        self.invitations = invitations  # invitations to a friend (None: a server without players)
        self.tokens = tokens
        self.forwarder = forwarder  # a node of a cluster: calls for rooms other nodes own go there
        self.players = players  # sign-in and sessions (None: a server without players, on a store in memory)
        # unlisted rooms' invitation links (default: kept in memory, for a server whose store is in memory)
        self.links = links or InvitationLinks(
            MemoryLinks(), tokens.derived_key(b"kickoff invitation links"), directory.clock.now
        )
        self.rematches = rematches or Rematches(directory)  # finished rooms' rematches (service/rooms/rematches.py)

    def check_link(self, request: Any) -> None:
        """LinkRefused (link_invalid) for an invitation token that is malformed, not signed here or for another room
        than the request's: decided before the room is looked for, so that it says nothing of the room."""
        token = getattr(request, "invitation_token", "")
        if token:
            self.links.link_id_of(token, _room_id(request))

    async def enter(
        self, room: Room, context: grpc.aio.ServicerContext, link: str = "", *, ticket: str = "", joining: bool = False
    ) -> Visitor:
        """What the caller brings to ``room`` (service/rooms/private.py's Visitor): the seat its seat token or stream
        ticket proves, the player its access token signs in, the link its invitation token names (checked: a refused
        link's reason). For an unlisted room the caller may not enter, NotFound exactly as for a room never made."""
        if not room.unlisted:
            return Visitor()
        seat, player_id = None, ""
        if ticket:
            with contextlib.suppress(Unauthenticated, PermissionDenied):
                seat = self.ticket_seat(ticket, room)[0]
        token = bearer_token(context)
        if token is not None:
            caller = await self.players.optional_caller(token) if self.players is not None else None
            if caller is not None:
                player_id = caller.player_id
            else:
                with contextlib.suppress(Unauthenticated):
                    claim = self.tokens.verify(token)
                    if claim.room_id == room.room_id:
                        room.check_seat(claim.seat, claim.nonce)
                        seat = claim.seat
        held = await self.links.check(link, room.room_id, joining=joining) if link else None
        invited = False
        if player_id and seat is None and held is None and room.seat_of(player_id) is None and self.invitations:
            invited = await self.invitations.invited(room.room_id, player_id) is not None
        visitor = Visitor(seat, player_id, held, invited)
        if not may_enter(room, visitor):
            raise hidden()
        return visitor

    async def seated(self, room: Room, context: grpc.aio.ServicerContext) -> None:
        """For the calls of a room's seated players (its links): PermissionDenied (not_seated) for anyone else (for
        whom an unlisted room does not exist: NotFound)."""
        visitor = await self.enter(room, context)
        if visitor.seat is None and not (visitor.player_id and room.seat_of(visitor.player_id) is not None):
            if room.unlisted:
                raise hidden()
            raise PermissionDenied("only a player seated in this room may do this", code="not_seated")

    async def caller_seat(self, room: Room, context: grpc.aio.ServicerContext) -> int:
        """The person's seat of ``room`` the caller holds, proved by its seat token or their player's access token:
        Unauthenticated without a token, PermissionDenied (not_seated) for anyone else."""
        token = bearer_token(context)
        if token is None:
            raise Unauthenticated("this call needs a seat token or a player's access token")
        caller = await self.players.optional_caller(token) if self.players is not None else None
        if caller is not None:
            return seat_of_caller(room, None, caller.player_id)
        claim = self.tokens.verify(token)
        if claim.room_id != room.room_id:
            raise PermissionDenied("this seat token is for another room's seat", code="not_seated")
        room.check_seat(claim.seat, claim.nonce)
        return seat_of_caller(room, claim.seat, "")

    async def table_seat(self, room: Room, context: grpc.aio.ServicerContext) -> int | None:
        """The person's seat of ``room`` the caller sat in, proved by its seat token or their player's access token
        (Unauthenticated for an access token that is not valid, to be refreshed); None for anyone else, a seat token
        of another room or of a seat that changed hands included."""
        token = bearer_token(context)
        if token is None:
            return None
        caller = await self.players.optional_caller(token) if self.players is not None else None
        if caller is not None:
            record = room.seat_of(caller.player_id)
            return record.seat if record is not None and record.kind == PERSON else None
        with contextlib.suppress(Unauthenticated, PermissionDenied):
            seat, _ = self.seat(context, room, required=True)  # type: ignore[misc]
            return seat if room.seats[seat].kind == PERSON else None
        return None

    async def player(self, context: grpc.aio.ServicerContext) -> Player | None:
        """The signed-in player a call that anyone may make is made for: an access token's (checked: Unauthenticated
        when it is not valid), else None (a seat token, or none)."""
        if self.players is None:
            return None
        caller = await self.players.optional_caller(bearer_token(context))
        if caller is None:
            return None
        return await self.players.me(caller)

    async def locate(self, request: Any) -> Room | Remote:
        """The room the request names: here, or on the node that owns it (a resting room is loaded, and kept from
        resting again for a while: the call uses it)."""
        return await self.directory.locate(_room_id(request), use=True)

    def seat(self, context: grpc.aio.ServicerContext, room: Room, *, required: bool) -> tuple[int, str] | None:
        """The caller's (seat, nonce) in ``room``; None for a spectator when ``required`` is False."""
        token = bearer_token(context)
        if token is None:
            if required:
                raise Unauthenticated("this call needs a seat token: send 'authorization: Bearer <token>'")
            return None
        claim = self.tokens.verify(token)
        # A tournament's token is good in every room of that tournament (its seat nonce is the same in each).
        if claim.room_id != room.room_id and not (room.tournament_id and claim.room_id == room.tournament_id):
            raise PermissionDenied("this seat token is for another room's seat")
        seat = claim.seat
        if claim.room_id == room.tournament_id:  # (a duplicate tournament seats its players rotated: by the nonce)
            seat = next((s.seat for s in room.seats if s.nonce and s.nonce == claim.nonce), claim.seat)
        room.check_seat(seat, claim.nonce)
        return seat, claim.nonce

    async def summary(self, room: Room | Remote, context: grpc.aio.ServicerContext) -> room_pb2.Room | None:
        """A room as GetRoom answers it: this node's, or asked of the node that owns it (None: that node did not
        answer)."""
        if isinstance(room, Room):
            return room_to_proto(room)
        assert self.forwarder is not None
        answer = await self.forwarder.fetch(
            f"/{ROOM_SERVICE}/GetRoom", room_pb2.GetRoomRequest(room_id=room.target_id), context, room
        )
        return None if answer is None else room_pb2.GetRoomResponse.FromString(answer).room

    def ticket(self, room: Room, seat: int, nonce: str) -> tuple[str, int]:
        """A stream ticket for the seat in ``room``, and when it expires (Unix seconds, the rooms' clock)."""
        expires = int(self.directory.clock.now()) + TICKET_SECONDS
        return self.tokens.issue_ticket(SeatClaim(room.room_id, seat, nonce), expires), expires

    def ticket_seat(self, ticket: str, room: Room) -> tuple[int, str]:
        """The seat (and its nonce) a stream ticket opens ``room``'s streams for."""
        claim = self.tokens.verify_ticket(ticket, self.directory.clock.now())
        if claim.room_id != room.room_id:
            raise PermissionDenied("this stream ticket is for another room")
        room.check_seat(claim.seat, claim.nonce)
        return claim.seat, claim.nonce


def team_seat_counts(game: Any) -> list[int]:
    """The table sizes at which ``game``'s seats play in teams of partners, with its default options (GameInfo)."""
    return [
        count
        for count in game.spec.seat_counts
        if len(set(teams := game.teams(count, game.spec.resolve(count)))) < len(teams)
    ]


class GameServicer(game_pb2_grpc.GameServiceServicer):
    @unary
    async def ListGames(self, request: game_pb2.ListGamesRequest, context: Any) -> game_pb2.ListGamesResponse:
        return game_pb2.ListGamesResponse(
            games=[
                game_pb2.GameInfo(
                    name=g.spec.name,
                    title=g.spec.title,
                    seat_counts=g.spec.seat_counts,
                    summary=g.spec.summary,
                    seat_choice=g.spec.seat_choice,
                    levels=levels_of(g),
                    team_seat_counts=team_seat_counts(g),
                )
                for g in GAMES.values()
            ]
        )

    @unary
    async def GetRules(self, request: game_pb2.GetRulesRequest, context: Any) -> game_pb2.GetRulesResponse:
        game = _named_game(request.game)
        return game_pb2.GetRulesResponse(rules=rules_to_proto(game, options_from(request.options)))

    @unary
    async def ListCards(self, request: game_pb2.ListCardsRequest, context: Any) -> game_pb2.ListCardsResponse:
        return _cards_of(_named_game(request.game))


def _named_game(name: str) -> Game:
    """The game a request names: InvalidRequest when it names none, NotFound (unknown_game) when there is none."""
    if not name:
        raise InvalidRequest("game is required", code="missing_game")
    try:
        return get_game(name)
    except UnknownGame:
        known = ", ".join(sorted(GAMES))
        raise NotFound("game", f"no such game (known: {known})", code="unknown_game", field="game") from None


@functools.cache
def _cards_of(game: Game) -> game_pb2.ListCardsResponse:
    """A game's catalogue as its answer, built once: the cards never change while the process runs."""
    codec = codec_of(game)
    return game_pb2.ListCardsResponse(game=game.spec.name, cards=[codec.card_to_proto(f) for f in game.catalogue()])


ROOM_SERVICE = room_pb2.DESCRIPTOR.services_by_name["RoomService"].full_name
MOVE_SERVICE = move_pb2.DESCRIPTOR.services_by_name["MoveService"].full_name


def seat_origin(access: RoomAccess, admission: Admission, context: Any) -> str:
    """What the seat a player takes (a room's, a tournament's) keeps of the caller's network (Players.origin): two
    people seated from one play unrated (service/rooms/room.py). Nothing without players, or where
    KICKOFF_RATE_SHARED_ADDRESSES is on."""
    if access.players is None or admission.settings.rate_shared_addresses:
        return ""
    return access.players.origin(admission.network(context))


class RoomServicer(room_pb2_grpc.RoomServiceServicer):
    SERVICE = ROOM_SERVICE

    def __init__(self, access: RoomAccess, admission: Admission) -> None:
        self.access = access
        self.admission = admission

    async def locate(self, request: Any) -> Room | Remote:
        return await self.access.locate(request)

    def _origin(self, context: Any) -> str:
        return seat_origin(self.access, self.admission, context)

    @unary
    async def CreateRoom(self, request: room_pb2.CreateRoomRequest, context: Any) -> room_pb2.CreateRoomResponse:
        self.admission.admit(context, "create")
        if request.mode not in MODE_NAME:
            raise InvalidRequest("mode must be ROOM_MODE_ONLINE or ROOM_MODE_SOLO", code="bad_mode")
        player = await self.access.player(context)
        if player is None and request.unlisted:
            raise InvalidRequest(
                "an unlisted room is a player's: send your access token (you are seated at once), or nobody could "
                "find the room",
                field="unlisted",
                code="unlisted_needs_player",
            )
        if player is None and request.choice:
            raise InvalidRequest(
                "choice is the creating player's: send a player's access token, or join with the choice",
                field="choice",
                code="choice_needs_player",
            )
        seed = seat_seed(request.seed)  # (a bad one is refused before a room is made)
        if player is None and seed:
            raise InvalidRequest(
                "seed is the creating player's seat's: send a player's access token, or join with the seed",
                field="seed",
                code="seed_needs_player",
            )
        key = request_key(request.request_id, player.player_id if player else "", parameters_of(request))

        async def create() -> Room:
            if player is not None:
                await self.access.players.store.check_live_bound(player.player_id)  # type: ignore[union-attr]
            return await self._create(request, key)

        room = await self.access.directory.create_once(key, create)  # (a retry: the room its id made)
        if isinstance(room, Remote):  # (a retry: the room is on the node that holds it, which answers)
            assert self.access.forwarder is not None
            return await self.access.forwarder.unary(f"/{self.SERVICE}/CreateRoom", request, context, room)
        if player is None:
            return room_pb2.CreateRoomResponse(room=room_to_proto(room))
        # The creator sits down at once (a retry: in the seat the first call took, with the same token).
        seat, nonce = await room.join(
            None, player.name, request.choice, player.player_id, self._origin(context), key, seed
        )
        token = self.access.tokens.issue(room.room_id, seat, nonce)
        return room_pb2.CreateRoomResponse(room=room_to_proto(room), seat=seat, seat_token=token)

    async def _create(self, request: room_pb2.CreateRoomRequest, key: RequestKey | None) -> Room:
        return await self.access.directory.create(
            NewRoom(
                game=request.game,
                mode=MODE_NAME[request.mode],
                seats=request.seats,
                system_players=request.system_players,
                system_seats=tuple(request.system_seats),
                options=options_from(request.options),
                system_player=request.system_player,
                think_seconds=request.think_seconds if request.HasField("think_seconds") else None,
                rated=request.rated if request.HasField("rated") else None,
                choice=request.choice,
                correspondence_hours=request.correspondence_hours,
                stand_ins=request.stand_ins,
                unlisted=request.unlisted,
                rematch_fill=_rematch_fill(request.rematch_fill),
                chat=_chat_mode(request.chat),
                team_chat=request.team_chat,
            ),
            request=key,
        )

    @routed
    async def GetRoom(self, request: room_pb2.GetRoomRequest, context: Any, room: Room) -> room_pb2.GetRoomResponse:
        await self.access.rematches.attach(room)  # (a finished room shows its rematch)
        return room_pb2.GetRoomResponse(room=room_to_proto(room))

    @routed
    async def ProposeRematch(
        self, request: room_pb2.ProposeRematchRequest, context: Any, room: Room
    ) -> room_pb2.ProposeRematchResponse:
        seat = await self.access.caller_seat(room, context)
        await self.access.rematches.propose(room, seat, seat_seed(request.seed))
        return room_pb2.ProposeRematchResponse(room=room_to_proto(room))

    @routed
    async def AnswerRematch(
        self, request: room_pb2.AnswerRematchRequest, context: Any, room: Room
    ) -> room_pb2.AnswerRematchResponse:
        seat = await self.access.caller_seat(room, context)
        record = await self.access.rematches.answer(room, seat, request.accept, seat_seed(request.seed))
        response = room_pb2.AnswerRematchResponse(room=room_to_proto(room))
        if record.new_room_id and record.answers.get(seat) == "accepted":
            made = await self.access.directory.locate(record.new_room_id)
            if isinstance(made, Room):  # (another node's: its seated players ask it, or their /my-seat)
                response.seat = seat
                response.seat_token = self.access.tokens.issue(made.room_id, seat, made.seats[seat].nonce)
        return response

    @unary
    async def ListRooms(self, request: room_pb2.ListRoomsRequest, context: Any) -> room_pb2.ListRoomsResponse:
        if request.status and request.status not in STATUS_NAME:
            names = ", ".join(common_pb2.RoomStatus.Name(value) for value in sorted(STATUS_NAME))
            raise InvalidRequest(f"status must be unset or one of {names}", code="bad_status", field="status")
        found, following = await self.access.directory.list(
            game=request.game,
            status=STATUS_NAME.get(request.status, ""),
            page_size=request.page_size,
            page_token=request.page_token,
        )
        rooms = await asyncio.gather(*(self.access.summary(room, context) for room in found))
        return room_pb2.ListRoomsResponse(rooms=[r for r in rooms if r is not None], next_page_token=following)

    @routed
    async def JoinRoom(self, request: room_pb2.JoinRoomRequest, context: Any, room: Room) -> room_pb2.JoinRoomResponse:
        self.admission.admit(context, "join")
        player = await self.access.player(context)
        key = request_key(request.request_id, player.player_id if player else "", parameters_of(request))
        retry = room.joined_with(key)
        # An unlisted room lets in its seated players (who are then told already_seated) and a link's holders, each
        # join a link lets in counting one of its uses (given back if the join fails). A retry is let in as before.
        link: LinkRecord | None = None
        if room.unlisted and not retry:
            visitor = await self.access.enter(room, context, request.invitation_token, joining=True)
            if visitor.seat is None and (player is None or room.seat_of(player.player_id) is None):
                link = visitor.link
        if player is not None and not retry:  # (a retry takes no seat more)
            await self.access.players.store.check_live_bound(player.player_id)  # type: ignore[union-attr]
        if link is not None:
            await self.access.links.claim(link)
        try:
            seat, nonce = await room.join(
                request.seat if request.HasField("seat") else None,
                request.name or (player.name if player else ""),
                request.choice,
                player.player_id if player else "",
                self._origin(context),
                key,
                seat_seed(request.seed),
            )
        except BaseException:
            if link is not None:
                await self.access.links.release(link)
            raise
        if link is not None:
            self.access.links.used("joined")  # (the join and the link's use are both committed)
        token = self.access.tokens.issue(room.room_id, seat, nonce)
        return room_pb2.JoinRoomResponse(room=room_to_proto(room), seat=seat, seat_token=token)

    @routed
    async def LeaveRoom(
        self, request: room_pb2.LeaveRoomRequest, context: Any, room: Room
    ) -> room_pb2.LeaveRoomResponse:
        seat, nonce = self.access.seat(context, room, required=True)  # type: ignore[misc]
        await room.leave(seat, nonce)
        return room_pb2.LeaveRoomResponse(room=room_to_proto(room))

    @routed
    async def CreateInvitationLink(
        self, request: room_pb2.CreateInvitationLinkRequest, context: Any, room: Room
    ) -> room_pb2.CreateInvitationLinkResponse:
        await self.access.seated(room, context)
        link, token = await self.access.links.create(room, request.max_uses, request.expires_in_seconds)
        return room_pb2.CreateInvitationLinkResponse(link=link_to_proto(link), token=token, url=f"/play#join={token}")

    @routed
    async def ListInvitationLinks(
        self, request: room_pb2.ListInvitationLinksRequest, context: Any, room: Room
    ) -> room_pb2.ListInvitationLinksResponse:
        await self.access.seated(room, context)
        links = await self.access.links.of_room(room.room_id)
        return room_pb2.ListInvitationLinksResponse(links=[link_to_proto(link) for link in links])

    @routed
    async def RevokeInvitationLink(
        self, request: room_pb2.RevokeInvitationLinkRequest, context: Any, room: Room
    ) -> room_pb2.RevokeInvitationLinkResponse:
        await self.access.seated(room, context)
        if not request.link_id:
            raise InvalidRequest("link_id is required", code="missing_link_id", field="link_id")
        link = await self.access.links.revoke(room.room_id, request.link_id)
        return room_pb2.RevokeInvitationLinkResponse(link=link_to_proto(link))

    # -- invitations to a friend (service/rooms/invitations.py) ------------------------------------------------------

    async def _invitations(self, context: Any) -> tuple[RoomInvitations, Player]:
        """The invitations store and the signed-in caller (Unauthenticated without an access token)."""
        invitations, players = self.access.invitations, self.access.players
        if invitations is None or players is None:
            raise PreconditionFailed("this server keeps no players, so no invitations", code="players_off")
        return invitations, await players.me(await players.caller(bearer_token(context)))

    @routed
    async def InviteToRoom(
        self, request: room_pb2.InviteToRoomRequest, context: Any, room: Room
    ) -> room_pb2.InviteToRoomResponse:
        invitations, player = await self._invitations(context)
        if not request.player_id:
            raise InvalidRequest("player_id is required", code="missing_player_id", field="player_id")
        if room.seat_of(player.player_id) is None:
            raise PermissionDenied("only a player seated in this room may invite to it", code="not_seated")
        counted = self.access.directory.telemetry.instruments.room_invitations
        try:
            if room.status != WAITING:
                raise PreconditionFailed("the room's game has started: nobody may join it", code="room_started")
            if room.seat_of(request.player_id) is not None:
                raise Conflict("this player holds a seat of this room already", code="already_seated")
            game = room.game.spec.name
            invitation = await invitations.invite(room.room_id, game, player.player_id, request.player_id)
        except KickoffError as error:
            counted.add(1, {"kickoff.invitation.outcome": getattr(error, "code", "refused")})
            raise
        counted.add(1, {"kickoff.invitation.outcome": "sent"})
        return room_pb2.InviteToRoomResponse(invitation=invitation_to_proto(invitation))

    @unary
    async def ListRoomInvitations(
        self, request: room_pb2.ListRoomInvitationsRequest, context: Any
    ) -> room_pb2.ListRoomInvitationsResponse:
        invitations, player = await self._invitations(context)
        received = await invitations.received(player.player_id)
        sent = await invitations.sent(player.player_id)
        return room_pb2.ListRoomInvitationsResponse(
            received=[invitation_to_proto(i) for i in received], sent=[invitation_to_proto(i) for i in sent]
        )

    async def _answered(self, room: Room, context: Any) -> tuple[RoomInvitations, Player, Invitation]:
        """The caller's pending invitation to ``room``; else why not: invitation_withdrawn, invitation_not_found, or
        (never invited to an unlisted room, which is hidden from them) room_not_found."""
        invitations, player = await self._invitations(context)
        invitation = await invitations.invited(room.room_id, player.player_id)
        if invitation is None:
            why = await invitations.refusal(room.room_id, player.player_id)
            if not why and room.unlisted:
                await self.access.enter(room, context)  # (a seated player: they may know of it; anyone else: hidden)
            if why == "invitation_withdrawn":
                raise PreconditionFailed("the invitation was withdrawn", code=why)
            raise NotFound("invitation", "you have no invitation to this room", code="invitation_not_found")
        return invitations, player, invitation

    def _outcome(self, outcome: str) -> None:
        self.access.directory.telemetry.instruments.room_invitations.add(1, {"kickoff.invitation.outcome": outcome})

    @routed
    async def AcceptRoomInvitation(
        self, request: room_pb2.AcceptRoomInvitationRequest, context: Any, room: Room
    ) -> room_pb2.AcceptRoomInvitationResponse:
        self.admission.admit(context, "join")
        invitations, player, invitation = await self._answered(room, context)
        if room.status != WAITING:
            raise PreconditionFailed("the room's game has started: nobody may join it", code="room_started")
        await self.access.players.store.check_live_bound(player.player_id)  # type: ignore[union-attr]
        seed = seat_seed(request.seed)
        seat, nonce = await room.join(None, player.name, "", player.player_id, self._origin(context), None, seed)
        await invitations.end(invitation, ACCEPTED)
        self._outcome("accepted")
        token = self.access.tokens.issue(room.room_id, seat, nonce)
        return room_pb2.AcceptRoomInvitationResponse(room=room_to_proto(room), seat=seat, seat_token=token)

    @routed
    async def DeclineRoomInvitation(
        self, request: room_pb2.DeclineRoomInvitationRequest, context: Any, room: Room
    ) -> room_pb2.DeclineRoomInvitationResponse:
        invitations, _, invitation = await self._answered(room, context)
        if not await invitations.end(invitation, DECLINED):
            raise PreconditionFailed("the invitation was withdrawn", code="invitation_withdrawn")
        self._outcome("declined")
        return room_pb2.DeclineRoomInvitationResponse()

    @routed
    async def WithdrawRoomInvitation(
        self, request: room_pb2.WithdrawRoomInvitationRequest, context: Any, room: Room
    ) -> room_pb2.WithdrawRoomInvitationResponse:
        invitations, player = await self._invitations(context)
        if not request.player_id:
            raise InvalidRequest("player_id is required", code="missing_player_id", field="player_id")
        await invitations.withdraw(room.room_id, player.player_id, request.player_id)
        self._outcome("withdrawn")
        return room_pb2.WithdrawRoomInvitationResponse()


def invitation_to_proto(invitation: Invitation) -> room_pb2.RoomInvitation:
    return room_pb2.RoomInvitation(
        room_id=invitation.room_id,
        game=invitation.game,
        from_player_id=invitation.inviter,
        from_name=invitation.inviter_name,
        player_id=invitation.invitee,
        name=invitation.invitee_name,
        create_time=timestamp_pb2.Timestamp(seconds=int(invitation.created_at)),
    )


def _rematch_fill(value: int) -> str:
    """CreateRoomRequest.rematch_fill as a room keeps it ('' no rematch, "system"); INVALID_ARGUMENT for another."""
    if value not in REMATCH_FILL_NAME:
        raise InvalidRequest("rematch_fill must be a RematchFill value", code="bad_rematch_fill", field="rematch_fill")
    return REMATCH_FILL_NAME[value]


def _chat_mode(value: int) -> str:
    """CreateRoomRequest.chat as a room keeps it ('' on, "reactions", "off"); INVALID_ARGUMENT for another."""
    if value not in CHAT_MODE_NAME:
        raise InvalidRequest("chat must be a ChatMode value", code="bad_chat", field="chat")
    return CHAT_MODE_NAME[value]


def link_to_proto(link: LinkRecord) -> room_pb2.InvitationLink:
    """An invitation link as a room's seated players see it (never its token)."""
    return room_pb2.InvitationLink(
        link_id=link.link_id,
        room_id=link.room_id,
        max_uses=link.max_uses,
        uses=link.uses,
        create_time=timestamp_pb2.Timestamp(seconds=int(link.created_at)),
        expire_time=timestamp_pb2.Timestamp(seconds=int(link.expires_at)),
        revoked=link.revoked,
    )


class MoveServicer(move_pb2_grpc.MoveServiceServicer):
    SERVICE = MOVE_SERVICE

    def __init__(self, access: RoomAccess, admission: Admission) -> None:
        self.access = access
        self.admission = admission

    async def locate(self, request: Any) -> Room | Remote:
        return await self.access.locate(request)

    @routed
    async def GetView(self, request: move_pb2.GetViewRequest, context: Any, room: Room) -> move_pb2.GetViewResponse:
        claim = self.access.seat(context, room, required=False)
        viewer = claim[0] if claim else None

        def read() -> move_pb2.GetViewResponse:
            response = move_pb2.GetViewResponse(version=room.version)
            if viewer is not None:
                response.viewer = viewer
            if room.state is not None:
                response.view.CopyFrom(codec_for(room).view_to_proto(room.state.view(viewer)))
                response.to_act.extend(room.state.to_act())
            add_clocks(response, room.published.deadlines)
            return response

        return await room.read(read)

    @routed
    async def ListLegalMoves(
        self, request: move_pb2.ListLegalMovesRequest, context: Any, room: Room
    ) -> move_pb2.ListLegalMovesResponse:
        seat, _ = self.access.seat(context, room, required=True)  # type: ignore[misc]
        codec = codec_for(room)

        def read() -> move_pb2.ListLegalMovesResponse:
            moves = room.state.legal_moves(seat) if room.state is not None else []
            return move_pb2.ListLegalMovesResponse(version=room.version, moves=[codec.move_to_proto(m) for m in moves])

        return await room.read(read)

    @routed
    async def SubmitMove(self, request: move_pb2.SubmitMoveRequest, context: Any, room: Room) -> bytes:
        """Answers a SubmitMoveResponse, serialised here (its update from the pieces the streams send)."""
        seat, nonce = self.access.seat(context, room, required=True)  # type: ignore[misc]
        move = codec_for(room).move_from_proto(request.move)
        expected = request.expected_version if request.HasField("expected_version") else None
        answer = await room.move(seat, nonce, move, request.request_id, expected)
        return submit_answer(answer.version, update_bytes(room, answer.update, seat))

    async def StreamEvents(
        self, request: move_pb2.StreamEventsRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[move_pb2.StreamEventsResponse | bytes]:
        try:
            check_request(request)
            self.access.check_link(request)
            room = await self.access.locate(request)
            if isinstance(room, Remote):  # another node's: relayed from there
                assert self.access.forwarder is not None
                path = f"/{MOVE_SERVICE}/StreamEvents"
                async for message in self.access.forwarder.server_stream(path, request, context, room):
                    yield message
                return
            if request.ticket and bearer_token(context) is not None:
                raise InvalidRequest("send a stream ticket or a seat token, not both", code="ticket_and_token")
            visitor = None
            if room.unlisted:
                visitor = await self.access.enter(room, context, request.invitation_token, ticket=request.ticket)
            if request.ticket:
                claim: tuple[int, str] | None = self.access.ticket_seat(request.ticket, room)
            else:
                claim = self.access.seat(context, room, required=False)
            viewer, nonce = claim if claim else (None, "")
            with (
                self.admission.stream(context),
                self.access.directory.telemetry.instruments.stream("events"),
                holding(self.access.players, seat_player(room, viewer), AT_TABLE, room.room_id, unlisted=room.unlisted),
                at_table(self.access.chat, room, seat_player(room, viewer)),
            ):
                # A seat's feed ends when the seat changes hands (SeatReleased): nothing after it is rendered for it.
                feed = room.subscribe(request.after_version, viewer, nonce)
                try:
                    # Accepted: say so now when no update is ready (the next may be a long way off), so that a
                    # client (the gateway's event stream) can answer at once; else the first update carries it (one
                    # send, not two).
                    if room.published.version <= request.after_version:
                        await context.send_initial_metadata(())
                    if visitor is not None and visitor.link is not None and viewer is None:
                        self.access.links.used("watched")  # (a watch the link let in: no seat of the room)
                    chat = request.after_chat_seq if request.HasField("after_chat_seq") else None
                    async for item in with_chat(self.access.chat, room, viewer, chat, feed):
                        if type(item) is chat_pb2.ChatMessage:  # (issue 49: the room's chat, asked for)
                            yield move_pb2.StreamEventsResponse(chat=item)
                        else:
                            yield stream_message(update_bytes(room, item, viewer))  # (a StreamEventsResponse)
                finally:
                    feed.close()
        except KickoffError as error:
            await abort(context, error)
        except grpc.aio.AbortError:
            raise
        except Exception:
            await internal(context, "StreamEvents")

    @routed
    async def CreateStreamTicket(
        self, request: move_pb2.CreateStreamTicketRequest, context: Any, room: Room
    ) -> move_pb2.CreateStreamTicketResponse:
        seat, nonce = self.access.seat(context, room, required=True)  # type: ignore[misc]
        ticket, expires = self.access.ticket(room, seat, nonce)
        return move_pb2.CreateStreamTicketResponse(ticket=ticket, expire_time=timestamp_pb2.Timestamp(seconds=expires))

    @routed
    async def GetReplay(
        self, request: move_pb2.GetReplayRequest, context: Any, room: Room
    ) -> move_pb2.GetReplayResponse:
        if request.after_version < 0:
            raise InvalidRequest("after_version must be 0 or more", code="bad_after_version", field="after_version")
        chat = self.access.chat
        seat = await self.access.table_seat(room, context) if chat is not None and not request.after_version else None
        steps, revealed, last = await room.replay_steps(request.after_version, page_size_of(request.page_size))
        await self.access.rematches.attach(room)  # (a finished room's replay links to its rematch)
        response = replay_to_proto(room, steps, revealed, last)
        if seat is not None and chat is not None:  # (issue 49: the table's talk, for those who sat at it only)
            said = await chat.replayed(room, await reader_of(chat, room, seat))
            response.chat.extend(message_to_proto(message) for message in said)
        return response

    async def Play(
        self, request_iterator: AsyncIterator[move_pb2.PlayRequest], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[move_pb2.PlayResponse | bytes]:
        """Updates from the room's feed and answers of the stream's own, until the client stops sending; a client
        that does not read its answers is cut off with RESOURCE_EXHAUSTED (see feed.py)."""
        try:
            first = await anext(request_iterator, None)
            if first is None:
                return
            check_request(first)
            if first.WhichOneof("kind") != "hello":
                raise InvalidRequest("the first message of a play stream must be hello", code="hello_first")
            room = await self.access.locate(first.hello)
            if isinstance(room, Remote):  # another node's: relayed from there
                assert self.access.forwarder is not None
                forwarder = self.access.forwarder
                async for message in forwarder.bidi(f"/{MOVE_SERVICE}/Play", first, request_iterator, context, room):
                    yield message
                return
            if room.unlisted:
                await self.access.enter(room, context)
            seat, nonce = self.access.seat(context, room, required=True)  # type: ignore[misc]
            with (
                self.admission.stream(context),
                self.access.directory.telemetry.instruments.stream("play"),
                holding(self.access.players, seat_player(room, seat), AT_TABLE, room.room_id, unlisted=room.unlisted),
                at_table(self.access.chat, room, seat_player(room, seat)),
            ):
                feed = room.subscribe(first.hello.after_version, seat, nonce)  # (it ends if the seat is given back)
                reader = asyncio.create_task(self._read_moves(request_iterator, room, seat, nonce, feed))
                hello = first.hello
                chat = hello.after_chat_seq if hello.HasField("after_chat_seq") else None
                try:
                    async for item in with_chat(self.access.chat, room, seat, chat, feed, until_stopped=True):
                        if type(item) is chat_pb2.ChatMessage:  # (issue 49: the room's chat, asked for)
                            yield move_pb2.PlayResponse(chat=item)
                        elif type(item) is Update:
                            result = None
                            if item.mover == seat and item.request_id:  # the answer rides on the update it made
                                result = move_pb2.MoveResult(
                                    request_id=item.request_id, accepted=True, version=item.version
                                )
                            yield stream_message(update_bytes(room, item, seat), result)  # (a PlayResponse)
                        else:
                            yield move_pb2.PlayResponse(result=item)
                finally:
                    reader.cancel()
                    feed.close()
        except KickoffError as error:
            await abort(context, error)
        except grpc.aio.AbortError:
            raise
        except Exception:
            await internal(context, "Play")

    async def _read_moves(
        self,
        requests: AsyncIterator[move_pb2.PlayRequest],
        room: Room,
        seat: int,
        nonce: str,
        feed: Feed[Update],
    ) -> None:
        codec = codec_for(room)
        try:
            async for message in requests:
                request_id = ""
                try:
                    check_request(message)
                    if message.WhichOneof("kind") != "move":
                        raise InvalidRequest("after hello, a play stream takes moves", code="hello_twice")
                    request = message.move
                    request_id = request.request_id
                    if request.room_id and request.room_id != room.room_id:
                        raise PermissionDenied("this stream plays another room", code="other_room")
                    move = codec.move_from_proto(request.move)
                    expected = request.expected_version if request.HasField("expected_version") else None
                    answer = await room.move(seat, nonce, move, request_id, expected)
                except KickoffError as error:
                    feed.send(
                        move_pb2.MoveResult(
                            request_id=request_id,
                            accepted=False,
                            version=room.published.version,
                            error=to_status(error),
                        )
                    )
                else:
                    if answer.retried:  # the first answer went out with its update long ago: say it again
                        feed.send(move_pb2.MoveResult(request_id=request_id, accepted=True, version=answer.version))
        finally:
            feed.stop()
