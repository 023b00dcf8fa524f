"""PresenceService: friends' presence over gRPC (service/presence). It reads requests, names the caller by their
access token and hands them to the presence of this node; every presence it answers is one of the caller's friends'
as the caller may see it. A presence stream keeps its caller online on this node while it is open."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc

from kickoff.v1 import presence_pb2, presence_pb2_grpc
from service.friends.store import FriendStore
from service.grpc.admission import Admission
from service.grpc.convert import timestamp
from service.grpc.errors import KickoffError, abort
from service.grpc.limits import check_request
from service.grpc.servicers import bearer_token, internal, unary
from service.players.players import Players
from service.presence.presence import AT_TABLE, AWAY, FRIENDS, NOBODY, ONLINE, SEARCHING, Presence, Seen

PRESENCE_SERVICE = presence_pb2.DESCRIPTOR.services_by_name["PresenceService"].full_name

STATES = {
    AWAY: presence_pb2.PRESENCE_STATE_AWAY,
    ONLINE: presence_pb2.PRESENCE_STATE_ONLINE,
    SEARCHING: presence_pb2.PRESENCE_STATE_SEARCHING,
    AT_TABLE: presence_pb2.PRESENCE_STATE_AT_TABLE,
}
VISIBILITIES = {FRIENDS: presence_pb2.PRESENCE_VISIBILITY_FRIENDS, NOBODY: presence_pb2.PRESENCE_VISIBILITY_NOBODY}
FROM_PROTO = {value: name for name, value in VISIBILITIES.items()}


def seen_to_proto(seen: Seen) -> presence_pb2.FriendPresence:
    answer = presence_pb2.FriendPresence(
        player_id=seen.player_id,
        name=seen.name,
        state=STATES[seen.state],
        room_id=seen.room_id,
        cursor=seen.cursor,
        removed=seen.removed,
    )
    if seen.since is not None and not seen.removed:
        (answer.last_seen_time if seen.state == AWAY else answer.since_time).CopyFrom(timestamp(seen.since))
    return answer


class PresenceServicer(presence_pb2_grpc.PresenceServiceServicer):
    SERVICE = PRESENCE_SERVICE

    def __init__(self, presence: Presence, friends: FriendStore, players: Players, admission: Admission) -> None:
        self.presence = presence
        self.friends = friends
        self.players = players
        self.admission = admission

    async def _player(self, context: Any) -> str:
        return (await self.players.caller(bearer_token(context))).player_id

    @unary
    async def GetPresence(
        self, request: presence_pb2.GetPresenceRequest, context: Any
    ) -> presence_pb2.GetPresenceResponse:
        player = await self._player(context)
        size = self.presence.check_page_size(request.page_size)
        friends, token = await self.friends.friends(player, size, request.page_token)
        seen = await self.presence.page(player, [friend.player_id for friend in friends])
        return presence_pb2.GetPresenceResponse(
            friends=[seen_to_proto(one) for one in seen],
            next_page_token=token,
            visibility=VISIBILITIES[await self.presence.visibility(player)],
        )

    @unary
    async def SetPresenceVisibility(
        self, request: presence_pb2.SetPresenceVisibilityRequest, context: Any
    ) -> presence_pb2.SetPresenceVisibilityResponse:
        player = await self._player(context)
        visibility = await self.presence.set_visibility(player, FROM_PROTO.get(request.visibility, ""))
        return presence_pb2.SetPresenceVisibilityResponse(visibility=VISIBILITIES[visibility])

    async def FollowPresence(
        self, request: presence_pb2.FollowPresenceRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[presence_pb2.FollowPresenceResponse]:
        try:
            check_request(request)
            player = await self._player(context)
            presence = self.presence
            with (
                self.admission.stream(context),
                presence.watch.follow(player) as follower,
                presence.telemetry.instruments.stream("presence"),
                presence.hold(player, ONLINE),
            ):
                await context.send_initial_metadata(())
                async for seen in presence.follow(player, max(0, request.after_cursor), follower):
                    yield presence_pb2.FollowPresenceResponse(presence=seen_to_proto(seen))
        except KickoffError as error:
            await abort(context, error)
        except grpc.aio.AbortError:
            raise
        except Exception:
            await internal(context, "FollowPresence")
