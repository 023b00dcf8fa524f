"""A room's table talk: text messages and quick reactions in channels that keep the players and the spectators apart.

**Channels.** ``players``: written and read by the room's seated people; ``spectators``: written by signed-in players
who are not seated, read by anyone who may watch the room (never by a seated person, during the game or after it);
``team``: a team game's room with ``team_chat`` on, one channel per team, read by that team's seats only.

**One sequence per room.** Every message has the room's next ``seq`` (from 1) across its channels. The node that owns
the room writes them (calls for a room go to its owner, service/grpc/forward.py), one at a time under the room's lock
(the messages of many rooms that wait meanwhile share a transaction: :class:`ChatWrites`), and a message is answered,
and heard by followers, only once its row is stored: a follower resumes after the last seq it saw with no gap and no
duplicate. A room that moved to another node (failover, drain) is picked up there: the new owner reads the highest seq
stored before its first write. A finished room has no owner (any node answers for it): a write that finds its seq taken
by another node's reads the highest again and takes the next. Chat never goes through the room's actor: it never changes
the game's version nor waits behind a move.

**Followers.** A stream reads the stored messages after its seq, then the ones written here as they are stored (kept
in memory, :data:`RECENT` of them per room); on a cluster it also looks again every :data:`POLL_SECONDS` (a finished
room's messages written on another node; a room that moved away, whose followers are told ``room_moved``).

**Bounds.** Text is a signed-in player's, normalised as names are (NFKC, runs of whitespace one space), with no
control or bidirectional character (``bad_message``) and at most ``max_length`` characters (``message_too_long``);
reactions are fixed keys. A sender may send ``player_per_minute`` messages a minute in a room (``chat_rate``), a
room takes ``room_per_minute`` (``room_chat_rate``), counted on the node that owns the room. A reader's blocks (the
friends' block list) hide the blocked players' messages from them.

**Retention.** Each channel keeps its newest ``history`` messages (older ones are deleted in the transaction of every
:func:`trim_every`-th message of the channel written here, so it may hold a few more for a while); a finished room's
messages go ``keep_days`` after its game ended (service/store/retention.py). A deleted player's messages keep no name:
their sender becomes the pseudonym their seat got.

**Correspondence games.** In a correspondence room (``correspondence_hours`` set) a message to a seated, signed-in
person who is away is an event ``chat.message`` for them (service/webhooks/events.py), written through the outbox in
the message's own transaction: a webhook delivery for each endpoint that wants it, and an item of their inbox (one
unread item a room: service/inbox). Away is decided here, on the node that writes the message (the room's owner;
any node for a finished room), from what it holds: no stream of the room is open here for that player (Play,
StreamEvents, FollowChat: :meth:`Chat.present`; every such stream, and the gateway's, reaches the room's owner).
Only people who may read the message get one (its channel; not a sender they blocked), never its sender.

**Withdrawal.** A message an operator deleted (OperatorService.DeleteChatMessage) is blanked where it is kept and
marked ``withdrawn``; a withdrawal, the room's next message in the same channel with no sender and ``withdraws`` naming
it, tells every follower and every later reader that it is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import itertools
import time
import unicodedata
import weakref
from collections import Counter, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from service.errors import InvalidRequest, Moved, NotFound, PermissionDenied, PreconditionFailed, ResourceExhausted
from service.rooms.seats import PERSON
from service.settings import ChatSettings
from service.store.journal import _away_is_unavailable
from service.store.models import BlockRow, ChatMessageRow, RoomRow
from service.store.retention import Rule
from service.webhooks.events import chat_event

PLAYERS, SPECTATORS, TEAM = "players", "spectators", "team"
CHANNELS = (PLAYERS, SPECTATORS, TEAM)
REACTIONS = ("good_game", "well_played", "oops", "thanks", "hurry_up", "one_more")
ON, REACTIONS_ONLY, OFF = "on", "reactions", "off"  # a room's chat option
FINISHED = "finished"  # a room's status once its game ended
RECENT = 512  # messages a room keeps in memory for its followers (older ones are read from the store)
POLL_SECONDS = 1.0  # on a cluster, how often a follower looks again without being woken
PAGE = 50  # a page's size when none is asked for
MAX_PAGE = 200
# Characters never in a message (as never in a name, service/grpc/limits.py): bidirectional controls, which reorder
# what a reader sees, and the line and paragraph separators; control characters (below U+0020, U+007F-U+009F) too.
NOT_IN_MESSAGES = frozenset({0x061C, 0x200E, 0x200F, 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)})
CONTEXT = 10  # the messages around a reported one that its report keeps
WRITE_TRIES = 3  # a write whose seq another node took meanwhile tries again this often


@dataclass(frozen=True)
class Message:
    """One message as the store holds it."""

    room_id: str
    seq: int
    channel: str
    team: int
    player_id: str
    name: str
    seat: int | None
    text: str
    reaction: str
    created_at: float
    withdrawn: bool = False  # an operator deleted it: its text and reaction are gone
    withdraws: int = 0  # a withdrawal: the seq of the message it withdraws (0: a message)


@dataclass(frozen=True)
class Reader:
    """Who reads a room's chat: their seat (None: a spectator), its team, their player ('' none) and the players they
    blocked."""

    seat: int | None = None
    team: int | None = None
    player_id: str = ""
    blocked: frozenset[str] = frozenset()

    def may_read(self, message: Message, channel: str = "") -> bool:
        """Whether this reader gets ``message`` (in ``channel`` only, when one is named)."""
        if channel and message.channel != channel:
            return False
        if message.channel == PLAYERS:
            allowed = self.seat is not None
        elif message.channel == SPECTATORS:
            allowed = self.seat is None
        else:
            allowed = self.seat is not None and self.team == message.team
        return allowed and not (message.player_id and message.player_id in self.blocked)


@dataclass(frozen=True)
class Sender:
    """Who sends: their seat (None: a spectator) and its team, their player ('' an anonymous seat) and name."""

    seat: int | None
    team: int | None
    player_id: str
    name: str


class Reports(Protocol):
    """Where a report goes (the moderation's store): it keeps the message, the ones around it, the reporter, the room
    and the reporter's words; answers the report's id."""

    async def file(
        self,
        reporter_id: str,
        room_id: str,
        message: Message,
        context_messages: Sequence[Message],
        reason: str = "",
    ) -> Any: ...  # (the report kept: its ``report_id``)


def normalise(text: str, most: int) -> str:
    """``text`` as it is kept (NFKC, trimmed, each run of whitespace one space): InvalidRequest ``bad_message`` for a
    control or bidirectional character, ``message_too_long`` past ``most`` characters."""
    if len(text) > 4 * most:
        raise InvalidRequest(f"a message holds at most {most} characters", code="message_too_long", field="text")
    for index, char in enumerate(text):
        code = ord(char)
        if code < 0x20 or 0x7F <= code < 0xA0 or code in NOT_IN_MESSAGES:
            raise InvalidRequest(
                f"a control or bidirectional character at position {index} is not allowed in a message",
                code="bad_message",
                field="text",
            )
    kept = " ".join(unicodedata.normalize("NFKC", text).split())
    if len(kept) > most:
        raise InvalidRequest(f"a message holds at most {most} characters", code="message_too_long", field="text")
    return kept


def _message(row: Any) -> Message:
    return Message(
        row.room_id,
        int(row.seq),
        row.channel,
        int(row.team),
        row.player_id or "",
        row.name,
        row.seat,
        row.text or "",
        row.reaction or "",
        float(row.created_at),
        bool(row.withdrawn),
        int(row.withdraws_seq or 0),
    )


def _request_key(room_id: str, sender: Sender, request_id: str) -> str | None:
    if not request_id:
        return None
    scope = sender.player_id or f"seat {sender.seat}"
    return hashlib.sha256(f"{room_id}\n{scope}\n{request_id}".encode()).hexdigest()


@dataclass
class RoomChat:
    """A room's chat on the node that holds the room: its highest stored seq (None until read), the lock its writes
    take in turn, the messages written here (for its followers), the followers' wake-up and the rate windows."""

    room: Any
    seq: int | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    recent: deque[Message] = field(default_factory=lambda: deque(maxlen=RECENT))
    wakeup: asyncio.Event = field(default_factory=asyncio.Event)
    sent: deque[float] = field(default_factory=deque)  # when the room's last messages were stored (its rate)
    senders: dict[str, deque[float]] = field(default_factory=dict)  # each sender's, likewise
    untrimmed: dict[tuple[str, int], int] = field(default_factory=dict)  # messages a channel got since its last trim

    def stored(self, message: Message) -> None:
        self.seq = message.seq
        if self.recent and self.recent[-1].seq != message.seq - 1:
            self.recent.clear()  # (another node wrote between: the memory holds only an unbroken run)
        self.recent.append(message)
        wakeup, self.wakeup = self.wakeup, asyncio.Event()
        wakeup.set()

    def withdrawn(self, seq: int) -> None:
        """The message ``seq`` was withdrawn: memory keeps it blanked too."""
        for index, message in enumerate(self.recent):
            if message.seq == seq:
                self.recent[index] = replace(message, text="", reaction="", withdrawn=True)

    def after(self, seq: int) -> list[Message] | None:
        """The messages after ``seq`` from memory, or None when memory does not reach back to it."""
        recent = self.recent
        if self.seq is not None and seq >= self.seq:
            return []
        if recent and recent[0].seq <= seq + 1:
            start = seq + 1 - recent[0].seq  # (an unbroken run of seqs: the one after ``seq`` is at this index)
            return list(itertools.islice(recent, max(0, start), None))
        return None


def trim_every(history: int) -> int:
    """How many messages a channel takes between two trims to ``history``: an eighth of it, at most 25 (every message
    for a history of 8 or fewer)."""
    return max(1, min(25, history // 8))


@dataclass
class _Pending:
    row: dict[str, Any]
    message: Message
    also: Callable[[Any, Message], Awaitable[None]] | None
    trim: bool
    future: asyncio.Future[None]


class ChatWrites:
    """The chat's group commit: the messages that wait while a transaction is in flight are written together in the
    next one (their rows in one statement, then each one's ``also`` and the trims), as the journal writes moves. A
    room has at most one message in flight (its lock), so a group never holds two of one room. When the store
    refuses a group (a seq another node took, a request id stored before: the unique indexes), each of its messages
    is written alone, so that only the one refused hears it; a store that is away fails the whole group
    (StoreUnavailable)."""

    def __init__(self, engine: AsyncEngine, trim: Callable[[Any, Message], Awaitable[None]]) -> None:
        self.engine = engine
        self._trim = trim
        self._pending: list[_Pending] = []
        self._flusher: asyncio.Task[None] | None = None

    async def write(
        self,
        row: dict[str, Any],
        message: Message,
        also: Callable[[Any, Message], Awaitable[None]] | None,
        trim: bool,
    ) -> None:
        """Store ``row`` (``message``'s) with ``also(connection, message)`` in its transaction, trimming its channel
        when ``trim``; returns once committed. Raises IntegrityError (refused) or StoreUnavailable."""
        pending = _Pending(row, message, also, trim, asyncio.get_running_loop().create_future())
        self._pending.append(pending)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(
                self._flush(),
                name="chat writes",
                context=contextvars.Context(),  # (none of the writer's trace)
            )
        pending.future.add_done_callback(_retrieved)
        await asyncio.shield(pending.future)  # (a caller that goes away leaves its write to the group)

    async def _flush(self) -> None:
        while self._pending:
            group, self._pending = self._pending, []
            await self._commit(group)

    async def _commit(self, group: list[_Pending]) -> None:
        try:
            async with _away_is_unavailable(), self.engine.begin() as connection:
                await connection.execute(insert(ChatMessageRow), [pending.row for pending in group])
                for pending in group:
                    if pending.also is not None:
                        await pending.also(connection, pending.message)
                for pending in group:
                    if pending.trim:
                        await self._trim(connection, pending.message)
        except IntegrityError as error:
            if len(group) > 1:
                for pending in group:
                    await self._commit([pending])
            else:
                _settle(group, error)
            return
        except Exception as error:
            _settle(group, error)
            return
        _settle(group, None)


def _retrieved(future: asyncio.Future[None]) -> None:
    """A write whose caller went away ends here: its error, if any, is retrieved (not logged as never seen)."""
    if not future.cancelled():
        future.exception()


def _settle(group: list[_Pending], error: BaseException | None) -> None:
    for pending in group:
        if not pending.future.done():
            if error is None:
                pending.future.set_result(None)
            else:
                pending.future.set_exception(error)


class Chat:
    """Rooms' chat in the store behind ``engine`` (see the module docstring). ``now`` gives the time (the messages',
    the rate windows'); ``clustered``: this node is one of several (its followers look again every POLL_SECONDS)."""

    def __init__(
        self,
        engine: AsyncEngine,
        settings: ChatSettings | None = None,
        *,
        now: Callable[[], float] = time.time,
        clustered: bool = False,
        reports: Reports | None = None,
        rules: Any = None,
        mutes: Any = None,
        outbox: Any = None,
    ) -> None:
        self.engine = engine
        self.settings = settings or ChatSettings()
        self.now = now
        self.clustered = clustered
        self.reports = reports  # (None: this server takes no reports, reports_off)
        self.rules = rules  # (service/chat/moderation.py's ChatRules: the operator's word filter; None: none)
        self.mutes = mutes  # (service/chat/reports.py's Mutes: a muted player's messages are refused; None: none)
        # (service/webhooks/outbox.py's Outbox: a message to a person away from a correspondence room is an event of
        # theirs, written in the message's transaction; None: none)
        self.outbox = outbox
        self._talks: weakref.WeakValueDictionary[str, RoomChat] = weakref.WeakValueDictionary()  # (while used)
        self._writes = ChatWrites(engine, self._trim)
        self._present: dict[str, Counter[str]] = {}  # room -> the players with a stream of it open here, how many

    def of(self, room: Any) -> RoomChat:
        """``room``'s chat on this node, kept on the room (it goes with it when the room leaves memory). A finished
        room read back into memory again (a new Room) takes on the chat its streams still follow, so that they hear
        what is said in it; a live room rebuilt or taken back starts afresh (its seq read from the store)."""
        talk = getattr(room, "talk", None)
        if talk is None:
            known = self._talks.get(room.room_id)
            if known is not None and known.room.status == FINISHED and room.status == FINISHED:
                known.room = room
                talk = known
            else:
                talk = self._talks[room.room_id] = RoomChat(room)
            room.talk = talk
        return talk

    # -- who is at the table -------------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def present(self, room_id: str, player_id: str) -> Iterator[None]:
        """``player_id`` has a stream of the room open on this node while the block runs (not away: see the module
        docstring, Correspondence games)."""
        if not player_id:
            yield
            return
        here = self._present.setdefault(room_id, Counter())
        here[player_id] += 1
        try:
            yield
        finally:
            here[player_id] -= 1
            if here[player_id] <= 0:
                del here[player_id]
            if not here and self._present.get(room_id) is here:
                del self._present[room_id]

    def away(self, room_id: str, player_id: str) -> bool:
        """Whether ``player_id`` has no stream of the room open on this node."""
        return not self._present.get(room_id, {}).get(player_id)

    async def _tell_away(self, connection: Any, room: Any, message: Message) -> None:
        """In a correspondence room, the ``chat.message`` event of each seated, signed-in person away from the room
        who may read ``message`` (not its sender, nor one who blocked them), through the outbox in ``connection``'s
        transaction (the message's)."""
        if self.outbox is None or not getattr(room, "correspondence_hours", 0) or message.withdraws:
            return
        people: dict[str, int] = {}
        for record in room.seats:
            if record.kind == PERSON and record.player and record.player != message.player_id:
                people.setdefault(record.player, record.seat)
        away = [
            player
            for player, seat in people.items()
            if Reader(seat, room.teams[seat], player).may_read(message) and self.away(room.room_id, player)
        ]
        if away and message.player_id:
            query = select(BlockRow.blocker).where(BlockRow.blocker.in_(away), BlockRow.blocked == message.player_id)
            blockers = set((await connection.execute(query)).scalars())
            away = [player for player in away if player not in blockers]
        if not away:
            return
        events = [
            chat_event(
                recipient=player,
                room_id=room.room_id,
                game=room.game.spec.name,
                seq=message.seq,
                channel=message.channel,
                reaction=message.reaction,
                from_name=message.name,
                now=message.created_at,
            )
            for player in away
        ]
        await self.outbox.write(connection, events)

    # -- who may do what ------------------------------------------------------------------------------------------

    @staticmethod
    def check_open(room: Any) -> None:
        if room.chat == OFF:
            raise PreconditionFailed("this room's chat is off", code="chat_off")

    @staticmethod
    def channel_for(room: Any, sender: Sender, channel: str) -> str:
        """The channel a message goes to ('' : the sender's own), or PermissionDenied (not_your_channel)."""
        seated = sender.seat is not None
        channel = channel or (PLAYERS if seated else SPECTATORS)
        if channel == PLAYERS and seated:
            return channel
        if channel == SPECTATORS and not seated:
            return channel
        if channel == TEAM and seated and room.team_chat:
            return channel
        why = {
            PLAYERS: "only the room's seated players write in the players' channel",
            SPECTATORS: "the room's seated players do not write in the spectators' channel",
            TEAM: "only a seated player of a room with team chat writes in their team's channel",
        }[channel]
        raise PermissionDenied(why, code="not_your_channel", field="channel")

    def _rate(self, talk: RoomChat, sender: Sender) -> tuple[deque[float], deque[float]]:
        """The room's and the sender's windows, checked: ResourceExhausted (chat_rate, room_chat_rate) when full."""
        now = self.now()
        key = sender.player_id or f"seat {sender.seat}"
        mine = talk.senders.setdefault(key, deque())
        for window in (mine, talk.sent):
            while window and window[0] <= now - 60.0:
                window.popleft()
        if len(mine) >= self.settings.player_per_minute:
            raise ResourceExhausted(
                f"at most {self.settings.player_per_minute} messages a minute; wait a little",
                code="chat_rate",
                retry_after=max(0.1, 60.0 - (now - mine[0])),
            )
        if len(talk.sent) >= self.settings.room_per_minute:
            raise ResourceExhausted(
                f"this room takes at most {self.settings.room_per_minute} messages a minute; wait a little",
                code="room_chat_rate",
                retry_after=max(0.1, 60.0 - (now - talk.sent[0])),
            )
        for other in [k for k, window in talk.senders.items() if k != key and (not window or window[-1] <= now - 60)]:
            del talk.senders[other]  # (senders quiet for a minute are forgotten: the room keeps its talkers only)
        return talk.sent, mine

    # -- writing --------------------------------------------------------------------------------------------------

    async def send(
        self, room: Any, sender: Sender, channel: str, text: str, reaction: str, request_id: str = ""
    ) -> Message:
        """Store a message of ``sender``'s in ``room`` (its checks: the module docstring); answered once stored."""
        self.check_open(room)
        if text and reaction:
            raise InvalidRequest("send text or a reaction, not both", code="text_and_reaction", field="text")
        if not text and not reaction:
            raise InvalidRequest("a message needs text or a reaction", code="empty_message", field="text")
        if reaction and reaction not in REACTIONS:
            raise InvalidRequest("reaction must be a ChatReaction value", code="bad_reaction", field="reaction")
        if text:
            if room.chat == REACTIONS_ONLY:
                raise PreconditionFailed("this room's chat takes quick reactions only", code="reactions_only")
            if not sender.player_id:
                raise PermissionDenied(
                    "text is a signed-in player's: sign in (a seat token sends quick reactions only)",
                    code="sign_in_to_chat",
                    field="text",
                )
            text = self.rules.check(text) if self.rules is not None else normalise(text, self.settings.max_length)
            if not text:
                raise InvalidRequest("a message needs text or a reaction", code="empty_message", field="text")
        channel = self.channel_for(room, sender, channel)
        if self.mutes is not None and sender.player_id:
            await self.mutes.check(sender.player_id)  # (muted, everywhere: text and reactions alike)
        talk = self.of(room)
        key = _request_key(room.room_id, sender, request_id)
        async with talk.lock:
            sent, mine = self._rate(talk, sender)
            message, fresh = await self._write(talk, sender, channel, text, reaction, key)
            if fresh:  # (else a retry: the first message, sent once; the request id's unique index said so)
                now = self.now()
                sent.append(now)
                mine.append(now)
                talk.stored(message)
            return message

    async def _write(
        self, talk: RoomChat, sender: Sender, channel: str, text: str, reaction: str, key: str | None
    ) -> tuple[Message, bool]:
        room_id = talk.room.room_id
        team = sender.team if channel == TEAM and sender.team is not None else 0
        who = (sender.player_id, sender.name, sender.seat)
        room = talk.room

        async def tell(connection: Any, message: Message) -> None:
            await self._tell_away(connection, room, message)

        return await self._next(
            talk, lambda seq, now: Message(room_id, seq, channel, team, *who, text, reaction, now), key, also=tell
        )

    async def _next(
        self,
        talk: RoomChat,
        make: Callable[[int, float], Message],
        key: str | None = None,
        also: Callable[[Any, Message], Awaitable[None]] | None = None,
    ) -> tuple[Message, bool]:
        """Store the room's next message, ``make(seq, now)``, with ``also(connection, message)`` in its transaction
        (the group's: :class:`ChatWrites`); the message, and whether it is new (False: a retry of request ``key``,
        whose first message is answered). The request id is not looked up first: its unique index refuses a second
        row, and only then is the first one read."""
        room_id = talk.room.room_id
        for attempt in range(WRITE_TRIES):
            if talk.seq is None or attempt:
                talk.seq = await self.highest(room_id)
            message = make(talk.seq + 1, self.now())
            try:
                await self._writes.write(self._row(message, key), message, also, self._trims(talk, message))
                return message, True
            except IntegrityError:
                # Another node took this seq (a finished room has no owner), or a retry's request id is stored.
                if key is not None and (earlier := await self._by_key(room_id, key)) is not None:
                    return earlier, False
        raise Moved("the room's chat is being written on another node; try again")

    def _trims(self, talk: RoomChat, message: Message) -> bool:
        """Whether this message's write trims its channel to ``history``: every :func:`trim_every` messages of the
        channel written here (so a channel holds at most that many more than ``history`` for a while)."""
        lane = (message.channel, message.team)
        written = talk.untrimmed.get(lane, 0) + 1
        if written >= trim_every(self.settings.history):
            talk.untrimmed[lane] = 0
            return True
        talk.untrimmed[lane] = written
        return False

    async def withdraw(self, room: Any, seq: int) -> Message | None:
        """An operator deleted the room's message ``seq``: its text and reaction are blanked where it is kept (it
        reads as withdrawn from now on), and a withdrawal naming it is the room's next message in its channel, so
        that every reader who saw it hears it is gone (a client hides it). The withdrawal; None when the message was
        withdrawn already, or is no longer kept. (On the node that owns the room, as a message is written.)"""
        if seq < 1:
            raise InvalidRequest("seq is a message's seq in its room's chat: 1 or more", code="bad_seq", field="seq")
        talk = self.of(room)
        query = select(ChatMessageRow).where(ChatMessageRow.room_id == room.room_id, ChatMessageRow.seq == seq)
        async with talk.lock:
            async with _away_is_unavailable(), self.engine.connect() as connection:
                row = (await connection.execute(query)).first()
            if row is None or row.withdrawn or row.withdraws_seq is not None:
                return None
            original = _message(row)

            async def blank(connection: Any, _: Message) -> None:
                await connection.execute(
                    update(ChatMessageRow)
                    .where(ChatMessageRow.room_id == room.room_id, ChatMessageRow.seq == seq)
                    .values(text="", reaction="", withdrawn=True)
                )

            def withdrawal(next_seq: int, now: float) -> Message:
                return Message(
                    room.room_id, next_seq, original.channel, original.team, "", "", None, "", "", now, withdraws=seq
                )

            message, _ = await self._next(talk, withdrawal, also=blank)
            talk.withdrawn(seq)
            talk.stored(message)
            return message

    @staticmethod
    def _row(message: Message, key: str | None) -> dict[str, Any]:
        return {
            "room_id": message.room_id,
            "seq": message.seq,
            "channel": message.channel,
            "team": message.team,
            "player_id": message.player_id,
            "name": message.name[:64],
            "seat": message.seat,
            "text": message.text,
            "reaction": message.reaction,
            "request_key": key,
            "created_at": message.created_at,
            "withdrawn": message.withdrawn,
            "withdraws_seq": message.withdraws or None,
        }

    async def _trim(self, connection: Any, message: Message) -> None:
        """Keep the newest ``history`` messages of the message's channel (in the write's transaction)."""
        same = (
            ChatMessageRow.room_id == message.room_id,
            ChatMessageRow.channel == message.channel,
            ChatMessageRow.team == message.team,
        )
        oldest_kept = (
            select(ChatMessageRow.seq)
            .where(*same)
            .order_by(ChatMessageRow.seq.desc())
            .offset(self.settings.history - 1)
            .limit(1)
            .scalar_subquery()
        )
        await connection.execute(delete(ChatMessageRow).where(*same, ChatMessageRow.seq < oldest_kept))

    async def highest(self, room_id: str) -> int:
        """The highest seq stored for ``room_id`` (0: none)."""
        query = select(func.max(ChatMessageRow.seq)).where(ChatMessageRow.room_id == room_id)
        async with _away_is_unavailable(), self.engine.connect() as connection:
            return int((await connection.execute(query)).scalar_one() or 0)

    async def _by_key(self, room_id: str, key: str) -> Message | None:
        query = select(ChatMessageRow).where(ChatMessageRow.room_id == room_id, ChatMessageRow.request_key == key)
        async with _away_is_unavailable(), self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
        return _message(row) if row is not None else None

    # -- reading --------------------------------------------------------------------------------------------------

    async def blocked_by(self, player_id: str) -> frozenset[str]:
        """The players ``player_id`` blocked (their messages are hidden from them)."""
        if not player_id:
            return frozenset()
        query = select(BlockRow.blocked).where(BlockRow.blocker == player_id)
        async with _away_is_unavailable(), self.engine.connect() as connection:
            return frozenset((await connection.execute(query)).scalars())

    async def stored_after(self, room_id: str, seq: int, limit: int, channels: Sequence[str] = ()) -> list[Message]:
        query = select(ChatMessageRow).where(ChatMessageRow.room_id == room_id, ChatMessageRow.seq > seq)
        if channels:
            query = query.where(ChatMessageRow.channel.in_(channels))
        query = query.order_by(ChatMessageRow.seq).limit(limit)
        async with _away_is_unavailable(), self.engine.connect() as connection:
            return [_message(row) for row in (await connection.execute(query)).all()]

    @staticmethod
    def channels_of(reader: Reader, channel: str) -> tuple[str, ...]:
        """The channels worth reading from the store for ``reader`` (narrowed to ``channel`` when named)."""
        mine = (PLAYERS, TEAM) if reader.seat is not None else (SPECTATORS,)
        return tuple(c for c in mine if not channel or c == channel)

    @staticmethod
    def check_after(after: int) -> None:
        if after < 0:
            raise InvalidRequest("after_seq must not be negative", code="bad_after_seq", field="after_seq")

    async def page(self, room: Any, reader: Reader, channel: str, after: int, size: int) -> tuple[list[Message], int]:
        """The messages ``reader`` may read after ``after``, oldest first, at most ``size`` (0: the default), and the
        seq to pass for the next page (0: none)."""
        self.check_open(room)
        self.check_after(after)
        if size < 0 or size > MAX_PAGE:
            raise InvalidRequest(f"page_size must be 0-{MAX_PAGE}", code="bad_page_size", field="page_size")
        size = size or PAGE
        channels = self.channels_of(reader, channel)
        found: list[Message] = []
        cursor = after
        while len(found) < size:
            rows = await self.stored_after(room.room_id, cursor, size + 1, channels)
            for message in rows:
                if len(found) == size:
                    return found, found[-1].seq
                cursor = message.seq
                if reader.may_read(message, channel):
                    found.append(message)
            if len(rows) <= size:
                return found, 0
        return found, found[-1].seq if found else 0

    async def follow(self, room: Any, reader: Reader, channel: str, after: int) -> AsyncIterator[Message]:
        """The messages ``reader`` may read after ``after`` (the stored ones first, oldest first), then each new one
        as it is stored, for as long as the caller iterates; Moved once the room moved to another node."""
        self.check_after(after)
        talk = self.of(room)
        channels = self.channels_of(reader, channel)
        last = after
        while True:
            wakeup = talk.wakeup
            elsewhere = self.clustered and room.status == FINISHED  # (other nodes may write a finished room's chat)
            batch = None if elsewhere else talk.after(last)
            if batch is None:
                batch = await self.stored_after(room.room_id, last, MAX_PAGE, channels)
                if not batch and talk.seq is None:
                    talk.seq = await self.highest(room.room_id)
            for message in batch:
                last = max(last, message.seq)
                if reader.may_read(message, channel):
                    yield message
            if batch:
                continue
            moved = getattr(room.actor, "moved", None)
            if moved is not None and room.status != FINISHED:
                raise Moved("this room moved to another node; follow its chat again with the last seq seen")
            if self.clustered:
                try:
                    await asyncio.wait_for(wakeup.wait(), POLL_SECONDS)
                except TimeoutError:
                    continue
            else:
                await wakeup.wait()

    async def replayed(self, room: Any, reader: Reader) -> list[Message]:
        """The chat a replay carries for ``reader``, one of the room's seats: every kept message of the players'
        channel and of the reader's team's, oldest first, withdrawn ones as withdrawn but no withdrawal (the message
        it names reads as withdrawn already), a blocked player's hidden. Bounded by ``history`` a channel (the rest
        is deleted as messages are written); nothing for a spectator or a room whose chat is off."""
        if reader.seat is None or room.chat == OFF:
            return []
        mine = ChatMessageRow.channel == PLAYERS
        if reader.team is not None and room.team_chat:
            mine = mine | ((ChatMessageRow.channel == TEAM) & (ChatMessageRow.team == reader.team))
        query = (
            select(ChatMessageRow)
            .where(ChatMessageRow.room_id == room.room_id, mine, ChatMessageRow.withdraws_seq.is_(None))
            .order_by(ChatMessageRow.seq)
            .limit(2 * self.settings.history)
        )
        async with _away_is_unavailable(), self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [message for message in map(_message, rows) if reader.may_read(message)]

    async def reported(self, room: Any, reader: Reader, seq: int) -> tuple[Message, list[Message]]:
        """The message ``seq`` (one ``reader`` may read) and the :data:`CONTEXT` of its channel around it."""
        if seq <= 0:
            raise InvalidRequest("seq is required (a positive number)", code="bad_seq", field="seq")
        query = select(ChatMessageRow).where(ChatMessageRow.room_id == room.room_id, ChatMessageRow.seq == seq)
        async with _away_is_unavailable(), self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
            message = _message(row) if row is not None else None
            if message is None or not reader.may_read(message):
                raise NotFound("message", "no such message in a channel you read", code="message_not_found")
            same = (
                ChatMessageRow.room_id == room.room_id,
                ChatMessageRow.channel == message.channel,
                ChatMessageRow.team == message.team,
            )
            before = select(ChatMessageRow).where(*same, ChatMessageRow.seq < seq)
            later = select(ChatMessageRow).where(*same, ChatMessageRow.seq > seq)
            older = (await connection.execute(before.order_by(ChatMessageRow.seq.desc()).limit(CONTEXT))).all()
            newer = (await connection.execute(later.order_by(ChatMessageRow.seq).limit(CONTEXT))).all()
        around = sorted([_message(r) for r in (*older, *newer)], key=lambda m: abs(m.seq - seq))[:CONTEXT]
        return message, sorted(around, key=lambda m: m.seq)

    # -- retention and erasure ------------------------------------------------------------------------------------

    def retention(self) -> list[Rule]:
        """A finished room's messages, ``keep_days`` after its game ended (service/store/retention.py)."""
        keep = self.settings.keep_days * 86400.0
        return [
            Rule(
                "chat of rooms ended long ago",
                ChatMessageRow,
                "room_id",
                lambda now: ChatMessageRow.room_id.in_(select(RoomRow.room_id).where(RoomRow.ended_at < now - keep)),
            )
        ]

    async def erase(self, connection: Any, player_id: str, pseudonym: str, now: float) -> Callable[[], None]:
        """A player deletes themselves: their messages keep no name and no player (the pseudonym their seat got)."""
        await connection.execute(
            update(ChatMessageRow)
            .where(ChatMessageRow.player_id == player_id)
            .values(player_id="", name=pseudonym[:64])
        )
        return lambda: None
