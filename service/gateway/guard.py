"""What a request that changes something must show before the gateway acts on it: pages on other origins cannot act
through their visitors' browsers.

A browser sends a page's request to another origin without asking first (no CORS preflight) when it is a "simple"
one: a POST whose body is ``text/plain``, a form or multipart, or that has no body, with no header of its own. The
page cannot read the answer, but the request is carried out: any page could make its visitors' browsers create rooms,
take and give back seats and spend their rates, a developer's own gateway on 127.0.0.1 included. So every POST, PUT,
PATCH and DELETE passes two checks, whether or not CORS is on (Litestar runs guards before the handler, and before
anything reads the body):

* **its origin**: a request whose ``Origin`` header names neither the gateway's own origin (the scheme and host the
  request came to, which is the /play page's, and whose host is one of the gateway's names: hosts.py) nor an origin
  the CORS policy lists is refused 403
  (``origin_not_allowed``). ``*`` lets any page read what a spectator may read and never change anything. Clients
  other than browsers send no ``Origin`` and are not concerned;
* **its body**: a ``Content-Type`` other than ``application/json`` (parameters such as ``charset`` allowed), or a body
  without a ``Content-Type``, is refused 415 (``unsupported_media_type``). A request with no body (a stream ticket,
  giving a seat back, joining with the defaults) needs no ``Content-Type``. A page can send ``application/json`` to
  another origin only after a preflight, which the CORS policy answers.

Both refusals are RFC 9457 problem details, with the CORS headers the answer would have had.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler

from service.gateway.cors import CorsPolicy
from service.gateway.hosts import HostPolicy
from service.gateway.problems import problem

CHANGING = frozenset(("POST", "PUT", "PATCH", "DELETE"))
MEDIA_TYPE = "application/json"
_DEFAULT_PORTS = {"http": 80, "https": 443}


def is_json(content_type: str) -> bool:
    """Whether a Content-Type value is ``application/json``, with any parameters."""
    return content_type.split(";", 1)[0].strip().lower() == MEDIA_TYPE


def _origin(text: str) -> tuple[str, str, int] | None:
    """An origin's scheme, host and port (the scheme's default port where none is written); None for anything else
    (``null``, another scheme, a path)."""
    try:
        parts = urllib.parse.urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname or parts.username is not None:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    return parts.scheme, parts.hostname, port or _DEFAULT_PORTS[parts.scheme]


def _has_body(headers: dict[str, list[str]]) -> bool:
    if "transfer-encoding" in headers:
        return True
    for length in headers.get("content-length", ()):
        try:
            if int(length) != 0:
                return True
        except ValueError:
            return True
    return False


class ChangeGuard:
    """The Litestar guard for the checks above; ``policy`` names the origins listed (``--cors-origin``), ``hosts``
    the gateway's own host names (``--allowed-host``)."""

    def __init__(self, policy: CorsPolicy | None = None, hosts: HostPolicy | None = None) -> None:
        self.listed = (policy or CorsPolicy()).origins
        self.hosts = hosts or HostPolicy()

    async def __call__(self, connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
        # (async: Litestar runs a plain function guard in a worker thread, a hop for every request)
        scope = connection.scope
        if scope.get("method") not in CHANGING:
            return
        headers: dict[str, list[str]] = {}
        for name, value in scope["headers"]:
            headers.setdefault(name.decode("latin-1").lower(), []).append(value.decode("latin-1"))
        for origin in headers.get("origin", ()):
            if not self._allowed(origin, scope.get("scheme", "http"), headers.get("host", [""])[0]):
                raise problem(
                    403,
                    "a page on another origin may not change anything here: its origin is not one the gateway lists "
                    "(--cors-origin)",
                    "origin_not_allowed",
                )
        types = headers.get("content-type", [])
        if (types and not all(is_json(value) for value in types)) or (not types and _has_body(headers)):
            raise problem(
                415,
                f"a request body must be JSON, sent with Content-Type: {MEDIA_TYPE}; a request without a body needs "
                "no Content-Type",
                "unsupported_media_type",
            )

    def _allowed(self, origin: str, scheme: str, host: str) -> bool:
        """A listed origin (exactly as the CORS policy compares it), or the gateway's own: the scheme the request
        came by and its Host, which must be one of the gateway's names (a page on a name of its own that resolves to
        the gateway's address names that name in both)."""
        if origin.strip().lower() in self.listed:
            return True
        own = _origin(f"{scheme}://{host}") if host else None
        return own is not None and _origin(origin) == own and self.hosts.allows(host)


class Guards:
    """Several guards as one: Litestar copies the route handler for each guard it runs, for every request (three
    guards: three copies a request, more than the checks themselves cost); as one guard they share one copy."""

    def __init__(self, *guards: Any) -> None:
        self.guards = guards

    async def __call__(self, connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
        for guard in self.guards:
            await guard(connection, handler)
