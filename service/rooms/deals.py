"""A room's fair deal (deals/scheme.py, docs/guides/fair-deals.md): the secret it draws when it is made, sealed at rest,
and what follows from it.

A room made since fair deals holds a :class:`RoomDeal`: its secret (drawn by the directory's ``seed_source``, or given
by what made the room: a duplicate tournament's :class:`~service.rooms.directory.DealSpec`), the subject its commitment
is bound to, the seeds its game's seed is derived from when they are fixed beforehand, and whether the deal is held
past the game's end. The room's record keeps the secret sealed (:class:`service.secrets.Sealer`), never in the clear,
so the store, a copy of it, and every other node see only the sealed text; the room opens it as it is built.

The secret leaves the room only once the deal is revealed (the game over or the room closed, or a held deal told to:
service/rooms/room.py). Until then nothing here prints it: the object's ``repr`` names the commitment alone, so a log
line or a span that shows a room's deal shows nothing to recompute the deal from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from deals import scheme
from service.errors import InvalidRequest

if TYPE_CHECKING:
    from service.secrets import Sealer
    from service.store.records import RoomRecord


def secret_of(drawn: int | bytes) -> bytes:
    """A room's secret from what the directory's ``seed_source`` drew: bytes as they are (deals.scheme.new_secret),
    or an int ``n`` as ``n.to_bytes(32, "big")``: the tests' and benchmarks' way to repeat a deal (a fixed secret; the
    room's id and the seats' seeds still go into the game's seed)."""
    if isinstance(drawn, bytes):
        if len(drawn) != scheme.SECRET_BYTES:
            raise ValueError(f"a deal's secret is {scheme.SECRET_BYTES} bytes")
        return drawn
    return int(drawn).to_bytes(scheme.SECRET_BYTES, "big")


def seat_seed(seed: str) -> str:
    """A seat's seed as a request gives it (JoinRoom, CreateRoom, AcceptRoomInvitation, ProposeRematch, AnswerRematch,
    AcceptMatch, JoinTournament), or InvalidRequest (bad_seed, field ``seed``): at most 64 printable ASCII characters
    without spaces."""
    try:
        return scheme.check_seat_seed(seed)
    except scheme.SchemeError as error:
        raise InvalidRequest(str(error), code="bad_seed", field="seed") from None


class RoomDeal:
    """One room's deal (see the module docstring): ``game`` is the game's name as the scheme takes it."""

    __slots__ = ("_secret", "commitment", "game", "held", "seeds", "subject")

    def __init__(
        self, secret: bytes, subject: str, game: str, seeds: Sequence[str] | None = None, held: bool = False
    ) -> None:
        self._secret = secret
        self.subject = subject
        self.game = game
        self.seeds = None if seeds is None else tuple(seeds)  # fixed beforehand (None: the seats' own)
        self.held = held
        self.commitment = scheme.commitment(secret, subject, game)

    @classmethod
    def of(cls, record: RoomRecord, sealer: Sealer) -> RoomDeal | None:
        """The deal a stored room holds (None: a room made before fair deals, which plays on with its old seed);
        ``record`` may be the rooms table's row as well, whose columns have the record's names."""
        if not record.deal_secret:
            return None
        secret = bytes.fromhex(sealer.open(record.deal_secret))
        return cls(secret, record.deal_subject, record.game, record.deal_seeds, record.deal_held)

    def __repr__(self) -> str:
        return f"RoomDeal(subject={self.subject!r}, commitment={self.commitment!r})"

    def sealed(self, sealer: Sealer) -> str:
        """The secret as the store keeps it."""
        return sealer.seal(self._secret.hex())

    def revealed(self) -> str:
        """The secret as 64 hex characters: only for a deal the room has revealed (see the module docstring)."""
        return self._secret.hex()

    def game_seed(self, seeds: Sequence[str]) -> int:
        return scheme.game_seed(self._secret, self.subject, self.game, seeds)

    def player_seed(self, seat: int) -> int:
        """A system player's (or a stand-in's) own randomness at ``seat``: never the game's seed."""
        return scheme.player_seed(self._secret, self.subject, self.game, seat)

    def system_seat_seed(self, seat: int) -> str:
        """The seed published for a system player's seat."""
        return scheme.system_seat_seed(self._secret, self.subject, self.game, seat)
