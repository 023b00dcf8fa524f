"""A TCP relay in front of a node (or of PostgreSQL) that can be frozen: while frozen it keeps every connection open
and passes nothing either way, as a node stopped with SIGSTOP does (its kernel still holds the connections; the
process answers nothing, not even HTTP/2 pings), or as a network that drops every packet. New connections are accepted
and hang the same way. It can also reset every connection it holds (each end gets a TCP RST, as when a firewall
rejects packets or a middlebox drops its state), and refuse new ones."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct


class Freezer:
    def __init__(self, target: str) -> None:
        self.target_host, port = target.rsplit(":", 1)
        self.target_port = int(port)
        self._thawed = asyncio.Event()
        self._thawed.set()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._ends: set[asyncio.StreamWriter] = set()  # both ends of every connection passing through
        self.refusing = False  # new connections are reset at once
        self.address = ""
        self.sent = 0  # bytes passed on to the node (a keepalive ping is 17)
        self.received = 0  # bytes read from the client's side, passed on or not (frozen: held)

    async def start(self) -> Freezer:
        self._server = await asyncio.start_server(self._connected, "127.0.0.1", 0)
        self.address = f"127.0.0.1:{self._server.sockets[0].getsockname()[1]}"
        return self

    def freeze(self) -> None:
        self._thawed.clear()

    def thaw(self) -> None:
        self._thawed.set()

    def reset(self) -> None:
        """Reset every connection passing through now: both ends get a TCP RST."""
        for end in list(self._ends):
            _reset(end)
        self._ends.clear()

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.refusing:
            _reset(writer)
            return
        self._ends.add(writer)
        try:
            await self._thawed.wait()
            upstream_reader, upstream_writer = await asyncio.open_connection(self.target_host, self.target_port)
        except OSError:
            writer.close()
            return
        self._ends.add(upstream_writer)
        pumps = [
            asyncio.ensure_future(self._pump(reader, upstream_writer, upstream=True)),
            asyncio.ensure_future(self._pump(upstream_reader, writer)),
        ]
        self._tasks.update(pumps)
        await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        for pump in pumps:
            pump.cancel()
            self._tasks.discard(pump)
        for end in (writer, upstream_writer):
            self._ends.discard(end)
            end.close()

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, upstream: bool = False) -> None:
        with contextlib.suppress(OSError):  # (a connection reset)
            await self._pass(source, sink, upstream)

    async def _pass(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, upstream: bool) -> None:
        while data := await source.read(65536):
            if upstream:
                self.received += len(data)
            await self._thawed.wait()  # (frozen: the bytes wait here, as in a stopped process's socket buffer)
            if upstream:
                self.sent += len(data)
            sink.write(data)
            await sink.drain()

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for end in list(self._ends):
            end.transport.abort()
        self._ends.clear()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()


def _reset(end: asyncio.StreamWriter) -> None:
    """Close a connection with a TCP RST rather than a FIN (SO_LINGER with a zero timeout)."""
    sock = end.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    end.transport.abort()
