"""A room's chat as messages: ChatMessage and its enums, and the room streams' chat (:func:`with_chat`: StreamEvents
and Play carry the room's chat between its updates for a stream that asks for it). Apart from ChatService
(service/grpc/chat.py) so that the room streams' servicers use it without importing that servicer."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from kickoff.v1 import chat_pb2
from service.actors.feed import Feed
from service.chat.chat import CHANNELS, PLAYERS, REACTIONS, SPECTATORS, TEAM, Chat, Message, Reader
from service.errors import InvalidRequest
from service.grpc.convert import timestamp
from service.presence.presence import seat_player
from service.rooms.room import Room

CHANNEL = {
    PLAYERS: chat_pb2.CHAT_CHANNEL_PLAYERS,
    SPECTATORS: chat_pb2.CHAT_CHANNEL_SPECTATORS,
    TEAM: chat_pb2.CHAT_CHANNEL_TEAM,
}
CHANNEL_NAME = {chat_pb2.CHAT_CHANNEL_UNSPECIFIED: "", **{value: name for name, value in CHANNEL.items()}}
REACTION = {name: index + 1 for index, name in enumerate(REACTIONS)}  # (ChatReaction's values, in REACTIONS' order)
REACTION_NAME = {value: name for name, value in REACTION.items()}
CHAT_WINDOW = 16  # chat messages a room stream's feed holds unread at most (its bound is the server's stream buffer)
assert set(CHANNEL) == set(CHANNELS) and all(
    chat_pb2.ChatReaction.Name(v).lower().endswith(n) for n, v in REACTION.items()
)


def message_to_proto(message: Message) -> chat_pb2.ChatMessage:
    answer = chat_pb2.ChatMessage(
        room_id=message.room_id,
        seq=message.seq,
        channel=CHANNEL[message.channel],
        text=message.text,
        reaction=REACTION.get(message.reaction, 0),  # type: ignore[arg-type]
        player_id=message.player_id,
        name=message.name,
        team=message.team,
        withdrawn=message.withdrawn,
        withdraws_seq=message.withdraws,
        create_time=timestamp(message.created_at),
    )
    if message.seat is not None:
        answer.seat = message.seat
    return answer


def channel_of(value: int) -> str:
    if value not in CHANNEL_NAME:
        raise InvalidRequest("channel must be a ChatChannel value", code="bad_channel", field="channel")
    return CHANNEL_NAME[value]


def at_table(chat: Chat | None, room: Room, player_id: str) -> contextlib.AbstractContextManager[None]:
    """While a stream of ``room`` is open for ``player_id``: they are not away from it (service/chat: a message in a
    correspondence room is an inbox item and a webhook event only for a person away). Nothing without chat."""
    if chat is None or not player_id:
        return contextlib.nullcontext()
    return chat.present(room.room_id, player_id)


async def reader_of(chat: Chat, room: Room, seat: int | None, player_id: str = "") -> Reader:
    """Who reads: ``seat`` (None: a spectator) and its team, and the player (the seat's, or ``player_id``) with the
    players they blocked."""
    player_id = seat_player(room, seat) or player_id
    team = room.teams[seat] if seat is not None else None
    return Reader(seat, team, player_id, await chat.blocked_by(player_id))


async def with_chat(
    chat: Chat | None,
    room: Room,
    seat: int | None,
    after: int | None,
    feed: Feed[Any],
    *,
    until_stopped: bool = False,
) -> AsyncIterator[Any]:
    """A room stream's items (``feed.next(until_stopped=...)`` until it gives None) with the room's chat after seq
    ``after`` as ChatMessages among them, for a stream that asked for chat (``after`` not None) of a room whose chat is
    not off. The chat is followed in a task of its own that hands each message to the feed (Feed.send: read after the
    updates published before it), never more than :data:`CHAT_WINDOW` unread at once, so an update costs the stream
    nothing more than without chat; a follower that fails (the room moved) ends the stream with its error."""
    next_item = functools.partial(feed.next, until_stopped=until_stopped)
    if chat is None or after is None or room.chat == "off":
        while (item := await next_item()) is not None:
            yield item
        return
    chat.check_after(after)
    reader = await reader_of(chat, room, seat)

    async def follow() -> None:
        try:
            async for message in chat.follow(room, reader, "", after):
                await feed.until_fewer(CHAT_WINDOW)
                feed.send(message_to_proto(message))
        except asyncio.CancelledError:
            raise
        except Exception as error:
            feed.send(_Failed(error))

    following = asyncio.ensure_future(follow())
    try:
        while (item := await next_item()) is not None:
            if type(item) is _Failed:
                raise item.error
            yield item
    finally:
        following.cancel()
        with contextlib.suppress(BaseException):
            await following


@dataclass(frozen=True)
class _Failed:
    """The chat's follower failed: the stream ends with ``error``."""

    error: Exception
