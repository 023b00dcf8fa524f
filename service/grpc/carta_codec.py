"""Carta Fútbol Club moves, views and events <-> their proto messages. Each message move is turned into the game's
text move, which the engine reads and judges (the text form travels in Move.generic too)."""

from __future__ import annotations

from typing import Any

from engine.carta import CARTA
from engine.carta.rules import CartaMove, CartaView
from engine.core import MalformedMove
from kickoff.v1 import carta_pb2 as pb
from kickoff.v1 import move_pb2
from service.grpc.generic_codec import Codec

# Event data -> CartaEvent fields of the same name (the rest are set below).
_EVENT_SCALARS = ("call", "coin", "choice", "action", "value", "play", "answer", "outcome", "goal", "hand", "shootout")
_EVENT_LISTS = ("colours", "goals", "kicks", "scored")
_EVENT_OPTIONAL = ("winner", "team")


def _text(move: pb.CartaMove) -> str:
    """The text move a message stands for (the engine judges it)."""
    kind = move.WhichOneof("kind")
    if kind is None:
        raise MalformedMove("a Carta Fútbol Club move needs one of its kinds (call, choose, play, down, decline)")
    if kind == "decline":
        return "decline"
    if kind == "call":
        if not move.call.side:
            raise MalformedMove("'call' needs its side: heads or tails")
        return f"call {move.call.side}"
    if kind == "choose":
        if not move.choose.choice:
            raise MalformedMove("'choose' needs its choice: blue, green or kickoff")
        return f"choose {move.choose.choice}"
    if kind == "down":
        if not move.down.card:
            raise MalformedMove("'down' needs its card")
        return f"down {move.down.card}"
    play = move.play  # kind == "play"
    if not play.card:
        raise MalformedMove("'play' needs its card")
    return f"play {play.card} {play.action}".rstrip()


def _message(move: CartaMove) -> pb.CartaMove:
    kind, args = move.kind, move.args
    if kind == "play":
        return pb.CartaMove(play=pb.CartaPlay(card=args[0], action=args[1] if len(args) > 1 else ""))
    if kind == "down":
        return pb.CartaMove(down=pb.CartaDown(card=args[0]))
    if kind == "call":
        return pb.CartaMove(call=pb.CartaCall(side=args[0]))
    if kind == "choose":
        return pb.CartaMove(choose=pb.CartaChoose(choice=args[0]))
    return pb.CartaMove(decline=pb.CartaDecline())


def _set_if_seat(message: Any, name: str, value: int) -> None:
    """Set an optional seat or team field; -1 (none) leaves it unset."""
    if value >= 0:
        setattr(message, name, value)


class CartaCodec(Codec):
    face_field = "carta"
    face_message = pb.CartaCardFace

    def __init__(self) -> None:
        super().__init__(CARTA)
        self._move_protos: dict[CartaMove, move_pb2.Move] = {}  # moves repeat: build each one's message once

    def move_from_proto(self, move: move_pb2.Move) -> CartaMove:
        if move.WhichOneof("game") != "carta":
            return super().move_from_proto(move)
        return CARTA.move_from_wire(_text(move.carta))

    def move_to_proto(self, move: CartaMove) -> move_pb2.Move:
        message = self._move_protos.get(move)
        if message is None:  # a bounded set: every face, face up, face down and as a Joker's six actions
            message = self._move_protos[move] = move_pb2.Move(carta=_message(move))
        return message

    def view_to_proto(self, view: CartaView) -> move_pb2.View:
        data = view.to_json()
        coin = data["coin"]
        message = pb.CartaView(
            phase=data["phase"],
            seats=[pb.CartaSeat(**seat) for seat in data["seats"]],
            coin=pb.CartaCoin(call=coin["call"], side=coin["side"]),
            colours=data["colours"],
            hand=data["hand"],
            goals=data["goals"],
            count=data["count"],
            decks=pb.CartaDecks(**data["decks"]),
            luck_bottom=[pb.CartaCards(cards=faces) for faces in data["luck_bottom"]],
            pile=data["pile"],
            played=data["played"],
            hand_cards=data.get("hand_cards", ()),
        )
        _set_if_seat(message.coin, "winner", coin["winner"])
        _set_if_seat(message, "starter", data["starter"])
        _set_if_seat(message, "ball", data["ball"])
        if data["phase"] != "over":
            message.actor = data["actor"]
        if "pending" in data:
            message.pending.CopyFrom(pb.CartaPending(**data["pending"]))
        if "offside" in data:
            message.offside.CopyFrom(pb.CartaOffside(**data["offside"]))
        if "shootout" in data:
            message.shootout.CopyFrom(pb.CartaShootout(**data["shootout"]))
        return move_pb2.View(carta=message)

    def event_to_proto(self, event: Any) -> move_pb2.GameEvent | None:
        if event.kind == "game_ended":
            return None  # the room's GameEnded says it, with the outcome
        data = dict(event.data)
        message = pb.CartaEvent(kind=event.kind, cards=event.cards, private_cards=event.private, count=event.count)
        _set_if_seat(message, "seat", event.seat)
        _set_if_seat(message, "target", event.target)
        for name in _EVENT_SCALARS:
            if name in data:
                setattr(message, name, data[name])
        for name in _EVENT_LISTS:
            if name in data:
                getattr(message, name).extend(data[name])
        for name in _EVENT_OPTIONAL:
            if name in data:
                _set_if_seat(message, name, data[name])
        return move_pb2.GameEvent(carta=message)
