"""The seats of a table, as rooms and tournaments keep them: which seat a join takes, and whose a seat token is."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from service.errors import InvalidRequest, RoomUnavailable, SeatTaken, Unauthenticated

PERSON, SYSTEM = "person", "system"


class Seat(Protocol):
    seat: int
    kind: str  # person, system
    taken: bool
    nonce: str  # changes on every join: a token names it


def seat_to_take(seats: Sequence[Seat], seat: int | None, full: str) -> int:
    """The seat a join takes: ``seat`` if it is a person's and free, else the first free one when none is named.
    Refuses RoomUnavailable (reason ``full``: no free seat), InvalidRequest (no such seat) or SeatTaken."""
    if seat is None:
        free = [s.seat for s in seats if s.kind == PERSON and not s.taken]
        if not free:
            raise RoomUnavailable("no free seat", code=full)
        return free[0]
    if not 0 <= seat < len(seats):
        raise InvalidRequest(f"seat must be 0-{len(seats) - 1}", field="seat")
    if seats[seat].kind != PERSON:
        raise SeatTaken("the seat asked for belongs to a system player")
    if seats[seat].taken:
        raise SeatTaken("the seat asked for is taken")
    return seat


def check_holder(seats: Sequence[Seat], seat: int, nonce: str, what: str) -> None:
    """Raises Unauthenticated unless ``nonce`` is the current one of a person's ``seat`` (of a ``what``: a room)."""
    if not 0 <= seat < len(seats):
        raise Unauthenticated(f"the token names no seat of this {what}")
    record = seats[seat]
    if record.kind != PERSON or not record.taken or record.nonce != nonce:
        raise Unauthenticated("the seat token is no longer valid (the seat was given back)")
