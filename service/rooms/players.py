"""A room's system players and stand-ins: who plays a seat that no person plays now.

A system player holds its seat from the room's making (``system_seats``); a stand-in plays a person's seat in a room
with stand-ins on (``stand_ins``) once the clock has played for that person ``STAND_IN_AFTER`` times in a row, and
gives it back at the person's own move. Either moves as a person does, through the room's one path for moves
(``Room._apply``), as a command of the room's actor: woken when its seat's period begins, after its think time (the
room's ``think_seconds``, else a random one in ``THINK_RANGE``), or, for a player that searches, when its search ends
(off the event loop: service/rooms/thinking.py). Only the log decides who stands in (its table and move lines), so a
replay stands in where the game did.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

from engine.core import NotYourTurn
from service.rooms.clock import Clock
from service.rooms.clocks import SeatClocks
from service.rooms.seats import PERSON
from service.rooms.updates import PLAYING, SeatRecord, Surroundings, Update

if TYPE_CHECKING:
    from service.actors.actor import Actor


class Played(Protocol):
    """What a room's system players and stand-ins play through: a room (service/rooms/room.py), its one path for
    moves (``_apply``) included."""

    room_id: str
    seed: int
    think_seconds: float | None
    status: str
    state: Any  # the game's state (None: not started)
    game: Any  # the engine's game
    seats: Sequence[SeatRecord]
    seat_clocks: SeatClocks
    clock: Clock
    actor: Actor[Update]
    surroundings: Surroundings
    _metrics: Any
    _game_attribute: dict[str, str]
    _span: Callable[..., AbstractContextManager[Any]]

    deal: Any  # its fair deal (None: a room made before them)

    def bot_seed(self, seat: int) -> int: ...

    async def _apply(
        self, seat: int, move: Any, *, by_table: bool, request_id: str = "", stand_in: bool = False
    ) -> Any: ...


log = logging.getLogger(__name__)
THINK_RANGE = (0.8, 2.0)  # a system player's think time when the room sets none
SEARCH_MARGIN = 1.0  # a search ends this many seconds before the seat's clock runs out
STAND_IN_AFTER = 2  # with stand-ins on: the clock's plays in a row for a person's seat after which a stand-in plays it
STAND_IN_LEVEL = "normal"  # the stand-in's level


class SystemPlayers:
    """The system players and stand-ins of ``room`` (see the module docstring)."""

    def __init__(self, room: Played) -> None:
        self.room = room
        self._searches: set[asyncio.Task[None]] = set()  # searches under way
        self.reset()

    def reset(self) -> None:
        # (a room with a fair deal: from the deal's player seed, which says nothing of the game's seed)
        room = self.room
        self._think_random = random.Random((room.bot_seed(-1) if room.deal is not None else room.seed) ^ 0x5EED)

    def halt(self) -> None:
        for search in list(self._searches):
            search.cancel()

    def wake(self, seat: int, key: Any) -> None:
        """The period ``key`` of ``seat`` began, a system player's (or a stand-in's): it moves after its think time."""
        room = self.room
        if hasattr(room.seats[seat].bot, "decide"):  # (a player that searches: its thinking is its search)
            self._search(seat, key)
            return
        think = room.think_seconds
        if think is None:
            think = self._think_random.uniform(*THINK_RANGE)
        room._metrics.think_time.record(think, room._game_attribute)
        actor = room.actor

        def enqueue() -> None:
            actor.enqueue(lambda: self._move(seat, key))

        if think <= 0:
            enqueue()
        else:
            room.seat_clocks.later(seat, room.clock.now() + think, enqueue)

    def _search(self, seat: int, key: Any) -> None:
        """Start the search of a system player that searches, off the event loop (Thinkers): it is given the seat's
        view, for its think time (the room's ``think_seconds``, else the game's), always ending
        ``SEARCH_MARGIN`` seconds inside the seat's clock; its move then goes the way of any system player's."""
        room = self.room
        state = room.state
        if state is None:
            return
        game, metrics, attribute = room.game, room._metrics, room._game_attribute
        seconds = room.think_seconds if room.think_seconds is not None else game.search.seconds
        running = room.seat_clocks.running.get(seat)
        if running is not None:
            seconds = min(seconds, max(0.0, running.deadline - room.clock.now() - SEARCH_MARGIN))
        view = state.view(seat)
        seed = (room.bot_seed(seat) * 1_000_003 + state.version) % 2**63  # (never the game's seed: deals/scheme.py)
        thinkers = room.surroundings.thinkers
        actor = room.actor

        async def think() -> None:
            move = None
            try:
                thought = await thinkers.think(game.spec.name, view, seat, seed, seconds)
                move = game.move_from_wire(thought.move)
                metrics.search_iterations.record(thought.iterations, attribute)
            except asyncio.CancelledError:
                raise
            except Exception:  # (the pool broke, or the search failed): the normal player answers instead
                log.exception("room %s: seat %s's search failed; the normal player moves instead", room.room_id, seat)
            actor.enqueue(lambda: self._move(seat, key, move))

        metrics.think_time.record(seconds, attribute)
        task = asyncio.get_running_loop().create_task(think(), name=f"search {room.room_id} seat {seat}")
        self._searches.add(task)
        task.add_done_callback(self._searches.discard)

    async def _move(self, seat: int, key: Any, move: Any = None) -> None:
        """A system player moves through the same path as people, if its turn still stands (``move``: the one its
        search chose; None: ask the bot, or for a player that searches whose search failed, the normal player)."""
        room = self.room
        state = room.state
        clocks = room.seat_clocks
        if clocks.key(seat) != key or state is None or seat not in state.to_act():
            return
        record = room.seats[seat]
        bot = record.bot
        if bot is None:
            return  # (a stand-in whose person moved again meanwhile)
        stand_in = record.kind == PERSON
        if move is None and not hasattr(bot, "decide"):
            move = bot.choose(state, seat)
        elif move is None or move not in state.legal_moves(seat):
            # Its search failed, or the table changed while it searched: the normal player moves instead.
            move = room.game.new_bot("normal", room.bot_seed(seat)).choose(state, seat)
        try:
            with room._span("room.stand_in_move" if stand_in else "room.system_player_move", seat, move):
                await room._apply(seat, move, by_table=False, stand_in=stand_in)
        except NotYourTurn:
            return
        # The same seat may have to act again in the same period (after a draw): wake it again.
        state = room.state
        if state is None or room.status != PLAYING or seat not in state.to_act():
            return
        if clocks.key(seat) == key and record.bot is not None:
            self.wake(seat, key)

    def stand_in(self, record: SeatRecord, by_table: bool, stand_in: bool, playing: bool) -> bool:
        """In a room with stand-ins: keep count of the clock's plays in a row for a person's seat, start a stand-in
        after ``STAND_IN_AFTER`` of them (while the game goes on) or end it at the person's own move. Returns whether
        the seat changed."""
        if by_table:
            record.clocked += 1
            if playing and not record.stand_in and record.clocked >= STAND_IN_AFTER:
                record.stand_in = STAND_IN_LEVEL
                record.bot = self.room.game.new_bot(STAND_IN_LEVEL, self.room.bot_seed(record.seat))
                return True
        elif not stand_in:  # the person's own move
            record.clocked = 0
            if record.stand_in:
                record.stand_in, record.bot = "", None
                return True
        return False
