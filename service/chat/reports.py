"""Chat moderation in the store every node shares: players' reports, mutes, and the operators' actions on the chat.

:class:`Reports` keeps a player's report of a chat message with the message and the ten around it as they were
(a snapshot: a message deleted or a name changed later does not change the report), the reporter, the room and the
time; one report per reporter and message (``report_exists``). Operators page through them (open ones first), read
one, and close it.

:class:`Mutes` keeps who may not chat, until when (or until an operator ends it). The chat core calls
:meth:`Mutes.check` before it keeps a message: a muted player's message is refused with :class:`Muted` (``muted``,
with the time the mute ends) on every node, as the mute is a row of the shared store.

:class:`ChatActions` is the record of what operators did to the chat, one row an action with the operator key's id:
a message deleted (which the chat core withdraws: :meth:`ChatActions.deleted` says which of a room's messages were),
a player muted, a mute ended, a report closed. The operators' API logs and traces each action too
(service/grpc/operators.py).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from sqlalchemy import Text, and_, cast, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from service.errors import (
    Conflict,
    InvalidRequest,
    NotFound,
    PermissionDenied,
    PreconditionFailed,
    ResourceExhausted,
)
from service.store.models import ChatActionRow, ChatMuteRow, ChatReportRow
from service.store.retention import Rule

CONTEXT = 10  # messages kept around a reported one
MAX_REASON = 200  # characters of a reporter's reason, an operator's note or a mute's reason
MAX_MUTE_SECONDS = 366 * 86400  # the longest mute with an end (a longer one: until ended)
DELETE_MESSAGE, MUTE_PLAYER, END_MUTE, CLOSE_REPORT = "delete_message", "mute_player", "end_mute", "close_report"
REPORTS_PER_HOUR = 30  # reports one player may file in an hour (report_rate past it)
DAY = 86400.0
# How long what moderation keeps outlives its use (ChatModeration.retention): a closed report, a mute that ended, an
# open report nobody closed, an operator's action.
CLOSED_REPORT_DAYS, ENDED_MUTE_DAYS, OPEN_REPORT_DAYS, ACTION_DAYS = 90, 90, 365, 365


def rfc3339(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Muted(PermissionDenied):
    """The player is muted: their chat messages are refused until ``until`` (None: until an operator ends the mute).
    The refusal says when (its message, and ``until`` in the ErrorInfo metadata as RFC 3339) and, for a mute with an
    end, when to try again (RetryInfo; REST: Retry-After)."""

    code = "muted"

    def __init__(self, until: float | None, now: float) -> None:
        when = f"until {rfc3339(until)}" if until is not None else "until an operator ends it"
        super().__init__(
            f"you are muted {when}: your messages are not sent",
            retry_after=max(1.0, until - now) if until is not None else None,
        )
        self.until = until
        self.metadata = {"until": rfc3339(until) if until is not None else ""}


class ChatMessage(Protocol):
    """What a report needs of a chat message (the chat core's messages have it)."""

    seq: int
    channel: str
    player_id: str
    name: str
    text: str
    time: float


@dataclass(frozen=True)
class Line:
    """A chat message as a report keeps it: its seq, channel, author (player id, '' for an anonymous seat, and the
    name shown), text (a quick reaction's key for a reaction) and time."""

    seq: int
    channel: str
    player_id: str
    name: str
    text: str
    time: float

    @classmethod
    def of(cls, message: ChatMessage) -> Line:
        reaction = getattr(message, "reaction", "")  # (the chat core's quick reactions: kept by their key)
        return cls(
            int(message.seq),
            str(message.channel),
            str(message.player_id or ""),
            str(message.name),
            str(message.text or (f"[{reaction}]" if reaction else "")),
            float(getattr(message, "created_at", None) or message.time),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "channel": self.channel,
            "player_id": self.player_id,
            "name": self.name,
            "text": self.text,
            "time": self.time,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Line:
        return cls(
            int(data["seq"]), data["channel"], data["player_id"], data["name"], data["text"], float(data["time"])
        )


@dataclass(frozen=True)
class Report:
    """A report: the message and its context (in seq order) as they were when it was filed, who filed it and why,
    and, once closed, when, by which operator key and with what note."""

    report_id: str
    room_id: str
    reporter_id: str
    reason: str
    message: Line
    context: tuple[Line, ...]
    created_at: float
    open: bool
    closed_at: float | None
    closed_by: str
    note: str

    @property
    def seq(self) -> int:
        return self.message.seq

    @property
    def reported_id(self) -> str:
        return self.message.player_id


@dataclass(frozen=True)
class Mute:
    """A mute: the player, until when (None: until ended), why, when and by which operator key it was made, and when
    and by whom it was ended (``ended_at`` None: not ended; a mute whose ``until`` has passed is over all the same)."""

    mute_id: int
    player_id: str
    until: float | None
    reason: str
    created_at: float
    created_by: str
    ended_at: float | None
    ended_by: str

    def active(self, now: float) -> bool:
        return self.ended_at is None and (self.until is None or self.until > now)


def _bounded(text: str, what: str, field: str) -> str:
    text = " ".join(text.split())
    if len(text) > MAX_REASON:
        raise InvalidRequest(f"{what} holds at most {MAX_REASON} characters", code="too_long", field=field)
    return text


def _report(row: Any) -> Report:
    snapshot = row.snapshot
    return Report(
        row.report_id,
        row.room_id,
        row.reporter_id,
        row.reason,
        Line.from_json(snapshot["message"]),
        tuple(Line.from_json(line) for line in snapshot["context"]),
        row.created_at,
        bool(row.is_open),
        row.closed_at,
        row.closed_by,
        row.note,
    )


def report_not_found() -> NotFound:
    return NotFound("report", "no such report", field="report_id")


def bad_page_token() -> InvalidRequest:
    return InvalidRequest("page_token is not one this server gave", code="bad_page_token", field="page_token")


class ChatActions:
    """The operators' actions on the chat, one row each (see the module docstring)."""

    def __init__(self, engine: AsyncEngine, now: Callable[[], float]) -> None:
        self.engine = engine
        self.now = now

    @staticmethod
    def row(action: str, key_id: str, now: float, **concerns: Any) -> dict[str, Any]:
        return {"action": action, "key_id": key_id, "created_at": now, **concerns}

    async def delete_message(self, room_id: str, seq: int, key_id: str) -> bool:
        """Records that the operator (``key_id``) deleted the room's message ``seq``; False when it was deleted
        already (nothing recorded again)."""
        if seq < 1:
            raise InvalidRequest("seq is a message's seq in its room's chat: 1 or more", code="bad_seq", field="seq")
        async with self.engine.begin() as connection:
            done = await connection.execute(
                select(ChatActionRow.action_id)
                .where(
                    ChatActionRow.room_id == room_id,
                    ChatActionRow.seq == seq,
                    ChatActionRow.action == DELETE_MESSAGE,
                )
                .limit(1)
            )
            if done.first() is not None:
                return False
            await connection.execute(
                insert(ChatActionRow).values(self.row(DELETE_MESSAGE, key_id, self.now(), room_id=room_id, seq=seq))
            )
        return True

    async def deleted(self, room_id: str, seqs: Iterable[int] | None = None) -> set[int]:
        """The seqs of the room's messages an operator deleted (only among ``seqs`` when given)."""
        query = select(ChatActionRow.seq).where(
            ChatActionRow.room_id == room_id, ChatActionRow.action == DELETE_MESSAGE
        )
        if seqs is not None:
            query = query.where(ChatActionRow.seq.in_(list(seqs)))
        async with self.engine.connect() as connection:
            return {int(seq) for seq in (await connection.execute(query)).scalars()}

    async def recent(self, most: int = 100) -> list[dict[str, Any]]:
        """The latest actions, newest first (for a look at who did what)."""
        query = select(ChatActionRow).order_by(ChatActionRow.action_id.desc()).limit(most)
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [
            {
                "action": row.action,
                "key_id": row.key_id,
                "room_id": row.room_id,
                "seq": row.seq,
                "player_id": row.player_id,
                "report_id": row.report_id,
                "until": row.until,
                "reason": row.reason,
                "time": row.created_at,
            }
            for row in rows
        ]


class Reports:
    """Players' reports of chat messages (see the module docstring)."""

    def __init__(self, engine: AsyncEngine, now: Callable[[], float]) -> None:
        self.engine = engine
        self.now = now

    async def file(
        self, reporter_id: str, room_id: str, message: ChatMessage, context: Iterable[ChatMessage], reason: str = ""
    ) -> Report:
        """Keeps the report of ``message`` (a message of ``room_id`` the reporter could read: the chat core checks)
        by ``reporter_id``, with at most the ten messages of ``context`` nearest to it, as they are now.
        Conflict ``report_exists`` when this reporter reported this message before; InvalidRequest
        ``cannot_report_yourself`` for one's own message."""
        reported = Line.of(message)
        if reported.player_id and reported.player_id == reporter_id:
            raise InvalidRequest("a player cannot report their own message", code="cannot_report_yourself")
        reason = _bounded(reason, "a report's reason", "reason")
        now = self.now()
        await self._check_rate(reporter_id, now)
        around = sorted(
            {line.seq: line for line in map(Line.of, context) if line.seq != reported.seq}.values(),
            key=lambda line: (abs(line.seq - reported.seq), line.seq),
        )[:CONTEXT]
        around.sort(key=lambda line: line.seq)
        report = Report(
            secrets.token_hex(8), room_id, reporter_id, reason, reported, tuple(around), now, True, None, "", ""
        )
        row = {
            "report_id": report.report_id,
            "room_id": room_id,
            "seq": reported.seq,
            "reporter_id": reporter_id,
            "reported_id": reported.player_id,
            "reason": reason,
            "snapshot": {"message": reported.to_json(), "context": [line.to_json() for line in around]},
            "created_at": now,
            "is_open": True,
        }
        try:
            async with self.engine.begin() as connection:
                await connection.execute(insert(ChatReportRow).values(row))
        except IntegrityError:
            raise Conflict("you reported this message already", code="report_exists") from None
        return report

    async def _check_rate(self, reporter_id: str, now: float) -> None:
        """ResourceExhausted ``report_rate`` when ``reporter_id`` filed :data:`REPORTS_PER_HOUR` reports in the last
        hour (one count through the reporter's index)."""
        query = select(func.count()).where(
            ChatReportRow.reporter_id == reporter_id, ChatReportRow.created_at > now - 3600.0
        )
        async with self.engine.connect() as connection:
            filed = int((await connection.execute(query)).scalar_one())
        if filed >= REPORTS_PER_HOUR:
            raise ResourceExhausted(
                f"at most {REPORTS_PER_HOUR} reports an hour; the moderators have yours", code="report_rate"
            )

    async def get(self, report_id: str) -> Report:
        """The report, or NotFound ``report_not_found``."""
        async with self.engine.connect() as connection:
            row = (await connection.execute(select(ChatReportRow).where(ChatReportRow.report_id == report_id))).first()
        if row is None:
            raise report_not_found()
        return _report(row)

    async def page(self, size: int, after: str = "") -> tuple[list[Report], str]:
        """Reports, the open ones first, each part newest first, after the report ``after`` (a page token: the last
        report of the page before); and the token of the next page ('' for the last)."""
        query = select(ChatReportRow)
        async with self.engine.connect() as connection:
            if after:
                anchor = (
                    await connection.execute(
                        select(ChatReportRow.is_open, ChatReportRow.created_at).where(ChatReportRow.report_id == after)
                    )
                ).first()
                if anchor is None:
                    raise bad_page_token()
                is_open, created = bool(anchor.is_open), anchor.created_at
                later = or_(
                    ChatReportRow.created_at < created,
                    and_(ChatReportRow.created_at == created, ChatReportRow.report_id < after),
                )
                same = and_(ChatReportRow.is_open == is_open, later)
                query = query.where(or_(same, ChatReportRow.is_open.is_(False)) if is_open else same)
            query = query.order_by(
                ChatReportRow.is_open.desc(), ChatReportRow.created_at.desc(), ChatReportRow.report_id.desc()
            ).limit(size + 1)
            rows = (await connection.execute(query)).all()
        found = [_report(row) for row in rows]
        return found[:size], found[size - 1].report_id if len(found) > size else ""

    async def close(self, report_id: str, key_id: str, note: str = "") -> Report:
        """Closes the report (the operator ``key_id``, with ``note``), recorded as an action. NotFound
        ``report_not_found``; FailedPrecondition ``report_closed`` when it was closed before."""
        note = _bounded(note, "a note", "note")
        now = self.now()
        async with self.engine.begin() as connection:
            done = await connection.execute(
                update(ChatReportRow)
                .where(ChatReportRow.report_id == report_id, ChatReportRow.is_open.is_(True))
                .values(is_open=False, closed_at=now, closed_by=key_id, note=note)
            )
            if done.rowcount == 0:
                exists = await connection.execute(
                    select(ChatReportRow.report_id).where(ChatReportRow.report_id == report_id)
                )
                if exists.first() is None:
                    raise report_not_found()
                raise PreconditionFailed("the report is closed already", code="report_closed", field="report_id")
            await connection.execute(
                insert(ChatActionRow).values(ChatActions.row(CLOSE_REPORT, key_id, now, report_id=report_id))
            )
        return await self.get(report_id)

    async def erase(self, connection: AsyncConnection, player: str, pseudonym: str, now: float) -> None:
        """In a player's deletion's transaction: the reports keep no name of theirs. Each of their lines in a
        report's snapshot shows their pseudonym instead (the report stays, for the other player's sake)."""
        query = select(ChatReportRow.report_id, ChatReportRow.snapshot).where(
            cast(ChatReportRow.snapshot, Text).contains(player)
        )
        for report_id, snapshot in (await connection.execute(query)).all():
            lines = [snapshot["message"], *snapshot["context"]]
            if not any(line["player_id"] == player for line in lines):
                continue
            for line in lines:
                if line["player_id"] == player:
                    line["name"] = pseudonym
            await connection.execute(
                update(ChatReportRow).where(ChatReportRow.report_id == report_id).values(snapshot=snapshot)
            )


def _mute(row: Any) -> Mute:
    return Mute(
        int(row.mute_id),
        row.player_id,
        row.until,
        row.reason,
        row.created_at,
        row.created_by,
        row.ended_at,
        row.ended_by,
    )


class Mutes:
    """Who may not chat, and until when (see the module docstring)."""

    def __init__(self, engine: AsyncEngine, now: Callable[[], float]) -> None:
        self.engine = engine
        self.now = now

    def _running(self, now: float) -> Any:
        return and_(ChatMuteRow.ended_at.is_(None), or_(ChatMuteRow.until.is_(None), ChatMuteRow.until > now))

    async def current(self, player_id: str) -> Mute | None:
        """The player's mute in force now, or None."""
        now = self.now()
        query = (
            select(ChatMuteRow)
            .where(ChatMuteRow.player_id == player_id, self._running(now))
            .order_by(ChatMuteRow.mute_id.desc())
            .limit(1)
        )
        async with self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
        return None if row is None else _mute(row)

    async def check(self, player_id: str) -> None:
        """Raises :class:`Muted` (``muted``, with until when) when the player is muted now; the chat core calls it
        before it keeps a message of theirs. One indexed read."""
        mute = await self.current(player_id)
        if mute is not None:
            raise Muted(mute.until, self.now())

    async def mute(self, player_id: str, seconds: float | None, reason: str, key_id: str) -> Mute:
        """Mutes the player for ``seconds`` (None: until an operator ends it), replacing a mute in force (which ends,
        by the same key); recorded as an action with the operator key's id."""
        if seconds is not None and not 0 < seconds <= MAX_MUTE_SECONDS:
            raise InvalidRequest(
                f"a mute lasts 1 to {MAX_MUTE_SECONDS} seconds (or until ended)", code="bad_seconds", field="seconds"
            )
        reason = _bounded(reason, "a mute's reason", "reason")
        now = self.now()
        until = now + seconds if seconds is not None else None
        async with self.engine.begin() as connection:
            await connection.execute(
                update(ChatMuteRow)
                .where(ChatMuteRow.player_id == player_id, ChatMuteRow.ended_at.is_(None))
                .values(ended_at=now, ended_by=key_id)
            )
            made = await connection.execute(
                insert(ChatMuteRow)
                .values(player_id=player_id, until=until, reason=reason, created_at=now, created_by=key_id)
                .returning(ChatMuteRow.mute_id)
            )
            mute_id = int(made.scalar_one())
            await connection.execute(
                insert(ChatActionRow).values(
                    ChatActions.row(MUTE_PLAYER, key_id, now, player_id=player_id, until=until, reason=reason)
                )
            )
        return Mute(mute_id, player_id, until, reason, now, key_id, None, "")

    async def end(self, player_id: str, key_id: str) -> Mute:
        """Ends the player's mute now (the operator ``key_id``), recorded as an action. FailedPrecondition
        ``not_muted`` when none is in force."""
        now = self.now()
        async with self.engine.begin() as connection:
            row = (
                await connection.execute(
                    select(ChatMuteRow)
                    .where(ChatMuteRow.player_id == player_id, self._running(now))
                    .order_by(ChatMuteRow.mute_id.desc())
                    .limit(1)
                )
            ).first()
            if row is None:
                raise PreconditionFailed("the player is not muted", code="not_muted", field="player_id")
            await connection.execute(
                update(ChatMuteRow).where(ChatMuteRow.mute_id == row.mute_id).values(ended_at=now, ended_by=key_id)
            )
            await connection.execute(
                insert(ChatActionRow).values(ChatActions.row(END_MUTE, key_id, now, player_id=player_id))
            )
            ended = _mute(row)
        return Mute(**{**ended.__dict__, "ended_at": now, "ended_by": key_id})

    async def page(self, size: int, after: str = "", *, ended: bool = False) -> tuple[list[Mute], str]:
        """The mutes in force (``ended``: every mute, ended and run out ones too), newest first, after the mute
        ``after`` (a page token: the last mute's id of the page before)."""
        query = select(ChatMuteRow)
        if not ended:
            query = query.where(self._running(self.now()))
        if after:
            if not after.isdigit() or len(after) > 18:
                raise bad_page_token()
            query = query.where(ChatMuteRow.mute_id < int(after))
        query = query.order_by(ChatMuteRow.mute_id.desc()).limit(size + 1)
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        found = [_mute(row) for row in rows]
        return found[:size], str(found[size - 1].mute_id) if len(found) > size else ""


@dataclass(frozen=True)
class ChatModeration:
    """The three together, as the operators' API and the chat core are given them."""

    reports: Reports
    mutes: Mutes
    actions: ChatActions

    @classmethod
    def on(cls, engine: AsyncEngine, now: Callable[[], float]) -> ChatModeration:
        return cls(Reports(engine, now), Mutes(engine, now), ChatActions(engine, now))

    @staticmethod
    def retention() -> list[Rule]:
        """What moderation keeps goes once it is old (service/store/retention.py): a report closed
        :data:`CLOSED_REPORT_DAYS` ago, one left open :data:`OPEN_REPORT_DAYS`, a mute ended (or run out)
        :data:`ENDED_MUTE_DAYS` ago, an operator's action after :data:`ACTION_DAYS`."""
        return [
            Rule(
                "chat reports closed long ago, or left open for a year",
                ChatReportRow,
                "report_id",
                lambda now: or_(
                    ChatReportRow.closed_at < now - CLOSED_REPORT_DAYS * DAY,
                    ChatReportRow.created_at < now - OPEN_REPORT_DAYS * DAY,
                ),
            ),
            Rule(
                "chat mutes ended long ago",
                ChatMuteRow,
                "mute_id",
                lambda now: or_(
                    ChatMuteRow.ended_at < now - ENDED_MUTE_DAYS * DAY,
                    ChatMuteRow.until < now - ENDED_MUTE_DAYS * DAY,
                ),
            ),
            Rule(
                "operators' chat actions older than a year",
                ChatActionRow,
                "action_id",
                lambda now: ChatActionRow.created_at < now - ACTION_DAYS * DAY,
            ),
        ]


__all__ = ["ChatActions", "ChatModeration", "Line", "Mute", "Muted", "Mutes", "Report", "Reports"]
