"""Age of Soccer moves, views and events <-> their proto messages. Each message move is turned into the game's text
move, which the engine reads and judges (the text form travels in Move.generic too)."""

from __future__ import annotations

from typing import Any

from engine.age_of_soccer import AGE_OF_SOCCER
from engine.age_of_soccer.cards import PLAYER_BY_CODE
from engine.age_of_soccer.rules import AosMove, AosView
from engine.core import MalformedMove
from kickoff.v1 import age_of_soccer_pb2 as pb
from kickoff.v1 import move_pb2
from service.grpc.generic_codec import Codec

# Moves without arguments: the proto field -> the text move, and back.
_BARE = {
    "pass": "pass",
    "end_turn": "end",
    "eagle_eye": "eagle",
    "cup_run": "cuprun",
    "park_the_bus": "bus",
    "stop": "stop",
}
_BARE_FIELD = {wire: field for field, wire in _BARE.items()}
_BARE_MESSAGE = {
    "pass": pb.AgeOfSoccerPass,
    "end_turn": pb.AgeOfSoccerEndTurn,
    "eagle_eye": pb.AgeOfSoccerEagleEye,
    "cup_run": pb.AgeOfSoccerCupRun,
    "park_the_bus": pb.AgeOfSoccerParkTheBus,
    "stop": pb.AgeOfSoccerStop,
}
# Moves with one card: the proto field -> (the text move, the message's field).
_ONE_CARD = {
    "board": ("board", "player"),
    "bench": ("bench", "player"),
    "discard": ("discard", "card"),
    "draft": ("draft", "player"),
    "shoot": ("shoot", "card"),
    "answer": ("answer", "card"),
}
_ONE_CARD_MESSAGE = {
    "board": pb.AgeOfSoccerBoard,
    "bench": pb.AgeOfSoccerBench,
    "discard": pb.AgeOfSoccerDiscard,
    "draft": pb.AgeOfSoccerDraft,
    "shoot": pb.AgeOfSoccerShoot,
    "answer": pb.AgeOfSoccerAnswer,
}
_EVENT_NUMBERS = ("attack", "defence")


def _text(move: pb.AgeOfSoccerMove) -> str:
    """The text move a message stands for (the engine judges it)."""
    kind = move.WhichOneof("kind")
    if kind is None:
        raise MalformedMove("an Age of Soccer move needs one of its kinds (pick, trade, play, ...)")
    if kind in _BARE:
        return _BARE[kind]
    if kind in _ONE_CARD:
        wire, field = _ONE_CARD[kind]
        value = getattr(getattr(move, kind), field)
        if not value:
            raise MalformedMove(f"'{kind}' needs its {field}")
        return f"{wire} {value}"
    if kind == "pick":
        return "pick player" if move.pick.player else "pick actions"
    if kind == "trade":
        if not move.trade.cards:
            raise MalformedMove("a trade needs three action cards or one player card")
        return "trade " + " ".join(move.trade.cards)
    if kind == "challenge":
        challenge = move.challenge
        if challenge.eagle_eyes < 0 or challenge.eagle_eyes > 4:
            raise MalformedMove("eagle_eyes must be 0-4")
        words = ["challenge", str(challenge.target), *(["EAGLE"] * challenge.eagle_eyes)]
        if challenge.cup_run:
            words.append("CUPRUN")
        return " ".join(words)
    play = move.play  # kind == "play"
    if not play.card:
        raise MalformedMove("'play' needs its card")
    words = ["play", play.card]
    if play.HasField("target"):
        words.append(str(play.target))
    words.extend(str(position) for position in play.positions)
    if play.player:
        words.append(play.player)
    if play.HasField("recipient"):
        words.append(str(play.recipient))
    return " ".join(words)


def _message(move: AosMove) -> pb.AgeOfSoccerMove:
    kind, args = move.kind, move.args
    if kind in _BARE_FIELD:
        field = _BARE_FIELD[kind]
        return pb.AgeOfSoccerMove(**{field: _BARE_MESSAGE[field]()})
    if kind in _ONE_CARD:
        field = _ONE_CARD[kind][1]
        return pb.AgeOfSoccerMove(**{kind: _ONE_CARD_MESSAGE[kind](**{field: args[0]})})
    if kind == "pick":
        return pb.AgeOfSoccerMove(pick=pb.AgeOfSoccerPick(player=args[0] == "PLAYER"))
    if kind == "trade":
        return pb.AgeOfSoccerMove(trade=pb.AgeOfSoccerTrade(cards=args))
    if kind == "challenge":
        return pb.AgeOfSoccerMove(
            challenge=pb.AgeOfSoccerChallenge(
                target=int(args[0]), eagle_eyes=args.count("EAGLE"), cup_run="CUPRUN" in args
            )
        )
    if kind == "play":
        play = pb.AgeOfSoccerPlay(card=args[0])
        rest = list(args[1:])
        if rest:
            play.target = int(rest.pop(0))
        if rest and rest[0] in PLAYER_BY_CODE:
            play.player = rest.pop(0)
            if rest:
                play.recipient = int(rest.pop(0))
        play.positions.extend(int(position) for position in rest)
        return pb.AgeOfSoccerMove(play=play)
    raise ValueError(f"no message for the move {move.to_wire()!r}")  # the table's timeout is never sent


class AgeOfSoccerCodec(Codec):
    face_field = "age_of_soccer"
    face_message = pb.AgeOfSoccerCardFace

    def __init__(self) -> None:
        super().__init__(AGE_OF_SOCCER)
        self._move_protos: dict[AosMove, move_pb2.Move] = {}  # moves repeat: build each one's message once

    def move_from_proto(self, move: move_pb2.Move) -> AosMove:
        if move.WhichOneof("game") != "age_of_soccer":
            return super().move_from_proto(move)
        return AGE_OF_SOCCER.move_from_wire(_text(move.age_of_soccer))

    def move_to_proto(self, move: AosMove) -> move_pb2.Move:
        message = self._move_protos.get(move)
        if message is None:
            if len(self._move_protos) > 65_536:  # a bound: the moves of a game are many but finite
                self._move_protos.clear()
            message = self._move_protos[move] = move_pb2.Move(age_of_soccer=_message(move))
        return message

    def view_to_proto(self, view: AosView) -> move_pb2.View:
        data = dict(view.to_json())
        data.pop("viewer", None)
        data.pop("outcome", None)  # the room's GameEnded and Room.outcome say it
        message = pb.AgeOfSoccerView(
            seats=[pb.AgeOfSoccerSeat(**seat) for seat in data.pop("seats")],
            hand=pb.AgeOfSoccerHand(**data.pop("hand")) if "hand" in data else None,
            challenge=pb.AgeOfSoccerChallengeState(**data.pop("challenge")) if "challenge" in data else None,
            match=pb.AgeOfSoccerMatch(**data.pop("match")) if "match" in data else None,
            shot=pb.AgeOfSoccerShot(**data.pop("shot")) if "shot" in data else None,
            window=pb.AgeOfSoccerWindow(**data.pop("window")) if "window" in data else None,
            draft=pb.AgeOfSoccerDraftState(**data.pop("draft")) if "draft" in data else None,
            **data,
        )
        return move_pb2.View(age_of_soccer=message)

    def event_to_proto(self, event: Any) -> move_pb2.GameEvent | None:
        if event.kind == "game_ended":
            return None  # the room's GameEnded says it, with the outcome
        data = dict(event.data)
        message = pb.AgeOfSoccerEvent(
            kind=event.kind,
            cards=event.cards,
            private_cards=event.private,
            count=event.count,
            activated=bool(data.get("activated", False)),
            deck=data.get("deck", ""),
            cause=data.get("cause", ""),
        )
        for name, value in (("seat", event.seat), ("target", event.target), ("other", event.other)):
            if value >= 0:
                setattr(message, name, value)
        for name in _EVENT_NUMBERS:
            if name in data:
                setattr(message, name, data[name])
        return move_pb2.GameEvent(age_of_soccer=message)
