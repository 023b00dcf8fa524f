"""ChatService: a room's table talk over gRPC (service/chat). It finds the room (a call for a room another node owns is
forwarded there, as the room's other calls are), names the caller by their token (a player's access token, or a seat
token), and hands the work to the chat; the room streams (StreamEvents, Play) carry the chat of a stream that asks
for it (service/grpc/chat_stream.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc

from kickoff.v1 import chat_pb2, chat_pb2_grpc
from service.actors.runtime import Remote
from service.chat.chat import Chat, Reader, Sender, normalise
from service.errors import InvalidRequest, PermissionDenied, PreconditionFailed
from service.grpc.admission import Admission
from service.grpc.chat_stream import REACTION_NAME, channel_of, message_to_proto
from service.grpc.errors import KickoffError, abort
from service.grpc.limits import check_request
from service.grpc.servicers import RoomAccess, bearer_token, internal, routed
from service.presence.presence import seat_player
from service.rooms.room import Room
from service.rooms.seats import PERSON

CHAT_SERVICE = chat_pb2.DESCRIPTOR.services_by_name["ChatService"].full_name


class ChatServicer(chat_pb2_grpc.ChatServiceServicer):
    SERVICE = CHAT_SERVICE

    def __init__(self, chat: Chat, access: RoomAccess, admission: Admission) -> None:
        self.chat = chat
        self.access = access
        self.admission = admission

    @property
    def _instruments(self) -> Any:
        return self.access.directory.telemetry.instruments

    async def locate(self, request: Any) -> Room | Remote:
        return await self.access.locate(request)

    async def _caller(self, room: Room, context: Any) -> Sender:
        """Who calls: the player of an access token (seated or not), else the seat of a seat token, else nobody (an
        anonymous spectator: ``Sender(None, None, "", "")``)."""
        access = self.access
        token = bearer_token(context)
        caller = await access.players.optional_caller(token) if access.players is not None else None
        if caller is not None:
            record = room.seat_of(caller.player_id)
            if record is not None and record.kind == PERSON:
                return Sender(record.seat, room.teams[record.seat], caller.player_id, record.name)
            player = await access.players.me(caller)  # type: ignore[union-attr]
            return Sender(None, None, caller.player_id, player.name)
        if token is not None:
            seat, _ = access.seat(context, room, required=True)  # type: ignore[misc]
            return Sender(seat, room.teams[seat], seat_player(room, seat), room.seats[seat].name)
        return Sender(None, None, "", "")

    async def _reader(self, room: Room, context: Any) -> Reader:
        sender = await self._caller(room, context)
        return Reader(sender.seat, sender.team, sender.player_id, await self.chat.blocked_by(sender.player_id))

    async def SendChatMessage(
        self, request: chat_pb2.SendChatMessageRequest, context: Any
    ) -> chat_pb2.SendChatMessageResponse:
        """The text is checked and normalised first, so that its refusals are the chat's own (bad_message,
        message_too_long) rather than the request bounds' (service/grpc/limits.py), which it then passes."""
        if type(request) is chat_pb2.SendChatMessageRequest and request.text:
            try:
                request.text = normalise(request.text, self.chat.settings.max_length)
            except KickoffError as error:
                await abort(context, error)
        return await self._send(request, context)  # type: ignore[no-any-return]

    async def _send_message(
        self, request: chat_pb2.SendChatMessageRequest, context: Any, room: Room
    ) -> chat_pb2.SendChatMessageResponse:
        sender = await self._caller(room, context)
        if sender.seat is None and not sender.player_id:
            self.chat.check_open(room)
            raise PermissionDenied(
                "chat is for a room's seated people and signed-in players: sign in to chat", code="sign_in_to_chat"
            )
        if request.reaction not in REACTION_NAME and request.reaction:
            raise InvalidRequest("reaction must be a ChatReaction value", code="bad_reaction", field="reaction")
        message = await self.chat.send(
            room,
            sender,
            channel_of(request.channel),
            request.text,
            REACTION_NAME.get(request.reaction, ""),
            request.request_id,
        )
        kind = "text" if message.text else "reaction"
        self._instruments.chat_messages.add(1, {"kickoff.chat.channel": message.channel, "kickoff.chat.kind": kind})
        return chat_pb2.SendChatMessageResponse(message=message_to_proto(message))

    _send_message.__name__ = "SendChatMessage"  # (forwarded as what it is)
    _send = routed(_send_message)

    @routed
    async def ListChatMessages(
        self, request: chat_pb2.ListChatMessagesRequest, context: Any, room: Room
    ) -> chat_pb2.ListChatMessagesResponse:
        channel = channel_of(request.channel)
        reader = await self._reader(room, context)
        messages, following = await self.chat.page(room, reader, channel, request.after_seq, request.page_size)
        return chat_pb2.ListChatMessagesResponse(
            messages=[message_to_proto(message) for message in messages], next_after_seq=following
        )

    @routed
    async def ReportChatMessage(
        self, request: chat_pb2.ReportChatMessageRequest, context: Any, room: Room
    ) -> chat_pb2.ReportChatMessageResponse:
        reports = self.chat.reports
        if reports is None:
            raise PreconditionFailed("this server takes no reports", code="reports_off")
        sender = await self._caller(room, context)
        if not sender.player_id:
            raise PermissionDenied("a report is a signed-in player's: sign in to report", code="sign_in_to_chat")
        reader = Reader(sender.seat, sender.team, sender.player_id)
        message, around = await self.chat.reported(room, reader, request.seq)
        report = await reports.file(sender.player_id, room.room_id, message, around, request.reason)
        self._instruments.chat_reports.add(1)
        return chat_pb2.ReportChatMessageResponse(report_id=report.report_id)

    async def FollowChat(
        self, request: chat_pb2.FollowChatRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[chat_pb2.FollowChatResponse | bytes]:
        try:
            check_request(request)
            self.access.check_link(request)  # (a link that is not this room's says nothing of the room)
            room = await self.access.locate(request)
            if isinstance(room, Remote):  # another node's: relayed from there
                assert self.access.forwarder is not None
                path = f"/{CHAT_SERVICE}/FollowChat"
                async for relayed in self.access.forwarder.server_stream(path, request, context, room):
                    yield relayed
                return
            if room.unlisted:
                await self.access.enter(room, context, request.invitation_token)
            channel = channel_of(request.channel)
            self.chat.check_open(room)
            self.chat.check_after(request.after_seq)
            reader = await self._reader(room, context)
            with self.admission.stream(context), self.chat.present(room.room_id, reader.player_id):
                await context.send_initial_metadata(())
                async for message in self.chat.follow(room, reader, channel, request.after_seq):
                    yield chat_pb2.FollowChatResponse(message=message_to_proto(message))
        except KickoffError as error:
            await abort(context, error)
        except grpc.aio.AbortError:
            raise
        except Exception:
            await internal(context, "FollowChat")
