"""How the store keeps each kind of actor: its table and its log's, and how a record and a log line become rows and
come back. The journals (journal.py, memory.py) know nothing else about a kind: a new durable kind is one entry in
:data:`KINDS` (with its records in records.py and its tables in models.py and a migration).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, update

from service.store.models import LogRow, RoomRow, SeatRow, TournamentLogRow, TournamentRow
from service.store.records import LogEntry, RoomRecord, TournamentEntry, TournamentRecord


def _nothing(_: Any) -> list[Any]:
    return []


@dataclass(frozen=True)
class Kind:
    """One kind of durable actor as the store keeps it. ``filters``: the columns a listing may filter on."""

    name: str
    table: Any  # the actors' rows (as created, plus their status)
    log: Any  # their log lines, keyed by (id, version)
    key: str  # the id column, in both
    record_row: Callable[[Any], dict[str, Any]]
    record_of: Callable[[Any], Any]
    line_row: Callable[[Any], dict[str, Any]]
    entry_of: Callable[[Any], Any]
    filters: tuple[str, ...] = ("status",)
    hidden: str = ""  # a boolean column: an actor whose row has it true is never listed ('' for none)
    rows_created: Callable[[Any], list[tuple[Any, list[dict[str, Any]]]]] = _nothing  # more rows a creation adds
    changes: Callable[[Any], list[Any]] = _nothing  # (statement, parameters) a log line makes besides its row
    lease_group: Callable[[Any], str] = field(default=lambda record: "")  # the lease's tournament ('' for none)
    current: Callable[[Any], dict[str, Any]] = field(default=lambda entry: {})  # a line's values for the actor's row


# -- rooms --------------------------------------------------------------------------------------------------------


def _room_row(record: RoomRecord) -> dict[str, Any]:
    return {
        "room_id": record.room_id,
        "game": record.game,
        "mode": record.mode,
        "seats": record.seats,
        "system_players": len(record.system_seats),
        "system_seats": list(record.system_seats),
        "system_player": record.system_player,
        "think_seconds": record.think_seconds,
        "options": dict(record.options),
        "seed": record.seed,
        "created_at": record.created_at,
        "status": record.status,
        "tournament_id": record.tournament_id or None,
        "tournament_game": record.tournament_game,
        "rated": record.rated,
        "people": [list(person) for person in record.people] or None,
        "correspondence_hours": record.correspondence_hours,
        "stand_ins": record.stand_ins,
        "trace_parent": record.trace_parent or None,
        "request_key": record.request_key or None,
        "request_hash": record.request_hash or None,
        "unlisted": record.unlisted,
        "rematch_fill": record.rematch_fill,
        "chat": record.chat,
        "team_chat": record.team_chat,
        "deal_secret": record.deal_secret or None,  # (sealed: service/rooms/deals.py)
        "deal_subject": record.deal_subject,
        "deal_seeds": None if record.deal_seeds is None else list(record.deal_seeds),
        "deal_held": record.deal_held,
    }


def _room_seats(record: RoomRecord) -> list[tuple[Any, list[dict[str, Any]]]]:
    """A new room's seats (a projection of the log's joins and leaves, kept for queries): a matched room's people are
    seated from the start."""
    people = {
        person[0]: (person[1], person[3], person[4], person[5] if len(person) > 5 else "") for person in record.people
    }
    seats = [
        {
            "room_id": record.room_id,
            "seat": seat,
            "kind": "system" if seat in record.system_seats else "person",
            "taken": seat in record.system_seats or seat in people,
            "name": f"{record.system_player} bot" if seat in record.system_seats else people.get(seat, ("", ""))[0],
            "player_id": people[seat][1] or None if seat in people else None,
            "origin": people[seat][2] if seat in people else "",
            "seed": people[seat][3] if seat in people else "",
        }
        for seat in range(record.seats)
    ]
    return [(SeatRow, seats)]


def _room_record(row: Any) -> RoomRecord:
    system_seats = row.system_seats  # (rooms stored before 0004 name no seats: system players took the last ones)
    if system_seats is None:
        system_seats = range(row.seats - row.system_players, row.seats)
    return RoomRecord(
        room_id=row.room_id,
        game=row.game,
        mode=row.mode,
        seats=row.seats,
        system_seats=tuple(system_seats),
        system_player=row.system_player,
        think_seconds=row.think_seconds,
        options=row.options,
        seed=row.seed,
        created_at=row.created_at,
        status=row.status,
        tournament_id=row.tournament_id or "",
        tournament_game=row.tournament_game,
        rated=row.rated,
        # (each (seat, name, nonce, player, origin, seed); a room stored before 0014 has no origins, before 0030 no
        # seeds)
        people=tuple((*person, "", "")[:6] for person in row.people or ()),
        correspondence_hours=row.correspondence_hours or 0,
        stand_ins=bool(row.stand_ins),
        trace_parent=row.trace_parent or "",
        request_key=row.request_key or "",
        request_hash=row.request_hash or "",
        unlisted=bool(row.unlisted),
        rematch_fill=row.rematch_fill or "",
        chat=row.chat or "",
        team_chat=bool(row.team_chat),
        deal_secret=row.deal_secret or "",
        deal_subject=row.deal_subject or "",
        deal_seeds=None if row.deal_seeds is None else tuple(row.deal_seeds),
        deal_held=bool(row.deal_held),
    )


def _room_line(entry: LogEntry) -> dict[str, Any]:
    return {
        "room_id": entry.room_id,
        "version": entry.version,
        "kind": entry.kind,
        "seat": entry.seat,
        "move": entry.move,
        "request_id": entry.request_id,
        "name": entry.name,
        "nonce": entry.nonce,
        "choice": entry.choice,
        "deadline": min(entry.deadlines.values()) if entry.deadlines else None,
        "deadlines": {str(seat): deadline for seat, deadline in entry.deadlines.items()} or None,
        "created_at": entry.time,
        "epoch": entry.epoch,
        "player_id": entry.player,
        "origin": entry.origin,
        "seed": entry.seed,
    }


# The statements a room's lines make besides their rows, built once (an UPDATE built for each line cost more than its
# execution): each is executed with the parameters a line gives.
_SEAT_TAKEN = (
    update(SeatRow)
    .where(SeatRow.room_id == bindparam("b_room_id"), SeatRow.seat == bindparam("b_seat"))
    .values(
        taken=bindparam("b_taken"),
        name=bindparam("b_name"),
        player_id=bindparam("b_player_id"),
        origin=bindparam("b_origin"),
        seed=bindparam("b_seed"),
    )
)
_ROOM_ENDED = (
    update(RoomRow)
    .where(RoomRow.room_id == bindparam("b_room_id"))
    .values(ended_at=bindparam("b_ended_at"), outcome=bindparam("b_outcome"))
)
_SEAT_PLACED = (
    update(SeatRow)
    .where(SeatRow.room_id == bindparam("b_room_id"), SeatRow.seat == bindparam("b_seat"))
    .values(place=bindparam("b_place"), won=bindparam("b_won"))
)


def _room_changes(entry: LogEntry) -> list[tuple[Any, Any]]:
    """A join or a leave changes its seat's row; the last line of a game (its result) writes the outcome and each
    seat's place. Each change: a statement and its parameters (a list of them: one execution for every seat)."""
    if entry.kind in ("join", "leave"):
        taken = {
            "b_room_id": entry.room_id,
            "b_seat": entry.seat,
            "b_taken": entry.kind == "join",
            "b_name": entry.name,
            "b_player_id": entry.player or None,
            "b_origin": entry.origin,
            "b_seed": entry.seed if entry.kind == "join" else "",
        }
        return [(_SEAT_TAKEN, taken)]
    result = entry.result
    if result is None:
        return []
    outcome = {
        "b_room_id": entry.room_id,
        "b_ended_at": result.time,
        "b_outcome": {**result.outcome, "rated": result.rated, "unrated_reason": result.unrated_reason},
    }
    changes: list[tuple[Any, Any]] = [(_ROOM_ENDED, outcome)]
    places = [
        {"b_room_id": entry.room_id, "b_seat": seat.seat, "b_place": seat.place, "b_won": seat.won}
        for seat in result.seats
        if seat.place
    ]
    if places:
        changes.append((_SEAT_PLACED, places))
    return changes


def _room_current(entry: LogEntry) -> dict[str, Any]:
    """Who must act after a line (each seat's player and deadline), and when the room must be in memory if it rests:
    kept on the room's row for "my turn" lists and the wake-up sweep (nothing for a line that does not say)."""
    if entry.turns is None:
        return {}
    turns = {str(turn.seat): [turn.player, turn.deadline] for turn in entry.turns}
    return {"turns": turns or None, "wake_at": entry.wake_at}


def _tournament_current(entry: Any) -> dict[str, Any]:
    """A tournament's line says it is in memory: a resting one's ``wake_at`` goes (service/tournaments/directory.py)."""
    return {"wake_at": None}


def _room_entry(line: Any) -> LogEntry:
    if line.deadlines is not None:
        deadlines = {int(seat): deadline for seat, deadline in line.deadlines.items()}
    else:  # a line written before clocks were kept per seat: one deadline for every acting seat
        deadlines = {} if line.deadline is None else {-1: line.deadline}
    return LogEntry(
        room_id=line.room_id,
        version=line.version,
        kind=line.kind,
        seat=line.seat,
        move=line.move,
        request_id=line.request_id,
        name=line.name,
        nonce=line.nonce,
        choice=line.choice,
        deadlines=deadlines,
        time=line.created_at,
        epoch=line.epoch,
        player=line.player_id,
        origin=line.origin,
        seed=line.seed or "",
    )


# -- tournaments --------------------------------------------------------------------------------------------------


def _tournament_row(record: TournamentRecord) -> dict[str, Any]:
    return {
        "tournament_id": record.tournament_id,
        "game": record.game,
        "mode": record.mode,
        "system_players": record.system_players,
        "system_player": record.system_player,
        "think_seconds": record.think_seconds,
        "options": dict(record.options),
        "created_at": record.created_at,
        "status": record.status,
        "request_key": record.request_key or None,
        "request_hash": record.request_hash or None,
        "duplicate": record.duplicate,
        "deal_secrets": list(record.deal_secrets) or None,
    }


def _tournament_record(row: Any) -> TournamentRecord:
    return TournamentRecord(
        tournament_id=row.tournament_id,
        game=row.game,
        mode=row.mode,
        system_players=row.system_players,
        system_player=row.system_player,
        think_seconds=row.think_seconds,
        options=row.options,
        created_at=row.created_at,
        status=row.status,
        request_key=row.request_key or "",
        request_hash=row.request_hash or "",
        duplicate=bool(row.duplicate),
        deal_secrets=tuple(row.deal_secrets or ()),
    )


def _tournament_line(entry: TournamentEntry) -> dict[str, Any]:
    return {
        "tournament_id": entry.tournament_id,
        "version": entry.version,
        "kind": entry.kind,
        "seat": entry.seat,
        "name": entry.name,
        "nonce": entry.nonce,
        "game_index": entry.game_index,
        "room_id": entry.room_id,
        "created_at": entry.time,
        "epoch": entry.epoch,
        "player_id": entry.player,
        "origin": entry.origin,
        "request_id": entry.request_id,
        "seed": entry.seed,
    }


def _tournament_entry(line: Any) -> TournamentEntry:
    return TournamentEntry(
        tournament_id=line.tournament_id,
        version=line.version,
        kind=line.kind,
        seat=line.seat,
        name=line.name,
        nonce=line.nonce,
        game_index=line.game_index,
        room_id=line.room_id,
        time=line.created_at,
        epoch=line.epoch,
        player=line.player_id,
        origin=line.origin,
        request_id=line.request_id or "",
        seed=line.seed or "",
    )


# Parents first: a room names its tournament, so a group that creates both inserts the tournament first.
KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind(
            "tournament",
            TournamentRow,
            TournamentLogRow,
            "tournament_id",
            _tournament_row,
            _tournament_record,
            _tournament_line,
            _tournament_entry,
            current=_tournament_current,
        ),
        Kind(
            "room",
            RoomRow,
            LogRow,
            "room_id",
            _room_row,
            _room_record,
            _room_line,
            _room_entry,
            filters=("game", "status"),
            hidden="unlisted",
            rows_created=_room_seats,
            changes=_room_changes,
            lease_group=lambda record: record.tournament_id or "",
            current=_room_current,
        ),
    )
}
