"""A TCP relay in front of a node that can be frozen: while frozen it keeps every connection open and passes nothing
either way, as a node stopped with SIGSTOP does (its kernel still holds the connections; the process answers
nothing, not even HTTP/2 pings). New connections are accepted and hang the same way."""

from __future__ import annotations

import asyncio
import contextlib


class Freezer:
    def __init__(self, target: str) -> None:
        self.target_host, port = target.rsplit(":", 1)
        self.target_port = int(port)
        self._thawed = asyncio.Event()
        self._thawed.set()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.address = ""
        self.sent = 0  # bytes passed on to the node (a keepalive ping is 17)

    async def start(self) -> Freezer:
        self._server = await asyncio.start_server(self._connected, "127.0.0.1", 0)
        self.address = f"127.0.0.1:{self._server.sockets[0].getsockname()[1]}"
        return self

    def freeze(self) -> None:
        self._thawed.clear()

    def thaw(self) -> None:
        self._thawed.set()

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await self._thawed.wait()
            upstream_reader, upstream_writer = await asyncio.open_connection(self.target_host, self.target_port)
        except OSError:
            writer.close()
            return
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
            end.close()

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, upstream: bool = False) -> None:
        while data := await source.read(65536):
            await self._thawed.wait()  # (frozen: the bytes wait here, as in a stopped process's socket buffer)
            if upstream:
                self.sent += len(data)
            sink.write(data)
            await sink.drain()

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
