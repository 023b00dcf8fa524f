"""The gRPC server, and the composition root of the house: `serve` reads nothing itself; it takes every setting in
one aggregate (service/settings.py's Settings, read from the environment once by `kickoff grpc`), builds every
collaborator in dependency order (:class:`Assembly`: the store, the node, the webhooks' outbox, the journal that writes
into it, the rooms and what they share, the tournaments, players, matchmaking, admission) handing each what it needs
through its constructor, nothing attached afterwards, then runs it until a signal stops it. `create_server` builds the
gRPC server itself from what was built (tests call it with their own collaborators, and bind port 0). The root is here
rather than in a module of its own because this module already is the top of the service (nothing in service/ imports
it; the CLI, the benchmarks and the tests do) and the tests' fixtures build their servers through it; only the
composition root's factories take more than 8 parameters.

Message sizes are set for each direction: a request is at most MAX_REQUEST_BYTES (the largest a client has reason to
send, a room with its options, is under 2 KB; grpc refuses anything bigger with RESOURCE_EXHAUSTED before decoding
it), a response at most MAX_RESPONSE_BYTES (a page of 500 rooms fits), metadata at most MAX_METADATA_BYTES. A
connection that carries no call for IDLE_CONNECTION_MS is closed. Streams per connection are not capped: the REST
gateway carries every client's event stream on one connection; each caller's streams are (admission.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import signal
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio
from grpc_reflection.v1alpha import reflection, reflection_pb2, reflection_pb2_grpc
from sqlalchemy.ext.asyncio import AsyncEngine

from kickoff.v1 import (
    chat_pb2,
    chat_pb2_grpc,
    friend_pb2,
    friend_pb2_grpc,
    game_pb2,
    game_pb2_grpc,
    inbox_pb2,
    inbox_pb2_grpc,
    match_pb2,
    match_pb2_grpc,
    move_pb2,
    move_pb2_grpc,
    operator_pb2,
    operator_pb2_grpc,
    player_pb2,
    player_pb2_grpc,
    presence_pb2,
    presence_pb2_grpc,
    room_pb2,
    room_pb2_grpc,
    tournament_pb2,
    tournament_pb2_grpc,
    webhook_pb2,
    webhook_pb2_grpc,
)
from service import collector
from service.actors.runtime import Runtime
from service.chat.chat import Chat
from service.chat.moderation import ChatRules
from service.chat.reports import ChatModeration
from service.cluster.node import Node
from service.friends.store import FriendStore
from service.grpc.admission import Admission
from service.grpc.chat import ChatServicer
from service.grpc.errors import count_refusals
from service.grpc.forward import Forwarder, Seal, peer_ping_ms
from service.grpc.friends import FriendServicer
from service.grpc.inbox import InboxServicer
from service.grpc.limits import tolerant
from service.grpc.matches import MatchServicer
from service.grpc.operators import OperatorServicer
from service.grpc.players import PlayerServicer
from service.grpc.presence import PresenceServicer
from service.grpc.servicers import GameServicer, MoveServicer, RoomAccess, RoomServicer
from service.grpc.tokens import SeatTokens
from service.grpc.tournaments import TournamentServicer
from service.grpc.webhooks import WebhookServicer
from service.inbox.inbox import Inbox
from service.matches.matchmaker import Matchmaker
from service.matches.party import PartyLinks
from service.matches.store import MatchStore
from service.operators.keys import OperatorKeys
from service.players.identity import ExternalTokens, issuers_from_json
from service.players.players import Players, page_key
from service.players.store import PlayerStore
from service.presence.presence import Presence
from service.rooms.clock import SystemClock
from service.rooms.directory import DealSpec, RoomDirectory, RoomsShared
from service.rooms.invitations import RoomInvitations
from service.rooms.private import InvitationLinks
from service.rooms.rematches import Rematches
from service.rooms.room import RoomLimits
from service.rooms.thinking import Thinkers
from service.secrets import Sealer
from service.settings import LimitSettings, PrivateRoomSettings, Rate, RematchSettings, Settings
from service.store.database import create_engine
from service.store.journal import SqlJournal, token_secret
from service.store.keys import live_keys
from service.store.links import MemoryLinks, SqlLinks
from service.store.rematches import MemoryRematches, SqlRematches
from service.store.retention import Retention
from service.telemetry import ServerSpans, Telemetry, from_environment
from service.tournaments.directory import TournamentDirectory
from service.webhooks.webhooks import Webhooks

log = logging.getLogger(__name__)

MAX_REQUEST_BYTES = 64 * 1024
MAX_RESPONSE_BYTES = 4 * 1024 * 1024
MAX_METADATA_BYTES = 16 * 1024
IDLE_CONNECTION_MS = 5 * 60 * 1000  # a connection with no call this long is closed (clients reconnect by themselves)
SERVER_OPTIONS = (
    ("grpc.max_receive_message_length", MAX_REQUEST_BYTES),
    ("grpc.max_send_message_length", MAX_RESPONSE_BYTES),
    ("grpc.max_metadata_size", MAX_METADATA_BYTES),
    ("grpc.max_connection_idle_ms", IDLE_CONNECTION_MS),
)
# How often a client may ping on a connection with no data moving (a stream waiting for its next update) without
# being told GOAWAY: the gateway's channels ping every 10 s (service/gateway/app.py), a cluster's nodes each other every
# half lease (forward.channel_options; allowed every quarter lease). grpc's own default is once in five minutes.
MIN_PING_MS = 5_000
KEY_REFRESH_SECONDS = 30.0  # how often a server reads the store's API keys again (a revoked key stops within this)


def no_limits() -> LimitSettings:
    """Anyone may create, join and stream, as often as they like, and games are rated although everyone calls from
    one address (tests and benchmarks, on loopback)."""
    return LimitSettings(
        require_api_key=False,
        api_keys=(),
        create_rate=None,
        join_rate=None,
        sign_in_rate=None,
        invite_rate=None,
        operator_key_failures=None,
        streams_per_caller=0,
        rate_shared_addresses=True,
    )


class _Registrar:
    """Takes the handlers a generated ``add_*Servicer_to_server`` registers and hands them on with request decoders
    that never raise: bytes that are not the request message reach the servicer as ``limits.Malformed`` and are
    refused with INVALID_ARGUMENT (grpc would answer UNKNOWN and log a traceback for each); and with response encoders
    that pass on a message the servicer serialised itself."""

    def __init__(self, server: grpc.aio.Server, calls: Calls) -> None:
        self._server = server
        self._calls = calls

    def add_generic_rpc_handlers(self, handlers: Any) -> None:
        """Ignored: the same handlers arrive through add_registered_method_handlers."""

    def add_registered_method_handlers(self, service: str, handlers: Mapping[str, Any]) -> None:
        wrapped = {
            name: self._calls.counted(self._calls.traced(f"/{service}/{name}", _tolerant(handler)))
            for name, handler in handlers.items()
        }
        self._server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, wrapped),))
        self._server.add_registered_method_handlers(service, wrapped)


def _tolerant(handler: Any) -> Any:
    decode = handler.request_deserializer
    message = getattr(decode, "__self__", None)
    name = message.DESCRIPTOR.name if message is not None else "request"
    return handler._replace(
        request_deserializer=tolerant(decode, name), response_serializer=_serialized(handler.response_serializer)
    )


class Calls:
    """The calls being handled now. A stopping server waits for them (up to its grace) before the process ends:
    grpc's stop can return while a handler that began as it stopped is still running, and the end of the process
    would cancel it (its client would hear CANCELLED, where it should hear the handler's answer)."""

    def __init__(self, spans: ServerSpans | None = None) -> None:
        self.running = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._spans = spans  # the unary calls' server spans (tracing on)

    def traced(self, method: str, handler: Any) -> Any:
        """``handler`` with its server span, when tracing is on (telemetry.ServerSpans)."""
        if self._spans is None or handler.unary_unary is None:
            return handler
        return handler._replace(unary_unary=self._spans.wrap(method, handler.unary_unary))

    def counted(self, handler: Any) -> Any:
        if handler.unary_unary is not None:
            return handler._replace(unary_unary=self._unary(handler.unary_unary))
        if handler.stream_unary is not None:
            return handler._replace(stream_unary=self._unary(handler.stream_unary))
        if handler.unary_stream is not None:
            return handler._replace(unary_stream=self._stream(handler.unary_stream))
        return handler._replace(stream_stream=self._stream(handler.stream_stream))

    def _begin(self) -> None:
        self.running += 1
        self._idle.clear()

    def _end(self) -> None:
        self.running -= 1
        if not self.running:
            self._idle.set()

    def _unary(self, behavior: Callable[..., Any]) -> Callable[..., Any]:
        async def counted(request: Any, context: Any) -> Any:
            self._begin()
            try:
                return await behavior(request, context)
            finally:
                self._end()

        return counted

    def _stream(self, behavior: Callable[..., Any]) -> Callable[..., Any]:
        async def counted(request: Any, context: Any) -> Any:
            self._begin()
            try:
                async for message in behavior(request, context):
                    yield message
            finally:
                self._end()

        return counted

    async def settled(self, seconds: float) -> None:
        """Until no call is being handled, or ``seconds`` have passed."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), seconds)


def _serialized(serialize: Callable[[Any], bytes]) -> Callable[[Any], bytes]:
    """The handler's response serializer, which also takes a message already serialised (bytes: the streams send
    updates serialised once for every seat, see convert.update_bytes)."""

    def serialized(message: Any) -> bytes:
        return message if type(message) is bytes else serialize(message)

    return serialized


def _register(add: Callable[[Any, Any], None], servicer: Any, server: grpc.aio.Server, calls: Calls) -> None:
    add(servicer, _Registrar(server, calls))


SERVICES = (
    game_pb2.DESCRIPTOR.services_by_name["GameService"].full_name,
    room_pb2.DESCRIPTOR.services_by_name["RoomService"].full_name,
    move_pb2.DESCRIPTOR.services_by_name["MoveService"].full_name,
    tournament_pb2.DESCRIPTOR.services_by_name["TournamentService"].full_name,
    player_pb2.DESCRIPTOR.services_by_name["PlayerService"].full_name,
    match_pb2.DESCRIPTOR.services_by_name["MatchService"].full_name,
    webhook_pb2.DESCRIPTOR.services_by_name["WebhookService"].full_name,
    operator_pb2.DESCRIPTOR.services_by_name["OperatorService"].full_name,
    inbox_pb2.DESCRIPTOR.services_by_name["InboxService"].full_name,  # (issue 48)
    friend_pb2.DESCRIPTOR.services_by_name["FriendService"].full_name,
    presence_pb2.DESCRIPTOR.services_by_name["PresenceService"].full_name,  # (issue 48: presence)
    chat_pb2.DESCRIPTOR.services_by_name["ChatService"].full_name,  # (issue 49: table talk)
)


class HandOver:
    """A node's hand-over of every live room and tournament to the other nodes, once: as it stops, or when an operator
    drains it (DrainNode). Built before the servicers, so that OperatorServicer is given it; a single server has none
    to make (``node`` None)."""

    def __init__(self, health: health_aio.HealthServicer, runtime: Runtime, forwarder: Forwarder | None) -> None:
        self.health = health
        self.runtime = runtime
        self.node = runtime.node
        self.forwarder = forwarder
        self.drained: dict[str, int] | None = None  # what the drain handed over, once it ran

    async def by_operator(self) -> dict[str, int]:
        """An operator's DrainNode: as a stopping node drains (NOT_SERVING, every live room and tournament handed
        over, the leases given back, the node's row gone), but the process keeps answering (every call goes to the
        other nodes) until it is stopped; what it handed over (``room``, ``tournament``, ``leases``)."""
        await self.health.enter_graceful_shutdown()
        return await self.drain()

    async def drain(self) -> dict[str, int]:
        """Hand every live room and tournament over to the other nodes: each finishes what it has in hand (stored
        before it is answered), refuses what comes after with a retriable UNAVAILABLE and tells its streams to come
        back; then the leases are given back, for the other nodes to claim at once, and this node leaves. Returns
        how many rooms, tournaments and leases (``room``, ``tournament``, ``leases``); once only (again: the same)."""
        assert self.node is not None
        if self.drained is not None:
            return self.drained
        self.drained = {}
        # Nothing more is claimed here (a call for a room nobody owns waits for another node); tournaments first.
        handed = await self.runtime.hand_over()
        rooms, tournaments = handed.get("room", 0), handed.get("tournament", 0)
        if self.forwarder is not None:
            self.forwarder.stop_streams()
        given = 0
        try:
            given = await self.node.drain()
            await self.node.leave()
        except Exception as error:  # the store is away: the leases run out by themselves
            log.warning(
                "could not give the leases back (%s); they expire in %g s",
                type(error).__name__,
                self.node.settings.lease_seconds,
            )
        log.info("drained: %d rooms and %d tournaments handed over, %d leases given back", rooms, tournaments, given)
        self.drained = {"room": rooms, "tournament": tournaments, "leases": given}
        return self.drained


class KickoffServer:
    """A started gRPC server with its rooms and tournaments."""

    def __init__(
        self,
        server: grpc.aio.Server,
        port: int,
        directory: RoomDirectory,
        tournaments: TournamentDirectory,
        admission: Admission,
        operators: OperatorServicer,
        hand_over: HandOver,
        calls: Calls | None = None,
    ):
        self.calls = calls or Calls()
        self.server = server
        self.port = port
        self.directory = directory
        self.tournaments = tournaments
        self.admission = admission
        self.operators = operators  # (what keys it takes: ``operators.keys``)
        self.hand_over = hand_over
        self.health = hand_over.health
        self.forwarder = hand_over.forwarder
        self.runtime = directory.runtime
        self.node = directory.runtime.node
        self.rematches: Rematches | None = None  # finished rooms' rematches (service/rooms/rematches.py)

    @property
    def drained(self) -> dict[str, int] | None:
        """What the drain handed over, once it ran (HandOver.drain)."""
        return self.hand_over.drained

    async def drain(self) -> dict[str, int]:
        return await self.hand_over.drain()

    async def stop(self, grace: float | None = None) -> None:
        """Stop gracefully: report NOT_SERVING, let calls in flight finish within ``grace``, close the rooms. A node
        of a cluster first hands its rooms over (:meth:`HandOver.drain`)."""
        await self.health.enter_graceful_shutdown()
        if self.node is not None and self.drained is None:
            await self.drain()
        started = time.monotonic()
        await self.server.stop(grace)
        await self.calls.settled(max(0.0, (grace or 0.0) - (time.monotonic() - started)))
        await self.runtime.close()
        if self.forwarder is not None:
            await self.forwarder.close()


REFLECTION_V1 = "grpc.reflection.v1.ServerReflection"


def _enable_reflection(server: grpc.aio.Server) -> None:
    """Server reflection as both grpc.reflection.v1 (what current grpcurl, Postman and buf curl ask first) and
    v1alpha (older clients). grpcio-reflection implements only v1alpha; v1's messages are the same on the wire (the
    same fields and numbers, only the package differs), so v1 is the same servicer under the v1 service name."""
    names = (*SERVICES, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME)
    servicer = reflection.aio.ReflectionServicer((*names, REFLECTION_V1))
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)
    v1 = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(REFLECTION_V1, {"ServerReflectionInfo": v1}),)
    )


def _seal(tokens: SeatTokens, node: Node | None) -> Seal | None:
    """The seal of the calls a node forwards, and checks on those forwarded to it (None: a single server, which
    forwards none); every node derives the same one from the seat tokens' secret."""
    return None if node is None else Seal(tokens.derived_key(b"kickoff forwarded calls"))


async def create_server(
    directory: RoomDirectory,
    tokens: SeatTokens,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    tournaments: TournamentDirectory | None = None,
    admission: Admission | None = None,
    players: Players | None = None,
    matchmaker: Matchmaker | None = None,
    webhooks: Webhooks | None = None,
    operator_keys: OperatorKeys | None = None,
    private: PrivateRoomSettings | None = None,
    inbox: Inbox | None = None,
    friends: FriendStore | None = None,
    presence: Presence | None = None,
    invitations: RoomInvitations | None = None,
    rematch: RematchSettings | None = None,
    chat: Chat | None = None,
    moderation: ChatModeration | None = None,
) -> KickoffServer:
    """Build and start the server on ``host:port`` (0: any free port; the one bound is in ``.port``). Its
    telemetry is the room directory's: with tracing on, every call gets a server span that the rooms' spans join.
    ``admission`` decides who may create, join and stream (default: anyone, with no rate or stream limits; on a node,
    it must take the nodes' seal: :func:`_seal`); ``players`` signs players in (None: no PlayerService, and every seat
    is anonymous); ``matchmaker`` (with players) serves MatchService, ``inbox`` (with players) InboxService;
    ``webhooks`` serves WebhookService (the operators' admin API). OperatorService is served with ``operator_keys``
    (none: every call is refused, operator_api_off). ``private``: the bounds of unlisted rooms' invitation links,
    kept on the journal's database (a store in memory: in memory). ``chat`` (issue 49, on a database store): rooms'
    chat (ChatService). ``moderation`` (issue 49, with players): the chat's reports, mutes and operators' actions,
    which OperatorService reads and acts on (a message an operator deletes is withdrawn through the chat)."""
    telemetry = directory.telemetry
    count_refusals(telemetry.instruments.refusals)
    node = directory.runtime.node
    ping_ms = MIN_PING_MS if node is None else min(MIN_PING_MS, peer_ping_ms(node.settings.lease_seconds))
    options = (*SERVER_OPTIONS, ("grpc.http2.min_ping_interval_without_data_ms", ping_ms))
    server = grpc.aio.server(options=options)
    tournaments = tournaments or TournamentDirectory(directory)
    seal = _seal(tokens, node)  # (a call another node forwarded names its caller, under this seal)
    admission = admission or Admission(no_limits(), vouched=seal.caller if seal is not None else None)
    forwarder = None if node is None or seal is None else Forwarder(node, admission.address, seal)
    health = health_aio.HealthServicer()
    hand_over = HandOver(health, directory.runtime, forwarder)
    links = InvitationLinks(
        SqlLinks(directory.journal.engine) if isinstance(directory.journal, SqlJournal) else MemoryLinks(),
        tokens.derived_key(b"kickoff invitation links"),
        directory.clock.now,
        private,
        telemetry,
    )
    # (issue 48: rematches, kept on the journal's database with their events through its outbox; else in memory)
    journal = directory.journal
    rematches = Rematches(
        directory,
        SqlRematches(journal.engine, journal.outbox) if isinstance(journal, SqlJournal) else MemoryRematches(),
        (rematch or RematchSettings()).seconds,
    )
    await rematches.resume()
    access = RoomAccess(directory, tokens, forwarder, players, links, invitations, rematches, chat)
    party_links = PartyLinks(  # (issue 48, part 2: matchmaking parties' links, kept beside invitation links)
        links.store,
        tokens.derived_key(b"kickoff party links"),
        directory.clock.now,
        invitations.settings if invitations is not None else None,
    )
    calls = Calls(ServerSpans(telemetry.tracer) if telemetry.tracing else None)
    _register(
        tournament_pb2_grpc.add_TournamentServiceServicer_to_server,
        TournamentServicer(tournaments, access, admission),
        server,
        calls,
    )
    _register(game_pb2_grpc.add_GameServiceServicer_to_server, GameServicer(), server, calls)
    _register(room_pb2_grpc.add_RoomServiceServicer_to_server, RoomServicer(access, admission), server, calls)
    _register(move_pb2_grpc.add_MoveServiceServicer_to_server, MoveServicer(access, admission), server, calls)
    if players is not None:
        _register(
            player_pb2_grpc.add_PlayerServiceServicer_to_server,
            PlayerServicer(players, access, admission),
            server,
            calls,
        )
        if matchmaker is not None:
            _register(
                match_pb2_grpc.add_MatchServiceServicer_to_server,
                MatchServicer(matchmaker, players, access, admission, party_links),
                server,
                calls,
            )
        if inbox is not None:  # (issue 48: the inbox)
            _register(
                inbox_pb2_grpc.add_InboxServiceServicer_to_server,
                InboxServicer(inbox, players, admission),
                server,
                calls,
            )
        if friends is not None:  # (issue 48: friends, with players)
            _register(
                friend_pb2_grpc.add_FriendServiceServicer_to_server,
                FriendServicer(friends, players, telemetry),
                server,
                calls,
            )
            if presence is not None:  # (issue 48: presence, with friends)
                _register(
                    presence_pb2_grpc.add_PresenceServiceServicer_to_server,
                    PresenceServicer(presence, friends, players, admission),
                    server,
                    calls,
                )
    if chat is not None:  # (issue 49: table talk, on a database store)
        _register(chat_pb2_grpc.add_ChatServiceServicer_to_server, ChatServicer(chat, access, admission), server, calls)
    if webhooks is not None:
        _register(
            webhook_pb2_grpc.add_WebhookServiceServicer_to_server,
            WebhookServicer(webhooks, admission, telemetry),
            server,
            calls,
        )
    operators = OperatorServicer(
        operator_keys or OperatorKeys(),
        access,
        admission,
        hand_over.by_operator,
        chat=moderation,
        withdraw=chat.withdraw if chat is not None else None,
    )
    _register(operator_pb2_grpc.add_OperatorServiceServicer_to_server, operators, server, calls)
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    _enable_reflection(server)
    bound = server.add_insecure_port(f"{host}:{port}")
    if not bound:
        raise OSError(f"cannot listen on {host}:{port}")
    await server.start()
    await health.set("", health_pb2.HealthCheckResponse.SERVING)
    for name in SERVICES:
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    running = KickoffServer(server, bound, directory, tournaments, admission, operators, hand_over, calls)
    running.rematches = rematches
    return running


@dataclass
class Assembly:
    """Every collaborator of a running server, built by :meth:`build` from the settings in dependency order, each
    handed what it needs through its constructor (nothing is attached afterwards); :meth:`start` sets them going
    and binds the server, :meth:`stop` stops them in the reverse order. On a store in memory there is no journal,
    no players and no webhooks."""

    settings: Settings
    telemetry: Telemetry
    runtime: Runtime
    directory: RoomDirectory
    tournaments: TournamentDirectory
    tokens: SeatTokens
    admission: Admission
    operator_keys: OperatorKeys
    journal: SqlJournal | None = None
    players: Players | None = None
    matchmaker: Matchmaker | None = None
    webhooks: Webhooks | None = None
    friends: FriendStore | None = None
    invitations: RoomInvitations | None = None  # (issue 48, part 2: invitations to a friend; none without players)
    retention: Retention | None = None
    inbox: Inbox | None = None  # (issue 48: the players' inboxes; none on a store in memory)
    presence: Presence | None = None  # (issue 48: friends' presence; none on a store in memory)
    chat: Chat | None = None  # (issue 49: rooms' chat; none on a store in memory)
    moderation: ChatModeration | None = None  # (issue 49: reports, mutes, the operators' actions; none without players)
    chat_rules: ChatRules | None = None  # (issue 49: the text rules and word filter, read at start-up)
    running: KickoffServer | None = None
    refreshing: asyncio.Task[None] | None = None

    @classmethod
    async def build(
        cls, settings: Settings, *, discard_spans: bool = False, deals: Callable[[], DealSpec] | None = None
    ) -> Assembly:
        telemetry = from_environment("kickoff-grpc", discard_spans=discard_spans)
        clock = SystemClock()
        limits, grpc_settings = settings.limits, settings.grpc
        operator_keys = OperatorKeys.from_settings(
            settings.operators.keys, settings.webhooks.operator_key, limits.api_keys
        )
        node: Node | None = None
        journal = player_store = webhooks = inbox = None
        sealer = Sealer.of_process()  # (the rooms' deal secrets: a store in memory lives as long as the process)
        secret = grpc_settings.token_secret or secrets.token_bytes(32)  # (a store in memory keeps none)
        if settings.store.database_url != "memory":
            engine = create_engine(settings.store.database_url)
            secret = grpc_settings.token_secret or await token_secret(engine)
            player_store = PlayerStore(
                engine,
                time.time,
                min_games=settings.players.min_games,
                max_sessions=settings.players.max_sessions,
                page_key=page_key(secret),
            )
            await player_store.recount()  # (the leaderboards' band counts, with this server's minimum of games)
            if engine.dialect.name == "postgresql":
                address = settings.node.address(grpc_settings.host, grpc_settings.port)
                node = Node.for_engine(engine, settings.node, address, telemetry)
            node_id = node.node_id if node is not None else ""
            # (issue 48: the outbox writes every event that names a player into their inbox too)
            inbox = Inbox(engine, settings.inbox, now=time.time, telemetry=telemetry)
            player_store.erasers.append(inbox.erase)  # (a player's deletion takes their items, in its transaction)
            # (the outbox is written in the journal's transactions: every line's events, or none)
            # The key the nodes share, for webhook secrets and the rooms' deal secrets alike (service/secrets.py)
            sealer = await Sealer.for_store(engine, settings.webhooks.secrets_key)
            webhooks = await Webhooks.open(
                engine,
                settings.webhooks,
                clock=clock,
                telemetry=telemetry,
                node_id=node_id,
                operator_keys=operator_keys,
                inbox=inbox,
                sealer=sealer,
            )
            journal = SqlJournal(
                engine,
                telemetry,
                retry_seconds=settings.store.retry_seconds,
                node_id=node_id,
                rater=player_store.rate,
                outbox=webhooks.outbox,
            )
            if node is not None:
                await node.join()
        runtime = Runtime(node)  # (where every room and tournament lives)
        room_limits = RoomLimits(
            waiting_seconds=limits.waiting_room_seconds or None, stream_buffer=limits.stream_buffer
        )
        shared = RoomsShared.of(
            {
                "clock": clock,
                "journal": journal,
                "telemetry": telemetry,
                "limits": room_limits,
                "rates": player_store is not None,
                "thinkers": Thinkers(settings.bots.workers),
                "runtime": runtime,
                "deals": deals,
                "sealer": sealer,
                "max_live_rooms": limits.max_live_rooms or None,
                "correspondence": settings.correspondence,
            }
        )
        directory = RoomDirectory(shared)
        # The tournaments hear of finished games, so they exist before the rooms come back.
        # (issue 50: a duplicate tournament's deals' secrets are sealed at rest under the nodes' shared key)
        tournaments = TournamentDirectory(directory, max_live=limits.max_live_tournaments or None, sealer=sealer)
        tokens = SeatTokens(secret)
        seal = _seal(tokens, node)
        admission = Admission(limits, vouched=seal.caller if seal is not None else None)
        players = matchmaker = retention = friends = presence = invitations = chat = None
        moderation = None
        # (issue 49) The chat's text rules, with the operator's word filter read now: a file that will not do stops
        # the start, naming KICKOFF_CHAT_FILTER_FILE.
        chat_rules = ChatRules.from_settings(settings.chat)
        if player_store is not None:
            external = ExternalTokens(
                issuers_from_json(settings.players.providers_json()), leeway=settings.players.leeway_seconds
            )
            # Presence (issue 48): this node's players' states, from their streams and calls (service/presence).
            presence = Presence(
                player_store.engine,
                runtime.node.node_id if runtime.node is not None else "",
                settings.presence,
                now=time.time,
                telemetry=telemetry,
                room=directory.in_memory,
            )
            players = Players(player_store, secret, external, presence=presence)
            outbox = webhooks.outbox if webhooks is not None else None
            matches = MatchStore(player_store.engine, clock.now, settings.matches, outbox)
            matchmaker = Matchmaker(matches, directory, player_store, settings.matches, clock=clock)
            retention = Retention(player_store.engine, time.time)  # (ended tickets, tables, sessions: pruned)
            retention.add(player_store.retention(settings.players.session_keep_days))
            retention.add(matches.retention())
            if inbox is not None:
                retention.add(inbox.retention())
                retention.look(inbox.count_unread)  # (the unread backlog's gauge, while metrics are exported)
            # Friends (issue 48): requests' events through the outbox; a deleted player's friends go with them.
            friends = FriendStore(player_store.engine, clock.now, settings.friends, outbox)
            player_store.erasers.append(friends.erase)
            retention.add(friends.retention())
            # Invitations to a friend (issue 48, part 2): room.invited through the outbox; a deleted player's go too.
            invitations = RoomInvitations(player_store.engine, clock.now, settings.invitations, outbox)
            player_store.erasers.append(invitations.erase)
            retention.add(invitations.retention())
            # The chat's moderation (issue 49): reports, mutes and the operators' actions, in the shared store.
            moderation = ChatModeration.on(player_store.engine, time.time)
            retention.add(moderation.retention())
            player_store.erasers.append(moderation.reports.erase)  # (a deleted player's name leaves the reports)
            # Rooms' chat (issue 49): a deleted player's messages keep no name; a finished room's go after a while.
            chat = Chat(
                player_store.engine,
                settings.chat,
                now=clock.now,
                clustered=node is not None,
                reports=moderation.reports,
                rules=chat_rules,
                mutes=moderation.mutes,
                outbox=outbox,  # (a message to a person away from a correspondence room: their event and inbox item)
            )
            player_store.erasers.append(chat.erase)
            retention.add(chat.retention())
        return cls(
            settings,
            telemetry,
            runtime,
            directory,
            tournaments,
            tokens,
            admission,
            operator_keys,
            journal=journal,
            players=players,
            matchmaker=matchmaker,
            webhooks=webhooks,
            friends=friends,
            invitations=invitations,
            retention=retention,
            inbox=inbox,
            presence=presence,
            chat=chat,
            moderation=moderation,
            chat_rules=chat_rules,
        )

    async def start(self) -> KickoffServer:
        """Bring back the rooms and tournaments (a node: claim its share of those nobody alive owns), start the
        background work, and serve."""
        keys = self.operator_keys
        log.info("operator API: %s", f"{len(keys)} operator keys" if keys.enabled else "off (no key)")
        node = self.runtime.node
        if node is not None:
            claimed = await self.runtime.sweep()
            log.info("node %s claimed %d rooms and tournaments nobody alive owned", node.node_id, claimed)
            self.runtime.start()
        elif self.journal is not None:
            for kind, unfinished in (await self.runtime.restore(self.journal)).items():
                log.info("restored %d unfinished %ss", unfinished, kind)
        await self.directory.start_resting()  # (correspondence rooms: rest when idle, wake when due)
        await self.tournaments.start_resting()  # (solo tournaments a restart left resting in the store, with games)
        if self.journal is not None:
            loop = asyncio.get_running_loop()
            self.refreshing = loop.create_task(refresh_keys(self.admission, self.journal.engine), name="api keys")
        if self.matchmaker is not None:
            await self.matchmaker.start()
        if self.webhooks is not None:
            self.webhooks.start()
        if self.retention is not None:
            self.retention.start()
        if self.inbox is not None:
            self.inbox.start()
        if self.presence is not None:
            await self.presence.start()
        _describe(self.settings.limits)
        self.running = await create_server(
            self.directory,
            self.tokens,
            host=self.settings.grpc.host,
            port=self.settings.grpc.port,
            tournaments=self.tournaments,
            admission=self.admission,
            players=self.players,
            matchmaker=self.matchmaker,
            webhooks=self.webhooks,
            operator_keys=self.operator_keys,
            private=self.settings.private,
            inbox=self.inbox,
            friends=self.friends,
            presence=self.presence,
            invitations=self.invitations,
            rematch=self.settings.rematch,
            chat=self.chat,
            moderation=self.moderation,
        )
        collector.settle()  # (what start-up made stays for good: see service/collector.py)
        return self.running

    async def stop(self) -> None:
        if self.refreshing is not None:
            self.refreshing.cancel()
        if self.retention is not None:
            self.retention.stop()
        if self.inbox is not None:
            await self.inbox.close()
        if self.presence is not None:
            await self.presence.close()
        if self.matchmaker is not None:  # (no room is made here any more: the other nodes' matchmakers go on)
            await self.matchmaker.close()
        self.directory.stop_resting()
        if self.running is not None:
            await self.running.stop(self.settings.grpc.grace_seconds)
        self.directory.thinkers.close()
        if self.webhooks is not None:  # (after the last line: its deliveries are in the outbox, for any node to send)
            await self.webhooks.close()
        if self.players is not None:
            await self.players.external.close()
        if self.journal is not None:
            await self.journal.close()
        self.telemetry.shutdown()


async def serve(
    settings: Settings, *, discard_spans: bool = False, deals: Callable[[], DealSpec] | None = None
) -> None:
    """Open the store, restore every room it holds, serve until SIGINT or SIGTERM, then stop gracefully: the
    composition root (see the module docstring). ``settings``: every setting, read once (Settings.from_environment).
    ``deals``: each new room's deal (None: a fair deal, its secret random and bound to the room's id; benchmarks
    repeat their games with service.rooms.directory.seeded_deals, which are no fair deals).

    On PostgreSQL the server is a node of a cluster (``settings.node``: its id, address and lease): instead of
    restoring every room, it claims its share of the rooms nobody alive owns, and keeps claiming them as nodes die.
    Correspondence rooms resting in the store are not restored at start: the sweep loads each when it is due."""
    assembly = await Assembly.build(settings, discard_spans=discard_spans, deals=deals)
    running = await assembly.start()
    host = settings.grpc.host
    log.info("kickoff gRPC server listening on %s:%d", host, running.port)
    print(f"kickoff gRPC server on {host}:{running.port} (health and reflection on)", flush=True)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping.set)
    await stopping.wait()
    print("kickoff gRPC server stopping", flush=True)
    await assembly.stop()


async def refresh_keys(
    admission: Admission,
    engine: AsyncEngine,
    *,
    every: float = KEY_REFRESH_SECONDS,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> None:
    """Read the store's API keys now and every ``every`` seconds (keys made or revoked by `kickoff keys`): a key
    revoked is refused within ``every`` seconds (and the time one read takes), and accepted until then. While the
    store is away the keys last read stay in force. ``sleep`` waits between reads (tests pass their own)."""
    while True:
        try:
            admission.keys.replace_stored(await live_keys(engine))
        except Exception as error:  # the store is away: keep the keys known until it is back
            log.warning("could not read the API keys: %s", type(error).__name__)
        await sleep(every)


def _describe(limits: LimitSettings) -> None:
    def rate(value: Rate | None) -> str:
        return str(value) if value else "off"

    log.info(
        "limits: API key %s for creating; per caller: create %s, join %s, sign in %s, wrong operator keys %s, %s "
        "streams; invitations per player %s; %s live rooms, %s live tournaments; waiting rooms close after %s s; "
        "x-forwarded-for believed from %s; people seated from one address play %s",
        "required" if limits.require_api_key else "not required",
        rate(limits.create_rate),
        rate(limits.join_rate),
        rate(limits.sign_in_rate),
        rate(limits.operator_key_failures),
        limits.streams_per_caller or "any",
        rate(limits.invite_rate),
        limits.max_live_rooms or "any",
        limits.max_live_tournaments or "any",
        limits.waiting_room_seconds or "never",
        ", ".join(limits.trusted_proxies) if limits.trusted_proxies else "no peer (KICKOFF_TRUSTED_PROXIES is unset)",
        "rated" if limits.rate_shared_addresses else "unrated (KICKOFF_RATE_SHARED_ADDRESSES is off)",
    )
