"""Cross-origin requests from browsers: which pages on other origins may call the gateway, and for what.

Two kinds of origin, set with ``--cors-origin`` (repeatable) or ``KICKOFF_CORS_ORIGINS`` (comma-separated); none by
default, and then no page on another origin can call the gateway:

* a **listed origin** (``https://play.example.com``) may do everything a client can: every method, with the
  ``Authorization`` (seat token), ``X-API-Key``, ``Content-Type`` and ``Last-Event-ID`` headers;
* ``*`` lets **any** page read what any spectator may read: ``GET`` and ``HEAD`` without credentials (games, rules,
  rooms, a spectator's view, the event streams, a stream opened with a stream ticket, tournaments, standings).

Seat tokens are bearer tokens, never cookies, so no route relies on the browser's credentials
(``Access-Control-Allow-Credentials`` is never sent). A preflight's answer is cached by the browser for
``max_age`` seconds. The rules live in one ASGI middleware because Litestar's CORS configuration applies one policy
to every origin; this one grants two.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from litestar.types import ASGIApp, Message, Receive, Scope, Send

READ_METHODS = frozenset(("GET", "HEAD"))
ALL_METHODS = "GET, HEAD, POST, DELETE"
PUBLIC_HEADERS = frozenset(("last-event-id",))
CLIENT_HEADERS = frozenset(("authorization", "content-type", "last-event-id", "x-api-key"))
EXPOSED = "Retry-After, Location"  # what a page may read of an answer beyond the simple headers


@dataclass(frozen=True)
class CorsPolicy:
    """The origins allowed (exact ``scheme://host[:port]``) and whether ``*`` opens the read-only routes to all."""

    origins: frozenset[str] = frozenset()
    public: bool = False
    max_age: int = 600

    @classmethod
    def parse(cls, values: Iterable[str], max_age: int = 600) -> CorsPolicy:
        origins = set()
        public = False
        for value in values:
            for item in value.split(","):
                origin = item.strip().rstrip("/")
                if not origin:
                    continue
                if origin == "*":
                    public = True
                elif "://" not in origin or any(c in origin for c in " *?#"):
                    raise ValueError(f"a CORS origin is scheme://host[:port] or '*', not {origin!r}")
                else:
                    origins.add(origin.lower())
        return cls(frozenset(origins), public, max_age)

    @property
    def enabled(self) -> bool:
        return bool(self.origins) or self.public


class CorsMiddleware:
    """Answers preflights and adds the CORS headers to answers, per :class:`CorsPolicy`."""

    def __init__(self, app: ASGIApp, policy: CorsPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        origin = headers.get("origin")
        if origin is None:
            await self.app(scope, receive, send)
            return
        trusted = origin.lower() in self.policy.origins
        method = scope["method"]
        if method == "OPTIONS" and "access-control-request-method" in headers:
            await self._preflight(send, origin, trusted, headers)
            return
        grant: list[tuple[bytes, bytes]] = [(b"vary", b"Origin")]
        if trusted:
            grant += [(b"access-control-allow-origin", origin.encode("latin-1"))]
        elif self.policy.public and method in READ_METHODS and "authorization" not in headers:
            grant += [(b"access-control-allow-origin", b"*")]
        if len(grant) > 1:
            grant.append((b"access-control-expose-headers", EXPOSED.encode()))

        async def send_with_cors(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *grant]
            await send(message)

        await self.app(scope, receive, send_with_cors)

    async def _preflight(self, send: Send, origin: str, trusted: bool, headers: dict[str, str]) -> None:
        method = headers["access-control-request-method"].upper()
        asked = {h.strip().lower() for h in headers.get("access-control-request-headers", "").split(",") if h.strip()}
        if trusted and asked <= CLIENT_HEADERS:
            allowed = [
                (b"access-control-allow-origin", origin.encode("latin-1")),
                (b"access-control-allow-methods", ALL_METHODS.encode()),
                (b"access-control-allow-headers", ", ".join(sorted(CLIENT_HEADERS)).encode()),
            ]
        elif self.policy.public and method in READ_METHODS and asked <= PUBLIC_HEADERS:
            allowed = [
                (b"access-control-allow-origin", b"*"),
                (b"access-control-allow-methods", b"GET, HEAD"),
                (b"access-control-allow-headers", b"last-event-id"),
            ]
        else:
            why = b"this origin may not make this request here (the gateway's --cors-origin)"
            await send(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"vary", b"Origin")],
                }
            )
            await send({"type": "http.response.body", "body": why})
            return
        allowed += [(b"access-control-max-age", str(self.policy.max_age).encode()), (b"vary", b"Origin")]
        await send({"type": "http.response.start", "status": 204, "headers": allowed})
        await send({"type": "http.response.body", "body": b""})
