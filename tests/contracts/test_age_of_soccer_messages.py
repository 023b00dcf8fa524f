"""Age of Soccer's own messages: every legal move survives the trip through its message and back, every view and
event becomes its message with nothing dropped, and a malformed message is refused with a reason."""

from __future__ import annotations

import random
from itertools import chain

import pytest

from engine.age_of_soccer import AGE_OF_SOCCER
from engine.core import MalformedMove
from kickoff.v1 import age_of_soccer_pb2 as pb
from kickoff.v1 import move_pb2
from service.grpc.codecs import codec_of
from tests.engine.age_of_soccer.position import position

CODEC = codec_of(AGE_OF_SOCCER)


def random_games(count: int):
    """(state, events of the last move) at every step of seeded random games at 2-7 seats."""
    for seed in range(count):
        chooser = random.Random(seed)
        state = AGE_OF_SOCCER.new_game(2 + seed % 6, {"max_rounds": 3}, seed)
        events: list = []
        while acting := state.to_act():
            yield state, events
            seat = chooser.choice(acting)
            events = state.apply(seat, chooser.choice(state.legal_moves(seat)))
        yield state, events


def test_every_legal_move_round_trips_through_its_message() -> None:
    kinds = set()
    over_the_limit = position(hands={0: "SHOOT SHOOT SAVE SAVE OFFSIDE EAGLE BUS RED"}, phase="discard")
    for state, _ in chain(random_games(30), [(over_the_limit, [])]):  # (random play seldom holds eight)
        for seat in state.to_act():
            for move in state.legal_moves(seat):
                message = CODEC.move_to_proto(move)
                wire = move_pb2.Move.FromString(message.SerializeToString())
                assert CODEC.move_from_proto(wire) == move, move.to_wire()
                kinds.add(wire.age_of_soccer.WhichOneof("kind"))
    assert kinds == {field.name for field in pb.AgeOfSoccerMove.DESCRIPTOR.oneofs_by_name["kind"].fields}, (
        "every kind seen"
    )


def test_every_view_and_event_becomes_its_message_and_private_cards_reach_only_their_seats() -> None:
    private_seen = 0
    for state, events in random_games(12):
        for viewer in [None, *range(state.seats)]:
            view = CODEC.view_to_proto(state.view(viewer)).age_of_soccer
            data = state.view(viewer).to_json()
            assert [seat.team for seat in view.seats] == [seat["team"] for seat in data["seats"]]
            assert view.phase == data["phase"] and view.HasField("hand") == (viewer is not None)
            assert view.HasField("window") == ("window" in data)
            for event in events:
                message = CODEC.event_to_proto(event.for_viewer(viewer))
                if message is None:
                    assert event.kind == "game_ended"
                    continue
                shown = list(message.age_of_soccer.private_cards)
                if event.private and viewer in (event.seat, event.other):
                    assert shown == list(event.private)
                    private_seen += 1
                else:
                    assert shown == []
                assert message.age_of_soccer.kind == event.kind
    assert private_seen > 100


def test_the_text_form_is_taken_too_and_a_message_for_another_game_is_refused() -> None:
    move = CODEC.move_from_proto(move_pb2.Move(generic=move_pb2.GenericMove(wire="play agent-vik 2 1")))
    assert move.to_wire() == "play AGENT-VIK 2 1"
    with pytest.raises(MalformedMove, match="this room plays age-of-soccer; the move is for soker"):
        CODEC.move_from_proto(move_pb2.Move(soker={"draw": {}}))


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        (pb.AgeOfSoccerMove(), "needs one of its kinds"),
        (pb.AgeOfSoccerMove(shoot=pb.AgeOfSoccerShoot()), "'shoot' needs its card"),
        (pb.AgeOfSoccerMove(play=pb.AgeOfSoccerPlay()), "'play' needs its card"),
        (pb.AgeOfSoccerMove(trade=pb.AgeOfSoccerTrade()), "a trade needs"),
        (pb.AgeOfSoccerMove(challenge=pb.AgeOfSoccerChallenge(target=1, eagle_eyes=9)), "eagle_eyes must be 0-4"),
    ],
)
def test_a_malformed_message_is_refused_with_its_reason(message: pb.AgeOfSoccerMove, reason: str) -> None:
    with pytest.raises(MalformedMove, match=reason):
        CODEC.move_from_proto(move_pb2.Move(age_of_soccer=message))
