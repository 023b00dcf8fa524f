"""InboxService: a signed-in player's inbox over gRPC (service/inbox). It reads requests, names the caller by their
access token, and hands them to the inbox; every item it answers is the caller's own."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc

from kickoff.v1 import inbox_pb2, inbox_pb2_grpc
from service.grpc.admission import Admission
from service.grpc.convert import struct, timestamp
from service.grpc.errors import KickoffError, abort
from service.grpc.limits import check_request
from service.grpc.servicers import bearer_token, internal, unary
from service.inbox.inbox import Inbox, Item
from service.players.players import Players
from service.presence.presence import ONLINE, holding

INBOX_SERVICE = inbox_pb2.DESCRIPTOR.services_by_name["InboxService"].full_name


def item_to_proto(item: Item) -> inbox_pb2.InboxItem:
    return inbox_pb2.InboxItem(
        item_id=item.item_id,
        kind=item.kind,
        create_time=timestamp(item.created_at),
        read=item.read,
        data=struct(item.data),
    )


class InboxServicer(inbox_pb2_grpc.InboxServiceServicer):
    SERVICE = INBOX_SERVICE

    def __init__(self, inbox: Inbox, players: Players, admission: Admission) -> None:
        self.inbox = inbox
        self.players = players
        self.admission = admission

    async def _player(self, context: Any) -> str:
        return (await self.players.caller(bearer_token(context))).player_id

    @unary
    async def ListInbox(self, request: inbox_pb2.ListInboxRequest, context: Any) -> inbox_pb2.ListInboxResponse:
        player = await self._player(context)
        page = await self.inbox.page(player, request.page_size, request.page_token, unread_only=request.unread_only)
        return inbox_pb2.ListInboxResponse(
            items=[item_to_proto(item) for item in page.items],
            next_page_token=page.next_token,
            unread_count=page.unread,
        )

    @unary
    async def MarkInboxRead(
        self, request: inbox_pb2.MarkInboxReadRequest, context: Any
    ) -> inbox_pb2.MarkInboxReadResponse:
        player = await self._player(context)
        unread = await self.inbox.mark_read(player, list(request.item_ids), request.up_to_item_id)
        return inbox_pb2.MarkInboxReadResponse(unread_count=unread)

    @unary
    async def DeleteInboxItem(
        self, request: inbox_pb2.DeleteInboxItemRequest, context: Any
    ) -> inbox_pb2.DeleteInboxItemResponse:
        player = await self._player(context)
        return inbox_pb2.DeleteInboxItemResponse(unread_count=await self.inbox.delete(player, request.item_id))

    async def FollowInbox(
        self, request: inbox_pb2.FollowInboxRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[inbox_pb2.FollowInboxResponse]:
        try:
            check_request(request)
            player = await self._player(context)
            inbox = self.inbox
            inbox.check_after(request.after_item_id)
            with (
                self.admission.stream(context),
                inbox.watch.follow(player) as follower,
                inbox.telemetry.instruments.stream("inbox"),
                holding(self.players, player, ONLINE),  # (issue 48: presence)
            ):
                await context.send_initial_metadata(())
                async for item in inbox.follow(player, request.after_item_id, follower):
                    yield inbox_pb2.FollowInboxResponse(item=item_to_proto(item))
        except KickoffError as error:
            await abort(context, error)
        except grpc.aio.AbortError:
            raise
        except Exception:
            await internal(context, "FollowInbox")
