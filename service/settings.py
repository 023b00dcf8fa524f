"""Settings, one dataclass per concern, read from the environment (each field says which variable sets it), and
gathered in one aggregate, :class:`Settings`, that the server reads once at start-up and hands to its composition root
(service/grpc/server.py's ``serve``)."""

from __future__ import annotations

import ipaddress
import os
import socket
from dataclasses import dataclass, field
from typing import Any


def _secret_from_env() -> bytes:
    value = os.environ.get("KICKOFF_TOKEN_SECRET", "")
    return value.encode()


def _env(name: str, default: str) -> str:
    return os.environ.get(name) or default


def _number(name: str, default: str, kind: type[int] | type[float] = float) -> float:
    value = _env(name, default)
    try:
        number = kind(value)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if number < 0:
        raise ValueError(f"{name} must not be negative, got {value!r}")
    return number


@dataclass(frozen=True)
class GrpcSettings:
    """The gRPC server."""

    host: str = field(default_factory=lambda: os.environ.get("KICKOFF_GRPC_HOST", "127.0.0.1"))  # KICKOFF_GRPC_HOST
    port: int = field(default_factory=lambda: int(os.environ.get("KICKOFF_GRPC_PORT", "50051")))  # KICKOFF_GRPC_PORT
    # KICKOFF_TOKEN_SECRET signs seat tokens; unset, the store keeps one made on the first start.
    token_secret: bytes = field(default_factory=_secret_from_env, repr=False)
    # KICKOFF_GRACE_SECONDS: how long a stopping server lets calls in flight finish.
    grace_seconds: float = field(default_factory=lambda: float(os.environ.get("KICKOFF_GRACE_SECONDS", "5")))


@dataclass(frozen=True)
class NodeSettings:
    """This node's part in a cluster: several `kickoff grpc` processes on one PostgreSQL, each owning some rooms
    through leases (service/cluster). On SQLite (one node) none of it is used."""

    # KICKOFF_NODE_ID: this node's name, the same across its restarts and different from every other node's (a
    # StatefulSet's pod name); default the host name.
    node_id: str = field(default_factory=lambda: _env("KICKOFF_NODE_ID", socket.gethostname()[:64]))
    # KICKOFF_ADVERTISE_ADDRESS: host:port where the other nodes reach this one; default the host name and the port.
    advertise_address: str = field(default_factory=lambda: _env("KICKOFF_ADVERTISE_ADDRESS", ""))
    # KICKOFF_LEASE_SECONDS: how long a node's leases outlive its last renewal: a dead node's rooms are claimed by
    # the others this long after it stopped renewing.
    lease_seconds: float = field(default_factory=lambda: _number("KICKOFF_LEASE_SECONDS", "10"))
    # KICKOFF_RENEW_SECONDS: how often a node renews its leases (one statement for all of them) and looks for rooms
    # whose node died; under the lease, so that a renewal or two may fail without losing the rooms.
    renew_seconds: float = field(default_factory=lambda: _number("KICKOFF_RENEW_SECONDS", "3"))

    def __post_init__(self) -> None:
        if not self.node_id or len(self.node_id) > 64:
            raise ValueError("KICKOFF_NODE_ID (--node-id) must be 1-64 characters")
        if not 0 < self.renew_seconds < self.lease_seconds:
            raise ValueError(
                f"KICKOFF_RENEW_SECONDS ({self.renew_seconds:g}) must be above 0 and below KICKOFF_LEASE_SECONDS "
                f"({self.lease_seconds:g}): a node renews its leases several times a lease"
            )

    def address(self, host: str, port: int) -> str:
        """Where other nodes reach this one: the advertised address, else this host's name (or the address it
        listens on, when that names one host) and ``port``."""
        if self.advertise_address:
            return self.advertise_address
        if host in ("0.0.0.0", "::", "[::]", ""):
            host = socket.gethostname()
        return f"{host}:{port}"


@dataclass(frozen=True)
class StoreSettings:
    """The database."""

    # KICKOFF_DATABASE_URL: e.g. postgresql+asyncpg://user@host/db; unset, a SQLite file under ./var/. "memory" keeps
    # nothing (benchmarks only).
    database_url: str = field(
        default_factory=lambda: os.environ.get("KICKOFF_DATABASE_URL") or "sqlite+aiosqlite:///var/kickoff.db"
    )
    # KICKOFF_STORE_RETRY_SECONDS: how long a commit is tried again while the store is away before callers hear
    # UNAVAILABLE.
    retry_seconds: float = field(default_factory=lambda: _number("KICKOFF_STORE_RETRY_SECONDS", "2"))


_RATE_UNITS = {"s": 1.0, "sec": 1.0, "min": 60.0, "m": 60.0, "h": 3600.0, "hour": 3600.0}


@dataclass(frozen=True)
class Rate:
    """``count`` requests per ``seconds``, written ``30/min`` (units: s, min, h); a caller may spend the whole count
    at once, and it refills evenly."""

    count: int
    seconds: float

    @classmethod
    def parse(cls, text: str, name: str) -> Rate | None:
        """``30/min`` -> Rate(30, 60); ``off`` or ``0`` -> None (no limit). ``name`` names the setting in errors."""
        text = text.strip().lower()
        if text in ("off", "0", "none"):
            return None
        count, _, unit = text.partition("/")
        try:
            rate = cls(int(count), _RATE_UNITS[unit.strip()])
        except (ValueError, KeyError):
            raise ValueError(f"{name} must look like 30/min (units s, min, h) or off, got {text!r}") from None
        if rate.count < 1:
            raise ValueError(f"{name} must allow at least one request, got {text!r}")
        return rate

    def __str__(self) -> str:
        unit = {1.0: "s", 60.0: "min", 3600.0: "h"}.get(self.seconds, f"{self.seconds:g} s")
        return f"{self.count}/{unit}"


def _keys() -> tuple[str, ...]:
    keys = tuple(key.strip() for key in _env("KICKOFF_API_KEYS", "").split(",") if key.strip())
    short = [key for key in keys if len(key) < 16]
    if short:
        raise ValueError("KICKOFF_API_KEYS: each key needs at least 16 characters")
    return keys


def _trusted_proxies() -> tuple[str, ...]:
    """KICKOFF_TRUSTED_PROXIES: addresses or networks, comma-separated, each written as a network (``10.0.0.0/8``,
    ``192.0.2.7/32``); none when unset."""
    proxies = []
    for part in _env("KICKOFF_TRUSTED_PROXIES", "").split(","):
        if part.strip():
            try:
                proxies.append(str(ipaddress.ip_network(part.strip(), strict=False)))
            except ValueError:
                raise ValueError(
                    f"KICKOFF_TRUSTED_PROXIES must list IP addresses or networks, got {part.strip()!r}"
                ) from None
    return tuple(proxies)


@dataclass(frozen=True)
class LimitSettings:
    """What one caller, one stream and this node may use. docs/operations/production.md explains each."""

    # KICKOFF_REQUIRE_API_KEY=1: creating rooms and tournaments needs an API key (`x-api-key` metadata or header).
    require_api_key: bool = field(default_factory=lambda: _env("KICKOFF_REQUIRE_API_KEY", "0").lower() in ("1", "true"))
    # KICKOFF_API_KEYS: keys accepted besides those in the store (`kickoff keys create`), comma-separated.
    api_keys: tuple[str, ...] = field(default_factory=_keys, repr=False)
    # KICKOFF_CREATE_RATE: rooms and tournaments one caller (an API key, else a client address) may create.
    create_rate: Rate | None = field(
        default_factory=lambda: Rate.parse(_env("KICKOFF_CREATE_RATE", "30/min"), "KICKOFF_CREATE_RATE")
    )
    # KICKOFF_JOIN_RATE: seats one caller may take in rooms and tournaments.
    join_rate: Rate | None = field(
        default_factory=lambda: Rate.parse(_env("KICKOFF_JOIN_RATE", "120/min"), "KICKOFF_JOIN_RATE")
    )
    # KICKOFF_SIGN_IN_RATE: sign-ins (guest or with a token) and session refreshes one caller may make.
    sign_in_rate: Rate | None = field(
        default_factory=lambda: Rate.parse(_env("KICKOFF_SIGN_IN_RATE", "60/min"), "KICKOFF_SIGN_IN_RATE")
    )
    # KICKOFF_INVITE_RATE: players one player may invite to their party tickets (each friend named is one).
    invite_rate: Rate | None = field(
        default_factory=lambda: Rate.parse(_env("KICKOFF_INVITE_RATE", "60/h"), "KICKOFF_INVITE_RATE")
    )
    # KICKOFF_OPERATOR_KEY_FAILURES: wrong operator keys one caller (an address) may offer; past it, its operator
    # calls are refused (operator_key_throttled) until the rate refills, the right key's too.
    operator_key_failures: Rate | None = field(
        default_factory=lambda: Rate.parse(
            _env("KICKOFF_OPERATOR_KEY_FAILURES", "10/min"), "KICKOFF_OPERATOR_KEY_FAILURES"
        )
    )
    # KICKOFF_STREAMS_PER_CALLER: event, play and tournament streams one caller may hold open at once (0: no limit).
    streams_per_caller: int = field(default_factory=lambda: int(_number("KICKOFF_STREAMS_PER_CALLER", "64", int)))
    # KICKOFF_STREAM_BUFFER: answers a play stream may hold for a client that does not read before it is cut off.
    stream_buffer: int = field(default_factory=lambda: int(_number("KICKOFF_STREAM_BUFFER", "64", int)))
    # KICKOFF_MAX_LIVE_ROOMS: rooms waiting or playing on this node at once (0: no limit).
    max_live_rooms: int = field(default_factory=lambda: int(_number("KICKOFF_MAX_LIVE_ROOMS", "10000", int)))
    # KICKOFF_MAX_LIVE_TOURNAMENTS: tournaments waiting or playing on this node at once (0: no limit).
    max_live_tournaments: int = field(default_factory=lambda: int(_number("KICKOFF_MAX_LIVE_TOURNAMENTS", "1000", int)))
    # KICKOFF_WAITING_ROOM_SECONDS: a waiting room with no seat change for this long closes (0: never).
    waiting_room_seconds: float = field(default_factory=lambda: _number("KICKOFF_WAITING_ROOM_SECONDS", "1800"))
    # KICKOFF_TRUSTED_PROXIES: peers (addresses or networks) whose `x-forwarded-for` names the caller: the gateways
    # and the other nodes. None by default: every caller is the peer it calls from.
    trusted_proxies: tuple[str, ...] = field(default_factory=_trusted_proxies)
    # KICKOFF_RATE_SHARED_ADDRESSES=1: rate the games of people who took their seats from one address (a LAN event, a
    # school behind one NAT). Off by default: such a room plays unrated (same_address), so nobody farms a rating
    # against throwaway guests seated from their own machine.
    rate_shared_addresses: bool = field(
        default_factory=lambda: _env("KICKOFF_RATE_SHARED_ADDRESSES", "0").lower() in ("1", "true")
    )


@dataclass(frozen=True)
class HttpLimits:
    """What one connection and one client may hold of the REST gateway's HTTP server (service/gateway/http.py), whose
    word it takes for a client's address, and the host names it answers to."""

    # KICKOFF_HTTP_MAX_HEADER_BYTES: the request line and all header lines of one request, in bytes (more: 431).
    max_header_bytes: int = field(default_factory=lambda: int(_number("KICKOFF_HTTP_MAX_HEADER_BYTES", "16384", int)))
    # KICKOFF_HTTP_HEADER_TIMEOUT: seconds from a connection's start (or a keep-alive connection's last response) to
    # its next request's headers being complete (later: 408).
    header_timeout: float = field(default_factory=lambda: _number("KICKOFF_HTTP_HEADER_TIMEOUT", "10"))
    # KICKOFF_HTTP_MAX_CONNECTIONS_PER_CLIENT: connections open at a time from one client IP address (more: 429;
    # 0: any number).
    max_connections_per_client: int = field(
        default_factory=lambda: int(_number("KICKOFF_HTTP_MAX_CONNECTIONS_PER_CLIENT", "64", int))
    )
    # KICKOFF_HTTP_LIMIT_CONCURRENCY: uvicorn's limit_concurrency (connections and tasks at once; beyond it, 503).
    limit_concurrency: int = field(default_factory=lambda: int(_number("KICKOFF_HTTP_LIMIT_CONCURRENCY", "4096", int)))
    # KICKOFF_HTTP_KEEP_ALIVE: uvicorn's timeout_keep_alive, seconds an idle keep-alive connection is kept.
    keep_alive_timeout: float = field(default_factory=lambda: _number("KICKOFF_HTTP_KEEP_ALIVE", "5"))
    # KICKOFF_HTTP_MAX_BODY_BYTES: a request body, in bytes (more: 413).
    max_body_bytes: int = field(default_factory=lambda: int(_number("KICKOFF_HTTP_MAX_BODY_BYTES", "65536", int)))
    # KICKOFF_TRUSTED_PROXIES (the gRPC server's setting, read the same way): peers whose X-Forwarded-For and
    # X-Forwarded-Proto name the client and its scheme (reverse proxies in front of the gateway). None by default:
    # every client is the peer it connects from.
    trusted_proxies: tuple[str, ...] = field(default_factory=_trusted_proxies)
    # KICKOFF_ALLOWED_HOSTS: the host names a request's Host may name, comma-separated, '*' for any (IP addresses are
    # always accepted; service/gateway/hosts.py). Unset: the loopback names and the name the gateway listens on.
    allowed_hosts: tuple[str, ...] = field(
        default_factory=lambda: tuple(
            name.strip() for name in _env("KICKOFF_ALLOWED_HOSTS", "").split(",") if name.strip()
        )
    )


@dataclass(frozen=True)
class PlayerSettings:
    """Players (service/players): the identity providers trusted, sessions and leaderboards.
    docs/guides/players.md explains each."""

    # KICKOFF_IDENTITY_PROVIDERS: a JSON list of the identity providers whose tokens sign players in, each
    # {"issuer": ..., "audiences": [...], "jwks_url": ... or "jwks_file": ..., "algorithms": ["RS256", "ES256"]};
    # or @path to a file holding that list. None by default: guests only.
    identity_providers: str = field(default_factory=lambda: _env("KICKOFF_IDENTITY_PROVIDERS", ""))
    # KICKOFF_TOKEN_LEEWAY: seconds of clock difference allowed when checking a provider's exp, nbf and iat.
    leeway_seconds: float = field(default_factory=lambda: _number("KICKOFF_TOKEN_LEEWAY", "60"))
    # KICKOFF_LEADERBOARD_MIN_GAMES: rated games a player needs to appear on a leaderboard.
    min_games: int = field(default_factory=lambda: int(_number("KICKOFF_LEADERBOARD_MIN_GAMES", "5", int)))
    # KICKOFF_SESSION_KEEP_DAYS: how long ended sessions (signed out, revoked, expired) and spent refresh tokens
    # (expired, or of an ended session) are kept (then pruned).
    session_keep_days: float = field(default_factory=lambda: _number("KICKOFF_SESSION_KEEP_DAYS", "30"))
    # KICKOFF_SESSIONS_PER_PLAYER: live sessions one player may have; a sign-in past it ends their oldest session.
    max_sessions: int = field(default_factory=lambda: int(_number("KICKOFF_SESSIONS_PER_PLAYER", "20", int)))

    def __post_init__(self) -> None:
        if self.max_sessions < 1:
            raise ValueError("KICKOFF_SESSIONS_PER_PLAYER must be at least 1")

    def providers_json(self) -> str:
        text = self.identity_providers.strip()
        if text.startswith("@"):
            with open(text[1:], encoding="utf-8") as file:
                return file.read()
        return text


@dataclass(frozen=True)
class MatchSettings:
    """Matchmaking (service/matches): how often the queues turn, how long a ticket waits before system players fill
    its table, how long a person has to take a seat up, how long a ticket searches, and the quotas.
    docs/guides/matchmaking.md explains each."""

    # KICKOFF_MATCH_INTERVAL: seconds between two turns of each game's queue.
    interval_seconds: float = field(default_factory=lambda: _number("KICKOFF_MATCH_INTERVAL", "1"))
    # KICKOFF_MATCH_FILL_SECONDS: a ticket's wait after which system players take the seats people did not (0: never).
    fill_seconds: float = field(default_factory=lambda: _number("KICKOFF_MATCH_FILL_SECONDS", "30"))
    # KICKOFF_MATCH_TAKE_UP_SECONDS: how long a matched person has to take the seat up before it goes to another.
    take_up_seconds: float = field(default_factory=lambda: _number("KICKOFF_MATCH_TAKE_UP_SECONDS", "20"))
    # KICKOFF_TICKET_SECONDS: how long a ticket searches before it expires.
    ticket_seconds: float = field(default_factory=lambda: _number("KICKOFF_TICKET_SECONDS", "300"))
    # KICKOFF_TICKETS_PER_PLAYER / _PER_CALLER: live tickets a player may be in, an address may have made.
    per_player: int = field(default_factory=lambda: int(_number("KICKOFF_TICKETS_PER_PLAYER", "3", int)))
    per_caller: int = field(default_factory=lambda: int(_number("KICKOFF_TICKETS_PER_CALLER", "50", int)))
    # KICKOFF_MAX_QUEUE: searching tickets a game's queue may hold.
    max_queue: int = field(default_factory=lambda: int(_number("KICKOFF_MAX_QUEUE", "20000", int)))
    # KICKOFF_MAX_FOLLOWERS: ticket streams this node serves at once.
    max_followers: int = field(default_factory=lambda: int(_number("KICKOFF_MAX_FOLLOWERS", "10000", int)))
    # KICKOFF_MATCH_KEEP_DAYS: how long ended tickets and started tables are kept (then pruned).
    keep_days: float = field(default_factory=lambda: _number("KICKOFF_MATCH_KEEP_DAYS", "7"))


@dataclass(frozen=True)
class FriendSettings:
    """Friends (service/friends): how many friends, pending requests and blocks a player may have, how many requests
    they may send a day, and how many friend codes they may look up a minute. docs/guides/friends.md explains each."""

    # KICKOFF_FRIENDS_PER_PLAYER: friends one player may have.
    max_friends: int = field(default_factory=lambda: int(_number("KICKOFF_FRIENDS_PER_PLAYER", "200", int)))
    # KICKOFF_FRIEND_REQUESTS_PENDING: requests one player may have sent and waiting for an answer.
    max_pending_out: int = field(default_factory=lambda: int(_number("KICKOFF_FRIEND_REQUESTS_PENDING", "50", int)))
    # KICKOFF_FRIEND_REQUESTS_RECEIVED: requests one player may have received and not answered (a request past it is
    # refused to its sender).
    max_pending_in: int = field(default_factory=lambda: int(_number("KICKOFF_FRIEND_REQUESTS_RECEIVED", "100", int)))
    # KICKOFF_BLOCKS_PER_PLAYER: players one player may block.
    max_blocks: int = field(default_factory=lambda: int(_number("KICKOFF_BLOCKS_PER_PLAYER", "500", int)))
    # KICKOFF_FRIEND_REQUESTS_PER_DAY: requests one player may send in any 24 hours (answered or not).
    per_day: int = field(default_factory=lambda: int(_number("KICKOFF_FRIEND_REQUESTS_PER_DAY", "100", int)))
    # KICKOFF_FRIEND_CODE_LOOKUPS: friend codes one player may look up (SendFriendRequest with a code), on each node.
    code_lookups: Rate | None = field(
        default_factory=lambda: Rate.parse(_env("KICKOFF_FRIEND_CODE_LOOKUPS", "20/min"), "KICKOFF_FRIEND_CODE_LOOKUPS")
    )
    # KICKOFF_FRIEND_REQUESTS_KEEP_DAYS: how long answered requests are kept (then pruned; at least a day, for the
    # requests-a-day bound).
    keep_days: float = field(default_factory=lambda: _number("KICKOFF_FRIEND_REQUESTS_KEEP_DAYS", "2"))

    def __post_init__(self) -> None:
        if self.keep_days < 1:
            raise ValueError("KICKOFF_FRIEND_REQUESTS_KEEP_DAYS must be at least 1 (a day's requests are counted)")


def _networks(name: str) -> tuple[str, ...]:
    networks = tuple(part.strip() for part in _env(name, "").split(",") if part.strip())
    for network in networks:
        try:
            ipaddress.ip_network(network, strict=False)
        except ValueError:
            raise ValueError(f"{name}: {network!r} is not an address or a network (CIDR)") from None
    return networks


@dataclass(frozen=True)
class BotSettings:
    """System players that search (the ``hard`` level): the worker processes they search in.
    docs/guides/system-players.md explains it."""

    # KICKOFF_BOT_WORKERS: worker processes for searches (each search holds one for its think time; a room whose
    # search finds every worker busy waits its turn inside its clock's margin). 0: search in the server's own thread
    # (blocks the event loop: for tools and tests only).
    workers: int = field(default_factory=lambda: int(_number("KICKOFF_BOT_WORKERS", "1", int)))


@dataclass(frozen=True)
class CorrespondenceSettings:
    """Rooms that rest: correspondence rooms (clocks of hours or days) and solo rooms. When an idle one rests (leaves
    memory, the time it must be back stored), how often the store is swept for rooms whose time comes near, and when
    a solo room nobody plays ends as abandoned. docs/guides/webhooks.md and docs/guides/rooms.md explain
    each."""

    # KICKOFF_REST_SECONDS: a correspondence room with no stream open and nothing due rests after this long idle.
    rest_seconds: float = field(default_factory=lambda: _number("KICKOFF_REST_SECONDS", "300"))
    # KICKOFF_WAKE_SECONDS: how often the store is swept for resting rooms whose first deadline comes within two
    # sweeps (they are loaded, and their clock runs in memory to the deadline).
    wake_seconds: float = field(default_factory=lambda: _number("KICKOFF_WAKE_SECONDS", "60"))
    # KICKOFF_SOLO_REST_SECONDS: a solo room with no stream open, its person to move, rests after this long idle (a
    # solo tournament too, with its game, when nobody called it for as long).
    solo_rest_seconds: float = field(default_factory=lambda: _number("KICKOFF_SOLO_REST_SECONDS", "600"))
    # KICKOFF_SOLO_ABANDON_SECONDS: a solo room whose person has not moved for this long ends as abandoned (nobody
    # wins, not rated; 0: never). 30 days by default.
    solo_abandon_seconds: float = field(default_factory=lambda: _number("KICKOFF_SOLO_ABANDON_SECONDS", "2592000"))


@dataclass(frozen=True)
class WebhookSettings:
    """Webhooks (service/webhooks): the operator key of their admin API, the addresses endpoints may have, and how
    deliveries are retried. docs/guides/webhooks.md explains each."""

    # KICKOFF_OPERATOR_KEY: the key of the operator APIs (`x-operator-key`), at least 32 characters; unset: no
    # operator API (the server keeps only its hash).
    operator_key: str = field(default_factory=lambda: _env("KICKOFF_OPERATOR_KEY", ""), repr=False)
    # KICKOFF_WEBHOOK_ALLOW: addresses or networks (CIDR, comma-separated) endpoints may reach although they are
    # loopback, link-local, private or reserved (e.g. 10.0.0.0/8 for receivers inside the cluster). None by default.
    allow: tuple[str, ...] = field(default_factory=lambda: _networks("KICKOFF_WEBHOOK_ALLOW"))
    # KICKOFF_WEBHOOK_RETRY_HOURS: how long a failing delivery is retried before it is a dead letter.
    retry_hours: float = field(default_factory=lambda: _number("KICKOFF_WEBHOOK_RETRY_HOURS", "26"))
    # KICKOFF_WEBHOOK_REMINDER_SECONDS: how long before a deadline clock.running_out is sent (at most half the
    # period; clocks under 10 minutes get none).
    reminder_seconds: float = field(default_factory=lambda: _number("KICKOFF_WEBHOOK_REMINDER_SECONDS", "3600"))
    # KICKOFF_WEBHOOK_POLL_SECONDS: how often each node looks for deliveries due (a change made on the node wakes it
    # at once).
    poll_seconds: float = field(default_factory=lambda: _number("KICKOFF_WEBHOOK_POLL_SECONDS", "1"))
    # KICKOFF_WEBHOOK_BACKLOG: deliveries an endpoint may have waiting; past it, new events for it are dead letters
    # at once (kept, to send again), so a dead receiver cannot fill the store.
    backlog: int = field(default_factory=lambda: int(_number("KICKOFF_WEBHOOK_BACKLOG", "100000", int)))
    # KICKOFF_WEBHOOK_KEEP_DAYS: how long delivered and obsolete deliveries are kept (dead letters: 30 days).
    keep_days: float = field(default_factory=lambda: _number("KICKOFF_WEBHOOK_KEEP_DAYS", "7"))
    # KICKOFF_SECRETS_KEY: seals the endpoints' signing secrets in the store (Fernet, 32 url-safe base64 bytes);
    # unset, a key kept in the store seals them (set it, so that a copy of the database alone gives no secret away).
    secrets_key: str = field(default_factory=lambda: _env("KICKOFF_SECRETS_KEY", ""), repr=False)

    def __post_init__(self) -> None:
        if self.operator_key and len(self.operator_key) < 32:
            raise ValueError("KICKOFF_OPERATOR_KEY needs at least 32 characters")
        if self.retry_hours < 24:
            raise ValueError("KICKOFF_WEBHOOK_RETRY_HOURS must be at least 24 (deliveries are retried for a day)")


# -- the inbox (issue 48) --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class InboxSettings:
    """Each player's inbox (service/inbox): how long items are kept, how many a player keeps, the page size and the
    followers a node serves. docs/guides/inbox.md explains each."""

    # KICKOFF_INBOX_KEEP_DAYS: how long an item is kept (then pruned, read or not).
    keep_days: float = field(default_factory=lambda: _number("KICKOFF_INBOX_KEEP_DAYS", "30"))
    # KICKOFF_INBOX_MAX_ITEMS: the most items a player keeps: the oldest past it are pruned.
    max_items: int = field(default_factory=lambda: int(_number("KICKOFF_INBOX_MAX_ITEMS", "1000", int)))
    # KICKOFF_INBOX_PAGE_SIZE: the most items one ListInbox page holds (and a page's size when none is asked for: 50).
    page_size: int = field(default_factory=lambda: int(_number("KICKOFF_INBOX_PAGE_SIZE", "100", int)))
    # KICKOFF_INBOX_MAX_FOLLOWERS: inbox streams this node serves at once.
    max_followers: int = field(default_factory=lambda: int(_number("KICKOFF_INBOX_MAX_FOLLOWERS", "10000", int)))

    def __post_init__(self) -> None:
        if self.max_items < 1 or self.page_size < 1:
            raise ValueError("KICKOFF_INBOX_MAX_ITEMS and KICKOFF_INBOX_PAGE_SIZE must be at least 1")


# -- table talk (issue 49) -------------------------------------------------------------------------------------------
CHAT_MAX_LENGTH = 1000  # the contract's bound on a message's text (chat.proto): KICKOFF_CHAT_MAX_LENGTH may not pass it
CHAT_FILTER_MODES = ("mask", "refuse")


@dataclass(frozen=True)
class ChatSettings:
    """Rooms' chat (service/chat): a message's length, the history kept per channel and for how long after the game,
    the rate limits and the operator's word filter. docs/guides/chat.md explains each."""

    # KICKOFF_CHAT_MAX_LENGTH: the most characters a text message holds, after normalisation (at most 1000).
    max_length: int = field(default_factory=lambda: int(_number("KICKOFF_CHAT_MAX_LENGTH", "300", int)))
    # KICKOFF_CHAT_HISTORY: the messages kept per channel of a room (the oldest past it are pruned).
    history: int = field(default_factory=lambda: int(_number("KICKOFF_CHAT_HISTORY", "200", int)))
    # KICKOFF_CHAT_KEEP_DAYS: how long a room's messages are kept after its game ended (then removed).
    keep_days: float = field(default_factory=lambda: _number("KICKOFF_CHAT_KEEP_DAYS", "7"))
    # KICKOFF_CHAT_PLAYER_PER_MINUTE: messages one sender may send in a room in a minute (chat_rate past it).
    player_per_minute: int = field(default_factory=lambda: int(_number("KICKOFF_CHAT_PLAYER_PER_MINUTE", "20", int)))
    # KICKOFF_CHAT_ROOM_PER_MINUTE: messages one room takes in a minute, all senders together (room_chat_rate).
    room_per_minute: int = field(default_factory=lambda: int(_number("KICKOFF_CHAT_ROOM_PER_MINUTE", "120", int)))
    # KICKOFF_CHAT_FILTER_FILE: a file of words to filter, one a line ('' the default: no filter).
    filter_file: str = field(default_factory=lambda: _env("KICKOFF_CHAT_FILTER_FILE", ""))
    # KICKOFF_CHAT_FILTER_MODE: what the filter does to a message holding a listed word: "mask" (each letter of the
    # word becomes '*') or "refuse" (message_filtered).
    filter_mode: str = field(default_factory=lambda: _env("KICKOFF_CHAT_FILTER_MODE", "mask").strip().lower())

    def __post_init__(self) -> None:
        if not 1 <= self.max_length <= CHAT_MAX_LENGTH:
            raise ValueError(f"KICKOFF_CHAT_MAX_LENGTH must be 1-{CHAT_MAX_LENGTH}")
        if self.history < 1 or self.player_per_minute < 1 or self.room_per_minute < 1:
            raise ValueError(
                "KICKOFF_CHAT_HISTORY, KICKOFF_CHAT_PLAYER_PER_MINUTE and KICKOFF_CHAT_ROOM_PER_MINUTE must be at "
                "least 1"
            )
        if self.filter_mode not in CHAT_FILTER_MODES:
            raise ValueError(f"KICKOFF_CHAT_FILTER_MODE must be mask or refuse, got {self.filter_mode!r}")


# -- presence (issue 48) ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PresenceSettings:
    """Friends' presence (service/presence): how long a used access token keeps a player online, how often a node
    reads its followed friends' rows, the presence streams a node serves and a GetPresence page's size.
    docs/guides/presence.md explains each."""

    # KICKOFF_PRESENCE_ONLINE_SECONDS: a player with no stream open reads as online this long after a call made with
    # their access token.
    online_seconds: float = field(default_factory=lambda: _number("KICKOFF_PRESENCE_ONLINE_SECONDS", "60"))
    # KICKOFF_PRESENCE_POLL_SECONDS: how often a node reads what changed of the friends its streams follow (0.5 s keeps
    # a change's p99 across nodes under 2 s at 10,000 players: docs/guides/presence.md).
    poll_seconds: float = field(default_factory=lambda: _number("KICKOFF_PRESENCE_POLL_SECONDS", "0.5"))
    # KICKOFF_PRESENCE_MAX_FOLLOWERS: presence streams this node serves at once.
    max_followers: int = field(default_factory=lambda: int(_number("KICKOFF_PRESENCE_MAX_FOLLOWERS", "10000", int)))
    # KICKOFF_PRESENCE_PAGE_SIZE: the most friends one GetPresence page holds.
    page_size: int = field(default_factory=lambda: int(_number("KICKOFF_PRESENCE_PAGE_SIZE", "200", int)))

    def __post_init__(self) -> None:
        if self.poll_seconds <= 0 or self.online_seconds < 0 or self.page_size < 1:
            raise ValueError(
                "KICKOFF_PRESENCE_POLL_SECONDS must be above 0, KICKOFF_PRESENCE_ONLINE_SECONDS 0 or more and "
                "KICKOFF_PRESENCE_PAGE_SIZE at least 1"
            )


def _operator_keys() -> tuple[tuple[str, str], ...]:
    from service.operators.keys import parse_entries

    return parse_entries(_env("KICKOFF_OPERATOR_KEYS", ""))


@dataclass(frozen=True)
class OperatorSettings:
    """The operators' API (OperatorService, REST /v1/ops, the /ops page): the hashes of the operator keys it takes.
    docs/operations/operators.md explains it."""

    # KICKOFF_OPERATOR_KEYS: comma-separated `<key id>:<SHA-256 hex of the key>` entries, as `kickoff operator-keys
    # create` prints them (the server is never given the keys). The webhooks' KICKOFF_OPERATOR_KEY is taken too.
    # None of either: no operator API.
    keys: tuple[tuple[str, str], ...] = field(default_factory=_operator_keys, repr=False)


@dataclass(frozen=True)
class PrivateRoomSettings:
    """Unlisted rooms' invitation links (service/rooms/private.py): how many a room may have, how long one may last
    and how many joins it may let in. docs/guides/private-tables.md explains each."""

    # KICKOFF_PRIVATE_LINKS_PER_ROOM: the most invitation links one room may ever have (revoked and expired ones
    # count: a room's links are bounded rows).
    links_per_room: int = field(default_factory=lambda: int(_number("KICKOFF_PRIVATE_LINKS_PER_ROOM", "20", int)))
    # KICKOFF_PRIVATE_LINK_MAX_SECONDS: the longest a link may open its room (7 days); a link asked without an expiry
    # lasts a day, or this when it is shorter.
    max_seconds: float = field(default_factory=lambda: _number("KICKOFF_PRIVATE_LINK_MAX_SECONDS", "604800"))
    # KICKOFF_PRIVATE_LINK_MAX_USES: the most joins one link may let in, and what a link asked with max_uses 0 gets.
    max_uses: int = field(default_factory=lambda: int(_number("KICKOFF_PRIVATE_LINK_MAX_USES", "100", int)))


@dataclass(frozen=True)
class RoomInvitationSettings:
    """Invitations to a friend (service/rooms/invitations.py): how many may wait for an answer in one room and for one
    player; and matchmaking parties' links (service/matches/party.py): how many a ticket may have, how long one lasts.
    docs/guides/private-tables.md and docs/guides/matchmaking.md explain each."""

    # KICKOFF_ROOM_INVITATIONS_PER_ROOM: invitations one room may have waiting for an answer.
    per_room: int = field(default_factory=lambda: int(_number("KICKOFF_ROOM_INVITATIONS_PER_ROOM", "20", int)))
    # KICKOFF_ROOM_INVITATIONS_PER_PLAYER: invitations one player may have received and not answered (an invitation
    # past it is refused to the inviter).
    per_player: int = field(default_factory=lambda: int(_number("KICKOFF_ROOM_INVITATIONS_PER_PLAYER", "50", int)))
    # KICKOFF_PARTY_LINKS_PER_TICKET: the most party links one matchmaking ticket may ever have (service/matches/
    # party.py; revoked and expired ones count).
    party_links: int = field(default_factory=lambda: int(_number("KICKOFF_PARTY_LINKS_PER_TICKET", "5", int)))
    # KICKOFF_PARTY_LINK_MAX_SECONDS: the longest a party link may open its party (a day); one asked without an
    # expiry lasts this long.
    party_link_seconds: float = field(default_factory=lambda: _number("KICKOFF_PARTY_LINK_MAX_SECONDS", "86400"))


@dataclass(frozen=True)
class RematchSettings:
    """Rematches (service/rooms/rematches.py): how long the people of a finished live room have to answer a proposal.
    docs/guides/rematches.md explains it."""

    # KICKOFF_REMATCH_SECONDS: a live room's window to answer a rematch in (60 s); a correspondence room's is its own
    # period (correspondence_hours).
    seconds: float = field(default_factory=lambda: _number("KICKOFF_REMATCH_SECONDS", "60"))


@dataclass(frozen=True)
class Settings:
    """Every setting of the gRPC server in one aggregate, read from the environment once, at start-up
    (:meth:`from_environment`), and handed to the composition root (service/grpc/server.py's ``serve``), which gives
    each collaborator its own part: nothing below it reads the environment. (The REST gateway, a process of its own,
    reads its HttpLimits.)"""

    grpc: GrpcSettings = field(default_factory=GrpcSettings)
    store: StoreSettings = field(default_factory=StoreSettings)
    limits: LimitSettings = field(default_factory=LimitSettings)
    node: NodeSettings = field(default_factory=NodeSettings)  # (used on PostgreSQL only: a node of a cluster)
    players: PlayerSettings = field(default_factory=PlayerSettings)
    matches: MatchSettings = field(default_factory=MatchSettings)
    correspondence: CorrespondenceSettings = field(default_factory=CorrespondenceSettings)
    webhooks: WebhookSettings = field(default_factory=WebhookSettings)
    bots: BotSettings = field(default_factory=BotSettings)
    operators: OperatorSettings = field(default_factory=OperatorSettings)
    private: PrivateRoomSettings = field(default_factory=PrivateRoomSettings)
    rematch: RematchSettings = field(default_factory=RematchSettings)  # (issue 48: rematches)
    inbox: InboxSettings = field(default_factory=InboxSettings)  # (issue 48: the inbox)
    friends: FriendSettings = field(default_factory=FriendSettings)  # (issue 48)
    presence: PresenceSettings = field(default_factory=PresenceSettings)  # (issue 48: presence)
    invitations: RoomInvitationSettings = field(default_factory=RoomInvitationSettings)  # (issue 48, part 2)
    chat: ChatSettings = field(default_factory=ChatSettings)  # (issue 49: table talk and its moderation)

    @classmethod
    def from_environment(cls, **given: Any) -> Settings:
        """Every part read from the environment, but those ``given`` by name (what a command's flags set, e.g.
        ``store=StoreSettings(database_url=...)``). A bad KICKOFF_* value stops the start here, naming its variable."""
        return cls(**given)
