"""Players' inboxes across a failover, on two whole nodes of a cluster (PostgreSQL): what one node wrote stays the
players' after it dies, and the room the other takes over writes each "your turn" once."""

from __future__ import annotations

import asyncio

import grpc

from kickoff.v1 import (
    common_pb2,
    friend_pb2,
    friend_pb2_grpc,
    inbox_pb2,
    inbox_pb2_grpc,
    move_pb2,
    player_pb2,
    room_pb2,
)
from tests.cluster.conftest import Cluster, Member, auth, play_turn
from tests.server.conftest import refusal


async def guest(member: Member, name: str) -> player_pb2.Session:
    return (await member.player_stub.SignInAsGuest(player_pb2.SignInAsGuestRequest(name=name))).session


async def listed(member: Member, session: player_pb2.Session) -> inbox_pb2.ListInboxResponse:
    stub = inbox_pb2_grpc.InboxServiceStub(member.channel)
    return await stub.ListInbox(inbox_pb2.ListInboxRequest(), metadata=auth(session.access_token))


def shown(page: inbox_pb2.ListInboxResponse) -> list[tuple[int, str, bool, str]]:
    """What a player sees of their items: id, kind, read, and the room or player each is about."""
    return [(i.item_id, i.kind, i.read, dict(i.data).get("room_id", "")) for i in page.items]


async def test_inbox_items_outlive_their_node_and_the_room_taken_over_writes_the_next_turn_once(
    cluster: Cluster,
) -> None:
    """Buys: the issue's promise that the inbox survives a node: Ann's friend request and the "your turn" items of a
    correspondence room, written by node a, are listed by b after a dies, read flags and unread counts as they were;
    b rebuilds the room from its log without writing any item again; a's late move is fenced off and writes none;
    the next move, on b, writes the next player's "your turn" exactly once, and that player's follower on b hears it.
    About two seconds."""
    a = await cluster.start("a", social=True)
    b = await cluster.start("b", social=True)
    ann, bob = await guest(a, "Ann"), await guest(a, "Bob")
    friends = friend_pb2_grpc.FriendServiceStub(a.channel)
    code = (await friends.GetFriendCode(friend_pb2.GetFriendCodeRequest(), metadata=auth(ann.access_token))).friend_code
    await friends.SendFriendRequest(
        friend_pb2.SendFriendRequestRequest(friend_code=code), metadata=auth(bob.access_token)
    )

    # A correspondence room on a between Ann and Bob, played on a until each has had a turn written by a.
    request = room_pb2.CreateRoomRequest(
        game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, think_seconds=0, correspondence_hours=24
    )
    created = await a.room_stub.CreateRoom(request, metadata=auth(ann.access_token))
    room_id = created.room.room_id
    joined = await a.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id), metadata=auth(bob.access_token))
    tokens = {created.seat: created.seat_token, joined.seat: joined.seat_token}
    sessions = {created.seat: ann, joined.seat: bob}
    for turn in range(2):
        view = await a.move_stub.GetView(move_pb2.GetViewRequest(room_id=room_id))
        await play_turn(a, room_id, tokens[view.to_act[0]], f"a{turn}")
    assert room_id in a.rooms._actors and room_id not in b.rooms._actors, "a owns the room"
    first = (await listed(a, ann)).items[-1]
    assert first.kind == "friend.requested"
    stub_a = inbox_pb2_grpc.InboxServiceStub(a.channel)
    await stub_a.MarkInboxRead(
        inbox_pb2.MarkInboxReadRequest(item_ids=[first.item_id]), metadata=auth(ann.access_token)
    )
    before = {seat: await listed(a, session) for seat, session in sessions.items()}
    assert [i.kind for i in before[created.seat].items].count("turn.began") >= 1
    assert [i.kind for i in before[joined.seat].items].count("turn.began") >= 1
    assert before[created.seat].unread_count == len(before[created.seat].items) - 1

    # a dies: b claims the room and rebuilds it from its log; every item is b's to list, as it was, none written again.
    await cluster.expire("a")
    assert await b.runtime.sweep() == 1
    for seat, session in sessions.items():
        after = await listed(b, session)
        assert shown(after) == shown(before[seat]) and after.unread_count == before[seat].unread_count

    # The next player's follower, on b, after the last item it saw.
    view = await b.move_stub.GetView(move_pb2.GetViewRequest(room_id=room_id))
    mover = view.to_act[0]
    (waiting,) = set(sessions) - {mover}
    stub_b = inbox_pb2_grpc.InboxServiceStub(b.channel)
    last = before[waiting].items[0].item_id
    follower = stub_b.FollowInbox(
        inbox_pb2.FollowInboxRequest(after_item_id=last), metadata=auth(sessions[waiting].access_token)
    )
    await follower.initial_metadata()
    try:
        # a, stalled, still tries the move: fenced off (room_moved), it writes nothing. The same move on b lands.
        code, reason, _ = await refusal(play_turn(a, room_id, tokens[mover], "late"))
        assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "room_moved")
        await play_turn(b, room_id, tokens[mover], "late")
        for more in range(10):  # (a turn of Soker may be more than one move: the mover plays on until it passes)
            if list((await b.move_stub.GetView(move_pb2.GetViewRequest(room_id=room_id))).to_act) == [waiting]:
                break
            await play_turn(b, room_id, tokens[mover], f"b{more}")
        heard = (await asyncio.wait_for(follower.read(), 10)).item
    finally:
        follower.cancel()
    assert heard.kind == "turn.began" and heard.data["room_id"] == room_id
    assert heard.data["player_id"] == sessions[waiting].player.player_id and heard.item_id > last

    # Exactly one item more for the player now to act (the one heard); none for the mover; no turn written twice.
    now = {seat: await listed(b, session) for seat, session in sessions.items()}
    assert shown(now[waiting]) == [(heard.item_id, "turn.began", False, room_id), *shown(before[waiting])]
    assert now[waiting].unread_count == before[waiting].unread_count + 1
    assert shown(now[mover]) == shown(before[mover])
    for page in now.values():
        turns = [(i.data["room_id"], i.data["version"]) for i in page.items if i.kind == "turn.began"]
        assert len(turns) == len(set(turns)), "no turn repeated by the takeover's replay"
