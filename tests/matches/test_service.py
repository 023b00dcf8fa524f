"""MatchService end to end on a real database: tickets matched into rooms of the right sizes, parties kept together
(in Carta on one team), rating windows that hold then widen, system players filling after the wait, taking seats up,
cancel, expiry, a person who never takes the seat up, quotas, and nobody seeing a ticket that is not theirs."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import grpc
import pytest

from kickoff.v1 import common_pb2, match_pb2, move_pb2, player_pb2, room_pb2
from service.store.database import create_engine
from service.store.journal import SqlJournal
from tests.matches.conftest import SETTINGS, Queue, auth
from tests.server.conftest import refusal

SEARCHING, PROPOSED, MATCHED = (
    match_pb2.TICKET_STATUS_SEARCHING,
    match_pb2.TICKET_STATUS_PROPOSED,
    match_pb2.TICKET_STATUS_MATCHED,
)


async def take_up(queue: Queue, sessions, tickets) -> list[match_pb2.Ticket]:
    """Every person takes the seat up; each ticket as its member sees it then."""
    for session, ticket in zip(sessions, tickets, strict=True):
        await queue.accept(session, ticket.ticket_id)
    return [await queue.get(s, t.ticket_id) for s, t in zip(sessions, tickets, strict=True)]


@pytest.mark.parametrize(("players", "sizes"), [(4, [4]), (6, [4, 2]), (7, [4, 3])])
async def test_players_in_one_queue_are_matched_into_rooms_of_the_right_sizes(queue: Queue, players, sizes) -> None:
    sessions = await queue.players(players)
    tickets = [await queue.enqueue(s) for s in sessions]
    assert all(t.status == SEARCHING for t in tickets)
    await queue.turn()
    proposed = [await queue.get(s, t.ticket_id) for s, t in zip(sessions, tickets, strict=True)]
    assert all(t.status == PROPOSED and not t.table.seat_token for t in proposed), "no token before the take-up"
    matched = await take_up(queue, sessions, tickets)
    assert all(t.status == MATCHED for t in matched)
    rooms: dict[str, list[match_pb2.Ticket]] = {}
    for ticket in matched:
        rooms.setdefault(ticket.table.room_id, []).append(ticket)
    assert sorted((len(v) for v in rooms.values()), reverse=True) == sizes
    for room_id, seated in rooms.items():
        room = (await queue.harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
        assert room.status == common_pb2.ROOM_STATUS_PLAYING, "the room starts once everyone took the seat up"
        assert sorted(s.player_id for s in room.seats) == sorted(t.members[0].player_id for t in seated)
        for ticket in seated:  # each person's own token plays their own seat
            view = await queue.harness.moves.GetView(
                move_pb2.GetViewRequest(room_id=room_id), metadata=auth(ticket.table.seat_token)
            )
            assert view.HasField("viewer") and view.viewer == ticket.table.seat


async def test_a_party_of_two_sits_together_and_in_carta_on_one_team(queue: Queue) -> None:
    leader, friend, *others = await queue.players(4)
    await queue.befriend(leader, friend)
    party = await queue.enqueue(leader, "carta-futbol-club", [4], party=[friend])
    solo = [await queue.enqueue(s, "carta-futbol-club", [4]) for s in others]
    assert party.status == match_pb2.TICKET_STATUS_FORMING
    await queue.turn()
    assert (await queue.get(friend, party.ticket_id)).status == match_pb2.TICKET_STATUS_FORMING, "not before joining"
    request = match_pb2.JoinTicketRequest(ticket_id=party.ticket_id)
    joined = (await queue.stub.JoinTicket(request, metadata=auth(friend.access_token))).ticket
    assert joined.status == SEARCHING and all(m.joined for m in joined.members)
    await queue.turn()
    for session in (leader, friend):
        await queue.accept(session, party.ticket_id)
    for session, ticket in zip(others, solo, strict=True):
        await queue.accept(session, ticket.ticket_id)
    mine, theirs = await queue.get(leader, party.ticket_id), await queue.get(friend, party.ticket_id)
    assert mine.status == theirs.status == MATCHED and mine.table.room_id == theirs.table.room_id
    assert mine.table.seat_token != theirs.table.seat_token, "each member gets their own seat's token"
    room = (await queue.harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=mine.table.room_id))).room
    teams = {s.player_id: s.team for s in room.seats}
    assert teams[leader.player.player_id] == teams[friend.player.player_id]
    assert sorted(teams.values()).count(teams[leader.player.player_id]) == 2


async def test_an_invitation_holds_no_place_and_the_invited_may_decline(queue: Queue) -> None:
    leader, invited = await queue.players(2)
    await queue.befriend(leader, invited)
    party = await queue.enqueue(leader, counts=[2, 3], party=[invited])
    (listed,) = (
        await queue.stub.ListMyTickets(match_pb2.ListMyTicketsRequest(), metadata=auth(invited.access_token))
    ).tickets
    assert listed.ticket_id == party.ticket_id and [m.joined for m in listed.members] == [True, False]
    own = await queue.enqueue(invited, counts=[2])  # being invited is no place in the queue
    request = match_pb2.JoinTicketRequest(ticket_id=party.ticket_id)
    code, reason, _ = await refusal(queue.stub.JoinTicket(request, metadata=auth(invited.access_token)))
    assert (code, reason) == (grpc.StatusCode.ALREADY_EXISTS, "already_queued")
    declined = await queue.cancel(invited, party.ticket_id)
    assert declined.status == match_pb2.TICKET_STATUS_CANCELLED
    assert (await queue.get(invited, own.ticket_id)).status == SEARCHING


async def test_a_party_larger_than_a_team_is_refused(queue: Queue) -> None:
    a, b, c = await queue.players(3)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await queue.enqueue(a, "carta-futbol-club", [4], party=[b, c])
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "party" in refused.value.details()


async def test_the_rating_window_holds_then_widens(queue: Queue) -> None:
    low, high = await queue.players(2)
    await queue.rate("soker", low, 20.0)
    await queue.rate("soker", high, 27.0)
    tickets = [await queue.enqueue(s, counts=[2]) for s in (low, high)]
    assert [t.rating for t in tickets] == [20.0, 27.0]
    for _ in range(19):  # 7 apart: +-3 for 10 s, +-6 until 20 s
        await queue.turn()
        assert (await queue.get(low, tickets[0].ticket_id)).status == SEARCHING
    await queue.turn()
    found = await queue.get(low, tickets[0].ticket_id)
    assert found.status == PROPOSED and found.table.rating_spread == 7.0


async def test_system_players_fill_the_table_after_the_wait(queue: Queue) -> None:
    (alone,) = await queue.players(1)
    ticket = await queue.enqueue(alone, counts=[3])
    await queue.turn(29)
    assert (await queue.get(alone, ticket.ticket_id)).status == SEARCHING
    await queue.turn(1)
    found = await queue.get(alone, ticket.ticket_id)
    kinds = [s.kind for s in found.table.table_seats]
    assert found.status == PROPOSED and kinds.count(common_pb2.SEAT_KIND_SYSTEM) == 2
    assert found.table.system_player in ("normal", "random")
    matched = await queue.accept(alone, ticket.ticket_id)
    assert matched.status == MATCHED
    room = (await queue.harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=matched.table.room_id))).room
    assert room.status == common_pb2.ROOM_STATUS_PLAYING
    assert [s.kind for s in room.seats].count(common_pb2.SEAT_KIND_PERSON) == 1


async def test_cancel_and_expiry_end_a_ticket_and_free_the_player_to_queue_again(unfilled: Queue) -> None:
    queue = unfilled
    a, b = await queue.players(2)
    first = await queue.enqueue(a, counts=[4])
    with pytest.raises(grpc.aio.AioRpcError) as twice:
        await queue.enqueue(a, counts=[4])
    assert twice.value.code() == grpc.StatusCode.ALREADY_EXISTS
    cancelled = await queue.cancel(a, first.ticket_id)
    assert cancelled.status == match_pb2.TICKET_STATUS_CANCELLED and cancelled.reason == "cancelled"
    again = await queue.enqueue(a, counts=[4])
    await queue.turn(299)
    assert (await queue.get(a, again.ticket_id)).status == SEARCHING
    await queue.turn(1)
    expired = await queue.get(a, again.ticket_id)
    assert expired.status == match_pb2.TICKET_STATUS_EXPIRED and expired.reason == "expired"
    with pytest.raises(grpc.aio.AioRpcError) as ended:
        await queue.cancel(a, again.ticket_id)
    assert ended.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert (await queue.enqueue(b, counts=[4])).status == SEARCHING


async def test_a_person_who_never_takes_the_seat_up_is_replaced_and_the_others_keep_theirs(queue: Queue) -> None:
    a, b, late, c = await queue.players(4)
    tickets = {s.player.player_id: await queue.enqueue(s, counts=[3]) for s in (a, b, late)}
    await queue.turn()
    first = await queue.get(a, tickets[a.player.player_id].ticket_id)
    room_id = first.table.room_id
    await queue.accept(a, tickets[a.player.player_id].ticket_id)
    await queue.accept(b, tickets[b.player.player_id].ticket_id)
    extra = await queue.enqueue(c, counts=[3])
    await queue.turn(20)  # the take-up time is over: late's seat goes to c, who waited
    back = await queue.get(late, tickets[late.player.player_id].ticket_id)
    assert back.status == SEARCHING and back.reason == "not_taken_up" and back.returned == 1
    kept = await queue.get(a, tickets[a.player.player_id].ticket_id)
    assert kept.status == PROPOSED and kept.table.room_id == room_id, "the others keep their table"
    assert (await queue.get(c, extra.ticket_id)).table.room_id == room_id
    matched = await queue.accept(c, extra.ticket_id)
    assert matched.status == MATCHED and matched.table.room_id == room_id
    room = (await queue.harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert late.player.player_id not in {s.player_id for s in room.seats}


async def test_a_follower_hears_each_change_until_the_ticket_is_matched(queue: Queue) -> None:
    a, b = await queue.players(2)
    ticket = await queue.enqueue(a, counts=[2])
    call = queue.stub.FollowTicket(
        match_pb2.FollowTicketRequest(ticket_id=ticket.ticket_id), metadata=auth(a.access_token)
    )
    heard: list[match_pb2.Ticket] = []

    async def listen() -> None:
        async for message in call:
            heard.append(message.ticket)

    listening = asyncio.create_task(listen())
    other = await queue.enqueue(b, counts=[2])
    while not heard:
        await asyncio.sleep(0.01)
    await queue.turn()
    await queue.accept(b, other.ticket_id)
    await queue.accept(a, ticket.ticket_id)
    await asyncio.wait_for(listening, 10)
    assert heard[0].status == SEARCHING and heard[-1].status == MATCHED
    assert PROPOSED in [t.status for t in heard]
    assert [t.version for t in heard] == sorted({t.version for t in heard}), "each version once, in order"
    assert heard[-1].table.seat_token and heard[-1].table.seat == (await queue.get(a, ticket.ticket_id)).table.seat


async def test_nobody_sees_or_touches_a_ticket_that_is_not_theirs(queue: Queue) -> None:
    a, stranger = await queue.players(2)
    ticket = await queue.enqueue(a)
    for call in (queue.get, queue.cancel, queue.accept):
        with pytest.raises(grpc.aio.AioRpcError) as hidden:
            await call(stranger, ticket.ticket_id)
        assert hidden.value.code() == grpc.StatusCode.NOT_FOUND
    with pytest.raises(grpc.aio.AioRpcError) as anonymous:
        await queue.stub.Enqueue(match_pb2.EnqueueRequest(game="soker"))
    assert anonymous.value.code() == grpc.StatusCode.UNAUTHENTICATED


async def test_taking_a_seat_up_again_changes_nothing(queue: Queue) -> None:
    a, b = await queue.players(2)
    tickets = [await queue.enqueue(s, counts=[2]) for s in (a, b)]
    await queue.turn()
    for session, ticket in zip((a, b), tickets, strict=True):
        await queue.accept(session, ticket.ticket_id)
    again = await queue.accept(a, tickets[0].ticket_id)  # (a client that did not hear the answer tries again)
    assert again.status == MATCHED and again.table.seat_token


@pytest.mark.parametrize(
    ("limits", "reason"),
    [
        ({"per_player": 1}, "tickets_per_player"),
        ({"per_caller": 2}, "tickets_per_caller"),
        ({"max_queue": 2}, "queue_full"),
    ],
)
async def test_quotas_answer_resource_exhausted_and_store_nothing(start, database_url: str, limits, reason) -> None:
    harness = await start(journal=SqlJournal(create_engine(database_url)), match=replace(SETTINGS, **limits))
    queue = Queue(harness)
    a, b, c = await queue.players(3)
    await queue.enqueue(a)
    if reason == "tickets_per_player":  # a's second game's queue: one live ticket is a's most
        over = queue.enqueue(a, "age-of-soccer")
    else:  # a third ticket from the test's one address (per caller), or in a queue of two (queue full)
        await queue.enqueue(b)
        over = queue.enqueue(c)
    code, found, _ = await refusal(over)
    assert (code, found) == (grpc.StatusCode.RESOURCE_EXHAUSTED, reason)
    assert await harness.matchmaker.store.live_of(c.player.player_id) == []


async def test_a_person_who_never_comes_holds_no_table_and_their_ticket_ends(queue: Queue) -> None:
    """b never takes a seat up: b's ticket is never offered the table it left again (which goes on without b, a
    system player in b's seat once the wait is over), and it expires when its time is up even while proposed."""
    a, b = await queue.players(2)
    mine, theirs = [await queue.enqueue(s, counts=[2]) for s in (a, b)]
    await queue.turn()
    await queue.accept(a, mine.ticket_id)
    room_id = (await queue.get(a, mine.ticket_id)).table.room_id
    for _ in range(40):
        await queue.turn(20)
    matched = await queue.get(a, mine.ticket_id)
    assert matched.status == MATCHED and matched.table.room_id == room_id, "a's table went on, a keeping the seat"
    assert [s.kind for s in matched.table.table_seats].count(common_pb2.SEAT_KIND_SYSTEM) == 1
    ended = await queue.get(b, theirs.ticket_id)
    assert ended.status == match_pb2.TICKET_STATUS_EXPIRED and ended.returned >= 1


async def test_deleting_a_player_cancels_their_tickets_and_invitations_and_their_name_is_not_shown(
    queue: Queue,
) -> None:
    """A player deleted their account while matched: the ticket stayed at the table with their real name shown to
    the other person, whose table waited out the take-up time. Now the deletion cancels every ticket they are in or
    invited to, in its own transaction, and no ticket shows their name any more."""
    harness = queue.harness
    ghost = (await harness.players.SignInAsGuest(player_pb2.SignInAsGuestRequest(name="Ghost Zebra"))).session
    other, leader = await queue.players(2)
    at_table = await queue.enqueue(ghost, counts=[2])
    waiting = await queue.enqueue(other, counts=[2])
    await queue.turn()
    assert "Ghost Zebra" in str(await queue.get(other, waiting.ticket_id)), "(the table shows the names before)"
    await queue.befriend(leader, ghost)
    party = await queue.enqueue(leader, counts=[2, 3], party=[ghost])  # the ghost is invited, and has not joined

    await harness.players.DeletePlayer(player_pb2.DeletePlayerRequest(), metadata=auth(ghost.access_token))

    left = await queue.get(other, waiting.ticket_id)
    assert left.status == PROPOSED, "the other person keeps their seat, and the empty one is filled again"
    assert ghost.player.player_id not in {s.player_id for s in left.table.table_seats}
    assert "Ghost Zebra" not in str(left)
    invited = await queue.get(leader, party.ticket_id)
    assert invited.status == match_pb2.TICKET_STATUS_CANCELLED and invited.reason == "player_deleted"
    assert "Ghost Zebra" not in str(invited) and invited.members[1].name.startswith("Former player ")
    own, _ = await harness.matchmaker.store.ticket(at_table.ticket_id)
    assert (own.status, own.reason) == ("cancelled", "player_deleted")
    listed = await queue.stub.ListMyTickets(match_pb2.ListMyTicketsRequest(), metadata=auth(leader.access_token))
    assert "Ghost Zebra" not in str(listed)
    # Nobody can bring the deleted player to a table again.
    code, reason, _ = await refusal(
        queue.stub.Enqueue(
            match_pb2.EnqueueRequest(game="soker", party=[ghost.player.player_id]), metadata=auth(leader.access_token)
        )
    )
    assert (code, reason) == (grpc.StatusCode.NOT_FOUND, "player_not_found")


async def test_a_deleted_players_name_leaves_the_matched_rooms_they_played(queue: Queue) -> None:
    """A matched room is stored with its people seated (their names in the room's record): the deletion renamed the
    seats and the join lines but not that record, so the finished room, read back from the store, showed the real
    name again, and so did the other player's matched ticket."""
    harness = queue.harness
    ghost = (await harness.players.SignInAsGuest(player_pb2.SignInAsGuestRequest(name="Ghost Zebra"))).session
    (other,) = await queue.players(1)
    tickets = [await queue.enqueue(s, counts=[2]) for s in (ghost, other)]
    await queue.turn()
    for session, ticket in zip((ghost, other), tickets, strict=True):
        await queue.accept(session, ticket.ticket_id)
    room_id = (await queue.get(other, tickets[1].ticket_id)).table.room_id
    room = harness.directory.get(room_id)
    await room.close_by_operator("the test is over")
    await harness.players.DeletePlayer(player_pb2.DeletePlayerRequest(), metadata=auth(ghost.access_token))

    seen = (await harness.rooms.GetRoom(room_pb2.GetRoomRequest(room_id=room_id))).room
    assert "Ghost Zebra" not in str(seen) and any(s.name.startswith("Former player ") for s in seen.seats)
    matched = await queue.get(other, tickets[1].ticket_id)
    assert matched.status == MATCHED and "Ghost Zebra" not in str(matched)
