"""Readable Soker positions for scenario tests.

    state = position(
        hands=["JUV-GKP JUV-DEF JOKER-1", "LIV-MID", "BAY-FRW", "RMA-DEF"],
        top="INT-FRW",
        deck="ARS-GKP MUN-DEF",       # drawn in this order: ARS-GKP first
        discard="LIV-GKP",            # under the top card, bottom first
    )

Cards a position does not mention are out of play, so a test states only what matters. ``top_as_club="JUV"`` puts a
Joker on top standing for that club (as when a package ended with a Joker).
"""

from __future__ import annotations

import pytest

from engine.core import IllegalMove, Rng
from engine.soker import SOKER
from engine.soker.cards import BY_CODE, CLUBS, CODES, JOKER_AS_CLUB
from engine.soker.rules import SokerMove, SokerState


def cards(text: str) -> list[int]:
    return [BY_CODE[code] for code in text.split()]


def position(
    hands: list[str],
    top: str,
    *,
    deck: str = "",
    discard: str = "",
    current: int = 0,
    drawn: bool = False,
    top_as_club: str | None = None,
    played: list[int] | None = None,
    seed: int = 7,
) -> SokerState:
    seats = len(hands)
    state = SOKER.new_game(seats, None, seed)  # options and defaults as in a real game; the cards are laid below
    state.hands = [sum(1 << c for c in cards(hand)) for hand in hands]
    state.deck = list(reversed(cards(deck)))
    state.discard = [*cards(discard), BY_CODE[top]]
    state.top = BY_CODE[top]
    if top_as_club is not None:
        state.top = JOKER_AS_CLUB + [club.code for club in CLUBS].index(top_as_club)
    state.current = current
    state.drawn = drawn
    state.played = list(played) if played is not None else [0] * seats
    state.rng = Rng(seed)
    state.idle_start = not state.can_draw()  # the turn in hand begins with the position as laid
    every = [c for hand in hands for c in cards(hand)] + cards(deck) + state.discard
    assert len(every) == len(set(every)), "a card is placed twice in this position"
    return state


def hand_of(state: SokerState, seat: int) -> set[str]:
    """The codes of the cards in ``seat``'s hand."""
    return {CODES[c] for c in state.hand(seat)}


def top_of(state: SokerState) -> str:
    """The top discard as a spectator sees it: a code, or ``JOKER as JUV`` for a Joker standing for a club."""
    data = state.view(None).to_json()
    return f"JOKER as {data['joker_as_club']}" if "joker_as_club" in data else data["top"]


def refusal(state: SokerState, seat: int, move: SokerMove) -> str:
    """Apply a move that must be refused; checks that the state did not change and returns the refusal's code."""
    before = state.to_json()
    with pytest.raises(IllegalMove) as refused:
        state.apply(seat, move)
    assert state.to_json() == before
    return refused.value.code
