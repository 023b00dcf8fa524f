"""What an actor's own work logs when the store refuses it. After a failover heals, the node that lost a room still
runs its clock or system player once more, and the store's fence answers room_moved: a soak's logs held 186 ERROR
lines "its own change was refused: room_moved" for that ordinary answer, beside the one WARNING that the room moved.
A room that moved is INFO now; a real refusal of the actor's own change (a bug) stays an ERROR."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from service.actors.actor import Actor
from service.errors import InvalidRequest, Moved


class Fenced:
    """A journal that refuses every line with ``error``."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    async def append(self, kind: str, entry: Any, status: str) -> None:
        raise self.error


class Counter:
    """A handler whose only change is one log line."""

    def reset(self) -> None: ...

    async def replay(self, entry: Any) -> None: ...

    def resume(self) -> None: ...

    def halt(self) -> None: ...


async def test_an_own_change_fenced_off_is_no_error_and_a_real_refusal_is_one(caplog) -> None:
    journal = Fenced(Moved("another node owns this room"))
    actor: Actor[Any] = Actor(kind="room", actor_id="r1", handler=Counter(), journal=journal)  # type: ignore[arg-type]
    actor.start()
    with caplog.at_level(logging.INFO, logger="service.actors.actor"):
        actor.enqueue(lambda: actor.commit({"line": 1}, "playing"))  # (its clock ran out, say)
        with contextlib.suppress(Moved):
            await actor.settle()
    levels = [record.levelno for record in caplog.records if "r1" in record.getMessage()]
    assert levels and logging.ERROR not in levels, caplog.text
    assert levels.count(logging.WARNING) <= 1 and "refused" not in caplog.text, caplog.text
    await actor.close()

    # A real refusal of the actor's own change (a bug) is still an ERROR.
    caplog.clear()
    actor = Actor(kind="room", actor_id="r2", handler=Counter(), journal=Fenced(RuntimeError()))  # type: ignore[arg-type]
    actor.start()

    def broken() -> None:  # (an own change the rules refuse: a bug)
        raise InvalidRequest("seat 9 is not a person's seat")

    with caplog.at_level(logging.INFO, logger="service.actors.actor"):
        actor.enqueue(broken)
        await actor.settle()
    assert [record.levelno for record in caplog.records] == [logging.ERROR], caplog.text
    assert "its own change was refused: invalid_request" in caplog.text
    await actor.close()
