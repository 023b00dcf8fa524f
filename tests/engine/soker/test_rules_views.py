"""Views: a seat sees its own hand and only the sizes of the others; a spectator sees no hand; nothing hidden leaks."""

from __future__ import annotations

import json

import pytest

from engine.soker.cards import CODES
from engine.soker.rules import SokerMove
from tests.engine.soker.position import cards, position

HANDS = ["JUV-GKP BVB-DEF JOKER-1", "MIL-MID LIV-FRW", "RMA-GKP YELLOW-2 ATM-DEF RED-1"]
DECK = "ARS-GKP MUN-DEF FCB-MID"


def a_table():
    return position(HANDS, top="INT-FRW", deck=DECK, discard="HSV-GKP")


def test_a_seat_sees_its_own_hand_and_the_sizes_of_the_others() -> None:
    state = a_table()
    view = state.view(1)
    assert view.hand == tuple(sorted(cards(HANDS[1])))
    assert view.hand_sizes == (3, 2, 4)
    assert view.to_json()["hand"] == [CODES[c] for c in sorted(cards(HANDS[1]))]
    assert (view.deck_size, view.discard_size, view.current) == (3, 2, 0)
    assert view.to_json()["top"] == "INT-FRW"


def test_a_spectator_sees_no_hand() -> None:
    view = a_table().view(None)
    assert view.hand is None
    assert "hand" not in view.to_json()
    assert view.hand_sizes == (3, 2, 4)


def hidden_codes(viewer: int | None) -> set[str]:
    others = [hand for seat, hand in enumerate(HANDS) if seat != viewer]
    return {code for text in [*others, DECK] for code in text.split()}


@pytest.mark.parametrize("viewer", [0, 1, 2, None])
def test_no_view_mentions_a_card_held_by_another_seat_or_in_the_deck(viewer: int | None) -> None:
    text = json.dumps(a_table().view(viewer).to_json())
    assert [code for code in hidden_codes(viewer) if code in text] == []


def test_after_a_draw_the_drawn_card_shows_only_in_the_drawers_view() -> None:
    state = a_table()
    state.apply(0, SokerMove("draw"))
    assert "ARS-GKP" in json.dumps(state.view(0).to_json())
    for viewer in (1, 2, None):
        assert "ARS-GKP" not in json.dumps(state.view(viewer).to_json())
    assert state.view(None).hand_sizes == (4, 2, 4)


def test_views_show_the_joker_on_top_and_the_club_it_stands_for() -> None:
    state = position(["JUV-DEF JOKER-3 LIV-MID", "ARS-MID", "RMA-GKP"], top="INT-FRW")
    state.apply(0, SokerMove.play("JUV-DEF", "JOKER-3"))
    data = state.view(1).to_json()
    assert (data["top"], data["joker_as_club"]) == ("JOKER-3", "JUV")
