"""Friends' presence across two nodes of one store (tests/presence/conftest.py): what a friend on the other node sees
as a player's streams open and close, who sees nothing, and what a change costs the store."""

from __future__ import annotations

import grpc
import pytest

from kickoff.v1 import common_pb2, friend_pb2, match_pb2, move_pb2, player_pb2, presence_pb2, room_pb2
from service.presence.presence import AT_TABLE, AWAY, ONLINE, SEARCHING
from tests.presence.conftest import SETTINGS, Pair, next_presence
from tests.server.conftest import auth

S = presence_pb2


async def test_a_friend_on_another_node_sees_online_at_a_table_searching_and_away(pair: Pair) -> None:
    """The issue's test: two players become friends by code and see each other's presence change, one on each of two
    nodes, each change written by the node that saw it and read by the other's poll. Buys: presence derived from
    streams, across nodes, end to end over gRPC. About a second."""
    a, b = pair.a, pair.b
    ann, bo = await a.guest("Ann"), await b.guest("Bo")
    await pair.befriend(ann, bo)
    await a.presence.flush()  # (Ann's calls on node a made her online there: one row)
    ann_id = ann.player.player_id

    following = b.follow(bo)
    first = await next_presence(following)
    assert (first.player_id, first.name, first.state) == (ann_id, "Ann", S.PRESENCE_STATE_ONLINE)
    assert first.HasField("since_time")

    # At a table: Ann creates a room (seated at once) and streams it as her seat.
    room = await a.harness.rooms.CreateRoom(
        room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2),
        metadata=auth(ann.access_token),
    )
    events = a.harness.moves.StreamEvents(
        move_pb2.StreamEventsRequest(room_id=room.room.room_id), metadata=auth(room.seat_token)
    )
    await a.until(lambda: a.presence.spot(ann_id).state == AT_TABLE)
    await a.presence.flush()
    await b.presence.watch.look()
    seen = await next_presence(following)
    assert (seen.state, seen.room_id) == (S.PRESENCE_STATE_AT_TABLE, room.room.room_id)

    # Searching: she leaves the table's stream and follows a matchmaking ticket.
    events.cancel()
    await a.until(lambda: a.presence.spot(ann_id).state == ONLINE)
    ticket = await a.harness.matches.Enqueue(match_pb2.EnqueueRequest(game="soker"), metadata=auth(ann.access_token))
    searching = a.harness.matches.FollowTicket(
        match_pb2.FollowTicketRequest(ticket_id=ticket.ticket.ticket_id), metadata=auth(ann.access_token)
    )
    await a.until(lambda: a.presence.spot(ann_id).state == SEARCHING)
    await a.presence.flush()
    await b.presence.watch.look()
    seen = await next_presence(following)
    assert (seen.state, seen.room_id) == (S.PRESENCE_STATE_SEARCHING, "")

    # Away: her last stream ends, and KICKOFF_PRESENCE_ONLINE_SECONDS pass without a call.
    searching.cancel()
    await a.until(lambda: a.presence.spot(ann_id).state == ONLINE)
    a.harness.clock.advance(SETTINGS.online_seconds)
    assert a.presence.spot(ann_id).state == AWAY
    await a.presence.flush()
    await b.presence.watch.look()
    seen = await next_presence(following)
    assert seen.state == S.PRESENCE_STATE_AWAY
    assert seen.last_seen_time.seconds == int(a.harness.clock.now())
    following.cancel()

    # And Ann sees Bo, online on node b while his stream was open (and for a while after).
    await b.presence.flush()
    answer = await a.get(ann)
    assert [(f.name, f.state) for f in answer.friends] == [("Bo", S.PRESENCE_STATE_ONLINE)]


async def test_a_round_reads_only_the_friends_whose_presence_changed(pair: Pair) -> None:
    """What a presence change costs the node that follows it: after its first round, a node's round reads the whole
    presence of only the friends who changed since (one here, of three followed), none when nothing changed, and a
    friend's new name reaches the stream the same way. Buys: the rounds scale with the changes, not with the friends
    followed (``kickoff bench social`` measures it at 10,000 players). About a second."""
    a, b = pair.a, pair.b
    bo = await b.guest("Bo")
    friends = [await a.guest(name) for name in ("Ann", "Cy", "Di")]
    for friend in friends:
        await pair.befriend(friend, bo)
    await a.presence.flush()
    following = b.follow(bo)
    assert sorted([(await next_presence(following)).name for _ in friends]) == ["Ann", "Cy", "Di"]
    await b.presence.watch.look()  # (the first round reads all it follows)

    viewed = b.presence.viewed
    await b.presence.watch.look()
    assert b.presence.viewed == viewed, "nothing changed: nothing read"

    cy = friends[1].player.player_id
    with a.presence.hold(cy, SEARCHING):
        await a.presence.flush()
        await b.presence.watch.look()
        seen = await next_presence(following)
        assert (seen.name, seen.state) == ("Cy", S.PRESENCE_STATE_SEARCHING)
        assert b.presence.viewed == viewed + 1, "one friend changed: one read"

        await a.harness.players.UpdatePlayer(
            player_pb2.UpdatePlayerRequest(name="Cyril"), metadata=auth(friends[1].access_token)
        )
        await b.presence.watch.look()
        seen = await next_presence(following)
        assert (seen.name, seen.state) == ("Cyril", S.PRESENCE_STATE_SEARCHING)
    following.cancel()


async def test_a_change_is_one_write_and_a_second_stream_of_the_same_state_none(pair: Pair) -> None:
    """What a presence change costs the store: one row written per change, nothing for a call or a stream that does
    not change the state. Buys: the docs' claim that heartbeats write nothing. Under a second."""
    a = pair.a
    ann = await a.guest("Ann")
    ann_id = ann.player.player_id
    assert await a.presence.flush() == 0  # (signed in: no call made with her access token yet)
    await a.get(ann)
    assert await a.presence.flush() == 1  # (online: a call made with her access token)
    await a.get(ann)  # (a call while online)
    first, second = a.follow(ann), a.follow(ann)
    await a.until(lambda: a.presence.watch.count == 2)
    assert await a.presence.flush() == 0
    first.cancel()
    second.cancel()
    await a.until(lambda: a.presence.watch.count == 0)
    a.harness.clock.advance(SETTINGS.online_seconds)
    assert await a.presence.flush() == 1  # (away)
    assert a.presence.writes == 2
    assert a.presence.spot(ann_id).state == AWAY


async def test_visibility_nobody_shows_away_with_no_time(pair: Pair) -> None:
    """A player who chose nobody reads to their friends as away, never seen, though online. Buys: the setting, over
    gRPC, live on the other node's stream. Under a second."""
    a, b = pair.a, pair.b
    ann, bo = await a.guest("Ann"), await b.guest("Bo")
    await pair.befriend(ann, bo)
    await a.presence.flush()
    following = b.follow(bo)
    assert (await next_presence(following)).state == S.PRESENCE_STATE_ONLINE

    request = S.SetPresenceVisibilityRequest(visibility=S.PRESENCE_VISIBILITY_NOBODY)
    answer = await a.stub.SetPresenceVisibility(request, metadata=auth(ann.access_token))
    assert answer.visibility == S.PRESENCE_VISIBILITY_NOBODY
    await b.presence.watch.look()
    hidden = await next_presence(following)
    assert hidden.state == S.PRESENCE_STATE_AWAY
    assert not hidden.HasField("last_seen_time") and not hidden.HasField("since_time")
    listed = await b.get(bo)
    assert [(f.state, f.HasField("last_seen_time")) for f in listed.friends] == [(S.PRESENCE_STATE_AWAY, False)]
    assert (await a.get(ann)).visibility == S.PRESENCE_VISIBILITY_NOBODY
    following.cancel()


async def test_a_blocked_pair_sees_nothing_of_each_other(pair: Pair) -> None:
    """A block ends the friendship: each disappears from the other's presence, and a stream following the blocker
    is told to drop them. Buys: no presence leaks to a blocked player. Under a second."""
    a, b = pair.a, pair.b
    ann, bo = await a.guest("Ann"), await b.guest("Bo")
    await pair.befriend(ann, bo)
    await a.presence.flush()
    following = b.follow(bo)
    assert (await next_presence(following)).player_id == ann.player.player_id

    request = friend_pb2.BlockPlayerRequest(player_id=bo.player.player_id)
    await a.harness.friends.BlockPlayer(request, metadata=auth(ann.access_token))
    await b.presence.watch.look()
    dropped = await next_presence(following)
    assert (dropped.player_id, dropped.removed) == (ann.player.player_id, True)
    assert not dropped.HasField("last_seen_time") and not dropped.HasField("since_time")
    assert list((await b.get(bo)).friends) == []
    assert list((await a.get(ann)).friends) == []
    following.cancel()


async def test_an_unlisted_rooms_id_is_shown_only_to_a_friend_who_may_enter_it(pair: Pair) -> None:
    """A friend not invited sees "at a table" with no room id; a friend seated in that room sees its id. Buys: the
    private tables' rule (may_enter) holds for presence, on either node. About a second."""
    a, b = pair.a, pair.b
    ann, bo, cy = await a.guest("Ann"), await b.guest("Bo"), await a.guest("Cy")
    await pair.befriend(ann, bo)
    await pair.befriend(cy, bo)
    await pair.befriend(ann, cy)
    created = await a.harness.rooms.CreateRoom(
        room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2, unlisted=True),
        metadata=auth(ann.access_token),
    )
    room_id = created.room.room_id
    link = await a.harness.rooms.CreateInvitationLink(
        room_pb2.CreateInvitationLinkRequest(room_id=room_id), metadata=auth(created.seat_token)
    )
    await a.harness.rooms.JoinRoom(
        room_pb2.JoinRoomRequest(room_id=room_id, invitation_token=link.token), metadata=auth(cy.access_token)
    )
    events = a.harness.moves.StreamEvents(
        move_pb2.StreamEventsRequest(room_id=room_id), metadata=auth(created.seat_token)
    )
    await a.until(lambda: a.presence.spot(ann.player.player_id).state == AT_TABLE)
    await a.presence.flush()

    by_bo = {f.name: f for f in (await b.get(bo)).friends}
    assert (by_bo["Ann"].state, by_bo["Ann"].room_id) == (S.PRESENCE_STATE_AT_TABLE, "")
    by_cy = {f.name: f for f in (await a.get(cy)).friends}
    assert (by_cy["Ann"].state, by_cy["Ann"].room_id) == (S.PRESENCE_STATE_AT_TABLE, room_id)
    events.cancel()


async def test_a_dead_nodes_players_read_as_away_after_its_lease(pair: Pair) -> None:
    """A node that dies writes nothing more: once its lease has run out its players read as away, last seen when
    their state there began or the lease ran out. Buys: no friend shown online for ever by a crashed node. Under a
    second."""
    a, b = pair.a, pair.b
    ann, bo = await a.guest("Ann"), await b.guest("Bo")
    await pair.befriend(ann, bo)
    await a.presence.flush()
    following = b.follow(bo)
    assert (await next_presence(following)).state == S.PRESENCE_STATE_ONLINE

    await pair.kill(a)
    await b.presence.watch.look()
    gone = await next_presence(following)
    assert gone.state == S.PRESENCE_STATE_AWAY
    assert gone.HasField("last_seen_time")
    following.cancel()


async def test_bounds_refused_with_their_reasons(pair: Pair) -> None:
    """Each bound of PresenceService and its refusal: a page past KICKOFF_PRESENCE_PAGE_SIZE, a visibility not
    named, a page token past its limit, a stream past KICKOFF_PRESENCE_MAX_FOLLOWERS. Under a second."""
    a = pair.a
    ann = await a.guest("Ann")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await a.get(ann, page_size=SETTINGS.page_size + 1)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "page_size" in refused.value.details()
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await a.stub.SetPresenceVisibility(S.SetPresenceVisibilityRequest(), metadata=auth(ann.access_token))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "visibility" in refused.value.details()
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await a.get(ann, page_token="x" * 65)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await a.stub.GetPresence(S.GetPresenceRequest())
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED

    streams = [a.follow(ann) for _ in range(SETTINGS.max_followers)]
    await a.until(lambda: a.presence.watch.count == SETTINGS.max_followers)
    over = a.follow(ann)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await over.read()
    assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "too_many_followers" in str(refused.value.trailing_metadata()) or "streams" in refused.value.details()
    for stream in streams:
        stream.cancel()
