"""The service's typed errors. Each names what went wrong; service/grpc/errors.py maps them to status codes."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the service refuses. ``code`` is a stable machine-readable reason."""

    code = "service_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class RoomNotFound(ServiceError):
    code = "room_not_found"


class TournamentNotFound(ServiceError):
    code = "tournament_not_found"


class InvalidRequest(ServiceError):
    """The request is malformed or asks for something impossible (a field is missing or out of range)."""

    code = "invalid_request"


class Unauthenticated(ServiceError):
    """No seat token, or one that is not valid."""

    code = "unauthenticated"


class PermissionDenied(ServiceError):
    """A valid seat token used for what it does not cover (another room's seat)."""

    code = "permission_denied"


class StaleVersion(ServiceError):
    """The client's expected version is not the room's."""

    code = "stale_version"


class SeatTaken(ServiceError):
    """The seat asked for already has someone in it."""

    code = "seat_taken"


class RoomUnavailable(ServiceError):
    """The room cannot do that now: it is full, not playing yet, or over."""

    code = "room_unavailable"
