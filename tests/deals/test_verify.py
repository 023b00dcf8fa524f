"""deals.verify: a finished game's replay file verifies, and one changed card, count, seat, move, secret, seed or
version is refused with the version where it differs and why. The replays are played with the engines and written as
the server writes them (tests/deals/replays.py); each game is played once per test process (a fraction of a second)."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest

from deals import scheme
from deals.verify import Verdict, verify
from engine.registry import get_game
from tests.deals.replays import SECRET, Played, played_replay

# Each game at a table with a system player, a seat's choice where the game offers one, and the table's moves.
GAMES = {
    "soker": dict(seats=3, system=(2,)),
    "age-of-soccer": dict(seats=3, system=(1,), choices={0: "VIK"}, options={"max_rounds": 5}),
    "carta-futbol-club": dict(seats=4, system=(3,)),
}
VIEW_FIELD = {"soker": "soker", "age-of-soccer": "ageOfSoccer", "carta-futbol-club": "carta"}


@functools.cache
def _played(game: str) -> Played:
    settings = dict(GAMES[game])
    return played_replay(game, settings.pop("seats"), **settings)


def _replay(game: str) -> dict[str, Any]:
    """A fresh copy of the game's replay file, read back from its JSON text as `kickoff verify` reads it."""
    return json.loads(json.dumps(_played(game).replay))


def _refused(replay: dict[str, Any]) -> Verdict:
    verdict = verify(replay)
    assert not verdict.ok and verdict.readable, verdict
    return verdict


def _middle(game: str) -> int:
    """A version in the middle of the game's moves (its step's index is version - 1)."""
    played = _played(game)
    return played.first_view + played.moves // 2


def _step(replay: dict[str, Any], version: int) -> dict[str, Any]:
    return replay["steps"][version - 1]


def _other_card(game: str, *not_these: str) -> str:
    return next(face.code for face in get_game(game).catalogue() if face.code not in not_these)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_verifies_from_its_replay_file(game: str) -> None:
    """The whole game, moves by people, a system player and the table, dealt again and replayed: what a player who
    downloads the replay file sees `kickoff verify` answer."""
    played = _played(game)
    assert played.moves > 20 and played.table_moves > 0
    verdict = verify(_replay(game))
    assert verdict.ok, verdict.describe()
    commitment = scheme.commitment(SECRET, "r-verify", game)
    assert (
        verdict.describe()
        == f"verified: {game} r-verify, {played.first_view + played.moves} versions, deal {commitment}"
    )


def test_a_changed_card_in_the_spectators_view_is_refused_at_its_version() -> None:
    replay = _replay("soker")
    version = _middle("soker")
    view = _step(replay, version)["view"]["soker"]
    view["topCard"] = _other_card("soker", view["topCard"])
    verdict = _refused(replay)
    assert verdict.version == version
    assert verdict.reason.startswith("the spectator's view differs: top_card is ")
    assert f"differs at version {version}: " in verdict.describe()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_changed_card_in_a_hand_is_refused_at_its_version(game: str) -> None:
    """Once the game is over every seat's view is in the file: one card of one hand changed is caught."""
    replay = _replay(game)
    version = _middle(game)
    seat = 1
    view = _step(replay, version)["hands"][seat][VIEW_FIELD[game]]
    cards = {"soker": lambda: view["hand"], "carta-futbol-club": lambda: view["handCards"]}.get(
        game, lambda: view["hand"]["actions"]
    )()
    assert cards, "the seat holds cards at the middle of the game"
    cards[0] = _other_card(game, *cards)
    verdict = _refused(replay)
    assert verdict.version == version
    assert verdict.reason.startswith(f"seat {seat}'s view differs: ")


@pytest.mark.parametrize(
    ("field", "change", "words"),
    [
        ("deckSize", lambda value: value + 1, "deck_size is "),
        ("current", lambda value: (value + 1) % 3, "current is "),
        ("handSizes", lambda value: [value[0] + 1, *value[1:]], "hand_sizes[0] is "),
    ],
    ids=["a count", "the seat to play", "a hand's size"],
)
def test_a_changed_count_or_seat_in_a_view_is_refused(field: str, change: Any, words: str) -> None:
    """A field left out at its default (a seat 0, a count 0) is set by the change too: defaults do not hide it."""
    replay = _replay("soker")
    version = _middle("soker")
    view = _step(replay, version)["view"]["soker"]
    view[field] = change(view.get(field, 0))
    verdict = _refused(replay)
    assert verdict.version == version and words in verdict.reason


def test_a_changed_move_is_refused_by_the_rules_or_by_the_table_after_it() -> None:
    played = _played("soker")
    steps = played.replay["steps"]
    version = next(
        index + 1
        for index, step in enumerate(steps)
        if "move" in step and step["move"]["text"].startswith("play") and not step["move"].get("byTable")
    )
    seat, text = steps[version - 1]["move"].get("seat", 0), steps[version - 1]["move"]["text"]
    # a card the seat does not hold: the rules refuse the move
    replay = _replay("soker")
    held = _step(replay, version - 1)["hands"][seat]["soker"]["hand"]
    _step(replay, version)["move"]["text"] = f"play {_other_card('soker', *held)}"
    verdict = _refused(replay)
    assert verdict.version == version
    assert verdict.reason.startswith(f"seat {seat}'s move 'play ") and "is refused by the rules" in verdict.reason
    # another legal move of the seat's: the table after it is not the file's
    game = get_game("soker")
    deal = played.replay["room"]["deal"]
    state = game.new_game(3, None, scheme.game_seed(SECRET, "r-verify", "soker", deal["seeds"]))
    for step in steps[: version - 1]:
        if "move" in step:
            move = step["move"]
            state.apply(move.get("seat", 0), game.move_from_wire(move["text"]), by_table=move.get("byTable", False))
    other = next(move.to_wire() for move in state.legal_moves(seat) if move.to_wire() != text)
    replay = _replay("soker")
    _step(replay, version)["move"]["text"] = other
    verdict = _refused(replay)
    assert verdict.version == version and "view differs" in verdict.reason


def test_a_wrong_secret_is_refused_at_the_deal() -> None:
    replay = _replay("carta-futbol-club")
    replay["room"]["deal"]["secret"] = bytes(range(1, 33)).hex()
    verdict = _refused(replay)
    assert verdict.version is None
    assert verdict.reason.startswith("the secret does not match the commitment")
    assert verdict.describe().startswith("differs at the deal: ")


def test_a_wrong_seat_seed_deals_another_game_or_is_not_the_seats() -> None:
    """A seat's seed changed everywhere deals another game (refused at the deal's first table); changed in the deal
    only, it is not the seat's; a system player's seed other than the one the secret fixes is refused too."""
    played = _played("soker")
    replay = _replay("soker")
    replay["room"]["deal"]["seeds"][0] = replay["room"]["seats"][0]["seed"] = "another-seed"
    verdict = _refused(replay)
    assert verdict.version == played.first_view and "view differs" in verdict.reason

    replay = _replay("soker")
    replay["room"]["deal"]["seeds"][1] = "another-seed"
    verdict = _refused(replay)
    assert verdict.version is None and verdict.reason.startswith("the deal's seed 1 is 'another-seed'")

    replay = _replay("soker")
    replay["room"]["deal"]["seeds"][2] = replay["room"]["seats"][2]["seed"] = "chosen-by-the-server"
    verdict = _refused(replay)
    assert verdict.version is None and verdict.reason.startswith("seat 2 is a system player's")


def test_a_skipped_version_is_refused() -> None:
    replay = _replay("age-of-soccer")
    version = _middle("age-of-soccer")
    del replay["steps"][version - 1]
    verdict = _refused(replay)
    assert verdict.version == version + 1
    assert verdict.reason == f"version {version} missing: the versions skip from {version - 1} to {version + 1}"


def test_an_unknown_scheme_is_refused() -> None:
    replay = _replay("soker")
    replay["room"]["deal"]["scheme"] = "kickoff-deal-9"
    verdict = _refused(replay)
    assert verdict.version is None and verdict.reason.startswith("unknown deal scheme 'kickoff-deal-9'")


def test_a_deal_for_another_subject_is_refused_even_with_its_commitment() -> None:
    replay = _replay("soker")
    deal = replay["room"]["deal"]
    deal["subject"] = "another-room"
    deal["commitment"] = scheme.commitment(SECRET, "another-room", "soker")
    verdict = _refused(replay)
    assert verdict.version is None and verdict.reason.startswith("the deal is for 'another-room'")


def test_a_changed_outcome_is_refused() -> None:
    replay = _replay("carta-futbol-club")
    outcome = replay["room"]["outcome"]
    outcome["teamPoints"] = [points + 1 for points in outcome["teamPoints"]]
    verdict = _refused(replay)
    assert (
        verdict.version == len(replay["steps"]) and "the room's outcome differs: outcome.team_points" in verdict.reason
    )


def test_a_game_in_play_or_not_a_replay_cannot_be_verified() -> None:
    replay = _replay("soker")
    del replay["room"]["deal"]["secret"]
    verdict = verify(replay)
    assert not verdict.readable and "secret is not revealed yet" in verdict.reason
    assert not verify({"name": "not a replay"}).readable
    assert not verify([]).readable  # type: ignore[arg-type]


def test_a_game_the_room_ended_before_its_end_is_verified_up_to_then() -> None:
    """An abandoned (or closed) room's last step shows no table: its moves up to then are checked, and the line says
    the room ended it; a winner claimed for it, or a table after it, is refused."""
    replay = _replay("soker")
    version = _middle("soker")
    del replay["steps"][version:]
    replay["steps"].append({"update": {"roomId": "r-verify", "version": str(version + 1)}})
    replay["room"]["version"] = str(version + 1)
    replay["room"]["outcome"] = {"reason": "abandoned"}
    verdict = verify(replay)
    assert verdict.ok, verdict.describe()
    assert verdict.describe().endswith(
        "(the room ended the game before its end, abandoned: every move up to then verified)"
    )
    replay["room"]["outcome"]["winners"] = [1]
    assert _refused(replay).reason == "the game is not over after the replay's last version"
