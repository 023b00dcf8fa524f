"""Rooms' chat over gRPC, on both stores (issue 49): sending, listing and following; the channels kept apart; the team
channel; resuming with no gap and no duplicate (the chat stream and the room streams); every bound and rate limit
with its reason; blocks; reactions where text is off; chat never changing the room's version; the history bound and
retention after the game."""

from __future__ import annotations

import grpc

from kickoff.v1 import chat_pb2, move_pb2, room_pb2
from tests.chat.conftest import PLAYERS, SPECTATORS, TEAM, Table, refused, taken, texts


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
    live = (await call.read()).message
    assert (live.seq, live.reaction, live.seat) == (2, chat_pb2.CHAT_REACTION_THANKS, 1) and live == second
    call.cancel()
