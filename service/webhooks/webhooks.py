"""Webhooks as the server runs them: the operator key that guards their admin API, the endpoints' store, the outbox
that writes deliveries in the transactions of what causes them, and the dispatcher that sends them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from service.errors import InvalidRequest
from service.operators.keys import OperatorKeys
from service.settings import WebhookSettings
from service.telemetry import Telemetry
from service.webhooks.addresses import AddressPolicy, AddressRefused, check_url
from service.webhooks.dispatcher import Dispatcher
from service.webhooks.outbox import Outbox
from service.webhooks.secrets import Sealer
from service.webhooks.sender import Attempt, Sender
from service.webhooks.store import Endpoint, WebhookStore


class Webhooks:
    """See the module docstring. Built by :meth:`open`; ``start`` and ``close`` run its tasks."""

    def __init__(
        self,
        store: WebhookStore,
        outbox: Outbox,
        dispatcher: Dispatcher,
        operator: OperatorKeys,
    ) -> None:
        self.store = store
        self.outbox = outbox
        self.dispatcher = dispatcher
        self.operator = operator

    @classmethod
    async def open(
        cls,
        engine: AsyncEngine,
        settings: WebhookSettings,
        *,
        clock: Any,
        telemetry: Telemetry | None = None,
        node_id: str = "",
        sender: Sender | None = None,
        operator_keys: OperatorKeys | None = None,
        inbox: Any = None,
        sealer: Sealer | None = None,
    ) -> Webhooks:
        """``operator_keys``: the keys of the operator APIs (default: KICKOFF_OPERATOR_KEY's alone): the webhooks' admin
        API takes the same keys, checked the same way, as OperatorService. ``inbox``: the players' inboxes, which the
        outbox writes an item to for every event that names a player (service/inbox)."""
        policy = AddressPolicy(settings.allow)
        sealer = sealer or await Sealer.for_store(engine, settings.secrets_key)
        sender = sender or Sender(policy)
        dispatcher = Dispatcher(
            engine,
            clock=clock,
            settings=settings,
            sender=sender,
            unseal=sealer.open,
            telemetry=telemetry or Telemetry(),
            node_id=node_id,
        )
        outbox = Outbox(
            engine, settings, now=clock.now, backlog=dispatcher.backlog, written=dispatcher.wake, inbox=inbox
        )

        async def vet(url: str) -> None:
            try:
                parts = check_url(url, policy)
                await policy.resolve(parts.host, parts.port)
            except AddressRefused as error:
                raise InvalidRequest(str(error), code=error.code, field="url") from None

        store = WebhookStore(engine, sealer, vet, clock.now)
        await outbox.refresh()
        operator = operator_keys if operator_keys is not None else OperatorKeys.from_settings((), settings.operator_key)
        return cls(store, outbox, dispatcher, operator)

    def start(self) -> None:
        self.outbox.start()
        self.dispatcher.start()

    async def close(self) -> None:
        self.outbox.close()
        await self.dispatcher.close()

    # -- the admin API's calls ------------------------------------------------------------------------------------

    async def add(self, url: str, events: Sequence[str], **options: Any) -> tuple[Endpoint, str]:
        endpoint, secret = await self.store.add(url, events, **options)
        await self.outbox.refresh()
        return endpoint, secret

    async def remove(self, endpoint_id: str) -> None:
        await self.store.remove(endpoint_id)
        await self.outbox.refresh()

    async def test(self, endpoint_id: str) -> tuple[str, Attempt]:
        await self.store.get(endpoint_id)
        return await self.dispatcher.test(endpoint_id)

    async def redeliver(self, endpoint_id: str, delivery_ids: Sequence[str]) -> int:
        count = await self.store.redeliver(endpoint_id, delivery_ids)
        if count:
            self.dispatcher.wake()
        return count
