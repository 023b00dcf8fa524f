"""What a room is made of and tells: its statuses and limits, what every room of a server shares
(:class:`Surroundings`), its seats, and its events and updates (service/rooms/room.py makes them; the transports render
them for each viewer)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import Bot, Outcome
from service.actors.actor import Journal
from service.actors.feed import HISTORY_KEPT, STREAM_BUFFER
from service.rooms.clock import Clock
from service.rooms.clocks import Deadline
from service.rooms.seats import Seat
from service.rooms.thinking import Thinkers
from service.secrets import Sealer
from service.telemetry import Telemetry

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
ONLINE, SOLO = "online", "solo"


@dataclass(frozen=True)
class RoomLimits:
    """What a room may hold on to: how long it waits for its people, and how many answers a stream may queue."""

    waiting_seconds: float | None = None  # a waiting room with no seat change for this long closes (None: never)
    stream_buffer: int = STREAM_BUFFER  # a play stream's answers that may wait for its client (see feed.py)
    history: int | None = HISTORY_KEPT  # recent updates kept in memory; older ones are read back from the store


@dataclass(frozen=True)
class Surroundings:
    """What every room of a server shares: its time source, its journal, its telemetry and its limits."""

    clock: Clock
    journal: Journal
    telemetry: Telemetry = field(default_factory=Telemetry)
    limits: RoomLimits = RoomLimits()
    rates: bool = False  # the store keeps players' ratings (a SQL store with players): games may be rated
    thinkers: Thinkers = field(default_factory=lambda: Thinkers(0))  # where hard system players search
    # a solo room whose person has not moved for this long ends as abandoned (None: never; see the module docstring)
    abandon_seconds: float | None = None
    # what seals the rooms' deal secrets at rest (service/secrets.py: the key the nodes share; the composition root
    # hands in the store's, a server without a store one key for the process)
    sealer: Sealer = field(default_factory=Sealer.of_process)


@dataclass
class SeatRecord(Seat):
    """A room's seat: what every seat has (service/rooms/seats.py), and its player, choice and stand-in."""

    bot: Bot | None = None  # its system player, or its person's stand-in (service/rooms/players.py)
    choice: str = ""  # what the person chose on taking the seat (GameSpec.seat_choice), as the game understood it
    since: int = 0  # the version at which its holder took it (a stream opened as the seat ends when it is given back)
    stand_in: str = ""  # the level of the system player standing in for its person now ('' while the person plays)
    clocked: int = 0  # a person's seat: the periods in a row the clock has played for it
    seed: str = ""  # the seat's seed for the fair deal (its person's, or the one published for a system player)

    def shown(self) -> SeatRecord:
        """The seat as readers are shown it: no nonce, no system player (its origin stays in the room)."""
        return SeatRecord(
            self.seat,
            self.kind,
            self.taken,
            self.name,
            team=self.team,
            choice=self.choice,
            player=self.player,
            stand_in=self.stand_in,
            origin=self.origin,
            seed=self.seed,
        )


# Room-level events (a seat's are in service/rooms/seats.py). Only GameEvent can hold secrets; each is redacted for one
# viewer before it leaves the room.
@dataclass(frozen=True)
class GameStartedEvent:
    first_seat: int
    deal: DealShown | None = None  # the deal it is dealt from (None: a room made before fair deals)


@dataclass(frozen=True)
class GameEvent:
    event: Any  # the engine's event, unredacted


@dataclass(frozen=True)
class StandInEvent:
    seat: int
    level: str  # the stand-in's level as it begins; '' as it ends


@dataclass(frozen=True)
class GameEndedEvent:
    outcome: Outcome
    deal_secret: str = ""  # the deal's secret revealed ('' for a held deal, or a room made before fair deals)


@dataclass(frozen=True)
class DealShown:
    """A room's deal as anyone may see it (Room.deal, GameStarted.deal): never the secret until it is revealed."""

    scheme: str
    subject: str
    commitment: str
    seeds: tuple[str, ...] = ()  # once the game has started
    secret: str = ""  # once revealed


@dataclass(eq=False)
class Update:
    """One change of the room and everything it caused."""

    version: int
    events: tuple[Any, ...]
    status: str
    to_act: tuple[int, ...]
    deadlines: tuple[Deadline, ...]  # one per acting seat with a running clock, in to_act's order
    time: float
    legal: dict[int, list[Any]] = field(default_factory=dict)  # the legal moves of each person's seat that must act
    mover: int | None = None  # the seat whose move made this update (None: a join, the table, a system player)
    request_id: str = ""  # the mover's request id
    released: int = -1  # the seat this update gave back (-1: none): streams opened as that seat end here
    rendered: dict[Any, Any] = field(default_factory=dict)  # per-viewer renderings, filled by the transport

    def events_for(self, viewer: int | None) -> list[Any]:
        """The events as ``viewer`` may see them (a seat, or None for a spectator)."""
        return [GameEvent(e.event.for_viewer(viewer)) if type(e) is GameEvent else e for e in self.events]


@dataclass(frozen=True)
class Published:
    """The room as of its last stored update: what readers of the room are shown (never a change being written, nor
    one the store did not take)."""

    version: int
    status: str
    seats: tuple[SeatRecord, ...]
    to_act: tuple[int, ...]
    deadlines: tuple[Deadline, ...]
    outcome: Outcome | None
    revealed: bool = False  # the deal is revealed: its secret is shown, and the replay shows every hand and move
    deal_seeds: tuple[str, ...] = ()  # the seeds the game's seed was derived from, once it started


@dataclass(frozen=True)
class MoveAnswer:
    """What an accepted move returns: the version after it and the update it caused (``retried``: the first answer
    to a request id seen before)."""

    version: int
    update: Update
    retried: bool = False
