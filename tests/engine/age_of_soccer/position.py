"""Readable Age of Soccer positions for scenario tests.

    state = position(
        hands={0: "SHOOT SAVE ROM-AT", 1: "OFFSIDE"},   # action faces and player codes, in any order
        boards={0: "ROM-AT VIK-GK", 1: "SPA-DF"},
        phase="match",                                  # whose turn: active (default 0)
        player_deck="MON-MF", action_deck="SHOOT EAGLE",  # drawn in this order: the first named first
    )

Cards a position does not name are out of play, so a test states only what matters. Identical action cards get the
next copies (``SHOOT#01``, ``SHOOT#02``...).
"""

from __future__ import annotations

from collections import Counter

from engine.age_of_soccer import AGE_OF_SOCCER
from engine.age_of_soccer import cards as C
from engine.age_of_soccer.rules import AosMove, AosState


def _cards(text: str, used: Counter[str]) -> tuple[list[int], list[int]]:
    """(player cards, action cards) named in ``text``."""
    players, actions = [], []
    for word in text.split():
        if word in C.PLAYER_BY_CODE:
            players.append(C.PLAYER_BY_CODE[word])
            continue
        copies = [card for card, face in enumerate(C.ACTION_FACE) if face == word]
        assert copies, f"no card {word}"
        actions.append(copies[used[word]])
        used[word] += 1
    return players, actions


def position(
    seats: int = 4,
    *,
    hands: dict[int, str] | None = None,
    boards: dict[int, str] | None = None,
    active: int = 0,
    phase: str = "training",
    player_deck: str = "",
    action_deck: str = "",
    player_discard: str = "",
    action_discard: str = "",
    teams: str = "",
    options: dict | None = None,
    seed: int = 7,
) -> AosState:
    state = AGE_OF_SOCCER.new_game(seats, {"teams": teams, **(options or {})}, seed)
    used: Counter[str] = Counter()
    state.players = [[] for _ in range(seats)]
    state.actions = [[] for _ in range(seats)]
    state.boards = [[-1, -1, -1, -1] for _ in range(seats)]
    for seat, text in (hands or {}).items():
        state.players[seat], state.actions[seat] = _cards(text, used)
    for seat, text in (boards or {}).items():
        players, _ = _cards(text, used)
        for card in players:
            state.boards[seat][card & 3] = card
    players, actions = _cards(player_deck + " " + action_deck, used)
    state.player_deck, state.action_deck = players[::-1], actions[::-1]  # the deck draws from its end
    state.player_discard, state.action_discard = _cards(player_discard + " " + action_discard, used)
    state.active = active
    state.phase = phase
    every = [c for hand in state.players for c in hand] + [c for b in state.boards for c in b if c >= 0]
    assert len(every) == len(set(every)), "a player card is placed twice"
    return state


def move(text: str) -> AosMove:
    return AGE_OF_SOCCER.move_from_wire(text)


def play(state: AosState, seat: int, text: str) -> list:
    """Apply a move given as text (it must be legal); returns its events."""
    wire = move(text)
    assert wire in state.legal_moves(seat), f"{text!r} is not legal for seat {seat}: {state.legal_moves(seat)}"
    return state.apply(seat, wire)


def kinds(events: list) -> list[str]:
    return [event.kind for event in events]


def faces(state: AosState, seat: int) -> list[str]:
    return sorted(state.faces(seat))


def players(state: AosState, seat: int) -> list[str]:
    return sorted(C.PLAYER_CODES[card] for card in state.players[seat])


def board(state: AosState, seat: int) -> list[str]:
    return [C.PLAYER_CODES[card] for card in state.boards[seat] if card >= 0]
