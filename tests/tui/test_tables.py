"""How the tables draw moves, views, events and outcomes (terminal/tables.py), from contract messages alone."""

from __future__ import annotations

import re

import pytest
from google.protobuf import struct_pb2

from kickoff.v1 import common_pb2, move_pb2
from terminal.app import parse_options, seat_counts
from terminal.tables import (
    AgeOfSoccerTable,
    CartaTable,
    SeatBook,
    move_label,
    outcome_lines,
    room_event_text,
    view_parts,
)

BOT = common_pb2.SEAT_KIND_SYSTEM
PERSON = common_pb2.SEAT_KIND_PERSON


def book(viewer: int | None = 0, *, teams: bool = False) -> SeatBook:
    return SeatBook(
        [
            common_pb2.Seat(seat=0, kind=PERSON, taken=True, name="Ana", team=0),
            common_pb2.Seat(seat=1, kind=BOT, taken=True, name="heuristic bot", team=1),
            common_pb2.Seat(seat=2, kind=BOT, taken=True, name="heuristic bot", team=0 if teams else 2),
        ],
        viewer,
    )


@pytest.mark.parametrize(
    ("move", "label"),
    [
        (move_pb2.Move(soker={"play": {"cards": ["JUV-GKP"]}}), "play JUV-GKP"),
        (move_pb2.Move(soker={"play": {"cards": ["JUV-GKP", "JUV-DEF"]}}), "play JUV-GKP JUV-DEF"),
        (move_pb2.Move(soker={"draw": {}}), "draw"),
        (move_pb2.Move(soker={"end_turn": {}}), "end turn"),
        (move_pb2.Move(carta={"play": {"card": "B-PI-6"}}), "play B-PI-6"),
        (move_pb2.Move(carta={"play": {"card": "B-JOKER-10", "action": "shot"}}), "play B-JOKER-10 shot"),
        (move_pb2.Move(carta={"call": {"side": "heads"}}), "call heads"),
        (move_pb2.Move(carta={"decline": {}}), "decline"),
        (move_pb2.Move(age_of_soccer={"pick": {"player": True}}), "pick a player card"),
        (move_pb2.Move(age_of_soccer={"pick": {}}), "pick two action cards"),
        (
            move_pb2.Move(age_of_soccer={"play": {"card": "AGENT-VIK", "target": 2, "positions": [2, 1]}}),
            "play AGENT-VIK target=2 positions=2,1",
        ),
        (move_pb2.Move(age_of_soccer={"challenge": {"target": 1, "cup_run": True}}), "challenge target=1 cup run"),
        (move_pb2.Move(generic={"wire": "attack ATK"}), "attack ATK"),
    ],
)
def test_a_move_is_labelled_by_its_message(move: move_pb2.Move, label: str) -> None:
    assert move_label(move) == label


def test_a_generic_view_is_drawn_as_key_value_lines_with_the_hand_apart() -> None:
    data = struct_pb2.Struct()
    data.update({"score": [1, 2], "deck_size": 7, "hand": ["ATK", "DEF"], "current": 1})
    renderer, view = view_parts(move_pb2.View(generic={"data": data}))
    assert renderer.game == "generic"
    assert renderer.state_lines(view, book()) == ["current: 1", "deck_size: 7", "score: 1,2"]
    assert renderer.hand_text(view) == "ATK,DEF"
    assert renderer.seat_lines(view, book(teams=True), to_act=[1]) == [
        "  0 Ana (you)  team 0",
        "> 1 heuristic bot 1  team 1",
        "  2 heuristic bot 2  team 0",
    ], "twin names are told apart by their seats; teams are shown where the game has them"


def test_a_soker_view_shows_the_hand_and_only_counts_of_the_others() -> None:
    renderer, view = view_parts(
        move_pb2.View(
            soker={"hand": ["JUV-GKP"], "hand_sizes": [1, 4, 2], "top_card": "RED-1", "current": 1, "points": [3, 0, 1]}
        )
    )
    lines = renderer.seat_lines(view, book(), to_act=[1])
    assert "Ana (you)" in lines[0] and " 1 cards " in lines[0] and "3 pts" in lines[0]
    assert lines[1].startswith("> 1 heuristic bot 1") and " 4 cards" in lines[1]
    assert "team" not in "".join(lines), "Soker has no teams"
    assert renderer.hand_text(view) == "JUV-GKP"
    assert renderer.state_lines(view, book())[-1] == "Turn: heuristic bot 1"


def test_a_players_rating_is_shown_beside_their_name_and_only_theirs() -> None:
    seats = SeatBook(
        [
            common_pb2.Seat(seat=0, kind=PERSON, taken=True, name="Ana", team=0, player_id="p-ana"),
            common_pb2.Seat(seat=1, kind=PERSON, taken=True, name="Bo Longname-Longername", team=1, player_id="p-bo"),
            common_pb2.Seat(seat=2, kind=PERSON, taken=True, name="Cy", team=2),  # anonymous: no player
            common_pb2.Seat(seat=3, kind=PERSON, taken=True, name="Di", team=3, player_id="p-di"),  # not known yet
        ],
        viewer=0,
    )
    seats.ratings.update({"p-ana": "12.3", "p-bo": "-1.5", "p-cy": "99.0"})
    assert [seats.rating(seat) for seat in range(4)] == ["[12.3]", "[-1.5]", "", ""]
    assert seats.label(0) == "Ana (you) [12.3]" and seats.label(2) == "Cy" and seats.label(3) == "Di"
    assert seats.label(1, 18) == "Bo Longname [-1.5]", "the name gives way, not the rating"
    assert seats.label(2, 18) == "Cy".ljust(18)
    renderer, view = view_parts(move_pb2.View(soker={"hand_sizes": [1, 4, 2, 3], "points": [3, 0, 1, 0]}))
    lines = renderer.seat_lines(view, seats, to_act=[0])
    assert lines[0].startswith("> 0 Ana (you) [12.3]") and " 1 cards " in lines[0]
    assert "[" not in lines[2] and "[" not in lines[3]
    assert len({line.index(" cards") for line in lines}) == 1, "the columns stay aligned"


def test_events_are_one_line_each() -> None:
    seats = book()
    event = move_pb2.RoomEvent(game={"soker": {"drew": {"seat": 0, "count": 1, "card": "JUV-GKP", "cause": "table"}}})
    assert room_event_text(event, seats) == "you drew JUV-GKP (the clock ran out)"
    event = move_pb2.RoomEvent(game={"carta": {"kind": "goal", "team": 1, "goals": [0, 2], "seat": 1}})
    assert room_event_text(event, seats) == "GOAL for team 1! 0-2"
    event = move_pb2.RoomEvent(game={"age_of_soccer": {"kind": "challenged", "seat": 1, "target": 0}})
    assert room_event_text(event, seats) == "heuristic bot 1 challenged you"
    data = struct_pb2.Struct()
    data.update({"type": "scored", "seat": -1, "team": 1})
    assert room_event_text(move_pb2.RoomEvent(game={"generic": {"data": data}}), seats) == "the table scored team=1"
    joined = move_pb2.RoomEvent(seat_taken={"seat": {"seat": 2, "name": "Cy", "taken": True}})
    assert room_event_text(joined, seats) == "Cy took seat 2" and seats.name(2) == "Cy"


def test_event_lines_read_as_english_whoever_acts() -> None:
    seats = book()
    skipped = {(0,): "you skip", (1,): "heuristic bot 1 skips", (1, 2): "heuristic bot 1, heuristic bot 2 skip"}
    for who, words in skipped.items():
        event = move_pb2.RoomEvent(game={"soker": {"skipped": {"seats": list(who), "cause": "link"}}})
        assert room_event_text(event, seats) == f"{words} a turn (link)"
    # Every phrase of the games with phrases, said of "you": no verb agrees with a third person.
    for renderer in (AgeOfSoccerTable(), CartaTable()):
        field = "age_of_soccer" if renderer.game == "age_of_soccer" else "carta"
        for kind in renderer.PHRASES:
            text = room_event_text(move_pb2.RoomEvent(game={field: {"kind": kind, "seat": 0}}), seats)
            assert not re.search(r"\byou (is|has|\w*[^s\W]s)\b", text), text


def test_the_outcome_names_the_winners_by_seat() -> None:
    won, lost = common_pb2.SEAT_RESULT_WON, common_pb2.SEAT_RESULT_LOST
    outcome = common_pb2.Outcome(winners=[1], reason="one_country", points=[0, 5, 1], results=[lost, won, lost])
    lines = outcome_lines(outcome, book())
    assert lines[:3] == ["You lost.", "Winners: heuristic bot 1 (seat 1)", "Reason: one country"]
    mine = common_pb2.Outcome(winners=[0], reason="empty_hand", results=[won, lost, lost])
    assert outcome_lines(mine, book())[0] == "You won!"
    assert outcome_lines(outcome, book(viewer=None))[0] == "Game over."


def test_each_seat_is_told_the_result_the_server_gives_not_one_read_from_the_winners() -> None:
    """Every seat a winner (Age of Soccer's turn limit with the shields level) is a draw, to the seats and to anyone
    watching; two winners who are not one team share the win; the feed's last line says the same."""
    drawn, shared, lost = common_pb2.SEAT_RESULT_DRAWN, common_pb2.SEAT_RESULT_SHARED_WIN, common_pb2.SEAT_RESULT_LOST
    level = common_pb2.Outcome(winners=[0, 1, 2], reason="rounds", points=[0, 0, 0], results=[drawn] * 3)
    assert outcome_lines(level, book())[0] == "A draw: every seat finished level."
    assert outcome_lines(level, book(viewer=None))[0] == "A draw: every seat finished level."
    nobody = common_pb2.Outcome(reason="stalemate", points=[3, 4, 5], results=[drawn] * 3)
    assert outcome_lines(nobody, book())[0] == "A draw: nobody won."
    ended = move_pb2.RoomEvent(game_ended=move_pb2.GameEnded(outcome=level))
    assert room_event_text(ended, book()) == "game over (rounds): a draw"
    tied = common_pb2.Outcome(winners=[0, 2], reason="rounds", points=[1, 0, 1], results=[shared, lost, shared])
    assert outcome_lines(tied, book())[0] == "Shared win: you (seat 0), heuristic bot 2 (seat 2)"
    assert outcome_lines(tied, book(viewer=None))[0] == "Shared win: Ana (seat 0), heuristic bot 2 (seat 2)"
    ended = move_pb2.RoomEvent(game_ended=move_pb2.GameEnded(outcome=tied))
    assert room_event_text(ended, book()) == "game over (rounds): a shared win for you, heuristic bot 2"
    seats = book()
    seats.results = tuple(tied.results)
    assert [seats.mark(seat) for seat in range(3)] == ["  shared win", "", "  shared win"]


def test_options_are_typed_as_name_value_pairs() -> None:
    assert parse_options("max_rounds=2, turn_seconds=30 extra_time=true name=x") == {
        "max_rounds": 2,
        "turn_seconds": 30,
        "extra_time": True,
        "name": "x",
    }
    assert parse_options("") == {}
    with pytest.raises(ValueError, match="name=value"):
        parse_options("max_rounds")
    assert seat_counts([2, 3, 4, 5]) == "2-5 seats" and seat_counts([2, 4, 6]) == "2/4/6 seats"


def test_a_stand_in_is_told_in_the_feed_and_marked_on_the_seat() -> None:
    people = [common_pb2.Seat(seat=0, name="ann", taken=True), common_pb2.Seat(seat=1, name="bo", taken=True)]
    book = SeatBook(people, viewer=1)
    began, ended = (move_pb2.RoomEvent(stand_in=move_pb2.StandIn(seat=s, level=v)) for s, v in ((0, "normal"), (0, "")))
    assert room_event_text(began, book) == "a normal system player stands in for ann"
    assert book.title(0) == "ann (normal stand-in)" and book.title(1) == "bo (you)"
    assert room_event_text(ended, book) == "ann is back" and book.title(0) == "ann"
    mine = move_pb2.RoomEvent(stand_in=move_pb2.StandIn(seat=1, level="normal"))
    assert room_event_text(mine, book).endswith("stands in for you: your next move takes your seat back")
