"""The outbox: every event an endpoint wants becomes a delivery row, written in the transaction of the change that
caused it (a room's line, a tournament's, a table the matchmaker found), so a crash either keeps the change and its
deliveries or neither: none is lost, none invented. The dispatcher (dispatcher.py) sends what is written.

Which endpoints want what is read from the store and kept here, read again every ``REFRESH_SECONDS`` on each node
and at once on the node that changed an endpoint: an endpoint registered on one node gets the events of every node
within that time. With no endpoint at all, a line costs nothing more than the check that there is none, and that it
causes no inbox item (service/inbox: every event that names a player is an item of theirs, written here in the same
transaction).

An endpoint whose backlog (as the dispatcher last counted it) is full gets its new deliveries as dead letters at
once: they are kept, to send again, but a dead receiver cannot make the outbox grow without bound.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from service.settings import WebhookSettings
from service.store.models import WebhookDeliveryRow, WebhookEndpointRow
from service.webhooks.events import Event, inboxed, room_events, tournament_events

log = logging.getLogger(__name__)

REFRESH_SECONDS = 5.0
PENDING, DEAD = "pending", "dead"


def delivery_id() -> str:
    """A webhook-id: unique per delivery, the same on every attempt of it (receivers drop repeats by it)."""
    return "msg_" + secrets.token_hex(16)


class Outbox:
    """See the module docstring. ``now``: the clock's; ``backlog``: each endpoint's deliveries waiting (the
    dispatcher's count); ``written``: called once deliveries were added (the dispatcher looks soon)."""

    def __init__(
        self,
        engine: AsyncEngine,
        settings: WebhookSettings,
        *,
        now: Callable[[], float],
        backlog: Callable[[], dict[str, int]] = dict,
        written: Callable[[], None] = lambda: None,
        inbox: Any = None,
    ) -> None:
        self.engine = engine
        self.settings = settings
        self.now = now
        self.backlog = backlog
        self.written = written
        # the players' inboxes (service/inbox): every event that names a player is also an item of theirs, written
        # here in the same transaction, whether or not any endpoint wants it (None: no inbox)
        self.inbox = inbox
        self.wanted: dict[str, tuple[str, ...]] = {}  # event type -> the endpoints that want it
        self._refreshing: asyncio.Task[None] | None = None

    async def refresh(self) -> None:
        """Read the endpoints again (after a change here, and every REFRESH_SECONDS)."""
        async with self.engine.connect() as connection:
            rows = (await connection.execute(select(WebhookEndpointRow.endpoint_id, WebhookEndpointRow.events))).all()
        wanted: dict[str, list[str]] = {}
        for endpoint_id, events in rows:
            for event in events:
                wanted.setdefault(event, []).append(endpoint_id)
        self.wanted = {event: tuple(ids) for event, ids in wanted.items()}

    def start(self) -> None:
        if self._refreshing is None:
            self._refreshing = asyncio.get_running_loop().create_task(self._refresh_forever(), name="webhook endpoints")

    async def _refresh_forever(self) -> None:
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            try:
                await self.refresh()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the store is away: the endpoints known stay, the next read may do
                log.warning("could not read the webhook endpoints: %s", type(error).__name__)

    def close(self) -> None:
        if self._refreshing is not None:
            self._refreshing.cancel()
            self._refreshing = None

    # -- writing, in the caller's transaction ---------------------------------------------------------------------

    async def lines(self, connection: Any, lines: list[tuple[str, Any, str]]) -> None:
        """The journal's hook: the events of a group's lines (rooms' and tournaments'). With no endpoint, only lines
        that cause an inbox item are looked at (a live game's move costs the check that it causes none)."""
        if not self.wanted and (self.inbox is None or not any(inboxed(kind, entry) for kind, entry, _ in lines)):
            return
        events: list[Event] = []
        for kind, entry, _ in lines:
            if kind == "room":
                events += room_events(entry, reminder_seconds=self.settings.reminder_seconds)
            elif kind == "tournament":
                events += tournament_events(entry)
        await self.write(connection, events)

    async def write(self, connection: Any, events: Sequence[Event]) -> int:
        """A delivery for each endpoint that wants each event, in ``connection``'s transaction; how many. Each event
        that names a player is an item of their inbox too, in the same transaction."""
        if self.inbox is not None and events:
            await self.inbox.write(connection, events)
        wanted = self.wanted
        if not wanted or not events:
            return 0
        backlog = self.backlog()
        full = self.settings.backlog
        now = self.now()
        rows = []
        for event in events:
            body = json.dumps(event.body(), separators=(",", ":"), sort_keys=True)
            for endpoint_id in wanted.get(event.type, ()):
                dead = backlog.get(endpoint_id, 0) >= full
                rows.append(
                    {
                        "delivery_id": delivery_id(),
                        "endpoint_id": endpoint_id,
                        "event": event.type,
                        "payload": body,
                        "created_at": event.time,
                        "retry_from": event.due if event.due is not None else now,
                        "next_attempt_at": event.due if event.due is not None else now,
                        "attempts": 0,
                        "status": DEAD if dead else PENDING,
                        "last_error": "the endpoint's backlog was full" if dead else "",
                        "finished_at": now if dead else None,
                        "condition": dict(event.condition) if event.condition is not None else None,
                    }
                )
        if rows:
            await connection.execute(insert(WebhookDeliveryRow), rows)
            asyncio.get_running_loop().call_soon(self.written)  # (the dispatcher looks after this commit)
        return len(rows)
