"""The engine core: the seeded generator, specs and options, the registry, replay."""

from __future__ import annotations

import pytest

from engine.core import InvalidOptions, Rng, UnknownGame, play_out
from engine.registry import GAMES, get_game
from engine.soker.bots import RandomBot


def test_rng_is_deterministic_and_restorable() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.next_u64() for _ in range(5)] == [b.next_u64() for _ in range(5)]
    restored = Rng.from_json(a.to_json())
    assert [restored.below(1000) for _ in range(20)] == [a.below(1000) for _ in range(20)]
    assert Rng(1).next_u64() != Rng(2).next_u64()


def test_rng_shuffle_is_a_uniform_permutation() -> None:
    rng = Rng(3)
    counts = [[0] * 4 for _ in range(4)]
    for _ in range(8_000):
        items = [0, 1, 2, 3]
        rng.shuffle(items)
        assert sorted(items) == [0, 1, 2, 3]
        for place, item in enumerate(items):
            counts[item][place] += 1
    # Each item lands in each place about 2,000 times; a biased shuffle is far off.
    assert all(1_800 < n < 2_200 for row in counts for n in row), counts


def test_long_lists_shuffle_too() -> None:
    items = list(range(600))
    Rng(5).shuffle(items)
    assert sorted(items) == list(range(600)) and items != list(range(600))


def test_registry_names_games_and_refuses_unknown_ones() -> None:
    assert get_game("soker") is GAMES["soker"]
    with pytest.raises(UnknownGame, match="no game 'chess'"):
        get_game("chess")


def test_options_are_resolved_with_defaults_and_checked() -> None:
    spec = get_game("soker").spec
    assert spec.resolve(4) == {"hand_size": 7, "first_seat": 0, "turn_seconds": 30}
    assert spec.resolve(3, {"hand_size": 5})["hand_size"] == 5
    with pytest.raises(InvalidOptions, match="takes 2, 3 or 4 seats"):
        spec.resolve(5)
    with pytest.raises(InvalidOptions, match="takes 2, 3 or 4 seats"):
        spec.resolve(1)
    with pytest.raises(InvalidOptions, match="has no such option"):
        spec.resolve(4, {"speed": 2})
    with pytest.raises(InvalidOptions, match="must be a whole number"):
        spec.resolve(4, {"hand_size": "7"})
    with pytest.raises(InvalidOptions, match="must be a whole number"):
        spec.resolve(4, {"hand_size": True})
    with pytest.raises(InvalidOptions, match="at most 12"):
        spec.resolve(4, {"hand_size": 13})


def test_new_game_refuses_a_first_seat_beyond_the_table() -> None:
    with pytest.raises(InvalidOptions, match="first_seat"):
        get_game("soker").new_game(2, {"first_seat": 3}, seed=1)


def test_same_seed_same_game_and_replay_rebuilds_it() -> None:
    game = get_game("soker")
    first = game.new_game(4, None, seed=11)
    log = play_out(first, [RandomBot(s) for s in range(4)])
    second = game.new_game(4, None, seed=11)
    assert play_out(second, [RandomBot(s) for s in range(4)]) == log
    assert second == first
    assert game.replay(4, None, 11, log) == first
    assert game.new_game(4, None, seed=12) != game.new_game(4, None, seed=11)


def test_unknown_bot_is_refused() -> None:
    with pytest.raises(InvalidOptions, match="has no such system player"):
        get_game("soker").new_bot("genius", 1)
