"""Readable Carta Fútbol Club positions for scenario tests.

    state = position(
        hands={0: "PI-6 DT-8 CANITO", 1: "PI-7 SUPER"},   # faces without the colour: each seat's team deck's
        actor=0, ball=0, count=2,                          # who acts, the team with the ball, its plays so far
        luck={0: "GOAL NOGOAL"},                           # a Luck deck from its top
    )
    play(state, 0, "play PI-6")                            # moves name faces without the colour too

Team 0 plays the Blue deck, team 1 the Green one; seat 0 started the match. Cards a position does not name wait in
their decks (Skill and Special decks in layout order, dealt from the end), so a hand that ends deals the next.
"""

from __future__ import annotations

from collections import Counter

from engine.carta import CARTA
from engine.carta import cards as C
from engine.carta.rules import PLAY, CartaMove, CartaState


def _full(face: str, team: int) -> str:
    return face if face[:2] in ("B-", "G-") else f"{C.COLOURS[team]}-{face}"


def _take(faces: str, team: int, used: Counter[str]) -> list[int]:
    cards = []
    for word in faces.split():
        face = _full(word, team)
        copies = C.BY_FACE.get(face)
        assert copies, f"no card {face}"
        cards.append(copies[used[face]])
        used[face] += 1
    return cards


def position(
    seats: int = 2,
    *,
    hands: dict[int, str] | None = None,
    actor: int = 0,
    ball: int | None = None,
    count: int = 0,
    hand: int = 1,
    goals: tuple[int, int] = (0, 0),
    luck: dict[int, str] | None = None,
    options: dict | None = None,
    seed: int = 7,
) -> CartaState:
    state = CARTA.new_game(seats, options, seed)
    state.colours = [0, 1]
    state.starter = 0
    state.phase = PLAY
    state.hand = hand
    state.extra = [hand - 1, hand - 1]
    state.goals = list(goals)
    used: Counter[str] = Counter()
    named: set[int] = set()
    for seat, text in (hands or {}).items():
        state.hands[seat] = _take(text, seat % 2, used)
        named.update(state.hands[seat])
    for team in (0, 1):
        luck_top = _take((luck or {}).get(team, ""), team, used)
        named.update(luck_top)
        rest = [card for card in C.deck_cards(team, C.LUCK) if card not in named]
        state.luck[team] = rest + luck_top[::-1]  # the deck draws from its end
        state.skill[team] = [card for card in C.deck_cards(team, C.SKILL) if card not in named]
        state.special[team] = [card for card in C.deck_cards(team, C.SPECIAL) if card not in named]
    state.actor = actor
    state.ball = state.team_of(actor) if ball is None else ball
    state.count = count
    return state


def move(state: CartaState, seat: int, text: str) -> CartaMove:
    words = text.split()
    team = state.team_of(seat)
    if words[0] in ("play", "down") and len(words) > 1:
        words[1] = _full(words[1].upper(), team)
    return CARTA.move_from_wire(" ".join(words))


def play(state: CartaState, seat: int, text: str) -> list:
    """Apply a move given as text (it must be legal); returns its events."""
    wire = move(state, seat, text)
    assert wire in state.legal_moves(seat), f"{text!r} is not legal for seat {seat}: {state.legal_moves(seat)}"
    return state.apply(seat, wire)


def legal(state: CartaState, seat: int) -> set[str]:
    """The seat's legal moves as text, without the colours."""
    return {
        " ".join(word[2:] if word[:2] in ("B-", "G-") else word for word in m.to_wire().split())
        for m in state.legal_moves(seat)
    }


def kinds(events: list) -> list[str]:
    return [event.kind for event in events]


def held(state: CartaState, seat: int) -> list[str]:
    return sorted(face[2:] for face in state.faces(seat))


def data(event) -> dict:
    return dict(event.data)
