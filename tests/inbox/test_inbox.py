"""The inbox on gRPC, on both stores: what becomes an item (a correspondence game's turn, a match found for each
person at the table; not a live game's turn), listing newest first with pages and the unread count, marking read and
deleting, following live and resuming after an id, an item written on another node reaching a follower, items
surviving a restart, retention by age and by count, and every bound refused with its reason."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from sqlalchemy import func, select

from kickoff.v1 import common_pb2, friend_pb2, friend_pb2_grpc, inbox_pb2, match_pb2, move_pb2, player_pb2, room_pb2
from service.inbox.inbox import Inbox
from service.store.database import create_engine
from service.store.journal import SqlJournal
from service.store.models import InboxItemRow
from service.store.retention import prune
from tests.inbox.conftest import INBOX, Boxed, auth, put
from tests.matches.conftest import SETTINGS
from tests.servers import Start


def reason(error: grpc.aio.AioRpcError) -> str:
    status = rpc_status.from_call(error)
    for detail in status.details if status else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info.reason
    return ""


async def refused(call, code: grpc.StatusCode) -> str:
    """The reason a call was refused with ``code``."""
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await call
    assert error.value.code() == code, error.value.details()
    return reason(error.value)


async def against_a_system_player(boxed: Boxed, session, hours: int) -> str:
    request = room_pb2.CreateRoomRequest(
        game="soker",
        mode=common_pb2.ROOM_MODE_ONLINE,
        seats=2,
        system_players=1,
        think_seconds=0,
        correspondence_hours=hours,
    )
    made = await boxed.harness.rooms.CreateRoom(request, metadata=auth(session.access_token))
    await boxed.harness.directory.settle()
    return made.room.room_id


async def test_a_correspondence_games_turn_is_an_item_and_a_live_games_is_not(boxed: Boxed) -> None:
    """What the issue asks of turns: "your turn" in a correspondence game reaches the inbox; a live game's moves
    write nothing there. (~0.5 s)"""
    ann = await boxed.guest("Ann")
    live = await against_a_system_player(boxed, ann, 0)
    slow = await against_a_system_player(boxed, ann, 24)
    for room_id in (live, slow):  # (Ann's turn began in both: the system player moved, or she is first)
        view = await boxed.harness.moves.GetView(move_pb2.GetViewRequest(room_id=room_id))
        assert list(view.to_act) == [0] or list(view.to_act) == [1]
    items = (await boxed.list(ann)).items
    assert {item.data["room_id"] for item in items} == {slow}, "only the correspondence room's turn is an item"
    item = items[0]
    assert item.kind == "turn.began" and not item.read
    assert item.data["player_id"] == ann.player.player_id and item.data["game"] == "soker"
    assert item.data["deadline"], "a correspondence turn says by when"
    assert set(item.data) <= {"player_id", "room_id", "game", "seat", "deadline", "version"}, "never a card"


async def test_a_match_found_is_an_item_for_each_person_at_the_table(boxed: Boxed) -> None:
    """match.found reaches every person of the table found, naming their own ticket. (~0.5 s)"""
    ann, bob = await boxed.guest("Ann"), await boxed.guest("Bob")
    tickets = {}
    for session in (ann, bob):
        request = match_pb2.EnqueueRequest(game="soker", seat_counts=[2])
        answer = await boxed.harness.matches.Enqueue(request, metadata=auth(session.access_token))
        tickets[session.player.player_id] = answer.ticket.ticket_id
    boxed.harness.clock.advance(1)
    await boxed.harness.matchmaker.tick()
    for session in (ann, bob):
        items = (await boxed.list(session)).items
        assert [item.kind for item in items] == ["match.found"]
        assert items[0].data["ticket_id"] == tickets[session.player.player_id]
        assert session.player.player_id in items[0].data["players"]


async def test_a_friend_request_and_its_acceptance_reach_the_inboxes(boxed: Boxed) -> None:
    """FriendService's events go through the outbox's seam like every other: the player asked finds the request in
    their inbox, the player who asked finds the acceptance (with no webhook endpoint registered). (~0.3 s)"""
    ann, bob = await boxed.guest("Ann"), await boxed.guest("Bob")
    friends = friend_pb2_grpc.FriendServiceStub(boxed.harness.channel)
    code = (await friends.GetFriendCode(friend_pb2.GetFriendCodeRequest(), metadata=auth(bob.access_token))).friend_code
    await friends.SendFriendRequest(
        friend_pb2.SendFriendRequestRequest(friend_code=code), metadata=auth(ann.access_token)
    )
    asked = (await boxed.list(bob)).items
    assert [item.kind for item in asked] == ["friend.requested"] and not asked[0].read
    assert asked[0].data["player_id"] == bob.player.player_id
    assert (await boxed.list(ann)).items == [], "nothing for the one who asked, yet"
    await friends.AcceptFriendRequest(
        friend_pb2.AcceptFriendRequestRequest(player_id=ann.player.player_id), metadata=auth(bob.access_token)
    )
    accepted = (await boxed.list(ann)).items
    assert [item.kind for item in accepted] == ["friend.accepted"]
    assert accepted[0].data["player_id"] == ann.player.player_id


async def test_items_are_listed_newest_first_a_page_at_a_time_and_marked_read(boxed: Boxed) -> None:
    """Listing, paging, the unread count, marking read (by id and up to an id, idempotently) and deleting, each
    only ever the caller's own items. (~0.5 s)"""
    ann, bob = await boxed.guest("Ann"), await boxed.guest("Bob")
    await boxed.put(ann, 5)
    await boxed.put(bob, 1)
    first = await boxed.list(ann, page_size=2)
    assert [item.data["n"] for item in first.items] == [4, 3] and first.unread_count == 5
    second = await boxed.list(ann, page_size=2, page_token=first.next_page_token)
    third = await boxed.list(ann, page_size=2, page_token=second.next_page_token)
    assert [item.data["n"] for item in second.items] == [2, 1]
    assert [item.data["n"] for item in third.items] == [0] and not third.next_page_token
    ids = [item.item_id for item in (*first.items, *second.items, *third.items)]
    assert ids == sorted(ids, reverse=True)
    bobs = (await boxed.list(bob)).items[0].item_id
    stub, metadata = boxed.stub, auth(ann.access_token)
    marked = await stub.MarkInboxRead(inbox_pb2.MarkInboxReadRequest(item_ids=[ids[0], bobs]), metadata=metadata)
    assert marked.unread_count == 4
    assert (await boxed.list(bob)).unread_count == 1, "another's item is not marked by naming it"
    unread = await boxed.list(ann, unread_only=True)
    assert [item.item_id for item in unread.items] == ids[1:]
    marked = await stub.MarkInboxRead(inbox_pb2.MarkInboxReadRequest(up_to_item_id=ids[2]), metadata=metadata)
    assert marked.unread_count == 1  # (ids[2] and every older one read: ids[1] is left)
    again = await stub.MarkInboxRead(inbox_pb2.MarkInboxReadRequest(up_to_item_id=ids[2]), metadata=metadata)
    assert again.unread_count == 1, "marking again changes nothing"
    assert [item.read for item in (await boxed.list(ann)).items] == [True, False, True, True, True]
    deleted = await stub.DeleteInboxItem(inbox_pb2.DeleteInboxItemRequest(item_id=ids[1]), metadata=metadata)
    assert deleted.unread_count == 0
    await stub.DeleteInboxItem(inbox_pb2.DeleteInboxItemRequest(item_id=bobs), metadata=metadata)
    assert len((await boxed.list(bob)).items) == 1, "another's item is not deleted by naming it"
    assert [item.item_id for item in (await boxed.list(ann)).items] == [ids[0], *ids[2:]]


async def test_every_bound_is_refused_with_its_reason(start: Start, database_url: str) -> None:
    """Page size, page token, item ids, an empty mark, a negative resume id, no token, and a node's followers past
    its bound. (~0.5 s)"""
    settings = replace(INBOX, max_followers=1)
    boxed = Boxed(await start(journal=SqlJournal(create_engine(database_url)), match=SETTINGS, inbox=settings))
    ann = await boxed.guest("Ann")
    stub, metadata, invalid = boxed.stub, auth(ann.access_token), grpc.StatusCode.INVALID_ARGUMENT
    assert await refused(boxed.list(ann, page_size=101), invalid) == "bad_page_size"
    assert await refused(boxed.list(ann, page_token="x1"), invalid) == "bad_page_token"
    assert await refused(boxed.list(ann, page_token="1" * 21), invalid) != ""  # (past the field's bound)
    many = inbox_pb2.MarkInboxReadRequest(item_ids=list(range(1, 102)))
    await refused(stub.MarkInboxRead(many, metadata=metadata), invalid)
    empty = inbox_pb2.MarkInboxReadRequest()
    assert await refused(stub.MarkInboxRead(empty, metadata=metadata), invalid) == "nothing_to_mark"
    negative = inbox_pb2.MarkInboxReadRequest(item_ids=[-1])
    assert await refused(stub.MarkInboxRead(negative, metadata=metadata), invalid) == "bad_item_id"
    zero = inbox_pb2.DeleteInboxItemRequest()
    assert await refused(stub.DeleteInboxItem(zero, metadata=metadata), invalid) == "bad_item_id"
    await refused(stub.ListInbox(inbox_pb2.ListInboxRequest()), grpc.StatusCode.UNAUTHENTICATED)
    back = stub.FollowInbox(inbox_pb2.FollowInboxRequest(after_item_id=-1), metadata=metadata)
    assert await refused(back.read(), invalid) == "bad_item_id"
    first = stub.FollowInbox(inbox_pb2.FollowInboxRequest(), metadata=metadata)
    await first.initial_metadata()  # (the node serves one stream now: its bound)
    second = stub.FollowInbox(inbox_pb2.FollowInboxRequest(), metadata=metadata)
    assert await refused(second.read(), grpc.StatusCode.RESOURCE_EXHAUSTED) == "too_many_followers"
    first.cancel()


async def test_a_follower_gets_each_new_item_and_resumes_after_the_last_it_saw(boxed: Boxed) -> None:
    """An item written after the stream opened arrives at once; resuming from an id sends only what came after it,
    oldest first. (~0.5 s)"""
    ann = await boxed.guest("Ann")
    metadata = auth(ann.access_token)
    stream = boxed.stub.FollowInbox(inbox_pb2.FollowInboxRequest(), metadata=metadata)
    await stream.initial_metadata()
    await boxed.put(ann, 1, seen=1)
    first = (await asyncio.wait_for(stream.read(), 10)).item
    assert first.data["seen"] == 1 and first.kind == "friend.requested"
    await boxed.put(ann, 2, seen=2)
    following = [(await asyncio.wait_for(stream.read(), 10)).item for _ in range(2)]
    assert [item.data["n"] for item in following] == [0, 1] and all(item.data["seen"] == 2 for item in following)
    stream.cancel()
    resumed = boxed.stub.FollowInbox(inbox_pb2.FollowInboxRequest(after_item_id=first.item_id), metadata=metadata)
    again = [(await asyncio.wait_for(resumed.read(), 10)).item.item_id for _ in range(2)]
    assert again == [item.item_id for item in following], "only what came after the id, oldest first"
    resumed.cancel()


async def test_an_item_written_on_another_node_reaches_a_follower_here(boxed: Boxed, database_url: str) -> None:
    """Two inboxes on one store (two nodes): an item another node writes reaches this node's follower at the watch's
    next look (every second on a running server). (~0.5 s)"""
    ann = await boxed.guest("Ann")
    stream = boxed.stub.FollowInbox(inbox_pb2.FollowInboxRequest(), metadata=auth(ann.access_token))
    await stream.initial_metadata()
    await boxed.inbox.watch.look()  # (what the store holds for the followed players, as the poll knows it)
    other = Inbox(create_engine(database_url), INBOX)
    try:
        await put(other, ann, 1, node="b")
        await boxed.inbox.watch.look()
        item = (await asyncio.wait_for(stream.read(), 10)).item
        assert item.data["node"] == "b"
    finally:
        stream.cancel()
        await other.engine.dispose()


async def test_items_survive_a_restart(start: Start, database_url: str) -> None:
    """A new server on the same store lists the items an earlier one wrote, read or not. (~0.5 s)"""
    before = Boxed(await start(journal=SqlJournal(create_engine(database_url)), match=SETTINGS, inbox=INBOX))
    ann = await before.guest("Ann")
    await before.put(ann, 3)
    listed = await before.list(ann)
    await before.stub.MarkInboxRead(
        inbox_pb2.MarkInboxReadRequest(item_ids=[listed.items[0].item_id]), metadata=auth(ann.access_token)
    )
    await before.harness.server.stop(0)
    after = Boxed(await start(journal=SqlJournal(create_engine(database_url)), match=SETTINGS, inbox=INBOX))
    again = await after.list(ann)
    assert [item.item_id for item in again.items] == [item.item_id for item in listed.items]
    assert again.unread_count == 2


async def test_items_are_pruned_by_age_and_by_count(start: Start, database_url: str) -> None:
    """The retention sweep's rules: past keep_days an item goes, read or not; past max_items a player's oldest go;
    nobody else's are touched. (~0.5 s)"""
    settings = replace(INBOX, keep_days=1, max_items=3)
    boxed = Boxed(await start(journal=SqlJournal(create_engine(database_url)), match=SETTINGS, inbox=settings))
    ann, bob = await boxed.guest("Ann"), await boxed.guest("Bob")
    await boxed.put(ann, 1, old=True)
    boxed.harness.clock.advance(86400 + 1)
    await boxed.put(ann, 4)
    await boxed.put(bob, 2)
    inbox = boxed.inbox
    deleted = await prune(inbox.engine, inbox.retention(), boxed.harness.clock.now())
    assert list(deleted.values()) == [1, 1], deleted
    kept = (await inbox.page(ann.player.player_id, 10)).items  # (read as the store holds it: a day has passed)
    assert [item.data["n"] for item in kept] == [3, 2, 1]
    assert len((await inbox.page(bob.player.player_id, 10)).items) == 2
    assert list((await prune(inbox.engine, inbox.retention(), boxed.harness.clock.now())).values()) == [0, 0]


async def test_a_deleted_player_leaves_no_items(boxed: Boxed) -> None:
    """A player's deletion takes their inbox with it (in its transaction). (~0.3 s)"""
    ann = await boxed.guest("Ann")
    await boxed.put(ann, 2)
    await boxed.harness.players.DeletePlayer(player_pb2.DeletePlayerRequest(), metadata=auth(ann.access_token))
    async with boxed.inbox.engine.connect() as connection:
        query = select(func.count()).where(InboxItemRow.player_id == ann.player.player_id)
        assert (await connection.execute(query)).scalar_one() == 0


async def test_a_deleted_newest_item_never_gives_its_id_to_the_next(boxed: Boxed) -> None:
    """A player deletes their newest item; the next item written gets a new, higher id, and a follower resuming after
    the deleted id hears it. (On SQLite the next item took the deleted one's id, and a page or stream that had seen
    that id never showed the new item: a declined invitation hid the next one.) (~0.3 s)"""
    ann = await boxed.guest("Ann")
    await boxed.put(ann, 2)
    newest = (await boxed.list(ann)).items[0].item_id
    metadata = auth(ann.access_token)
    await boxed.stub.DeleteInboxItem(inbox_pb2.DeleteInboxItemRequest(item_id=newest), metadata=metadata)
    await boxed.put(ann, 1, after="the deletion")
    listed = (await boxed.list(ann)).items
    assert listed[0].data["after"] == "the deletion" and listed[0].item_id > newest
    stream = boxed.stub.FollowInbox(inbox_pb2.FollowInboxRequest(after_item_id=newest), metadata=metadata)
    try:
        heard = (await asyncio.wait_for(stream.read(), 10)).item
        assert heard.item_id == listed[0].item_id
    finally:
        stream.cancel()
