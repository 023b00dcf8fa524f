"""Rooms' chat over gRPC, on both stores (issue 49): sending, listing and following; the channels kept apart; the team
channel; resuming with no gap and no duplicate (the chat stream and the room streams); every bound and rate limit
with its reason; blocks; reactions where text is off; chat never changing the room's version; the history bound and
retention after the game."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from sqlalchemy import func, select

from kickoff.v1 import chat_pb2, common_pb2, friend_pb2, friend_pb2_grpc, move_pb2, player_pb2, room_pb2
from service.store.models import ChatMessageRow
from service.store.retention import prune
from tests.chat.conftest import PLAYERS, SPECTATORS, TEAM, Table, auth, refused, taken, texts
from tests.private.conftest import reason_of

PERMISSION, INVALID = grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.INVALID_ARGUMENT
PRECONDITION, EXHAUSTED = grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.RESOURCE_EXHAUSTED


def retry_seconds(error: grpc.aio.AioRpcError) -> float:
    """The RetryInfo delay a refusal carries."""
    for detail in rpc_status.from_call(error).details:
        info = error_details_pb2.RetryInfo()
        if detail.Unpack(info):
            return info.retry_delay.ToNanoseconds() / 1e9
    raise AssertionError("no RetryInfo")


async def test_players_send_list_and_follow_their_channel(table: Table) -> None:
    """The players' channel end to end: a seated player's message is stored with the room's next seq, listed and
    followed by the other player (the kept ones first, then live), with the sender's name and seat. (~0.3 s)"""
    ann, bob = await table.guest("Ann"), await table.guest("Bob")
    room_id = await table.room(ann, bob)
    first = await table.say(ann, room_id, "  good   luck ")
    assert (first.seq, first.channel, first.text) == (1, PLAYERS, "good luck"), "normalised, seq 1, players'"
    assert (first.name, first.seat, first.player_id) == ("Ann", 0, ann.player.player_id)
    assert texts(await table.read(bob, room_id)) == ["good luck"]
    call = table.follow(bob, room_id)
    assert texts(await taken(call, 1)) == ["good luck"], "the kept messages first"
    second = await table.say(bob, room_id, "", reaction=chat_pb2.CHAT_REACTION_THANKS)
    live = (await asyncio.wait_for(call.read(), 10)).message
    assert (live.seq, live.reaction, live.seat) == (2, chat_pb2.CHAT_REACTION_THANKS, 1) and live == second
    call.cancel()


async def test_players_and_spectators_never_read_each_others_channel(table: Table) -> None:
    """Nobody watching can help a player: a spectator's messages reach the spectators only, the players' reach the
    seated players only, in a list and on a stream, and neither may write in the other's channel. (~0.4 s)"""
    ann, bob, cy, dee = [await table.guest(name) for name in ("Ann", "Bob", "Cy", "Dee")]
    room_id = await table.room(ann, bob)
    await table.say(ann, room_id, "players only")
    said = await table.say(cy, room_id, "watching")
    assert (said.channel, said.name, said.HasField("seat")) == (SPECTATORS, "Cy", False)
    assert texts(await table.read(bob, room_id)) == ["players only"]
    assert texts(await table.read(dee, room_id)) == ["watching"]
    assert texts(await table.read(None, room_id)) == ["watching"], "anyone who may watch reads the spectators'"
    assert texts(await table.read(bob, room_id, channel=SPECTATORS)) == [], "not even when asked for"
    watcher, player = table.follow(dee, room_id), table.follow(bob, room_id)
    assert texts(await taken(watcher, 1)) == ["watching"]
    assert texts(await taken(player, 1)) == ["players only"]
    await table.say(cy, room_id, "second watch")
    await table.say(bob, room_id, "second play")
    assert texts(await taken(watcher, 1)) == ["second watch"], "the player's message never reached the spectator"
    assert texts(await taken(player, 1)) == ["second play"], "the spectator's never reached the player"
    watcher.cancel()
    player.cancel()
    assert await refused(table.send(cy, room_id, "psst", channel=PLAYERS), PERMISSION) == "not_your_channel"
    assert await refused(table.send(ann, room_id, "hi", channel=SPECTATORS), PERMISSION) == "not_your_channel"


async def test_the_team_channel_reaches_the_team_only(table: Table) -> None:
    """Carta Futbol Club with team_chat: a team message reaches the sender's partner and nobody else; without
    team_chat the team channel is refused, and a game without teams refuses team_chat as the room is made. (~0.5 s)"""
    ann, bob, cy, dee = [await table.guest(name) for name in ("Ann", "Bob", "Cy", "Dee")]
    room_id = await table.room(ann, bob, cy, dee, game="carta-futbol-club", team_chat=True)  # teams: Ann+Cy, Bob+Dee
    room = (await table.harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert room.team_chat and [seat.team for seat in room.seats] == [0, 1, 0, 1]
    said = await table.say(ann, room_id, "lead low", channel=TEAM)
    assert (said.channel, said.team) == (TEAM, 0)
    assert texts(await table.read(cy, room_id)) == ["lead low"], "the partner reads it"
    for other in (bob, dee):
        assert texts(await table.read(other, room_id)) == [], "the other team does not"
    plain = await table.room(ann, bob, cy, dee, game="carta-futbol-club")
    assert await refused(table.send(ann, plain, "x", channel=TEAM), PERMISSION) == "not_your_channel"
    request = room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, team_chat=True)
    assert await refused(table.harness.rooms.CreateRoom(request), INVALID) == "team_chat_not_allowed"


async def test_a_dropped_stream_resumes_after_the_last_seq_with_no_gap_and_no_duplicate(table: Table) -> None:
    """A follower that lost its stream comes back with the last seq it saw and gets exactly what it missed, in
    order; a list after a seq pages the same way. (~0.3 s)"""
    ann, bob = await table.guest("Ann"), await table.guest("Bob")
    room_id = await table.room(ann, bob)
    for word in ("one", "two"):
        await table.say(ann, room_id, word)
    call = table.follow(bob, room_id)
    seen = await taken(call, 2)
    call.cancel()
    for word in ("three", "four", "five"):
        await table.say(ann, room_id, word)
    again = table.follow(bob, room_id, after=seen[-1].seq)
    missed = await taken(again, 3)
    assert texts(missed) == ["three", "four", "five"] and [m.seq for m in missed] == [3, 4, 5]
    await table.say(bob, room_id, "six")
    assert texts(await taken(again, 1)) == ["six"], "then live, nothing twice"
    again.cancel()
    request = chat_pb2.ListChatMessagesRequest(room_id=room_id, page_size=4)
    first = await table.stub.ListChatMessages(request, metadata=auth(bob.access_token))
    assert texts(list(first.messages)) == ["one", "two", "three", "four"] and first.next_after_seq == 4
    rest = await table.read(bob, room_id, after_seq=first.next_after_seq)
    assert texts(rest) == ["five", "six"]


async def test_the_room_streams_carry_chat_when_asked_and_chat_never_changes_the_version(table: Table) -> None:
    """StreamEvents and Play carry the room's chat as their own messages when the stream asks for it
    (after_chat_seq), resumed after a seq, and never otherwise; the room's version does not move with chat. (~0.4 s)"""
    ann, bob = await table.guest("Ann"), await table.guest("Bob")
    room_id = await table.room(ann, bob)
    version = (await table.harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room.version
    await table.say(ann, room_id, "hello")
    spectator = table.harness.moves.StreamEvents(
        move_pb2.StreamEventsRequest(room_id=room_id, after_version=version, after_chat_seq=0)
    )
    await table.say(cy := await table.guest("Cy"), room_id, "from the rail")
    got = await asyncio.wait_for(spectator.read(), 10)
    assert got.HasField("chat") and got.chat.text == "from the rail", "a spectator's stream: the spectators' chat"
    spectator.cancel()
    play = table.harness.moves.Play(metadata=auth(table.seat_tokens[room_id, ann.player.player_id]))
    hello = move_pb2.PlayHello(room_id=room_id, after_version=version, after_chat_seq=0)
    await play.write(move_pb2.PlayRequest(hello=hello))
    got = await asyncio.wait_for(play.read(), 10)
    assert got.HasField("chat") and got.chat.text == "hello", "the seat's stream: the players' chat, from seq 0"
    await table.say(bob, room_id, "gl")
    got = await asyncio.wait_for(play.read(), 10)
    assert got.chat.text == "gl" and got.chat.seq == 3
    await play.done_writing()
    play.cancel()
    assert (await table.harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room.version == version
    assert cy.player.name == "Cy"


async def test_every_bound_is_refused_with_its_reason(table: Table) -> None:
    """What a client shows when a message is refused: each bound has its own reason, and a refused message takes no
    seq. (~0.4 s)"""
    ann, bob = await table.guest("Ann"), await table.guest("Bob")
    room_id = await table.room(ann, bob)
    seat_token = table.seat_tokens[room_id, bob.player.player_id]
    cases = [
        (table.send(ann, room_id, "x" * 301), INVALID, "message_too_long"),
        (table.send(ann, room_id, "x" * 2000), INVALID, "message_too_long"),
        (table.send(ann, room_id, "evil\u202eexe.txt"), INVALID, "bad_message"),
        (table.send(ann, room_id, "line\nbreak"), INVALID, "bad_message"),
        (table.send(ann, room_id, "   "), INVALID, "empty_message"),
        (table.send(ann, room_id, ""), INVALID, "empty_message"),
        (table.send(ann, room_id, "hi", reaction=chat_pb2.CHAT_REACTION_OOPS), INVALID, "text_and_reaction"),
        (table.send(ann, room_id, "", reaction=99), INVALID, "bad_reaction"),
        (table.send(ann, room_id, "hi", channel=7), INVALID, "bad_channel"),
        (table.send(None, room_id, "", reaction=chat_pb2.CHAT_REACTION_OOPS), PERMISSION, "sign_in_to_chat"),
        (table.send(None, room_id, "hi"), PERMISSION, "sign_in_to_chat"),
        (table.send(ann, "no-such-room", "hi"), grpc.StatusCode.NOT_FOUND, "room_not_found"),
    ]
    for call, code, why in cases:
        assert await refused(call, code) == why
    said = await table.say(ann, room_id, "x" * 300)
    assert said.seq == 1 and len(said.text) == 300, "the longest message passes, and nothing refused took a seq"
    anonymous = table.harness.rooms  # (an anonymous seat: a seat token from a join without a player)
    request = room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2)
    other = (await anonymous.CreateRoom(request)).room.room_id
    guest = await anonymous.JoinRoom(room_pb2.JoinRoomRequest(room_id=other, name="Guest"))
    assert await refused(table.send(guest.seat_token, other, "hi"), PERMISSION) == "sign_in_to_chat"
    reaction = await table.say(guest.seat_token, other, reaction=chat_pb2.CHAT_REACTION_GOOD_GAME)
    assert (reaction.name, reaction.seat, reaction.player_id) == ("Guest", guest.seat, "")
    assert seat_token  # (a signed-in player's seat token speaks for that player)
    assert (await table.say(seat_token, room_id, "by seat token")).player_id == bob.player.player_id


async def test_reactions_only_and_chat_off(table: Table) -> None:
    """A room made with chat=reactions takes quick reactions and refuses text (reactions_only); one with chat=off
    refuses everything (chat_off), reading included. (~0.3 s)"""
    ann, bob = await table.guest("Ann"), await table.guest("Bob")
    quiet = await table.room(ann, bob, chat=chat_pb2.CHAT_MODE_REACTIONS)
    room = (await table.harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=quiet))).room
    assert room.chat == chat_pb2.CHAT_MODE_REACTIONS
    assert await refused(table.send(ann, quiet, "hi"), PRECONDITION) == "reactions_only"
    said = await table.say(ann, quiet, reaction=chat_pb2.CHAT_REACTION_GOOD_GAME)
    assert texts(await table.read(bob, quiet)) == ["CHAT_REACTION_GOOD_GAME"] and said.seq == 1
    off = await table.room(ann, bob, chat=chat_pb2.CHAT_MODE_OFF)
    assert await refused(table.send(ann, off, "", reaction=chat_pb2.CHAT_REACTION_OOPS), PRECONDITION) == "chat_off"
    assert await refused(table.read(bob, off), PRECONDITION) == "chat_off"


async def test_rate_limits_per_player_and_per_room(tables) -> None:
    """A flood is cut: a sender's messages past player_per_minute are refused (chat_rate, with when to try again)
    while others still talk, the room's past room_per_minute (room_chat_rate); a minute later both pass. (~0.4 s)"""
    table = await tables(player_per_minute=3, room_per_minute=5)
    ann, bob, cy = [await table.guest(name) for name in ("Ann", "Bob", "Cy")]
    room_id = await table.room(ann, bob, cy, game="soker")
    for n in range(3):
        await table.say(ann, room_id, f"a{n}")
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await table.send(ann, room_id, "a3")
    assert error.value.code() == EXHAUSTED and reason_of(error.value) == "chat_rate"
    assert retry_seconds(error.value) == 60, "the oldest of the three leaves the window in a minute"
    await table.say(bob, room_id, "b0")
    await table.say(bob, room_id, "b1")
    assert await refused(table.send(cy, room_id, "c0"), EXHAUSTED) == "room_chat_rate"
    table.harness.clock.advance(60)
    assert (await table.say(ann, room_id, "a3")).seq == 6 and (await table.say(cy, room_id, "c0")).seq == 7


async def test_a_retry_with_the_same_request_id_sends_once(table: Table) -> None:
    """A client that lost the answer and sends again with its request id gets the first message back; the channel
    holds it once. (~0.2 s)"""
    ann, bob = await table.guest("Ann"), await table.guest("Bob")
    room_id = await table.room(ann, bob)
    first = await table.say(ann, room_id, "once", request_id="req-1")
    again = await table.say(ann, room_id, "once", request_id="req-1")
    assert again == first and texts(await table.read(bob, room_id)) == ["once"]
    assert (await table.say(bob, room_id, "mine", request_id="req-1")).seq == 2, "another sender's ids are theirs"


async def test_a_players_blocks_hide_the_blocked_players_messages(table: Table) -> None:
    """Bob blocked Ann: her messages no longer reach him, in a list or on a stream; Cy still reads them. (~0.3 s)"""
    ann, bob, cy = [await table.guest(name) for name in ("Ann", "Bob", "Cy")]
    room_id = await table.room(ann, bob, cy)
    block = friend_pb2.BlockPlayerRequest(player_id=ann.player.player_id)
    await friend_pb2_grpc.FriendServiceStub(table.harness.channel).BlockPlayer(block, metadata=auth(bob.access_token))
    await table.say(ann, room_id, "you blocked me")
    await table.say(cy, room_id, "hi all")
    assert texts(await table.read(bob, room_id)) == ["hi all"]
    assert texts(await table.read(cy, room_id)) == ["you blocked me", "hi all"]
    call = table.follow(bob, room_id)
    await table.say(ann, room_id, "still here")
    await table.say(cy, room_id, "bye")
    assert texts(await taken(call, 2)) == ["hi all", "bye"]
    call.cancel()


async def test_history_per_channel_and_retention_after_the_game(tables) -> None:
    """Each channel keeps its newest `history` messages; a finished room's chat goes keep_days after its game ended,
    and not before; a deleted player's messages keep no name. (~0.5 s)"""
    table = await tables(history=3, keep_days=1)
    ann, bob, cy = [await table.guest(name) for name in ("Ann", "Bob", "Cy")]
    room_id = await table.room(ann, bob)
    for n in range(5):
        await table.say(ann, room_id, f"p{n}")
    await table.say(cy, room_id, "s0")
    assert texts(await table.read(bob, room_id)) == ["p2", "p3", "p4"], "the players' channel keeps its newest 3"
    assert texts(await table.read(cy, room_id)) == ["s0"], "the spectators' channel is counted apart"
    await table.harness.players.DeletePlayer(player_pb2.DeletePlayerRequest(), metadata=auth(cy.access_token))
    gone = (await table.read(None, room_id))[0]
    assert gone.text == "s0" and gone.player_id == "" and gone.name not in ("", "Cy"), "a pseudonym, not Cy"
    chat = table.harness.chat
    rules = chat.retention()
    now = table.harness.clock.now()
    assert (await prune(chat.engine, rules, now + 3 * 86400))["chat of rooms ended long ago"] == 0, "still live"
    await table.harness.directory.get(room_id).close_by_operator("the test ends it")  # (the game ended now)
    assert await prune(chat.engine, rules, now + 0.5 * 86400) == {"chat of rooms ended long ago": 0}
    assert (await prune(chat.engine, rules, now + 2 * 86400))["chat of rooms ended long ago"] == 4
    async with chat.engine.connect() as connection:
        assert (await connection.execute(select(func.count()).select_from(ChatMessageRow))).scalar_one() == 0


class Kept:
    """A reports collaborator that keeps what it is handed (the moderation's store stands here)."""

    def __init__(self) -> None:
        self.filed: list[tuple[str, str, int, list[int], str]] = []

    async def file(self, reporter_id, room_id, message, context_messages, reason=""):
        self.filed.append((reporter_id, room_id, message.seq, [m.seq for m in context_messages], reason))
        return SimpleNamespace(report_id=f"r{len(self.filed)}")


async def test_a_report_hands_the_message_and_the_ten_around_it_to_the_reports(table: Table) -> None:
    """Without a reports store a report is refused (reports_off); with one, the reporter's report carries the
    message and the ten of its channel nearest it (never another channel's), and a message the reporter may not read
    is not found. (~0.3 s)"""
    ann, bob, cy = [await table.guest(name) for name in ("Ann", "Bob", "Cy")]
    room_id = await table.room(ann, bob)
    for n in range(15):
        await table.say(ann if n % 2 else bob, room_id, f"m{n}")
    watched = await table.say(cy, room_id, "from the rail")
    request = chat_pb2.ReportChatMessageRequest(room_id=room_id, seq=8, reason="rude")
    report = table.stub.ReportChatMessage
    table.harness.chat.reports = None  # (a server that takes no reports)
    assert await refused(report(request, metadata=auth(bob.access_token)), PRECONDITION) == "reports_off"
    table.harness.chat.reports = kept = Kept()
    answer = await report(request, metadata=auth(bob.access_token))
    assert answer.report_id == "r1"
    assert kept.filed == [(bob.player.player_id, room_id, 8, [3, 4, 5, 6, 7, 9, 10, 11, 12, 13], "rude")]
    hidden = chat_pb2.ReportChatMessageRequest(room_id=room_id, seq=watched.seq)
    assert await refused(report(hidden, metadata=auth(bob.access_token)), grpc.StatusCode.NOT_FOUND) == (
        "message_not_found"
    )


async def test_a_follower_of_a_finished_room_hears_it_after_the_room_is_read_back(table: Table) -> None:
    """After the game, people still say "good game": a follower of a finished room keeps hearing it when the room
    leaves memory and is read back for the next message (a finished room is not kept in memory for good). (~0.3 s)"""
    ann, bob = await table.guest("Ann"), await table.guest("Bob")
    room_id = await table.room(ann, bob)
    await table.harness.directory.get(room_id).close_by_operator("over")
    await table.say(ann, room_id, "", reaction=chat_pb2.CHAT_REACTION_GOOD_GAME)
    call = table.follow(bob, room_id)
    assert len(await taken(call, 1)) == 1
    table.harness.directory.forget_finished([room_id])
    assert table.harness.directory.in_memory(room_id) is None
    said = await table.say(ann, room_id, "one more?")
    assert (await asyncio.wait_for(call.read(), 10)).message == said and said.seq == 2
    call.cancel()
