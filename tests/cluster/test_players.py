"""Players on several nodes: a session minted on one node is good on every other (the sessions are in the store, the
signing key is the cluster's, a reused refresh token is known as reused everywhere), and a rated game whose owner
stalls at the last move is rated once, by the node that took the room over, never by the stalled one and never again
by a node that rebuilds the room later."""

from __future__ import annotations

import copy

import grpc
from sqlalchemy import text

from kickoff.v1 import common_pb2, move_pb2, player_pb2, room_pb2
from tests.cluster.conftest import Cluster, Member, auth
from tests.server.conftest import refusal


async def guest(member: Member, name: str) -> player_pb2.Session:
    return (await member.player_stub.SignInAsGuest(player_pb2.SignInAsGuestRequest(name=name))).session


def last_move_ends_the_game(owner: Member, room_id: str, seat: int) -> bool:
    """Whether the seat's last legal move (the one :func:`move` plays) ends the game, tried on a copy of the room's
    state on its owner."""
    trial = copy.deepcopy(owner.rooms.get(room_id).state)
    trial.apply(seat, trial.legal_moves(seat)[-1])
    return trial.outcome() is not None


async def move(member: Member, room_id: str, tokens: dict[int, str], request_id: str) -> int:
    """The last legal move of the seat to act, through ``member``; the room's version after it."""
    view = await member.move_stub.GetView(move_pb2.GetViewRequest(room_id=room_id))
    token = tokens[view.to_act[0]]
    legal = await member.move_stub.ListLegalMoves(move_pb2.ListLegalMovesRequest(room_id=room_id), metadata=auth(token))
    request = move_pb2.SubmitMoveRequest(
        room_id=room_id, move=legal.moves[-1], request_id=request_id, expected_version=legal.version
    )
    return (await member.move_stub.SubmitMove(request, metadata=auth(token))).version


async def changes(member: Member, session: player_pb2.Session) -> list[player_pb2.RatingChange]:
    request = player_pb2.ListRatingChangesRequest(player_id=session.player.player_id, game="soker")
    return list((await member.player_stub.ListRatingChanges(request)).changes)


async def test_a_session_from_one_node_is_good_on_another_and_failover_at_the_end_rates_once(cluster: Cluster) -> None:
    a = await cluster.start("a")
    b = await cluster.start("b")
    ann, bo = await guest(a, "Ann"), await guest(b, "Bo")

    # Ann's session, minted on a, acts on b; refreshed on b, the new pair is good on a and the old one nowhere.
    me = await b.player_stub.GetPlayer(player_pb2.GetPlayerRequest(), metadata=auth(ann.access_token))
    assert me.player.player_id == ann.player.player_id
    first = ann.refresh_token
    ann = (await b.player_stub.RefreshSession(player_pb2.RefreshSessionRequest(refresh_token=first))).session
    mine = await a.player_stub.GetPlayer(player_pb2.GetPlayerRequest(), metadata=auth(ann.access_token))
    assert mine.player.name == "Ann"

    # A rated room on a; Bo (signed in on b) joins through b, which forwards the call with his bearer token.
    created = await a.room_stub.CreateRoom(
        room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, think_seconds=0),
        metadata=auth(ann.access_token),
    )
    room_id = created.room.room_id
    joined = await b.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id), metadata=auth(bo.access_token))
    assert joined.room.rated
    assert [s.player_id for s in joined.room.seats] == [ann.player.player_id, bo.player.player_id]
    assert room_id not in b.rooms._actors  # a owns it
    tokens = {created.seat: created.seat_token, joined.seat: joined.seat_token}

    # Through a, up to the move that ends the game.
    turn = 0
    while True:
        view = await a.move_stub.GetView(move_pb2.GetViewRequest(room_id=room_id))
        if last_move_ends_the_game(a, room_id, view.to_act[0]):
            break
        await move(a, room_id, tokens, f"m{turn}")
        turn += 1
    assert turn > 10

    # a stalls just then: b takes the room over, and a's last line is fenced off (nothing rated by a).
    await cluster.expire("a")
    assert await b.runtime.sweep() == 1
    code, reason, _ = await refusal(move(a, room_id, tokens, "last"))
    assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "room_moved")
    assert await changes(b, ann) == [] and await changes(b, bo) == []

    # The same last move again, through a: forwarded to b, whose rebuilt room ends the game and rates it.
    await move(a, room_id, tokens, "last")
    room = (await b.room_stub.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert room.status == common_pb2.ROOM_STATUS_FINISHED and room.rated
    for session in (ann, bo):
        assert [c.room_id for c in await changes(a, session)] == [room_id]
    board = await a.player_stub.GetLeaderboard(player_pb2.GetLeaderboardRequest(game="soker"))
    assert sorted(line.player_id for line in board.lines) == sorted([ann.player.player_id, bo.player.player_id])
    assert all(line.rating.games == 1 for line in board.lines)

    # b dies too; a node that starts later and sweeps rebuilds nothing twice and rates nothing again.
    await cluster.expire("b")
    c = await cluster.start("c")
    await c.runtime.sweep()
    async with c.journal.engine.connect() as connection:
        rows = await connection.execute(text("SELECT count(*) FROM rating_changes WHERE room_id = :r"), {"r": room_id})
        assert rows.scalar_one() == 2
    log = await cluster.log(room_id)
    assert [e.request_id for e in log].count("last") == 1

    # Ann's first refresh token, used again on yet another node, is known there as reused: her session ends everywhere.
    code, reason, _ = await refusal(c.player_stub.RefreshSession(player_pb2.RefreshSessionRequest(refresh_token=first)))
    assert (code, reason) == (grpc.StatusCode.UNAUTHENTICATED, "refresh_reused")
    code, reason, _ = await refusal(
        a.player_stub.GetPlayer(player_pb2.GetPlayerRequest(), metadata=auth(ann.access_token))
    )
    assert (code, reason) == (grpc.StatusCode.UNAUTHENTICATED, "session_revoked")


async def test_a_deleted_players_name_leaves_a_finished_room_another_node_kept_in_memory(cluster: Cluster) -> None:
    """A player deleted on one node: that node let its own copy of their finished rooms go, but another node that
    had read one kept it in memory and went on showing their real name. It reads the room back now."""
    a = await cluster.start("a")
    b = await cluster.start("b")
    ann, bo = await guest(a, "Ann Zebra"), await guest(b, "Bo")
    created = await a.room_stub.CreateRoom(
        room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, think_seconds=0),
        metadata=auth(ann.access_token),
    )
    room_id = created.room.room_id
    await a.room_stub.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id), metadata=auth(bo.access_token))
    await a.rooms.get(room_id).close_by_operator("the test is over")  # (a's lease on it ends with it)
    seen = (await b.room_stub.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert "Ann Zebra" in str(seen) and room_id in b.rooms._actors, "(b read the finished room, and keeps it)"

    await a.player_stub.DeletePlayer(player_pb2.DeletePlayerRequest(), metadata=auth(ann.access_token))

    for member in (a, b):
        seen = (await member.room_stub.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
        assert "Ann Zebra" not in str(seen) and ann.player.player_id not in str(seen)
        assert seen.seats[created.seat].name.startswith("Former player ")
