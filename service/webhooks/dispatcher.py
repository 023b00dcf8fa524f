"""The dispatcher: drains the outbox (webhook_deliveries), on every node, each delivery sent at least once and never
by two nodes in one attempt.

A pass (:meth:`Dispatcher.step`) finds the endpoints with deliveries due (pending with ``next_attempt_at`` come, or
sending with a claim run out: a claimer that died) and, for each, in one transaction: locks the endpoint's row
(PostgreSQL: ``FOR UPDATE SKIP LOCKED``, so two nodes never claim for one endpoint at once and neither waits; SQLite
has one writer anyway), counts its deliveries in flight cluster-wide (sending, with a claim not run out) and claims
at most ``max_in_flight`` less that many: status sending, ``claimed_by`` this node, ``claimed_until`` now plus the
endpoint's timeout plus :data:`CLAIM_MARGIN` (no other node sends it before then), ``attempts`` one more. A clock
reminder (a delivery with a ``condition``) whose seat no longer acts with that deadline (the rooms row's ``turns``)
is made obsolete instead, never sent. An endpoint that asked for chat text (``chat_text``) gets each ``chat.message``
delivery's text added to its payload as the claim is made, read from the chat's row then (none when the message was
withdrawn or is no longer kept; the stored payload never holds it). Each claimed delivery is then sent in a task of
its own, so a slow or dead endpoint delays no other one: a pass never waits for a send.

After an attempt, its outcome is written only if the row is still this claim (status sending, this node, this
``claimed_until`` and ``attempts``), so a late answer never overwrites another node's newer claim: delivered (a 2xx)
with ``finished_at``; or pending again, due after the backoff; or, when that next attempt would come more than
``retry_hours`` after ``retry_from`` (KICKOFF_WEBHOOK_RETRY_HOURS, 26 by default, at least 24), dead (a dead letter
the admin API can send again).

Backoff: after the n-th failed attempt the next one is due ``min(5 s * 2^(n-1), 1 h)`` later, times a random factor
in [0.75, 1.25) (jitter, so receivers coming back are not hit by every sender at once). Nominally: 5 s, 10 s, 20 s,
40 s, 80 s, 160 s, 320 s, 640 s, 1280 s, 2560 s (1 h 25 min in all), then every hour. With the 26 h window that is
35 attempts, the last 25 h 25 min after the first (24 h: 33 attempts); with the jitter the count falls between 30
and 44 (in practice 33 to 38).

:meth:`Dispatcher.start` runs a pass every ``poll_seconds`` (and sooner after :meth:`Dispatcher.wake`, which the
outbox calls when it writes, but no sooner than :data:`PASS_GAP` after the pass before: under load, a pass claims
what many lines wrote, and the outcomes of a round of attempts are written in one transaction); once every
:data:`PRUNE_SECONDS` a pass deletes delivered and obsolete deliveries older than ``keep_days`` and dead ones older
than :data:`DEAD_KEEP_DAYS`. The metrics: ``kickoff.webhook.deliveries``
(outcomes: delivered, failed, dead, obsolete), ``kickoff.webhook.attempt_duration``, and the gauges
``kickoff.webhook.backlog`` and ``kickoff.webhook.oldest_age``, read from a snapshot a pass refreshes at most every
:data:`SNAPSHOT_SECONDS` (never a query when metrics are read); :meth:`Dispatcher.backlog` gives that snapshot's
counts to the outbox's backlog bound.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import random as randoms
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from opentelemetry.metrics import CallbackOptions, Observation
from sqlalchemy import and_, bindparam, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from service.errors import EndpointNotFound
from service.settings import WebhookSettings
from service.store.models import ChatMessageRow, RoomRow, WebhookDeliveryRow, WebhookEndpointRow
from service.telemetry import SCOPE, VERSION, Telemetry
from service.webhooks.addresses import AddressPolicy
from service.webhooks.events import CHAT_MESSAGE, TEST, timestamp
from service.webhooks.outbox import delivery_id as new_delivery_id
from service.webhooks.sender import Attempt, Sender

log = logging.getLogger(__name__)

PENDING, SENDING, DELIVERED, DEAD, OBSOLETE = "pending", "sending", "delivered", "dead", "obsolete"
FIRST_DELAY = 5.0  # seconds after the first failed attempt
LONGEST_DELAY = 3600.0  # the backoff's cap
JITTER = (0.75, 1.25)  # each delay is multiplied by a factor drawn from [low, high)
CLAIM_MARGIN = 30.0  # a claim lasts the endpoint's timeout and this (clock differences, the store's latency)
SNAPSHOT_SECONDS = 5.0  # the backlog snapshot is refreshed at most this often
PRUNE_SECONDS = 300.0  # finished deliveries are pruned at most this often
PRUNE_BATCH = 5000  # rows one prune deletes at most
DEAD_KEEP_DAYS = 30.0
CLOSE_SECONDS = 35.0  # close waits this long for attempts in flight (the longest timeout is 30 s)
MAX_TASKS = 1024  # attempts in flight on one node
ERROR_LENGTH = 200  # webhook_deliveries.last_error
PASS_GAP = 0.05  # seconds at least between the starts of two passes (a wake comes no sooner)
RECORD_LINGER = 0.02  # seconds answered attempts wait for the others of their round, to share one transaction


class Now(Protocol):
    def now(self) -> float: ...


def backoff(attempts: int, rng: randoms.Random) -> float:
    """Seconds from the ``attempts``-th failed attempt to the next one (see the module docstring)."""
    delay = min(FIRST_DELAY * 2.0 ** min(max(attempts, 1) - 1, 30), LONGEST_DELAY)
    low, high = JITTER
    return delay * (low + (high - low) * rng.random())


@dataclass(frozen=True)
class Claim:
    """A delivery this node claimed for one attempt, with what sending it needs."""

    delivery_id: str
    endpoint_id: str
    payload: str
    attempts: int  # counting this one
    retry_from: float
    claimed_until: float
    url: str
    secret: str  # sealed
    timeout: float
    max_in_flight: int


def condition_holds(condition: dict[str, Any], turns: dict[str, list[Any]] | None) -> bool:
    """Whether a reminder's condition still holds: its seat acts, with that deadline."""
    try:
        entry = (turns or {}).get(str(int(condition["seat"])))
        deadline = float(condition["deadline"])
    except (KeyError, TypeError, ValueError):
        return False
    if not entry or len(entry) < 2 or entry[1] is None:
        return False
    return abs(float(entry[1]) - deadline) < 1e-6


async def with_text(connection: AsyncConnection, payloads: dict[str, str]) -> dict[str, str]:
    """``chat.message`` payloads (by delivery) with the message's ``text`` added to their data, read from the chat's
    row now: a message withdrawn, no longer kept, or a reaction gets none (its payload stays as it was written)."""
    wanted: dict[str, tuple[str, int]] = {}
    for delivery_id, payload in payloads.items():
        try:
            data = json.loads(payload)["data"]
            wanted[delivery_id] = (str(data["room_id"]), int(data["seq"]))
        except (KeyError, TypeError, ValueError):
            continue
    if not wanted:
        return {}
    m = ChatMessageRow
    keys = set(wanted.values())
    found = await connection.execute(
        select(m.room_id, m.seq, m.text).where(
            m.room_id.in_({room_id for room_id, _ in keys}), m.seq.in_({seq for _, seq in keys})
        )
    )
    texts = {(row.room_id, int(row.seq)): row.text for row in found if row.text}
    answer = {}
    for delivery_id, key in wanted.items():
        if key in texts:
            body = json.loads(payloads[delivery_id])
            body["data"]["text"] = texts[key]
            answer[delivery_id] = json.dumps(body, separators=(",", ":"), sort_keys=True)
    return answer


@dataclass(frozen=True)
class Pace:
    """How a dispatcher paces itself (tests give their own): ``sleep`` waits between passes, ``random`` is the
    backoff's jitter, ``max_tasks`` bounds the attempts in flight on one node, and :meth:`Dispatcher.close` waits up
    to ``close_seconds`` for them."""

    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep
    random: randoms.Random = field(default_factory=randoms.Random)
    max_tasks: int = MAX_TASKS
    close_seconds: float = CLOSE_SECONDS


class Dispatcher:
    """See the module docstring. ``clock``: its ``now()`` schedules (attempt times, backoff, claims; never the
    signature's timestamp); ``sender``: sends attempts (None: one with the settings' address policy), closed by
    :meth:`close`; ``unseal``: an endpoint's stored secret to its ``whsec_`` secret; ``node_id``: the claims' owner;
    ``pace``: how it waits, jitters and bounds its attempts (:class:`Pace`)."""

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        clock: Now,
        settings: WebhookSettings,
        sender: Sender | None = None,
        unseal: Callable[[str], str],
        telemetry: Telemetry | None = None,
        node_id: str = "",
        pace: Pace | None = None,
    ) -> None:
        self.engine = engine
        self.clock = clock
        self.settings = settings
        self.sender = sender if sender is not None else Sender(AddressPolicy(settings.allow))
        self.unseal = unseal
        self.node_id = node_id
        pace = pace or Pace()
        self.random = pace.random
        self.sleep = pace.sleep
        self.max_tasks = pace.max_tasks
        self.close_seconds = pace.close_seconds
        self._postgres = engine.dialect.name == "postgresql"
        self._tasks: set[asyncio.Task[None]] = set()
        self._local: dict[str, int] = {}  # endpoint -> its attempts in flight on this node
        self._limits: dict[str, int] = {}  # endpoint -> its max_in_flight, as last read
        self._saturated: set[str] = set()  # endpoints that had more due than they could take
        self._answers: list[tuple[Claim, Attempt]] = []  # attempts answered, their outcomes not yet written
        self._recorder: asyncio.Task[None] | None = None
        self._hurry = False  # the next pass is for room freed (at once), not for new deliveries (after PASS_GAP)
        self._passing = asyncio.Lock()
        self._woken = asyncio.Event()
        self._running: asyncio.Task[None] | None = None
        self._closing = False
        self._backlog: dict[str, int] = {}
        self._oldest: dict[str, float] = {}  # endpoint -> created_at of its oldest pending delivery
        self._snapshot_at = -math.inf  # (monotonic)
        self._pruned_at = -math.inf  # (monotonic)
        self._complained_at = -math.inf
        telemetry = telemetry if telemetry is not None else Telemetry()
        meter = telemetry.meter_provider.get_meter(SCOPE, VERSION)
        self._deliveries = meter.create_counter(
            "kickoff.webhook.deliveries",
            unit="{delivery}",
            description="Webhook attempts' outcomes by endpoint: delivered, failed (retried), dead, obsolete",
        )
        self._duration = meter.create_histogram(
            "kickoff.webhook.attempt_duration", unit="s", description="One webhook attempt, by endpoint and outcome"
        )
        meter.create_observable_gauge(
            "kickoff.webhook.backlog",
            callbacks=[self._observe_backlog],
            unit="{delivery}",
            description="Webhook deliveries waiting or under way, by endpoint",
        )
        meter.create_observable_gauge(
            "kickoff.webhook.oldest_age",
            callbacks=[self._observe_oldest],
            unit="s",
            description="Seconds since the oldest pending webhook delivery's event, by endpoint",
        )

    # -- passes ---------------------------------------------------------------------------------------------------

    async def step(self) -> int:
        """One pass (see the module docstring): claims what is due and starts sending it, without waiting for the
        sends (:meth:`settle` does); how many deliveries it claimed."""
        async with self._passing:
            now = self.clock.now()
            claimed = 0
            for endpoint_id in await self._due(now):
                if len(self._tasks) >= self.max_tasks:
                    break
                if self._local.get(endpoint_id, 0) >= self._limits.get(endpoint_id, math.inf):
                    self._saturated.add(endpoint_id)
                    continue
                try:
                    claims = await self._claim(endpoint_id, now)
                except Exception as error:  # (one endpoint's trouble keeps no other waiting)
                    self._complain("could not claim webhook deliveries", error)
                    continue
                for claim in claims:
                    self._launch(claim)
                    claimed += 1
            await self._chores()
            return claimed

    async def settle(self) -> None:
        """Wait until no attempt is in flight and every outcome is written (tests: after :meth:`step`)."""
        while self._tasks or (self._recorder is not None and not self._recorder.done()):
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
            if self._recorder is not None:
                await asyncio.gather(self._recorder, return_exceptions=True)

    @staticmethod
    def _due_rows(now: float) -> Any:
        d = WebhookDeliveryRow
        return or_(
            and_(d.status == PENDING, d.next_attempt_at <= now),
            and_(d.status == SENDING, d.claimed_until <= now),  # a claimer that died, or whose answer came too late
        )

    async def _due(self, now: float) -> list[str]:
        async with self.engine.connect() as connection:
            query = select(WebhookDeliveryRow.endpoint_id).where(self._due_rows(now)).distinct()
            return list((await connection.execute(query)).scalars())

    async def _claim(self, endpoint_id: str, now: float) -> list[Claim]:
        d, e = WebhookDeliveryRow, WebhookEndpointRow
        async with self.engine.begin() as connection:
            if self._postgres:  # the endpoint's claims are one node's at a time; a node that finds it taken moves on
                query = select(e).where(e.endpoint_id == endpoint_id).with_for_update(skip_locked=True)
                endpoint = (await connection.execute(query)).first()
            else:  # SQLite: writing first takes the store's write lock for the whole transaction
                touched = await connection.execute(
                    update(e).where(e.endpoint_id == endpoint_id).values(max_in_flight=e.max_in_flight)
                )
                endpoint = None
                if touched.rowcount:
                    endpoint = (await connection.execute(select(e).where(e.endpoint_id == endpoint_id))).first()
            if endpoint is None:  # taken by another node now, or removed
                return []
            self._limits[endpoint_id] = endpoint.max_in_flight
            busy = (
                await connection.execute(
                    select(func.count()).where(d.endpoint_id == endpoint_id, d.status == SENDING, d.claimed_until > now)
                )
            ).scalar_one()
            free = min(endpoint.max_in_flight - busy, self.max_tasks - len(self._tasks))
            if free <= 0:
                self._saturated.add(endpoint_id)
                return []
            wanted: list[str] = []
            while True:  # (reminders found obsolete take no place: look again for what else is due)
                need = free - len(wanted)
                due = (
                    await connection.execute(
                        select(d.delivery_id, d.condition)
                        .where(d.endpoint_id == endpoint_id, self._due_rows(now), d.delivery_id.not_in(wanted))
                        .order_by(d.next_attempt_at, d.created_at)
                        .limit(need + 1)  # (one more: whether some stay waiting)
                    )
                ).all()
                more = len(due) > need
                due = due[:need]
                obsolete = await self._obsolete(connection, [(row.delivery_id, row.condition) for row in due])
                if obsolete:
                    done = await connection.execute(
                        update(d)
                        .where(d.delivery_id.in_(obsolete), self._due_rows(now))
                        .values(status=OBSOLETE, finished_at=now, claimed_until=None)
                    )
                    if done.rowcount:
                        attributes = {"kickoff.endpoint": endpoint_id, "kickoff.outcome": OBSOLETE}
                        self._deliveries.add(done.rowcount, attributes)
                wanted += [row.delivery_id for row in due if row.delivery_id not in obsolete]
                if not (obsolete and more and len(wanted) < free):
                    break
            if more:
                self._saturated.add(endpoint_id)
            else:
                self._saturated.discard(endpoint_id)
            if not wanted:
                return []
            until = now + endpoint.timeout_seconds + CLAIM_MARGIN
            rows = (
                await connection.execute(
                    update(d)
                    .where(d.delivery_id.in_(wanted), self._due_rows(now))  # (a late answer may have come meanwhile)
                    .values(status=SENDING, claimed_by=self.node_id, claimed_until=until, attempts=d.attempts + 1)
                    .returning(d.delivery_id, d.payload, d.attempts, d.retry_from, d.event)
                )
            ).all()
            payloads = {row.delivery_id: row.payload for row in rows}
            if endpoint.chat_text:  # (its chat messages carry their text, as kept now)
                chats = {row.delivery_id: row.payload for row in rows if row.event == CHAT_MESSAGE}
                payloads.update(await with_text(connection, chats))
        return [
            Claim(
                row.delivery_id,
                endpoint_id,
                payloads[row.delivery_id],
                row.attempts,
                row.retry_from,
                until,
                endpoint.url,
                endpoint.secret,
                endpoint.timeout_seconds,
                endpoint.max_in_flight,
            )
            for row in rows
        ]

    async def _obsolete(self, connection: AsyncConnection, due: list[tuple[str, Any]]) -> set[str]:
        """The reminders among ``due`` whose condition no longer holds."""
        conditional = [(delivery_id, condition) for delivery_id, condition in due if condition]
        if not conditional:
            return set()
        rooms = {str(condition.get("room_id", "")) for _, condition in conditional if isinstance(condition, dict)}
        found = await connection.execute(select(RoomRow.room_id, RoomRow.turns).where(RoomRow.room_id.in_(rooms)))
        turns = {row.room_id: row.turns for row in found}
        return {
            delivery_id
            for delivery_id, condition in conditional
            if not (
                isinstance(condition, dict)
                and condition.get("room_id") in turns
                and condition_holds(condition, turns[condition["room_id"]])
            )
        }

    # -- attempts -------------------------------------------------------------------------------------------------

    def _launch(self, claim: Claim) -> None:
        task = asyncio.get_running_loop().create_task(self._attempt(claim), name=f"webhook {claim.delivery_id}")
        self._tasks.add(task)
        self._local[claim.endpoint_id] = self._local.get(claim.endpoint_id, 0) + 1

        def done(_: asyncio.Task[None]) -> None:
            self._tasks.discard(task)
            left = self._local.get(claim.endpoint_id, 1) - 1
            if left > 0:
                self._local[claim.endpoint_id] = left
            else:
                self._local.pop(claim.endpoint_id, None)

        task.add_done_callback(done)

    async def _send(
        self, url: str, sealed: str, delivery_id: str, payload: str, timeout: float, endpoint_id: str, connections: int
    ) -> Attempt:
        try:
            secret = self.unseal(sealed)
        except Exception:
            return Attempt(False, 0, "the signing secret could not be unsealed", 0.0)
        return await self.sender.send(
            url,
            secret=secret,
            delivery_id=delivery_id,
            payload=payload,
            timeout=timeout,
            pool=endpoint_id,
            connections=connections,
        )

    async def _attempt(self, claim: Claim) -> None:
        attempt = await self._send(
            claim.url,
            claim.secret,
            claim.delivery_id,
            claim.payload,
            claim.timeout,
            claim.endpoint_id,
            claim.max_in_flight,
        )
        outcome = DELIVERED if attempt.ok else "failed"
        self._duration.record(attempt.seconds, {"kickoff.endpoint": claim.endpoint_id, "kickoff.outcome": outcome})
        self._answers.append((claim, attempt))
        if self._recorder is None or self._recorder.done():
            self._recorder = asyncio.get_running_loop().create_task(self._record(), name="webhook outcomes")

    async def _record(self) -> None:
        """Write the attempts' outcomes that came meanwhile, many in one transaction (a delivery's attempt costs the
        store a share of one commit, not a commit of its own), until none is left; then a pass claims what the
        answered attempts made room for. It waits RECORD_LINGER first, or until every attempt in flight answered,
        so that the answers of one round of attempts share a transaction."""
        lingered = time.monotonic() + RECORD_LINGER
        while self._tasks and time.monotonic() < lingered:
            await asyncio.sleep(0.002)
        while self._answers:
            answers, self._answers = self._answers, []
            try:
                await self._finish(answers)
            except Exception as error:  # their claims run out and they are tried again: at least once
                self._complain("could not record webhook attempts", error)
        self._hurry = True  # (room for what waits: the next pass at once)
        self.wake()

    async def _finish(self, answers: list[tuple[Claim, Attempt]]) -> None:
        """Each attempt's outcome, written only where its row is still this claim (a late answer changes nothing):
        delivered; pending again after the backoff; or dead, past the retry window."""
        d = WebhookDeliveryRow
        now = self.clock.now()
        rows: dict[str, list[dict[str, Any]]] = {}
        for claim, attempt in answers:
            row = {
                "id": claim.delivery_id,
                "until": claim.claimed_until,
                "tries": claim.attempts,
                "code": attempt.status,
                "error": attempt.error[:ERROR_LENGTH],
                "due": now,
                "finished": now,
            }
            if attempt.ok:
                outcome = DELIVERED
            else:
                row["due"] = now + backoff(claim.attempts, self.random)
                outcome = DEAD if row["due"] > claim.retry_from + self.settings.retry_hours * 3600.0 else PENDING
                if outcome == PENDING:
                    row["finished"] = None
            rows.setdefault(f"{claim.endpoint_id} {outcome}", []).append(row)
        async with self.engine.begin() as connection:
            recorded = {}
            for key, group in rows.items():
                status = key.rsplit(" ", 1)[1]
                done = await connection.execute(
                    update(d)
                    .where(
                        d.delivery_id == bindparam("id"),
                        d.status == SENDING,
                        d.claimed_by == self.node_id,
                        d.claimed_until == bindparam("until"),
                        d.attempts == bindparam("tries"),
                    )
                    .values(
                        status=status,
                        claimed_until=None,
                        last_status=bindparam("code"),
                        last_error=bindparam("error"),
                        next_attempt_at=bindparam("due"),
                        finished_at=bindparam("finished"),
                    )
                    .execution_options(synchronize_session=False),
                    group,
                )
                recorded[key] = done.rowcount if done.rowcount >= 0 else len(group)
        for key, count in recorded.items():
            endpoint_id, status = key.rsplit(" ", 1)
            if count:
                outcome = "failed" if status == PENDING else status
                self._deliveries.add(count, {"kickoff.endpoint": endpoint_id, "kickoff.outcome": outcome})
            if count < len(rows[key]):  # claimed again meanwhile (answered after the claim ended), or removed
                log.info("%d webhook attempts answered after their claims ended", len(rows[key]) - count)

    async def test(self, endpoint_id: str) -> tuple[str, Attempt]:
        """Send the endpoint a signed ``webhook.test`` event now, not stored; its webhook-id and how it went.
        EndpointNotFound for an unknown endpoint."""
        e = WebhookEndpointRow
        async with self.engine.connect() as connection:
            endpoint = (await connection.execute(select(e).where(e.endpoint_id == endpoint_id))).first()
        if endpoint is None:
            raise EndpointNotFound("no such webhook endpoint", field="endpoint_id")
        delivery_id = new_delivery_id()
        body = {"type": TEST, "timestamp": timestamp(self.clock.now()), "data": {"endpoint_id": endpoint_id}}
        payload = json.dumps(body, separators=(",", ":"), sort_keys=True)
        attempt = await self._send(
            endpoint.url,
            endpoint.secret,
            delivery_id,
            payload,
            endpoint.timeout_seconds,
            endpoint_id,
            endpoint.max_in_flight,
        )
        return delivery_id, attempt

    # -- running --------------------------------------------------------------------------------------------------

    def start(self) -> None:
        """Run a pass every ``poll_seconds`` (and at once when woken) until :meth:`close`."""
        if self._running is None:
            self._closing = False
            self._running = asyncio.get_running_loop().create_task(self._run(), name="webhook dispatcher")

    def wake(self) -> None:
        """Make the next pass happen at once (deliveries were written, or room for more came)."""
        self._woken.set()

    async def _run(self) -> None:
        while not self._closing:
            self._woken.clear()
            self._hurry = False
            passed = time.monotonic()
            try:
                await self.step()
            except Exception as error:  # the store is away: the next pass may do
                self._complain("a webhook pass failed", error)
            if self._closing:
                break
            await self._pause()
            if not self._hurry:  # (woken by new deliveries, not by room freed for those waiting)
                # A pass woken early waits PASS_GAP after the one before, so that what many lines wrote meanwhile
                # is claimed, sent and recorded together rather than a pass and two transactions a delivery.
                await asyncio.sleep(max(0.0, passed + PASS_GAP - time.monotonic()))

    def _complain(self, what: str, error: Exception) -> None:
        """Log a failure of the store (at most once a minute: a store that is away fails every pass)."""
        if time.monotonic() - self._complained_at > 60.0:
            self._complained_at = time.monotonic()
            log.warning("%s: %s", what, type(error).__name__)

    async def _pause(self) -> None:
        if self._woken.is_set():
            return
        sleeping = asyncio.ensure_future(self.sleep(self.settings.poll_seconds))
        woken = asyncio.ensure_future(self._woken.wait())
        try:
            await asyncio.wait({sleeping, woken}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sleeping, woken):
                task.cancel()
            await asyncio.gather(sleeping, woken, return_exceptions=True)

    async def close(self) -> None:
        """Stop passing, wait for the attempts in flight (at most ``close_seconds``; those still going then are
        cancelled: their claims run out and they are sent again), and close the sender."""
        self._closing = True
        self.wake()
        running, self._running = self._running, None
        if running is not None:
            try:
                await asyncio.wait_for(asyncio.shield(running), timeout=5.0)
            except TimeoutError:
                running.cancel()
            await asyncio.gather(running, return_exceptions=True)
        if self._tasks:
            _, late = await asyncio.wait(set(self._tasks), timeout=self.close_seconds)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        if self._recorder is not None:  # (the outcomes of what was answered)
            await asyncio.gather(self._recorder, return_exceptions=True)
        await self.sender.aclose()

    # -- the backlog snapshot, the gauges, pruning ----------------------------------------------------------------

    def backlog(self) -> dict[str, int]:
        """Each endpoint's deliveries pending or sending, as the last snapshot counted them."""
        return dict(self._backlog)

    async def refresh(self) -> dict[str, int]:
        """Count the backlog again now (a pass does, at most every SNAPSHOT_SECONDS); the counts."""
        d = WebhookDeliveryRow
        async with self.engine.connect() as connection:
            endpoints = (await connection.execute(select(WebhookEndpointRow.endpoint_id))).scalars().all()
            counts = (
                await connection.execute(
                    select(d.endpoint_id, d.status, func.count(), func.min(d.created_at))
                    .where(d.status.in_((PENDING, SENDING)))
                    .group_by(d.endpoint_id, d.status)
                )
            ).all()
        backlog = dict.fromkeys(endpoints, 0)
        oldest: dict[str, float] = {}
        for endpoint_id, status, count, first in counts:
            backlog[endpoint_id] = backlog.get(endpoint_id, 0) + count
            if status == PENDING and first is not None:
                oldest[endpoint_id] = first
        self._backlog, self._oldest = backlog, oldest
        self._snapshot_at = time.monotonic()
        return dict(backlog)

    async def prune(self) -> int:
        """Delete delivered and obsolete deliveries older than keep_days, and dead ones older than DEAD_KEEP_DAYS
        (at most PRUNE_BATCH); how many."""
        d = WebhookDeliveryRow
        now = self.clock.now()
        old = (
            select(d.delivery_id)
            .where(
                or_(
                    and_(d.status.in_((DELIVERED, OBSOLETE)), d.finished_at < now - self.settings.keep_days * 86400.0),
                    and_(d.status == DEAD, d.finished_at < now - DEAD_KEEP_DAYS * 86400.0),
                )
            )
            .limit(PRUNE_BATCH)
        )
        async with self.engine.begin() as connection:
            done = await connection.execute(delete(d).where(d.delivery_id.in_(old)))
        self._pruned_at = time.monotonic()
        return done.rowcount

    async def _chores(self) -> None:
        try:
            if time.monotonic() - self._snapshot_at >= SNAPSHOT_SECONDS:
                await self.refresh()
            if time.monotonic() - self._pruned_at >= PRUNE_SECONDS:
                await self.prune()
        except Exception as error:  # the next pass tries again
            self._complain("could not count or prune webhook deliveries", error)

    def _observe_backlog(self, options: CallbackOptions) -> Iterable[Observation]:
        for endpoint_id, count in self._backlog.items():
            yield Observation(count, {"kickoff.endpoint": endpoint_id})

    def _observe_oldest(self, options: CallbackOptions) -> Iterable[Observation]:
        now = self.clock.now()
        for endpoint_id in self._backlog:
            first = self._oldest.get(endpoint_id)
            yield Observation(0.0 if first is None else max(0.0, now - first), {"kickoff.endpoint": endpoint_id})
