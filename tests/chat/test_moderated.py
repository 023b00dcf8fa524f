"""The chat under its moderation (issue 49): the operator's word filter on what is said, a mute refusing a player's
messages everywhere, and a message an operator deletes withdrawn for everyone reading. (~0.5 s a store)"""

from __future__ import annotations

import grpc

from kickoff.v1 import chat_pb2, common_pb2, operator_pb2, room_pb2
from service.chat.reports import Mutes
from service.store.database import create_engine
from tests.chat.conftest import SPECTATORS, auth, refused, taken, texts
from tests.ops.conftest import op, operator_keys, ops


async def test_a_listed_word_is_masked_and_a_muted_player_is_refused(tables, database_url: str, tmp_path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("darn\n", encoding="utf-8")
    table = await tables(filter_file=str(words), filter_mode="mask")
    ann, bo = await table.guest("Ann"), await table.guest("Bo")
    room = await table.room(ann, bo)
    said = await table.say(ann, room, "well DARN it")
    assert said.text == "well **** it", "the filter masks a listed word, whatever its case"
    engine = create_engine(database_url)
    try:
        await Mutes(engine, table.harness.clock.now).mute(bo.player.player_id, 3600, "insults", "key-1")
    finally:
        await engine.dispose()
    assert await refused(table.send(bo, room, "hello"), grpc.StatusCode.PERMISSION_DENIED) == "muted"
    assert texts(await table.read(ann, room)) == ["well **** it"], "nothing of the muted player's was kept"


async def test_a_message_an_operator_deletes_is_withdrawn_for_everyone_reading(tables) -> None:
    table = await tables(operator_keys=operator_keys())
    ann, bo = await table.guest("Ann"), await table.guest("Bo")
    room = await table.room(ann, bo)
    follower = table.follow(ann, room)
    await table.say(ann, room, "hello")
    rude = await table.say(bo, room, "something rude")
    assert texts(await taken(follower, 2)) == ["hello", "something rude"]

    delete = operator_pb2.DeleteChatMessageRequest(room_id=room, seq=rude.seq)
    assert (await ops(table.harness).DeleteChatMessage(delete, metadata=op())).deleted
    (withdrawal,) = await taken(follower, 1)
    assert (withdrawal.withdraws_seq, withdrawal.text, withdrawal.player_id) == (rude.seq, "", "")
    assert withdrawal.channel == rude.channel and withdrawal.seq > rude.seq

    for reader in (ann, bo):  # (read back later: the message is there, withdrawn, with nothing of what was said)
        kept = {message.seq: message for message in await table.read(reader, room)}
        assert kept[rude.seq].withdrawn and kept[rude.seq].text == "" and kept[withdrawal.seq].withdraws_seq
    again = table.follow(bo, room)  # (from the first: this node's memory of the room's chat is blanked too)
    assert [(m.text, m.withdrawn) for m in await taken(again, 3)] == [("hello", False), ("", True), ("", False)]
    assert not (await ops(table.harness).DeleteChatMessage(delete, metadata=op())).deleted
    follower.cancel()
    again.cancel()


async def test_a_link_holder_watches_an_unlisted_rooms_spectators_channel_and_a_stranger_finds_no_room(table) -> None:
    """Buys: the chat of an unlisted room is the room's: its invitation link lets its holder read and write the
    spectators' channel (the page's watch link), and without one the chat says no such room, as the room does."""
    owner, stranger = await table.guest("Owner"), await table.guest("Eve")
    create = room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, unlisted=True)
    room = (await table.harness.rooms.CreateRoom(create, metadata=auth(owner.access_token))).room.room_id
    made = room_pb2.CreateInvitationLinkRequest(room_id=room)
    token = (await table.harness.rooms.CreateInvitationLink(made, metadata=auth(owner.access_token))).token
    said = await table.say(stranger, room, "nice game", invitation_token=token)
    assert said.channel == SPECTATORS
    assert texts(await table.read(stranger, room, invitation_token=token)) == ["nice game"]
    assert texts(await taken(table.follow(None, room, invitation_token=token), 1)) == ["nice game"]
    assert texts(await table.read(owner, room)) == [], "the players never read the spectators' channel"
    for call in (
        table.send(stranger, room, "hello"),
        table.stub.ListChatMessages(
            chat_pb2.ListChatMessagesRequest(room_id=room), metadata=auth(stranger.access_token)
        ),
    ):
        assert await refused(call, grpc.StatusCode.NOT_FOUND) == "room_not_found"
    follow = table.follow(stranger, room)
    assert await refused(follow.read(), grpc.StatusCode.NOT_FOUND) == "room_not_found"
