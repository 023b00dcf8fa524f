"""The REST gateway's factory: a Litestar app that serves web and mobile clients by calling the gRPC server's stubs.

It holds no game rules and imports nothing from engine/ or service/rooms/. Its routes come from the contract, one per
``google.api.http`` binding in proto/ (routes.py, with the words and choices a binding cannot say declared in
operations.py); written by hand are only HAND_WRITTEN (the event streams, streams.py; the probes, health.py) and the
pages at /play and /ops (pages.py). The caller's token, API key and address travel as gRPC metadata (the server
believes this gateway's address where KICKOFF_TRUSTED_PROXIES names it); every call carries a deadline; refusals are
RFC 9457 problem details (problems.py). Request bodies are bounded (413) and JSON (415), changes from pages on other
origins are refused (guard.py), so is a Host that is not one of the gateway's names (hosts.py), every integer in a
path or query is checked against the proto field it fills (numbers.py), and the gRPC channel's message sizes match
the server's. A request that fails in the gateway itself is a 500 problem that says nothing of the error, which goes
to the log with the request's trace id (problems.py).
"""

from __future__ import annotations

import re
from typing import Any

import grpc
from litestar import Litestar, Request
from litestar.exceptions import ValidationException
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.middleware import DefineMiddleware
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import ScalarRenderPlugin
from litestar.openapi.spec import Components
from litestar.plugins.problem_details import ProblemDetailsConfig, ProblemDetailsPlugin
from opentelemetry import trace
from opentelemetry.instrumentation.grpc import aio_client_interceptors

from service.gateway.calls import HEARTBEAT_SECONDS, Owners, Upstream
from service.gateway.cors import CorsMiddleware, CorsPolicy
from service.gateway.guard import ChangeGuard, Guards
from service.gateway.health import healthz, readyz
from service.gateway.hosts import HostGuard, HostPolicy
from service.gateway.numbers import IntegerGuard, integer_parameters
from service.gateway.openapi import DESCRIPTION, SECURITY_SCHEMES, add_components
from service.gateway.pages import WEB_DIRECTORY as WEB_DIRECTORY  # (tests/web reads it here)
from service.gateway.pages import ops_router, web_router
from service.gateway.problems import bad_parameters, body_too_large, internal_error, rpc_error_to_problem
from service.gateway.routes import routes
from service.gateway.streams import STREAM_ROUTES
from service.telemetry import Telemetry, traced_call

# The routes written by hand (every other route is an RPC's binding): the event streams and the health probes.
HAND_WRITTEN = [*STREAM_ROUTES, healthz, readyz]
MAX_BODY_BYTES = 64 * 1024  # a request body (the largest a client has reason to send is under 2 KB)
# The server takes requests of at most 64 KiB and answers with at most 4 MiB (service/grpc/server.py).
CHANNEL_OPTIONS = [
    ("grpc.max_send_message_length", 64 * 1024),
    ("grpc.max_receive_message_length", 4 * 1024 * 1024),
    ("grpc.initial_reconnect_backoff_ms", 100),  # come back quickly when the server returns
    ("grpc.max_reconnect_backoff_ms", 1000),
    # Several nodes behind one target (a DNS name with an address per node, or a list of addresses): each call goes
    # to the next node that is up, and a node that goes away is left out until it is back. Any node serves any room.
    ("grpc.lb_policy_name", "round_robin"),
]
# A node that stops answering without closing its connections (SIGSTOP, a stalled machine) must not hold an event
# stream for ever: the heartbeats this gateway sends would keep the client's answer alive. The channels ping every
# KEEPALIVE_MS on a connection with calls (idle streams too) and drop one whose ping is not answered within
# PING_TIMEOUT_MS: its streams end, and their clients come back through another node. The servers accept pings this
# often (service/grpc/server.py, MIN_PING_MS).
KEEPALIVE_MS = 10_000
PING_TIMEOUT_MS = 5_000


def channel_options() -> list[tuple[str, Any]]:
    return [
        *CHANNEL_OPTIONS,
        ("grpc.keepalive_time_ms", KEEPALIVE_MS),
        ("grpc.keepalive_timeout_ms", PING_TIMEOUT_MS),
        # (a ping already in flight when the node froze would otherwise hold the keepalive back for a minute)
        ("grpc.http2.ping_timeout_ms", PING_TIMEOUT_MS),
        ("grpc.http2.max_pings_without_data", 0),  # (an idle stream is pinged too, not only twice)
    ]


def upstream_target(target: str) -> str:
    """The gRPC target for ``--grpc-target``: as given (host:port, dns:///name:port...), or a comma-separated list
    of IP addresses with ports (the nodes of a cluster), which grpc reads with the ipv4: or ipv6: scheme."""
    if "," not in target:
        return target
    return ("ipv6:" if target.startswith("[") else "ipv4:") + target


LINK_TOKEN = re.compile(r"(invitation_token=)[^&#\s]*")


def _name_span(request: Request[Any, Any, Any]) -> None:
    """Name the request's span after its route (``POST /v1/rooms/{room_id}/moves``), once routing has found it:
    the path itself (with room ids) would make every room's requests a different operation. An invitation token in
    the query is blotted out of the span."""
    span = trace.get_current_span()
    template = request.scope.get("path_template")  # type: ignore[typeddict-item]
    if span.is_recording() and template:
        route = re.sub(r"\{(\w+):\w+\}", r"{\1}", template)
        span.update_name(f"{request.method} {route}")
        span.set_attribute("http.route", route)
    if span.is_recording() and "invitation_token" in request.query_params:
        # An invitation link's token (a watch link's reads) is a secret, as a stream ticket is: the request's address,
        # which the span holds, is kept with it blotted out.
        for key, value in list((getattr(span, "attributes", None) or {}).items()):
            if isinstance(value, str) and "invitation_token=" in value:
                span.set_attribute(key, LINK_TOKEN.sub(r"\1-", value))


def _telemetry_plugins(telemetry: Telemetry) -> list[Any]:
    if not telemetry.enabled:
        return []
    from litestar.plugins.opentelemetry import OpenTelemetryConfig, OpenTelemetryPlugin

    # One span per request: the ASGI layer's extra spans for each receive and send cost more than they tell. Event
    # streams get none, as their gRPC calls get none: they last as long as the client stays, and wrapping each event
    # they send would tax every move. The probes (/healthz, /readyz) get none either: a span every few seconds from
    # each kubelet would say nothing.
    config = OpenTelemetryConfig(
        tracer_provider=telemetry.tracer_provider,
        meter_provider=telemetry.meter_provider,
        exclude_spans=["receive", "send"],
        exclude=[
            r"^/v1/rooms/[^/]+/events$",
            r"^/v1/tournaments/[^/]+/events$",
            r"^/v1/tickets/[^/]+/events$",
            r"^/healthz$",
            r"^/readyz$",
        ],
    )
    return [OpenTelemetryPlugin(config)]


def create_app(
    grpc_target: str,
    *,
    timeout: float = 5.0,
    heartbeat: float = HEARTBEAT_SECONDS,
    telemetry: Telemetry | None = None,
    max_body_bytes: int = MAX_BODY_BYTES,
    cors: CorsPolicy | None = None,
    hosts: HostPolicy | None = None,
    web: bool = True,
) -> Litestar:
    """The gateway app, calling the gRPC server at ``grpc_target`` with a ``timeout`` deadline per call; a request
    body over ``max_body_bytes`` is refused with 413. With ``web`` it also serves the browser front-end at /play.

    With ``telemetry`` on, each request gets Litestar's own OpenTelemetry span and HTTP metrics, and each gRPC call a
    client span whose context travels to the server in the call's metadata. ``cors`` says which pages on other
    origins may call it (cors.py; none by default), ``hosts`` the host names it answers to (hosts.py; by default the
    loopback names)."""
    telemetry = telemetry or Telemetry()
    hosts = hosts or HostPolicy()
    integers = IntegerGuard()

    async def connect(app: Litestar) -> None:
        interceptors = (
            aio_client_interceptors(tracer_provider=telemetry.tracer_provider, filter_=traced_call())
            if telemetry.tracing
            else None
        )
        target = upstream_target(grpc_target)
        options = channel_options()
        channel = grpc.aio.insecure_channel(target, options=options, interceptors=interceptors)
        streams = grpc.aio.insecure_channel(target, options=options) if interceptors else channel

        def connect_node(address: str) -> tuple[grpc.aio.Channel, grpc.aio.Channel]:
            """Channels to one node (a room's owner), made as the target's are."""
            calls = grpc.aio.insecure_channel(address, options=options, interceptors=interceptors)
            return calls, grpc.aio.insecure_channel(address, options=options) if interceptors else calls

        app.state.upstream = Upstream.of(channel, streams, timeout, heartbeat, Owners(connect_node))

    async def disconnect(app: Litestar) -> None:
        up = app.state.upstream
        if up.owners is not None:
            await up.owners.close()
        await up.channel.close()
        if up.stream_channel is not None and up.stream_channel is not up.channel:
            await up.stream_channel.close()

    app = Litestar(
        route_handlers=[*routes(HAND_WRITTEN), *HAND_WRITTEN, *([web_router(), ops_router()] if web else [])],
        on_startup=[connect],
        middleware=[DefineMiddleware(CorsMiddleware, policy=cors)] if cors is not None and cors.enabled else [],
        # One of the gateway's host names (hosts.py); a change needs a JSON body and an origin allowed (guard.py);
        # every integer in range (numbers.py).
        guards=[Guards(HostGuard(hosts), ChangeGuard(cors, hosts), integers)],  # (one guard: one handler copy)
        before_request=_name_span if telemetry.tracing else None,
        on_shutdown=[disconnect],
        plugins=[
            *_telemetry_plugins(telemetry),
            ProblemDetailsPlugin(
                ProblemDetailsConfig(
                    enable_for_all_http_exceptions=True,
                    exception_to_problem_detail_map={
                        grpc.aio.AioRpcError: rpc_error_to_problem,
                        RequestEntityTooLarge: body_too_large,
                        ValidationException: bad_parameters,
                    },
                )
            ),
        ],
        exception_handlers={Exception: internal_error},  # (the others, refusals, are the plugin's above)
        request_max_body_size=max_body_bytes,
        openapi_config=OpenAPIConfig(
            title="kickoff REST gateway",
            version="1.0.0",
            description=DESCRIPTION,
            path="/schema",
            render_plugins=[ScalarRenderPlugin()],
            components=Components(security_schemes=SECURITY_SCHEMES),
        ),
    )
    integers.table = integer_parameters(app.routes)
    add_components(app)
    return app
