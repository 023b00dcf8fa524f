"""How the gateway's HTTP server runs: uvicorn with httptools, and limits on what one connection or client may hold.

uvicorn bounds neither a request's head nor the time it takes to arrive nor the connections one client keeps open, so
a few clients can take the gateway's memory (16 MB headers) or its file descriptors (slowloris). The protocol here
adds the three limits below the app, where they cost a few integer operations a read:

- a request head (request line and headers) over ``max_header_bytes`` is answered 431 and the connection closed;
- a head not complete ``header_timeout`` seconds after the connection opened, or after the previous response on a
  keep-alive connection, is answered 408 and the connection closed;
- a connection beyond ``max_connections_per_client`` open ones from one IP address (0: any number) is answered 429
  and closed.

Refusals are RFC 9457 problem details (``application/problem+json``) with the ``reason`` header_too_large,
header_timeout or too_many_connections. uvicorn's own ``limit_concurrency`` (503) and keep-alive timeout still apply.

A client is the peer it connects from, unless that peer is one of ``limits.trusted_proxies``
(KICKOFF_TRUSTED_PROXIES): then the client is the one its ``X-Forwarded-For`` names (and its scheme the one
``X-Forwarded-Proto`` names). The limits above count peers, not the clients a proxy names.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
from http import HTTPStatus
from typing import Any, ClassVar

import uvicorn
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from service.settings import HttpLimits


def _problem(status: int, reason: str, detail: str, headers: list[tuple[bytes, bytes]]) -> bytes:
    """A whole ``status`` response with a problem+json body, ending the connection."""
    body = json.dumps(
        {
            "type": f"urn:kickoff:problem:{reason}",
            "title": HTTPStatus(status).phrase,
            "status": status,
            "detail": detail,
            "reason": reason,
        },
        separators=(",", ":"),
    ).encode()
    head = [STATUS_LINE[status]]
    head += [name + b": " + value + b"\r\n" for name, value in headers]
    head += [
        b"content-type: application/problem+json\r\ncontent-length: %d\r\nconnection: close\r\n\r\n" % len(body),
        body,
    ]
    return b"".join(head)


class LimitedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the limits of ``limits``; use a subclass made by ``protocol_class``, whose
    ``open_per_client`` (open connections by client IP, no entry at zero) is shared by one server's connections."""

    limits: ClassVar[HttpLimits]
    open_per_client: ClassVar[dict[str, int]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._reading_head = True  # the bytes now arriving belong to a request head not yet complete
        self._head_room = self.limits.max_header_bytes  # what that head may still take
        self._heads_complete = 0
        self._head_timer: asyncio.TimerHandle | None = None
        self._counted_ip: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.client is not None:  # None on a Unix socket: no address to count by
            ip = self.client[0]
            open_now = self.open_per_client.get(ip, 0)
            most = self.limits.max_connections_per_client
            if most and open_now >= most:
                detail = f"{open_now} connections from {ip} are open already; close one first"
                self._refuse(429, "too_many_connections", detail, (b"retry-after", b"1"))
                return
            self.open_per_client[ip] = open_now + 1
            self._counted_ip = ip
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        self._uncount()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Counts a head's bytes a read at a time, not byte by byte. A head that begins inside a read (pipelined after a
        request that ends there) is counted from the next read on, so it may reach the limit plus one read (256 KiB
        with asyncio); any other head is cut at the limit exactly."""
        if self._reading_head:
            if len(data) > self._head_room:
                self._feed_past_head_room(data)
                return
            self._head_room -= len(data)
        super().data_received(data)

    def _feed_past_head_room(self, data: bytes) -> None:
        """Feeds the parser no more of the head than its room: httptools buffers an unfinished header line whole."""
        room = self._head_room
        heads_before = self._heads_complete
        self._head_room = 0
        super().data_received(data[:room])
        if self.transport.is_closing() or self.transport.get_protocol() is not self:  # refused, or now a WebSocket
            return
        if self._heads_complete == heads_before:
            limit = self.limits.max_header_bytes
            self._refuse(431, "header_too_large", f"the request head is over {limit} bytes")
            return
        self.data_received(data[room:])  # the head ended inside its room: the rest is body or the next request

    def on_headers_complete(self) -> None:
        self._reading_head = False
        self._heads_complete += 1
        self._stop_head_timer()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._reading_head = True  # what follows is the next request's head
        self._head_room = self.limits.max_header_bytes

    def on_response_complete(self) -> None:
        pipelined = bool(self.pipeline)  # a queued request whose head is complete already starts now
        super().on_response_complete()
        if not pipelined and not self.transport.is_closing():
            self._arm_head_timer()

    def handle_websocket_upgrade(self) -> None:
        # The WebSocket protocol takes the transport over, and this protocol hears no connection_lost: let go now.
        self._stop_head_timer()
        self._uncount()
        super().handle_websocket_upgrade()

    def _arm_head_timer(self) -> None:
        self._stop_head_timer()
        self._head_timer = self.loop.call_later(self.limits.header_timeout, self._head_timed_out)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            detail = f"the request head was not complete within {self.limits.header_timeout:g} s"
            self._refuse(408, "header_timeout", detail)

    def _uncount(self) -> None:
        ip, self._counted_ip = self._counted_ip, None
        if ip is not None:
            left = self.open_per_client[ip] - 1
            if left:
                self.open_per_client[ip] = left
            else:
                del self.open_per_client[ip]

    def _refuse(self, status: int, reason: str, detail: str, *headers: tuple[bytes, bytes]) -> None:
        """Answers ``status`` and closes; never writes into a response in progress (a pipelined request's)."""
        self._reading_head = False
        self._stop_head_timer()
        if self.cycle is None or self.cycle.response_complete:
            self.transport.write(_problem(status, reason, detail, [*self.server_state.default_headers, *headers]))
        self.transport.close()


def protocol_class(limits: HttpLimits) -> type[LimitedHttpToolsProtocol]:
    """A protocol class for one server: ``limits`` and a fresh count of open connections by client."""
    return type("LimitedHttpToolsProtocol", (LimitedHttpToolsProtocol,), {"limits": limits, "open_per_client": {}})


def raise_open_file_limit() -> int:
    """Raises the soft RLIMIT_NOFILE to the hard one (each connection holds a descriptor); returns the soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # an unlimited hard limit the kernel will not grant: keep what we have
            return soft
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def config(app: Any, host: str, port: int, limits: HttpLimits, **extra: Any) -> uvicorn.Config:
    """The gateway's uvicorn configuration; ``extra`` adds to or overrides uvicorn.Config's arguments."""
    arguments: dict[str, Any] = {
        "host": host,
        "port": port,
        "loop": "asyncio",  # not uvloop: grpc.aio runs in the same loop
        "http": protocol_class(limits),
        "limit_concurrency": limits.limit_concurrency,
        "timeout_keep_alive": limits.keep_alive_timeout,
        "log_level": "warning",
        # No access log: an event stream's query string may carry a stream ticket. Requests are traced instead
        # (Litestar's OpenTelemetry plugin), and the event streams are left out of the traces.
        "access_log": False,
        "timeout_graceful_shutdown": 5,  # event streams never end by themselves: close them after 5 s
        # A client's address (and scheme) from X-Forwarded-For (X-Forwarded-Proto) only where the peer is one of
        # KICKOFF_TRUSTED_PROXIES; none by default, never uvicorn's own default (loopback) or FORWARDED_ALLOW_IPS.
        "proxy_headers": bool(limits.trusted_proxies),
        "forwarded_allow_ips": list(limits.trusted_proxies),
    }
    return uvicorn.Config(app, **(arguments | extra))


def serve(app: Any, host: str, port: int, limits: HttpLimits) -> None:
    """Serves ``app`` until SIGINT or SIGTERM; exits with status 3 (as uvicorn.run does) when it cannot start."""
    raise_open_file_limit()
    server = uvicorn.Server(config(app, host, port, limits))
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn raises SIGINT again once it has shut down (as uvicorn.run)
        server.run()
    if not server.started:
        raise SystemExit(3)
