"""MatchService over REST (the gateway in front of a server on a real database): two guests signed in over REST join
Soker's queue, follow their tickets as server-sent events while the test turns the queue, take their seats up, and
each lands at the same room with a seat token of their own that plays it; and the refusals as problem details (no
token, another player's ticket, twice in one queue, a bad table size, a full queue, a ticket ended); and the routes
in the OpenAPI document."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from typing import Any

import grpc
import httpx
import pytest

from kickoff.v1 import match_pb2
from service.gateway.app import create_app
from service.settings import Rate
from service.store.database import create_engine
from service.store.journal import SqlJournal
from tests.matches.conftest import SETTINGS, Queue, auth, befriend
from tests.server.conftest import Harness, refusal_info
from tests.servers import Start
from tests.sse import sse_events


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Site:
    """A server with matchmaking (its queues turned by the test), the gateway in front of it, and a REST client."""

    harness: Harness
    client: httpx.AsyncClient

    @property
    def queue(self) -> Queue:
        return Queue(self.harness)

    async def guest(self, name: str) -> dict[str, Any]:
        """A guest signed in over REST: its session (accessToken, player...)."""
        answer = await self.client.post("/v1/players/guest", json={"name": name})
        assert answer.status_code == 201, answer.text
        return answer.json()["session"]

    async def enqueue(self, session: dict[str, Any], **body: Any) -> httpx.Response:
        return await self.client.post(
            "/v1/tickets", json={"game": "soker", **body}, headers=bearer(session["accessToken"])
        )


async def serve(start: Start, gateway, database_url: str, **settings: Any) -> Site:
    harness = await start(journal=SqlJournal(create_engine(database_url)), match=replace(SETTINGS, **settings))
    return Site(harness, await gateway(harness))


@pytest.fixture
async def site(start: Start, gateway, database_url: str) -> Site:
    return await serve(start, gateway, database_url)


@dataclass
class Follower:
    """A ticket's event stream read as it comes, as the ticket's member (the answer's text grows in the background)."""

    client: httpx.AsyncClient
    path: str
    token: str
    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    text: str = ""
    done: bool = False
    task: asyncio.Task[None] | None = None

    def start(self) -> Follower:
        self.task = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        try:
            async with self.client.stream("GET", self.path, headers=bearer(self.token)) as answer:
                self.status, self.headers = answer.status_code, dict(answer.headers)
                async for chunk in answer.aiter_text():
                    self.text += chunk
        finally:
            self.done = True

    @property
    def events(self) -> list[tuple[str, dict]]:
        return sse_events(self.text)

    @property
    def tickets(self) -> list[dict]:
        return [data for name, data in self.events if name == "update"]

    async def until(self, check: Callable[[Follower], bool], seconds: float = 10) -> None:
        async def wait() -> None:
            while not check(self):
                assert not self.done or check(self), f"the stream ended early: {self.status} {self.text[-500:]}"
                await asyncio.sleep(0.02)

        await asyncio.wait_for(wait(), seconds)

    async def close(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


@pytest.fixture
async def followers() -> AsyncIterator[list[Follower]]:
    made: list[Follower] = []
    yield made
    for follower in made:
        await follower.close()


def status_of(follower: Follower) -> str:
    tickets = follower.tickets
    return tickets[-1]["status"] if tickets else ""


async def test_two_guests_are_matched_over_rest_follow_their_tickets_and_play_with_their_own_seat_tokens(
    site: Site, followers: list[Follower]
) -> None:
    client = site.client
    ann, bo = await site.guest("Ann"), await site.guest("Bo")
    tickets = []
    for session in (ann, bo):
        answer = await site.enqueue(session, seatCounts=[2])
        assert answer.status_code == 201, answer.text
        assert "no-store" in answer.headers["cache-control"] and "private" in answer.headers["cache-control"]
        ticket = answer.json()["ticket"]
        assert ticket["status"] == "TICKET_STATUS_SEARCHING" and ticket["seatCounts"] == [2]
        assert [m["playerId"] for m in ticket["members"]] == [session["player"]["playerId"]]
        assert ticket["expireTime"] and "table" not in ticket
        tickets.append(ticket)
    mine = await client.get("/v1/tickets", headers=bearer(ann["accessToken"]))
    assert mine.status_code == 200 and "no-store" in mine.headers["cache-control"]
    assert [t["ticketId"] for t in mine.json()["tickets"]] == [tickets[0]["ticketId"]]
    got = await client.get(f"/v1/tickets/{tickets[1]['ticketId']}", headers=bearer(bo["accessToken"]))
    assert got.status_code == 200 and got.json()["ticket"]["ticketId"] == tickets[1]["ticketId"]

    # Both follow their tickets: the ticket as it stands first, then each change.
    for session, ticket in zip((ann, bo), tickets, strict=True):
        follower = Follower(client, f"/v1/tickets/{ticket['ticketId']}/events", session["accessToken"]).start()
        followers.append(follower)
        await follower.until(lambda f: status_of(f) == "TICKET_STATUS_SEARCHING")
        assert follower.status == 200 and follower.headers["content-type"].startswith("text/event-stream")
        assert "no-store" in follower.headers["cache-control"], "a ticket's stream is never cached either"

    await site.queue.turn()
    for follower in followers:
        await follower.until(lambda f: status_of(f) == "TICKET_STATUS_PROPOSED")
        table = follower.tickets[-1]["table"]
        assert table["seats"] == 2 and not table["seatToken"] and table["takeUpTime"], "no token before the take-up"
    assert len({f.tickets[-1]["table"]["roomId"] for f in followers}) == 1, "one table for both"

    first = await client.post(f"/v1/tickets/{tickets[0]['ticketId']}/accept", headers=bearer(ann["accessToken"]))
    assert first.status_code == 200, first.text
    assert first.json()["ticket"]["status"] == "TICKET_STATUS_PROPOSED", "Bo has not taken his seat up yet"
    last = await client.post(f"/v1/tickets/{tickets[1]['ticketId']}/accept", headers=bearer(bo["accessToken"]))
    assert last.status_code == 200, last.text
    assert last.json()["ticket"]["status"] == "TICKET_STATUS_MATCHED", "the last to take up starts the room"

    # Each stream ends with the ticket matched, with its member's own seat token; then an `end` event.
    seats: dict[int, str] = {}
    for follower in followers:
        await follower.until(lambda f: f.done)
        names = [name for name, _ in follower.events]
        assert names[-1] == "end" and set(names[:-1]) == {"update"}, names
        versions = [int(t["version"]) for t in follower.tickets]
        assert versions == sorted(set(versions)), "each version once, in order"
        assert follower.events[-1][1] == {"version": str(versions[-1])}
        matched = follower.tickets[-1]
        assert matched["status"] == "TICKET_STATUS_MATCHED" and matched["table"]["seatToken"]
        seats[matched["table"]["seat"]] = matched["table"]["seatToken"]
    assert sorted(seats) == [0, 1] and len(set(seats.values())) == 2, "a seat and a token of their own each"
    room_id = followers[0].tickets[-1]["table"]["roomId"]

    # The seat tokens play the room over its own REST routes.
    room = (await client.get(f"/v1/rooms/{room_id}")).json()
    assert room["status"] == "ROOM_STATUS_PLAYING" and room["mode"] == "ROOM_MODE_ONLINE"
    assert {s["playerId"] for s in room["seats"]} == {ann["player"]["playerId"], bo["player"]["playerId"]}
    for seat, token in seats.items():
        view = (await client.get(f"/v1/rooms/{room_id}/view", headers=bearer(token))).json()
        assert view["viewer"] == seat
    acting = room["toAct"][0]
    legal = await client.get(f"/v1/rooms/{room_id}/legal-moves", headers=bearer(seats[acting]))
    assert legal.status_code == 200 and legal.json()["moves"]
    moved = await client.post(
        f"/v1/rooms/{room_id}/moves", json={"move": legal.json()["moves"][0]}, headers=bearer(seats[acting])
    )
    assert moved.status_code == 201, moved.text

    # Matched, the ticket is no longer live; coming back to its stream after the end answers 204.
    assert (await client.get("/v1/tickets", headers=bearer(ann["accessToken"]))).json()["tickets"] == []
    again = await client.get(
        f"/v1/tickets/{tickets[0]['ticketId']}/events",
        headers={**bearer(ann["accessToken"]), "Last-Event-ID": followers[0].tickets[-1]["version"]},
    )
    assert again.status_code == 204


def refused(answer: httpx.Response, status: int, reason: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    problem = answer.json()
    assert problem["status"] == status and problem["reason"] == reason and problem["detail"], problem
    assert problem["type"] == f"urn:kickoff:problem:{reason}"
    return problem


async def test_refusals_are_problem_details(site: Site) -> None:
    client = site.client
    ann, stranger = await site.guest("Ann"), await site.guest("Cy")
    ticket = (await site.enqueue(ann, seatCounts=[4])).json()["ticket"]
    path = f"/v1/tickets/{ticket['ticketId']}"

    # No access token: 401, on every route.
    for method, route in (
        ("POST", "/v1/tickets"),
        ("GET", "/v1/tickets"),
        ("GET", path),
        ("GET", f"{path}/events"),
        ("POST", f"{path}/accept"),
        ("DELETE", path),
    ):
        answer = await client.request(method, route, json={"game": "soker"} if route == "/v1/tickets" else None)
        assert answer.status_code == 401, (method, route, answer.text)
        assert answer.headers["content-type"].startswith("application/problem+json")

    # Another player's ticket is not there for them.
    theirs = bearer(stranger["accessToken"])
    for method, route in (("GET", path), ("GET", f"{path}/events"), ("POST", f"{path}/accept"), ("DELETE", path)):
        refused(await client.request(method, route, headers=theirs), 404, "ticket_not_found")
    assert (await client.get("/v1/tickets", headers=theirs)).json()["tickets"] == []

    # Twice in one queue; a table size Soker does not take (the field named); a ticket with no table to take up.
    refused(await site.enqueue(ann, seatCounts=[2]), 409, "already_queued")
    bad = refused(await site.enqueue(stranger, seatCounts=[2, 9]), 400, "bad_seat_counts")
    assert bad["field"] == "seat_counts" and "2, 3, 4" in bad["detail"]
    typed = refused(await site.enqueue(stranger, seatCounts=["two"]), 400, "bad_request")
    assert typed["field"] == "seatCounts[0]", "the gateway names the body's field itself"
    refused(await client.post(f"{path}/accept", headers=bearer(ann["accessToken"])), 409, "not_proposed")

    # Cancelled, the ticket answers as cancelled, and cannot be cancelled again.
    cancelled = await client.delete(path, headers=bearer(ann["accessToken"]))
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["ticket"]["status"] == "TICKET_STATUS_CANCELLED"
    assert cancelled.json()["ticket"]["reason"] == "cancelled"
    refused(await client.delete(path, headers=bearer(ann["accessToken"])), 409, "ticket_ended")
    stream = await client.get(f"{path}/events", headers=bearer(ann["accessToken"]))
    assert stream.status_code == 200 and [name for name, _ in sse_events(stream.text)] == ["update", "end"]
    assert sse_events(stream.text)[0][1]["status"] == "TICKET_STATUS_CANCELLED"
    assert (await site.enqueue(ann, seatCounts=[4])).status_code == 201, "free to queue again"


async def test_a_full_queue_is_429_with_retry_after(start: Start, gateway, database_url: str) -> None:
    site = await serve(start, gateway, database_url, max_queue=1)
    ann, bo = await site.guest("Ann"), await site.guest("Bo")
    assert (await site.enqueue(ann)).status_code == 201
    full = await site.enqueue(bo)
    refused(full, 429, "queue_full")
    assert int(full.headers["retry-after"]) >= 1


def test_every_ticket_route_is_in_the_openapi_document_with_its_schemas() -> None:
    document = create_app("127.0.0.1:1").openapi_schema.to_schema()
    schemas = document["components"]["schemas"]
    expected = {
        ("/v1/tickets", "post"): ("Enqueue", "201", "EnqueueResponse", "EnqueueRequest"),
        ("/v1/tickets", "get"): ("ListMyTickets", "200", "ListMyTicketsResponse", None),
        ("/v1/tickets/{ticket_id}", "get"): ("GetTicket", "200", "GetTicketResponse", None),
        ("/v1/tickets/{ticket_id}/join", "post"): ("JoinTicket", "200", "JoinTicketResponse", None),
        ("/v1/tickets/{ticket_id}/accept", "post"): ("AcceptMatch", "200", "AcceptMatchResponse", None),
        ("/v1/tickets/{ticket_id}", "delete"): ("CancelTicket", "200", "CancelTicketResponse", None),
    }
    for (path, method), (operation_id, status, reply, request) in expected.items():
        operation = document["paths"][path][method]
        assert operation["operationId"] == operation_id and operation["tags"] == ["matchmaking"]
        assert operation["security"] == [{"playerAuth": []}], f"{operation_id} takes the access token"
        answer = operation["responses"][status]["content"]["application/json"]
        assert answer["schema"] == {"$ref": f"#/components/schemas/{reply}"}
        assert schemas[reply]["properties"], reply
        if request:
            body = operation["requestBody"]["content"]["application/json"]
            assert body["schema"] == {"$ref": f"#/components/schemas/{request}"} and body["example"]["game"]
            assert schemas[request]["properties"]["seatCounts"]["maxItems"] == 8
        for code in ("4XX", "5XX"):
            refusal = operation["responses"][code]["content"]["application/problem+json"]["schema"]
            assert refusal == {"$ref": "#/components/schemas/ProblemDetails"}
    stream = document["paths"]["/v1/tickets/{ticket_id}/events"]["get"]
    assert stream["operationId"] == "FollowTicket" and stream["security"] == [{"playerAuth": []}]
    events = stream["responses"]["200"]["content"]["text/event-stream"]
    assert events["schema"]["oneOf"][0] == {"$ref": "#/components/schemas/Ticket"} and "204" in stream["responses"]
    assert "`ticketId`" in events["schema"]["description"] and events["example"]["ticketId"]
    assert {"ticketId", "status", "members", "version"} <= set(schemas["Ticket"]["required"])
    assert "table" not in schemas["Ticket"]["required"], "a message field has presence: absent until there is one"


async def test_a_party_of_no_one_is_refused_without_its_text_coming_back(site: Site) -> None:
    """An attacker's report: `POST /v1/tickets {"party": ["ECHOED-TEXT"]}` answered `no such player: ECHOED-TEXT`.
    The refusal names the field, never what was sent (over REST and over gRPC)."""
    ann = await site.guest("Ann")
    problem = refused(await site.enqueue(ann, party=["ECHOED-TEXT"]), 404, "player_not_found")
    assert problem["field"] == "party" and "ECHOED-TEXT" not in str(problem), problem
    request = match_pb2.EnqueueRequest(game="soker", party=["ECHOED-TEXT"])
    code, info, message = await refusal_info(site.harness.matches.Enqueue(request, metadata=auth(ann["accessToken"])))
    assert (code, info.reason, info.metadata["field"]) == (grpc.StatusCode.NOT_FOUND, "player_not_found", "party")
    assert "ECHOED-TEXT" not in message


async def test_an_invited_player_declines_and_invitations_are_rate_limited_per_sender(
    start: Start, gateway, database_url: str
) -> None:
    """An attacker's report: anyone could invite anyone to a party, as often as they liked, and the invitee could not
    decline (only end the whole ticket). Now DeclineTicket (POST /v1/tickets/{id}/decline) takes the invitee out and
    the party goes on without them; and a player invites at most KICKOFF_INVITE_RATE players (here 3 an hour)."""
    harness = await start(journal=SqlJournal(create_engine(database_url)), match=SETTINGS, invite_rate=Rate(3, 3600.0))
    site = Site(harness, await gateway(harness))
    leader, friend, stranger = await site.guest("Lea"), await site.guest("Fay"), await site.guest("Sam")
    party = [friend["player"]["playerId"], stranger["player"]["playerId"]]
    await befriend(harness, leader["player"]["playerId"], *party)  # (only friends are invited)
    answer = await site.enqueue(leader, seatCounts=[3, 4], party=party)
    assert answer.status_code == 201, answer.text
    path = f"/v1/tickets/{answer.json()['ticket']['ticketId']}"

    declined = await site.client.post(f"{path}/decline", headers=bearer(stranger["accessToken"]))
    assert declined.status_code == 200 and declined.json() == {}, declined.text
    refused(await site.client.get(path, headers=bearer(stranger["accessToken"])), 404, "ticket_not_found")
    assert (await site.client.get("/v1/tickets", headers=bearer(stranger["accessToken"]))).json()["tickets"] == []
    refused(await site.client.post(f"{path}/decline", headers=bearer(stranger["accessToken"])), 404, "ticket_not_found")
    ticket = (await site.client.get(path, headers=bearer(leader["accessToken"]))).json()["ticket"]
    assert [m["name"] for m in ticket["members"]] == ["Lea", "Fay"] and ticket["reason"] == "declined"
    assert ticket["status"] == "TICKET_STATUS_FORMING"
    refused(await site.client.post(f"{path}/decline", headers=bearer(leader["accessToken"])), 409, "already_joined")
    joined = await site.client.post(f"{path}/join", headers=bearer(friend["accessToken"]))
    assert joined.json()["ticket"]["status"] == "TICKET_STATUS_SEARCHING", "everyone left joined: it searches"

    # Over gRPC the same; and the leader's third and fourth invitations this hour are one too many.
    again = await site.enqueue(stranger, seatCounts=[2], party=[leader["player"]["playerId"]])
    assert again.status_code == 201, again.text
    request = match_pb2.DeclineTicketRequest(ticket_id=again.json()["ticket"]["ticketId"])
    assert await harness.matches.DeclineTicket(request, metadata=auth(leader["accessToken"])) is not None
    await site.client.delete(path, headers=bearer(leader["accessToken"]))
    over = await site.enqueue(leader, seatCounts=[3], party=party)
    refused(over, 429, "rate_limited")
    assert int(over.headers["retry-after"]) > 0
    code, info, _ = await refusal_info(
        harness.matches.Enqueue(
            match_pb2.EnqueueRequest(game="soker", party=party), metadata=auth(leader["accessToken"])
        )
    )
    assert (code, info.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "rate_limited")
