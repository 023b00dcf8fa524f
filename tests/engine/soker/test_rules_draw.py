"""Pass and draw: exactly one card, then play or end; the reshuffle that keeps the top card; nothing left to draw."""

from __future__ import annotations

from engine.soker.cards import BY_CODE, CODES
from engine.soker.rules import Drew, Reshuffled, SokerMove, TurnBegan, TurnEnded
from tests.engine.soker.position import hand_of, position, refusal

DRAW, END = SokerMove("draw"), SokerMove("end")


def test_a_draw_takes_exactly_the_decks_next_card_and_the_turn_goes_on() -> None:
    state = position(["JUV-GKP BVB-DEF", "ARS-MID"], top="INT-FRW", deck="LIV-DEF MUN-GKP")
    events = state.apply(0, DRAW)
    assert events == [Drew(0, 1, BY_CODE["LIV-DEF"], "draw")]
    assert hand_of(state, 0) == {"JUV-GKP", "BVB-DEF", "LIV-DEF"}
    assert state.view(None).deck_size == 1
    assert state.to_act() == (0,)
    assert set(state.legal_moves(0)) == {END, SokerMove.play("JUV-GKP")}


def test_drawing_twice_is_refused() -> None:
    state = position(["BVB-DEF", "ARS-MID"], top="INT-FRW", deck="LIV-DEF MUN-GKP")
    state.apply(0, DRAW)
    assert refusal(state, 0, DRAW) == "already_drew"
    assert hand_of(state, 0) == {"BVB-DEF", "LIV-DEF"}


def test_ending_the_turn_without_drawing_is_refused() -> None:
    state = position(["BVB-DEF", "ARS-MID"], top="INT-FRW", deck="LIV-DEF")
    assert END not in state.legal_moves(0)
    assert refusal(state, 0, END) == "must_draw_first"


def test_ending_the_turn_after_drawing_passes_to_the_next_seat() -> None:
    state = position(["BVB-DEF", "ARS-MID", "RMA-GKP"], top="INT-FRW", deck="LIV-DEF MUN-GKP")
    state.apply(0, DRAW)
    events = state.apply(0, END)
    assert events == [TurnEnded(0, False), TurnBegan(1)]
    assert state.to_act() == (1,)
    assert DRAW in state.legal_moves(1) and END not in state.legal_moves(1)
    assert hand_of(state, 0) == {"BVB-DEF", "LIV-DEF"}


def test_drawing_is_allowed_with_a_legal_card_in_hand() -> None:
    state = position(["JUV-GKP", "ARS-MID"], top="INT-FRW", deck="LIV-DEF")
    assert {DRAW, SokerMove.play("JUV-GKP")} <= set(state.legal_moves(0))
    state.apply(0, DRAW)
    assert hand_of(state, 0) == {"JUV-GKP", "LIV-DEF"}


def test_after_drawing_any_legal_card_in_hand_may_be_played_not_only_the_drawn_one() -> None:
    state = position(["JUV-GKP BVB-DEF", "ARS-MID"], top="INT-FRW", deck="LIV-DEF")
    state.apply(0, DRAW)
    events = state.apply(0, SokerMove.play("JUV-GKP"))
    assert events[-1] == TurnBegan(1)
    assert hand_of(state, 0) == {"BVB-DEF", "LIV-DEF"}


def test_after_drawing_the_drawn_card_may_be_played_when_legal() -> None:
    state = position(["BVB-DEF HSV-GKP", "ARS-MID"], top="INT-FRW", deck="MIL-MID")
    state.apply(0, DRAW)
    assert SokerMove.play("MIL-MID") in state.legal_moves(0)
    state.apply(0, SokerMove.play("MIL-MID"))
    assert state.view(None).to_json()["top"] == "MIL-MID"


def test_an_empty_deck_is_refilled_from_the_discard_and_the_top_card_stays() -> None:
    state = position(["BVB-DEF", "ARS-MID"], top="INT-FRW", discard="LIV-GKP MUN-DEF RMA-MID")
    events = state.apply(0, DRAW)
    assert events[0] == Reshuffled(3)  # the three cards under the top make the new deck
    drawn = events[1]
    assert drawn.seat == 0 and drawn.count == 1 and drawn.cause == "draw"
    assert CODES[drawn.card] in {"LIV-GKP", "MUN-DEF", "RMA-MID"}
    assert hand_of(state, 0) == {"BVB-DEF", CODES[drawn.card]}
    view = state.view(None)
    assert view.to_json()["top"] == "INT-FRW"
    assert (view.deck_size, view.discard_size) == (2, 1)
    places = state.locations()
    assert places["discard"] == ["INT-FRW"]
    assert {*places["deck"], CODES[drawn.card]} == {"LIV-GKP", "MUN-DEF", "RMA-MID"}


def test_the_reshuffle_follows_the_seed() -> None:
    def drawn(seed: int) -> list[str]:
        state = position(["BVB-DEF", "ARS-MID"], top="INT-FRW", discard="LIV-GKP MUN-DEF RMA-MID", seed=seed)
        state.apply(0, DRAW)
        return state.locations()["hand:0"] + state.locations()["deck"]

    assert drawn(3) == drawn(3)
    assert len({tuple(drawn(seed)) for seed in range(10)}) > 1


def test_with_nothing_to_draw_a_draw_takes_nothing_and_the_player_may_only_play_or_end() -> None:
    state = position(["JUV-GKP BVB-DEF", "ARS-MID"], top="INT-FRW")
    assert DRAW in state.legal_moves(0)
    events = state.apply(0, DRAW)
    assert events == [Drew(0, 0, None, "draw")]
    assert hand_of(state, 0) == {"JUV-GKP", "BVB-DEF"}
    assert set(state.legal_moves(0)) == {END, SokerMove.play("JUV-GKP")}
    assert refusal(state, 0, DRAW) == "already_drew"
    state.apply(0, END)
    assert state.to_act() == (1,)
