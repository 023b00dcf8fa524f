"""Enqueue retried with its request id: the same id answers the ticket the first call made, as it stands now (not
already_queued), and makes no other, on the server that answered first and on one started afresh on the same store (a
restart, or another node), over gRPC and REST; the same id with another request is refused, and a player's ids are
theirs alone."""

from __future__ import annotations

import grpc
import pytest

from kickoff.v1 import match_pb2
from service.actors.requests import RequestKey, request_key
from service.errors import PreconditionFailed
from service.matches.matchmaker import options_key
from service.matches.store import MatchStore, NewTicket
from service.rooms.room import ONLINE
from service.store.database import create_engine
from service.store.journal import SqlJournal
from tests.matches.conftest import SETTINGS, Queue, auth
from tests.server.conftest import refusal
from tests.servers import Start


async def served(start: Start, database_url: str) -> Queue:
    """A server on the test's database (each call: one more, as after a restart or on another node)."""
    return Queue(await start(journal=SqlJournal(create_engine(database_url)), match=SETTINGS))


async def listed(queue: Queue, session) -> list[str]:
    answer = await queue.stub.ListMyTickets(match_pb2.ListMyTicketsRequest(), metadata=auth(session.access_token))
    return [ticket.ticket_id for ticket in answer.tickets]


async def test_enqueue_sent_again_answers_the_same_ticket_as_it_stands_after_a_restart(
    start: Start, database_url: str
) -> None:
    first = await served(start, database_url)
    ann, bob = await first.players(2)
    ticket = await first.enqueue(ann, counts=[2], request_id="1")
    assert ticket.status == match_pb2.TICKET_STATUS_SEARCHING
    again = await first.enqueue(ann, counts=[2], request_id="1")  # (the first answer was lost: not already_queued)
    assert (again.ticket_id, again.status) == (ticket.ticket_id, match_pb2.TICKET_STATUS_SEARCHING)
    await first.enqueue(bob, counts=[2])
    await first.turn()  # ann and bob are a table now
    restarted = await served(start, database_url)
    proposed = await restarted.enqueue(ann, counts=[2], request_id="1")
    assert (proposed.ticket_id, proposed.status) == (ticket.ticket_id, match_pb2.TICKET_STATUS_PROPOSED)
    assert proposed.table.room_id and proposed.table.HasField("take_up_time"), "the retry shows her table"
    assert await listed(restarted, ann) == [ticket.ticket_id], "one ticket, however often it was asked for"
    # The same id with another request is refused, and makes none.
    code, reason, _ = await refusal(
        restarted.stub.Enqueue(
            match_pb2.EnqueueRequest(game="soker", seat_counts=[4], request_id="1"), metadata=auth(ann.access_token)
        )
    )
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "request_id_reused")
    # Another player's "1" is another ticket.
    (cy,) = await restarted.players(1, prefix="c")
    cys = await restarted.enqueue(cy, counts=[2], request_id="1")
    assert cys.ticket_id != ticket.ticket_id and [m.player_id for m in cys.members] == [cy.player.player_id]


async def test_a_retried_enqueue_of_a_ticket_cancelled_since_answers_it_cancelled_and_queues_nothing(
    start: Start, database_url: str
) -> None:
    queue = await served(start, database_url)
    (ann,) = await queue.players(1)
    ticket = await queue.enqueue(ann, request_id="anns-first")
    await queue.cancel(ann, ticket.ticket_id)
    again = await queue.enqueue(ann, request_id="anns-first")
    assert (again.ticket_id, again.status) == (ticket.ticket_id, match_pb2.TICKET_STATUS_CANCELLED)
    assert await listed(queue, ann) == []
    # A new id is a new ticket.
    new = await queue.enqueue(ann, request_id="anns-second")
    assert new.ticket_id != ticket.ticket_id and await listed(queue, ann) == [new.ticket_id]


async def test_over_rest_a_retried_enqueue_answers_the_same_ticket_after_a_restart(
    start: Start, gateway, database_url: str
) -> None:
    first = await gateway((await served(start, database_url)).harness)
    session = (await first.post("/v1/players/guest", json={"name": "ann"})).json()["session"]
    headers = {"authorization": f"Bearer {session['accessToken']}"}
    body = {"game": "soker", "seatCounts": [2], "requestId": "7c9e6679"}
    made = await first.post("/v1/tickets", json=body, headers=headers)
    assert made.status_code == 201, made.text
    ticket_id = made.json()["ticket"]["ticketId"]
    restarted = await gateway((await served(start, database_url)).harness)
    for client in (first, restarted):
        again = await client.post("/v1/tickets", json=body, headers=headers)
        assert again.status_code == 201 and again.json()["ticket"]["ticketId"] == ticket_id, again.text
    mine = (await restarted.get("/v1/tickets", headers=headers)).json()["tickets"]
    assert [t["ticketId"] for t in mine] == [ticket_id]
    reused = await restarted.post("/v1/tickets", json={**body, "seatCounts": [4]}, headers=headers)
    assert reused.status_code == 409 and reused.json()["reason"] == "request_id_reused"


async def test_one_id_for_two_games_met_by_two_nodes_at_once_makes_one_ticket_and_refuses_the_other(
    start: Start, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One id sent for two games at once (as two nodes could get it): each call locks its own game's queue, so the
    second may look for the id before the first stored its ticket. The store's unique key on the request then lets
    one ticket be stored, and the other call is refused as a reuse (never INTERNAL, never a second ticket)."""
    queue = await served(start, database_url)
    (ann,) = await queue.players(1)
    player = ann.player.player_id
    store = queue.harness.matchmaker.store
    key = request_key("1", player, b"")
    assert key is not None

    def ticket(game: str, parameters: str) -> NewTicket:
        return NewTicket(
            game=game,
            members=(player,),
            names=("ann",),
            counts=(2,),
            mode=ONLINE,
            options={},
            options_key=options_key(ONLINE, {}),
            rating=25.0,
            request=RequestKey(key.key, parameters),
        )

    made = await store.enqueue(ticket("soker", "a" * 32))
    looked = MatchStore._requested
    missed: list[bool] = []

    async def before_the_first_committed(connection, request):  # (the second call's look, in its own transaction)
        if not missed:
            missed.append(True)
            return None
        return await looked(connection, request)

    monkeypatch.setattr(MatchStore, "_requested", staticmethod(before_the_first_committed))
    with pytest.raises(PreconditionFailed) as refused:
        await store.enqueue(ticket("age-of-soccer", "b" * 32))
    assert refused.value.code == "request_id_reused" and missed == [True]
    assert await listed(queue, ann) == [made.ticket_id]
