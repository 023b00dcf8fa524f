"""What the store keeps of players: who they are, their sessions, their ratings and every change of one, and the
queries of leaderboards and history. SQLAlchemy Core on the server's engine (SQLite or PostgreSQL), every statement
bounded; nothing is kept in a node's memory, so every node of a cluster answers the same.

Ratings change in the transaction that stores a rated game's last line (:meth:`PlayerStore.rate`, which the journal
calls with the games that ended in its group): the rating rows are locked in one order (so two nodes ending games of
the same players wait for each other, and never deadlock), the library computes the new skills, and each player's
change is written once, keyed by the room and the player.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, bindparam, delete, exists, func, insert, literal, or_, select, text, union_all, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from service.errors import Conflict, InvalidRequest, PreconditionFailed, ResourceExhausted, Unauthenticated
from service.players.ratings import Skill, rate_table
from service.store.database import store_now
from service.store.models import (
    BoardCountRow,
    IdentityRow,
    LogRow,
    PlayerRow,
    RatingChangeRow,
    RatingRow,
    RefreshTokenRow,
    RoomRow,
    SeatRow,
    SessionRow,
    TournamentLogRow,
)
from service.store.records import SYSTEM_RATING, GameResult
from service.store.retention import Rule

PERSON, SYSTEM = "person", "system"
FINISHED, PLAYING = "finished", "playing"
MIN_GAMES = 5  # rated games a player needs to appear on a leaderboard (KICKOFF_LEADERBOARD_MIN_GAMES)
MAX_LIVE_SEATS = 100  # seats a player may hold in rooms not finished (a join past it: RESOURCE_EXHAUSTED)
# What else a player's deletion erases, in the deletion's own transaction (the matchmaker's tickets): called with the
# connection, the player, their pseudonym and now; returns what to do once the deletion is committed, or None.
Eraser = Callable[[AsyncConnection, str, str, float], Awaitable[Callable[[], None] | None]]
MAX_SESSIONS = 20  # live sessions a player may have; a sign-in past it ends the oldest (KICKOFF_SESSIONS_PER_PLAYER)


@dataclass(frozen=True)
class PlayerInfo:
    player_id: str
    kind: str
    name: str
    created_at: float


@dataclass(frozen=True)
class RatingInfo:
    game: str
    player_id: str
    mu: float
    sigma: float
    display: float
    games: int
    wins: int


@dataclass(frozen=True)
class Line:
    """A line of a leaderboard."""

    rank: int
    player_id: str
    name: str
    rating: RatingInfo


@dataclass(frozen=True)
class SeatHeld:
    """A seat a player holds (ListMyRooms, TakeSeat)."""

    room_id: str
    seat: int
    status: str
    created_at: float
    ended_at: float | None
    wake_at: float | None = None  # a live room's: when it must be in memory if it rests (None: it never rests)


@dataclass(frozen=True)
class TurnHeld:
    """A room waiting for a player (ListMyTurns), as its row says: the seat that must act, and its deadline."""

    room_id: str
    game: str
    seat: int
    deadline: float | None  # None: no clock
    correspondence_hours: int


def _info(row: Any) -> PlayerInfo | None:
    return None if row is None else PlayerInfo(row.player_id, row.kind, row.name, row.created_at)


def _dialect(connection: AsyncConnection) -> Any:
    """The dialect module whose INSERT takes ON CONFLICT (both stores have one)."""
    return postgresql if connection.dialect.name == "postgresql" else sqlite


def _insert_ignoring(connection: AsyncConnection, table: Any) -> Any:
    """An INSERT that leaves rows already there as they are (ON CONFLICT DO NOTHING, in either dialect)."""
    return _dialect(connection).insert(table).on_conflict_do_nothing()


def _kind(rating_id: str) -> str:
    """Whose rating an id names: a system player's (``system-<kind>``) or a person's."""
    return SYSTEM if rating_id.startswith(SYSTEM_RATING) else PERSON


BAND = 0.25  # points of rating a band of the board's counts spans (a power of two: display / BAND is exact)


def _band(display: float) -> int:
    return math.floor(display / BAND)


async def _add_to_bands(connection: AsyncConnection, changes: Counter[tuple[str, int]]) -> None:
    """Adds each (game, band)'s change to the board's band counts, in one order (rows locked alike everywhere)."""
    rows = [{"game": game, "band": band, "players": n} for (game, band), n in sorted(changes.items()) if n]
    if rows:
        statement = _dialect(connection).insert(BoardCountRow)
        statement = statement.on_conflict_do_update(
            index_elements=["game", "band"], set_={"players": BoardCountRow.players + statement.excluded.players}
        )
        await connection.execute(statement, rows)


def _token(*parts: Any) -> str:
    return "|".join(repr(part) if isinstance(part, float) else str(part) for part in parts)


def _bad_page_token() -> InvalidRequest:
    return InvalidRequest("page_token is not one this server gave", code="bad_page_token", field="page_token")


def _untoken(token: str, kinds: Sequence[type]) -> list[Any]:
    """A page token's parts, or InvalidRequest (bad_page_token)."""
    parts = token.split("|")
    try:
        if len(parts) != len(kinds):
            raise ValueError(token)
        return [kind(part) for kind, part in zip(kinds, parts, strict=True)]
    except ValueError:
        raise _bad_page_token() from None


def _after_on_board(display: Any, player_id: Any) -> Any:
    """The rows after (display, player_id) in the board's order (rating highest first, then player id); the bound
    is stated alone too, so that the board's index is searched from it."""
    return and_(RatingRow.display <= display, or_(RatingRow.display < display, RatingRow.player_id > player_id))


def _before_on_board(display: Any, player_id: Any) -> Any:
    """The rows before (display, player_id) in the board's order (as :func:`_after_on_board`)."""
    return and_(RatingRow.display >= display, or_(RatingRow.display > display, RatingRow.player_id < player_id))


async def _seats_of(connection: AsyncConnection, room_ids: Sequence[str]) -> dict[str, list[Any]]:
    """The seats' rows of rooms, by room, in seat order."""
    seats: dict[str, list[Any]] = {}
    for row in await connection.execute(
        select(SeatRow).where(SeatRow.room_id.in_(room_ids)).order_by(SeatRow.room_id, SeatRow.seat)
    ):
        seats.setdefault(row.room_id, []).append(row)
    return seats


class PlayerStore:
    """Players, sessions, ratings and history in the database behind ``engine``."""

    def __init__(
        self,
        engine: AsyncEngine,
        clock: Callable[[], float],
        *,
        min_games: int = MIN_GAMES,
        max_live_seats: int = MAX_LIVE_SEATS,
        max_sessions: int = MAX_SESSIONS,
        page_key: bytes | None = None,
    ) -> None:
        self.engine = engine
        self.clock = clock
        self.min_games = min_games
        self.max_live_seats = max_live_seats
        self.max_sessions = max_sessions
        self.erasers: list[Eraser] = []  # (a higher layer's: the matchmaker adds its own)
        # Signs the leaderboard's page tokens, which carry the ranks the next page goes on from (so that a page never
        # counts the board): every node's is derived from the shared secret (players.py's page_key), so that each
        # node's page tokens are good on every other; none given, one of its own.
        self.page_key = page_key or secrets.token_bytes(32)

    # -- players --------------------------------------------------------------------------------------------------

    async def player(self, player_id: str) -> PlayerInfo | None:
        """A player who has not deleted themselves, or None."""
        async with self.engine.connect() as connection:
            row = (
                await connection.execute(
                    select(PlayerRow).where(PlayerRow.player_id == player_id, PlayerRow.deleted_at.is_(None))
                )
            ).first()
        return _info(row)

    async def _new_player(
        self, connection: AsyncConnection, name: str, device_hash: str | None, default: str
    ) -> PlayerInfo:
        """A new person (named ``default`` and a number when no name is given)."""
        player_id = secrets.token_hex(10)
        now = self.clock()
        name = name or f"{default} {player_id[:4]}"
        await connection.execute(
            insert(PlayerRow).values(
                player_id=player_id, kind=PERSON, name=name, device_hash=device_hash, created_at=now
            )
        )
        return PlayerInfo(player_id, PERSON, name, now)

    async def guest(self, device_hash: str | None, name: str) -> tuple[PlayerInfo, bool]:
        """The player a guest sign-in is (the device's, when a device id is given), and whether it is new."""
        if device_hash is not None:
            found = await self._by_device(device_hash)
            if found is not None:
                return found, False
        try:
            async with self.engine.begin() as connection:
                return await self._new_player(connection, name, device_hash, "Guest"), True
        except IntegrityError:  # the same device signed in at the same moment elsewhere: that player
            found = await self._by_device(device_hash or "")
            if found is None:
                raise
            return found, False

    async def _by_device(self, device_hash: str) -> PlayerInfo | None:
        async with self.engine.connect() as connection:
            row = (
                await connection.execute(
                    select(PlayerRow).where(PlayerRow.device_hash == device_hash, PlayerRow.deleted_at.is_(None))
                )
            ).first()
        return _info(row)

    async def for_identity(self, issuer: str, subject: str, name: str) -> tuple[PlayerInfo, bool]:
        """The player an identity provider's account is (a new one at its first sign-in), and whether it is new."""
        found = await self._by_identity(issuer, subject)
        if found is not None:
            return found, False
        try:
            async with self.engine.begin() as connection:
                player = await self._new_player(connection, name, None, "Player")
                await connection.execute(
                    insert(IdentityRow).values(
                        issuer=issuer, subject=subject, player_id=player.player_id, linked_at=self.clock()
                    )
                )
                return player, True
        except IntegrityError:  # a first sign-in of the same account at the same moment elsewhere
            found = await self._by_identity(issuer, subject)
            if found is None:
                raise
            return found, False

    async def _by_identity(self, issuer: str, subject: str) -> PlayerInfo | None:
        async with self.engine.connect() as connection:
            row = (
                await connection.execute(
                    select(PlayerRow)
                    .join(IdentityRow, IdentityRow.player_id == PlayerRow.player_id)
                    .where(IdentityRow.issuer == issuer, IdentityRow.subject == subject, PlayerRow.deleted_at.is_(None))
                )
            ).first()
        return _info(row)

    async def link(self, player_id: str, issuer: str, subject: str) -> None:
        """Link an identity provider's account to ``player_id``; Conflict (identity_taken) if another player has it."""
        owner = await self._by_identity(issuer, subject)
        if owner is not None:
            if owner.player_id != player_id:
                raise Conflict("another player has this identity linked", code="identity_taken")
            return
        try:
            async with self.engine.begin() as connection:
                await connection.execute(
                    insert(IdentityRow).values(
                        issuer=issuer, subject=subject, player_id=player_id, linked_at=self.clock()
                    )
                )
        except IntegrityError:
            raise Conflict("another player has this identity linked", code="identity_taken") from None

    async def identities(self, player_id: str) -> list[tuple[str, str, float]]:
        async with self.engine.connect() as connection:
            rows = await connection.execute(
                select(IdentityRow.issuer, IdentityRow.subject, IdentityRow.linked_at)
                .where(IdentityRow.player_id == player_id)
                .order_by(IdentityRow.linked_at)
            )
            return [tuple(row) for row in rows]  # type: ignore[misc]

    async def rename(self, player_id: str, name: str) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(
                update(PlayerRow)
                .where(PlayerRow.player_id == player_id)
                .values(name=name, presence_changed_at=store_now(connection.dialect.name))  # (friends see the name)
            )

    async def delete(self, player_id: str) -> list[str]:
        """Delete a player: identities, sessions, refresh tokens and ratings go; the player's row and every seat they
        held keep a pseudonym (in the seats, in the logs' join lines, their origins cleared, and in a matched room's
        people). Refused (live_games) while they hold a seat of a room that is not finished. Every :data:`Eraser` runs
        in the same transaction (the matchmaker's cancels the player's tickets and invitations: a refusal there refuses
        the deletion). Returns the finished rooms whose seats were renamed."""
        pseudonym = f"Former player {secrets.token_hex(2)}"
        now = self.clock()
        async with self.engine.begin() as connection:
            held = (
                await connection.execute(
                    select(SeatRow.room_id, RoomRow.status, RoomRow.tournament_id)
                    .join(RoomRow, RoomRow.room_id == SeatRow.room_id)
                    .where(SeatRow.player_id == player_id)
                )
            ).all()
            live = [room_id for room_id, status, _ in held if status != FINISHED]
            if live:
                raise PreconditionFailed(
                    f"the player holds seats in {len(live)} rooms not finished: leave them or play them out first",
                    code="live_games",
                )
            afterwards = [await erase(connection, player_id, pseudonym, now) for erase in self.erasers]
            rooms = [room_id for room_id, _, _ in held]
            tournaments = sorted({tournament for _, _, tournament in held if tournament})
            await connection.execute(
                update(SeatRow).where(SeatRow.player_id == player_id).values(name=pseudonym, player_id=None, origin="")
            )
            for start in range(0, len(rooms), 500):
                # A matched room's record holds its people as seated when it was made (seat, name, nonce, player and,
                # since 0014, origin): a room read back from the store seats them from it.
                matched = await connection.execute(
                    select(RoomRow.room_id, RoomRow.people).where(RoomRow.room_id.in_(rooms[start : start + 500]))
                )
                for room_id, people in matched:
                    if people and any(person[3] == player_id for person in people):
                        renamed = [
                            [person[0], pseudonym, person[2], "", *([""] if len(person) > 4 else [])]
                            if person[3] == player_id
                            else list(person)
                            for person in people
                        ]
                        await connection.execute(
                            update(RoomRow).where(RoomRow.room_id == room_id).values(people=renamed)
                        )
                await connection.execute(
                    update(LogRow)
                    .where(LogRow.room_id.in_(rooms[start : start + 500]), LogRow.player_id == player_id)
                    .values(name=pseudonym, player_id="", origin="")
                )
            if tournaments:
                await connection.execute(
                    update(TournamentLogRow)
                    .where(TournamentLogRow.tournament_id.in_(tournaments), TournamentLogRow.player_id == player_id)
                    .values(name=pseudonym, player_id="", origin="")
                )
            sessions = select(SessionRow.session_id).where(SessionRow.player_id == player_id)
            await connection.execute(delete(RefreshTokenRow).where(RefreshTokenRow.session_id.in_(sessions)))
            await connection.execute(
                update(SessionRow)
                .where(SessionRow.player_id == player_id, SessionRow.revoked_at.is_(None))
                .values(revoked_at=now, revoked_why="deleted")
            )
            await connection.execute(delete(IdentityRow).where(IdentityRow.player_id == player_id))
            gone = await connection.execute(
                select(RatingRow.game, RatingRow.display).where(RatingRow.player_id == player_id, self._ranked())
            )
            await _add_to_bands(connection, Counter({(game, _band(display)): -1 for game, display in gone}))
            await connection.execute(delete(RatingRow).where(RatingRow.player_id == player_id))
            await connection.execute(delete(RatingChangeRow).where(RatingChangeRow.player_id == player_id))
            await connection.execute(
                update(PlayerRow)
                .where(PlayerRow.player_id == player_id)
                .values(
                    name=pseudonym,
                    device_hash=None,
                    deleted_at=now,
                    presence_changed_at=store_now(connection.dialect.name),
                )
            )
        for after in afterwards:
            if after is not None:
                after()
        return rooms

    # -- sessions -------------------------------------------------------------------------------------------------

    @staticmethod
    def retention(keep_days: float) -> list[Rule]:
        """What the pruning loop deletes (service/store/retention.py): refresh tokens expired, or of a session ended,
        more than ``keep_days`` ago, then the sessions ended (signed out, revoked, or expired) more than ``keep_days``
        ago with no refresh token left. Until then a used refresh token presented again still ends its session (a
        thief's copy is noticed); after it, such a token is one this service does not know (refused all the same),
        and an access token naming a pruned session names no session (refused: it expired long before)."""
        keep = keep_days * 86400.0

        def ended(now: float) -> Any:
            return or_(SessionRow.revoked_at < now - keep, SessionRow.expires_at < now - keep)

        def spent(now: float) -> Any:
            of_ended = select(SessionRow.session_id).where(ended(now))
            return or_(RefreshTokenRow.expires_at < now - keep, RefreshTokenRow.session_id.in_(of_ended))

        def gone(now: float) -> Any:
            tokens = exists().where(RefreshTokenRow.session_id == SessionRow.session_id)
            return and_(ended(now), ~tokens)

        return [
            Rule("spent refresh tokens", RefreshTokenRow, "token_hash", spent),
            Rule("ended sessions", SessionRow, "session_id", gone),
        ]

    async def open_session(self, player_id: str, token_hash: str, refresh_expires: float, expires: float) -> str:
        """A new session of the player's, with its first refresh token. A player has at most ``max_sessions`` live
        sessions: the oldest beyond them end now (``too_many_sessions``), in the same transaction, so that sign-ins
        in a loop (one device, 201 times) never pile up sessions."""
        session_id = secrets.token_hex(12)
        now = self.clock()
        async with self.engine.begin() as connection:
            live = (
                select(SessionRow.session_id)
                .where(SessionRow.player_id == player_id, SessionRow.revoked_at.is_(None), SessionRow.expires_at > now)
                .order_by(SessionRow.created_at.desc(), SessionRow.session_id.desc())
                .offset(self.max_sessions - 1)  # (the new one is the last of them)
            )
            oldest = [row.session_id for row in await connection.execute(live)]
            if oldest:
                await connection.execute(
                    update(SessionRow)
                    .where(SessionRow.session_id.in_(oldest), SessionRow.revoked_at.is_(None))
                    .values(revoked_at=now, revoked_why="too_many_sessions")
                )
            await connection.execute(
                insert(SessionRow).values(
                    session_id=session_id, player_id=player_id, created_at=now, expires_at=expires
                )
            )
            await connection.execute(
                insert(RefreshTokenRow).values(
                    token_hash=token_hash, session_id=session_id, issued_at=now, expires_at=refresh_expires
                )
            )
        return session_id

    async def rotate(self, token_hash: str, new_hash: str, refresh_seconds: float) -> tuple[str, str, float]:
        """Trade a refresh token for the next one of its session: (player id, session id, the new one's expiry).
        Unauthenticated when it is unknown, expired or revoked; a token used before revokes its session
        (refresh_reused)."""
        now = self.clock()
        reused = False
        async with self.engine.begin() as connection:
            row = (
                await connection.execute(
                    select(
                        RefreshTokenRow.session_id,
                        RefreshTokenRow.used_at,
                        RefreshTokenRow.expires_at,
                        SessionRow.player_id,
                        SessionRow.revoked_at,
                        SessionRow.expires_at.label("session_expires"),
                    )
                    .join(SessionRow, SessionRow.session_id == RefreshTokenRow.session_id)
                    .where(RefreshTokenRow.token_hash == token_hash)
                    .with_for_update()
                )
            ).first()
            if row is None:
                raise Unauthenticated("the refresh token is not one this service gave", code="refresh_unknown")
            if row.revoked_at is not None:
                raise Unauthenticated("the session was ended: sign in again", code="session_revoked")
            if row.used_at is not None:
                reused = True
                await self._revoke(connection, row.session_id, "refresh_reused", now)
            elif now >= row.expires_at or now >= row.session_expires:
                raise Unauthenticated("the refresh token has expired: sign in again", code="refresh_expired")
            else:
                # Only the first of two concurrent trades of one token marks it used (the other finds it used).
                marked = await connection.execute(
                    update(RefreshTokenRow)
                    .where(RefreshTokenRow.token_hash == token_hash, RefreshTokenRow.used_at.is_(None))
                    .values(used_at=now)
                )
                if marked.rowcount != 1:
                    reused = True
                    await self._revoke(connection, row.session_id, "refresh_reused", now)
                else:
                    expires = min(now + refresh_seconds, row.session_expires)
                    await connection.execute(
                        insert(RefreshTokenRow).values(
                            token_hash=new_hash, session_id=row.session_id, issued_at=now, expires_at=expires
                        )
                    )
                    return row.player_id, row.session_id, expires
        assert reused
        raise Unauthenticated(
            "this refresh token was used before: the session is ended, sign in again", code="refresh_reused"
        )

    async def _revoke(self, connection: AsyncConnection, session_id: str, why: str, now: float) -> None:
        await connection.execute(
            update(SessionRow)
            .where(SessionRow.session_id == session_id, SessionRow.revoked_at.is_(None))
            .values(revoked_at=now, revoked_why=why)
        )

    async def revoke(self, session_id: str, why: str) -> None:
        async with self.engine.begin() as connection:
            await self._revoke(connection, session_id, why, self.clock())

    async def session_of_refresh(self, token_hash: str) -> str | None:
        async with self.engine.connect() as connection:
            return (
                await connection.execute(
                    select(RefreshTokenRow.session_id).where(RefreshTokenRow.token_hash == token_hash)
                )
            ).scalar()

    async def check_session(self, session_id: str, player_id: str) -> None:
        """Unauthenticated unless the session is live and the player's."""
        async with self.engine.connect() as connection:
            row = (
                await connection.execute(
                    select(SessionRow.player_id, SessionRow.revoked_at, SessionRow.expires_at).where(
                        SessionRow.session_id == session_id
                    )
                )
            ).first()
        if row is None or row.player_id != player_id:
            raise Unauthenticated("the access token names no session of this service", code="session_unknown")
        if row.revoked_at is not None:
            raise Unauthenticated("the session was ended: sign in again", code="session_revoked")

    # -- seats ----------------------------------------------------------------------------------------------------

    async def seats_held(self, player_id: str, *, live: bool) -> list[SeatHeld]:
        """The seats a player holds in rooms not finished (``live``; at most the live bound) or finished."""
        status = RoomRow.status != FINISHED if live else RoomRow.status == FINISHED
        query = (
            select(SeatRow.room_id, SeatRow.seat, RoomRow.status, RoomRow.created_at, RoomRow.ended_at, RoomRow.wake_at)
            .join(RoomRow, RoomRow.room_id == SeatRow.room_id)
            .where(SeatRow.player_id == player_id, status)
            .order_by(RoomRow.created_at.desc(), SeatRow.room_id.desc())
            .limit(self.max_live_seats)
        )
        async with self.engine.connect() as connection:
            return [SeatHeld(*row) for row in await connection.execute(query)]

    async def turns(self, player_id: str, size: int) -> list[TurnHeld]:
        """The rooms being played where one of the player's seats must act now, as their rows say (the journal keeps
        who must act on each room's row with every line: nothing is loaded, no resting room woken): the nearest
        deadline first, rooms without a clock last, at most ``size``."""
        query = (
            select(SeatRow.room_id, SeatRow.seat, RoomRow.game, RoomRow.turns, RoomRow.correspondence_hours)
            .join(RoomRow, RoomRow.room_id == SeatRow.room_id)
            .where(SeatRow.player_id == player_id, RoomRow.status == PLAYING)
            .order_by(RoomRow.created_at.desc(), SeatRow.room_id.desc())
            .limit(self.max_live_seats)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        found = []
        for row in rows:
            turn = (row.turns or {}).get(str(row.seat))
            if turn is None:
                continue
            deadline = turn[1] if len(turn) > 1 else None
            found.append(TurnHeld(row.room_id, row.game, row.seat, deadline, row.correspondence_hours or 0))
        found.sort(key=lambda held: (held.deadline is None, held.deadline or 0.0))  # (stable: newest first on ties)
        return found[:size]

    async def finished_seats(self, player_id: str, size: int, after: str) -> tuple[list[SeatHeld], str]:
        """A page of the finished rooms a player held a seat in, newest first (by when they ended)."""
        query = (
            select(SeatRow.room_id, SeatRow.seat, RoomRow.status, RoomRow.created_at, RoomRow.ended_at)
            .join(RoomRow, RoomRow.room_id == SeatRow.room_id)
            .where(SeatRow.player_id == player_id, RoomRow.status == FINISHED)
        )
        query = self._after_ended(query, after)
        query = query.order_by(RoomRow.ended_at.desc(), RoomRow.room_id.desc()).limit(size + 1)
        async with self.engine.connect() as connection:
            found = [SeatHeld(*row) for row in await connection.execute(query)]
        following = _token(found[size - 1].ended_at or 0.0, found[size - 1].room_id) if len(found) > size else ""
        return found[:size], following

    @staticmethod
    def _after_ended(query: Any, after: str) -> Any:
        if not after:
            return query
        ended, room_id = _untoken(after, (float, str))
        ended_at = func.coalesce(RoomRow.ended_at, 0.0)
        return query.where(or_(ended_at < ended, and_(ended_at == ended, RoomRow.room_id < room_id)))

    async def live_seat_count(self, player_id: str) -> int:
        query = (
            select(func.count())
            .select_from(SeatRow)
            .join(RoomRow, RoomRow.room_id == SeatRow.room_id)
            .where(SeatRow.player_id == player_id, RoomRow.status != FINISHED)
        )
        async with self.engine.connect() as connection:
            return int((await connection.execute(query)).scalar_one())

    async def check_live_bound(self, player_id: str) -> None:
        if await self.live_seat_count(player_id) >= self.max_live_seats:
            raise ResourceExhausted(
                f"the player holds seats in {self.max_live_seats} rooms not finished, the most there may be",
                code="too_many_rooms",
            )

    # -- ratings --------------------------------------------------------------------------------------------------

    async def rate(self, connection: AsyncConnection, results: Sequence[GameResult]) -> None:
        """Apply the rating changes of rated games that end in the transaction of ``connection`` (the journal's, with
        their last lines), in order."""
        subjects = sorted({(r.game, s.rating_id) for r in results for s in r.seats if s.rating_id})
        if not subjects:
            return
        now = max(r.time for r in results)
        fresh = Skill()
        games = sorted({game for game, _ in subjects})
        query = (
            select(
                RatingRow.game,
                RatingRow.player_id,
                RatingRow.mu,
                RatingRow.sigma,
                RatingRow.games,
                RatingRow.wins,
                RatingRow.display,
            )
            .where(  # (per game, so that SQLite searches the primary key: a tuple IN made it scan the table)
                or_(
                    *(
                        and_(RatingRow.game == game, RatingRow.player_id.in_([p for g, p in subjects if g == game]))
                        for game in games
                    )
                )
            )
            .order_by(RatingRow.game, RatingRow.player_id)
            .with_for_update()
        )
        rows = list(await connection.execute(query))
        # Who was on the board before, and where (a band each): the board's counts change with them.
        counted = {(row.game, row.player_id): row.display for row in rows if self._on_board(row.player_id, row.games)}
        if len(rows) < len(subjects):  # a first rated game of this game for someone: their row, then all locked
            await connection.execute(
                _insert_ignoring(connection, RatingRow),
                [
                    {
                        "game": game,
                        "player_id": rating_id,
                        "kind": _kind(rating_id),
                        "mu": fresh.mu,
                        "sigma": fresh.sigma,
                        "display": fresh.display,
                        "games": 0,
                        "wins": 0,
                        "updated_at": now,
                    }
                    for game, rating_id in subjects
                ],
            )
            rows = list(await connection.execute(query))
        current = {
            (game, rating_id): [Skill(mu, sigma), games, wins] for game, rating_id, mu, sigma, games, wins, _ in rows
        }
        changes = []
        for result in results:
            seats = [s for s in result.seats if s.rating_id]
            teams = sorted({s.team for s in seats})
            team_index = {team: index for index, team in enumerate(teams)}
            team_places = [0] * len(teams)
            for seat in seats:
                team_places[team_index[seat.team]] = seat.place
            before = {s.rating_id: current[(result.game, s.rating_id)][0] for s in seats}
            after = rate_table([(s.rating_id, team_index[s.team]) for s in seats], team_places, before)
            for rating_id, skill in after.items():
                mine = [s for s in seats if s.rating_id == rating_id]
                entry = current[(result.game, rating_id)]
                entry[0] = skill
                entry[1] += 1
                entry[2] += any(s.won for s in mine)
                changes.append(
                    {
                        "room_id": result.room_id,
                        "player_id": rating_id,
                        "game": result.game,
                        "place": min(s.place for s in mine),
                        "mu_before": before[rating_id].mu,
                        "sigma_before": before[rating_id].sigma,
                        "mu": skill.mu,
                        "sigma": skill.sigma,
                        "time": result.time,
                    }
                )
        await connection.execute(insert(RatingChangeRow), changes)
        rows_after = [
            {
                "key_game": game,
                "key_player": rating_id,
                "mu": skill.mu,
                "sigma": skill.sigma,
                "display": skill.display,
                "games": played,
                "wins": wins,
                "updated_at": now,
            }
            for (game, rating_id), (skill, played, wins) in sorted(current.items())
        ]
        await connection.execute(
            update(RatingRow)
            .where(RatingRow.game == bindparam("key_game"), RatingRow.player_id == bindparam("key_player"))
            .values(
                mu=bindparam("mu"),
                sigma=bindparam("sigma"),
                display=bindparam("display"),
                games=bindparam("games"),
                wins=bindparam("wins"),
                updated_at=bindparam("updated_at"),
            ),
            rows_after,
        )
        bands: Counter[tuple[str, int]] = Counter()
        for (game, _), display in counted.items():
            bands[(game, _band(display))] -= 1
        for (game, rating_id), (skill, played, _) in current.items():
            if self._on_board(rating_id, played):
                bands[(game, _band(skill.display))] += 1
        await _add_to_bands(connection, bands)

    async def recount(self) -> None:
        """The board's band counts made afresh from the ratings (the server does it as it starts: after ratings were
        written some other way, or with another minimum of games). Rating changes wait for it (a table lock on
        PostgreSQL; SQLite has one writer)."""
        async with self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                await connection.execute(text("LOCK TABLE board_counts IN EXCLUSIVE MODE"))
            await connection.execute(delete(BoardCountRow))
            rows = await connection.execute(select(RatingRow.game, RatingRow.display).where(self._ranked()))
            await _add_to_bands(connection, Counter((game, _band(display)) for game, display in rows))

    async def ratings(self, player_id: str) -> list[RatingInfo]:
        async with self.engine.connect() as connection:
            rows = await connection.execute(
                select(RatingRow).where(RatingRow.player_id == player_id).order_by(RatingRow.game)
            )
            return [self._rating(row) for row in rows]

    async def ratings_of(self, game: str, player_ids: Sequence[str]) -> dict[str, RatingInfo]:
        if not player_ids:
            return {}
        async with self.engine.connect() as connection:
            rows = await connection.execute(
                select(RatingRow).where(RatingRow.game == game, RatingRow.player_id.in_(set(player_ids)))
            )
            return {row.player_id: self._rating(row) for row in rows}

    @staticmethod
    def _rating(row: Any) -> RatingInfo:
        return RatingInfo(row.game, row.player_id, row.mu, row.sigma, row.display, row.games, row.wins)

    # -- leaderboards ---------------------------------------------------------------------------------------------

    def _ranked(self) -> Any:
        """The ratings on their game's board: people's, with at least the minimum of rated games."""
        return and_(RatingRow.kind == PERSON, RatingRow.games >= self.min_games)

    def _on_board(self, rating_id: str, games: int) -> bool:
        """:meth:`_ranked`, of one rating."""
        return _kind(rating_id) == PERSON and games >= self.min_games

    def _board(self, game: str) -> Any:
        """The leaderboard's rows: :meth:`_ranked` in one game. Order: rating (display) highest first, then player
        id (ties are ordered, and share their rank)."""
        return and_(RatingRow.game == game, self._ranked())

    def _board_rows(self, game: str) -> Any:
        """The board's rows with each player's name (one statement reads a page)."""
        return (
            select(RatingRow, PlayerRow.name)
            .outerjoin(PlayerRow, PlayerRow.player_id == RatingRow.player_id)
            .where(self._board(game))
        )

    def _lines(self, rows: list[Any], start: tuple[int, int]) -> list[Line]:
        """Leaderboard lines for ``rows`` (consecutive on the board, best first), the first with rank ``start[0]``
        and ``start[1]`` lines before it on the board (the ranks of the others follow)."""
        if not rows:
            return []
        rank, before = start
        lines = []
        for index, row in enumerate(rows):
            if index and row.display != rows[index - 1].display:
                rank = before + index + 1
            lines.append(Line(rank, row.player_id, row.name or "", self._rating(row)))
        return lines

    def _page_token(self, line: Line, before: int) -> str:
        """The token of the page after ``line``: where it is (rating, player) and its rank and the lines before it,
        signed (the ranks are the server's to say)."""
        text = _token(line.rating.display, line.player_id, line.rank, before)
        return f"{text}|{self._page_mac(text)}"

    def _page_mac(self, text: str) -> str:
        return hmac.new(self.page_key, text.encode(), hashlib.sha256).hexdigest()[:16]

    def _page_after(self, token: str) -> tuple[float, str, int, int]:
        text, _, mac = token.rpartition("|")
        if not hmac.compare_digest(mac, self._page_mac(text)):
            raise _bad_page_token()
        display, player_id, rank, before = _untoken(text, (float, str, int, int))
        return display, player_id, rank, before

    async def leaderboard(self, game: str, size: int, after: str) -> tuple[list[Line], str]:
        """A page of the board, best first. A page after the first goes on from its token (a seek in the board's
        index, and the ranks it carries: no page counts the board)."""
        query = self._board_rows(game)
        last: tuple[float, int, int] | None = None  # the previous page's last line: rating, rank, lines before it
        if after:
            display, player_id, rank, before = self._page_after(after)
            query = query.where(_after_on_board(display, player_id))
            last = (display, rank, before)
        query = query.order_by(RatingRow.display.desc(), RatingRow.player_id).limit(size + 1)
        async with self.engine.connect() as connection:
            rows = list(await connection.execute(query))
            start = (1, 0)
            if last is not None and rows:
                display, rank, before = last
                start = (rank if rows[0].display == display else before + 2, before + 1)
            lines = self._lines(rows[:size], start)
        following = self._page_token(lines[-1], start[1] + len(lines) - 1) if len(rows) > size else ""
        return lines, following

    @staticmethod
    def _banded(game: str) -> Any:
        """How many players a game's board has (in all, or with a ``.where`` on the bands: in those bands)."""
        return select(func.coalesce(func.sum(BoardCountRow.players), 0)).where(BoardCountRow.game == game)

    async def rank(
        self, game: str, player_id: str, neighbours: int
    ) -> tuple[Line | None, list[Line], list[Line], int, int]:
        """A player's line, the ``neighbours`` lines above and below it, how many players the board has, and the
        player's rated games in the game (which, while under the minimum, say how far the player is from the board)."""
        board = self._board(game)
        async with self.engine.connect() as connection:
            # One statement: the player's row and the rows just above and below it (by the player's rating, read in
            # the same statement).
            mine = RatingRow.__table__.alias("mine")
            display = select(mine.c.display).where(mine.c.game == game, mine.c.player_id == player_id).scalar_subquery()
            parts = (
                self._board_rows(game).where(RatingRow.player_id == player_id),
                self._board_rows(game)
                .where(_before_on_board(display, player_id))
                .order_by(RatingRow.display, RatingRow.player_id.desc())
                .limit(neighbours),
                self._board_rows(game)
                .where(_after_on_board(display, player_id))
                .order_by(RatingRow.display.desc(), RatingRow.player_id)
                .limit(neighbours),
            )
            sides = [part.subquery(f"side{index}") for index, part in enumerate(parts)]
            statement = union_all(*(select(literal(index).label("side"), side) for index, side in enumerate(sides)))
            found: list[list[Any]] = [[], [], []]
            for row in await connection.execute(statement):
                found[row.side].append(row)
            if not found[0]:
                # Off the board: how many players it has, and the player's rated games (none without a rating).
                ranked, games = (
                    await connection.execute(
                        select(
                            self._banded(game).scalar_subquery(),
                            select(RatingRow.games)
                            .where(RatingRow.game == game, RatingRow.player_id == player_id)
                            .scalar_subquery(),
                        )
                    )
                ).one()
                return None, [], [], int(ranked), int(games or 0)
            board_order = lambda row: (-row.display, row.player_id)  # noqa: E731
            [me], above, below = found[0], sorted(found[1], key=board_order), sorted(found[2], key=board_order)
            first = above[0] if above else me
            band = _band(first.display)
            # In one statement (one snapshot): the board's players, those better than the first line shown (the
            # bands above its band, and a count inside its band), and those equal to it before it in the order.
            ranked, above_band, in_band, tied_before = (
                await connection.execute(
                    select(
                        self._banded(game).scalar_subquery(),
                        self._banded(game).where(BoardCountRow.band > band).scalar_subquery(),
                        select(func.count())
                        .select_from(RatingRow)
                        .where(board, RatingRow.display > first.display, RatingRow.display < (band + 1) * BAND)
                        .scalar_subquery(),
                        select(func.count())
                        .select_from(RatingRow)
                        .where(board, RatingRow.display == first.display, RatingRow.player_id < first.player_id)
                        .scalar_subquery(),
                    )
                )
            ).one()
            better = int(above_band) + int(in_band)
            lines = self._lines([*above, me, *below], (1 + better, better + int(tied_before)))
        return lines[len(above)], lines[: len(above)], lines[len(above) + 1 :], int(ranked), int(me.games)

    # -- history --------------------------------------------------------------------------------------------------

    async def rating_changes(self, player_id: str, game: str, size: int, after: str) -> tuple[list[Any], str]:
        query = select(RatingChangeRow).where(RatingChangeRow.player_id == player_id, RatingChangeRow.game == game)
        if after:
            time, room_id = _untoken(after, (float, str))
            query = query.where(
                or_(RatingChangeRow.time < time, and_(RatingChangeRow.time == time, RatingChangeRow.room_id < room_id))
            )
        query = query.order_by(RatingChangeRow.time.desc(), RatingChangeRow.room_id.desc()).limit(size + 1)
        async with self.engine.connect() as connection:
            rows = list(await connection.execute(query))
        following = _token(rows[size - 1].time, rows[size - 1].room_id) if len(rows) > size else ""
        return rows[:size], following

    async def games(self, player_id: str, game: str, size: int, after: str) -> tuple[list[Any], str, int, int]:
        """A page of a player's finished games (with every seat of each), newest first, and the games played and won
        in all."""
        mine = and_(SeatRow.player_id == player_id, RoomRow.status == FINISHED)
        if game:
            mine = and_(mine, RoomRow.game == game)
        query = (
            select(
                SeatRow.room_id,
                SeatRow.seat,
                SeatRow.place,
                SeatRow.won,
                RoomRow.game,
                RoomRow.ended_at,
                RoomRow.outcome,
                RoomRow.seats.label("seat_count"),
                RoomRow.options,
            )
            .join(RoomRow, RoomRow.room_id == SeatRow.room_id)
            .where(mine)
        )
        query = self._after_ended(query, after)
        query = query.order_by(RoomRow.ended_at.desc(), RoomRow.room_id.desc()).limit(size + 1)
        totals = (
            select(func.count(), func.count().filter(SeatRow.won.is_(True)))
            .select_from(SeatRow)
            .join(RoomRow, RoomRow.room_id == SeatRow.room_id)
            .where(mine, SeatRow.place > 0)
        )
        async with self.engine.connect() as connection:
            rows = list(await connection.execute(query))
            played, won = (await connection.execute(totals)).one()
            page = rows[:size]
            seats = await _seats_of(connection, [row.room_id for row in page]) if page else {}
        following = _token(rows[size - 1].ended_at or 0.0, rows[size - 1].room_id) if len(rows) > size else ""
        return [(row, seats.get(row.room_id, [])) for row in page], following, int(played), int(won)

    async def summaries(self, room_ids: Sequence[str]) -> dict[str, tuple[Any, list[Any], int]]:
        """Finished rooms as stored, by id: the room's row, its seats' rows and its version (its log's length)."""
        if not room_ids:
            return {}
        async with self.engine.connect() as connection:
            rooms = {
                row.room_id: row
                for row in await connection.execute(select(RoomRow).where(RoomRow.room_id.in_(room_ids)))
            }
            seats = await _seats_of(connection, room_ids)
            versions = dict(
                (
                    await connection.execute(
                        select(LogRow.room_id, func.max(LogRow.version))
                        .where(LogRow.room_id.in_(room_ids))
                        .group_by(LogRow.room_id)
                    )
                ).all()
            )
        return {room_id: (row, seats.get(room_id, []), int(versions.get(room_id, 0))) for room_id, row in rooms.items()}
