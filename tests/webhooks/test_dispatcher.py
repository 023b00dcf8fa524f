"""Draining the outbox: retries on the backoff's schedule until the window ends, one slow endpoint delaying no other,
per-endpoint concurrency cluster-wide, reminders that no longer hold, late answers that change nothing, and two
nodes that never send one delivery twice in one attempt."""

from __future__ import annotations

import asyncio
import time
from collections import Counter

import pytest
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from sqlalchemy import select
from standardwebhooks import Webhook

from service.errors import EndpointNotFound
from service.store.database import create_engine
from service.store.models import WebhookDeliveryRow
from service.telemetry import Telemetry
from service.webhooks.dispatcher import CLAIM_MARGIN, DEAD_KEEP_DAYS, FIRST_DELAY, LONGEST_DELAY, backoff
from tests.webhooks.conftest import (
    SETTINGS,
    FakeClock,
    Received,
    add_delivery,
    add_endpoint,
    add_room,
    delivery,
    eventually,
    statuses,
)

WINDOW = SETTINGS.retry_hours * 3600


def nominal(attempts: int) -> float:
    return min(FIRST_DELAY * 2 ** (attempts - 1), LONGEST_DELAY)


def test_the_backoff_doubles_from_5_seconds_to_an_hour_with_jitter() -> None:
    import random

    rng = random.Random(3)
    assert [nominal(n) for n in range(1, 13)] == [5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600, 3600]
    for attempts in range(1, 60):
        for _ in range(20):
            assert 0.75 * nominal(attempts) <= backoff(attempts, rng) < 1.25 * nominal(attempts)
    # the documented count: 35 attempts in 26 hours without jitter
    at, attempts = 0.0, 1
    while at + nominal(attempts) <= WINDOW:
        at += nominal(attempts)
        attempts += 1
    assert (attempts, at) == (35, 91515.0)


async def test_failures_are_retried_on_the_backoff_schedule_then_delivered(engine, receivers, clock, dispatchers):
    answers = iter([500, 500, 500, 200])

    async def answer(_: Received) -> int:
        return next(answers)

    receiver = await receivers(answer)
    endpoint_id, secret = await add_endpoint(engine, receiver.url)
    delivery_id = await add_delivery(engine, endpoint_id, at=clock.now())
    dispatcher = dispatchers(engine)
    attempt_times = []
    for attempts in range(1, 5):
        assert await dispatcher.step() == 1
        attempt_times.append(clock.now())
        await dispatcher.settle()
        row = await delivery(engine, delivery_id)
        assert row.attempts == attempts
        if attempts < 4:
            assert (row.status, row.last_status, row.last_error) == ("pending", 500, "HTTP 500")
            delay = row.next_attempt_at - clock.now()
            assert 0.75 * nominal(attempts) <= delay < 1.25 * nominal(attempts), (attempts, delay)
            clock.t = row.next_attempt_at - 0.01
            assert await dispatcher.step() == 0  # not due yet
            clock.t = row.next_attempt_at
    row = await delivery(engine, delivery_id)
    assert (row.status, row.attempts, row.finished_at, row.last_status, row.last_error) == (
        "delivered",
        4,
        attempt_times[-1],
        200,
        "",
    )
    assert await dispatcher.step() == 0
    assert len(receiver.requests) == 4
    assert set(receiver.ids()) == {delivery_id}  # the same webhook-id on every retry
    for request in receiver.requests:  # each verifies, signed at the wall clock's time (not the fake clock's 2027)
        assert Webhook(secret).verify(request.body, request.headers)["data"] == {"n": 1}


async def test_a_dead_endpoint_delays_no_other_and_ends_a_dead_letter(engine, receivers, clock, dispatchers):
    healthy_receiver = await receivers()
    silent = await receivers()
    silent.answer = silent.hang
    slow_id, _ = await add_endpoint(engine, silent.url, timeout=1.0)
    healthy_id, _ = await add_endpoint(engine, healthy_receiver.url, timeout=2.0)
    stuck = await add_delivery(engine, slow_id, at=clock.now() - 1)  # (first in the queue)
    fine = await add_delivery(engine, healthy_id, at=clock.now())
    dispatcher = dispatchers(engine)

    # (No upper bound on a duration: the machine may be busy. That nothing waited for the silent endpoint shows in
    # its delivery, still being sent, until its own timeout of 1 s; the default timeout would be 10 s.)
    started = time.monotonic()
    assert await dispatcher.step() == 2
    assert (await delivery(engine, stuck)).status == "sending"  # the pass did not wait for the silent endpoint

    async def fine_delivered() -> bool:
        return (await delivery(engine, fine)).status == "delivered"

    await eventually(fine_delivered)
    assert (await delivery(engine, stuck)).status == "sending"  # delivered while the silent attempt still ran
    await dispatcher.settle()
    assert 1.0 <= time.monotonic() - started < 5.0  # it timed out at the endpoint's timeout, not the default 10 s
    row = await delivery(engine, stuck)
    assert (row.status, row.attempts, row.last_error, row.last_status) == ("pending", 1, "timeout", 0)
    assert len(silent.requests) == 1

    # At the window's end: the next failure's next attempt would come after it, so it is a dead letter; another
    # endpoint's delivery goes out in the same pass.
    clock.t = row.retry_from + WINDOW - 1
    another = await add_delivery(engine, healthy_id, at=clock.now())
    assert await dispatcher.step() == 2
    await eventually(lambda: _status_is(engine, another, "delivered"))
    assert (await delivery(engine, stuck)).status == "sending"  # the silent endpoint's attempt still ran
    await dispatcher.settle()
    row = await delivery(engine, stuck)
    assert (row.status, row.attempts, row.last_error, row.finished_at) == ("dead", 2, "timeout", clock.now())
    clock.advance(10 * 24 * 3600)
    assert await dispatcher.step() == 0  # a dead letter is not retried
    assert len(silent.requests) == 2


async def _status_is(engine, delivery_id: str, status: str) -> bool:
    return (await delivery(engine, delivery_id)).status == status


async def test_no_more_than_max_in_flight_at_once(engine, receivers, clock, dispatchers):
    release = asyncio.Event()

    async def held(_: Received) -> int:
        await release.wait()
        return 200

    receiver = await receivers(held)
    endpoint_id, _ = await add_endpoint(engine, receiver.url, max_in_flight=2)
    ids = [await add_delivery(engine, endpoint_id, at=clock.now() + i * 0.001) for i in range(5)]
    clock.advance(1)
    dispatcher = dispatchers(engine)
    assert await dispatcher.step() == 2
    assert await dispatcher.step() == 0  # both places taken
    await eventually(lambda: _arrived(receiver, 2))
    assert Counter((await statuses(engine)).values()) == {"sending": 2, "pending": 3}
    # Another node sees the endpoint's two in flight too: the bound is cluster-wide.
    other = dispatchers(engine, node_id="b")
    assert await other.step() == 0
    release.set()
    await dispatcher.settle()
    delivered = 2
    while delivered < 5:
        mine = await dispatcher.step()
        theirs = await other.step()  # (the first node's attempts may end while it counts: it may take some)
        assert mine <= 2 and theirs <= 2 and mine + theirs >= 1
        await dispatcher.settle()
        await other.settle()
        delivered += mine + theirs
    assert receiver.peak == 2
    assert sorted(receiver.ids()) == sorted(ids)  # each sent once
    assert set((await statuses(engine)).values()) == {"delivered"}


async def _arrived(receiver, count: int) -> bool:
    return len(receiver.requests) >= count


async def test_the_running_dispatcher_wakes_for_room_and_for_writes(sqlite_engine, receivers, clock, dispatchers):
    async def quick(_: Received) -> int:
        await asyncio.sleep(0.02)
        return 200

    engine = sqlite_engine
    receiver = await receivers(quick)
    endpoint_id, _ = await add_endpoint(engine, receiver.url, max_in_flight=2)
    for i in range(6):
        await add_delivery(engine, endpoint_id, at=clock.now() + i * 0.001)
    clock.advance(1)
    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:  # a poll that never ends: only wake() moves it
        sleeps.append(seconds)
        await asyncio.Event().wait()

    dispatcher = dispatchers(engine, sleep=sleep)
    dispatcher.start()
    # Two at a time, each ending attempt waking the next pass (the poll would wait forever).
    await eventually(lambda: _all(engine, "delivered", 6))
    assert receiver.peak <= 2 and len(receiver.requests) == 6
    assert sleeps and set(sleeps) == {SETTINGS.poll_seconds}
    later = await add_delivery(engine, endpoint_id, at=clock.now())
    dispatcher.wake()  # (the outbox calls it when it writes)
    await eventually(lambda: _status_is(engine, later, "delivered"))
    assert await dispatcher.refresh() == {endpoint_id: 0}


async def _all(engine, status: str, count: int) -> bool:
    values = list((await statuses(engine)).values())
    return len(values) == count and set(values) == {status}


async def test_close_waits_for_attempts_in_flight_within_a_bound(sqlite_engine, receivers, clock, dispatchers):
    async def slowish(_: Received) -> int:
        await asyncio.sleep(0.15)
        return 200

    engine = sqlite_engine
    finishing = await receivers(slowish)
    silent = await receivers()
    silent.answer = silent.hang
    endpoint_id, _ = await add_endpoint(engine, finishing.url)
    silent_id, _ = await add_endpoint(engine, silent.url, timeout=5.0)
    first = await add_delivery(engine, endpoint_id, at=clock.now())
    hung = await add_delivery(engine, silent_id, at=clock.now())
    dispatcher = dispatchers(engine, close_seconds=0.4)
    dispatcher.start()
    await eventually(lambda: _arrived(finishing, 1))
    await eventually(lambda: _arrived(silent, 1))
    started = time.monotonic()
    await dispatcher.close()
    assert 0.4 <= time.monotonic() - started < 4.0  # bounded: the silent one was given up (its timeout is 5 s)
    assert (await delivery(engine, first)).status == "delivered"  # waited for
    row = await delivery(engine, hung)
    assert row.status == "sending" and row.claimed_until == clock.now() + 5.0 + CLAIM_MARGIN  # it runs out; retried


async def test_a_reminder_that_no_longer_holds_is_obsolete(engine, receivers, clock, dispatchers):
    receiver = await receivers()
    endpoint_id, _ = await add_endpoint(engine, receiver.url, events=("clock.running_out",))
    deadline = clock.now() + 3600
    await add_room(engine, "r_still", {"1": ["p1", deadline], "0": ["", None]})
    await add_room(engine, "r_moved", {"0": ["p0", deadline + 50]})  # seat 1 moved: seat 0 acts now
    await add_room(engine, "r_later", {"1": ["p1", deadline + 86400]})  # seat 1 acts again, a new deadline
    due = clock.now()

    def reminder(room_id: str) -> dict:
        return {"room_id": room_id, "seat": 1, "deadline": deadline}

    kept = await add_delivery(engine, endpoint_id, at=due, event="clock.running_out", condition=reminder("r_still"))
    moved = await add_delivery(engine, endpoint_id, at=due, event="clock.running_out", condition=reminder("r_moved"))
    later = await add_delivery(engine, endpoint_id, at=due, event="clock.running_out", condition=reminder("r_later"))
    gone = await add_delivery(engine, endpoint_id, at=due, event="clock.running_out", condition=reminder("r_none"))
    dispatcher = dispatchers(engine)
    assert await dispatcher.step() == 1
    await dispatcher.settle()
    assert await statuses(engine) == {kept: "delivered", moved: "obsolete", later: "obsolete", gone: "obsolete"}
    assert receiver.ids() == [kept]
    row = await delivery(engine, moved)
    assert (row.attempts, row.finished_at) == (0, clock.now())


async def test_a_late_answer_never_overwrites_a_newer_claim(sqlite_engine, receivers, clock, dispatchers):
    engine = sqlite_engine
    gates = [asyncio.Event(), asyncio.Event()]
    statuses_by_arrival = [500, 200]

    async def gated(request: Received) -> int:
        index = len(receiver.requests) - 1
        await gates[index].wait()
        return statuses_by_arrival[index]

    receiver = await receivers(gated)
    endpoint_id, _ = await add_endpoint(engine, receiver.url, timeout=5.0)
    delivery_id = await add_delivery(engine, endpoint_id, at=clock.now())
    a, b = dispatchers(engine, node_id="a"), dispatchers(engine, node_id="b")
    assert await a.step() == 1
    await eventually(lambda: _arrived(receiver, 1))
    assert await b.step() == 0  # claimed by a
    clock.advance(5.0 + CLAIM_MARGIN + 1)  # a's claim ran out (a node that seems dead)
    assert await b.step() == 1
    await eventually(lambda: _arrived(receiver, 2))
    claimed = await delivery(engine, delivery_id)
    assert (claimed.status, claimed.attempts, claimed.claimed_by) == ("sending", 2, "b")
    gates[0].set()  # a's attempt answers at last, 500, while b's is under way: it must change nothing
    await a.settle()
    row = await delivery(engine, delivery_id)
    assert (row.status, row.attempts, row.claimed_by, row.claimed_until) == ("sending", 2, "b", claimed.claimed_until)
    assert await a.step() == 0  # (so nobody sends it a third time meanwhile)
    gates[1].set()
    await b.settle()
    row = await delivery(engine, delivery_id)
    assert (row.status, row.attempts, row.claimed_by, row.last_status) == ("delivered", 2, "b", 200)
    assert len(receiver.requests) == 2


async def test_a_refused_address_is_a_failed_attempt_and_nothing_is_sent(engine, receivers, clock, dispatchers):
    receiver = await receivers()
    endpoint_id, _ = await add_endpoint(engine, receiver.url)
    delivery_id = await add_delivery(engine, endpoint_id, at=clock.now())
    dispatcher = dispatchers(engine, allow=())  # loopback not allowed
    assert await dispatcher.step() == 1
    await dispatcher.settle()
    row = await delivery(engine, delivery_id)
    assert (row.status, row.attempts, row.last_error) == ("pending", 1, "refused address 127.0.0.1 (loopback)")
    assert receiver.connections == 0


async def test_the_test_event_is_signed_sent_at_once_and_not_stored(engine, receivers, clock, dispatchers):
    receiver = await receivers()
    endpoint_id, secret = await add_endpoint(engine, receiver.url)
    dispatcher = dispatchers(engine)
    delivery_id, attempt = await dispatcher.test(endpoint_id)
    assert attempt.ok and attempt.status == 200 and delivery_id.startswith("msg_")
    [request] = receiver.requests
    assert request.headers["webhook-id"] == delivery_id
    assert Webhook(secret).verify(request.body, request.headers) == {
        "type": "webhook.test",
        "timestamp": "2027-01-15T08:00:00.000Z",
        "data": {"endpoint_id": endpoint_id},
    }
    assert await statuses(engine) == {}
    with pytest.raises(EndpointNotFound):
        await dispatcher.test("we_nothing")
    refused = dispatchers(engine, allow=())
    _, attempt = await refused.test(endpoint_id)
    assert (attempt.ok, attempt.error) == (False, "refused address 127.0.0.1 (loopback)")


async def test_prune_keeps_what_is_recent_and_what_is_not_finished(engine, clock, dispatchers):
    endpoint_id, _ = await add_endpoint(engine, "http://127.0.0.1:9/")
    day = 86400.0
    now = clock.now()
    rows = {
        "old_delivered": ("delivered", now - 8 * day),
        "old_obsolete": ("obsolete", now - 8 * day),
        "new_delivered": ("delivered", now - 6 * day),
        "dead_recent": ("dead", now - 10 * day),
        "dead_old": ("dead", now - (DEAD_KEEP_DAYS + 1) * day),
        "pending_old": ("pending", None),
    }
    for name, (status, finished) in rows.items():
        await add_delivery(
            engine, endpoint_id, at=now - 60 * day, delivery_id=name, status=status, finished_at=finished
        )
    dispatcher = dispatchers(engine)
    assert await dispatcher.prune() == 3
    assert sorted(await statuses(engine)) == ["dead_recent", "new_delivered", "pending_old"]


async def test_metrics_count_outcomes_and_gauge_the_backlog(sqlite_engine, receivers, clock, dispatchers):
    engine = sqlite_engine
    answers = iter([200, 500, 200])

    async def answer(_: Received) -> int:
        return next(answers)

    receiver = await receivers(answer)
    reader = InMemoryMetricReader()
    telemetry = Telemetry(meter_provider=MeterProvider(metric_readers=[reader]), metering=True)
    endpoint_id, _ = await add_endpoint(engine, receiver.url, max_in_flight=1)
    await add_delivery(engine, endpoint_id, at=clock.now() - 100, delivery_id="msg_a")
    await add_delivery(engine, endpoint_id, at=clock.now() - 50, delivery_id="msg_b")
    await add_delivery(engine, endpoint_id, at=clock.now() - 10, delivery_id="msg_c")
    await add_room(engine, "r1", {})
    reminder = {"room_id": "r1", "seat": 0, "deadline": 1.0}
    await add_delivery(engine, endpoint_id, at=clock.now(), delivery_id="msg_d", condition=reminder)
    dispatcher = dispatchers(engine, telemetry=telemetry)
    assert await dispatcher.step() == 1  # msg_a; the first pass counts the backlog too
    assert dispatcher.backlog() == {endpoint_id: 4}
    await dispatcher.settle()
    assert await dispatcher.step() == 1  # msg_b, failing
    await dispatcher.settle()
    assert await dispatcher.step() == 1  # msg_c; msg_d (obsolete) waits: one in flight at most
    await dispatcher.settle()
    assert await dispatcher.step() == 0  # msg_d is obsolete; msg_b waits for its retry
    assert dispatcher.backlog() == {endpoint_id: 4}  # (a snapshot: not counted again so soon)
    assert await dispatcher.refresh() == {endpoint_id: 1}
    assert dispatcher.backlog() == {endpoint_id: 1}
    clock.advance(20)
    points = _points(reader)
    outcomes = {p.attributes["kickoff.outcome"]: p.value for p in points["kickoff.webhook.deliveries"]}
    assert outcomes == {"delivered": 2, "failed": 1, "obsolete": 1}
    assert all(p.attributes["kickoff.endpoint"] == endpoint_id for p in points["kickoff.webhook.deliveries"])
    assert [(p.attributes, p.value) for p in points["kickoff.webhook.backlog"]] == [
        ({"kickoff.endpoint": endpoint_id}, 1)
    ]
    [oldest] = points["kickoff.webhook.oldest_age"]
    assert oldest.value == pytest.approx(70.0)  # msg_b's event came 50 s before the start; 20 s went by since
    durations = points["kickoff.webhook.attempt_duration"]
    assert sum(p.count for p in durations) == 3


def _points(reader: InMemoryMetricReader) -> dict[str, list]:
    found: dict[str, list] = {}
    data = reader.get_metrics_data()
    for resource in data.resource_metrics:
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                found.setdefault(metric.name, []).extend(metric.data.data_points)
    return found


async def test_two_nodes_never_send_one_delivery_twice_in_one_attempt(postgres_url, receivers, dispatchers):
    """Two dispatchers on one PostgreSQL, stepping at once: every delivery fails once and then is delivered, so each
    webhook-id reaches its receiver exactly twice, never twice at once, and no endpoint has more than max_in_flight
    requests under way across both nodes."""
    engines = [create_engine(postgres_url), create_engine(postgres_url)]
    clock = FakeClock()
    seen: Counter[str] = Counter()
    under_way: set[str] = set()
    overlaps: list[str] = []

    async def answer(request: Received) -> int:
        webhook_id = request.headers["webhook-id"]
        if webhook_id in under_way:
            overlaps.append(webhook_id)
        under_way.add(webhook_id)
        seen[webhook_id] += 1
        try:
            await asyncio.sleep(0.01)
            return 500 if seen[webhook_id] == 1 else 200
        finally:
            under_way.discard(webhook_id)

    try:
        endpoints = []
        for _ in range(3):
            receiver = await receivers(answer)
            endpoint_id, _ = await add_endpoint(engines[0], receiver.url, max_in_flight=3, timeout=2.0)
            endpoints.append((endpoint_id, receiver))
            for i in range(8):
                await add_delivery(engines[0], endpoint_id, at=clock.now() + i * 0.001)
        clock.advance(1)
        nodes = [
            dispatchers(engines[0], node_id="a", clock=clock),
            dispatchers(engines[1], node_id="b", clock=clock, seed=8),
        ]
        claimed = Counter()
        for _ in range(300):
            counts = await asyncio.gather(*(node.step() for node in nodes))
            claimed.update({"a": counts[0], "b": counts[1]})
            if await _all(engines[0], "delivered", 24):
                break
            await asyncio.sleep(0.005)
            clock.advance(1.0)  # (backoff after one failure: at most 6.25 s; a claim lasts 32 s)
        for node in nodes:
            await node.settle()
        assert await _all(engines[0], "delivered", 24)
        assert overlaps == []
        assert set(seen.values()) == {2} and len(seen) == 24
        for _, receiver in endpoints:
            assert receiver.peak <= 3
        async with engines[0].connect() as connection:
            attempts = (await connection.execute(select(WebhookDeliveryRow.attempts))).scalars().all()
        assert set(attempts) == {2}
        assert claimed["a"] > 0 and claimed["b"] > 0 and claimed["a"] + claimed["b"] == 48
    finally:
        for node in nodes:
            await node.close()
        for engine in engines:
            await engine.dispose()
