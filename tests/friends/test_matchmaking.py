"""Friends in matchmaking, on both stores: a block keeps two players from one table, and only friends may be invited
to a party."""

from __future__ import annotations

import grpc

from kickoff.v1 import match_pb2, player_pb2
from service.matches.matching import Vacant, Waiting, plan
from tests.friends.conftest import Circle
from tests.matches.test_matching import T0, teams_of
from tests.server.conftest import auth, refusal


async def enqueue(circle: Circle, session: player_pb2.Session, party: tuple[player_pb2.Session, ...] = ()) -> str:
    request = match_pb2.EnqueueRequest(game="soker", seat_counts=[2], party=[p.player.player_id for p in party])
    return (await circle.harness.matches.Enqueue(request, metadata=auth(session.access_token))).ticket.ticket_id


async def test_matchmaking_never_seats_a_blocked_pair_together(circle: Circle) -> None:
    """Ann blocked Bob; the four of equal rating queue for tables of two, Ann and Bob first. Without the block, Ann
    and Bob (the oldest two) would share a table; with it, each sits with someone else."""
    ann, bob, cyd, dan = await circle.guests("Ann", "Bob", "Cyd", "Dan")
    await circle.block(ann, bob)
    tickets = {}
    for session in (ann, bob, cyd, dan):
        tickets[session.player.name] = await enqueue(circle, session)
        circle.harness.clock.advance(0.1)
    circle.harness.clock.advance(1)
    await circle.harness.matchmaker.tick()
    tables = set()
    for name in ("Ann", "Bob"):
        session = ann if name == "Ann" else bob
        request = match_pb2.GetTicketRequest(ticket_id=tickets[name])
        ticket = (await circle.harness.matches.GetTicket(request, metadata=auth(session.access_token))).ticket
        assert ticket.status == match_pb2.TICKET_STATUS_PROPOSED, name
        tables.add(tuple(sorted(seat.name for seat in ticket.table.table_seats)))
    assert tables == {("Ann", "Cyd"), ("Bob", "Dan")}


async def test_only_friends_may_be_invited_to_a_party(circle: Circle) -> None:
    """A stranger named in a party is refused (party_not_friends, on the party field); a friend is invited; once
    blocked, the friend is no friend and is refused like a stranger."""
    ann, bob, cyd = await circle.guests("Ann", "Bob", "Cyd")
    code, reason, _ = await refusal(enqueue(circle, ann, (bob,)))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "party_not_friends")
    await circle.befriend(ann, bob)
    await circle.befriend(ann, cyd)
    ticket_id = await enqueue(circle, ann, (bob,))
    request = match_pb2.CancelTicketRequest(ticket_id=ticket_id)
    await circle.harness.matches.CancelTicket(request, metadata=auth(ann.access_token))
    await circle.block(cyd, ann)
    code, reason, _ = await refusal(enqueue(circle, ann, (cyd,)))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "party_not_friends")


def test_a_table_that_lost_people_is_filled_again_without_a_blocked_player() -> None:
    """The planner alone (service/matches/matching.py): a table of two people (Ann's, who blocked Bob) lost its third;
    Bob, the oldest ticket waiting, is skipped, and Cyd takes the seat. Bob's own ticket keeps Ann's apart too: the
    block holds whichever of the two is at the table."""
    teams = teams_of("soker")
    vacant = Vacant(
        "m1", 3, "k", T0 - 50, (0, 1, 2), (2,), (25.0, 25.0), people=frozenset({"ann", "eve"}), apart=frozenset({"bob"})
    )
    bob = Waiting("t-bob", 1, 25.0, frozenset({3}), "k", T0, people=frozenset({"bob"}), apart=frozenset({"ann"}))
    cyd = Waiting("t-cyd", 1, 25.0, frozenset({3}), "k", T0 + 1, people=frozenset({"cyd"}))
    (table,) = plan([bob, cyd], [vacant], T0 + 2, teams, None)
    assert (table.match_id, table.tickets) == ("m1", [("t-cyd", (2,))])
    unblocked = Vacant("m1", 3, "k", T0 - 50, (0, 1, 2), (2,), (25.0, 25.0), people=frozenset({"ann", "eve"}))
    (table,) = plan([bob, cyd], [unblocked], T0 + 2, teams, None)
    assert table.tickets == [("t-cyd", (2,))], "Bob's ticket keeps Ann apart by itself"
