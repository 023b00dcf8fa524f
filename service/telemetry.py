"""OpenTelemetry for both processes: providers built from the standard OTEL_* variables, and kickoff's instruments.

Nothing is exported unless asked: ``OTEL_TRACES_EXPORTER`` and ``OTEL_METRICS_EXPORTER`` default to ``none`` here
(``make run`` prints no telemetry), and then the API's no-op providers cost almost nothing. Each may be ``otlp``,
``console`` or ``none`` (a comma list sends to several). ``OTEL_EXPORTER_OTLP_PROTOCOL`` (or the per-signal
``OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`` / ``..._METRICS_PROTOCOL``) picks ``grpc`` or ``http/protobuf`` (the
specification's default); the exporters read their endpoint, headers and timeouts from the environment themselves,
as the batch span processor and the periodic metric reader read theirs. ``OTEL_SERVICE_NAME`` overrides the service
name (``kickoff-grpc``, ``kickoff-gateway``); ``OTEL_RESOURCE_ATTRIBUTES`` adds attributes; ``OTEL_SDK_DISABLED=true``
switches everything off.

What is recorded never holds a card: spans carry room ids, seats, move kinds and versions, refusals carry their reason
code, and rule errors' messages name no card (see engine.core.RuleError).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any
from urllib.parse import unquote

import grpc
from opentelemetry import context as otel_context
from opentelemetry import metrics, propagate, trace
from opentelemetry.context import Context
from opentelemetry.metrics import CallbackOptions, Meter, MeterProvider, Observation
from opentelemetry.sdk.metrics import MeterProvider as SdkMeterProvider
from opentelemetry.sdk.metrics.export import ConsoleMetricExporter, MetricReader, PeriodicExportingMetricReader
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import SpanProcessor
from opentelemetry.sdk.trace import TracerProvider as SdkTracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SpanExporter, SpanExportResult
from opentelemetry.sdk.trace.id_generator import IdGenerator
from opentelemetry.sdk.trace.sampling import Sampler
from opentelemetry.trace import SpanKind, Tracer, TracerProvider

try:
    VERSION = metadata.version("kickoff")
except metadata.PackageNotFoundError:  # pragma: no cover - running from a tree that was never installed
    VERSION = "0+unknown"

SCOPE = "kickoff"
EXPORTERS = ("otlp", "console", "none")
PROTOCOLS = ("grpc", "http/protobuf")


STREAMS = ("Play", "StreamEvents", "StreamTournament")


# The calls a room's moves come by: traced only when the caller sends a sampled trace context, for a room decides
# once, when it is made, whether its game is traced (see room_trace), and a move must not pay the SDK to ask again.
MOVE_CALLS = ("SubmitMove",)


def traced_method(method: str) -> bool:
    """Whether calls of ``method`` (``/package.Service/Method``) get spans at all: every method but the long-lived
    streams and health checks (a move's call is traced only inside a sampled trace besides: MOVE_CALLS)."""
    service, _, name = method.rpartition("/")
    return name not in STREAMS and not service.endswith("grpc.health.v1.Health")


def traced_call() -> Callable[[Any], bool]:
    """Which of a client's gRPC calls (the gateway's) get spans: those of :func:`traced_method`, and a move's call only
    when the span current as it calls is sampled (the server's side of this: ServerSpans).

    A stream lasts as long as its connection, so its span would say little, and the instrumentation's span context,
    held across the stream's yields, cannot be detached when a client goes away (each closed stream logged an error).
    A move sent on a Play stream is traced in its room's trace, when the room is sampled.

    (A plain function of the method's name: the instrumentation's own filter helpers run typing-protocol
    isinstance checks on every call, which cost more than the span.)"""

    def traced(details: Any) -> bool:
        method = getattr(details, "method", "") or ""
        if isinstance(method, bytes):
            method = method.decode()
        if method.rpartition("/")[2] in MOVE_CALLS:
            return in_sampled_trace()
        return traced_method(method)

    return traced


# Status codes that mark a server span as failed (OpenTelemetry's semantic conventions for gRPC servers): the others
# are the caller's mistakes, answered as designed.
_SERVER_ERRORS = frozenset(("UNKNOWN", "DEADLINE_EXCEEDED", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS"))


class ServerSpans:
    """gRPC server spans for kickoff's unary calls, made by wrapping each handler as the server registers it: a SERVER
    span named after the method (``/kickoff.v1.MoveService/SubmitMove``), under the caller's context from the call's
    metadata (W3C traceparent), with ``rpc.system``, ``rpc.service``, ``rpc.method`` and ``rpc.grpc.status_code``, its
    status an error for a server's failure. Methods :func:`traced_method` leaves out get none, and a move's call one
    only when it carries a sampled context.

    This is what opentelemetry-instrumentation-grpc's aio server interceptor does for these calls, without grpc.aio's
    interceptor machinery: with the interceptor installed, every call paid for it, the filtered ones and the streams
    included: under `kickoff bench goals`' stream load with a sampler that keeps nothing, server CPU a move was 390 µs
    with tracing off, 410 with the interceptor, 392 without it (five alternating rounds, medians)."""

    def __init__(self, tracer: Tracer) -> None:
        self._tracer = tracer

    def wrap(self, method: str, behavior: Callable[..., Any]) -> Callable[..., Any]:
        """``behavior`` (a unary handler's coroutine function for ``method``) with its server span."""
        if not traced_method(method):
            return behavior
        service, _, name = method.rpartition("/")
        follow_only = name in MOVE_CALLS
        tracer = self._tracer
        attributes = {"rpc.system": "grpc", "rpc.service": service.lstrip("/"), "rpc.method": name}

        async def traced(request: Any, context: Any) -> Any:
            metadata = context.invocation_metadata() or ()
            if follow_only and not sampled_parent(metadata):
                return await behavior(request, context)
            carrier = {key: value for key, value in metadata if type(value) is str}
            span = tracer.start_span(method, propagate.extract(carrier), kind=SpanKind.SERVER, attributes=attributes)
            token = otel_context.attach(trace.set_span_in_context(span))
            try:
                return await behavior(request, context)
            except Exception as error:
                if not isinstance(error, grpc.aio.AbortError):  # (an abort is an answer: its code says the rest)
                    span.record_exception(error)
                    span.set_status(trace.Status(trace.StatusCode.ERROR, type(error).__name__))
                raise
            finally:
                otel_context.detach(token)
                code = context.code()
                code = getattr(code, "name", None) or "OK"
                span.set_attribute("rpc.grpc.status_code", getattr(grpc.StatusCode, code).value[0])
                if code in _SERVER_ERRORS:
                    span.set_status(trace.Status(trace.StatusCode.ERROR, code))
                span.end()

        return traced


def sampled_parent(metadata: Iterable[Any]) -> bool:
    """Whether gRPC metadata carries a W3C traceparent whose sampled flag is set (``00-<trace>-<span>-<flags>``)."""
    for key, value in metadata:
        if key == "traceparent":
            if isinstance(value, bytes):
                value = value.decode("ascii", "replace")
            parts = value.strip().split("-")
            try:
                return len(parts) == 4 and len(parts[3]) == 2 and int(parts[3], 16) & 1 == 1
            except ValueError:
                return False
    return False


def room_trace(telemetry: Telemetry, attributes: Mapping[str, Any]) -> str:
    """Decide once, as a room is made, whether its game is traced: a ``room.created`` span under the caller's context
    (a sampled parent on the CreateRoom call samples the room; without one, the configured sampler's ratio decides).
    Returns the traceparent every later span of the room descends from when it is sampled, '' when it is not (or
    tracing is off). The room keeps it in its record, so a rebuilt room, on any node, goes on in the same trace."""
    if not telemetry.tracing:
        return ""
    span = telemetry.tracer.start_span("room.created", attributes=dict(attributes))
    span.end()
    context = span.get_span_context()
    if not context.trace_flags.sampled:
        return ""
    return f"00-{context.trace_id:032x}-{context.span_id:016x}-01"


def room_context(traceparent: str) -> Any:
    """The OpenTelemetry context whose parent is a sampled room's ``room.created`` span (None for '' or a malformed
    value: the room is then not traced)."""
    parts = traceparent.split("-")
    if len(parts) != 4:
        return None
    try:
        trace_id, span_id = int(parts[1], 16), int(parts[2], 16)
    except ValueError:
        return None
    if not trace_id or not span_id:
        return None
    sampled = trace.TraceFlags(trace.TraceFlags.SAMPLED)
    parent = trace.SpanContext(trace_id, span_id, is_remote=False, trace_flags=sampled)
    return trace.set_span_in_context(trace.NonRecordingSpan(parent), Context())


def in_sampled_trace(context: Any = None) -> bool:
    """Whether the span current in ``context`` (else now) belongs to a sampled trace: an API lookup, no SDK call."""
    return bool(trace.get_current_span(context).get_span_context().trace_flags.sampled)


class FollowingTracer(Tracer):
    """A tracer that only follows: it starts a span inside a sampled trace and gives the invalid span otherwise, so
    that work done for nobody's trace (a database statement of an untraced room's move) costs no SDK call. The
    database instrumentations get their tracers from a FollowingTracerProvider."""

    def __init__(self, tracer: Tracer) -> None:
        self._tracer = tracer

    def start_span(self, name: str, context: Any = None, *args: Any, **kwargs: Any) -> Any:
        if not in_sampled_trace(context):
            return trace.INVALID_SPAN
        return self._tracer.start_span(name, context, *args, **kwargs)

    @contextlib.contextmanager
    def start_as_current_span(self, name: str, context: Any = None, *args: Any, **kwargs: Any) -> Iterator[Any]:
        if not in_sampled_trace(context):
            yield trace.INVALID_SPAN
            return
        with self._tracer.start_as_current_span(name, context, *args, **kwargs) as span:
            yield span


class FollowingTracerProvider(TracerProvider):
    """Hands out FollowingTracers over ``provider``'s tracers."""

    def __init__(self, provider: TracerProvider) -> None:
        self._provider = provider

    def get_tracer(self, *args: Any, **kwargs: Any) -> Tracer:
        return FollowingTracer(self._provider.get_tracer(*args, **kwargs))


class Instruments:
    """kickoff's metrics. Attribute names are shared with the spans: kickoff.game, kickoff.move.kind, ..."""

    # Buckets of the histograms in seconds (the SDK's default ones, 0, 5, 10, 25... 10000, are for milliseconds:
    # every move and commit would fall in the first, and no quantile of them would mean anything).
    SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

    def __init__(self, meter: Meter) -> None:
        self.meter = meter
        self.moves = meter.create_counter(
            "kickoff.moves", unit="{move}", description="Moves accepted, by game, move kind and mover"
        )
        self.move_duration = meter.create_histogram(
            "kickoff.move.duration",
            unit="s",
            description="A person's move from entering its room to its commit",
            explicit_bucket_boundaries_advisory=self.SECONDS,
        )
        self.clock_expiries = meter.create_counter(
            "kickoff.clock.expiries", unit="{expiry}", description="Turn clocks that ran out (the table moved)"
        )
        self.think_time = meter.create_histogram(
            "kickoff.system_player.think_time", unit="s", description="How long system players thought before moving"
        )
        self.search_iterations = meter.create_histogram(
            "kickoff.system_player.search_iterations",
            unit="{iteration}",
            description="Iterations of a hard system player's search a decision",
        )
        self.event_streams = meter.create_up_down_counter(
            "kickoff.event_streams.open", unit="{stream}", description="Open event streams (events, play, tournament)"
        )
        self.commit_duration = meter.create_histogram(
            "kickoff.db.commit.duration",
            unit="s",
            description="One store commit (a group of log lines)",
            explicit_bucket_boundaries_advisory=self.SECONDS,
        )
        self.match_wait = meter.create_histogram(
            "kickoff.match.wait", unit="s", description="A ticket's wait from joining the queue to its room, by game"
        )
        self.match_spread = meter.create_histogram(
            "kickoff.match.rating_spread",
            unit="{mu}",
            description="A matched room's rating spread: its highest ticket rating less its lowest, by game",
        )
        self.tickets = meter.create_counter(
            "kickoff.match.tickets", unit="{ticket}", description="Tickets that ended, by game and how (matched...)"
        )
        # What an operator watches a deployment by (deploy/observability.md: the dashboards and the alerts).
        self.clock_lateness = meter.create_histogram(
            "kickoff.clock.lateness",
            unit="s",
            description="How late the table moved for a seat whose clock ran out, against its deadline, by game",
            explicit_bucket_boundaries_advisory=self.SECONDS,
        )
        self.store_unavailable = meter.create_counter(
            "kickoff.store.unavailable",
            unit="{write}",
            description="Writes refused because the store stayed away past the retry budget (StoreUnavailable)",
        )
        self.operator_key_failures = meter.create_counter(
            "kickoff.operator.key_failures",
            unit="{call}",
            description="Operator calls with a wrong key, and those refused as their address offered too many "
            "(kickoff.throttled)",
        )
        self.refusals = meter.create_counter(
            "kickoff.refusals",
            unit="{call}",
            description="Refused calls, by their ErrorInfo reason (kickoff.reason) and gRPC status (kickoff.grpc.code)",
        )
        self.lease_claims = meter.create_counter(
            "kickoff.lease.claims",
            unit="{lease}",
            description="Leases this node claimed (or failed to), by kind and outcome (swept, call, inherited...)",
        )
        # Friends (issue 48): friend requests sent, by outcome: sent, withheld (the recipient blocked the sender),
        # accepted (the recipient had asked the sender: friends at once), or the refusal's reason.
        self.friend_requests = meter.create_counter(
            "kickoff.friend.requests", unit="{request}", description="Friend requests sent, by outcome"
        )
        # Room invitations (issue 48, part 2): invitations to a friend, by outcome: sent, accepted, declined, withdrawn,
        # or the refusal's reason (not_friends, room_invitations_full...).
        self.room_invitations = meter.create_counter(
            "kickoff.room.invitations", unit="{invitation}", description="Invitations to a room, by outcome"
        )
        # Unlisted rooms' invitation links (issue 48, part 3), by outcome: made, joined (a seat taken with one),
        # watched (an events stream opened with one, by someone with no seat there), or the refusal's reason
        # (link_invalid, link_revoked, link_expired, link_used_up).
        self.invitation_links = meter.create_counter(
            "kickoff.room.invitation_links", unit="{link}", description="Invitation links of unlisted rooms, by outcome"
        )
        # Rematches (issue 48, part 3), by outcome: proposed, started, or why none was made (declined, no_answer).
        self.rematches = meter.create_counter(
            "kickoff.rematches", unit="{rematch}", description="Rematches proposed, started and refused, by outcome"
        )
        self.lease_handovers = meter.create_counter(
            "kickoff.lease.handovers",
            unit="{lease}",
            description="Leases that left this node, by outcome (given_back while draining, taken by another node)",
        )
        # -- the inbox (issue 48) --
        self.inbox_items = meter.create_counter(
            "kickoff.inbox.items",
            unit="{item}",
            description="Inbox items written on this node, by kind (kickoff.inbox.kind: turn.began, match.found...)",
        )
        # -- table talk (issue 49) --
        self.chat_messages = meter.create_counter(
            "kickoff.chat.messages",
            unit="{message}",
            description="Chat messages stored by this node, by channel (kickoff.chat.channel) and kind"
            " (kickoff.chat.kind: text, reaction, withdrawal)",
        )
        self.chat_reports = meter.create_counter(
            "kickoff.chat.reports", unit="{report}", description="Chat messages players reported to the moderators"
        )
        self.chat_moderation = meter.create_counter(
            "kickoff.chat.moderation",
            unit="{action}",
            description="Operators' actions on the chat, by kickoff.chat.action (delete_message, mute_player, end_mute,"
            " close_report)",
        )
        # -- presence (issue 48) --
        self.presence_changes = meter.create_counter(
            "kickoff.presence.changes",
            unit="{change}",
            description="Players' presence changes this node wrote, by state (kickoff.presence.state: online, away...)",
        )

    @contextlib.contextmanager
    def stream(self, kind: str) -> Iterator[None]:
        """Count an event stream of ``kind`` (events, play, tournament) as open while the block runs."""
        attributes = {"kickoff.stream": kind}
        self.event_streams.add(1, attributes)
        try:
            yield
        finally:
            self.event_streams.add(-1, attributes)

    def observe_rooms(self, count: Callable[[], Mapping[tuple[str, str], int]]) -> None:
        """Report ``count()`` - rooms by (game, status) - as the kickoff.rooms gauge whenever metrics are read."""

        def callback(options: CallbackOptions) -> Iterable[Observation]:
            for (game, status), rooms in count().items():
                yield Observation(rooms, {"kickoff.game": game, "kickoff.room.status": status})

        self.meter.create_observable_gauge(
            "kickoff.rooms", callbacks=[callback], unit="{room}", description="Rooms by game and status"
        )

    def observe_inbox(self, unread: Callable[[], Mapping[str, int] | None]) -> None:
        """Report the players' unread inbox items by kind as the last count saw them (``unread()``; None before the
        first count) as the kickoff.inbox.unread gauge: read from memory, no query when metrics are read."""

        def callback(options: CallbackOptions) -> Iterable[Observation]:
            for kind, items in (unread() or {}).items():
                yield Observation(items, {"kickoff.inbox.kind": kind})

        self.meter.create_observable_gauge(
            "kickoff.inbox.unread",
            callbacks=[callback],
            unit="{item}",
            description="Unread inbox items of every player, by kind, as this node's last count saw them",
        )

    def observe_cluster(self, census: Callable[[], Mapping[str, int] | None]) -> None:
        """Report a node's last look at the cluster (``census()``: the nodes alive under ``"node"``, and the leases
        orphaned past a lease under their kind, ``"room"``, ``"tournament"``; None before the first look) as the
        kickoff.nodes.alive and kickoff.leases.orphaned gauges."""

        def alive(options: CallbackOptions) -> Iterable[Observation]:
            seen = census()
            if seen is not None:
                yield Observation(seen.get("node", 0))

        def orphaned(options: CallbackOptions) -> Iterable[Observation]:
            seen = census()
            if seen is not None:
                for kind in ("room", "tournament"):
                    yield Observation(seen.get(kind, 0), {"kickoff.lease.kind": kind})

        self.meter.create_observable_gauge(
            "kickoff.nodes.alive",
            callbacks=[alive],
            unit="{node}",
            description="Nodes of the cluster whose row is alive, as this node last saw the nodes table",
        )
        self.meter.create_observable_gauge(
            "kickoff.leases.orphaned",
            callbacks=[orphaned],
            unit="{lease}",
            description="Live rooms and tournaments whose lease has had no live owner for longer than a lease",
        )


@dataclass
class Telemetry:
    """The providers one process uses. ``tracing`` is False when spans go nowhere (instrumentation is then skipped)."""

    tracer_provider: TracerProvider = field(default_factory=trace.NoOpTracerProvider)
    meter_provider: MeterProvider = field(default_factory=metrics.NoOpMeterProvider)
    tracing: bool = False
    metering: bool = False

    def __post_init__(self) -> None:
        self.tracer: Tracer = self.tracer_provider.get_tracer(SCOPE, VERSION)
        self.instruments = Instruments(self.meter_provider.get_meter(SCOPE, VERSION))

    @property
    def enabled(self) -> bool:
        return self.tracing or self.metering

    def shutdown(self) -> None:
        """Flush and stop the SDK providers (spans and metrics still buffered are exported)."""
        for provider in (self.tracer_provider, self.meter_provider):
            stop = getattr(provider, "shutdown", None)
            if stop is not None:
                stop()


def resource(service_name: str, environ: Mapping[str, str] | None = None) -> Resource:
    """service.name (OTEL_SERVICE_NAME, else ``service_name``), service.version, and OTEL_RESOURCE_ATTRIBUTES."""
    environ = os.environ if environ is None else environ
    attributes: dict[str, str] = {}
    for item in environ.get("OTEL_RESOURCE_ATTRIBUTES", "").split(","):
        key, equals, value = item.partition("=")
        if equals and key.strip():
            attributes[key.strip()] = unquote(value.strip())
    attributes["service.name"] = environ.get("OTEL_SERVICE_NAME") or service_name
    attributes["service.version"] = VERSION
    return Resource.create(attributes)


def build(
    service_name: str,
    *,
    span_processors: Iterable[SpanProcessor] = (),
    metric_readers: Iterable[MetricReader] = (),
    environ: Mapping[str, str] | None = None,
    sampler: Sampler | None = None,
    id_generator: IdGenerator | None = None,
) -> Telemetry:
    """SDK providers with the given processors and readers (tests pass in-memory ones; empty: that signal is off).
    The sampler is OTEL_TRACES_SAMPLER's (the SDK reads it) unless ``sampler`` is given; tests may seed the ids."""
    processors, readers = list(span_processors), list(metric_readers)
    res = resource(service_name, environ)
    telemetry = Telemetry()
    if processors:
        tracer_provider = SdkTracerProvider(resource=res, sampler=sampler, id_generator=id_generator)
        for processor in processors:
            tracer_provider.add_span_processor(processor)
        telemetry = Telemetry(tracer_provider, telemetry.meter_provider, tracing=True)
    if readers:
        meter_provider = SdkMeterProvider(resource=res, metric_readers=readers)
        telemetry = Telemetry(telemetry.tracer_provider, meter_provider, tracing=telemetry.tracing, metering=True)
    return telemetry


class Discard(SpanExporter):
    """Takes every span and keeps none: tracing's whole cost inside the process, with nothing sent anywhere."""

    def export(self, spans: Any) -> SpanExportResult:
        return SpanExportResult.SUCCESS


def from_environment(
    service_name: str, environ: Mapping[str, str] | None = None, *, discard_spans: bool = False
) -> Telemetry:
    """The process's telemetry as the OTEL_* variables ask (see the module docstring). Raises ValueError naming a
    variable whose value is not understood. ``discard_spans`` (benchmarks) traces everything and drops the spans."""
    environ = os.environ if environ is None else environ
    if environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true" and not discard_spans:
        return Telemetry()
    if discard_spans:
        processors = [BatchSpanProcessor(Discard())]
    else:
        processors = [
            BatchSpanProcessor(_span_exporter(name, _protocol(environ, "TRACES")))
            for name in _exporters(environ, "OTEL_TRACES_EXPORTER")
        ]
    readers = [
        PeriodicExportingMetricReader(_metric_exporter(name, _protocol(environ, "METRICS")))
        for name in _exporters(environ, "OTEL_METRICS_EXPORTER")
    ]
    return build(service_name, span_processors=processors, metric_readers=readers, environ=environ)


def _exporters(environ: Mapping[str, str], variable: str) -> list[str]:
    names = [n.strip().lower() for n in environ.get(variable, "none").split(",") if n.strip()]
    unknown = [n for n in names if n not in EXPORTERS]
    if unknown:
        raise ValueError(f"{variable}={environ[variable]!r}: use otlp, console or none")
    return [n for n in names if n != "none"]


def _protocol(environ: Mapping[str, str], signal: str) -> str:
    variable = f"OTEL_EXPORTER_OTLP_{signal}_PROTOCOL"
    if variable not in environ:
        variable = "OTEL_EXPORTER_OTLP_PROTOCOL"
    protocol = environ.get(variable, "http/protobuf").strip().lower()
    if protocol not in PROTOCOLS:
        raise ValueError(f"{variable}={environ[variable]!r}: use grpc or http/protobuf")
    return protocol


def _span_exporter(name: str, protocol: str) -> SpanExporter:
    if name == "console":
        return ConsoleSpanExporter()
    if protocol == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
    else:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter  # type: ignore[assignment]
    return OTLPSpanExporter()


def _metric_exporter(name: str, protocol: str) -> Any:
    if name == "console":
        return ConsoleMetricExporter()
    if protocol == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import OTLPMetricExporter
    else:
        from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter  # type: ignore[assignment]
    return OTLPMetricExporter()


class SpanScope:
    """A span, current while a block runs and ended after it: what ``Tracer.start_as_current_span`` does (an error
    that escapes is recorded on the span and sets its status, unless told not to), without its two generator-based
    context managers, at a fraction of their cost (every move opens one)."""

    __slots__ = ("_span", "_token", "_record_exception", "_set_status_on_exception")

    def __init__(self, span: Any, *, record_exception: bool = True, set_status_on_exception: bool = True) -> None:
        self._span = span
        self._record_exception = record_exception
        self._set_status_on_exception = set_status_on_exception

    def __enter__(self) -> Any:
        self._token = otel_context.attach(trace.set_span_in_context(self._span))
        return self._span

    def __exit__(self, kind: Any, error: BaseException | None, traceback: Any) -> None:
        otel_context.detach(self._token)
        span = self._span
        if isinstance(error, Exception) and span.is_recording():  # (not cancellation: it is no error)
            if self._record_exception:
                span.record_exception(error)
            if self._set_status_on_exception:
                span.set_status(trace.Status(trace.StatusCode.ERROR, f"{type(error).__name__}: {error}"))
        span.end()
