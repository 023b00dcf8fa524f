"""Invitations to a friend: a player seated in a room waiting for players invites one of their friends to it.

The invitation is a row of ``room_invitations`` (migration 0022) on the database every node shares, so that it holds
on every node and after a restart. It is **pending** while its row says so and its room's row says the room is waiting
(``rooms.status``): an invitation therefore ends, without a write, the moment its room starts, closes unplayed or ends
(the journal keeps the room's status current), and when the room's row is gone; the pruning loop deletes the rows of
rooms that no longer wait, and answered invitations, after :data:`KEEP_DAYS`.

The invitee **sees** an invitation (ListRoomInvitations, the unlisted room it opens: :func:`service.rooms.private.
may_enter`, accepting or declining it) only while the two are friends. A block ends a friendship
(service/friends/store.py), so an invitation pending when the invitee blocks the inviter, or the inviter the invitee,
is swallowed: the invitee never sees it again and it opens nothing, while the inviter's list shows it pending as an
invitation nobody answers, until it is withdrawn or its room starts. An invitation to a player who is not a friend (a
stranger, or one who removed or blocked the caller: the same answer for each, so that nothing tells a player they are
blocked) is refused ``not_friends``.

Every change is one transaction that first locks both players' rows in player-id order, as the friends store does, so
the bounds counted in it hold when many invitations are sent at once; at most one invitation is pending per room and
invitee in the schema too.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, exists, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from service.errors import Conflict, InvalidRequest, NotFound, PlayerNotFound, PreconditionFailed, ResourceExhausted
from service.settings import RoomInvitationSettings
from service.store.models import BlockRow, FriendshipRow, PlayerRow, RoomInvitationRow, RoomRow
from service.store.retention import Rule
from service.webhooks.events import room_invited_event

PENDING, ACCEPTED, DECLINED, WITHDRAWN = "pending", "accepted", "declined", "withdrawn"
WAITING = "waiting"  # a room's status while it waits for players (service/rooms/updates.py)
KEEP_DAYS = 7.0  # answered invitations, and those of rooms that no longer wait, are pruned after this
DAY = 86400.0

_Row = RoomInvitationRow


@dataclass(frozen=True)
class Invitation:
    """One invitation as the calls show it: the room and its game, who invited whom (ids and names now), when."""

    invitation_id: str
    room_id: str
    game: str
    inviter: str
    inviter_name: str
    invitee: str
    invitee_name: str
    created_at: float
    status: str = PENDING


def _waiting() -> Any:
    """The invitation's room still waits for players."""
    return exists().where(RoomRow.room_id == _Row.room_id, RoomRow.status == WAITING)


def _friends() -> Any:
    """The inviter and the invitee are friends now (a block ended it: the invitation is swallowed)."""
    return exists().where(FriendshipRow.player_id == _Row.inviter, FriendshipRow.friend_id == _Row.invitee)


def _pending() -> list[Any]:
    return [_Row.status == PENDING, _waiting()]


class RoomInvitations:
    """The invitations store (see the module docstring). ``outbox`` writes the room.invited event in the invitation's
    transaction (None: none); ``clock``: the rooms' clock."""

    def __init__(
        self,
        engine: AsyncEngine,
        clock: Callable[[], float],
        settings: RoomInvitationSettings | None = None,
        outbox: Any = None,
    ) -> None:
        self.engine = engine
        self.clock = clock
        self.settings = settings or RoomInvitationSettings()
        self.outbox = outbox

    def retention(self) -> list[Rule]:
        """What the pruning loop deletes: invitations answered, or whose room no longer waits, more than
        :data:`KEEP_DAYS` ago (by when they were made, for the latter)."""
        keep = KEEP_DAYS * DAY
        return [
            Rule(
                "room invitations",
                _Row,
                "invitation_id",
                lambda now: or_(
                    and_(_Row.status != PENDING, _Row.ended_at < now - keep),
                    and_(_Row.created_at < now - keep, ~_waiting()),
                ),
            )
        ]

    @staticmethod
    async def _lock(connection: AsyncConnection, players: list[str]) -> dict[str, str]:
        """Lock the players' rows, in player-id order; the names of those who are people and not deleted."""
        query = (
            select(PlayerRow.player_id, PlayerRow.name, PlayerRow.kind, PlayerRow.deleted_at)
            .where(PlayerRow.player_id.in_(sorted(set(players))))
            .order_by(PlayerRow.player_id)
        )
        if connection.dialect.name == "postgresql":
            query = query.with_for_update()
        rows = await connection.execute(query)
        return {row.player_id: row.name for row in rows if row.kind == "person" and row.deleted_at is None}

    @staticmethod
    async def _count(connection: AsyncConnection, *where: Any) -> int:
        return (await connection.execute(select(func.count()).select_from(_Row).where(*where))).scalar_one()

    async def invite(self, room_id: str, game: str, inviter: str, invitee: str) -> Invitation:
        """``inviter`` (seated in the waiting room ``room_id``: the caller checked) invites ``invitee``."""
        if inviter == invitee:
            raise InvalidRequest("that is you", code="not_yourself", field="player_id")
        now = self.clock()
        settings = self.settings
        try:
            async with self.engine.begin() as connection:
                names = await self._lock(connection, [inviter, invitee])
                if invitee not in names:
                    raise PlayerNotFound("no such player", field="player_id")
                blocked = select(BlockRow.blocked).where(BlockRow.blocker == inviter, BlockRow.blocked == invitee)
                if (await connection.execute(blocked)).first() is not None:
                    raise PreconditionFailed(
                        "you blocked this player: unblock them first", code="you_blocked", field="player_id"
                    )
                friends = select(FriendshipRow.since).where(
                    FriendshipRow.player_id == inviter, FriendshipRow.friend_id == invitee
                )
                if (await connection.execute(friends)).first() is None:
                    raise PreconditionFailed(
                        "only a friend may be invited to a room (FriendService)", code="not_friends", field="player_id"
                    )
                mine = (_Row.room_id == room_id, _Row.invitee == invitee, *_pending())
                if await self._count(connection, *mine):
                    raise Conflict("this player is invited to this room already", code="already_invited")
                if await self._count(connection, _Row.room_id == room_id, *_pending()) >= settings.per_room:
                    raise ResourceExhausted(
                        f"this room has as many invitations waiting for an answer as a room may ({settings.per_room})"
                        "; withdraw one first",
                        code="room_invitations_full",
                    )
                if await self._count(connection, _Row.invitee == invitee, *_pending()) >= settings.per_player:
                    raise ResourceExhausted(
                        "this player has as many invitations waiting for their answer as a player may; try again later",
                        code="their_invitations_full",
                    )
                invitation = Invitation(
                    secrets.token_hex(16), room_id, game, inviter, names[inviter], invitee, names[invitee], now
                )
                await connection.execute(
                    insert(_Row),
                    [
                        {
                            "invitation_id": invitation.invitation_id,
                            "room_id": room_id,
                            "game": game,
                            "inviter": inviter,
                            "invitee": invitee,
                            "status": PENDING,
                            "created_at": now,
                            "ended_at": None,
                        }
                    ],
                )
                if self.outbox is not None:
                    event = room_invited_event(
                        recipient=invitee,
                        room_id=room_id,
                        game=game,
                        inviter=inviter,
                        inviter_name=names[inviter],
                        now=now,
                    )
                    await self.outbox.write(connection, [event])
        except IntegrityError:  # (the same invitation, sent twice at once: one row won)
            raise Conflict("this player is invited to this room already", code="already_invited") from None
        return invitation

    def _listed(self) -> Any:
        inviter, invitee = PlayerRow.__table__.alias("inviter"), PlayerRow.__table__.alias("invitee")
        return (
            select(_Row, inviter.c.name.label("inviter_name"), invitee.c.name.label("invitee_name"))
            .join(inviter, inviter.c.player_id == _Row.inviter)
            .join(invitee, invitee.c.player_id == _Row.invitee)
            .order_by(_Row.created_at.desc(), _Row.invitation_id)
        )

    @staticmethod
    def _invitation(row: Any) -> Invitation:
        return Invitation(
            row.invitation_id,
            row.room_id,
            row.game,
            row.inviter,
            row.inviter_name,
            row.invitee,
            row.invitee_name,
            row.created_at,
            row.status,
        )

    async def _read(self, *where: Any, limit: int) -> list[Invitation]:
        async with self.engine.connect() as connection:
            rows = await connection.execute(self._listed().where(*where).limit(limit))
            return [self._invitation(row) for row in rows]

    async def received(self, player: str) -> list[Invitation]:
        """The invitations pending for ``player`` that they see (from friends), the latest first."""
        return await self._read(_Row.invitee == player, *_pending(), _friends(), limit=self.settings.per_player)

    async def sent(self, player: str) -> list[Invitation]:
        """The invitations ``player`` sent that are pending (swallowed ones too: they look alike), the latest first."""
        return await self._read(_Row.inviter == player, *_pending(), limit=self.settings.per_player)

    async def of_room(self, room_id: str) -> list[Invitation]:
        """The room's pending invitations, the latest first."""
        return await self._read(_Row.room_id == room_id, *_pending(), limit=self.settings.per_room)

    async def invited(self, room_id: str, player: str) -> Invitation | None:
        """The pending invitation of ``player`` to ``room_id`` that they see, or None."""
        found = await self._read(_Row.room_id == room_id, _Row.invitee == player, *_pending(), _friends(), limit=1)
        return found[0] if found else None

    async def refusal(self, room_id: str, player: str) -> str:
        """Why ``player`` has no invitation to answer in ``room_id``: invitation_withdrawn when the last one they were
        sent was withdrawn, invitation_not_found when there was one otherwise, '' when they were never invited (the
        room may be hidden from them)."""
        query = (
            select(_Row.status)
            .where(_Row.room_id == room_id, _Row.invitee == player, _friends())
            .order_by(_Row.created_at.desc(), (_Row.status == WITHDRAWN).desc())  # (a tie: the withdrawn one)
            .limit(1)
        )
        async with self.engine.connect() as connection:
            status = (await connection.execute(query)).scalar_one_or_none()
        if status is None:
            return ""
        return "invitation_withdrawn" if status == WITHDRAWN else "invitation_not_found"

    async def end(self, invitation: Invitation, status: str) -> bool:
        """The pending ``invitation`` ends with ``status`` (accepted, declined); False when it was not pending any
        more (withdrawn meanwhile)."""
        async with self.engine.begin() as connection:
            done = await connection.execute(
                update(_Row)
                .where(_Row.invitation_id == invitation.invitation_id, _Row.status == PENDING)
                .values(status=status, ended_at=self.clock())
            )
            return bool(done.rowcount)

    async def withdraw(self, room_id: str, inviter: str, invitee: str) -> None:
        """``inviter`` withdraws their pending invitation of ``invitee`` to the room (NotFound when there is none)."""
        async with self.engine.begin() as connection:
            done = await connection.execute(
                update(_Row)
                .where(_Row.room_id == room_id, _Row.inviter == inviter, _Row.invitee == invitee, *_pending())
                .values(status=WITHDRAWN, ended_at=self.clock())
            )
        if not done.rowcount:
            text = "you have no invitation of this player to this room"
            raise NotFound("invitation", text, code="invitation_not_found")

    async def report(self, player: str) -> tuple[list[tuple[Invitation, bool]], list[tuple[Invitation, bool]]]:
        """For an operator's report: the invitations pending for ``player`` and those they sent, each with whether
        its invitee sees it (False: a block swallowed it), the latest first."""
        limit = self.settings.per_player + self.settings.per_room
        seen = _friends().label("seen")
        async with self.engine.connect() as connection:
            found = []
            for where in (_Row.invitee == player, _Row.inviter == player):
                rows = await connection.execute(self._listed().add_columns(seen).where(where, *_pending()).limit(limit))
                found.append([(self._invitation(row), bool(row.seen)) for row in rows])
        return found[0], found[1]

    async def erase(self, connection: AsyncConnection, player: str, pseudonym: str, now: float) -> None:
        """In a player's deletion's transaction: every invitation they sent or received goes."""
        await connection.execute(delete(_Row).where(or_(_Row.inviter == player, _Row.invitee == player)))
