"""Rooms' chat on two nodes of a cluster (PostgreSQL, issue 49): a player on the node that does not own the room
talks and follows through it, and after the owner dies the node that takes the room over goes on with the next seq."""

from __future__ import annotations

import asyncio

from kickoff.v1 import chat_pb2, chat_pb2_grpc, common_pb2, player_pb2, room_pb2
from tests.cluster.conftest import Cluster, Member, auth


async def guest(member: Member, name: str) -> player_pb2.Session:
    return (await member.player_stub.SignInAsGuest(player_pb2.SignInAsGuestRequest(name=name))).session


def chat(member: Member) -> chat_pb2_grpc.ChatServiceStub:
    return chat_pb2_grpc.ChatServiceStub(member.channel)


async def say(member: Member, session: player_pb2.Session, room_id: str, text: str) -> chat_pb2.ChatMessage:
    request = chat_pb2.SendChatMessageRequest(room_id=room_id, text=text)
    return (await chat(member).SendChatMessage(request, metadata=auth(session.access_token))).message


async def test_chat_between_two_nodes_and_across_a_failover(cluster: Cluster) -> None:
    """Buys the issue's two-node promise: the room's owner is a; Bob, on b, follows the chat through b (relayed from
    a) and hears Ann's message, and his own message sent through b takes a's next seq. After a dies, b claims the
    room: the next message takes the seq after the highest stored, and Bob, resuming on b after the last seq he saw,
    gets exactly it. Under a second."""
    a = await cluster.start("a", chat=True)
    b = await cluster.start("b", chat=True)
    ann, bob = await guest(a, "Ann"), await guest(b, "Bob")
    request = room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, think_seconds=0)
    room_id = (await a.room_stub.CreateRoom(request, metadata=auth(ann.access_token))).room.room_id
    await b.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id), metadata=auth(bob.access_token))
    assert room_id in a.rooms._actors and room_id not in b.rooms._actors, "a owns the room"

    follow = chat_pb2.FollowChatRequest(room_id=room_id)
    follower = chat(b).FollowChat(follow, metadata=auth(bob.access_token))
    await follower.initial_metadata()
    try:
        hello = await say(a, ann, room_id, "hello from a")
        heard = (await asyncio.wait_for(follower.read(), 10)).message
        assert heard == hello and heard.seq == 1
        mine = await say(b, bob, room_id, "hello from b")
        assert mine.seq == 2 and (await asyncio.wait_for(follower.read(), 10)).message == mine
    finally:
        follower.cancel()

    await cluster.expire("a")
    assert await b.runtime.sweep() == 1
    later = await say(b, ann, room_id, "b has the room")
    assert later.seq == 3, "the new owner goes on after the highest seq stored"
    resumed = chat(b).FollowChat(
        chat_pb2.FollowChatRequest(room_id=room_id, after_seq=mine.seq), metadata=auth(bob.access_token)
    )
    try:
        assert (await asyncio.wait_for(resumed.read(), 10)).message == later, "no gap, no duplicate"
    finally:
        resumed.cancel()
