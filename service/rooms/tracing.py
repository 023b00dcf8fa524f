"""A room's spans: each command of a traced room (a move, the clock's, a system player's) in the room's own trace,
under its ``room.created`` span, or in its caller's trace when the call carries a sampled trace context (linked to the
room's). A room nobody traces makes no SDK call at all: its move path gets the invalid span, at no cost."""

from __future__ import annotations

import contextlib
from typing import Any

from opentelemetry import trace
from opentelemetry.trace import Link

from service.telemetry import SpanScope, Telemetry, in_sampled_trace, room_context


class RoomSpans:
    """The spans of room ``room_id`` of ``game`` (``trace_parent``: its ``room.created`` span, as its record keeps
    it)."""

    def __init__(self, telemetry: Telemetry, room_id: str, game: str, trace_parent: str) -> None:
        self.tracing = telemetry.tracing
        self._tracer = telemetry.tracer
        self._attributes = {"kickoff.room_id": room_id, "kickoff.game": game}
        # A traced room's spans descend from its room.created span; an untraced room's make no SDK call at all
        self._trace = room_context(trace_parent) if self.tracing else None
        # (what a span in a caller's own trace links to: the room's room.created span)
        self._links = [Link(trace.get_current_span(self._trace).get_span_context())] if self._trace else None

    def span(self, name: str, seat: int, move: Any = None, **options: Any) -> Any:
        """A span of this room's (room id, game, seat, and the move's kind), current while the block runs: in the
        room's trace when the room is traced, in the caller's when the call carries a sampled trace context (linked to
        the room's); otherwise, and with tracing off, the invalid span, at no cost (no SDK call)."""
        if not self.tracing:
            return contextlib.nullcontext(trace.INVALID_SPAN)
        if in_sampled_trace():
            parent, links = None, self._links
        elif self._trace is not None:
            parent, links = self._trace, None
        else:
            return contextlib.nullcontext(trace.INVALID_SPAN)
        attributes = {**self._attributes, "kickoff.seat": seat}
        if move is not None:
            attributes["kickoff.move.kind"] = move_kind(move)
        return SpanScope(self._tracer.start_span(name, parent, attributes=attributes, links=links), **options)


def move_kind(move: Any) -> str:
    """A move's kind (its wire form's first word: play, draw, end, timeout), never its cards."""
    kind = getattr(move, "kind", None)
    if type(kind) is str:  # (every game's move has its kind first)
        return kind
    to_wire = getattr(move, "to_wire", None)
    return to_wire().split(" ", 1)[0] if to_wire is not None else "malformed"
