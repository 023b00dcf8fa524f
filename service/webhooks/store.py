"""The operators' side of webhooks in the store: endpoints registered, listed and removed; deliveries listed (the
dead-letter list is those DEAD) and dead ones sent again.

An endpoint's URL is checked when it is registered (http or https, and a host that neither is nor resolves to an
address the server refuses: service/webhooks/addresses.py); the dispatcher checks it again on every attempt, after
resolving it, since what a name resolves to can change.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from service.actors.requests import RequestKey, reused
from service.errors import EndpointNotFound, InvalidRequest
from service.store.models import WebhookDeliveryRow, WebhookEndpointRow
from service.webhooks.events import TYPES
from service.webhooks.secrets import Sealer, check_secret, hint, new_secret

DEFAULT_IN_FLIGHT, MOST_IN_FLIGHT = 4, 32
DEFAULT_TIMEOUT, MOST_TIMEOUT = 10.0, 30.0
MAX_ENDPOINTS = 100  # endpoints a server keeps (each is looked at on every line that causes its events)
STATUSES = ("pending", "sending", "delivered", "dead", "obsolete")


@dataclass(frozen=True)
class Endpoint:
    endpoint_id: str
    url: str
    events: tuple[str, ...]
    description: str
    max_in_flight: int
    timeout_seconds: float
    created_at: float
    secret_hint: str
    backlog: int = 0
    dead: int = 0
    chat_text: bool = False  # its chat.message deliveries carry the message's text (read at delivery)


def _endpoint(row: Any, backlog: int = 0, dead: int = 0) -> Endpoint:
    return Endpoint(
        row.endpoint_id,
        row.url,
        tuple(row.events),
        row.description,
        row.max_in_flight,
        row.timeout_seconds,
        row.created_at,
        row.secret_hint,
        backlog,
        dead,
        bool(row.chat_text),
    )


class WebhookStore:
    """Endpoints and deliveries in the database behind ``engine``; ``vet`` checks a URL (raises InvalidRequest
    bad_url or address_refused), ``sealer`` keeps the secrets sealed, ``now`` is the clock's."""

    def __init__(self, engine: AsyncEngine, sealer: Sealer, vet: Any, now: Any) -> None:
        self.engine = engine
        self.sealer = sealer
        self.vet = vet
        self.now = now

    async def add(
        self,
        url: str,
        events: Sequence[str],
        *,
        secret: str = "",
        description: str = "",
        max_in_flight: int = 0,
        timeout_seconds: float = 0.0,
        chat_text: bool = False,
        request: RequestKey | None = None,
    ) -> tuple[Endpoint, str]:
        """Register an endpoint; returns it with its secret (shown only now, and to a retry). With a request id
        (``request``), the endpoint that id registered already is the answer, with its secret unsealed: the operator
        who sends the id again holds the operator key as the first call did, and the first answer, lost, was the only
        one that showed the secret (a registered endpoint whose secret nobody has could not be checked by any
        receiver). PreconditionFailed (request_id_reused) when another request registered it. Checked first, so a
        retry is never too_many_endpoints; two calls racing with one id register one endpoint (the unique key).
        ``chat_text``: the endpoint's ``chat.message`` deliveries carry the message's text."""
        if request is not None:
            async with self.engine.connect() as connection:
                found = await self._requested(connection, request)
            if found is not None:
                return found
        if not events:
            raise InvalidRequest("name at least one event the endpoint wants", code="no_events", field="events")
        unknown = [event for event in events if event not in TYPES]
        if unknown:
            known = ", ".join(sorted(TYPES))
            raise InvalidRequest(f"no such event (known: {known})", code="bad_event", field="events")
        if not 0 <= max_in_flight <= MOST_IN_FLIGHT:
            raise InvalidRequest(
                f"max_in_flight must be 0-{MOST_IN_FLIGHT}", code="bad_in_flight", field="max_in_flight"
            )
        if not 0 <= timeout_seconds <= MOST_TIMEOUT:
            raise InvalidRequest(
                f"timeout_seconds must be 0-{MOST_TIMEOUT:g}", code="bad_timeout", field="timeout_seconds"
            )
        await self.vet(url)
        secret = check_secret(secret) if secret else new_secret()
        row = {
            "endpoint_id": "we_" + secrets.token_hex(8),
            "url": url,
            "events": [event for event in TYPES if event in events],  # (in one order: TYPES')
            "description": description,
            "secret": self.sealer.seal(secret),
            "secret_hint": hint(secret),
            "max_in_flight": max_in_flight or DEFAULT_IN_FLIGHT,
            "timeout_seconds": timeout_seconds or DEFAULT_TIMEOUT,
            "created_at": self.now(),
            "chat_text": chat_text,
            "request_key": request.key if request else None,
            "request_hash": request.parameters if request else None,
        }
        try:
            async with self.engine.begin() as connection:
                count = (await connection.execute(select(func.count()).select_from(WebhookEndpointRow))).scalar_one()
                if count >= MAX_ENDPOINTS:
                    raise InvalidRequest(
                        f"the server keeps at most {MAX_ENDPOINTS} endpoints: remove one first",
                        code="too_many_endpoints",
                    )
                await connection.execute(insert(WebhookEndpointRow), [row])
        except IntegrityError:
            if request is None:
                raise
            async with self.engine.connect() as connection:  # (another call with the id registered it meanwhile)
                found = await self._requested(connection, request)
            if found is None:
                raise
            return found
        endpoint = Endpoint(
            row["endpoint_id"],
            url,
            tuple(row["events"]),
            description,
            row["max_in_flight"],
            row["timeout_seconds"],
            row["created_at"],
            row["secret_hint"],
            chat_text=chat_text,
        )
        return endpoint, secret

    async def _requested(self, connection: AsyncConnection, request: RequestKey) -> tuple[Endpoint, str] | None:
        """The endpoint ``request``'s id registered, with its secret, or None; PreconditionFailed (request_id_reused)
        when another request registered it."""
        query = select(WebhookEndpointRow).where(WebhookEndpointRow.request_key == request.key)
        row = (await connection.execute(query)).first()
        if row is None:
            return None
        if row.request_hash != request.parameters:
            raise reused("another URL, events, secret, description or limits")
        return _endpoint(row), self.sealer.open(row.secret)

    async def list(self) -> list[Endpoint]:
        """Every endpoint, oldest first, with its backlog (pending and sending) and its dead letters."""
        async with self.engine.connect() as connection:
            rows = (await connection.execute(select(WebhookEndpointRow).order_by(WebhookEndpointRow.created_at))).all()
            counts = (
                await connection.execute(
                    select(WebhookDeliveryRow.endpoint_id, WebhookDeliveryRow.status, func.count())
                    .where(WebhookDeliveryRow.status.in_(("pending", "sending", "dead")))
                    .group_by(WebhookDeliveryRow.endpoint_id, WebhookDeliveryRow.status)
                )
            ).all()
        backlog: dict[str, int] = {}
        dead: dict[str, int] = {}
        for endpoint_id, status, count in counts:
            into = dead if status == "dead" else backlog
            into[endpoint_id] = into.get(endpoint_id, 0) + count
        return [_endpoint(row, backlog.get(row.endpoint_id, 0), dead.get(row.endpoint_id, 0)) for row in rows]

    async def get(self, endpoint_id: str) -> Any:
        """An endpoint's row (its sealed secret included), or EndpointNotFound."""
        async with self.engine.connect() as connection:
            row = (
                await connection.execute(
                    select(WebhookEndpointRow).where(WebhookEndpointRow.endpoint_id == endpoint_id)
                )
            ).first()
        if row is None:
            raise EndpointNotFound("no such webhook endpoint", field="endpoint_id")
        return row

    async def remove(self, endpoint_id: str) -> None:
        """Remove an endpoint and every delivery of it."""
        async with self.engine.begin() as connection:
            gone = await connection.execute(
                delete(WebhookEndpointRow).where(WebhookEndpointRow.endpoint_id == endpoint_id)
            )
            if not gone.rowcount:
                raise EndpointNotFound("no such webhook endpoint", field="endpoint_id")
            await connection.execute(delete(WebhookDeliveryRow).where(WebhookDeliveryRow.endpoint_id == endpoint_id))

    async def deliveries(
        self, *, endpoint_id: str = "", status: str = "", size: int = 50, after: str = ""
    ) -> tuple[list[Any], str]:
        """Deliveries newest first (an endpoint's, in one status, when given); a page and the next page's token."""
        query = select(WebhookDeliveryRow)
        if endpoint_id:
            query = query.where(WebhookDeliveryRow.endpoint_id == endpoint_id)
        if status:
            query = query.where(WebhookDeliveryRow.status == status)
        async with self.engine.connect() as connection:
            if after:
                anchor = (
                    await connection.execute(
                        select(WebhookDeliveryRow.created_at).where(WebhookDeliveryRow.delivery_id == after)
                    )
                ).scalar()
                if anchor is None:
                    raise InvalidRequest(
                        "page_token is not one this server gave", code="bad_page_token", field="page_token"
                    )
                query = query.where(
                    or_(
                        WebhookDeliveryRow.created_at < anchor,
                        and_(WebhookDeliveryRow.created_at == anchor, WebhookDeliveryRow.delivery_id < after),
                    )
                )
            query = query.order_by(WebhookDeliveryRow.created_at.desc(), WebhookDeliveryRow.delivery_id.desc())
            rows = (await connection.execute(query.limit(size + 1))).all()
        return rows[:size], rows[size - 1].delivery_id if len(rows) > size else ""

    async def redeliver(self, endpoint_id: str, delivery_ids: Sequence[str] = ()) -> int:
        """Put dead deliveries of an endpoint back in the outbox, due now, with their own webhook-ids, retried on the
        whole schedule again; how many."""
        await self.get(endpoint_id)
        now = self.now()
        query = update(WebhookDeliveryRow).where(
            WebhookDeliveryRow.endpoint_id == endpoint_id, WebhookDeliveryRow.status == "dead"
        )
        if delivery_ids:
            query = query.where(WebhookDeliveryRow.delivery_id.in_(list(delivery_ids)))
        async with self.engine.begin() as connection:
            done = await connection.execute(
                query.values(
                    status="pending",
                    retry_from=now,
                    next_attempt_at=now,
                    attempts=0,
                    finished_at=None,
                    claimed_until=None,
                )
            )
        return done.rowcount
