"""What the terminal client's screens share: how a room's status and mode, its seats, a rating and a refusal read
in a line, a timestamp in seconds, and a room's replay opened over the screen that asked for it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.screen import Screen

from kickoff.v1 import common_pb2, player_pb2, room_pb2
from terminal.client import CallFailed, KickoffClient, Refusal, SessionEnded
from terminal.replay import ReplayScreen

STATUS_TEXT = {
    common_pb2.ROOM_STATUS_WAITING: "waiting",
    common_pb2.ROOM_STATUS_PLAYING: "playing",
    common_pb2.ROOM_STATUS_FINISHED: "finished",
}
MODE_TEXT = {common_pb2.ROOM_MODE_ONLINE: "online", common_pb2.ROOM_MODE_SOLO: "solo"}


def seat_counts(counts: Iterable[int]) -> str:
    """A game's table sizes in short: "2-7", or "2/4/6" when some are missing."""
    counts = sorted(counts)
    if counts and counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 2:
        return f"{counts[0]}-{counts[-1]} seats"
    return "/".join(map(str, counts)) + " seats"


def seat_summary(room: room_pb2.Room) -> str:
    taken = sum(1 for seat in room.seats if seat.taken)
    return f"{taken}/{len(room.seats)}"


def seat_names(room: room_pb2.Room) -> str:
    return ", ".join(seat.name for seat in room.seats if seat.taken and seat.name)


def plural(count: int, thing: str) -> str:
    return f"{count} {thing}{'s' if count != 1 else ''}"


def rating_text(rating: player_pb2.Rating) -> str:
    """A rating as shown: its display figure (mu - 3 sigma), one decimal."""
    return f"{rating.display:.1f}"


def refused(failed: CallFailed) -> str:
    """A refusal in a status line; a session the server ended says so."""
    if isinstance(failed, SessionEnded):
        return session_ended_text(failed.refusal)
    return f"Refused: {failed.refusal}"


def session_ended_text(refusal: Refusal) -> str:
    return f"Signed out: the server ended the session ({refusal.reason or refusal.code}). s: sign in again."


def timestamp_seconds(stamp: Any) -> float:
    """A protobuf Timestamp in seconds since the epoch."""
    return stamp.seconds + stamp.nanos / 1e9


async def open_replay(screen: Screen[Any], room_id: str, token: str | None = None) -> None:
    """Fetch a room's replay and show it (a refusal is said where the screen says things): with the seat's ``token``,
    or as the signed-in player, so that whoever sat at the table reads its chat beside the steps."""
    client: KickoffClient = screen.app.client  # type: ignore[attr-defined]
    try:
        replay = await client.replay(room_id, token)
    except CallFailed as failed:
        screen.notify(f"No replay: {failed.refusal}", severity="warning")
        return
    await screen.app.push_screen(ReplayScreen(replay))
