"""The table's chat in its replay (issue 49), on both stores: GetReplay carries the players' channel (and the caller's
team's) to the people who sat at that table only, never to the public, also over REST; a withdrawn message stays
withdrawn, a deleted player's message keeps their seat's pseudonym, and a room's chat past its retention is gone from
its replay."""

from __future__ import annotations

import grpc
import httpx

from kickoff.v1 import chat_pb2, move_pb2, operator_pb2, player_pb2
from service.store.retention import prune
from tests.chat.conftest import PLAYERS, TEAM, Table, auth, refused, texts
from tests.ops.conftest import op, operator_keys, ops


async def replay(table: Table, room_id: str, token: str | None = None, after: int = 0) -> move_pb2.GetReplayResponse:
    request = move_pb2.GetReplayRequest(room_id=room_id, after_version=after, page_size=500)
    return await table.harness.moves.GetReplay(request, metadata=auth(token) if token else ())


async def test_only_the_tables_own_players_get_its_chat_in_the_replay(table: Table, gateway) -> None:
    """A seated player (by access token or by seat token) gets the players' channel with the replay's first page; a
    spectator who chatted in the room, a signed-in stranger, an anonymous caller and another room's seat token get
    the same steps and no chat, over gRPC and REST, where the answer is marked private. (~0.6 s)"""
    ann, bob, cy, dee = [await table.guest(name) for name in ("Ann", "Bob", "Cy", "Dee")]
    room_id = await table.room(ann, bob)
    other = await table.room(dee, cy)
    await table.say(ann, room_id, "good luck")
    await table.say(cy, room_id, "Bob will lose")  # (the spectators' channel: never in a replay)
    await table.say(bob, room_id, "", reaction=chat_pb2.CHAT_REACTION_THANKS)
    bobs_seat = table.seat_tokens[room_id, bob.player.player_id]

    everyone = await replay(table, room_id)
    assert everyone.steps and not everyone.chat
    for token in (ann.access_token, bobs_seat):
        mine = await replay(table, room_id, token)
        assert texts(list(mine.chat)) == ["good luck", "CHAT_REACTION_THANKS"], "the players' channel, oldest first"
        assert {m.channel for m in mine.chat} == {PLAYERS} and [m.name for m in mine.chat] == ["Ann", "Bob"]
        assert list(mine.steps) == list(everyone.steps), "the same steps as anyone's"
    strangers = (cy.access_token, dee.access_token, table.seat_tokens[other, dee.player.player_id])
    for token in strangers:
        assert not (await replay(table, room_id, token)).chat, "nobody who did not sit at the table"
    last = everyone.steps[-1].update.version
    assert not (await replay(table, room_id, ann.access_token, after=last - 1)).chat, "the first page only"
    forged = replay(table, room_id, ann.access_token[:-4] + "AAAA")
    assert await refused(forged, grpc.StatusCode.UNAUTHENTICATED), "an access token that fails is said (to refresh)"

    client: httpx.AsyncClient = await gateway(table.harness)
    path = f"/v1/rooms/{room_id}/replay"
    seated = await client.get(path, headers={"Authorization": f"Bearer {ann.access_token}"})
    assert seated.status_code == 200 and "private" in seated.headers["cache-control"]
    said = [m.get("text") or m.get("reaction") for m in seated.json()["chat"]]
    assert said == ["good luck", "CHAT_REACTION_THANKS"], "the same chat, in its JSON form"
    for headers in ({"Authorization": f"Bearer {cy.access_token}"}, {}):
        answer = await client.get(path, headers=headers)
        assert answer.status_code == 200 and answer.json().get("chat", []) == [], "a spectator and anyone get none"


async def test_the_team_channel_is_in_the_replay_of_that_team_only(table: Table) -> None:
    """Carta Fútbol Club with team chat: each player's replay holds the players' channel and their own team's, in
    seq order, and never the other team's. (~0.5 s)"""
    ann, bob, cy, dee = [await table.guest(name) for name in ("Ann", "Bob", "Cy", "Dee")]
    room_id = await table.room(ann, bob, cy, dee, game="carta-futbol-club", team_chat=True)  # Ann+Cy, Bob+Dee
    await table.say(ann, room_id, "ours", channel=TEAM)
    await table.say(bob, room_id, "theirs", channel=TEAM)
    await table.say(dee, room_id, "hello all")
    for player, heard in ((ann, ["ours", "hello all"]), (cy, ["ours", "hello all"]), (bob, ["theirs", "hello all"])):
        said = (await replay(table, room_id, player.access_token)).chat
        assert texts(list(said)) == heard, player.player.name


async def test_a_withdrawn_message_a_deleted_player_and_retention_in_the_replay(tables) -> None:
    """A message an operator deleted is in the replay withdrawn, with nothing of what was said, and no withdrawal
    item; the messages of a player who deleted themselves carry their seat's pseudonym and no player; once the room's
    chat is past its retention the replay carries none. (~0.6 s)"""
    table = await tables(operator_keys=operator_keys(), keep_days=1)
    ann, bo = await table.guest("Ann"), await table.guest("Bo")
    room_id = await table.room(ann, bo)
    rude = await table.say(bo, room_id, "something rude")
    await table.say(bo, room_id, "sorry")
    removal = operator_pb2.DeleteChatMessageRequest(room_id=room_id, seq=rude.seq)
    assert (await ops(table.harness).DeleteChatMessage(removal, metadata=op())).deleted
    await table.harness.directory.get(room_id).close_by_operator("the test ends it")
    await table.harness.players.DeletePlayer(player_pb2.DeletePlayerRequest(), metadata=auth(bo.access_token))

    answer = await replay(table, room_id, ann.access_token)
    pseudonym = answer.room.seats[1].name
    assert pseudonym not in ("", "Bo")
    assert [(m.seq, m.withdrawn, m.text, m.withdraws_seq) for m in answer.chat] == [
        (rude.seq, True, "", 0),
        (rude.seq + 1, False, "sorry", 0),
    ], "withdrawn, and no withdrawal item"
    assert {(m.name, m.player_id) for m in answer.chat} == {(pseudonym, "")}, "the seat's pseudonym, no player"

    chat = table.harness.chat
    await prune(chat.engine, chat.retention(), table.harness.clock.now() + 2 * 86400)
    assert not (await replay(table, room_id, ann.access_token)).chat, "gone with the room's chat"
