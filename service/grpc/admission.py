"""Who is calling, and whether they may: API keys for creating rooms and tournaments, rate limits per caller on
creating and joining, and a bound on each caller's open streams.

A caller is the holder of an API key when the call carries one (``x-api-key`` metadata), otherwise the client's
address: the peer's own, or the address named in ``x-forwarded-for`` by a trusted proxy (one of
KICKOFF_TRUSTED_PROXIES: the REST gateways; none by default) or by another node of the cluster (a forwarded call,
sealed with the nodes' key: service/grpc/forward.py). IPv6 clients count by their /64 network, since one host
commonly holds a whole /64.

Refusals: a missing or unknown key is UNAUTHENTICATED (``api_key_required``, ``bad_api_key``); a caller over its
rate or its streams is RESOURCE_EXHAUSTED (``rate_limited``, ``too_many_streams``) with a RetryInfo saying when to
try again. Operator keys (service/operators/keys.py) are checked here too, by :meth:`Admission.operator`, so that a
caller that offers wrong ones is throttled by address (``operator_key_throttled``) rather than guessing on at the
speed of the network. Everything here is bounded: buckets of callers who came back to full are dropped first when
there are too many, and a caller's stream count goes when its last stream closes.
"""

from __future__ import annotations

import contextlib
import ipaddress
import math
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from service.errors import ResourceExhausted, Unauthenticated
from service.operators.keys import Operator, OperatorKeys, offered_key
from service.settings import LimitSettings, Rate
from service.store.keys import key_hash

MOST_CALLERS = 100_000  # rate-limit buckets kept at once
KEY_HEADER = "x-api-key"
FORWARDED_HEADER = "x-forwarded-for"


@dataclass(frozen=True)
class Caller:
    """Who a call counts against: ``key:<key id>`` or ``ip:<address>``."""

    identity: str
    key_id: str = ""


class ApiKeys:
    """The API keys the server accepts: those it was started with, and the store's (replaced on each refresh)."""

    def __init__(self, keys: Iterable[str] = ()) -> None:
        self._configured = {key_hash(key): f"env-{key_hash(key)[:8]}" for key in keys}
        self._stored: dict[str, str] = {}

    def replace_stored(self, keys: Iterable[tuple[str, str]]) -> None:
        """The store's live keys, as (key id, key hash) pairs."""
        self._stored = {digest: key_id for key_id, digest in keys}

    def identify(self, presented: str) -> str | None:
        """The key id of a key this server accepts, or None. (A lookup by the key's SHA-256: the time it takes says
        nothing about any key's characters.)"""
        if len(presented) > 256:
            return None
        digest = key_hash(presented)
        return self._configured.get(digest) or self._stored.get(digest)


class RateLimiter:
    """A token bucket per caller: ``rate.count`` requests at once, refilled evenly over ``rate.seconds``."""

    def __init__(self, rate: Rate, clock: Callable[[], float] = time.monotonic, most: int = MOST_CALLERS) -> None:
        self.rate = rate
        self._per_second = rate.count / rate.seconds
        self._clock = clock
        self._most = most
        self._buckets: dict[str, tuple[float, float]] = {}  # caller -> (tokens, when counted)

    def take(self, caller: str, count: int = 1) -> float:
        """Spend ``count`` requests of ``caller``'s: 0.0 when allowed, else the seconds until they are (never, for
        more than the whole count: inf)."""
        now = self._clock()
        capacity = self.rate.count
        tokens, when = self._buckets.get(caller, (capacity, now))
        tokens = min(capacity, tokens + (now - when) * self._per_second)
        if tokens >= count:
            self._buckets[caller] = (tokens - count, now)
            if len(self._buckets) > self._most:
                self._forget(now)
            return 0.0
        self._buckets[caller] = (tokens, now)
        return (count - tokens) / self._per_second if count <= capacity else math.inf

    def waiting(self, caller: str) -> float:
        """The seconds until ``caller`` may spend a request (0.0: now), spending nothing."""
        tokens, when = self._buckets.get(caller, (self.rate.count, self._clock()))
        tokens = min(self.rate.count, tokens + (self._clock() - when) * self._per_second)
        return 0.0 if tokens >= 1 else (1 - tokens) / self._per_second

    def _forget(self, now: float) -> None:
        """Drop the callers whose buckets are full again (they lose nothing), then the oldest if still too many."""
        full = [c for c, (tokens, when) in self._buckets.items() if tokens + (now - when) * self._per_second >= 1]
        for caller in full[: len(self._buckets) - self._most // 2]:
            del self._buckets[caller]
        while len(self._buckets) > self._most:
            del self._buckets[next(iter(self._buckets))]


def peer_address(peer: str) -> str:
    """The address in a gRPC peer string (``ipv4:127.0.0.1:5000``, ``ipv6:[::1]:5000``, ``ipv6:%5B::1%5D:5000``)."""
    scheme, _, rest = peer.partition(":")
    if scheme not in ("ipv4", "ipv6"):
        return scheme or "unknown"
    host = urllib.parse.unquote(rest).rsplit(":", 1)[0]
    return host.strip("[]")


class Admission:
    """See the module docstring."""

    def __init__(
        self,
        settings: LimitSettings | None = None,
        keys: ApiKeys | None = None,
        clock: Callable[[], float] = time.monotonic,
        vouched: Callable[[dict[str, Any]], str | None] | None = None,
    ) -> None:
        self.settings = settings = settings or LimitSettings()
        self.keys = keys or ApiKeys(settings.api_keys)
        self._limiters = {
            action: RateLimiter(rate, clock)
            for action, rate in (
                ("create", settings.create_rate),
                ("join", settings.join_rate),
                ("sign_in", settings.sign_in_rate),
                ("invite", settings.invite_rate),
            )
            if rate is not None
        }
        failures = settings.operator_key_failures
        self._key_failures = RateLimiter(failures, clock) if failures is not None else None
        self._proxies = [ipaddress.ip_network(proxy, strict=False) for proxy in settings.trusted_proxies]
        # A node of a cluster: the caller a call forwarded by another node names (its seal checked), else None.
        self.vouched = vouched  # (service/grpc/forward.py's Seal.caller)
        self._streams: dict[str, int] = {}

    def caller(self, context: Any) -> Caller:
        """Who ``context``'s call counts against; raises Unauthenticated for an API key this server does not know."""
        metadata = dict(context.invocation_metadata() or ())
        presented = metadata.get(KEY_HEADER)
        if presented:
            key_id = self.keys.identify(presented)
            if key_id is None:
                raise Unauthenticated("the API key is not valid", code="bad_api_key")
            return Caller(f"key:{key_id}", key_id)
        return Caller(f"ip:{_client(self.address(context, metadata))}")

    def address(self, context: Any, metadata: dict[str, Any] | None = None) -> str:
        """The caller's address: the peer's, or the one a trusted proxy (the gateway, another node) names."""
        if metadata is None:
            metadata = dict(context.invocation_metadata() or ())
        if self.vouched is not None and (caller := self.vouched(metadata)) is not None:
            return caller
        address = peer_address(context.peer() or "")
        forwarded = metadata.get(FORWARDED_HEADER)
        if forwarded and self._trusted(address):
            address = forwarded.split(",")[0].strip()
        return address

    def network(self, context: Any) -> str:
        """The caller's address as it counts (an IPv6 one: its /64 network), whatever key the call carries."""
        return _client(self.address(context))

    def _trusted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self._proxies)

    def admit(self, context: Any, action: str) -> Caller:
        """Let the call do ``action`` (``create``, ``join`` or ``sign_in``) or raise: a key required for creating and
        missing, an unknown key, or the caller over its rate."""
        caller = self.caller(context)
        if action == "create" and self.settings.require_api_key and not caller.key_id:
            raise Unauthenticated(
                f"creating rooms and tournaments needs an API key: send '{KEY_HEADER}: <key>'", code="api_key_required"
            )
        limiter = self._limiters.get(action)
        if limiter is not None:
            wait = limiter.take(caller.identity)
            if wait:
                raise ResourceExhausted(
                    f"over the {action} rate of {limiter.rate} for one caller; try again in {math.ceil(wait)} s",
                    code="rate_limited",
                    retry_after=wait,
                )
        return caller

    def operator(self, context: Any, keys: OperatorKeys, failed: Callable[[bool], None] | None = None) -> Operator:
        """The operator whose key the call carries (OperatorKeys.check), before anything else of the call is read.
        A wrong key spends one of the caller's KICKOFF_OPERATOR_KEY_FAILURES (by address, never by key: a guesser
        has no key); a caller with none left is refused RESOURCE_EXHAUSTED (``operator_key_throttled``) until the
        rate refills, without its key being looked at. ``failed`` hears of each wrong key (True: refused as
        throttled)."""
        limiter = self._key_failures
        who = f"ip:{_client(self.address(context))}"
        if limiter is not None:
            wait = limiter.waiting(who)
            if wait:
                if failed is not None:
                    failed(True)
                raise ResourceExhausted(
                    f"too many wrong operator keys from this address; try again in {math.ceil(wait)} s",
                    code="operator_key_throttled",
                    retry_after=wait,
                )
        try:
            return keys.check(offered_key(context.invocation_metadata()))
        except Unauthenticated as error:
            if error.code == "bad_operator_key":
                if limiter is not None:
                    limiter.take(who)
                if failed is not None:
                    failed(False)
            raise

    def invite(self, player_id: str, count: int) -> None:
        """Let a player invite ``count`` players to a party ticket, or raise ResourceExhausted (``rate_limited``): the
        invitations a sender may send are counted by the player (KICKOFF_INVITE_RATE), whichever address they use."""
        limiter = self._limiters.get("invite")
        if limiter is None or not count:
            return
        wait = limiter.take(f"player:{player_id}", count)
        if wait:
            raise ResourceExhausted(
                f"over the invitation rate of {limiter.rate} for one player; try again later",
                code="rate_limited",
                retry_after=min(wait, limiter.rate.seconds),
            )

    @contextlib.contextmanager
    def stream(self, context: Any) -> Iterator[Caller]:
        """Hold one of the caller's open streams while the block runs (raises when it holds its most already)."""
        caller = self.caller(context)
        most = self.settings.streams_per_caller
        count = self._streams.get(caller.identity, 0)
        if most and count >= most:
            raise ResourceExhausted(
                f"this caller holds {count} open streams, the most allowed; close one first",
                code="too_many_streams",
                retry_after=5.0,
            )
        self._streams[caller.identity] = count + 1
        try:
            yield caller
        finally:
            left = self._streams[caller.identity] - 1
            if left:
                self._streams[caller.identity] = left
            else:
                del self._streams[caller.identity]


def _client(address: str) -> str:
    """The address a client counts as: itself, or its /64 network for IPv6."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)
