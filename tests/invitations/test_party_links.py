"""Matchmaking party links on both stores: a stranger holding the link joins the party; one without it is refused;
an expired, revoked, used-up or foreign link is refused with its own reason; a block makes the link invalid for the
blocked player (told as a forged token is); the same over REST."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import grpc
import httpx

from kickoff.v1 import match_pb2, player_pb2
from tests.invitations.conftest import Hosts
from tests.server.conftest import Harness, auth, refusal


async def enqueue(hosts: Hosts, session: player_pb2.Session, *counts: int) -> match_pb2.Ticket:
    request = match_pb2.EnqueueRequest(game="soker", seat_counts=list(counts))
    return (await hosts.harness.matches.Enqueue(request, metadata=auth(session.access_token))).ticket


async def party_link(hosts: Hosts, session: player_pb2.Session, ticket_id: str, **fields: int) -> str:
    request = match_pb2.CreatePartyLinkRequest(ticket_id=ticket_id, **fields)
    return (await hosts.harness.matches.CreatePartyLink(request, metadata=auth(session.access_token))).token


def join(hosts: Hosts, session: player_pb2.Session, ticket_id: str, token: str = "") -> object:
    request = match_pb2.JoinTicketRequest(ticket_id=ticket_id, party_token=token)
    return hosts.harness.matches.JoinTicket(request, metadata=auth(session.access_token))


async def reason(call) -> tuple[grpc.StatusCode, str]:
    return (await refusal(call))[:2]


async def test_a_stranger_with_the_link_joins_the_party_and_one_without_is_refused(hosts: Hosts) -> None:
    """Ann queues alone and makes a party link; Cy, no friend of hers, joins with it: both are members who joined,
    the ticket still searching and taking only the tables their party fits. Di, without the link, is refused as for
    a ticket that is not his. About a second."""
    ann, cy, di = await hosts.guests("Ann", "Cy", "Di")
    ticket = await enqueue(hosts, ann, 2, 3)
    token = await party_link(hosts, ann, ticket.ticket_id)
    joined = (await join(hosts, cy, ticket.ticket_id, token)).ticket
    assert [(m.name, m.joined) for m in joined.members] == [("Ann", True), ("Cy", True)]
    assert joined.status == match_pb2.TICKET_STATUS_SEARCHING
    assert await reason(join(hosts, di, ticket.ticket_id)) == (grpc.StatusCode.NOT_FOUND, "ticket_not_found")
    seen = await hosts.harness.matches.GetTicket(
        match_pb2.GetTicketRequest(ticket_id=ticket.ticket_id), metadata=auth(cy.access_token)
    )
    assert seen.ticket.ticket_id == ticket.ticket_id


async def test_each_refused_link_has_its_reason(hosts: Hosts) -> None:
    """Expired, revoked, used up, another ticket's, forged: each refused FAILED_PRECONDITION with its reason; a player
    blocked by one of the party (or who blocked one) gets link_invalid, as for a forged token; only the leader makes a
    link."""
    ann, bo, cy, di, ed, fay = await hosts.guests("Ann", "Bo", "Cy", "Di", "Ed", "Fay")
    failed = grpc.StatusCode.FAILED_PRECONDITION
    ticket = (await enqueue(hosts, ann, 4)).ticket_id
    other = (await enqueue(hosts, fay, 4)).ticket_id
    single = await party_link(hosts, ann, ticket, max_uses=1)
    short = await party_link(hosts, ann, ticket, expires_in_seconds=60)
    made = await hosts.harness.matches.CreatePartyLink(
        match_pb2.CreatePartyLinkRequest(ticket_id=ticket), metadata=auth(ann.access_token)
    )
    await join(hosts, bo, ticket, single)
    assert await reason(join(hosts, cy, ticket, single)) == (failed, "link_used_up")
    await hosts.harness.matches.RevokePartyLink(
        match_pb2.RevokePartyLinkRequest(ticket_id=ticket, link_id=made.link.link_id), metadata=auth(ann.access_token)
    )
    assert await reason(join(hosts, cy, ticket, made.token)) == (failed, "link_revoked")
    assert await reason(join(hosts, cy, other, short)) == (failed, "link_invalid")
    assert await reason(join(hosts, cy, ticket, "not.a.token")) == (failed, "link_invalid")
    await hosts.block(bo, di)
    assert await reason(join(hosts, di, ticket, short)) == (failed, "link_invalid")
    await hosts.block(ed, ann)
    assert await reason(join(hosts, ed, ticket, short)) == (failed, "link_invalid")
    assert await reason(
        hosts.harness.matches.CreatePartyLink(
            match_pb2.CreatePartyLinkRequest(ticket_id=ticket), metadata=auth(bo.access_token)
        )
    ) == (failed, "not_party_leader")
    hosts.harness.clock.advance(61)
    assert await reason(join(hosts, cy, ticket, short)) == (failed, "link_expired")


async def test_party_links_over_rest(hosts: Hosts, gateway: Callable[[Harness], Awaitable[httpx.AsyncClient]]) -> None:
    """Buys: the new routes over REST: 201 and the token once, the join with the token in the body (party-join), a
    revoked link's 409 with its reason. About a second."""
    client = await gateway(hosts.harness)
    ann, cy = await hosts.guests("Ann", "Cy")
    owner, stranger = ({"Authorization": f"Bearer {s.access_token}"} for s in (ann, cy))
    ticket = (await enqueue(hosts, ann, 2)).ticket_id
    made = await client.post(f"/v1/tickets/{ticket}/party-links", json={"maxUses": 1}, headers=owner)
    assert made.status_code == 201 and made.json()["link"]["ticketId"] == ticket
    token, link_id = made.json()["token"], made.json()["link"]["linkId"]
    second = (await client.post(f"/v1/tickets/{ticket}/party-links", json={}, headers=owner)).json()
    revoked = await client.delete(f"/v1/tickets/{ticket}/party-links/{second['link']['linkId']}", headers=owner)
    assert revoked.status_code == 200 and revoked.json()["link"]["revoked"] is True
    refused = await client.post(
        f"/v1/tickets/{ticket}/party-join", json={"partyToken": second["token"]}, headers=stranger
    )
    assert (refused.status_code, refused.json()["reason"]) == (409, "link_revoked")
    joined = await client.post(f"/v1/tickets/{ticket}/party-join", json={"partyToken": token}, headers=stranger)
    assert joined.status_code == 200, joined.text
    assert [m["name"] for m in joined.json()["ticket"]["members"]] == ["Ann", "Cy"]
    assert link_id
