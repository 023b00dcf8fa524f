"""The seats of a table, as rooms and tournaments keep them: one :class:`SeatTable` for both, which says which seat a
join takes, takes it, gives it back, whose a seat token is, which seat a signed-in player holds, and what a join sent
again with its request id answers.

A room's seat (service/rooms/room.py) holds more than a tournament's (its system player or stand-in, the person's
choice, since when it is held): it is a :class:`Seat` with more fields. What the table changes is only what every
seat has; the log line of each change, and when the change is stored, are its actor's.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from service.actors.requests import RequestKey, reused
from service.errors import InvalidRequest, SeatTaken, Unauthenticated, Unavailable

PERSON, SYSTEM = "person", "system"


@dataclass
class Seat:
    """A seat: a person's (free until joined) or a system player's."""

    seat: int
    kind: str  # person, system
    taken: bool = False
    name: str = ""
    nonce: str = ""  # changes on every join: a token names it, so a given-back seat's old token stops working
    team: int = 0
    player: str = ""  # the player holding it ('' for a seat taken without a player's session, and a system player's)
    origin: str = ""  # a keyed hash of the network its holder joined from ('' where not kept); never shown


# The events of a seat, told to everyone (a seat as shown carries no nonce and no origin).
@dataclass(frozen=True)
class SeatTakenEvent:
    seat: Any  # the seat as taken, as anyone may see it


@dataclass(frozen=True)
class SeatLeftEvent:
    seat: int


S = TypeVar("S", bound=Seat)


def system_name(level: str) -> str:
    """A system player's name at the table."""
    return f"{level} bot"


def new_nonce() -> str:
    """A seat's nonce for one join (a seat token names it)."""
    return secrets.token_hex(8)


class SeatTable(Generic[S]):
    """The seats of one room or tournament (``what``: which, for the messages), built by ``make(seat, kind)``: the
    ``system`` seats are taken by a system player of ``level`` as the table is made. Also the joins made with a
    request id (service/actors/requests.py): key -> (parameters' hash, seat, nonce)."""

    def __init__(
        self, count: int, system: Sequence[int], level: str, teams: Sequence[int], make: Callable[..., S], what: str
    ) -> None:
        self.what = what
        self.seats: list[S] = [
            make(s, SYSTEM, taken=True, name=system_name(level), team=teams[s])
            if s in system
            else make(s, PERSON, team=teams[s])
            for s in range(count)
        ]
        self._joined: dict[str, tuple[str, int, str]] = {}

    @property
    def full(self) -> bool:
        return all(record.taken for record in self.seats)

    def seat_of(self, player: str) -> S | None:
        """The seat ``player`` holds here, if any."""
        return next((record for record in self.seats if player and record.player == player), None)

    def joined_with(self, request: RequestKey | None) -> bool:
        """Whether a join with this request key was made here (a retry of it takes no seat more)."""
        return request is not None and request.key in self._joined

    def joined_before(self, request: RequestKey) -> tuple[int, str]:
        """The seat and nonce a join took with this request's key, while that seat is still held under it:
        PreconditionFailed (request_id_reused) when the join asked for something else, Unavailable
        (seat_given_back) once the seat was given back or its token revoked (no token is given again)."""
        parameters, seat, nonce = self._joined[request.key]
        if parameters != request.parameters:
            raise reused("another join")
        record = self.seats[seat]
        if not record.taken or record.nonce != nonce:
            raise Unavailable(
                "the seat this request_id took was given back since (or its token revoked): join again with a new "
                "request_id",
                code="seat_given_back",
            )
        return seat, nonce

    def to_take(self, seat: int | None, full: str) -> int:
        """The seat a join takes: ``seat`` if it is a person's and free, else the first free one when none is named.
        Refuses Unavailable (reason ``full``: no free seat), InvalidRequest (no such seat) or SeatTaken."""
        seats = self.seats
        if seat is None:
            free = [s.seat for s in seats if s.kind == PERSON and not s.taken]
            if not free:
                raise Unavailable("no free seat", code=full)
            return free[0]
        if not 0 <= seat < len(seats):
            raise InvalidRequest(f"seat must be 0-{len(seats) - 1}", field="seat")
        if seats[seat].kind != PERSON:
            raise SeatTaken("the seat asked for belongs to a system player")
        if seats[seat].taken:
            raise SeatTaken("the seat asked for is taken")
        return seat

    def check(self, seat: int, nonce: str) -> None:
        """Raises Unauthenticated unless ``nonce`` is the current one of a person's ``seat``."""
        if not 0 <= seat < len(self.seats):
            raise Unauthenticated(f"the token names no seat of this {self.what}")
        record = self.seats[seat]
        if record.kind != PERSON or not record.taken or record.nonce != nonce:
            raise Unauthenticated("the seat token is no longer valid (the seat was given back)")

    def take(self, seat: int, name: str, nonce: str, player: str = "", origin: str = "") -> S:
        """A person holds ``seat`` now, under ``nonce``."""
        record = self.seats[seat]
        record.taken, record.name, record.nonce, record.player, record.origin = True, name, nonce, player, origin
        return record

    def taken_with(self, request: str, seat: int, nonce: str) -> None:
        """The join that took ``seat`` is stored with ``request`` (its key and parameters as its log line keeps them;
        '' for none): a join sent again with it answers that seat (:meth:`joined_before`)."""
        known = RequestKey.of_line(request)
        if known is not None:
            self._joined[known.key] = (known.parameters, seat, nonce)

    def free(self, seat: int) -> S:
        """Nobody holds ``seat`` any more."""
        record = self.seats[seat]
        record.taken, record.name, record.nonce, record.player, record.origin = False, "", "", "", ""
        return record
