"""Routing in a cluster: a call for a room or tournament another node owns is forwarded there, whole.

Why forward rather than send the client away (an address in ErrorInfo and a Locate call): every node is then a
complete entry point, so clients, the REST gateway and a plain Kubernetes Service (or any TCP load balancer) need to
know nothing of nodes or ownership, nodes need not be reachable from outside the cluster, and a room that moves
while a client is connected costs that client one retriable UNAVAILABLE, never a new address to learn. The price is
one extra hop inside the cluster for the calls that land on a node that does not own their room (on average
(n-1)/n of them with n nodes behind a balancer that knows nothing of rooms); the figures are in docs/benchmarks.md.

A forwarded call carries the caller's metadata (its seat token, API key, request ids), the address the first node
saw it from in ``x-forwarded-for`` (the owner counts the caller's rates and streams by it), and
``kickoff-forwarded-by``: the forwarding node's id, when it sealed the call, and an HMAC-SHA256 of both and the
caller's address under a key every node derives from the token secret they share (:class:`Seal`). Only a sealed call
counts as forwarded: a node that gets one for a room it does not own either (the room moved meanwhile) answers
UNAVAILABLE rather than forwarding again, so a call never loops, and the owner takes the caller's address from it
without the forwarding node being one of KICKOFF_TRUSTED_PROXIES. Anyone else's ``kickoff-forwarded-by`` (a client
that sends it itself) is ignored, and is never passed on.
The owner's answer, status and details (google.rpc.Status in ``grpc-status-details-bin``) go back unchanged; an
owner that cannot be reached (it died) is answered with a retriable UNAVAILABLE (``room_moved``).

A client that would rather call the owner itself (the gateway does; a client that reaches the nodes' advertised
addresses may) says so with ``kickoff-route: owner``: a forwarded call's answer then names the owner, ``kickoff-owner:
<address>`` (a unary call's trailing metadata, a stream's initial metadata), and the client sends the room's next calls
there, keeping the address until the owner answers ``room_moved`` (it drains, or lost the room), when it goes back to
any node. The forwarding stays for every client that does not ask, and for the call that asked.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any, NoReturn

import grpc

from service.cluster.node import Node, Remote
from service.errors import Moved
from service.grpc.errors import abort

log = logging.getLogger(__name__)

FORWARDED_BY = "kickoff-forwarded-by"
CALLER = "x-forwarded-for"
ROUTE, FOLLOW = "kickoff-route", "owner"  # a caller's ask to be told the owner's address (kickoff-route: owner)
OWNER = "kickoff-owner"  # the owner's address, in the answer of a forwarded call that asked
# metadata a forwarded call does not carry on: grpc's own, and what the forwarding node sets itself
_DROPPED = {"user-agent", ":authority", "content-type", "te", FORWARDED_BY, CALLER, ROUTE}
_PASSED_TRAILERS = {"grpc-status-details-bin", "retry-after"}


def channel_options(lease_seconds: float) -> tuple[tuple[str, int], ...]:
    """A node's channels to the other nodes notice a peer that stopped answering (SIGSTOP, a stalled machine: its
    connections stay open, nothing comes back) within ``lease_seconds``: a ping every half lease on a connection
    that carries calls, idle streams included, and the connection is closed when a ping is not answered within the
    other half, which ends the calls on it UNAVAILABLE. The ping timeout is grpc's own setting; without it a ping
    already in flight when the peer froze (grpc's flow-control probe) holds every later keepalive for a minute. The
    peers accept these pings: :func:`peer_ping_ms`."""
    half = max(1, round(lease_seconds * 500))
    return (
        ("grpc.max_receive_message_length", 4 * 1024 * 1024),
        ("grpc.keepalive_time_ms", half),
        ("grpc.keepalive_timeout_ms", half),
        ("grpc.http2.ping_timeout_ms", half),
        ("grpc.http2.max_pings_without_data", 0),  # (an idle stream is pinged too, not only twice)
        ("grpc.keepalive_permit_without_calls", 0),
    )


def peer_ping_ms(lease_seconds: float) -> int:
    """How often a node's server lets its peers ping on a connection with no data moving (a relayed stream waiting for
    its next update): they ping every half lease, and with grpc's default (one ping in five minutes) each ping would
    be a strike, the third answered with GOAWAY (too_many_pings). A quarter lease leaves room for timers that fire a
    little early."""
    return max(1, round(lease_seconds * 250))


SEAL_SECONDS = 60.0  # how long a seal is good for: a forwarded call is sent at once; node clocks may differ a little


class Seal:
    """The seal of a forwarded call: ``kickoff-forwarded-by: <node id>;<unix seconds>;<signature>``, the signature an
    HMAC-SHA256 of the node id, the time and the caller's address (``x-forwarded-for``) under the nodes' key."""

    def __init__(self, key: bytes, clock: Callable[[], float] = time.time) -> None:
        self._key = key
        self._clock = clock

    def _sign(self, node_id: str, issued: str, caller: str) -> str:
        payload = f"{node_id}\n{issued}\n{caller}".encode()
        return base64.urlsafe_b64encode(hmac.new(self._key, payload, hashlib.sha256).digest()).decode().rstrip("=")

    def seal(self, node_id: str, caller: str) -> str:
        issued = str(int(self._clock()))
        return f"{node_id};{issued};{self._sign(node_id, issued, caller)}"

    def caller(self, metadata: Mapping[str, Any]) -> str | None:
        """The caller's address a sealed call names (None: the call is not sealed by a node, or its seal is stale or
        does not match)."""
        value, caller = metadata.get(FORWARDED_BY), metadata.get(CALLER)
        if type(value) is not str or type(caller) is not str:
            return None
        node_id, _, rest = value.partition(";")
        issued, _, signature = rest.partition(";")
        if not issued.isdigit() or abs(self._clock() - int(issued)) > SEAL_SECONDS:
            return None
        if not hmac.compare_digest(signature.encode(), self._sign(node_id, issued, caller).encode()):
            return None
        return caller


class _Stopped(Exception):
    """This node stopped relaying (it drains)."""


STOPPING = Moved("this node is stopping; reconnect (to any node) with the last version seen")


def _bytes(message: Any) -> bytes:
    return message if type(message) is bytes else message.SerializeToString()


class Forwarder:
    """Channels to the other nodes (one per address, kept) and the forwarding of each kind of call."""

    def __init__(self, node: Node, caller: Any, seal: Seal) -> None:
        self.node = node
        self.seal = seal
        # No forwarded call waits longer than a lease for its owner: by then a frozen owner's lease has run out, and
        # the call sent again is served by the node that claims the room (the channels notice a frozen owner on an
        # open stream within a lease too: channel_options).
        self.bound = node.settings.lease_seconds
        self._options = channel_options(node.settings.lease_seconds)
        self._caller = caller  # context -> the caller's address (admission's view of it)
        self._channels: dict[str, grpc.aio.Channel] = {}
        self._streams: set[Any] = set()  # the streams being relayed now
        self._stopping = False
        self.forwarded = 0  # calls forwarded (figures)

    def _channel(self, address: str) -> grpc.aio.Channel:
        channel = self._channels.get(address)
        if channel is None:
            channel = self._channels[address] = grpc.aio.insecure_channel(address, options=self._options)
        return channel

    def _metadata(self, context: grpc.aio.ServicerContext) -> list[tuple[str, str | bytes]]:
        metadata = [
            (key, value)
            for key, value in context.invocation_metadata() or ()
            if key not in _DROPPED and not key.startswith("grpc-")
        ]
        caller = self._caller(context)
        metadata.append((CALLER, caller))
        metadata.append((FORWARDED_BY, self.seal.seal(self.node.node_id, caller)))
        return metadata

    @staticmethod
    def _owner(context: grpc.aio.ServicerContext, elsewhere: Remote) -> tuple[tuple[str, str], ...]:
        """The owner's address for a caller that asked to follow owners (``kickoff-route: owner``), else nothing."""
        for key, value in context.invocation_metadata() or ():
            if key == ROUTE and value == FOLLOW:
                return ((OWNER, elsewhere.address),)
        return ()

    def sealed(self, context: grpc.aio.ServicerContext) -> bool:
        """Whether another node forwarded this call (its seal holds)."""
        return self.seal.caller(dict(context.invocation_metadata() or ())) is not None

    async def _refuse(self, context: grpc.aio.ServicerContext, elsewhere: Remote) -> None:
        """A call forwarded here already is not forwarded again."""
        if self.sealed(context):
            self.node.moved("room", elsewhere.target_id)
            self.node.moved("tournament", elsewhere.target_id)
            await abort(context, Moved("the room is moving between nodes; try again"))

    async def _fail(
        self, context: grpc.aio.ServicerContext, error: grpc.aio.AioRpcError, elsewhere: Remote
    ) -> NoReturn:
        """Hand the owner's status back; an owner out of reach is a retriable UNAVAILABLE."""
        trailers = error.trailing_metadata() or ()
        passed = [(key, value) for key, value in trailers if key in _PASSED_TRAILERS]
        # (CANCELLED: this node did not cancel the call, so the owner did: grpc cancels the calls that reach a server
        # as it stops, grpc/grpc issue 41785. For the caller it is the owner being unavailable.)
        away = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED)
        if error.code() in away and not passed:
            self.node.moved("room", elsewhere.target_id)
            self.node.moved("tournament", elsewhere.target_id)
            log.info("node %s at %s did not answer (%s)", elsewhere.node_id, elsewhere.address, error.code().name)
            await abort(context, Moved("the node that owns this room does not answer; try again shortly"))
        await context.abort(error.code(), error.details() or "", tuple(passed))
        raise AssertionError("unreachable")  # (abort raises)

    async def unary(self, path: str, request: Any, context: grpc.aio.ServicerContext, elsewhere: Remote) -> bytes:
        await self._refuse(context, elsewhere)
        self.forwarded += 1
        call = self._channel(elsewhere.address).unary_unary(path, request_serializer=_bytes)
        try:
            answer = await call(request, metadata=self._metadata(context), timeout=self._timeout(context))
        except grpc.aio.AioRpcError as error:
            await self._fail(context, error, elsewhere)
        owner = self._owner(context, elsewhere)
        if owner:
            context.set_trailing_metadata(owner)
        return answer

    def _timeout(self, context: grpc.aio.ServicerContext) -> float:
        """A forwarded unary call's deadline: the caller's, but never more than :attr:`bound`."""
        remaining = context.time_remaining()
        return self.bound if remaining is None else min(remaining, self.bound)

    async def fetch(
        self, path: str, request: Any, context: grpc.aio.ServicerContext, elsewhere: Remote
    ) -> bytes | None:
        """One answer from the owner, for a listing that gathers rooms from several nodes; None when the owner does
        not answer (the listing goes on without that room)."""
        call = self._channel(elsewhere.address).unary_unary(path, request_serializer=_bytes)
        try:
            return await call(request, metadata=self._metadata(context), timeout=self._timeout(context))
        except grpc.aio.AioRpcError as error:
            log.info("node %s did not answer for %s (%s)", elsewhere.node_id, elsewhere.target_id, error.code().name)
            return None

    async def server_stream(
        self, path: str, request: Any, context: grpc.aio.ServicerContext, elsewhere: Remote
    ) -> AsyncIterator[bytes]:
        await self._refuse(context, elsewhere)
        self.forwarded += 1
        call = self._channel(elsewhere.address).unary_stream(path, request_serializer=_bytes)(
            request, metadata=self._metadata(context), timeout=context.time_remaining()
        )

        async def accepted() -> None:
            await call.initial_metadata()
            await context.send_initial_metadata(self._owner(context, elsewhere))

        async for message in self._pass_on(call, context, elsewhere, first=accepted):
            yield message

    async def _pass_on(
        self,
        call: Any,
        context: grpc.aio.ServicerContext,
        elsewhere: Remote,
        first: Callable[[], Awaitable[None]] | None = None,
        last: Callable[[], Awaitable[None]] | None = None,
    ) -> AsyncIterator[bytes]:
        """The owner's stream to the caller (after ``first``): its messages, then its status, or this node's stop as
        UNAVAILABLE; ``last`` and the call's end before the status goes."""
        try:
            if first is not None:
                await first()
            async for message in self._relay(call):
                yield message
            return
        except grpc.aio.AioRpcError as error:
            failed: grpc.aio.AioRpcError | None = error
        except _Stopped:
            failed = None
        finally:
            if last is not None:
                await last()
            call.cancel()
        await (self._fail(context, failed, elsewhere) if failed is not None else abort(context, STOPPING))

    async def _relay(self, call: Any) -> AsyncIterator[bytes]:
        """The owner's messages, until its stream ends, or this node stops (:meth:`stop_streams`: _Stopped)."""
        self._streams.add(call)
        try:
            if self._stopping:  # (a stream that began after the others were stopped)
                call.cancel()
                raise _Stopped()
            while (message := await call.read()) is not grpc.aio.EOF:
                yield message
        except asyncio.CancelledError:
            if not self._stopping:
                raise
            raise _Stopped() from None
        finally:
            self._streams.discard(call)

    def stop_streams(self) -> None:
        """This node stops (it drains): every stream it relays ends with a retriable UNAVAILABLE, so that its client
        comes back through another node, rather than being cut when the server stops."""
        self._stopping = True
        for call in list(self._streams):
            call.cancel()

    async def bidi(
        self,
        path: str,
        first: Any,
        requests: AsyncIterator[Any],
        context: grpc.aio.ServicerContext,
        elsewhere: Remote,
    ) -> AsyncIterator[bytes]:
        """A stream whose ``first`` message was read here (it named the room); the rest are passed on as they
        come."""
        await self._refuse(context, elsewhere)
        self.forwarded += 1
        call = self._channel(elsewhere.address).stream_stream(path, request_serializer=_bytes)(
            metadata=self._metadata(context), timeout=context.time_remaining()
        )

        async def pump() -> None:
            await call.write(first)
            async for message in requests:
                await call.write(message)
            await call.done_writing()

        owner = self._owner(context, elsewhere)
        if owner:  # (before the first answer: the client may go to the owner at once)
            await context.send_initial_metadata(owner)
        pumping = asyncio.create_task(pump())

        async def stop_pumping() -> None:
            pumping.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pumping

        async for message in self._pass_on(call, context, elsewhere, last=stop_pumping):
            yield message

    async def close(self) -> None:
        for channel in self._channels.values():
            await channel.close()
