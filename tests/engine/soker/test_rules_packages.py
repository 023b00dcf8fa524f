"""Same-club packages: when they are legal, what lies on top, a Joker joining as the club's card, and refusals."""

from __future__ import annotations

import pytest

from engine.soker.cards import BY_CODE, CODES
from engine.soker.rules import Played, Skipped, SokerMove, TurnBegan
from tests.engine.soker.position import hand_of, position, refusal, top_of


def test_a_package_with_one_legal_card_is_legal_and_its_last_card_lies_on_top() -> None:
    state = position(["BAY-DEF BAY-FRW LIV-MID", "ARS-MID", "RMA-GKP"], top="INT-FRW")
    events = state.apply(0, SokerMove.play("BAY-DEF", "BAY-FRW"))
    assert events[0] == Played(0, (BY_CODE["BAY-DEF"], BY_CODE["BAY-FRW"]), True, BY_CODE["BAY-FRW"])
    assert hand_of(state, 0) == {"LIV-MID"}
    assert top_of(state) == "BAY-FRW"


def test_the_order_given_is_kept_so_the_other_order_leaves_the_other_card_on_top() -> None:
    state = position(["BAY-DEF BAY-FRW LIV-MID", "ARS-MID", "RMA-GKP"], top="INT-FRW")
    events = state.apply(0, SokerMove.play("BAY-FRW", "BAY-DEF"))
    assert events[0].cards == (BY_CODE["BAY-FRW"], BY_CODE["BAY-DEF"])
    assert top_of(state) == "BAY-DEF"  # BAY-DEF alone would not have been legal on INT-FRW


def test_a_three_card_package_keeps_its_order() -> None:
    state = position(["JUV-MID JUV-GKP JUV-DEF LIV-MID", "ARS-MID", "RMA-GKP"], top="INT-FRW")
    events = state.apply(0, SokerMove.play("JUV-MID", "JUV-GKP", "JUV-DEF"))
    assert [CODES[c] for c in events[0].cards] == ["JUV-MID", "JUV-GKP", "JUV-DEF"]
    assert top_of(state) == "JUV-DEF"
    assert hand_of(state, 0) == {"LIV-MID"}


def test_a_package_with_no_legal_card_is_refused() -> None:
    state = position(["BAY-DEF BAY-MID LIV-MID", "ARS-MID"], top="INT-FRW")
    assert refusal(state, 0, SokerMove.play("BAY-DEF", "BAY-MID")) == "no_match"
    assert not any(len(m.cards) > 1 for m in state.legal_moves(0))


def test_a_package_ending_with_a_joker_leaves_the_joker_on_top_as_that_club() -> None:
    state = position(["JUV-DEF JOKER-1 LIV-MID", "ARS-MID", "RMA-GKP"], top="INT-FRW")
    events = state.apply(0, SokerMove.play("JUV-DEF", "JOKER-1"))
    assert events[0].link is True
    assert events[0].to_json()["joker_as_club"] == "JUV"
    assert top_of(state) == "JOKER as JUV"
    assert hand_of(state, 0) == {"LIV-MID"}


def test_on_a_joker_standing_for_juventus_an_italian_card_is_legal() -> None:
    state = position(["MIL-GKP BAY-FRW", "ARS-MID", "RMA-GKP"], top="JOKER-1", top_as_club="JUV")
    events = state.apply(0, SokerMove.play("MIL-GKP"))
    assert events[0].link is False
    assert state.to_act() == (1,)
    assert top_of(state) == "MIL-GKP"


def test_on_a_joker_standing_for_juventus_a_german_card_is_refused_and_there_is_no_free_play() -> None:
    state = position(["BAY-FRW BAY-GKP LIV-DEF YELLOW-1", "ARS-MID"], top="JOKER-1", top_as_club="JUV")
    assert refusal(state, 0, SokerMove.play("BAY-FRW")) == "no_match"
    assert refusal(state, 0, SokerMove.play("LIV-DEF")) == "no_match"
    assert set(state.legal_moves(0)) == {SokerMove("draw"), SokerMove.play("YELLOW-1")}


def test_on_a_joker_standing_for_juventus_a_special_is_legal() -> None:
    state = position(["BAY-FRW RED-1", "ARS-MID"], top="JOKER-1", top_as_club="JUV", deck="LIV-GKP")
    state.apply(0, SokerMove.play("RED-1"))
    assert top_of(state) == "RED-1"


def test_a_juventus_card_on_a_joker_standing_for_juventus_is_a_link() -> None:
    state = position(["JUV-MID LIV-DEF", "ARS-MID", "RMA-GKP"], top="JOKER-1", top_as_club="JUV")
    events = state.apply(0, SokerMove.play("JUV-MID"))
    assert events[0].link is True
    assert Skipped((1,), "link") in events
    assert state.to_act() == (2,)


def test_a_package_holding_a_joker_is_legal_even_when_no_player_card_in_it_matches() -> None:
    state = position(["BAY-DEF JOKER-2 LIV-MID", "ARS-MID", "RMA-GKP"], top="INT-FRW")
    assert SokerMove.play("BAY-DEF", "JOKER-2") in state.legal_moves(0)
    assert SokerMove.play("JOKER-2", "BAY-DEF") in state.legal_moves(0)
    state.apply(0, SokerMove.play("JOKER-2", "BAY-DEF"))
    assert top_of(state) == "BAY-DEF"
    assert state.to_act() == (2,)


@pytest.mark.parametrize("special", ["YELLOW-1", "RED-1"])
def test_yellow_or_red_never_join_a_package(special: str) -> None:
    state = position([f"JUV-GKP JUV-DEF {special}", "ARS-MID"], top="INT-FRW")
    assert refusal(state, 0, SokerMove.play("JUV-GKP", special)) == "special_in_package"
    assert refusal(state, 0, SokerMove.play(special, "JUV-GKP", "JUV-DEF")) == "special_in_package"
    assert not any(len(m.cards) > 1 and BY_CODE[special] in m.cards for m in state.legal_moves(0))


def test_a_package_of_two_clubs_is_refused_even_within_one_country() -> None:
    state = position(["JUV-GKP MIL-GKP JOKER-1", "ARS-MID"], top="INT-FRW")
    assert refusal(state, 0, SokerMove.play("JUV-GKP", "MIL-GKP")) == "mixed_clubs"
    assert refusal(state, 0, SokerMove.play("JUV-GKP", "JOKER-1", "MIL-GKP")) == "mixed_clubs"


def test_two_jokers_alone_are_no_package() -> None:
    state = position(["JOKER-1 JOKER-2 LIV-MID", "ARS-MID"], top="INT-FRW")
    assert refusal(state, 0, SokerMove.play("JOKER-1", "JOKER-2")) == "package_without_club"
    assert SokerMove.play("JOKER-1", "JOKER-2") not in state.legal_moves(0)


def test_a_package_with_a_card_not_in_hand_is_refused() -> None:
    state = position(["JUV-GKP LIV-MID", "JUV-DEF"], top="INT-FRW")
    assert refusal(state, 0, SokerMove.play("JUV-GKP", "JUV-DEF")) == "card_not_in_hand"
    assert refusal(state, 0, SokerMove.play("JUV-DEF")) == "card_not_in_hand"


def test_the_same_card_twice_is_refused() -> None:
    state = position(["JUV-GKP LIV-MID", "ARS-MID"], top="INT-FRW")
    assert refusal(state, 0, SokerMove.play("JUV-GKP", "JUV-GKP")) == "duplicate_card"


def test_legal_moves_list_each_package_with_each_possible_last_card() -> None:
    state = position(["JUV-GKP JUV-DEF LIV-MID", "ARS-MID"], top="INT-FRW")
    assert set(state.legal_moves(0)) == {
        SokerMove("draw"),
        SokerMove.play("JUV-GKP"),
        SokerMove.play("JUV-DEF"),
        SokerMove.play("JUV-GKP", "JUV-DEF"),
        SokerMove.play("JUV-DEF", "JUV-GKP"),
    }


def test_legal_moves_list_packages_with_a_joker_first_last_or_alone_with_the_club_card() -> None:
    moves = set(position(["BAY-DEF JOKER-1", "ARS-MID"], top="INT-FRW").legal_moves(0))
    assert moves == {
        SokerMove("draw"),
        SokerMove.play("JOKER-1"),
        SokerMove.play("JOKER-1", "BAY-DEF"),
        SokerMove.play("BAY-DEF", "JOKER-1"),
    }


def test_a_package_in_a_non_canonical_order_is_still_accepted() -> None:
    state = position(["JUV-GKP JUV-MID JUV-DEF JOKER-1 JOKER-2 LIV-MID", "ARS-MID", "RMA-GKP"], top="INT-FRW")
    odd = SokerMove.play("JUV-MID", "JOKER-2", "JUV-GKP", "JUV-DEF")
    assert odd not in state.legal_moves(0)
    events = state.apply(0, odd)
    assert events[0].cards == odd.cards
    assert top_of(state) == "JUV-DEF"
    assert hand_of(state, 0) == {"JOKER-1", "LIV-MID"}
    assert events[-1] == TurnBegan(2)


def play_key(move: SokerMove) -> tuple:
    """A package up to what cannot matter: the order before its last card, and which of the Jokers held are used."""
    if len(move.cards) == 1:
        return ("single", move.cards[0])
    jokers = [c for c in move.cards if CODES[c].startswith("JOKER")]
    last = "joker" if move.cards[-1] in jokers else move.cards[-1]
    return (frozenset(move.cards) - frozenset(jokers), len(jokers), last)


def test_legal_moves_list_exactly_the_plays_apply_accepts_each_once() -> None:
    from itertools import permutations

    from engine.core import Rng, RuleError
    from engine.soker import SOKER

    rng = Rng(11)
    checked = 0
    for seed in range(12):
        state = SOKER.new_game(2 + seed % 3, None, seed)
        for _ in range(25):
            seat = state.to_act()[0]
            hand = state.hand(seat)
            if len(hand) <= 8:
                snapshot = state.to_json()
                accepted = set()
                for size in range(1, 5):
                    for cards in permutations(hand, size):
                        trial = SOKER.state_from_json(snapshot)
                        try:
                            trial.apply(seat, SokerMove("play", cards))
                        except RuleError:
                            continue
                        accepted.add(play_key(SokerMove("play", cards)))
                listed = [play_key(m) for m in state.legal_moves(seat) if m.kind == "play" and len(m.cards) <= 4]
                assert len(listed) == len(set(listed))
                assert set(listed) == accepted
                checked += 1
            moves = state.legal_moves(seat)
            state.apply(seat, moves[rng.below(len(moves))])
            if state.is_over():
                break
    assert checked > 100
