"""Age of Soccer's hard player does not go round in circles: the rules allow any number of board changes in training,
and the search, seeing no loss in a change its next move undoes, boarded and benched one card hundreds of times in a
turn (engine/age_of_soccer/bots.py: ``no_circles``)."""

from __future__ import annotations

from engine.age_of_soccer.bots import no_circles
from engine.registry import get_game
from engine.search import SearchBot

AOS = get_game("age-of-soccer")


def test_the_hard_player_never_undoes_its_own_board_change_within_a_turn() -> None:
    """A seeded 4-seat game, the hard player (40 iterations a decision) in seat 1 against normal players: it ends,
    and in no turn does the hard seat bench a card it boarded, or board one it benched, that turn. Without the prune
    the same seat boarded and benched 49 and 42 times in 13 turns at 100 iterations. A few seconds."""
    state = AOS.new_game(4, None, 1)
    hard = SearchBot(AOS.sample, AOS.bots, 17, AOS.search, iterations=40)
    players = [hard if seat == 1 else AOS.new_bot("normal", seat) for seat in range(4)]
    changes: dict[int, list[tuple[str, str]]] = {}
    moves = 0
    while state.to_act() and moves < 3_000:
        seat = state.to_act()[0]
        move = players[seat].choose(state, seat)
        if seat == 1 and move.kind in ("board", "bench"):
            changes.setdefault(state.turn, []).append((move.kind, move.args[0]))
        state.apply(seat, move)
        moves += 1
    assert state.is_over(), "the game ends"
    assert changes, "the hard seat changed its board"
    for turn, made in changes.items():
        for index, (kind, card) in enumerate(made):
            opposite = "bench" if kind == "board" else "board"
            assert (opposite, card) not in made[:index], (turn, made)


def test_the_prune_reads_the_view_and_leaves_other_moves() -> None:
    """After boarding a card, the seat's moves at its decision lose only the bench of that card (instant)."""
    state = AOS.new_game(2, None, 3)
    bot = AOS.new_bot("normal", 0)
    for _ in range(400):
        seat = state.to_act()[0]
        boards = [m for m in state.legal_moves(seat) if m.kind == "board"]
        if boards and state.phase == "training":
            state.apply(seat, boards[0])
            legal = state.legal_moves(seat)
            kept = no_circles(state.view(seat), legal)
            assert [m for m in legal if m not in kept] == [
                m for m in legal if m.kind == "bench" and m.args == boards[0].args
            ]
            assert AOS.search.prune is no_circles
            return
        state.apply(seat, bot.choose(state, seat))
    raise AssertionError("no board change in 400 moves")
