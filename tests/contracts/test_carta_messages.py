"""Carta Fútbol Club's own messages: every legal move survives the trip through its message and back, every view
and event becomes its message with nothing dropped, a face-down card reaches no viewer, and a malformed message is
refused with a reason."""

from __future__ import annotations

import random

import pytest
from google.protobuf import json_format

from engine.carta import CARTA
from engine.core import MalformedMove
from kickoff.v1 import carta_pb2 as pb
from kickoff.v1 import move_pb2
from service.grpc.codecs import codec_of
from tests.engine.carta.position import play, position

CODEC = codec_of(CARTA)
OPTIONS = {"extra_time": True, "penalties": True}


def random_games(count: int):
    """(state, events of the last move) at every step of seeded random matches at 2, 4 and 6 seats, with extra time
    and penalties on (a quarter of the moves are the clock's)."""
    for seed in range(count):
        chooser = random.Random(seed)
        state = CARTA.new_game((2, 4, 6)[seed % 3], OPTIONS, seed)
        events: list = []
        while acting := state.to_act():
            yield state, events
            seat = acting[0]
            if chooser.random() < 0.25:
                events = state.apply(seat, state.timeout_move(seat))
            else:
                events = state.apply(seat, chooser.choice(state.legal_moves(seat)))
        yield state, events


def as_dict(message) -> dict:
    return json_format.MessageToDict(message, preserving_proto_field_name=True)


def test_every_legal_move_round_trips_through_its_message() -> None:
    kinds = set()
    for state, _ in random_games(12):
        for seat in state.to_act():
            for move in state.legal_moves(seat):
                message = CODEC.move_to_proto(move)
                wire = move_pb2.Move.FromString(message.SerializeToString())
                assert CODEC.move_from_proto(wire) == move, move.to_wire()
                kinds.add(wire.carta.WhichOneof("kind"))
    assert kinds == {field.name for field in pb.CartaMove.DESCRIPTOR.oneofs_by_name["kind"].fields}


def test_every_view_becomes_its_message_with_nothing_dropped() -> None:
    fields = {field.name for field in pb.CartaView.DESCRIPTOR.fields}
    phases = set()
    for state, _ in random_games(9):
        for viewer in [None, *range(state.seats)]:
            data = state.view(viewer).to_json()
            view = CODEC.view_to_proto(state.view(viewer)).carta
            assert set(data) - {"viewer", "outcome"} <= fields  # every key has its field
            phases.add(view.phase)
            assert view.phase == data["phase"] and list(view.goals) == data["goals"]
            assert [(s.seat, s.team, s.cards) for s in view.seats] == [
                (s["seat"], s["team"], s["cards"]) for s in data["seats"]
            ]
            assert list(view.hand_cards) == data.get("hand_cards", [])
            assert [list(deck.cards) for deck in view.luck_bottom] == data["luck_bottom"]
            assert as_dict(view.decks) == {key: value for key, value in data["decks"].items() if value}
            for name in ("starter", "ball"):
                assert (getattr(view, name) if view.HasField(name) else -1) == data[name]
            assert view.HasField("actor") == (data["phase"] != "over")
            for name in ("pending", "offside", "shootout"):
                assert view.HasField(name) == (name in data)
                if name in data:
                    expected = {key: value for key, value in data[name].items() if value not in (0, "", False, [])}
                    assert as_dict(getattr(view, name)) == expected
    assert phases == {"toss", "choice", "play", "siga", "shootout", "over"} | ({"deck"} & phases)


def test_every_event_becomes_its_message_and_dealt_cards_reach_only_their_seat() -> None:
    fields = {field.name for field in pb.CartaEvent.DESCRIPTOR.fields}
    private_seen = kinds = 0
    seen: set[str] = set()
    for state, events in random_games(9):
        for viewer in [None, *range(state.seats)]:
            for event in events:
                message = CODEC.event_to_proto(event.for_viewer(viewer))
                if message is None:
                    assert event.kind == "game_ended"
                    continue
                carta = message.carta
                assert carta.kind == event.kind and list(carta.cards) == list(event.cards)
                seen.add(event.kind)
                for key, value in event.data:
                    assert key in fields, f"{event.kind}: {key} has no field"
                    got = getattr(carta, key)
                    assert (list(got) if isinstance(value, list) else got) == value, (event.kind, key)
                if event.private and viewer == event.seat:
                    assert list(carta.private_cards) == list(event.private)
                    private_seen += 1
                else:
                    assert list(carta.private_cards) == []
                kinds += 1
    assert private_seen > 100 and kinds > 1000
    assert {"toss", "chose", "kick_off", "dealt", "played", "laid_down", "foul", "goal", "kick"} <= seen


def test_a_face_down_card_is_in_no_viewers_message() -> None:
    state = position(hands={0: "PI-6 DT-8", 1: "PI-7"}, actor=0)
    events = play(state, 0, "down PI-6")
    for viewer in (None, 0, 1):
        for event in events:
            message = CODEC.event_to_proto(event.for_viewer(viewer))
            assert "PI-6" not in str(message)
        view = CODEC.view_to_proto(state.view(viewer)).carta
        assert view.pending.down and view.pending.card == "" and view.pending.value == 0
        assert ("B-PI-6" in str(view)) is False


def test_the_text_form_is_taken_too_and_a_message_for_another_game_is_refused() -> None:
    move = CODEC.move_from_proto(move_pb2.Move(generic=move_pb2.GenericMove(wire="play b-joker-10 Shot")))
    assert move.to_wire() == "play B-JOKER-10 shot"
    message = move_pb2.Move(carta=pb.CartaMove(play=pb.CartaPlay(card="b-joker-10", action="shot")))
    assert CODEC.move_from_proto(message) == move
    with pytest.raises(MalformedMove, match="this room plays carta-futbol-club; the move is for soker"):
        CODEC.move_from_proto(move_pb2.Move(soker={"draw": {}}))


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        (pb.CartaMove(), "needs one of its kinds"),
        (pb.CartaMove(call=pb.CartaCall()), "'call' needs its side"),
        (pb.CartaMove(choose=pb.CartaChoose()), "'choose' needs its choice"),
        (pb.CartaMove(play=pb.CartaPlay(action="shot")), "'play' needs its card"),
        (pb.CartaMove(down=pb.CartaDown()), "'down' needs its card"),
    ],
)
def test_a_malformed_message_is_refused_with_its_reason(message: pb.CartaMove, reason: str) -> None:
    with pytest.raises(MalformedMove, match=reason):
        CODEC.move_from_proto(move_pb2.Move(carta=message))
