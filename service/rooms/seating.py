"""A room's seat commands: joining, leaving, a tournament seating its people, an operator revoking a seat's token.

The seats themselves are a :class:`SeatTable` (service/rooms/seats.py), the same for rooms and tournaments; what is a
room's own here is what a join may choose (a team, where the game offers one), who may join (a rated room: signed-in
players only; a tournament's game: nobody but its tournament), and that every seat change is a change of the room,
made and stored through its actor (``Room._change``) like a move. :class:`Seating` is a part of :class:`Room`
(service/rooms/room.py), which it is written for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.core import ChoiceTaken, GameState, InvalidOptions
from service.actors.requests import RequestKey
from service.errors import Conflict, InvalidRequest, SeatTaken, Unavailable
from service.rooms.seats import PERSON, SeatLeftEvent, SeatTable, SeatTakenEvent, new_nonce
from service.rooms.updates import FINISHED, WAITING, SeatRecord

if TYPE_CHECKING:
    from service.actors.actor import Actor
    from service.store.records import RoomRecord


class Seating:
    """The seat commands of a :class:`Room` (see the module docstring): each public one runs in the room's turn."""

    actor: Actor[Any]
    table: SeatTable[SeatRecord]
    seats: list[SeatRecord]
    status: str
    state: GameState | None
    tournament_id: str
    options: dict[str, Any]
    game: Any
    _record: RoomRecord
    _change: Callable[..., Any]
    _start_game: Callable[[], Any]
    _operator_check: Callable[..., Any]
    version: int

    async def join(
        self,
        seat: int | None,
        name: str,
        choice: str = "",
        player: str = "",
        origin: str = "",
        request: RequestKey | None = None,
        seed: str = "",
    ) -> tuple[int, str]:
        """Take a person's seat, with what the person chooses for it where the game offers a choice (a team), for
        ``player`` when a signed-in player joins (one seat per room: Conflict already_seated), who joins from
        ``origin`` (a keyed hash of their network, as the transport saw it: '' where not kept); returns the seat with
        its nonce (for the token). The last person's join starts the game.

        ``request``: the join's request id (service/actors/requests.py), kept in its log line. A join sent again with it
        answers the seat it took, for as long as that seat is still held under that join (Unavailable
        seat_given_back once it was given back or its token revoked), and takes nothing more; with other parameters,
        PreconditionFailed (request_id_reused).

        ``seed``: the seat's seed for the fair deal (deals/scheme.py; checked by the caller), kept in the join's line
        and published as the seat's."""
        return await self.actor.call(lambda: self._join(seat, name, choice, player, origin, request, seed))

    def joined_with(self, request: RequestKey | None) -> bool:
        """Whether a join with this request key was made here (a retry of it takes no seat more)."""
        return self.table.joined_with(request)

    async def seat_person(
        self, seat: int, name: str, nonce: str, player: str = "", origin: str = "", seed: str = ""
    ) -> None:
        """Seat a person chosen elsewhere (a tournament seats its players in each of its rooms, with the nonce of
        their tournament token and the origin they joined it from). Seating someone already seated with that nonce
        changes nothing."""
        await self.actor.call(lambda: self._seat_person(seat, name, nonce, player, origin, seed))

    def seat_of(self, player: str) -> SeatRecord | None:
        """The seat ``player`` holds here, if any."""
        return self.table.seat_of(player)

    async def leave(self, seat: int, nonce: str) -> None:
        await self.actor.call(lambda: self._leave(seat, nonce))

    async def revoke_seat(self, seat: int) -> bool:
        """An operator revokes ``seat``'s token: its holder's tokens and tickets stop working and the streams opened
        as the seat end (SeatReleased). A waiting room's seat is given back (True); a playing room's gets a new nonce
        and stays its holder's (False): a signed-in player takes it up again with a fresh token (TakeSeat)."""
        return await self.actor.call(lambda: self._operator_check(lambda: self._revoke_seat(seat)))

    def check_seat(self, seat: int, nonce: str) -> None:
        """Raises Unauthenticated unless ``nonce`` is the current one of a person's ``seat``."""
        self.table.check(seat, nonce)

    async def _join(
        self,
        seat: int | None,
        name: str,
        choice: str = "",
        player: str = "",
        origin: str = "",
        request: RequestKey | None = None,
        seed: str = "",
    ) -> tuple[int, str]:
        if self.tournament_id:
            raise Unavailable(
                f"this room is a game of tournament {self.tournament_id}: join the tournament, whose seat token "
                "every game of it accepts",
                code="tournament_room",
            )
        if request is not None and self.table.joined_with(request):  # (before any other check: the join was made)
            return self.table.joined_before(request)
        if self.status == FINISHED and self.state is None:
            raise Unavailable("the room closed: nobody joined it for too long", code="room_closed")
        if player and self.seat_of(player) is not None:
            raise Conflict(
                "the player holds a seat of this room already: take it up with TakeSeat", code="already_seated"
            )
        if self.status != WAITING:
            raise Unavailable("the game has started: every seat is taken", code="room_full")
        if self._record.rated and not player:
            raise Unavailable(
                "this room is rated: join it signed in as a player (PlayerService)", code="sign_in_required"
            )
        seat = self.table.to_take(seat, full="room_full")
        if choice:
            self._check_choice(seat, choice)
        nonce = new_nonce()
        await self._take_seat(
            seat, name or f"player {seat}", nonce, choice, player, origin, request.line if request else "", seed
        )
        return seat, nonce

    def _choices(self) -> dict[int, str]:
        return {record.seat: record.choice for record in self.seats if record.choice}

    def _check_choice(self, seat: int, choice: str) -> None:
        """Refuses a choice the game does not take (InvalidRequest) or one another seat made (SeatTaken)."""
        try:
            self.game.with_choices(len(self.seats), self.options, {**self._choices(), seat: choice})
        except ChoiceTaken as error:
            raise SeatTaken(str(error), code="choice_taken") from None
        except InvalidOptions as error:
            raise InvalidRequest(str(error), field="choice", code="bad_choice") from None

    async def _take_seat(
        self,
        seat: int,
        name: str,
        nonce: str,
        choice: str = "",
        player: str = "",
        origin: str = "",
        request: str = "",
        seed: str = "",
    ) -> None:
        """``request``: the join's request key and parameters as its log line keeps them ('' for none); ``seed``: the
        seat's seed for the fair deal."""
        record = self.table.take(seat, name, nonce, player, origin)
        record.choice, record.since, record.seed = choice, self.version + 1, seed  # (since: the version it makes)
        events: list[Any] = [SeatTakenEvent(record.shown())]
        if all(r.taken for r in self.seats):
            events.append(self._start_game())
        await self._change(
            events,
            "join",
            seat,
            request_id=request,
            name=name,
            nonce=nonce,
            choice=choice,
            player=player,
            origin=origin,
            seed=seed,
        )
        self.table.taken_with(request, seat, nonce)

    async def _seat_person(
        self, seat: int, name: str, nonce: str, player: str = "", origin: str = "", seed: str = ""
    ) -> None:
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != PERSON:
            raise InvalidRequest(f"seat {seat} is not a person's seat")
        record = self.seats[seat]
        if record.taken:
            if record.nonce != nonce:
                raise SeatTaken(f"seat {seat} is taken")
            return
        await self._take_seat(seat, name, nonce, player=player, origin=origin, seed=seed)

    async def _leave(self, seat: int, nonce: str) -> None:
        self.check_seat(seat, nonce)
        if self.status != WAITING:
            return  # nobody is ever removed from a game: the seat stays, the clock plays for it when it must
        await self._free_seat(seat)

    async def _free_seat(self, seat: int) -> None:
        record = self.table.free(seat)
        record.choice, record.since, record.seed = "", 0, ""
        await self._change([SeatLeftEvent(seat)], "leave", seat)

    async def _revoke_seat(self, seat: int) -> bool:
        if not 0 <= seat < len(self.seats):
            raise InvalidRequest(f"seat must be 0-{len(self.seats) - 1}", field="seat", code="bad_seat")
        record = self.seats[seat]
        if record.kind != PERSON or not record.taken:
            raise Unavailable("nobody holds this seat: it has no token", code="seat_not_held")
        if self.status == WAITING:
            await self._free_seat(seat)
            return True
        await self._rekey(seat, new_nonce())
        return False

    async def _rekey(self, seat: int, nonce: str) -> None:
        """The seat's holder keeps it under a new nonce (the log line ``revoke``): every token naming the old one
        stops working, and the streams opened as the seat end here."""
        record = self.seats[seat]
        record.nonce, record.since = nonce, self.version + 1
        await self._change([], "revoke", seat, nonce=nonce)
