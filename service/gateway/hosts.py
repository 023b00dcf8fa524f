"""The host names the gateway answers to: a page on another site cannot reach it through its visitors' browsers by
pointing a DNS name of its own at the gateway's address (DNS rebinding).

A browser thinks a page at ``http://attacker.example:8080`` and the requests it sends there share one origin, whatever
address the name resolves to; if the page's DNS answers with the gateway's address (127.0.0.1 on a developer's
machine, a private address on a LAN), the page can read the gateway's answers and send it changes, and the origin
guard (guard.py) cannot tell: the request's ``Origin`` and its ``Host`` both say attacker.example. So every request
names in its ``Host`` one of the gateway's own names, or is refused 400 (``host_not_allowed``, a problem detail) before
anything else is done:

* the names are set with ``--allowed-host`` (repeatable) or ``KICKOFF_ALLOWED_HOSTS`` (comma-separated): host names
  without scheme or port (any port is accepted: the origin guard compares ports); ``*`` accepts any name (behind a
  proxy that checks the Host itself);
* by default the loopback names (``localhost``, ``127.0.0.1``, ``::1``), and the name the gateway listens on when it
  listens on a name (``--host play.internal``); a gateway listening on every address (0.0.0.0) still answers the
  loopback names and IP addresses only: name its hosts (deploy/ does);
* an IP address is always accepted: no DNS name is involved, so the page that sent it is on that address itself, or
  on another origin and then held back by CORS and the origin guard. Kubernetes probes (by pod IP) and clients on a
  LAN that use the address keep working;
* a request with no Host at all (HTTP/1.0) is accepted: browsers always send one;
* the probes (``/healthz``, ``/readyz``) answer whatever the Host: they tell nothing, and a probe must not fail
  over a name.

Litestar's own ``AllowedHostsConfig`` is not used: it compares the whole Host, port included, and answers a plain
``{"message": "invalid host header"}``, where every refusal here is a problem detail.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler

from service.gateway.problems import problem

LOOPBACK = frozenset(("localhost", "127.0.0.1", "::1"))
WILDCARDS = frozenset(("0.0.0.0", "::", "[::]", ""))
ANY_HOST = "any_host"  # a route's opt that exempts it from the check (the probes)
_NAME = re.compile(r"[a-z0-9_]([a-z0-9_.-]{0,251}[a-z0-9_])?")


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def host_name(header: str) -> str | None:
    """The name a Host header gives, lower case, without its port or a trailing dot (an IPv6 address without its
    brackets); None for a header that is not ``name[:port]``."""
    text = header.strip().lower()
    if text.startswith("["):
        address, _, rest = text[1:].partition("]")
        if rest and not re.fullmatch(r":[0-9]{1,5}", rest):
            return None
        return address if _is_address(address) and ":" in address else None
    name, _, port = text.partition(":")
    if port and not port.isdigit():
        return None
    name = name.rstrip(".")
    return name if _NAME.fullmatch(name) else None


@dataclass(frozen=True)
class HostPolicy:
    """The host names accepted, or any (``*``); IP addresses are always accepted."""

    names: frozenset[str] = LOOPBACK
    anything: bool = False

    @classmethod
    def parse(cls, values: Iterable[str], listen: str = "127.0.0.1") -> HostPolicy:
        """The names given (``--allowed-host``, ``KICKOFF_ALLOWED_HOSTS``); none given: the loopback names and the
        name ``listen`` (the address the gateway listens on) where it is one."""
        names: set[str] = set()
        anything = False
        for value in values:
            for item in value.split(","):
                item = item.strip()
                if not item:
                    continue
                if item == "*":
                    anything = True
                    continue
                name = item.lower().rstrip(".")
                if name.startswith("[") and name.endswith("]"):
                    name = name[1:-1]
                if not (_is_address(name) or _NAME.fullmatch(name)):
                    raise ValueError(
                        f"an allowed host is a host name or an IP address, without scheme or port: {item!r}"
                    )
                names.add(name)
        if not names and not anything:
            names = set(LOOPBACK)
            listening = host_name(listen) if listen not in WILDCARDS else None
            if listening is not None:
                names.add(listening)
        return cls(frozenset(names), anything)

    def allows(self, header: str | None) -> bool:
        """Whether a request with this Host header (None: none) is answered."""
        if header is None or self.anything:
            return True
        name = host_name(header)
        return name is not None and (name in self.names or _is_address(name))


class HostGuard:
    """The Litestar guard for the check above."""

    def __init__(self, policy: HostPolicy | None = None) -> None:
        self.policy = policy or HostPolicy()

    async def __call__(self, connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
        # (async: Litestar runs a plain function guard in a worker thread, a hop for every request)
        if handler.opt.get(ANY_HOST):
            return
        hosts = [value.decode("latin-1") for name, value in connection.scope["headers"] if name.lower() == b"host"]
        if len(hosts) > 1 or not self.policy.allows(hosts[0] if hosts else None):
            raise problem(
                400,
                "the Host this request names is not one of the gateway's host names (--allowed-host, "
                "KICKOFF_ALLOWED_HOSTS)",
                "host_not_allowed",
                field="Host",
            )
