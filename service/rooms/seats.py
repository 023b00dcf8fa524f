"""The seats of a table, as rooms and tournaments keep them: which seat a join takes, whose a seat token is, and
what a join sent again with its request id answers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from service.actors.requests import RequestKey, reused
from service.errors import InvalidRequest, SeatTaken, Unauthenticated, Unavailable

PERSON, SYSTEM = "person", "system"


class Seat(Protocol):
    seat: int
    kind: str  # person, system
    taken: bool
    nonce: str  # changes on every join: a token names it


def seat_to_take(seats: Sequence[Seat], seat: int | None, full: str) -> int:
    """The seat a join takes: ``seat`` if it is a person's and free, else the first free one when none is named.
    Refuses Unavailable (reason ``full``: no free seat), InvalidRequest (no such seat) or SeatTaken."""
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


def check_holder(seats: Sequence[Seat], seat: int, nonce: str, what: str) -> None:
    """Raises Unauthenticated unless ``nonce`` is the current one of a person's ``seat`` (of a ``what``: a room)."""
    if not 0 <= seat < len(seats):
        raise Unauthenticated(f"the token names no seat of this {what}")
    record = seats[seat]
    if record.kind != PERSON or not record.taken or record.nonce != nonce:
        raise Unauthenticated("the seat token is no longer valid (the seat was given back)")


def joined_before(joined: tuple[str, int, str], request: RequestKey, seats: Sequence[Seat]) -> tuple[int, str]:
    """The seat and nonce a join took with this request's key (``joined``: its parameters' hash, seat and nonce), while
    that seat is still held under it: PreconditionFailed (request_id_reused) when the join asked for something else,
    Unavailable (seat_given_back) once the seat was given back or its token revoked (no token is given again)."""
    parameters, seat, nonce = joined
    if parameters != request.parameters:
        raise reused("another join")
    record = seats[seat]
    if not record.taken or record.nonce != nonce:
        raise Unavailable(
            "the seat this request_id took was given back since (or its token revoked): join again with a new "
            "request_id",
            code="seat_given_back",
        )
    return seat, nonce
