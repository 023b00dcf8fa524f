"""One schema for SQLite and PostgreSQL. The room log is append-only and is the record; nothing else is needed to
rebuild a room (its seed and its log replay it exactly)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, Double, ForeignKey, Integer, String, Text
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


class SeatRow(Base):
    """Who sits where now (a projection of the log's joins and leaves, kept for queries)."""

    __tablename__ = "seats"

    room_id: Mapped[str] = mapped_column(String(32), ForeignKey("rooms.room_id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # person, system
    taken: Mapped[bool] = mapped_column(Boolean)
    name: Mapped[str] = mapped_column(String(64))


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
    request_id: Mapped[str] = mapped_column(String(128), default="")
    name: Mapped[str] = mapped_column(String(64), default="")  # a join's name
    nonce: Mapped[str] = mapped_column(String(32), default="")  # a join's seat nonce (names the seat's token)
    choice: Mapped[str] = mapped_column(String(16), default="", server_default="")  # a join's choice (a team)
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
    game_index: Mapped[int] = mapped_column(Integer)
    room_id: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[float] = mapped_column(Double)
    epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # as in the room log


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
