"""The generic form of a game's messages, which every game has: a move as its text (``Move.generic``, read by
``game.move_from_wire``), a view and an event as the JSON objects the game writes (``View.generic``,
``GameEvent.generic``). A game with messages of its own in the envelopes subclasses :class:`Codec`
(``<game>_codec.py``) and is listed in the table of codecs (codecs.py); its moves are still taken in the text form too.
Events are redacted by the engine before they get here (``event.for_viewer``).
"""

from __future__ import annotations

from typing import Any

from google.protobuf import struct_pb2

from engine.core import CardFace, Game, MalformedMove
from kickoff.v1 import game_pb2, move_pb2


class Codec:
    """The generic form of one game's messages."""

    face_field = "generic"  # CardFace's field for the game's own card fields, and its message (None: a Struct)
    face_message: Any = None

    def __init__(self, game: Game) -> None:
        self.game = game
        self.name = game.spec.name

    def card_to_proto(self, face: CardFace) -> game_pb2.CardFace:
        """A face of the game's catalogue; its ``details`` are the fields of the game's own message (face_message)."""
        message = game_pb2.CardFace(code=face.code, name=face.name, kind=face.kind, copies=face.copies, text=face.text)
        details = face.to_json()["details"]
        if self.face_message is None:
            message.generic.update(details)
        else:
            getattr(message, self.face_field).CopyFrom(self.face_message(**details))
        return message

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
