"""The generic form of a game's messages, which every game has: a move as its text (``Move.generic``, read by
``game.move_from_wire``), a view and an event as the JSON objects the game writes (``View.generic``,
``GameEvent.generic``). A game with messages of its own in the envelopes subclasses :class:`Codec`
(``<game>_codec.py``) and is listed in the table of codecs (codecs.py); its moves are still taken in the text form too.
Events are redacted by the engine before they get here (``event.for_viewer``).
"""

from __future__ import annotations

from typing import Any

from google.protobuf import struct_pb2

from engine.core import Game, MalformedMove
from kickoff.v1 import move_pb2


class Codec:
    """The generic form of one game's messages."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.name = game.spec.name

    def move_from_proto(self, move: move_pb2.Move) -> Any:
        """The engine's move; MalformedMove when it is for another game or unreadable."""
        which = move.WhichOneof("game")
        if which == "generic":
            return self.game.move_from_wire(move.generic.wire)
        raise MalformedMove(f"this room plays {self.name}; the move is {'empty' if which is None else 'for ' + which}")

    def move_to_proto(self, move: Any) -> move_pb2.Move:
        return move_pb2.Move(generic=move_pb2.GenericMove(wire=move.to_wire()))

    def view_to_proto(self, view: Any) -> move_pb2.View:
        data = struct_pb2.Struct()
        data.update(view.to_json())
        return move_pb2.View(generic=move_pb2.GenericView(data=data))

    def fill_standing(self, message: Any, tallies: tuple[tuple[str, int], ...]) -> None:
        """Set a tournament Standing's fields of the game's own (the generic form has its ``tallies`` only)."""

    def event_to_proto(self, event: Any) -> move_pb2.GameEvent | None:
        """The event's message, or None for an event the room itself reports (a game's own "game ended": the room
        sends its GameEnded with the outcome)."""
        data = struct_pb2.Struct()
        data.update(event.to_json())
        return move_pb2.GameEvent(generic=move_pb2.GenericEvent(data=data))
