"""Soker moves, views and events <-> their proto messages. Card codes pass through; the engine reads the moves (in the
text form too, as every game's)."""

from __future__ import annotations

from typing import Any

from engine.core import MalformedMove
from engine.soker import SOKER, SokerMove, SokerView
from engine.soker.rules import GameEnded
from kickoff.v1 import move_pb2, soker_pb2
from service.grpc.generic_codec import Codec

_WIRE_OF_KIND = {"draw": "draw", "end_turn": "end"}


class SokerCodec(Codec):
    face_field = "soker"
    face_message = soker_pb2.SokerCardFace

    def move_from_proto(self, move: move_pb2.Move) -> SokerMove:
        which = move.WhichOneof("game")
        if which != "soker":
            return super().move_from_proto(move)
        kind = move.soker.WhichOneof("kind")
        if kind is None:
            raise MalformedMove("a Soker move needs one of play, draw or end_turn")
        if kind == "play":
            if not move.soker.play.cards:
                raise MalformedMove("a play needs at least one card")
            return SOKER.move_from_wire("play " + " ".join(move.soker.play.cards))
        return SOKER.move_from_wire(_WIRE_OF_KIND[kind])

    def __init__(self) -> None:
        super().__init__(SOKER)
        self._move_protos: dict[SokerMove, move_pb2.Move] = {}  # moves repeat: build each one's message once

    def move_to_proto(self, move: SokerMove) -> move_pb2.Move:
        message = self._move_protos.get(move)
        if message is None:
            message = self._move_protos[move] = self._build_move(move)
        return message

    def _build_move(self, move: SokerMove) -> move_pb2.Move:
        words = move.to_wire().split()
        if words[0] == "play":
            return move_pb2.Move(soker=soker_pb2.SokerMove(play=soker_pb2.SokerPlay(cards=words[1:])))
        if words[0] == "draw":
            return move_pb2.Move(soker=soker_pb2.SokerMove(draw=soker_pb2.SokerDraw()))
        return move_pb2.Move(soker=soker_pb2.SokerMove(end_turn=soker_pb2.SokerEndTurn()))

    def view_to_proto(self, view: SokerView) -> move_pb2.View:
        data = view.to_json()
        return move_pb2.View(
            soker=soker_pb2.SokerView(
                hand=data.get("hand", ()),
                hand_sizes=data["hand_sizes"],
                top_card=data["top"],
                joker_as_club=data.get("joker_as_club", ""),
                deck_size=data["deck_size"],
                discard_size=data["discard_size"],
                current=data["current"],
                drawn=data["drawn"],
                points=data["points"],
            )
        )

    def fill_standing(self, message: Any, tallies: tuple[tuple[str, int], ...]) -> None:
        message.country_wins = dict(tallies).get("country_wins", 0)

    def event_to_proto(self, event: Any) -> move_pb2.GameEvent | None:
        if type(event) is GameEnded:
            return None  # the room's GameEnded says it, with the outcome
        data = event.to_json()
        kind = data.pop("type")
        return move_pb2.GameEvent(soker=soker_pb2.SokerEvent(**{kind: data}))
