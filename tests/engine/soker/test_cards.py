"""The deck: 58 cards as the house defaults list them, each player card with its legend."""

from __future__ import annotations

from collections import Counter

from engine.soker import SOKER
from engine.soker import cards as C


def test_the_deck_has_58_cards_of_the_right_kinds() -> None:
    state = SOKER.new_game(4, None, seed=1)
    every = [code for place in state.locations().values() for code in place]
    assert len(every) == len(set(every)) == 58
    kinds = Counter(C.special_kind(C.BY_CODE[code]) for code in every)
    assert kinds == {None: 48, C.YELLOW: 4, C.RED: 2, C.JOKER: 4}


def test_every_country_has_three_clubs_of_four_positions() -> None:
    by_country = Counter(C.COUNTRIES[C.country_of(card)] for card in range(C.PLAYER_CARDS))
    assert by_country == {"Italy": 12, "Germany": 12, "Spain": 12, "England": 12}
    clubs = {C.CLUBS[C.club_of(card)].name for card in range(C.PLAYER_CARDS) if C.country_of(card) == 3}
    assert clubs == {"Liverpool", "Manchester United", "Arsenal"}
    assert {C.POSITIONS[C.position_of(c)] for c in range(4)} == {"GKP", "DEF", "MID", "FRW"}


def test_each_player_card_names_a_distinct_legend() -> None:
    legends = [C.legend(card) for card in range(C.PLAYER_CARDS)]
    assert all(legends) and len(set(legends)) == 48
    assert C.legend(C.BY_CODE["JUV-FRW"]) == "Alessandro Del Piero"
    assert C.legend(C.BY_CODE["FCB-FRW"]) == "Lionel Messi"
    assert C.legend(C.BY_CODE["JOKER-1"]) is None
    assert C.label(C.BY_CODE["ARS-FRW"]) == "ARS-FRW (Thierry Henry, Arsenal, England)"


def test_codes_are_unique_and_read_back() -> None:
    assert len(set(C.CODES)) == 58
    assert all(C.BY_CODE[C.code(card)] == card for card in range(58))


def test_the_first_top_card_is_never_special() -> None:
    for seed in range(300):
        state = SOKER.new_game(4, None, seed)
        assert C.is_player(state.top), seed
        assert [h.bit_count() for h in state.hands] == [7, 7, 7, 7]
