"""Request ids for calls that create or take something (CreateRoom, JoinRoom, CreateTournament, JoinTournament,
matchmaking's Enqueue, the webhooks' AddEndpoint), so that a retry after a lost answer is safe: the same id answers as
the first time and creates or takes nothing more, after a restart too and on any node (a move's request id is the
room's own: service/rooms/room.py).

**Whose id.** An id is the caller's, never anyone's who happens to send the same one: a seat token must never reach
someone who did not hold the seat. A signed-in player's id is scoped to the player (their access token proves who
they are), so any id will do, "1" included; so is an operator's (the operator key proves it). A caller without a
player's session is known by nothing but what it sends: there the id itself is the caller's secret, like a password,
and must be hard to guess: at least :data:`ANONYMOUS_MIN_LENGTH` characters (a UUID will do). Someone who learnt
another caller's id could take up its answer, as someone who learnt its seat token could use the seat: the id is to be
kept as the token is.

**What is kept.** Never the id: its :class:`RequestKey`, the SHA-256 of the scope and the id (``key``), and the hash of
the request's other parameters (``parameters``), stored with what the request made: the room's or tournament's row for
a creation (its ``request_key`` is unique, so two nodes that race with one id make one; a ticket's and a webhook
endpoint's likewise), a join's log line for a join
(its ``request_id`` column holds ``key:parameters``; the room or tournament rebuilds its joins' keys from its log).
The same id with other parameters is refused (FAILED_PRECONDITION request_id_reused) rather than answered with what
the first request made.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from service.errors import InvalidRequest, PreconditionFailed

__all__ = ["ANONYMOUS_MIN_LENGTH", "RequestKey", "operator_request_key", "request_key", "reused"]

ANONYMOUS_MIN_LENGTH = 16  # the shortest request id a caller without a player's session may send (its secret)


@dataclass(frozen=True)
class RequestKey:
    """A request as the store keeps it: the key of the caller's id and the hash of the request's parameters."""

    key: str  # 64 hex digits
    parameters: str  # 32 hex digits

    @property
    def line(self) -> str:
        """As a join's log line keeps it (its request_id column)."""
        return f"{self.key}:{self.parameters}"

    @staticmethod
    def of_line(text: str) -> RequestKey | None:
        """A join line's request, or None (a join without a request id)."""
        key, colon, parameters = text.partition(":")
        return RequestKey(key, parameters) if colon else None


def request_key(request_id: str, player: str, parameters: bytes) -> RequestKey | None:
    """The key of a request id sent by ``player`` (a player's id; '' for a caller without a player's session) for a
    request whose other parameters serialise to ``parameters``; None without an id. Refuses an anonymous caller's id
    shorter than ANONYMOUS_MIN_LENGTH (InvalidRequest request_id_too_short)."""
    if not request_id:
        return None
    if not player and len(request_id) < ANONYMOUS_MIN_LENGTH:
        raise InvalidRequest(
            f"request_id must be at least {ANONYMOUS_MIN_LENGTH} characters without a player's access token (it is "
            "then the caller's secret: send a random one, such as a UUID)",
            code="request_id_too_short",
            field="request_id",
        )
    scope = f"player {player}" if player else "anonymous"
    key = hashlib.sha256(f"{scope}\n{request_id}".encode()).hexdigest()
    return RequestKey(key, hashlib.sha256(parameters).hexdigest()[:32])


def operator_request_key(request_id: str, parameters: bytes) -> RequestKey | None:
    """The key of a request id sent with the operator key (AddEndpoint): the operator's ids are theirs alone, in a
    scope of their own, so any id will do (the operator key already proves who sends it); None without an id."""
    if not request_id:
        return None
    key = hashlib.sha256(f"operator\n{request_id}".encode()).hexdigest()
    return RequestKey(key, hashlib.sha256(parameters).hexdigest()[:32])


def reused(what: str) -> PreconditionFailed:
    """The refusal of a request id sent again with other parameters."""
    return PreconditionFailed(
        f"this request_id was sent before with another request ({what}): send a new id for a new request",
        code="request_id_reused",
        field="request_id",
    )
