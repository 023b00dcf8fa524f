"""The service's typed errors. Each names what went wrong; service/grpc/errors.py maps them to status codes."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the service refuses. ``code`` is a stable machine-readable reason; ``field`` names the request field
    at fault, if one is; ``retry_after`` (seconds) tells a client when trying again may succeed."""

    code = "service_error"
    field = ""
    retry_after: float | None = None

    def __init__(
        self, message: str, *, code: str | None = None, field: str = "", retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        if field:
            self.field = field
        if retry_after is not None:
            self.retry_after = retry_after


class NotFound(ServiceError):
    """No such ``kind`` of actor (a room, a tournament) or thing: the reason is ``<kind>_not_found`` (room_not_found,
    tournament_not_found) unless ``code`` names another, and the message 'no such <kind>' unless one is given."""

    code = "not_found"

    def __init__(self, kind: str, message: str = "", *, code: str | None = None, field: str = "") -> None:
        super().__init__(message or f"no such {kind}", code=code or f"{kind}_not_found", field=field)
        self.kind = kind


class InvalidRequest(ServiceError):
    """The request is malformed or asks for something impossible (a field is missing or out of range)."""

    code = "invalid_request"


class Unauthenticated(ServiceError):
    """No seat token, or one that is not valid."""

    code = "unauthenticated"


class SeatReleased(Unauthenticated):
    """The seat a stream was opened as changed hands (it was given back): the stream ends, and the token or ticket
    that opened it opens nothing any more."""

    code = "seat_released"


class PermissionDenied(ServiceError):
    """A valid seat token used for what it does not cover (another room's seat)."""

    code = "permission_denied"


class StaleVersion(ServiceError):
    """The client's expected version is not the room's."""

    code = "stale_version"


class SeatTaken(ServiceError):
    """The seat asked for already has someone in it."""

    code = "seat_taken"


class Unavailable(ServiceError):
    """The room or tournament (any actor) cannot do that now: it is full, not playing yet, or over. (The reason,
    room_unavailable, is the one the contract has always had, for every actor.)"""

    code = "room_unavailable"


class StoreUnavailable(ServiceError):
    """The store cannot be reached (or cannot write) now; the same request may succeed shortly."""

    code = "store_unavailable"
    retry_after = 1.0


class Moved(ServiceError):
    """Another node of the cluster owns this room or tournament (any actor) now, or is about to: the same request,
    sent again, reaches it (any node routes it there). (The reason, room_moved, is the one the contract has always
    had, for every actor.)"""

    code = "room_moved"
    retry_after = 0.5


class StoreRefused(ServiceError):
    """The store refused this request's data (while it accepted everything else committed with it)."""

    code = "store_refused"


class ResourceExhausted(ServiceError):
    """A limit was reached: the caller's rate, its open streams, a stream's buffer, or the node's live rooms."""

    code = "resource_exhausted"


class TicketNotFound(ServiceError):
    """No such matchmaking ticket (or none of the caller's)."""

    code = "ticket_not_found"


class EndpointNotFound(ServiceError):
    """No such webhook endpoint."""

    code = "endpoint_not_found"


class PlayerNotFound(ServiceError):
    """No such player (or one who deleted themselves)."""

    code = "player_not_found"


class Conflict(ServiceError):
    """What the request would make exists already (an identity linked to another player, a second seat in a room)."""

    code = "already_exists"


class PreconditionFailed(ServiceError):
    """The request cannot be done in the state things are in (a player with live games cannot be deleted)."""

    code = "failed_precondition"
