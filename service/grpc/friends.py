"""FriendService: friends over gRPC. It reads requests, finds the player a friend code names (each caller's lookups
rate-limited: KICKOFF_FRIEND_CODE_LOOKUPS) and hands the rest to the store (service/friends/store.py), which keeps
every rule and bound. A request from a player the recipient blocked is answered exactly as any request still waiting
for an answer is."""

from __future__ import annotations

import math
from typing import Any

from kickoff.v1 import friend_pb2, friend_pb2_grpc
from service.errors import InvalidRequest, NotFound, PreconditionFailed, ResourceExhausted, ServiceError
from service.friends.store import FriendStore, Person, read_code, shown
from service.grpc.admission import RateLimiter
from service.grpc.convert import timestamp
from service.grpc.servicers import bearer_token, unary
from service.players.players import Players
from service.telemetry import Telemetry

FRIEND_SERVICE = friend_pb2.DESCRIPTOR.services_by_name["FriendService"].full_name


def _friend(person: Person) -> friend_pb2.Friend:
    return friend_pb2.Friend(player_id=person.player_id, name=person.name, since_time=timestamp(person.time))


def _request(person: Person) -> friend_pb2.FriendRequest:
    return friend_pb2.FriendRequest(player_id=person.player_id, name=person.name, create_time=timestamp(person.time))


def _blocked(person: Person) -> friend_pb2.BlockedPlayer:
    return friend_pb2.BlockedPlayer(player_id=person.player_id, name=person.name, create_time=timestamp(person.time))


def _other(request: Any) -> str:
    if not request.player_id:
        raise InvalidRequest("player_id is required", code="missing_player_id", field="player_id")
    return request.player_id  # type: ignore[no-any-return]


class FriendServicer(friend_pb2_grpc.FriendServiceServicer):
    SERVICE = FRIEND_SERVICE

    def __init__(self, store: FriendStore, players: Players, telemetry: Telemetry) -> None:
        self.store = store
        self.players = players
        self.telemetry = telemetry
        rate = store.settings.code_lookups
        self.lookups = RateLimiter(rate, store.clock) if rate is not None else None

    async def _player(self, context: Any) -> str:
        return (await self.players.caller(bearer_token(context))).player_id

    def _counted(self, outcome: str) -> None:
        self.telemetry.instruments.friend_requests.add(1, {"kickoff.friend.outcome": outcome})

    async def _recipient(self, player: str, request: friend_pb2.SendFriendRequestRequest) -> str:
        """The player a request names: by friend code (a lookup, rate-limited), or by id where the two shared a
        table."""
        if request.friend_code and request.player_id:
            raise InvalidRequest("name the player by friend_code or by player_id, not both", code="ambiguous_friend")
        if request.friend_code:
            if self.lookups is not None:
                wait = self.lookups.take(player)
                if wait:
                    raise ResourceExhausted(
                        f"over the friend code lookups of {self.lookups.rate} for one player; try again in "
                        f"{math.ceil(wait)} s",
                        code="code_lookups_rate_limited",
                        retry_after=wait,
                    )
            code = read_code(request.friend_code)
            found = await self.store.find(code) if code is not None else None
            if found is None:
                raise NotFound("friend code", "no player has this friend code", code="friend_code_not_found")
            return found
        if not request.player_id:
            raise InvalidRequest("name the player by friend_code or player_id", code="missing_friend")
        if request.player_id != player and not await self.store.shared_table(player, request.player_id):
            raise PreconditionFailed(
                "ask a player you were never seated with by their friend code",
                code="no_shared_table",
                field="player_id",
            )
        return request.player_id  # type: ignore[no-any-return]

    @unary
    async def GetFriendCode(
        self, request: friend_pb2.GetFriendCodeRequest, context: Any
    ) -> friend_pb2.GetFriendCodeResponse:
        code, made = await self.store.code(await self._player(context))
        return friend_pb2.GetFriendCodeResponse(friend_code=shown(code), create_time=timestamp(made))

    @unary
    async def RotateFriendCode(
        self, request: friend_pb2.RotateFriendCodeRequest, context: Any
    ) -> friend_pb2.RotateFriendCodeResponse:
        code, made = await self.store.rotate(await self._player(context))
        return friend_pb2.RotateFriendCodeResponse(friend_code=shown(code), create_time=timestamp(made))

    @unary
    async def SendFriendRequest(
        self, request: friend_pb2.SendFriendRequestRequest, context: Any
    ) -> friend_pb2.SendFriendRequestResponse:
        player = await self._player(context)
        try:
            sent = await self.store.send(player, await self._recipient(player, request))
        except ServiceError as error:
            self._counted(error.code)
            raise
        answer = friend_pb2.SendFriendRequestResponse()
        if sent.friend is not None:
            self._counted("accepted")
            answer.friend.CopyFrom(_friend(sent.friend))
        elif sent.request is not None:
            self._counted("sent" if sent.delivered else "withheld")
            answer.request.CopyFrom(_request(sent.request))
        return answer

    @unary
    async def AcceptFriendRequest(
        self, request: friend_pb2.AcceptFriendRequestRequest, context: Any
    ) -> friend_pb2.AcceptFriendRequestResponse:
        friend = await self.store.accept(await self._player(context), _other(request))
        return friend_pb2.AcceptFriendRequestResponse(friend=_friend(friend))

    @unary
    async def DeclineFriendRequest(
        self, request: friend_pb2.DeclineFriendRequestRequest, context: Any
    ) -> friend_pb2.DeclineFriendRequestResponse:
        await self.store.decline(await self._player(context), _other(request))
        return friend_pb2.DeclineFriendRequestResponse()

    @unary
    async def CancelFriendRequest(
        self, request: friend_pb2.CancelFriendRequestRequest, context: Any
    ) -> friend_pb2.CancelFriendRequestResponse:
        await self.store.cancel(await self._player(context), _other(request))
        return friend_pb2.CancelFriendRequestResponse()

    @unary
    async def RemoveFriend(
        self, request: friend_pb2.RemoveFriendRequest, context: Any
    ) -> friend_pb2.RemoveFriendResponse:
        await self.store.remove(await self._player(context), _other(request))
        return friend_pb2.RemoveFriendResponse()

    @unary
    async def ListFriends(self, request: friend_pb2.ListFriendsRequest, context: Any) -> friend_pb2.ListFriendsResponse:
        player = await self._player(context)
        friends, token = await self.store.friends(player, request.page_size, request.page_token)
        answer = friend_pb2.ListFriendsResponse(friends=[_friend(f) for f in friends], next_page_token=token)
        if not request.page_token:
            received, sent = await self.store.requests(player)
            answer.received.extend(_request(r) for r in received)
            answer.sent.extend(_request(r) for r in sent)
        return answer

    @unary
    async def BlockPlayer(self, request: friend_pb2.BlockPlayerRequest, context: Any) -> friend_pb2.BlockPlayerResponse:
        blocked = await self.store.block(await self._player(context), _other(request))
        return friend_pb2.BlockPlayerResponse(blocked=_blocked(blocked))

    @unary
    async def UnblockPlayer(
        self, request: friend_pb2.UnblockPlayerRequest, context: Any
    ) -> friend_pb2.UnblockPlayerResponse:
        await self.store.unblock(await self._player(context), _other(request))
        return friend_pb2.UnblockPlayerResponse()

    @unary
    async def ListBlocks(self, request: friend_pb2.ListBlocksRequest, context: Any) -> friend_pb2.ListBlocksResponse:
        player = await self._player(context)
        blocks, token = await self.store.blocks(player, request.page_size, request.page_token)
        return friend_pb2.ListBlocksResponse(blocks=[_blocked(b) for b in blocks], next_page_token=token)
