"""How long a revoked API key still works: until the server next reads the store's keys, at most
KEY_REFRESH_SECONDS (30 s, as docs/operations/production.md says) after the revocation. The refresher's waits go
through a sleep of the test's own, so the 30 s pass when the test says (no real sleep)."""

from __future__ import annotations

import asyncio

import grpc

from kickoff.v1 import common_pb2, room_pb2
from service.grpc.server import KEY_REFRESH_SECONDS, refresh_keys
from service.store.database import create_engine, upgrade_in_thread
from service.store.keys import create_key, revoke_key
from tests.server.conftest import refusal_info
from tests.servers import Start


class Clock:
    """The refresher's sleep: it records each wait and returns when the test lets that much time pass."""

    def __init__(self) -> None:
        self.waits: list[float] = []
        self._asked = asyncio.Event()
        self._passed = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self._asked.set()
        await self._passed.wait()
        self._passed.clear()

    async def waiting(self) -> None:
        """Until the refresher has read the keys and waits again."""
        await asyncio.wait_for(self._asked.wait(), 5)
        self._asked.clear()

    async def advance(self) -> None:
        """The wait it asked for passes; returns once it has read the keys again."""
        self._passed.set()
        await self.waiting()


async def test_a_revoked_key_works_until_the_next_read_and_is_refused_at_most_30_s_later(
    start: Start, tmp_path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/keys.db"
    await upgrade_in_thread(url)
    engine = create_engine(url)
    harness = await start(require_api_key=True)
    request = room_pb2.CreateRoomRequest(game="soker", mode=common_pb2.ROOM_MODE_ONLINE, seats=2)
    key_id, key = await create_key(engine, "web front-end")
    clock = Clock()
    refresher = asyncio.create_task(refresh_keys(harness.server.admission, engine, sleep=clock.sleep))
    try:
        await clock.waiting()  # the first read, at once
        assert clock.waits == [KEY_REFRESH_SECONDS] == [30.0], "the docs state 30 s"
        await harness.rooms.CreateRoom(request, metadata=(("x-api-key", key),))

        assert await revoke_key(engine, key_id)
        # Until the next read the server has not heard of it: the key still works, by design.
        await harness.rooms.CreateRoom(request, metadata=(("x-api-key", key),))
        later_id, later_key = await create_key(engine, "made meanwhile")
        code, info, _ = await refusal_info(harness.rooms.CreateRoom(request, metadata=(("x-api-key", later_key),)))
        assert (code, info.reason) == (grpc.StatusCode.UNAUTHENTICATED, "bad_api_key"), "nor of a new one"

        await clock.advance()  # 30 s: the next read
        assert clock.waits == [30.0, 30.0], "every wait is the stated delay: no revocation outlives it"
        code, info, _ = await refusal_info(harness.rooms.CreateRoom(request, metadata=(("x-api-key", key),)))
        assert (code, info.reason) == (grpc.StatusCode.UNAUTHENTICATED, "bad_api_key"), "refused from this read on"
        await harness.rooms.CreateRoom(request, metadata=(("x-api-key", later_key),))
        assert later_id != key_id
    finally:
        refresher.cancel()
        await engine.dispose()
