"""What every route of the gateway shares: the gRPC stubs it calls (with their deadline), and how a request's body,
headers and paging become a gRPC request and a reply becomes JSON."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import re
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import grpc
from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, ServiceDescriptor
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2_grpc
from litestar import Request
from litestar.datastructures import CacheControlHeader, State

from kickoff.v1 import (
    game_pb2_grpc,
    match_pb2_grpc,
    move_pb2_grpc,
    player_pb2_grpc,
    room_pb2_grpc,
    tournament_pb2_grpc,
    webhook_pb2_grpc,
)
from service.gateway.bodies import parse_body
from service.gateway.problems import BadRequest

M = TypeVar("M", bound=Message)
HEARTBEAT_SECONDS = 15.0
PRIVATE = CacheControlHeader(no_store=True, private=True)  # sessions, a player's own data, operators' answers
MAX_PAGE_SIZE = 500  # rooms or tournaments a page (the server's own bound: service/rooms/directory.py)


@dataclass
class Upstream:
    """The gRPC channel and stubs the gateway calls, with the deadline every call gets."""

    channel: grpc.aio.Channel
    games: game_pb2_grpc.GameServiceStub
    rooms: room_pb2_grpc.RoomServiceStub
    moves: move_pb2_grpc.MoveServiceStub
    tournaments: tournament_pb2_grpc.TournamentServiceStub
    timeout: float
    heartbeat: float = HEARTBEAT_SECONDS  # seconds of silence before an event stream sends a comment line
    # The event streams' own channel, with no interceptor: streams are not traced, and an intercepted grpc.aio
    # stream pays for the interceptor machinery on every message it reads.
    stream_channel: grpc.aio.Channel | None = None
    stream_moves: move_pb2_grpc.MoveServiceStub | None = None
    stream_tournaments: tournament_pb2_grpc.TournamentServiceStub | None = None
    health: health_pb2_grpc.HealthStub | None = None  # the server's grpc.health.v1 service, for /readyz
    players: player_pb2_grpc.PlayerServiceStub | None = None
    matches: match_pb2_grpc.MatchServiceStub | None = None
    stream_matches: match_pb2_grpc.MatchServiceStub | None = None  # (on the event streams' channel)
    webhooks: webhook_pb2_grpc.WebhookServiceStub | None = None
    owners: Owners | None = None  # where each room's calls go once its owner is known (a cluster's nodes)
    made: dict[str, Any] = field(default_factory=dict)  # the stubs of services with no field above, by full name

    @classmethod
    def of(
        cls, channel: grpc.aio.Channel, streams: grpc.aio.Channel, timeout: float, heartbeat: float, owners: Owners
    ) -> Upstream:
        """The stubs on ``channel`` (the event streams' on ``streams``, which may be the same channel)."""
        return cls(
            channel,
            game_pb2_grpc.GameServiceStub(channel),
            room_pb2_grpc.RoomServiceStub(channel),
            move_pb2_grpc.MoveServiceStub(channel),
            tournament_pb2_grpc.TournamentServiceStub(channel),
            timeout,
            heartbeat,
            streams,
            move_pb2_grpc.MoveServiceStub(streams),
            tournament_pb2_grpc.TournamentServiceStub(streams),
            health_pb2_grpc.HealthStub(channel),
            player_pb2_grpc.PlayerServiceStub(channel),
            match_pb2_grpc.MatchServiceStub(channel),
            match_pb2_grpc.MatchServiceStub(streams),
            webhook_pb2_grpc.WebhookServiceStub(channel),
            owners=owners,
        )

    def stub(self, attribute: str, service: ServiceDescriptor) -> Any:
        """The stub of ``service``: the field ``attribute`` names, or one made on ``channel`` on first use (the
        operators' service, a service the gateway has no field for)."""
        found = getattr(self, attribute, None) if attribute else None
        if found is None:
            found = self.made.get(service.full_name)
        if found is None:
            module = importlib.import_module(service.file.name.removesuffix(".proto").replace("/", ".") + "_pb2_grpc")
            found = self.made[service.full_name] = getattr(module, f"{service.name}Stub")(self.channel)
        return found


ROUTE = ("kickoff-route", "owner")  # asks a node to name the room's owner when it forwards (service/grpc/forward.py)
OWNER = "kickoff-owner"
# What a room's owner answers when it is no longer the room's, or is gone (it drains, lost the room, died, froze): the
# gateway then forgets it as the room's owner (CANCELLED: grpc's answer as a server stops, grpc/grpc issue 41785).
OWNER_AWAY = frozenset((grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED))
OWNERS_KEPT = 10_000  # rooms whose owner the gateway remembers (the most recently used)
OWNER_CHANNELS = 64  # nodes the gateway keeps channels to
CLOSE_GRACE = 30.0  # seconds the calls on a dropped node's channel get to finish


@dataclass
class RoomStubs:
    """The stubs of one node's channels: what a room's calls use once its owner is known."""

    rooms: room_pb2_grpc.RoomServiceStub
    moves: move_pb2_grpc.MoveServiceStub
    stream_moves: move_pb2_grpc.MoveServiceStub
    channels: tuple[grpc.aio.Channel, ...]


class Owners:
    """Which node owns each room, as the nodes said: a call the gateway sends for a room asks the node it reaches to
    name the owner if it forwards the call (``kickoff-route: owner``), and the room's next calls go to the owner
    directly, which saves every call and stream update of the room the forwarding hop through a second node. A room
    whose owner is not known goes to the configured target (any node: it forwards). The owner is forgotten when it
    answers UNAVAILABLE (it drains, lost the room, or is gone): the next call goes through any node again and learns
    the new owner. Both maps are bounded: the most recently used rooms, and channels to at most OWNER_CHANNELS nodes."""

    def __init__(self, connect: Callable[[str], tuple[grpc.aio.Channel, grpc.aio.Channel]]) -> None:
        self._connect = connect  # address -> (the calls' channel, the streams' channel)
        self._rooms: OrderedDict[str, str] = OrderedDict()
        self._nodes: OrderedDict[str, RoomStubs] = OrderedDict()
        self._closing: set[asyncio.Task[None]] = set()  # channels of nodes dropped, closing once their calls end

    def stubs(self, room_id: str) -> RoomStubs | None:
        address = self._rooms.get(room_id)
        if address is None:
            return None
        self._rooms.move_to_end(room_id)
        node = self._nodes.get(address)
        if node is None:
            channel, streams = self._connect(address)
            node = RoomStubs(
                room_pb2_grpc.RoomServiceStub(channel),
                move_pb2_grpc.MoveServiceStub(channel),
                move_pb2_grpc.MoveServiceStub(streams),
                (channel,) if streams is channel else (channel, streams),
            )
            self._nodes[address] = node
            while len(self._nodes) > OWNER_CHANNELS:
                _, dropped = self._nodes.popitem(last=False)
                for old in dropped.channels:
                    task = asyncio.get_running_loop().create_task(old.close(grace=CLOSE_GRACE))
                    self._closing.add(task)
                    task.add_done_callback(self._closing.discard)
        self._nodes.move_to_end(address)
        return node

    def learn(self, room_id: str, metadata: Any) -> None:
        """Keep the owner a forwarded answer's metadata names (``kickoff-owner``), if it names one."""
        for key, value in metadata or ():
            if key == OWNER and isinstance(value, str) and value:
                self._rooms[room_id] = value
                self._rooms.move_to_end(room_id)
                while len(self._rooms) > OWNERS_KEPT:
                    self._rooms.popitem(last=False)
                return

    def forget(self, room_id: str) -> None:
        self._rooms.pop(room_id, None)

    def failed(self, room_id: str, error: grpc.aio.AioRpcError) -> None:
        """A call sent to the room's owner failed: forget the owner if it is away (OWNER_AWAY)."""
        if error.code() in OWNER_AWAY:
            self.forget(room_id)

    async def close(self) -> None:
        for node in self._nodes.values():
            for channel in node.channels:
                await channel.close()
        for task in list(self._closing):
            await task
        self._nodes.clear()


def to_json(message: Message) -> dict[str, Any]:
    """A reply in the proto3 JSON mapping with every field sent, zero values included (0, false, "", [], {}, the
    enum's first name): only a field with presence (a message, a proto3 ``optional``, a oneof's member) is left out,
    and then it is unset. A whole number inside free-form data (a ``google.protobuf.Struct``: a room's options, a
    generic game's view) is written as one, ``7`` rather than the ``7.0`` a Struct's double would give."""
    data = json_format.MessageToDict(message, always_print_fields_with_no_presence=True)
    plan = _struct_plan(message.DESCRIPTOR)
    if plan:
        _whole_numbers(data, plan)
    return data


_STRUCTS = frozenset(("google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue"))
_plans: dict[str, dict[str, Any]] = {}


def _struct_plan(descriptor: Descriptor, seen: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The JSON names of ``descriptor``'s fields that lead to free-form data: ``True`` for the data itself, else the
    plan of the message they hold. Worked out once per message type; empty where no Struct is reachable."""
    if descriptor.full_name in _plans:
        return _plans[descriptor.full_name]
    plan: dict[str, Any] = {}
    for item in descriptor.fields:
        inner = item.message_type
        if inner is None or inner.GetOptions().map_entry:
            continue
        if inner.full_name in _STRUCTS:
            plan[item.json_name] = True
        elif inner.full_name not in seen:
            below = _struct_plan(inner, seen | {descriptor.full_name})
            if below:
                plan[item.json_name] = below
    if not seen:  # (a plan made while a type is still being walked is not kept: it may be missing its cycle)
        _plans[descriptor.full_name] = plan
    return plan


def _whole_numbers(data: Any, plan: dict[str, Any]) -> None:
    """Each whole number under ``plan``'s fields of ``data`` made an int, in place."""
    for name, below in plan.items():
        value = data.get(name)
        if value is None:
            continue
        for each in value if isinstance(value, list) else (value,):
            if below is True:
                _integral(each)
            elif isinstance(each, dict):
                _whole_numbers(each, below)


def _integral(value: Any) -> Any:
    if isinstance(value, float):
        return int(value) if value.is_integer() and abs(value) <= 2**53 else value
    if isinstance(value, dict):
        for key, item in value.items():
            value[key] = _integral(item)
    elif isinstance(value, list):
        value[:] = [_integral(item) for item in value]
    return value


async def body(request: Request[Any, Any, Any], message: M) -> M:
    """The request body read into ``message`` by the proto3 JSON mapping; a refusal names the field at fault and what
    it takes, never what was sent (bodies.py)."""
    raw = await request.body()
    return parse_body(raw, message) if raw.strip() else message


FORWARDED_HEADERS = {"authorization": "Authorization", "x-api-key": "X-API-Key", "x-operator-key": "X-Operator-Key"}
METADATA_VALUE = re.compile(r"[ -~]*")  # what gRPC carries in a text metadata value: printable ASCII


KEY_CHECK = "key_check"  # a route's opt: (request, state) -> the cheap call that checks the request's operator key


@contextlib.asynccontextmanager
async def key_first(check: Callable[[], Awaitable[Any]]) -> AsyncIterator[None]:
    """Read an operator call's body and parameters in the block: when the gateway refuses them, ``check`` (a cheap
    call of the same service with the request's key) runs first, so that a caller without the right key hears the
    key's refusal, never what is wrong with its fields (the server checks the key first too)."""
    try:
        yield
    except BadRequest:
        await check()
        raise


def metadata(request: Request[Any, Any, Any]) -> tuple[tuple[str, str], ...]:
    """What the gRPC call carries of the request: the seat token, the API key, the operator key (the admin API's),
    and the client's address.

    A header gRPC cannot carry (a tab, a byte past ASCII) is refused here: the call would fail before it left."""
    headers = request.headers
    metadata = [(name, headers[name]) for name in FORWARDED_HEADERS if name in headers]
    for name, value in metadata:
        if not METADATA_VALUE.fullmatch(value):
            header = FORWARDED_HEADERS[name]
            raise BadRequest(f"the {header} header must be printable ASCII", field=header)
    if request.client is not None:
        metadata.append(("x-forwarded-for", request.client.host))
    return tuple(metadata)


def page_size(page_size: int) -> int:
    if not 0 <= page_size <= MAX_PAGE_SIZE:
        raise BadRequest(f"page_size must be 0-{MAX_PAGE_SIZE}", field="page_size")
    return page_size


def status_filter(enum: Any, prefix: str, status: str, name: str = "status") -> int:
    """A status filter given as ``playing`` or as the enum's own name (``ROOM_STATUS_PLAYING``); ``name`` is the
    query parameter's."""
    names = enum.keys()
    wanted = status if status in names else f"{prefix}{status.upper()}"
    if wanted not in names:
        shown = [value for value in names if not value.endswith("_UNSPECIFIED")]
        choices = ", ".join(value.removeprefix(prefix).lower() for value in shown)
        raise BadRequest(f"{name} must be one of {choices}", field=name)
    return int(enum.Value(wanted))


async def room_call(up: Upstream, room_id: str, method: Callable[[Any], Any], request: Any, metadata: Any = ()) -> Any:
    """A unary call for one room: sent to the room's owner when the gateway knows it (Owners), else to the target,
    asking the node it reaches to name the owner if it forwards (the room's next calls then go there)."""
    owners = up.owners
    stubs = owners.stubs(room_id) if owners is not None else None
    call = method(stubs or up)(request, metadata=(*metadata, ROUTE), timeout=up.timeout)
    try:
        reply = await call
    except grpc.aio.AioRpcError as error:
        if stubs is not None:
            owners.failed(room_id, error)  # type: ignore[union-attr]  # (it drains, lost the room or is gone)
        raise
    if owners is not None:  # (an owner the gateway knew may have forwarded it: the room moved, it names the new one)
        owners.learn(room_id, await call.trailing_metadata())
    return reply


def upstream(state: State) -> Upstream:
    return state.upstream  # type: ignore[no-any-return]
