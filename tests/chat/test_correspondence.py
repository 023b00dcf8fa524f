"""Chat in correspondence games: a message to a seated player who is away from the room (no stream of it open) is a
`chat.message` webhook delivery (its text only for an endpoint that asked for it) and one unread inbox item a room;
a player at the table, one who blocked the sender, a spectators' message and a live room make none."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from standardwebhooks import Webhook

from kickoff.v1 import friend_pb2, inbox_pb2, inbox_pb2_grpc, move_pb2, player_pb2, webhook_pb2
from service.settings import InboxSettings
from service.store.database import create_engine
from service.store.journal import SqlJournal
from terminal.screens.social import item_text
from tests.chat.conftest import CHAT, SPECTATORS, Table, auth, taken
from tests.servers import Start
from tests.webhooks.conftest import OPERATOR_KEY, SERVER_SETTINGS, Receiver
from tests.webhooks.conftest import receivers as receivers  # (the fixture: loopback receivers, closed at the end)

OPERATOR = (("x-operator-key", OPERATOR_KEY),)
CHAT_MESSAGE = webhook_pb2.WEBHOOK_EVENT_CHAT_MESSAGE


@pytest.fixture
async def table(start: Start, database_url: str) -> Table:
    """A server with chat, webhooks (the test steps the dispatcher) and the players' inboxes."""
    journal = SqlJournal(create_engine(database_url))
    return Table(await start(journal=journal, chat=CHAT, webhooks=SERVER_SETTINGS, inbox=InboxSettings()))


async def hook(table: Table, receivers: Callable[..., Any], *, chat_text: bool = False) -> tuple[Receiver, str]:
    """A receiver registered for chat.message (with the text when ``chat_text``); it and its secret."""
    receiver = await receivers()
    request = webhook_pb2.AddEndpointRequest(url=receiver.url, events=[CHAT_MESSAGE], chat_text=chat_text)
    added = await table.harness.webhook_admin.AddEndpoint(request, metadata=OPERATOR)
    assert added.endpoint.chat_text is chat_text
    return receiver, added.secret


async def drain(table: Table) -> None:
    """Every delivery due now sent (nothing runs by itself: the test steps the dispatcher)."""
    dispatcher = table.harness.webhooks.dispatcher
    while await dispatcher.step():
        await dispatcher.settle()


def events(receiver: Receiver, secret: str) -> list[dict[str, Any]]:
    """What the receiver got, each delivery's signature checked."""
    check = Webhook(secret)
    return [check.verify(request.body, request.headers) for request in receiver.requests]


async def inbox(table: Table, session: player_pb2.Session) -> list[inbox_pb2.InboxItem]:
    stub = inbox_pb2_grpc.InboxServiceStub(table.harness.channel)
    page = await stub.ListInbox(inbox_pb2.ListInboxRequest(), metadata=auth(session.access_token))
    return list(page.items)


def chats(items: list[inbox_pb2.InboxItem]) -> list[dict[str, Any]]:
    """The chat.message items' data, newest first."""
    return [dict(item.data) for item in items if item.kind == "chat.message"]


async def test_a_message_to_a_player_away_is_one_inbox_item_and_one_delivery_without_its_text(
    table: Table, receivers: Any
) -> None:
    """Buys the issue's promise: the player away hears of the message (a push from the webhook, an inbox item that
    the terminal shows in words), and neither the delivery nor the item holds what was said."""
    receiver, secret = await hook(table, receivers)
    ann, bob = await table.guest("Ann"), await table.guest("Bob")
    room_id = await table.room(ann, bob, correspondence_hours=24)
    said = await table.say(ann, room_id, "see you tomorrow")
    await drain(table)

    [event] = events(receiver, secret)
    assert event["type"] == "chat.message"
    assert event["data"] == {
        "player_id": bob.player.player_id,
        "room_id": room_id,
        "game": "soker",
        "seq": said.seq,
        "channel": "players",
        "reaction": "",
        "from_name": "Ann",
    }
    assert "see you tomorrow" not in receiver.requests[0].body
    items = await inbox(table, bob)
    assert chats(items) == [{**event["data"], "count": 1.0}]
    item = next(i for i in items if i.kind == "chat.message")
    assert item_text(item) == f"Ann wrote in your soker room {room_id}"
    assert chats(await inbox(table, ann)) == []  # (the sender hears nothing of their own message)


async def test_an_endpoint_that_asked_for_the_text_gets_it_but_not_a_withdrawn_messages(
    table: Table, receivers: Any
) -> None:
    """Buys chat_text: the text is added when the delivery goes out, read from the chat then, so a message an
    operator deleted before it went goes without it; an endpoint that did not ask never gets it."""
    plain, plain_secret = await hook(table, receivers)
    wordy, wordy_secret = await hook(table, receivers, chat_text=True)
    ann, bob = await table.guest("Ann"), await table.guest("Bob")
    room_id = await table.room(ann, bob, correspondence_hours=24)
    kept = await table.say(ann, room_id, "your move <b>now</b>")
    gone = await table.say(ann, room_id, "something rude")
    room = await table.harness.directory.locate(room_id)
    assert await table.harness.chat.withdraw(room, gone.seq) is not None
    await drain(table)

    texts = {event["data"]["seq"]: event["data"].get("text") for event in events(wordy, wordy_secret)}
    assert texts == {kept.seq: "your move <b>now</b>", gone.seq: None}
    assert all("text" not in event["data"] for event in events(plain, plain_secret))
    assert len(plain.requests) == 2


@pytest.mark.parametrize("stream", ["FollowChat", "StreamEvents"])
async def test_a_player_with_the_rooms_stream_open_gets_neither_until_it_closes(
    table: Table, receivers: Any, stream: str
) -> None:
    """Buys "away": a player reading the room (its chat stream, or its event stream with their seat) gets no push
    and no item for what they see live; once the stream is closed the next message reaches them again."""
    receiver, secret = await hook(table, receivers)
    ann, bob = await table.guest("Ann"), await table.guest("Bob")
    room_id = await table.room(ann, bob, correspondence_hours=24)
    bob_id = bob.player.player_id
    if stream == "FollowChat":
        call = table.follow(bob, room_id)
    else:
        seat_token = table.seat_tokens[room_id, bob_id]
        request = move_pb2.StreamEventsRequest(room_id=room_id, after_chat_seq=0)
        call = table.harness.moves.StreamEvents(request, metadata=auth(seat_token))
    await call.initial_metadata()  # (the stream is open on the server)
    said = await table.say(ann, room_id, "are you there?")
    if stream == "FollowChat":
        assert [m.seq for m in await taken(call, 1)] == [said.seq]
    await drain(table)
    assert receiver.requests == []
    assert chats(await inbox(table, bob)) == []

    call.cancel()
    chat = table.harness.chat
    for _ in range(500):  # (the server hears of the cancel in its own time)
        if chat.away(room_id, bob_id):
            break
        await asyncio.sleep(0.01)
    later = await table.say(ann, room_id, "gone?")
    await drain(table)
    assert [event["data"]["seq"] for event in events(receiver, secret)] == [later.seq]
    assert [data["seq"] for data in chats(await inbox(table, bob))] == [later.seq]


async def test_a_player_who_blocked_the_sender_gets_neither(table: Table, receivers: Any) -> None:
    """Buys blocks: a blocked sender cannot reach a player's phone through the chat; the third player, who blocked
    nobody, still hears of it."""
    receiver, secret = await hook(table, receivers)
    ann, bob, cid = await table.guest("Ann"), await table.guest("Bob"), await table.guest("Cid")
    room_id = await table.room(ann, bob, cid, correspondence_hours=24)
    block = friend_pb2.BlockPlayerRequest(player_id=ann.player.player_id)
    await table.harness.friends.BlockPlayer(block, metadata=auth(bob.access_token))
    await table.say(ann, room_id, "hello both")
    await drain(table)

    assert [event["data"]["player_id"] for event in events(receiver, secret)] == [cid.player.player_id]
    assert chats(await inbox(table, bob)) == []
    assert len(chats(await inbox(table, cid))) == 1


async def test_a_spectators_message_reaches_no_players_inbox(table: Table, receivers: Any) -> None:
    """Buys the channels: the players never read the spectators' channel, so nothing said there reaches them."""
    receiver, _ = await hook(table, receivers)
    ann, bob, eve = await table.guest("Ann"), await table.guest("Bob"), await table.guest("Eve")
    room_id = await table.room(ann, bob, correspondence_hours=24)
    await table.say(eve, room_id, "nice game so far", channel=SPECTATORS)
    await drain(table)

    assert receiver.requests == []
    for player in (ann, bob, eve):
        assert chats(await inbox(table, player)) == []


async def test_ten_messages_leave_one_unread_item_and_a_read_one_makes_room_for_the_next(
    table: Table, receivers: Any
) -> None:
    """Buys the inbox's bound: a talkative table leaves one unread item a room (its count and last seq), while each
    message is still its own delivery; once read, the next message is a new item."""
    receiver, _ = await hook(table, receivers)
    ann, bob = await table.guest("Ann"), await table.guest("Bob")
    room_id = await table.room(ann, bob, correspondence_hours=24)
    said = [await table.say(ann, room_id, f"message {n}") for n in range(10)]
    await drain(table)

    items = await inbox(table, bob)
    assert [(data["count"], data["seq"]) for data in chats(items)] == [(10, said[-1].seq)]
    assert len(receiver.requests) == 10
    stub = inbox_pb2_grpc.InboxServiceStub(table.harness.channel)
    mark = inbox_pb2.MarkInboxReadRequest(item_ids=[items[0].item_id])
    await stub.MarkInboxRead(mark, metadata=auth(bob.access_token))
    after = await table.say(ann, room_id, "one more")
    assert [(data["count"], data["seq"]) for data in chats(await inbox(table, bob))] == [
        (1, after.seq),
        (10, said[-1].seq),
    ]


async def test_a_live_room_makes_no_item_and_no_delivery(table: Table, receivers: Any) -> None:
    """Buys the scope: in a live game everyone is at the table, so its chat is never pushed nor kept in an inbox."""
    receiver, _ = await hook(table, receivers)
    ann, bob = await table.guest("Ann"), await table.guest("Bob")
    room_id = await table.room(ann, bob)
    await table.say(ann, room_id, "good luck")
    await drain(table)

    assert receiver.requests == []
    assert chats(await inbox(table, bob)) == []


async def test_an_endpoint_may_want_chat_messages_with_every_other_event(table: Table, receivers: Any) -> None:
    """Buys the contract: chat.message is an event an endpoint may want alongside every other one, and
    ListEndpoints says which endpoints get the text."""
    receiver = await receivers()
    every = [value for value in webhook_pb2.WebhookEvent.values() if value]
    request = webhook_pb2.AddEndpointRequest(url=receiver.url, events=every, chat_text=True)
    await table.harness.webhook_admin.AddEndpoint(request, metadata=OPERATOR)
    listed = await table.harness.webhook_admin.ListEndpoints(webhook_pb2.ListEndpointsRequest(), metadata=OPERATOR)
    [endpoint] = listed.endpoints
    assert endpoint.chat_text and CHAT_MESSAGE in endpoint.events and len(endpoint.events) == len(every)
