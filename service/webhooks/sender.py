"""One attempt at a delivery: a POST of its body, signed as the Standard Webhooks specification says, to a vetted
address, within the endpoint's timeout.

Headers: ``webhook-id`` (the delivery's id, the same on every attempt, so receivers drop repeats),
``webhook-timestamp`` (the wall-clock time of this attempt, ``time.time()``: receivers refuse a signature more than
five minutes from their own clock, so never the scheduling clock that tests move), ``webhook-signature``
(``v1,<base64 HMAC-SHA256 of id.timestamp.body>``, made by the ``standardwebhooks`` library), ``content-type:
application/json`` and ``user-agent: kickoff-webhooks/1``.

The connection is made by :class:`VettedBackend`, an httpcore network backend that resolves the host itself,
checks every address it resolves to with the :class:`~service.webhooks.addresses.AddressPolicy`, and connects to a
checked address, so a name that resolves somewhere else between the check and the connection (DNS rebinding) cannot
reach a refused address; TLS still verifies the certificate against the URL's host name (httpcore passes it as
``server_hostname``). Redirects are never followed (httpcore follows none): a 3xx is a failure. The whole attempt,
lookup, connection, request and answer, has the endpoint's timeout. At most :data:`MAX_BODY` bytes of the answer are
read, and none is logged or kept. An attempt's ``error`` is a short reason that never holds the secret or the body.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import ssl
import time
import typing
from collections import OrderedDict
from dataclasses import dataclass

import certifi
import httpcore
from httpcore import AsyncNetworkBackend, AsyncNetworkStream
from standardwebhooks import Webhook

from service.webhooks.addresses import UNRESOLVED, AddressPolicy, AddressRefused, Target, check_url

log = logging.getLogger(__name__)

USER_AGENT = "kickoff-webhooks/1"
MAX_BODY = 4096  # bytes of an answer read (the rest is dropped with the connection)
MAX_POOLS = 256  # connection pools kept (one per endpoint)
KEEPALIVE_SECONDS = 30.0  # an idle connection to a receiver is kept this long


@dataclass(frozen=True)
class Attempt:
    """How one attempt went: ``ok`` (a 2xx answer), the HTTP ``status`` (0: no answer), a short ``error`` ("" when
    ok: "timeout", "refused address 127.0.0.1 (loopback)", "connection refused", "HTTP 500"...) and how many
    ``seconds`` it took."""

    ok: bool
    status: int
    error: str
    seconds: float


class VettedBackend(AsyncNetworkBackend):
    """httpcore's network backend (``inner``: AnyIO's) that connects only to addresses ``policy`` lets through,
    resolving the host itself right before connecting (see the module docstring)."""

    def __init__(self, policy: AddressPolicy, inner: AsyncNetworkBackend | None = None) -> None:
        self.policy = policy
        self.inner = inner if inner is not None else httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: typing.Iterable[typing.Any] | None = None,
    ) -> AsyncNetworkStream:
        addresses = await self.policy.resolve(host, port)  # AddressRefused, before any connection
        failure: Exception | None = None
        for address in addresses:  # each address is tried in turn, as a client does
            try:
                return await self.inner.connect_tcp(
                    str(address), port, timeout=timeout, local_address=local_address, socket_options=socket_options
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as error:
                failure = error
        assert failure is not None  # (resolve returns at least one address)
        raise failure

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: typing.Iterable[typing.Any] | None = None
    ) -> AsyncNetworkStream:
        raise httpcore.ConnectError("webhooks are sent over TCP only")

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


class _Pool:
    """One endpoint's connections kept open between attempts: at most ``size`` (its max_in_flight), the most
    recently used taken first. (httpcore's own pool looks at every connection it holds, socket and all, on every
    request; an attempt here looks only at the one it takes.)"""

    __slots__ = ("idle", "size", "slots", "users")

    def __init__(self, size: int) -> None:
        self.idle: list[httpcore.AsyncHTTPConnection] = []
        self.size = size
        self.slots = asyncio.Semaphore(size)  # (attempts at once: the dispatcher's bound, kept here too)
        self.users = 0

    async def aclose(self) -> None:
        idle, self.idle = self.idle, []
        for connection in idle:
            await connection.aclose()


def _chain(error: BaseException) -> typing.Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def reason(error: BaseException) -> str:
    """A short reason for a failed attempt (never the error's own text, which could hold anything)."""
    if isinstance(error, AddressRefused):
        if error.code == UNRESOLVED:
            return "host does not resolve"
        if error.address is not None:
            return f"refused address {error.address} ({error.why})"
        return "refused URL"
    if isinstance(error, TimeoutError | httpcore.TimeoutException):
        return "timeout"
    causes = list(_chain(error))
    if any(isinstance(cause, ssl.SSLCertVerificationError) for cause in causes):
        return "TLS certificate not valid for the host"
    if any(isinstance(cause, ssl.SSLError) for cause in causes):
        return "TLS failed"
    if isinstance(error, httpcore.ConnectError):
        if any(isinstance(cause, ConnectionRefusedError) for cause in causes):
            return "connection refused"
        return "connection failed"
    if isinstance(error, httpcore.ReadError | httpcore.WriteError):
        return "connection lost"
    if isinstance(error, httpcore.RemoteProtocolError):
        return "no valid HTTP answer"
    if isinstance(error, httpcore.UnsupportedProtocol):
        return "refused URL"
    return f"failed ({type(error).__name__})"


def signed_headers(target: Target, secret: str, delivery_id: str, payload: str, sent_at: int) -> list[tuple[str, str]]:
    """The request's headers, signed for ``sent_at`` (whole seconds since the epoch)."""
    moment = datetime.datetime.fromtimestamp(sent_at, datetime.UTC)
    signature = Webhook(secret).sign(delivery_id, moment, payload)
    return [
        ("Host", target.authority),
        ("content-type", "application/json"),
        ("user-agent", USER_AGENT),
        ("webhook-id", delivery_id),
        ("webhook-timestamp", str(sent_at)),
        ("webhook-signature", signature),
    ]


class Sender:
    """Sends attempts through a bounded connection pool per endpoint (``pool``: its key; ``connections``: its size,
    the endpoint's max_in_flight). ``ssl_context`` None: httpcore's default (certifi's authorities, host names
    verified), made once. ``aclose`` closes the pools; a send after it opens new ones."""

    def __init__(
        self,
        policy: AddressPolicy | None = None,
        *,
        ssl_context: ssl.SSLContext | None = None,
        max_body: int = MAX_BODY,
        max_pools: int = MAX_POOLS,
        backend: AsyncNetworkBackend | None = None,
    ) -> None:
        self.policy = policy if policy is not None else AddressPolicy()
        if ssl_context is None:  # httpcore's default, made once (httpcore would load the authorities per connection)
            ssl_context = ssl.create_default_context()
            ssl_context.load_verify_locations(certifi.where())
        self.ssl_context = ssl_context
        self.max_body = max_body
        self.max_pools = max_pools
        self.backend = backend if backend is not None else VettedBackend(self.policy)
        self._pools: OrderedDict[str, _Pool] = OrderedDict()

    async def send(
        self,
        url: str,
        *,
        secret: str,
        delivery_id: str,
        payload: str,
        timeout: float,
        pool: str = "",
        connections: int = 4,
    ) -> Attempt:
        """One attempt (see the module docstring); never raises but for cancellation."""
        started = time.monotonic()

        def failed(error: str, status: int = 0) -> Attempt:
            return Attempt(False, status, error, time.monotonic() - started)

        try:
            target = check_url(url, self.policy)
        except AddressRefused as error:
            return failed(reason(error))
        try:
            headers = signed_headers(target, secret, delivery_id, payload, int(time.time()))
        except Exception:  # (its text could show the secret)
            return failed("the signing secret is not valid")
        request_url = httpcore.URL(
            scheme=target.scheme.encode(), host=target.host.encode(), port=target.port, target=target.target.encode()
        )
        extensions = {"timeout": {"connect": timeout, "read": timeout, "write": timeout, "pool": timeout}}
        held = await self._take(pool, connections)
        connection: httpcore.AsyncHTTPConnection | None = None
        try:
            async with asyncio.timeout(timeout), held.slots:
                connection = await self._connection(held, request_url.origin)
                async with connection.stream(
                    b"POST", request_url, headers=headers, content=payload.encode(), extensions=extensions
                ) as response:
                    status = response.status
                    read = 0
                    async with contextlib.aclosing(response.aiter_stream()) as chunks:
                        async for chunk in chunks:  # (a little of the answer, so a short one keeps the connection)
                            read += len(chunk)
                            if read >= self.max_body:
                                break
        except Exception as error:
            why = reason(error)
            log.debug("webhook %s: %s", delivery_id, why)
            return failed(why)
        finally:
            held.users -= 1
            if connection is not None:
                await self._put_back(held, connection)
        if 200 <= status < 300:
            return Attempt(True, status, "", time.monotonic() - started)
        if 300 <= status < 400:
            return failed(f"HTTP {status} (redirects are not followed)", status)
        return failed(f"HTTP {status}", status)

    async def _take(self, key: str, size: int) -> _Pool:
        size = max(1, size)
        held = self._pools.get(key)
        if held is not None and held.size != size and held.users == 0:
            del self._pools[key]
            await held.aclose()
            held = None
        if held is None:
            held = self._pools[key] = _Pool(size)
        self._pools.move_to_end(key)
        held.users += 1
        if len(self._pools) > self.max_pools:  # the least recently used pools nobody uses now go
            idle = [name for name, other in self._pools.items() if other.users == 0]
            for name in idle[: len(self._pools) - self.max_pools]:
                await self._pools.pop(name).aclose()
        return held

    async def _connection(self, held: _Pool, origin: httpcore.Origin) -> httpcore.AsyncHTTPConnection:
        """An idle connection of the endpoint's that is still good, else a new one (it connects on its request)."""
        while held.idle:
            connection = held.idle.pop()
            if connection.can_handle_request(origin) and connection.is_idle() and not connection.has_expired():
                return connection
            await connection.aclose()
        return httpcore.AsyncHTTPConnection(
            origin, ssl_context=self.ssl_context, keepalive_expiry=KEEPALIVE_SECONDS, network_backend=self.backend
        )

    async def _put_back(self, held: _Pool, connection: httpcore.AsyncHTTPConnection) -> None:
        """Keep a connection the attempt left reusable (its answer read whole), while the endpoint has room."""
        if connection.is_available() and not connection.is_closed() and len(held.idle) < held.size:
            held.idle.append(connection)
        else:
            await connection.aclose()

    async def aclose(self) -> None:
        pools, self._pools = list(self._pools.values()), OrderedDict()
        for held in pools:
            try:
                await held.aclose()
            except Exception as error:  # pragma: no cover - a connection that fails to close is gone anyway
                log.debug("closing a webhook pool: %s", type(error).__name__)
