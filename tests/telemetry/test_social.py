"""The social metrics an operator reads (deploy/observability.md): the players' unread inbox backlog, unlisted rooms'
invitation links (made, used, refused by reason) and rematches (proposed, started, refused by why), each moved by what
a player does over gRPC, on a server with players and inboxes on SQLite, read as an exporter would from the SDK's
in-memory reader."""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import pytest
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from kickoff.v1 import friend_pb2, friend_pb2_grpc, inbox_pb2, inbox_pb2_grpc, move_pb2, room_pb2
from service.store.database import create_engine, upgrade_in_thread
from service.store.journal import SqlJournal
from service.store.retention import Retention
from tests.players.conftest import Served, auth
from tests.private.conftest import SMALL, link, made_link, refusal, unlisted
from tests.rematch.conftest import INBOX, NO_REMATCH, answer, finished, propose
from tests.servers import Start
from tests.telemetry.test_operations import by, metered


@pytest.fixture
async def served(start: Start, tmp_path) -> AsyncIterator[tuple[Served, InMemoryMetricReader]]:
    url = f"sqlite+aiosqlite:///{tmp_path}/kickoff.db"
    await upgrade_in_thread(url)
    telemetry, reader = metered()
    harness = await start(
        journal=SqlJournal(create_engine(url)), inbox=INBOX, private=SMALL, telemetry=telemetry
    )  # (the server stops, and closes the journal)
    yield Served(harness), reader


async def test_the_unread_backlog_is_counted_by_each_retention_pass_not_by_each_scrape(
    served: tuple[Served, InMemoryMetricReader],
) -> None:
    """Buys: kickoff.inbox.unread says how many items players have not read, by kind: a friend request sent shows
    once the retention loop has looked (as it does when it starts, then every pass), reading it marks it down at the
    next pass, and between passes the gauge reads memory: the same number, however often it is scraped. Under a
    second."""
    server, reader = served
    harness = server.harness
    retention = Retention(harness.inbox.engine, harness.clock.now)  # (as the server assembles it)
    retention.add(harness.inbox.retention())
    retention.look(harness.inbox.count_unread)
    assert by(reader, "kickoff.inbox.unread", "kickoff.inbox.kind") == {}, "nothing counted yet: nothing reported"
    await retention.prune()
    assert by(reader, "kickoff.inbox.unread", "kickoff.inbox.kind") == {}, "an empty store has no kind to report"

    ann, bob = await server.guest("Ann"), await server.guest("Bob")
    friends = friend_pb2_grpc.FriendServiceStub(harness.channel)
    code = (await friends.GetFriendCode(friend_pb2.GetFriendCodeRequest(), metadata=auth(bob.access_token))).friend_code
    await friends.SendFriendRequest(
        friend_pb2.SendFriendRequestRequest(friend_code=code), metadata=auth(ann.access_token)
    )
    assert by(reader, "kickoff.inbox.unread", "kickoff.inbox.kind") == {}, "not before the next pass"
    await retention.prune()
    assert by(reader, "kickoff.inbox.unread", "kickoff.inbox.kind") == {("friend.requested",): 1}

    inbox = inbox_pb2_grpc.InboxServiceStub(harness.channel)
    listed = await inbox.ListInbox(inbox_pb2.ListInboxRequest(), metadata=auth(bob.access_token))
    await inbox.MarkInboxRead(
        inbox_pb2.MarkInboxReadRequest(item_ids=[listed.items[0].item_id]), metadata=auth(bob.access_token)
    )
    for _ in range(2):  # (scraped twice between passes: from memory, unchanged)
        assert by(reader, "kickoff.inbox.unread", "kickoff.inbox.kind") == {("friend.requested",): 1}
    await retention.prune()
    assert by(reader, "kickoff.inbox.unread", "kickoff.inbox.kind") == {("friend.requested",): 0}, (
        "read through: the kind reports 0, not its last number"
    )


async def test_invitation_links_are_counted_made_used_and_refused_by_reason(
    served: tuple[Served, InMemoryMetricReader],
) -> None:
    """Buys: kickoff.room.invitation_links follows what holders of links do: each link made, each seat taken with
    one (joined), each events stream one opens for someone with no seat (watched), and each refusal once, by its
    reason (a forged token, a used-up, a revoked and an expired link); reading the room with a link counts nothing.
    About a second."""
    server, reader = served
    rooms, moves = server.harness.rooms, server.harness.moves
    created, owner = await unlisted(server, seats=4)
    room_id = created.room.room_id
    once = await link(server, room_id, owner, max_uses=1)
    short = await link(server, room_id, owner, seconds=60)
    revoked = await made_link(server, room_id, owner)
    await rooms.RevokeInvitationLink(
        room_pb2.RevokeInvitationLinkRequest(room_id=room_id, link_id=revoked.link.link_id), metadata=auth(owner)
    )
    assert by(reader, "kickoff.room.invitation_links", "kickoff.link.outcome") == {("made",): 3}

    def join(token: str) -> object:
        return rooms.JoinRoom(room_pb2.JoinRoomRequest(room_id=room_id, invitation_token=token))

    await join(once)
    assert await refusal(join(once)) == (grpc.StatusCode.FAILED_PRECONDITION, "link_used_up")
    assert await refusal(join(revoked.token)) == (grpc.StatusCode.FAILED_PRECONDITION, "link_revoked")
    assert await refusal(join("not.a.token")) == (grpc.StatusCode.FAILED_PRECONDITION, "link_invalid")
    await rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id, invitation_token=once))  # (a look: not a watch)
    stream = moves.StreamEvents(move_pb2.StreamEventsRequest(room_id=room_id, invitation_token=once))
    await anext(aiter(stream))
    stream.cancel()
    server.harness.clock.advance(61)
    assert await refusal(join(short)) == (grpc.StatusCode.FAILED_PRECONDITION, "link_expired")
    assert by(reader, "kickoff.room.invitation_links", "kickoff.link.outcome") == {
        ("made",): 3,
        ("joined",): 1,
        ("watched",): 1,
        ("link_used_up",): 1,
        ("link_revoked",): 1,
        ("link_invalid",): 1,
        ("link_expired",): 1,
    }


async def test_rematches_are_counted_proposed_started_and_refused_by_why(
    served: tuple[Served, InMemoryMetricReader],
) -> None:
    """Buys: kickoff.rematches follows three finished games: one rematch accepted (proposed, then started), one
    declined, one left unanswered past its window (no_answer, counted when the deadline fires); proposing again
    answers the same proposal and counts nothing. A few seconds (three short games)."""
    server, reader = served
    started, declined, silent = [await finished(server, fill=NO_REMATCH) for _ in range(3)]
    for game in (started, declined, silent):
        await propose(server, game.room_id, game.tokens[0])
    await propose(server, started.room_id, started.tokens[1])  # (the other seat proposes too: the same proposal)
    assert by(reader, "kickoff.rematches", "kickoff.rematch.outcome") == {("proposed",): 3}
    await answer(server, started.room_id, started.tokens[1], True)
    await answer(server, declined.room_id, declined.tokens[1], False)
    server.harness.clock.advance(60)
    await server.harness.server.rematches.settled()
    assert by(reader, "kickoff.rematches", "kickoff.rematch.outcome") == {
        ("proposed",): 3,
        ("started",): 1,
        ("declined",): 1,
        ("no_answer",): 1,
    }
