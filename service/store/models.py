"""One schema for SQLite and PostgreSQL. The room log is append-only and is the record; nothing else is needed to
rebuild a room (its seed and its log replay it exactly)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Double,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class RoomRow(Base):
    """A room as created, plus its status (kept current for listing; the log decides)."""

    __tablename__ = "rooms"

    room_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(16))
    seats: Mapped[int] = mapped_column(Integer)
    system_players: Mapped[int] = mapped_column(Integer)
    # the seats system players take (None in rooms stored before 0004: the last ``system_players`` seats)
    system_seats: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    system_player: Mapped[str] = mapped_column(String(32))
    think_seconds: Mapped[float | None] = mapped_column(Double, nullable=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[float] = mapped_column(Double, index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    tournament_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("tournaments.tournament_id", name="fk_rooms_tournament"), nullable=True, index=True
    )
    tournament_game: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the game's index in it
    # Whether the creator asked for a rated game (None: the default rule, service/rooms/room.py rated_by_default)
    rated: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # a matched room's people, seated as it was made: [[seat, name, nonce, player id], ...] (0009)
    people: Mapped[list[list[Any]] | None] = mapped_column(JSON, nullable=True)
    # Once finished: when, and how it ended (the outcome's JSON with "rated"), copied from the last line's result
    ended_at: Mapped[float | None] = mapped_column(Double, nullable=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # A correspondence room's clock in hours (0: a live room) (0010)
    correspondence_hours: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Whether system players stand in for people the clock played for twice in a row (0012)
    stand_ins: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Who must act now, kept with every line: {seat: [player id or "", deadline or None]} (None: nobody) (0010)
    turns: Mapped[dict[str, list[Any]] | None] = mapped_column(JSON, nullable=True)
    # When a resting correspondence room must be in memory again: its first deadline (None: a room that never rests)
    wake_at: Mapped[float | None] = mapped_column(Double, nullable=True, index=True)
    # The room's traceparent when its game is traced (None: not traced) (0013)
    trace_parent: Mapped[str | None] = mapped_column(String(55), nullable=True)
    # The creator's request id, when CreateRoom carried one: its key (the caller's scope and id hashed, unique: a retry
    # finds the room by it) and the hash of the request's parameters (service/actors/requests.py) (0015)
    request_key: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    request_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # Whether the room is unlisted: never in a listing, seen only by its seated players and its links' holders (0021)
    unlisted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # What fills a seat whose person declines a rematch ('' or "no_rematch": no rematch; "system": a system player)
    # (0023)
    rematch_fill: Mapped[str] = mapped_column(String(16), default="", server_default="")
    # The room's chat (issue 49, 0027): "" or "on" (text and reactions), "reactions" (reactions only), "off"; and
    # whether each team has a channel of its own
    chat: Mapped[str] = mapped_column(String(12), default="", server_default="")
    team_chat: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The room's fair deal (issue 50, 0030; service/rooms/deals.py): its secret sealed with the nodes' shared key
    # (service/secrets.py; None: a room made before fair deals, dealt from ``seed``), the subject its commitment is
    # bound to, the seeds its game's seed is derived from when fixed as it was made (None: the seats' own), and whether
    # its deal is held past the game's end (a duplicate tournament's)
    deal_secret: Mapped[str | None] = mapped_column(Text, nullable=True)
    deal_subject: Mapped[str] = mapped_column(String(96), default="", server_default="")
    deal_seeds: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    deal_held: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class SeatRow(Base):
    """Who sits where now (a projection of the log's joins and leaves, kept for queries)."""

    __tablename__ = "seats"

    room_id: Mapped[str] = mapped_column(String(32), ForeignKey("rooms.room_id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # person, system
    taken: Mapped[bool] = mapped_column(Boolean)
    name: Mapped[str] = mapped_column(String(64))
    player_id: Mapped[str | None] = mapped_column(String(40), nullable=True, index=True)  # the player holding it
    # a keyed hash of the network its holder joined from ('' none kept: the log's join line has it too) (0014)
    origin: Mapped[str] = mapped_column(String(32), default="", server_default="")
    # its person's seed for the fair deal, as given on taking it ('' none, and a system player's: derived on reading)
    # (0030)
    seed: Mapped[str] = mapped_column(String(64), default="", server_default="")
    place: Mapped[int | None] = mapped_column(
        Integer, nullable=True
    )  # once finished: 1 is the best, equal places share
    won: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # once finished: the seat (its team) won


class LogRow(Base):
    """Every update of a room, in version order: joins and leaves of seats, and moves (people's, with their request
    ids; the table's; system players'). ``deadlines`` holds each acting seat's clock deadline after the update (seat ->
    seconds), so a restarted server resumes each clock with the time that was left; ``deadline`` is the earliest of
    them (lines written before 0004 hold only this one, for the one seat that acted)."""

    __tablename__ = "room_log"

    room_id: Mapped[str] = mapped_column(String(32), ForeignKey("rooms.room_id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # join, leave, start, move, table
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str | None] = mapped_column(Text, nullable=True)  # the move's wire form
    # a move's request id; a join's request key and parameters' hash, "key:hash" (service/actors/requests.py)
    request_id: Mapped[str] = mapped_column(String(128), default="")
    name: Mapped[str] = mapped_column(String(64), default="")  # a join's name
    nonce: Mapped[str] = mapped_column(String(32), default="")  # a join's seat nonce (names the seat's token)
    choice: Mapped[str] = mapped_column(String(16), default="", server_default="")  # a join's choice (a team)
    player_id: Mapped[str] = mapped_column(String(40), default="", server_default="")  # a join's player ('' none)
    # a join's origin: a keyed hash of the network the person joined from ('' none kept) (0014)
    origin: Mapped[str] = mapped_column(String(32), default="", server_default="")
    # a join's seed for the fair deal, as the person gave it ('' none) (0030)
    seed: Mapped[str] = mapped_column(String(64), default="", server_default="")
    deadline: Mapped[float | None] = mapped_column(Double, nullable=True)
    deadlines: Mapped[dict[str, float] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[float] = mapped_column(Double)
    # the lease epoch of the node that wrote the line (0: a single node, no leases); never decreases along a log
    epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class TournamentRow(Base):
    """A tournament as created, plus its status (kept current for listing; the log decides)."""

    __tablename__ = "tournaments"

    tournament_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(16))
    system_players: Mapped[int] = mapped_column(Integer)
    system_player: Mapped[str] = mapped_column(String(32))
    think_seconds: Mapped[float | None] = mapped_column(Double, nullable=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Double, index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    # The creator's request id, when CreateTournament carried one: as a room's (0015)
    request_key: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    request_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # A resting solo tournament: its game's time to end as abandoned, until when it need not be in memory; cleared by
    # its next line (0017)
    wake_at: Mapped[float | None] = mapped_column(Double, nullable=True, index=True)
    # A duplicate tournament and its deals' secrets, sealed (0031)
    duplicate: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    deal_secrets: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)


class TournamentLogRow(Base):
    """Every update of a tournament, in version order: seats taken and given back, each game started (its room) and
    each game's result (read from the room's own log: the outcome is not copied here)."""

    __tablename__ = "tournament_log"

    tournament_id: Mapped[str] = mapped_column(String(32), ForeignKey("tournaments.tournament_id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # join, leave, game, result
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    nonce: Mapped[str] = mapped_column(String(32))  # a join's seat nonce (names the tournament seat's token)
    player_id: Mapped[str] = mapped_column(String(40), default="", server_default="")  # a join's player ('' none)
    # a join's origin, as the room log's (0014)
    origin: Mapped[str] = mapped_column(String(32), default="", server_default="")
    game_index: Mapped[int] = mapped_column(Integer)
    room_id: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[float] = mapped_column(Double)
    epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # as in the room log
    # a join's request key and parameters' hash, "key:hash" (service/actors/requests.py) (0015)
    request_id: Mapped[str] = mapped_column(String(128), default="", server_default="")
    # a join's seat seed for the fair deal (0031)
    seed: Mapped[str] = mapped_column(String(64), default="", server_default="")


class SettingRow(Base):
    """Server-wide values that must survive restarts (the seat-token secret)."""

    __tablename__ = "server_settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class ApiKeyRow(Base):
    """An API key for creating rooms and tournaments: its id (the key's visible part), a name for people, and the
    SHA-256 of the whole key (the key itself is shown once, when made, and never kept)."""

    __tablename__ = "api_keys"

    key_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[float] = mapped_column(Double)
    revoked_at: Mapped[float | None] = mapped_column(Double, nullable=True)


class NodeRow(Base):
    """A server node of a cluster on one PostgreSQL (service/cluster): where other nodes reach it, and until when it
    is alive. A node renews its own row only; every lease it holds lives as long as this row (a room's lease expires
    with its owner's). ``incarnation`` changes on every start, so a node restarted under the same id knows its rows
    from its predecessor's; ``expires_at`` is the database's clock (seconds since the epoch), never a node's."""

    __tablename__ = "nodes"

    node_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    address: Mapped[str] = mapped_column(String(255))
    incarnation: Mapped[str] = mapped_column(String(32))
    expires_at: Mapped[float] = mapped_column(Double)
    started_at: Mapped[float] = mapped_column(Double)


class LeaseRow(Base):
    """Who owns a live room or tournament: its node and the lease's epoch, which every claim raises. Every line the
    owner writes carries the epoch, and is written only while this row still names the writer with that epoch (the
    fence). ``node_id`` '' is a lease given back (a node that drained): any live node may claim it at once. The row
    goes when the room or tournament finishes."""

    __tablename__ = "leases"

    kind: Mapped[str] = mapped_column(String(16), primary_key=True)  # room, tournament
    target_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    node_id: Mapped[str] = mapped_column(String(64), index=True)
    epoch: Mapped[int] = mapped_column(Integer)
    tournament_id: Mapped[str] = mapped_column(String(32), default="", server_default="")  # a tournament's game
    claimed_at: Mapped[float] = mapped_column(Double)


class PlayerRow(Base):
    """A player: a person (signed in as a guest or through an identity provider) or a system player's kind, which is
    rated like one. Nothing personal is kept: a name the player chose, and for a guest signing in with a device id the
    HMAC of that id (the id itself is never stored). A deleted player's row stays as a pseudonym, with its name
    replaced and ``deleted_at`` set."""

    __tablename__ = "players"

    player_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # person, system
    name: Mapped[str] = mapped_column(String(64))
    device_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    created_at: Mapped[float] = mapped_column(Double)
    deleted_at: Mapped[float | None] = mapped_column(Double, nullable=True)
    # (issue 48, 0024) who sees the player's presence: friends, nobody
    presence_visibility: Mapped[str] = mapped_column(String(8), default="friends", server_default="friends")
    # (0025) when their friendships, name or visibility last changed, in the store's clock: presence reads what changed
    presence_changed_at: Mapped[float] = mapped_column(Double, default=0.0, server_default="0", index=True)


class IdentityRow(Base):
    """An identity provider's account (issuer and subject) linked to a player: the same pair signs the same player
    in."""

    __tablename__ = "identities"

    issuer: Mapped[str] = mapped_column(String(255), primary_key=True)
    subject: Mapped[str] = mapped_column(String(255), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(40), ForeignKey("players.player_id"), index=True)
    linked_at: Mapped[float] = mapped_column(Double)


class SessionRow(Base):
    """A session: one sign-in, and the family of refresh tokens rotated from it. Revoking it stops its refresh token
    and its access tokens (which name it)."""

    __tablename__ = "sessions"

    session_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(40), ForeignKey("players.player_id"), index=True)
    created_at: Mapped[float] = mapped_column(Double)
    # no refresh past this: sign in again (indexed, as revoked_at, for pruning ended sessions: 0016)
    expires_at: Mapped[float] = mapped_column(Double, index=True)
    revoked_at: Mapped[float | None] = mapped_column(Double, nullable=True, index=True)
    revoked_why: Mapped[str] = mapped_column(String(32), default="", server_default="")  # signed_out, reused...


class RefreshTokenRow(Base):
    """A refresh token of a session, by the SHA-256 of the token (never the token). Good once: ``used_at`` is set
    when it is traded for the next one, and a token presented again after that revokes its session."""

    __tablename__ = "refresh_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    session_id: Mapped[str] = mapped_column(String(32), ForeignKey("sessions.session_id"), index=True)
    issued_at: Mapped[float] = mapped_column(Double)
    expires_at: Mapped[float] = mapped_column(Double, index=True)  # (indexed for pruning spent tokens: 0016)
    used_at: Mapped[float | None] = mapped_column(Double, nullable=True)


class RatingRow(Base):
    """A player's rating in one game (Weng-Lin: mu and sigma), with ``display`` = mu - 3 sigma, which leaderboards
    order by, and the rated games played and won."""

    __tablename__ = "ratings"
    # (a leaderboard's page and a player's rank read this index alone)
    __table_args__ = (Index("ix_ratings_board", "game", "display", "player_id", "games", "kind"),)

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # person, system (system players never appear on a leaderboard)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    display: Mapped[float] = mapped_column(Double)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[float] = mapped_column(Double)


class BoardCountRow(Base):
    """How many players of a game's leaderboard have a rating (display) in one band (``display // BAND`` of
    service/players/store.py), changed in the transactions that change ratings: a rank sums the bands above and
    counts inside one band, instead of counting the board."""

    __tablename__ = "board_counts"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    band: Mapped[int] = mapped_column(Integer, primary_key=True)
    players: Mapped[int] = mapped_column(Integer)


class RatingChangeRow(Base):
    """One rated game's change of one player's rating: written in the transaction that stores the game's last line,
    once (the key is the room and the player), so a rating is never changed twice for one game nor lost."""

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_player", "player_id", "game", "time"),)

    room_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    place: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Double)
    sigma_before: Mapped[float] = mapped_column(Double)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    time: Mapped[float] = mapped_column(Double)


class TicketRow(Base):
    """A matchmaking ticket: one player, or a party, waiting for a table of a game (service/matches/). Its status
    moves searching -> proposed (a table found, its people taking their seats up) -> matched (the room made), or ends
    cancelled or expired; a proposed ticket whose people do not all take up in time is searching again, at the back.
    ``version`` counts its changes (its followers hear of each)."""

    __tablename__ = "tickets"
    __table_args__ = (
        Index("ix_tickets_queue", "game", "status", "place"),
        Index("ix_tickets_caller", "caller", "status"),  # (the per-caller quota counts a caller's live tickets)
    )

    ticket_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))  # forming, searching, proposed, matched, cancelled, expired
    leader: Mapped[str] = mapped_column(String(40), index=True)  # the player who enqueued it
    members: Mapped[list[str]] = mapped_column(JSON)  # every player of the ticket, the leader first
    joined: Mapped[list[str]] = mapped_column(JSON)  # those who joined it (the leader; a party's invited, once they do)
    names: Mapped[list[str]] = mapped_column(JSON)  # their names, in that order
    counts: Mapped[list[int]] = mapped_column(JSON)  # the table sizes the ticket takes
    mode: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)  # as asked (over the game's defaults)
    options_key: Mapped[str] = mapped_column(String(64))  # tickets of one key may share a table
    rating: Mapped[float] = mapped_column(Double)  # the mean of its members' mu in the game
    place: Mapped[float] = mapped_column(Double)  # its place in the queue: when it joined (or was returned to) it
    created_at: Mapped[float] = mapped_column(Double)
    expires_at: Mapped[float] = mapped_column(Double)  # while searching: ends expired at this time
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    version: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(32), default="", server_default="")  # why it ended, or was returned
    returned: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # times put back in the queue
    caller: Mapped[str] = mapped_column(String(64), default="", server_default="")  # the address it came from
    trace: Mapped[str] = mapped_column(String(64), default="", server_default="")  # its life's trace (traceparent)
    ended_at: Mapped[float | None] = mapped_column(Double, nullable=True, index=True)  # (for pruning: 0016)
    # The enqueuer's request id, when Enqueue carried one: its key (the player and id hashed, unique: a retry finds the
    # ticket by it) and the hash of the request's parameters (service/actors/requests.py) (0018)
    request_key: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    request_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class QueuedPlayerRow(Base):
    """A player's place in a game's queue: one ticket per player and game at a time (the key refuses a second),
    deleted when the ticket ends."""

    __tablename__ = "queued_players"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    ticket_id: Mapped[str] = mapped_column(String(32), index=True)


class TicketInviteRow(Base):
    """A party member invited to a ticket who has not joined it yet (JoinTicket): the ticket forms until none is
    left. Being invited holds no place in any queue; deleted when the member joins or the ticket ends."""

    __tablename__ = "ticket_invites"

    ticket_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(40), primary_key=True, index=True)
    game: Mapped[str] = mapped_column(String(32))


class MatchRow(Base):
    """A table the matchmaker made of tickets: its seats (each a ticket's member, a system player, or empty while a
    replacement is found), the room it becomes once every person took their seat up (its id chosen beforehand, so
    that making it twice is impossible), and its status: proposed, ready (everyone took up), starting (claimed by the
    node making its room; ``started_at`` is when), started (the room exists)."""

    __tablename__ = "matches"
    __table_args__ = (
        Index("ix_matches_queue", "game", "status"),
        Index("ix_matches_started", "status", "started_at"),  # (pruning started tables: 0014)
    )

    match_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    room_id: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    size: Mapped[int] = mapped_column(Integer)
    mode: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    options_key: Mapped[str] = mapped_column(String(64))
    system_player: Mapped[str] = mapped_column(String(32), default="", server_default="")
    # per seat: {"seat", "ticket", "player", "name", "nonce", "by" (take up by), "accepted"}, or {"seat", "bot": true}
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    place: Mapped[float] = mapped_column(Double)  # the oldest place among its tickets (the fill wait counts from it)
    created_at: Mapped[float] = mapped_column(Double)
    started_at: Mapped[float | None] = mapped_column(Double, nullable=True)
    spread: Mapped[float] = mapped_column(Double, default=0.0, server_default="0")  # max - min of its ratings


class MatchQueueRow(Base):
    """One game's queue: the row a matchmaker locks to match that game (one node at a time, the others skip it)."""

    __tablename__ = "match_queues"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    ticks: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    ticked_at: Mapped[float] = mapped_column(Double, default=0.0, server_default="0")


class WebhookEndpointRow(Base):
    """A URL that wants some kinds of event (0010). The signing secret is kept sealed (service/webhooks/secrets.py):
    Standard Webhooks signatures are HMACs, so the server needs the secret itself, not a hash of it."""

    __tablename__ = "webhook_endpoints"

    endpoint_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    url: Mapped[str] = mapped_column(String(2048))
    events: Mapped[list[str]] = mapped_column(JSON)  # the event types wanted, e.g. ["turn.began"]
    description: Mapped[str] = mapped_column(String(128), default="", server_default="")
    secret: Mapped[str] = mapped_column(Text)  # sealed
    secret_hint: Mapped[str] = mapped_column(String(16))
    max_in_flight: Mapped[int] = mapped_column(Integer)
    timeout_seconds: Mapped[float] = mapped_column(Double)
    created_at: Mapped[float] = mapped_column(Double)
    # The operator's request id, when AddEndpoint carried one: its key (unique: a retry finds the endpoint by it) and
    # the hash of the request's parameters (service/actors/requests.py) (0018)
    request_key: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    request_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # Whether its chat.message deliveries carry the message's text, read at delivery (0029; issue 49)
    chat_text: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class WebhookDeliveryRow(Base):
    """One event for one endpoint: the outbox (0010). Written in the transaction of the change that caused it; sent
    by whichever node claims it (``claimed_until``: no other node sends it before then)."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        Index("ix_webhook_deliveries_due", "status", "next_attempt_at"),
        Index("ix_webhook_deliveries_endpoint", "endpoint_id", "status", "next_attempt_at"),
    )

    delivery_id: Mapped[str] = mapped_column(String(40), primary_key=True)  # the webhook-id: msg_<hex>
    endpoint_id: Mapped[str] = mapped_column(String(32))
    event: Mapped[str] = mapped_column(String(32))  # turn.began, match.found, ...
    payload: Mapped[str] = mapped_column(Text)  # the body, exactly as every attempt sends it
    created_at: Mapped[float] = mapped_column(Double)
    retry_from: Mapped[float] = mapped_column(Double)  # retried for the retry window from here (redelivery resets it)
    next_attempt_at: Mapped[float] = mapped_column(Double)
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    status: Mapped[str] = mapped_column(String(12))  # pending, sending, delivered, dead, obsolete
    claimed_by: Mapped[str] = mapped_column(String(64), default="", server_default="")
    claimed_until: Mapped[float | None] = mapped_column(Double, nullable=True)
    last_error: Mapped[str] = mapped_column(String(200), default="", server_default="")
    last_status: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    finished_at: Mapped[float | None] = mapped_column(Double, nullable=True)  # delivered, dead or obsolete since
    # What must still hold when it is sent (a clock reminder: {"room_id", "seat", "deadline"}), else it is obsolete
    condition: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class InvitationLinkRow(Base):
    """An unlisted room's invitation link (0021): its uses are counted here, so that revocation and a single use hold
    on every node and across restarts. The token itself is never stored (it is signed: service/rooms/private.py)."""

    __tablename__ = "invitation_links"

    link_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_id: Mapped[str] = mapped_column(String(32), index=True)
    created_at: Mapped[float] = mapped_column(Double)
    expires_at: Mapped[float] = mapped_column(Double)
    max_uses: Mapped[int] = mapped_column(Integer)
    uses: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    revoked: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


# -- the inbox (issue 48) --------------------------------------------------------------------------------------------
class InboxItemRow(Base):
    """One item of a player's inbox (0020): an event for the player (a correspondence game's turn, a match found, a
    tournament's game ready, a friend's request...), written in the transaction of the change that caused it
    (service/inbox). ``item_id`` grows with each item written (ListInbox: newest first; FollowInbox: after an id)."""

    __tablename__ = "inbox_items"
    __table_args__ = (
        Index("ix_inbox_items_player", "player_id", "item_id"),
        Index("ix_inbox_items_created", "created_at"),
        # (0026) SQLite: an id is never given again, also after the newest item is deleted (PostgreSQL's never is)
        {"sqlite_autoincrement": True},
    )

    # (SQLite numbers only an INTEGER primary key by itself: BIGINT there would not be)
    item_id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(32))  # the webhook event's type: turn.began, match.found, ...
    data: Mapped[dict[str, Any]] = mapped_column(JSON)  # the webhook event's data (never a card)
    created_at: Mapped[float] = mapped_column(Double)
    read: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


# -- table talk (issue 49: service/chat; 0027) ------------------------------------------------------------------------
class ChatMessageRow(Base):
    """One message of a room's chat (0027): its place in the room's one sequence (``seq``, from 1, written in order by
    the node that owns the room), its channel (and team, for a team's channel), its sender and its text or reaction.
    Kept per channel up to KICKOFF_CHAT_HISTORY messages, and KICKOFF_CHAT_KEEP_DAYS after the game ended."""

    __tablename__ = "chat_messages"
    __table_args__ = (
        Index("ix_chat_messages_channel", "room_id", "channel", "team", "seq"),
        Index("ix_chat_messages_request", "room_id", "request_key", unique=True),
        Index("ix_chat_messages_player", "player_id"),
    )

    room_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    channel: Mapped[str] = mapped_column(String(12))  # players, spectators, team
    team: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # the team channel's team
    player_id: Mapped[str] = mapped_column(String(40), default="", server_default="")  # '' an anonymous seat
    name: Mapped[str] = mapped_column(String(64))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the sender's seat (None: a spectator)
    text: Mapped[str] = mapped_column(String(1000), default="", server_default="")
    reaction: Mapped[str] = mapped_column(String(16), default="", server_default="")  # good_game, ... ('' text)
    # the sender's request id hashed with who they are (a retry finds the message by it; None: no request id)
    request_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[float] = mapped_column(Double)
    # an operator deleted it: its text and reaction are blanked, a withdrawal (a row of its own) names it
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    withdraws_seq: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # a withdrawal: the message's seq


# -- friends (issue 48: service/friends; 0019) ------------------------------------------------------------------------


class FriendCodeRow(Base):
    """A player's friend code: the one that finds them now (rotating it replaces it)."""

    __tablename__ = "friend_codes"

    player_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    code: Mapped[str] = mapped_column(String(10), unique=True)  # Crockford base32, without its dash
    created_at: Mapped[float] = mapped_column(Double)


class FriendRequestRow(Base):
    """A friend request, kept after it is answered (its time counts against the sender's requests a day) until the
    pruning loop takes it. At most one pending per sender and recipient. ``delivered`` False: the recipient had blocked
    the sender when it was sent, and never sees it."""

    __tablename__ = "friend_requests"
    __table_args__ = (
        Index(
            "uq_friend_requests_pending",
            "sender",
            "recipient",
            unique=True,
            sqlite_where=text("status = 'pending'"),
            postgresql_where=text("status = 'pending'"),
        ),
        Index("ix_friend_requests_sender", "sender", "created_at"),
        Index("ix_friend_requests_recipient", "recipient", "status"),
    )

    request_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    sender: Mapped[str] = mapped_column(String(40))
    recipient: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(12))  # pending, accepted, declined, cancelled, ended
    delivered: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[float] = mapped_column(Double)
    ended_at: Mapped[float | None] = mapped_column(Double, nullable=True)


class FriendshipRow(Base):
    """One side of a friendship: each friendship is two rows, one for each of its players."""

    __tablename__ = "friendships"

    player_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    friend_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    since: Mapped[float] = mapped_column(Double)


class BlockRow(Base):
    """A player (``blocker``) blocked another (``blocked``)."""

    __tablename__ = "blocks"
    __table_args__ = (Index("ix_blocks_blocked", "blocked"),)

    blocker: Mapped[str] = mapped_column(String(40), primary_key=True)
    blocked: Mapped[str] = mapped_column(String(40), primary_key=True)
    created_at: Mapped[float] = mapped_column(Double)


# -- presence (issue 48: service/presence; 0024) ----------------------------------------------------------------------
class PresenceRow(Base):
    """A player's presence as one node knows it (0024): written only when it changes on that node (never per
    heartbeat). A row of a node whose lease ran out reads as away (service/presence)."""

    __tablename__ = "presence"
    __table_args__ = (Index("ix_presence_node", "node_id"),)

    player_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    node_id: Mapped[str] = mapped_column(String(64), primary_key=True)  # ('' on a single server)
    state: Mapped[str] = mapped_column(String(16))  # online, searching, at_table, away
    room_id: Mapped[str] = mapped_column(String(32), default="", server_default="")
    unlisted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # the room is unlisted
    since: Mapped[float] = mapped_column(Double)  # when the state began (away: when last seen)
    version: Mapped[int] = mapped_column(BigInteger, default=1)
    # (0025) when the store took this row, in its own clock: the nodes' rounds read the rows changed since their last
    changed_at: Mapped[float] = mapped_column(Double, default=0.0, server_default="0", index=True)


# -- room invitations (issue 48, part 2) -----------------------------------------------------------------------------
class RoomInvitationRow(Base):
    """A player seated in a room invited a friend to it (0022): kept until the pruning loop takes it, so that an
    invitation holds on every node and after a restart (service/rooms/invitations.py). It is pending while ``status``
    says so and its room's row says the room is waiting; at most one is pending per room and invitee."""

    __tablename__ = "room_invitations"
    __table_args__ = (
        Index(
            "uq_room_invitations_pending",
            "room_id",
            "invitee",
            unique=True,
            sqlite_where=text("status = 'pending'"),
            postgresql_where=text("status = 'pending'"),
        ),
        Index("ix_room_invitations_invitee", "invitee", "status"),
    )

    invitation_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_id: Mapped[str] = mapped_column(String(32), index=True)
    game: Mapped[str] = mapped_column(String(32))
    inviter: Mapped[str] = mapped_column(String(40))
    invitee: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(12))  # pending, accepted, declined, withdrawn
    created_at: Mapped[float] = mapped_column(Double)
    ended_at: Mapped[float | None] = mapped_column(Double, nullable=True)


class RematchRow(Base):
    """A finished room's rematch (0023): proposed once, answered seat by seat, then made (its new room) or refused
    (service/rooms/rematches.py). Kept apart from the room's log, which ends with its game."""

    __tablename__ = "rematches"

    room_id: Mapped[str] = mapped_column(String(32), primary_key=True)  # the finished room
    proposed_by: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Double)
    deadline: Mapped[float] = mapped_column(Double)
    answers: Mapped[dict[str, Any]] = mapped_column(JSON)  # seat (as text) -> waiting, accepted, declined, no_answer
    # seat (as text) -> the seed for the fair deal an accepting seat gave, seated with it in the new room (0030)
    seeds: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)
    status: Mapped[str] = mapped_column(String(16), index=True)  # open, made, refused
    new_room_id: Mapped[str] = mapped_column(String(32), default="", server_default="")
    reason: Mapped[str] = mapped_column(String(32), default="", server_default="")


# -- chat moderation (issue 49: service/chat/reports.py; 0028) --------------------------------------------------------
class ChatReportRow(Base):
    """A player's report of a chat message (0028): the message and the ten around it as they were when it was filed
    (``snapshot``), the reporter, the room; one per reporter and message. Open until an operator closes it."""

    __tablename__ = "chat_reports"
    __table_args__ = (
        UniqueConstraint("reporter_id", "room_id", "seq", name="uq_chat_reports_reporter_message"),
        Index("ix_chat_reports_list", "is_open", "created_at", "report_id"),
    )

    report_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_id: Mapped[str] = mapped_column(String(32))
    seq: Mapped[int] = mapped_column(BigInteger)  # the reported message's seq in its room's chat
    reporter_id: Mapped[str] = mapped_column(String(40))
    reported_id: Mapped[str] = mapped_column(String(40))  # who wrote it ('' for an anonymous seat's reaction)
    reason: Mapped[str] = mapped_column(String(200), default="", server_default="")  # the reporter's words, if any
    snapshot: Mapped[dict[str, Any]] = mapped_column(JSON)  # {"message": line, "context": [line, ...]}
    created_at: Mapped[float] = mapped_column(Double)
    is_open: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    closed_at: Mapped[float | None] = mapped_column(Double, nullable=True)
    closed_by: Mapped[str] = mapped_column(String(32), default="", server_default="")  # the operator key's id
    note: Mapped[str] = mapped_column(String(200), default="", server_default="")  # the operator's, on closing


class ChatMuteRow(Base):
    """A player muted (0028): their chat messages are refused (``muted``) until ``until`` (None: until an operator
    ends it) or until it is ended. Kept after it ends, with who made and ended it."""

    __tablename__ = "chat_mutes"
    __table_args__ = (Index("ix_chat_mutes_player", "player_id", "ended_at"), {"sqlite_autoincrement": True})

    mute_id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(40))
    until: Mapped[float | None] = mapped_column(Double, nullable=True)
    reason: Mapped[str] = mapped_column(String(200), default="", server_default="")
    created_at: Mapped[float] = mapped_column(Double)
    created_by: Mapped[str] = mapped_column(String(32))  # the operator key's id
    ended_at: Mapped[float | None] = mapped_column(Double, nullable=True)
    ended_by: Mapped[str] = mapped_column(String(32), default="", server_default="")


class ChatActionRow(Base):
    """One operator action on the chat (0028), never changed: a message deleted (``room_id``, ``seq``), a player
    muted or their mute ended (``player_id``, ``until``), a report closed (``report_id``), with the operator key's
    id and the time."""

    __tablename__ = "chat_actions"
    __table_args__ = (
        Index("ix_chat_actions_message", "room_id", "seq"),
        Index("ix_chat_actions_created", "created_at"),
        {"sqlite_autoincrement": True},
    )

    action_id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    action: Mapped[str] = mapped_column(String(24))  # delete_message, mute_player, end_mute, close_report
    key_id: Mapped[str] = mapped_column(String(32))
    room_id: Mapped[str] = mapped_column(String(32), default="", server_default="")
    seq: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    player_id: Mapped[str] = mapped_column(String(40), default="", server_default="")
    report_id: Mapped[str] = mapped_column(String(32), default="", server_default="")
    until: Mapped[float | None] = mapped_column(Double, nullable=True)
    reason: Mapped[str] = mapped_column(String(200), default="", server_default="")
    created_at: Mapped[float] = mapped_column(Double)
