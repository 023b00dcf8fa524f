"""Age of Soccer's ``sample``: a whole table dealt from one seat's view, for the hard player's search. A sample shows
its seat the same view, is a real state (every card once, the same legal moves, the same seats to act) that plays on
to the end, reads nothing but the view, and moves only the cards hidden from its seat, each to any hidden place alike,
keeping what the seat knows of the hands it cannot see (a shot to come, an answer waiting)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from engine.age_of_soccer import AGE_OF_SOCCER, rules
from engine.age_of_soccer import cards as C
from engine.age_of_soccer.rules import AosState
from tests.engine.age_of_soccer.position import play, position
from tests.engine.conformance import check_cards, face

GAME = AGE_OF_SOCCER
SPECIAL = frozenset(("challenge", "shot", "window", "draft", "discard", "over"))


def positions(seats: int, seed: int, options: dict | None = None, every: int = 4) -> Iterator[AosState]:
    """Every ``every``-th position of a seeded game of random and heuristic players, and every position of a special
    phase (a challenge, a shot, an answer window, a draft, a discard, the end)."""
    state = GAME.new_game(seats, options, seed)
    bots = [GAME.new_bot("heuristic" if seat % 2 else "random", seed + seat) for seat in range(seats)]
    chooser = random.Random(seed)
    step = 0
    while True:
        if step % every == 0 or state.phase in SPECIAL:
            yield state
        acting = state.to_act()
        if not acting:
            return
        seat = chooser.choice(acting)  # (in a window, any of the seats asked answers first)
        state.apply(seat, bots[seat].choose(state, seat))
        step += 1


def games() -> Iterator[AosState]:
    yield from positions(2, 1, every=1)
    yield from positions(2, 2, {"max_rounds": 3}, every=1)
    yield from positions(2, 9, every=1)
    yield from positions(3, 3)
    yield from positions(4, 4, every=6)
    yield from positions(4, 5, {"max_rounds": 6}, every=6)
    yield from positions(4, 8, {"max_rounds": 8}, every=6)
    yield from positions(5, 7, {"max_rounds": 5}, every=6)
    yield from positions(6, 6, {"max_rounds": 4}, every=6)
    # (random play seldom holds eight cards: a discard, and a Transfer Window's draft, set up)
    yield complete(position(hands={0: "SHOOT SHOOT SAVE SAVE OFFSIDE EAGLE BUS RED", 2: "VIK-GK"}, phase="discard"))
    drafting = complete(position(hands={0: "WINDOW SHOOT", 1: "SAVE"}, boards={1: "ROM-AT"}))
    play(drafting, 0, "play WINDOW")
    yield drafting
    play(drafting, 0, f"draft {C.PLAYER_CODES[drafting.draft['cards'][0]]}")
    yield drafting


def wires(state: AosState, seat: int) -> set[str]:
    return {move.to_wire() for move in state.legal_moves(seat)}


def faces_at(state: AosState) -> dict[str, Counter[str]]:
    """Each place's cards by face (copies of an action face are alike)."""
    return {place: Counter(map(face, cards)) for place, cards in state.locations().items()}


def open_places(state: AosState, seat: int) -> list[str]:
    """The places whose cards ``seat`` sees: its own hand, the boards, the discard piles, the draft, the Red Cards."""
    hidden = {"player_deck", "action_deck"} | {
        f"{kind}:{other}" for other in range(state.seats) if other != seat for kind in ("players", "actions")
    }
    return [place for place in state.locations() if place not in hidden]


def hidden_deal(state: AosState, seat: int) -> dict[str, list[str]]:
    """The faces in each place hidden from ``seat``, sorted: how the hidden cards lie."""
    hidden = set(open_places(state, seat))
    return {place: sorted(map(face, cards)) for place, cards in state.locations().items() if place not in hidden}


def check_known_hands(sample: AosState) -> None:
    """What the table knows of the hands it cannot see holds in ``sample``: an attacker asked to shoot holds a shot,
    and a seat that answered holds the card it answered with, one that answers this shot."""
    if sample.phase == "shot":
        assert sample._shot_faces(sample.match["attacker"])
    if sample.phase == "window":
        for seat, card in sample.window["held"].items():
            assert card in sample.actions[seat] and C.ACTION_FACE[card] in sample._answers(seat)


def complete(state: AosState) -> AosState:
    """A :func:`position` with every card it does not name put into its deck (shuffled), so that all are in play."""
    chooser = random.Random(1)
    placed = {card for cards in state.locations().values() for card in cards}
    players = [card for card in range(C.PLAYER_CARDS) if C.PLAYER_CODES[card] not in placed]
    actions = [card for card in range(C.ACTION_CARDS) if C.ACTION_INSTANCE[card] not in placed]
    chooser.shuffle(players)
    chooser.shuffle(actions)
    state.player_deck[:0], state.action_deck[:0] = players, actions  # (under what the position draws first)
    check_cards(GAME, state)
    return state


def test_a_sample_shows_its_seat_the_same_view_and_is_a_real_state_with_the_same_moves() -> None:
    seen: Counter[str] = Counter()
    for index, state in enumerate(games()):
        places = faces_at(state)
        for seat in range(state.seats):
            view = state.view(seat)
            sample = GAME.sample(view, index * 8 + seat)
            assert sample.view(seat) == view and sample.view(seat).to_json() == view.to_json()
            check_cards(GAME, sample)
            assert wires(sample, seat) == wires(state, seat)
            assert sample.to_act() == state.to_act() and sample.outcome() == state.outcome()
            check_known_hands(sample)
            # Only the hidden cards moved: every place the seat sees is as it was, the hidden ones are as large.
            moved = faces_at(sample)
            for place in open_places(state, seat):
                assert moved[place] == places[place], place
            assert list(map(face, sample.locations()["action_discard"])) == list(
                map(face, state.locations()["action_discard"])
            ), "the discard pile in its order"
            assert {place: cards.total() for place, cards in moved.items()} == {
                place: cards.total() for place, cards in places.items()
            }
            assert Counter(map(face, sample.hidden_from(seat))) == Counter(map(face, state.hidden_from(seat)))
            seen[state.phase] += 1
            seen["its own answer waits"] += bool(view.seen.answer)
            seen["another's answer waits"] += bool(set(state.window.get("held", ())) - {seat})
            seen["a round limit"] += bool(view.seen.max_rounds)
        seen[f"{state.seats} seats"] += 1
    assert set(seen) >= SPECIAL and all(seen[f"{seats} seats"] for seats in (2, 3, 4, 6)), seen
    assert seen["its own answer waits"] and seen["another's answer waits"] and seen["a round limit"], seen


def test_a_sample_plays_on_to_the_end_through_its_json_form_too() -> None:
    for seats, seed, at in ((2, 1, 10), (4, 4, 120), (4, 5, 200), (6, 6, 40)):
        state = next(s for i, s in enumerate(positions(seats, seed, every=1)) if i == at)
        for seat in range(seats):
            sample = GAME.sample(state.view(seat), seat)
            for table in (sample, GAME.state_from_json(sample.to_json())):
                bots = [GAME.new_bot("random", seed + other) for other in range(seats)]
                while table.to_act():
                    mover = table.to_act()[-1]
                    table.apply(mover, bots[mover].choose(table, mover))
                    check_known_hands(table)
                check_cards(GAME, table)
                assert table.outcome() is not None


def test_a_sample_reads_only_the_view() -> None:
    for seats, seed, at in ((2, 1, 8), (4, 4, 60), (4, 5, 150)):
        state = next(s for i, s in enumerate(positions(seats, seed, every=1)) if i == at)
        for seat in range(seats):
            view = state.view(seat)
            assert GAME.sample(view, 7).to_json() == GAME.sample(view, 7).to_json()
            assert hidden_deal(GAME.sample(view, 7), seat) != hidden_deal(GAME.sample(view, 8), seat)
            # Another table with the same view for the seat: a sample itself, and one with two hidden cards swapped.
            other = GAME.sample(view, 1234)
            assert other.view(seat) == view and hidden_deal(other, seat) != hidden_deal(state, seat)
            swapped = GAME.state_from_json(state.to_json())
            victim = next(s for s in range(seats) if s != seat and swapped.actions[s])
            hand, deck = swapped.actions[victim], swapped.action_deck
            hand[0], deck[0] = deck[0], hand[0]
            assert swapped.view(seat) == view
            for table in (other, swapped):
                assert GAME.sample(table.view(seat), 99).to_json() == GAME.sample(view, 99).to_json()


def test_each_hidden_card_lands_in_each_hidden_place_alike() -> None:
    state = next(s for i, s in enumerate(positions(4, 4, every=1)) if i == 60)
    seat = 0
    view = state.view(seat)
    hidden = ["player_deck", "action_deck", *(f"{k}:{s}" for s in (1, 2, 3) for k in ("players", "actions"))]
    sizes = {place: len(cards) for place, cards in state.locations().items() if place in hidden}
    players = sum(size for place, size in sizes.items() if "player" in place)
    actions = sum(size for place, size in sizes.items() if "action" in place)
    # A player card and an action face hidden from seat 0, and where 3,000 samples put them.
    player = next(iter(state.player_deck))
    shoots = Counter(map(face, state.hidden_from(seat)))["SHOOT"]
    landed: Counter[str] = Counter()
    samples = 3000
    for seed in range(samples):
        sample = GAME.sample(view, seed)
        for place, cards in sample.locations().items():
            if place in sizes:
                landed[place, "player"] += C.PLAYER_CODES[player] in cards
                landed[place, "shoot"] += sum(face(card) == "SHOOT" for card in cards)
    for place, size in sizes.items():
        if "player" in place:
            expected = samples * size / players
            assert abs(landed[place, "player"] - expected) <= 5 * (expected + 1) ** 0.5, (place, landed, expected)
        else:
            expected = samples * shoots * size / actions
            assert abs(landed[place, "shoot"] - expected) <= 5 * (expected + 1) ** 0.5, (place, landed, expected)


def test_what_the_seat_knows_of_hidden_hands_is_kept_answers_waiting_and_a_challenge_s_passes() -> None:
    # An activated Super Shot; seats 2 and 3 answer Offside before the defender has. Two Offsides are seen (seat 1's
    # and the discard pile's), so the two hidden ones must be those two answers, in hands of two cards.
    state = position(
        hands={0: "SUPERSHOT-SPA SHOOT", 1: "OFFSIDE SAVE", 2: "OFFSIDE SHOOT", 3: "OFFSIDE SAVE"},
        phase="match",
        teams="SPA,VIK,ROM,ZUL",
        action_discard="OFFSIDE",
    )
    complete(state)
    play(state, 0, "challenge 1")
    play(state, 1, "pass")
    view = state.view(0)
    assert view.seen.passes == 1 and GAME.sample(view, 3).challenge["passes"] == 1, "the next pass settles it"
    play(state, 0, "pass")
    play(state, 0, "shoot SUPERSHOT-SPA")
    play(state, 2, "answer OFFSIDE")
    play(state, 3, "answer OFFSIDE")
    assert state.to_act() == (1,)
    for seat in range(4):
        view = state.view(seat)
        assert view.seen.answer == ("OFFSIDE" if seat in (2, 3) else "")
        assert "OFFSIDE" not in str(view.to_json()["window"]), "the JSON form does not show the answer"
        for seed in range(20):
            sample = GAME.sample(view, seed)
            assert sample.view(seat) == view and wires(sample, seat) == wires(state, seat)
            check_known_hands(sample)
            assert {C.ACTION_FACE[card] for card in sample.window["held"].values()} == {"OFFSIDE"}
            if seat == 1:  # the defender passes: seat 2's Offside stops the shot, as at the real table
                real = GAME.state_from_json(state.to_json())
                stopped = [(e.kind, e.seat, e.cards) for e in sample.apply(1, rules.PASS)][:2]
                assert stopped == [(e.kind, e.seat, e.cards) for e in real.apply(1, rules.PASS)][:2]
                assert stopped[1] == ("stopped", 2, ("OFFSIDE",))  # (then seat 0 shoots again if it holds a shot)
    # With no deal tried, the answers are placed by hand: still Offsides, waiting.
    old, rules._DEALS = rules._DEALS, 0
    try:
        for seed in range(20):
            check_known_hands(GAME.sample(state.view(0), seed))
    finally:
        rules._DEALS = old


def test_what_the_view_object_adds_is_open_to_its_seat_and_not_in_its_json_form() -> None:
    for state in positions(4, 5, {"max_rounds": 6}, every=25):
        for seat in range(state.seats):
            view = state.view(seat)
            seen = view.seen
            assert Counter(seen.action_discard) == Counter(map(face, state.locations()["action_discard"]))
            assert not seen.answer or seen.answer in state.faces(seat)
            assert (seen.max_rounds, seen.turns_begun) == (6, state.turns_begun)
            assert set(view.to_json()) <= {
                *("viewer", "seats", "active", "phase", "turn", "traded", "challenged", "player_deck"),
                *("action_deck", "player_discard", "action_discard_top", "action_discard_size", "challenge"),
                *("match", "shot", "window", "draft", "hand", "outcome"),
            }
